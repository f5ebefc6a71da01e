//! Take-over orders (`take_over:`, AAE's Soviet Patriotic War) through the
//! whole path a mail takes: parsed from YAML, applied by the turn sequence
//! through the rule set's hook, and refused with an error on the order when
//! the rules do not allow it. The rulings themselves are also scenarios
//! (`tests/scenarios/aae/the-patriotic-war-*.yaml`).

use std::path::{Path, PathBuf};

use adjutant::rules::events::Event;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::orders::{OrderError, Orders};
use adjutant::rules::state::{GameState, Phase};
use adjutant::rules::turn::apply_orders;
use adjutant::rules::{GameDef, load_dir};

fn games_aae() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")
}

fn aae() -> GameDef {
    load_dir(&games_aae()).expect("games/aae loads")
}

/// The AAE game with `game.yaml` changed by `edit`, loaded from a copy.
fn aae_edited(name: &str, edit: impl Fn(String) -> String) -> GameDef {
    // The directory is named after the game id, as loading requires.
    let root = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("turn_take_over-{}-{name}", std::process::id()));
    let dir = root.join("aae");
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&dir).unwrap();
    for f in ["board.yaml", "game.yaml", "setup.yaml", "units.yaml"] {
        let text = std::fs::read_to_string(games_aae().join(f)).unwrap();
        let text = if f == "game.yaml" { edit(text) } else { text };
        std::fs::write(dir.join(f), text).unwrap();
    }
    let game = load_dir(&dir).unwrap_or_else(|e| panic!("the edited game loads: {e:?}"));
    let _ = std::fs::remove_dir_all(&root);
    game
}

fn orders(game: &GameDef, yaml: &str) -> Orders {
    parse_message(game, yaml)
        .unwrap_or_else(|e| panic!("{yaml} is rejected: {e:?}"))
        .orders
}

fn count(game: &GameDef, state: &GameState, space: &str, power: &str, unit: &str) -> usize {
    let (s, p) = (game.space(space).unwrap(), game.power(power).unwrap());
    state
        .units_at(s)
        .filter(|u| u.owner == p && game.unit_types()[u.unit].name == unit)
        .count()
}

/// The setup, at the Soviet Union's turn and `phase`, with `extra` units
/// (space, power, unit, count) added.
fn soviet_turn(game: &GameDef, phase: Phase, extra: &[(&str, &str, &str, u32)]) -> GameState {
    let mut state = GameState::initial(game);
    let ussr = game.power("Soviet Union").unwrap();
    state.turn = game.turn_order().iter().position(|&p| p == ussr).unwrap();
    state.phase = phase;
    for &(space, power, unit, n) in extra {
        let t = game
            .unit_types()
            .iter()
            .position(|u| u.name == unit)
            .unwrap();
        for _ in 0..n {
            state.add_unit(t, game.power(power).unwrap(), game.space(space).unwrap());
        }
    }
    state
}

