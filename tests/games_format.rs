//! The game-definition format: a small valid game loads, and every kind of
//! broken data is reported, all problems at once, with file, path and reason.

use adjutant::rules::{GameSources, Problem, load_sources};

const GAME: &str = "\
id: tiny
name: Tiny
rule_set: generic
powers:
  - {name: Red, capital: Alpha}
  - {name: Blue, aliases: [Azure]}
sides:
  - {name: East, powers: [Red]}
  - {name: West, powers: [Blue]}
turn_order: [Red, Blue]
";

const BOARD: &str = "\
territories:
  - {name: Alpha, ipc: 3, original_owner: Red, neighbours: [Beta, Bay]}
  - {name: Beta, ipc: 2, original_owner: Blue, neighbours: [Alpha, Bay]}
  - {name: Gamma, ipc: 0, impassable: true, neighbours: [Bay]}
sea_zones:
  - {name: Bay, neighbours: [Alpha, Beta, Gamma, Deep], convoy: {value: 2, power: Blue, requires: [Beta]}}
  - {name: Deep, neighbours: [Bay]}
canals:
  - {name: Narrows, sea_zones: [Bay, Deep], controlled_by: [Gamma]}
";

const UNITS: &str = "\
units:
  - {name: infantry, aliases: [inf], kind: land, cost: 3, attack: 1, defense: 2, movement: 1, transport_cost: 2}
  - {name: transport, kind: sea, cost: 8, attack: 0, defense: 1, movement: 2, transport_capacity: 4}
  - {name: factory, kind: building, abilities: [production, {anti_aircraft: 1}]}
";

const SETUP: &str = "\
ipcs: {Red: 3, Blue: 4}
units:
  Alpha:
    Red: {infantry: 2, factory: 1}
  Bay:
    Blue: {transport: 1, inf: 2}
";

fn sources<'a>(game: &'a str, board: &'a str, units: &'a str, setup: &'a str) -> GameSources<'a> {
    GameSources {
        game,
        board,
        units,
        setup,
    }
}

fn problems(game: &str, board: &str, units: &str, setup: &str) -> Vec<Problem> {
    match load_sources(sources(game, board, units, setup)) {
        Ok(_) => panic!("expected problems"),
        Err(p) => p.0,
    }
}

fn has(problems: &[Problem], file: &str, path: &str, reason_part: &str) -> bool {
    problems
        .iter()
        .any(|p| p.file == file && p.path == path && p.reason.contains(reason_part))
}

#[test]
fn a_valid_game_loads_and_answers_lookups() {
    let game = load_sources(sources(GAME, BOARD, UNITS, SETUP)).unwrap();
    let alpha = game.space("ALPHA").unwrap();
    let bay = game.space("  bay ").unwrap();
    assert!(game.adjacent(alpha, bay) && game.adjacent(bay, alpha));
    assert!(game.is_sea(bay) && !game.is_sea(alpha));
    assert_eq!(game.power("azure"), game.power("Blue"));
    assert_eq!(game.unit_type("INF").unwrap().name, "infantry");
    assert_eq!(game.income_breakdown(game.power("Red").unwrap()), (3, 0));
    // Blue holds Beta (2) and the Bay convoy (2), which requires Beta.
    assert_eq!(game.income_breakdown(game.power("Blue").unwrap()), (2, 2));
    assert_eq!(game.turn_order(), vec![0, 1]);
    assert_eq!(game.starting_units().map(|(_, _, _, n)| n).sum::<u32>(), 6);
}

#[test]
fn convoy_requirement_lost_when_required_land_changes_hands() {
    let setup = format!("{SETUP}owners: {{Beta: Red}}\n");
    let game = load_sources(sources(GAME, BOARD, UNITS, &setup)).unwrap();
    assert_eq!(game.income_breakdown(game.power("Blue").unwrap()), (0, 0));
    assert_eq!(game.income_breakdown(game.power("Red").unwrap()), (5, 0));
}

