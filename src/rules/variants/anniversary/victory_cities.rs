//! Victory cities (rulebook; digest §12): a side wins when it controls the
//! agreed number of them at the end of a complete round.

use super::VICTORY_CITIES;
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, SpaceId};

/// After the last power of the round: the first side holding at least
/// `victory_cities` of them wins.
pub(super) fn check(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    if game.turn_order().last() != Some(&power) || state.winner.is_some() {
        return;
    }
    let Some(needed) = VICTORY_CITIES.number(game) else {
        return;
    };
    let needed = usize::try_from(needed).unwrap_or(usize::MAX);
    let cities: Vec<SpaceId> = (0..game.space_count())
        .map(SpaceId)
        .filter(|&s| game.territory(s).is_some_and(|t| t.victory_city))
        .collect();
    for (side, def) in game.files().game.sides.iter().enumerate() {
        let held: Vec<&str> = cities
            .iter()
            .filter(|s| state.owner[s.0].is_some_and(|o| game.side_of(o) == side))
            .map(|&s| game.space_name(s))
            .collect();
        if held.len() >= needed {
            state.winner = Some(side);
            events.push(Event::Victory {
                side: def.name.clone(),
                reason: format!(
                    "they control {} victory cities at the end of round {} ({}), {needed} \
                     needed",
                    held.len(),
                    state.round,
                    held.join(", ")
                ),
            });
            return;
        }
    }
}
