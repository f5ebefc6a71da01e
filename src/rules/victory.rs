//! Victory by capitals held for a complete round (AAE, FAQ "Victory
//! Conditions": "You need to control both of those capitals, simultaneously,
//! for one complete round (the end of your turn until the end of your next
//! turn)").
//!
//! Conditions are checked at the end of every turn. One that holds at the
//! end of a power's turn is recorded in `state.holds`; it is dropped at the
//! end of any later turn when it no longer holds; the side wins when it still
//! holds at the end of the same power's next turn.

use crate::rules::conquest::{allied, capital};
use crate::rules::events::Event;
use crate::rules::state::{GameState, Hold};
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// What a power must hold for a complete round to win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Condition {
    /// Its own capital together with any one enemy capital (the same one for
    /// the whole round).
    OwnAndEnemyCapital,
    /// Its side holds every capital on the board.
    AllCapitals,
}

/// The keys of the conditions `power` fulfils now: each enemy capital it
/// holds with its own, or `None` for [`Condition::AllCapitals`].
fn fulfilled(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    condition: Condition,
) -> Vec<Option<SpaceId>> {
    let controls = |p: PowerId, s: SpaceId| state.owner[s.0] == Some(p);
    match condition {
        Condition::OwnAndEnemyCapital => {
            let Some(own) = capital(game, power) else {
                return Vec::new();
            };
            if !controls(power, own) {
                return Vec::new();
            }
            (0..game.powers().len())
                .filter(|&e| !allied(game, e, power))
                .filter_map(|e| capital(game, e))
                .filter(|&c| controls(power, c))
                .map(Some)
                .collect()
        }
        Condition::AllCapitals => {
            let all = (0..game.powers().len())
                .filter_map(|p| capital(game, p))
                .all(|c| state.owner[c.0].is_some_and(|o| allied(game, o, power)));
            if all { vec![None] } else { Vec::new() }
        }
    }
}

/// Runs the end-of-turn check after `ended`'s turn; `condition` gives each
/// power's victory condition. Sets `state.winner` and reports a
/// [`Event::Victory`] when a side has won.
pub fn capitals_for_a_round(
    game: &GameDef,
    state: &mut GameState,
    ended: PowerId,
    condition: impl Fn(PowerId) -> Condition,
    events: &mut Vec<Event>,
) {
    let holds = std::mem::take(&mut state.holds);
    state.holds = holds
        .into_iter()
        .filter(|h| fulfilled(game, state, h.power, condition(h.power)).contains(&h.capital))
        .collect();
    for key in fulfilled(game, state, ended, condition(ended)) {
        let earlier = state
            .holds
            .iter()
            .find(|h| h.power == ended && h.capital == key)
            .copied();
        match earlier {
            Some(h) if h.since < state.round => {
                let side = game.side_of(ended);
                let name = &game.powers()[ended].name;
                let reason = match key {
                    Some(c) => format!(
                        "{name} held {} together with its own capital for a complete round \
                         (since the end of its turn in round {})",
                        game.space_name(c),
                        h.since
                    ),
                    None => format!(
                        "their side held every capital for a complete round (since the end of \
                         {name}'s turn in round {})",
                        h.since
                    ),
                };
                state.winner = Some(side);
                events.push(Event::Victory {
                    side: game.files().game.sides[side].name.clone(),
                    reason,
                });
                return;
            }
            Some(_) => {}
            None => state.holds.push(Hold {
                power: ended,
                capital: key,
                since: state.round,
            }),
        }
    }
}
