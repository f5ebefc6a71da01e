//! Movement: the combat move and the non-combat move, by land, sea and air,
//! transports included, with every AAE movement ruling.
//!
//! Both phases share one procedure: each order is checked against the state
//! as the earlier orders of the same message left it, and applied when it is
//! legal; every problem of every order is collected. The caller works on a
//! copy of the state and drops it when any error is returned, so a stage is
//! accepted whole or not at all.
//!
//! Orders name unit types and counts, not individual pieces. The engine
//! chooses the pieces: among the moving power's units of that type in the
//! start space that may make the move (enough movement left, not already
//! moved by an earlier order of this message, ...), the lowest ids first.
//! Transports are chosen the same way (see [`transport`]).
//!
//! The rules live in files named after the game's words: [`path`]
//! (adjacency, neutrals, canals), [`land`], [`sea`], [`air`] and
//! [`transport`]. Where the FAQ is silent or unclear, the reading taken is
//! in `docs/rules/aae.md`, section "Movement".

pub mod air;
pub(crate) mod air_transport;
pub mod land;
pub mod path;
pub mod rail;
pub mod sea;
mod supply;
pub mod transport;

use std::collections::{HashMap, HashSet};

use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
use crate::rules::orders::{DropOff, Located, MoveOrder, OrderError, Origin};
use crate::rules::research::{self};
use crate::rules::state::{GameState, Unit};
use crate::rules::vocab::Technology;
use crate::rules::vocab::{PowerId, UnitList};

