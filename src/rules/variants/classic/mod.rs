//! Axis & Allies Classic (Milton Bradley 2nd edition) as played at DAAK.

use super::base::Base;
use super::{OptionKind, OptionSpec, RuleSetHooks, inherit};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The Classic/DAAK rule set.
#[derive(Debug, Clone, Copy)]
pub struct Classic;

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "economic_victory_axis",
        pending: None,
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
        pending: None,
        kind: OptionKind::Int {
            default: 3,
            min: 0,
            max: 100,
        },
        about: "IPCs paid to enter a neutral territory (DAAK-C 2.7)",
    },
    OptionSpec {
        name: "weapons_development",
        pending: None,
        kind: OptionKind::Bool { default: true },
        about: "weapons development rolls before purchase",
    },
];

impl RuleSetHooks for Classic {
    fn id(&self) -> &'static str {
        "classic"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Base)
    }

    fn not_yet(&self) -> Option<&'static str> {
        Some(
            "Axis & Allies Classic as played by DAAK is not implemented yet: \
             its board, weapons development and DAAK's rulings are still to come",
        )
    }

    inherit!(Base =>
        territory_pays_income,
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

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        super::starting_ipcs_equal_income(game, "in Classic starting IPCs equal starting income")
    }
}
