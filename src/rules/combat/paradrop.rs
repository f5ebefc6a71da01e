//! Paradrops (J Boulton JB-13..18; `docs/rules/jboulton.md`), where the
//! rule set has air transports (`CombatRules::air_transports`).
//!
//! Paratroopers dropped in the combat move (`movement::air_transport`) ride
//! their air transport through AA fire: on a route (overflights) and in the
//! drop territory, as any attacking aircraft (JB-13 PROPOSAL), although the
//! plane itself never attacks and is never an attacking casualty. A plane
//! shot down takes its passengers with it except those whose jump-out die,
//! rolled by the attacker, shows 1 (JB-14): they come down in the drop
//! territory with the others. Then the defender rolls the landing roll, one
//! die per dropped unit (JB-16): 1 kills it, 6 gives a paratrooper a
//! surprise first strike at its drop value, whose hits the defender takes
//! from its land units and which never fire back (JB-17). Paratroopers
//! attack at 2 in that battle (JB-18, `battle::groups`). Dice are raw, Low
//! Luck or not: they decide a fate, not a number of hits (the first strike
//! is a volley and follows Low Luck).

use super::casualties::HitClass;
use super::fire::Group;
use super::{Ctx, destroy, label};
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::movement::air_transport::is_air_transport;
use crate::rules::state::GameState;

/// The rule, as events name it.
const RULE: &str = "paradrop (J Boulton JB-13..18)";

/// The attacker's air transports in `space` that carry a paratrooper: AA
/// fire shoots at them (JB-13); one carrying only special force teams is a
/// silent glider that AA never fires at.
pub(crate) fn carriers(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    if ctx.rules.air_transports.is_none() {
        return Vec::new();
    }
    state
        .units_at(space)
        .filter(|u| u.owner == ctx.power && is_air_transport(ctx.ut(u)))
        .filter(|u| carries_paratrooper(ctx, state, u.id))
        .map(|u| u.id)
        .collect()
}

/// True when the aircraft `plane` carries a unit that paradrops (a
/// paratrooper; JB-13).
pub(crate) fn carries_paratrooper(ctx: &Ctx, state: &GameState, plane: u32) -> bool {
    state
        .units
        .iter()
        .any(|c| c.cargo_of == Some(plane) && ctx.ut(c).has(&Ability::Paradrop))
}

/// True when some unit of the attacker is still to be dropped into a
/// pending battle: its landing roll needs dice.
pub(crate) fn pending(ctx: &Ctx, state: &GameState) -> bool {
    ctx.rules.air_transports.is_some()
        && state.paradropped.iter().any(|id| {
            state
                .unit(*id)
                .is_some_and(|u| u.owner == ctx.power && state.battles.contains(&u.at))
        })
}

/// Aircraft `id` is shot down over `over`: an air transport's passengers
/// each roll to jump out (JB-14, the attacker's die under
/// `paradrop/<drop territory>/jump-out`, one per passenger in unit id
/// order); on 1 the passenger survives into the drop territory, else it
/// goes down with the plane, which is destroyed.
pub(crate) fn shot_down(
    ctx: &Ctx,
    state: &mut GameState,
    id: u32,
    over: SpaceId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let passengers: Vec<u32> = if ctx.rules.air_transports.is_some() {
        state
            .units
            .iter()
            .filter(|u| u.cargo_of == Some(id))
            .map(|u| u.id)
            .collect()
    } else {
        Vec::new()
    };
    if let Some(&first) = passengers.first() {
        let drop_zone = state.unit(first).map_or(over, |u| u.at);
        let l = label(&["paradrop", ctx.game.space_name(drop_zone), "jump-out"]);
        let values = dice.roll_many(&l, passengers.len(), 6);
        for (&p, &die) in passengers.iter().zip(&values) {
            let Some(u) = state.unit(p).cloned() else {
                continue;
            };
            let name = &ctx.ut(&u).name;
            if die == 1 {
                if let Some(u) = state.unit_mut(p) {
                    u.cargo_of = None;
                }
                events.push(Event::Decision {
                    space: drop_zone,
                    rule: RULE.into(),
                    detail: format!(
                        "{}'s {name} (unit {p}) jumped out of its falling air transport: rolled \
                         1 ({l}); it comes down in {} (JB-14)",
                        ctx.game.powers()[u.owner].name,
                        ctx.game.space_name(drop_zone)
                    ),
                });
            } else {
                events.push(Event::Decision {
                    space: drop_zone,
                    rule: RULE.into(),
                    detail: format!(
                        "{}'s {name} (unit {p}) did not jump out of its falling air transport: \
                         rolled {die} ({l}), it needed 1 (JB-14)",
                        ctx.game.powers()[u.owner].name
                    ),
                });
            }
        }
    }
    destroy(ctx, state, id, over, events);
    // Passengers lost with the plane take no landing roll.
    if !passengers.is_empty() {
        let units = &state.units;
        state
            .paradropped
            .retain(|p| units.iter().any(|u| u.id == *p));
    }
}

