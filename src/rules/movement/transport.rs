//! Transports: loading, moving with cargo, unloading, amphibious assaults.
//!
//! A transport order (`transport: Baltic Sea`, `load: 2 infantry from
//! Germany`, `unload: Finland`) names the sea zone where a transport of the
//! moving power stands, not the piece; the engine picks it: among the
//! power's transports there that may make the move, the lowest id that
//! already carries the power's cargo when the order only unloads, or the
//! lowest id with room for the load when it loads, else the lowest id.
//!
//! The rules (FAQ, "Amphibious Assault, Transport, Naval Movement"):
//! - what may share a transport is its capacity against the cargo's
//!   transport costs in `units.yaml` (AAE: one armor, or two of infantry,
//!   artillery and AA gun; "Can I load an infantry unit and an artillery unit
//!   on the same transport? Yes");
//! - "a unit cannot move before loading into a transport or after unloading
//!   from a transport": only land units that have not moved this turn load,
//!   and unloaded units have no movement left (no blitzing off a transport);
//! - "a transport can unload into only one territory", also when it unloads
//!   part of its cargo in the combat move and the rest in the non-combat
//!   move; after unloading it neither moves nor loads again this turn;
//! - "a transport in a sea zone with enemy subs can't load troops during
//!   Combat Movement"; submerged submarines do not prevent loading or
//!   unloading, and a transport that survived combat may load or unload
//!   (without moving) in the non-combat move;
//! - unloading into an enemy territory in the combat move is an amphibious
//!   assault: a battle there. Cargo that cannot attack (an AA gun) stays
//!   aboard and may be unloaded into the same territory in the non-combat
//!   move. J Boulton's special force teams land with the assault; a
//!   transport that lands only teams, in either move, makes no assault and
//!   starts no battle (JB-22, JB-23); `drop:` puts a team ashore on the
//!   move, the transport sailing on, once a turn by default (JB-23).

use std::collections::BTreeMap;

use super::{Mover, path, sea};
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{DropOff, Load, OrderError, Origin};
use crate::rules::state::{GameState, Unit};
use crate::rules::vocab::{UnitCount, UnitList};

