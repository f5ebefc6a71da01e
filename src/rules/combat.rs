//! The combat phase. **Placeholder** (issue 3): the AAE combat issue
//! replaces [`fight_battles`] with real battles fought with labelled dice.
//!
//! What the placeholder does: a pending battle where no enemy unit defends
//! (an empty enemy territory entered by land units, by blitz or by an
//! amphibious landing; an empty enemy convoy zone entered or sailed through
//! by a warship) is won without dice. A battle with defenders is not fought:
//! the message is rejected with "combat not yet implemented", so that no
//! position is ever produced by guessing a battle's outcome.

use crate::rules::conquest::{allied, capture_territory, is_warship, take_convoy};
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{BattlePlan, Located, MoveOrder, OrderError, Origin, PowerId};
use crate::rules::state::{GameState, Unit};
use crate::rules::{GameDef, SpaceId};

/// What the combat phase did, as far as the turn sequence cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CombatOutcome {
    /// Some battle was decided by dice, so the outcome could not be known
    /// when the orders were written (stage-2 orders sent with stage 1 that
    /// no longer fit are then set aside rather than rejecting the message).
    /// Always false for the placeholder.
    pub dice_rolled: bool,
}

/// Checks the battle plans against the pending battles: at most one plan per
/// battle and one `default`, each for a space where a battle is pending.
pub fn check_plans(
    game: &GameDef,
    state: &GameState,
    plans: &[Located<BattlePlan>],
) -> Vec<OrderError> {
    let mut errors = Vec::new();
    for (i, plan) in plans.iter().enumerate() {
        let earlier = &plans[..i];
        match plan.item.space {
            None if earlier.iter().any(|p| p.item.space.is_none()) => errors.push(OrderError::new(
                &plan.origin,
                "more than one default battle plan",
            )),
            None => {}
            Some(s) if earlier.iter().any(|p| p.item.space == Some(s)) => {
                errors.push(OrderError::new(
                    &plan.origin,
                    format!("a second battle plan for {}", game.space_name(s)),
                ))
            }
            Some(s) if !state.battles.contains(&s) => errors.push(OrderError::new(
                &plan.origin,
                format!(
                    "no battle is fought in {} this turn: a battle plan is for a space the \
                     combat moves attack",
                    game.space_name(s)
                ),
            )),
            Some(_) => {}
        }
    }
    errors
}

/// The enemy units that would fight in `space` against `power`: units in play
/// (not submerged), other than buildings and units that are taken with their
/// territory; an AA gun counts when aircraft of `power` attack there, since it
/// fires at them.
fn defenders<'a>(
    game: &'a GameDef,
    state: &'a GameState,
    power: PowerId,
    space: SpaceId,
) -> Vec<&'a Unit> {
    let kind = |u: &Unit| game.unit_types()[u.unit].kind;
    let air_attacks = state
        .units_at(space)
        .any(|u| u.owner == power && kind(u) == Some(UnitKind::Air));
    state
        .units_at(space)
        .filter(|u| !allied(game, u.owner, power) && !u.submerged)
        .filter(|u| {
            let t = &game.unit_types()[u.unit];
            if t.has(&Ability::AntiAircraft(0)) {
                return air_attacks;
            }
            t.kind != Some(UnitKind::Building) && !t.has(&Ability::CapturedWithTerritory)
        })
        .collect()
}

/// The first combat order that ends in, or unloads into, `space`: the order
/// an error about the battle there refers to.
fn order_into(orders: &[Located<MoveOrder>], space: SpaceId) -> Origin {
    orders
        .iter()
        .find(|o| match &o.item {
            MoveOrder::Move { path, .. } => path.contains(&space),
            MoveOrder::Transport { path, unload, .. } => {
                *unload == Some(space) || path.contains(&space)
            }
        })
        .map(|o| o.origin.clone())
        .unwrap_or_else(|| Origin {
            section: "combat",
            ..Origin::default()
        })
}

/// Fights `power`'s pending battles (`state.battles`) and clears them.
/// **Placeholder**: see the module documentation.
pub fn fight_battles(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<MoveOrder>],
    plans: &[Located<BattlePlan>],
    events: &mut Vec<Event>,
) -> Result<CombatOutcome, Vec<OrderError>> {
    let _ = plans;
    let mut errors = Vec::new();
    for &space in &state.battles {
        let found = defenders(game, state, power, space);
        if found.is_empty() {
            continue;
        }
        let mut counts: Vec<(usize, PowerId, u32)> = Vec::new();
        for u in found {
            match counts
                .iter_mut()
                .find(|(t, p, _)| *t == u.unit && *p == u.owner)
            {
                Some(c) => c.2 += 1,
                None => counts.push((u.unit, u.owner, 1)),
            }
        }
        let list: Vec<String> = counts
            .iter()
            .map(|(t, p, n)| {
                format!(
                    "{n} {} {}",
                    game.powers()[*p].name,
                    game.unit_types()[*t].name
                )
            })
            .collect();
        errors.push(OrderError::new(
            &order_into(orders, space),
            format!(
                "combat not yet implemented: the battle in {} has defenders ({}); battles with \
                 defenders will be fought once the AAE combat issue is done, so this message \
                 cannot be applied yet",
                game.space_name(space),
                list.join(", ")
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let battles = std::mem::take(&mut state.battles);
    for space in battles {
        let passing = state.taken_in_passing.contains(&space);
        if game.is_sea(space) {
            let warship = state
                .units_at(space)
                .any(|u| u.owner == power && is_warship(game, u.unit));
            if warship || passing {
                take_convoy(game, state, space, power, events);
            }
            continue;
        }
        if state.owner[space.0].is_some_and(|o| allied(game, o, power)) {
            continue;
        }
        let land_unit = state.units_at(space).any(|u| {
            u.owner == power
                && u.cargo_of.is_none()
                && game.unit_types()[u.unit].kind == Some(UnitKind::Land)
        });
        if land_unit || passing {
            capture_territory(game, state, space, power, events);
        } else {
            events.push(Event::Special {
                rule: "no land unit".into(),
                detail: format!(
                    "{} stays in its controller's hands: only land units take a territory",
                    game.space_name(space)
                ),
            });
        }
    }
    Ok(CombatOutcome::default())
}
