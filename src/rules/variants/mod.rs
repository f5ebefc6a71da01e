//! Rule sets: the behaviour that the game data cannot express.
//!
//! Each rule set is one module implementing [`RuleSetHooks`]. The engine asks
//! the game's rule set through this interface, never by comparing game ids.
//! Today the interface carries what loading a game needs: the rule options
//! the rule set understands (with their defaults, so `game.yaml` is checked)
//! and the consistency checks that only hold under that rule set.

use crate::dice::DiceSource;
use crate::rules::events::Event;
use crate::rules::income::Income;
use crate::rules::orders::{OrderError, Orders, StandingOrders};
use crate::rules::problem::Problem;
use crate::rules::production::Complex;
pub use crate::rules::research::{DevelopmentSelection, ResearchProcedure};
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, UnitList};
use crate::rules::{GameDef, SpaceId};

pub mod aae;
pub mod advanced_aae;
pub mod anniversary;
pub mod base;
pub mod classic;
pub mod jboulton;

pub use crate::rules::options::{OptionKind, OptionSpec};

/// A power's request to take over an ally's units ([`RuleSetHooks::take_over_units`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeOver {
    /// Where the units stand.
    pub space: SpaceId,
    /// The ally they belong to.
    pub from: PowerId,
    /// Which units.
    pub units: UnitList,
}

