//! Special force teams in battle (J Boulton JB-21..29, JB-33;
//! `docs/rules/jboulton.md`),
//! where the rule set has them (`CombatRules::special_force_teams`).
//!
//! A special force team never rolls in a battle and is never a casualty
//! (JB-21, JB-24: `combat::fights` leaves out every `no_combat` unit): it
//! stays where it stands whoever wins. Before a land battle is fought, each
//! team of either side standing in the territory faces detection (JB-26,
//! the battle trigger): its opponent rolls one die per ground unit of its
//! own there (land units that fight, AA guns and other teams left out,
//! digest Part E 1), and a 1 among a team's dice removes it. Teams dropped
//! into the battle face it after their landing roll, except those that
//! rolled 6 (JB-16). Under option `sft_detection: pooled` the dice of one
//! power's teams are one pool, and each 1 removes one of them. Dice are raw,
//! Low Luck or not: they decide a fate, not a number of hits.
//!
//! Then each team that may act rolls for a mission (JB-27) and carries out
//! the first its side's orders want that the roll opens: for the attacker
//! (its battle plan) Disruption (one of its units strikes first, JB-29), AA
//! Suppression (the AA guns stay silent, JB-30) or Supply Strike (the
//! defenders defend at half, JB-32); for the defender (its standing orders)
//! Booby Trap (one attacker holds its fire in round 1, JB-33) or Evasive
//! (the team, or a unit it gives itself up for, leaves the battle at the
//! start of a round, JB-34). Without orders: Disruption and Booby Trap.

use super::battle::Shot;
use super::fire::Group;
use super::{Ctx, label};
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::conquest::{allied, held_by_side_of};
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
use crate::rules::orders::special_force_teams::{
    DEFAULT_ATTACKING, DEFAULT_DEFENDING, Evasion, Mission,
};
use crate::rules::state::GameState;
use crate::rules::variants::CombatRules;
use crate::rules::vocab::PowerId;

/// The rule, as events name it.
const RULE: &str = "special force team detection (J Boulton JB-26)";

/// A special force team under rules that play them (a `no_combat` unit).
pub(crate) fn is_team(rules: &CombatRules, t: &UnitType) -> bool {
    rules.special_force_teams.is_some() && t.has(&Ability::NoCombat)
}

/// What sets off a detection roll (JB-26): its label's word and its
/// events' words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger {
    /// Before a battle in the territory (the battle trigger).
    Battle,
    /// Before a mission where no battle is (the mission trigger), rolled by
    /// the territory's side.
    Mission,
    /// The sweep at the start of this power's combat move, with its own
    /// ground units alone.
    Sweep(PowerId),
}

impl Trigger {
    /// The label's third segment: `sft/<territory>/<word>/<power>`.
    fn word(self) -> &'static str {
        match self {
            Trigger::Battle | Trigger::Mission => "detection",
            Trigger::Sweep(_) => "sweep",
        }
    }

    /// When the dice were rolled, for the events.
    fn when(self) -> &'static str {
        match self {
            Trigger::Battle => "before the battle",
            Trigger::Mission => "before its mission",
            Trigger::Sweep(_) => "in the sweep at the start of the combat move",
        }
    }
}

/// The ground units of the opponents of `owner` in `space` that roll
/// detection against its teams (JB-26 PROPOSAL, digest Part E 1): land
/// units that fight, not AA guns, and teams only under option
/// `sft_detection_by_teams`; in a sweep, the sweeping power's own alone.
fn searchers(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    owner: PowerId,
    trigger: Trigger,
) -> usize {
    let teams_search = ctx
        .rules
        .special_force_teams
        .is_some_and(|r| r.teams_search);
    state
        .units_at(space)
        .filter(|u| !allied(ctx.game, u.owner, owner) && u.cargo_of.is_none())
        .filter(|u| !matches!(trigger, Trigger::Sweep(p) if p != u.owner))
        .map(|u| ctx.ut(u))
        .filter(|t| {
            t.kind == Some(UnitKind::Land)
                && (super::fights(t) || (teams_search && is_team(&ctx.rules, t)))
        })
        .filter(|t| {
            !t.abilities
                .iter()
                .any(|a| matches!(a, Ability::AntiAircraft(_)))
        })
        .count()
}

