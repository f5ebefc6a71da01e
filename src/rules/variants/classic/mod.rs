//! Axis & Allies Classic (Milton Bradley 2nd edition) as played at DAAK.
//!
//! Built on the base rule set; what DAAK changes is here and in the files
//! beside it: victory by two capitals or Magic 84 ([`victory`]), complexes
//! in formerly neutral territory ([`production`]), weapons development
//! ([`Classic::research_procedure`]). Readings: docs/rules/classic.md.

mod production;
mod victory;

mod combat;

use super::CombatRules;
use super::base::Base;
use super::{
    DevelopmentSelection, NeutralRules, OptionKind, OptionSpec, ResearchProcedure, RuleSetHooks,
    inherit,
};
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::options::RESEARCH;
use crate::rules::problem::Problem;
use crate::rules::production::Complex;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

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

/// DAAK's "Magic 84" (DAAK-C §5.1): the Axis win when the territories they
/// control are worth at least this at the end of a round (0 = off).
pub const ECONOMIC_VICTORY_AXIS: OptionSpec = OptionSpec {
    name: "economic_victory_axis",
    pending: None,
    kind: OptionKind::Int {
        default: 84,
        min: 0,
        max: 1000,
    },
    about: "DAAK 'Magic 84': the Axis win when the territories they control are worth at \
            least this at the end of a round, income or not (0 = off; DAAK-C §5.1)",
};

/// When victory by capitals is checked: UNCONFIRMED (digest §8).
pub const CAPITAL_VICTORY: OptionSpec = OptionSpec {
    name: "capital_victory",
    pending: None,
    kind: OptionKind::Choice {
        default: "end_of_turn",
        choices: &["end_of_turn", END_OF_ROUND],
    },
    about: "when victory by capitals is checked: end_of_turn (DAAK-C §5.1, the game ends when \
            the condition is met: at the end of the turn that met it) or end_of_round (after \
            the US turn, as MB-era descriptions have it); UNCONFIRMED (digest §8)",
};

/// [`CAPITAL_VICTORY`]: checked only after the last power of the round.
pub const END_OF_ROUND: &str = "end_of_round";

/// IPCs a power pays for each neutral it takes (DAAK-C §2.7).
pub const NEUTRAL_ENTRY_COST: OptionSpec = OptionSpec {
    name: "neutral_entry_cost",
    pending: None,
    kind: OptionKind::Int {
        default: 3,
        min: 0,
        max: 100,
    },
    about: "IPCs paid, from the cash left after the purchase, for each neutral territory \
            taken by walking in or flying over (DAAK-C §2.7)",
};

/// Where DAAK's bid units may be placed: the club rules' limits (DAAK-R
/// ch. 2) are UNCONFIRMED and the digest has no proposal (digest §1).
/// `controlled`: any territory the power controls at the start, ships in a
/// sea zone beside one (DAAK-A's words, the reading of docs/rules/classic.md);
/// `with_own_units`: only where the power already has units (TripleA's bid).
pub const BID_PLACEMENT_WHERE: OptionSpec = OptionSpec {
    name: "bid_placement_where",
    pending: None,
    kind: OptionKind::Choice {
        default: "controlled",
        choices: &["controlled", "with_own_units"],
    },
    about: "where bid units go before round 1: controlled (a territory the power controls at \
            the start, ships beside one; DAAK-A) or with_own_units (only where the power has \
            units, as TripleA places a bid); UNCONFIRMED (DAAK-R ch. 2 not seen, digest §1)",
};

static OPTIONS: &[OptionSpec] = &[
    BID_PLACEMENT_WHERE,
    ECONOMIC_VICTORY_AXIS,
    CAPITAL_VICTORY,
    NEUTRAL_ENTRY_COST,
    RESEARCH,
    WEAPONS_DEVELOPMENT_SELECTION,
    combat::DEFENDING_SUB_WITHDRAWAL,
    combat::TRANSPORT_AFTER_SEA_BATTLE,
    combat::SUBMARINE_FIRST_STRIKE,
];

impl RuleSetHooks for Classic {
    fn id(&self) -> &'static str {
        "classic"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Base)
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

    /// DAAK-C §2.7(d): a complex in a formerly neutral territory places one
    /// unit a turn; elsewhere the base rule (digest §4.6).
    fn placement_sites(&self, game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
        production::sites(game, state, power)
    }

    /// Two Allied capitals, both Axis capitals, or Magic 84 (DAAK-C §5.1).
    fn victory(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        victory::check(game, state, power, events);
    }

    /// DAAK-C §5.2(b): a freed capital takes back its original territories
    /// that allies hold, complexes included; AA guns stay.
    fn freed_capital_regains_territories(&self) -> Option<&'static str> {
        Some("capital liberated (DAAK-C §5.2b)")
    }

    /// DAAK-C §2.7: 3 IPCs a neutral (option `neutral_entry_cost`), taken
    /// by walking in or flying over in the combat move only, never blitzed
    /// through.
    fn neutral_rules(&self, game: &GameDef) -> NeutralRules {
        NeutralRules {
            entry_cost: u32::try_from(NEUTRAL_ENTRY_COST.number(game).unwrap_or(0)).unwrap_or(0),
            taken_by_overflight: true,
            blitz_through: false,
            overflight_forbidden: false,
            neutral_canals_open: false,
        }
    }

    /// DAAK's bid placement (DAAK-A; `rules::bid_placement::DAAK`), or the
    /// base rule's with option [`BID_PLACEMENT_WHERE`] `with_own_units`.
    fn bid_placement(&self, game: &GameDef) -> crate::rules::bid_placement::BidPlacementRules {
        match BID_PLACEMENT_WHERE.word(game).as_deref() {
            Some("with_own_units") => Base.bid_placement(game),
            _ => crate::rules::bid_placement::DAAK,
        }
    }

    inherit!(Base =>
        territory_pays_income,
        income,
        payments,
        combat_move_ended,
        start_of_turn,
        holds_unplaceable_units,
        placement_rule,
        end_of_turn,
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
