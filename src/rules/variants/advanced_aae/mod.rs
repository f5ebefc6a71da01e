//! Advanced Axis & Allies: Europe v2.2 (fan variant: six powers, neutral
//! activation, fortifications, national abilities), on AAE.
//!
//! The real Advanced board and setup sheet were never found, so
//! `games/advanced-aae/` holds a board DERIVED from AAE's (rules digest,
//! Part D; `docs/rules/advanced-aae.md`). This module knows no space of any
//! board: it checks only what the v2.2 text says of every Advanced board
//! (the six powers, their sides and starting IPCs, a transport in every
//! convoy zone), so the real board's files load without a change here.

mod convoys;
mod economy;
mod fortifications;
mod national_abilities;
mod neutrals;
mod politics;
mod rail;
mod recall;
mod sea;
mod victory;

use super::aae::Aae;
use super::{
    AirRange, CombatRules, FighterBasing, OptionKind, OptionSpec, RuleSetHooks, ShipBlocking,
    inherit,
};
use crate::dice::DiceSource;
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::income::Income;
use crate::rules::model::UnitKind;
use crate::rules::orders::{OrderError, Orders};
use crate::rules::problem::{Problem, files};
use crate::rules::production::Complex;
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, SpaceId};

/// The Advanced AAE rule set.
#[derive(Debug, Clone, Copy)]
pub struct AdvancedAae;

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

/// AAAE-09 (digest PROPOSAL `half_round`): how a halved figure rounds.
pub const HALF_ROUND: OptionSpec = OptionSpec {
    name: "half_round",
    pending: None,
    kind: OptionKind::Choice {
        default: "down",
        choices: &["down", "up"],
    },
    about: "AAAE-09, AAAE-10 (digest PROPOSAL: down): how a halved figure rounds: Russia's \
            starting cash and the USA's collections of rounds 1 to 3",
};

/// AAAE-04 (the rules' heading is empty): the turn order.
pub const TURN_ORDER: OptionSpec = OptionSpec {
    name: "turn_order",
    pending: None,
    kind: OptionKind::Choice {
        default: "split_after_parent",
        choices: &["split_after_parent", "as_listed"],
    },
    about: "AAAE-04 (the rules' Turn order heading is empty; digest PROPOSAL): \
            split_after_parent plays Germany, Italy, Russia, Britain, British MidEast, USA, \
            each new power straight after the one it was split from, and refuses a game.yaml \
            turn_order that differs; as_listed plays game.yaml's turn_order, whatever it is",
};

/// AAAE-39: which transports serve whose convoy zones.
pub const CONVOY_STAND_INS: OptionSpec = OptionSpec {
    name: "convoy_stand_ins",
    pending: None,
    kind: OptionKind::Choice {
        default: "british_family",
        choices: &["british_family", "rules_text"],
    },
    about: "AAAE-38, AAAE-39: a convoy zone pays only while a transport serves it. \
            british_family (digest PROPOSAL): Britain's and British MidEast's zones (the \
            Mediterranean Convoy included) are served by British, British MidEast and US \
            transports; rules_text: a British zone by British and US transports, British \
            MidEast's by its own. Every other zone only by its own power's transports",
};

/// AAAE-12: when the Soviet Far East recall comes.
pub const FAR_EAST_RECALL_TURN: OptionSpec = OptionSpec {
    name: "far_east_recall_turn",
    pending: None,
    kind: OptionKind::Choice {
        default: "russia_round_3",
        choices: &["russia_round_3", "end_of_round_3"],
    },
    about: "AAAE-12 \"at the end of the third turn\": russia_round_3 (digest PROPOSAL) at the \
            end of Russia's round-3 turn, before it collects (so it collects Siberia at 10 \
            then); end_of_round_3 at the end of the last turn of round 3",
};

