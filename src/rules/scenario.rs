//! Scenarios: a position, orders, and what the rules say must follow.
//!
//! The corpus under `tests/scenarios/<game>/` holds one file per ruling,
//! named after it, in the manner of the Diplomacy adjudicator test cases:
//! each file states the ruling and its source, sets up a position, sends
//! one or more orders messages as a player would write them, and lists
//! what must be true afterwards. `adjutant scenario FILE` runs one and prints
//! the resulting state; the test suite runs them all. Running a scenario is
//! pure: the caller loads the game.

use serde::Deserialize;

use crate::dice::{Label, ScriptedDice};

use super::entries::Entries;
use super::events::Event;
use super::model::OptionValue;
use super::names::NameKey;
use super::orders::OrderError;
use super::orders::parse::parse_message;
use super::state::{GameState, Phase};
use super::turn::{apply_orders, apply_orders_with_dice, check_orders};
use super::{GameDef, SpaceId};
use crate::rules::vocab::PowerId;
use crate::rules::vocab::Technology;

/// Units per space: space -> power -> unit type -> count (as in `setup.yaml`).
pub type UnitTable = Entries<Entries<Entries<u32>>>;

/// A scenario file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The ruling, in one sentence in the game's words.
    pub ruling: String,
    /// Where the ruling comes from (FAQ question, rulebook page, ...).
    pub source: String,
    /// The game id (`games/<id>/`).
    pub game: String,
    /// Rule options that differ from the game's (a match setting such as
    /// an optional rule); checked like `game.yaml`'s.
    #[serde(default)]
    pub options: Entries<OptionValue>,
    /// The starting position; omitted parts come from the game's setup.
    #[serde(default)]
    pub position: Position,
    /// Messages of the power to move, applied in order.
    pub steps: Vec<Step>,
}

/// Changes to the setup position.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Position {
    /// The round (default 1).
    pub round: Option<u32>,
    /// Whose turn (default: the first in turn order).
    pub power: Option<String>,
    /// `purchase` (stage 1, the default) or `noncombat move` (stage 2).
    pub phase: Option<String>,
    /// Treasuries that differ from the setup.
    #[serde(default)]
    pub ipcs: Entries<u32>,
    /// Controllers that differ from the setup (`nobody` for none).
    #[serde(default)]
    pub owners: Entries<String>,
    /// When present, replaces every unit of the setup. Land units in a sea
    /// zone are cargo of their power's transports there.
    pub units: Option<UnitTable>,
    /// Units each power holds back in its mobilization zone (power -> unit
    /// -> count), where the rule set allows holding units.
    #[serde(default)]
    pub held: Entries<Entries<u32>>,
    /// Submarines that start submerged: sea zone -> power -> how many of that
    /// power's submarines there (the ones listed in `units`).
    #[serde(default)]
    pub submerged: Entries<Entries<u32>>,
    /// Developments powers have already gained: power -> names
    /// (`Germany: [heavy bombers]`).
    #[serde(default)]
    pub technologies: Entries<Vec<String>>,
    /// Researcher tokens powers hold: power -> count.
    #[serde(default)]
    pub research_tokens: Entries<u32>,
    /// Damage on industrial complexes: territory -> points.
    #[serde(default)]
    pub damage: Entries<u32>,
    /// Setup money won in a bid: side -> IPCs. When given, the scenario
    /// starts in the bid placement stage before round 1
    /// ([`crate::rules::bid_placement::start`]), after the changes above.
    #[serde(default)]
    pub bid_money: Entries<u32>,
}

/// One message and what must follow it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The power sending the message (default: the power to move). Another
    /// power may send standing orders at any time.
    #[serde(default, rename = "as")]
    pub sender: Option<String>,
    /// The orders, as the player writes them.
    pub orders: String,
    /// Scripted dice for this message's battles.
    #[serde(default)]
    pub dice: Option<DiceScript>,
    /// What must be true afterwards.
    #[serde(default)]
    pub expect: Expect,
}

/// Scripted dice: per label first, then the common sequence.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceScript {
    /// Dice drawn in order, whatever their label.
    #[serde(default)]
    pub sequence: Vec<u32>,
    /// Dice for a label (`docs/rules/combat-labels.md`), used before the
    /// sequence.
    #[serde(default)]
    pub labels: Entries<Vec<u32>>,
}

