//! The four victory conditions of Advanced AAE (AAAE-13..16), which replace
//! AAE's capitals held for a round.
//!
//! The Axis conditions are checked at the start of Germany's turn, which is
//! the position at the end of the turn before it; the Allied ones at the
//! end of Germany's turn, after its income. So the two sides never win at
//! the same checkpoint. A city the rules name is the territory whose
//! `city:` it is (the board's data; D.7 on the derived board).

use super::ECONOMIC_VICTORY_INCOME;
use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::income::income;
use crate::rules::names::NameKey;
use crate::rules::problem::{Problem, files};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// AAAE-13: the Axis wins holding every city of any one group.
const AXIS_GROUPS: [&[&str]; 3] = [
    &["Moscow", "Stalingrad", "Leningrad"],
    &["London", "Cairo"],
    &["Washington D.C."],
];

/// AAAE-15: the Allies win holding both.
const ALLIED_CITIES: [&str; 2] = ["Berlin", "Rome"];

/// AAAE-14: the Axis wins when Germany's and Italy's incomes reach this.
const AXIS_INCOME: u32 = 120;

/// AAAE-16: the Allies win when Germany's own income is at most this.
const GERMAN_INCOME_FLOOR: u32 = 25;

/// The territory holding the city the rules name.
pub(super) fn city(game: &GameDef, word: &str) -> Option<SpaceId> {
    let key = NameKey::new(word);
    game.files()
        .board
        .territories
        .iter()
        .position(|t| t.city.as_deref().is_some_and(|c| NameKey::new(c) == key))
        .map(SpaceId)
}

/// A power's income as the economic victories count it (option
/// `economic_victory_income`): its production level (the digest's
/// PROPOSAL: territories and convoys it controls, convoys with their
/// transports, even while its capital is held), or what it would collect.
fn counted_income(game: &GameDef, state: &GameState, power: PowerId) -> u32 {
    let inc = income(game, state, power);
    if ECONOMIC_VICTORY_INCOME.word(game).as_deref() == Some("collected") {
        inc.total()
    } else {
        (inc.land + inc.convoys).saturating_sub(inc.withheld)
    }
}

/// The victory check after `ended`'s turn: sets the winner and reports it.
pub(super) fn check_after(
    game: &GameDef,
    state: &mut GameState,
    ended: PowerId,
    events: &mut Vec<Event>,
) {
    if let Some((side, reason)) = winner(game, state, ended) {
        state.winner = Some(side);
        events.push(Event::Victory {
            side: game.files().game.sides[side].name.clone(),
            reason,
        });
    }
}

/// The side that has won after `ended`'s turn, and why.
fn winner(game: &GameDef, state: &GameState, ended: PowerId) -> Option<(usize, String)> {
    let (germany, italy, russia) = (
        game.power("Germany")?,
        game.power("Italy")?,
        game.power("Russia")?,
    );
    let order = game.turn_order();
    let next = order
        .iter()
        .position(|&p| p == ended)
        .map(|i| order[(i + 1) % order.len()]);
    let axis = game.side_of(germany);
    let allies = game.side_of(russia);
    let held_by =
        |side: usize, s: SpaceId| state.owner[s.0].is_some_and(|o| game.side_of(o) == side);
    let all_held = |side: usize, words: &[&str]| {
        let spaces: Vec<SpaceId> = words.iter().filter_map(|w| city(game, w)).collect();
        spaces.len() == words.len() && spaces.iter().all(|&s| held_by(side, s))
    };
    if next == Some(germany) {
        // At the start of Germany's turn: the Axis conditions.
        if let Some(group) = AXIS_GROUPS.iter().find(|g| all_held(axis, g)) {
            return Some((
                axis,
                format!(
                    "at the start of Germany's turn the Axis holds {} (AAAE-13)",
                    group.join(", ")
                ),
            ));
        }
        let total = counted_income(game, state, germany) + counted_income(game, state, italy);
        if total >= AXIS_INCOME {
            return Some((
                axis,
                format!(
                    "at the start of Germany's turn Germany's and Italy's incomes add up to \
                     {total}, {AXIS_INCOME} or more (AAAE-14)"
                ),
            ));
        }
    } else if ended == germany {
        // At the end of Germany's turn: the Allied conditions.
        if all_held(allies, &ALLIED_CITIES) {
            return Some((
                allies,
                format!(
                    "at the end of Germany's turn the Allies hold {} (AAAE-15)",
                    ALLIED_CITIES.join(" and ")
                ),
            ));
        }
        let german = counted_income(game, state, germany);
        if german <= GERMAN_INCOME_FLOOR {
            return Some((
                allies,
                format!(
                    "at the end of Germany's turn Germany's income is {german}, \
                     {GERMAN_INCOME_FLOOR} or less (AAAE-16)"
                ),
            ));
        }
    }
    None
}

/// Every city the victory conditions name is some territory's `city:`.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    AXIS_GROUPS
        .iter()
        .flat_map(|g| g.iter())
        .chain(ALLIED_CITIES.iter())
        .filter(|w| city(game, w).is_none())
        .map(|w| {
            Problem::at(
                files::BOARD,
                "territories".to_owned(),
                format!(
                    "the victory conditions of Advanced AAE name {w} (AAAE-13, AAAE-15); no \
                     territory has city: {w}"
                ),
            )
        })
        .collect()
}
