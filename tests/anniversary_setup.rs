//! games/anniversary-1941 and games/anniversary-1942: the Anniversary Edition
//! board, setups and units, checked against the rules digest and the 2010 FAQ
//! (`docs/rules/anniversary.md`), and cross-checked against TripleA's
//! WW2v3 files (read from ../shared, never copied into the repository).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use adjutant::import::triplea;
use adjutant::rules::{GameDef, SpaceId, load_dir};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn game(id: &str) -> GameDef {
    load_dir(&root().join("games").join(id)).unwrap_or_else(|e| panic!("{id}: {e}"))
}

fn power(game: &GameDef, name: &str) -> usize {
    game.power(name)
        .unwrap_or_else(|| panic!("no power {name}"))
}

/// Starting IPCs per the digest §1 table; 1942 Germany 37 by the FAQ erratum
/// ("Page 9, Setup – 1942 Scenario").
const IPCS_1941: &[(&str, u32)] = &[
    ("Germany", 31),
    ("Soviet Union", 30),
    ("Japan", 17),
    ("United Kingdom", 43),
    ("Italy", 10),
    ("United States", 40),
    ("China", 0),
];
const IPCS_1942: &[(&str, u32)] = &[
    ("Germany", 37),
    ("Soviet Union", 24),
    ("Japan", 31),
    ("United Kingdom", 31),
    ("Italy", 10),
    ("United States", 38),
    ("China", 0),
];

#[test]
fn both_setups_sum_to_the_starting_ipcs() {
    for (id, table) in [
        ("anniversary-1941", IPCS_1941),
        ("anniversary-1942", IPCS_1942),
    ] {
        let g = game(id);
        for &(name, ipcs) in table {
            let p = power(&g, name);
            assert_eq!(g.starting_ipcs(p), ipcs, "{id}: {name}'s treasury");
            if name == "China" {
                // China never collects IPCs (FAQ, China); its 7 territories
                // are counted for infantry instead.
                assert!(!g.powers()[p].collects_income);
                continue;
            }
            // Starting IPCs are the controlled territories' values (no convoys
            // in this edition).
            let land: u32 = (0..g.space_count())
                .map(SpaceId)
                .filter(|&s| g.starting_owner(s) == Some(p))
                .filter_map(|s| g.territory(s).and_then(|t| t.ipc))
                .sum();
            assert_eq!(land, ipcs, "{id}: {name}'s territories");
        }
    }
}

#[test]
fn board_has_97_territories_65_sea_zones_two_canals_and_15_impassable_neutrals() {
    for id in ["anniversary-1941", "anniversary-1942"] {
        let g = game(id);
        let board = &g.files().board;
        assert_eq!(board.territories.len(), 97, "{id}");
        assert_eq!(board.sea_zones.len(), 65, "{id}");
        assert!(board.sea_zones.iter().all(|z| z.convoy.is_none()), "{id}");
        let impassable: BTreeSet<&str> = board
            .territories
            .iter()
            .filter(|t| t.impassable)
            .map(|t| t.name.as_str())
            .collect();
        let expected: BTreeSet<&str> = [
            "Afghanistan",
            "Angola",
            "Argentina Chile",
            "Eire",
            "Himalaya",
            "Mongolia",
            "Mozambique",
            "Northern South America",
            "Peruvian Central",
            "Sahara",
            "Saudi Arabia",
            "Spain",
            "Sweden",
            "Switzerland",
            "Turkey",
        ]
        .into();
        assert_eq!(impassable, expected, "{id}");
        // Neutrals belong to nobody (Saudi Arabia corrected from TripleA).
        assert!(
            board
                .territories
                .iter()
                .filter(|t| t.impassable)
                .all(|t| t.original_owner.is_none()),
            "{id}"
        );
        let canals: Vec<(&str, Vec<&str>, Vec<&str>)> = board
            .canals
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.sea_zones.iter().map(String::as_str).collect(),
                    c.controlled_by.iter().map(String::as_str).collect(),
                )
            })
            .collect();
        assert_eq!(
            canals,
            vec![
                (
                    "Suez Canal",
                    vec!["Sea Zone 15", "Sea Zone 34"],
                    vec!["Egypt", "Trans-Jordan"]
                ),
                (
                    "Panama Canal",
                    vec!["Sea Zone 19", "Sea Zone 20"],
                    vec!["Panama"]
                ),
            ],
            "{id}"
        );
    }
}

#[test]
fn the_faq_map_rulings_hold() {
    let g = game("anniversary-1941");
    let adj = |a: &str, b: &str| g.adjacent(g.space(a).unwrap(), g.space(b).unwrap());
    // FAQ, The Map: sea zone 1 and Western Canada are not adjacent; sea zone
    // 17 does not touch Morocco Algeria; the board edges wrap.
    assert!(!adj("Sea Zone 1", "Western Canada"));
    assert!(!adj("Sea Zone 17", "Morocco Algeria"));
    assert!(adj("Western Canada", "Eastern Canada"));
    assert!(adj("Central United States", "Eastern United States"));
    assert!(adj("Mexico", "Panama"));
    // Errata p.7 (islands): unnamed islands such as Sicily are no spaces.
    assert!(g.space("Sicily").is_none());
}