/// Expectations after a step; every field is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// The message must be accepted (`true`) or rejected (`false`).
    pub accepted: Option<bool>,
    /// The message must be rejected with (at least) these errors.
    pub rejected: Option<Vec<ExpectedError>>,
    /// Exact units of each listed space (`{}` for empty).
    pub units: Option<UnitTable>,
    /// Controllers of the listed spaces (`nobody` for none).
    pub owners: Option<Entries<String>>,
    /// Treasuries of the listed powers.
    pub ipcs: Option<Entries<u32>>,
    /// The phase after the message (`combat`, `noncombat move`, ...).
    pub phase: Option<String>,
    /// Whose turn it is after the message.
    pub power: Option<String>,
    /// The round after the message.
    pub round: Option<u32>,
    /// Exactly these battles are pending.
    pub battles: Option<Vec<String>>,
    /// Each string occurs in the description of some event of the message.
    pub events: Option<Vec<String>>,
    /// Exactly these developments for each listed power (`[]` for none).
    pub technologies: Option<Entries<Vec<String>>>,
    /// Researcher tokens of the listed powers.
    pub research_tokens: Option<Entries<u32>>,
    /// Damage on the industrial complexes of the listed territories (0 for
    /// none).
    pub damage: Option<Entries<u32>>,
}

/// An error a rejected message must carry.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExpectedError {
    /// Its section (`combat`, `place`, ...).
    pub section: Option<String>,
    /// Its order's 1-based index in the section.
    pub index: Option<usize>,
    /// Text its reason must contain (case-insensitive).
    pub contains: String,
}

/// What running a scenario gave.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The state after the last step that ran.
    pub state: GameState,
    /// Per step: the events, or the errors of a rejected message.
    pub steps: Vec<Result<Vec<String>, Vec<OrderError>>>,
    /// Every expectation that did not hold, as "step N: ...".
    pub failures: Vec<String>,
}

/// Why a scenario could not even be set up.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ScenarioError(pub String);

/// Parses a scenario file's text.
pub fn parse(yaml: &str) -> Result<Scenario, ScenarioError> {
    serde_saphyr::from_str(yaml).map_err(|e| ScenarioError(format!("not a scenario: {e}")))
}

/// The game with the scenario's options in place of `game.yaml`'s.
fn options(game: &GameDef, set: &Entries<OptionValue>) -> Result<GameDef, ScenarioError> {
    game.with_options(set)
        .map_err(|e| ScenarioError(format!("options: {e}")))
}

/// Runs a scenario against its (already loaded) game.
pub fn run(game: &GameDef, scenario: &Scenario) -> Result<Outcome, ScenarioError> {
    let with_options;
    let game = if scenario.options.is_empty() {
        game
    } else {
        with_options = options(game, &scenario.options)?;
        &with_options
    };
    let mut state = position(game, &scenario.position)?;
    let mut outcome = Outcome {
        state: state.clone(),
        steps: Vec::new(),
        failures: Vec::new(),
    };
    for (i, step) in scenario.steps.iter().enumerate() {
        let n = i + 1;
        let power = match &step.sender {
            Some(name) => game
                .power(name)
                .ok_or_else(|| ScenarioError(format!("step {n}: no power {name:?}")))?,
            None => state.current_power(game),
        };
        let mut dice =
            step_dice(step.dice.as_ref()).map_err(|e| ScenarioError(format!("step {n}: {e}")))?;
        let parsed = parse_message(game, &step.orders);
        // A match checks a message without dice before it reveals them:
        // the check must accept exactly what the dice then apply.
        let checked = dice.is_some().then(|| {
            parsed
                .as_ref()
                .map_err(Clone::clone)
                .and_then(|m| check_orders(game, &state, power, &m.orders))
        });
        let result = parsed.and_then(|m| match dice.as_mut() {
            Some(d) => apply_orders_with_dice(game, &state, power, &m.orders, d),
            None => apply_orders(game, &state, power, &m.orders),
        });
        let mut fail = |what: String| outcome.failures.push(format!("step {n}: {what}"));
        let disagreement = match (&checked, &result) {
            (Some(Ok(())), Err(errors)) => Some(("accepted", "refused", errors)),
            (Some(Err(errors)), Ok(_)) => Some(("refused", "accepted", errors)),
            _ => None,
        };
        if let Some((check, apply, errors)) = disagreement {
            let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
            fail(format!(
                "checking the message without dice {check} it, but applying it with the dice \
                 {apply} it:\n    {}",
                list.join("\n    ")
            ));
        }
        match result {
            Ok((next, events)) => {
                let described: Vec<String> = events.iter().map(|e| e.describe(game)).collect();
                if step.expect.accepted == Some(false) || step.expect.rejected.is_some() {
                    fail("the message was accepted, but the scenario expects it rejected".into());
                }
                check_events(&step.expect, &events, game, &mut fail);
                state = next;
                outcome.steps.push(Ok(described));
            }
            Err(errors) => {
                if step.expect.accepted == Some(true) {
                    let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    fail(format!(
                        "the message was rejected, but the scenario expects it accepted:\n    {}",
                        list.join("\n    ")
                    ));
                }
                for want in step.expect.rejected.iter().flatten() {
                    if !errors.iter().any(|e| error_matches(e, want)) {
                        let list: Vec<String> = errors.iter().map(ToString::to_string).collect();
                        fail(format!(
                            "no error {}{}containing {:?}; the errors were:\n    {}",
                            want.section
                                .as_deref()
                                .map(|s| format!("in {s} "))
                                .unwrap_or_default(),
                            want.index
                                .map(|i| format!("order {i} "))
                                .unwrap_or_default(),
                            want.contains,
                            list.join("\n    ")
                        ));
                    }
                }
                outcome.steps.push(Err(errors));
            }
        }
        check_state(game, &state, &step.expect, &mut fail);
    }
    outcome.state = state;
    Ok(outcome)
}

