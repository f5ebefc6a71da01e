//! Runs the whole scenario corpus (`tests/scenarios/<dir>/*.yaml`): one file
//! per ruling, each asserting what the rules say. A directory is named after
//! a game (`aae`) or after a rule set whose games share the rulings
//! (`anniversary`, for `anniversary-1941` and `anniversary-1942`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use adjutant::rules::{GameDef, load_dir, scenario};

fn scenario_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    let mut files = Vec::new();
    for game_dir in std::fs::read_dir(&root).unwrap() {
        let game_dir = game_dir.unwrap().path();
        if !game_dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&game_dir).unwrap() {
            let f = f.unwrap().path();
            if f.extension().is_some_and(|e| e == "yaml") {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn every_scenario_holds() {
    let games_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut games: HashMap<String, GameDef> = HashMap::new();
    let mut failures = Vec::new();
    let files = scenario_files();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let sc = match scenario::parse(&text) {
            Ok(sc) => sc,
            Err(e) => {
                failures.push(format!("{}: {e}", file.display()));
                continue;
            }
        };
        // The directory names the game or its rule set; a scenario may not
        // claim another.
        let dir = file
            .parent()
            .unwrap()
            .file_name()
            .unwrap()
            .to_str()
            .unwrap();
        let game = games
            .entry(sc.game.clone())
            .or_insert_with(|| load_dir(&games_dir.join(&sc.game)).unwrap());
        if sc.game != dir && game.rule_set().id() != dir {
            failures.push(format!(
                "{}: game {} in a {dir} directory",
                file.display(),
                sc.game
            ));
        }
        // A panic in the engine is a failure of that scenario, reported with the rest.
        let run =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scenario::run(game, &sc)));
        match run {
            Ok(Ok(outcome)) => {
                for f in outcome.failures {
                    failures.push(format!("{}: {f}", file.display()));
                }
            }
            Ok(Err(e)) => failures.push(format!("{}: {e}", file.display())),
            Err(_) => failures.push(format!("{}: the engine panicked", file.display())),
        }
    }
    println!("{} scenarios run", files.len());
    assert!(!files.is_empty(), "no scenario files under tests/scenarios");
    assert!(
        failures.is_empty(),
        "{} of {} scenarios failed:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// `docs/rules/anniversary.md` is the map from the FAQ's rulings to their
/// scenarios: every scenario of the corpus is named there, and every
/// scenario named there exists (so the checklist cannot drift).
#[test]
fn the_anniversary_checklist_names_every_scenario_and_only_real_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/rules/anniversary.md")).unwrap();
    let dir = root.join("tests/scenarios/anniversary");
    let mut unlisted = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let name = f.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".yaml") && !doc.contains(&format!("`{name}`")) {
            unlisted.push(name);
        }
    }
    assert!(
        unlisted.is_empty(),
        "not in docs/rules/anniversary.md: {unlisted:?}"
    );
    let mut missing = Vec::new();
    for part in doc.split('`').skip(1).step_by(2) {
        let named = part.ends_with(".yaml")
            && part.contains('-')
            && !part.contains('/')
            && part
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.');
        if named
            && !dir.join(part).is_file()
            && !root.join("tests/scenarios/aae").join(part).is_file()
        {
            missing.push(part.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "named in docs/rules/anniversary.md but missing: {missing:?}"
    );
    assert!(
        !doc.contains("| not yet |"),
        "an FAQ item of the checklist has no scenario yet"
    );
}

/// Asserts that `docs/rules/<game>.md` names every scenario of
/// `tests/scenarios/<game>/` in backticks, and that each scenario file it
/// names exists.
fn assert_the_rules_page_names_every_scenario_and_only_real_ones(game: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = format!("docs/rules/{game}.md");
    let doc = std::fs::read_to_string(root.join(&page)).unwrap();
    let dir = root.join("tests/scenarios").join(game);
    let unlisted: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|f| f.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".yaml") && !doc.contains(&format!("`{n}`")))
        .collect();
    assert!(unlisted.is_empty(), "not in {page}: {unlisted:?}");
    let missing: Vec<&str> = doc
        .split('`')
        .skip(1)
        .step_by(2)
        .filter(|p| p.ends_with(".yaml") && p.contains('-') && !p.contains('/'))
        .filter(|p| !dir.join(p).is_file())
        .collect();
    assert!(
        missing.is_empty(),
        "named in {page} but missing: {missing:?}"
    );
}

