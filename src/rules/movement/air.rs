//! Aircraft: range, the intended landing, "suicide" attacks, carriers, and
//! no landing in a territory captured this turn.
//!
//! Aircraft fly over anything but neutrals and never have to stop (FAQ:
//! "there is no rule stating that air units must stop moving when they
//! enter a space containing enemy units"). An aircraft's movement is for
//! the whole turn: what it uses to reach a battle in the combat move is no
//! longer there to fly to its landing in the non-combat move. In the combat
//! move its landing must be certain: a friendly territory within its
//! remaining range, or carrier space that exists now or that a carrier able
//! to get there provides (FAQ: a "risky" attack needs a carrier and enough
//! carrier space; more planes than the carriers can take is an illegal
//! "suicide" attack, and losses may not be assumed). Where the rule set
//! says so (DAAK-C §3.4(g)), a carrier counts too when its way there leads
//! only through sea zones where the same combat move declares a battle: it
//! sails in the non-combat move if they are won.

use std::collections::HashMap;

use super::{Mover, path};
use crate::rules::combat::remove_unit;
use crate::rules::events::Event;
use crate::rules::model::{UnitKind, UnitType};
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::{GameState, Unit};
use crate::rules::vocab::UnitList;
use crate::rules::{GameDef, SpaceId};

/// Carrier space promised to aircraft by combat-move landings.
#[derive(Debug, Default, Clone)]
pub struct CarrierBook {
    /// Slots promised in each sea zone to aircraft not already there.
    reserved: HashMap<SpaceId, u32>,
    /// Carriers (ids) counted on to sail to a sea zone, so that one carrier
    /// is never promised to two zones.
    committed: HashMap<u32, SpaceId>,
}

/// Checks the air-specific rules of a move along `path` with the intended
/// landing `land`.
pub fn check(
    mover: &mut Mover,
    state: &GameState,
    origin: &Origin,
    units: &UnitList,
    path: &[SpaceId],
    land: Option<SpaceId>,
) {
    let end = *path.last().expect("a path has a start");
    let steps = path.len() - 1;
    // DAAK-C §2.7(c): aircraft cross a neutral only in the combat move.
    if !mover.combat
        && mover.neutrals.taken_by_overflight
        && let Some(&n) = path[1..]
            .iter()
            .find(|&&s| mover.neutral_closed_to_air(state, s))
    {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "aircraft may fly over the neutral territory {} only in the combat move, \
                     paying {} IPCs to take it (DAAK-C §2.7c)",
                    mover.sname(n),
                    mover.neutrals.entry_cost
                ),
            )
            .field("path"),
        );
    }
    if !mover.combat {
        if land.is_some_and(|l| l != end) {
            mover.errors.push(
                OrderError::new(
                    origin,
                    "a non-combat move ends where the aircraft land; end the path there instead \
                     of naming `land:`",
                )
                .field("land"),
            );
        }
        return;
    }
    let flying: Vec<_> = units
        .iter()
        .filter(|c| mover.kind(c.unit) == UnitKind::Air)
        .collect();
    for count in flying {
        let Ok(ids) = mover.pick(state, path[0], count.unit, count.count, steps) else {
            continue; // reported with the units
        };
        let t = &mover.game.unit_types()[count.unit];
        let name = &t.name;
        // The unit with the least movement left decides for the group.
        let left = ids
            .iter()
            .filter_map(|&id| state.unit(id))
            .map(|u| {
                mover
                    .movement(state, u)
                    .saturating_sub(u.moved as usize + steps)
            })
            .min()
            .unwrap_or(0);
        match land {
            Some(to) => {
                if let Err(reason) = landing_ok(mover, state, count.unit, to) {
                    mover
                        .errors
                        .push(OrderError::new(origin, reason).field("land"));
                    continue;
                }
                match path::air_distance(mover, state, end, to) {
                    Some(d) if d <= left => {}
                    Some(d) => {
                        mover.errors.push(
                            OrderError::new(
                                origin,
                                format!(
                                    "{name} cannot reach its landing in {} after {}: it needs {d} \
                                     more space{} and has {left} left",
                                    mover.sname(to),
                                    mover.sname(end),
                                    if d == 1 { "" } else { "s" }
                                ),
                            )
                            .field("land"),
                        );
                        continue;
                    }
                    None => {
                        mover.errors.push(
                            OrderError::new(
                                origin,
                                format!(
                                    "{name} cannot fly from {} to {}",
                                    mover.sname(end),
                                    mover.sname(to)
                                ),
                            )
                            .field("land"),
                        );
                        continue;
                    }
                }
                if mover.game.is_sea(to)
                    && let Err(reason) = reserve(mover, state, to, end, count.unit, count.count)
                {
                    mover
                        .errors
                        .push(OrderError::new(origin, reason).field("land"));
                }
            }
            None => {
                let reach = path::bfs(mover, end, |s| {
                    !path::impassable(mover, s) && !mover.neutral_closed_to_air(state, s)
                });
                let can_land = (0..mover.game.space_count()).map(SpaceId).any(|s| {
                    reach[s.0].is_some_and(|d| d <= left) && friendly_airfield(mover, state, s)
                });
                if !can_land {
                    mover.errors.push(
                        OrderError::new(
                            origin,
                            format!(
                                "{name} would have no friendly territory to land in within {left} \
                                 space{} of {} (a suicide attack); name a carrier landing with `land:`",
                                if left == 1 { "" } else { "s" },
                                mover.sname(end)
                            ),
                        )
                        .field("land"),
                    );
                }
            }
        }
    }
}