/// Checks and applies `power`'s combat moves to `state`, appending what
/// happened to `events` and recording every space where a battle must be
/// fought (or an empty enemy territory taken) in `state.battles`. On error
/// `state` may be half-changed: callers work on a copy and drop it.
///
/// After the orders, ships of `power` that began the turn in a sea zone with
/// enemy ships and did not leave it stay to fight: the zone is recorded as a
/// battle (FAQ, Submarines: "must either move out during Combat Movement ...
/// or stay and attack").
pub fn combat_move(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    moves: &[Located<MoveOrder>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let mut mover = Mover::new(game, power, true);
    // The sea zones this combat move declares battles in, whatever the
    // order of the lines: a landing may count on them being won (DAAK-C
    // §3.4(g)). A zone where an order ends holding enemy ships is a battle,
    // or that order is refused and the message with it.
    mover.declared_at_sea = moves
        .iter()
        .filter_map(|o| match &o.item {
            MoveOrder::Move { path, .. } | MoveOrder::Transport { path, .. } => path.last(),
        })
        .copied()
        .filter(|&s| game.is_sea(s))
        .collect();
    mover.run(state, moves, events);
    sea::stay_and_fight(&mut mover, state, events);
    sea::check_submarine_limit(&mut mover, state);
    mover.finish()
}

/// Checks and applies `power`'s non-combat moves (aircraft landing
/// included); same contract as [`combat_move`].
///
/// After the orders, every aircraft of `power` must stand where it may end
/// the turn: a friendly territory not captured this turn, or a sea zone with
/// enough friendly carrier space. Aircraft with no such place left within
/// their range are lost (an event); the others are errors.
pub fn noncombat_move(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    moves: &[Located<MoveOrder>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    noncombat_move_after(game, state, power, moves, &[], events)
}

/// [`noncombat_move`] in a message that also carried `combat`, the combat
/// moves already applied: an error about a unit that did not move again
/// (an aircraft left without a landing) gets the line of the combat order
/// that brought it.
pub fn noncombat_move_after(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    moves: &[Located<MoveOrder>],
    combat: &[Located<MoveOrder>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let mut mover = Mover::new(game, power, false);
    for order in combat {
        if let MoveOrder::Move { units, path, .. } = &order.item
            && let Some(&end) = path.last()
        {
            let types = units.iter().map(|c| c.unit).collect();
            mover.arrived_by.push((end, types, order.origin.clone()));
        }
    }
    mover.run(state, moves, events);
    air::check_landings(&mut mover, state, events);
    air_transport::unload_landed(&mover, state);
    land::check_aa_guns(&mut mover, state);
    sea::check_submarine_limit(&mut mover, state);
    mover.finish()
}

/// A stage 2 sent with no orders at all (a player's empty message, or the
/// deadline's `pass`): nothing lands, so every aircraft of `power` that
/// stands where it may not end the turn is lost, even one that could still
/// have reached a landing.
pub fn lose_unlanded_aircraft(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let mover = Mover::new(game, power, false);
    air::lose_unlanded(&mover, state, events);
    air_transport::unload_landed(&mover, state);
}

/// Why a ship that fought a sea battle this turn does not move in the
/// non-combat move (recorded only where the rule set says so).
pub(crate) fn fought_at_sea_reason(game: &GameDef) -> String {
    format!(
        "took part in a sea battle this turn, so it may not move, load or unload in the \
         non-combat move ({})",
        game.combat_rules().fought_at_sea_rule
    )
}

/// Clears what movement records about the turn that ends: spaces moved,
/// combat moves, unloading. The turn module calls it when a power's turn
/// ends, before the next power moves; the units of `spare`, a partner in
/// an interleaved shared turn whose non-combat move is still to come, keep
/// theirs.
pub fn end_turn(game: &GameDef, state: &mut GameState, spare: Option<usize>) {
    air::set_down_allied_aircraft(game, state);
    for unit in state.units.iter_mut().filter(|u| Some(u.owner) != spare) {
        unit.moved = 0;
        unit.combat_moved = false;
        unit.unloaded_from = None;
        unit.unloaded_by = None;
        unit.unloaded_to = None;
    }
    state.taken_in_passing.clear();
    state.fought_at_sea.clear();
    state.paradropped.clear();
}

/// One phase's movement in progress: the moving power, what earlier orders
/// of the message did, and the errors found so far.
pub struct Mover<'a> {
    /// The game.
    pub(crate) game: &'a GameDef,
    /// The moving power.
    pub(crate) power: PowerId,
    /// Its side.
    pub(crate) side: usize,
    /// True in the combat move.
    pub(crate) combat: bool,
    /// Units moved by an earlier order of this message: each unit makes one
    /// move per phase, so a path cannot be cut in two to dodge a rule.
    pub(crate) used: HashSet<u32>,
    /// The order that last moved each unit, for errors found after all
    /// orders (aircraft without a landing).
    pub(crate) moved_by: HashMap<u32, Origin>,
    /// In the non-combat move of a message that also carried the combat
    /// move: where each combat order of this message ended (space, unit
    /// types, order), so an error about a unit that did not move again
    /// names the line that brought it there.
    pub(crate) arrived_by: Vec<(SpaceId, Vec<crate::rules::vocab::UnitTypeId>, Origin)>,
    /// Carrier space promised at combat move by `land:` (see [`air`]).
    pub(crate) carriers: air::CarrierBook,
    /// In the combat move: the sea zones where the message's orders end,
    /// i.e. where it declares sea battles (see [`air`], DAAK-C §3.4(g)).
    pub(crate) declared_at_sea: Vec<SpaceId>,
    /// How neutral territories are taken under the game's rule set.
    pub(crate) neutrals: crate::rules::variants::NeutralRules,
    /// Rail points used by earlier orders of this message (AAAE-30).
    pub(crate) rail_used: u32,
    /// Every error found.
    pub(crate) errors: Vec<OrderError>,
}

impl<'a> Mover<'a> {
    fn new(game: &'a GameDef, power: PowerId, combat: bool) -> Self {
        Mover {
            game,
            power,
            side: game.side_of(power),
            combat,
            used: HashSet::new(),
            moved_by: HashMap::new(),
            arrived_by: Vec::new(),
            carriers: air::CarrierBook::default(),
            declared_at_sea: Vec::new(),
            neutrals: game.rule_set().neutral_rules(game),
            rail_used: 0,
            errors: Vec::new(),
        }
    }

    fn run(
        &mut self,
        state: &mut GameState,
        moves: &[Located<MoveOrder>],
        events: &mut Vec<Event>,
    ) {
        for located in moves {
            let before = self.errors.len();
            match &located.item {
                MoveOrder::Move {
                    units, path, rail, ..
                } if *rail => rail::order(self, state, &located.origin, units, path, events),
                MoveOrder::Move {
                    units,
                    path,
                    land,
                    drops,
                    ..
                } => self.move_units(state, &located.origin, units, path, *land, drops, events),
                MoveOrder::Transport {
                    path,
                    load,
                    unload,
                    unload_units,
                    drops,
                } => transport::order(
                    self,
                    state,
                    &located.origin,
                    path,
                    load,
                    unload.map(|to| (to, unload_units.as_ref())),
                    drops,
                    events,
                ),
            }
            debug_assert!(self.errors.len() >= before);
        }
    }

    fn finish(self) -> Result<(), Vec<OrderError>> {
        if self.errors.is_empty() {
            Ok(())
        } else {
            Err(self.errors)
        }
    }

    /// The unit type of a unit.
    pub(crate) fn utype(&self, unit: &Unit) -> &'a UnitType {
        &self.game.unit_types()[unit.unit]
    }

    /// The kind of a unit type.
    pub(crate) fn kind(&self, unit_type: usize) -> UnitKind {
        self.game.unit_types()[unit_type]
            .kind
            .unwrap_or(UnitKind::Building)
    }

    /// The name of a unit type.
    pub(crate) fn uname(&self, unit_type: usize) -> &'a str {
        &self.game.unit_types()[unit_type].name
    }

    /// The name of a space.
    pub(crate) fn sname(&self, space: SpaceId) -> &'a str {
        self.game.space_name(space)
    }

    /// True for a power on the mover's side.
    pub(crate) fn friendly(&self, power: PowerId) -> bool {
        self.game.side_of(power) == self.side
    }

    /// True when the unit is an enemy unit in play: not the mover's side and
    /// not a submerged submarine (out of play until it resurfaces).
    pub(crate) fn enemy_in_play(&self, unit: &Unit) -> bool {
        !self.friendly(unit.owner) && !unit.submerged
    }

    /// Enemy units that defend a space: in play, and neither buildings nor
    /// units taken over with their territory (AA guns, industrial
    /// complexes) nor units that never fight (J Boulton's special force
    /// teams, JB-22 PROPOSAL), which do not make a territory "occupied".
    pub(crate) fn defenders(&self, state: &GameState, space: SpaceId) -> usize {
        state
            .units_at(space)
            .filter(|u| self.enemy_in_play(u))
            .filter(|u| {
                let t = self.utype(u);
                t.kind != Some(UnitKind::Building)
                    && !t.has(&Ability::CapturedWithTerritory)
                    && !t.has(&Ability::NoCombat)
            })
            .count()
    }

    /// True when every unit of the order is a special force team under
    /// rules that play them (J Boulton JB-22): they enter and stand in
    /// enemy land without a battle.
    pub(crate) fn teams_only(&self, units: &UnitList) -> bool {
        let rules = self.game.combat_rules();
        !units.is_empty()
            && units.iter().all(|c| {
                crate::rules::combat::is_special_force_team(&rules, &self.game.unit_types()[c.unit])
            })
    }

    /// Enemy naval units in play in a sea zone (submarines included,
    /// submerged ones excluded).
    pub(crate) fn enemy_ships(&self, state: &GameState, space: SpaceId) -> usize {
        state
            .units_at(space)
            .filter(|u| self.enemy_in_play(u) && self.utype(u).kind == Some(UnitKind::Sea))
            .count()
    }

    /// Enemy naval units in play in a sea zone that stop ships of the
    /// given types entering it, as the rule set says
    /// ([`ShipBlocking`](crate::rules::variants::ShipBlocking)): with
    /// `SurfaceWarships`, submarines and transports never stop anyone and
    /// moving submarines stop only for destroyers; with
    /// `SubmarinesSlipThrough` (Advanced AAE) submarines never stop anyone
    /// and nothing stops them.
    pub(crate) fn blocking_ships(
        &self,
        state: &GameState,
        space: SpaceId,
        moving: &[usize],
    ) -> usize {
        use crate::rules::variants::ShipBlocking;
        match self.game.rule_set().ships_blocked_by() {
            ShipBlocking::AnyNavalUnit => self.enemy_ships(state, space),
            ShipBlocking::SurfaceWarships => {
                let types = self.game.unit_types();
                let all_subs =
                    !moving.is_empty() && moving.iter().all(|&t| types[t].has(&Ability::Submerge));
                state
                    .units_at(space)
                    .filter(|u| self.enemy_in_play(u))
                    .map(|u| self.utype(u))
                    .filter(|t| t.kind == Some(UnitKind::Sea))
                    .filter(|t| {
                        if all_subs {
                            t.has(&Ability::AntiSubmarine)
                        } else {
                            t.is_surface_warship()
                        }
                    })
                    .count()
            }
            ShipBlocking::SubmarinesSlipThrough => {
                let types = self.game.unit_types();
                if !moving.is_empty() && moving.iter().all(|&t| types[t].has(&Ability::Submerge)) {
                    return 0;
                }
                state
                    .units_at(space)
                    .filter(|u| self.enemy_in_play(u))
                    .map(|u| self.utype(u))
                    .filter(|t| t.kind == Some(UnitKind::Sea) && !t.has(&Ability::Submerge))
                    .count()
            }
        }
    }

    /// True for a land territory that is not the mover's side's: enemy
    /// controlled, or an unowned territory that may be entered.
    pub(crate) fn hostile_land(&self, state: &GameState, space: SpaceId) -> bool {
        !self.game.is_sea(space) && state.owner[space.0].is_none_or(|o| !self.friendly(o))
    }

    /// True for a neutral territory: land that no power controls (and that
    /// is not impassable, or nothing could enter it).
    pub(crate) fn neutral(&self, state: &GameState, space: SpaceId) -> bool {
        !self.game.is_sea(space) && state.owner[space.0].is_none()
    }

    /// True for a neutral that aircraft may not cross now: under rules where
    /// aircraft take neutrals by flying over them in the combat move
    /// (DAAK-C §2.7c), any neutral outside the combat move that is not being
    /// taken this turn.
    /// Under rules that forbid overflights (Advanced AAE AAAE-21, option
    /// `neutral_overflight: forbid`), any neutral not under attack.
    pub(crate) fn neutral_closed_to_air(&self, state: &GameState, space: SpaceId) -> bool {
        (self.neutrals.taken_by_overflight || self.neutrals.overflight_forbidden)
            && self.neutral(state, space)
            && !state.taken_in_passing.contains(&space)
            && !state.battles.contains(&space)
    }

    /// True for a convoy zone controlled by the other side.
    pub(crate) fn enemy_convoy(&self, state: &GameState, space: SpaceId) -> bool {
        self.game
            .sea_zone(space)
            .is_some_and(|z| z.convoy.is_some())
            && state.owner[space.0].is_some_and(|o| !self.friendly(o))
    }

    /// Records a pending battle (once) and reports it.
    pub(crate) fn battle(&self, state: &mut GameState, space: SpaceId, events: &mut Vec<Event>) {
        if !state.battles.contains(&space) {
            state.battles.push(space);
            events.push(Event::BattlePending { space });
        }
    }

    /// Records a space taken in passing (blitz, convoy sailed through).
    pub(crate) fn taken_in_passing(
        &self,
        state: &mut GameState,
        space: SpaceId,
        events: &mut Vec<Event>,
    ) {
        self.battle(state, space, events);
        if !state.taken_in_passing.contains(&space) {
            state.taken_in_passing.push(space);
        }
    }

    /// Chooses `count` units of `unit_type` in `space` that may move `steps`
    /// spaces now: the lowest ids among the eligible. `Err` names the reason
    /// in the game's words.
    pub(crate) fn pick(
        &self,
        state: &GameState,
        space: SpaceId,
        unit_type: usize,
        count: u32,
        steps: usize,
    ) -> Result<Vec<u32>, String> {
        let name = self.uname(unit_type);
        let there: Vec<&Unit> = state
            .units_at(space)
            .filter(|u| u.owner == self.power && u.unit == unit_type && u.cargo_of.is_none())
            .collect();
        let power = &self.game.powers()[self.power].name;
        if there.is_empty() {
            return Err(format!("{power} has no {name} in {}", self.sname(space)));
        }
        if (there.len() as u32) < count {
            return Err(format!(
                "{power} has only {} {name} in {}",
                there.len(),
                self.sname(space)
            ));
        }
        let mut chosen = Vec::new();
        let mut first_reason = None;
        for unit in there {
            match self.why_not(state, unit, steps) {
                None => chosen.push(unit.id),
                Some(reason) => {
                    first_reason.get_or_insert(reason);
                }
            }
            if chosen.len() as u32 == count {
                return Ok(chosen);
            }
        }
        let reason = first_reason.expect("some unit was not eligible");
        Err(if chosen.is_empty() {
            format!("{name} in {} {reason}", self.sname(space))
        } else {
            format!(
                "only {} of the {name} in {} can make this move; the others {}",
                chosen.len(),
                self.sname(space),
                plural_reason(&reason)
            )
        })
    }

    /// A unit's movement points, with its owner's Long-Range Aircraft.
    pub(crate) fn movement(&self, state: &GameState, unit: &Unit) -> usize {
        let t = self.utype(unit);
        t.movement.unwrap_or(0) as usize + research::extra_movement(self.game, state, unit.owner, t)
    }

    /// Advanced AAE's one-space blitz (AAAE-31): armor that moved exactly
    /// one space in the combat move and stands in a territory its side took
    /// this turn (so it won there and did not retreat: a retreat goes back
    /// to a space held since the start of the turn) may move again in the
    /// non-combat move, with the one space its movement leaves it.
    fn one_space_blitz(&self, state: &GameState, unit: &Unit) -> bool {
        self.game.combat_rules().one_space_blitz
            && self.utype(unit).has(&Ability::Blitz)
            && unit.moved == 1
            && unit.unloaded_from.is_none()
            && unit.cargo_of.is_none()
            && state.captured_this_turn.contains(&unit.at)
    }

    /// Why a unit may not move `steps` spaces now, or `None` when it may.
    fn why_not(&self, state: &GameState, unit: &Unit, steps: usize) -> Option<String> {
        let t = self.utype(unit);
        let kind = t.kind.unwrap_or(UnitKind::Building);
        let movement = self.movement(state, unit);
        if kind == UnitKind::Building || movement == 0 {
            return Some("cannot move".into());
        }
        if unit.unloaded_from.is_some() {
            return Some("was unloaded from a transport this turn and may not move further".into());
        }
        if self.used.contains(&unit.id) {
            return Some("has already moved in an earlier order of this message".into());
        }
        if !self.combat
            && unit.combat_moved
            && kind != UnitKind::Air
            && !self.one_space_blitz(state, unit)
        {
            return Some(if self.game.combat_rules().one_space_blitz {
                "moved in the combat move and may not move again in the non-combat move (only \
                 armor that moved one space into a territory it took moves one more, AAAE-31)"
                    .into()
            } else {
                "moved in the combat move and may not move again in the non-combat move".into()
            });
        }
        if !self.combat && unit.combat_moved && kind != UnitKind::Air && steps > 1 {
            return Some(
                "moved one space in the combat move and may move only one more space in the \
                 non-combat move (AAAE-31)"
                    .into(),
            );
        }
        if unit.submerged {
            return Some("is submerged".into());
        }
        if !self.combat
            && unit.moved == 0
            && unit.cargo_of.is_none()
            && t.has(&Ability::CapturedWithTerritory)
            && state.captured_this_turn.contains(&unit.at)
            && self
                .game
                .rule_set()
                .combat_rules(self.game)
                .captured_aa_guns_stay
        {
            return Some(
                "was captured with its territory this turn and may not move out of it in the \
                 non-combat move (DAAK-C §4.4(b))"
                    .into(),
            );
        }
        if !self.combat && state.fought_at_sea.contains(&unit.id) {
            return Some(fought_at_sea_reason(self.game));
        }
        let left = movement.saturating_sub(unit.moved as usize);
        if left == 0 {
            return Some("has no movement left".into());
        }
        // Advanced AAE AAAE-36: a capped share of an aircraft's movement in
        // the combat move, every space flown counted.
        if self.combat
            && kind == UnitKind::Air
            && let Some(range) = self.game.combat_rules().combat_move_air_range
        {
            let (cap, what) = if t.has(&Ability::StrategicBomber) {
                (range.bomber, "a bomber")
            } else {
                (range.fighter, "a fighter")
            };
            if usize::from(unit.moved) + steps > usize::from(cap) {
                return Some(format!(
                    "may fly at most {cap} spaces in the combat move as {what} (AAAE-36: the \
                     rest of its movement is for the non-combat move), and the path enters \
                     {steps}"
                ));
            }
        }
        if steps > left {
            return Some(format!(
                "has only {left} space{} of movement left, and the path enters {steps}",
                if left == 1 { "" } else { "s" }
            ));
        }
        None
    }

    /// Moves units (and the cargo they carry) along `path`, updating their
    /// movement, and reports it.
    pub(crate) fn relocate(
        &mut self,
        state: &mut GameState,
        ids: &[u32],
        path: &[SpaceId],
        origin: &Origin,
    ) {
        let end = *path.last().expect("a path has a start");
        let steps = (path.len() - 1) as u8;
        for &id in ids {
            self.used.insert(id);
            self.moved_by.insert(id, origin.clone());
            let unit = state.unit_mut(id).expect("picked from the state");
            unit.at = end;
            unit.moved = unit.moved.saturating_add(steps);
            if self.combat {
                unit.combat_moved = true;
            }
        }
        for unit in &mut state.units {
            if unit.cargo_of.is_some_and(|t| ids.contains(&t)) {
                unit.at = end;
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn move_units(
        &mut self,
        state: &mut GameState,
        origin: &Origin,
        units: &UnitList,
        path: &[SpaceId],
        land: Option<SpaceId>,
        drops: &[DropOff],
        events: &mut Vec<Event>,
    ) {
        let before = self.errors.len();
        let err = |reason: String| OrderError::new(origin, reason).field("path");
        if path.len() < 2 {
            self.errors.push(err(
                "the path names only the start; name every space entered".into(),
            ));
            return;
        }
        if self.paradrop(state, origin, units, path, land, events)
            || self.air_lift(state, origin, units, path, land, drops, events)
        {
            return;
        }
        if !drops.is_empty() {
            self.errors.push(
                OrderError::new(
                    origin,
                    "only air transports drop units along their path (J Boulton JB-12); leave \
                     out drop:",
                )
                .field("drop"),
            );
            return;
        }
        path::check(self, state, origin, path, units);
        let start = path[0];
        let steps = path.len() - 1;
        let mut ids = Vec::new();
        // Improved Mechanized Infantry: each armor in the order takes one
        // infantry a space further than it could go alone.
        let mut mechanized = research::mechanized_infantry(self.game, state, self.power, units);
        for count in units {
            let t = &self.game.unit_types()[count.unit];
            let steps = if steps > 1 && count.count <= mechanized && research::is_infantry(t) {
                mechanized -= count.count;
                steps - 1
            } else {
                steps
            };
            match self.pick(state, start, count.unit, count.count, steps) {
                Ok(mut picked) => ids.append(&mut picked),
                Err(reason) => self
                    .errors
                    .push(OrderError::new(origin, reason).field("units")),
            }
        }
        let kinds: HashSet<UnitKind> = units.iter().map(|c| self.kind(c.unit)).collect();
        if kinds.contains(&UnitKind::Land) {
            land::check(self, state, origin, units, path);
        }
        if kinds.contains(&UnitKind::Sea) {
            sea::check(self, state, origin, units, path);
        }
        supply::check(self, state, origin, &ids, path);
        if kinds.contains(&UnitKind::Air) {
            air::check(self, state, origin, units, path, land);
        } else if land.is_some() {
            self.errors.push(
                OrderError::new(origin, "only aircraft name a landing with `land:`").field("land"),
            );
        }
        if self.errors.len() > before {
            return;
        }
        let riders = if kinds.contains(&UnitKind::Sea) {
            air::board_allied_aircraft(self, state, &ids, start)
        } else {
            None
        };
        self.relocate(state, &ids, path, origin);
        events.push(Event::Moved {
            power: self.power,
            units: units.clone(),
            path: path.to_vec(),
            combat: self.combat,
        });
        events.extend(riders);
        if self.combat {
            let end = *path.last().expect("checked");
            if kinds.contains(&UnitKind::Land) {
                land::after_combat_move(self, state, path, units, events);
            }
            if kinds.contains(&UnitKind::Sea) {
                sea::after_combat_move(self, state, path, units, events);
            }
            if kinds == HashSet::from([UnitKind::Air]) && self.defenders(state, end) > 0 {
                self.battle(state, end, events);
            }
            // DAAK-C §2.7(a): aircraft take the neutrals they fly over.
            if kinds.contains(&UnitKind::Air) && self.neutrals.taken_by_overflight {
                for &space in &path[1..path.len() - 1] {
                    if self.neutral(state, space) {
                        self.taken_in_passing(state, space, events);
                    }
                }
            }
        }
    }
}

impl Mover<'_> {
    /// Paratroopers (research, errata p.12): with the development, an order
    /// of bombers and infantry only, no more infantry than bombers, is a
    /// paradrop in the combat move. Both start together; each bomber carries
    /// one infantry (its cargo until the drop after AA fire) and stops in the
    /// first hostile territory it enters, which is where the path must end;
    /// hostility is as at the start of the move, so a territory a blitz takes
    /// this turn still stops it (FAQ, Weapons Development). No paradrop in
    /// the non-combat move (FAQ). Returns `true` when the order was one
    /// (applied, or its errors recorded).
    fn paradrop(
        &mut self,
        state: &mut GameState,
        origin: &Origin,
        units: &UnitList,
        path: &[SpaceId],
        land: Option<SpaceId>,
        events: &mut Vec<Event>,
    ) -> bool {
        if !state.has_technology(self.power, Technology::Paratroopers)
            || !research::bombers_with_infantry(self.game, units)
        {
            return false;
        }
        let err = |reason: String| OrderError::new(origin, reason).field("path");
        if !self.combat {
            if path.len() > 2 {
                self.errors.push(err(
                    "bombers carry paratroopers only in the combat move (FAQ, Weapons \
                     Development): infantry move on their own in the non-combat move"
                        .into(),
                ));
                return true;
            }
            return false;
        }
        let types = self.game.unit_types();
        let (bombers, infantry): (UnitList, UnitList) = units
            .iter()
            .partition(|c| research::is_bomber(&types[c.unit]));
        let count = |l: &UnitList| l.iter().map(|c| c.count).sum::<u32>();
        if count(&infantry) > count(&bombers) {
            self.errors.push(
                OrderError::new(
                    origin,
                    format!(
                        "each bomber carries one paratrooper: {} infantry, {} bombers",
                        count(&infantry),
                        count(&bombers)
                    ),
                )
                .field("units"),
            );
            return true;
        }
        let before = self.errors.len();
        path::check(self, state, origin, path, &bombers);
        let start = path[0];
        let steps = path.len() - 1;
        let mut bomber_ids = Vec::new();
        let mut infantry_ids = Vec::new();
        for c in &bombers {
            match self.pick(state, start, c.unit, c.count, steps) {
                Ok(mut ids) => bomber_ids.append(&mut ids),
                Err(reason) => self
                    .errors
                    .push(OrderError::new(origin, reason).field("units")),
            }
        }
        for c in &infantry {
            // Carried, the infantry only needs to be free to move this turn.
            match self.pick(state, start, c.unit, c.count, 1) {
                Ok(mut ids) => infantry_ids.append(&mut ids),
                Err(reason) => self
                    .errors
                    .push(OrderError::new(origin, reason).field("units")),
            }
        }
        let hostile = |m: &Mover, s: SpaceId| {
            !m.game.is_sea(s) && (m.hostile_land(state, s) || m.defenders(state, s) > 0)
        };
        let last = path.len() - 1;
        if let Some(&stop) = path[1..last].iter().find(|&&s| hostile(self, s)) {
            self.errors.push(err(format!(
                "bombers carrying paratroopers stop in the first hostile territory they enter, \
                 {} (errata p.12)",
                self.sname(stop)
            )));
        } else if !hostile(self, path[last]) {
            self.errors.push(err(format!(
                "paratroopers are dropped into a hostile territory, and {} is not one",
                self.sname(path[last])
            )));
        }
        air::check(self, state, origin, &bombers, path, land);
        if self.errors.len() > before {
            return true;
        }
        self.relocate(state, &bomber_ids, path, origin);
        self.relocate(state, &infantry_ids, path, origin);
        for (inf, bomber) in infantry_ids.iter().zip(&bomber_ids) {
            if let Some(u) = state.unit_mut(*inf) {
                u.cargo_of = Some(*bomber);
            }
        }
        events.push(Event::Moved {
            power: self.power,
            units: units.clone(),
            path: path.to_vec(),
            combat: true,
        });
        land::after_combat_move(self, state, path, units, events);
        true
    }
}

/// "has no movement left" -> "have no movement left", for the sentence
/// about the other units of a group.
fn plural_reason(reason: &str) -> String {
    reason
        .replacen("has ", "have ", 1)
        .replacen("was ", "were ", 1)
        .replacen("is ", "are ", 1)
}
