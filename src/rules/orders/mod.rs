//! Typed orders: what a player's YAML means once every name is resolved.
//!
//! `docs/orders.md` is the contract for players; [`parse`] turns YAML into
//! these types, resolving names against a [`GameDef`](crate::rules::GameDef)
//! and remembering where in the YAML each order stood, so that every error
//! can name its line. The movement, production and turn modules consume
//! these types and never see YAML.

pub mod canonical;
pub(crate) mod grammar;
pub mod header;
pub mod keys;
pub mod parse;
pub mod schema;
pub mod special_force_teams;
mod yaml;

use crate::rules::SpaceId;

pub use crate::rules::vocab::{PowerId, UnitCount, UnitList, UnitTypeId};

/// Where an order stands in the player's message, for error reports.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Origin {
    /// The section: `research`, `purchase`, `combat`, `battles`, `noncombat`,
    /// `take_over`, `place`, `standing`.
    pub section: &'static str,
    /// 1-based position of the order within its section (0 for a section
    /// that is a single value, such as `purchase`).
    pub index: usize,
    /// 1-based line in the YAML where the order starts, when known.
    pub line: Option<usize>,
    /// The order as the player wrote it (one line, for quoting back).
    pub text: String,
}

/// A value with the place in the message it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Located<T> {
    /// The order.
    pub item: T,
    /// Where it was written.
    pub origin: Origin,
}

/// A movement order of the combat or non-combat move.
#[derive(Debug, Clone, PartialEq)]
pub enum MoveOrder {
    /// Units moving together along a path: `3 infantry, 2 armor: Poland ->
    /// Belorussia`. The path starts where the units are and lists every
    /// space entered, in order (`Poland -> Ukraine -> Rumania`).
    Move {
        /// The units that move.
        units: UnitList,
        /// Start, then each space entered.
        path: Vec<SpaceId>,
        /// For aircraft in a combat move: where they intend to land
        /// afterwards (`land: Poland`), checked now for range and space.
        land: Option<SpaceId>,
        /// A strategic rail move (`, rail`; Advanced AAE AAAE-30): land
        /// units in the non-combat move, one rail point each, up to the rule
        /// set's spaces whatever their movement.
        rail: bool,
        /// Air transports in the combat move: which of their cargo is
        /// dropped where along the path (`drop: 1 special force team to
        /// Morocco`; J Boulton JB-12). Empty: all of it is dropped where
        /// the path ends.
        drops: Vec<DropOff>,
    },
    /// One transport's move with its cargo: load in the sea zone where it
    /// is (or along its path), move, and unload into one territory.
    Transport {
        /// The sea zone where the transport starts, then each zone entered.
        path: Vec<SpaceId>,
        /// Cargo taken on: units and the territory they come from. A land
        /// unit loads from a territory adjacent to the zone the transport is
        /// in when it loads; `at` names that zone (defaults to the start).
        load: Vec<Load>,
        /// The territory the cargo is unloaded into, if any. In a combat move
        /// into an enemy territory this is an amphibious assault.
        unload: Option<SpaceId>,
        /// The part of the cargo unloaded (`unload: 1 infantry to Finland`);
        /// `None` unloads all of it (the units that can attack, in an
        /// amphibious assault).
        unload_units: Option<UnitList>,
        /// Special force teams put ashore on the way, the transport sailing
        /// on (`drop: 1 special force team to Norway`; J Boulton JB-23).
        drops: Vec<DropOff>,
    },
}

/// Part of a transport's cargo set down on its way without stopping (`1
/// special force team to Morocco`): dropped by an air transport into a
/// territory on its path (J Boulton JB-12), or put ashore by a sea
/// transport that sails on (JB-23).
#[derive(Debug, Clone, PartialEq)]
pub struct DropOff {
    /// The units dropped.
    pub units: UnitList,
    /// The territory they are dropped into.
    pub to: SpaceId,
}

/// Cargo that a transport takes on.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// The units loaded.
    pub units: UnitList,
    /// The territory they come from.
    pub from: SpaceId,
    /// The sea zone on the transport's path where they board (its start when
    /// not given).
    pub at: Option<SpaceId>,
}

/// When an attacker retreats (`docs/orders.md`, battle plans).
#[derive(Debug, Clone, PartialEq)]
pub enum Retreat {
    /// Fight until one side is gone.
    Never,
    /// Retreat after this many rounds if the battle goes on.
    AfterRound(u32),
    /// Retreat at the end of a round that leaves fewer attacking units than this.
    WhenAttackersBelow(u32),
    /// Retreat at the end of a round when the attacker's exact chance of
    /// winning by fighting on to the end (`docs/odds.md`) is below this
    /// probability (above 0, at most 1).
    WhenOddsBelow(f64),
}

