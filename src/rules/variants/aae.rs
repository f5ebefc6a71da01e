//! Axis & Allies: Europe (1999), 2nd-edition rules with the 2005 FAQ.
//!
//! Interpretations and their sources: `docs/rules/aae.md`.

use super::base::Base;
use super::{OptionKind, OptionSpec, RuleSetHooks, TakeOver, inherit};
use crate::rules::conquest::{allied, original_owner};
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
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
    kind: OptionKind::Int {
        default: 12,
        min: 0,
        max: 100,
    },
    about: "IPCs of units Germany buys and places before round 1 (the manual's \
            special cash advance; amount UNCONFIRMED, TripleA uses a 12 IPC bid)",
};

/// The Allies' special cash advance; see [`CASH_ADVANCE_AXIS`].
pub const CASH_ADVANCE_ALLIES: OptionSpec = OptionSpec {
    name: "cash_advance_allies",
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

    fn not_yet(&self) -> Option<&'static str> {
        None
    }

    inherit!(Base =>
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
/// The power that may invoke the Patriotic War.
const SOVIET_UNION: &str = "Soviet Union";

/// The Middle East payment, at the end of `power`'s turn: for every Middle
/// East territory (original owner a power that collects no income) that
/// `power` holds against that power's side, the Allies pay its IPC value from
/// their treasuries straight to `power` (FAQ: "the Allies must pay the
/// territories' IPC value directly to the German player ... The bank is not
/// involved"). Who pays: option `middle_east_payer`; with `allies_choose`
/// the Allies choose in their standing orders (`middle_east_payment`: first,
/// richest_first or last), and within each choice the richest pays first,
/// the next richest what it could not. A payment the treasuries cannot cover
/// is paid as far as they go.
fn middle_east_payment(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let mut owed = 0u32;
    let mut names = Vec::new();
    let mut owners: Vec<PowerId> = Vec::new();
    for s in (0..game.space_count()).map(SpaceId) {
        let Some(orig) = original_owner(game, s) else {
            continue;
        };
        if game.powers()[orig].collects_income
            || state.owner[s.0] != Some(power)
            || allied(game, orig, power)
        {
            continue;
        }
        let value = game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
        if value == 0 {
            continue;
        }
        owed += value;
        names.push(game.space_name(s).to_owned());
        if !owners.contains(&orig) {
            owners.push(orig);
        }
    }
    if owed == 0 {
        return;
    }
    let payers: Vec<PowerId> = (0..game.powers().len())
        .filter(|&p| game.powers()[p].plays && owners.iter().any(|&o| allied(game, o, p)))
        .collect();
    let fixed = match MIDDLE_EAST_PAYER.word(game) {
        Some(t) if t != ALLIES_CHOOSE => payers
            .iter()
            .copied()
            .find(|&p| game.powers()[p].name.to_lowercase().replace(' ', "_") == t),
        _ => None,
    };
    let mut order: Vec<PowerId> = match fixed {
        Some(p) => vec![p],
        None => payers,
    };
    // Each Allied power's standing orders place it first, by treasury or
    // last; within a place the richest first, ties in the order the powers
    // are listed. A named payer pays alone.
    order.sort_by_key(|&p| {
        (
            state.standing[p].middle_east_payment,
            std::cmp::Reverse(state.ipcs[p]),
        )
    });
    let receiver = &game.powers()[power].name;
    let mut paid = Vec::new();
    let mut left = owed;
    for p in order {
        let amount = left.min(state.ipcs[p]);
        if amount == 0 {
            continue;
        }
        state.ipcs[p] -= amount;
        state.ipcs[power] += amount;
        left -= amount;
        paid.push(format!(
            "{} paid {receiver} {amount} IPCs",
            game.powers()[p].name
        ));
    }
    let mut detail = format!(
        "{receiver} holds {} worth {owed} IPCs; {}",
        names.join(", "),
        if paid.is_empty() {
            "nothing was paid".to_owned()
        } else {
            paid.join(", ")
        }
    );
    if left > 0 {
        detail.push_str(&format!(
            "; {left} IPCs could not be paid: the payers' treasuries are empty"
        ));
    }
    events.push(Event::Special {
        rule: "Middle East payment".into(),
        detail,
    });
}

/// The Soviet Patriotic War (2nd-edition errata, FAQ): the Soviet Union
/// takes over an ally's land units and aircraft, only in a territory that
/// holds a Soviet industrial complex (Leningrad, Archangel, Stalingrad,
/// Moscow), never at sea, never ships.
fn patriotic_war(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    take: &TakeOver,
    events: &mut Vec<Event>,
) -> Result<(), String> {
    let TakeOver { space, from, units } = take;
    let (space, from) = (*space, *from);
    let here = game.space_name(space);
    if !PATRIOTIC_WAR.on(game) {
        return Err("the Patriotic War rule is not used in this game".into());
    }
    if game.power(SOVIET_UNION) != Some(power) {
        return Err(format!(
            "only the {SOVIET_UNION} may take over allied units (Patriotic War)"
        ));
    }
    if from == power || !allied(game, from, power) {
        return Err(format!(
            "the Patriotic War takes over units of the {SOVIET_UNION}'s allies, not of {}",
            game.powers()[from].name
        ));
    }
    if game.is_sea(space) {
        return Err(format!(
            "the Patriotic War never applies at sea: units in {here} cannot be taken over, \
             only units in a territory with a Soviet industrial complex"
        ));
    }
    let soviet_complex = |s: SpaceId| {
        state.owner[s.0] == Some(power)
            && state
                .units_at(s)
                .any(|u| u.owner == power && game.unit_types()[u.unit].has(&Ability::Production))
    };
    if !soviet_complex(space) {
        let places: Vec<&str> = (0..game.space_count())
            .map(SpaceId)
            .filter(|&s| soviet_complex(s))
            .map(|s| game.space_name(s))
            .collect();
        let now = if places.is_empty() {
            "none is left".to_owned()
        } else {
            places.join(", ")
        };
        return Err(format!(
            "{here} holds no Soviet industrial complex: the Patriotic War applies only in a \
             Soviet-held territory with one (now: {now})"
        ));
    }
    if units.is_empty() {
        return Err("the take-over names no units".into());
    }
    let mut chosen = Vec::new();
    for c in units {
        let t = &game.unit_types()[c.unit];
        if !matches!(t.kind, Some(UnitKind::Land | UnitKind::Air)) {
            return Err(format!(
                "{} cannot be taken over: the Patriotic War takes only land units and aircraft",
                t.name
            ));
        }
        let ids: Vec<u32> = state
            .units_at(space)
            .filter(|u| u.owner == from && u.unit == c.unit && u.cargo_of.is_none())
            .map(|u| u.id)
            .filter(|id| !chosen.contains(id))
            .take(c.count as usize)
            .collect();
        let from_name = &game.powers()[from].name;
        if ids.is_empty() {
            return Err(format!("{from_name} has no {} in {here}", t.name));
        }
        if (ids.len() as u32) < c.count {
            return Err(format!(
                "{from_name} has only {} {} in {here}, not {}",
                ids.len(),
                t.name,
                c.count
            ));
        }
        chosen.extend(ids);
    }
    for id in &chosen {
        if let Some(u) = state.unit_mut(*id) {
            u.owner = power;
        }
    }
    let list: Vec<String> = units
        .iter()
        .map(|c| format!("{} {}", c.count, game.unit_types()[c.unit].name))
        .collect();
    events.push(Event::Special {
        rule: "Patriotic War".into(),
        detail: format!(
            "the {SOVIET_UNION} took over {} of {} in {here}",
            list.join(", "),
            game.powers()[from].name
        ),
    });
    Ok(())
}
