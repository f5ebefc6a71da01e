//! The position of a game at a moment: who holds what, which units stand
//! where, whose turn and which phase.
//!
//! A state is a plain value. The engine never changes one in place while
//! checking orders: a stage is applied to a copy and the copy is kept only
//! when every order of the stage was legal.

use super::orders::StandingOrders;

use super::{GameDef, SpaceId};
use crate::rules::vocab::Technology;
use crate::rules::vocab::{PowerId, UnitList, UnitTypeId};

/// The phases of a power's turn, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Phase {
    /// Before round 1: the sides that won setup money in a bid buy units
    /// with it and place them, their powers in turn order
    /// (`rules::bid_placement`; a match setting, `docs/league.md`).
    BidPlacement,
    /// Buy units (stage 1 of the turn by mail).
    Purchase,
    /// Move into battles (stage 1).
    CombatMove,
    /// Resolve battles (stage 1; the AAE combat issue fills it in).
    Combat,
    /// Move units that did not fight, land aircraft (stage 2).
    NoncombatMove,
    /// Place purchased units (stage 2).
    Place,
    /// End of turn: resurface, repair, collect income (stage 2).
    EndTurn,
}

impl Phase {
    /// The mail stage this phase belongs to, as replies and reports name
    /// it to the players.
    pub fn stage_name(self) -> &'static str {
        match self {
            Phase::BidPlacement => "the bid placement before round 1",
            Phase::Purchase | Phase::CombatMove => "stage 1 (purchase, combat moves, battle plans)",
            Phase::Combat => "combat",
            Phase::NoncombatMove | Phase::Place => {
                "stage 2 (non-combat moves, take-overs, placement)"
            }
            Phase::EndTurn => "end of turn",
        }
    }

    /// The phase's name in the game's words.
    pub fn name(self) -> &'static str {
        match self {
            Phase::BidPlacement => "bid placement",
            Phase::Purchase => "purchase",
            Phase::CombatMove => "combat move",
            Phase::Combat => "combat",
            Phase::NoncombatMove => "non-combat move",
            Phase::Place => "place",
            Phase::EndTurn => "end of turn",
        }
    }
}

/// One unit on the board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Stable within a game: never reused.
    pub id: u32,
    /// Its type.
    pub unit: UnitTypeId,
    /// The power it belongs to.
    pub owner: PowerId,
    /// Where it stands (for cargo: the transport's sea zone).
    pub at: SpaceId,
    /// Spaces moved this turn.
    pub moved: u8,
    /// It moved in this turn's combat move (so it may not move again in the
    /// non-combat move, aircraft landing aside).
    pub combat_moved: bool,
    /// Hits taken and not yet repaired (battleships).
    pub hits: u8,
    /// The transport (unit id) carrying it.
    pub cargo_of: Option<u32>,
    /// A submerged submarine.
    pub submerged: bool,
    // movement: the sea zone a land unit was unloaded from this turn. It may
    // not move again this turn (AAE FAQ), and in a combat move it makes the
    // unit part of an amphibious assault (no retreat for land units).
    /// The sea zone this land unit was unloaded from this turn, if any.
    pub unloaded_from: Option<SpaceId>,
    // movement: the transport (unit id) that unloaded this unit this turn,
    // so that combat can tell whose cargo reached the shore.
    /// The transport that unloaded this unit this turn, if any.
    pub unloaded_by: Option<u32>,
    // movement: for a transport, the territory it unloaded into this turn. A
    // transport unloads into one territory only and may not move or load
    // after unloading (AAE FAQ).
    /// For a transport: the territory it unloaded into this turn.
    pub unloaded_to: Option<SpaceId>,
}

