//! Retreats: when the attacker's plan says so, the whole attacking force
//! goes to one adjacent space that some attacker came from. Ground units in
//! an amphibious assault never retreat, and then only aircraft leave (FAQ;
//! Advanced AAE AAAE-42: only the ground units that landed stay);
//! submarines retreat with the fleet, to the same zone (FAQ); the defender
//! never retreats (its submarines may submerge instead).

use super::{Ctx, attackers};
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::orders::{MoveOrder, Retreat};
use crate::rules::state::GameState;
use crate::rules::vocab::{UnitCount, UnitList};
use crate::rules::{GameDef, SpaceId};

/// The spaces attackers entered `space` from, in the order of the orders
/// (units unloaded from a transport excluded: they never retreat). With
/// `air_only`, only orders that moved aircraft.
fn entries(ctx: &Ctx, space: SpaceId, air_only: bool) -> Vec<SpaceId> {
    let game: &GameDef = ctx.game;
    let mut from = Vec::new();
    for o in ctx.orders {
        let is_air = |c: &UnitCount| game.unit_types()[c.unit].kind == Some(UnitKind::Air);
        let (path, air, all_air) = match &o.item {
            // Paratroopers (bombers with infantry beyond one space) did not
            // come overland: they open no retreat (FAQ, Weapons Development).
            MoveOrder::Move { units, path, .. }
                if path.len() > 2 && crate::rules::research::bombers_with_infantry(game, units) =>
            {
                (path, true, true)
            }
            // J Boulton air transports: the plane takes no part in the
            // battle and its paratroopers came by air, so the flight opens
            // no retreat (they may leave only with attackers that came
            // overland or by sea).
            MoveOrder::Move { units, .. }
                if units.iter().any(|c| {
                    crate::rules::movement::air_transport::is_air_transport(
                        &game.unit_types()[c.unit],
                    )
                }) =>
            {
                continue;
            }
            MoveOrder::Move { units, path, .. } => {
                (path, units.iter().any(is_air), units.iter().all(is_air))
            }
            MoveOrder::Transport { path, .. } => (path, false, false),
        };
        if air_only && !air {
            continue;
        }
        // Anniversary errata p.19: the whole force retreats where some land
        // or sea unit came from; aircraft alone do not open a retreat path.
        if !air_only && all_air && ctx.rules.retreat_needs_land_or_sea {
            continue;
        }
        if path.len() >= 2 && path.last() == Some(&space) {
            let prev = path[path.len() - 2];
            if !from.contains(&prev) {
                from.push(prev);
            }
        }
    }
    from
}

/// Every space an attacker of `space` came from.
pub(crate) fn came_from(ctx: &Ctx, space: SpaceId) -> Vec<SpaceId> {
    entries(ctx, space, false)
}

/// True when the plan's policy calls for a retreat after `round` with
/// `left` attacking units; `odds` gives the attacker's chance of winning by
/// fighting on, computed only for `when_odds_below`.
pub(crate) fn wanted(
    retreat: &Retreat,
    round: u32,
    left: usize,
    odds: impl FnOnce() -> f64,
) -> bool {
    match retreat {
        Retreat::Never => false,
        Retreat::AfterRound(n) => round >= *n,
        Retreat::WhenAttackersBelow(n) => (left as u64) < u64::from(*n),
        Retreat::WhenOddsBelow(p) => odds() < *p,
    }
}

