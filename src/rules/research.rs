//! Research and development: the developments (technologies) a power can
//! gain, which ones each power holds, the research phase and what each
//! development changes.
//!
//! What a game says as data (`research:` in `game.yaml`): the price of a
//! researcher token or research die, the breakthrough charts, and the unit
//! values each development changes (`effects`: attack, defense, movement,
//! price, dice). What the rule set says ([`RuleSetHooks::research_procedure`]):
//! how research is played ([`ResearchProcedure`]: Anniversary's researcher
//! tokens, Classic's weapons development dice). The effects that are not
//! numbers (Rockets, Paratroopers, War Bonds, ...) are asked for by the
//! modules whose rules they change (combat, movement, production, income)
//! through the small functions at the end of this module, each reading
//! [`GameState::has_technology`](crate::rules::state::GameState::has_technology)
//! for the owner of the unit concerned: powers never share developments.
//!
//! [`RuleSetHooks::research_procedure`]: crate::rules::variants::RuleSetHooks::research_procedure

use crate::dice::{DiceSource, Label};
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::model::{Ability, DevelopmentValues, Research, UnitClass, UnitKind, UnitType};
use crate::rules::orders::{Located, OrderError, ResearchOrder};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
pub use crate::rules::vocab::Technology;

/// A breakthrough happens when a research die shows this.
const BREAKTHROUGH: u32 = 6;
/// Improved Artillery Support: infantry each artillery supports.
const SUPPORT_WITH_DEVELOPMENT: usize = 2;
/// Increased Factory Production: extra units per complex...
const EXTRA_PRODUCTION: u32 = 2;
/// ...in a territory worth at least this many IPCs (errata p.12).
const EXTRA_PRODUCTION_MIN_VALUE: u32 = 3;

/// How a rule set plays research: the procedure the data cannot say
/// ([`RuleSetHooks::research_procedure`](crate::rules::variants::RuleSetHooks::research_procedure)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ResearchProcedure {
    /// Anniversary (rulebook p.11, digest §10): researcher tokens are bought
    /// and kept until a breakthrough; each turn one die per token held is
    /// rolled, and any 6 gives one development from the chart the orders
    /// name (a die on the chart), after which every token is discarded.
    ResearcherTokens,
    /// Classic (MB 2nd edition, digest §5): research dice are bought and
    /// rolled at once, before the purchase, and none is kept; every 6 is a
    /// breakthrough, and its development takes effect at once.
    DicePerBreakthrough {
        /// How a breakthrough's development is found.
        selection: DevelopmentSelection,
    },
}

/// How a breakthrough's development is found under
/// [`ResearchProcedure::DicePerBreakthrough`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DevelopmentSelection {
    /// A die on the chart, rolled again while it shows a development the
    /// power holds (every development not yet held equally likely, as
    /// TripleA picks one at random).
    ChartDie,
    /// The player's choice: the research order lists the developments it
    /// wants (`developments:`), most wanted first; each breakthrough gives
    /// the first not yet held, and once the list is used up a die on the
    /// chart decides.
    Choice,
}

impl ResearchProcedure {
    /// What a power buys, in the game's words.
    fn bought(self) -> &'static str {
        match self {
            ResearchProcedure::ResearcherTokens => "researcher token",
            ResearchProcedure::DicePerBreakthrough { .. } => "research die",
        }
    }

    /// `bought`, in the plural for `n` other than 1.
    fn bought_n(self, n: u32) -> String {
        match (self, n) {
            (_, 1) => self.bought().to_owned(),
            (ResearchProcedure::ResearcherTokens, _) => "researcher tokens".to_owned(),
            (ResearchProcedure::DicePerBreakthrough { .. }, _) => "research dice".to_owned(),
        }
    }
}

