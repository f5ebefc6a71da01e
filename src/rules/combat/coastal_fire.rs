//! Coastal fire at ships launching an amphibious assault (J Boulton JB-45,
//! JB-46: Germany's Normandy coastal defence), where the rule set plays it
//! ([`crate::rules::variants::CombatRules::coastal_fire`]; `None` everywhere else).
//!
//! When the moving power, an enemy of the defending power, has land units
//! landing from the named sea zone into territory the defending power
//! controls, the defending power rolls once in the combat phase, after the
//! sea battles and before any land battle (so before bombardment): one die
//! per naval unit of the moving power's side in the zone, transports and
//! submarines included, in unit id order, under `coastal/<sea zone>`. Each
//! die at or below the value hits. A hit destroys the ship, and a
//! transport's cargo, aboard or landed from it this turn, goes down with it;
//! a battleship is never sunk by it but rolls on the damage table at once
//! (`coastal/<sea zone>/battleship damage`), so a damaged one does not
//! bombard (where the table is not played it takes a hit it cannot sink
//! from, repaired at the end of its owner's turn).

use super::{Ctx, label, ship_damage};
use crate::dice::DiceSource;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The rule's name in events.
const RULE: &str = "Normandy coastal fire (J Boulton JB-45, JB-46)";

/// The zone and the firing power when coastal fire is due this combat
/// phase.
pub(crate) fn triggered(ctx: &Ctx, state: &GameState) -> Option<(SpaceId, PowerId, u8)> {
    let cf = ctx.rules.coastal_fire?;
    zone_and_power(ctx.game, cf.zone, cf.power).and_then(|(zone, power)| {
        let landing = !allied(ctx.game, power, ctx.power)
            && state.units.iter().any(|u| {
                u.owner == ctx.power
                    && u.cargo_of.is_none()
                    && u.unloaded_from == Some(zone)
                    && ctx.ut(u).kind == Some(UnitKind::Land)
                    && !ctx.game.is_sea(u.at)
                    && state.owner[u.at.0] == Some(power)
            });
        let ships = !targets(ctx, state, zone).is_empty();
        (landing && ships).then_some((zone, power, cf.hits_at))
    })
}

/// The zone and the power named by the rule set, when the game has them.
fn zone_and_power(game: &GameDef, zone: &str, power: &str) -> Option<(SpaceId, PowerId)> {
    Some((game.space(zone)?, game.power(power)?))
}

/// The naval units of the moving power's side in `zone`, by id.
fn targets(ctx: &Ctx, state: &GameState, zone: SpaceId) -> Vec<u32> {
    let mut ids: Vec<u32> = state
        .units_at(zone)
        .filter(|u| {
            u.cargo_of.is_none()
                && ctx.ut(u).kind == Some(UnitKind::Sea)
                && allied(ctx.game, u.owner, ctx.power)
        })
        .map(|u| u.id)
        .collect();
    ids.sort_unstable();
    ids
}

/// Fires the coastal guns of `power` at the ships in `zone` (JB-45, JB-46).
pub(crate) fn fire(
    ctx: &Ctx,
    state: &mut GameState,
    (zone, power, hits_at): (SpaceId, PowerId, u8),
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let ships = targets(ctx, state, zone);
    let l = label(&["coastal", ctx.game.space_name(zone)]);
    let values = dice.roll_many(&l, ships.len(), 6);
    let hit: Vec<u32> = ships
        .iter()
        .zip(&values)
        .filter(|(_, v)| **v <= u32::from(hits_at))
        .map(|(id, _)| *id)
        .collect();
    events.push(Event::Fire {
        space: zone,
        label: l.as_str().to_owned(),
        side: format!("{} coastal defence", ctx.game.powers()[power].name),
        group: "coastal guns".into(),
        hits_at,
        dice: values.clone(),
        sure_hits: 0,
        hits: hit.len() as u32,
    });
    let mut battleships = Vec::new();
    for id in hit {
        let Some(u) = state.unit(id).cloned() else {
            continue;
        };
        let t = ctx.ut(&u);
        if t.hit_points > 1 {
            battleships.push(id);
            continue;
        }
        let lost: Vec<u32> = state
            .units
            .iter()
            .filter(|c| c.id == id || c.cargo_of == Some(id) || c.unloaded_by == Some(id))
            .map(|c| c.id)
            .collect();
        for lid in lost {
            let reason = if lid == id {
                format!("{RULE}: hit by the coastal guns; it neither bombards nor unloads")
            } else {
                format!("{RULE}: its transport was sunk by the coastal guns")
            };
            super::remove_unit(state, lid, reason, events);
        }
    }
    if battleships.is_empty() {
        return;
    }
    match ctx.rules.battleship_damage {
        Some(_) => {
            let l = label(&["coastal", ctx.game.space_name(zone), "battleship damage"]);
            let values = dice.roll_many(&l, battleships.len(), 6);
            for (&id, &die) in battleships.iter().zip(&values) {
                ship_damage::after_coastal_hit(ctx, state, id, die, l.as_str(), events);
            }
        }
        None => {
            for id in battleships {
                let Some(u) = state.unit_mut(id) else {
                    continue;
                };
                u.hits = u.hits.max(1);
                let (at, owner, unit) = (u.at, u.owner, u.unit);
                events.push(Event::Casualty {
                    space: at,
                    power: owner,
                    unit,
                    destroyed: false,
                    reason: format!("{RULE}: a hit that cannot sink a battleship"),
                });
            }
        }
    }
}
