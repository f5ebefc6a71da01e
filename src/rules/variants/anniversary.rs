//! Axis & Allies Anniversary Edition (2008), 1941 and 1942 scenarios, with
//! the FAQ and errata of 2010.
//!
//! Interpretations and their sources: `docs/rules/anniversary.md`.

use super::{CombatRules, OptionKind, OptionSpec, RuleSetHooks};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The Anniversary rule set.
#[derive(Debug, Clone, Copy)]
pub struct Anniversary;

static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "victory_cities",
        kind: OptionKind::Int {
            default: 15,
            min: 1,
            max: 18,
        },
        about: "victory cities a side must hold at the end of a round (13, 15 or 18)",
    },
    OptionSpec {
        name: "national_objectives",
        kind: OptionKind::Bool { default: false },
        about: "optional national objective bonuses",
    },
    OptionSpec {
        name: "research",
        kind: OptionKind::Bool { default: true },
        about: "research and development",
    },
    OptionSpec {
        name: "dardanelles_closed",
        kind: OptionKind::Bool { default: false },
        about: "FAQ optional rule: no ship may enter or leave the Black Sea",
    },
    OptionSpec {
        name: "low_luck",
        kind: OptionKind::Bool { default: false },
        about: "Low Luck: each firing group scores one hit per 6 points of total strength \
                and rolls one die for the remainder (a common league option, not in the \
                rulebook)",
    },
];

impl RuleSetHooks for Anniversary {
    fn id(&self) -> &'static str {
        "anniversary"
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        // China collects no income (collects_income: false), so it is skipped.
        super::starting_ipcs_equal_income(
            game,
            "in Anniversary starting IPCs equal starting income",
        )
    }

    /// FAQ (Submarines): allies of the attacker take no part in a battle;
    /// defending subs strike first too, in every round without an attacking
    /// destroyer; submerging is decided before any die, attacker first.
    fn combat_rules(&self) -> CombatRules {
        CombatRules {
            allied_bystanders: false,
            defending_subs_strike_first: true,
            submerge_before_any_die: true,
        }
    }
}