/// How battles differ between rule sets: the points on which the editions'
/// combat rules disagree (and the transport and AA-gun rules around them,
/// Classic's DAAK clarifications), read by the combat and movement engines
/// ([`RuleSetHooks::combat_rules`]). The base rule set's are AAE's (2005 FAQ,
/// [`base::Base`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CombatRules {
    /// Ships of the attacker's allies in a sea battle are bystanders: they
    /// may be chosen as casualties and their destroyers let the attacker's
    /// aircraft hit submarines (AAE FAQ). When `false` they take no part in
    /// any way (Anniversary FAQ: "never participate in a battle in any way").
    pub allied_bystanders: bool,
    /// Defending submarines fire a surprise strike, like attacking ones, in
    /// every round without an attacking destroyer (Anniversary FAQ); when
    /// `false` only attacking submarines strike first (AAE).
    pub defending_subs_strike_first: bool,
    /// Submarines' first strike happens in the first round of a battle
    /// only; later rounds they fire with the other units (Classic option
    /// `submarine_first_strike`, UNCONFIRMED for MB, digest §4.4). When
    /// `false` (every rule set's default) it happens in every round.
    pub first_strike_first_round_only: bool,
    /// Submarines decide to submerge before any die of the round, the
    /// attacker first, and only while no enemy destroyer is in the battle
    /// (Anniversary FAQ and errata p.29). When `false`, defending submarines
    /// submerge only after withstanding the attacker's fire (AAE FAQ).
    pub submerge_before_any_die: bool,
    /// Defending transports that only the attacker could ever hit are
    /// removed without rolling (Anniversary FAQ, defenseless transports).
    pub defenseless_transports: bool,
    /// The attacker retreats only to a space from which some attacking land
    /// or sea unit came (Anniversary errata p.19); when `false`, aircraft
    /// coming from a space open it too.
    pub retreat_needs_land_or_sea: bool,
    /// The land combat of an amphibious assault follows errata p.17
    /// (Anniversary): the landing goes ahead when the sea battle in the
    /// transports' zone left only defending transports and submerged
    /// submarines there, and there is no land combat at all unless some
    /// attacking land unit is still committed to the territory. When
    /// `false` (AAE), any defender left in play calls the landing off, and
    /// aircraft fight the land battle even when every landing failed.
    pub land_combat_per_errata_p17: bool,
    /// At most one ship bombards per land unit that landed in the territory
    /// (TripleA "Shore Bombard Per Ground Unit Restricted", the Anniversary
    /// reading); when `false`, every ship able to bombard does (AAE).
    pub one_bombardment_per_landed_unit: bool,
    /// A combat move may end in a sea zone holding only enemy submarines
    /// and/or transports without attacking them (battle plan `ignore`;
    /// Anniversary FAQ, Submarines). When `false` a combat move ending beside
    /// enemy units always attacks them (AAE FAQ).
    pub may_ignore_subs_and_transports: bool,
    /// A strategic bombing raid damages the target's industrial complex
    /// (damage capped at twice the territory's IPC value, each point lowering
    /// its production capacity by one until repaired) instead of taking IPCs
    /// from the treasury (Anniversary rulebook p.17, digest §7). When `false`,
    /// the controller loses IPCs, at most its treasury (AAE).
    pub bombing_damages_complexes: bool,
    /// Fighters may escort and intercept in raids with these values,
    /// whatever the data says (Anniversary FAQ optional rule "Fighter Escorts
    /// and Interceptors"); `None` leaves it to the units' `escort` and
    /// `interceptor` abilities (AAE).
    pub fighter_escorts: Option<RaidAirBattle>,
    /// AA guns fire at enemy aircraft flying over their territory in the
    /// combat move (AAE FAQ); when `false` they fire only at aircraft
    /// attacking their own territory (Anniversary, digest §5).
    pub aa_fires_at_overflights: bool,
    /// Transports are taken as casualties only when nothing else of their
    /// side can take the hit (Anniversary FAQ 2010: "transports may only be
    /// taken as casualties when there is no other"). When `false` a
    /// transport is an ordinary casualty in its side's order of loss (AAE:
    /// defence 1; FAQ 2005, Submarines, "two destroyers and a transport or
    /// two transports and a destroyer is up to the Allied players").
    pub transports_last: bool,
    /// The attacker's ships that took part in a sea battle (retreating or
    /// not) do not move, load or unload in that turn's non-combat move, so
    /// cargo whose landing was called off stays aboard until the next turn
    /// (Anniversary: KQ-4; Official Q&A, axisandallies.org topic 8355). When
    /// `false` a transport that survived combat may still unload where it
    /// stands (AAE FAQ).
    pub sea_battle_ends_movement: bool,
    /// Bombers (and their escorts) may raid a territory that other units
    /// attack in the same turn, the battle plan naming the `raiders`; the
    /// raid comes first, and interceptors that rose against it take no part
    /// in the battle and, if the territory falls, land one space away or
    /// are lost (Anniversary FAQ 2010, Additional Optional Rules). When
    /// `false` a raid is the territory's only combat (AAE).
    pub raid_beside_battle: bool,
    /// Two powers that share a turn (`shares_turn_with`) both fight before
    /// either moves in the non-combat move: the first one's purchase and
    /// combat, the second one's, then the first one's non-combat move and
    /// mobilization and the second one's (Anniversary, KQ-1, option
    /// `us_china_turn`). When `false` each plays a whole turn in turn order.
    pub shared_turn_combat_first: bool,
    /// The order of loss of a side whose owner named none for the unit
    /// types in the battle (battle plan `losses`, standing orders `losses`):
    /// DAAK's standard order (Classic, digest §6.1). `None`: the cheapest
    /// unit first (AAE).
    pub default_losses: Option<&'static DefaultLosses>,
    /// Aircraft may retreat from an amphibious assault while the landed
    /// ground units fight on (AAE FAQ). When `false` no unit withdraws from
    /// an amphibious assault, aircraft included (DAAK-C §4.3(b)).
    pub aircraft_retreat_from_amphibious: bool,
    /// Retreating aircraft go with the rest of the force to the retreat
    /// space (AAE). When `false` they stay in the battle zone until combat
    /// is over and fly to a landing in the non-combat move with the moves
    /// they have left, and the battle ends (DAAK-C §4.1(b)).
    pub aircraft_retreat_with_the_force: bool,
    /// In the combat move a transport that unloads lands all of its cargo:
    /// no partial unloading (DAAK-C §3.2(e)). When `false` part of the cargo
    /// may stay aboard (AAE FAQ).
    pub whole_cargo_unloads_in_combat: bool,
    /// In the non-combat move a transport may unload into several
    /// territories beside its sea zone (DAAK-C §3.2(e), the EGY/SYR
    /// example). When `false` it unloads into one territory a turn (AAE
    /// FAQ).
    pub noncombat_unloading_into_several_territories: bool,
    /// Submarines in a sea battle may withdraw to another sea zone after
    /// any full round, by the attacker's battle plan and the defenders'
    /// standing orders (`submarines: {withdraw_after_round: N, to: ZONE}`;
    /// DAAK-C §4.2, `combat::withdrawal`). When `false` no submarine
    /// withdraws on its own and a withdrawal order is refused.
    pub submarines_withdraw: bool,
    /// Defending submarines may withdraw to any sea zone meeting DAAK-C
    /// §4.2(d)'s conditions, not only to an adjacent one (Classic option
    /// `defending_sub_withdrawal`).
    pub defending_subs_withdraw_beyond_adjacent: bool,
    /// A power's units may ride an ally's transport in three steps: loaded
    /// in their owner's turn, moved (or left where it is) in the transport
    /// owner's turn, unloaded whole in a later turn of their owner; one
    /// nation's units to a transport (DAAK-C §3.3). When `false` only a
    /// power's own transports carry its units (AAE).
    pub allied_transports: bool,
    /// The rule a ship kept from the non-combat move after a sea battle
    /// cites (`sea_battle_ends_movement`, `retreated_ships_stay`).
    pub fought_at_sea_rule: &'static str,
    /// The attacker's ships that withdraw from a sea battle do not move,
    /// load or unload in that turn's non-combat move, so a transport's cargo
    /// stays aboard until its owner's next turn (DAAK-C §3.2(f)), also where
    /// `sea_battle_ends_movement` is `false`.
    pub retreated_ships_stay: bool,
    /// A land territory holds at most one AA gun at any time: a non-combat
    /// move that would bring a second one is refused (DAAK-C §3.1(b)).
    pub one_aa_gun_per_territory: bool,
    /// AA guns captured with a territory this turn may not move in the
    /// non-combat move (DAAK-C §4.4(b)).
    pub captured_aa_guns_stay: bool,
    /// A combat-move landing on carrier space may count on a carrier of the
    /// mover that reaches the zone in the non-combat move only through sea
    /// zones where this combat move declares a battle, won first (DAAK-C
    /// §3.4(g)); when `false` only carriers with a clear way now count.
    pub carrier_landing_after_declared_battles: bool,
    /// In the combat move units may board a transport in a sea zone where a
    /// sea battle is to be fought when the same transport order lands them
    /// in an amphibious assault (DAAK-C §3.2(c)); when `false` no transport
    /// loads in a zone with enemy ships during the combat move (AAE FAQ).
    pub board_in_embattled_zone_for_assault: bool,
    /// A retreat goes only into a space that is friendly when the attacker
    /// retreats (a territory its side controls, a sea zone without enemy
    /// units): a territory only flown over may be enemy land (DAAK-C
    /// §4.1(b)). When `false` every space some attacker came from is taken
    /// as it is.
    pub retreat_to_friendly_only: bool,
    /// Attacking artillery also supports units with the `mechanized`
    /// ability (J Boulton JB-37, option `mech_artillery_support`); when
    /// `false` only `artillery_supportable` units are raised.
    pub artillery_supports_mechanized: bool,
    /// Unit types of the game's data that this match leaves out (J Boulton:
    /// mechanized infantry and heavy armor, each a match option), with the
    /// reason: they cannot be bought. Empty: every unit with a cost may be.
    pub withheld_units: &'static [(&'static str, &'static str)],
    /// The battleship damage table (J Boulton JB-41..44): after a battle in
    /// which a surviving battleship took a hit its owner rolls a die (1-2
    /// righted, 3-4 light damage, 5-6 heavy damage), damaged ships fight at
    /// 3 or 2 and do not bombard, and are repaired at a friendly coast
    /// instead of for free at the end of the turn. `None`: AAE's free
    /// repair.
    pub battleship_damage: Option<BattleshipDamage>,
    /// Units caught by a surprise attack: they do not fire in the first
    /// round of any battle (Advanced AAE's German surprise attack,
    /// AAAE-11); `None`: no such rule.
    pub first_round_surprise: Option<SurpriseAttack>,
    /// Coastal guns that fire at the ships of an amphibious assault
    /// launched from a sea zone into a power's territory (J Boulton JB-45,
    /// JB-46: Germany's Normandy coastal defence); `None`: no such fire.
    pub coastal_fire: Option<CoastalFire>,
    /// Units of some powers that fight at other values (Advanced AAE
    /// AAAE-24..28: German armor, Russian artillery, US marines, the RAF);
    /// `None`: every unit at its type's values.
    pub national_abilities: Option<NationalAbilities>,
    /// Land units that landed from a transport do not fire in the first
    /// round of their battle; bombardment and aircraft fire as usual
    /// (Advanced AAE AAAE-41). `false`: they fire in every round (AAE).
    pub landed_units_hold_fire_first_round: bool,
    /// Only the land units that landed from a transport are barred from
    /// retreating from an amphibious assault: the units that came overland
    /// and the aircraft retreat, and the landed units fight on alone
    /// (Advanced AAE AAAE-42). `false`: only aircraft may leave (AAE FAQ).
    pub only_landed_units_stay: bool,
    /// Where raids damage complexes: the most damage a complex carries, in
    /// multiples of its territory's IPC value (Anniversary: 2, rulebook
    /// p.17; Advanced AAE AAAE-32: 1).
    pub complex_damage_cap_per_ipc: u32,
    /// IPCs to repair one point of damage on a complex (Anniversary: 1;
    /// Advanced AAE AAAE-33: 2).
    pub repair_cost_per_point: u32,
    /// Repairs are paid before the purchase, so that the purchase is
    /// checked against the repaired capacity (Advanced AAE AAAE-33: at the
    /// start of the turn, before Purchase); `false`: after it, from what
    /// the purchase left (Anniversary's Purchase & Repair phase).
    pub repair_before_purchase: bool,
    /// The most spaces aircraft may fly in the combat move, the rest of
    /// their movement kept for the non-combat move (Advanced AAE AAAE-36:
    /// fighters 2, bombers 3); `None`: their whole movement (AAE).
    pub combat_move_air_range: Option<AirRange>,
    /// Submarines fight one round of each battle, with no first strike and
    /// no submerging by choice: each attacking submarine rolls this many
    /// dice, each counting, each defending one one die; after that round's
    /// fire the survivors of both sides submerge and take no further part
    /// (Advanced AAE AAAE-46: 2). `None`: AAE's submarines.
    pub one_round_submarines: Option<u8>,
    /// The most submarines of one side a sea zone may hold at the end of a
    /// movement phase; a move or a placement that leaves more is refused
    /// (Advanced AAE AAAE-44: 3). `None`: no limit.
    pub submarines_per_zone: Option<u8>,
    /// Attacking fighters (aircraft that are not strategic bombers) hit at
    /// values that depend on where they began the turn and on the battle
    /// (Advanced AAE AAAE-35); `None`: their type's attack.
    pub fighter_basing: Option<FighterBasing>,
    /// In a sea battle only the defenders' destroyers (`anti_submarine`)
    /// and fighters (on carriers there) may hit attacking submarines; the
    /// other defenders' hits go to the other attackers (Advanced AAE
    /// AAAE-47 and its PROPOSAL). `false`: AAE's rule.
    pub only_destroyers_and_fighters_hit_attacking_subs: bool,
    /// In round 1 of a battle a side may take as casualties its submarines
    /// for hits that could not otherwise land on them (aircraft without a
    /// destroyer, AAAE-47's other defenders), never being forced to: a
    /// submarine takes such a hit only in place of a unit its order of loss
    /// ranks after it (Advanced AAE AAAE-45). `false`: never.
    pub submarines_take_any_hit_first_round: bool,
    /// One unit a power receives free in each of its turns, to place with
    /// the units it bought, outside its complexes' limits (Advanced AAE
    /// AAAE-25: the German Wolfpack); `None`: no such unit.
    pub free_unit_each_turn: Option<FreeUnit>,
    /// Attacking submarines may try to get through the defending fleet's
    /// escort screen at its capital ships before a sea battle (battle plan
    /// `screen: N`; Advanced AAE AAAE-48, `combat::submarines`); `None`: no
    /// such attack.
    pub submarine_screen: Option<SubmarineScreen>,
    /// Air transports that carry cargo and drop paratroopers (J Boulton
    /// JB-07..20, `movement::air_transport`, `combat::paradrop`); `None`:
    /// no unit of the game is carried by air.
    pub air_transports: Option<AirTransports>,
    /// The unit type (as `units.yaml` names it) of which one rides free on
    /// every sea and air transport, on top of its capacity (J Boulton JB-23,
    /// option `free_sft_slot`: the special force team); `None`: every unit
    /// takes its points.
    pub free_rider: Option<&'static str>,
    /// A land unit taking 3 or more transport points rides a sea transport
    /// with nothing but the free rider (J Boulton Part E 9, option
    /// `transport_points: armor_alone`, the strict "armor rides alone"
    /// reading); `false`: the points alone decide (AAE's capacity 4).
    pub vehicle_rides_alone: bool,
    /// Units with `blitz` (armor) that moved exactly one space in the
    /// combat move, into a territory they took, may move one more space in
    /// the non-combat move into a friendly territory (Advanced AAE AAAE-31
    /// and its PROPOSAL: not after a retreat, not after landing from a
    /// transport). `false`: nothing that moved in the combat move moves
    /// again, aircraft landing aside (AAE).
    pub one_space_blitz: bool,
    /// Strategic rail movement in the non-combat move (Advanced AAE
    /// AAAE-30, `movement::rail`); `None`: no rail.
    pub strategic_rail: Option<StrategicRail>,
    /// Special force teams (`no_combat` units) move into enemy land
    /// without a battle, land from transports and drop from air transports
    /// there, and face detection before battles (J Boulton JB-21..26,
    /// `combat::special_force_teams`); `None`: a `no_combat` unit is only
    /// a unit that never fights.
    pub special_force_teams: Option<SpecialForceTeams>,
    /// Fortifications: markers bought and placed beside infantry, each
    /// raising one defending infantry, taken as casualties, never firing
    /// (Advanced AAE AAAE-29, `combat::fortifications`); `None`: no such
    /// marker.
    pub fortifications: Option<Fortifications>,
}