/// AAAE-12: where the recalled units go when Russia does not hold Siberia.
pub const FAR_EAST_RECALL_ELSEWHERE: OptionSpec = OptionSpec {
    name: "far_east_recall_elsewhere",
    pending: None,
    kind: OptionKind::Choice {
        default: "nearest",
        choices: &["nearest", "lost"],
    },
    about: "AAAE-12, Siberia not Russian when the recall comes: nearest (digest PROPOSAL) \
            places the units in the Russian territory fewest land moves away (of several, the \
            first in the board's order); lost: they do not come. Siberia's new value holds \
            either way",
};

/// AAAE-14, AAAE-16: which income the economic victories count.
pub const ECONOMIC_VICTORY_INCOME: OptionSpec = OptionSpec {
    name: "economic_victory_income",
    pending: None,
    kind: OptionKind::Choice {
        default: "production_level",
        choices: &["production_level", "collected"],
    },
    about: "AAAE-14, AAAE-16: production_level (digest PROPOSAL) counts the territories and \
            convoys a power controls (each convoy only with its transport), never its cash; \
            collected counts what it would collect, nothing while its capital is held",
};

/// AAAE-40: whether lend-lease also needs the land Russia's convoy requires.
pub const LENDLEASE_REQUIRES_ARCHANGEL: OptionSpec = OptionSpec {
    name: "lendlease_requires_archangel",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "AAAE-40 (digest PROPOSAL: off): lend-lease needs only US transports in Russia's \
            convoy zone and the zone not enemy-held; on, Russia must also hold the land the \
            convoy requires (Archangel on the derived board)",
};

/// AAAE-11: whether the surprise attack silences AA guns too.
pub const SURPRISE_ATTACK_AA: OptionSpec = OptionSpec {
    name: "surprise_attack_aa",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "AAAE-11 (digest PROPOSAL: on): Russian AA guns in the light-red areas do not fire \
            in Germany's round-1 turn either; off, they fire as usual",
};