/// The unit values of the developments as the engine had them built in
/// before they were game data (the Anniversary Edition's, errata p.12): a
/// game file whose `research:` names no `effects` keeps these, so matches
/// created before then replay unchanged.
pub const BUILT_IN_VALUES: [(Technology, DevelopmentValues); 4] = [
    (
        Technology::SuperSubmarines,
        DevelopmentValues {
            attack: 1,
            ..values(UnitClass::Submarines)
        },
    ),
    (
        Technology::JetFighters,
        DevelopmentValues {
            attack: 1,
            ..values(UnitClass::Fighters)
        },
    ),
    (
        Technology::LongRangeAircraft,
        DevelopmentValues {
            movement: 2,
            ..values(UnitClass::Aircraft)
        },
    ),
    (
        Technology::HeavyBombers,
        DevelopmentValues {
            dice: Some(2),
            best_die_only: true,
            ..values(UnitClass::Bombers)
        },
    ),
];

/// Values that change nothing for `units`.
const fn values(units: UnitClass) -> DevelopmentValues {
    DevelopmentValues {
        units,
        attack: 0,
        defense: 0,
        movement: 0,
        cost: 0,
        dice: None,
        best_die_only: false,
    }
}

/// The development values of a game's research data (validated names),
/// [`BUILT_IN_VALUES`] when it states none.
pub(crate) fn resolve_values(research: Option<&Research>) -> Vec<(Technology, DevelopmentValues)> {
    match research {
        None => Vec::new(),
        Some(Research { effects: None, .. }) => BUILT_IN_VALUES.to_vec(),
        Some(Research {
            effects: Some(e), ..
        }) => e
            .iter()
            .filter_map(|(name, v)| Some((Technology::from_name(name)?, *v)))
            .collect(),
    }
}

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