/// A stage 2 with no orders: every aircraft of the mover where it may not
/// end the turn is lost ([`super::lose_unlanded_aircraft`]).
pub fn lose_unlanded(mover: &Mover, state: &mut GameState, events: &mut Vec<Event>) {
    let unlanded: Vec<Unit> = state
        .units
        .iter()
        .filter(|u| u.owner == mover.power && mover.utype(u).kind == Some(UnitKind::Air))
        .filter(|u| !may_stay(mover, state, u))
        .cloned()
        .collect();
    for u in unlanded {
        let reason = "rule: no orders landed it this turn; aircraft that do not land are lost";
        lose(state, &u, reason.into(), events);
    }
}

fn lose(state: &mut GameState, u: &Unit, reason: String, events: &mut Vec<Event>) {
    remove_unit(state, u.id, reason, events);
    // Cargo still aboard an air transport (J Boulton JB-12: special force
    // teams carried on to its landing) is lost with it.
    let cargo: Vec<u32> = state
        .units
        .iter()
        .filter(|c| c.cargo_of == Some(u.id))
        .map(|c| c.id)
        .collect();
    for id in cargo {
        let reason = "rule: aboard an aircraft lost for want of a landing".into();
        remove_unit(state, id, reason, events);
    }
}

/// Movement an aircraft has left this turn.
fn remaining(t: &UnitType, unit: &Unit) -> usize {
    usize::from(t.movement.unwrap_or(0)).saturating_sub(usize::from(unit.moved))
}

/// True when the aircraft stands where it may end the turn, carrier space
/// aside (counted for the whole zone by `check_landings`).
fn may_stay(mover: &Mover, state: &GameState, unit: &Unit) -> bool {
    if mover.game.is_sea(unit.at) {
        mover.utype(unit).carrier_cost.is_some() && carrier_space_in(mover, state, unit.at) > 0
    } else {
        friendly_airfield(mover, state, unit.at)
    }
}

/// Carrier slots of the mover's side in `zone`, whoever fills them.
fn carrier_space_in(mover: &Mover, state: &GameState, zone: SpaceId) -> u32 {
    state
        .units_at(zone)
        .filter(|u| mover.friendly(u.owner))
        .map(|u| u32::from(mover.utype(u).carrier_capacity.unwrap_or(0)))
        .sum()
}

