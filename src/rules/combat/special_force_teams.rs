//! Special force teams in battle (J Boulton JB-21..26; `docs/rules/jboulton.md`),
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

/// The ground units of the opponents of `owner` in `space` that roll
/// detection against its teams (JB-26 PROPOSAL, digest Part E 1): land
/// units that fight, not AA guns, and teams only under option
/// `sft_detection_by_teams`.
fn searchers(ctx: &Ctx, state: &GameState, space: SpaceId, owner: PowerId) -> usize {
    let teams_search = ctx
        .rules
        .special_force_teams
        .is_some_and(|r| r.teams_search);
    state
        .units_at(space)
        .filter(|u| !allied(ctx.game, u.owner, owner) && u.cargo_of.is_none())
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
        let n = searchers(ctx, state, space, owner);
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
        let l = label(&["sft", &name, "detection", power]);
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
                            "rule: detected before the battle, one team per 1 in the pool of {} \
                             dice, {ones} of them 1 ({l}); JB-26",
                            values.len()
                        )
                    } else {
                        format!(
                            "rule: detected by {n} enemy ground unit{} before the battle, a 1 \
                             among the dice ({l}); JB-26",
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
                             detected: {ones} 1 in the pool of {} dice for {} teams ({l})",
                            values.len(),
                            mine.len()
                        )
                    } else {
                        format!(
                            "{power}'s special force team (unit {id}) in {name} was not \
                             detected: no 1 among {n} dice ({l})"
                        )
                    },
                });
            }
        }
    }
}