/// Fortifications ([`CombatRules::fortifications`]; Advanced AAE AAAE-29).
/// The marker and the infantry are the rules' words, found in the game's
/// data as names or aliases; the marker itself is a `building` of
/// `units.yaml` with a cost, so where fortifications stand is data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fortifications {
    /// The marker's unit type (AAAE-29: fortification).
    pub unit: &'static str,
    /// The unit type it raises (infantry).
    pub raises: &'static str,
    /// What one raised defending infantry hits at (3).
    pub defence: u8,
    /// Only infantry of the fortification's owner are raised; `false`
    /// (PROPOSAL): any infantry of its side.
    pub owner_only: bool,
    /// Infantry of the placing side that must stand in the territory when a
    /// fortification is placed there (2).
    pub infantry_to_place: u32,
    /// Only the placing power's own infantry count towards
    /// `infantry_to_place`; `false`: its side's.
    pub own_infantry_to_place: bool,
    /// Infantry placed in the territory in the same place phase count
    /// towards `infantry_to_place`; `false` (PROPOSAL): only those standing
    /// there after the non-combat move.
    pub placed_infantry_count: bool,
    /// The most placed in one territory in one turn (1).
    pub per_turn: u32,
    /// Fortifications in a conquered territory are destroyed; `false`
    /// (PROPOSAL): they pass to the conqueror, as complexes do.
    pub destroyed_on_capture: bool,
}