/// The research phase of `power`'s turn, by the rule set's procedure
/// ([`ResearchProcedure`]): buy researcher tokens or research dice, roll,
/// and turn each breakthrough into a development. Without dice, everything
/// is checked and the purchase made; `Ok(true)` then says the roll still
/// needs dice.
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
    let procedure = game
        .rule_set()
        .research_procedure(game)
        .expect("a rule set with the research option has a procedure (tested)");
    let name = game.powers()[power].name.clone();
    let ResearchOrder {
        buy,
        chart,
        ref developments,
    } = order.item;
    let cost = buy * rules.token_cost;
    if cost > state.ipcs[power] {
        return Err(vec![
            OrderError::new(
                origin,
                format!(
                    "{buy} {} cost {cost} IPCs ({} each) and {name} has {}",
                    procedure.bought_n(buy),
                    rules.token_cost,
                    state.ipcs[power]
                ),
            )
            .field("buy"),
        ]);
    }
    let choosing = procedure
        == ResearchProcedure::DicePerBreakthrough {
            selection: DevelopmentSelection::Choice,
        };
    if !developments.is_empty() && !choosing {
        let how = match procedure {
            ResearchProcedure::ResearcherTokens => "a die on the chart gives it",
            ResearchProcedure::DicePerBreakthrough { .. } => {
                "a die on the chart gives it in this match (option weapons_development_selection)"
            }
        };
        return Err(vec![
            OrderError::new(
                origin,
                format!(
                    "a breakthrough's development is not chosen here: {how}; leave developments out"
                ),
            )
            .field("developments"),
        ]);
    }
    let held = match procedure {
        ResearchProcedure::ResearcherTokens => state.research_tokens[power] + buy,
        ResearchProcedure::DicePerBreakthrough { .. } => buy,
    };
    // With one chart there is nothing to name.
    let chart = chart.or((rules.charts.len() == 1).then_some(0));
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
        if let Some(t) = developments.iter().find(|t| {
            !def.developments
                .iter()
                .any(|d| Technology::from_name(d) == Some(**t))
        }) {
            let on: Vec<&str> = def.developments.iter().map(String::as_str).collect();
            return Err(vec![
                OrderError::new(
                    origin,
                    format!(
                        "{t} is not on the {} chart; its developments are: {}",
                        def.name,
                        on.join(", ")
                    ),
                )
                .field("developments"),
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
                    "{name} will hold {held} {} and rolls them: name the chart \
                     for a breakthrough (chart: {})",
                    procedure.bought_n(held),
                    charts.join(" or ")
                ),
            )
            .field("chart"),
        ]);
    }
    if buy > 0 {
        state.ipcs[power] -= cost;
        match procedure {
            ResearchProcedure::ResearcherTokens => {
                state.research_tokens[power] = held;
                events.push(Event::Special {
                    rule: "research".into(),
                    detail: format!(
                        "{name} buys {buy} researcher token{} for {cost} IPCs and holds {held}",
                        plural(buy)
                    ),
                });
            }
            ResearchProcedure::DicePerBreakthrough { .. } => events.push(Event::Special {
                rule: "research".into(),
                detail: format!(
                    "{name} buys {buy} {} for {cost} IPCs",
                    procedure.bought_n(buy)
                ),
            }),
        }
    }
    let (Some(chart), true) = (chart, held > 0) else {
        return Ok(false);
    };
    let Some(dice) = dice else {
        return Ok(true);
    };
    let rolled = dice.roll_many(&label(&name, "dice"), held as usize, 6);
    let shown: Vec<String> = rolled.iter().map(u32::to_string).collect();
    let dice_word = if held == 1 { "die" } else { "dice" };
    let def = &rules.charts[chart];
    let sixes = rolled.iter().filter(|v| **v == BREAKTHROUGH).count();
    match procedure {
        ResearchProcedure::ResearcherTokens => {
            if sixes == 0 {
                events.push(Event::Special {
                    rule: "research".into(),
                    detail: format!(
                        "{name} rolls {held} researcher {dice_word} ({}): no 6, no breakthrough; \
                         the token{} stay for a later turn",
                        shown.join(", "),
                        plural(held)
                    ),
                });
                return Ok(false);
            }
            state.research_tokens[power] = 0;
            let (gained, chart_dice) = chart_die(dice, &name, def, state, power)
                .expect("checked above that one is still missing");
            gain(state, power, gained);
            events.push(Event::Special {
                rule: "research".into(),
                detail: format!(
                    "{name} rolls {held} researcher {dice_word} ({}): a breakthrough; every researcher \
                     token is discarded; the {} chart shows {}: {name} gains {gained}",
                    shown.join(", "),
                    def.name,
                    chart_dice.join(", then ")
                ),
            });
        }
        ResearchProcedure::DicePerBreakthrough { .. } => {
            let mut gains = Vec::new();
            let mut wanted = developments.iter();
            for _ in 0..sixes {
                let chosen = wanted.by_ref().find(|t| !state.has_technology(power, **t));
                let got = match chosen {
                    Some(t) => Some((*t, "chosen".to_owned())),
                    None => chart_die(dice, &name, def, state, power).map(|(t, faces)| {
                        (t, format!("the chart shows {}", faces.join(", then ")))
                    }),
                };
                let Some((t, how)) = got else {
                    gains.push("a breakthrough with nothing left to gain on the chart".to_owned());
                    break;
                };
                gain(state, power, t);
                gains.push(format!("{t} ({how})"));
            }
            let detail = if gains.is_empty() {
                format!(
                    "{name} rolls {held} research {dice_word} ({}): no 6, no breakthrough",
                    shown.join(", ")
                )
            } else {
                format!(
                    "{name} rolls {held} research {dice_word} ({}): {sixes} breakthrough{}; \
                     {name} gains {}",
                    shown.join(", "),
                    if sixes == 1 { "" } else { "s" },
                    gains.join("; ")
                )
            };
            events.push(Event::Special {
                rule: "research".into(),
                detail,
            });
        }
    }
    Ok(false)
}