/// The dice a detection of `owner`'s `teams` in `space` would roll (0:
/// none, no enemy ground unit there).
pub(crate) fn detection_dice(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    owner: PowerId,
    teams: usize,
    trigger: Trigger,
) -> usize {
    searchers(ctx, state, space, owner, trigger) * teams
}

/// The special force teams in `space` (of either side, not aboard, passing
/// `which`) that face detection before its battle: none unless a battle is
/// fought there, units that fight on both sides (JB-26: "prior to any
/// battle").
pub(crate) fn facing_battle(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    which: impl Fn(&crate::rules::state::Unit) -> bool,
) -> Vec<u32> {
    // Paratroopers still aboard their planes are attackers of the battle.
    let dropping = state.paradropped.iter().any(|id| {
        state
            .unit(*id)
            .is_some_and(|u| u.at == space && super::fights(ctx.ut(u)))
    });
    if ctx.rules.special_force_teams.is_none()
        || (super::attackers(ctx, state, space).is_empty() && !dropping)
        || super::defenders(ctx, state, space).is_empty()
    {
        return Vec::new();
    }
    state
        .units_at(space)
        .filter(|u| u.cargo_of.is_none() && is_team(&ctx.rules, ctx.ut(u)) && which(u))
        .map(|u| u.id)
        .collect()
}

/// Detection before the battle in `space` (JB-26) against the teams
/// `teams` (unit ids): for each power owning some of them, in power order,
/// one label `sft/<territory>/detection/<power>`, its teams in unit id
/// order, each with as many dice as its opponents have ground units there.
/// Detected teams are removed.
pub(crate) fn detect(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    teams: &[u32],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    detect_by(ctx, state, space, teams, Trigger::Battle, dice, events);
}

/// [`detect`] set off by `trigger`: the mission trigger rolls as the
/// battle trigger does, the sweep under `sft/<territory>/sweep/<power>`
/// with the sweeping power's ground units alone.
pub(crate) fn detect_by(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    teams: &[u32],
    trigger: Trigger,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let Some(rules) = ctx.rules.special_force_teams else {
        return;
    };
    let name = ctx.game.space_name(space).to_owned();
    for (owner, mine) in super::group_units(state, teams, |u| u.owner) {
        let n = searchers(ctx, state, space, owner, trigger);
        let when = trigger.when();
        // The battle's wording predates the other triggers.
        let not_when = if trigger == Trigger::Battle {
            String::new()
        } else {
            format!(" {when}")
        };
        let power = &ctx.game.powers()[owner].name;
        if n == 0 {
            events.push(Event::Decision {
                space,
                rule: RULE.into(),
                detail: format!(
                    "{power}'s special force teams in {name} face no detection: no enemy ground \
                     unit there"
                ),
            });
            continue;
        }
        let l = label(&["sft", &name, trigger.word(), power]);
        let values = dice.roll_many(&l, n * mine.len(), 6);
        let ones = values.iter().filter(|&&v| v == 1).count();
        let detected: Vec<u32> = if rules.pooled_detection {
            mine.iter().copied().take(ones).collect()
        } else {
            mine.iter()
                .zip(values.chunks(n))
                .filter(|(_, d)| d.contains(&1))
                .map(|(&id, _)| id)
                .collect()
        };
        for &id in &mine {
            if state.unit(id).is_none() {
                continue;
            }
            if detected.contains(&id) {
                let reason = if rules.pooled_detection {
                    format!(
                        "rule: detected {when}, one team per 1 in the pool of {} dice, {ones} of \
                         them 1 ({l}); JB-26",
                        values.len()
                    )
                } else {
                    format!(
                        "rule: detected by {n} enemy ground unit{} {when}, a 1 among the dice \
                         ({l}); JB-26",
                        if n == 1 { "" } else { "s" }
                    )
                };
                super::remove_unit(state, id, reason, events);
            } else {
                events.push(Event::Decision {
                    space,
                    rule: RULE.into(),
                    detail: if rules.pooled_detection {
                        format!(
                            "{power}'s special force team (unit {id}) in {name} was not \
                             detected{not_when}: {ones} 1 in the pool of {} dice for {} teams ({l})",
                            values.len(),
                            mine.len()
                        )
                    } else {
                        format!(
                            "{power}'s special force team (unit {id}) in {name} was not \
                             detected{not_when}: no 1 among {n} dice ({l})"
                        )
                    },
                });
            }
        }
    }
}

