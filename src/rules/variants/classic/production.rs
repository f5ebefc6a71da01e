//! Where Classic mobilizes new units: the base rule (industrial complexes
//! held since the start of the turn, unlimited in the power's original
//! territory, else up to the territory's IPC value; digest §4.6), except
//! that a complex in a formerly neutral territory places one unit a turn
//! (DAAK-C §2.7(d)): such a territory is worth nothing, so the base rule
//! would let it place none.

use crate::rules::GameDef;
use crate::rules::conquest::original_owner;
use crate::rules::production::{Complex, complexes};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// Units a complex in a formerly neutral territory places each turn.
const FORMERLY_NEUTRAL_LIMIT: u32 = 1;

/// The complexes where `power` may place units this turn.
pub(super) fn sites(game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
    complexes(game, state, power)
        .into_iter()
        .map(|c| {
            if original_owner(game, c.space).is_none() {
                Complex {
                    limit: Some(FORMERLY_NEUTRAL_LIMIT),
                    rule: Some(
                        "an industrial complex in a formerly neutral country places one unit \
                         a turn (DAAK-C §2.7d)",
                    ),
                    ..c
                }
            } else {
                c
            }
        })
        .collect()
}
