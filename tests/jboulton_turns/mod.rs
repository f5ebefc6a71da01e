//! One J Boulton turn of Germany's orders with verifiable dice, for the
//! tests that have the Python verifier re-derive its dice
//! (`tests/jboulton_paradrop_dice.rs`, `tests/jboulton_mission_dice.rs`).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::Path;

use adjutant::dice::{Dice, TurnSecret};
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::{GameDef, load_dir, turn};

use super::verifiers;

/// The J Boulton game.
pub fn jboulton() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae-jboulton"))
        .expect("games/aae-jboulton loads")
}

/// The units placed for a turn: (unit type, power, territory, count).
pub type Setup<'a> = &'a [(&'a str, &'a str, &'a str, usize)];

/// A board holding only `setup`.
pub fn board(game: &GameDef, setup: Setup) -> GameState {
    let mut state = GameState::initial(game);
    state.units.clear();
    for &(unit, power, at, count) in setup {
        let unit = game
            .unit_types()
            .iter()
            .position(|t| t.name == unit)
            .unwrap();
        let power = game.power(power).unwrap();
        let at = game.space(at).unwrap();
        for _ in 0..count {
            state.add_unit(unit, power, at);
        }
    }
    state
}

/// `orders` of Germany on `state`, with the dice of turn 1 of match
/// `match_id` keyed by `seed`: the turn key in hex and every die by label.
pub fn turn_on(
    game: &GameDef,
    state: &GameState,
    orders: &str,
    match_id: &str,
    seed: u8,
) -> (String, BTreeMap<String, Vec<u32>>) {
    let germany = game.power("Germany").unwrap();
    let message = parse_message(game, orders).expect("the orders parse");
    let key = TurnSecret::from_bytes([seed; 32]).turn_key(match_id, 1, &[]);
    let mut dice = Dice::verifiable(key);
    turn::apply_orders_with_dice(game, state, germany, &message.orders, &mut dice)
        .expect("the orders are legal");
    verifiers::rolls_by_label(&mut dice, &key)
}