/// True when some landing lies within the aircraft's remaining range: a
/// friendly territory not captured this turn, or (for carrier aircraft) a
/// sea zone where the side's carriers have a free slot.
fn can_reach_landing(mover: &Mover, state: &GameState, unit: &Unit) -> bool {
    let t = mover.utype(unit);
    let left = remaining(t, unit);
    let reach = path::bfs(mover, unit.at, |s| {
        !path::impassable(mover, s)
            && mover.game.may_enter(mover.power, s)
            && !mover.neutral_closed_to_air(state, s)
    });
    (0..mover.game.space_count()).map(SpaceId).any(|s| {
        reach[s.0].is_some_and(|d| d <= left)
            && if mover.game.is_sea(s) {
                t.carrier_cost.is_some()
                    && carrier_space_in(mover, state, s) > slots_taken(mover, state, s)
            } else {
                friendly_airfield(mover, state, s)
            }
    })
}

/// Most landings listed in an error; past it, the count of the others.
const MAX_LISTED: usize = 8;

/// For an aircraft that has no non-combat move: the order to write, and the
/// landings within its remaining range, nearest first (`give it one, e.g.
/// 1 fighter: East Poland -> Poland; within its 2 remaining spaces it may
/// land in Poland, Germany`).
fn landing_hint(mover: &Mover, state: &GameState, unit: &Unit) -> String {
    let t = mover.utype(unit);
    let left = remaining(t, unit);
    let reach = path::bfs(mover, unit.at, |s| {
        !path::impassable(mover, s)
            && mover.game.may_enter(mover.power, s)
            && !mover.neutral_closed_to_air(state, s)
    });
    let mut landings: Vec<(usize, SpaceId)> = (0..mover.game.space_count())
        .map(SpaceId)
        .filter(|&s| s != unit.at)
        .filter_map(|s| reach[s.0].filter(|&d| d <= left).map(|d| (d, s)))
        .filter(|&(_, s)| {
            if mover.game.is_sea(s) {
                t.carrier_cost.is_some()
                    && carrier_space_in(mover, state, s) > slots_taken(mover, state, s)
            } else {
                friendly_airfield(mover, state, s)
            }
        })
        .collect();
    landings.sort();
    let Some(&(d, first)) = landings.first() else {
        return String::new();
    };
    let between = if d == 1 { "" } else { " ... ->" };
    let names: Vec<&str> = landings
        .iter()
        .take(MAX_LISTED)
        .map(|&(_, s)| mover.sname(s))
        .collect();
    let more = landings.len().saturating_sub(MAX_LISTED);
    format!(
        "; it has no non-combat move: give it one, e.g. - 1 {}: {} ->{between} {}; within its {left} remaining space{} it may land in {}{}",
        t.name,
        mover.sname(unit.at),
        mover.sname(first),
        if left == 1 { "" } else { "s" },
        names.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    )
}

/// A land territory where aircraft may end the turn: the mover's side's,
/// not captured this turn (FAQ: "Fighters and bombers looking for a place to
/// land are the only units prohibited from ending the turn in just-captured
/// territory").
pub fn friendly_airfield(mover: &Mover, state: &GameState, space: SpaceId) -> bool {
    !mover.game.is_sea(space)
        && !path::impassable(mover, space)
        && state.owner[space.0].is_some_and(|o| mover.friendly(o))
        && !state.captured_this_turn.contains(&space)
}

/// Why `unit_type` may not land in `to`, if it may not.
fn landing_ok(
    mover: &Mover,
    state: &GameState,
    unit_type: usize,
    to: SpaceId,
) -> Result<(), String> {
    let t = &mover.game.unit_types()[unit_type];
    if mover.game.is_sea(to) {
        return match t.carrier_cost {
            Some(_) => Ok(()),
            None => Err(format!("{} cannot land on a carrier", t.name)),
        };
    }
    if state.captured_this_turn.contains(&to) {
        return Err(format!(
            "{} was captured this turn; aircraft may not land there",
            mover.sname(to)
        ));
    }
    if !friendly_airfield(mover, state, to) {
        return Err(format!(
            "{} is not friendly territory, so {} may not count on landing there",
            mover.sname(to),
            t.name
        ));
    }
    Ok(())
}

