//! The game-definition files as data: one Rust type per YAML file.
//!
//! A game lives in `games/<game-id>/` as four files: `game.yaml` ([`GameFile`]:
//! identity, rule set, powers, sides, turn order, rule options), `board.yaml`
//! ([`BoardFile`]: territories, sea zones, canals), `units.yaml`
//! ([`UnitsFile`]) and `setup.yaml` ([`SetupFile`]). `docs/games.md` is the
//! reference for organisers.
//!
//! These types are only the shape of the files. Cross-references (a neighbour
//! that exists, a power that is declared, ...) are checked by
//! [`crate::rules::GameDef::new`], which turns the files into a validated game.
//! Fields that an engine needs to be present are `Option`s here on purpose, so
//! that a missing value is reported with all the other problems instead of
//! stopping the YAML parser at the first one.

use serde::Deserialize;

use super::entries::Entries;

/// `game.yaml`: what the game is and who plays it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameFile {
    /// Short identifier, equal to the directory name (`aae`).
    pub id: String,
    /// Full name shown in reports.
    pub name: String,
    /// Which rule set's behaviour applies: `aae`, `advanced_aae`, `jboulton`,
    /// `classic`, `anniversary` or `generic` (plain data, no special rules).
    pub rule_set: String,
    /// Free text: where the data came from and what was corrected.
    #[serde(default)]
    pub notes: Option<String>,
    /// The powers (nations), in any order.
    pub powers: Vec<Power>,
    /// The sides (alliances); every power belongs to exactly one.
    pub sides: Vec<Side>,
    /// The order in which powers take their turns in each round.
    pub turn_order: Vec<String>,
    /// Rule options of the rule set, overriding its defaults.
    #[serde(default)]
    pub options: Entries<OptionValue>,
    /// National objectives: bonus income for positions (Anniversary's
    /// optional rule; paid only where the rule set and its options say).
    #[serde(default)]
    pub national_objectives: Vec<NationalObjective>,
    /// Research and development (Anniversary): what a researcher token
    /// costs and the breakthrough charts. Absent = the game has no research.
    #[serde(default)]
    pub research: Option<Research>,
    /// Named sets of spaces that the rule set's rules read, so that the
    /// rules name no space of any board (Advanced AAE: `light_red`, the
    /// Russian areas of the German surprise attack; `far_east_recall`, where
    /// the Soviet Far East recall arrives). Which names a rule set reads, and
    /// which it requires, is its business ([`RuleSetHooks::check`](crate::rules::variants::RuleSetHooks::check)).
    #[serde(default)]
    pub regions: Entries<Vec<String>>,
}

/// `research:` in `game.yaml`: the price of research, the breakthrough
/// charts and the numbers the developments change. How research is played
/// (tokens kept until a breakthrough, or dice rolled at once) is the rule
/// set's ([`RuleSetHooks::research_procedure`](crate::rules::variants::RuleSetHooks::research_procedure)).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Research {
    /// IPCs per researcher token (Anniversary) or research die (Classic,
    /// also written `die_cost`).
    #[serde(alias = "die_cost")]
    pub token_cost: u32,
    /// The breakthrough charts, numbered from 1 in this order.
    pub charts: Vec<ResearchChart>,
    /// Unit prices with the Improved Shipyards development (unit name to
    /// IPCs); units not listed keep their price.
    #[serde(default)]
    pub shipyard_costs: Entries<u32>,
    /// The unit values each development changes (development name to its
    /// values). Absent in game files written before the values were data:
    /// those games keep the Anniversary values the engine then had built in
    /// ([`crate::rules::research::BUILT_IN_VALUES`]).
    #[serde(default)]
    pub effects: Option<Entries<DevelopmentValues>>,
}

/// The unit values a development changes for the power that gained it
/// (`research.effects` in `game.yaml`): `{units: fighters, defense: 1}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DevelopmentValues {
    /// The units it changes.
    pub units: UnitClass,
    /// Added to their attack value (units that attack at all).
    #[serde(default)]
    pub attack: i8,
    /// Added to their defense value (units that defend at all).
    #[serde(default)]
    pub defense: i8,
    /// Added to their movement.
    #[serde(default)]
    pub movement: i8,
    /// Added to their price in IPCs (never below 1).
    #[serde(default)]
    pub cost: i8,
    /// Dice each rolls when attacking and in strategic bombing raids.
    #[serde(default)]
    pub dice: Option<u8>,
    /// Of those dice only the best counts (Anniversary's Heavy Bombers);
    /// otherwise every die counts (Classic's).
    #[serde(default)]
    pub best_die_only: bool,
}