/// The numbers and the barred region of strategic rail movement
/// ([`CombatRules::strategic_rail`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StrategicRail {
    /// Rail points a power has each turn, one per land unit moved; unused
    /// ones are lost (AAAE-30: 5).
    pub points: u32,
    /// The most spaces a unit moves by rail, whatever its movement (4).
    pub spaces: usize,
    /// The region of `game.yaml` where no rail path may start, pass or end
    /// (AAAE-30: Africa and the Middle East).
    pub barred_region: &'static str,
}

/// A unit a power receives free each turn ([`CombatRules::free_unit_each_turn`]),
/// both named in the rules' words (found in the game's data as names or
/// aliases), so that no board fact is written here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FreeUnit {
    /// The power (AAAE-25: Germany).
    pub power: &'static str,
    /// The unit type (AAAE-25: submarine).
    pub unit: &'static str,
    /// The rule, as the events name it.
    pub rule: &'static str,
}

/// How special force teams play ([`CombatRules::special_force_teams`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpecialForceTeams {
    /// The detection dice of one power's teams in a battle are one pool,
    /// each 1 removing one team (J Boulton JB-26 `=pooled`); `false`: each
    /// team has dice of its own and any 1 among them removes it.
    pub pooled_detection: bool,
    /// The teams of the searching side count among the ground units that
    /// roll detection (digest Part E 1; PROPOSAL: they do not).
    pub teams_search: bool,
    /// At the start of its combat move a power rolls detection against the
    /// enemy teams in the land it controls (JB-26 sweep trigger).
    pub detection_sweep: bool,
    /// One turn's Industrial Strikes on a territory take at most its IPC
    /// value (digest Part E 8; PROPOSAL: no cap but the treasury).
    pub strike_capped: bool,
    /// How many teams a sea transport may put ashore on its move in a turn,
    /// sailing on (J Boulton JB-23, one team per drop-off; PROPOSAL: one a
    /// turn); 0: a team lands only by unloading, which stops the transport.
    pub sea_drop_offs: u32,
}

/// The screen procedure against capital ships
/// ([`CombatRules::submarine_screen`]; Advanced AAE AAAE-48).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubmarineScreen {
    /// The capital ships, in the rules' words (PROPOSAL: battleship,
    /// carrier), found in the game's data as names or aliases.
    pub capital_ships: &'static [&'static str],
    /// One attempting submarine is blocked for every this many defending
    /// destroyers (2).
    pub destroyers_per_block: u32,
    /// An unblocked submarine gets through the screen on this or less (3).
    pub through_at: u8,
    /// Blocked submarines and those that failed the screen fire their one
    /// round in the battle, their hits only on ships that are not capital
    /// ships (PROPOSAL `failed_screen_subs: fire_noncapital`); `false`: they
    /// do nothing and submerge (`idle`).
    pub failed_fire_noncapital: bool,
    /// The destroyers' return fire in the screen is their round-1 fire, so
    /// they do not fire again in round 1 of the battle (`false`, PROPOSAL:
    /// they fire twice).
    pub return_fire_is_round_1: bool,
}

/// Attack values of fighters by basing ([`CombatRules::fighter_basing`]).
/// A fighter is carrier-based when it began the turn in a sea zone, on a
/// carrier (AAAE-35 PROPOSAL); every other fighter is land-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FighterBasing {
    /// A land-based fighter in a sea battle (AAAE-35: 2).
    pub land_based_at_sea: u8,
    /// A land-based fighter in a land battle (3).
    pub land_based_on_land: u8,
    /// A carrier-based fighter in a sea battle (3).
    pub carrier_based_at_sea: u8,
    /// A carrier-based fighter in a land battle (2).
    pub carrier_based_on_land: u8,
}

/// Spaces aircraft may use in the combat move
/// ([`CombatRules::combat_move_air_range`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AirRange {
    /// Aircraft that are not strategic bombers.
    pub fighter: u8,
    /// Strategic bombers.
    pub bomber: u8,
}

/// National abilities ([`CombatRules::national_abilities`]; Advanced AAE
/// AAAE-24..28). Powers and unit types are the rules' words, found in the
/// game's data as names or aliases (`combat::national_abilities`), so no
/// board fact is written here.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NationalAbilities {
    /// Units that defend at another value wherever they are (AAAE-24:
    /// German armor at 3).
    pub defends_at: &'static [NationalValue],
    /// Attacking artillery of a power that supports this many infantry
    /// (AAAE-26: Russia, two).
    pub artillery_supports: &'static [(&'static str, u8)],
    /// Units that attack at another value in an amphibious assault
    /// (AAAE-27: US infantry at 2, the marines).
    pub amphibious_attack: &'static [NationalValue],
    /// Only the units that landed from a transport in the assault count
    /// (AAAE-27 PROPOSAL); `false`: every such unit in a battle where some
    /// attacker landed.
    pub amphibious_landed_only: bool,
    /// Attacking artillery may raise such a unit one more (`false`, AAAE-27
    /// PROPOSAL: support does not lift a marine above its value).
    pub amphibious_supported: bool,
    /// Units that defend at another value in their power's home
    /// territories: its original territories joined to its capital by land
    /// through its original territories (AAAE-28: British fighters at 6 in
    /// London, United Kingdom and Scotland).
    pub home_defense: &'static [NationalValue],
    /// The home defence value also goes to such units of the power's
    /// allies (`false`, AAAE-28 PROPOSAL: British fighters only).
    pub home_defense_allies: bool,
}

