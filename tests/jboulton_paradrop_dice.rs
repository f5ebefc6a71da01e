//! J Boulton paradrops with verifiable dice: every die the engine draws for
//! a drop (AA fire at the air transports, jump-out, the landing roll, the
//! surprise first strike, the battle) is re-derived by the independent
//! Python verifier from the turn key and its label
//! (`tools/verify_dice.py derive`), one by one, the jump-out dice of a
//! carrier shot down included (which `tests/jboulton_full_game.rs`, a whole
//! game's log checked by both verifiers, does not make sure of).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use adjutant::dice::{Dice, TurnSecret};
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::{GameDef, load_dir_unfinished, turn};

fn jboulton() -> GameDef {
    load_dir_unfinished(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae-jboulton"))
        .expect("games/aae-jboulton loads")
}

/// Germany drops six paratroopers on East Poland, held by two Soviet
/// infantry and an AA gun, with the dice of a turn keyed by `seed`.
fn drop_with(game: &GameDef, seed: u8) -> (String, BTreeMap<String, Vec<u32>>) {
    let mut state = GameState::initial(game);
    state.units.clear();
    let unit = |name: &str| {
        game.unit_types()
            .iter()
            .position(|t| t.name == name)
            .unwrap()
    };
    let germany = game.power("Germany").unwrap();
    let russia = game.power("Soviet Union").unwrap();
    let home = game.space("Germany").unwrap();
    let target = game.space("East Poland").unwrap();
    for _ in 0..6 {
        state.add_unit(unit("air transport"), germany, home);
        state.add_unit(unit("paratrooper"), germany, home);
    }
    state.add_unit(unit("infantry"), russia, target);
    state.add_unit(unit("infantry"), russia, target);
    state.add_unit(unit("AA gun"), russia, target);
    let message = parse_message(
        game,
        "combat:\n  - 6 air transports, 6 paratroopers: Germany -> Poland -> East Poland, land Poland\n",
    )
    .expect("the orders parse");
    let key = TurnSecret::from_bytes([seed; 32]).turn_key("jb-paradrop", 1, &[]);
    let mut dice = Dice::verifiable(key);
    turn::apply_orders_with_dice(game, &state, germany, &message.orders, &mut dice)
        .expect("the drop is legal");
    let mut by_label: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for group in dice.take_rolls() {
        assert_eq!(group.sides, 6);
        by_label
            .entry(group.label.as_str().to_owned())
            .or_default()
            .extend(group.values);
    }
    let hex: String = key.bytes().iter().map(|b| format!("{b:02x}")).collect();
    (hex, by_label)
}

#[test]
fn the_python_verifier_re_derives_every_die_of_a_paradrop() {
    let game = jboulton();
    // A turn whose AA fire shoots a carrier down, so that the jump-out
    // dice are drawn too.
    let (key, dice) = (0u8..=60)
        .map(|seed| drop_with(&game, seed))
        .find(|(_, d)| d.contains_key("paradrop/East Poland/jump-out"))
        .expect("some turn key shoots an air transport down");
    for label in [
        "aa/East Poland/air transport",
        "paradrop/East Poland/jump-out",
        "paradrop/East Poland/landing",
    ] {
        assert!(dice.contains_key(label), "no {label} dice: {dice:?}");
    }
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py");
    for (label, values) in &dice {
        let out = Command::new("python3")
            .arg(&script)
            .args([
                "derive",
                "--turn-key",
                &key,
                "--label",
                label,
                "--sides",
                "6",
            ])
            .args(["--count", &values.len().to_string()])
            .output()
            .expect("python3 runs the independent verifier");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let derived: Vec<u32> = String::from_utf8(out.stdout)
            .unwrap()
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(&derived, values, "{label}");
    }
}