/// The digest's PROPOSAL flags for the variant's ambiguous points: those
/// the data and [`AdvancedAae::check`] read, and those declared ahead of
/// their rules.
static OPTIONS: &[OptionSpec] = &[
    STARTING_IPCS_ARE_INCOME,
    US_START_CASH_HALVED,
    national_abilities::MARINES_LANDED_ONLY,
    national_abilities::MARINES_TAKE_ARTILLERY_SUPPORT,
    national_abilities::RAF_ALLIED_FIGHTERS,
    OptionSpec {
        name: "south_african_sea_route",
        pending: Some(
            "the v2.2 text has the heading South African Sea Route with no rule under it \
             (AAAE-53), so there is no route to play until a source gives one",
        ),
        kind: OptionKind::Bool { default: false },
        about: "AAAE-53 (digest PROPOSAL: nothing): a sea route round Africa between the Red Sea \
                and the Atlantic; off, the Red Sea's only sea link is Suez",
    },
    HALF_ROUND,
    TURN_ORDER,
    CONVOY_STAND_INS,
    FAR_EAST_RECALL_TURN,
    FAR_EAST_RECALL_ELSEWHERE,
    ECONOMIC_VICTORY_INCOME,
    LENDLEASE_REQUIRES_ARCHANGEL,
    SURPRISE_ATTACK_AA,
    neutrals::NEUTRAL_OVERFLIGHT,
    neutrals::STRAITS_BOTH_WAYS,
    sea::FAILED_SCREEN_SUBS,
    sea::SCREEN_DD_FIRE_COUNTS_AS_ROUND1,
    fortifications::FORTIFIED_INFANTRY,
    fortifications::FORTIFICATION_INFANTRY_OF,
    fortifications::FORTIFICATION_COUNTS_PLACED_INFANTRY,
    fortifications::CAPTURED_FORTIFICATIONS,
    fortifications::FORTIFICATIONS_ALONE,
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

    inherit!(Aae =>
        bid_placement,
        research_procedure,
        territory_pays_income,
        start_of_turn,
        holds_unplaceable_units,
        placement_rule,
        freed_capital_regains_territories,
        sea_passage_closed,
        take_over_units,
    );

    /// AAE's, and the defending side's choice of who receives neutral
    /// defenders (AAAE-19, 20: `neutral_defenders`) is played.
    fn standing_orders_problem(
        &self,
        game: &GameDef,
        standing: &crate::rules::orders::StandingOrders,
    ) -> Option<String> {
        let rest = crate::rules::orders::StandingOrders {
            neutral_defenders: Default::default(),
            ..standing.clone()
        };
        Aae.standing_orders_problem(game, &rest)
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    /// AAAE-43: submarines pass through enemy zones, and surface ships
    /// through zones whose only enemy units are submarines.
    fn ships_blocked_by(&self) -> ShipBlocking {
        ShipBlocking::SubmarinesSlipThrough
    }

    /// AAE's, with the national abilities (AAAE-24..28) and the amphibious
    /// assault's first round and retreat (AAAE-41, AAAE-42); raids damage
    /// complexes up to their territory's value, two IPCs a point to repair
    /// (AAAE-32, AAAE-33); aircraft fly at most 2 (fighters) or 3 (bombers)
    /// spaces in the combat move (AAAE-36); Germany's free submarine each
    /// turn (AAAE-25); submarines may take any hit in round 1 (AAAE-45);
    /// the screen procedure against capital ships (AAAE-48); submarines
    /// fortifications raise defending infantry and are taken as
    /// casualties (AAAE-29); submarines fight one round,
    /// two dice each when attacking, then submerge (AAAE-46); at most three
    /// submarines of a side in a sea zone after a move or placement
    /// (AAAE-44); fighters
    /// attack by basing (AAAE-35); only destroyers and carrier-based
    /// fighters may hit attacking submarines (AAAE-47); and the German
    /// surprise attack (AAAE-11).
    fn combat_rules(&self, game: &GameDef) -> CombatRules {
        CombatRules {
            national_abilities: Some(national_abilities::abilities(game)),
            landed_units_hold_fire_first_round: true,
            only_landed_units_stay: true,
            bombing_damages_complexes: true,
            complex_damage_cap_per_ipc: 1,
            repair_cost_per_point: 2,
            repair_before_purchase: true,
            combat_move_air_range: Some(AirRange {
                fighter: 2,
                bomber: 3,
            }),
            one_round_submarines: Some(2),
            submarines_per_zone: Some(3),
            fighter_basing: Some(FighterBasing {
                land_based_at_sea: 2,
                land_based_on_land: 3,
                carrier_based_at_sea: 3,
                carrier_based_on_land: 2,
            }),
            only_destroyers_and_fighters_hit_attacking_subs: true,
            one_space_blitz: true,
            strategic_rail: Some(super::StrategicRail {
                points: 5,
                spaces: 4,
                barred_region: rail::BARRED,
            }),
            submarines_take_any_hit_first_round: true,
            free_unit_each_turn: Some(sea::WOLFPACK),
            submarine_screen: Some(sea::screen(game)),
            fortifications: Some(fortifications::rules(game)),
            ..politics::combat_rules(game)
        }
    }

    /// Land and convoys, convoys with their transports (AAAE-38, 39), the
    /// US pre-war halving (AAAE-10), Siberia after the recall (AAAE-12).
    fn income(&self, game: &GameDef, state: &GameState, power: PowerId) -> Income {
        economy::income(game, state, power)
    }

    /// Lend-lease (AAAE-40) and the oil convoy (AAAE-08).
    fn payments(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        orders: &Orders,
        dice: Option<&mut (dyn DiceSource + '_)>,
        events: &mut Vec<Event>,
    ) -> Result<bool, Vec<OrderError>> {
        convoys::payments(game, state, power, orders, dice, events)
    }

    /// Neutrals may be invaded (AAAE-19): free, and no unit passes through
    /// one, since its defenders appear when the combat move ends. Aircraft
    /// fly over them, activating them, unless option `neutral_overflight`
    /// forbids it (AAAE-21); a canal whose land is neutral (the Turkish
    /// straits) is open, and passing it activates the neutral (AAAE-22, 54).
    fn neutral_rules(&self, game: &GameDef) -> super::NeutralRules {
        super::NeutralRules {
            entry_cost: 0,
            taken_by_overflight: false,
            blitz_through: false,
            overflight_forbidden: neutrals::NEUTRAL_OVERFLIGHT.word(game).as_deref()
                == Some("forbid"),
            neutral_canals_open: true,
        }
    }

    /// Neutral defenders appear where the combat move invades a neutral
    /// (AAAE-19, 20), flies over one (AAAE-21) or passes its straits
    /// (AAAE-22).
    fn combat_move_ended(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        neutrals::combat_move_ended(game, state, power, events);
    }

    /// Every complex limited to its territory's value (AAAE-17, 18).
    fn placement_sites(&self, game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
        economy::placement_sites(game, state, power)
    }

    /// The neutrals the non-combat move flew over or passed (AAAE-21, 22),
    /// AAE's end of turn, then the Soviet Far East recall (AAAE-12).
    fn end_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        neutrals::noncombat_move_ended(game, state, power, events);
        Aae.end_of_turn(game, state, power, events);
        recall::arrive(game, state, power, events);
    }

    /// The four victory conditions and their checkpoints (AAAE-13..16).
    fn victory(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        victory::check_after(game, state, power, events);
    }

    /// What holds for any Advanced board: the six powers (AAAE-03) on their
    /// sides, their starting cash (AAAE-05, AAAE-09, AAAE-10) and, with
    /// [`STARTING_IPCS_ARE_INCOME`], income; British MidEast without a
    /// capital (AAAE-07); a transport in every convoy zone (AAAE-02,
    /// AAAE-38); no new industrial complexes (AAAE-18).
    fn check(&self, game: &GameDef) -> Vec<Problem> {
        let mut problems = six_powers(game);
        problems.extend(national_abilities::unit_words(game));
        problems.extend(sea::check(game));
        problems.extend(fortifications::check(game));
        problems.extend(no_raid_air_battle(game));
        problems.extend(convoy_transports(game));
        problems.extend(politics::check(game));
        problems.extend(politics::check_light_red(game));
        problems.extend(recall::check(game));
        problems.extend(victory::check(game));
        problems.extend(neutrals::check(game));
        problems.extend(rail::check(game));
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
            Cash::Half => economy::half(game, rules.listed),
            Cash::HalvedByOption if US_START_CASH_HALVED.on(game) => {
                economy::half(game, rules.listed)
            }
            Cash::HalvedByOption => rules.listed,
        };
        let why = match rules.cash {
            Cash::Listed => format!("the rules list {}", rules.listed),
            Cash::Half => format!(
                "half the {} the rules list (AAAE-09, option half_round)",
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

/// AAAE-34: fighters neither escort nor intercept in raids; only AA guns
/// fire at the bombers. A unit with the `escort` or `interceptor` ability
/// is refused.
fn no_raid_air_battle(game: &GameDef) -> Vec<Problem> {
    use crate::rules::model::Ability;
    game.unit_types()
        .iter()
        .enumerate()
        .filter(|(_, u)| {
            u.abilities
                .iter()
                .any(|a| matches!(a, Ability::Escort(_) | Ability::Interceptor(_)))
        })
        .map(|(i, u)| {
            Problem::at(
                files::UNITS,
                format!("units[{i}].abilities"),
                format!(
                    "{} escorts or intercepts, but Advanced AAE has no escorts or interceptors in \
                     strategic bombing raids (AAAE-34)",
                    u.name
                ),
            )
        })
        .collect()
}