/// One unit type of one power at another value ([`NationalAbilities`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NationalValue {
    /// The power, in the rules' words.
    pub power: &'static str,
    /// The unit type, in the rules' words.
    pub unit: &'static str,
    /// The value it fights at.
    pub value: u8,
    /// The firing group's name before the unit type's (`German armor`), so
    /// that its dice have a label of their own.
    pub group: &'static str,
}

/// A surprise attack ([`CombatRules::first_round_surprise`]): in the turn
/// of `attacker` in game round `game_round`, the units of `surprised` that
/// stand in the spaces of `game.yaml`'s region `region` do not fire in the
/// first round of a battle, nor (with `aa_guns`) do their AA guns fire.
/// The powers are named as the game names them or by an alias.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurpriseAttack {
    /// The power whose turn it is.
    pub attacker: &'static str,
    /// The power whose units are surprised.
    pub surprised: &'static str,
    /// The round of the game.
    pub game_round: u32,
    /// The region of `game.yaml` where they are caught.
    pub region: &'static str,
    /// Their AA guns do not fire either.
    pub aa_guns: bool,
}

/// The readings of the air transport and paradrop rules
/// ([`CombatRules::air_transports`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AirTransports {
    /// A paratrooper's attack in the battle it was dropped into (JB-18: 2).
    pub dropped_attack: u8,
    /// A paratrooper's surprise first strike (landing roll 6) is a shot of
    /// its own on top of its round-1 shot (digest Part E 3); `false`: it is
    /// the round-1 shot fired early (JB-17 PROPOSAL).
    pub first_strike_is_extra: bool,
    /// The landing roll of one territory is one pool of dice that the
    /// attacker allots to the dropped units (JB-16 PROPOSAL); `false`: one
    /// labelled die per unit, in unit id order.
    pub pooled_landing_roll: bool,
}

/// A standard order of loss ([`CombatRules::default_losses`]): unit type
/// names (as `units.yaml` writes them), the first lost first, for land
/// battles and for sea battles; unit types not listed go after them,
/// cheapest first.
#[derive(Debug, PartialEq, Eq)]
pub struct DefaultLosses {
    /// The order in a land battle.
    pub land: &'static [&'static str],
    /// The order in a sea battle.
    pub sea: &'static [&'static str],
    /// The rule, as the casualty events name it.
    pub rule: &'static str,
}

/// Coastal fire at the ships of an amphibious assault
/// ([`CombatRules::coastal_fire`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CoastalFire {
    /// The sea zone the assault is launched from, as the game names it.
    pub zone: &'static str,
    /// The power whose territory is assaulted and whose guns fire.
    pub power: &'static str,
    /// A die hits at or below this.
    pub hits_at: u8,
}

/// The readings of the battleship damage table ([`CombatRules::battleship_damage`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BattleshipDamage {
    /// A damaged battleship still carries its hit, so the next one sinks
    /// it (digest JB-41 PROPOSAL); `false`: the roll wipes the hit.
    pub keeps_hit: bool,
    /// A friendly coast is a sea zone beside land of the ship's owner or an
    /// ally (JB-42 PROPOSAL); `false`: of its owner only.
    pub allies_coast: bool,
}

/// The values of the air battle before a raid under the Anniversary FAQ's
/// optional rule: every fighter (aircraft that is not a strategic bomber)
/// may escort or intercept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaidAirBattle {
    /// An escorting fighter hits at or below this.
    pub escort: u8,
    /// An escorting fighter of a power with Jet Fighters hits at or below
    /// this.
    pub jet_escort: u8,
    /// An intercepting fighter hits at or below this.
    pub interceptor: u8,
}

/// How neutral territories (land that no power controls and that is not
/// impassable) are taken, per rule set ([`RuleSetHooks::neutral_rules`]).
/// The base: walked into like an empty enemy territory, free of charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeutralRules {
    /// IPCs paid for each neutral taken in a combat move, from the cash
    /// left after the purchase; a combat move that cannot pay is refused
    /// (DAAK-C §2.7a: 3). 0: free.
    pub entry_cost: u32,
    /// Aircraft take a neutral by flying over it in the combat move, and may
    /// cross one only then (DAAK-C §2.7a, c); `false`: aircraft fly over
    /// neutral land freely.
    pub taken_by_overflight: bool,
    /// Armor may blitz through a neutral (`false`: DAAK-C §2.7b, §3.6c).
    pub blitz_through: bool,
    /// Aircraft may not fly over a neutral at all, in either move
    /// (Advanced AAE AAAE-21, option `neutral_overflight: forbid`);
    /// `false`: as `taken_by_overflight` says.
    pub overflight_forbidden: bool,
    /// A canal whose controlling territories are all neutral is open to
    /// every side's ships (Advanced AAE AAAE-54 PROPOSAL: the Turkish
    /// straits before Turkey is activated; the rule set activates the
    /// neutral when ships pass, AAAE-22); `false`: a neutral keeps its
    /// canal closed (AAE).
    pub neutral_canals_open: bool,
}

/// Which enemy naval units stop moving ships, per rule set
/// ([`RuleSetHooks::ships_blocked_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipBlocking {
    /// Every enemy naval unit in play, submarines and transports included
    /// (AAE FAQ: combat movement always triggers combat).
    AnyNavalUnit,
    /// Only enemy surface warships make a zone hostile; enemy submarines and
    /// transports may be passed or ignored, and moving submarines are stopped
    /// only by enemy destroyers (Anniversary FAQ and errata p.29, digest §4).
    SurfaceWarships,
    /// Moving submarines pass every enemy unit, destroyers included; other
    /// ships are stopped by every enemy naval unit but submarines,
    /// transports included (Advanced AAE AAAE-43 and its PROPOSAL).
    SubmarinesSlipThrough,
}

/// The hooks through which a rule set adds behaviour to the generic engine.
///
/// Every hook is required: a rule set either writes its own or takes its
/// base's with [`inherit!`], so that each module says in one place what
/// it changes and what it keeps. The defaults are [`base::Base`]'s, the
/// one explicit base rule set, never trait default methods.
pub trait RuleSetHooks: Sync {
    /// The `rule_set:` word in `game.yaml`.
    fn id(&self) -> &'static str;

