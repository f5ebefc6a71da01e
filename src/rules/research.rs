//! Research and development: the developments (technologies) a power can
//! gain, which ones each power holds, the research phase (researcher tokens,
//! their dice, breakthroughs) and what each development changes.
//!
//! The developments are the game's words for what research yields (the
//! Anniversary Edition's two breakthrough charts). The token price and the
//! charts are game data (`research:` in `game.yaml`); a game plays research
//! when it has that data and the rule option `research` is on. The effects
//! are asked for by the modules whose rules they change (combat, movement,
//! production, income) through the small functions at the end of this
//! module, each reading
//! [`GameState::has_technology`](crate::rules::state::GameState::has_technology)
//! for the owner of the unit concerned: powers never share developments.

use crate::dice::{DiceSource, Label};
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
use crate::rules::orders::{Located, OrderError, ResearchOrder};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
pub use crate::rules::vocab::Technology;

/// A breakthrough happens when any researcher die shows this.
const BREAKTHROUGH: u32 = 6;
/// Improved Artillery Support: infantry each artillery supports.
const SUPPORT_WITH_DEVELOPMENT: usize = 2;
/// Super Submarines and Jet Fighters: attack points added.
const ATTACK_BONUS: u8 = 1;
/// Long-Range Aircraft: movement points added to fighters and bombers.
const RANGE_BONUS: usize = 2;
/// Increased Factory Production: extra units per complex...
const EXTRA_PRODUCTION: u32 = 2;
/// ...in a territory worth at least this many IPCs (errata p.12).
const EXTRA_PRODUCTION_MIN_VALUE: u32 = 3;

/// Why nobody may research in this game, if nobody may: the game has no
/// research, or the match turned it off.
pub(crate) fn refusal_for_game(game: &GameDef) -> Option<String> {
    if game.files().game.research.is_none() {
        return Some(format!(
            "{} has no research and development",
            game.files().game.name
        ));
    }
    if game.research().is_none() {
        return Some("research and development is off in this match (rule option research)".into());
    }
    None
}

/// Why `power` may not research in this game, if it may not.
fn refusal(game: &GameDef, power: PowerId) -> Option<String> {
    let name = &game.powers()[power].name;
    if let Some(reason) = refusal_for_game(game) {
        return Some(reason);
    }
    if !game.powers()[power].collects_income {
        return Some(format!(
            "{name} collects no IPCs and cannot research (FAQ, China)"
        ));
    }
    None
}