/// Carrier slots of the mover's side's carriers standing in `zone`.
fn slots_here(mover: &Mover, state: &GameState, zone: SpaceId) -> u32 {
    state
        .units_at(zone)
        .filter(|u| mover.friendly(u.owner) && !mover.carriers.committed.contains_key(&u.id))
        .map(|u| u32::from(mover.utype(u).carrier_capacity.unwrap_or(0)))
        .sum()
}

/// Carrier slots taken by the side's aircraft in `zone`.
fn slots_taken(mover: &Mover, state: &GameState, zone: SpaceId) -> u32 {
    state
        .units_at(zone)
        .filter(|u| mover.friendly(u.owner) && mover.utype(u).kind == Some(UnitKind::Air))
        .map(|u| u32::from(mover.utype(u).carrier_cost.unwrap_or(0)))
        .sum()
}

/// Promises carrier space in `zone` to `count` aircraft of `unit_type` whose
/// path ends in `end`, counting carriers there now and, when those are not
/// enough, the mover's carriers that can still sail there this turn.
fn reserve(
    mover: &mut Mover,
    state: &GameState,
    zone: SpaceId,
    end: SpaceId,
    unit_type: usize,
    count: u32,
) -> Result<(), String> {
    let t = &mover.game.unit_types()[unit_type];
    let need = u32::from(t.carrier_cost.unwrap_or(0)) * count;
    let promised: u32 = mover
        .carriers
        .committed
        .iter()
        .filter(|(_, z)| **z == zone)
        .filter_map(|(id, _)| state.unit(*id))
        .map(|u| u32::from(mover.utype(u).carrier_capacity.unwrap_or(0)))
        .sum();
    let mut capacity = slots_here(mover, state, zone) + promised;
    let taken =
        slots_taken(mover, state, zone) + mover.carriers.reserved.get(&zone).copied().unwrap_or(0);
    // DAAK-C §3.4(g): a carrier may also count when its way to the zone
    // leads only through sea zones where this combat move declares a
    // battle; it sails in the non-combat move, once they are won.
    let through_battles = mover
        .game
        .combat_rules()
        .carrier_landing_after_declared_battles;
    let free_carriers: Vec<&Unit> = state
        .units
        .iter()
        .filter(|u| u.owner == mover.power && u.at != zone && !u.submerged)
        .filter(|u| mover.utype(u).carrier_capacity.unwrap_or(0) > 0)
        .filter(|u| !mover.carriers.committed.contains_key(&u.id) && !mover.used.contains(&u.id))
        .collect();
    let left =
        |u: &Unit| (mover.utype(u).movement.unwrap_or(0) as usize).saturating_sub(u.moved as usize);
    // Carriers of the mover that can still reach the zone: those with a
    // clear way first, then those that need battles won; nearest first.
    let mut candidates: Vec<(bool, usize, u32, u32)> = free_carriers
        .iter()
        .filter_map(|u| {
            let cap = u32::from(mover.utype(u).carrier_capacity.unwrap_or(0));
            if let Some(d) = path::sea_distance(mover, state, u.at, zone) {
                return (d <= left(u)).then_some((false, d, u.id, cap));
            }
            if !through_battles {
                return None;
            }
            let (d, _) = sea_way_through_battles(mover, state, u.at, zone, |z| {
                mover.declared_at_sea.contains(&z)
            })?;
            (d <= left(u)).then_some((true, d, u.id, cap))
        })
        .collect();
    candidates.sort();
    let mut extra = Vec::new();
    for (_, _, id, cap) in candidates {
        if taken + need <= capacity {
            break;
        }
        capacity += cap;
        extra.push(id);
    }
    if taken + need > capacity {
        // A carrier that could get there if a battle not declared were won.
        let hint = free_carriers
            .iter()
            .filter(|_| through_battles)
            .filter(|u| !extra.contains(&u.id))
            .filter_map(|u| {
                let (d, battles) = sea_way_through_battles(mover, state, u.at, zone, |_| true)?;
                let missing: Vec<&str> = battles
                    .iter()
                    .filter(|z| !mover.declared_at_sea.contains(z))
                    .map(|&z| mover.sname(z))
                    .collect();
                (d <= left(u) && !missing.is_empty()).then(|| {
                    format!(
                        "; the {} in {} could reach {} only by winning a battle in {}, and this \
                         combat move declares none there (DAAK-C §3.4(g))",
                        mover.utype(u).name,
                        mover.sname(u.at),
                        mover.sname(zone),
                        missing.join(" and ")
                    )
                })
            })
            .next()
            .unwrap_or_default();
        return Err(format!(
            "not enough carrier space in {} for {count} {}: {} slot{} free, {need} needed \
             (a suicide attack: losses may not be assumed){hint}",
            mover.sname(zone),
            t.name,
            capacity.saturating_sub(taken),
            if capacity.saturating_sub(taken) == 1 {
                ""
            } else {
                "s"
            },
        ));
    }
    for id in extra {
        mover.carriers.committed.insert(id, zone);
    }
    if end != zone {
        *mover.carriers.reserved.entry(zone).or_default() += need;
    }
    Ok(())
}