/// What the special force teams' missions before a battle decided.
#[derive(Debug, Default)]
pub(crate) struct Missions {
    /// Attacking units that fire a Disruption first strike (JB-29).
    pub disruptors: Vec<u32>,
    /// Attacking units that do not roll in round 1 (JB-33).
    pub booby_trapped: Vec<u32>,
    /// A team carried out AA Suppression: the defending AA guns do not fire
    /// in this battle (JB-30); the team was removed at once.
    pub aa_suppressed: bool,
    /// The team that carried out Supply Strike (JB-32): every defender
    /// defends at half the whole battle; the team is removed after it.
    pub supply_strike: Option<u32>,
    /// Evasive missions (JB-34), carried out at the start of their round.
    pub evasions: Vec<Evade>,
}

/// An Evasive mission (JB-34) decided before the battle and carried out at
/// the start of round `round`, before any die of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Evade {
    /// The defending team.
    pub team: u32,
    /// (b) the land unit the team gives itself up for; `None`: (a) the
    /// team slips out.
    pub save: Option<u32>,
    /// The adjacent friendly land territory it goes to.
    pub to: SpaceId,
    /// The round at whose start it is carried out.
    pub round: u32,
}

/// What a mission acts on, when it can be carried out here.
enum Act {
    /// A unit of the battle (Disruption: the striker; Booby Trap: the
    /// attacker denied its roll).
    Unit(u32),
    /// The whole battle (AA Suppression, Supply Strike).
    Battle,
    /// An Evasive mission.
    Evade(Evade),
}