#[test]
fn eighteen_victory_cities_and_six_capitals() {
    for id in ["anniversary-1941", "anniversary-1942"] {
        let g = game(id);
        let cities: BTreeSet<&str> = g
            .files()
            .board
            .territories
            .iter()
            .filter(|t| t.victory_city)
            .map(|t| t.name.as_str())
            .collect();
        let expected: BTreeSet<&str> = [
            "Germany",
            "France",
            "Poland",
            "Italy",
            "Japan",
            "Kiangsu",
            "Kwangtung",
            "Philippine Islands",
            "Russia",
            "Karelia S.S.R.",
            "Caucasus",
            "United Kingdom",
            "India",
            "Australia",
            "Eastern Canada",
            "Eastern United States",
            "Western United States",
            "Hawaiian Islands",
        ]
        .into();
        assert_eq!(cities, expected, "{id}");
        let capitals: Vec<(&str, Option<&str>)> = g
            .powers()
            .iter()
            .map(|p| (p.name.as_str(), p.capital.as_deref()))
            .collect();
        assert_eq!(
            capitals,
            vec![
                ("Germany", Some("Germany")),
                ("Soviet Union", Some("Russia")),
                ("Japan", Some("Japan")),
                ("United Kingdom", Some("United Kingdom")),
                ("Italy", Some("Italy")),
                // China has no capital (digest §16.3, KQ-3).
                ("China", None),
                ("United States", Some("Eastern United States")),
            ],
            "{id}"
        );
    }
}

#[test]
fn turn_orders_and_sides_per_scenario() {
    let names = |g: &GameDef| -> Vec<String> {
        g.turn_order()
            .into_iter()
            .map(|p| g.powers()[p].name.clone())
            .collect()
    };
    assert_eq!(
        names(&game("anniversary-1941")),
        [
            "Germany",
            "Soviet Union",
            "Japan",
            "United Kingdom",
            "Italy",
            "United States",
            "China"
        ]
    );
    assert_eq!(
        names(&game("anniversary-1942")),
        [
            "Japan",
            "Soviet Union",
            "Germany",
            "United Kingdom",
            "Italy",
            "United States",
            "China"
        ]
    );
    for id in ["anniversary-1941", "anniversary-1942"] {
        let g = game(id);
        let axis = g.side_of(power(&g, "Germany"));
        for p in ["Japan", "Italy"] {
            assert_eq!(g.side_of(power(&g, p)), axis, "{id}: {p}");
        }
        for p in ["Soviet Union", "United Kingdom", "United States", "China"] {
            assert_ne!(g.side_of(power(&g, p)), axis, "{id}: {p}");
        }
    }
}

#[test]
fn china_starts_with_seven_territories_and_the_original_controller_of_manchuria_and_kiangsu() {
    for id in ["anniversary-1941", "anniversary-1942"] {
        let g = game(id);
        let china = power(&g, "China");
        let japan = power(&g, "Japan");
        let held = (0..g.space_count())
            .map(SpaceId)
            .filter(|&s| g.starting_owner(s) == Some(china))
            .count();
        assert_eq!(held, 7, "{id}");
        // FAQ, Miscellaneous: China is the original controller of Manchuria
        // and Kiangsu; Japan holds them as an enemy in both scenarios.
        for t in ["Manchuria", "Kiangsu"] {
            let s = g.space(t).unwrap();
            assert_eq!(
                g.territory(s).unwrap().original_owner.as_deref(),
                Some("China")
            );
            assert_eq!(g.starting_owner(s), Some(japan), "{id}: {t}");
        }
    }
}

/// A unit's name, cost, attack, defense and movement.
type UnitRow<'a> = (&'a str, Option<u32>, Option<u8>, Option<u8>, Option<u8>);

/// The units of the edition: digest §3 (costs, values), cruisers bombard at 3.
#[test]
fn unit_values_of_the_edition() {
    for id in ["anniversary-1941", "anniversary-1942"] {
        let g = game(id);
        let rows: Vec<UnitRow> = g
            .unit_types()
            .iter()
            .map(|u| (u.name.as_str(), u.cost, u.attack, u.defense, u.movement))
            .collect();
        let expected = vec![
            ("infantry", Some(3), Some(1), Some(2), Some(1)),
            ("artillery", Some(4), Some(2), Some(2), Some(1)),
            ("armor", Some(5), Some(3), Some(3), Some(2)),
            ("fighter", Some(10), Some(3), Some(4), Some(4)),
            ("bomber", Some(12), Some(4), Some(1), Some(6)),
            ("transport", Some(7), Some(0), Some(0), Some(2)),
            ("submarine", Some(6), Some(2), Some(1), Some(2)),
            ("destroyer", Some(8), Some(2), Some(2), Some(2)),
            ("cruiser", Some(12), Some(3), Some(3), Some(2)),
            ("carrier", Some(14), Some(1), Some(2), Some(2)),
            ("battleship", Some(20), Some(4), Some(4), Some(2)),
            ("AA gun", Some(6), Some(0), Some(0), Some(1)),
            ("industrial complex", Some(15), None, None, None),
        ];
        assert_eq!(rows, expected, "{id}");
    }
}

