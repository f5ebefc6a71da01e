//! The national abilities of Advanced AAE (AAAE-24..28) that change values
//! in battle: German armor defends at 3, Russian artillery supports two
//! infantry, US infantry attack at 2 in amphibious assaults (the marines),
//! British fighters defend at 6 at home (the RAF). The combat engine and the
//! odds read them from [`NationalAbilities`]
//! (`combat::national_abilities`); the Wolfpack (AAAE-25) is a placement
//! rule, not a value (`super::sea`).
//!
//! Powers and units are the rules' words; the RAF's "London, United
//! Kingdom or Scotland" is read from the board as Britain's home
//! territories (its capital and its original territories joined to it by
//! land), so that no space is named here.

use crate::rules::GameDef;
use crate::rules::variants::{NationalAbilities, NationalValue, OptionKind, OptionSpec};

/// AAAE-27 PROPOSAL: only US infantry that landed from a transport in the
/// assault are marines.
pub const MARINES_LANDED_ONLY: OptionSpec = OptionSpec {
    name: "marines_landed_only",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "AAAE-27 (digest PROPOSAL): only US infantry that landed from a transport attack at \
            2 in an amphibious assault; off, every US infantry in a battle where some US unit \
            landed does",
};

/// AAAE-27 PROPOSAL: artillery does not raise a marine above 2.
pub const MARINES_TAKE_ARTILLERY_SUPPORT: OptionSpec = OptionSpec {
    name: "marines_take_artillery_support",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "AAAE-27 (digest PROPOSAL off): attacking artillery may raise a marine to 3; off, \
            support does not lift a marine above 2 and goes to other infantry",
};

/// AAAE-28 PROPOSAL: only British fighters are the RAF.
pub const RAF_ALLIED_FIGHTERS: OptionSpec = OptionSpec {
    name: "raf_allied_fighters",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "AAAE-28 (digest PROPOSAL off): allied fighters defending in London, United Kingdom \
            or Scotland defend at 6 too; off, British fighters only",
};

/// AAAE-24: German armor defends at 3.
const GERMAN_ARMOR: &[NationalValue] = &[NationalValue {
    power: "Germany",
    unit: "armour",
    value: 3,
    group: "German",
}];

/// AAAE-26: each Russian artillery supports two attacking infantry.
const RUSSIAN_ARTILLERY: &[(&str, u8)] = &[("Russia", 2)];

/// AAAE-27: US infantry attack at 2 in amphibious assaults.
const MARINES: &[NationalValue] = &[NationalValue {
    power: "USA",
    unit: "infantry",
    value: 2,
    group: "marine",
}];

/// AAAE-28: British fighters defend at 6 in Britain's home territories.
const RAF: &[NationalValue] = &[NationalValue {
    power: "Britain",
    unit: "fighter",
    value: 6,
    group: "RAF",
}];

/// The national abilities with the match's options.
pub(crate) fn abilities(game: &GameDef) -> NationalAbilities {
    NationalAbilities {
        defends_at: GERMAN_ARMOR,
        artillery_supports: RUSSIAN_ARTILLERY,
        amphibious_attack: MARINES,
        amphibious_landed_only: MARINES_LANDED_ONLY.on(game),
        amphibious_supported: MARINES_TAKE_ARTILLERY_SUPPORT.on(game),
        home_defense: RAF,
        home_defense_allies: RAF_ALLIED_FIGHTERS.on(game),
    }
}

/// Problems for every unit type the abilities name that the game's units
/// do not (as a name or an alias): a board whose units are named otherwise
/// must give the rules' words as aliases. (The powers are checked with the
/// six powers.)
pub(crate) fn unit_words(game: &GameDef) -> Vec<crate::rules::problem::Problem> {
    let mut words: Vec<&str> = [GERMAN_ARMOR, MARINES, RAF]
        .iter()
        .flat_map(|v| v.iter().map(|e| e.unit))
        .collect();
    words.push("artillery");
    words
        .into_iter()
        .filter(|w| game.unit_type(w).is_none())
        .map(|w| {
            crate::rules::problem::Problem::at(
                crate::rules::problem::files::UNITS,
                "units".to_owned(),
                format!(
                    "the national abilities of Advanced AAE (AAAE-24..28) name the unit {w}; no \
                     unit type is called so: name one so, or give it the alias {w}"
                ),
            )
        })
        .collect()
}