/// The fewest moves a ship needs from `from` to `to` when it may also pass
/// sea zones holding enemy ships for which `won` says a battle is declared
/// (to be won before it sails), and those zones on the way, in order.
/// Canals and the rule set's closed passages stop it as always.
fn sea_way_through_battles(
    mover: &Mover,
    state: &GameState,
    from: SpaceId,
    to: SpaceId,
    won: impl Fn(SpaceId) -> bool,
) -> Option<(usize, Vec<SpaceId>)> {
    let game = mover.game;
    let mut dist: Vec<Option<usize>> = vec![None; game.space_count()];
    let mut prev: Vec<Option<SpaceId>> = vec![None; game.space_count()];
    dist[from.0] = Some(0);
    let mut queue = std::collections::VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        if here == to {
            break;
        }
        if here != from && mover.enemy_ships(state, here) > 0 && !won(here) {
            continue;
        }
        let d = dist[here.0].expect("queued with a distance");
        for &next in game.neighbours(here) {
            if game.is_sea(next)
                && dist[next.0].is_none()
                && path::closed_canal(mover, state, here, next).is_none()
                && game
                    .rule_set()
                    .sea_passage_closed(game, here, next)
                    .is_none()
            {
                dist[next.0] = Some(d + 1);
                prev[next.0] = Some(here);
                queue.push_back(next);
            }
        }
    }
    let d = dist[to.0]?;
    let mut battles = Vec::new();
    let mut here = prev[to.0];
    while let Some(z) = here.filter(|&z| z != from) {
        if mover.enemy_ships(state, z) > 0 {
            battles.push(z);
        }
        here = prev[z.0];
    }
    battles.reverse();
    Some((d, battles))
}