    /// The rule set this one builds on (J Boulton and Advanced AAE on AAE);
    /// `None` for the base rule set alone.
    fn base(&self) -> Option<&'static dyn RuleSetHooks>;

    /// The rule options this rule set adds to its base's
    /// ([`all_options`] gives both). Any other key in `game.yaml`'s
    /// `options:` is an error.
    fn options(&self) -> &'static [OptionSpec];

    /// Checks that only hold under this rule set, run after the generic
    /// validation succeeded (so every name in `game` resolves).
    fn check(&self, game: &GameDef) -> Vec<Problem>;

    /// Whether the IPC value of the land territory `space` counts in the
    /// income of the power that controls it (AAE: the Middle East
    /// territories never do; the Allies pay Germany instead,
    /// [`RuleSetHooks::end_of_turn`]).
    fn territory_pays_income(&self, game: &GameDef, space: SpaceId) -> bool;

    /// `power`'s income in `state` (the base:
    /// [`land_and_convoys`](crate::rules::income::land_and_convoys),
    /// every convoy zone served; Advanced AAE: convoys need a transport,
    /// the US pre-war halving, Siberia after the Far East recall).
    fn income(&self, game: &GameDef, state: &GameState, power: PowerId) -> Income;

    /// IPCs `power` sends an ally in stage 1, before research and the
    /// purchase (Advanced AAE: the orders' `lend_lease`, AAAE-40, and
    /// `oil_convoy`, AAAE-08): checks them and pays. Without dice, checks
    /// and answers `Ok(true)` when the payment needs dice; the base refuses
    /// both sections.
    fn payments(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        orders: &Orders,
        dice: Option<&mut (dyn DiceSource + '_)>,
        events: &mut Vec<Event>,
    ) -> Result<bool, Vec<OrderError>>;

    /// Rule-set effects at the end of `power`'s combat move, before the
    /// battles (Advanced AAE: neutral defenders appear, AAAE-19).
    fn combat_move_ended(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    );

    /// Rule-set effects at the start of `power`'s turn, before its purchase
    /// (Anniversary: China receives its infantry).
    fn start_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    );

    /// Where `power` may mobilize new units this turn and how many each
    /// place takes (the base: its industrial complexes held since the start
    /// of the turn, unlimited in its original territory, else up to the
    /// territory's IPC value, [`crate::rules::production::complexes`]).
    fn placement_sites(&self, game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex>;

    /// Whether units that cannot be mobilized for lack of production
    /// capacity wait for a later turn (Anniversary FAQ) instead of the
    /// purchase being refused (AAE).
    fn holds_unplaceable_units(&self) -> bool;

    /// The placement rule in words, for the error when a power places where
    /// [`RuleSetHooks::placement_sites`] does not allow it; `None` for the
    /// industrial-complex rule.
    fn placement_rule(&self, game: &GameDef, power: PowerId) -> Option<String>;

    /// Rule-set effects at the end of `power`'s turn, after placement and
    /// before income is collected (AAE: the Middle East payment).
    fn end_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    );

    /// Checks the rule set's victory conditions at the end of `power`'s turn
    /// (after income), recording progress in `state` and setting
    /// `state.winner` when a side has won.
    fn victory(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    );

    /// Whether a power whose capital is freed from the enemy gets back at
    /// once every territory it originally controlled that its allies took
    /// while the capital was lost, the AA guns there staying with those
    /// allies (Anniversary FAQ, Miscellaneous; DAAK-C §5.2b): the rule's
    /// name and source for the report; `None`: the allies keep them (AAE).
    fn freed_capital_regains_territories(&self) -> Option<&'static str>;

    /// How neutral territories are taken ([`NeutralRules`]).
    fn neutral_rules(&self, game: &GameDef) -> NeutralRules;

    /// Which enemy naval units stop ships and make a zone hostile.
    fn ships_blocked_by(&self) -> ShipBlocking;

    /// Why ships may not sail from sea zone `from` to `to`, beyond canals
    /// (Anniversary's optional Dardanelles rule); aircraft are unaffected.
    /// `None` when the passage is open.
    fn sea_passage_closed(&self, game: &GameDef, from: SpaceId, to: SpaceId) -> Option<String>;

    /// The points of the combat rules on which editions differ, with the
    /// game's options (optional rules).
    fn combat_rules(&self, game: &GameDef) -> CombatRules;

    /// Why standing orders cannot be kept in this game (a choice that no
    /// rule of it reads, such as AAE's Middle East payment elsewhere), or
    /// `None` when they can.
    fn standing_orders_problem(&self, game: &GameDef, standing: &StandingOrders) -> Option<String>;

    /// How research is played ([`ResearchProcedure`]: Anniversary's
    /// researcher tokens, Classic's weapons development dice), with the
    /// game's options; `None` for a rule set without research. A rule set
    /// that declares the `research` option has one (tested).
    fn research_procedure(&self, game: &GameDef) -> Option<ResearchProcedure>;

    /// Where a side's bid units may be placed before round 1
    /// ([`crate::rules::bid_placement`]).
    fn bid_placement(&self, game: &GameDef) -> crate::rules::bid_placement::BidPlacementRules;

    /// `power` taking over an ally's units (AAE: the Soviet Patriotic War).
    /// The units named must be there; on success they belong to `power`.
    fn take_over_units(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        take: &TakeOver,
        events: &mut Vec<Event>,
    ) -> Result<(), String>;
}