/// The missions of the teams `teams` in the battle for `space` (JB-27):
/// each team that may act rolls its mission die (the owner's, one label
/// `sft/<territory>/mission/<power>` per owner, unit id order) and carries
/// out the first mission its side's orders want (the attacker's battle plan,
/// the defender's standing orders; `orders::special_force_teams`) that the
/// roll allows and that has something to act on; with none it calls the
/// mission off and stays, to try again in a later turn (JB-28). A side whose
/// orders want no mission rolls no die. A team that landed or was dropped
/// this turn does not act (JB-25), unless `surprise` (it rolled 6 on
/// landing: any mission at once, no roll, but AA fire is over, so AA
/// Suppression comes too late, JB-30 PROPOSAL). A team spent by AA
/// Suppression is removed at once. Returns `out`, the missions decided
/// earlier in this battle, with these added.
#[allow(clippy::too_many_arguments)]
pub(crate) fn missions(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    teams: &[u32],
    surprise: bool,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
    mut out: Missions,
) -> Missions {
    const RULE_M: &str = "special force team mission (J Boulton JB-25..34)";
    if ctx.rules.special_force_teams.is_none() {
        return out;
    }
    let name = ctx.game.space_name(space).to_owned();
    let mut acting: Vec<u32> = Vec::new();
    for &id in teams {
        let Some(u) = state.unit(id) else { continue };
        if !surprise && (u.unloaded_from.is_some() || state.paradropped.contains(&id)) {
            events.push(Event::Decision {
                space,
                rule: RULE_M.into(),
                detail: format!(
                    "{}'s special force team (unit {id}) arrived in {name} this turn by landing \
                     or drop, so it carries out no mission (JB-25)",
                    ctx.game.powers()[u.owner].name
                ),
            });
            continue;
        }
        acting.push(id);
    }
    for (owner, mine) in super::group_units(state, &acting, |u| u.owner) {
        let power = ctx.game.powers()[owner].name.clone();
        let attacking = allied(ctx.game, owner, ctx.power);
        let (wanted, whose) = wanted(ctx, state, space, owner, attacking);
        if wanted.is_empty() {
            events.push(Event::Decision {
                space,
                rule: RULE_M.into(),
                detail: format!(
                    "{power}'s special force teams in {name} try no mission ({whose}: missions \
                     none); they stay and may try in a later turn (JB-28)"
                ),
            });
            continue;
        }
        let l = label(&["sft", &name, "mission", &power]);
        let rolls: Vec<Option<u32>> = if surprise {
            vec![None; mine.len()]
        } else {
            dice.roll_many(&l, mine.len(), 6)
                .into_iter()
                .map(Some)
                .collect()
        };
        for (&id, roll) in mine.iter().zip(rolls) {
            let rolled = roll.map_or_else(
                || "rolled 6 on landing, no mission roll needed (JB-16)".to_owned(),
                |r| format!("mission roll {r} ({l})"),
            );
            let chosen = wanted.iter().copied().find_map(|m| {
                let allowed = roll.is_none_or(|r| r <= m.allowed_up_to())
                    && !(surprise && m == Mission::AaSuppression);
                allowed
                    .then(|| act(ctx, state, space, id, m, &out))
                    .flatten()
                    .map(|a| (m, a))
            });
            let Some((m, a)) = chosen else {
                let listed: Vec<&str> = wanted.iter().map(|m| m.word()).collect();
                events.push(Event::Decision {
                    space,
                    rule: RULE_M.into(),
                    detail: format!(
                        "{power}'s special force team (unit {id}) in {name}: {rolled}; none of \
                         the missions wanted ({whose}: {}) is open to it here, so it calls the \
                         mission off and may try again in a later turn (JB-28)",
                        listed.join(", ")
                    ),
                });
                continue;
            };
            let what = match (m, a) {
                (Mission::Disruption, Act::Unit(unit)) => {
                    out.disruptors.push(unit);
                    let named = disruption_named(ctx, space);
                    let chosen = state.unit(unit).map(|u| u.unit);
                    // A named type with no unit left to name (averted, or
                    // named already): the plan's fallback, said aloud.
                    let fallback = if !named.is_empty()
                        && !chosen.is_some_and(|t| named.contains(&t))
                    {
                        let types: Vec<&str> = named
                            .iter()
                            .map(|t| ctx.game.unit_types()[*t].name.as_str())
                            .collect();
                        format!(
                            " (the battle plan names {} for Disruption, but no such unit is left \
                             here that would roll in round 1: each team names a different one, and \
                             an averted unit rolls in no combat, JB-35; so its strongest)",
                            types.join(", ")
                        )
                    } else {
                        String::new()
                    };
                    format!(
                        "its {} (unit {unit}) fires a first strike before round 1{fallback}",
                        unit_name(ctx, state, unit)
                    )
                }
                (Mission::BoobyTrap, Act::Unit(unit)) => {
                    out.booby_trapped.push(unit);
                    format!(
                        "the attacker's {} (unit {unit}, the attacker's choice by default its \
                         weakest by its value in this battle among those that would roll) does \
                         not roll in round 1",
                        unit_name(ctx, state, unit)
                    )
                }
                (Mission::AaSuppression, _) => {
                    out.aa_suppressed = true;
                    super::remove_unit(
                        state,
                        id,
                        "rule: spent on AA Suppression, the team goes home to refit (JB-30; \
                         removed, not refunded)"
                            .into(),
                        events,
                    );
                    "the defending AA guns do not fire in this battle; the team is removed".into()
                }
                (Mission::SupplyStrike, _) => {
                    out.supply_strike = Some(id);
                    "every defending unit defends at half, rounded up, the whole battle; the \
                     team is removed after it"
                        .into()
                }
                (Mission::Evasive, Act::Evade(e)) => {
                    out.evasions.push(e);
                    let to = ctx.game.space_name(e.to);
                    match e.save {
                        None => format!(
                            "at the start of round {} the team slips out to {to}",
                            e.round
                        ),
                        Some(unit) => format!(
                            "at the start of round {} the team gives itself up so that its {} \
                             (unit {unit}) retreats to {to}",
                            e.round,
                            unit_name(ctx, state, unit)
                        ),
                    }
                }
                _ => continue,
            };
            events.push(Event::Decision {
                space,
                rule: RULE_M.into(),
                detail: format!(
                    "{power}'s special force team (unit {id}) in {name}: {rolled}; {}: {what}",
                    m.name()
                ),
            });
        }
    }
    out
}

