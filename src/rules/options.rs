//! Rule options: each declared once, as an [`OptionSpec`] (its name in
//! `game.yaml`'s `options:`, type, default and meaning), and read by the
//! engine only through its typed accessors ([`OptionSpec::on`],
//! [`OptionSpec::number`], [`OptionSpec::word`]), never by a string. Options
//! shared by several rule sets (Low Luck) are declared here; a rule set's own
//! options beside its hooks in `variants/<rule set>.rs`. `tests/tidy.rs`
//! checks that no other module reads an option by its name.

use crate::rules::GameDef;
use crate::rules::model::OptionValue;

/// Low Luck (a league option, not in any rulebook): each firing group scores
/// one hit per 6 points of total strength and rolls one die for the rest.
pub const LOW_LUCK: OptionSpec = OptionSpec {
    name: "low_luck",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "Low Luck: each firing group scores one hit per 6 points of total strength \
            and rolls one die for the remainder (a common league option, not in the \
            rulebook)",
};

/// The type and default of a rule option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool {
        /// Value when `game.yaml` does not set it.
        default: bool,
    },
    /// A whole number in `min..=max`.
    Int {
        /// Value when `game.yaml` does not set it.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// One word out of a fixed list.
    Choice {
        /// Value when `game.yaml` does not set it.
        default: &'static str,
        /// The accepted words.
        choices: &'static [&'static str],
    },
}

/// A rule option a rule set understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key in `game.yaml`'s `options:`.
    pub name: &'static str,
    /// Its type and default.
    pub kind: OptionKind,
    /// What it changes and where the reading comes from.
    pub about: &'static str,
    /// Why the rule it names is not played yet, for an option declared
    /// ahead of its rule: a game may leave it out or at its default, and
    /// setting it to anything else is refused at load with this reason.
    pub pending: Option<&'static str>,
}

impl OptionSpec {
    /// The default value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Bool { default } => OptionValue::Bool(default),
            OptionKind::Int { default, .. } => OptionValue::Int(default),
            OptionKind::Choice { default, .. } => OptionValue::Text(default.to_owned()),
        }
    }

    /// Checks a value from `game.yaml`; the error says what was expected.
    pub fn check(&self, value: &OptionValue) -> Result<(), String> {
        match (self.kind, value) {
            (OptionKind::Bool { .. }, OptionValue::Bool(_)) => Ok(()),
            (OptionKind::Int { min, max, .. }, OptionValue::Int(v)) if (min..=max).contains(v) => {
                Ok(())
            }
            (OptionKind::Int { min, max, .. }, _) => Err(format!(
                "expected a whole number from {min} to {max}, found {value}"
            )),
            (OptionKind::Choice { choices, .. }, OptionValue::Text(t))
                if choices.contains(&t.as_str()) =>
            {
                Ok(())
            }
            (OptionKind::Choice { choices, .. }, _) => Err(format!(
                "expected one of {}, found {value}",
                choices.join(", ")
            )),
            (OptionKind::Bool { .. }, _) => Err(format!("expected true or false, found {value}")),
        }
    }
}

/// Research and development (Anniversary's researcher tokens and charts):
/// played when the game has `research:` data and this option is on.
pub const RESEARCH: OptionSpec = OptionSpec {
    name: "research",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "research and development",
};

/// The optional rule of fighter escorts and interceptors in strategic
/// bombing raids (Anniversary FAQ 2010, Additional Optional Rules).
pub const FIGHTER_ESCORTS: OptionSpec = OptionSpec {
    name: "fighter_escorts",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "FAQ optional rule: fighters escort bombers (at 1, 2 with Jet Fighters) and \
            defending fighters intercept (at 2) in one round before a strategic bombing raid",
};

impl OptionSpec {
    /// The option's value in `game`: `game.yaml`'s, else the default;
    /// `None` when the game's rule set does not have this option.
    pub fn value(&self, game: &GameDef) -> Option<OptionValue> {
        game.option(self.name)
    }

    /// A `Bool` option's value; `false` when the game's rule set does not
    /// have it (the rule it switches on is not played).
    pub fn on(&self, game: &GameDef) -> bool {
        self.value(game) == Some(OptionValue::Bool(true))
    }

    /// An `Int` option's value, or `None` when the game's rule set does not
    /// have it.
    pub fn number(&self, game: &GameDef) -> Option<i64> {
        match self.value(game) {
            Some(OptionValue::Int(n)) => Some(n),
            _ => None,
        }
    }

    /// A `Choice` option's word, or `None` when the game's rule set does not
    /// have it.
    pub fn word(&self, game: &GameDef) -> Option<String> {
        match self.value(game) {
            Some(OptionValue::Text(t)) => Some(t),
            _ => None,
        }
    }
}