/// The dice of a step: scripted when the step gives them, none otherwise
/// (a battle that needs dice is then refused). Scripted dice work in every
/// build: they are a [`ScriptedDice`], which no match or log accepts.
fn step_dice(script: Option<&DiceScript>) -> Result<Option<ScriptedDice>, String> {
    let Some(script) = script else {
        return Ok(None);
    };
    let mut dice = ScriptedDice::sequence(script.sequence.iter().copied());
    for (label, values) in script.labels.iter() {
        let label = Label::new(label).map_err(|e| format!("dice.labels: {e}"))?;
        dice = dice.with_label(label, values.iter().copied());
    }
    Ok(Some(dice))
}

fn error_matches(e: &OrderError, want: &ExpectedError) -> bool {
    want.section
        .as_deref()
        .is_none_or(|s| e.origin.section == s)
        && want.index.is_none_or(|i| e.origin.index == i)
        && e.reason
            .to_lowercase()
            .contains(&want.contains.to_lowercase())
}

fn check_events(expect: &Expect, events: &[Event], game: &GameDef, fail: &mut impl FnMut(String)) {
    let described: Vec<String> = events.iter().map(|e| e.describe(game)).collect();
    for want in expect.events.iter().flatten() {
        if !described.iter().any(|d| d.contains(want.as_str())) {
            fail(format!(
                "no event mentions {want:?}; the events were:\n    {}",
                described.join("\n    ")
            ));
        }
    }
}

