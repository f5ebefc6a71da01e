//! games/aae: the 1999 Axis & Allies: Europe board, setup and units, checked
//! against the rules digest and cross-checked against TripleA's files (read
//! from ../shared, never copied into the repository).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use adjutant::import::triplea;
use adjutant::rules::{GameDef, SpaceId, load_dir};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn aae() -> GameDef {
    load_dir(&root().join("games/aae")).unwrap_or_else(|e| panic!("{e}"))
}

fn triplea_game(rel: &str) -> GameDef {
    let path = root().join("../shared/triplea-xml").join(rel);
    let text = std::fs::read_to_string(&path).unwrap();
    triplea::import(&text, "x", rel).unwrap().game
}

#[test]
fn board_has_61_territories_35_sea_zones_7_convoys_and_the_bosphorus() {
    let game = aae();
    let board = &game.files().board;
    assert_eq!(board.territories.len(), 61);
    assert_eq!(board.sea_zones.len(), 35);
    let convoys: BTreeMap<&str, (u32, &str)> = board
        .sea_zones
        .iter()
        .filter_map(|z| {
            z.convoy
                .as_ref()
                .map(|c| (z.name.as_str(), (c.value, c.power.as_str())))
        })
        .collect();
    let expected: BTreeMap<&str, (u32, &str)> = [
        ("British Convoy 1", (3, "United Kingdom")),
        ("British Convoy 2", (3, "United Kingdom")),
        ("British Convoy 3", (5, "United Kingdom")),
        ("British Convoy 4", (5, "United Kingdom")),
        ("U.S. Convoy 1", (4, "United States")),
        ("U.S. Convoy 2", (6, "United States")),
        ("Soviet Convoy", (4, "Soviet Union")),
    ]
    .into();
    assert_eq!(convoys, expected);
    let soviet = board
        .sea_zones
        .iter()
        .find(|z| z.name == "Soviet Convoy")
        .unwrap();
    assert_eq!(
        soviet.convoy.as_ref().unwrap().requires,
        vec!["Archangel".to_owned()]
    );

    assert_eq!(board.canals.len(), 1);
    let bosphorus = &board.canals[0];
    assert_eq!(bosphorus.name, "Bosphorus");
    assert_eq!(
        bosphorus.sea_zones,
        vec!["Black Sea".to_owned(), "Aegean Sea".to_owned()]
    );
    assert_eq!(bosphorus.controlled_by, vec!["Turkey".to_owned()]);
    let turkey = game.territory(game.space("Turkey").unwrap()).unwrap();
    assert!(turkey.impassable && turkey.original_owner.is_none());
}

#[test]
fn every_adjacency_is_symmetric_and_there_are_236_borders() {
    let game = aae();
    let mut links = 0;
    for i in 0..game.space_count() {
        let a = SpaceId(i);
        for &b in game.neighbours(a) {
            assert!(
                game.adjacent(b, a),
                "{} -> {} is one-way",
                game.space_name(a),
                game.space_name(b)
            );
            links += 1;
        }
    }
    // TripleA's file has 242 <connection> elements, six of which repeat a border.
    assert_eq!(links, 2 * 236);
    // FAQ: the United States touches only the U.S. Eastern Coast sea zone.
    let us = game.space("United States").unwrap();
    let seas: Vec<&str> = game
        .neighbours(us)
        .iter()
        .filter(|s| game.is_sea(**s))
        .map(|s| game.space_name(*s))
        .collect();
    assert_eq!(seas, vec!["U.S. Eastern Coast"]);
}

#[test]
fn neutrals_are_the_seven_impassable_territories() {
    let game = aae();
    let neutrals: BTreeSet<&str> = game
        .files()
        .board
        .territories
        .iter()
        .filter(|t| t.impassable)
        .map(|t| t.name.as_str())
        .collect();
    let expected: BTreeSet<&str> = [
        "Eire",
        "Saudi Arabia",
        "Spain",
        "Spanish Morocco",
        "Sweden",
        "Switzerland",
        "Turkey",
    ]
    .into();
    assert_eq!(neutrals, expected);
    assert!(
        game.files()
            .board
            .territories
            .iter()
            .all(|t| t.impassable == t.original_owner.is_none())
    );
}

