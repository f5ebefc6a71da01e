//! J Boulton house rules on top of AAE (air transports, paratroopers, special
//! force teams, mechanized infantry, heavy armor, isolation).

use super::aae::Aae;
use super::{OptionKind, OptionSpec, RuleSetHooks, inherit};

/// The J Boulton rule set.
#[derive(Debug, Clone, Copy)]
pub struct JBoulton;

/// J Boulton's options, on top of AAE's (its base): the house rules' open
/// points.
static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "isolation",
        pending: None,
        kind: OptionKind::Bool { default: true },
        about: "supply/isolation: land units in an isolated territory attack at half value \
                (JB-39, JB-40)",
    },
    OptionSpec {
        name: "mech_artillery_support",
        pending: None,
        kind: OptionKind::Bool { default: false },
        about: "whether artillery supports mechanized infantry (digest PROPOSAL: no)",
    },
    OptionSpec {
        name: "free_sft_slot",
        pending: None,
        kind: OptionKind::Bool { default: true },
        about: "every transport carries one special force team on top of its capacity (JB-23)",
    },
];

impl RuleSetHooks for JBoulton {
    fn id(&self) -> &'static str {
        "jboulton"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Aae)
    }

    fn not_yet(&self) -> Option<&'static str> {
        Some(
            "the J Boulton house rules are not implemented yet (issue 18): air transports, \
             paratroopers, special force teams, mechanized infantry, heavy armor and \
             isolation are still to come",
        )
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    inherit!(Aae =>
        neutral_rules,
        research_procedure,
        check,
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
}