/// The whole position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameState {
    /// The round, from 1.
    pub round: u32,
    /// Index into [`GameDef::turn_order`] of the power whose turn it is.
    pub turn: usize,
    /// The phase that the next orders of that power start at.
    pub phase: Phase,
    /// Controller of every space by [`SpaceId`]: land territories, and convoy
    /// zones. `None` for neutrals and for sea zones without a convoy.
    pub owner: Vec<Option<PowerId>>,
    /// Each power's treasury in IPCs.
    pub ipcs: Vec<u32>,
    /// Every unit on the board, in id order.
    pub units: Vec<Unit>,
    /// The next unit id to give out.
    pub next_unit: u32,
    /// Units bought this turn and not yet placed.
    pub purchased: UnitList,
    // production: units a power could not mobilize for lack of production
    // capacity, kept for a later turn where the rule set allows it
    // (Anniversary FAQ); lost with the capital.
    /// Units each power holds back in its mobilization zone, by power.
    pub held: Vec<UnitList>,
    /// Territories that changed hands this turn (aircraft may not land there).
    pub captured_this_turn: Vec<SpaceId>,
    /// Spaces where a battle waits to be fought (after the combat move).
    pub battles: Vec<SpaceId>,
    // movement: spaces the moving power takes without leaving a unit there:
    // empty enemy territories that armor blitzed through, and enemy convoy
    // zones a warship sailed through. Each is also in `battles`; the turn
    // module changes their control after the combat phase.
    /// Spaces taken in passing this turn (blitz, convoy zones sailed through).
    pub taken_in_passing: Vec<SpaceId>,
    // economy: progress toward a victory that needs a position held for a
    // complete round (AAE: an enemy capital together with one's own).
    /// Victory conditions that held at the end of some turn and still hold.
    pub holds: Vec<Hold>,
    // economy: set once a side has won; no more orders are accepted.
    /// The side (index into `game.yaml`'s sides) that has won, if any.
    pub winner: Option<usize>,
    /// Each power's standing orders (how it defends when it cannot be
    /// asked), by power; set by a `standing:` message at any time.
    pub standing: Vec<StandingOrders>,
    /// Developments each power has gained by research, by power, in the
    /// order gained.
    pub technologies: Vec<Vec<Technology>>,
    /// Researcher tokens each power holds (kept until a breakthrough, lost
    /// with the capital), by power.
    pub research_tokens: Vec<u32>,
    // combat: damage markers on industrial complexes (Anniversary: strategic
    // bombing and rockets damage the complex instead of taking IPCs). Kept
    // per territory, not on the unit, so end-of-turn repairs of battleships
    // never clear it and it stays with the complex when the territory
    // changes hands.
    /// Damage on the industrial complex of each space, by [`SpaceId`]
    /// (0 = undamaged).
    pub factory_damage: Vec<u32>,
    // research: IPCs the current power's War Bonds die gave in stage 1, paid
    // at its Collect Income (stage 2 has no dice).
    pub war_bonds: u32,
    // combat: the moving power's ships that took part in a sea battle this
    // turn, where the rule set keeps them (and their cargo) from moving in
    // the non-combat move (Anniversary, KQ-4); cleared when the turn ends.
    /// Ships of the moving power that fought a sea battle this turn (unit
    /// ids), recorded only where the rule set keeps them from moving after
    /// it ([`CombatRules::sea_battle_ends_movement`](crate::rules::variants::CombatRules::sea_battle_ends_movement)).
    pub fought_at_sea: Vec<u32>,
    // turn: the turn two powers share when the rule set interleaves it
    // (Anniversary, KQ-1: the United States and China fight one after the
    // other, then both move and mobilize).
    /// The power of a shared turn whose stage 2 waits while the other
    /// power plays, with what it keeps meanwhile; `None` outside one.
    pub shared_turn: Option<SharedTurn>,
    // J Boulton supply (JB-39, JB-40): the moving power's units that stood
    // in an isolated territory when its turn began; they attack at half
    // value, do not blitz and (aircraft) make no combat move. Filled by the
    // rule set's start of turn, cleared at its end; empty in every other
    // rule set.
    /// Units of the moving power out of supply this turn (unit ids).
    pub isolated: Vec<u32>,
    // combat: battleships damaged under the J Boulton damage table (JB-41
    // to JB-44), with their repair in progress; empty in every other rule
    // set, where battleships are repaired free at the end of the turn.
    /// Damaged battleships and their repair.
    pub ship_damage: Vec<ShipDamage>,
    // movement: J Boulton paratroopers (JB-16..18) dropped by air transports
    // in this turn's combat move; they take the landing roll and attack at 2
    // in the battle they were dropped into. Cleared at the end of the turn;
    // empty in every other rule set.
    /// Units paradropped this turn (unit ids).
    pub paradropped: Vec<u32>,
    // combat: J Boulton Aversion (JB-35): the moving power's units an enemy
    // special force team averted that stayed where they were; they roll in
    // no battle this turn. Set and cleared within the combat phase of one
    // stage, so no position between stages holds any.
    /// Units that roll in no battle this turn (unit ids).
    pub averted: Vec<u32>,
    // bid placement: the IPCs each side may still spend on units placed
    // before round 1 (`rules::bid_placement`); empty outside that stage.
    /// Setup money left to each side (index into `game.yaml`'s sides) in
    /// the bid placement stage; empty at any other time.
    pub bid_money: Vec<u32>,
}

/// A battleship's damage under the J Boulton damage table
/// ([`crate::rules::variants::CombatRules::battleship_damage`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShipDamage {
    /// The ship (unit id).
    pub unit: u32,
    /// Heavy damage (attack and defence 2; repaired for IPCs); light
    /// damage otherwise (3; repaired after a turn at a friendly coast).
    pub heavy: bool,
    /// The friendly coast where it stood at the end of its owner's last
    /// turn, which starts the repair.
    pub docked_at: Option<SpaceId>,
    /// Heavy damage: the repair cost rolled at the coast, until paid or the
    /// ship leaves.
    pub repair_cost: Option<u32>,
    /// Heavy damage: the cost is paid; the ship is repaired at the start of
    /// the non-combat move and does not move in the combat move.
    pub repair_paid: bool,
}