/// After the non-combat move: every aircraft of the mover must be where it
/// may end the turn. An aircraft that no longer has a landing within its
/// remaining range (its carrier sank, its intended territory was not taken)
/// is lost, as the rules say; one that could still reach a landing but was
/// left where it may not stay is an error, so a forgotten order is never
/// mistaken for a sacrifice.
pub fn check_landings(mover: &mut Mover, state: &mut GameState, events: &mut Vec<Event>) {
    let default_origin = Origin {
        section: "noncombat",
        ..Origin::default()
    };
    let stranded: Vec<u32> = state
        .units
        .iter()
        .filter(|u| u.owner == mover.power && mover.utype(u).kind == Some(UnitKind::Air))
        .filter(|u| !may_stay(mover, state, u) && !can_reach_landing(mover, state, u))
        .map(|u| u.id)
        .collect();
    for id in stranded {
        let u = state.unit(id).expect("listed").clone();
        let left = remaining(mover.utype(&u), &u);
        let reason = format!(
            "rule: no landing within its {left} remaining space{}; aircraft that cannot land are lost",
            if left == 1 { "" } else { "s" }
        );
        lose(state, &u, reason, events);
    }
    let state: &GameState = state;
    let mut zones: Vec<SpaceId> = Vec::new();
    for unit in &state.units {
        let t = mover.utype(unit);
        if unit.owner != mover.power || t.kind != Some(UnitKind::Air) {
            continue;
        }
        let moved = mover.moved_by.get(&unit.id);
        let origin = moved
            .or_else(|| {
                mover
                    .arrived_by
                    .iter()
                    .find(|(s, types, _)| *s == unit.at && types.contains(&unit.unit))
                    .map(|(_, _, o)| o)
            })
            .unwrap_or(&default_origin)
            .clone();
        // Not moved in this non-combat move: say what to write, and where.
        // Only for an error: the search costs a walk of the board per
        // aircraft, and most aircraft stand where they may stay.
        let hint = || {
            if moved.is_some() {
                String::new()
            } else {
                landing_hint(mover, state, unit)
            }
        };
        let at = unit.at;
        if mover.game.is_sea(at) {
            if t.carrier_cost.is_none() {
                mover.errors.push(
                    OrderError::new(
                        &origin,
                        format!("{} in {} cannot land on a carrier; it must land in a friendly territory{}", t.name, mover.sname(at), hint()),
                    )
                    .field("path"),
                );
            } else if !zones.contains(&at) {
                zones.push(at);
            }
        } else if state.captured_this_turn.contains(&at) {
            mover.errors.push(
                OrderError::new(
                    &origin,
                    format!(
                        "{} in {} may not land there: {} was captured this turn{}",
                        t.name,
                        mover.sname(at),
                        mover.sname(at),
                        hint()
                    ),
                )
                .field("path"),
            );
        } else if !friendly_airfield(mover, state, at) {
            mover.errors.push(
                OrderError::new(
                    &origin,
                    format!(
                        "{} in {} must land in a friendly territory or on a carrier{}",
                        t.name,
                        mover.sname(at),
                        hint()
                    ),
                )
                .field("path"),
            );
        }
    }
    for zone in zones {
        let capacity: u32 = state
            .units_at(zone)
            .filter(|u| mover.friendly(u.owner))
            .map(|u| u32::from(mover.utype(u).carrier_capacity.unwrap_or(0)))
            .sum();
        let taken = slots_taken(mover, state, zone);
        if taken > capacity {
            let ours: Vec<&Unit> = state
                .units_at(zone)
                .filter(|u| u.owner == mover.power)
                .collect();
            let origin = ours
                .iter()
                .find_map(|u| mover.moved_by.get(&u.id))
                .or_else(|| {
                    mover
                        .arrived_by
                        .iter()
                        .find(|(s, types, _)| {
                            *s == zone && ours.iter().any(|u| types.contains(&u.unit))
                        })
                        .map(|(_, _, o)| o)
                })
                .unwrap_or(&default_origin)
                .clone();
            // An aircraft there that did not move again: what it could do.
            let hint = ours
                .iter()
                .find(|u| {
                    mover.utype(u).kind == Some(UnitKind::Air)
                        && !mover.moved_by.contains_key(&u.id)
                })
                .map(|u| landing_hint(mover, state, u))
                .unwrap_or_default();
            mover.errors.push(
                OrderError::new(
                    &origin,
                    format!(
                        "not enough carrier space in {}: the aircraft there need {taken} slot{} and the carriers have {capacity}{hint}",
                        mover.sname(zone),
                        if taken == 1 { "" } else { "s" }
                    ),
                )
                .field("path"),
            );
        }
    }
}