#[test]
fn every_board_problem_is_reported_at_once() {
    let board = "\
territories:
  - {name: Alpha, ipc: 3, original_owner: Red, neighbours: [Betta, Bay]}
  - {name: Beta, ipc: 2, original_owner: Green, neighbours: [Alpha, Bay]}
  - {name: alpha, neighbours: [Bay]}
sea_zones:
  - {name: Bay, neighbours: [Alpha, Beta]}
";
    let found = problems(GAME, board, UNITS, "ipcs: {Red: 3, Blue: 4}\n");
    assert!(
        has(
            &found,
            "board.yaml",
            "territories[0].neighbours[0]",
            "did you mean \"Beta\""
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "board.yaml",
            "territories[1].original_owner",
            "no power called \"Green\""
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "board.yaml",
            "territories[2].name",
            "without regard to case"
        ),
        "{found:#?}"
    );
    assert!(
        has(&found, "board.yaml", "territories[2]", "no ipc value"),
        "{found:#?}"
    );
    // Beta lists Alpha, but Alpha (misspelt) does not list Beta.
    assert!(
        has(
            &found,
            "board.yaml",
            "territories[1].neighbours[0]",
            "one-way adjacency"
        ),
        "{found:#?}"
    );
    assert!(found.len() >= 5);
}

#[test]
fn unit_without_stats_and_bad_values_are_reported() {
    let units = "\
units:
  - {name: infantry, kind: land, cost: 3, defense: 2}
  - {name: transport, kind: sea, cost: 8, attack: 0, defense: 1, movement: 2, transport_capacity: 4}
  - {name: factory, kind: building}
  - {name: ghost, cost: 1}
  - {name: Infantry, kind: air, attack: 9, defense: 1, movement: 4, abilities: [{bombard: 7}], hit_points: 0}
";
    let found = problems(GAME, BOARD, units, "ipcs: {Red: 3, Blue: 4}\n");
    assert!(
        has(&found, "units.yaml", "units[0].attack", "no attack value"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "units.yaml",
            "units[0].movement",
            "no movement value"
        ),
        "{found:#?}"
    );
    assert!(
        has(&found, "units.yaml", "units[3].kind", "no kind"),
        "{found:#?}"
    );
    assert!(
        has(&found, "units.yaml", "units[4].name", "already the name"),
        "{found:#?}"
    );
    assert!(
        has(&found, "units.yaml", "units[4].attack", "six-sided die"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "units.yaml",
            "units[4].abilities[0]",
            "six-sided die"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "units.yaml",
            "units[4].hit_points",
            "at least one hit"
        ),
        "{found:#?}"
    );
}

#[test]
fn setup_problems_name_the_space_power_and_unit() {
    let setup = "\
ipcs: {Red: 3, Reed: 1}
owners: {Deep: Red, Atlantis: Blue}
units:
  Atlantis:
    Red: {infantry: 1}
  Alpha:
    Red: {infantry: 0, tank: 1}
    Blue: {infantry: 1}
  Beta:
    Blue: {transport: 1}
  Gamma:
    Red: {infantry: 1}
  Bay:
    Blue: {infantry: 3, transport: 1}
";
    let found = problems(GAME, BOARD, UNITS, setup);
    assert!(
        has(&found, "setup.yaml", "ipcs.Reed", "did you mean \"Red\""),
        "{found:#?}"
    );
    assert!(
        has(&found, "setup.yaml", "ipcs", "no starting IPCs for Blue"),
        "{found:#?}"
    );
    assert!(
        has(&found, "setup.yaml", "owners.Deep", "without a convoy"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "owners.Atlantis",
            "no territory or sea zone"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "units.Atlantis",
            "no territory or sea zone"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "units.Alpha.Red.infantry",
            "count of 0"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "units.Alpha.Red.tank",
            "no unit type called \"tank\""
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "units.Alpha.Blue",
            "an enemy (Red) controls"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "units.Beta.Blue.transport",
            "is a ship"
        ),
        "{found:#?}"
    );
    assert!(
        has(&found, "setup.yaml", "units.Gamma", "impassable"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "setup.yaml",
            "units.Bay.Blue",
            "more transport space"
        ),
        "{found:#?}"
    );
}

