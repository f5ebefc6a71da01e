//! Advanced AAE's economy: what each power collects (the US pre-war
//! halving, AAAE-10; Siberia after the Soviet Far East recall, AAAE-12;
//! convoys that need a transport, AAAE-38), halves rounded as option
//! `half_round` says (AAAE-09), and production limited to the territory's
//! value at every complex, any complex building any unit (AAAE-17, 18).
//!
//! The spaces come from the game's data: the recall's territory is
//! `game.yaml`'s region `far_east_recall`; the powers are found by the
//! rules' words.

use super::{HALF_ROUND, convoys, recall};
use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::income::{self, Income};
use crate::rules::model::Ability;
use crate::rules::production::Complex;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// The rule that withholds half of the USA's income, for the income event.
const US_PRE_WAR: &str = "the US pre-war restriction halves its collections of rounds 1 to 3 \
                          (AAAE-10)";

/// The last round in which the USA collects half (AAAE-10).
const US_HALF_ROUNDS: u32 = 3;

/// Half of `n` as option `half_round` rounds it (AAAE-09 PROPOSAL: down).
pub(super) fn half(game: &GameDef, n: u32) -> u32 {
    if HALF_ROUND.word(game).as_deref() == Some("up") {
        n.div_ceil(2)
    } else {
        n / 2
    }
}

/// `power`'s income: land and convoys, each convoy only while a transport
/// serves it (AAAE-38, 39), the recall's territory at its new value once
/// the recall has come (AAAE-12), and the USA's halving in rounds 1 to 3
/// (AAAE-10: the whole production level, convoys included).
pub(super) fn income(game: &GameDef, state: &GameState, power: PowerId) -> Income {
    let mut inc = income::land_and_convoys(game, state, power, &|zone| {
        convoys::served(game, state, zone)
    });
    if recall::has_come(game, state) {
        for s in game.region(recall::REGION).unwrap_or_default() {
            if state.owner[s.0] == Some(power) {
                let was = game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
                inc.land = inc.land.saturating_sub(was) + recall::NEW_VALUE;
            }
        }
    }
    if game.power("USA") == Some(power) && state.round <= US_HALF_ROUNDS {
        let whole = inc.land + inc.convoys;
        inc.withheld = whole - half(game, whole);
        inc.withheld_rule = Some(US_PRE_WAR);
    }
    inc
}

/// AAAE-17, 18: every industrial complex `power` has held since the start
/// of its turn places up to its territory's IPC value less its damage,
/// capitals and original complexes included; any unit may be placed at any
/// of them (ships only into a sea zone beside it, the base rule).
pub(super) fn placement_sites(game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
    (0..game.space_count())
        .map(SpaceId)
        .filter(|&s| game.territory(s).is_some() && state.owner[s.0] == Some(power))
        .filter(|s| !state.captured_this_turn.contains(s))
        .filter(|&s| {
            state
                .units_at(s)
                .any(|u| game.unit_types()[u.unit].has(&Ability::Production))
        })
        .map(|space| {
            let value = game.territory(space).and_then(|t| t.ipc).unwrap_or(0);
            Complex {
                space,
                limit: Some(value.saturating_sub(state.damage_at(space))),
                // The IPC value less damage: the base's words for it.
                rule: None,
            }
        })
        .collect()
}
