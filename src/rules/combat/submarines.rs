//! Advanced AAE's submarine rules that are not a value of a firing group:
//! the refusal of a submerging order where submarines fight one round
//! (AAAE-46), and the screen procedure against capital ships (AAAE-48).

use super::battle::{apply, choose};
use super::casualties::{Chooser, HitClass};
use super::fire::{join, volley};
use super::{Ctx, attackers, defenders};
use crate::dice::DiceSource;
use crate::rules::events::Event;
use crate::rules::model::Ability;
use crate::rules::orders::SubmarinePolicy;
use crate::rules::state::{GameState, Unit};
use crate::rules::variants::SubmarineScreen;
use crate::rules::{GameDef, SpaceId};

/// Why a `submarines:` policy (battle plan or standing orders) cannot be
/// played where submarines fight one round and then submerge by rule
/// (`CombatRules::one_round_submarines`, Advanced AAE AAAE-46): submerging
/// is no choice there, so an order to submerge would be silently ignored.
/// `None` for every other policy and every other rule set.
pub fn one_round_submerge_problem(game: &GameDef, policy: SubmarinePolicy) -> Option<String> {
    game.combat_rules().one_round_submarines?;
    if !matches!(
        policy,
        SubmarinePolicy::Submerge | SubmarinePolicy::SubmergeAfterFirstRound
    ) {
        return None;
    }
    let word = policy.word();
    Some(format!(
        "submarines: {word} cannot be played in this game ({}): submarines fight exactly one \
         round of each battle and then submerge by rule, attacking or defending (AAAE-46), so \
         there is no choice to make; leave submarines out (or write fight)",
        game.files().game.name
    ))
}

/// True when `u` is one of the screen's capital ships.
fn capital(ctx: &Ctx, screen: &SubmarineScreen, u: &Unit) -> bool {
    let t = ctx.ut(u);
    screen
        .capital_ships
        .iter()
        .any(|w| ctx.game.unit_type(w).is_some_and(|c| c.name == t.name))
}

/// The attacker's submarines in play in `space`, lowest id first.
fn attacking_subs(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    let mut ids: Vec<u32> = attackers(ctx, state, space)
        .into_iter()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).has(&Ability::Submerge))
        })
        .collect();
    ids.sort_unstable();
    ids
}

/// The defenders in play in `space` that are capital ships.
pub(crate) fn capital_ships(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    let Some(screen) = ctx.rules.submarine_screen else {
        return Vec::new();
    };
    defenders(ctx, state, space)
        .into_iter()
        .filter(|id| state.unit(*id).is_some_and(|u| capital(ctx, &screen, u)))
        .collect()
}

/// Why the battle plan for `space` may not send `n` submarines at the
/// screen (AAAE-48), before any die.
pub(crate) fn check_screen(
    ctx: &Ctx,
    state: &GameState,
    space: Option<SpaceId>,
    n: u32,
) -> Result<(), String> {
    let game = ctx.game;
    let Some(screen) = ctx.rules.submarine_screen else {
        return Err(format!(
            "this game ({}) has no screen procedure against capital ships: leave screen out",
            game.files().game.name
        ));
    };
    let Some(space) = space.filter(|s| game.is_sea(*s)) else {
        return Err(
            "screen goes in the battle plan of a sea zone, not in the default plan or \
                    a territory's"
                .into(),
        );
    };
    let name = game.space_name(space);
    let subs = attacking_subs(ctx, state, space).len();
    if usize::try_from(n).unwrap_or(usize::MAX) > subs {
        return Err(format!(
            "screen: {n}, but {subs} of your submarines attack {name}: at most {subs} may try the \
             escort screen"
        ));
    }
    if capital_ships(ctx, state, space).is_empty() {
        return Err(format!(
            "no capital ship ({}) defends {name}: the escort screen is passed only to attack \
             capital ships (AAAE-48); leave screen out",
            screen.capital_ships.join(", ")
        ));
    }
    Ok(())
}

/// What the screen procedure leaves for the battle proper.
#[derive(Debug, Clone, Default)]
pub(crate) struct Screened {
    /// Blocked submarines and those that failed the screen that fire their
    /// one round in the battle, only at ships that are not capital ships.
    pub restricted: Vec<u32>,
    /// Defending destroyers whose return fire was their round-1 fire.
    pub fired: Vec<u32>,
    /// Some submarine submerged.
    pub submerged: bool,
}

