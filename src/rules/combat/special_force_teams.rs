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
//! Then each team that may act rolls for a mission (JB-27): Disruption for
//! the attacker (one of its units strikes first, JB-29) or Booby Trap for
//! the defender (one attacker holds its fire in round 1, JB-33), the
//! missions that any roll allows and that keep the team; the missions that
//! need a player's choice wait for their orders (issue 18 item 7).

use super::casualties::HitClass;
use super::fire::Group;
use super::{Ctx, label};
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
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
    let mut owners: Vec<PowerId> = teams
        .iter()
        .filter_map(|id| state.unit(*id).map(|u| u.owner))
        .collect();
    owners.sort_unstable();
    owners.dedup();
    let name = ctx.game.space_name(space).to_owned();
    for owner in owners {
        let mut mine: Vec<u32> = teams
            .iter()
            .copied()
            .filter(|id| state.unit(*id).is_some_and(|u| u.owner == owner))
            .collect();
        mine.sort_unstable();
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
            let Some(u) = state.unit(id).cloned() else {
                continue;
            };
            if detected.contains(&id) {
                events.push(Event::Casualty {
                    space,
                    power: owner,
                    unit: u.unit,
                    destroyed: true,
                    reason: if rules.pooled_detection {
                        format!(
                            "rule: detected {when}, one team per 1 in the pool of {} dice, {ones} \
                             of them 1 ({l}); JB-26",
                            values.len()
                        )
                    } else {
                        format!(
                            "rule: detected by {n} enemy ground unit{} {when}, a 1 among the \
                             dice ({l}); JB-26",
                            if n == 1 { "" } else { "s" }
                        )
                    },
                });
                state.units.retain(|c| c.id != id);
                state.paradropped.retain(|c| *c != id);
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

/// A special force team's mission in a battle (JB-27). The others (AA
/// Suppression, Supply Strike, Evasive; Industrial Strike and Aversion
/// outside battles) need the owner's choice, which orders cannot give yet
/// (issue 18 item 7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mission {
    /// One of the owner's attacking units fires a first strike (JB-29).
    Disruption,
    /// One attacking unit does not roll in round 1 (JB-33).
    BoobyTrap,
}

impl Mission {
    /// The highest mission roll that allows it (JB-27: both, any roll).
    fn allowed_up_to(self) -> u32 {
        match self {
            Mission::Disruption | Mission::BoobyTrap => 6,
        }
    }

    /// Its name in the rules.
    fn name(self) -> &'static str {
        match self {
            Mission::Disruption => "Disruption (JB-29)",
            Mission::BoobyTrap => "Booby Trap (JB-33)",
        }
    }

    /// True for a mission of the attacking side.
    fn attacking(self) -> bool {
        self == Mission::Disruption
    }
}

/// The missions a team carries out in a battle when its owner orders none,
/// most wanted first: the attacker's and the defender's missions that any
/// roll allows and that keep the team (JB-27). Orders naming others are
/// issue 18 item 7, still to come.
const DEFAULT_MISSIONS: [Mission; 2] = [Mission::Disruption, Mission::BoobyTrap];

/// What the special force teams' missions before a battle decided.
#[derive(Debug, Default)]
pub(crate) struct Missions {
    /// Attacking units that fire a Disruption first strike (JB-29).
    pub disruptors: Vec<u32>,
    /// Attacking units that do not roll in round 1 (JB-33).
    pub booby_trapped: Vec<u32>,
}