/// Writes, inside `impl RuleSetHooks for ...`, the hooks a rule set takes
/// unchanged from its base: `inherit!(aae::Aae => victory, end_of_turn);`
/// defines each named hook as a call of the base's.
macro_rules! inherit {
    ($base:expr => $($hook:ident),+ $(,)?) => {
        $( $crate::rules::variants::inherit!(@hook $base, $hook); )+
    };
    (@hook $base:expr, check) => {
        fn check(&self, game: &$crate::rules::GameDef) -> Vec<$crate::rules::problem::Problem> {
            $base.check(game)
        }
    };
    (@hook $base:expr, research_procedure) => {
        fn research_procedure(
            &self,
            game: &$crate::rules::GameDef,
        ) -> Option<$crate::rules::research::ResearchProcedure> {
            $base.research_procedure(game)
        }
    };
    (@hook $base:expr, bid_placement) => {
        fn bid_placement(
            &self,
            game: &$crate::rules::GameDef,
        ) -> $crate::rules::bid_placement::BidPlacementRules {
            $base.bid_placement(game)
        }
    };
    (@hook $base:expr, neutral_rules) => {
        fn neutral_rules(
            &self,
            game: &$crate::rules::GameDef,
        ) -> $crate::rules::variants::NeutralRules {
            $base.neutral_rules(game)
        }
    };
    (@hook $base:expr, territory_pays_income) => {
        fn territory_pays_income(
            &self,
            game: &$crate::rules::GameDef,
            space: $crate::rules::SpaceId,
        ) -> bool {
            $base.territory_pays_income(game, space)
        }
    };
    (@hook $base:expr, income) => {
        fn income(
            &self,
            game: &$crate::rules::GameDef,
            state: &$crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
        ) -> $crate::rules::income::Income {
            $base.income(game, state, power)
        }
    };
    (@hook $base:expr, payments) => {
        fn payments(
            &self,
            game: &$crate::rules::GameDef,
            state: &mut $crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
            orders: &$crate::rules::orders::Orders,
            dice: Option<&mut (dyn $crate::dice::DiceSource + '_)>,
            events: &mut Vec<$crate::rules::events::Event>,
        ) -> Result<bool, Vec<$crate::rules::orders::OrderError>> {
            $base.payments(game, state, power, orders, dice, events)
        }
    };
    (@hook $base:expr, combat_move_ended) => {
        fn combat_move_ended(
            &self,
            game: &$crate::rules::GameDef,
            state: &mut $crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
            events: &mut Vec<$crate::rules::events::Event>,
        ) {
            $base.combat_move_ended(game, state, power, events)
        }
    };
    (@hook $base:expr, start_of_turn) => {
        fn start_of_turn(
            &self,
            game: &$crate::rules::GameDef,
            state: &mut $crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
            events: &mut Vec<$crate::rules::events::Event>,
        ) {
            $base.start_of_turn(game, state, power, events)
        }
    };
    (@hook $base:expr, placement_sites) => {
        fn placement_sites(
            &self,
            game: &$crate::rules::GameDef,
            state: &$crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
        ) -> Vec<$crate::rules::production::Complex> {
            $base.placement_sites(game, state, power)
        }
    };
    (@hook $base:expr, holds_unplaceable_units) => {
        fn holds_unplaceable_units(&self) -> bool {
            $base.holds_unplaceable_units()
        }
    };
    (@hook $base:expr, placement_rule) => {
        fn placement_rule(
            &self,
            game: &$crate::rules::GameDef,
            power: $crate::rules::vocab::PowerId,
        ) -> Option<String> {
            $base.placement_rule(game, power)
        }
    };
    (@hook $base:expr, end_of_turn) => {
        fn end_of_turn(
            &self,
            game: &$crate::rules::GameDef,
            state: &mut $crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
            events: &mut Vec<$crate::rules::events::Event>,
        ) {
            $base.end_of_turn(game, state, power, events)
        }
    };
    (@hook $base:expr, victory) => {
        fn victory(
            &self,
            game: &$crate::rules::GameDef,
            state: &mut $crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
            events: &mut Vec<$crate::rules::events::Event>,
        ) {
            $base.victory(game, state, power, events)
        }
    };
    (@hook $base:expr, freed_capital_regains_territories) => {
        fn freed_capital_regains_territories(&self) -> Option<&'static str> {
            $base.freed_capital_regains_territories()
        }
    };
    (@hook $base:expr, ships_blocked_by) => {
        fn ships_blocked_by(&self) -> $crate::rules::variants::ShipBlocking {
            $base.ships_blocked_by()
        }
    };
    (@hook $base:expr, sea_passage_closed) => {
        fn sea_passage_closed(
            &self,
            game: &$crate::rules::GameDef,
            from: $crate::rules::SpaceId,
            to: $crate::rules::SpaceId,
        ) -> Option<String> {
            $base.sea_passage_closed(game, from, to)
        }
    };
    (@hook $base:expr, combat_rules) => {
        fn combat_rules(&self, game: &$crate::rules::GameDef) -> $crate::rules::variants::CombatRules {
            $base.combat_rules(game)
        }
    };
    (@hook $base:expr, standing_orders_problem) => {
        fn standing_orders_problem(
            &self,
            game: &$crate::rules::GameDef,
            standing: &$crate::rules::orders::StandingOrders,
        ) -> Option<String> {
            $base.standing_orders_problem(game, standing)
        }
    };
    (@hook $base:expr, take_over_units) => {
        fn take_over_units(
            &self,
            game: &$crate::rules::GameDef,
            state: &mut $crate::rules::state::GameState,
            power: $crate::rules::vocab::PowerId,
            take: &$crate::rules::variants::TakeOver,
            events: &mut Vec<$crate::rules::events::Event>,
        ) -> Result<(), String> {
            $base.take_over_units(game, state, power, take, events)
        }
    };
}
pub(crate) use inherit;

/// Every option of a rule set: its base's (and theirs), then its own.
pub fn all_options(rule_set: &dyn RuleSetHooks) -> Vec<&'static OptionSpec> {
    let mut out = rule_set.base().map(all_options).unwrap_or_default();
    out.extend(rule_set.options().iter());
    out
}

/// The option named `name` of a rule set or the rule sets it builds on,
/// without collecting them (engine code reads options on every battle).
pub fn find_option(rule_set: &dyn RuleSetHooks, name: &str) -> Option<&'static OptionSpec> {
    rule_set
        .options()
        .iter()
        .find(|s| s.name == name)
        .or_else(|| rule_set.base().and_then(|b| find_option(b, name)))
}

/// Every rule set, in the order they are listed to users.
pub static RULE_SETS: &[&dyn RuleSetHooks] = &[
    &aae::Aae,
    &advanced_aae::AdvancedAae,
    &jboulton::JBoulton,
    &classic::Classic,
    &anniversary::Anniversary,
    &base::Base,
];

/// The rule set with the given id (exact, lower-case match).
pub fn rule_set(id: &str) -> Option<&'static dyn RuleSetHooks> {
    RULE_SETS.iter().copied().find(|r| r.id() == id)
}