/// The screen procedure against capital ships (AAAE-48), before the battle
/// in `space`: of the `n` attacking submarines that try (lowest id first),
/// one is blocked for every two defending destroyers (the last ones); each
/// other rolls to get through (`screen/<zone>/through/submarine`, on 3 or
/// less); those through fire their two dice at 2
/// (`screen/<zone>/attacker/submarine`), every hit on a capital ship of
/// the defender's choosing; only the defending destroyers fire back
/// (`screen/<zone>/defender/destroyer`), at the attempting submarines, the
/// attacker choosing its losses. The submarines that got through then
/// submerge; the blocked and failed ones submerge too, or fight their round
/// in the battle (option `failed_screen_subs`).
pub(crate) fn screen(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    n: u32,
    (attacker_chooser, defender_chooser): (&Chooser, &Chooser),
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Screened {
    let mut out = Screened::default();
    let Some(screen) = ctx.rules.submarine_screen else {
        return out;
    };
    let game = ctx.game;
    let name = game.space_name(space).to_owned();
    let mut trying = attacking_subs(ctx, state, space);
    trying.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    if trying.is_empty() || capital_ships(ctx, state, space).is_empty() {
        return out;
    }
    let destroyers: Vec<u32> = defenders(ctx, state, space)
        .into_iter()
        .filter(|id| {
            state.unit(*id).is_some_and(|u| {
                ctx.ut(u).has(&Ability::AntiSubmarine) && ctx.ut(u).defense.unwrap_or(0) > 0
            })
        })
        .collect();
    let per = screen.destroyers_per_block.max(1);
    let blocked = (destroyers.len() / per as usize).min(trying.len());
    let unblocked = &trying[..trying.len() - blocked];
    events.push(Event::Decision {
        space,
        rule: "AAAE-48: the screen procedure against capital ships".into(),
        detail: format!(
            "{} submarine(s) try the escort screen; {} defending destroyer(s) block {blocked}",
            trying.len(),
            destroyers.len()
        ),
    });
    let sub_type = |id: &u32| state.unit(*id).map_or(0, |u| u.unit);
    // Each unblocked submarine rolls to get through.
    let mut g = Vec::new();
    for id in unblocked {
        join(
            &mut g,
            ctx.ut(state.unit(*id).expect("in play")).name.clone(),
            screen.through_at,
            HitClass::Any,
            sub_type(id),
        );
    }
    let prefix: Vec<String> = ["screen", &name, "through"].map(String::from).to_vec();
    let through = volley(dice, ctx.low_luck, space, &prefix, "attacker", g, events).total();
    let through = usize::try_from(through).unwrap_or(0).min(unblocked.len());
    let (passed, failed) = unblocked.split_at(through);
    // Those through fire their two dice at the capital ships.
    let capitals = capital_ships(ctx, state, space);
    let per_sub = ctx.rules.one_round_submarines.unwrap_or(1);
    let mut g = Vec::new();
    for id in passed {
        let u = state.unit(*id).expect("in play");
        for _ in 0..per_sub {
            join(
                &mut g,
                ctx.ut(u).name.clone(),
                ctx.ut(u).attack.unwrap_or(0),
                HitClass::Any,
                u.unit,
            );
        }
    }
    let prefix: Vec<String> = ["screen", &name, "attacker"].map(String::from).to_vec();
    let hits = volley(dice, ctx.low_luck, space, &prefix, "attacker", g, events);
    let on_capitals = choose(
        ctx,
        state,
        space,
        &capitals,
        defender_chooser,
        hits,
        0,
        events,
    );
    // Only the destroyers fire back, at the attempting submarines.
    let mut g = Vec::new();
    for id in &destroyers {
        let u = state.unit(*id).expect("in play");
        join(
            &mut g,
            ctx.ut(u).name.clone(),
            ctx.ut(u).defense.unwrap_or(0),
            HitClass::Any,
            u.unit,
        );
    }
    let prefix: Vec<String> = ["screen", &name, "defender"].map(String::from).to_vec();
    let hits = volley(dice, ctx.low_luck, space, &prefix, "defender", g, events);
    let on_subs = choose(
        ctx,
        state,
        space,
        &trying,
        attacker_chooser,
        hits,
        0,
        events,
    );
    apply(ctx, state, space, &on_capitals, events);
    apply(ctx, state, space, &on_subs, events);
    if screen.return_fire_is_round_1 {
        out.fired = destroyers;
    }
    let alive = |ids: &[u32]| -> Vec<u32> {
        ids.iter()
            .copied()
            .filter(|id| state.unit(*id).is_some())
            .collect()
    };
    let mut diving = alive(passed);
    let rest: Vec<u32> = failed
        .iter()
        .chain(&trying[trying.len() - blocked..])
        .copied()
        .collect();
    if screen.failed_fire_noncapital {
        out.restricted = alive(&rest);
    } else {
        diving.extend(alive(&rest));
    }
    out.submerged = !diving.is_empty();
    super::battle::submerge(
        ctx,
        state,
        space,
        &diving,
        "AAAE-48: the submarines of the screen procedure submerge at its end (AAAE-46)".into(),
        events,
    );
    out
}