/// The research phase of `power`'s turn: buy researcher tokens, then roll
/// one die per token held on the chart the orders named. Any 6 is a
/// breakthrough: every token is discarded and one die on the chart gives a
/// development (rolled again while it shows one the power already has); no 6
/// keeps the tokens. Without dice, everything is checked and the tokens are
/// bought; `Ok(true)` then says the roll still needs dice.
pub(crate) fn research(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    order: &Located<ResearchOrder>,
    dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> Result<bool, Vec<OrderError>> {
    let origin = &order.origin;
    if let Some(reason) = refusal(game, power) {
        return Err(vec![OrderError::new(origin, reason)]);
    }
    let rules = game.research().expect("checked by refusal");
    let name = game.powers()[power].name.clone();
    let ResearchOrder { buy, chart } = order.item;
    let cost = buy * rules.token_cost;
    if cost > state.ipcs[power] {
        return Err(vec![
            OrderError::new(
                origin,
                format!(
                    "{buy} researcher token{} cost {cost} IPCs ({} each) and {name} has {}",
                    plural(buy),
                    rules.token_cost,
                    state.ipcs[power]
                ),
            )
            .field("buy"),
        ]);
    }
    let held = state.research_tokens[power] + buy;
    if let Some(c) = chart {
        let def = &rules.charts[c];
        let owned = def
            .developments
            .iter()
            .filter_map(|d| Technology::from_name(d))
            .all(|t| state.has_technology(power, t));
        if owned && held > 0 {
            return Err(vec![
                OrderError::new(
                    origin,
                    format!(
                        "{name} already has every development of the {} chart; choose another chart",
                        def.name
                    ),
                )
                .field("chart"),
            ]);
        }
    } else if held > 0 {
        let charts: Vec<String> = rules
            .charts
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{} ({})", c.name, i + 1))
            .collect();
        return Err(vec![
            OrderError::new(
                origin,
                format!(
                    "{name} will hold {held} researcher token{} and rolls them: name the chart \
                     for a breakthrough (chart: {})",
                    plural(held),
                    charts.join(" or ")
                ),
            )
            .field("chart"),
        ]);
    }
    if buy > 0 {
        state.ipcs[power] -= cost;
        state.research_tokens[power] = held;
        events.push(Event::Special {
            rule: "research".into(),
            detail: format!(
                "{name} buys {buy} researcher token{} for {cost} IPCs and holds {held}",
                plural(buy)
            ),
        });
    }
    let (Some(chart), true) = (chart, held > 0) else {
        return Ok(false);
    };
    let Some(dice) = dice else {
        return Ok(true);
    };
    let rolled = dice.roll_many(&label(&name, "dice"), held as usize, 6);
    let shown: Vec<String> = rolled.iter().map(u32::to_string).collect();
    if !rolled.contains(&BREAKTHROUGH) {
        events.push(Event::Special {
            rule: "research".into(),
            detail: format!(
                "{name} rolls {held} researcher di{} ({}): no 6, no breakthrough; \
                 the token{} stay for a later turn",
                if held == 1 { "e" } else { "ce" },
                shown.join(", "),
                plural(held)
            ),
        });
        return Ok(false);
    }
    state.research_tokens[power] = 0;
    let def = &rules.charts[chart];
    let faces: Vec<Technology> = def
        .developments
        .iter()
        .filter_map(|d| Technology::from_name(d))
        .collect();
    // Rolled again while the die shows a development already held
    // (INTERPRETATION, docs/rules/anniversary.md); checked above that one
    // is still missing.
    let mut chart_dice = Vec::new();
    let gained = loop {
        let face = dice.roll(&label(&name, "chart"), 6);
        chart_dice.push(face.to_string());
        let tech = faces[(face - 1) as usize];
        if !state.has_technology(power, tech) {
            break tech;
        }
    };
    state.technologies[power].push(gained);
    state.technologies[power].sort();
    events.push(Event::Special {
        rule: "research".into(),
        detail: format!(
            "{name} rolls {held} researcher di{} ({}): a breakthrough; every researcher \
             token is discarded; the {} chart shows {}: {name} gains {gained}",
            if held == 1 { "e" } else { "ce" },
            shown.join(", "),
            def.name,
            chart_dice.join(", then ")
        ),
    });
    Ok(false)
}

fn plural(n: u32) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `research/<power>/<what>`.
fn label(power: &str, what: &str) -> Label {
    Label::from_segments(&["research", &power.replace('/', "-"), what])
        .expect("research labels are short and printable")
}

/// The chart named `text` in the game's research data: by name (without
/// regard to case), by number from 1, or as `chart N`.
pub fn chart_named(game: &GameDef, text: &str) -> Result<usize, String> {
    let charts = game
        .files()
        .game
        .research
        .as_ref()
        .map(|r| r.charts.as_slice())
        .unwrap_or_default();
    let t = text.trim();
    let number = t
        .strip_prefix("chart")
        .or_else(|| t.strip_prefix("Chart"))
        .unwrap_or(t)
        .trim();
    if let Ok(n) = number.parse::<usize>()
        && (1..=charts.len()).contains(&n)
    {
        return Ok(n - 1);
    }
    let key = crate::rules::names::NameKey::new(t);
    if let Some(i) = charts
        .iter()
        .position(|c| crate::rules::names::NameKey::new(&c.name) == key)
    {
        return Ok(i);
    }
    if charts.is_empty() {
        return Err(format!("{} has no research charts", game.files().game.name));
    }
    let valid: Vec<String> = charts
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{} ({})", c.name, i + 1))
        .collect();
    Err(format!(
        "\"{t}\" is not a research chart; the charts are: {}",
        valid.join(", ")
    ))
}

/// Researcher tokens lost with the capital (FAQ, Miscellaneous: "discard
/// any researcher tokens that you may have").
pub(crate) fn lose_tokens(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let lost = std::mem::take(&mut state.research_tokens[power]);
    if lost > 0 {
        events.push(Event::Special {
            rule: "capital captured".into(),
            detail: format!(
                "{} loses its {lost} researcher token{}",
                game.powers()[power].name,
                plural(lost)
            ),
        });
    }
}

// ----- effects ---------------------------------------------------------------

/// A fighter for the developments: an aircraft that is not a bomber.
fn is_fighter(t: &UnitType) -> bool {
    t.kind == Some(UnitKind::Air) && !t.has(&Ability::StrategicBomber)
}

/// A unit's attack value with its owner's developments: Super Submarines
/// (submarines attack at 3) and Jet Fighters (fighters attack at 4);
/// defence never changes.
pub(crate) fn attack(state: &GameState, owner: PowerId, t: &UnitType) -> Option<u8> {
    let bonus = (t.has(&Ability::FirstStrike)
        && state.has_technology(owner, Technology::SuperSubmarines))
        || (is_fighter(t) && state.has_technology(owner, Technology::JetFighters));
    t.attack
        .map(|a| if bonus && a > 0 { a + ATTACK_BONUS } else { a })
}

/// How many infantry each of `owner`'s artillery supports (Improved
/// Artillery Support: two).
pub(crate) fn supported_per_artillery(state: &GameState, owner: PowerId) -> usize {
    if state.has_technology(owner, Technology::ImprovedArtillerySupport) {
        SUPPORT_WITH_DEVELOPMENT
    } else {
        1
    }
}

/// Movement points a unit type of `owner` gains (Long-Range Aircraft: 2 for
/// fighters and bombers).
pub(crate) fn extra_movement(state: &GameState, owner: PowerId, t: &UnitType) -> usize {
    if t.kind == Some(UnitKind::Air) && state.has_technology(owner, Technology::LongRangeAircraft) {
        RANGE_BONUS
    } else {
        0
    }
}

/// Improved Mechanized Infantry: how many infantry of `owner` moving in one
/// order with these units may move one space further (one per armor; armor
/// = a land unit that blitzes, infantry = a land unit artillery supports).
pub(crate) fn mechanized_infantry(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    units: &crate::rules::vocab::UnitList,
) -> u32 {
    if !state.has_technology(owner, Technology::ImprovedMechanizedInfantry) {
        return 0;
    }
    units
        .iter()
        .filter(|c| {
            let t = &game.unit_types()[c.unit];
            t.kind == Some(UnitKind::Land) && t.has(&Ability::Blitz)
        })
        .map(|c| c.count)
        .sum()
}

/// A strategic bomber: the aircraft that carries a paratrooper.
pub(crate) fn is_bomber(t: &UnitType) -> bool {
    t.kind == Some(UnitKind::Air) && t.has(&Ability::StrategicBomber)
}

/// An order of bombers and infantry only, both present: with the
/// Paratroopers development, a paradrop (docs/orders.md).
pub(crate) fn bombers_with_infantry(game: &GameDef, units: &crate::rules::vocab::UnitList) -> bool {
    let types = game.unit_types();
    let bomber = units.iter().any(|c| is_bomber(&types[c.unit]));
    let infantry = units.iter().any(|c| is_infantry(&types[c.unit]));
    bomber
        && infantry
        && units
            .iter()
            .all(|c| is_bomber(&types[c.unit]) || is_infantry(&types[c.unit]))
}

/// Paratroopers land once AA fire is resolved (errata p.12): the attacker's
/// infantry carried by its bombers in `space` leave their bombers. Those
/// whose bomber was shot down were destroyed with it.
pub(crate) fn drop_paratroopers(
    game: &GameDef,
    state: &mut GameState,
    space: crate::rules::SpaceId,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let bombers: Vec<u32> = state
        .units_at(space)
        .filter(|u| u.owner == power && is_bomber(&game.unit_types()[u.unit]))
        .map(|u| u.id)
        .collect();
    let mut dropped = 0;
    for u in state.units.iter_mut() {
        if u.at == space && u.cargo_of.is_some_and(|b| bombers.contains(&b)) {
            u.cargo_of = None;
            dropped += 1;
        }
    }
    if dropped > 0 {
        events.push(Event::Special {
            rule: "paratroopers".into(),
            detail: format!(
                "{dropped} {} infantry {} dropped into {} after AA fire",
                game.powers()[power].name,
                if dropped == 1 { "is" } else { "are" },
                game.space_name(space)
            ),
        });
    }
}

/// A bomber carrying a paratrooper may not make a strategic bombing raid
/// that turn (rulebook p.12, digest §7): a battle plan declaring a raid
/// where a paradrop ends is refused.
pub(crate) fn paratroopers_do_not_raid(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &crate::rules::orders::Orders,
) -> Vec<OrderError> {
    use crate::rules::orders::MoveOrder;
    if !state.has_technology(power, Technology::Paratroopers) {
        return Vec::new();
    }
    let drops: Vec<crate::rules::SpaceId> = orders
        .combat
        .iter()
        .filter_map(|o| match &o.item {
            MoveOrder::Move { units, path, .. } if bombers_with_infantry(game, units) => {
                path.last().copied()
            }
            _ => None,
        })
        .collect();
    orders
        .battles
        .iter()
        // A plan naming raiders declares a raid too (Anniversary).
        .filter(|p| p.item.bombing_raid || !p.item.raiders.is_empty())
        .filter_map(|p| {
            let space = p.item.space?;
            drops.contains(&space).then(|| {
                OrderError::new(
                    &p.origin,
                    format!(
                        "bombers carrying paratroopers to {} may not make a strategic bombing raid",
                        game.space_name(space)
                    ),
                )
                .field("bombing_raid")
            })
        })
        .collect()
}

/// An infantry for Improved Mechanized Infantry.
pub(crate) fn is_infantry(t: &UnitType) -> bool {
    t.kind == Some(UnitKind::Land) && t.has(&Ability::ArtillerySupportable)
}

/// What `owner` pays for a unit type (Improved Shipyards: the game's
/// `shipyard_costs`), or `None` when it cannot be bought.
pub(crate) fn unit_cost(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    t: &UnitType,
) -> Option<u32> {
    let shipyard = state
        .has_technology(owner, Technology::ImprovedShipyards)
        .then(|| game.files().game.research.as_ref())
        .flatten()
        .and_then(|r| {
            r.shipyard_costs
                .iter()
                .find(|(name, _)| game.unit_type(name).is_some_and(|u| std::ptr::eq(u, t)))
                .map(|(_, c)| *c)
        });
    t.cost.map(|c| shipyard.unwrap_or(c))
}

/// Extra units a complex of `owner` in a territory worth `value` IPCs
/// mobilizes (Increased Factory Production, errata p.12: two, where the
/// territory is worth 3 or more).
pub(crate) fn extra_production(state: &GameState, owner: PowerId, value: u32) -> u32 {
    if value >= EXTRA_PRODUCTION_MIN_VALUE
        && state.has_technology(owner, Technology::IncreasedFactoryProduction)
    {
        EXTRA_PRODUCTION
    } else {
        0
    }
}

/// War Bonds: the die rolled in the power's research phase (label
/// `research/<power>/war bonds`), kept in the state and paid at its Collect
/// Income. Stage 2, where income is collected, has no dice; stage 1 does,
/// so the die is rolled there. Returns `true` when it needs dice that were
/// not given.
pub(crate) fn roll_war_bonds(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    dice: Option<&mut (dyn DiceSource + '_)>,
) -> bool {
    if !state.has_technology(power, Technology::WarBonds) {
        return false;
    }
    let Some(dice) = dice else {
        return true;
    };
    let name = &game.powers()[power].name;
    state.war_bonds = dice.roll(&label(name, "war bonds"), 6);
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::orders::parse::parse_message;
    use crate::rules::turn::{apply_orders, check_orders};
    use crate::rules::{GameDef, load_dir};

    fn anniversary() -> GameDef {
        load_dir(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/anniversary-1941"))
            .expect("games/anniversary-1941 loads")
    }

    #[test]
    fn research_orders_are_checked_without_dice_and_then_need_them() {
        let game = anniversary();
        let state = GameState::initial(&game);
        let germany = game.power("Germany").unwrap();
        let ok = parse_message(
            &game,
            "research: {buy: 2, chart: 2}\npurchase: 7 infantry\n",
        )
        .unwrap();
        assert_eq!(check_orders(&game, &state, germany, &ok.orders), Ok(()));
        let errors = apply_orders(&game, &state, germany, &ok.orders).unwrap_err();
        assert!(errors[0].reason.contains("needs dice"), "{errors:?}");
        // The purchase is checked with what the tokens left: 31 - 10 = 21.
        let over = parse_message(
            &game,
            "research: {buy: 2, chart: 2}\npurchase: 8 infantry\n",
        )
        .unwrap();
        let errors = check_orders(&game, &state, germany, &over.orders).unwrap_err();
        assert!(errors[0].reason.contains("has only 21"), "{errors:?}");
    }

    #[test]
    fn research_data_problems_are_reported_at_load() {
        let game = anniversary();
        let mut files = game.files().clone();
        let r = files.game.research.as_mut().unwrap();
        r.token_cost = 0;
        r.charts[0].developments[1] = "jets".into();
        r.charts[1].developments[0] = "war bonds".into();
        r.charts[1].developments.pop();
        r.shipyard_costs.0.push(("dreadnought".into(), 20));
        let problems = GameDef::new(files).unwrap_err().to_string();
        for want in [
            "research.token_cost",
            "there is no development called \"jets\"",
            "war bonds is already on the charts at research.charts[0].developments[4]",
            "this one lists 5",
            "research.shipyard_costs.dreadnought",
        ] {
            assert!(problems.contains(want), "{want} not in {problems}");
        }
    }

    #[test]
    fn the_canonical_research_order_parses_to_the_same_order() {
        let game = anniversary();
        let message = parse_message(&game, "Research: {chart: 2}\n").unwrap();
        assert_eq!(
            message.canonical,
            "research:\n  buy: 0\n  chart: air and naval\n"
        );
        let again = parse_message(&game, &message.canonical).unwrap();
        assert_eq!(
            again.orders.without_origins(),
            message.orders.without_origins()
        );
        let errors = parse_message(&game, "research: {buy: -1, cost: 3}\n").unwrap_err();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(
            shown[0].contains("buy is how many researcher tokens to buy"),
            "{shown:?}"
        );
        assert!(
            shown[1].contains("The keys here are: buy, chart"),
            "{shown:?}"
        );
    }

    #[test]
    fn charts_are_found_by_name_or_number() {
        let game = anniversary();
        assert_eq!(chart_named(&game, "Air and Naval"), Ok(1));
        assert_eq!(chart_named(&game, "1"), Ok(0));
        assert_eq!(chart_named(&game, "chart 2"), Ok(1));
        let err = chart_named(&game, "3").unwrap_err();
        assert!(
            err.contains("land and production (1), air and naval (2)"),
            "{err}"
        );
    }

    #[test]
    fn names_round_trip_and_tolerate_spelling() {
        for t in Technology::ALL {
            assert_eq!(Technology::from_name(t.name()), Some(t));
        }
        assert_eq!(
            Technology::from_name("Long_Range  Aircraft"),
            Some(Technology::LongRangeAircraft)
        );
        assert_eq!(Technology::from_name("jets"), None);
    }
}
