//! J Boulton house rules on top of AAE (air transports, paratroopers, special
//! force teams, mechanized infantry, heavy armor, isolation).

use super::{OptionKind, OptionSpec, RuleSetHooks};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The J Boulton rule set.
#[derive(Debug, Clone, Copy)]
pub struct JBoulton;

/// J Boulton's options: the base AAE ones plus the house rules' open points.
static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "isolation",
        kind: OptionKind::Bool { default: true },
        about: "supply/isolation: land units in an isolated territory attack at half value \
                (JB-39, JB-40)",
    },
    OptionSpec {
        name: "mech_artillery_support",
        kind: OptionKind::Bool { default: false },
        about: "whether artillery supports mechanized infantry (digest PROPOSAL: no)",
    },
    OptionSpec {
        name: "free_sft_slot",
        kind: OptionKind::Bool { default: true },
        about: "every transport carries one special force team on top of its capacity (JB-23)",
    },
];

impl RuleSetHooks for JBoulton {
    fn id(&self) -> &'static str {
        "jboulton"
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        // The house rules keep AAE's economy: starting money = income, no new
        // industrial complexes.
        let mut problems = super::starting_ipcs_equal_income(
            game,
            "the J Boulton rules keep AAE's starting money",
        );
        problems.extend(super::no_buyable_factories(
            game,
            "the J Boulton rules keep AAE's ban on new industrial complexes",
        ));
        problems
    }
}