/// Allied aircraft on carriers that the mover sails away: they cannot fly
/// in the mover's turn, so they ride as cargo (no part in a battle, never
/// chosen as casualties, lost with their carrier) and are set down at the
/// end of the turn ([`set_down_allied_aircraft`]). Which carrier an
/// aircraft stands on is not recorded, so those that the carriers staying
/// in `start` can still hold stay; the others board the carriers among
/// `moving` (lowest unit id first, as far as each carrier's capacity goes).
/// DAAK clarifications 2003, §3.4(a) and (e); docs/rules/aae.md.
pub(crate) fn board_allied_aircraft(
    mover: &Mover,
    state: &mut GameState,
    moving: &[u32],
    start: SpaceId,
) -> Option<Event> {
    if !mover.game.is_sea(start) {
        return None;
    }
    let capacity = |u: &Unit| u32::from(mover.utype(u).carrier_capacity.unwrap_or(0));
    let carriers: Vec<(u32, u32)> = state
        .units_at(start)
        .filter(|u| moving.contains(&u.id) && capacity(u) > 0)
        .map(|u| (u.id, capacity(u)))
        .collect();
    if carriers.is_empty() {
        return None;
    }
    let staying: u32 = state
        .units_at(start)
        .filter(|u| mover.friendly(u.owner) && !moving.contains(&u.id))
        .map(capacity)
        .sum();
    let mut guests: Vec<(u32, u32)> = state
        .units_at(start)
        .filter(|u| {
            u.owner != mover.power
                && mover.friendly(u.owner)
                && u.cargo_of.is_none()
                && mover.utype(u).kind == Some(UnitKind::Air)
        })
        .map(|u| (u.id, u32::from(mover.utype(u).carrier_cost.unwrap_or(0))))
        .collect();
    guests.sort_unstable();
    // The guests the staying carriers hold, lowest ids first, stay.
    let mut room = staying;
    let mut riders = Vec::new();
    for (id, cost) in guests {
        if cost <= room {
            room -= cost;
        } else {
            riders.push((id, cost));
        }
    }
    let mut boarded: Vec<u32> = Vec::new();
    let mut used: Vec<u32> = Vec::new();
    let mut carriers = carriers.into_iter();
    let mut current = carriers.next();
    let mut aboard = 0;
    for (id, cost) in riders {
        while let Some((carrier, cap)) = current {
            if aboard + cost <= cap {
                aboard += cost;
                if let Some(u) = state.unit_mut(id) {
                    u.cargo_of = Some(carrier);
                }
                boarded.push(id);
                if !used.contains(&carrier) {
                    used.push(carrier);
                }
                break;
            }
            current = carriers.next();
            aboard = 0;
        }
    }
    if boarded.is_empty() {
        return None;
    }
    let mut by_power: Vec<(usize, usize, u32)> = Vec::new();
    for id in &boarded {
        let u = state.unit(*id).expect("boarded from the state");
        match by_power
            .iter_mut()
            .find(|(p, t, _)| *p == u.owner && *t == u.unit)
        {
            Some(entry) => entry.2 += 1,
            None => by_power.push((u.owner, u.unit, 1)),
        }
    }
    let list: Vec<String> = by_power
        .iter()
        .map(|(p, t, n)| format!("{n} {} {}", mover.game.powers()[*p].name, mover.uname(*t)))
        .collect();
    Some(Event::Special {
        rule: "allied aircraft on a carrier".into(),
        detail: format!(
            "{} {} carried as cargo from {} by {}'s carrier{}",
            list.join(", "),
            if boarded.len() == 1 { "is" } else { "are" },
            mover.sname(start),
            mover.game.powers()[mover.power].name,
            if used.len() > 1 { "s" } else { "" }
        ),
    })
}

/// The end of a turn: allied aircraft that rode a carrier as cargo are
/// aircraft on its deck again, free to fly in their own power's turn.
pub(crate) fn set_down_allied_aircraft(game: &GameDef, state: &mut GameState) {
    for u in &mut state.units {
        if u.cargo_of.is_some() && game.unit_types()[u.unit].kind == Some(UnitKind::Air) {
            u.cargo_of = None;
        }
    }
}
