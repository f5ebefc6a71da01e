//! Classic's victory conditions as DAAK plays them (DAAK-C §5.1): the Axis
//! win by controlling any two Allied capitals, the Allies by controlling both
//! Axis capitals, and the Axis by "Magic 84": at the end of the US turn (the
//! end of the round) the IPC values of every territory the Axis control add
//! up to at least 84, whether or not the territory pays income (§5.2a).

use super::{CAPITAL_VICTORY, ECONOMIC_VICTORY_AXIS, END_OF_ROUND};
use crate::rules::GameDef;
use crate::rules::conquest::{allied, capital};
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// Enemy capitals a side must control to win: the Axis any two Allied
/// capitals, the Allies both Axis capitals (every enemy capital of a side
/// with fewer than two enemies).
const CAPITALS_TO_WIN: usize = 2;

/// The end of `ended`'s turn: checks the conditions and sets
/// `state.winner` when a side has won.
pub(super) fn check(
    game: &GameDef,
    state: &mut GameState,
    ended: PowerId,
    events: &mut Vec<Event>,
) {
    if state.winner.is_some() {
        return;
    }
    let end_of_round = game
        .files()
        .game
        .turn_order
        .last()
        .and_then(|p| game.power(p))
        == Some(ended);
    let capitals_now = CAPITAL_VICTORY.word(game).as_deref() != Some(END_OF_ROUND) || end_of_round;
    if capitals_now {
        for side in 0..game.files().game.sides.len() {
            if let Some(reason) = capitals_held(game, state, side) {
                return win(game, state, side, reason, events);
            }
        }
    }
    let needed = ECONOMIC_VICTORY_AXIS.number(game).unwrap_or(0);
    if end_of_round && needed > 0 {
        for side in 0..game.files().game.sides.len() {
            if !is_axis(game, side) {
                continue;
            }
            let total = territory_value(game, state, side);
            if i64::from(total) >= needed {
                let reason = format!(
                    "at the end of the round the territories they control are worth {total} IPCs, \
                     at least {needed} (Magic {needed}, DAAK-C §5.1)"
                );
                return win(game, state, side, reason, events);
            }
        }
    }
}

/// The Axis: the side Magic 84 is for (the side named Axis in game.yaml).
fn is_axis(game: &GameDef, side: usize) -> bool {
    game.files().game.sides[side]
        .name
        .eq_ignore_ascii_case("axis")
}

/// The IPC value of every land territory a power of `side` controls,
/// income or not (DAAK-C §5.1, §5.2a).
pub(crate) fn territory_value(game: &GameDef, state: &GameState, side: usize) -> u32 {
    (0..game.space_count())
        .filter(|&s| state.owner[s].is_some_and(|o| game.side_of(o) == side))
        .filter_map(|s| game.territory(crate::rules::SpaceId(s)))
        .map(|t| t.ipc.unwrap_or(0))
        .sum()
}

/// Why `side` has won by capitals, if it has: it controls enough enemy
/// capitals (two, or all of them when the enemy has fewer).
fn capitals_held(game: &GameDef, state: &GameState, side: usize) -> Option<String> {
    let member = (0..game.powers().len()).find(|&p| game.side_of(p) == side)?;
    let enemy: Vec<_> = (0..game.powers().len())
        .filter(|&p| !allied(game, p, member))
        .filter_map(|p| capital(game, p))
        .collect();
    if enemy.is_empty() {
        return None;
    }
    let held: Vec<_> = enemy
        .iter()
        .copied()
        .filter(|c| state.owner[c.0].is_some_and(|o| game.side_of(o) == side))
        .collect();
    let needed = CAPITALS_TO_WIN.min(enemy.len());
    (held.len() >= needed).then(|| {
        let names: Vec<&str> = held.iter().map(|&c| game.space_name(c)).collect();
        format!(
            "they control {} of the enemy's capitals: {} (DAAK-C §5.1)",
            held.len(),
            names.join(", ")
        )
    })
}

fn win(
    game: &GameDef,
    state: &mut GameState,
    side: usize,
    reason: String,
    events: &mut Vec<Event>,
) {
    state.winner = Some(side);
    events.push(Event::Victory {
        side: game.files().game.sides[side].name.clone(),
        reason,
    });
}