fn rejected(game: &GameDef, state: &GameState, yaml: &str) -> Vec<OrderError> {
    let power = state.current_power(game);
    match apply_orders(game, state, power, &orders(game, yaml)) {
        Ok(_) => panic!("{yaml} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn a_soviet_stage_one_message_takes_over_after_combat() {
    let game = aae();
    let state = soviet_turn(
        &game,
        Phase::Purchase,
        &[("Moscow", "United Kingdom", "fighter", 1)],
    );
    let ussr = game.power("Soviet Union").unwrap();
    let message = orders(
        &game,
        "purchase: 1 infantry\n\
         take_over:\n  - 1 fighter of UK in Moscow\n\
         place:\n  Moscow: 1 infantry\n",
    );
    let (next, events) = apply_orders(&game, &state, ussr, &message).expect("accepted");
    assert_eq!(
        count(&game, &next, "Moscow", "United Kingdom", "fighter"),
        0
    );
    assert_eq!(count(&game, &next, "Moscow", "Soviet Union", "fighter"), 2);
    assert_eq!(count(&game, &next, "Moscow", "Soviet Union", "infantry"), 5);
    // The take-over happens before placement and the end of the turn.
    let described: Vec<String> = events.iter().map(|e| e.describe(&game)).collect();
    let at = |text: &str| {
        described
            .iter()
            .position(|d| d.contains(text))
            .unwrap_or_else(|| panic!("no event {text:?} in {described:#?}"))
    };
    assert!(
        at("Patriotic War: the Soviet Union took over 1 fighter of United Kingdom")
            < at("collected")
    );
    assert!(events.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
}

#[test]
fn a_refusal_is_an_error_on_its_order_and_nothing_is_applied() {
    let game = aae();
    let state = soviet_turn(
        &game,
        Phase::NoncombatMove,
        &[
            ("Moscow", "United Kingdom", "armor", 1),
            ("Karelia", "United Kingdom", "infantry", 2),
        ],
    );
    let errors = rejected(
        &game,
        &state,
        "take_over:\n  - 1 armor of UK in Moscow\n  - 2 infantry of UK in Karelia\n",
    );
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = &errors[0];
    assert_eq!(
        (
            e.origin.section,
            e.origin.index,
            e.origin.line,
            e.field.as_deref()
        ),
        ("take_over", 2, Some(3), Some("take_over"))
    );
    assert_eq!(
        e.to_string(),
        "Line 3, take_over order 2 (2 infantry of UK in Karelia), take_over: Karelia holds no \
         Soviet industrial complex: the Patriotic War applies only in a Soviet-held territory \
         with one (now: Stalingrad, Moscow, Leningrad, Archangel)"
    );
}

#[test]
fn the_hook_checks_whose_units_and_how_many() {
    let game = aae();
    let state = soviet_turn(
        &game,
        Phase::NoncombatMove,
        &[
            ("Moscow", "United Kingdom", "armor", 1),
            ("Moscow", "Germany", "infantry", 1),
        ],
    );
    let cases = [
        (
            "take_over:\n  - 1 infantry of Germany in Moscow\n",
            "the Patriotic War takes over units of the Soviet Union's allies, not of Germany",
        ),
        (
            "take_over:\n  - 1 infantry of Soviet Union in Moscow\n",
            "not of Soviet Union",
        ),
        (
            "take_over:\n  - 2 armor of UK in Moscow\n",
            "United Kingdom has only 1 armor in Moscow, not 2",
        ),
        (
            "take_over:\n  - 1 fighter of USA in Moscow\n",
            "United States has no fighter in Moscow",
        ),
        (
            "take_over:\n  - 1 armor of UK in Moscow\n  - 1 armor of UK in Moscow\n",
            "United Kingdom has no armor in Moscow",
        ),
    ];
    for (yaml, words) in cases {
        let errors = rejected(&game, &state, yaml);
        assert!(
            errors.iter().any(|e| e.reason.contains(words)),
            "{yaml}: no error says {words:?}: {errors:#?}"
        );
    }
}

#[test]
fn a_game_without_the_rule_refuses_take_overs() {
    let off = aae_edited("off", |t| {
        t.replace("patriotic_war: true", "patriotic_war: false")
    });
    let state = soviet_turn(
        &off,
        Phase::NoncombatMove,
        &[("Moscow", "United Kingdom", "armor", 1)],
    );
    let errors = rejected(&off, &state, "take_over:\n  - 1 armor of UK in Moscow\n");
    assert_eq!(
        errors[0].reason,
        "the Patriotic War rule is not used in this game"
    );
    // A rule set without any such rule: the hook's default refuses.
    let generic = aae_edited("generic", |t| {
        let t = t.replace("rule_set: aae", "rule_set: generic");
        t[..t.find("\noptions:").expect("game.yaml has options")].to_owned() + "\n"
    });
    assert_eq!(generic.rule_set().id(), "generic");
    let state = soviet_turn(
        &generic,
        Phase::NoncombatMove,
        &[("Moscow", "United Kingdom", "armor", 1)],
    );
    let errors = rejected(
        &generic,
        &state,
        "take_over:\n  - 1 armor of UK in Moscow\n",
    );
    assert_eq!(
        errors[0].reason,
        "no rule of this game lets a power take over an ally's units"
    );
    assert_eq!(errors[0].field.as_deref(), Some("take_over"));
}