/// The missions of the teams `teams` in the battle for `space` (JB-27):
/// each team that may act rolls its mission die (the owner's, one label
/// `sft/<territory>/mission/<power>` per owner, unit id order) and carries
/// out the first mission of [`DEFAULT_MISSIONS`] that fits its side, the
/// roll and the battle; with none it calls the mission off and stays, to
/// try again in a later turn (JB-28). A team that landed or was dropped
/// this turn does not act (JB-25), unless `surprise` (it rolled 6 on
/// landing: any mission at once, no roll). Returns `out`, the missions
/// decided earlier in this battle, with these added.
#[allow(clippy::too_many_arguments)]
pub(crate) fn missions(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    teams: &[u32],
    surprise: bool,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
    mut out: Missions,
) -> Missions {
    const RULE_M: &str = "special force team mission (J Boulton JB-25..33)";
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
    acting.sort_unstable();
    let mut owners: Vec<PowerId> = acting
        .iter()
        .filter_map(|id| state.unit(*id).map(|u| u.owner))
        .collect();
    owners.sort_unstable();
    owners.dedup();
    for owner in owners {
        let mine: Vec<u32> = acting
            .iter()
            .copied()
            .filter(|id| state.unit(*id).is_some_and(|u| u.owner == owner))
            .collect();
        let power = ctx.game.powers()[owner].name.clone();
        let attacking = allied(ctx.game, owner, ctx.power);
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
            let chosen = DEFAULT_MISSIONS.iter().copied().find(|&m| {
                attacking == m.attacking()
                    && roll.is_none_or(|r| r <= m.allowed_up_to())
                    && target(ctx, state, space, m, &out).is_some()
            });
            let rolled = roll.map_or_else(
                || "rolled 6 on landing, no mission roll needed (JB-16)".to_owned(),
                |r| format!("mission roll {r} ({l})"),
            );
            let Some(m) = chosen else {
                events.push(Event::Decision {
                    space,
                    rule: RULE_M.into(),
                    detail: format!(
                        "{power}'s special force team (unit {id}) in {name}: {rolled}; no \
                         mission it carries out here, so it calls it off and may try again in a \
                         later turn (JB-28)"
                    ),
                });
                continue;
            };
            let Some(unit) = target(ctx, state, space, m, &out) else {
                continue;
            };
            let what = match m {
                Mission::Disruption => {
                    out.disruptors.push(unit);
                    format!(
                        "its {} (unit {unit}) fires a first strike before round 1",
                        unit_name(ctx, state, unit)
                    )
                }
                Mission::BoobyTrap => {
                    out.booby_trapped.push(unit);
                    format!(
                        "the attacker's {} (unit {unit}, the attacker's choice by default its \
                         weakest) does not roll in round 1",
                        unit_name(ctx, state, unit)
                    )
                }
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

/// The unit a mission acts on, `None` when it cannot be carried out here:
/// Disruption names the owner's strongest attacking unit not yet named
/// (the owner's choice, JB-29 PROPOSAL: each team a different unit); Booby
/// Trap the attacker's weakest attacking unit not yet trapped (the
/// attacker's choice, JB-33).
fn target(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    m: Mission,
    done: &Missions,
) -> Option<u32> {
    let attack = |id: &u32| {
        state.unit(*id).map_or(0, |u| {
            crate::rules::research::attack(ctx.game, state, u.owner, ctx.ut(u)).unwrap_or(0)
        })
    };
    let attackers = super::attackers(ctx, state, space);
    match m {
        Mission::Disruption => attackers
            .into_iter()
            .filter(|id| !done.disruptors.contains(id) && attack(id) > 0)
            .max_by_key(|id| (attack(id), std::cmp::Reverse(*id))),
        Mission::BoobyTrap => attackers
            .into_iter()
            .filter(|id| !done.booby_trapped.contains(id) && attack(id) > 0)
            .min_by_key(|id| (attack(id), *id)),
    }
}

/// A unit's type name.
fn unit_name(ctx: &Ctx, state: &GameState, id: u32) -> String {
    state
        .unit(id)
        .map_or_else(String::new, |u| ctx.ut(u).name.clone())
}

/// The Disruption first strike (JB-29): each unit named by a team fires at
/// its attack value under `sft/<territory>/disruption/<unit type>` before
/// round 1 (a volley, so Low Luck applies); the defender takes the hits
/// from any of its units, by its standing orders' order of loss, and they
/// never fire back. Returns the strikers: their round-1 shot was this one
/// (JB-29 PROPOSAL).
pub(crate) fn disruption_strike(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    disruptors: &[u32],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Vec<u32> {
    let strikers: Vec<u32> = disruptors
        .iter()
        .copied()
        .filter(|id| state.unit(*id).is_some())
        .collect();
    let targets = super::defenders(ctx, state, space);
    if strikers.is_empty() || targets.is_empty() {
        return Vec::new();
    }
    let mut groups: Vec<Group> = Vec::new();
    for &id in &strikers {
        let Some(u) = state.unit(id) else { continue };
        let t = ctx.ut(u);
        let strength = crate::rules::research::attack(ctx.game, state, u.owner, t).unwrap_or(0);
        super::fire::join(&mut groups, t.name.clone(), strength, HitClass::Any, u.unit);
    }
    let name = ctx.game.space_name(space).to_owned();
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