/// Checks and applies one transport order.
#[allow(clippy::too_many_arguments)]
pub fn order(
    mover: &mut Mover,
    state: &mut GameState,
    origin: &Origin,
    path: &[SpaceId],
    loads: &[Load],
    unload: Option<(SpaceId, Option<&UnitList>)>,
    drops: &[DropOff],
    events: &mut Vec<Event>,
) {
    // Where the cargo goes ashore, and which part of it (all when `None`).
    let unload_units = unload.and_then(|(_, units)| units);
    let unload = unload.map(|(to, _)| to);
    let before = mover.errors.len();
    let Some(&start) = path.first() else {
        mover.errors.push(
            OrderError::new(origin, "name the sea zone where the transport is").field("path"),
        );
        return;
    };
    if !mover.game.is_sea(start) {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{} is a territory; a transport order starts in a sea zone",
                    mover.sname(start)
                ),
            )
            .field("path"),
        );
        return;
    }
    let steps = path.len() - 1;
    let transport = match choose(mover, state, start, steps, loads, unload) {
        Ok(id) => id,
        Err(reason) => {
            mover
                .errors
                .push(OrderError::new(origin, reason).field("path"));
            return;
        }
    };
    let t_unit = state
        .unit(transport)
        .expect("chosen from the state")
        .clone();
    let t_type = mover.utype(&t_unit);
    let here = format!("transport in {}", mover.sname(start));
    path::check(
        mover,
        state,
        origin,
        path,
        &vec![UnitCount {
            unit: t_unit.unit,
            count: 1,
        }],
    );
    let types = [t_unit.unit];
    sea::check_path(mover, state, origin, &t_type.name, &types, path);

    // Loading: where, what, and the room for it.
    let mut carried: u32 = state
        .units
        .iter()
        .filter(|u| u.cargo_of == Some(transport))
        .map(|u| cost(mover, u))
        .sum();
    let capacity = u32::from(t_type.transport_capacity.unwrap_or(0));
    let mut boarding: Vec<(u32, SpaceId, usize)> = Vec::new(); // (unit, zone, path index)
    for (n, load) in loads.iter().enumerate() {
        let field = format!("load[{}]", n + 1);
        let err = |reason: String| OrderError::new(origin, reason).field(field.clone());
        let at = load.at.unwrap_or(start);
        let Some(k) = path.iter().position(|&s| s == at) else {
            mover.errors.push(err(format!(
                "{} is not on the transport's path",
                mover.sname(at)
            )));
            continue;
        };
        if mover.game.is_sea(load.from) || !mover.game.adjacent(load.from, at) {
            mover.errors.push(err(format!(
                "{} does not border {}; cargo loads from a territory beside the transport{}",
                mover.sname(load.from),
                mover.sname(at),
                shores(mover, at)
            )));
            continue;
        }
        // DAAK-C §3.2(c): boarding in an embattled zone only for an assault.
        let for_assault = unload.is_some_and(|to| {
            !mover.game.is_sea(to)
                && (mover.hostile_land(state, to) || mover.defenders(state, to) > 0)
        }) && mover
            .game
            .rule_set()
            .combat_rules(mover.game)
            .board_in_embattled_zone_for_assault;
        if mover.combat && mover.enemy_ships(state, at) > 0 && !for_assault {
            let subs = state
                .units_at(at)
                .any(|u| mover.enemy_in_play(u) && mover.utype(u).has(&Ability::Submerge));
            mover.errors.push(err(format!(
                "{here} cannot load during combat movement: {} in {}",
                if subs {
                    "enemy submarines are"
                } else {
                    "enemy ships are"
                },
                mover.sname(at)
            )));
            continue;
        }
        for count in &load.units {
            match pick_cargo(mover, state, load.from, count, &boarding) {
                Ok(ids) => {
                    for id in ids {
                        carried += cost(mover, state.unit(id).expect("picked"));
                        boarding.push((id, at, k));
                    }
                }
                Err(reason) => mover.errors.push(err(reason)),
            }
        }
    }
    // DAAK-C §3.3(d): one nation's units to a transport.
    if !boarding.is_empty()
        && let Some(other) = state
            .units
            .iter()
            .find(|u| u.cargo_of == Some(transport) && u.owner != mover.power)
    {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{here} carries units of {}: a transport carries one nation's units \
                     (DAAK-C §3.3(d))",
                    mover.game.powers()[other.owner].name
                ),
            )
            .field("load"),
        );
    }
    // J Boulton: one special force team rides free (JB-23).
    let aboard = state
        .units
        .iter()
        .filter(|u| u.cargo_of == Some(transport))
        .map(|u| u.unit)
        .chain(
            boarding
                .iter()
                .filter_map(|b| state.unit(b.0).map(|u| u.unit)),
        );
    let aboard: Vec<usize> = aboard.collect();
    let free = free_ride(mover.game, aboard.iter().copied());
    let carried = carried - free;
    // J Boulton Part E 9 (option transport_points: armor_alone): a 3-point
    // unit shares its transport with nothing but the free rider.
    let types = mover.game.unit_types();
    if mover.game.combat_rules().vehicle_rides_alone
        && let Some(&big) = aboard
            .iter()
            .find(|&&t| types[t].transport_cost.unwrap_or(0) >= 3)
        && aboard.len() - usize::from(free > 0) > 1
    {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{here} carries {}: {} rides alone (with at most the free special force \
                     team; option transport_points: armor_alone)",
                    describe(mover, state, transport, &boarding),
                    types[big].name
                ),
            )
            .field("load"),
        );
    }
    if carried > capacity {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{here} can carry {capacity} cargo points, and its cargo would need {carried} \
                     ({})",
                    describe(mover, state, transport, &boarding)
                ),
            )
            .field("load"),
        );
    }

    // J Boulton JB-23: special force teams put ashore on the way.
    let dropped = drop_offs(mover, state, origin, transport, path, &boarding, drops);

    // Unloading: where, and what goes ashore.
    let rules = mover.game.combat_rules();
    let end = *path.last().expect("a path has a start");
    let mut landing: Vec<u32> = Vec::new();
    let mut assault = false;
    if let Some(to) = unload {
        let err = |reason: String| OrderError::new(origin, reason).field("unload");
        if mover.game.is_sea(to) || !mover.game.adjacent(end, to) {
            mover.errors.push(err(format!(
                "{} does not border {}; a transport unloads into a territory beside it{}",
                mover.sname(to),
                mover.sname(end),
                shores(mover, end)
            )));
        } else if path::impassable(mover, to) {
            mover.errors.push(err(format!(
                "{} is neutral and may not be entered",
                mover.sname(to)
            )));
        } else {
            let hostile = mover.hostile_land(state, to) || mover.defenders(state, to) > 0;
            let own: Vec<u32> = state
                .units
                .iter()
                .filter(|u| u.cargo_of == Some(transport) && u.owner == mover.power)
                .map(|u| u.id)
                .chain(boarding.iter().map(|b| b.0))
                .filter(|id| !dropped.iter().any(|d| d.0 == *id))
                .collect();
            // `unload: 1 infantry to Finland`: only that part of the cargo
            // goes ashore; the rest stays aboard (and may follow into the
            // same territory later in the turn).
            let whole = own.len();
            if t_unit.owner != mover.power
                && unload_units.is_some()
                && let Some(Ok(part)) = unload_units.map(|w| part_of_cargo(mover, state, &own, w))
                && part.len() < whole
            {
                mover.errors.push(err(format!(
                    "{here} belongs to {}: units carried by an ally's transport unload all \
                     together (DAAK-C §3.3(b): partial unloading is not allowed)",
                    mover.game.powers()[t_unit.owner].name
                )));
                return;
            }
            let own = match unload_units {
                Some(wanted) => match part_of_cargo(mover, state, &own, wanted) {
                    Ok(part)
                        if part.len() < whole
                            && mover.combat
                            && rules.whole_cargo_unloads_in_combat =>
                    {
                        mover.errors.push(err(format!(
                            "{here} would unload only part of its cargo: in the combat move a \
                             transport unloads all of it (DAAK-C §3.2(e): no partial unloading in \
                             the combat phase; leave out the units to unload them all)"
                        )));
                        return;
                    }
                    Ok(part) => part,
                    Err(reason) => {
                        mover.errors.push(err(format!("{here} {reason}")));
                        return;
                    }
                },
                None => own,
            };
            // J Boulton JB-22, JB-23: special force teams land in enemy land
            // in either move; alone they start no battle.
            let game = mover.game;
            let team = |id: &u32| {
                crate::rules::combat::is_special_force_team(
                    &rules,
                    &game.unit_types()[state.unit(*id).expect("cargo").unit],
                )
            };
            let teams_alone = !own.is_empty() && own.iter().all(team);
            if hostile
                && teams_alone
                && let Some(why) = closed_landing(mover, state, end, to)
            {
                mover.errors.push(err(why));
            } else if hostile && teams_alone {
                landing = own;
            } else if hostile && !mover.combat {
                mover.errors.push(err(format!(
                    "{} is enemy territory; units may be unloaded into it only in the combat move \
                     (an amphibious assault)",
                    mover.sname(to)
                )));
            } else if hostile && let Some(why) = closed_landing(mover, state, end, to) {
                mover.errors.push(err(why));
            } else if hostile {
                assault = true;
                if unload_units.is_some()
                    && let Some(&id) = own.iter().find(|&&id| {
                        mover
                            .utype(state.unit(id).expect("cargo"))
                            .attack
                            .unwrap_or(0)
                            == 0
                            && !team(&id)
                    })
                {
                    mover.errors.push(err(format!(
                        "a {} cannot attack, so it cannot be unloaded in an amphibious assault; \
                         it may follow in the non-combat move",
                        mover.utype(state.unit(id).expect("cargo")).name
                    )));
                }
                landing = own
                    .into_iter()
                    .filter(|&id| {
                        mover
                            .utype(state.unit(id).expect("cargo"))
                            .attack
                            .unwrap_or(0)
                            > 0
                            || team(&id)
                    })
                    .collect();
                if landing.is_empty() {
                    mover.errors.push(err(format!(
                        "{here} carries no unit that can attack, so it cannot make an amphibious \
                         assault on {}",
                        mover.sname(to)
                    )));
                }
            } else {
                landing = own;
                if landing.is_empty() {
                    mover.errors.push(err(format!(
                        "{here} carries nothing of {} to unload",
                        mover.game.powers()[mover.power].name
                    )));
                }
            }
        }
    }
    if mover.errors.len() > before {
        return;
    }

    // Apply: board, sail, land.
    for &(id, at, _) in &boarding {
        let movement = mover
            .utype(state.unit(id).expect("picked"))
            .movement
            .unwrap_or(0);
        let unit = state.unit_mut(id).expect("picked");
        unit.cargo_of = Some(transport);
        unit.at = at;
        // Boarding is the unit's move: it may not move on its own afterwards.
        unit.moved = movement;
        unit.combat_moved |= mover.combat;
        mover.used.insert(id);
        mover.moved_by.insert(id, origin.clone());
    }
    for load in loads {
        events.push(Event::Moved {
            power: mover.power,
            units: load.units.clone(),
            path: vec![load.from, load.at.unwrap_or(start)],
            combat: mover.combat,
        });
    }
    mover.relocate(state, &[transport], path, origin);
    if steps > 0 {
        events.push(Event::Moved {
            power: mover.power,
            units: vec![UnitCount {
                unit: t_unit.unit,
                count: 1,
            }],
            path: path.to_vec(),
            combat: mover.combat,
        });
    }
    for &(id, zone, to) in &dropped {
        let unit_type = go_ashore(mover, state, origin, id, transport, zone, to);
        // Alone it makes no assault and starts no battle (JB-23 PROPOSAL).
        events.push(Event::Moved {
            power: mover.power,
            units: vec![UnitCount {
                unit: unit_type,
                count: 1,
            }],
            path: vec![zone, to],
            combat: mover.combat,
        });
    }
    if let Some(to) = unload {
        let mut landed: BTreeMap<usize, u32> = BTreeMap::new();
        for &id in &landing {
            let unit_type = go_ashore(mover, state, origin, id, transport, end, to);
            *landed.entry(unit_type).or_default() += 1;
        }
        state.unit_mut(transport).expect("chosen").unloaded_to = Some(to);
        events.push(Event::Moved {
            power: mover.power,
            units: landed
                .into_iter()
                .map(|(unit, count)| UnitCount { unit, count })
                .collect(),
            path: vec![end, to],
            combat: mover.combat,
        });
        if assault {
            mover.battle(state, to, events);
        }
    }
    if mover.combat && mover.enemy_ships(state, end) > 0 {
        mover.battle(state, end, events);
    }
}