/// Which units a development changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitClass {
    /// Aircraft that are not strategic bombers.
    Fighters,
    /// Aircraft that make strategic bombing raids.
    Bombers,
    /// Every aircraft.
    Aircraft,
    /// Units with a first strike (submarines).
    Submarines,
    /// Every unit.
    All,
}

impl UnitClass {
    /// Whether units of type `t` belong to the class.
    pub fn includes(self, t: &UnitType) -> bool {
        let air = t.kind == Some(UnitKind::Air);
        let bomber = t.has(&Ability::StrategicBomber);
        match self {
            UnitClass::Fighters => air && !bomber,
            UnitClass::Bombers => air && bomber,
            UnitClass::Aircraft => air,
            UnitClass::Submarines => t.has(&Ability::FirstStrike),
            UnitClass::All => true,
        }
    }

    /// The class as written in `game.yaml`.
    pub fn word(self) -> &'static str {
        match self {
            UnitClass::Fighters => "fighters",
            UnitClass::Bombers => "bombers",
            UnitClass::Aircraft => "aircraft",
            UnitClass::Submarines => "submarines",
            UnitClass::All => "all",
        }
    }
}

/// One breakthrough chart: six developments, in die order (1 to 6).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResearchChart {
    /// The chart's name as players write it in orders ("air and naval").
    pub name: String,
    /// The developments, the one for a die of 1 first.
    pub developments: Vec<String>,
}

/// A national objective: `power` earns `bonus` IPCs at its income when its
/// side controls the listed territories (all of them, or `at_least` of
/// them) and the other conditions hold.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationalObjective {
    /// The power that earns it.
    pub power: String,
    /// Its name, as the rulebook gives it.
    pub name: String,
    /// IPCs earned.
    pub bonus: u32,
    /// Territories the power's side must control.
    #[serde(default)]
    pub side_controls: Vec<String>,
    /// How many of `side_controls` suffice; absent = all of them.
    #[serde(default)]
    pub at_least: Option<u32>,
    /// No unit of another power of the side may stand in a territory the
    /// power controls (the Soviet "Great Patriotic War" objective).
    #[serde(default)]
    pub no_allied_units_in_own_territories: bool,
    /// Sea zones that must hold no enemy surface warship.
    #[serde(default)]
    pub no_enemy_surface_warships_in: Vec<String>,
}

/// A power (nation) in the game.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Power {
    /// The power's name as players write it ("Soviet Union").
    pub name: String,
    /// Other accepted spellings ("USSR", "Russians").
    #[serde(default)]
    pub aliases: Vec<String>,
    /// The territory holding its capital, if it has one.
    #[serde(default)]
    pub capital: Option<String>,
    /// Whether the power takes turns. A power that does not play (AAE's Middle
    /// East territories) can still own territories and units.
    #[serde(default = "yes")]
    pub plays: bool,
    /// Whether it collects income from the territories it controls.
    #[serde(default = "yes")]
    pub collects_income: bool,
    /// The only spaces its units may ever enter (Anniversary's China); empty
    /// for no limit.
    #[serde(default)]
    pub confined_to: Vec<String>,
    /// The power whose turn this power's turn is part of (Anniversary's
    /// China, played by the US player in the US turn): territories either
    /// of them captured count as captured this turn for both.
    #[serde(default)]
    pub shares_turn_with: Option<String>,
}

fn yes() -> bool {
    true
}

/// A side (alliance) and its members.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Side {
    /// "Axis", "Allies".
    pub name: String,
    /// Member powers.
    pub powers: Vec<String>,
}

/// The value of a rule option.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum OptionValue {
    /// `true` / `false`.
    Bool(bool),
    /// A whole number.
    Int(i64),
    /// One of a fixed set of words.
    Text(String),
}

impl std::fmt::Display for OptionValue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OptionValue::Bool(b) => write!(f, "{b}"),
            OptionValue::Int(i) => write!(f, "{i}"),
            OptionValue::Text(t) => f.write_str(t),
        }
    }
}