/// The missions a power's teams want in the battle for `space`, and whose
/// orders say so: the attacker's battle plan (its own teams; an ally's
/// attacking teams follow the default), the defender's standing orders.
fn wanted(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    owner: PowerId,
    attacking: bool,
) -> (Vec<Mission>, String) {
    if attacking {
        match ctx.plan(space).filter(|_| owner == ctx.power) {
            Some(p) if p.item.teams.missions.is_some() => {
                (p.item.teams.wanted().to_vec(), ctx.plan_source(space))
            }
            _ => (DEFAULT_ATTACKING.to_vec(), "by default".into()),
        }
    } else {
        match state.standing.get(owner) {
            Some(s) if s.teams.missions.is_some() => (
                s.teams.wanted().to_vec(),
                format!("standing orders of {}", ctx.game.powers()[owner].name),
            ),
            _ => (DEFAULT_DEFENDING.to_vec(), "by default".into()),
        }
    }
}

/// What mission `m` of team `team` acts on, `None` when it cannot be
/// carried out here: Disruption names one of the owner's attacking units
/// that would roll in round 1, not yet named (its battle plan's
/// `disruption` types first, else the strongest by its value in this
/// battle; JB-29 PROPOSAL: each team a different unit); AA Suppression
/// needs a defending AA gun that would fire at attacking aircraft, once a
/// battle (JB-30 PROPOSAL: one team silences them all); Supply Strike once
/// a battle (JB-32); Booby Trap names the attacker's weakest unit by its
/// value in this battle among those that would roll in round 1, not yet
/// trapped nor named for Disruption (the attacker's choice, JB-33); Evasive
/// needs an adjacent friendly land territory, and for a sacrifice a land
/// unit of the team's owner to save (JB-34 PROPOSAL). An averted unit rolls
/// in no combat (JB-35), so neither mission names it; a unit's value is
/// its round-1 shot's (`battle::first_round_shots`: isolated at half,
/// JB-40; a dropped paratrooper at 2, JB-18).
fn act(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    team: u32,
    m: Mission,
    done: &Missions,
) -> Option<Act> {
    // The attackers' round-1 shots but those a team named already: a
    // booby-trapped unit rolls nothing in round 1, a Disruption striker
    // rolls its shot before it.
    let rolling = || {
        super::battle::first_round_shots(ctx, state, space, &done.booby_trapped)
            .into_iter()
            .filter(|s| s.strength > 0 && !done.disruptors.contains(&s.id))
    };
    match m {
        Mission::Disruption => {
            let open: Vec<Shot> = rolling().collect();
            disruption_named(ctx, space)
                .iter()
                .find_map(|t| open.iter().find(|s| s.unit == *t))
                .or_else(|| {
                    open.iter()
                        .max_by_key(|s| (s.strength, std::cmp::Reverse(s.id)))
                })
                .map(|s| Act::Unit(s.id))
        }
        Mission::BoobyTrap => rolling()
            .min_by_key(|s| (s.strength, s.id))
            .map(|s| Act::Unit(s.id)),
        Mission::AaSuppression => {
            let planes = super::attackers(ctx, state, space)
                .into_iter()
                .chain(super::paradrop::carriers(ctx, state, space))
                .any(|id| {
                    state
                        .unit(id)
                        .is_some_and(|u| ctx.ut(u).kind == Some(UnitKind::Air))
                });
            (!done.aa_suppressed && planes && super::enemy_aa(ctx, state, space).is_some())
                .then_some(Act::Battle)
        }
        Mission::SupplyStrike => done.supply_strike.is_none().then_some(Act::Battle),
        Mission::Evasive => evasion(ctx, state, space, team, done).map(Act::Evade),
    }
}

/// The unit types the attacker's battle plan for `space` names for
/// Disruption, first first (none: its strongest unit).
fn disruption_named<'a>(ctx: &Ctx<'a>, space: SpaceId) -> &'a [crate::rules::vocab::UnitTypeId] {
    ctx.plan(space)
        .map_or(&[][..], |p| p.item.teams.disruption.as_slice())
}

