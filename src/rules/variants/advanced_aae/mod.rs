//! Advanced Axis & Allies: Europe v2.2 (fan variant: six powers, neutral
//! activation, fortifications, national abilities).

use super::aae::Aae;
use super::{OptionKind, OptionSpec, RuleSetHooks, inherit};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The Advanced AAE rule set.
#[derive(Debug, Clone, Copy)]
pub struct AdvancedAae;

/// The digest's PROPOSAL flags for the variant's ambiguous points.
static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "us_start_cash_halved",
        pending: None,
        kind: OptionKind::Bool { default: false },
        about: "AAAE-10 alternative reading: the USA's starting cash is halved too",
    },
    OptionSpec {
        name: "neutral_overflight",
        pending: None,
        kind: OptionKind::Choice {
            default: "activate",
            choices: &["activate", "forbid"],
        },
        about: "AAAE-21: flying over a neutral activates it, or is illegal",
    },
    OptionSpec {
        name: "straits_both_ways",
        pending: None,
        kind: OptionKind::Bool { default: true },
        about: "AAAE-22: leaving the Black Sea through the straits also activates Turkey",
    },
];

impl RuleSetHooks for AdvancedAae {
    fn id(&self) -> &'static str {
        "advanced_aae"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Aae)
    }

    fn not_yet(&self) -> Option<&'static str> {
        Some(
            "Advanced Axis & Allies Europe v2.2 is not implemented yet: its six \
             powers, derived board and national abilities are still to come",
        )
    }

    inherit!(Aae =>
        neutral_rules,
        research_procedure,
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
        // Starting cash differs from income by rule (AAAE-09 halves Russia's),
        // so only the ban on new industrial complexes is checked (AAAE-18).
        super::no_buyable_factories(
            game,
            "Advanced AAE keeps AAE's ban on new industrial complexes",
        )
    }
}
