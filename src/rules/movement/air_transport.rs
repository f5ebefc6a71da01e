//! Air transports (J Boulton JB-07..12, JB-15, JB-20; `docs/rules/jboulton.md`),
//! where the rule set has them (`CombatRules::air_transports`).
//!
//! An air transport is an aircraft with a `transport_capacity`. An order
//! that names air transports and land units together is an air lift: both
//! start in the same territory and neither has moved this turn (JB-09);
//! each plane takes at most its capacity in `transport_cost` points of
//! units marked `air_transportable` (JB-08: one paratrooper, infantry or
//! artillery). In the non-combat move the cargo flies with the plane and
//! leaves it where it lands, a friendly land territory (JB-07, JB-11), with
//! no move left that turn (JB-10). In the combat move only paratroopers fly,
//! dropped into the hostile territory where the path ends (JB-08, JB-20):
//! they are the plane's cargo until AA fire and the landing roll
//! (`combat::paradrop`) and are listed in `GameState::paradropped`; the
//! plane names its landing with `land:` like any aircraft and flies on to
//! it in the non-combat move (JB-15). Special force teams are dropped the
//! same way, and a plane carrying teams only may drop them one at a time
//! into several territories of its path (JB-12, the order's `drop:`): its
//! path ends at the last drop, and the teams no drop names stay aboard and
//! get off where it lands in the non-combat move. An air transport never
//! attacks (JB-07 PROPOSAL), so it makes no combat move without something
//! to drop.