/// The drop into `space` after its AA fire: the attacker's dropped units
/// leave their planes and the defender rolls the landing roll (JB-16).
/// Returns the dropped units that rolled 6 (surprise): paratroopers
/// strike first, special force teams escape detection.
pub(crate) fn land(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Vec<u32> {
    let Some(rules) = ctx.rules.air_transports else {
        return Vec::new();
    };
    let mut dropped: Vec<u32> = state
        .paradropped
        .iter()
        .copied()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| u.owner == ctx.power && u.at == space)
        })
        .collect();
    dropped.sort_unstable();
    // Still aboard a plane that made it: they jump now. Those shot down
    // without jumping out are gone already.
    for id in &dropped {
        if let Some(u) = state.unit_mut(*id) {
            u.cargo_of = None;
        }
    }
    if dropped.is_empty() {
        return Vec::new();
    }
    let name = ctx.game.space_name(space).to_owned();
    // One pool for the territory, or one label per unit type (each unit's
    // die then fixed by its type and id, not allotted).
    let rolls: Vec<(u32, u32, String)> = if rules.pooled_landing_roll {
        let l = label(&["paradrop", &name, "landing"]);
        let values = dice.roll_many(&l, dropped.len(), 6);
        allot(ctx, state, space, &dropped, &values, events)
            .into_iter()
            .map(|(id, v)| (id, v, l.as_str().to_owned()))
            .collect()
    } else {
        let mut out = Vec::new();
        for (t, ids) in super::group_units(state, &dropped, |u| u.unit) {
            let l = label(&["paradrop", &name, "landing", &ctx.game.unit_types()[t].name]);
            let values = dice.roll_many(&l, ids.len(), 6);
            out.extend(
                ids.into_iter()
                    .zip(values)
                    .map(|(id, v)| (id, v, l.as_str().to_owned())),
            );
        }
        out
    };
    let mut surprised = Vec::new();
    for (id, die, l) in rolls {
        let Some(u) = state.unit(id).cloned() else {
            continue;
        };
        let who = format!(
            "{}'s {} (unit {id})",
            ctx.game.powers()[u.owner].name,
            ctx.ut(&u).name
        );
        let detail = match die {
            1 => {
                let reason =
                    format!("rule: killed or captured on landing, the landing roll 1 ({l}); JB-16");
                super::remove_unit(state, id, reason, events);
                continue;
            }
            6 if ctx.ut(&u).has(&Ability::Paradrop) => {
                surprised.push(id);
                format!("{who} rolled 6 on landing ({l}): surprise, a first strike (JB-16, JB-17)")
            }
            6 => {
                surprised.push(id);
                format!(
                    "{who} rolled 6 on landing ({l}): surprise, it is not detected in this battle \
                     (JB-16, JB-26)"
                )
            }
            d if ctx.ut(&u).has(&Ability::Paradrop) => {
                format!("{who} rolled {d} on landing ({l}): it lands and fights (JB-16)")
            }
            d => format!("{who} rolled {d} on landing ({l}): it lands (JB-16)"),
        };
        events.push(Event::Decision {
            space,
            rule: RULE.into(),
            detail,
        });
    }
    surprised
}

