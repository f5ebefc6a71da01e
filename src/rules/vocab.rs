//! The engine's vocabulary: the identifiers of spaces, powers and unit
//! types, unit lists, and the developments research yields. Every part of
//! the engine and the layers around it (orders, state, combat, reports,
//! matches) speak of these; this module imports nothing of the engine, so
//! no circle runs through it.

/// A land territory or sea zone, numbered territories first, then sea zones,
/// in file order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SpaceId(pub usize);

/// Index of a power in [`GameDef::powers`](crate::rules::GameDef::powers).
pub type PowerId = usize;

/// Index of a unit type in [`GameDef::unit_types`](crate::rules::GameDef::unit_types).
pub type UnitTypeId = usize;

/// `3 infantry`: a count of one unit type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct UnitCount {
    /// The unit type.
    pub unit: UnitTypeId,
    /// How many (at least 1).
    pub count: u32,
}

/// A unit list as written: `3 infantry, 1 artillery, 2 armor`.
pub type UnitList = Vec<UnitCount>;

/// A development gained by research. Powers never share them: a development
/// applies only to units of the power that gained it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Technology {
    /// Each artillery supports two infantry.
    ImprovedArtillerySupport,
    /// AA guns may strike an enemy industrial complex.
    Rockets,
    /// Bombers may carry one infantry each into a combat move.
    Paratroopers,
    /// Complexes in territories worth 3 or more mobilize two extra units;
    /// repairs cost half.
    IncreasedFactoryProduction,
    /// One die of IPCs at each income.
    WarBonds,
    /// Each armor lets one infantry move two spaces with it.
    ImprovedMechanizedInfantry,
    /// Submarines attack at 3.
    SuperSubmarines,
    /// Fighters attack at 4 (Anniversary).
    JetFighters,
    /// Naval units cost less.
    ImprovedShipyards,
    /// AA guns hit on 1 or 2.
    Radar,
    /// Fighters and bombers move two spaces more.
    LongRangeAircraft,
    /// Bombers roll more dice in attacks and raids (Anniversary: two, the
    /// best counting; Classic: three, every one counting).
    HeavyBombers,
    /// Fighters defend at 5 (Classic).
    JetPower,
    /// Every unit costs 1 IPC less (Classic).
    IndustrialTechnology,
}

impl Technology {
    /// Every development, in a fixed order.
    pub const ALL: [Technology; 14] = [
        Technology::ImprovedArtillerySupport,
        Technology::Rockets,
        Technology::Paratroopers,
        Technology::IncreasedFactoryProduction,
        Technology::WarBonds,
        Technology::ImprovedMechanizedInfantry,
        Technology::SuperSubmarines,
        Technology::JetFighters,
        Technology::ImprovedShipyards,
        Technology::Radar,
        Technology::LongRangeAircraft,
        Technology::HeavyBombers,
        Technology::JetPower,
        Technology::IndustrialTechnology,
    ];

    /// The development's name in the rulebook's words.
    pub fn name(self) -> &'static str {
        match self {
            Technology::ImprovedArtillerySupport => "improved artillery support",
            Technology::Rockets => "rockets",
            Technology::Paratroopers => "paratroopers",
            Technology::IncreasedFactoryProduction => "increased factory production",
            Technology::WarBonds => "war bonds",
            Technology::ImprovedMechanizedInfantry => "improved mechanized infantry",
            Technology::SuperSubmarines => "super submarines",
            Technology::JetFighters => "jet fighters",
            Technology::ImprovedShipyards => "improved shipyards",
            Technology::Radar => "radar",
            Technology::LongRangeAircraft => "long-range aircraft",
            Technology::HeavyBombers => "heavy bombers",
            Technology::JetPower => "jet power",
            Technology::IndustrialTechnology => "industrial technology",
        }
    }

    /// The development named `name`, ignoring case, and treating spaces,
    /// hyphens and underscores alike (`heavy_bombers`, `Long Range Aircraft`).
    pub fn from_name(name: &str) -> Option<Technology> {
        let norm = |s: &str| -> String {
            s.trim()
                .chars()
                .map(|c| match c {
                    '-' | '_' => ' ',
                    c => c.to_ascii_lowercase(),
                })
                .collect::<String>()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        let want = norm(name);
        Technology::ALL.into_iter().find(|t| norm(t.name()) == want)
    }
}

impl std::fmt::Display for Technology {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
