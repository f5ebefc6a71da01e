//! Fortifications ([`CombatRules::fortifications`]; Advanced AAE AAAE-29):
//! markers that never fire, each raising one defending infantry, and taken
//! as casualties by the defender. They are `building`s of the game's data,
//! so they never move and never hold a territory: a battle ends when only
//! fortifications are left (the attacker has won), and they pass to the
//! conqueror with the territory, as complexes do (`conquest`), unless the
//! rule set destroys them.
//!
//! Read by the battles and by the odds, so that both fight with the same
//! numbers; the placement rules are `production`'s.

use crate::rules::model::UnitType;
use crate::rules::state::GameState;
use crate::rules::variants::CombatRules;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// True when `t` is the rule set's fortification.
pub(crate) fn is_fortification(game: &GameDef, rules: &CombatRules, t: &UnitType) -> bool {
    rules
        .fortifications
        .is_some_and(|f| game.unit_type(f.unit).is_some_and(|u| u.name == t.name))
}

/// The fortifications in land `space` of the side that defends it against
/// `attacker`, in id order.
pub(crate) fn defending(
    game: &GameDef,
    rules: &CombatRules,
    state: &GameState,
    space: SpaceId,
    attacker: PowerId,
) -> Vec<u32> {
    if rules.fortifications.is_none() || game.is_sea(space) {
        return Vec::new();
    }
    state
        .units_at(space)
        .filter(|u| {
            !crate::rules::conquest::allied(game, u.owner, attacker)
                && is_fortification(game, rules, &game.unit_types()[u.unit])
        })
        .map(|u| u.id)
        .collect()
}

/// The defending infantry among `ids` that fortifications raise in their
/// battle against `attacker`: one per fortification, of its owner only
/// where the rule set says so (else any of its side), the first in `ids`
/// first. Empty where the rule set has no fortifications.
pub(crate) fn fortified(
    game: &GameDef,
    rules: &CombatRules,
    state: &GameState,
    ids: &[u32],
    attacker: PowerId,
) -> Vec<u32> {
    let Some(f) = rules.fortifications else {
        return Vec::new();
    };
    let Some(space) = ids.first().and_then(|id| state.unit(*id)).map(|u| u.at) else {
        return Vec::new();
    };
    let Some(raised) = game.unit_type(f.raises) else {
        return Vec::new();
    };
    let mut owners: Vec<PowerId> = defending(game, rules, state, space, attacker)
        .into_iter()
        .filter_map(|id| state.unit(id).map(|u| u.owner))
        .collect();
    let mut out = Vec::new();
    for &id in ids {
        let Some(u) = state.unit(id) else { continue };
        if game.unit_types()[u.unit].name != raised.name {
            continue;
        }
        let fort = if f.owner_only {
            owners.iter().position(|&o| o == u.owner)
        } else {
            (!owners.is_empty()).then_some(0)
        };
        if let Some(i) = fort {
            owners.remove(i);
            out.push(id);
        }
    }
    out
}