/// The attacker's plan for one battle, or the default for all of them.
#[derive(Debug, Clone, PartialEq)]
pub struct BattlePlan {
    /// The battle's territory or sea zone; `None` for `default`.
    pub space: Option<SpaceId>,
    /// When to retreat.
    pub retreat: Retreat,
    /// Where to retreat (must be a space the attackers came from).
    pub retreat_to: Option<SpaceId>,
    /// Order of loss: unit types in the order they are taken as casualties.
    pub losses: Vec<UnitTypeId>,
    /// The bombers arriving at this territory make a strategic bombing raid
    /// on its industrial complex instead of fighting (declared on arrival).
    pub bombing_raid: bool,
    /// The units that make the strategic bombing raid on this territory
    /// when others attack it in the same turn (Anniversary); the rest fight
    /// the battle there. Empty: every attacker there raids (when
    /// `bombing_raid`). Naming raiders declares the raid.
    pub raiders: UnitList,
    /// The units ending their combat move in this sea zone ignore the enemy
    /// submarines and transports there instead of attacking them, where the
    /// rule set allows it (Anniversary FAQ, Submarines).
    pub ignore: bool,
    /// What the attacking submarines do (`submerge` before the first round
    /// is substalling); `None` = fight.
    pub submarines: Option<SubmarinePolicy>,
    /// How many attacking submarines try to get through the defending
    /// fleet's escort screen at its capital ships before the battle, where
    /// the rule set has the screen (Advanced AAE AAAE-48); 0: none.
    pub screen: u32,
    /// How the attacker allots the pooled landing roll of the units it
    /// drops here (J Boulton JB-16); `None`: in unit id order.
    pub landing: Option<LandingAllotment>,
    /// The missions of the attacker's special force teams in this battle
    /// (J Boulton JB-27..32).
    pub teams: special_force_teams::TeamPlan,
}

/// The attacker's allotment of a territory's pooled landing roll (J Boulton
/// JB-16: the defender rolls, the attacker decides which dropped unit gets
/// each result), given before the dice as two orders of preference.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LandingAllotment {
    /// Who takes the 6s (surprise) first: unit types, first listed first;
    /// types not listed after them, each type in unit id order.
    pub surprise: Vec<UnitTypeId>,
    /// Among the units left, who takes the 1s (lost) first, the same way.
    pub lost: Vec<UnitTypeId>,
}

/// A take-over of an ally's units (AAE: the Soviet Patriotic War), written
/// `2 infantry, 1 fighter of United Kingdom in Moscow`. Whether the rules
/// allow it is the rule set's business
/// ([`RuleSetHooks::take_over_units`](crate::rules::variants::RuleSetHooks::take_over_units)).
#[derive(Debug, Clone, PartialEq)]
pub struct TakeOverOrder {
    /// Where the units stand.
    pub space: SpaceId,
    /// The ally they belong to now.
    pub from: PowerId,
    /// Which units.
    pub units: UnitList,
}

/// What a side's submarines do in a battle: submerge where the rules let
/// them (AAE, Anniversary), or withdraw to another sea zone (Classic,
/// DAAK-C §4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SubmarinePolicy {
    /// Stay and fight.
    #[default]
    Fight,
    /// Submerge at the first chance the rules give.
    Submerge,
    /// Fight one round, then submerge.
    SubmergeAfterFirstRound,
    /// Where submarines withdraw instead of submerging (Classic, DAAK-C
    /// §4.2): every submarine of the side still in the battle withdraws at
    /// the end of round `after_round`, to `to` when they may go there, else
    /// to the first sea zone (board order) they may go to; written
    /// `{withdraw_after_round: N, to: ZONE}`.
    WithdrawAfterRound {
        /// The round after which they withdraw (from 1).
        after_round: u32,
        /// The sea zone wanted.
        to: Option<SpaceId>,
    },
}

impl SubmarinePolicy {
    /// The word a player writes for it (`keys::SUBMARINE_POLICIES`), which
    /// is also how every reply shows it.
    pub fn word(self) -> &'static str {
        match self {
            SubmarinePolicy::Fight => "fight",
            SubmarinePolicy::Submerge => "submerge",
            SubmarinePolicy::SubmergeAfterFirstRound => "submerge_after_first_round",
            SubmarinePolicy::WithdrawAfterRound { .. } => "withdraw_after_round",
        }
    }
}

/// Whose order of loss a power's ships follow when they stand by in an
/// ally's sea battle (AAE: allied bystanders may take the enemy's hits).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BystanderLosses {
    /// Lost only to hits that the attacking ally's own units cannot take.
    #[default]
    Last,
    /// Ranked by the attacking ally's battle plan `losses` with its own
    /// units, so the Allies choose which of their ships go (FAQ: "up to
    /// the Allied players").
    AlliesChoose,
}

