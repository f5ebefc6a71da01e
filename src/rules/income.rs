//! Income: what a power collects at the end of its turn (its National
//! Production Chart value).
//!
//! Income is the IPC value of the land it controls (less any territory its
//! rule set says pays nobody, such as AAE's Middle East) plus its convoy
//! zones that it controls, each only while it also controls the land the
//! convoy `requires` (AAE: the Soviet Convoy needs Archangel). A lost convoy
//! lowers the income and takes nothing from the treasury; nobody collects it
//! (FAQ). A power whose capital is held by the enemy collects nothing.

use crate::rules::conquest::capital_lost;
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// A power's income, made up.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Income {
    /// IPCs from land territories.
    pub land: u32,
    /// IPCs from convoy zones.
    pub convoys: u32,
    /// Its capital is in enemy hands: it collects nothing.
    pub capital_lost: bool,
    /// IPCs of `land + convoys` that a rule of the rule set withholds this
    /// turn (Advanced AAE: the US pre-war halving, AAAE-10).
    pub withheld: u32,
    /// That rule, in words for the income event.
    pub withheld_rule: Option<&'static str>,
}

impl Income {
    /// What the power collects.
    pub fn total(&self) -> u32 {
        if self.capital_lost {
            0
        } else {
            (self.land + self.convoys).saturating_sub(self.withheld)
        }
    }
}

/// The income `power` would collect in `state`, as its rule set reckons it
/// ([`RuleSetHooks::income`](crate::rules::variants::RuleSetHooks::income)).
pub fn income(game: &GameDef, state: &GameState, power: PowerId) -> Income {
    game.rule_set().income(game, state, power)
}

/// The income of land and convoys `power` controls (the base rule): each
/// convoy zone only while `convoy_served` says so of it as well (Advanced
/// AAE: a transport in it, AAAE-38; always, elsewhere).
pub fn land_and_convoys(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    convoy_served: &dyn Fn(SpaceId) -> bool,
) -> Income {
    if !game.powers()[power].collects_income {
        return Income::default();
    }
    let controls = |s: SpaceId| state.owner[s.0] == Some(power);
    let mut out = Income {
        capital_lost: capital_lost(game, state, power),
        ..Income::default()
    };
    for s in (0..game.space_count()).map(SpaceId) {
        if !controls(s) {
            continue;
        }
        if let Some(t) = game.territory(s) {
            if game.rule_set().territory_pays_income(game, s) {
                out.land += t.ipc.unwrap_or(0);
            }
        } else if let Some(convoy) = game.sea_zone(s).and_then(|z| z.convoy.as_ref())
            && game.power(&convoy.power) == Some(power)
            && convoy
                .requires
                .iter()
                .all(|r| game.space(r).is_some_and(controls))
            && convoy_served(s)
        {
            out.convoys += convoy.value;
        }
    }
    out
}

/// Collects `power`'s income into its treasury.
pub fn collect(game: &GameDef, state: &mut GameState, power: PowerId, events: &mut Vec<Event>) {
    if !game.powers()[power].collects_income {
        return;
    }
    let inc = income(game, state, power);
    // War Bonds: the die was rolled in stage 1 (research::roll_war_bonds);
    // paid with the income, so not while the capital is enemy-held.
    let bonds = std::mem::take(&mut state.war_bonds);
    let amount = inc.total() + if inc.capital_lost { 0 } else { bonds };
    state.ipcs[power] += amount;
    let detail = if inc.capital_lost {
        format!(
            "its capital is held by the enemy: no income (land {}, convoys {} lost)",
            inc.land, inc.convoys
        )
    } else if let Some(rule) = inc.withheld_rule.filter(|_| inc.withheld > 0) {
        format!(
            "land {}, convoys {}, {} withheld: {rule}",
            inc.land, inc.convoys, inc.withheld
        )
    } else if bonds > 0 {
        format!(
            "land {}, convoys {}, war bonds {bonds}",
            inc.land, inc.convoys
        )
    } else {
        format!("land {}, convoys {}", inc.land, inc.convoys)
    };
    events.push(Event::Income {
        power,
        amount,
        detail,
    });
}

/// The national objectives `power` meets now (`game.yaml`'s
/// `national_objectives`), in file order. Whether they pay is the rule
/// set's business (Anniversary: option `national_objectives`).
pub fn objectives_met<'g>(
    game: &'g GameDef,
    state: &GameState,
    power: PowerId,
) -> Vec<&'g crate::rules::model::NationalObjective> {
    use crate::rules::SpaceId;
    use crate::rules::conquest::allied;
    let side_holds = |s: SpaceId| state.owner[s.0].is_some_and(|o| allied(game, o, power));
    let enemy_warship = |z: SpaceId| {
        state.units_at(z).any(|u| {
            let t = &game.unit_types()[u.unit];
            !allied(game, u.owner, power) && t.is_surface_warship()
        })
    };
    game.files()
        .game
        .national_objectives
        .iter()
        .filter(|o| game.power(&o.power) == Some(power))
        .filter(|o| {
            let held = o
                .side_controls
                .iter()
                .filter_map(|n| game.space(n))
                .filter(|&s| side_holds(s))
                .count();
            held >= o.at_least.map_or(o.side_controls.len(), |n| n as usize)
        })
        .filter(|o| {
            !o.no_allied_units_in_own_territories
                || state.units.iter().all(|u| {
                    u.owner == power
                        || !allied(game, u.owner, power)
                        || game.is_sea(u.at)
                        || state.owner[u.at.0] != Some(power)
                })
        })
        .filter(|o| {
            o.no_enemy_surface_warships_in
                .iter()
                .filter_map(|n| game.space(n))
                .all(|z| !enemy_warship(z))
        })
        .collect()
}