/// A die on `chart` (label `research/<power>/chart`), rolled again while it
/// shows a development `power` holds (INTERPRETATION, docs/rules/anniversary.md):
/// the development and every face shown; `None` when the power holds every
/// development of the chart.
fn chart_die(
    dice: &mut (dyn DiceSource + '_),
    power_name: &str,
    chart: &crate::rules::model::ResearchChart,
    state: &GameState,
    power: PowerId,
) -> Option<(Technology, Vec<String>)> {
    let faces: Vec<Technology> = chart
        .developments
        .iter()
        .filter_map(|d| Technology::from_name(d))
        .collect();
    if faces.iter().all(|t| state.has_technology(power, *t)) {
        return None;
    }
    let mut shown = Vec::new();
    loop {
        let face = dice.roll(&label(power_name, "chart"), 6);
        shown.push(face.to_string());
        let tech = faces[(face - 1) as usize];
        if !state.has_technology(power, tech) {
            return Some((tech, shown));
        }
    }
}

/// `power` gains `t`.
fn gain(state: &mut GameState, power: PowerId, t: Technology) {
    state.technologies[power].push(t);
    state.technologies[power].sort();
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

/// The values of `owner`'s developments that change units of type `t`.
fn values_for<'a>(
    game: &'a GameDef,
    state: &'a GameState,
    owner: PowerId,
    t: &'a UnitType,
) -> impl Iterator<Item = &'a DevelopmentValues> + 'a {
    game.development_values()
        .iter()
        .filter(move |(tech, v)| v.units.includes(t) && state.has_technology(owner, *tech))
        .map(|(_, v)| v)
}

/// `value` changed by `by`, for a unit that fires at all (0 stays 0; a
/// changed value stays from 1 to 12).
fn changed(value: Option<u8>, by: i32) -> Option<u8> {
    value.map(|v| {
        if v > 0 && by != 0 {
            u8::try_from((i32::from(v) + by).clamp(1, 12)).unwrap_or(v)
        } else {
            v
        }
    })
}

/// The sum of one number (`pick`) of `owner`'s developments that change
/// units of type `t`.
fn added(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    t: &UnitType,
    pick: fn(&DevelopmentValues) -> i8,
) -> i32 {
    values_for(game, state, owner, t)
        .map(|v| i32::from(pick(v)))
        .sum()
}

/// A unit's attack value with its owner's developments (Anniversary: Super
/// Submarines and Jet Fighters, +1).
pub(crate) fn attack(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    t: &UnitType,
) -> Option<u8> {
    changed(t.attack, added(game, state, owner, t, |v| v.attack))
}

/// A unit's defense value with its owner's developments (Classic: Jet
/// Power, fighters defend at 5).
pub(crate) fn defense(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    t: &UnitType,
) -> Option<u8> {
    changed(t.defense, added(game, state, owner, t, |v| v.defense))
}

/// The dice each unit of type `t` rolls when `owner` attacks or raids with
/// it, and whether only the best counts (Heavy Bombers); `None` for one die.
pub(crate) fn attack_dice(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    t: &UnitType,
) -> Option<(u8, bool)> {
    values_for(game, state, owner, t).find_map(|v| v.dice.map(|n| (n, v.best_die_only)))
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

/// Movement points a unit type of `owner` gains (Long-Range Aircraft: 2
/// for fighters and bombers).
pub(crate) fn extra_movement(
    game: &GameDef,
    state: &GameState,
    owner: PowerId,
    t: &UnitType,
) -> usize {
    usize::try_from(added(game, state, owner, t, |v| v.movement).max(0)).unwrap_or(0)
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
/// `shipyard_costs`; developments that change prices, `effects.*.cost`),
/// or `None` when it cannot be bought.
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
    // Industrial Technology (Classic): every unit 1 IPC less, never below 1.
    let by = added(game, state, owner, t, |v| v.cost);
    t.cost.map(|c| {
        let price = shipyard.unwrap_or(c);
        if by == 0 {
            price
        } else {
            u32::try_from((i64::from(price) + i64::from(by)).max(1)).unwrap_or(price)
        }
    })
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
        r.effects = Some(
            serde_saphyr::from_str(
                "jets: {units: fighters, attack: 1}\n\
                 jet power: {units: fighters, defense: 1}\n\
                 heavy bombers: {units: bombers, dice: 0}\n\
                 radar: {units: all, best_die_only: true}\n",
            )
            .unwrap(),
        );
        let problems = GameDef::new(files).unwrap_err().to_string();
        for want in [
            "research.effects.jets: there is no development called \"jets\"",
            "research.effects.jet power: jet power is on no breakthrough chart",
            "research.effects.heavy bombers.dice: a unit rolls at least one die",
            "research.effects.radar.best_die_only: best_die_only needs dice",
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

    /// A rule set that plays Anniversary's games with Classic's weapons
    /// development procedure: the shape research must fit.
    struct DiceResearch(DevelopmentSelection);

    impl crate::rules::variants::RuleSetHooks for DiceResearch {
        fn id(&self) -> &'static str {
            "dice-research-test"
        }
        fn base(&self) -> Option<&'static dyn crate::rules::variants::RuleSetHooks> {
            Some(&Anniversary)
        }
        fn options(&self) -> &'static [crate::rules::variants::OptionSpec] {
            &[]
        }
        fn research_procedure(&self, _game: &GameDef) -> Option<ResearchProcedure> {
            Some(ResearchProcedure::DicePerBreakthrough { selection: self.0 })
        }
        crate::rules::variants::inherit!(Anniversary =>
            bid_placement,
            check,
            neutral_rules,
            territory_pays_income,
            income,
        payments,
        combat_move_ended,
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
    }

    use crate::rules::variants::anniversary::Anniversary;
    static BY_DIE: DiceResearch = DiceResearch(DevelopmentSelection::ChartDie);
    static BY_CHOICE: DiceResearch = DiceResearch(DevelopmentSelection::Choice);

    fn with_dice_research(rule_set: &'static DiceResearch) -> GameDef {
        GameDef::with_rule_set(anniversary().files().clone(), rule_set).expect("derived game")
    }

    fn order(game: &GameDef, text: &str) -> Located<ResearchOrder> {
        parse_message(game, text)
            .unwrap()
            .orders
            .research
            .expect("a research order")
    }

    fn events_text(events: &[Event]) -> String {
        events
            .iter()
            .map(|e| match e {
                Event::Special { detail, .. } => detail.clone(),
                other => format!("{other:?}"),
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    #[test]
    fn research_dice_are_rolled_at_once_and_every_six_is_a_breakthrough() {
        use crate::dice::{Label, ScriptedDice};
        let game = with_dice_research(&BY_DIE);
        let mut state = GameState::initial(&game);
        let germany = game.power("Germany").unwrap();
        let before = state.ipcs[germany];
        // Three dice: two sixes. Air and naval: 6 is heavy bombers; the
        // second breakthrough's die shows 6 again (held), then 2.
        let mut dice = ScriptedDice::sequence([])
            .with_label(Label::new("research/Germany/dice").unwrap(), [6, 2, 6])
            .with_label(Label::new("research/Germany/chart").unwrap(), [6, 6, 2]);
        let mut events = Vec::new();
        let needs = research(
            &game,
            &mut state,
            germany,
            &order(&game, "research: {buy: 3, chart: air and naval}\n"),
            Some(&mut dice),
            &mut events,
        )
        .unwrap();
        assert!(!needs);
        assert_eq!(state.ipcs[germany], before - 15);
        assert_eq!(state.research_tokens[germany], 0, "no die is kept");
        assert_eq!(
            state.technologies[germany],
            vec![Technology::JetFighters, Technology::HeavyBombers]
        );
        let text = events_text(&events);
        assert!(text.contains("buys 3 research dice for 15 IPCs"), "{text}");
        assert!(
            text.contains("rolls 3 research dice (6, 2, 6): 2 breakthroughs"),
            "{text}"
        );
        assert!(text.contains("heavy bombers (the chart shows 6)"), "{text}");
        assert!(
            text.contains("jet fighters (the chart shows 6, then 2)"),
            "{text}"
        );

        // No six: the dice are spent and nothing is kept.
        let mut dice = ScriptedDice::sequence([])
            .with_label(Label::new("research/Germany/dice").unwrap(), [1, 5]);
        let mut events = Vec::new();
        research(
            &game,
            &mut state,
            germany,
            &order(&game, "research: {buy: 2, chart: 2}\n"),
            Some(&mut dice),
            &mut events,
        )
        .unwrap();
        assert_eq!(state.research_tokens[germany], 0);
        assert!(events_text(&events).contains("no 6, no breakthrough"));
    }

    #[test]
    fn chosen_developments_go_first_then_the_chart_die_decides() {
        use crate::dice::{Label, ScriptedDice};
        let game = with_dice_research(&BY_CHOICE);
        let mut state = GameState::initial(&game);
        let uk = game.power("United Kingdom").unwrap();
        let mut dice = ScriptedDice::sequence([])
            .with_label(
                Label::new("research/United Kingdom/dice").unwrap(),
                [6, 6, 6],
            )
            .with_label(Label::new("research/United Kingdom/chart").unwrap(), [1]);
        let mut events = Vec::new();
        research(
            &game,
            &mut state,
            uk,
            &order(
                &game,
                "research: {buy: 3, chart: 2, developments: [radar, heavy bombers]}\n",
            ),
            Some(&mut dice),
            &mut events,
        )
        .unwrap();
        assert_eq!(
            state.technologies[uk],
            vec![
                Technology::SuperSubmarines,
                Technology::Radar,
                Technology::HeavyBombers
            ]
        );
        // A development that is not on the chart rolled is refused.
        let errors = research(
            &game,
            &mut GameState::initial(&game),
            uk,
            &order(
                &game,
                "research: {buy: 1, chart: 2, developments: [rockets]}\n",
            ),
            None,
            &mut Vec::new(),
        )
        .unwrap_err();
        assert!(
            errors[0]
                .reason
                .contains("rockets is not on the air and naval chart"),
            "{errors:?}"
        );
    }

    #[test]
    fn a_development_is_chosen_only_where_the_rules_let_the_player_choose() {
        for game in [anniversary(), with_dice_research(&BY_DIE)] {
            let state = GameState::initial(&game);
            let germany = game.power("Germany").unwrap();
            let errors = research(
                &game,
                &mut state.clone(),
                germany,
                &order(&game, "research: {buy: 1, chart: 2, developments: radar}\n"),
                None,
                &mut Vec::new(),
            )
            .unwrap_err();
            assert!(
                errors[0].reason.contains("not chosen here"),
                "{}: {errors:?}",
                game.rule_set().id()
            );
            assert_eq!(errors[0].field.as_deref(), Some("developments"));
        }
    }

    #[test]
    fn anniversarys_development_values_are_its_data_and_the_built_in_ones() {
        let game = anniversary();
        assert_eq!(game.development_values(), &BUILT_IN_VALUES[..]);
        // A game file from before the values were data keeps them.
        let mut files = game.files().clone();
        files.game.research.as_mut().unwrap().effects = None;
        let old = GameDef::new(files).unwrap();
        assert_eq!(old.development_values(), &BUILT_IN_VALUES[..]);
    }

    #[test]
    fn development_values_change_attack_defense_price_and_dice_as_the_data_says() {
        // Classic's developments on Anniversary's board: jet power, industrial
        // technology and heavy bombers whose every die counts.
        let base = anniversary();
        let mut files = base.files().clone();
        let r = files.game.research.as_mut().unwrap();
        r.charts[0].developments[4] = "jet power".into();
        r.charts[0].developments[5] = "industrial technology".into();
        let text = "jet power: {units: fighters, defense: 1}\n\
                    industrial technology: {units: all, cost: -1}\n\
                    heavy bombers: {units: bombers, dice: 3}\n\
                    super submarines: {units: submarines, attack: 1}\n";
        r.effects = Some(serde_saphyr::from_str(text).unwrap());
        let game = GameDef::new(files).unwrap();
        let mut state = GameState::initial(&game);
        let germany = game.power("Germany").unwrap();
        let t = |n: &str| game.unit_type(n).unwrap();
        let (fighter, bomber, infantry, sub) =
            (t("fighter"), t("bomber"), t("infantry"), t("submarine"));
        assert_eq!(defense(&game, &state, germany, fighter), Some(4));
        assert_eq!(unit_cost(&game, &state, germany, infantry), Some(3));
        assert_eq!(attack_dice(&game, &state, germany, bomber), None);
        state.technologies[germany] = vec![
            Technology::SuperSubmarines,
            Technology::HeavyBombers,
            Technology::JetPower,
            Technology::IndustrialTechnology,
        ];
        assert_eq!(defense(&game, &state, germany, fighter), Some(5));
        assert_eq!(
            attack(&game, &state, germany, fighter),
            Some(3),
            "jet power: defense only"
        );
        assert_eq!(attack(&game, &state, germany, sub), Some(3));
        assert_eq!(defense(&game, &state, germany, sub), Some(1));
        assert_eq!(unit_cost(&game, &state, germany, infantry), Some(2));
        assert_eq!(unit_cost(&game, &state, germany, bomber), Some(11));
        assert_eq!(
            attack_dice(&game, &state, germany, bomber),
            Some((3, false))
        );
        assert_eq!(attack_dice(&game, &state, germany, fighter), None);
        // Another power's developments are its own.
        let uk = game.power("United Kingdom").unwrap();
        assert_eq!(defense(&game, &state, uk, fighter), Some(4));
    }

    #[test]
    fn heavy_bombers_whose_every_die_counts_are_exact_in_the_odds() {
        use crate::rules::odds::{OddsQuery, answer};
        let base = anniversary();
        let mut files = base.files().clone();
        files.game.research.as_mut().unwrap().effects =
            Some(serde_saphyr::from_str("heavy bombers: {units: bombers, dice: 3}\n").unwrap());
        let all_count = GameDef::new(files).unwrap();
        let ask = |game: &GameDef, defenders: &str| {
            let mut q = OddsQuery::new("1 bomber", defenders);
            q.attacker_developments = Some("heavy bombers".into());
            answer(game, &q).unwrap()
        };
        // One infantry: a round ends it when any of the three dice hits
        // (26/27) and the infantry (1/3) misses: 52/79.
        let one = ask(&all_count, "1 infantry");
        assert!(
            (one.attacker_wins - 52.0 / 79.0).abs() < 1e-9,
            "{}",
            one.attacker_wins
        );
        // Two infantry: every die counts, so one round may take both; the
        // best of three dice takes one at most.
        let all = ask(&all_count, "2 infantry").attacker_wins;
        let best = ask(&base, "2 infantry").attacker_wins;
        assert!(all > best + 0.05, "all count {all}, best of {best}");
    }

    #[test]
    fn a_rule_set_with_the_research_option_has_a_procedure_and_only_it() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        for id in ["aae", "anniversary-1941", "anniversary-1942"] {
            let game = load_dir(&root.join("games").join(id)).unwrap();
            let option = crate::rules::variants::find_option(
                game.rule_set(),
                crate::rules::options::RESEARCH.name,
            );
            assert_eq!(
                game.rule_set().research_procedure(&game).is_some(),
                option.is_some(),
                "{id}"
            );
        }
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