#[test]
fn starting_income_matches_the_digest_breakdown() {
    let game = aae();
    let breakdown = |p: &str| game.income_breakdown(game.power(p).unwrap());
    assert_eq!(breakdown("Germany"), (40, 0));
    assert_eq!(breakdown("Soviet Union"), (20, 4));
    assert_eq!(breakdown("United Kingdom"), (9, 16));
    assert_eq!(breakdown("United States"), (30, 10));
    for (power, ipcs) in [
        ("Germany", 40),
        ("Soviet Union", 24),
        ("United Kingdom", 25),
        ("United States", 40),
    ] {
        let p = game.power(power).unwrap();
        assert_eq!(game.starting_ipcs(p), ipcs, "{power}");
        assert_eq!(game.starting_income(p), ipcs, "{power}");
    }
    // The Middle East (8 IPCs of land) pays nobody while Allied (FAQ).
    let me = game.power("Middle East").unwrap();
    let me_land: u32 = game
        .files()
        .board
        .territories
        .iter()
        .filter(|t| t.original_owner.as_deref() == Some("Middle East"))
        .map(|t| t.ipc.unwrap())
        .sum();
    assert_eq!(me_land, 8);
    assert_eq!(game.starting_income(me), 0);
    assert!(!game.powers()[me].plays);
    assert_eq!(
        game.side_of(me),
        game.side_of(game.power("United States").unwrap())
    );
}

