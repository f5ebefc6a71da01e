//! AA guns: one die per attacking aircraft that enters or flies over their
//! territory in the combat move, before anything else happens; planes shot
//! down are removed at once and never fire (FAQ, with the A&A: Pacific
//! sequence it adopts, for battles and bombing raids alike). Where the rule
//! set says so (`CombatRules::aa_fires_at_overflights`, Anniversary) they
//! fire only at aircraft attacking their own territory. A gun of a power
//! with Radar hits on one more ([`super::enemy_aa`]).

use super::casualties::HitClass;
use super::fire::{Group, volley};
use super::{Ctx, attackers, enemy_aa};
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::movement::air_transport::is_air_transport;
use crate::rules::orders::MoveOrder;
use crate::rules::state::GameState;
use crate::rules::vocab::UnitTypeId;

/// One flight over an enemy AA gun: which aircraft, where, and where they
/// were going.
pub(crate) struct Overflight {
    /// The order (index in the combat orders) that flew the aircraft.
    order: usize,
    /// The territory with the AA gun, passed over (not the destination).
    over: SpaceId,
    unit: UnitTypeId,
    count: u32,
    /// Where the flight ended.
    dest: SpaceId,
    /// Spaces flown.
    flown: usize,
}

/// Every flight of the attacker's aircraft over a territory with an enemy
/// AA gun, in the order of the orders and of each path; none where the rule
/// set's AA guns ignore fly-overs.
pub(crate) fn overflights<'a>(
    ctx: &'a Ctx,
    state: &'a GameState,
) -> impl Iterator<Item = Overflight> + 'a {
    ctx.orders.iter().enumerate().flat_map(move |(i, o)| {
        let mut out = Vec::new();
        if let MoveOrder::Move { units, path, .. } = &o.item
            && ctx.rules.aa_fires_at_overflights
            && path.len() > 2
        {
            let dest = path[path.len() - 1];
            for over in &path[1..path.len() - 1] {
                if enemy_aa(ctx, state, *over).is_none() {
                    continue;
                }
                // J Boulton JB-13: air transports are fired at only as far as
                // they carry paratroopers; gliders with special force teams
                // alone pass unseen.
                let types = ctx.game.unit_types();
                let paratroopers: u32 = units
                    .iter()
                    .filter(|c| types[c.unit].has(&Ability::Paradrop))
                    .map(|c| c.count)
                    .sum();
                for c in units {
                    let t = &types[c.unit];
                    let count = if is_air_transport(t) && ctx.rules.air_transports.is_some() {
                        c.count.min(paratroopers)
                    } else {
                        c.count
                    };
                    if t.kind == Some(UnitKind::Air) && count > 0 {
                        out.push(Overflight {
                            order: i,
                            over: *over,
                            unit: c.unit,
                            count,
                            dest,
                            flown: path.len() - 1,
                        });
                    }
                }
            }
        }
        out
    })
}

/// Fires at the aircraft of every overflight; later guns on a path fire at
/// the survivors only.
pub(crate) fn fire_at_overflights(
    ctx: &Ctx,
    state: &mut GameState,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let flights: Vec<Overflight> = overflights(ctx, state).collect();
    // Planes of one order and type shot down so far.
    let mut lost: Vec<(usize, UnitTypeId, u32)> = Vec::new();
    for f in flights {
        let gone = lost
            .iter()
            .find(|l| l.0 == f.order && l.1 == f.unit)
            .map_or(0, |l| l.2);
        let alive = f.count.saturating_sub(gone);
        let Some(value) = enemy_aa(ctx, state, f.over) else {
            continue;
        };
        if alive == 0 {
            continue;
        }
        let name = ctx.game.space_name(f.over).to_owned();
        let group = Group {
            name: ctx.game.unit_types()[f.unit].name.clone(),
            strength: value,
            count: alive,
            class: HitClass::Any,
            order: (f.unit, value),
            dice_each: 1,
        };
        let prefix = vec!["aa".to_owned(), name.clone(), "overflight".to_owned()];
        let hits = volley(
            dice,
            ctx.low_luck,
            f.over,
            &prefix,
            "AA gun",
            vec![group],
            events,
        )
        .total()
        .min(alive);
        if hits == 0 {
            continue;
        }
        // The planes of that type that made this flight: at its end, moved
        // in combat, those that flew exactly this far first.
        let mut planes: Vec<(bool, u32)> = state
            .units_at(f.dest)
            .filter(|u| {
                u.owner == ctx.power && u.unit == f.unit && u.combat_moved && u.cargo_of.is_none()
            })
            .filter(|u| {
                !is_air_transport(ctx.ut(u))
                    || super::paradrop::carries_paratrooper(ctx, state, u.id)
            })
            .map(|u| (usize::from(u.moved) != f.flown, u.id))
            .collect();
        planes.sort();
        for (_, id) in planes.into_iter().take(hits as usize) {
            events.push(Event::Casualty {
                space: f.over,
                power: ctx.power,
                unit: f.unit,
                destroyed: true,
                reason: format!(
                    "rule: shot down by AA fire flying over {name} in the combat move; it never \
                     fires (FAQ)"
                ),
            });
            super::paradrop::shot_down(ctx, state, id, f.over, dice, events);
        }
        match lost.iter_mut().find(|l| l.0 == f.order && l.1 == f.unit) {
            Some(l) => l.2 += hits,
            None => lost.push((f.order, f.unit, hits)),
        }
    }
}

/// The AA fire of the battle (or raid) in `space`: one die per attacking
/// aircraft, rolled per type under `prefix`/<space>/<type>; each hit removes
/// a plane of that type, which never fires.
pub(crate) fn fire_in_battle(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    prefix: &[&str],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let Some(value) = enemy_aa(ctx, state, space) else {
        return;
    };
    // J Boulton: air transports carrying paratroopers are fired at too
    // (JB-13), though they never attack.
    let mut planes: Vec<(UnitTypeId, u32)> = attackers(ctx, state, space)
        .into_iter()
        .chain(super::paradrop::carriers(ctx, state, space))
        .filter_map(|id| state.unit(id).map(|u| (u.unit, id)))
        .filter(|(t, _)| ctx.game.unit_types()[*t].kind == Some(UnitKind::Air))
        .collect();
    planes.sort();
    let mut types: Vec<UnitTypeId> = planes.iter().map(|p| p.0).collect();
    types.dedup();
    let name = ctx.game.space_name(space).to_owned();
    for t in types {
        let ids: Vec<u32> = planes.iter().filter(|p| p.0 == t).map(|p| p.1).collect();
        let group = Group {
            name: ctx.game.unit_types()[t].name.clone(),
            strength: value,
            count: ids.len() as u32,
            class: HitClass::Any,
            order: (t, value),
            dice_each: 1,
        };
        let mut segs: Vec<String> = vec![prefix[0].to_owned(), name.clone()];
        segs.extend(prefix[1..].iter().map(|s| (*s).to_owned()));
        let hits = volley(
            dice,
            ctx.low_luck,
            space,
            &segs,
            "AA gun",
            vec![group],
            events,
        )
        .total() as usize;
        for id in ids.into_iter().take(hits) {
            events.push(Event::Casualty {
                space,
                power: ctx.power,
                unit: t,
                destroyed: true,
                reason: "rule: shot down by AA fire before the battle; it never fires (FAQ)".into(),
            });
            super::paradrop::shot_down(ctx, state, id, space, dice, events);
        }
    }
}