/// Carries out the retreat of the attackers of `space` (in an amphibious
/// assault: of its aircraft). Returns false (and logs why) when nobody can
/// leave.
pub(crate) fn retreat(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    amphibious: bool,
    why: &str,
    events: &mut Vec<Event>,
) -> bool {
    let game = ctx.game;
    let plan = ctx.plan(space);
    // Advanced AAE AAAE-42: the units that came overland (and the
    // aircraft) retreat from an amphibious assault; the landed ones stay.
    let landed_stay = amphibious && ctx.rules.only_landed_units_stay;
    let mut candidates = if amphibious && !landed_stay {
        entries(ctx, space, true)
    } else {
        came_from(ctx, space)
    };
    if ctx.rules.retreat_to_friendly_only {
        // DAAK-C §4.1(b): "Any retreating zone must be friendly controlled
        // at the time of retreat."
        let friendly = |s: SpaceId| {
            if game.is_sea(s) {
                !state
                    .units_at(s)
                    .any(|u| !crate::rules::conquest::allied(game, u.owner, ctx.power))
            } else {
                crate::rules::conquest::held_by_side_of(game, state, s, ctx.power)
            }
        };
        let hostile: Vec<SpaceId> = candidates
            .iter()
            .copied()
            .filter(|s| !friendly(*s))
            .collect();
        if !hostile.is_empty() {
            let names: Vec<&str> = hostile.iter().map(|s| game.space_name(*s)).collect();
            events.push(Event::Decision {
                space,
                rule: "DAAK-C §4.1(b): any retreating zone must be friendly controlled at the \
                       time of retreat"
                    .into(),
                detail: format!("not a retreat zone now: {}", names.join(", ")),
            });
            candidates.retain(|s| !hostile.contains(s));
        }
    }
    let air_present = attackers(ctx, state, space).iter().any(|id| {
        state
            .unit(*id)
            .is_some_and(|u| ctx.ut(u).kind == Some(UnitKind::Air))
    });
    if amphibious && !ctx.rules.aircraft_retreat_from_amphibious {
        events.push(Event::Decision {
            space,
            rule: "DAAK-C §4.3(b): no unit may withdraw from an amphibious assault, aircraft \
                   included, even when every attacking land unit is destroyed"
                .into(),
            detail: "the attackers fight on to the bitter end".into(),
        });
        return false;
    }
    if amphibious && !landed_stay && !air_present {
        events.push(Event::Decision {
            space,
            rule: "FAQ: ground units in an amphibious assault never retreat".into(),
            detail: "the attackers fight on: only aircraft may leave an amphibious assault".into(),
        });
        return false;
    }
    let chosen = plan.and_then(|p| p.item.retreat_to);
    let (to, how) = match chosen {
        Some(t) if candidates.contains(&t) => (t, format!("{why}, to {}", game.space_name(t))),
        _ => match candidates.first() {
            Some(t) => (
                *t,
                format!(
                    "{why}; no retreat_to for this battle, so the engine chose the first space \
                     the attackers came from ({})",
                    game.space_name(*t)
                ),
            ),
            None => {
                events.push(Event::Decision {
                    space,
                    rule: "rule: a retreat goes to a space the attackers came from".into(),
                    detail: "the attackers fight on: none of them came from a space they could \
                             retreat to"
                        .into(),
                });
                return false;
            }
        },
    };
    let stay_in_zone = !ctx.rules.aircraft_retreat_with_the_force;
    let leaving: Vec<u32> = attackers(ctx, state, space)
        .into_iter()
        .filter(|id| {
            let air = state.unit(*id).and_then(|u| ctx.ut(u).kind) == Some(UnitKind::Air);
            if landed_stay {
                state.unit(*id).is_some_and(|u| u.unloaded_from.is_none())
            } else if amphibious {
                air
            } else {
                !(air && stay_in_zone)
            }
        })
        .collect();
    let staying = attackers(ctx, state, space).len() - leaving.len();
    if stay_in_zone && staying > 0 {
        // DAAK: the aircraft stay in the zone, out of the battle, which ends
        // with the retreat; they fly to a landing in the non-combat move.
        events.push(Event::Decision {
            space,
            rule: "DAAK-C §4.1(b): aircraft do not join retreating units; they stay in the \
                   battle zone until combat is over and fly to a landing in the non-combat \
                   move with the moves they have left"
                .into(),
            detail: format!(
                "{staying} aircraft stay in {} and the battle ends",
                game.space_name(space)
            ),
        });
        if leaving.is_empty() {
            return true;
        }
    }
    if leaving.is_empty() && landed_stay {
        events.push(Event::Decision {
            space,
            rule: "AAAE-42: units that landed amphibiously may not retreat".into(),
            detail: "the attackers fight on: every one of them landed from a transport".into(),
        });
        return false;
    }
    if leaving.is_empty() {
        events.push(Event::Decision {
            space,
            rule: "FAQ: ground units in an amphibious assault never retreat".into(),
            detail: "the attackers fight on: only aircraft may leave an amphibious assault".into(),
        });
        return false;
    }
    if landed_stay && staying > 0 {
        events.push(Event::Decision {
            space,
            rule: "AAAE-42: only the units that landed amphibiously are barred from retreating"
                .into(),
            detail: format!(
                "the units that came overland and the aircraft leave; {staying} landed unit(s) \
                 fight on alone"
            ),
        });
    } else if amphibious && !landed_stay {
        events.push(Event::Decision {
            space,
            rule: "FAQ: only fighters and bombers may retreat from an amphibious assault".into(),
            detail: "the ground units stay and fight on".into(),
        });
    }
    let mut units: UnitList = Vec::new();
    for id in &leaving {
        let Some(u) = state.unit_mut(*id) else {
            continue;
        };
        u.at = to;
        let t = u.unit;
        match units.iter_mut().find(|c| c.unit == t) {
            Some(c) => c.count += 1,
            None => units.push(UnitCount { unit: t, count: 1 }),
        }
        // Cargo travels with its transport.
        for c in state.units.iter_mut().filter(|c| c.cargo_of == Some(*id)) {
            c.at = to;
        }
    }
    // DAAK-C §3.2(f): ships that withdrew do nothing more this turn.
    if ctx.rules.retreated_ships_stay {
        for id in &leaving {
            let ship = state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).kind == Some(UnitKind::Sea));
            if ship && !state.fought_at_sea.contains(id) {
                state.fought_at_sea.push(*id);
            }
        }
    }
    events.push(Event::Retreated {
        space,
        power: ctx.power,
        to,
        units,
        reason: how,
    });
    true
}