/// (name, cost, attack, defense, movement, hit points)
type Row = (&'static str, Option<u32>, u8, u8, u8, u8);

#[test]
fn unit_stats_follow_the_digest() {
    let game = aae();
    // (name, cost, attack, defense, movement, hit points)
    let table: [Row; 12] = [
        ("infantry", Some(3), 1, 2, 1, 1),
        ("artillery", Some(4), 2, 2, 1, 1),
        ("armor", Some(5), 3, 2, 2, 1),
        ("fighter", Some(12), 3, 4, 4, 1),
        ("bomber", Some(15), 4, 1, 6, 1),
        ("transport", Some(8), 0, 1, 2, 1),
        ("submarine", Some(8), 2, 2, 2, 1),
        ("destroyer", Some(12), 3, 3, 2, 1),
        ("carrier", Some(18), 1, 3, 2, 1),
        ("battleship", Some(24), 4, 4, 2, 2),
        ("AA gun", Some(5), 0, 0, 1, 1),
        ("industrial complex", None, 0, 0, 0, 1),
    ];
    assert_eq!(game.unit_types().len(), table.len());
    for (name, cost, attack, defense, movement, hp) in table {
        let u = game.unit_type(name).unwrap_or_else(|| panic!("{name}"));
        assert_eq!(u.cost, cost, "{name} cost");
        assert_eq!(u.attack.unwrap_or(0), attack, "{name} attack");
        assert_eq!(u.defense.unwrap_or(0), defense, "{name} defense");
        assert_eq!(u.movement.unwrap_or(0), movement, "{name} movement");
        assert_eq!(u.hit_points, hp, "{name} hit points");
    }
    use adjutant::rules::model::Ability;
    let has = |u: &str, a: Ability| game.unit_type(u).unwrap().abilities.contains(&a);
    assert!(
        has("destroyer", Ability::Bombard(2)),
        "2nd-edition errata: destroyer support shot at 2"
    );
    assert!(has("battleship", Ability::Bombard(4)));
    assert!(has("fighter", Ability::Escort(1)) && has("fighter", Ability::Interceptor(2)));
    assert!(has("AA gun", Ability::AntiAircraft(1)));
    assert!(has("armor", Ability::Blitz));
    assert!(has("submarine", Ability::FirstStrike) && has("submarine", Ability::Submerge));
    assert!(has("submarine", Ability::CannotHitAir));
    // Transport: one armor, or any two of infantry / artillery / AA gun.
    let cap = game
        .unit_type("transport")
        .unwrap()
        .transport_capacity
        .unwrap();
    let cost = |u: &str| game.unit_type(u).unwrap().transport_cost.unwrap();
    assert!(
        cost("armor") <= cap && 2 * cost("armor") > cap && cost("armor") + cost("infantry") > cap
    );
    assert!(
        cost("infantry") + cost("artillery") <= cap && cost("infantry") + cost("AA gun") <= cap
    );
    assert_eq!(game.unit_type("carrier").unwrap().carrier_capacity, Some(2));
    assert_eq!(game.unit_type("tank").unwrap().name, "armor");
}

fn unit_totals(game: &GameDef) -> BTreeMap<(String, String), u32> {
    let mut totals = BTreeMap::new();
    for (_, power, unit, n) in game.starting_units() {
        *totals
            .entry((game.powers()[power].name.clone(), unit.name.clone()))
            .or_insert(0) += n;
    }
    totals
}

#[test]
fn starting_units_per_power_follow_the_digest_with_the_faq_island_correction() {
    let totals = unit_totals(&aae());
    let get = |p: &str, u: &str| {
        totals
            .get(&(p.to_owned(), u.to_owned()))
            .copied()
            .unwrap_or(0)
    };
    // Digest 8: Germany 50 inf (one on Crete, removed per the FAQ), 10 art, 13 arm, 6 ftr, 1 bmb,
    // 2 AA, 2 IC, 10 sub, 2 trn, 1 dd, 1 bb.
    let germany = [
        ("infantry", 49),
        ("artillery", 10),
        ("armor", 13),
        ("fighter", 6),
        ("bomber", 1),
        ("AA gun", 2),
        ("industrial complex", 2),
        ("submarine", 10),
        ("transport", 2),
        ("destroyer", 1),
        ("battleship", 1),
    ];
    // USSR 44 inf, 5 art, 6 arm, 1 ftr, 1 bmb, 4 AA, 4 IC, 1 trn, 1 sub.
    let ussr = [
        ("infantry", 44),
        ("artillery", 5),
        ("armor", 6),
        ("fighter", 1),
        ("bomber", 1),
        ("AA gun", 4),
        ("industrial complex", 4),
        ("transport", 1),
        ("submarine", 1),
    ];
    // UK 8 inf, 2 art, 3 arm, 3 ftr (one on Malta, removed per the FAQ), 1 bmb, 2 AA, 2 IC, 6 dd, 5 trn, 1 bb.
    let uk = [
        ("infantry", 8),
        ("artillery", 2),
        ("armor", 3),
        ("fighter", 2),
        ("bomber", 1),
        ("AA gun", 2),
        ("industrial complex", 2),
        ("destroyer", 6),
        ("transport", 5),
        ("battleship", 1),
    ];
    // USA 2 inf, 1 ftr, 1 bmb, 1 AA, 1 IC, 1 dd, 1 trn.
    let usa = [
        ("infantry", 2),
        ("fighter", 1),
        ("bomber", 1),
        ("AA gun", 1),
        ("industrial complex", 1),
        ("destroyer", 1),
        ("transport", 1),
    ];
    let mut expected_total = 0;
    for (power, list) in [
        ("Germany", &germany[..]),
        ("Soviet Union", &ussr[..]),
        ("United Kingdom", &uk[..]),
        ("United States", &usa[..]),
    ] {
        for (unit, n) in list {
            assert_eq!(get(power, unit), *n, "{power} {unit}");
            expected_total += n;
        }
    }
    assert_eq!(
        totals.values().sum::<u32>(),
        expected_total,
        "no other units: {totals:?}"
    );
    assert_eq!(
        get("Germany", "carrier")
            + get("United Kingdom", "carrier")
            + get("United States", "carrier"),
        0
    );
}

fn adjacency(game: &GameDef) -> BTreeSet<(String, String)> {
    (0..game.space_count())
        .flat_map(|i| {
            game.neighbours(SpaceId(i))
                .iter()
                .map(move |&b| (SpaceId(i), b))
        })
        .map(|(a, b)| (game.space_name(a).to_owned(), game.space_name(b).to_owned()))
        .collect()
}

fn setup_by_space(game: &GameDef) -> BTreeMap<(String, String, String), u32> {
    game.starting_units()
        .map(|(s, p, u, n)| {
            (
                (
                    game.space_name(s).to_owned(),
                    game.powers()[p].name.clone(),
                    u.name.clone(),
                ),
                n,
            )
        })
        .collect()
}

#[test]
fn cross_check_against_both_triplea_files_differs_only_by_documented_corrections() {
    let ours = aae();
    for rel in [
        "europe_improved/europe_improved.xml",
        "europe/europe_AAE.xml",
    ] {
        let theirs = triplea_game(rel);
        assert_eq!(adjacency(&ours), adjacency(&theirs), "{rel}: adjacency");
        let ipc = |g: &GameDef| -> BTreeMap<String, u32> {
            g.files()
                .board
                .territories
                .iter()
                .map(|t| (t.name.clone(), t.ipc.unwrap()))
                .collect()
        };
        assert_eq!(ipc(&ours), ipc(&theirs), "{rel}: IPC values");
        let mut expected = setup_by_space(&theirs);
        // The FAQ correction: no starting units on the Mediterranean islands and Iceland.
        assert_eq!(
            expected.remove(&("Crete".into(), "Germany".into(), "infantry".into())),
            Some(1),
            "{rel}"
        );
        assert_eq!(
            expected.remove(&("Malta".into(), "United Kingdom".into(), "fighter".into())),
            Some(1),
            "{rel}"
        );
        assert_eq!(setup_by_space(&ours), expected, "{rel}: setup");
    }
}

#[test]
fn aae_directory_name_matches_and_options_are_aae() {
    let game = aae();
    assert_eq!(game.id(), "aae");
    assert_eq!(game.rule_set().id(), "aae");
    assert_eq!(
        game.option("patriotic_war"),
        Some(adjutant::rules::model::OptionValue::Bool(true))
    );
    assert!(
        game.powers()
            .iter()
            .all(|p| p.capital.as_deref() != Some("Saudi Arabia"))
    );
    assert_eq!(
        game.turn_order()
            .iter()
            .map(|&p| game.powers()[p].name.as_str())
            .collect::<Vec<_>>(),
        ["Germany", "Soviet Union", "United Kingdom", "United States"]
    );
    assert!(Path::new(&root().join("games/aae/board.yaml")).exists());
}