/// Puts cargo unit `id` of `transport` ashore in `to` from `zone`: it has
/// no movement left ("a unit cannot move ... after unloading") and is
/// marked as landed this turn. Returns its unit type.
#[allow(clippy::too_many_arguments)]
fn go_ashore(
    mover: &mut Mover,
    state: &mut GameState,
    origin: &Origin,
    id: u32,
    transport: u32,
    zone: SpaceId,
    to: SpaceId,
) -> usize {
    let movement = mover
        .utype(state.unit(id).expect("cargo"))
        .movement
        .unwrap_or(0);
    let unit = state.unit_mut(id).expect("cargo");
    unit.cargo_of = None;
    unit.at = to;
    unit.moved = movement;
    unit.unloaded_from = Some(zone);
    unit.unloaded_by = Some(transport);
    unit.combat_moved |= mover.combat;
    let unit_type = unit.unit;
    mover.used.insert(id);
    mover.moved_by.insert(id, origin.clone());
    unit_type
}

/// Checks a transport order's `drop:` (J Boulton JB-23): special force
/// teams aboard, or boarding on its path, put ashore into a territory
/// beside a zone of its path, the transport sailing on; at most the rule
/// set's number a turn, only on a move (an order with a path), never into
/// a territory it could not land in. Returns (team, zone it goes ashore
/// from, territory), teams already aboard first, lowest ids first.
fn drop_offs(
    mover: &mut Mover,
    state: &GameState,
    origin: &Origin,
    transport: u32,
    path: &[SpaceId],
    boarding: &[(u32, SpaceId, usize)],
    drops: &[DropOff],
) -> Vec<(u32, SpaceId, SpaceId)> {
    if drops.is_empty() {
        return Vec::new();
    }
    let err = |reason: String| OrderError::new(origin, reason).field("drop");
    let rules = mover.game.combat_rules();
    let Some(teams) = rules.special_force_teams else {
        mover.errors.push(err(
            "a transport sets nothing ashore on its way in this game: its cargo lands with \
             unload:"
                .into(),
        ));
        return Vec::new();
    };
    let game = mover.game;
    let types = game.unit_types();
    let team = |t: usize| crate::rules::combat::is_special_force_team(&rules, &types[t]);
    if let Some(c) = drops.iter().flat_map(|d| &d.units).find(|c| !team(c.unit)) {
        mover.errors.push(err(format!(
            "{} cannot be put ashore on the way: only a special force team is, the transport \
             sailing on; any other unit lands with unload:, which stops the transport (JB-23)",
            types[c.unit].name
        )));
        return Vec::new();
    }
    let wanted: u32 = drops.iter().flat_map(|d| &d.units).map(|c| c.count).sum();
    if path.len() < 2 {
        mover.errors.push(err(
            "a transport puts a special force team ashore on its move, and this one does not \
             move: land the team with unload: (JB-23)"
                .into(),
        ));
        return Vec::new();
    }
    if wanted > teams.sea_drop_offs {
        mover.errors.push(err(format!(
            "a transport puts at most {} special force team{} ashore on its move in a turn, and \
             this order sets {wanted} ashore (JB-23; option sft_drop_offs)",
            teams.sea_drop_offs,
            if teams.sea_drop_offs == 1 { "" } else { "s" }
        )));
        return Vec::new();
    }
    // The teams aboard, each with the first index of the path where it is.
    let mut aboard: Vec<(u32, usize)> = state
        .units
        .iter()
        .filter(|u| u.cargo_of == Some(transport) && u.owner == mover.power && team(u.unit))
        .map(|u| (u.id, 0))
        .chain(
            boarding
                .iter()
                .filter(|b| state.unit(b.0).is_some_and(|u| team(u.unit)))
                .map(|b| (b.0, b.2)),
        )
        .collect();
    aboard.sort_unstable_by_key(|&(id, k)| (k, id));
    let mut out = Vec::new();
    for d in drops {
        let to = d.to;
        if game.is_sea(to) || path::impassable(mover, to) {
            mover.errors.push(err(format!(
                "{} is not a territory a special force team may go ashore in",
                mover.sname(to)
            )));
            return out;
        }
        for _ in 0..d.units.iter().map(|c| c.count).sum::<u32>() {
            if aboard.is_empty() {
                mover.errors.push(err(format!(
                    "the transport in {} carries no more special force team to put ashore",
                    mover.sname(path[0])
                )));
                return out;
            }
            let found = aboard.iter().enumerate().find_map(|(n, &(id, k))| {
                path[k..]
                    .iter()
                    .find(|&&z| game.adjacent(z, to))
                    .map(|&z| (n, id, z))
            });
            let Some((n, id, zone)) = found else {
                let mut shores: Vec<&str> = Vec::new();
                for &z in path {
                    for &t in game.neighbours(z) {
                        if !game.is_sea(t) && !shores.contains(&mover.sname(t)) {
                            shores.push(mover.sname(t));
                        }
                    }
                }
                mover.errors.push(err(format!(
                    "{} does not border the transport's path where its team is aboard; the \
                     path borders {}",
                    mover.sname(to),
                    shores.join(", ")
                )));
                return out;
            };
            if mover.combat && mover.enemy_ships(state, zone) > 0 {
                mover.errors.push(err(format!(
                    "a special force team is not put ashore from {}, where enemy ships are",
                    mover.sname(zone)
                )));
                return out;
            }
            let hostile = mover.hostile_land(state, to) || mover.defenders(state, to) > 0;
            if hostile && let Some(why) = closed_landing(mover, state, zone, to) {
                mover.errors.push(err(why));
                return out;
            }
            aboard.remove(n);
            out.push((id, zone, to));
        }
    }
    out
}

