//! Axis & Allies Classic (Milton Bradley 2nd edition) as played at DAAK.

use super::{OptionKind, OptionSpec, RuleSetHooks};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The Classic/DAAK rule set.
#[derive(Debug, Clone, Copy)]
pub struct Classic;

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "economic_victory_axis",
        kind: OptionKind::Int {
            default: 84,
            min: 0,
            max: 1000,
        },
        about: "DAAK 'Magic 84': the Axis win when their territories are worth at least this \
                at the end of a round (0 = off)",
    },
    OptionSpec {
        name: "neutral_entry_cost",
        kind: OptionKind::Int {
            default: 3,
            min: 0,
            max: 100,
        },
        about: "IPCs paid to enter a neutral territory (DAAK-C 2.7)",
    },
    OptionSpec {
        name: "weapons_development",
        kind: OptionKind::Bool { default: true },
        about: "weapons development rolls before purchase",
    },
];

impl RuleSetHooks for Classic {
    fn id(&self) -> &'static str {
        "classic"
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        super::starting_ipcs_equal_income(game, "in Classic starting IPCs equal starting income")
    }
}
