//! Special force teams outside battles (J Boulton JB-26, JB-31, JB-35,
//! JB-36; `docs/rules/jboulton.md`), where the rule set has them
//! (`CombatRules::special_force_teams`).
//!
//! - The detection sweep ([`sweep`]): at the start of its combat move a
//!   power rolls detection once against each enemy team standing in a land
//!   territory it controls, one die per ground unit of its own there (JB-26
//!   sweep trigger, option `sft_detection_sweep`). It is made without being
//!   ordered: its dice can only remove enemy teams, so no player would
//!   decline them, and asking would cost a message.
//! - Industrial Strike ([`check_strikes`], [`strike`]): ordered in stage 1
//!   (`industrial_strike:`), made in the combat phase before the battles,
//!   as rockets are: detection by the territory's side first (the mission
//!   trigger), then the mission roll (1-2), then one die a striking team,
//!   paid by the complex's owner from its treasury; the team is removed.
//!   The same order names teams dropped alone into the territory this turn
//!   ([`surprise_industrial_strike`]): those that roll 6 on landing strike
//!   at once, without detection or mission roll (JB-16); the others act
//!   from the next turn (JB-25).
//! - Aversion ([`aversion`], [`end_aversion`]): in the turn of the enemy
//!   controlling its territory, a team named in its owner's standing orders
//!   rolls for the mission (a 1) just before or just after that enemy's
//!   combat move and names one of the enemy's units there; the unit's owner
//!   has it stay and roll in no combat that turn, or pull back nearer its
//!   capital. The team is removed at the end of that combat phase.

use super::special_force_teams::{Trigger, detect_by, detection_dice, is_team};
use super::{Ctx, Declarations, SurpriseStrike, fights, label, remove_unit};
use crate::dice::DiceSource;
use crate::rules::conquest::{allied, capital, held_by_side_of};
use crate::rules::events::Event;
use crate::rules::model::Ability;
use crate::rules::movement::air_transport::is_air_transport;
use crate::rules::options::LOW_LUCK;
use crate::rules::orders::{Averted, Located, OrderError};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The highest mission roll that allows an Industrial Strike (JB-27).
const STRIKE_UP_TO: u32 = 2;

/// The mission roll Aversion needs (JB-27).
const AVERSION_ROLL: u32 = 1;

/// No battle plans: the missions outside battles read none.
static NO_DECLARATIONS: Declarations = Declarations {
    bombing_raids: Vec::new(),
    submarines: Vec::new(),
    surprise_strikes: Vec::new(),
};

/// The combat context of `power`'s turn outside its battles.
fn context(game: &GameDef, power: PowerId) -> Ctx<'_> {
    Ctx {
        game,
        power,
        orders: &[],
        plans: &[],
        decl: &NO_DECLARATIONS,
        battles: Vec::new(),
        low_luck: LOW_LUCK.on(game),
        rules: game.combat_rules(),
    }
}

/// The special force teams in `space` (not aboard) whose owner passes `of`,
/// in unit id order.
fn teams(ctx: &Ctx, state: &GameState, space: SpaceId, of: impl Fn(PowerId) -> bool) -> Vec<u32> {
    state
        .units_at(space)
        .filter(|u| u.cargo_of.is_none() && of(u.owner) && is_team(&ctx.rules, ctx.ut(u)))
        .map(|u| u.id)
        .collect()
}

/// The detection sweep of `power` at the start of its combat move (JB-26):
/// in each land territory it controls, in board order, the enemy teams
/// there face its own ground units' dice (`sft/<territory>/sweep/<owner>`).
/// Without dice nothing changes and the answer is whether dice are needed.
pub(crate) fn sweep(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    mut dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> bool {
    let ctx = context(game, power);
    if !ctx
        .rules
        .special_force_teams
        .is_some_and(|r| r.detection_sweep)
    {
        return false;
    }
    for i in 0..game.space_count() {
        let space = SpaceId(i);
        if game.is_sea(space) || state.owner[i] != Some(power) {
            continue;
        }
        let enemy = teams(&ctx, state, space, |o| !allied(game, o, power));
        let Some(owner) = enemy
            .first()
            .and_then(|id| state.unit(*id))
            .map(|u| u.owner)
        else {
            continue;
        };
        // The sweeper's own units roll, whoever owns the teams.
        if detection_dice(&ctx, state, space, owner, 1, Trigger::Sweep(power)) == 0 {
            continue;
        }
        match dice.as_deref_mut() {
            None => return true,
            Some(d) => detect_by(&ctx, state, space, &enemy, Trigger::Sweep(power), d, events),
        }
    }
    false
}

/// `power`'s teams in `space` that may carry out a mission this turn: not
/// landed or dropped this turn (JB-25; one that walked in acts).
fn acting(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    teams(ctx, state, space, |o| o == ctx.power)
        .into_iter()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| u.unloaded_from.is_none() && !state.paradropped.contains(id))
        })
        .collect()
}

