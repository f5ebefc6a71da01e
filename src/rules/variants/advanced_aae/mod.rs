//! Advanced Axis & Allies: Europe v2.2 (fan variant: six powers, neutral
//! activation, fortifications, national abilities), on AAE.
//!
//! The real Advanced board and setup sheet were never found, so
//! `games/advanced-aae/` holds a board DERIVED from AAE's (rules digest,
//! Part D; `docs/rules/advanced-aae.md`). This module knows no space of any
//! board: it checks only what the v2.2 text says of every Advanced board
//! (the six powers, their sides and starting IPCs, a transport in every
//! convoy zone), so the real board's files load without a change here.

use super::aae::Aae;
use super::{OptionKind, OptionSpec, RuleSetHooks, inherit};
use crate::rules::GameDef;
use crate::rules::model::UnitKind;
use crate::rules::problem::{Problem, files};
use crate::rules::vocab::SpaceId;

/// The Advanced AAE rule set.
#[derive(Debug, Clone, Copy)]
pub struct AdvancedAae;

/// Why an option declared ahead of its rule is not played yet.
const RULES_TO_COME: &str = "the rules of Advanced AAE (AAAE-08..54) are not played yet \
     (issue 19, item 2)";

/// AAAE-05: whether the listed starting figures are each power's income
/// (its territories and convoys) as well as its starting cash.
pub const STARTING_IPCS_ARE_INCOME: OptionSpec = OptionSpec {
    name: "starting_ipcs_are_income",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "AAAE-05 (digest PROPOSAL): the starting IPCs the rules list (Germany 48, Italy 20, \
            Russia 50, Britain 35, British MidEast 16, USA 60) are each power's starting \
            income as well as its cash, so a board whose starting territories and convoys \
            add up to other figures is refused; off, only the cash is checked",
};

/// AAAE-10's alternative reading: the USA's starting cash is halved too.
pub const US_START_CASH_HALVED: OptionSpec = OptionSpec {
    name: "us_start_cash_halved",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "AAAE-10 alternative reading: the USA's starting cash is halved too (30 instead \
            of 60); the digest's PROPOSAL (off) halves only its collections of rounds 1 to 3",
};

/// The digest's PROPOSAL flags for the variant's ambiguous points: those
/// the data and [`AdvancedAae::check`] read, and those declared ahead of
/// their rules.
static OPTIONS: &[OptionSpec] = &[
    STARTING_IPCS_ARE_INCOME,
    US_START_CASH_HALVED,
    OptionSpec {
        name: "neutral_overflight",
        pending: Some(RULES_TO_COME),
        kind: OptionKind::Choice {
            default: "activate",
            choices: &["activate", "forbid"],
        },
        about: "AAAE-21: flying over a neutral activates it, or is illegal",
    },
    OptionSpec {
        name: "straits_both_ways",
        pending: Some(RULES_TO_COME),
        kind: OptionKind::Bool { default: true },
        about: "AAAE-22: leaving the Black Sea through the straits also activates Turkey",
    },
];

/// What a power starts with, by the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Cash {
    /// The listed figure (AAAE-05).
    Listed,
    /// Half the listed figure, rounded down (AAAE-09: Russia).
    Half,
    /// The listed figure, or half of it with [`US_START_CASH_HALVED`]
    /// (AAAE-10: the USA).
    HalvedByOption,
}

/// One of the six powers of AAAE-03: the rules' word for it (a game names
/// the power so or gives the word as an alias), its side, the starting IPCs
/// AAAE-05 lists, and its starting cash.
struct RulesPower {
    word: &'static str,
    axis: bool,
    listed: u32,
    cash: Cash,
    /// AAAE-07: British MidEast is "an independent power with no capital".
    no_capital: bool,
}

/// The six powers of the v2.2 text, in its words (AAAE-03, AAAE-05).
const POWERS: [RulesPower; 6] = [
    RulesPower {
        word: "Germany",
        axis: true,
        listed: 48,
        cash: Cash::Listed,
        no_capital: false,
    },
    RulesPower {
        word: "Italy",
        axis: true,
        listed: 20,
        cash: Cash::Listed,
        no_capital: false,
    },
    RulesPower {
        word: "Russia",
        axis: false,
        listed: 50,
        cash: Cash::Half,
        no_capital: false,
    },
    RulesPower {
        word: "Britain",
        axis: false,
        listed: 35,
        cash: Cash::Listed,
        no_capital: false,
    },
    RulesPower {
        word: "British MidEast",
        axis: false,
        listed: 16,
        cash: Cash::Listed,
        no_capital: true,
    },
    RulesPower {
        word: "USA",
        axis: false,
        listed: 60,
        cash: Cash::HalvedByOption,
        no_capital: false,
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
             powers and derived board are data (games/advanced-aae), its rules \
             (AAAE-08..54) are still to come",
        )
    }

    inherit!(Aae =>
        bid_placement,
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

    /// What holds for any Advanced board: the six powers (AAAE-03) on their
    /// sides, their starting cash (AAAE-05, AAAE-09, AAAE-10) and, with
    /// [`STARTING_IPCS_ARE_INCOME`], income; British MidEast without a
    /// capital (AAAE-07); a transport in every convoy zone (AAAE-02,
    /// AAAE-38); no new industrial complexes (AAAE-18).
    fn check(&self, game: &GameDef) -> Vec<Problem> {
        let mut problems = six_powers(game);
        problems.extend(convoy_transports(game));
        problems.extend(super::no_buyable_factories(
            game,
            "Advanced AAE keeps AAE's ban on new industrial complexes (AAAE-18)",
        ));
        problems
    }
}

