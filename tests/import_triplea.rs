//! The TripleA importer over every game file in ../shared/triplea-xml: each
//! imports, validates, writes, and loads back from disk unchanged.

use std::path::{Path, PathBuf};

use adjutant::import::triplea::{self, xml};
use adjutant::rules::load_dir;

fn xml_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/triplea-xml")
}

fn all_xml_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(xml_dir()).expect("../shared/triplea-xml exists") {
        let dir = dir.unwrap().path();
        if dir.is_dir() {
            for f in std::fs::read_dir(&dir).unwrap() {
                let f = f.unwrap().path();
                if f.extension().is_some_and(|e| e == "xml") {
                    files.push(f);
                }
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_triplea_file_imports_validates_and_round_trips() {
    let files = all_xml_files();
    assert_eq!(files.len(), 12, "{files:?}");
    let out_root = std::env::temp_dir().join(format!("adjutant-import-{}", std::process::id()));
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let parsed = xml::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let imported = triplea::import(&text, "imported", "test")
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let game = &imported.game;
        let board = &game.files().board;
        // Every space and every connection of the XML made it across.
        assert_eq!(
            board.territories.len() + board.sea_zones.len(),
            parsed.territories.len(),
            "{}",
            file.display()
        );
        let links: usize = (0..game.space_count())
            .map(|i| game.neighbours(adjutant::rules::SpaceId(i)).len())
            .sum();
        let distinct: std::collections::HashSet<(&str, &str)> = parsed
            .connections
            .iter()
            .map(|(a, b)| {
                if a <= b {
                    (a.as_str(), b.as_str())
                } else {
                    (b.as_str(), a.as_str())
                }
            })
            .collect();
        assert_eq!(links, 2 * distinct.len(), "{}", file.display());
        // Every starting unit with an owner is in the setup.
        let placed: u32 = parsed
            .placements
            .iter()
            .filter(|p| p.owner.is_some())
            .map(|p| p.quantity)
            .sum();
        assert_eq!(
            game.starting_units().map(|(_, _, _, n)| n).sum::<u32>(),
            placed,
            "{}",
            file.display()
        );
        // Written out and read back from disk, it is the same game.
        let dir = out_root.join("imported");
        imported.write_to(&dir).unwrap();
        let reloaded = load_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(reloaded.files(), game.files(), "{}", file.display());
    }
    std::fs::remove_dir_all(&out_root).ok();
}

#[test]
fn duplicate_attachments_replace_instead_of_adding_up() {
    for name in [
        "europe_improved/europe_improved.xml",
        "europe/europe_AAE.xml",
    ] {
        let text = std::fs::read_to_string(xml_dir().join(name)).unwrap();
        let parsed = xml::parse(&text).unwrap();
        assert!(
            !parsed.replaced.is_empty(),
            "{name} has duplicate attachments"
        );
        let game = triplea::import(&text, "x", name).unwrap().game;
        let us = game.space("United States").unwrap();
        assert_eq!(
            game.territory(us).unwrap().ipc,
            Some(30),
            "{name}: naive summing would give 60"
        );
    }
}

#[test]
fn byte_order_mark_and_doctype_are_handled() {
    let text =
        std::fs::read_to_string(xml_dir().join("europe_improved/europe_improved.xml")).unwrap();
    assert!(
        text.starts_with('\u{feff}'),
        "the fixture starts with a BOM"
    );
    assert!(text.contains("<!DOCTYPE game SYSTEM \"game.dtd\">"));
    assert!(xml::parse(&text).is_ok());
}

#[test]
fn legacy_option_names_are_mapped() {
    let text = std::fs::read_to_string(xml_dir().join("world_war_ii_v3/WW2v3-1941.xml")).unwrap();
    let parsed = xml::parse(&text).unwrap();
    assert!(
        parsed
            .legacy_options
            .iter()
            .any(|(old, new)| old == "isInfantry" && new == "isLandTransportable")
    );
    assert!(
        parsed
            .attachments
            .iter()
            .all(|a| a.get("isInfantry").is_none())
    );
}

#[test]
fn foreach_attachments_are_expanded() {
    let text =
        std::fs::read_to_string(xml_dir().join("europe_improved/europe_improved.xml")).unwrap();
    let parsed = xml::parse(&text).unwrap();
    let names: Vec<&str> = parsed
        .attachments
        .iter()
        .map(|a| a.name.as_str())
        .filter(|n| n.starts_with("triggerAttachmentUSAPays"))
        .collect();
    assert_eq!(names.len(), 8, "{names:?}");
    assert!(names.contains(&"triggerAttachmentUSAPays8PUs"));
    assert!(parsed.attachments.iter().all(|a| !a.name.contains('@')));
}

#[test]
fn sea_zone_ownership_and_production_become_convoys() {
    let text =
        std::fs::read_to_string(xml_dir().join("europe_improved/europe_improved.xml")).unwrap();
    let game = triplea::import(&text, "x", "t").unwrap().game;
    let convoys: Vec<(String, u32, String)> = game
        .files()
        .board
        .sea_zones
        .iter()
        .filter_map(|z| {
            z.convoy
                .as_ref()
                .map(|c| (z.name.clone(), c.value, c.power.clone()))
        })
        .collect();
    assert_eq!(convoys.len(), 7, "{convoys:?}");
    assert!(convoys.contains(&("British Convoy 3".into(), 5, "United Kingdom".into())));
    assert!(convoys.contains(&("Soviet Convoy".into(), 4, "Soviet Union".into())));
    // Player-friendly names, with TripleA's kept as aliases.
    assert_eq!(game.space("Baltic Sea Sea Zone"), game.space("baltic sea"));
}

#[test]
fn garbage_is_an_error_not_a_panic() {
    assert!(triplea::import("not xml at all", "x", "t").is_err());
    assert!(triplea::import("<game><map><territory/></map></game>", "x", "t").is_err());
}

/// TripleA's legacy `isSub` means what the map's properties say: Classic
/// ("Submersible Subs" and "Air Attack Sub Restricted" off) has submarines
/// that strike first and cannot hit aircraft, but neither submerge nor hide
/// from aircraft; the Anniversary map (both on) has all four.
#[test]
fn legacy_subs_follow_the_maps_properties() {
    use adjutant::rules::model::Ability;
    let sub = |name: &str| {
        let text = std::fs::read_to_string(xml_dir().join(name)).unwrap();
        let game = triplea::import(&text, "x", name).unwrap().game;
        let sub = game.unit_type("submarine").unwrap();
        [
            Ability::FirstStrike,
            Ability::CannotHitAir,
            Ability::Submerge,
            Ability::HiddenFromAir,
        ]
        .map(|a| sub.has(&a))
    };
    assert_eq!(
        sub("world_war_ii_classic/classic.xml"),
        [true, true, false, false]
    );
    assert_eq!(
        sub("world_war_ii_v3/WW2v3-1941.xml"),
        [true, true, true, true]
    );
}
