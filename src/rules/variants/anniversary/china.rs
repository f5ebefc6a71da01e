//! China (FAQ 2010, China): it collects no IPCs and receives infantry
//! instead, one per two territories it controls, and mobilizes them in its
//! own territories that hold fewer than three Chinese units.

use super::{INFANTRY, TERRITORIES_PER_INFANTRY, receives_infantry};
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::production::totals;
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, SpaceId, UnitCount};

/// China's infantry, at the start of its turn: one per two territories it
/// controls, rounded down, added to what it mobilizes this turn. Nothing for
/// a power that collects IPCs.
pub(super) fn receive_infantry(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    if !receives_infantry(game, power) {
        return;
    }
    let Some(unit) = game.unit_types().iter().position(|u| u.name == INFANTRY) else {
        return;
    };
    // Counted as at the start of the turn China shares with the United
    // States: KQ-1 has China receive its infantry in the joint purchase,
    // before either power fights, so a territory the United States
    // liberated for China this turn (still "captured this turn", kept
    // across the shared turn) does not count yet.
    let held = (0..game.space_count())
        .filter(|&s| game.territory(SpaceId(s)).is_some() && state.owner[s] == Some(power))
        .filter(|&s| !state.captured_this_turn.contains(&SpaceId(s)))
        .count();
    let count = (held / TERRITORIES_PER_INFANTRY) as u32;
    if count > 0 {
        let mut all = totals(&state.purchased);
        *all.entry(unit).or_insert(0) += count;
        state.purchased = all
            .into_iter()
            .map(|(unit, count)| UnitCount { unit, count })
            .collect();
    }
    events.push(Event::Special {
        rule: "Chinese infantry".into(),
        detail: format!(
            "{} controls {held} {} at the start of its turn and receives {count} \
             {INFANTRY} (one per {TERRITORIES_PER_INFANTRY}, rounded down)",
            game.powers()[power].name,
            if held == 1 {
                "territory"
            } else {
                "territories"
            }
        ),
    });
}