/// `docs/rules/advanced-aae.md`'s *Rules played* names the scenario of
/// every rule it plays.
#[test]
fn the_advanced_aae_rules_page_names_every_scenario_and_only_real_ones() {
    assert_the_rules_page_names_every_scenario_and_only_real_ones("advanced-aae");
}

/// `docs/rules/classic.md` maps every DAAK clause to its scenarios (issue
/// 17: "every DAAK clause has a passing scenario").
#[test]
fn the_classic_rules_page_names_every_scenario_and_only_real_ones() {
    assert_the_rules_page_names_every_scenario_and_only_real_ones("classic");
}

/// The `.yaml` files of `tests/scenarios/<dir>/`, sorted.
fn scenarios_of(dir: &str) -> Vec<std::path::PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<std::path::PathBuf> =
        std::fs::read_dir(root.join("tests/scenarios").join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "yaml"))
            .collect();
    files.sort();
    files
}

/// An arbiter runs the J Boulton scenarios with the binary on the
/// built-in game, as every other rule set's.
#[test]
fn the_binary_runs_the_jboulton_scenarios_on_the_built_in_game() {
    assert_the_binary_passes(&scenarios_of("jboulton"));
}

/// `docs/rules/jboulton.md` names the scenarios of every item of the house
/// rules (issue 18: "every JB item has a passing scenario"): a row for each
/// of JB-01..46 that names a scenario file or says what is still to come,
/// and every scenario file of the game in some row.
#[test]
fn the_jboulton_rules_page_names_a_scenario_for_every_item() {
    assert_the_rules_page_names_every_scenario_and_only_real_ones("jboulton");
    assert_every_item_has_a_row_naming_its_scenarios("jboulton", "JB", 46);
}

/// `docs/rules/advanced-aae.md` names the scenarios of every item of v2.2
/// (issue 19: "every AAAE item has a passing scenario"): a row for each of
/// AAAE-01..54 that names a scenario file or says what is still to come.
#[test]
fn the_advanced_aae_rules_page_names_a_scenario_for_every_item() {
    assert_every_item_has_a_row_naming_its_scenarios("advanced-aae", "AAAE", 54);
}

/// Every item `PREFIX-01..=last` of a digest has a row in
/// `docs/rules/{game}.md`'s table that names a scenario file or says
/// "still to come".
fn assert_every_item_has_a_row_naming_its_scenarios(game: &str, prefix: &str, last: u32) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let page = format!("docs/rules/{game}.md");
    let doc = std::fs::read_to_string(root.join(&page)).unwrap();
    let bare: Vec<String> = (1..=last)
        .map(|i| format!("{prefix}-{i:02}"))
        .filter(|item| {
            let row = doc.lines().find(|l| l.starts_with(&format!("| {item} |")));
            !row.is_some_and(|r| r.contains(".yaml`") || r.contains("still to come"))
        })
        .collect();
    assert!(
        bare.is_empty(),
        "{page}: items without a row naming a scenario or what is to come: {bare:?}"
    );
}

/// An arbiter runs the Advanced AAE scenarios with the binary on the
/// built-in game.
#[test]
fn the_binary_runs_the_advanced_aae_scenarios_on_the_built_in_game() {
    assert_the_binary_passes(&scenarios_of("advanced-aae"));
}

/// `adjutant scenario --quiet FILES` passes every one of `files`.
fn assert_the_binary_passes(files: &[std::path::PathBuf]) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["scenario", "--quiet"])
        .args(files)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains(&format!("{} passed, 0 failed", files.len())),
        "{said}"
    );
}
