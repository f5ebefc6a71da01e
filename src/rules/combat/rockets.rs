//! Rockets (Anniversary development, breakthrough chart 1): in the combat
//! phase, the AA guns of a territory may launch one rocket at an enemy
//! industrial complex within range; it rolls one die of damage, capped like
//! a raid's (errata p.12: one AA gun per territory, one rocket per complex;
//! FAQ: no rocket flies over a neutral territory).
//!
//! The range, 3 spaces counted like an aircraft's move, is UNCONFIRMED
//! (digest §7, third-party sources).
//!
//! Classic (MB weapons development, digest §5) has the same rockets: where
//! strategic bombing takes IPCs off the bank instead of damaging complexes,
//! so does the rocket's die; only impassable territories stop a rocket, so
//! Classic's neutrals (not impassable) do not.

use std::collections::VecDeque;

use super::label;
use super::strategic_bombing::damage_complex;
use crate::dice::DiceSource;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::Ability;
use crate::rules::orders::{Located, OrderError};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::vocab::Technology;
use crate::rules::{GameDef, SpaceId};

/// How far a rocket flies, in spaces.
pub const ROCKET_RANGE: usize = 3;

/// Spaces a rocket crosses from `from` to reach `to`, avoiding neutral
/// (impassable) territories, if within [`ROCKET_RANGE`].
fn distance(game: &GameDef, from: SpaceId, to: SpaceId) -> Option<usize> {
    let mut seen = vec![false; game.space_count()];
    let mut queue = VecDeque::from([(from, 0usize)]);
    seen[from.0] = true;
    while let Some((at, d)) = queue.pop_front() {
        if at == to {
            return Some(d);
        }
        if d == ROCKET_RANGE {
            continue;
        }
        for &n in game.neighbours(at) {
            if seen[n.0] || game.territory(n).is_some_and(|t| t.impassable) {
                continue;
            }
            seen[n.0] = true;
            queue.push_back((n, d + 1));
        }
    }
    None
}

/// Why each rocket cannot be launched; empty when all can.
pub fn check(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    rockets: &[Located<(SpaceId, SpaceId)>],
) -> Vec<OrderError> {
    let name = &game.powers()[power].name;
    let mut errors = Vec::new();
    for (i, r) in rockets.iter().enumerate() {
        let (from, to) = r.item;
        let (here, there) = (game.space_name(from), game.space_name(to));
        let err = |field: &str, reason: String| OrderError::new(&r.origin, reason).field(field);
        if !state.has_technology(power, Technology::Rockets) {
            errors.push(err(
                "from",
                format!("{name} has not developed Rockets: its AA guns launch no rockets"),
            ));
            continue;
        }
        let gun = state.units_at(from).any(|u| {
            u.owner == power
                && game.unit_types()[u.unit]
                    .abilities
                    .iter()
                    .any(|a| matches!(a, Ability::AntiAircraft(_)))
        });
        if !gun {
            errors.push(err(
                "from",
                format!("{name} has no AA gun in {here} to launch a rocket"),
            ));
        }
        if rockets[..i].iter().any(|e| e.item.0 == from) {
            errors.push(err(
                "from",
                format!("a second rocket from {here}: only one AA gun per territory launches a rocket each turn (errata p.12)"),
            ));
        }
        if rockets[..i].iter().any(|e| e.item.1 == to) {
            errors.push(err(
                "target",
                format!("a second rocket at {there}: each industrial complex may be attacked by only one rocket (errata p.12)"),
            ));
        }
        let complex = state
            .units_at(to)
            .any(|u| game.unit_types()[u.unit].has(&Ability::Production));
        let enemy = state.owner[to.0].is_some_and(|o| !allied(game, o, power));
        if !complex || !enemy {
            errors.push(err(
                "target",
                format!("{there} has no enemy industrial complex for a rocket to strike"),
            ));
        } else if distance(game, from, to).is_none() {
            errors.push(err(
                "target",
                format!(
                    "{there} is out of a rocket's range from {here}: at most {ROCKET_RANGE} \
                     spaces, never over a neutral territory (FAQ)"
                ),
            ));
        }
    }
    errors
}

/// Launches the rockets (checked by [`check`]): one die each under
/// `rocket/<from>/<target>`, damage on the target complex, or, where
/// bombing takes IPCs off the bank (Classic's strategic bombing, digest
/// §6.4), that many IPCs off the bank of the target's controller.
pub fn fire(
    game: &GameDef,
    state: &mut GameState,
    rockets: &[Located<(SpaceId, SpaceId)>],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    for r in rockets {
        let (from, to) = r.item;
        let (here, there) = (game.space_name(from), game.space_name(to));
        let l = label(&["rocket", here, there]);
        let rolls = dice.roll_many(&l, 1, 6);
        events.push(Event::Fire {
            space: to,
            label: l.as_str().to_owned(),
            side: "attacker".into(),
            group: format!("rocket from {here}"),
            hits_at: 0,
            dice: rolls.clone(),
            sure_hits: 0,
            hits: 0,
        });
        let total: u32 = rolls.iter().sum();
        if !game.combat_rules().bombing_damages_complexes {
            // Strategic bombing off the bank (Classic, digest §5, §6.4): the
            // territory's controller loses the die, at most what it holds.
            let Some(victim) = state.owner[to.0] else {
                continue;
            };
            let paid = total.min(state.ipcs[victim]);
            state.ipcs[victim] -= paid;
            let detail = if paid < total {
                format!(
                    "rocket from {here} rolled {total}; capped at the {paid} IPCs in the treasury"
                )
            } else {
                format!("rocket from {here} rolled {total}")
            };
            events.push(Event::Bombed {
                space: to,
                victim,
                damage: paid,
                detail,
            });
            continue;
        }
        damage_complex(
            game,
            state,
            to,
            format!("rocket from {here}"),
            total,
            format!("rolled {total}"),
            events,
        );
    }
}
