//! Axis & Allies: Europe (1999), 2nd-edition rules with the 2005 FAQ.
//!
//! Interpretations and their sources: `docs/rules/aae.md`.

mod middle_east;
mod patriotic_war;

use middle_east::middle_east_payment;
use patriotic_war::patriotic_war;

use super::base::Base;
use super::{OptionKind, OptionSpec, RuleSetHooks, TakeOver, inherit};
use crate::rules::conquest::original_owner;
use crate::rules::events::Event;
use crate::rules::options::LOW_LUCK;
use crate::rules::orders::{MiddleEastPayment, StandingOrders};
use crate::rules::problem::Problem;
use crate::rules::state::GameState;
use crate::rules::victory::{self, Condition};
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The AAE rule set.
#[derive(Debug, Clone, Copy)]
pub struct Aae;

/// Germany's special cash advance (the manual's; amount UNCONFIRMED, TripleA
/// uses a 12 IPC bid). Not played yet: it comes with the placement before
/// round 1 of sealed bids.
pub const CASH_ADVANCE_AXIS: OptionSpec = OptionSpec {
    name: "cash_advance_axis",
    pending: Some(CASH_ADVANCE_PENDING),
    kind: OptionKind::Int {
        default: 12,
        min: 0,
        max: 100,
    },
    about: "IPCs of units Germany buys and places before round 1 (the manual's \
            special cash advance; amount UNCONFIRMED, TripleA uses a 12 IPC bid)",
};

/// Why the cash advance is not played yet.
const CASH_ADVANCE_PENDING: &str = "the special cash advance, units bought and placed before \
     round 1, is not played yet (it comes with the bids of a league)";

/// The Allies' special cash advance; see [`CASH_ADVANCE_AXIS`].
pub const CASH_ADVANCE_ALLIES: OptionSpec = OptionSpec {
    name: "cash_advance_allies",
    pending: Some(CASH_ADVANCE_PENDING),
    kind: OptionKind::Int {
        default: 12,
        min: 0,
        max: 100,
    },
    about: "IPCs of units the Allies buy and place before round 1, shared among them \
            (amount UNCONFIRMED, TripleA uses a 12 IPC bid)",
};

/// Who pays Germany for the Middle East ([`middle_east_payment`]).
pub const MIDDLE_EAST_PAYER: OptionSpec = OptionSpec {
    name: "middle_east_payer",
    pending: None,
    kind: OptionKind::Choice {
        default: ALLIES_CHOOSE,
        choices: &[
            ALLIES_CHOOSE,
            "soviet_union",
            "united_kingdom",
            "united_states",
        ],
    },
    about: "who pays Germany for Middle East territories it holds (FAQ: the Allies \
            pay; who among them is their choice)",
};

/// The Allies choose who pays, in their standing orders.
const ALLIES_CHOOSE: &str = "allies_choose";

/// The Allied victory condition.
pub const ALLIED_VICTORY: OptionSpec = OptionSpec {
    name: "allied_victory",
    pending: None,
    kind: OptionKind::Choice {
        default: "germany_and_own_capital",
        choices: &["germany_and_own_capital", GERMANY_AND_ALL_CAPITALS],
    },
    about: "the Allied victory condition (manual wording UNCONFIRMED; TripleA \
            europe_improved uses germany_and_all_capitals)",
};

/// The Allies win by holding Germany and every Allied capital.
const GERMANY_AND_ALL_CAPITALS: &str = "germany_and_all_capitals";

/// The Soviet Patriotic War ([`patriotic_war`]).
pub const PATRIOTIC_WAR: OptionSpec = OptionSpec {
    name: "patriotic_war",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "Soviet Patriotic War: the USSR may take over Allied land and air units in \
            territories with a Soviet industrial complex (2nd-edition errata)",
};

/// AAE's rule options.
pub static OPTIONS: &[OptionSpec] = &[
    CASH_ADVANCE_AXIS,
    CASH_ADVANCE_ALLIES,
    MIDDLE_EAST_PAYER,
    ALLIED_VICTORY,
    PATRIOTIC_WAR,
    LOW_LUCK,
];

impl RuleSetHooks for Aae {
    fn id(&self) -> &'static str {
        "aae"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Base)
    }

    inherit!(Base =>
        bid_placement,
        neutral_rules,
        income,
        payments,
        combat_move_ended,
        research_procedure,
        start_of_turn,
        placement_sites,
        holds_unplaceable_units,
        placement_rule,
        freed_capital_regains_territories,
        ships_blocked_by,
        sea_passage_closed,
        combat_rules,
    );

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

    /// The Middle East territories (original owner a power that collects no
    /// income) pay nobody through the bank: the Allies pay their value to
    /// Germany instead (FAQ, Industry).
    fn territory_pays_income(&self, game: &GameDef, space: SpaceId) -> bool {
        original_owner(game, space).is_none_or(|o| game.powers()[o].collects_income)
    }

    fn end_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        middle_east_payment(game, state, power, events);
    }

    fn victory(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        let allies_rule = match ALLIED_VICTORY.word(game).as_deref() {
            Some(GERMANY_AND_ALL_CAPITALS) => Condition::AllCapitals,
            _ => Condition::OwnAndEnemyCapital,
        };
        let condition = |p: PowerId| {
            if game.files().game.sides[game.side_of(p)].name == ALLIES {
                allies_rule
            } else {
                Condition::OwnAndEnemyCapital
            }
        };
        victory::capitals_for_a_round(game, state, power, condition, events);
    }

    /// The Allies' place in the Middle East payment is AAE's own; the rest
    /// as the base.
    fn standing_orders_problem(&self, game: &GameDef, standing: &StandingOrders) -> Option<String> {
        let rest = StandingOrders {
            middle_east_payment: MiddleEastPayment::default(),
            ..standing.clone()
        };
        Base.standing_orders_problem(game, &rest)
    }

    fn take_over_units(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        take: &TakeOver,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        patriotic_war(game, state, power, take, events)
    }
}

/// The side whose victory condition the `allied_victory` option sets.
const ALLIES: &str = "Allies";