/// The Evasive mission team `team` would carry out under its owner's
/// standing orders, if it can: where to (the first of `to` that is an
/// adjacent land territory its side controls, else the first such in board
/// order) and, for a sacrifice, which land unit of its owner's is saved (the
/// first of `save` there, else the one of highest defence, then cost; each
/// evasion a different unit).
fn evasion(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    team: u32,
    done: &Missions,
) -> Option<Evade> {
    let owner = state.unit(team)?.owner;
    let orders = state
        .standing
        .get(owner)
        .map(|s| s.teams.clone())
        .unwrap_or_default();
    let game = ctx.game;
    let mut open: Vec<SpaceId> = game
        .neighbours(space)
        .iter()
        .copied()
        .filter(|&t| !game.is_sea(t) && held_by_side_of(game, state, t, owner))
        .collect();
    open.sort_by_key(|s| s.0);
    let to = orders
        .to
        .iter()
        .copied()
        .find(|t| open.contains(t))
        .or_else(|| open.first().copied())?;
    let save = match orders.evasive {
        Evasion::SlipOut => None,
        Evasion::Sacrifice => {
            let mine: Vec<&crate::rules::state::Unit> = state
                .units_at(space)
                .filter(|u| {
                    u.owner == owner
                        && u.cargo_of.is_none()
                        && ctx.ut(u).kind == Some(UnitKind::Land)
                        && super::fights(ctx.ut(u))
                        && !done.evasions.iter().any(|e| e.save == Some(u.id))
                })
                .collect();
            let unit = orders
                .save
                .iter()
                .find_map(|t| mine.iter().find(|u| u.unit == *t))
                .or_else(|| {
                    mine.iter().max_by_key(|u| {
                        let t = ctx.ut(u);
                        (
                            t.defense.unwrap_or(0),
                            t.cost.unwrap_or(0),
                            std::cmp::Reverse(u.id),
                        )
                    })
                })?;
            Some(unit.id)
        }
    };
    Some(Evade {
        team,
        save,
        to,
        round: orders.evasive_round(),
    })
}

/// Carries out the Evasive missions of `evasions` due at the start of
/// `round` of the battle for `space` (JB-34): (a) the team moves to its
/// territory and stays on the map; (b) the team is removed and the unit it
/// saves moves there. A team or unit no longer there does nothing.
pub(crate) fn evade(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    evasions: &[Evade],
    round: u32,
    events: &mut Vec<Event>,
) {
    const RULE_E: &str = "special force team Evasive mission (J Boulton JB-34)";
    for e in evasions.iter().filter(|e| e.round == round) {
        let Some(team) = state.unit(e.team).filter(|u| u.at == space).cloned() else {
            continue;
        };
        let to = ctx.game.space_name(e.to).to_owned();
        let power = ctx.game.powers()[team.owner].name.clone();
        match e.save {
            None => {
                if let Some(u) = state.unit_mut(e.team) {
                    u.at = e.to;
                }
                events.push(Event::Decision {
                    space,
                    rule: RULE_E.into(),
                    detail: format!(
                        "at the start of round {round}, {power}'s special force team (unit {}) \
                         slips out of the battle to {to}",
                        e.team
                    ),
                });
            }
            Some(unit) => {
                let Some(saved) = state.unit(unit).filter(|u| u.at == space).cloned() else {
                    continue;
                };
                let reason = format!(
                    "rule: it gives itself up so that its {} retreats to {to} (Evasive, JB-34)",
                    ctx.ut(&saved).name
                );
                super::remove_unit(state, e.team, reason, events);
                if let Some(u) = state.unit_mut(unit) {
                    u.at = e.to;
                }
                events.push(Event::Decision {
                    space,
                    rule: RULE_E.into(),
                    detail: format!(
                        "at the start of round {round}, {power}'s {} (unit {unit}) retreats to \
                         {to}, saved by its special force team's sacrifice",
                        ctx.ut(&saved).name
                    ),
                });
            }
        }
    }
}

/// Supply Strike (JB-32): the defenders' firing groups at half value,
/// rounded up, in groups named `supply-struck <group>`.
pub(crate) fn supply_struck(groups: &mut [Group]) {
    for g in groups {
        g.strength = super::out_of_supply(g.strength);
        g.order.1 = g.strength;
        g.name = format!("supply-struck {}", g.name);
    }
}

/// Removes the team spent on Supply Strike once its battle is over (JB-32).
pub(crate) fn after_battle(state: &mut GameState, missions: &Missions, events: &mut Vec<Event>) {
    let Some(id) = missions.supply_strike else {
        return;
    };
    super::remove_unit(
        state,
        id,
        "rule: spent on Supply Strike, the team goes home to refit after the battle (JB-32; \
         removed, not refunded)"
            .into(),
        events,
    );
}