/// One power's part of a shared turn set aside while its partner plays
/// ([`GameState::shared_turn`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SharedTurn {
    /// The power whose stage 2 is still to come.
    pub waiting: PowerId,
    /// Its units to mobilize.
    pub purchased: UnitList,
    /// Its War Bonds IPCs rolled in stage 1, paid at its income.
    pub war_bonds: u32,
}

// economy: a victory condition being held, for `GameState::holds`.
/// A victory condition that held at the end of `power`'s turn in round
/// `since` and at the end of every turn after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hold {
    /// The power at the end of whose turn it first held (it wins at the end
    /// of its next turn if the condition still holds).
    pub power: PowerId,
    /// The enemy capital held, or `None` for a condition on all of them.
    pub capital: Option<SpaceId>,
    /// The round in which it first held.
    pub since: u32,
}

impl GameState {
    /// The position at the start of the game, from the game's setup.
    pub fn initial(game: &GameDef) -> GameState {
        let powers = game.powers().len();
        let owner: Vec<Option<PowerId>> = (0..game.space_count())
            .map(|s| game.starting_owner(SpaceId(s)))
            .collect();
        let mut state = GameState {
            round: 1,
            turn: 0,
            phase: Phase::Purchase,
            owner,
            ipcs: (0..powers).map(|p| game.starting_ipcs(p)).collect(),
            units: Vec::new(),
            next_unit: 1,
            purchased: Vec::new(),
            held: vec![Vec::new(); powers],
            captured_this_turn: Vec::new(),
            battles: Vec::new(),
            taken_in_passing: Vec::new(),
            holds: Vec::new(),
            winner: None,
            standing: vec![StandingOrders::default(); powers],
            technologies: vec![Vec::new(); powers],
            research_tokens: vec![0; powers],
            factory_damage: vec![0; game.space_count()],
            war_bonds: 0,
            fought_at_sea: Vec::new(),
            shared_turn: None,
            isolated: Vec::new(),
            ship_damage: Vec::new(),
            paradropped: Vec::new(),
            averted: Vec::new(),
            bid_money: Vec::new(),
        };
        for (space, power, unit_type, count) in game.starting_units() {
            let unit = game
                .unit_types()
                .iter()
                .position(|u| std::ptr::eq(u, unit_type))
                .expect("a unit type of this game");
            for _ in 0..count {
                state.add_unit(unit, power, space);
            }
        }
        state
    }

    /// True when `power` has gained the development `tech` (developments
    /// are never shared, so an ally's does not count).
    pub fn has_technology(&self, power: PowerId, tech: Technology) -> bool {
        self.technologies
            .get(power)
            .is_some_and(|t| t.contains(&tech))
    }

    /// The damage on the industrial complex in `space` (0 when none).
    pub fn damage_at(&self, space: SpaceId) -> u32 {
        self.factory_damage.get(space.0).copied().unwrap_or(0)
    }

    /// The damage of battleship `unit` under the J Boulton damage table.
    pub fn ship_damage_of(&self, unit: u32) -> Option<&ShipDamage> {
        self.ship_damage.iter().find(|d| d.unit == unit)
    }

    /// The power whose turn it is.
    pub fn current_power(&self, game: &GameDef) -> PowerId {
        game.turn_order()[self.turn]
    }

    /// Puts a new unit on the board and returns its id.
    pub fn add_unit(&mut self, unit: UnitTypeId, owner: PowerId, at: SpaceId) -> u32 {
        let id = self.next_unit;
        self.next_unit += 1;
        self.units.push(Unit {
            id,
            unit,
            owner,
            at,
            moved: 0,
            combat_moved: false,
            hits: 0,
            cargo_of: None,
            submerged: false,
            unloaded_from: None,
            unloaded_by: None,
            unloaded_to: None,
        });
        id
    }

    /// The units in a space (cargo included).
    pub fn units_at(&self, space: SpaceId) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(move |u| u.at == space)
    }

    /// The unit with this id.
    pub fn unit(&self, id: u32) -> Option<&Unit> {
        self.units
            .binary_search_by_key(&id, |u| u.id)
            .ok()
            .map(|i| &self.units[i])
    }

    /// The unit with this id, to change it.
    pub fn unit_mut(&mut self, id: u32) -> Option<&mut Unit> {
        self.units
            .binary_search_by_key(&id, |u| u.id)
            .ok()
            .map(|i| &mut self.units[i])
    }
}
