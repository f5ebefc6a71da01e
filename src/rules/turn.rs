//! The turn sequence: purchase, combat move, combat, non-combat move, place,
//! end of turn (income), for each power in turn order, in the two stages that
//! orders arrive by mail.

use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::orders::{OrderError, Orders, PowerId};
use crate::rules::state::GameState;

/// Applies one message of `power`'s orders to `state`.
///
/// The stage is the one `state.phase` is at: at `Purchase` the message is
/// stage 1 (purchase, combat moves, battle plans; stage-2 sections in the same
/// message are applied after combat when still legal); at `NoncombatMove` it
/// is stage 2 (non-combat moves, placement; the turn then ends: income, next
/// power). Returns the new state and what happened, or every error; a
/// rejected message changes nothing.
pub fn apply_orders(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &Orders,
) -> Result<(GameState, Vec<Event>), Vec<OrderError>> {
    let _ = (game, state, power, orders);
    todo!("turn sequence: helper C")
}
