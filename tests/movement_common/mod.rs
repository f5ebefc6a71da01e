//! Shared by the movement tests: an AAE board with no units, helpers to put
//! units on it, and hand-built orders.

#![allow(dead_code)]

use std::path::Path;

use adjutant::rules::events::Event;
use adjutant::rules::movement::{combat_move, noncombat_move};
use adjutant::rules::orders::{
    Load, Located, MoveOrder, OrderError, Origin, PowerId, UnitCount, UnitList,
};
use adjutant::rules::state::{GameState, Phase};
use adjutant::rules::{GameDef, SpaceId, load_dir};

/// The AAE game with an empty board (setup owners kept), Germany to move.
pub struct Board {
    pub game: GameDef,
    pub state: GameState,
}

impl Board {
    pub fn new() -> Board {
        let game = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap();
        let mut state = GameState::initial(&game);
        state.units.clear();
        state.phase = Phase::CombatMove;
        Board { game, state }
    }

    pub fn s(&self, name: &str) -> SpaceId {
        self.game
            .space(name)
            .unwrap_or_else(|| panic!("no space {name}"))
    }

    pub fn p(&self, name: &str) -> PowerId {
        self.game
            .power(name)
            .unwrap_or_else(|| panic!("no power {name}"))
    }

    pub fn u(&self, name: &str) -> usize {
        let t = self
            .game
            .unit_type(name)
            .unwrap_or_else(|| panic!("no unit {name}"));
        self.game
            .unit_types()
            .iter()
            .position(|x| std::ptr::eq(x, t))
            .unwrap()
    }

    /// Puts `n` units on the board; land units in a sea zone board the
    /// power's first transport there.
    pub fn put(&mut self, space: &str, power: &str, unit: &str, n: u32) -> Vec<u32> {
        let (s, p, u) = (self.s(space), self.p(power), self.u(unit));
        let transport = self.u("transport");
        let mut ids = Vec::new();
        for _ in 0..n {
            let id = self.state.add_unit(u, p, s);
            if self.game.is_sea(s) && self.game.unit_types()[u].transport_cost.is_some() {
                let t = self
                    .state
                    .units
                    .iter()
                    .find(|x| x.at == s && x.owner == p && x.unit == transport)
                    .map(|x| x.id)
                    .expect("a transport for the cargo");
                self.state.unit_mut(id).unwrap().cargo_of = Some(t);
            }
            ids.push(id);
        }
        ids
    }

    pub fn own(&mut self, space: &str, power: &str) {
        let (s, p) = (self.s(space), self.p(power));
        self.state.owner[s.0] = Some(p);
    }

    /// Units of `power` of type `unit` in `space` (cargo included).
    pub fn count(&self, space: &str, power: &str, unit: &str) -> usize {
        let (s, p, u) = (self.s(space), self.p(power), self.u(unit));
        self.state
            .units_at(s)
            .filter(|x| x.owner == p && x.unit == u)
            .count()
    }

    pub fn battles(&self) -> Vec<&str> {
        let mut b: Vec<&str> = self
            .state
            .battles
            .iter()
            .map(|s| self.game.space_name(*s))
            .collect();
        b.sort();
        b
    }

    pub fn list(&self, units: &str) -> UnitList {
        units
            .split(',')
            .map(|part| {
                let part = part.trim();
                let (n, name) = part.split_once(' ').unwrap();
                UnitCount {
                    unit: self.u(name),
                    count: n.parse().unwrap(),
                }
            })
            .collect()
    }

    fn path(&self, path: &str) -> Vec<SpaceId> {
        path.split("->").map(|s| self.s(s.trim())).collect()
    }

    /// `mv("2 infantry, 1 armor", "Poland -> Baltic States", None)`.
    pub fn mv(&self, units: &str, path: &str, land: Option<&str>) -> MoveOrder {
        MoveOrder::Move {
            units: self.list(units),
            path: self.path(path),
            land: land.map(|l| self.s(l)),
            rail: false,
            drops: Vec::new(),
        }
    }

    /// `tr("Baltic Sea", &[("2 infantry", "Germany", None)], Some("Finland"))`.
    pub fn tr(
        &self,
        path: &str,
        loads: &[(&str, &str, Option<&str>)],
        unload: Option<&str>,
    ) -> MoveOrder {
        MoveOrder::Transport {
            path: self.path(path),
            load: loads
                .iter()
                .map(|(units, from, at)| Load {
                    units: self.list(units),
                    from: self.s(from),
                    at: at.map(|a| self.s(a)),
                })
                .collect(),
            unload: unload.map(|u| self.s(u)),
            unload_units: None,
            drops: Vec::new(),
        }
    }

    fn locate(section: &'static str, orders: Vec<MoveOrder>) -> Vec<Located<MoveOrder>> {
        orders
            .into_iter()
            .enumerate()
            .map(|(i, item)| Located {
                item,
                origin: Origin {
                    section,
                    index: i + 1,
                    line: None,
                    text: String::new(),
                },
            })
            .collect()
    }

    /// Runs a combat move for `power` on a copy; keeps the copy when legal.
    pub fn combat(
        &mut self,
        power: &str,
        orders: Vec<MoveOrder>,
    ) -> Result<Vec<Event>, Vec<OrderError>> {
        let p = self.p(power);
        let mut copy = self.state.clone();
        let mut events = Vec::new();
        combat_move(
            &self.game,
            &mut copy,
            p,
            &Self::locate("combat", orders),
            &mut events,
        )?;
        self.state = copy;
        Ok(events)
    }

    /// Runs a non-combat move for `power` on a copy; keeps it when legal.
    pub fn noncombat(
        &mut self,
        power: &str,
        orders: Vec<MoveOrder>,
    ) -> Result<Vec<Event>, Vec<OrderError>> {
        let p = self.p(power);
        let mut copy = self.state.clone();
        let mut events = Vec::new();
        noncombat_move(
            &self.game,
            &mut copy,
            p,
            &Self::locate("noncombat", orders),
            &mut events,
        )?;
        self.state = copy;
        Ok(events)
    }

    /// Stands in for the combat phase: clears the pending battles, removes
    /// the defenders of `won` spaces and gives those territories to `power`.
    pub fn win(&mut self, power: &str, won: &[&str]) {
        let p = self.p(power);
        let side = self.game.side_of(p);
        for name in won {
            let s = self.s(name);
            let game = &self.game;
            self.state
                .units
                .retain(|u| !(u.at == s && game.side_of(u.owner) != side));
            if !self.game.is_sea(s) {
                self.state.owner[s.0] = Some(p);
                self.state.captured_this_turn.push(s);
            }
        }
        self.state.battles.clear();
    }
}

/// Asserts a rejection with one error whose reason contains every part.
pub fn rejected(result: Result<Vec<Event>, Vec<OrderError>>, index: usize, parts: &[&str]) {
    let errors = match result {
        Ok(_) => panic!("accepted; expected an error containing {parts:?}"),
        Err(e) => e,
    };
    assert!(
        errors
            .iter()
            .any(|e| e.origin.index == index && parts.iter().all(|p| e.reason.contains(p))),
        "no error for order {index} containing {parts:?}: {errors:#?}"
    );
}