/// `board.yaml`: the map.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardFile {
    /// Land territories, including neutrals.
    pub territories: Vec<Territory>,
    /// Sea zones, including convoy zones.
    pub sea_zones: Vec<SeaZone>,
    /// Canals and straits whose passage depends on who controls some land.
    #[serde(default)]
    pub canals: Vec<Canal>,
    /// Amphibious assaults from a sea zone onto a territory that depend on
    /// control of some land (Advanced AAE AAAE-51: West Germany from the
    /// Danish Sea only with Denmark).
    #[serde(default)]
    pub landings: Vec<Landing>,
}

/// A restricted landing: an amphibious assault from `from` onto `to` only
/// while the attacker's side has controlled every territory of
/// `controlled_by` since the start of its turn.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Landing {
    /// The sea zone the assault is launched from.
    pub from: String,
    /// The territory assaulted (beside `from`).
    pub to: String,
    /// Land territories the attacker's side must all control.
    pub controlled_by: Vec<String>,
}

/// A land territory.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Territory {
    /// Name as printed on the board.
    pub name: String,
    /// Other accepted names (abbreviations, TripleA's name).
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Income value in IPCs (0 for most islands and all neutrals).
    pub ipc: Option<u32>,
    /// The power whose territory this is at the start of the game; liberation
    /// returns it to that power. Absent for neutrals.
    #[serde(default)]
    pub original_owner: Option<String>,
    /// Adjacent territories and sea zones. Adjacency must be listed on both
    /// sides; the loader rejects one-way entries.
    #[serde(default)]
    pub neighbours: Vec<String>,
    /// No unit may enter (or, for aircraft, fly over) this territory.
    #[serde(default)]
    pub impassable: bool,
    /// Counts as a victory city (games that use them).
    #[serde(default)]
    pub victory_city: bool,
    /// The city that names this territory in some rule texts ("Berlin").
    #[serde(default)]
    pub city: Option<String>,
}

/// A sea zone.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeaZone {
    /// Name as printed on the board ("Baltic Sea", "British Convoy 3").
    pub name: String,
    /// Other accepted names.
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Adjacent sea zones and coastal territories.
    #[serde(default)]
    pub neighbours: Vec<String>,
    /// Present when this zone is a convoy zone (AAE): its income belongs to a
    /// power while that power controls the zone.
    #[serde(default)]
    pub convoy: Option<Convoy>,
}

/// A convoy zone's income.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Convoy {
    /// IPCs added to the power's income while it controls the zone.
    pub value: u32,
    /// The power whose income the convoy carries.
    pub power: String,
    /// Land territories the power must also control to collect (AAE: the
    /// Soviet Convoy pays only with Archangel).
    #[serde(default)]
    pub requires: Vec<String>,
}

/// A canal or strait: passage between two sea zones that depends on control
/// of land.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Canal {
    /// "Bosphorus", "Suez Canal".
    pub name: String,
    /// The two sea zones it joins; they must also be neighbours on the board.
    pub sea_zones: Vec<String>,
    /// Land territories that a power's side must all control at the start of
    /// its turn for its ships to pass. A neutral that nobody can enter keeps
    /// the canal closed for everyone.
    pub controlled_by: Vec<String>,
}

/// `units.yaml`: the unit types.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitsFile {
    /// Every unit type of the game.
    pub units: Vec<UnitType>,
}

/// Where a unit lives and moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UnitKind {
    /// Moves over land; may ride transports.
    Land,
    /// Moves at sea.
    Sea,
    /// Flies; must land at the end of its move.
    Air,
    /// Does not move (industrial complex).
    Building,
}

impl UnitKind {
    /// The word used in the files.
    pub fn as_str(self) -> &'static str {
        match self {
            UnitKind::Land => "land",
            UnitKind::Sea => "sea",
            UnitKind::Air => "air",
            UnitKind::Building => "building",
        }
    }
}