/// The mover's special force teams dropped into `space` this turn when they
/// came alone (JB-22 PROPOSAL): no unit of the mover that fights stands or
/// rides there (only teams and the air transports that dropped them) and
/// no blitz takes it on the way, so no battle is fought. Empty otherwise.
pub(crate) fn dropped_alone(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    if ctx.rules.special_force_teams.is_none() || state.paradropped.is_empty() {
        return Vec::new();
    }
    let fighting = state.units_at(space).any(|u| {
        let t = ctx.ut(u);
        u.owner == ctx.power && fights(t) && !is_air_transport(t)
    });
    if fighting || state.taken_in_passing.contains(&space) {
        return Vec::new();
    }
    teams(ctx, state, space, |o| o == ctx.power)
        .into_iter()
        .chain(
            // Still aboard the plane that drops them at its path's end.
            state
                .units_at(space)
                .filter(|u| u.owner == ctx.power && u.cargo_of.is_some())
                .filter(|u| is_team(&ctx.rules, ctx.ut(u)))
                .map(|u| u.id),
        )
        .filter(|id| state.paradropped.contains(id))
        .collect()
}

/// Checks `power`'s Industrial Strike orders against the position after its
/// combat move: each error names its order, field `industrial_strike`.
pub(crate) fn check_strikes(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &[Located<(SpaceId, u32)>],
) -> Vec<OrderError> {
    let ctx = context(game, power);
    orders
        .iter()
        .filter_map(|o| {
            let (space, n) = o.item;
            strike_problem(&ctx, state, space, n)
                .err()
                .map(|reason| OrderError::new(&o.origin, reason).field("industrial_strike"))
        })
        .collect()
}

/// The error for a stage's `averted:` word in a game whose rules read none
/// (no special force teams, so no Aversion).
pub(crate) fn check_averted(game: &GameDef, averted: Option<&Located<Averted>>) -> Vec<OrderError> {
    match averted {
        Some(a) if game.combat_rules().special_force_teams.is_none() => vec![
            OrderError::new(
                &a.origin,
                format!(
                    "in this game ({}) no special force team carries out Aversion: leave out \
                     averted",
                    game.files().game.name
                ),
            )
            .field("averted"),
        ],
        _ => Vec::new(),
    }
}

/// Why `n` of the mover's teams cannot strike the complex in `space`.
fn strike_problem(ctx: &Ctx, state: &GameState, space: SpaceId, n: u32) -> Result<(), String> {
    let game = ctx.game;
    let name = game.space_name(space);
    if ctx.rules.special_force_teams.is_none() {
        return Err(format!(
            "in this game ({}) no special force team carries out an Industrial Strike: leave out \
             industrial_strike",
            game.files().game.name
        ));
    }
    if game.is_sea(space) {
        return Err(format!(
            "{name} is a sea zone: special force teams carry out no mission at sea (JB-22); an \
             Industrial Strike is made in a territory with an enemy industrial complex"
        ));
    }
    if state.owner[space.0].is_none_or(|c| allied(game, c, ctx.power)) {
        return Err(format!(
            "{name} is not held by an enemy: an Industrial Strike hits an enemy's industrial \
             complex (JB-31)"
        ));
    }
    if !state
        .units_at(space)
        .any(|u| ctx.ut(u).has(&Ability::Production))
    {
        return Err(format!(
            "{name} has no industrial complex for an Industrial Strike (JB-31)"
        ));
    }
    let dropped_ids = dropped_alone(ctx, state, space);
    let dropped = dropped_ids.len();
    if state.battles.contains(&space) && dropped == 0 {
        return Err(format!(
            "a battle is fought in {name} this turn: an Industrial Strike is made where no \
             battle is (JB-31 PROPOSAL, JB-36); teams in a battle carry out its missions"
        ));
    }
    let ready_ids = acting(ctx, state, space);
    let ready = ready_ids.len();
    if ready + dropped < n as usize {
        let power = &game.powers()[ctx.power].name;
        let plural = |k: usize| if k == 1 { "" } else { "s" };
        // Teams landed from the sea this turn (JB-25).
        let landed = teams(ctx, state, space, |o| o == ctx.power)
            .iter()
            .filter(|id| !ready_ids.contains(id) && !dropped_ids.contains(id))
            .count();
        let late = if landed > 0 {
            format!(" ({landed} more landed there this turn, and act from the next turn, JB-25)")
        } else {
            String::new()
        };
        let surprise = if dropped > 0 {
            format!(
                " and {dropped} dropped alone into it this turn, which strike{} only on a \
                 landing roll of 6 (JB-16): name at most {}",
                if dropped == 1 { "s" } else { "" },
                ready + dropped
            )
        } else {
            String::new()
        };
        return Err(format!(
            "{power} has {ready} special force team{} in {name} that may carry out a mission this \
             turn{late}{surprise}, and the order names {n}",
            plural(ready)
        ));
    }
    Ok(())
}

