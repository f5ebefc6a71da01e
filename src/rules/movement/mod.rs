//! Movement: the combat move and the non-combat move, by land, sea and air,
//! transports included, with every AAE movement ruling.

use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::orders::{Located, MoveOrder, OrderError, PowerId};
use crate::rules::state::GameState;

/// Checks and applies `power`'s combat moves to `state`, appending what
/// happened to `events` and recording every space where a battle must be
/// fought (or an empty enemy territory taken) in `state.battles`. On error
/// `state` may be half-changed: callers work on a copy and drop it.
pub fn combat_move(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    moves: &[Located<MoveOrder>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let _ = (game, state, power, moves, events);
    todo!("movement: helper B")
}

/// Checks and applies `power`'s non-combat moves (aircraft landing
/// included); same contract as [`combat_move`].
pub fn noncombat_move(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    moves: &[Located<MoveOrder>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let _ = (game, state, power, moves, events);
    todo!("movement: helper B")
}