use super::{Mover, air, path, supply};
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
use crate::rules::orders::{DropOff, OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::vocab::{UnitCount, UnitList};

/// An aircraft that carries cargo (J Boulton's air transport).
pub(crate) fn is_air_transport(t: &UnitType) -> bool {
    t.kind == Some(UnitKind::Air) && t.transport_capacity.is_some()
}

impl Mover<'_> {
    /// An order with air transports: checked and applied here (returns
    /// `true`, errors recorded) when the rule set has air transports.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn air_lift(
        &mut self,
        state: &mut GameState,
        origin: &Origin,
        units: &UnitList,
        path: &[SpaceId],
        land: Option<SpaceId>,
        drops: &[DropOff],
        events: &mut Vec<Event>,
    ) -> bool {
        let types = self.game.unit_types();
        if self.game.combat_rules().air_transports.is_none()
            || !units.iter().any(|c| is_air_transport(&types[c.unit]))
        {
            return false;
        }
        let err = |field: &str, reason: String| OrderError::new(origin, reason).field(field);
        let before = self.errors.len();
        let (planes, others): (UnitList, UnitList) =
            units.iter().partition(|c| is_air_transport(&types[c.unit]));
        let (cargo, strangers): (UnitList, UnitList) = others
            .into_iter()
            .partition(|c| types[c.unit].kind == Some(UnitKind::Land));
        if let Some(c) = strangers.first() {
            self.errors.push(err(
                "units",
                format!(
                    "{} cannot fly with air transports: an air transport's order names only the \
                     planes and the land units they carry",
                    types[c.unit].name
                ),
            ));
            return true;
        }
        let end = *path.last().expect("checked by the caller");
        let start = path[0];
        let steps = path.len() - 1;
        let rules = self.game.combat_rules();
        let teams = rules.special_force_teams.is_some();
        // Cargo named in the non-combat move that is still aboard a plane
        // since the combat move (JB-12: teams carried on to the landing).
        let (aboard, cargo) = if self.combat {
            (Vec::new(), cargo)
        } else {
            self.aboard_named(state, start, &cargo)
        };
        if cargo.is_empty() && aboard.is_empty() && self.combat {
            self.errors.push(err(
                "units",
                if teams {
                    "an air transport never attacks (JB-07): in the combat move it flies only to \
                     drop a paratrooper or special force teams"
                } else {
                    "an air transport never attacks (JB-07): in the combat move it flies only to \
                     drop a paratrooper"
                }
                .into(),
            ));
            return true;
        }
        for c in &cargo {
            let t = &types[c.unit];
            // Special force teams are dropped too (JB-12).
            if self.combat && crate::rules::combat::is_special_force_team(&rules, t) {
                continue;
            }
            if !t.has(&Ability::AirTransportable) {
                self.errors.push(err(
                    "units",
                    format!(
                        "{} cannot fly on an air transport: it carries a paratrooper, an \
                         infantry, an artillery or special force teams (JB-08)",
                        t.name
                    ),
                ));
            } else if self.combat && !t.has(&Ability::Paradrop) {
                self.errors.push(err(
                    "units",
                    format!(
                        "{} cannot be dropped: in the combat move an air transport carries only \
                         a paratrooper (JB-08){}; {} flies in the non-combat move",
                        t.name,
                        if teams {
                            " and special force teams (JB-12)"
                        } else {
                            ""
                        },
                        t.name
                    ),
                ));
            }
        }
        // Each plane takes whole units up to its capacity (first fit, the
        // largest first), and one free rider on top where the rule set has
        // one (a special force team, JB-08).
        let mut rooms: Vec<(u32, bool)> = planes
            .iter()
            .flat_map(|c| {
                let cap = u32::from(types[c.unit].transport_capacity.unwrap_or(0));
                std::iter::repeat_n((cap, false), c.count as usize)
            })
            .collect();
        let mut loads: Vec<(u32, usize)> = cargo
            .iter()
            .flat_map(|c| {
                let cost = u32::from(types[c.unit].transport_cost.unwrap_or(u8::MAX));
                std::iter::repeat_n((cost, c.unit), c.count as usize)
            })
            .collect();
        loads.sort_unstable_by_key(|l| std::cmp::Reverse(l.0));
        let mut seats: Vec<(usize, usize)> = Vec::new(); // (unit type, plane index), in `loads` order
        for &(cost, t) in &loads {
            let free = super::transport::free_ride(self.game, [t]) > 0;
            let seat = rooms
                .iter()
                .position(|r| free && !r.1)
                .map(|i| (i, true))
                .or_else(|| rooms.iter().position(|r| r.0 >= cost).map(|i| (i, false)));
            match seat {
                Some((i, true)) => {
                    rooms[i].1 = true;
                    seats.push((t, i));
                }
                Some((i, false)) => {
                    rooms[i].0 -= cost;
                    seats.push((t, i));
                }
                None => {
                    let n = planes.iter().map(|c| c.count).sum::<u32>();
                    self.errors.push(err(
                        "units",
                        format!(
                            "{n} air transport{} cannot carry this cargo: each takes one \
                             paratrooper, infantry or artillery, or two special force teams, and \
                             one special force team more (JB-08)",
                            if n == 1 { "" } else { "s" }
                        ),
                    ));
                    break;
                }
            }
        }
        let dropped_at = self.check_drops(state, origin, &cargo, path, drops);
        if self.errors.len() > before {
            return true;
        }
        path::check(self, state, origin, path, &planes);
        let mut plane_ids = Vec::new();
        for c in &planes {
            match self.pick(state, start, c.unit, c.count, steps) {
                Ok(mut ids) => plane_ids.append(&mut ids),
                Err(reason) => self.errors.push(err("units", reason)),
            }
        }
        // Carried, the cargo only needs to be free to move this turn.
        let mut cargo_ids = Vec::new();
        for c in &cargo {
            match self.pick(state, start, c.unit, c.count, 1) {
                Ok(mut ids) => cargo_ids.append(&mut ids),
                Err(reason) => self.errors.push(err("units", reason)),
            }
        }
        // Cargo still aboard since the combat move flies with its own plane.
        if let Some(&id) = aboard.iter().find(|&&id| {
            state
                .unit(id)
                .is_none_or(|u| u.cargo_of.is_none_or(|p| !plane_ids.contains(&p)))
        }) {
            let name = state.unit(id).map_or("", |u| self.uname(u.unit));
            self.errors.push(err(
                "units",
                format!(
                    "the {name} (unit {id}) aboard an air transport in {} flies on with its own \
                     plane, which this order does not move (JB-12)",
                    self.sname(start)
                ),
            ));
        }
        if !cargo.is_empty() {
            for &id in plane_ids.iter().chain(&cargo_ids) {
                let Some(u) = state.unit(id) else { continue };
                if u.moved > 0 {
                    self.errors.push(err(
                        "units",
                        format!(
                            "the {} in {} has already moved this turn: an air transport and its \
                             cargo must both start their move together, neither having moved \
                             (JB-09)",
                            self.uname(u.unit),
                            self.sname(start)
                        ),
                    ));
                    break;
                }
            }
        }
        supply::check(self, state, origin, &plane_ids, path);
        let hostile = |m: &Mover, s: SpaceId| {
            !m.game.is_sea(s) && (m.hostile_land(state, s) || m.defenders(state, s) > 0)
        };
        if self.combat {
            if !hostile(self, end) {
                self.errors.push(err(
                    "path",
                    format!(
                        "paratroopers and special force teams are dropped into a hostile \
                         territory, and {} is not one (JB-12, JB-20)",
                        self.sname(end)
                    ),
                ));
            }
        } else if (!cargo.is_empty() || self.carries(state, &plane_ids))
            && (self.game.is_sea(end) || hostile(self, end))
        {
            self.errors.push(err(
                "path",
                format!(
                    "an air transport with cargo lands in a friendly land territory, and {} is \
                     not one (JB-07, JB-11)",
                    self.sname(end)
                ),
            ));
        }
        air::check(self, state, origin, &planes, path, land);
        if self.errors.len() > before {
            return true;
        }
        self.relocate(state, &plane_ids, path, origin);
        self.relocate(state, &cargo_ids, path, origin);
        let mut drop_zones = Vec::new();
        if self.combat {
            // The cargo in unit id order, each on the plane of its seat:
            // dropped where the path ends or, with `drop:`, where its drop
            // says, leaving the plane there; what no drop names stays
            // aboard to the landing (JB-12).
            let mut dropped_at = dropped_at;
            for id in &cargo_ids {
                let Some(t) = state.unit(*id).map(|u| u.unit) else {
                    continue;
                };
                let seat = seats.iter().position(|s| s.0 == t);
                let plane = seat.map(|n| seats.remove(n).1);
                let zone = if drops.is_empty() {
                    Some(end)
                } else {
                    dropped_at
                        .iter()
                        .position(|d| d.0 == t)
                        .map(|n| dropped_at.remove(n).1)
                };
                if let Some(u) = state.unit_mut(*id) {
                    u.cargo_of = plane.and_then(|i| plane_ids.get(i).copied());
                    if let Some(zone) = zone.filter(|&z| z != end) {
                        u.at = zone;
                        u.cargo_of = None;
                    }
                }
                if let Some(zone) = zone {
                    state.paradropped.push(*id);
                    if !drop_zones.contains(&zone) {
                        drop_zones.push(zone);
                    }
                }
            }
        } else {
            // Cargo gets off where the plane lands (JB-11).
            for u in &mut state.units {
                if u.cargo_of.is_some_and(|p| plane_ids.contains(&p)) {
                    u.cargo_of = None;
                }
            }
        }
        events.push(Event::Moved {
            power: self.power,
            units: units.clone(),
            path: path.to_vec(),
            combat: self.combat,
        });
        if self.combat {
            // Each drop is settled in the combat phase (the landing roll),
            // in the order of the path.
            for &zone in path.iter().filter(|s| drop_zones.contains(s)) {
                self.battle(state, zone, events);
            }
            self.battle(state, end, events);
        }
        true
    }

    /// Splits the cargo an order names in the non-combat move into the
    /// units still aboard the mover's air transports in `start` since the
    /// combat move (ids, lowest first) and the rest, which boards now.
    fn aboard_named(
        &self,
        state: &GameState,
        start: SpaceId,
        cargo: &UnitList,
    ) -> (Vec<u32>, UnitList) {
        let types = self.game.unit_types();
        let mut aboard = Vec::new();
        let mut rest = UnitList::new();
        for c in cargo {
            let mut ids: Vec<u32> = state
                .units_at(start)
                .filter(|u| u.owner == self.power && u.unit == c.unit)
                .filter(|u| {
                    u.cargo_of
                        .and_then(|p| state.unit(p))
                        .is_some_and(|p| is_air_transport(&types[p.unit]))
                })
                .map(|u| u.id)
                .collect();
            ids.sort_unstable();
            ids.truncate(c.count as usize);
            let left = c.count - ids.len() as u32;
            aboard.extend(ids);
            if left > 0 {
                rest.push(UnitCount {
                    unit: c.unit,
                    count: left,
                });
            }
        }
        (aboard, rest)
    }

    /// True when one of `planes` has cargo aboard.
    fn carries(&self, state: &GameState, planes: &[u32]) -> bool {
        state
            .units
            .iter()
            .any(|u| u.cargo_of.is_some_and(|p| planes.contains(&p)))
    }

    /// Checks an order's `drop:` entries against its cargo and path (JB-12)
    /// and returns where each dropped unit goes (unit type, territory), in
    /// the order written.
    fn check_drops(
        &mut self,
        state: &GameState,
        origin: &Origin,
        cargo: &UnitList,
        path: &[SpaceId],
        drops: &[DropOff],
    ) -> Vec<(usize, SpaceId)> {
        let err = |reason: String| OrderError::new(origin, reason).field("drop");
        if drops.is_empty() {
            return Vec::new();
        }
        if !self.combat {
            self.errors.push(err(
                "units are dropped only in the combat move; in the non-combat move the cargo \
                 gets off where its air transport lands (JB-07, JB-11)"
                    .into(),
            ));
            return Vec::new();
        }
        let types = self.game.unit_types();
        let end = *path.last().expect("checked by the caller");
        let paratrooper = cargo
            .iter()
            .find(|c| types[c.unit].has(&Ability::Paradrop))
            .map(|c| types[c.unit].name.as_str());
        let mut out = Vec::new();
        for d in drops {
            let to = self.sname(d.to);
            if !path[1..].contains(&d.to) {
                self.errors.push(err(format!(
                    "{to} is not on the path: an air transport drops units into territories it \
                     enters on its way ({}) (JB-12)",
                    path[1..]
                        .iter()
                        .filter(|&&s| !self.game.is_sea(s))
                        .map(|&s| self.sname(s))
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
                continue;
            }
            if self.game.is_sea(d.to)
                || !(self.hostile_land(state, d.to) || self.defenders(state, d.to) > 0)
            {
                self.errors.push(err(format!(
                    "paratroopers and special force teams are dropped into a hostile \
                     territory, and {to} is not one (JB-12, JB-20)"
                )));
                continue;
            }
            if let Some(name) = paratrooper
                && d.to != end
            {
                self.errors.push(err(format!(
                    "an air transport carrying a {name} drops its cargo into one territory, \
                     where its path ends ({}), not into {to} (JB-12)",
                    self.sname(end)
                )));
                continue;
            }
            for c in &d.units {
                out.extend(std::iter::repeat_n((c.unit, d.to), c.count as usize));
            }
        }
        for c in drops.iter().flat_map(|d| &d.units) {
            let dropped = out.iter().filter(|d| d.0 == c.unit).count() as u32;
            let carried: u32 = cargo
                .iter()
                .filter(|k| k.unit == c.unit)
                .map(|k| k.count)
                .sum();
            if dropped > carried {
                self.errors.push(err(format!(
                    "the drops name {dropped} {}, and the order carries only {carried}",
                    types[c.unit].name
                )));
                return out;
            }
        }
        if !out.is_empty() && !drops.iter().any(|d| d.to == end) {
            self.errors.push(err(format!(
                "the path ends in {}, where nothing is dropped: an air transport's combat move \
                 ends at its last drop, and it carries what it does not drop on to its landing \
                 (JB-12)",
                self.sname(end)
            )));
        }
        out
    }
}

/// At the end of the non-combat move: cargo still aboard the mover's air
/// transports gets off where they stand (JB-11); planes that could not land
/// were lost with it.
pub(crate) fn unload_landed(mover: &Mover, state: &mut GameState) {
    if mover.game.combat_rules().air_transports.is_none() {
        return;
    }
    let types = mover.game.unit_types();
    let planes: Vec<u32> = state
        .units
        .iter()
        .filter(|u| u.owner == mover.power && is_air_transport(&types[u.unit]))
        .map(|u| u.id)
        .collect();
    for u in &mut state.units {
        if u.cargo_of.is_some_and(|p| planes.contains(&p)) {
            u.cargo_of = None;
        }
    }
}