/// The attacker allots the pooled landing roll `values` to the units
/// `dropped` (ids, ascending; JB-16): by its battle plan's `landing`, the
/// 6s to the units its `surprise` list ranks first, then the 1s among the
/// rest to those its `lost` list ranks first (types not listed after the
/// listed ones, each type in unit id order), the other results to the
/// others in unit id order; with no `landing`, die by die in unit id
/// order. Returns (unit, die) in unit id order.
fn allot(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    dropped: &[u32],
    values: &[u32],
    events: &mut Vec<Event>,
) -> Vec<(u32, u32)> {
    let Some(plan) = ctx.plan(space).and_then(|p| p.item.landing.as_ref()) else {
        return dropped
            .iter()
            .copied()
            .zip(values.iter().copied())
            .collect();
    };
    let rank = |list: &[usize], id: &u32| {
        let t = state.unit(*id).map_or(usize::MAX, |u| u.unit);
        (list.iter().position(|&x| x == t).unwrap_or(list.len()), *id)
    };
    let mut units = dropped.to_vec();
    units.sort_by_key(|id| rank(&plan.surprise, id));
    let sixes = values.iter().filter(|&&v| v == 6).count();
    let mut rest = units.split_off(sixes.min(units.len()));
    let mut out: Vec<(u32, u32)> = units.into_iter().map(|id| (id, 6)).collect();
    rest.sort_by_key(|id| rank(&plan.lost, id));
    let ones = values.iter().filter(|&&v| v == 1).count();
    let mut others = rest.split_off(ones.min(rest.len()));
    out.extend(rest.into_iter().map(|id| (id, 1)));
    others.sort_unstable();
    let middle = values.iter().copied().filter(|v| (2..=5).contains(v));
    out.extend(others.into_iter().zip(middle));
    out.sort_unstable();
    let names = |list: &[usize]| {
        list.iter()
            .map(|&t| ctx.game.unit_types()[t].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut how = Vec::new();
    if !plan.surprise.is_empty() {
        how.push(format!("6s first to {}", names(&plan.surprise)));
    }
    if !plan.lost.is_empty() {
        how.push(format!("1s first to {}", names(&plan.lost)));
    }
    events.push(Event::Decision {
        space,
        rule: RULE.into(),
        detail: format!(
            "{} allots the landing roll {values:?} by its battle plan ({}) (JB-16)",
            ctx.game.powers()[ctx.power].name,
            how.join("; ")
        ),
    });
    out
}

/// Why a battle plan's `landing` cannot be played in `game`, if it cannot
/// (JB-16): the game drops nothing, the match rolls a die per unit, or a
/// listed unit type is never dropped.
pub(crate) fn landing_problem(
    game: &crate::rules::GameDef,
    landing: &crate::rules::orders::LandingAllotment,
) -> Option<String> {
    let rules = game.combat_rules();
    let Some(air) = rules.air_transports else {
        return Some(
            "this game drops no units from air transports, so there is no landing roll to allot \
             (J Boulton JB-16)"
                .into(),
        );
    };
    if !air.pooled_landing_roll {
        return Some(
            "this match rolls a landing die of its own for each dropped unit (option \
             landing_roll_allocation: per_unit), so there is no pool to allot"
                .into(),
        );
    }
    let types = game.unit_types();
    let droppable = |t: usize| {
        types[t].has(&Ability::Paradrop) || super::is_special_force_team(&rules, &types[t])
    };
    let wrong = landing
        .surprise
        .iter()
        .chain(&landing.lost)
        .find(|&&t| !droppable(t))?;
    let valid: Vec<&str> = (0..types.len())
        .filter(|&t| droppable(t))
        .map(|t| types[t].name.as_str())
        .collect();
    Some(format!(
        "{} is never dropped: the landing roll is allotted among {}",
        types[*wrong].name,
        valid.join(" and ")
    ))
}

/// The surprise first strike of the paratroopers in `surprised` (JB-17):
/// they fire at their drop value under
/// `paradrop/<territory>/first-strike/<group>`; the defender takes each hit
/// from its land units (its standing orders' order of loss) and those never
/// fire back. Returns the strikers, which do not fire again in round 1
/// unless the strike is an extra shot (option `first_strike_is_extra`).
pub(crate) fn surprise_strike(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    surprised: &[u32],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Vec<u32> {
    let Some(rules) = ctx.rules.air_transports else {
        return Vec::new();
    };
    // Only paratroopers strike; a surprised special force team does not
    // fire (JB-16).
    let strikers: Vec<u32> = surprised
        .iter()
        .copied()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).has(&Ability::Paradrop))
        })
        .collect();
    let targets: Vec<u32> = super::defenders(ctx, state, space)
        .into_iter()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).kind == Some(UnitKind::Land))
        })
        .collect();
    if strikers.is_empty() || targets.is_empty() {
        return Vec::new();
    }
    let name = ctx.game.space_name(space).to_owned();
    let mut groups: Vec<Group> = Vec::new();
    for &id in &strikers {
        let Some(u) = state.unit(id) else { continue };
        super::fire::join(
            &mut groups,
            format!("paradropped {}", ctx.ut(u).name),
            rules.dropped_attack,
            HitClass::Any,
            u.unit,
        );
    }
    let prefix: Vec<String> = ["paradrop", &name, "first-strike"]
        .map(String::from)
        .to_vec();
    super::battle::strike_before_battle(
        ctx,
        state,
        space,
        &targets,
        &prefix,
        groups,
        "hit by a paratrooper's surprise first strike, it does not fire back (JB-17)",
        dice,
        events,
    );
    if rules.first_strike_is_extra {
        Vec::new()
    } else {
        strikers
    }
}