impl BystanderLosses {
    /// The word a player writes for it, which is also how replies show it.
    pub fn word(self) -> &'static str {
        match self {
            BystanderLosses::Last => "last",
            BystanderLosses::AlliesChoose => "allies_choose",
        }
    }
}

/// A power's standing orders: how it defends when it cannot be asked.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StandingOrders {
    /// Order of loss when defending.
    pub losses: Vec<UnitTypeId>,
    /// Keep one land unit alive as long as possible so that a territory is not
    /// lost to aircraft alone.
    pub keep_one_land_unit: bool,
    /// Submarines' policy.
    pub submarines: SubmarinePolicy,
    /// How many defending fighters at most intercept a strategic bombing
    /// raid on one territory, where fighters intercept by choice
    /// (Anniversary's optional rule); `None` for every one.
    pub intercept: Option<u32>,
    /// How its ships standing by in an ally's sea battle take hits.
    pub bystander_losses: BystanderLosses,
    /// When it pays its share of the Middle East payment among the Allies
    /// (AAE, option `middle_east_payer: allies_choose`).
    pub middle_east_payment: MiddleEastPayment,
    /// Whether it asks to receive the neutral defenders its side gains
    /// when the enemy violates a neutral (Advanced AAE, AAAE-19, 20).
    pub neutral_defenders: NeutralDefenders,
    /// Where its special force teams carry out Aversion in the turn of the
    /// territory's controller (J Boulton JB-35), one entry a territory.
    pub aversion: Vec<AversionOrder>,
    /// What its units averted by an enemy team do (J Boulton JB-35).
    pub averted: Averted,
    /// The missions of its defending special force teams (J Boulton
    /// JB-27, JB-33, JB-34).
    pub teams: special_force_teams::TeamStanding,
}

/// A standing order of Aversion (J Boulton JB-35): in the turn of the
/// enemy controlling `space`, each of this power's special force teams
/// there names one of that enemy's units of type `unit`, just before or
/// just after its combat move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AversionOrder {
    /// The territory where the teams stand.
    pub space: SpaceId,
    /// The type of the enemy units they name.
    pub unit: UnitTypeId,
    /// After the enemy's combat move; `false`: just before it.
    pub after: bool,
}

/// What a unit named by an enemy team's Aversion does (J Boulton JB-35:
/// its owner's choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Averted {
    /// (b) It stays and rolls in no combat for the rest of the turn.
    #[default]
    Stay,
    /// (a) It pulls back into an adjacent friendly land territory nearer
    /// its capital, its move used; where there is none, it stays.
    Withdraw,
}

impl Averted {
    /// The word a player writes for it, which is also how replies show it.
    pub fn word(self) -> &'static str {
        match self {
            Averted::Stay => "stay",
            Averted::Withdraw => "withdraw",
        }
    }
}

/// A power's word on the neutral defenders its side gains (Advanced AAE
/// AAAE-19, 20: the defending side names the power that receives them).
/// The receiver is the first power of the side, in turn order after the
/// violator, that asked to `receive` them; when none asked, the first of
/// the side in turn order after the violator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum NeutralDefenders {
    /// Receives them before the powers of its side that did not ask.
    Receive,
    /// Receives them only by its place in turn order.
    #[default]
    InTurn,
}

impl NeutralDefenders {
    /// The word a player writes for it, which is also how replies show it.
    pub fn word(self) -> &'static str {
        match self {
            NeutralDefenders::Receive => "receive",
            NeutralDefenders::InTurn => "in_turn",
        }
    }
}

/// A power's place among the Allies who pay Germany for the Middle East
/// territories it holds (AAE FAQ, Industry: who pays is the Allies' choice).
/// Each Allied power decides for its own treasury; among powers of the same
/// rank the richest pays first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
pub enum MiddleEastPayment {
    /// Pays before the Allies that did not ask to.
    First,
    /// Pays in the order of the treasuries, richest first.
    #[default]
    RichestFirst,
    /// Pays only what the other Allies cannot.
    Last,
}

impl MiddleEastPayment {
    /// The word a player writes for it, which is also how replies show it.
    pub fn word(self) -> &'static str {
        match self {
            MiddleEastPayment::First => "first",
            MiddleEastPayment::RichestFirst => "richest_first",
            MiddleEastPayment::Last => "last",
        }
    }
}

