//! Paths: adjacency, neutrals (impassable territories), canals and straits,
//! and the distances aircraft and carriers can cover.

use std::collections::VecDeque;

use super::Mover;
use crate::rules::SpaceId;
use crate::rules::model::UnitKind;
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::vocab::UnitList;

/// Checks what every path must satisfy whatever moves along it: each space
/// borders the one before, no space entered is impassable (AAE: "no moving
/// into or flying over neutrals", aircraft included), and ships pass a canal
/// only when their side controls its land.
pub fn check(
    mover: &mut Mover,
    state: &GameState,
    origin: &Origin,
    path: &[SpaceId],
    units: &UnitList,
) {
    let game = mover.game;
    let flying = units.iter().all(|c| mover.kind(c.unit) == UnitKind::Air);
    for pair in path.windows(2) {
        let (from, to) = (pair[0], pair[1]);
        if from == to {
            mover.errors.push(
                OrderError::new(
                    origin,
                    format!("the path enters {} twice in a row", mover.sname(to)),
                )
                .field("path"),
            );
        } else if !game.adjacent(from, to) {
            let kind = if flying {
                None
            } else {
                units.iter().next().map(|c| mover.kind(c.unit))
            };
            mover.errors.push(
                OrderError::new(
                    origin,
                    format!(
                        "{} does not border {}{}",
                        mover.sname(from),
                        mover.sname(to),
                        borders_hint(mover, from, kind)
                    ),
                )
                .field("path"),
            );
        }
        if !game.may_enter(mover.power, to) {
            // Anniversary's China: its units never leave China, not even
            // for a moment (FAQ, Flying Tigers).
            mover.errors.push(
                OrderError::new(
                    origin,
                    format!(
                        "{} units may not enter {}: they may only move within {}",
                        game.powers()[mover.power].name,
                        mover.sname(to),
                        game.powers()[mover.power].confined_to.join(", ")
                    ),
                )
                .field("path"),
            );
        }
        if impassable(mover, to) {
            let verb = if flying { "flown over" } else { "entered" };
            mover.errors.push(
                OrderError::new(
                    origin,
                    format!("{} is neutral and may not be {verb}", mover.sname(to)),
                )
                .field("path"),
            );
        }
    }
    // Advanced AAE AAAE-21 (option neutral_overflight: forbid): aircraft
    // never cross a neutral; ending in one is an invasion, not an overflight.
    let aircraft = units.iter().any(|c| mover.kind(c.unit) == UnitKind::Air);
    if aircraft
        && mover.neutrals.overflight_forbidden
        && path.len() > 2
        && let Some(&n) = path[1..path.len() - 1]
            .iter()
            .find(|&&s| mover.neutral(state, s) && !impassable(mover, s))
    {
        mover.errors.push(
            OrderError::new(
                origin,
                format!(
                    "aircraft may not fly over the neutral territory {} (AAAE-21, option \
                     neutral_overflight: forbid); fly round it",
                    mover.sname(n)
                ),
            )
            .field("path"),
        );
    }
    let sailing = units.iter().any(|c| mover.kind(c.unit) == UnitKind::Sea);
    if sailing {
        check_canals(mover, state, origin, path);
    }
}

/// Ships' canal check along a path (also used by transports).
pub fn check_canals(mover: &mut Mover, state: &GameState, origin: &Origin, path: &[SpaceId]) {
    for pair in path.windows(2) {
        if let Some(name) = closed_canal(mover, state, pair[0], pair[1]) {
            mover.errors.push(
                OrderError::new(
                    origin,
                    format!(
                        "ships may not pass the {name} between {} and {}: {} must control its \
                         shores since the start of the turn, and {}",
                        mover.sname(pair[0]),
                        mover.sname(pair[1]),
                        mover.game.files().game.sides[mover.side].name,
                        closed_shores(mover, state, name)
                    ),
                )
                .field("path"),
            );
        }
        if let Some(reason) = mover
            .game
            .rule_set()
            .sea_passage_closed(mover.game, pair[0], pair[1])
        {
            mover
                .errors
                .push(OrderError::new(origin, reason).field("path"));
        }
    }
}

/// Why the canal `name` is closed to the mover: each shore its side has not
/// held since the start of the turn, and who holds it.
fn closed_shores(mover: &Mover, state: &GameState, name: &str) -> String {
    let game = mover.game;
    let Some(canal) = game.files().board.canals.iter().find(|c| c.name == name) else {
        return String::new();
    };
    let shores: Vec<String> = canal
        .controlled_by
        .iter()
        .filter_map(|land| game.space(land))
        .filter_map(|s| match state.owner[s.0] {
            Some(o) if mover.friendly(o) && state.captured_this_turn.contains(&s) => {
                Some(format!("{} was taken only this turn", mover.sname(s)))
            }
            Some(o) if mover.friendly(o) => None,
            Some(o) => Some(format!(
                "{} is held by {}",
                mover.sname(s),
                game.powers()[o].name
            )),
            None => Some(format!("{} is neutral", mover.sname(s))),
        })
        .collect();
    shores.join(" and ")
}

