//! Land units: entering enemy territory, stopping, blitzing.
//!
//! A land unit must stop when it enters a territory that holds enemy units
//! ("Blitzing aside, can an armor unit move through an enemy-occupied
//! space...? Absolutely not."), or an enemy territory at all unless it has
//! the `blitz` ability (armor), which lets it pass through an empty enemy
//! territory in the combat move and take it on the way. In the non-combat
//! move land units stay in friendly territory, which includes territories
//! captured this turn (FAQ: tanks may pass through a newly captured
//! territory). J Boulton's special force teams alone enter, cross and stay
//! in enemy land in either move, starting no battle and taking nothing
//! (JB-22 and its PROPOSAL).

use super::Mover;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::{GameState, Unit};
use crate::rules::vocab::UnitList;

/// The names of the order's land unit types, for messages ("armor",
/// "infantry and armor").
fn names(mover: &Mover, units: &UnitList, only: impl Fn(usize) -> bool) -> String {
    let mut names: Vec<&str> = units
        .iter()
        .filter(|c| mover.kind(c.unit) == UnitKind::Land && only(c.unit))
        .map(|c| mover.uname(c.unit))
        .collect();
    names.dedup();
    match names.len() {
        0 => String::new(),
        1 => names[0].to_owned(),
        n => format!("{} and {}", names[..n - 1].join(", "), names[n - 1]),
    }
}

/// Checks the land-specific rules of a move along `path`.
pub fn check(
    mover: &mut Mover,
    state: &GameState,
    origin: &Origin,
    units: &UnitList,
    path: &[SpaceId],
) {
    let err = |reason: String| OrderError::new(origin, reason).field("path");
    let all = names(mover, units, |_| true);
    let mut errors = Vec::new();
    for &space in &path[1..] {
        if mover.game.is_sea(space) {
            errors.push(err(format!(
                "{all} cannot enter the sea zone {}; land units cross the sea on transports",
                mover.sname(space)
            )));
            return mover.errors.extend(errors);
        }
    }
    // J Boulton JB-22: special force teams may begin, end or stay in enemy
    // land and move through it, in either move, starting no battle.
    if mover.teams_only(units) {
        return mover.errors.extend(errors);
    }
    let last = path.len() - 1;
    for (i, &space) in path.iter().enumerate().skip(1) {
        let occupied = mover.defenders(state, space) > 0;
        let hostile = mover.hostile_land(state, space);
        if !mover.combat {
            if hostile || occupied {
                errors.push(err(format!(
                    "{} is enemy territory; land units may enter it only in the combat move",
                    mover.sname(space)
                )));
            }
            continue;
        }
        if i < last && !mover.neutrals.blitz_through && mover.neutral(state, space) {
            errors.push(err(format!(
                "{all} must stop in {}: it is neutral, and no unit passes through a neutral \
                 territory, armor included (DAAK-C §2.7b)",
                mover.sname(space)
            )));
        } else if i < last && occupied {
            errors.push(err(format!(
                "{all} must stop when it enters {}, which holds enemy units",
                mover.sname(space)
            )));
        } else if i < last && hostile {
            let walkers = names(mover, units, |u| {
                !mover.game.unit_types()[u].has(&Ability::Blitz)
            });
            if !walkers.is_empty() {
                errors.push(err(format!(
                    "{walkers} must stop when it enters enemy territory {} (only units that \
                     blitz may pass through an empty enemy territory)",
                    mover.sname(space)
                )));
            }
        } else if i == last && (hostile || occupied) {
            // A special force team goes in with the attackers (JB-22).
            let rules = mover.game.combat_rules();
            let harmless = names(mover, units, |u| {
                let t = &mover.game.unit_types()[u];
                t.attack.unwrap_or(0) == 0
                    && !crate::rules::combat::is_special_force_team(&rules, t)
            });
            if !harmless.is_empty() {
                errors.push(err(format!(
                    "{harmless} cannot attack, so it may not move into {} in the combat move",
                    mover.sname(space)
                )));
            }
        }
    }
    mover.errors.extend(errors);
}

/// Records what a legal combat move by land leaves to the combat phase: a
/// battle (or the taking of an empty territory) where the path ends in
/// enemy territory, and every empty enemy territory blitzed through.
pub fn after_combat_move(
    mover: &Mover,
    state: &mut GameState,
    path: &[SpaceId],
    units: &UnitList,
    events: &mut Vec<Event>,
) {
    // Special force teams alone start no battle and take nothing (JB-22).
    if mover.teams_only(units) {
        return;
    }
    let last = path.len() - 1;
    for (i, &space) in path.iter().enumerate().skip(1) {
        let hostile = mover.hostile_land(state, space) || mover.defenders(state, space) > 0;
        if !hostile {
            continue;
        }
        if i < last {
            mover.taken_in_passing(state, space, events);
        } else {
            mover.battle(state, space, events);
        }
    }
}

/// DAAK-C §3.1(b): "Every land zone may contain a maximum of one AA at any
/// point in time" (where the rule set says so): after the non-combat
/// moves, a land territory holding more than one AA gun is an error on the
/// order that brought one there.
pub(crate) fn check_aa_guns(mover: &mut Mover, state: &GameState) {
    let game = mover.game;
    if !game.combat_rules().one_aa_gun_per_territory {
        return;
    }
    let aa = |u: &Unit| {
        u.cargo_of.is_none()
            && !game.is_sea(u.at)
            && game.unit_types()[u.unit]
                .abilities
                .iter()
                .any(|a| matches!(a, Ability::AntiAircraft(_)))
    };
    let mut counted: Vec<(SpaceId, usize)> = Vec::new();
    for u in state.units.iter().filter(|u| aa(u)) {
        match counted.iter_mut().find(|c| c.0 == u.at) {
            Some(c) => c.1 += 1,
            None => counted.push((u.at, 1)),
        }
    }
    let mut errors = Vec::new();
    for (space, n) in counted.into_iter().filter(|c| c.1 > 1) {
        let origin = state
            .units
            .iter()
            .filter(|u| u.at == space && aa(u))
            .find_map(|u| mover.moved_by.get(&u.id).cloned());
        if let Some(origin) = origin {
            let reason = format!(
                "{} would hold {n} AA guns: a territory holds at most one AA gun at any time \
                 (DAAK-C §3.1(b))",
                game.space_name(space)
            );
            errors.push(OrderError::new(&origin, reason));
        }
    }
    mover.errors.extend(errors);
}