/// The rule, as Industrial Strike events name it.
const STRIKE_RULE: &str = "special force team Industrial Strike (J Boulton JB-31)";

/// `power`'s Industrial Strikes (JB-31), in the order written, after
/// [`check_strikes`] passed: for each territory, its lowest-numbered teams
/// that may act face detection by the territory's side (JB-26, the mission
/// trigger: `sft/<territory>/detection/<power>`), roll for the mission
/// (`sft/<territory>/mission/<power>`, 1-2 strikes; a higher roll calls it
/// off, JB-28), and the striking teams [`pay`]. Returns, for each order
/// naming more teams than stand there and may act, the rest: teams dropped
/// alone there this turn that strike if they roll 6 on landing
/// ([`surprise_industrial_strike`]), with what this strike took.
pub(crate) fn strike(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<(SpaceId, u32)>],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Vec<SurpriseStrike> {
    let ctx = context(game, power);
    let mut surprise = Vec::new();
    if ctx.rules.special_force_teams.is_none() {
        return surprise;
    }
    let power_name = game.powers()[power].name.clone();
    for o in orders {
        let (space, n) = o.item;
        let name = game.space_name(space).to_owned();
        let chosen: Vec<u32> = acting(&ctx, state, space)
            .into_iter()
            .take(n as usize)
            .collect();
        let rest = n - chosen.len() as u32;
        detect_by(&ctx, state, space, &chosen, Trigger::Mission, dice, events);
        let left: Vec<u32> = chosen
            .into_iter()
            .filter(|id| state.unit(*id).is_some())
            .collect();
        let mut strikers = Vec::new();
        if !left.is_empty() {
            let l = label(&["sft", &name, "mission", &power_name]);
            let rolls = dice.roll_many(&l, left.len(), 6);
            for (&id, &r) in left.iter().zip(&rolls) {
                let detail = if r <= STRIKE_UP_TO {
                    strikers.push(id);
                    format!(
                        "{power_name}'s special force team (unit {id}) in {name}: mission roll \
                         {r} ({l}); Industrial Strike (JB-31)"
                    )
                } else {
                    format!(
                        "{power_name}'s special force team (unit {id}) in {name}: mission roll \
                         {r} ({l}); an Industrial Strike needs 1 or 2, so it calls the mission \
                         off and stays, to try again in a later turn (JB-28)"
                    )
                };
                events.push(Event::Decision {
                    space,
                    rule: STRIKE_RULE.into(),
                    detail,
                });
            }
        }
        let paid = pay(&ctx, state, space, &strikers, 0, dice, events);
        if rest > 0 {
            surprise.push(SurpriseStrike {
                space,
                teams: rest,
                paid,
            });
        }
    }
    surprise
}

