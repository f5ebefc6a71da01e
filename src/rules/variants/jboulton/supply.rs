//! Supply and isolation (J Boulton JB-39, JB-40).
//!
//! At the start of a power's turn (before its combat move; no control
//! changes during the purchase) each friendly land territory where it has
//! units is tested: it is isolated when it has a neighbour, no neighbouring
//! land territory is friendly (neutral and impassable land gives no supply
//! unless option `isolation_neutral_supply`), and every neighbouring sea
//! zone holds an enemy naval unit that is not a transport (submarines
//! count, submerged or not). The power's units standing there are out of
//! supply for the rest of its turn ([`GameState::isolated`]): land units
//! attack at half value rounded up, nothing blitzes, aircraft make no
//! combat move (the engine's combat and movement read the list); every
//! unit defends normally.

use super::ISOLATION_NEUTRAL_SUPPLY;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The rule's name in events.
const RULE: &str = "out of supply: the territory is surrounded by enemy land and blockaded \
                    sea zones (J Boulton JB-39); its units attack at half value, do not blitz \
                    and do not fly in the combat move (JB-40)";

/// Whether the land territory `space`, friendly to `power`, is isolated
/// (JB-39).
pub fn is_isolated(game: &GameDef, state: &GameState, space: SpaceId, power: PowerId) -> bool {
    let neighbours = game.neighbours(space);
    if game.is_sea(space) || neighbours.is_empty() {
        return false;
    }
    let neutral_supply = ISOLATION_NEUTRAL_SUPPLY.on(game);
    neighbours.iter().all(|&n| {
        if game.is_sea(n) {
            blockaded(game, state, n, power)
        } else {
            match state.owner[n.0] {
                Some(o) => !allied(game, o, power),
                None => !neutral_supply,
            }
        }
    })
}

/// A sea zone holding an enemy naval unit that is not a transport.
fn blockaded(game: &GameDef, state: &GameState, zone: SpaceId, power: PowerId) -> bool {
    state.units.iter().any(|u| {
        let t = &game.unit_types()[u.unit];
        u.at == zone
            && u.cargo_of.is_none()
            && t.kind == Some(UnitKind::Sea)
            && t.transport_capacity.is_none()
            && !allied(game, u.owner, power)
    })
}

/// Marks `power`'s units in isolated territories at the start of its turn.
pub fn mark(game: &GameDef, state: &mut GameState, power: PowerId, events: &mut Vec<Event>) {
    state.isolated.clear();
    let mut spaces: Vec<SpaceId> = state
        .units
        .iter()
        .filter(|u| u.owner == power && !game.is_sea(u.at))
        .map(|u| u.at)
        .collect();
    spaces.sort();
    spaces.dedup();
    for space in spaces {
        let friendly = state.owner[space.0].is_some_and(|o| allied(game, o, power));
        if !friendly || !is_isolated(game, state, space, power) {
            continue;
        }
        let ids: Vec<u32> = state
            .units
            .iter()
            .filter(|u| {
                u.owner == power
                    && u.at == space
                    && matches!(
                        game.unit_types()[u.unit].kind,
                        Some(UnitKind::Land | UnitKind::Air)
                    )
            })
            .map(|u| u.id)
            .collect();
        if ids.is_empty() {
            continue;
        }
        events.push(Event::Decision {
            space,
            rule: RULE.to_owned(),
            detail: format!(
                "{} of {}'s units are out of supply this turn",
                ids.len(),
                game.powers()[power].name
            ),
        });
        state.isolated.extend(ids);
    }
}