#[test]
fn game_file_problems_cover_powers_sides_turns_and_options() {
    let game = "\
id: Tiny Game
name: Tiny
rule_set: aee
powers:
  - {name: Red, capital: Bay}
  - {name: Blue}
  - {name: blue}
sides:
  - {name: East, powers: [Red, Blue]}
  - {name: West, powers: [Blue, Purple]}
turn_order: [Red, Red]
options: {anything: 1}
";
    let found = problems(game, BOARD, UNITS, SETUP);
    assert!(has(&found, "game.yaml", "id", "lower-case"), "{found:#?}");
    assert!(
        has(&found, "game.yaml", "rule_set", "did you mean \"aae\""),
        "{found:#?}"
    );
    assert!(
        has(&found, "game.yaml", "powers[0].capital", "sea zone"),
        "{found:#?}"
    );
    assert!(
        has(&found, "game.yaml", "powers[2].name", "already the name"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "game.yaml",
            "sides[1].powers[1]",
            "no power called \"Purple\""
        ),
        "{found:#?}"
    );
    assert!(
        has(&found, "game.yaml", "sides", "more than one side"),
        "{found:#?}"
    );
    assert!(
        has(&found, "game.yaml", "turn_order[1]", "more than one turn"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "game.yaml",
            "turn_order",
            "Blue plays but is missing"
        ),
        "{found:#?}"
    );
}

#[test]
fn options_are_checked_against_the_rule_set() {
    let game = GAME.replace("rule_set: generic", "rule_set: aae")
        + "options: {patriotic_war: 3, middle_east_payer: nobody, allied_victorie: x}\n";
    let found = problems(&game, BOARD, UNITS, "ipcs: {Red: 3, Blue: 4}\n");
    assert!(
        has(
            &found,
            "game.yaml",
            "options.patriotic_war",
            "true or false"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "game.yaml",
            "options.middle_east_payer",
            "allies_choose"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "game.yaml",
            "options.allied_victorie",
            "did you mean \"allied_victory\""
        ),
        "{found:#?}"
    );
}

#[test]
fn aae_checks_starting_money_against_income_and_factory_costs() {
    let game = GAME.replace("rule_set: generic", "rule_set: aae");
    let units = UNITS.replace(
        "{name: factory, kind: building",
        "{name: factory, kind: building, cost: 15",
    );
    let setup = "ipcs: {Red: 3, Blue: 5}\nunits: {}\n";
    let found = problems(&game, BOARD, &units, setup);
    assert!(
        has(&found, "setup.yaml", "ipcs.Blue", "starts with 5 IPCs but"),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "units.yaml",
            "units[2].cost",
            "industrial complexes"
        ),
        "{found:#?}"
    );
    assert!(!found.iter().any(|p| p.path == "ipcs.Red"), "{found:#?}");
}

#[test]
fn syntax_errors_of_several_files_come_with_lines() {
    let found = problems(
        GAME,
        "territories: [\n",
        UNITS,
        "ipcs: {Red: 3, Blue: 4}\nbogus: 1\n",
    );
    let board = found
        .iter()
        .find(|p| p.file == "board.yaml")
        .expect("board problem");
    assert!(board.location.is_some(), "{board:?}");
    let setup = found
        .iter()
        .find(|p| p.file == "setup.yaml")
        .expect("setup problem");
    assert!(setup.reason.contains("bogus"), "{setup:?}");
    assert_eq!(setup.location.map(|l| l.0), Some(2), "{setup:?}");
}

#[test]
fn canal_must_join_neighbouring_sea_zones_through_land() {
    let board = BOARD
        .replace("controlled_by: [Gamma]", "controlled_by: [Deep]")
        .replace(
            "  - {name: Deep, neighbours: [Bay]}",
            "  - {name: Deep, neighbours: [Bay]}\n  - {name: Far, neighbours: [Deep]}",
        );
    let board = board.replace(
        "{name: Deep, neighbours: [Bay]}",
        "{name: Deep, neighbours: [Bay, Far]}",
    );
    let board = board.replace("sea_zones: [Bay, Deep]", "sea_zones: [Bay, Far]");
    let found = problems(GAME, &board, UNITS, SETUP);
    assert!(
        has(
            &found,
            "board.yaml",
            "canals[0].sea_zones",
            "not neighbours"
        ),
        "{found:#?}"
    );
    assert!(
        has(
            &found,
            "board.yaml",
            "canals[0].controlled_by[0]",
            "through land"
        ),
        "{found:#?}"
    );
}