/// The Industrial Strike of `ctx.power`'s teams dropped alone into `space`
/// that rolled 6 on landing (`surprised`, unit ids; JB-16: "the SFT may
/// perform any mission immediately"): no battle is fought there, so the
/// one mission open to them is the Industrial Strike (JB-36), made at once
/// with no detection and no mission roll by the lowest-numbered of them, as
/// many as the stage's `industrial_strike` order left for them
/// (`Declarations::surprise_strikes`). The others carry out no mission and
/// stay: without an order a surprise is not used.
pub(crate) fn surprise_industrial_strike(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    surprised: &[u32],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let dropped = dropped_alone(ctx, state, space);
    let mut lucky: Vec<u32> = surprised
        .iter()
        .copied()
        .filter(|id| dropped.contains(id))
        .collect();
    if lucky.is_empty() {
        return;
    }
    lucky.sort_unstable();
    let order = ctx.decl.surprise_strikes.iter().find(|s| s.space == space);
    let (budget, paid) = order.map_or((0, 0), |s| (s.teams as usize, s.paid));
    let power_name = &ctx.game.powers()[ctx.power].name;
    let name = ctx.game.space_name(space);
    let strikers: Vec<u32> = lucky.iter().copied().take(budget).collect();
    for &id in &lucky {
        let head = format!(
            "{power_name}'s special force team (unit {id}) dropped alone into {name} rolled 6 on \
             landing"
        );
        let detail = if strikers.contains(&id) {
            format!(
                "{head}: no detection and no mission roll (JB-16); Industrial Strike at once \
                 (JB-31)"
            )
        } else {
            format!(
                "{head}, but no Industrial Strike of the stage's orders is left for it, the one \
                 mission open where no battle is fought (JB-36): it carries out no mission and \
                 stays"
            )
        };
        events.push(Event::Decision {
            space,
            rule: STRIKE_RULE.into(),
            detail,
        });
    }
    pay(ctx, state, space, &strikers, paid, dice, events);
}