/// True for a territory no unit may enter or fly over.
pub fn impassable(mover: &Mover, space: SpaceId) -> bool {
    mover.game.territory(space).is_some_and(|t| t.impassable)
}

/// The name of the canal between two sea zones when it is closed to the
/// mover's ships. A canal is open while the mover's side controls every
/// listed territory since the start of the turn (controlled now and not
/// captured this turn); an unowned neutral keeps it closed, except under
/// rules that open a canal whose land is all neutral (Advanced AAE
/// AAAE-54: the Turkish straits before Turkey is activated).
pub fn closed_canal<'g>(
    mover: &Mover<'g>,
    state: &GameState,
    a: SpaceId,
    b: SpaceId,
) -> Option<&'g str> {
    let game = mover.game;
    game.files()
        .board
        .canals
        .iter()
        .find(|canal| {
            let zones: Vec<Option<SpaceId>> =
                canal.sea_zones.iter().map(|z| game.space(z)).collect();
            zones.contains(&Some(a)) && zones.contains(&Some(b))
        })
        .filter(|canal| {
            let neutral_land = |land: &String| {
                game.space(land)
                    .is_some_and(|s| mover.neutral(state, s) && !impassable(mover, s))
            };
            !(mover.neutrals.neutral_canals_open && canal.controlled_by.iter().all(neutral_land))
        })
        .filter(|canal| {
            !canal.controlled_by.iter().all(|land| {
                game.space(land).is_some_and(|s| {
                    state.owner[s.0].is_some_and(|o| mover.friendly(o))
                        && !state.captured_this_turn.contains(&s)
                })
            })
        })
        .map(|canal| canal.name.as_str())
}

/// Fewest spaces an aircraft needs from `from` to `to` (neutrals avoided),
/// or `None` when it cannot get there at all.
pub fn air_distance(mover: &Mover, state: &GameState, from: SpaceId, to: SpaceId) -> Option<usize> {
    bfs(mover, from, |s| {
        !impassable(mover, s) && !mover.neutral_closed_to_air(state, s)
    })
    .get(to.0)
    .copied()
    .flatten()
}

/// Fewest sea zones a ship needs from `from` to `to` without entering a zone
/// with enemy ships on the way (the destination may hold them) or a closed
/// canal, or `None`.
pub fn sea_distance(mover: &Mover, state: &GameState, from: SpaceId, to: SpaceId) -> Option<usize> {
    let game = mover.game;
    let mut dist: Vec<Option<usize>> = vec![None; game.space_count()];
    dist[from.0] = Some(0);
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        if here == to {
            break;
        }
        if here != from && mover.enemy_ships(state, here) > 0 {
            continue;
        }
        let d = dist[here.0].expect("queued with a distance");
        for &next in game.neighbours(here) {
            if game.is_sea(next)
                && dist[next.0].is_none()
                && closed_canal(mover, state, here, next).is_none()
                && game
                    .rule_set()
                    .sea_passage_closed(game, here, next)
                    .is_none()
            {
                dist[next.0] = Some(d + 1);
                queue.push_back(next);
            }
        }
    }
    dist[to.0]
}

/// Breadth-first distances from `from` through spaces that `pass` allows.
pub fn bfs(mover: &Mover, from: SpaceId, pass: impl Fn(SpaceId) -> bool) -> Vec<Option<usize>> {
    let game = mover.game;
    let mut dist: Vec<Option<usize>> = vec![None; game.space_count()];
    dist[from.0] = Some(0);
    let mut queue = VecDeque::from([from]);
    while let Some(here) = queue.pop_front() {
        let d = dist[here.0].expect("queued with a distance");
        for &next in game.neighbours(here) {
            if dist[next.0].is_none() && pass(next) {
                dist[next.0] = Some(d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Most neighbours listed in an error; a space with more gets none listed.
const MAX_LISTED: usize = 10;

/// `; from Norway, the next space may be Finland, Sweden`: the spaces beside
/// `from` that units of `kind` (land, sea; `None`: aircraft) may enter, when
/// there are few enough to list; empty otherwise.
pub(crate) fn borders_hint(mover: &Mover, from: SpaceId, kind: Option<UnitKind>) -> String {
    let game = mover.game;
    let names: Vec<&str> = game
        .neighbours(from)
        .iter()
        .copied()
        .filter(|&n| match kind {
            Some(UnitKind::Land) => !game.is_sea(n),
            Some(UnitKind::Sea) => game.is_sea(n),
            _ => true,
        })
        .map(|n| mover.sname(n))
        .collect();
    if names.is_empty() || names.len() > MAX_LISTED {
        return String::new();
    }
    format!(
        "; from {}, the next space may be {}",
        mover.sname(from),
        names.join(", ")
    )
}