/// A unit type and its printed values.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitType {
    /// Singular name as players write it ("infantry", "armor").
    pub name: String,
    /// Other accepted names ("inf", "tank").
    #[serde(default)]
    pub aliases: Vec<String>,
    /// Land, sea, air or building.
    pub kind: Option<UnitKind>,
    /// Purchase cost in IPCs; absent when the unit cannot be bought.
    #[serde(default)]
    pub cost: Option<u32>,
    /// Attack value (hits on a d6 roll at or below it; 0 = does not attack).
    pub attack: Option<u8>,
    /// Defense value.
    pub defense: Option<u8>,
    /// Movement allowance in spaces.
    pub movement: Option<u8>,
    /// Hits needed to destroy it (battleships: 2).
    #[serde(default = "one")]
    pub hit_points: u8,
    /// Cargo points a sea transport uses for it; absent = cannot be carried.
    #[serde(default)]
    pub transport_cost: Option<u8>,
    /// Cargo points this unit carries (transports).
    #[serde(default)]
    pub transport_capacity: Option<u8>,
    /// Carrier deck slots it uses; absent = cannot land on a carrier.
    #[serde(default)]
    pub carrier_cost: Option<u8>,
    /// Carrier deck slots this unit provides.
    #[serde(default)]
    pub carrier_capacity: Option<u8>,
    /// Special abilities.
    #[serde(default)]
    pub abilities: Vec<Ability>,
}

fn one() -> u8 {
    1
}

impl UnitType {
    /// A surface warship: a ship that is neither a submarine (`submerge`)
    /// nor an unarmed transport (Anniversary's "surface warships").
    pub fn is_surface_warship(&self) -> bool {
        let transport = self.transport_capacity.is_some() && self.attack.unwrap_or(0) == 0;
        self.kind == Some(UnitKind::Sea) && !self.has(&Ability::Submerge) && !transport
    }

    /// True when the unit has `ability` (compared by kind, ignoring values).
    pub fn has(&self, ability: &Ability) -> bool {
        self.abilities
            .iter()
            .any(|a| std::mem::discriminant(a) == std::mem::discriminant(ability))
    }
}

/// A named special ability. In YAML a plain word (`- blitz`), or a word with
/// its number (`- bombard: 4`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ability {
    /// May move through an empty enemy territory in combat movement (armor).
    Blitz,
    /// Raises the attack of one supportable unit to 2 (artillery).
    ArtillerySupport,
    /// Can be raised by artillery support (infantry).
    ArtillerySupportable,
    /// Attacking: fires first and its victims do not fire back, while no enemy
    /// unit with `anti_submarine` is present (submarine).
    FirstStrike,
    /// May leave a battle by submerging (submarine).
    Submerge,
    /// Its hits may not be taken by aircraft (submarine).
    CannotHitAir,
    /// Aircraft cannot hit it unless a friendly `anti_submarine` unit is
    /// present (submarine).
    HiddenFromAir,
    /// Cancels enemy submarines' first strike and reveals them to aircraft
    /// (destroyer).
    AntiSubmarine,
    /// Fires one shore-bombardment shot in an amphibious assault, hitting at
    /// or below the number.
    Bombard(u8),
    /// May make strategic bombing raids on industrial complexes.
    StrategicBomber,
    /// Fights as an escort in a bombing raid, hitting at or below the number.
    Escort(u8),
    /// Intercepts bombing raids on its territory, hitting at or below the number.
    Interceptor(u8),
    /// Fires at attacking aircraft, one die per plane, hitting at or below the
    /// number (AA gun).
    AntiAircraft(u8),
    /// New units are placed here (industrial complex).
    Production,
    /// Taken over, not destroyed, when its territory changes hands.
    CapturedWithTerritory,
    /// May be dropped from the air into combat (paratrooper).
    Paradrop,
    /// Never chosen as a casualty and never rolls in battle (J Boulton special
    /// force team).
    NoCombat,
    /// Mechanized infantry (J Boulton JB-37): artillery supports it only
    /// where the rule set says so ([`crate::rules::variants::CombatRules`]'s
    /// `artillery_supports_mechanized`).
    Mechanized,
    /// May be carried by an air transport, an aircraft with a
    /// `transport_capacity` (J Boulton JB-08: infantry, artillery,
    /// paratroopers).
    AirTransportable,
}

/// `setup.yaml`: the position at the start of round 1.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SetupFile {
    /// IPCs in each power's treasury at the start.
    pub ipcs: Entries<u32>,
    /// Territories (and convoy zones) controlled at the start by someone other
    /// than their original owner (or, for convoy zones, their convoy power).
    #[serde(default)]
    pub owners: Entries<String>,
    /// Units on the board: space -> power -> unit type -> count.
    #[serde(default)]
    pub units: Entries<Entries<Entries<u32>>>,
}