fn check_state(game: &GameDef, state: &GameState, expect: &Expect, fail: &mut impl FnMut(String)) {
    if let Some(table) = &expect.units {
        for (space_name, by_power) in table.iter() {
            let Some(space) = game.space(space_name) else {
                fail(format!("expect.units: no space {space_name:?}"));
                continue;
            };
            let want = match count_table(game, by_power) {
                Ok(w) => w,
                Err(e) => {
                    fail(format!("expect.units.{space_name}: {e}"));
                    continue;
                }
            };
            let have = units_in(game, state, space);
            if want != have {
                fail(format!(
                    "units in {space_name}: expected {}, found {}",
                    show_counts(game, &want),
                    show_counts(game, &have)
                ));
            }
        }
    }
    for (space_name, owner) in expect.owners.iter().flat_map(|o| o.iter()) {
        let Some(space) = game.space(space_name) else {
            fail(format!("expect.owners: no space {space_name:?}"));
            continue;
        };
        match power_or_nobody(game, owner) {
            Ok(want) if want == state.owner[space.0] => {}
            Ok(_) => fail(format!(
                "{space_name} is controlled by {}, expected {owner}",
                state.owner[space.0].map_or("nobody", |p| game.powers()[p].name.as_str())
            )),
            Err(e) => fail(format!("expect.owners.{space_name}: {e}")),
        }
    }
    for (power_name, &ipcs) in expect.ipcs.iter().flat_map(|o| o.iter()) {
        match game.power(power_name) {
            Some(p) if state.ipcs[p] == ipcs => {}
            Some(p) => fail(format!(
                "{power_name} has {} IPCs, expected {ipcs}",
                state.ipcs[p]
            )),
            None => fail(format!("expect.ipcs: no power {power_name:?}")),
        }
    }
    for (power_name, names) in expect.technologies.iter().flat_map(|o| o.iter()) {
        let Some(p) = game.power(power_name) else {
            fail(format!("expect.technologies: no power {power_name:?}"));
            continue;
        };
        match technology_list(names) {
            Ok(mut want) => {
                let mut have = state.technologies[p].clone();
                want.sort();
                have.sort();
                if want != have {
                    let show = |t: &[Technology]| {
                        t.iter().map(|t| t.name()).collect::<Vec<_>>().join(", ")
                    };
                    fail(format!(
                        "{power_name} has developments [{}], expected [{}]",
                        show(&have),
                        show(&want)
                    ));
                }
            }
            Err(e) => fail(format!("expect.technologies.{power_name}: {e}")),
        }
    }
    for (power_name, &n) in expect.research_tokens.iter().flat_map(|o| o.iter()) {
        match game.power(power_name) {
            Some(p) if state.research_tokens[p] == n => {}
            Some(p) => fail(format!(
                "{power_name} has {} researcher tokens, expected {n}",
                state.research_tokens[p]
            )),
            None => fail(format!("expect.research_tokens: no power {power_name:?}")),
        }
    }
    for (name, &n) in expect.damage.iter().flat_map(|o| o.iter()) {
        match game.space(name) {
            Some(s) if state.damage_at(s) == n => {}
            Some(s) => fail(format!(
                "the industrial complex in {name} has {} damage, expected {n}",
                state.damage_at(s)
            )),
            None => fail(format!("expect.damage: no space {name:?}")),
        }
    }
    if let Some(phase) = &expect.phase {
        match parse_phase(phase) {
            Ok(p) if p == state.phase => {}
            Ok(_) => fail(format!(
                "the phase is {}, expected {phase}",
                state.phase.name()
            )),
            Err(e) => fail(format!("expect.phase: {e}")),
        }
    }
    if let Some(power) = &expect.power {
        let now = state.current_power(game);
        if game.power(power) != Some(now) {
            fail(format!(
                "it is {}'s turn, expected {power}",
                game.powers()[now].name
            ));
        }
    }
    if let Some(round) = expect.round
        && round != state.round
    {
        fail(format!("the round is {}, expected {round}", state.round));
    }
    if let Some(battles) = &expect.battles {
        let mut want: Vec<Option<SpaceId>> = battles.iter().map(|b| game.space(b)).collect();
        let mut have: Vec<Option<SpaceId>> = state.battles.iter().copied().map(Some).collect();
        want.sort();
        have.sort();
        want.dedup();
        have.dedup();
        if want != have {
            let names: Vec<&str> = state.battles.iter().map(|s| game.space_name(*s)).collect();
            fail(format!(
                "pending battles are {names:?}, expected {battles:?}"
            ));
        }
    }
}

/// Development names resolved, or the first unknown one.
fn technology_list(names: &[String]) -> Result<Vec<Technology>, String> {
    names
        .iter()
        .map(|n| {
            Technology::from_name(n).ok_or_else(|| {
                let all: Vec<&str> = Technology::ALL.iter().map(|t| t.name()).collect();
                format!(
                    "no development {n:?}; the developments are {}",
                    all.join(", ")
                )
            })
        })
        .collect()
}

/// Unit counts keyed by (power, unit type).
type Counts = std::collections::BTreeMap<(PowerId, usize), u32>;

fn count_table(game: &GameDef, by_power: &Entries<Entries<u32>>) -> Result<Counts, String> {
    let mut out = Counts::new();
    for (power_name, units) in by_power.iter() {
        let p = game
            .power(power_name)
            .ok_or_else(|| format!("no power {power_name:?}"))?;
        for (unit_name, &n) in units.iter() {
            let u = unit_index(game, unit_name)?;
            if n > 0 {
                *out.entry((p, u)).or_default() += n;
            }
        }
    }
    Ok(out)
}