/// Problems for every playing power whose starting treasury differs from the
/// income of its starting position. Rule sets where the two are equal by rule
/// (AAE, Classic, Anniversary) use it to catch setup typos.
pub(crate) fn starting_ipcs_equal_income(game: &GameDef, why: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, power) in game.powers().iter().enumerate() {
        if !power.plays || !power.collects_income {
            continue;
        }
        let treasury = game.starting_ipcs(index);
        let income = game.starting_income(index);
        if treasury != income {
            problems.push(Problem::at(
                crate::rules::problem::files::SETUP,
                format!("ipcs.{}", power.name),
                format!(
                    "{} starts with {treasury} IPCs but its starting territories and convoys \
                     are worth {income}; {why}",
                    power.name
                ),
            ));
        }
    }
    problems
}

/// Problems for every unit with the `production` ability that has a cost:
/// rule sets without industrial-complex purchases use it.
pub(crate) fn no_buyable_factories(game: &GameDef, why: &str) -> Vec<Problem> {
    game.unit_types()
        .iter()
        .enumerate()
        .filter(|(_, u)| u.has(&crate::rules::model::Ability::Production) && u.cost.is_some())
        .map(|(i, u)| {
            Problem::at(
                crate::rules::problem::files::UNITS,
                format!("units[{i}].cost"),
                format!("{} has a cost, but {why}", u.name),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::model::OptionValue;

    /// A rule set built on AAE that changes nothing.
    struct OnAae;

    impl RuleSetHooks for OnAae {
        fn id(&self) -> &'static str {
            "aae-unchanged"
        }

        fn base(&self) -> Option<&'static dyn RuleSetHooks> {
            Some(&aae::Aae)
        }

        fn options(&self) -> &'static [OptionSpec] {
            &[]
        }

        inherit!(aae::Aae =>
            bid_placement,
            research_procedure,
            neutral_rules,
            check,
            territory_pays_income,
            income,
            payments,
            combat_move_ended,
            start_of_turn,
            placement_sites,
            holds_unplaceable_units,
            placement_rule,
            end_of_turn,
            victory,
            freed_capital_regains_territories,
            ships_blocked_by,
            sea_passage_closed,
            combat_rules,
            standing_orders_problem,
            take_over_units,
        );
    }

    static ON_AAE: OnAae = OnAae;

    /// The composition promise: a rule set that names AAE as its base and
    /// overrides nothing plays every AAE scenario exactly as AAE does
    /// (same events or errors at every step, same final position).
    #[test]
    fn a_rule_set_built_on_aae_that_overrides_nothing_adjudicates_every_aae_scenario_alike() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let aae = crate::rules::load_dir(&root.join("games/aae")).unwrap();
        let derived = GameDef::with_rule_set(aae.files().clone(), &ON_AAE).unwrap();
        assert_eq!(derived.rule_set().id(), "aae-unchanged");
        assert_eq!(all_options(&ON_AAE).len(), aae::OPTIONS.len());
        assert_plays_every_aae_scenario_alike(&aae, &derived);
    }

    /// Runs every AAE scenario (`tests/scenarios/aae/`) against `aae` and
    /// against `other`, and asserts that each step, each final position and
    /// each expectation comes out the same.
    pub(crate) fn assert_plays_every_aae_scenario_alike(aae: &GameDef, other: &GameDef) {
        use crate::rules::scenario;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files: Vec<_> = std::fs::read_dir(root.join("tests/scenarios/aae"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        let mut compared = 0;
        for file in &files {
            let sc = scenario::parse(&std::fs::read_to_string(file).unwrap()).unwrap();
            let (Ok(a), Ok(b)) = (scenario::run(aae, &sc), scenario::run(other, &sc)) else {
                panic!("{} could not be set up", file.display());
            };
            let name = file.display();
            assert_eq!(a.steps, b.steps, "{name}: steps differ");
            assert_eq!(a.state, b.state, "{name}: final positions differ");
            assert_eq!(a.failures, b.failures, "{name}: expectations differ");
            compared += 1;
        }
        assert!(compared >= 90, "only {compared} AAE scenarios");
    }

    #[test]
    fn rule_set_ids_are_unique_and_found() {
        for (i, a) in RULE_SETS.iter().enumerate() {
            assert!(rule_set(a.id()).is_some());
            for b in &RULE_SETS[i + 1..] {
                assert_ne!(a.id(), b.id());
            }
        }
        assert!(rule_set("AAE").is_none());
    }

    /// An option declared ahead of its rule may be left out or set to its
    /// default (as older matches' copies of AAE's game.yaml do), and is
    /// refused at load when set to anything else.
    #[test]
    fn an_option_whose_rule_is_not_played_yet_is_refused_when_set() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let aae = crate::rules::load_dir(&root.join("games/aae")).unwrap();
        let with = |value: i64| {
            let mut files = aae.files().clone();
            files
                .game
                .options
                .0
                .push(("cash_advance_axis".into(), OptionValue::Int(value)));
            GameDef::new(files)
        };
        assert!(with(12).is_ok(), "the default is accepted");
        let text = with(20).expect_err("20 IPCs refused").to_string();
        assert!(
            text.contains("option cash_advance_axis: the special cash advance")
                && text.contains("is not played yet")
                && text.contains("leave it out (or at its default, 12)"),
            "{text}"
        );
    }

    #[test]
    fn option_defaults_pass_their_own_check() {
        for set in RULE_SETS {
            for spec in set.options() {
                assert_eq!(
                    spec.check(&spec.default_value()),
                    Ok(()),
                    "{}.{}",
                    set.id(),
                    spec.name
                );
            }
        }
    }

    #[test]
    fn option_check_rejects_wrong_types_and_ranges() {
        let spec = OptionSpec {
            name: "n",
            pending: None,
            kind: OptionKind::Int {
                default: 1,
                min: 0,
                max: 5,
            },
            about: "",
        };
        assert!(spec.check(&OptionValue::Int(6)).is_err());
        assert!(spec.check(&OptionValue::Bool(true)).is_err());
        let spec = OptionSpec {
            name: "c",
            pending: None,
            kind: OptionKind::Choice {
                default: "a",
                choices: &["a", "b"],
            },
            about: "",
        };
        assert!(spec.check(&OptionValue::Text("b".into())).is_ok());
        assert!(spec.check(&OptionValue::Text("z".into())).is_err());
    }
}