/// The Industrial Strike of the teams `strikers` in `space` (JB-31): each
/// rolls one die (`sft/<territory>/industrial strike`) and the complex's
/// owner (the territory's controller) pays the total from its treasury,
/// never below 0; under option `industrial_strike_cap: territory_value`
/// the turn's strikes on the territory take at most its IPC value, of
/// which `paid` is taken already. The strikers are removed. Returns what
/// the owner paid, with `paid`.
fn pay(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    strikers: &[u32],
    paid: u32,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> u32 {
    let game = ctx.game;
    let (Some(rules), Some(victim)) = (ctx.rules.special_force_teams, state.owner[space.0]) else {
        return paid;
    };
    if strikers.is_empty() {
        return paid;
    }
    let dl = label(&["sft", game.space_name(space), "industrial strike"]);
    let values = dice.roll_many(&dl, strikers.len(), 6);
    let total: u32 = values.iter().sum();
    events.push(Event::Fire {
        space,
        label: dl.as_str().to_owned(),
        side: "attacker".into(),
        group: "industrial strike".into(),
        hits_at: 0,
        dice: values,
        sure_hits: 0,
        hits: 0,
    });
    let value = game.territory(space).and_then(|t| t.ipc).unwrap_or(0);
    let room = value.saturating_sub(paid);
    let capped = if rules.strike_capped {
        total.min(room)
    } else {
        total
    };
    let taken = capped.min(state.ipcs[victim]);
    state.ipcs[victim] -= taken;
    let mut detail = format!(
        "Industrial Strike by {} special force team{} (JB-31) rolled {total}",
        strikers.len(),
        if strikers.len() == 1 { "" } else { "s" }
    );
    if capped < total {
        detail.push_str(&if paid > 0 {
            format!(
                "; capped at {room}, what this turn's strikes left of the territory's IPC value \
                 {value} (option industrial_strike_cap)"
            )
        } else {
            format!("; capped at {value}, the territory's IPC value (option industrial_strike_cap)")
        });
    }
    if taken < capped {
        detail.push_str(&format!("; capped at the {taken} IPCs in the treasury"));
    }
    events.push(Event::Bombed {
        space,
        victim,
        damage: taken,
        detail,
    });
    for &id in strikers {
        remove_unit(
            state,
            id,
            "rule: its Industrial Strike made, the team goes home to refit and is removed \
             (JB-27, JB-31)"
                .into(),
            events,
        );
    }
    paid + taken
}

/// Where `power`'s units stood (not aboard) as its combat move began: the
/// units an Aversion made just before that move may name.
pub(crate) fn positions(state: &GameState, power: PowerId) -> Vec<(u32, SpaceId)> {
    state
        .units
        .iter()
        .filter(|u| u.owner == power && u.cargo_of.is_none())
        .map(|u| (u.id, u.at))
        .collect()
}

/// The Aversions of the teams of `power`'s enemies in the land `power`
/// controls (JB-35), made after its combat move for both timings (dice
/// depend on their labels alone, so the order of rolling changes nothing):
/// each standing order `aversion` of an enemy names a territory, a unit
/// type and before or after. Each of its teams there (unit id order, not
/// yet `spent`) names a different unit of `power` of that type: before, one
/// that stood there as the combat move began (`started`); after, one
/// standing there now. The mission roll (`sft/<territory>/aversion/<owner>`)
/// needs a 1; then `averted` (the unit owner's word) decides: withdraw, when
/// the unit is still there and an adjacent friendly land territory is
/// nearer its capital (its move used); else it stays and rolls in no
/// combat this turn (`GameState::averted`). Teams that carried it out join
/// `spent`, removed by [`end_aversion`]. Without dice nothing changes and
/// the answer is whether dice are needed.
#[allow(clippy::too_many_arguments)]
pub(crate) fn aversion(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    started: &[(u32, SpaceId)],
    averted: Averted,
    mut dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
    spent: &mut Vec<u32>,
) -> bool {
    const RULE: &str = "special force team Aversion (J Boulton JB-35)";
    let ctx = context(game, power);
    if ctx.rules.special_force_teams.is_none() {
        return false;
    }
    let mover = game.powers()[power].name.clone();
    for after in [false, true] {
        for owner in 0..game.powers().len() {
            if allied(game, owner, power) {
                continue;
            }
            let orders = state.standing[owner].aversion.clone();
            for a in orders.iter().filter(|a| a.after == after) {
                let space = a.space;
                if game.is_sea(space) || state.owner[space.0] != Some(power) {
                    continue;
                }
                let mine: Vec<u32> = teams(&ctx, state, space, |o| o == owner)
                    .into_iter()
                    .filter(|id| !spent.contains(id))
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let of_type = |id: &u32| {
                    state.unit(*id).is_some_and(|u| {
                        u.owner == power
                            && u.unit == a.unit
                            && u.cargo_of.is_none()
                            && fights(ctx.ut(u))
                    })
                };
                let named: Vec<u32> = if after {
                    state
                        .units_at(space)
                        .map(|u| u.id)
                        .filter(|id| of_type(id))
                        .collect()
                } else {
                    started
                        .iter()
                        .filter(|(id, at)| *at == space && of_type(id))
                        .map(|(id, _)| *id)
                        .collect()
                };
                let name = game.space_name(space).to_owned();
                let owner_name = game.powers()[owner].name.clone();
                let when = if after { "after" } else { "before" };
                if named.is_empty() {
                    events.push(Event::Decision {
                        space,
                        rule: RULE.into(),
                        detail: format!(
                            "{owner_name}'s special force teams in {name} find no {} of \
                             {mover}'s there {when} its combat move to avert",
                            game.unit_types()[a.unit].name
                        ),
                    });
                    continue;
                }
                let Some(d) = dice.as_deref_mut() else {
                    return true;
                };
                let pairs: Vec<(u32, u32)> = mine.into_iter().zip(named).collect();
                let l = label(&["sft", &name, "aversion", &owner_name]);
                let rolls = d.roll_many(&l, pairs.len(), 6);
                for ((team, unit), r) in pairs.into_iter().zip(rolls) {
                    let head = format!(
                        "{owner_name}'s special force team (unit {team}) in {name}, {when} \
                         {mover}'s combat move: mission roll {r} ({l})"
                    );
                    if r != AVERSION_ROLL {
                        events.push(Event::Decision {
                            space,
                            rule: RULE.into(),
                            detail: format!(
                                "{head}; Aversion needs a 1, so it calls the mission off and \
                                 stays, to try again in a later turn (JB-28)"
                            ),
                        });
                        continue;
                    }
                    spent.push(team);
                    let outcome = avert(&ctx, state, space, unit, averted);
                    events.push(Event::Decision {
                        space,
                        rule: RULE.into(),
                        detail: format!("{head}; Aversion: {outcome}"),
                    });
                }
            }
        }
    }
    false
}

/// What the averted `unit` does by its owner's word `averted`, done to
/// `state`, in words.
fn avert(ctx: &Ctx, state: &mut GameState, space: SpaceId, unit: u32, averted: Averted) -> String {
    let game = ctx.game;
    let Some(u) = state.unit(unit).cloned() else {
        return String::new();
    };
    let t = ctx.ut(&u);
    let what = format!("{}'s {} (unit {unit})", game.powers()[u.owner].name, t.name);
    let mut why_not = String::new();
    if averted == Averted::Withdraw {
        if u.at != space {
            why_not = format!(
                "; it cannot pull back, its combat move (ordered before the roll) having taken it \
                 to {}",
                game.space_name(u.at)
            );
        } else if let Some(to) = withdrawal(ctx, state, space, u.owner) {
            if let Some(m) = state.unit_mut(unit) {
                m.at = to;
                m.combat_moved = true;
                m.moved = m.moved.max(t.movement.unwrap_or(1));
            }
            return format!(
                "{what} pulls back from {} to {}, nearer its capital, its move used (its \
                 owner's word: withdraw)",
                game.space_name(space),
                game.space_name(to)
            );
        } else {
            why_not = "; it cannot pull back, no adjacent friendly land territory being nearer \
                       its capital"
                .to_owned();
        }
    }
    state.averted.push(unit);
    let now = state.unit(unit).map_or(space, |m| m.at);
    let place = if now == space {
        "stays where it is".to_owned()
    } else {
        format!("goes on to {} as its orders say", game.space_name(now))
    };
    format!(
        "{what} {place} and rolls in no combat this turn (its owner's word: {}){why_not}",
        averted.word()
    )
}

/// The adjacent land territory friendly to `owner` with the fewest land
/// steps to its capital, fewer than from `space` (ties: board order).
fn withdrawal(ctx: &Ctx, state: &GameState, space: SpaceId, owner: PowerId) -> Option<SpaceId> {
    let game = ctx.game;
    let home = capital(game, owner)?;
    // Land steps from the capital, breadth first.
    let mut steps: Vec<Option<u32>> = vec![None; game.space_count()];
    steps[home.0] = Some(0);
    let mut frontier = vec![home];
    let mut n = 0;
    while !frontier.is_empty() {
        n += 1;
        let mut next = Vec::new();
        for s in frontier {
            for &m in game.neighbours(s) {
                if !game.is_sea(m) && steps[m.0].is_none() {
                    steps[m.0] = Some(n);
                    next.push(m);
                }
            }
        }
        frontier = next;
    }
    let here = steps[space.0]?;
    game.neighbours(space)
        .iter()
        .copied()
        .filter(|&m| !game.is_sea(m))
        .filter(|&m| held_by_side_of(game, state, m, owner))
        .filter_map(|m| steps[m.0].filter(|&d| d < here).map(|d| (d, m)))
        .min_by_key(|&(d, m)| (d, m.0))
        .map(|(_, m)| m)
}

/// The end of `power`'s combat phase: the teams that carried out Aversion
/// this turn are removed (JB-35), and the averted units' turn is over.
pub(crate) fn end_aversion(state: &mut GameState, spent: &[u32], events: &mut Vec<Event>) {
    for &id in spent {
        remove_unit(
            state,
            id,
            "rule: its Aversion made, the team is removed at the end of the enemy's combat phase \
             (JB-35)"
                .into(),
            events,
        );
    }
    state.averted.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pulling back goes to the neighbour nearest the capital: from Poland
    /// a German unit goes to Germany, not to Czechoslovakia or back east.
    #[test]
    fn an_averted_unit_pulls_back_toward_its_capital() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let jb = crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap();
        let state = GameState::initial(&jb);
        let germany = jb.power("Germany").unwrap();
        let ctx = context(&jb, germany);
        let poland = jb.space("Poland").unwrap();
        assert_eq!(
            withdrawal(&ctx, &state, poland, germany),
            jb.space("Germany")
        );
        // Nothing is nearer the capital than the capital itself.
        let home = jb.space("Germany").unwrap();
        assert_eq!(withdrawal(&ctx, &state, home, germany), None);
    }
}
