//! The Soviet Far East recall (AAAE-12): at the end of the third turn
//! Russia receives 6 infantry, 3 armor, 1 artillery and 1 fighter in
//! Siberia, and Siberia is worth 10 IPCs from then on, whoever holds it.
//!
//! Siberia is `game.yaml`'s region `far_east_recall` (its first space
//! receives the units; every space of it is worth [`NEW_VALUE`]). When the
//! recall comes is option `far_east_recall_turn`; where the units go when
//! Russia does not hold the territory, option `far_east_recall_elsewhere`.

use super::{FAR_EAST_RECALL_ELSEWHERE, FAR_EAST_RECALL_TURN};
use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::problem::{Problem, files};
use crate::rules::state::{GameState, Phase};
use crate::rules::vocab::PowerId;

/// The region of `game.yaml` that is Siberia.
pub(super) const REGION: &str = "far_east_recall";

/// Siberia's value after the recall.
pub(super) const NEW_VALUE: u32 = 10;

/// The round at whose third turn the recall comes.
const ROUND: u32 = 3;

/// The units of the recall, in the rules' words.
const UNITS: [(&str, u32); 4] = [
    ("infantry", 6),
    ("armor", 3),
    ("artillery", 1),
    ("fighter", 1),
];

/// The rule's name in events.
const RULE: &str = "Soviet Far East recall";

/// The power at the end of whose round-3 turn the recall comes: Russia
/// (the digest's PROPOSAL, before Russia collects), or the last power in
/// turn order (`end_of_round_3`).
fn trigger(game: &GameDef) -> Option<PowerId> {
    if FAR_EAST_RECALL_TURN.word(game).as_deref() == Some("end_of_round_3") {
        game.turn_order().last().copied()
    } else {
        game.power("Russia")
    }
}

/// Whether the recall has come in `state` (from the end of the trigger's
/// round-3 turn, that turn's collection included).
pub(super) fn has_come(game: &GameDef, state: &GameState) -> bool {
    let Some(pos) = trigger(game).and_then(|t| game.turn_order().iter().position(|&p| p == t))
    else {
        return false;
    };
    state.round > ROUND
        || (state.round == ROUND
            && (state.turn > pos || (state.turn == pos && state.phase == Phase::EndTurn)))
}

/// At the end of `power`'s turn, before income: the recall's units arrive
/// if this is the turn.
pub(super) fn arrive(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    if state.round != ROUND || trigger(game) != Some(power) {
        return;
    }
    let (Some(russia), Some(siberia)) = (
        game.power("Russia"),
        game.region(REGION).and_then(|r| r.first().copied()),
    ) else {
        return;
    };
    let name = |s: SpaceId| game.space_name(s).to_owned();
    let to = if state.owner[siberia.0] == Some(russia) {
        Some(siberia)
    } else if FAR_EAST_RECALL_ELSEWHERE.word(game).as_deref() == Some("lost") {
        None
    } else {
        nearest_held(game, state, siberia, russia)
    };
    let Some(to) = to else {
        events.push(Event::Special {
            rule: RULE.into(),
            detail: format!(
                "Russia does not hold {}; the recalled units do not arrive (option \
                 far_east_recall_elsewhere), and {} is worth {NEW_VALUE} from now on",
                name(siberia),
                name(siberia)
            ),
        });
        return;
    };
    let mut arrived = Vec::new();
    for (word, n) in UNITS {
        let Some(unit) = unit_id(game, word) else {
            continue;
        };
        for _ in 0..n {
            state.add_unit(unit, russia, to);
        }
        arrived.push(format!("{n} {}", game.unit_types()[unit].name));
    }
    let whence = if to == siberia {
        String::new()
    } else {
        format!(
            " (Russia does not hold {}: the nearest territory it holds)",
            name(siberia)
        )
    };
    events.push(Event::Special {
        rule: RULE.into(),
        detail: format!(
            "{} arrive in {}{whence}; {} is worth {NEW_VALUE} IPCs from now on (AAAE-12)",
            arrived.join(", "),
            name(to),
            name(siberia)
        ),
    });
}

/// The unit type the rules' word names (name or alias).
fn unit_id(game: &GameDef, word: &str) -> Option<usize> {
    let t = game.unit_type(word)?;
    game.unit_types().iter().position(|u| std::ptr::eq(u, t))
}

/// The territory `russia` holds that is fewest land moves from `from`
/// (the digest's PROPOSAL; of several as near, the first in the board's
/// order).
fn nearest_held(
    game: &GameDef,
    state: &GameState,
    from: SpaceId,
    russia: PowerId,
) -> Option<SpaceId> {
    let mut seen = vec![false; game.space_count()];
    seen[from.0] = true;
    let mut ring = vec![from];
    while !ring.is_empty() {
        let mut next: Vec<SpaceId> = Vec::new();
        for &s in &ring {
            for &n in game.neighbours(s) {
                let passable = game.territory(n).is_some_and(|t| !t.impassable);
                if passable && !seen[n.0] {
                    seen[n.0] = true;
                    next.push(n);
                }
            }
        }
        next.sort();
        if let Some(&held) = next.iter().find(|s| state.owner[s.0] == Some(russia)) {
            return Some(held);
        }
        ring = next;
    }
    None
}

/// What the recall needs of the data: the region, one land territory at
/// least, and unit types for the rules' words.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    let mut problems = Vec::new();
    match game.region(REGION) {
        None => problems.push(Problem::at(
            files::GAME,
            "regions".to_owned(),
            format!(
                "Advanced AAE needs the region {REGION}: the territory (Siberia) where the \
                 Soviet Far East recall arrives (AAAE-12)"
            ),
        )),
        Some(spaces) if spaces.is_empty() || spaces.iter().any(|&s| game.is_sea(s)) => {
            problems.push(Problem::at(
                files::GAME,
                format!("regions.{REGION}"),
                "the Soviet Far East recall arrives in land territories (AAAE-12)".to_owned(),
            ));
        }
        Some(_) => {}
    }
    for (word, _) in UNITS {
        if unit_id(game, word).is_none() {
            problems.push(Problem::at(
                files::UNITS,
                "units".to_owned(),
                format!(
                    "the Soviet Far East recall brings {word}, and no unit type is called \
                     so (name or alias; AAAE-12)"
                ),
            ));
        }
    }
    problems
}
