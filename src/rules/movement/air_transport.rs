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
//! it in the non-combat move (JB-15). An air transport never attacks
//! (JB-07 PROPOSAL), so it makes no combat move without a paratrooper.

use super::{Mover, air, path, supply};
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::vocab::UnitList;

/// An aircraft that carries cargo (J Boulton's air transport).
pub(crate) fn is_air_transport(t: &UnitType) -> bool {
    t.kind == Some(UnitKind::Air) && t.transport_capacity.is_some()
}

impl Mover<'_> {
    /// An order with air transports: checked and applied here (returns
    /// `true`, errors recorded) when the rule set has air transports.
    pub(crate) fn air_lift(
        &mut self,
        state: &mut GameState,
        origin: &Origin,
        units: &UnitList,
        path: &[SpaceId],
        land: Option<SpaceId>,
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
        if cargo.is_empty() && self.combat {
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
        } else if !cargo.is_empty() && (self.game.is_sea(end) || hostile(self, end)) {
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
        if self.combat {
            // The dropped units in unit id order, each on the plane of its
            // seat.
            for id in &cargo_ids {
                let Some(t) = state.unit(*id).map(|u| u.unit) else {
                    continue;
                };
                let seat = seats.iter().position(|s| s.0 == t);
                let plane = seat.map(|n| seats.remove(n).1);
                if let Some(u) = state.unit_mut(*id) {
                    u.cargo_of = plane.and_then(|i| plane_ids.get(i).copied());
                }
                state.paradropped.push(*id);
            }
        }
        events.push(Event::Moved {
            power: self.power,
            units: units.clone(),
            path: path.to_vec(),
            combat: self.combat,
        });
        if self.combat {
            self.battle(state, end, events);
        }
        true
    }
}
