//! Axis & Allies Classic (Milton Bradley 2nd edition) as played at DAAK.

mod combat;

use super::CombatRules;
use super::base::Base;
use super::{
    DevelopmentSelection, OptionKind, OptionSpec, ResearchProcedure, RuleSetHooks, inherit,
};
use crate::rules::GameDef;
use crate::rules::options::RESEARCH;
use crate::rules::problem::Problem;

/// The Classic/DAAK rule set.
#[derive(Debug, Clone, Copy)]
pub struct Classic;

/// How a weapons development breakthrough finds its development: the MB
/// rulebook's method is UNCONFIRMED (digest §5, §12). `die`: a die on the
/// chart, rolled again on a development held (every one not yet held equally
/// likely, as TripleA picks one at random); `choice`: the player lists the
/// developments wanted in the research order.
pub const WEAPONS_DEVELOPMENT_SELECTION: OptionSpec = OptionSpec {
    name: "weapons_development_selection",
    pending: None,
    kind: OptionKind::Choice {
        default: "die",
        choices: &["die", "choice"],
    },
    about: "how a weapons development breakthrough finds its development: die (a die on \
            the chart, rolled again on one already held) or choice (the developments the \
            research order lists, most wanted first); UNCONFIRMED in the MB rules (digest §5)",
};

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
    RESEARCH,
    WEAPONS_DEVELOPMENT_SELECTION,
    combat::DEFENDING_SUB_WITHDRAWAL,
    combat::TRANSPORT_AFTER_SEA_BATTLE,
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
             its board, setup and weapons development are in, DAAK's rulings \
             (combat, neutrals, capitals, production, victory) are still to come (issue 17)",
        )
    }

    /// Weapons development (MB 2nd edition, digest §5): dice bought and
    /// rolled before the purchase, every 6 a breakthrough.
    fn research_procedure(&self, game: &GameDef) -> Option<ResearchProcedure> {
        let selection = match WEAPONS_DEVELOPMENT_SELECTION.word(game).as_deref() {
            Some("choice") => DevelopmentSelection::Choice,
            _ => DevelopmentSelection::ChartDie,
        };
        Some(ResearchProcedure::DicePerBreakthrough { selection })
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
        standing_orders_problem,
        take_over_units,
    );

    /// DAAK's combat (DAAK-C §3, §4; `combat`).
    fn combat_rules(&self, game: &GameDef) -> CombatRules {
        combat::combat_rules(game)
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        super::starting_ipcs_equal_income(game, "in Classic starting IPCs equal starting income")
    }
}
