//! Naval movement: sea zones only, stopping where enemy ships are, convoy
//! zones, and ships that begin the turn beside enemy ships.
//!
//! Entering a sea zone that holds enemy naval units in play (surface ships,
//! transports or submarines; submerged submarines are out of play) starts a
//! battle there, so a ship must stop (FAQ: "Combat Movement always triggers
//! combat", the one naval exception being ships *leaving* a zone with enemy
//! submarines). In the non-combat move ships may not enter such a zone at
//! all, nor an enemy-controlled convoy zone (taking a convoy zone is a
//! combat move).

use super::Mover;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::vocab::UnitList;

/// Checks the ship-specific rules of a move along `path`.
pub fn check(
    mover: &mut Mover,
    state: &GameState,
    origin: &Origin,
    units: &UnitList,
    path: &[SpaceId],
) {
    let names: Vec<&str> = units
        .iter()
        .filter(|c| mover.kind(c.unit) == UnitKind::Sea)
        .map(|c| mover.uname(c.unit))
        .collect();
    let ships = names.join(", ");
    let types: Vec<usize> = units
        .iter()
        .filter(|c| mover.kind(c.unit) == UnitKind::Sea)
        .map(|c| c.unit)
        .collect();
    check_path(mover, state, origin, &ships, &types, path);
}

/// The path rules shared by ships and transports; `ships` names the moving
/// ships in messages, `types` are their unit types.
pub fn check_path(
    mover: &mut Mover,
    state: &GameState,
    origin: &Origin,
    ships: &str,
    types: &[usize],
    path: &[SpaceId],
) {
    let err = |reason: String| OrderError::new(origin, reason).field("path");
    let mut errors = Vec::new();
    for &space in path {
        if !mover.game.is_sea(space) {
            errors.push(err(format!(
                "{ships} cannot enter the territory {}; ships move between sea zones",
                mover.sname(space)
            )));
            return mover.errors.extend(errors);
        }
    }
    let last = path.len() - 1;
    for (i, &space) in path.iter().enumerate().skip(1) {
        let enemies = mover.blocking_ships(state, space, types) > 0;
        if mover.combat {
            if i < last && enemies {
                errors.push(err(format!(
                    "{ships} must stop when it enters {}, which holds enemy ships",
                    mover.sname(space)
                )));
            }
        } else if enemies {
            errors.push(err(format!(
                "{} holds enemy ships; ships may enter it only in the combat move",
                mover.sname(space)
            )));
        } else if mover.enemy_convoy(state, space) {
            errors.push(err(format!(
                "{} is an enemy-controlled convoy zone; ships may enter it only in the combat move",
                mover.sname(space)
            )));
        }
    }
    mover.errors.extend(errors);
}

/// Records what a legal combat move at sea leaves to the combat phase: a
/// battle where the path ends among enemy ships, and the enemy convoy zones
/// a warship (a ship that can attack) enters or sails through, which it
/// takes (digest §6.3).
pub fn after_combat_move(
    mover: &Mover,
    state: &mut GameState,
    path: &[SpaceId],
    units: &UnitList,
    events: &mut Vec<Event>,
) {
    let end = *path.last().expect("a path has a start");
    if mover.enemy_ships(state, end) > 0 {
        mover.battle(state, end, events);
    }
    let warship = units.iter().any(|c| {
        let t = &mover.game.unit_types()[c.unit];
        t.kind == Some(UnitKind::Sea) && t.attack.unwrap_or(0) > 0
    });
    if warship {
        convoys(mover, state, path, events);
    }
}

/// Enemy convoy zones on a warship's path: the end is a pending capture, the
/// zones sailed through are taken in passing.
pub fn convoys(mover: &Mover, state: &mut GameState, path: &[SpaceId], events: &mut Vec<Event>) {
    let last = path.len() - 1;
    for (i, &space) in path.iter().enumerate().skip(1) {
        if !mover.enemy_convoy(state, space) {
            continue;
        }
        if i < last {
            mover.taken_in_passing(state, space, events);
        } else {
            mover.battle(state, space, events);
        }
    }
}

/// Ships that began the turn in a sea zone with enemy naval units and did
/// not leave it in the combat move stay and fight (FAQ, Submarines: "they
/// must either move out during Combat Movement ... or stay and attack the
/// enemy vessels"): their zone becomes a battle.
pub fn stay_and_fight(mover: &mut Mover, state: &mut GameState, events: &mut Vec<Event>) {
    let mut zones: Vec<SpaceId> = state
        .units
        .iter()
        .filter(|u| u.owner == mover.power && u.cargo_of.is_none() && !u.submerged)
        .filter(|u| mover.utype(u).kind == Some(UnitKind::Sea) && u.moved == 0)
        .map(|u| u.at)
        .filter(|&zone| mover.blocking_ships(state, zone, &[]) > 0)
        .collect();
    zones.sort();
    zones.dedup();
    for zone in zones {
        mover.battle(state, zone, events);
    }
}

/// Advanced AAE AAAE-44 (where the rule set sets a limit): after a
/// movement phase a sea zone holds at most so many submarines of one side,
/// counted by side (digest PROPOSAL); a zone over the limit is an error on
/// an order of the mover that brought a submarine there.
pub(crate) fn check_submarine_limit(mover: &mut Mover, state: &GameState) {
    let game = mover.game;
    let Some(limit) = game.combat_rules().submarines_per_zone else {
        return;
    };
    let sub = |u: &crate::rules::state::Unit| {
        u.cargo_of.is_none()
            && game.is_sea(u.at)
            && game.side_of(u.owner) == mover.side
            && game.unit_types()[u.unit].has(&Ability::Submerge)
    };
    let mut counted: Vec<(SpaceId, usize)> = Vec::new();
    for u in state.units.iter().filter(|u| sub(u)) {
        match counted.iter_mut().find(|c| c.0 == u.at) {
            Some(c) => c.1 += 1,
            None => counted.push((u.at, 1)),
        }
    }
    let mut errors = Vec::new();
    for (space, n) in counted.into_iter().filter(|c| c.1 > usize::from(limit)) {
        let origin = state
            .units
            .iter()
            .filter(|u| u.at == space && sub(u))
            .find_map(|u| mover.moved_by.get(&u.id).cloned());
        if let Some(origin) = origin {
            errors.push(OrderError::new(
                &origin,
                format!(
                    "{} would hold {n} submarines of {}'s side: a sea zone holds at most \
                     {limit} submarines of one side at the end of a phase (AAAE-44)",
                    game.space_name(space),
                    game.powers()[mover.power].name
                ),
            ));
        }
    }
    mover.errors.extend(errors);
}