/// Problems with the special force team orders of a battle plan for
/// `space` (`None` for the default plan, which nothing checks here): a team
/// of the attacker must stand there, and the Disruption types must be among
/// its attackers.
pub(crate) fn check_plan(
    ctx: &Ctx,
    state: &GameState,
    space: Option<SpaceId>,
    plan: &crate::rules::orders::special_force_teams::TeamPlan,
) -> Vec<String> {
    let Some(space) = space else {
        return Vec::new();
    };
    if *plan == Default::default() {
        return Vec::new();
    }
    let name = ctx.game.space_name(space);
    let mut out = Vec::new();
    // Teams about to be dropped there are still aboard their planes.
    let teams = state
        .units_at(space)
        .any(|u| u.owner == ctx.power && is_team(&ctx.rules, ctx.ut(u)));
    if !teams {
        out.push(format!(
            "the battle plan for {name} orders special force team missions, but no special \
             force team of {} stands in {name} (a team acts in a land battle where it stands \
             or was dropped; leave special_force_teams out of this plan)",
            ctx.game.powers()[ctx.power].name
        ));
    }
    let attackers = super::attackers(ctx, state, space);
    for t in &plan.disruption {
        if !attackers
            .iter()
            .any(|id| state.unit(*id).is_some_and(|u| u.unit == *t))
        {
            let t = &ctx.game.unit_types()[*t].name;
            out.push(format!(
                "the battle plan for {name} names {t} for Disruption, but no attacking {t} is in \
                 that battle"
            ));
        }
    }
    out
}

/// A unit's type name.
fn unit_name(ctx: &Ctx, state: &GameState, id: u32) -> String {
    state
        .unit(id)
        .map_or_else(String::new, |u| ctx.ut(u).name.clone())
}

/// The Disruption first strike (JB-29): each unit named by a team fires
/// its round-1 shot before round 1, at its value and in its firing group of
/// that round (`battle::first_round_shots`: isolated at half, JB-40; a
/// dropped paratrooper at 2, JB-18), under
/// `sft/<territory>/disruption/<firing group>` (a volley, so Low Luck
/// applies); the defender takes the hits from any of its units, by its
/// standing orders' order of loss, and they never fire back. A named unit
/// that would not roll in round 1 (averted, JB-35; among `not_rolling`, its
/// shot fired or denied already) strikes nothing, and an event says so.
/// Returns the strikers: their round-1 shot was this one (JB-29 PROPOSAL).
pub(crate) fn disruption_strike(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    disruptors: &[u32],
    not_rolling: &[u32],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Vec<u32> {
    let targets = super::defenders(ctx, state, space);
    let live: Vec<u32> = disruptors
        .iter()
        .copied()
        .filter(|id| state.unit(*id).is_some())
        .collect();
    if live.is_empty() || targets.is_empty() {
        return Vec::new();
    }
    let shots: Vec<Shot> = super::battle::first_round_shots(ctx, state, space, not_rolling)
        .into_iter()
        .filter(|s| live.contains(&s.id) && s.strength > 0)
        .collect();
    let name = ctx.game.space_name(space).to_owned();
    for &id in live.iter().filter(|id| !shots.iter().any(|s| s.id == **id)) {
        events.push(Event::Decision {
            space,
            rule: "special force team Disruption (J Boulton JB-29)".into(),
            detail: format!(
                "the {} (unit {id}) named for Disruption in {name} would not roll in round 1 \
                 (averted, JB-35, or its shot spent or denied), so it makes no first strike",
                unit_name(ctx, state, id)
            ),
        });
    }
    if shots.is_empty() {
        return Vec::new();
    }
    let strikers: Vec<u32> = shots.iter().map(|s| s.id).collect();
    let groups = super::battle::attacker_groups(ctx, state, shots);
    let prefix: Vec<String> = ["sft", &name, "disruption"].map(String::from).to_vec();
    super::battle::strike_before_battle(
        ctx,
        state,
        space,
        &targets,
        &prefix,
        groups,
        "hit by a Disruption first strike, it does not fire back (JB-29)",
        dice,
        events,
    );
    strikers
}