fn units_in(_game: &GameDef, state: &GameState, space: SpaceId) -> Counts {
    let mut out = Counts::new();
    for u in state.units_at(space) {
        *out.entry((u.owner, u.unit)).or_default() += 1;
    }
    out
}

fn show_counts(game: &GameDef, c: &Counts) -> String {
    if c.is_empty() {
        return "nothing".into();
    }
    c.iter()
        .map(|((p, u), n)| {
            format!(
                "{} {n} {}",
                game.powers()[*p].name,
                game.unit_types()[*u].name
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn unit_index(game: &GameDef, name: &str) -> Result<usize, String> {
    let key = NameKey::new(name);
    game.unit_types()
        .iter()
        .position(|t| {
            NameKey::new(&t.name) == key || t.aliases.iter().any(|a| NameKey::new(a) == key)
        })
        .ok_or_else(|| format!("no unit type {name:?}"))
}

fn power_or_nobody(game: &GameDef, name: &str) -> Result<Option<PowerId>, String> {
    if NameKey::new(name).as_str() == "nobody" {
        return Ok(None);
    }
    game.power(name)
        .map(Some)
        .ok_or_else(|| format!("no power {name:?} (or `nobody`)"))
}

/// Reads a phase name as the scenario files write it.
pub fn parse_phase(name: &str) -> Result<Phase, String> {
    let all = [
        Phase::BidPlacement,
        Phase::Purchase,
        Phase::CombatMove,
        Phase::Combat,
        Phase::NoncombatMove,
        Phase::Place,
        Phase::EndTurn,
    ];
    // "noncombat move", "non-combat move", "noncombat_move": all the same.
    let squash = |s: &str| -> String {
        s.chars()
            .filter(|c| !matches!(c, '-' | '_') && !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    let key = squash(name);
    all.into_iter()
        .find(|p| squash(p.name()) == key)
        .ok_or_else(|| {
            let names: Vec<&str> = all.iter().map(|p| p.name()).collect();
            format!("unknown phase {name:?}; phases are {}", names.join(", "))
        })
}

/// Builds the starting position of a scenario.
pub fn position(game: &GameDef, pos: &Position) -> Result<GameState, ScenarioError> {
    let err = |s: String| ScenarioError(format!("position: {s}"));
    let mut state = GameState::initial(game);
    if let Some(r) = pos.round {
        state.round = r;
    }
    if let Some(p) = &pos.power {
        let id = game
            .power(p)
            .ok_or_else(|| err(format!("no power {p:?}")))?;
        state.turn = game
            .turn_order()
            .iter()
            .position(|&q| q == id)
            .ok_or_else(|| err(format!("{p} takes no turns")))?;
    }
    if let Some(phase) = &pos.phase {
        state.phase = parse_phase(phase).map_err(err)?;
        if !matches!(state.phase, Phase::Purchase | Phase::NoncombatMove) {
            return Err(err(format!(
                "a scenario starts at a stage: purchase (stage 1) or noncombat move (stage 2), not {phase}"
            )));
        }
    }
    for (p, &n) in pos.ipcs.iter() {
        let id = game
            .power(p)
            .ok_or_else(|| err(format!("ipcs: no power {p:?}")))?;
        state.ipcs[id] = n;
    }
    for (s, owner) in pos.owners.iter() {
        let id = game
            .space(s)
            .ok_or_else(|| err(format!("owners: no space {s:?}")))?;
        state.owner[id.0] = power_or_nobody(game, owner).map_err(err)?;
    }
    if let Some(table) = &pos.units {
        state.units.clear();
        for (s, by_power) in table.iter() {
            let space = game
                .space(s)
                .ok_or_else(|| err(format!("units: no space {s:?}")))?;
            let counts = count_table(game, by_power).map_err(|e| err(format!("units.{s}: {e}")))?;
            let mut added = Vec::new();
            for (&(p, u), &n) in &counts {
                for _ in 0..n {
                    added.push((state.add_unit(u, p, space), p, u));
                }
            }
            if game.is_sea(space) {
                load_cargo(game, &mut state, &added).map_err(|e| err(format!("units.{s}: {e}")))?;
            }
        }
    }
    for (p, names) in pos.technologies.iter() {
        let id = game
            .power(p)
            .ok_or_else(|| err(format!("technologies: no power {p:?}")))?;
        state.technologies[id] =
            technology_list(names).map_err(|e| err(format!("technologies.{p}: {e}")))?;
    }
    for (p, &n) in pos.research_tokens.iter() {
        let id = game
            .power(p)
            .ok_or_else(|| err(format!("research_tokens: no power {p:?}")))?;
        state.research_tokens[id] = n;
    }
    for (s, &n) in pos.damage.iter() {
        let id = game
            .space(s)
            .ok_or_else(|| err(format!("damage: no space {s:?}")))?;
        state.factory_damage[id.0] = n;
    }
    let held = count_table(game, &pos.held).map_err(|e| err(format!("held: {e}")))?;
    for (&(p, unit), &count) in &held {
        state.held[p].push(crate::rules::vocab::UnitCount { unit, count });
    }
    for (s, by_power) in pos.submerged.iter() {
        let space = game
            .space(s)
            .ok_or_else(|| err(format!("submerged: no space {s:?}")))?;
        for (p, &n) in by_power.iter() {
            let power = game
                .power(p)
                .ok_or_else(|| err(format!("submerged.{s}: no power {p:?}")))?;
            let subs: Vec<u32> = state
                .units_at(space)
                .filter(|u| {
                    u.owner == power
                        && game.unit_types()[u.unit].has(&super::model::Ability::Submerge)
                })
                .map(|u| u.id)
                .take(n as usize)
                .collect();
            if subs.len() < n as usize {
                return Err(err(format!(
                    "submerged.{s}.{p}: {n} submerged, but {} has only {} submarines there",
                    p,
                    subs.len()
                )));
            }
            for id in subs {
                state.unit_mut(id).expect("listed").submerged = true;
            }
        }
    }
    if !pos.bid_money.is_empty() {
        let sides = &game.files().game.sides;
        let mut money = vec![0; sides.len()];
        for (side, &n) in pos.bid_money.iter() {
            let i = sides
                .iter()
                .position(|s| s.name.eq_ignore_ascii_case(side))
                .ok_or_else(|| err(format!("bid_money: no side {side:?}")))?;
            money[i] = n;
        }
        state = crate::rules::bid_placement::start(game, &state, &money).0;
    }
    Ok(state)
}

/// Puts the land units of a sea zone on board their power's transports.
fn load_cargo(
    game: &GameDef,
    state: &mut GameState,
    added: &[(u32, PowerId, usize)],
) -> Result<(), String> {
    use super::model::UnitKind;
    let types = game.unit_types();
    let mut room: Vec<(u32, PowerId, u32)> = added
        .iter()
        .filter_map(|&(id, p, u)| types[u].transport_capacity.map(|c| (id, p, u32::from(c))))
        .collect();
    let mut free_seats: Vec<(u32, PowerId, bool)> =
        room.iter().map(|&(id, p, _)| (id, p, false)).collect();
    for &(id, p, u) in added {
        if types[u].kind != Some(UnitKind::Land) {
            continue;
        }
        let cost = u32::from(
            types[u]
                .transport_cost
                .ok_or_else(|| format!("{} cannot be carried by a transport", types[u].name))?,
        );
        // A free rider (J Boulton's SFT, JB-23) takes a transport's free
        // seat first, where one is left.
        let rides_free = crate::rules::movement::transport::free_ride(game, [u]) > 0;
        if rides_free
            && let Some(seat) = free_seats
                .iter_mut()
                .find(|(_, q, taken)| *q == p && !*taken)
        {
            seat.2 = true;
            let transport = seat.0;
            state.unit_mut(id).expect("just added").cargo_of = Some(transport);
            continue;
        }
        let slot = room
            .iter_mut()
            .find(|(_, q, free)| *q == p && *free >= cost)
            .ok_or_else(|| {
                format!(
                    "no {} transport has room for {}",
                    game.powers()[p].name,
                    types[u].name
                )
            })?;
        slot.2 -= cost;
        let transport = slot.0;
        state.unit_mut(id).expect("just added").cargo_of = Some(transport);
    }
    Ok(())
}
