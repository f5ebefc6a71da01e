//! Axis & Allies: Europe (1999), 2nd-edition rules with the 2005 FAQ.
//!
//! Interpretations and their sources: `docs/rules/aae.md`.

use super::{OptionKind, OptionSpec, RuleSetHooks};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The AAE rule set.
#[derive(Debug, Clone, Copy)]
pub struct Aae;

/// AAE's rule options.
pub static OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "cash_advance_axis",
        kind: OptionKind::Int {
            default: 12,
            min: 0,
            max: 100,
        },
        about: "IPCs of units Germany buys and places before round 1 (the manual's \
                special cash advance; amount UNCONFIRMED, TripleA uses a 12 IPC bid)",
    },
    OptionSpec {
        name: "cash_advance_allies",
        kind: OptionKind::Int {
            default: 12,
            min: 0,
            max: 100,
        },
        about: "IPCs of units the Allies buy and place before round 1, shared among them \
                (amount UNCONFIRMED, TripleA uses a 12 IPC bid)",
    },
    OptionSpec {
        name: "middle_east_payer",
        kind: OptionKind::Choice {
            default: "allies_choose",
            choices: &[
                "allies_choose",
                "soviet_union",
                "united_kingdom",
                "united_states",
            ],
        },
        about: "who pays Germany for Middle East territories it holds (FAQ: the Allies \
                pay; who among them is their choice)",
    },
    OptionSpec {
        name: "allied_victory",
        kind: OptionKind::Choice {
            default: "germany_and_own_capital",
            choices: &["germany_and_own_capital", "germany_and_all_capitals"],
        },
        about: "the Allied victory condition (manual wording UNCONFIRMED; TripleA \
                europe_improved uses germany_and_all_capitals)",
    },
    OptionSpec {
        name: "patriotic_war",
        kind: OptionKind::Bool { default: true },
        about: "Soviet Patriotic War: the USSR may take over Allied land and air units in \
                territories with a Soviet industrial complex (2nd-edition errata)",
    },
];

impl RuleSetHooks for Aae {
    fn id(&self) -> &'static str {
        "aae"
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        let mut problems = super::starting_ipcs_equal_income(
            game,
            "in AAE each power starts with its National Production Chart income",
        );
        problems.extend(super::no_buyable_factories(
            game,
            "AAE does not allow building industrial complexes",
        ));
        problems
    }
}