/// Research and development (Anniversary): researcher tokens bought this
/// turn, and the chart rolled on at a breakthrough (`research: {buy: 2,
/// chart: air and naval}`). The chart is named in advance because the dice
/// come after the orders.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ResearchOrder {
    /// Researcher tokens bought (0: roll only those already held).
    pub buy: u32,
    /// Index of the chart in the game's `research.charts`; needed whenever
    /// the power will hold tokens, since they are rolled, unless the game
    /// has one chart.
    pub chart: Option<usize>,
    /// The developments wanted, most wanted first, where breakthroughs go
    /// to the player's choice (Classic, option
    /// `weapons_development_selection: choice`); empty elsewhere.
    pub developments: Vec<crate::rules::vocab::Technology>,
}

/// Everything one message orders for one power. Sections not written are
/// empty; which sections a stage accepts is the turn module's business.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Orders {
    /// A sealed bid before round 1: the setup money, in IPCs, the bidder
    /// would accept (`matches::bids`); sent alone, never logged in the
    /// clear before the reveal.
    pub bid: Option<Located<u32>>,
    /// IPCs the power pays its ally at the start of its turn (Advanced AAE:
    /// the USA to Russia, AAAE-40).
    pub lend_lease: Option<Located<u32>>,
    /// IPCs shipped to an ally in the purchase phase, the enemy rolling for
    /// each (Advanced AAE: British MidEast to Britain, AAAE-08).
    pub oil_convoy: Option<Located<u32>>,
    /// Research: tokens bought and the breakthrough chart (before the
    /// purchase in the turn sequence).
    pub research: Option<Located<ResearchOrder>>,
    /// Units bought this turn (placed in the place phase).
    pub purchase: Option<Located<UnitList>>,
    /// Damage repaired on industrial complexes in the purchase phase:
    /// territory and points (Anniversary).
    pub repair: Vec<Located<(SpaceId, u32)>>,
    /// Combat moves, in the order written.
    pub combat: Vec<Located<MoveOrder>>,
    /// Rocket strikes (Anniversary, Rockets): the territory whose AA guns
    /// fire and the territory whose industrial complex they strike.
    pub rockets: Vec<Located<(SpaceId, SpaceId)>>,
    /// Industrial Strikes (J Boulton JB-31): the territory and how many of
    /// the power's special force teams there strike its complex.
    pub industrial_strike: Vec<Located<(SpaceId, u32)>>,
    /// What the power's units averted by an enemy team this turn do (J
    /// Boulton JB-35), overriding its standing orders for the stage.
    pub averted: Option<Located<Averted>>,
    /// Battle plans (at most one per space, and one default).
    pub battles: Vec<Located<BattlePlan>>,
    /// Non-combat moves, in the order written.
    pub noncombat: Vec<Located<MoveOrder>>,
    /// Take-overs of an ally's units (AAE: the Soviet Patriotic War), in the
    /// order written; applied after the non-combat move, before placement.
    pub take_over: Vec<Located<TakeOverOrder>>,
    /// Placement of purchased units: space and units.
    pub place: Vec<Located<(SpaceId, UnitList)>>,
    /// New standing orders.
    pub standing: Option<Located<StandingOrders>>,
}

/// Why an order cannot be carried out: which order, and why in the game's
/// words. A stage with any error is rejected whole.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderError {
    /// The order concerned (default origin for a problem of the whole stage).
    pub origin: Origin,
    /// The field within the order (`path`, `land`, `unload`, ...), if one.
    pub field: Option<String>,
    /// The reason, in the game's words ("armor in Poland has no movement
    /// left").
    pub reason: String,
}

impl OrderError {
    /// An error about an order.
    pub fn new(origin: &Origin, reason: impl Into<String>) -> Self {
        OrderError {
            origin: origin.clone(),
            field: None,
            reason: reason.into(),
        }
    }

    /// The same error, naming the field.
    pub fn field(mut self, field: impl Into<String>) -> Self {
        self.field = Some(field.into());
        self
    }
}

impl std::fmt::Display for OrderError {
    /// `Line 12, combat order 2 (1 armor: Poland -> Ukraine -> Rumania): reason`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let o = &self.origin;
        // The separator goes only between parts that are present, so an
        // error with a line but no order reads "Line 3: ..." (not "Line 3, : ...").
        let mut sep = "";
        if let Some(line) = o.line {
            write!(f, "Line {line}")?;
            sep = ", ";
        }
        match (o.section, o.index) {
            ("", _) => {}
            (s, 0) => write!(f, "{sep}{s}")?,
            (s, i) => write!(f, "{sep}{s} order {i}")?,
        }
        if !o.section.is_empty() {
            sep = ", ";
        }
        if !o.text.is_empty() {
            write!(f, " ({})", o.text)?;
        }
        if let Some(field) = &self.field {
            write!(f, "{sep}{field}")?;
            sep = ", ";
        }
        if !sep.is_empty() {
            f.write_str(": ")?;
        }
        f.write_str(&self.reason)
    }
}
