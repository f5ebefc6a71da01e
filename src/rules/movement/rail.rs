//! Strategic rail movement (Advanced AAE AAAE-30, where the rule set's
//! `CombatRules::strategic_rail` says): in the non-combat move a move
//! written `UNITS: PATH, rail` takes land units up to the rule's spaces
//! (4) whatever their movement, one rail point each, at most the rule's
//! points (5) a turn; unused points are lost. Every territory entered must
//! have been the side's since the start of the turn, and no space of the
//! path may lie in the barred region (Africa and the Middle East). A unit
//! that moved in the combat move does not rail (digest PROPOSAL), and a
//! railed unit makes no other move (one move a phase).

use super::{Mover, path};
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::vocab::UnitList;

/// A rail move: checked whole, then applied.
pub(super) fn order(
    mover: &mut Mover,
    state: &mut GameState,
    origin: &Origin,
    units: &UnitList,
    path: &[SpaceId],
    events: &mut Vec<Event>,
) {
    let game = mover.game;
    let err = |reason: String| OrderError::new(origin, reason).field("path");
    let Some(rail) = game.combat_rules().strategic_rail else {
        mover.errors.push(err(format!(
            "this game ({}) has no strategic rail movement: leave out \", rail\"",
            game.files().game.name
        )));
        return;
    };
    if mover.combat {
        mover.errors.push(err(
            "strategic rail moves are made in the non-combat move (AAAE-30): move these units \
             under noncombat:"
                .into(),
        ));
        return;
    }
    if let Some(c) = units.iter().find(|c| mover.kind(c.unit) != UnitKind::Land) {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "only land units move by rail (AAAE-30), and {} is not one",
                    mover.uname(c.unit)
                ),
            )
            .field("units"),
        );
        return;
    }
    if path.len() < 2 {
        mover.errors.push(err(
            "the path names only the start; name every space entered".into(),
        ));
        return;
    }
    let before = mover.errors.len();
    path::check(mover, state, origin, path, units);
    let steps = path.len() - 1;
    if steps > rail.spaces {
        mover.errors.push(err(format!(
            "a unit moves at most {} spaces by rail (AAAE-30), and the path enters {steps}",
            rail.spaces
        )));
    }
    let barred = game.region(rail.barred_region).unwrap_or_default();
    if let Some(&s) = path.iter().find(|s| barred.contains(s)) {
        mover.errors.push(err(format!(
            "strategic rail cannot be used in Africa and the Middle East (AAAE-30), and {} is \
             there (game.yaml's region {})",
            mover.sname(s),
            rail.barred_region
        )));
    }
    let side = &game.files().game.sides[mover.side].name;
    if let Some(&s) = path[1..].iter().find(|&&s| {
        game.is_sea(s)
            || !state.owner[s.0].is_some_and(|o| mover.friendly(o))
            || state.captured_this_turn.contains(&s)
    }) {
        mover.errors.push(err(format!(
            "a rail move enters only territories the {side} held at the start of the turn \
             (AAAE-30), and {} is not one",
            mover.sname(s)
        )));
    }
    let count: u32 = units.iter().map(|c| c.count).sum();
    let left = rail.points.saturating_sub(mover.rail_used);
    if count > left {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "{} has {left} of its {} rail points left this turn (one a unit, AAAE-30), \
                     and this move takes {count}",
                    game.powers()[mover.power].name,
                    rail.points
                ),
            )
            .field("units"),
        );
    }
    let mut ids = Vec::new();
    for c in units {
        match pick(mover, state, path[0], c.unit, c.count) {
            Ok(mut picked) => ids.append(&mut picked),
            Err(reason) => mover
                .errors
                .push(OrderError::new(origin, reason).field("units")),
        }
    }
    if mover.errors.len() > before {
        return;
    }
    mover.rail_used += count;
    mover.relocate(state, &ids, path, origin);
    events.push(Event::Moved {
        power: mover.power,
        units: units.clone(),
        path: path.to_vec(),
        combat: false,
    });
    events.push(Event::Special {
        rule: "strategic rail".into(),
        detail: format!(
            "{} used {count} rail point{} ({} of {} left this turn; AAAE-30)",
            game.powers()[mover.power].name,
            if count == 1 { "" } else { "s" },
            rail.points - mover.rail_used,
            rail.points
        ),
    });
}

/// `count` units of `unit_type` at `space` that may go by rail: the
/// power's, not aboard, movable, and not yet moved this turn (neither in
/// the combat move nor by an earlier order); the lowest ids first.
fn pick(
    mover: &Mover,
    state: &GameState,
    space: SpaceId,
    unit_type: usize,
    count: u32,
) -> Result<Vec<u32>, String> {
    let name = mover.uname(unit_type);
    let power = &mover.game.powers()[mover.power].name;
    let there: Vec<_> = state
        .units_at(space)
        .filter(|u| u.owner == mover.power && u.unit == unit_type && u.cargo_of.is_none())
        .collect();
    let free: Vec<u32> = there
        .iter()
        .filter(|u| {
            u.moved == 0
                && !u.combat_moved
                && u.unloaded_from.is_none()
                && !mover.used.contains(&u.id)
                && mover.movement(state, u) > 0
        })
        .map(|u| u.id)
        .take(count as usize)
        .collect();
    if free.len() as u32 == count {
        return Ok(free);
    }
    Err(if there.is_empty() {
        format!("{power} has no {name} in {}", mover.sname(space))
    } else {
        format!(
            "{power} has {} {name} in {} that may go by rail (units that have not moved this \
             turn, in the combat move or by an earlier order; AAAE-30), not {count}",
            free.len(),
            mover.sname(space)
        )
    })
}
