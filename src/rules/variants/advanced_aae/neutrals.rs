//! Neutral activation and conversion (AAAE-19, AAAE-20); Switzerland and
//! Eire, off limits, are the board's impassable territories (AAAE-23).
//!
//! At the end of a combat move that invades a neutral, neutral defenders
//! appear in it and in every neutral beside it or of the same nation (the
//! board's regions named `neutral nation ...`): 3 infantry and 1 fighter in
//! a neutral worth 2, 2 infantry in one worth 1, none in one worth 0. They
//! are at once units of the power of the defending side that plays next
//! after the invader, which controls those territories from then on: the
//! invaded one is fought for in the combat phase like any enemy territory
//! (its dice are the battle's labels), and stays that power's if the
//! invasion fails. The digest lets the defending side name the power
//! (AAAE-19, 20 PROPOSAL); a message has no place for that choice yet.

use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// Regions whose name starts so are one neutral nation's territories.
const NATION_PREFIX: &str = "neutral nation";

/// The defenders by the neutral's value, in the rules' words.
fn defenders(value: u32) -> &'static [(&'static str, u32)] {
    match value {
        2 => &[("infantry", 3), ("fighter", 1)],
        1 => &[("infantry", 2)],
        _ => &[],
    }
}

/// Land no power controls that units may enter.
fn open_neutral(game: &GameDef, state: &GameState, s: SpaceId) -> bool {
    game.territory(s).is_some_and(|t| !t.impassable) && state.owner[s.0].is_none()
}

/// The power of the side opposed to `invader` whose turn comes next.
fn receiver(game: &GameDef, invader: PowerId) -> Option<PowerId> {
    let order = game.turn_order();
    let at = order.iter().position(|&p| p == invader)?;
    (1..order.len())
        .map(|i| order[(at + i) % order.len()])
        .find(|&p| game.side_of(p) != game.side_of(invader))
}

/// After `power`'s combat move: activates the neutrals it invades.
pub(super) fn activate(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let invaded: Vec<SpaceId> = crate::rules::neutrals::being_taken(game, state)
        .into_iter()
        .filter(|&s| open_neutral(game, state, s))
        .collect();
    if invaded.is_empty() {
        return;
    }
    let Some(to) = receiver(game, power) else {
        return;
    };
    let nations: Vec<Vec<SpaceId>> = game
        .files()
        .game
        .regions
        .iter()
        .filter(|(name, _)| name.starts_with(NATION_PREFIX))
        .filter_map(|(name, _)| game.region(name))
        .collect();
    let mut activated: Vec<SpaceId> = Vec::new();
    for &s in &invaded {
        activated.push(s);
        activated.extend(game.neighbours(s).iter().copied());
        for nation in nations.iter().filter(|n| n.contains(&s)) {
            activated.extend(nation.iter().copied());
        }
    }
    activated.retain(|&s| open_neutral(game, state, s));
    activated.sort();
    activated.dedup();
    for s in activated {
        let value = game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
        let mut placed = Vec::new();
        for &(word, n) in defenders(value) {
            let Some(t) = game.unit_type(word) else {
                continue;
            };
            let Some(unit) = game.unit_types().iter().position(|u| std::ptr::eq(u, t)) else {
                continue;
            };
            for _ in 0..n {
                state.add_unit(unit, to, s);
            }
            placed.push(format!("{n} {}", t.name));
        }
        state.owner[s.0] = Some(to);
        let what = if placed.is_empty() {
            "no defenders (worth 0)".to_owned()
        } else {
            placed.join(", ")
        };
        let how = if invaded.contains(&s) {
            "invaded"
        } else {
            "activated"
        };
        events.push(Event::Special {
            rule: "neutral activation".into(),
            detail: format!(
                "{} {how} by {}: {what} appear, joining {}, which controls it from now on \
                 (AAAE-19, AAAE-20)",
                game.space_name(s),
                game.powers()[power].name,
                game.powers()[to].name
            ),
        });
    }
}

/// The defenders' unit types must exist.
pub(super) fn check(game: &GameDef) -> Vec<crate::rules::problem::Problem> {
    ["infantry", "fighter"]
        .into_iter()
        .filter(|w| game.unit_type(w).is_none())
        .map(|w| {
            crate::rules::problem::Problem::at(
                crate::rules::problem::files::UNITS,
                "units".to_owned(),
                format!(
                    "neutral defenders are {w} among others (AAAE-19), and no unit type is \
                     called so (name or alias)"
                ),
            )
        })
        .collect()
}
