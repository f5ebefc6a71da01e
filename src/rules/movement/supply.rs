//! Units the J Boulton house rules hold back in the combat move: out of
//! supply (JB-40), aircraft that began the turn in an isolated territory do
//! not fly and land units from there do not blitz. The rule set marks them
//! at the start of the turn ([`GameState::isolated`]); in every other rule
//! set the list is empty and nothing here applies.

use super::Mover;
use crate::rules::SpaceId;
use crate::rules::model::UnitKind;
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::GameState;

/// Checks the units `ids` moving along `path` against their supply.
pub fn check(mover: &mut Mover, state: &GameState, origin: &Origin, ids: &[u32], path: &[SpaceId]) {
    if !mover.combat || state.isolated.is_empty() {
        return;
    }
    let game = mover.game;
    let isolated = |kind: UnitKind| {
        ids.iter()
            .filter(|id| state.isolated.contains(id))
            .filter_map(|id| state.unit(*id))
            .map(|u| &game.unit_types()[u.unit])
            .find(|t| t.kind == Some(kind))
            .map(|t| t.name.as_str())
    };
    let start = mover.sname(path[0]);
    if let Some(name) = isolated(UnitKind::Air) {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{name} in {start} is out of supply this turn and may not fly in the combat \
                     move (J Boulton JB-40); it may fly in the non-combat move"
                ),
            )
            .field("units"),
        );
    }
    let last = path.len() - 1;
    if let Some(name) = isolated(UnitKind::Land)
        && let Some(&through) = path[1..last]
            .iter()
            .find(|&&s| mover.hostile_land(state, s))
    {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{name} from {start} is out of supply this turn and may not blitz: it must \
                     stop in {} (J Boulton JB-40)",
                    mover.sname(through)
                ),
            )
            .field("path"),
        );
    }
}
