//! games/advanced-aae: the board, powers and setup of Advanced Axis & Allies
//! Europe v2.2, DERIVED from games/aae as the rules digest's Part D proposes
//! (../shared/rules/digest-advanced-aae.md; the real board was never found).
//! Every number and decision of Parts C and D that is data is checked here,
//! each against the digest's own figures; and a second, different board
//! loads with the same rule set, so no board fact lives in its code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use adjutant::rules::model::{Ability, OptionValue};
use adjutant::rules::{GameDef, GameFiles, SpaceId, load_dir};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn advanced() -> &'static GameDef {
    static GAME: OnceLock<GameDef> = OnceLock::new();
    GAME.get_or_init(|| {
        load_dir(&root().join("games/advanced-aae")).unwrap_or_else(|e| panic!("{e}"))
    })
}

fn aae() -> &'static GameDef {
    static GAME: OnceLock<GameDef> = OnceLock::new();
    GAME.get_or_init(|| load_dir(&root().join("games/aae")).unwrap_or_else(|e| panic!("{e}")))
}

fn space(name: &str) -> SpaceId {
    advanced()
        .space(name)
        .unwrap_or_else(|| panic!("{name} is on the board"))
}

fn power(name: &str) -> usize {
    advanced()
        .power(name)
        .unwrap_or_else(|| panic!("{name} is a power"))
}