/// The board is the same in both scenarios and in both TripleA files (same
/// spaces, borders, values and original owners), apart from the corrections
/// listed in docs/rules/anniversary.md.
#[test]
fn board_matches_triplea_apart_from_the_listed_corrections() {
    let shared = root().join("../shared/triplea-xml/world_war_ii_v3");
    if !Path::new(&shared).exists() {
        eprintln!("../shared/triplea-xml not present; cross-check skipped");
        return;
    }
    let ours = game("anniversary-1941");
    for (id, file) in [
        ("anniversary-1941", "WW2v3-1941.xml"),
        ("anniversary-1942", "WW2v3-1942.xml"),
    ] {
        let text = std::fs::read_to_string(shared.join(file)).unwrap();
        let theirs = triplea::import(&text, "x", file).unwrap().game;
        let g = game(id);
        assert_eq!(
            g.files().board,
            ours.files().board,
            "{id}: both scenarios share one board"
        );
        assert_eq!(
            g.files().setup.ipcs,
            theirs.files().setup.ipcs,
            "{id}: treasuries"
        );
        assert_eq!(
            g.files().setup.units,
            theirs.files().setup.units,
            "{id}: units"
        );
        for s in (0..theirs.space_count()).map(SpaceId) {
            let name = theirs.space_name(s);
            let mine = g.space(name).unwrap_or_else(|| panic!("{id}: {name}"));
            let mut a: Vec<&str> = g
                .neighbours(mine)
                .iter()
                .map(|&n| g.space_name(n))
                .collect();
            let mut b: Vec<&str> = theirs
                .neighbours(s)
                .iter()
                .map(|&n| theirs.space_name(n))
                .collect();
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "{id}: borders of {name}");
            if let (Some(x), Some(y)) = (g.territory(mine), theirs.territory(s)) {
                assert_eq!(x.ipc, y.ipc, "{id}: {name}");
                let owner = if name == "Saudi Arabia" {
                    // Correction: a neutral, not British (digest §16.2).
                    None
                } else {
                    y.original_owner.as_deref()
                };
                assert_eq!(x.original_owner.as_deref(), owner, "{id}: {name}");
                assert_eq!(x.victory_city, y.victory_city, "{id}: {name}");
            }
        }
    }
}

/// Which of the 17 national objectives each power meets in the starting
/// position, per the digest's §11 table (computed there from TripleA's
/// rules attachments): a check of the objectives' data.
#[test]
fn national_objectives_met_at_the_start_match_the_digest() {
    use adjutant::rules::income::objectives_met;
    use adjutant::rules::state::GameState;
    // Per power, in file order: met at the start?
    let expected_1941: &[(&str, &[bool])] = &[
        ("Germany", &[true, false, false]),
        ("Soviet Union", &[true, false]),
        ("Japan", &[true, false, false]),
        ("United Kingdom", &[false, true, false]),
        ("Italy", &[false, true]),
        ("United States", &[false, true, true, true]),
    ];
    let expected_1942: &[(&str, &[bool])] = &[
        ("Germany", &[true, true, false]),
        ("Soviet Union", &[true, false]),
        ("Japan", &[true, true, false]),
        ("United Kingdom", &[false, true, false]),
        ("Italy", &[false, false]),
        ("United States", &[false, false, true, false]),
    ];
    for (id, table) in [
        ("anniversary-1941", expected_1941),
        ("anniversary-1942", expected_1942),
    ] {
        let g = game(id);
        assert_eq!(g.files().game.national_objectives.len(), 17, "{id}");
        let state = GameState::initial(&g);
        for &(name, flags) in table {
            let p = power(&g, name);
            let mine: Vec<&str> = g
                .files()
                .game
                .national_objectives
                .iter()
                .filter(|o| o.power == name)
                .map(|o| o.name.as_str())
                .collect();
            assert_eq!(mine.len(), flags.len(), "{id}: {name}");
            let met: Vec<&str> = objectives_met(&g, &state, p)
                .iter()
                .map(|o| o.name.as_str())
                .collect();
            let want: Vec<&str> = mine
                .iter()
                .zip(flags)
                .filter(|(_, f)| **f)
                .map(|(n, _)| *n)
                .collect();
            assert_eq!(met, want, "{id}: {name}");
        }
    }
}
