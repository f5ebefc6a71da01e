//! Advanced AAE's fortifications (AAAE-29) with verifiable dice: the
//! infantry a fortification raises fire in a group of their own,
//! `fortified infantry` (`docs/rules/combat-labels.md`), and every die of
//! such a battle is re-derived by the independent Python verifier from the
//! turn key and its label (`tools/verify_dice.py derive`).

#[path = "common/verify.rs"]
mod verify;

use std::collections::BTreeMap;
use std::path::Path;

use adjutant::dice::{Dice, TurnSecret};
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::{GameDef, load_dir, turn};

fn advanced() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/advanced-aae"))
        .expect("games/advanced-aae loads")
}

/// Three Russian infantry attack three German infantry and two
/// fortifications in Poland, with the dice of a turn keyed by `seed`: the
/// turn key in hex and every die by label.
fn assault_with(game: &GameDef, seed: u8) -> (String, BTreeMap<String, Vec<u32>>) {
    let mut state = GameState::initial(game);
    state.units.clear();
    let id = |name: &str| {
        let t = game.unit_type(name).expect("the rules' word");
        game.unit_types()
            .iter()
            .position(|u| u.name == t.name)
            .unwrap()
    };
    let russia = game.power("Russia").unwrap();
    let germany = game.power("Germany").unwrap();
    let from = game.space("East Poland").unwrap();
    let poland = game.space("Poland").unwrap();
    state.turn = game.turn_order().iter().position(|&p| p == russia).unwrap();
    for _ in 0..3 {
        state.add_unit(id("infantry"), russia, from);
        state.add_unit(id("infantry"), germany, poland);
    }
    for _ in 0..2 {
        state.add_unit(id("fortification"), germany, poland);
    }
    let message = parse_message(
        game,
        "combat:\n  - 3 infantry: East Poland -> Poland\nbattles:\n  Poland: {retreat: {after_round: 1, to: East Poland}}\n",
    )
    .expect("the orders parse");
    let key = TurnSecret::from_bytes([seed; 32]).turn_key("aaae-fortification", 1, &[]);
    let mut dice = Dice::verifiable(key);
    turn::apply_orders_with_dice(game, &state, russia, &message.orders, &mut dice)
        .expect("the attack is legal");
    verify::rolls_by_label(&mut dice, &key)
}

#[test]
fn the_python_verifier_re_derives_the_dice_of_fortified_infantry() {
    let game = advanced();
    let (key, dice) = assault_with(&game, 7);
    // Two infantry raised by the two fortifications, one at its own value.
    assert_eq!(
        dice["battle/Poland/round/1/defender/fortified infantry"].len(),
        2,
        "{dice:?}"
    );
    assert_eq!(dice["battle/Poland/round/1/defender/infantry"].len(), 1);
    assert_eq!(dice["battle/Poland/round/1/attacker/infantry"].len(), 3);
    assert!(
        !dice.keys().any(|l| l.contains("fortification")),
        "fortifications never roll: {dice:?}"
    );
    verify::python_re_derives(&key, &dice);
}