/// A space's neighbours by name, sorted.
fn neighbours(game: &GameDef, name: &str) -> BTreeSet<String> {
    let id = game.space(name).unwrap_or_else(|| panic!("{name}"));
    game.neighbours(id)
        .iter()
        .map(|&n| game.space_name(n).to_owned())
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

/// The playing powers in turn order, by name.
const TURN_ORDER: [&str; 6] = [
    "Germany",
    "Italy",
    "Russia",
    "Britain",
    "British Middle East",
    "USA",
];

#[test]
fn the_board_has_65_territories_38_sea_zones_and_256_borders() {
    // D.1: "65 land + 38 sea spaces and 256 connections, counting the
    // canal-gated sea links".
    let game = advanced();
    let board = &game.files().board;
    assert_eq!(board.territories.len(), 65);
    assert_eq!(board.sea_zones.len(), 38);
    let links: usize = (0..game.space_count())
        .map(|i| game.neighbours(SpaceId(i)).len())
        .sum();
    assert_eq!(links, 2 * 256);
    // AAE's board, which it is derived from: 61 + 35 spaces, 236 borders.
    let base = aae();
    assert_eq!(base.files().board.territories.len(), 61);
    assert_eq!(base.files().board.sea_zones.len(), 35);
    let base_links: usize = (0..base.space_count())
        .map(|i| base.neighbours(SpaceId(i)).len())
        .sum();
    assert_eq!(base_links, 2 * 236);
    // Every space is reachable from every other.
    let mut seen = BTreeSet::from([0]);
    let mut todo = vec![SpaceId(0)];
    while let Some(s) = todo.pop() {
        for &n in game.neighbours(s) {
            if seen.insert(n.0) {
                todo.push(n);
            }
        }
    }
    assert_eq!(seen.len(), game.space_count());
}

#[test]
fn the_game_is_advanced_aae_with_six_powers_sides_and_turn_order() {
    let game = advanced();
    assert_eq!(game.id(), "advanced-aae");
    assert_eq!(game.rule_set().id(), "advanced_aae");
    // AAAE-04 PROPOSAL: the base order with each new power straight after
    // the power it was split from.
    let order: Vec<&str> = game
        .turn_order()
        .into_iter()
        .map(|p| game.powers()[p].name.as_str())
        .collect();
    assert_eq!(order, TURN_ORDER);
    // AAAE-03: six powers, each with its own treasury and income.
    assert_eq!(game.powers().len(), 6);
    assert!(game.powers().iter().all(|p| p.plays && p.collects_income));
    let sides: Vec<(&str, Vec<&str>)> = game
        .files()
        .game
        .sides
        .iter()
        .map(|s| {
            (
                s.name.as_str(),
                s.powers.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        sides,
        [
            ("Axis", vec!["Germany", "Italy"]),
            (
                "Allies",
                vec!["Russia", "Britain", "British Middle East", "USA"]
            ),
        ]
    );
    // The rules' words and AAE's names are accepted for the powers.
    for (word, name) in [
        ("British MidEast", "British Middle East"),
        ("BME", "British Middle East"),
        ("Soviet Union", "Russia"),
        ("United Kingdom", "Britain"),
        ("United States", "USA"),
    ] {
        assert_eq!(power(word), power(name), "{word}");
    }
    // The game says it is derived.
    let notes = game.files().game.notes.as_deref().unwrap_or_default();
    assert!(notes.contains("DERIVED"), "{notes}");
    for file in ["game.yaml", "board.yaml", "setup.yaml", "units.yaml"] {
        let text = std::fs::read_to_string(root().join("games/advanced-aae").join(file)).unwrap();
        assert!(
            text.starts_with("# Advanced Axis & Allies Europe v2.2")
                && text.contains("DERIVED, NOT THE REAL BOARD"),
            "{file}"
        );
    }
}

/// Advanced AAE is played (issue 19 done): `load_dir` (and so `--games
/// DIR`) loads it, and it is a built-in game, the same as the files.
#[test]
fn the_game_loads_where_games_are_played_and_is_built_in() {
    let loaded = load_dir(&root().join("games/advanced-aae")).expect("loads");
    assert_eq!(loaded.files(), advanced().files());
    let builtin = adjutant::rules::builtin::GameSource::Builtin
        .load("advanced-aae")
        .expect("built in");
    assert_eq!(builtin.def.files(), advanced().files());
}

#[test]
fn every_space_the_rules_name_is_on_the_board() {
    // AAAE-01 and C.1, with the derived board's answer for each name.
    let game = advanced();
    for (named, is) in [
        ("Siberia", "Siberia"),
        ("Western Turkey", "Western Turkey"),
        ("Eastern Strait of Gibraltar", "Eastern Strait of Gibraltar"),
        ("Western Strait of Gibraltar", "Western Strait of Gibraltar"),
        ("Danish Sea", "Danish Sea"),
        ("Baltic Sea", "Baltic Sea"),
        ("Red Sea", "Red Sea"),
        ("East Med", "Eastern Mediterranean"),
        ("Eastern Mediterranean", "Eastern Mediterranean"),
        ("Black Sea", "Black Sea"),
        ("Mediterranean Convoy Zone", "Mediterranean Convoy"),
        ("Russian Convoy Zone", "Russian Convoy"),
        ("British Convoy 1", "British Convoy 1"),
        ("British Convoy 2", "British Convoy 2"),
        ("British Convoy 3", "British Convoy 3"),
        ("British Convoy 4", "British Convoy 4"),
        ("Vichy France", "Vichy France"),
        ("Switzerland", "Switzerland"),
        ("Eire", "Eire"),
        ("Gibraltar", "Gibraltar"),
        ("Denmark", "Denmark"),
        ("Egypt", "Egypt"),
        ("West Germany", "West Germany"),
        ("London", "London"),
        ("United Kingdom", "United Kingdom"),
        ("Scotland", "Scotland"),
        ("Trans-Jordan", "Trans-Jordan"),
        ("Cairo", "Egypt"),
        ("Moscow", "Moscow"),
        ("Stalingrad", "Stalingrad"),
        ("Leningrad", "Leningrad"),
        ("Berlin", "Germany"),
        ("Rome", "Southern Italy"),
        ("Washington D.C.", "United States"),
    ] {
        let id = game
            .space(named)
            .unwrap_or_else(|| panic!("{named} is not on the board"));
        assert_eq!(game.space_name(id), is, "{named}");
    }
    // The convoy zones the rules name are convoy zones, of their powers.
    for (zone, owner, value) in [
        ("Mediterranean Convoy", "British MidEast", 2),
        ("Russian Convoy", "Russia", 4),
        ("British Convoy 1", "Britain", 3),
        ("British Convoy 2", "Britain", 3),
        ("British Convoy 3", "Britain", 5),
        ("British Convoy 4", "Britain", 5),
        ("U.S. Convoy 1", "USA", 4),
        ("U.S. Convoy 2", "USA", 6),
    ] {
        let convoy = game.sea_zone(space(zone)).unwrap().convoy.as_ref();
        let convoy = convoy.unwrap_or_else(|| panic!("{zone} is a convoy zone"));
        assert_eq!(power(&convoy.power), power(owner), "{zone}");
        assert_eq!(convoy.value, value, "{zone}");
    }
    let convoys = game
        .files()
        .board
        .sea_zones
        .iter()
        .filter(|z| z.convoy.is_some())
        .count();
    assert_eq!(convoys, 8);
    // The Russian zone still needs Archangel (FAQ; v2.2 leaves it alone).
    let russian = game.sea_zone(space("Soviet Convoy")).unwrap();
    assert_eq!(russian.name, "Russian Convoy");
    assert_eq!(russian.convoy.as_ref().unwrap().requires, ["Archangel"]);
}

#[test]
fn the_space_edits_of_d1_replace_the_base_spaces() {
    let game = advanced();
    // Split, added and renamed (D.1): the base names that are gone.
    assert!(game.space("Strait of Gibraltar").is_none());
    assert!(aae().space("Strait of Gibraltar").is_some());
    let old: BTreeSet<String> = aae()
        .files()
        .board
        .territories
        .iter()
        .map(|t| t.name.clone())
        .chain(aae().files().board.sea_zones.iter().map(|z| z.name.clone()))
        .collect();
    let new: BTreeSet<String> = (0..game.space_count())
        .map(|i| game.space_name(SpaceId(i)).to_owned())
        .collect();
    let added: Vec<&String> = new.difference(&old).collect();
    let removed: Vec<&String> = old.difference(&new).collect();
    assert_eq!(
        added,
        [
            "Eastern Strait of Gibraltar",
            "London",
            "Mediterranean Convoy",
            "Red Sea",
            "Russian Convoy",
            "Scotland",
            "West Germany",
            "Western Strait of Gibraltar",
            "Western Turkey",
        ]
    );
    assert_eq!(removed, ["Soviet Convoy", "Strait of Gibraltar"]);
    // D.7: the victory spaces carry the cities the rules name.
    let cities: BTreeMap<&str, &str> = game
        .files()
        .board
        .territories
        .iter()
        .filter_map(|t| t.city.as_deref().map(|c| (c, t.name.as_str())))
        .collect();
    assert_eq!(
        cities,
        BTreeMap::from([
            ("Berlin", "Germany"),
            ("Cairo", "Egypt"),
            ("Leningrad", "Leningrad"),
            ("London", "London"),
            ("Moscow", "Moscow"),
            ("Rome", "Southern Italy"),
            ("Stalingrad", "Stalingrad"),
            ("Washington D.C.", "United States"),
        ])
    );
    let victory: BTreeSet<&str> = game
        .files()
        .board
        .territories
        .iter()
        .filter(|t| t.victory_city)
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(victory, cities.values().copied().collect());
}

#[test]
fn the_new_and_changed_spaces_have_the_borders_of_d2() {
    let game = advanced();
    for (name, expected) in [
        (
            "London",
            &["United Kingdom", "English Channel", "North Sea"][..],
        ),
        (
            "United Kingdom",
            &["London", "Scotland", "Celtic Sea", "English Channel"],
        ),
        ("Scotland", &["United Kingdom", "Atlantic", "North Sea"]),
        (
            "Germany",
            &[
                "West Germany",
                "Poland",
                "Czechoslovakia",
                "Austria",
                "Baltic Sea",
            ],
        ),
        (
            "West Germany",
            &[
                "Germany",
                "Netherlands-Belgium",
                "Eastern France",
                "Switzerland",
                "Denmark",
                "Austria",
                "Czechoslovakia",
                "Danish Sea",
            ],
        ),
        (
            "Western Turkey",
            &["Bulgaria", "Greece", "Turkey", "Aegean Sea", "Black Sea"],
        ),
        (
            "Turkey",
            &[
                "Western Turkey",
                "Syria",
                "Iran",
                "Caucasus",
                "Black Sea",
                "Aegean Sea",
                "Eastern Mediterranean",
            ],
        ),
        (
            "Western Strait of Gibraltar",
            &[
                "Morocco",
                "Spain",
                "Spanish Morocco",
                "Gibraltar",
                "South Atlantic",
                "Azores Sea",
                "Eastern Strait of Gibraltar",
            ],
        ),
        (
            "Eastern Strait of Gibraltar",
            &[
                "Algeria",
                "Spain",
                "Spanish Morocco",
                "Gibraltar",
                "Western Mediterranean",
                "Western Strait of Gibraltar",
            ],
        ),
        (
            "Red Sea",
            &[
                "Egypt",
                "Trans-Jordan",
                "Saudi Arabia",
                "Eastern Mediterranean",
            ],
        ),
        (
            "Mediterranean Convoy",
            &["Eastern Mediterranean", "Central Mediterranean"],
        ),
    ] {
        assert_eq!(neighbours(game, name), set(expected), "{name}");
    }
    // The renamed Russian Convoy keeps the Soviet Convoy's borders.
    assert_eq!(
        neighbours(game, "Russian Convoy"),
        neighbours(aae(), "Soviet Convoy")
    );
    // Everything else stays as in base AAE: between the spaces D.1 leaves
    // alone, the borders are AAE's, one for one.
    let edited = set(&[
        "London",
        "United Kingdom",
        "Scotland",
        "Germany",
        "West Germany",
        "Western Turkey",
        "Turkey",
        "Strait of Gibraltar",
        "Western Strait of Gibraltar",
        "Eastern Strait of Gibraltar",
        "Red Sea",
        "Mediterranean Convoy",
        "Soviet Convoy",
        "Russian Convoy",
    ]);
    let base = aae();
    let mut compared = 0;
    for i in 0..base.space_count() {
        let name = base.space_name(SpaceId(i));
        if edited.contains(name) {
            continue;
        }
        let keep = |s: BTreeSet<String>| -> BTreeSet<String> {
            s.into_iter().filter(|n| !edited.contains(n)).collect()
        };
        assert_eq!(
            keep(neighbours(game, name)),
            keep(neighbours(base, name)),
            "{name}"
        );
        compared += 1;
    }
    assert_eq!(compared, 96 - 5);
}

#[test]
fn the_canals_are_the_four_straits_of_the_rules() {
    // D.2 with AAAE-49, -50, -52 and -54; AAE's Bosphorus is replaced.
    let canals: Vec<(String, BTreeSet<String>, Vec<String>)> = advanced()
        .files()
        .board
        .canals
        .iter()
        .map(|c| {
            (
                c.name.clone(),
                c.sea_zones.iter().cloned().collect(),
                c.controlled_by.clone(),
            )
        })
        .collect();
    let expected = [
        (
            "Turkish Straits",
            ["Black Sea", "Aegean Sea"],
            "Western Turkey",
        ),
        (
            "Gibraltar",
            ["Western Strait of Gibraltar", "Eastern Strait of Gibraltar"],
            "Gibraltar",
        ),
        ("Danish Straits", ["Danish Sea", "Baltic Sea"], "Denmark"),
        ("Suez", ["Red Sea", "Eastern Mediterranean"], "Egypt"),
    ];
    assert_eq!(canals.len(), expected.len());
    for ((name, zones, by), (n, z, b)) in canals.iter().zip(expected) {
        assert_eq!(name, n);
        assert_eq!(zones, &set(&z), "{n}");
        assert_eq!(by, &[b], "{n}");
    }
}

/// D.3's table: every territory a power holds at the start, with its value.
const D3: [(&str, &[(&str, u32)]); 6] = [
    (
        "Germany",
        &[
            ("Germany", 8),
            ("West Germany", 6),
            ("Netherlands-Belgium", 3),
            ("Denmark", 1),
            ("Poland", 3),
            ("Czechoslovakia", 3),
            ("Austria", 3),
            ("Hungary", 3),
            ("Rumania", 2),
            ("Bulgaria", 1),
            ("Yugoslavia", 2),
            ("Greece", 1),
            ("France", 3),
            ("Eastern France", 3),
            ("Norway", 2),
            ("Finland", 1),
            ("Morocco", 1),
            ("Algeria", 1),
            ("Tunisia", 1),
            ("Crete", 0),
        ],
    ),
    (
        "Italy",
        &[
            ("Northern Italy", 6),
            ("Southern Italy", 6),
            ("Sicily", 1),
            ("Sardinia", 1),
            ("Corsica", 0),
            ("Libya", 3),
            ("Vichy France", 3),
        ],
    ),
    (
        "Russia",
        &[
            ("Moscow", 8),
            ("Leningrad", 4),
            ("Stalingrad", 4),
            ("Archangel", 2),
            ("Caucasus", 6),
            ("Ukraine S.S.R.", 5),
            ("Russia", 3),
            ("Turkestan", 2),
            ("Belorussia", 2),
            ("Baltic States", 2),
            ("Karelia", 1),
            ("East Poland", 1),
            ("Bessarabia", 1),
            ("Vyborg", 0),
            ("Siberia", 5),
        ],
    ),
    (
        "Britain",
        &[
            ("London", 8),
            ("United Kingdom", 5),
            ("Scotland", 3),
            ("Canada", 3),
            ("Gibraltar", 0),
            ("Malta", 0),
            ("Iceland", 0),
            ("Cyprus", 0),
        ],
    ),
    (
        "British Middle East",
        &[
            ("Egypt", 3),
            ("Trans-Jordan", 2),
            ("Palestine", 1),
            ("Syria", 2),
            ("Iraq", 3),
            ("Iran", 3),
        ],
    ),
    ("USA", &[("United States", 50)]),
];

#[test]
fn values_and_owners_are_d3_and_each_power_is_worth_its_listed_figure() {
    let game = advanced();
    let mut expected_owner: BTreeMap<&str, &str> = BTreeMap::new();
    for (owner, held) in D3 {
        for &(name, ipc) in held {
            let t = game.territory(space(name)).unwrap();
            assert_eq!(t.ipc, Some(ipc), "{name}");
            expected_owner.insert(name, owner);
        }
    }
    for t in &game.files().board.territories {
        let owner = game
            .starting_owner(space(&t.name))
            .map(|p| game.powers()[p].name.as_str());
        assert_eq!(
            owner,
            expected_owner.get(t.name.as_str()).copied(),
            "{}",
            t.name
        );
    }
    // C.2 / AAAE-05: the listed figures, as (land, convoys).
    for (name, land, convoys) in [
        ("Germany", 48, 0),
        ("Italy", 20, 0),
        ("Russia", 46, 4),
        ("Britain", 19, 16),
        ("British Middle East", 14, 2),
        ("USA", 50, 10),
    ] {
        let p = power(name);
        assert_eq!(game.income_breakdown(p), (land, convoys), "{name}");
        assert_eq!(game.starting_income(p), land + convoys, "{name}");
    }
    // Axis starting income 68 (AAAE-14's note); the whole board pays 229.
    assert_eq!(
        game.starting_income(power("Germany")) + game.starting_income(power("Italy")),
        68
    );
    // Neutrals (D.3; AAAE-19, AAAE-23): worth 1 or 2 and open to
    // invasion, except Switzerland and Eire, worth 0 and off limits.
    let neutrals: BTreeMap<&str, (u32, bool)> = game
        .files()
        .board
        .territories
        .iter()
        .filter(|t| t.original_owner.is_none())
        .map(|t| (t.name.as_str(), (t.ipc.unwrap(), t.impassable)))
        .collect();
    assert_eq!(
        neutrals,
        BTreeMap::from([
            ("Eire", (0, true)),
            ("Saudi Arabia", (1, false)),
            ("Spain", (2, false)),
            ("Spanish Morocco", (1, false)),
            ("Sweden", (2, false)),
            ("Switzerland", (0, true)),
            ("Turkey", (2, false)),
            ("Western Turkey", (1, false)),
        ])
    );
    assert!(game.files().setup.owners.is_empty());
}

/// The complexes of the setup, by owner.
fn complexes(game: &GameDef) -> BTreeMap<String, BTreeSet<String>> {
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (s, p, u, n) in game.starting_units() {
        if u.has(&Ability::Production) {
            assert_eq!(n, 1);
            out.entry(game.powers()[p].name.clone())
                .or_default()
                .insert(game.space_name(s).to_owned());
        }
    }
    out
}

#[test]
fn complexes_and_their_production_limits_are_d3() {
    let game = advanced();
    let expected: BTreeMap<String, BTreeSet<String>> = [
        ("Germany", &["Germany", "West Germany"][..]),
        ("Italy", &["Northern Italy"]),
        (
            "Russia",
            &["Moscow", "Leningrad", "Stalingrad", "Archangel"],
        ),
        ("Britain", &["London", "Canada"]),
        ("British Middle East", &["Egypt", "Trans-Jordan"]),
        ("USA", &["United States"]),
    ]
    .into_iter()
    .map(|(p, s)| (p.to_owned(), set(s)))
    .collect();
    let found = complexes(game);
    assert_eq!(found, expected);
    // D.3's starting production limits: the sum of the complexes'
    // territory values (AAAE-17).
    for (name, limit) in [
        ("Germany", 14),
        ("Italy", 6),
        ("Russia", 18),
        ("Britain", 11),
        ("British Middle East", 5),
        ("USA", 50),
    ] {
        let total: u32 = found[name]
            .iter()
            .map(|s| game.territory(space(s)).unwrap().ipc.unwrap())
            .sum();
        assert_eq!(total, limit, "{name}");
    }
    // AAAE-18: no complex can be bought.
    let ic = game.unit_type("industrial complex").unwrap();
    assert_eq!(ic.cost, None);
}

#[test]
fn capitals_are_berlin_rome_moscow_london_and_washington() {
    let game = advanced();
    for (name, capital) in [
        ("Germany", Some("Germany")),
        ("Italy", Some("Southern Italy")),
        ("Russia", Some("Moscow")),
        ("Britain", Some("London")),
        ("British Middle East", None),
        ("USA", Some("United States")),
    ] {
        let p = &game.powers()[power(name)];
        assert_eq!(p.capital.as_deref(), capital, "{name}");
        if let Some(c) = capital {
            assert_eq!(game.starting_owner(space(c)), Some(power(name)), "{name}");
        }
    }
}

#[test]
fn the_italian_territories_are_d4() {
    let game = advanced();
    let italy = power("Italy");
    let held: BTreeSet<&str> = game
        .files()
        .board
        .territories
        .iter()
        .filter(|t| game.starting_owner(space(&t.name)) == Some(italy))
        .map(|t| t.name.as_str())
        .collect();
    let expected = [
        "Northern Italy",
        "Southern Italy",
        "Sicily",
        "Sardinia",
        "Corsica",
        "Libya",
        "Vichy France",
    ];
    assert_eq!(held, expected.into_iter().collect());
    // All of them German in base AAE; Morocco, Algeria, Tunisia stay German.
    let base = aae();
    for name in expected.iter().chain(&["Morocco", "Algeria", "Tunisia"]) {
        let id = base.space(name).unwrap();
        assert_eq!(base.starting_owner(id), base.power("Germany"), "{name}");
    }
    for name in ["Morocco", "Algeria", "Tunisia"] {
        assert_eq!(game.starting_owner(space(name)), Some(power("Germany")));
    }
}

#[test]
fn the_light_red_russian_areas_of_d5_are_russian_and_on_the_axis_border() {
    // D.5: East Poland, Baltic States, Bessarabia, Vyborg (the 1939-40
    // annexations, "all on the Axis border at start"); the alternative set,
    // every Russian territory touching an Axis territory at setup, adds
    // Karelia and Ukraine S.S.R.
    let game = advanced();
    let russia = power("Russia");
    let axis = game.side_of(power("Germany"));
    let on_axis_border = |s: SpaceId| {
        game.neighbours(s).iter().any(|&n| {
            !game.is_sea(n)
                && game
                    .starting_owner(n)
                    .is_some_and(|o| game.side_of(o) == axis)
        })
    };
    let bordering: BTreeSet<&str> = game
        .files()
        .board
        .territories
        .iter()
        .filter(|t| {
            let s = space(&t.name);
            game.starting_owner(s) == Some(russia) && on_axis_border(s)
        })
        .map(|t| t.name.as_str())
        .collect();
    let light_red = ["East Poland", "Baltic States", "Bessarabia", "Vyborg"];
    for name in light_red {
        assert!(bordering.contains(name), "{name}");
    }
    assert_eq!(
        bordering,
        light_red
            .into_iter()
            .chain(["Karelia", "Ukraine S.S.R."])
            .collect()
    );
}

/// Units of each power on the whole board: power -> unit -> count.
fn totals(game: &GameDef) -> BTreeMap<String, BTreeMap<String, u32>> {
    let mut out: BTreeMap<String, BTreeMap<String, u32>> = BTreeMap::new();
    for (_, p, u, n) in game.starting_units() {
        *out.entry(game.powers()[p].name.clone())
            .or_default()
            .entry(u.name.clone())
            .or_default() += n;
    }
    out
}

/// The units one power has in one space.
fn units_at(game: &GameDef, name: &str, power_name: &str) -> BTreeMap<String, u32> {
    let (s, p) = (game.space(name).unwrap(), game.power(power_name).unwrap());
    let mut out = BTreeMap::new();
    for (at, by, u, n) in game.starting_units() {
        if at == s && by == p {
            *out.entry(u.name.clone()).or_default() += n;
        }
    }
    out
}

fn units(list: &[(&str, u32)]) -> BTreeMap<String, u32> {
    list.iter().map(|&(u, n)| (u.to_owned(), n)).collect()
}

#[test]
fn the_setup_is_aae_s_reassigned_as_d6_says() {
    let game = advanced();
    for (at, who, expected) in [
        // The German split.
        (
            "Germany",
            "Germany",
            &[
                ("infantry", 2),
                ("artillery", 1),
                ("armor", 1),
                ("AA gun", 1),
                ("fighter", 1),
                ("bomber", 1),
                ("industrial complex", 1),
            ][..],
        ),
        (
            "West Germany",
            "Germany",
            &[
                ("infantry", 2),
                ("artillery", 1),
                ("armor", 1),
                ("fighter", 1),
                ("industrial complex", 1),
            ],
        ),
        // The British split.
        (
            "London",
            "Britain",
            &[
                ("infantry", 2),
                ("AA gun", 1),
                ("fighter", 1),
                ("bomber", 1),
                ("industrial complex", 1),
            ],
        ),
        (
            "United Kingdom",
            "Britain",
            &[
                ("infantry", 1),
                ("artillery", 1),
                ("armor", 1),
                ("fighter", 1),
            ],
        ),
        ("Scotland", "Britain", &[("infantry", 1)]),
        // Italy's units were AAE Germany's.
        (
            "Northern Italy",
            "Italy",
            &[
                ("infantry", 2),
                ("artillery", 1),
                ("armor", 2),
                ("AA gun", 1),
                ("fighter", 1),
                ("industrial complex", 1),
            ],
        ),
        ("Southern Italy", "Italy", &[("infantry", 2)]),
        (
            "Tyrrhenian Sea",
            "Italy",
            &[("battleship", 1), ("destroyer", 1), ("transport", 1)],
        ),
        // BME's were AAE Britain's, with the two new complexes.
        (
            "Egypt",
            "BME",
            &[
                ("infantry", 1),
                ("artillery", 1),
                ("armor", 1),
                ("industrial complex", 1),
            ],
        ),
        ("Trans-Jordan", "BME", &[("industrial complex", 1)]),
        ("Palestine", "BME", &[("infantry", 1)]),
        ("Syria", "BME", &[("infantry", 1)]),
        ("Iraq", "BME", &[("infantry", 1)]),
        // Iran keeps its Russian infantry; the East Med ships stay British.
        ("Iran", "Russia", &[("infantry", 1)]),
        (
            "Eastern Mediterranean",
            "Britain",
            &[("destroyer", 1), ("transport", 1)],
        ),
        // The Strait's destroyer is in the Western Strait.
        (
            "Western Strait of Gibraltar",
            "Britain",
            &[("destroyer", 1)],
        ),
        // Siberia keeps its garrison.
        (
            "Siberia",
            "Russia",
            &[("infantry", 3), ("artillery", 1), ("armor", 1)],
        ),
        // One transport in every convoy zone, of its power (AAAE-02/38).
        ("British Convoy 1", "Britain", &[("transport", 1)]),
        ("British Convoy 2", "Britain", &[("transport", 1)]),
        ("British Convoy 3", "Britain", &[("transport", 1)]),
        ("British Convoy 4", "Britain", &[("transport", 1)]),
        ("U.S. Convoy 1", "USA", &[("transport", 1)]),
        ("U.S. Convoy 2", "USA", &[("transport", 1)]),
        ("Russian Convoy", "Russia", &[("transport", 1)]),
        ("Mediterranean Convoy", "BME", &[("transport", 1)]),
    ] {
        assert_eq!(units_at(game, at, who), units(expected), "{who} in {at}");
    }
    // Nobody else stands in a space D.6 assigns, and the neutrals and the
    // Eastern Strait start empty.
    for (at, who) in [
        ("Germany", "Germany"),
        ("Egypt", "BME"),
        ("Northern Italy", "Italy"),
        ("London", "Britain"),
    ] {
        let s = space(at);
        for (here, p, _, _) in game.starting_units() {
            assert!(here != s || p == power(who), "{at}");
        }
    }
    let empty: BTreeSet<&str> = [
        "Spain",
        "Sweden",
        "Turkey",
        "Western Turkey",
        "Spanish Morocco",
        "Saudi Arabia",
        "Switzerland",
        "Eire",
        "Eastern Strait of Gibraltar",
        "Red Sea",
    ]
    .into();
    for (s, _, _, _) in game.starting_units() {
        assert!(
            !empty.contains(game.space_name(s)),
            "{}",
            game.space_name(s)
        );
    }
    // Everywhere else the setup is AAE's, unit for unit, with AAE's owners
    // renamed; the only units added are the eight convoy transports and the
    // complexes of West Germany, Egypt and Trans-Jordan.
    fn rename(p: &str) -> &str {
        match p {
            "Soviet Union" => "Russia",
            "United Kingdom" => "Britain",
            "United States" => "USA",
            other => other,
        }
    }
    let edited = [
        "Germany",
        "West Germany",
        "United Kingdom",
        "London",
        "Scotland",
        "Northern Italy",
        "Southern Italy",
        "Tyrrhenian Sea",
        "Egypt",
        "Trans-Jordan",
        "Palestine",
        "Syria",
        "Iraq",
        "Strait of Gibraltar",
        "Western Strait of Gibraltar",
    ];
    let base = aae();
    let rest = |g: &GameDef, renamed: bool| -> BTreeSet<(String, String, String, u32)> {
        g.starting_units()
            .filter(|(s, _, _, _)| !edited.contains(&g.space_name(*s)))
            .filter(|(s, _, _, _)| g.sea_zone(*s).is_none_or(|z| z.convoy.is_none()))
            .map(|(s, p, u, n)| {
                let owner = &g.powers()[p].name;
                (
                    g.space_name(s).to_owned(),
                    if renamed {
                        rename(owner).to_owned()
                    } else {
                        owner.clone()
                    },
                    u.name.clone(),
                    n,
                )
            })
            .collect()
    };
    assert_eq!(rest(game, false), rest(base, true));
    let count = |g: &GameDef| -> u32 { g.starting_units().map(|(_, _, _, n)| n).sum() };
    assert_eq!(count(game), count(base) + 8 + 3);
    // Each power's army, whole (D.6 applied to AAE's).
    let expected = [
        (
            "Germany",
            &[
                ("infantry", 45),
                ("artillery", 9),
                ("armor", 11),
                ("AA gun", 1),
                ("fighter", 5),
                ("bomber", 1),
                ("industrial complex", 2),
                ("transport", 1),
                ("submarine", 10),
            ][..],
        ),
        (
            "Italy",
            &[
                ("infantry", 4),
                ("artillery", 1),
                ("armor", 2),
                ("AA gun", 1),
                ("fighter", 1),
                ("industrial complex", 1),
                ("battleship", 1),
                ("destroyer", 1),
                ("transport", 1),
            ],
        ),
        (
            "Russia",
            &[
                ("infantry", 44),
                ("artillery", 5),
                ("armor", 6),
                ("AA gun", 4),
                ("fighter", 1),
                ("bomber", 1),
                ("industrial complex", 4),
                ("transport", 2),
                ("submarine", 1),
            ],
        ),
        (
            "Britain",
            &[
                ("infantry", 4),
                ("artillery", 1),
                ("armor", 2),
                ("AA gun", 2),
                ("fighter", 2),
                ("bomber", 1),
                ("industrial complex", 2),
                ("battleship", 1),
                ("destroyer", 6),
                ("transport", 9),
            ],
        ),
        (
            "British Middle East",
            &[
                ("infantry", 4),
                ("artillery", 1),
                ("armor", 1),
                ("industrial complex", 2),
                ("transport", 1),
            ],
        ),
        (
            "USA",
            &[
                ("infantry", 2),
                ("AA gun", 1),
                ("fighter", 1),
                ("bomber", 1),
                ("industrial complex", 1),
                ("destroyer", 1),
                ("transport", 3),
            ],
        ),
    ];
    let found = totals(game);
    assert_eq!(found.len(), 6);
    for (name, list) in expected {
        assert_eq!(found[name], units(list), "{name}");
    }
}

#[test]
fn starting_cash_is_the_listed_figure_russia_halved() {
    // D.6 with AAAE-05, AAAE-09 and AAAE-10's PROPOSAL.
    let game = advanced();
    for (name, cash) in [
        ("Germany", 48),
        ("Italy", 20),
        ("Russia", 25),
        ("Britain", 35),
        ("British Middle East", 16),
        ("USA", 60),
    ] {
        assert_eq!(game.starting_ipcs(power(name)), cash, "{name}");
    }
    // The choices the data records as options: these two, and every
    // other option the game names at the digest's PROPOSAL (its default).
    let options: Vec<(&str, &OptionValue)> = game.files().game.options.iter().collect();
    assert_eq!(
        options[..2],
        [
            ("starting_ipcs_are_income", &OptionValue::Bool(true)),
            ("us_start_cash_halved", &OptionValue::Bool(false)),
        ]
    );
    for (name, value) in options {
        let spec = game
            .rule_set()
            .options()
            .iter()
            .find(|o| o.name == name)
            .unwrap_or_else(|| panic!("{name} is not Advanced AAE's"));
        assert_eq!(value, &spec.default_value(), "{name}");
    }
}

/// The units are AAE's but for the fighter's escort and interceptor
/// abilities (AAAE-34), plus the fortification (AAAE-29); the national
/// abilities (AAAE-24..28) are rules.
#[test]
fn the_units_are_aae_s_without_escorts_or_interceptors() {
    use adjutant::rules::model::{Ability, UnitKind};
    let mut want = aae().files().units.clone();
    for u in &mut want.units {
        u.abilities
            .retain(|a| !matches!(a, Ability::Escort(_) | Ability::Interceptor(_)));
    }
    let mut have = advanced().files().units.clone();
    let fort = have.units.pop().expect("the last unit type");
    assert_eq!(have, want);
    assert_eq!(fort.name, "fortification");
    assert_eq!(fort.kind, Some(UnitKind::Building));
    assert_eq!(fort.cost, Some(2));
    assert_eq!(fort.abilities, vec![Ability::CapturedWithTerritory]);
    assert!(
        aae().files().units.units.iter().any(|u| u
            .abilities
            .iter()
            .any(|a| matches!(a, Ability::Interceptor(_)))),
        "AAE's fighter intercepts"
    );
    // The rule set refuses a fighter that escorts (AAAE-34).
    let mut files = advanced().files().clone();
    files.units = aae().files().units.clone();
    let err = adjutant::rules::GameDef::new(files)
        .expect_err("refused")
        .to_string();
    assert!(
        err.contains("no escorts or interceptors") && err.contains("AAAE-34"),
        "{err}"
    );
    // AAE's units have no fortification (AAAE-29).
    assert!(
        err.contains("no unit type is called fortification"),
        "{err}"
    );
}

/// The rule set refuses a fortification that is not a building or does not
/// cost the rules' 2 IPCs (AAAE-29).
#[test]
fn the_fortification_is_a_building_at_the_rules_cost() {
    use adjutant::rules::model::{UnitKind, UnitType};
    let edit_fort = |change: fn(&mut UnitType)| {
        reload(|f| {
            let fort = f.units.units.iter_mut().find(|u| u.name == "fortification");
            change(fort.expect("a fortification"));
        })
        .expect_err("refused")
    };
    let err = edit_fort(|u| u.cost = Some(3));
    assert!(
        err.contains("fortifications cost 2 IPCs (AAAE-29)"),
        "{err}"
    );
    let err = edit_fort(|u| {
        u.kind = Some(UnitKind::Land);
        u.attack = Some(0);
        u.defense = Some(0);
        u.movement = Some(1);
    });
    assert!(err.contains("it is not a building"), "{err}");
}

// ---------------------------------------------------------------------
// The rule set's check: what holds for any Advanced board.

/// The derived game's files, changed by `edit`, loaded again.
fn reload(edit: impl FnOnce(&mut GameFiles)) -> Result<GameDef, String> {
    let mut files = advanced().files().clone();
    edit(&mut files);
    GameDef::new(files).map_err(|e| e.to_string())
}

fn set_ipcs(files: &mut GameFiles, who: &str, to: u32) {
    let entry = files.setup.ipcs.0.iter_mut().find(|(p, _)| p == who);
    entry.unwrap().1 = to;
}

fn set_option(files: &mut GameFiles, name: &str, value: OptionValue) {
    let options = &mut files.game.options.0;
    options.retain(|(k, _)| k != name);
    options.push((name.to_owned(), value));
}

#[test]
fn the_check_holds_russia_to_half_its_figure_and_the_usa_to_its_whole() {
    let text = reload(|f| set_ipcs(f, "Russia", 50)).expect_err("refused");
    assert!(
        text.contains("setup.yaml: ipcs.Russia: Russia starts with 50 IPCs; it starts with 25")
            && text.contains("AAAE-09"),
        "{text}"
    );
    let text = reload(|f| set_ipcs(f, "USA", 30)).expect_err("refused");
    assert!(
        text.contains("USA starts with 30 IPCs; it starts with 60") && text.contains("AAAE-10"),
        "{text}"
    );
    // The alternative reading of AAAE-10 halves the USA's starting cash too.
    let halved = |f: &mut GameFiles| set_option(f, "us_start_cash_halved", OptionValue::Bool(true));
    let text = reload(halved).expect_err("60 refused with the option");
    assert!(
        text.contains("USA starts with 60 IPCs; it starts with 30"),
        "{text}"
    );
    reload(|f| {
        halved(f);
        set_ipcs(f, "USA", 30);
    })
    .expect("30 with the option");
    let text = reload(|f| set_ipcs(f, "Italy", 21)).expect_err("refused");
    assert!(
        text.contains("Italy starts with 21 IPCs; it starts with 20"),
        "{text}"
    );
}

#[test]
fn the_check_holds_each_power_s_income_to_its_figure_unless_told_not_to() {
    let richer = |f: &mut GameFiles| {
        let t = f.board.territories.iter_mut().find(|t| t.name == "Libya");
        t.unwrap().ipc = Some(4);
    };
    let text = reload(richer).expect_err("refused");
    assert!(
        text.contains(
            "Italy's starting territories and convoys are worth 21 IPCs, but the rules list 20"
        ) && text.contains("AAAE-05"),
        "{text}"
    );
    reload(|f| {
        richer(f);
        set_option(f, "starting_ipcs_are_income", OptionValue::Bool(false));
    })
    .expect("only the cash is checked with the option off");
}

#[test]
fn the_check_wants_the_six_powers_of_the_rules_on_their_sides() {
    // A power the rules do not have, playing.
    let text = reload(|f| {
        let mut extra = f.game.powers[0].clone();
        extra.name = "France".into();
        extra.aliases.clear();
        extra.capital = None;
        f.game.powers.push(extra);
        f.game.sides[1].powers.push("France".into());
        f.game.turn_order.push("France".into());
        f.setup.ipcs.0.push(("France".into(), 0));
    })
    .expect_err("refused");
    assert!(
        text.contains("France plays, but the powers of Advanced AAE are"),
        "{text}"
    );
    // A rules power missing from the names and aliases.
    let text = reload(|f| {
        let bme = f
            .game
            .powers
            .iter_mut()
            .find(|p| p.name == "British Middle East");
        bme.unwrap().aliases.clear();
    })
    .expect_err("refused");
    assert!(
        text.contains("none is called British MidEast: name one so, or give it the alias"),
        "{text}"
    );
    // Italy on the Allied side.
    let text = reload(|f| {
        f.game.sides[0].powers.retain(|p| p != "Italy");
        f.game.sides[1].powers.push("Italy".into());
    })
    .expect_err("refused");
    assert!(
        text.contains("Germany and Italy are one side, the Axis"),
        "{text}"
    );
    // British MidEast has no capital.
    let text = reload(|f| {
        let bme = f
            .game
            .powers
            .iter_mut()
            .find(|p| p.name == "British Middle East");
        bme.unwrap().capital = Some("Egypt".into());
    })
    .expect_err("refused");
    assert!(
        text.contains("British Middle East has no capital (AAAE-07)"),
        "{text}"
    );
    // A power that does not collect its own income.
    let text = reload(|f| {
        let italy = f.game.powers.iter_mut().find(|p| p.name == "Italy");
        italy.unwrap().collects_income = false;
    })
    .expect_err("refused");
    assert!(
        text.contains("Italy plays its own turns and collects its own income"),
        "{text}"
    );
}

#[test]
fn the_check_wants_a_transport_in_every_convoy_zone() {
    let text = reload(|f| {
        f.setup.units.0.retain(|(s, _)| s != "Mediterranean Convoy");
    })
    .expect_err("refused");
    assert!(
        text.contains(
            "setup.yaml: units.Mediterranean Convoy: convoy zone Mediterranean Convoy starts \
             with no transport of British Middle East's side"
        ),
        "{text}"
    );
    // An Axis transport does not do.
    let text = reload(|f| {
        let zone = f
            .setup
            .units
            .0
            .iter_mut()
            .find(|(s, _)| s == "U.S. Convoy 1");
        zone.unwrap().1.0[0].0 = "Germany".into();
    })
    .expect_err("refused");
    assert!(
        text.contains("convoy zone U.S. Convoy 1 starts with no transport"),
        "{text}"
    );
}

#[test]
fn the_one_option_without_a_rule_is_pending_and_the_neutral_options_are_played() {
    let text = reload(|f| {
        set_option(f, "south_african_sea_route", OptionValue::Bool(true));
    })
    .expect_err("refused");
    assert!(
        text.contains("option south_african_sea_route")
            && text.contains("no route to play")
            && text.contains("leave it out"),
        "{text}"
    );
    reload(|f| set_option(f, "neutral_overflight", OptionValue::Text("forbid".into())))
        .expect("AAAE-21's other reading is played");
    reload(|f| set_option(f, "straits_both_ways", OptionValue::Bool(false)))
        .expect("the derived board names the Black Sea");
    // Without the region naming the waters the straits lead into, the
    // one-way reading of AAAE-22 cannot be played.
    let text = reload(|f| {
        set_option(f, "straits_both_ways", OptionValue::Bool(false));
        f.game.regions.0.retain(|(name, _)| name != "black_sea");
    })
    .expect_err("refused");
    assert!(
        text.contains("regions.black_sea") && text.contains("AAAE-22"),
        "{text}"
    );
    reload(|f| f.game.regions.0.retain(|(name, _)| name != "black_sea"))
        .expect("with straits_both_ways on the region is not needed");
}

// ---------------------------------------------------------------------
// A second, different board with the same rule set.

/// An empty directory for the game `other-advanced` (a game's directory
/// is named for its id).
fn fresh_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("advanced-aae-{name}-{}", std::process::id()))
        .join("other-advanced");
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A small board of other spaces, powers named otherwise (the rules'
/// words as aliases), its own values and setup: what an organiser who
/// owns the real board would write. Nothing in it is on the derived board
/// but the unit types.
const OTHER_GAME: &str = r#"
id: other-advanced
name: "Advanced AAE on another board"
rule_set: advanced_aae
powers:
  - {name: Reich, aliases: [Germany], capital: Berlin Gau}
  - {name: Regno, aliases: [Italy], capital: Latium}
  - {name: Soviet Union, aliases: [Russia], capital: Muscovy}
  - {name: United Kingdom, aliases: [Britain], capital: Home Counties}
  - {name: Middle East Command, aliases: [British MidEast]}
  - {name: United States, aliases: [USA], capital: Columbia}
sides:
  - {name: Axis, powers: [Reich, Regno]}
  - {name: Allies, powers: [Soviet Union, United Kingdom, Middle East Command, United States]}
turn_order: [Reich, Soviet Union, Regno, United Kingdom, United States, Middle East Command]
options: {turn_order: as_listed}
regions: {far_east_recall: [Urals], light_red: [Urals], africa_and_middle_east: [Sinai]}
"#;

const OTHER_BOARD: &str = r#"
territories:
  - {name: Berlin Gau, ipc: 30, original_owner: Reich, city: Berlin, neighbours: [Rhineland, Muscovy, North Sea Lane]}
  - {name: Rhineland, ipc: 18, original_owner: Reich, neighbours: [Berlin Gau, Latium, Helvetia, North Sea Lane]}
  - {name: Latium, ipc: 20, original_owner: Regno, city: Rome, neighbours: [Rhineland, Sinai, Middle Sea]}
  - {name: Muscovy, ipc: 42, original_owner: Soviet Union, city: Moscow, neighbours: [Berlin Gau, Urals, Ingria]}
  - {name: Urals, ipc: 4, original_owner: Soviet Union, city: Stalingrad, neighbours: [Muscovy]}
  - {name: Ingria, ipc: 0, original_owner: Soviet Union, city: Leningrad, neighbours: [Muscovy]}
  - {name: Home Counties, ipc: 25, original_owner: United Kingdom, city: London, neighbours: [North Sea Lane]}
  - {name: Sinai, ipc: 10, original_owner: Middle East Command, city: Cairo, neighbours: [Latium, Middle Sea]}
  - {name: Columbia, ipc: 50, original_owner: United States, city: Washington D.C., neighbours: [Western Ocean]}
  - {name: Helvetia, ipc: 0, impassable: true, neighbours: [Rhineland]}
sea_zones:
  - {name: North Sea Lane, neighbours: [Berlin Gau, Rhineland, Home Counties, Western Ocean, Arctic Run]}
  - {name: Western Ocean, neighbours: [North Sea Lane, Columbia, Atlantic Run, Middle Sea]}
  - {name: Middle Sea, neighbours: [Latium, Sinai, Western Ocean, Oil Route]}
  - {name: Arctic Run, convoy: {value: 4, power: Soviet Union}, neighbours: [North Sea Lane]}
  - {name: Atlantic Run, convoy: {value: 10, power: United Kingdom}, neighbours: [Western Ocean, Dollar Run]}
  - {name: Dollar Run, convoy: {value: 10, power: United States}, neighbours: [Atlantic Run]}
  - {name: Oil Route, convoy: {value: 6, power: Middle East Command}, neighbours: [Middle Sea]}
"#;

const OTHER_SETUP: &str = r#"
ipcs: {Reich: 48, Regno: 20, Soviet Union: 25, United Kingdom: 35, Middle East Command: 16, United States: 60}
units:
  Berlin Gau: {Reich: {infantry: 5, industrial complex: 1}}
  Latium: {Regno: {infantry: 3, industrial complex: 1}}
  Muscovy: {Soviet Union: {infantry: 8, industrial complex: 1}}
  Home Counties: {United Kingdom: {fighter: 2, industrial complex: 1}}
  Sinai: {Middle East Command: {armor: 1, industrial complex: 1}}
  Columbia: {United States: {bomber: 1, industrial complex: 1}}
  Arctic Run: {Soviet Union: {transport: 1}}
  Atlantic Run: {United Kingdom: {transport: 1}, United States: {destroyer: 1}}
  Dollar Run: {United States: {transport: 1}}
  Oil Route: {Middle East Command: {transport: 1}}
"#;

fn write_other(dir: &Path, game: &str, board: &str, setup: &str) {
    std::fs::write(dir.join("game.yaml"), game).unwrap();
    std::fs::write(dir.join("board.yaml"), board).unwrap();
    std::fs::write(dir.join("setup.yaml"), setup).unwrap();
    std::fs::copy(
        root().join("games/advanced-aae/units.yaml"),
        dir.join("units.yaml"),
    )
    .unwrap();
}

#[test]
fn a_second_different_board_loads_with_the_same_rule_set() {
    let dir = fresh_dir("right");
    write_other(&dir, OTHER_GAME, OTHER_BOARD, OTHER_SETUP);
    let other = load_dir(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(other.rule_set().id(), advanced().rule_set().id());
    // It shares no space with the derived board.
    for i in 0..other.space_count() {
        let name = other.space_name(SpaceId(i));
        assert!(advanced().space(name).is_none(), "{name}");
    }
    assert_eq!(other.space_count(), 17);
    // The rules' figures hold on it too, through its own names.
    for (word, income, cash) in [
        ("Germany", 48, 48),
        ("Italy", 20, 20),
        ("Russia", 50, 25),
        ("Britain", 35, 35),
        ("British MidEast", 16, 16),
        ("USA", 60, 60),
    ] {
        let p = other.power(word).unwrap();
        assert_eq!(other.starting_income(p), income, "{word}");
        assert_eq!(other.starting_ipcs(p), cash, "{word}");
    }
    // And it loads where games are played, like the derived one.
    assert!(load_dir(&dir).is_ok());

    // The same rule set's check finds the same faults on it.
    let dir = fresh_dir("wrong");
    write_other(
        &dir,
        OTHER_GAME,
        &OTHER_BOARD.replace("ipc: 4,", "ipc: 5,"),
        &OTHER_SETUP.replace("Soviet Union: 25", "Soviet Union: 51"),
    );
    let text = load_dir(&dir).unwrap_err().to_string();
    assert!(
        text.contains("Soviet Union starts with 51 IPCs; it starts with 25")
            && text.contains(
                "Soviet Union's starting territories and convoys are worth 51 IPCs, but the \
                 rules list 50"
            ),
        "{text}"
    );
}

/// AAAE-51's landing is board data (`landings:`), checked like a canal.
#[test]
fn the_danish_sea_landing_is_data_and_checked() {
    let game = advanced();
    let landings = &game.files().board.landings;
    assert_eq!(landings.len(), 1);
    assert_eq!(
        (landings[0].from.as_str(), landings[0].to.as_str()),
        ("Danish Sea", "West Germany")
    );
    assert_eq!(landings[0].controlled_by, ["Denmark"]);
    let refused = |edit: fn(&mut adjutant::rules::model::Landing)| {
        let mut files = game.files().clone();
        edit(&mut files.board.landings[0]);
        adjutant::rules::GameDef::new(files)
            .expect_err("refused")
            .to_string()
    };
    let text = refused(|l| l.from = "Denmark".into());
    assert!(
        text.contains("Denmark is land; a landing is made from a sea zone"),
        "{text}"
    );
    let text = refused(|l| l.to = "Poland".into());
    assert!(text.contains("Poland does not border Danish Sea"), "{text}");
    let text = refused(|l| l.controlled_by = vec!["Baltic Sea".into()]);
    assert!(text.contains("Baltic Sea is a sea zone"), "{text}");
}

// ---------------------------------------------------------------------
// Players (AAAE-03): one player may hold several of the six powers.

#[test]
fn one_player_may_hold_two_powers() {
    use adjutant::matches::players::Roster;
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("advanced-aae-players-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // The rules' words and aliases name the seats; Alice holds the Axis,
    // Boris Britain and British MidEast.
    std::fs::write(
        dir.join("players.yaml"),
        "match: aaae-1\nplayers:\n  \
         Germany: {name: Alice, email: alice@example.org}\n  \
         Italy: {name: Alice, email: alice@example.org}\n  \
         Russia: {name: Clem, email: clem@example.org}\n  \
         Britain: {name: Boris, email: boris@example.org}\n  \
         BME: {name: Boris, email: boris@example.org}\n  \
         USA: {name: Dora, email: dora@example.org}\n",
    )
    .unwrap();
    let roster = Roster::load(&dir, advanced()).unwrap_or_else(|e| panic!("{e}"));
    let powers = |address: &str| -> Vec<String> {
        roster
            .powers_of(address)
            .into_iter()
            .map(|s| s.power.clone())
            .collect()
    };
    assert_eq!(powers("alice@example.org"), ["Germany", "Italy"]);
    assert_eq!(
        powers("boris@example.org"),
        ["Britain", "British Middle East"]
    );
    assert_eq!(powers("dora@example.org"), ["USA"]);
    assert_eq!(roster.seats().len(), 6);
}
