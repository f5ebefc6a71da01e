//! National abilities: units of some powers that fight at other values
//! ([`CombatRules::national_abilities`]; Advanced AAE AAAE-24..28), read by
//! the battles and by the odds so that both fight with the same numbers.
//!
//! The rule set names powers and unit types in the rules' words; they are
//! found here in the game's data (names or aliases), and a power's home
//! territories are worked out from the board (its original territories
//! joined to its capital by land through its original territories), so a
//! board with other spaces plays the same abilities.

use crate::rules::model::UnitType;
use crate::rules::state::{GameState, Unit};
use crate::rules::variants::{CombatRules, NationalValue};
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// A unit's value under a national ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Value {
    /// What it hits at.
    pub strength: u8,
    /// Its firing group's name before the unit type's (`German`).
    pub group: &'static str,
    /// Whether attacking artillery may still raise it.
    pub supportable: bool,
}

/// True when `entry` names `u`'s power and unit type in the game's words.
fn names(game: &GameDef, entry: &NationalValue, owner: PowerId, t: &UnitType) -> bool {
    game.power(entry.power) == Some(owner)
        && game.unit_type(entry.unit).is_some_and(|n| n.name == t.name)
}

/// The value unit `u` fights at in a battle in its space, when a national
/// ability changes it (`supportable`: whether artillery could raise it
/// without the ability); `None`: its type's value.
pub(crate) fn value(
    game: &GameDef,
    rules: &CombatRules,
    state: &GameState,
    u: &Unit,
    attacking: bool,
    supportable: bool,
) -> Option<Value> {
    let n = rules.national_abilities.as_ref()?;
    let t = &game.unit_types()[u.unit];
    if attacking {
        // AAAE-27: only in a land battle some of whose attackers landed
        // from transports (an amphibious assault).
        let entry = n
            .amphibious_attack
            .iter()
            .find(|e| names(game, e, u.owner, t))?;
        let landed = if n.amphibious_landed_only {
            u.unloaded_from.is_some()
        } else {
            !game.is_sea(u.at)
                && state
                    .units_at(u.at)
                    .any(|v| v.owner == u.owner && v.unloaded_from.is_some())
        };
        return landed.then_some(Value {
            strength: entry.value,
            group: entry.group,
            supportable: supportable && n.amphibious_supported,
        });
    }
    if let Some(entry) = n.home_defense.iter().find(|e| {
        let power = game.power(e.power);
        let ours = power == Some(u.owner)
            || (n.home_defense_allies
                && power.is_some_and(|p| game.side_of(p) == game.side_of(u.owner)));
        ours && game.unit_type(e.unit).is_some_and(|n| n.name == t.name)
            && power.is_some_and(|p| home_territories(game, p).contains(&u.at))
    }) {
        return Some(Value {
            strength: entry.value,
            group: entry.group,
            supportable,
        });
    }
    n.defends_at
        .iter()
        .find(|e| names(game, e, u.owner, t))
        .map(|e| Value {
            strength: e.value,
            group: e.group,
            supportable,
        })
}

/// How many infantry each attacking artillery of `owner` supports: its
/// national ability's number (AAAE-26) or its developments' (Improved
/// Artillery Support), whichever is more.
pub(crate) fn supported_per_artillery(
    game: &GameDef,
    rules: &CombatRules,
    state: &GameState,
    owner: PowerId,
) -> usize {
    let own = crate::rules::research::supported_per_artillery(state, owner);
    let national = rules
        .national_abilities
        .as_ref()
        .and_then(|n| {
            n.artillery_supports
                .iter()
                .find(|(p, _)| game.power(p) == Some(owner))
        })
        .map_or(0, |(_, k)| usize::from(*k));
    own.max(national)
}

/// A power's home territories: its capital and the territories it
/// originally held that are joined to it by land through such territories
/// (AAAE-28's London, United Kingdom and Scotland on the derived board).
/// Empty for a power without a capital.
pub(crate) fn home_territories(game: &GameDef, power: PowerId) -> Vec<SpaceId> {
    let original = |s: SpaceId| {
        game.territory(s)
            .and_then(|t| t.original_owner.as_deref())
            .and_then(|o| game.power(o))
            == Some(power)
    };
    let Some(capital) = game.powers()[power]
        .capital
        .as_deref()
        .and_then(|c| game.space(c))
    else {
        return Vec::new();
    };
    let mut home = vec![capital];
    let mut next = 0;
    while next < home.len() {
        let at = home[next];
        next += 1;
        for &n in game.neighbours(at) {
            if !game.is_sea(n) && original(n) && !home.contains(&n) {
                home.push(n);
            }
        }
    }
    home
}