/// The points of the one unit among `cargo` (unit types) that rides free on
/// top of a transport's capacity, where the rule set has such a rider (J
/// Boulton JB-08, JB-23: a special force team, option `free_sft_slot`);
/// 0 when none does.
pub(crate) fn free_ride(
    game: &crate::rules::GameDef,
    cargo: impl IntoIterator<Item = usize>,
) -> u32 {
    let Some(rider) = game
        .combat_rules()
        .free_rider
        .and_then(|n| game.unit_type(n))
    else {
        return 0;
    };
    let types = game.unit_types();
    cargo
        .into_iter()
        .find(|&t| std::ptr::eq(&types[t], rider))
        .map_or(0, |t| u32::from(types[t].transport_cost.unwrap_or(0)))
}

/// Cargo points a unit takes on a transport.
fn cost(mover: &Mover, unit: &Unit) -> u32 {
    u32::from(mover.utype(unit).transport_cost.unwrap_or(0))
}

/// The transport's cargo after boarding, for messages ("1 armor, 1 infantry").
fn describe(
    mover: &Mover,
    state: &GameState,
    transport: u32,
    boarding: &[(u32, SpaceId, usize)],
) -> String {
    let mut counts: BTreeMap<usize, u32> = BTreeMap::new();
    for unit in state
        .units
        .iter()
        .filter(|u| u.cargo_of == Some(transport) || boarding.iter().any(|b| b.0 == u.id))
    {
        *counts.entry(unit.unit).or_default() += 1;
    }
    counts
        .into_iter()
        .map(|(u, n)| format!("{n} {}", mover.uname(u)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Picks the transport for an order (see the module documentation).
fn choose(
    mover: &Mover,
    state: &GameState,
    start: SpaceId,
    steps: usize,
    loads: &[Load],
    unload: Option<SpaceId>,
) -> Result<u32, String> {
    let here = mover.sname(start);
    let transports: Vec<&Unit> = state
        .units_at(start)
        .filter(|u| u.owner == mover.power && mover.utype(u).transport_capacity.unwrap_or(0) > 0)
        .collect();
    // DAAK-C §3.3: an ally's transports too, after the power's own.
    let allied_transports = mover
        .game
        .rule_set()
        .combat_rules(mover.game)
        .allied_transports;
    let theirs: Vec<&Unit> = state
        .units_at(start)
        .filter(|u| {
            allied_transports
                && u.owner != mover.power
                && mover.friendly(u.owner)
                && mover.utype(u).transport_capacity.unwrap_or(0) > 0
        })
        .collect();
    if transports.is_empty() && theirs.is_empty() {
        return Err(format!(
            "{} has no transport in {here}",
            mover.game.powers()[mover.power].name
        ));
    }
    let mut eligible = Vec::new();
    let mut first_reason = None;
    for t in transports {
        let fought = !mover.combat && state.fought_at_sea.contains(&t.id);
        let refused = if fought {
            Some(super::fought_at_sea_reason(mover.game))
        } else {
            why_not(mover, t, steps, !loads.is_empty(), unload)
        };
        match refused {
            None => eligible.push(t),
            Some(reason) => {
                first_reason.get_or_insert(reason);
            }
        }
    }
    for t in theirs {
        match why_not_allied(mover, state, t, steps, !loads.is_empty(), unload) {
            None => eligible.push(t),
            Some(reason) => {
                first_reason.get_or_insert(reason);
            }
        }
    }
    if eligible.is_empty() {
        return Err(format!(
            "transport in {here} {}",
            first_reason.expect("one was refused")
        ));
    }
    let own_cargo = |t: &Unit| {
        state
            .units
            .iter()
            .any(|u| u.cargo_of == Some(t.id) && u.owner == mover.power)
    };
    let room = |t: &Unit| {
        let used: u32 = state
            .units
            .iter()
            .filter(|u| u.cargo_of == Some(t.id))
            .map(|u| cost(mover, u))
            .sum();
        let wanted: u32 = loads
            .iter()
            .flat_map(|l| &l.units)
            .map(|c| {
                u32::from(mover.game.unit_types()[c.unit].transport_cost.unwrap_or(0)) * c.count
            })
            .sum();
        let free = free_ride(
            mover.game,
            state
                .units
                .iter()
                .filter(|u| u.cargo_of == Some(t.id))
                .map(|u| u.unit)
                .chain(loads.iter().flat_map(|l| &l.units).map(|c| c.unit)),
        );
        used + wanted <= u32::from(mover.utype(t).transport_capacity.unwrap_or(0)) + free
    };
    let preferred = if loads.is_empty() && unload.is_some() {
        eligible.iter().find(|t| own_cargo(t))
    } else if !loads.is_empty() {
        eligible.iter().find(|t| room(t))
    } else {
        None
    };
    Ok(preferred.unwrap_or(&eligible[0]).id)
}

/// Why a power may not use an ally's transport `t` for an order (DAAK-C
/// §3.3), if it may not: only its owner moves it; a transport carries one
/// nation's units; units unload in a later turn of their owner than the one
/// they boarded in, after the transport's owner has had its turn.
fn why_not_allied(
    mover: &Mover,
    state: &GameState,
    t: &Unit,
    steps: usize,
    loads: bool,
    unload: Option<SpaceId>,
) -> Option<String> {
    let owner = &mover.game.powers()[t.owner].name;
    let power = &mover.game.powers()[mover.power].name;
    if steps > 0 {
        return Some(format!(
            "of {owner} moves only in {owner}'s turn (DAAK-C §3.3(b): the transport's owner \
             shuttles it); {power} may load or unload it where it stands"
        ));
    }
    if mover.used.contains(&t.id) {
        return Some("has already been used in an earlier order of this message".into());
    }
    let cargo: Vec<&Unit> = state
        .units
        .iter()
        .filter(|u| u.cargo_of == Some(t.id))
        .collect();
    if let Some(other) = cargo.iter().find(|u| u.owner != mover.power) {
        return Some(format!(
            "of {owner} carries units of {}: a transport carries one nation's units (DAAK-C \
             §3.3(d))",
            mover.game.powers()[other.owner].name
        ));
    }
    if loads && let Some(done) = t.unloaded_to {
        return Some(format!(
            "of {owner} already unloaded this turn (into {}), so nothing boards it again",
            mover.sname(done)
        ));
    }
    if unload.is_some() {
        if cargo.is_empty() && !loads {
            return Some(format!("of {owner} carries nothing of {power} to unload"));
        }
        if loads || cargo.iter().any(|u| u.moved > 0) {
            return Some(format!(
                "of {owner}: units that boarded an ally's transport this turn unload only in a \
                 later turn of {power}, after {owner} has shuttled them (DAAK-C §3.3(b))"
            ));
        }
    }
    None
}

/// Why a transport may not carry out an order, if it may not.
fn why_not(
    mover: &Mover,
    t: &Unit,
    steps: usize,
    loads: bool,
    unload: Option<SpaceId>,
) -> Option<String> {
    // DAAK-C §3.2(e): in the non-combat move a transport that unloaded may
    // unload again where it stands, into another territory beside it.
    let several = !mover.combat
        && mover
            .game
            .rule_set()
            .combat_rules(mover.game)
            .noncombat_unloading_into_several_territories;
    let unloads_again = several && t.unloaded_to.is_some() && steps == 0 && !loads;
    if mover.used.contains(&t.id) && !unloads_again {
        return Some("has already moved in an earlier order of this message".into());
    }
    if let Some(done) = t.unloaded_to {
        if steps > 0 || loads {
            return Some(format!(
                "already unloaded this turn (into {}), so it may not move or load again",
                mover.sname(done)
            ));
        }
        if let Some(to) = unload
            && to != done
            && !several
        {
            return Some(format!(
                "already unloaded into {} this turn; a transport unloads into only one territory",
                mover.sname(done)
            ));
        }
    }
    if steps == 0 {
        // Loading or unloading where it stands: allowed in the non-combat
        // move even after a combat move (FAQ: a transport that survives
        // combat can load or unload).
        return None;
    }
    if !mover.combat && t.combat_moved {
        return Some(
            "moved in the combat move and may not move again (it may still load or unload where it is)"
                .into(),
        );
    }
    let movement = mover.utype(t).movement.unwrap_or(0) as usize;
    let left = movement.saturating_sub(t.moved as usize);
    if left == 0 {
        return Some("has no movement left".into());
    }
    if steps > left {
        return Some(format!(
            "has only {left} space{} of movement left",
            if left == 1 { "" } else { "s" }
        ));
    }
    None
}

/// Picks cargo: land units of the mover in `from` that have not moved this
/// turn, lowest ids first.
fn pick_cargo(
    mover: &Mover,
    state: &GameState,
    from: SpaceId,
    count: &UnitCount,
    boarding: &[(u32, SpaceId, usize)],
) -> Result<Vec<u32>, String> {
    let t = &mover.game.unit_types()[count.unit];
    if t.kind != Some(UnitKind::Land) || t.transport_cost.is_none() {
        return Err(format!("{} cannot be carried by a transport", t.name));
    }
    let there: Vec<&Unit> = state
        .units_at(from)
        .filter(|u| u.owner == mover.power && u.unit == count.unit && u.cargo_of.is_none())
        .filter(|u| !boarding.iter().any(|b| b.0 == u.id))
        .collect();
    if (there.len() as u32) < count.count {
        return Err(format!(
            "{} has {} {} in {}",
            mover.game.powers()[mover.power].name,
            if there.is_empty() {
                "no".to_owned()
            } else {
                format!("only {}", there.len())
            },
            t.name,
            mover.sname(from)
        ));
    }
    let mut chosen = Vec::new();
    let mut first_reason: Option<String> = None;
    for unit in there {
        let reason = if unit.unloaded_from.is_some() {
            Some("was unloaded from a transport this turn and may not move further")
        } else if unit.moved > 0 || unit.combat_moved || mover.used.contains(&unit.id) {
            Some("has already moved this turn and may not load (a unit cannot move before loading)")
        } else {
            None
        };
        match reason {
            None => chosen.push(unit.id),
            Some(r) => {
                first_reason.get_or_insert_with(|| r.to_owned());
            }
        }
        if chosen.len() as u32 == count.count {
            return Ok(chosen);
        }
    }
    Err(format!(
        "{} in {} {}",
        t.name,
        mover.sname(from),
        first_reason.expect("one was refused")
    ))
}

/// The units of `cargo` (ids, in order) that make up `wanted`, lowest ids
/// first, or why the cargo does not hold them.
fn part_of_cargo(
    mover: &Mover,
    state: &GameState,
    cargo: &[u32],
    wanted: &UnitList,
) -> Result<Vec<u32>, String> {
    let mut part = Vec::new();
    for c in wanted {
        let mut have: Vec<u32> = cargo
            .iter()
            .copied()
            .filter(|&id| state.unit(id).is_some_and(|u| u.unit == c.unit))
            .collect();
        have.sort_unstable();
        if have.len() < c.count as usize {
            return Err(format!(
                "carries {} {} of {}, so it cannot unload {}",
                have.len(),
                mover.uname(c.unit),
                mover.game.powers()[mover.power].name,
                c.count
            ));
        }
        part.extend(have.into_iter().take(c.count as usize));
    }
    Ok(part)
}

/// `(beside Baltic Sea: Germany, Poland)`: the territories beside a sea
/// zone, when there are few enough to list.
fn shores(mover: &Mover, zone: SpaceId) -> String {
    let names: Vec<&str> = mover
        .game
        .neighbours(zone)
        .iter()
        .copied()
        .filter(|&t| !mover.game.is_sea(t))
        .map(|t| mover.sname(t))
        .collect();
    if names.is_empty() || names.len() > 10 {
        return String::new();
    }
    format!(" (beside {}: {})", mover.sname(zone), names.join(", "))
}

/// Why an amphibious assault from sea zone `from` onto `to` may not be made
/// now: a board `landings:` entry whose territories the mover's side has
/// not all controlled since the start of the turn (Advanced AAE AAAE-51).
fn closed_landing(mover: &Mover, state: &GameState, from: SpaceId, to: SpaceId) -> Option<String> {
    let game = mover.game;
    let landing = game
        .files()
        .board
        .landings
        .iter()
        .find(|l| game.space(&l.from) == Some(from) && game.space(&l.to) == Some(to))?;
    let held = landing.controlled_by.iter().all(|land| {
        game.space(land).is_some_and(|s| {
            state.owner[s.0].is_some_and(|o| mover.friendly(o))
                && !state.captured_this_turn.contains(&s)
        })
    });
    (!held).then(|| {
        format!(
            "an amphibious assault on {} from {} needs {}'s side to control {} since the start \
             of its turn",
            mover.sname(to),
            mover.sname(from),
            game.powers()[mover.power].name,
            landing.controlled_by.join(" and ")
        )
    })
}