/// The six powers of AAAE-03, found by the rules' words: each plays and
/// collects income, the Axis two on one side and the Allied four on the
/// other, no other power plays; each starts with its cash and (option
/// [`STARTING_IPCS_ARE_INCOME`]) the listed income.
fn six_powers(game: &GameDef) -> Vec<Problem> {
    let mut problems = Vec::new();
    let mut problem = |file: &str, path: String, reason: String| {
        problems.push(Problem::at(file, path, reason));
    };
    let powers = game.powers();
    let mut found: Vec<(usize, &RulesPower)> = Vec::new();
    for rules in &POWERS {
        let word = rules.word;
        let Some(p) = game.power(word) else {
            problem(
                files::GAME,
                "powers".into(),
                format!(
                    "Advanced AAE has six powers (AAAE-03); none is called {word}: name \
                     one so, or give it the alias {word}"
                ),
            );
            continue;
        };
        if let Some((_, other)) = found.iter().find(|(q, _)| *q == p) {
            problem(
                files::GAME,
                format!("powers[{p}]"),
                format!(
                    "{} is both {} and {word}; the rules' six powers are six powers",
                    powers[p].name, other.word
                ),
            );
            continue;
        }
        found.push((p, rules));
        let name = &powers[p].name;
        if !powers[p].plays || !powers[p].collects_income {
            problem(
                files::GAME,
                format!("powers[{p}]"),
                format!(
                    "{name} plays its own turns and collects its own income in Advanced \
                     AAE (AAAE-03, AAAE-06, AAAE-07)"
                ),
            );
        }
        if rules.no_capital && powers[p].capital.is_some() {
            problem(
                files::GAME,
                format!("powers[{p}].capital"),
                format!("{name} has no capital (AAAE-07)"),
            );
        }
        let cash = match rules.cash {
            Cash::Listed => rules.listed,
            Cash::Half => rules.listed / 2,
            Cash::HalvedByOption if US_START_CASH_HALVED.on(game) => rules.listed / 2,
            Cash::HalvedByOption => rules.listed,
        };
        let why = match rules.cash {
            Cash::Listed => format!("the rules list {}", rules.listed),
            Cash::Half => format!(
                "half the {} the rules list, rounded down (AAAE-09)",
                rules.listed
            ),
            Cash::HalvedByOption if cash != rules.listed => format!(
                "half the {} the rules list (AAAE-10, option us_start_cash_halved)",
                rules.listed
            ),
            Cash::HalvedByOption => format!(
                "the {} the rules list (AAAE-10 halves its collections, not its starting \
                 cash, unless option us_start_cash_halved is on)",
                rules.listed
            ),
        };
        let has = game.starting_ipcs(p);
        if has != cash {
            problem(
                files::SETUP,
                format!("ipcs.{name}"),
                format!("{name} starts with {has} IPCs; it starts with {cash}: {why}"),
            );
        }
        let income = game.starting_income(p);
        if STARTING_IPCS_ARE_INCOME.on(game) && income != rules.listed {
            problem(
                files::BOARD,
                "territories".into(),
                format!(
                    "{name}'s starting territories and convoys are worth {income} IPCs, but the \
                     rules list {} for it (AAAE-05; with option starting_ipcs_are_income off, \
                     only the starting cash is checked)",
                    rules.listed
                ),
            );
        }
    }
    if found.len() == POWERS.len() {
        let axis_side = |axis: bool| {
            let sides: Vec<usize> = found
                .iter()
                .filter(|(_, r)| r.axis == axis)
                .map(|&(p, _)| game.side_of(p))
                .collect();
            sides.windows(2).all(|w| w[0] == w[1]).then(|| sides[0])
        };
        match (axis_side(true), axis_side(false)) {
            (Some(a), Some(b)) if a != b => {}
            _ => problem(
                files::GAME,
                "sides".into(),
                "Germany and Italy are one side, the Axis, and Russia, Britain, British \
                 MidEast and USA the other, the Allies (AAAE-03)"
                    .into(),
            ),
        }
    }
    for (p, power) in powers.iter().enumerate() {
        if power.plays && !found.iter().any(|&(q, _)| q == p) {
            problem(
                files::GAME,
                format!("powers[{p}]"),
                format!(
                    "{} plays, but the powers of Advanced AAE are Germany, Italy, Russia, \
                     Britain, British MidEast and USA (AAAE-03)",
                    power.name
                ),
            );
        }
    }
    problems
}

/// AAAE-02 and AAAE-38: every convoy zone starts with a transport in it, of
/// the side that controls the zone.
fn convoy_transports(game: &GameDef) -> Vec<Problem> {
    let board = &game.files().board;
    let n_land = board.territories.len();
    let mut problems = Vec::new();
    for (i, zone) in board.sea_zones.iter().enumerate() {
        if zone.convoy.is_none() {
            continue;
        }
        let id = SpaceId(n_land + i);
        let Some(owner) = game.starting_owner(id) else {
            continue;
        };
        let side = game.side_of(owner);
        let has_transport = game.starting_units().any(|(s, p, u, n)| {
            s == id
                && n > 0
                && game.side_of(p) == side
                && u.kind == Some(UnitKind::Sea)
                && u.transport_capacity.is_some_and(|c| c > 0)
        });
        if !has_transport {
            problems.push(Problem::at(
                files::SETUP,
                format!("units.{}", zone.name),
                format!(
                    "convoy zone {} starts with no transport of {}'s side; every convoy zone \
                     starts with one (AAAE-02, AAAE-38)",
                    zone.name,
                    game.powers()[owner].name
                ),
            ));
        }
    }
    problems
}
