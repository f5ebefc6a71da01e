//! Neutral activation and conversion (AAAE-19, AAAE-20), overflight
//! (AAAE-21) and the Turkish straits (AAAE-22, AAAE-54); Switzerland and
//! Eire, off limits, are the board's impassable territories (AAAE-23).
//!
//! A neutral is violated when a combat move invades it, when aircraft fly
//! over it (option `neutral_overflight: activate`, the digest's PROPOSAL;
//! `forbid` refuses the flight instead, in `movement::path`), or when ships
//! pass a canal whose controlling land is neutral (the board's Turkish
//! Straits, controlled by Western Turkey; option `straits_both_ways`). At
//! the end of the move that violates it (the combat move, or for
//! non-combat flights and passages the non-combat move), neutral defenders
//! appear in it and in every neutral beside it or of the same nation (the
//! board's regions named `neutral nation ...`): 3 infantry and 1 fighter in
//! a neutral worth 2, 2 infantry in one worth 1, none in one worth 0. They
//! are at once units of one power of the defending side (below), which
//! controls those territories from then on: an
//! invaded one is fought for in the combat phase like any enemy territory
//! (its dice are the battle's labels), and stays that power's if the
//! invasion fails; one flown over or passed is not fought for. The digest
//! lets the defending side name the power (AAAE-19, 20 PROPOSAL): its powers
//! say so in their standing orders (`neutral_defenders: receive`), since the
//! violation comes in the enemy's message; the first in turn order after the
//! violator that asked receives them, and when none asked, the first of the
//! side in turn order after the violator.
//!
//! Every ship that passes the straits in the phase that activates them
//! passes (AAAE-54 PROPOSAL: the ship that triggers activation finishes its
//! move; activation comes at the end of the phase, as for an invasion, so
//! the others of that phase pass too); from then on the canal is open only
//! to the side that controls Western Turkey (AAE's canal rule).

use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::orders::NeutralDefenders;
use crate::rules::problem::{Problem, files};
use crate::rules::state::GameState;
use crate::rules::variants::{OptionKind, OptionSpec};
use crate::rules::vocab::PowerId;

/// AAAE-21: what flying over a neutral does.
pub const NEUTRAL_OVERFLIGHT: OptionSpec = OptionSpec {
    name: "neutral_overflight",
    pending: None,
    kind: OptionKind::Choice {
        default: "activate",
        choices: &["activate", "forbid"],
    },
    about: "AAAE-21 \"over-flights by any aircraft are considered to be a violation of \
            neutrality\": activate (digest PROPOSAL) activates the neutrals flown over as an \
            invasion does, at the end of the move that crossed them, with no battle; forbid \
            refuses any flight over a neutral",
};

/// AAAE-22: whether leaving the Black Sea through the straits activates
/// Turkey too.
pub const STRAITS_BOTH_WAYS: OptionSpec = OptionSpec {
    name: "straits_both_ways",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "AAAE-22, AAAE-54 (digest PROPOSAL: on): ships passing a canal whose land is \
            neutral (the Turkish Straits) activate it whichever way they pass; off, only \
            passing into the spaces of game.yaml's region black_sea does",
};

/// The region of `game.yaml` that ships enter \"into the Black Sea\" (read
/// only with `straits_both_ways` off).
const BLACK_SEA: &str = "black_sea";

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

/// The power of the side opposed to `invader` that receives the neutral
/// defenders (AAAE-19, 20: the defending side names it): the first in turn
/// order after the invader whose standing orders say `neutral_defenders:
/// receive`, or, when none does, the first in turn order after it.
fn receiver(game: &GameDef, state: &GameState, invader: PowerId) -> Option<PowerId> {
    let order = game.turn_order();
    let at = order.iter().position(|&p| p == invader)?;
    let defenders: Vec<PowerId> = (1..order.len())
        .map(|i| order[(at + i) % order.len()])
        .filter(|&p| game.side_of(p) != game.side_of(invader))
        .collect();
    let asked = |p: PowerId| {
        state
            .standing
            .get(p)
            .is_some_and(|s| s.neutral_defenders == NeutralDefenders::Receive)
    };
    defenders
        .iter()
        .copied()
        .find(|&p| asked(p))
        .or_else(|| defenders.first().copied())
}

/// How a neutral was violated, for the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Violation {
    /// Entered in the combat move (AAAE-19).
    Invaded,
    /// Flown over (AAAE-21).
    FlownOver,
    /// Its canal passed by ships (AAAE-22).
    StraitsPassed,
}

/// After `power`'s combat move: activates the neutrals it invades, flies
/// over and whose straits it passes.
pub(super) fn combat_move_ended(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let mut violated: Vec<(SpaceId, Violation)> = crate::rules::neutrals::being_taken(game, state)
        .into_iter()
        .filter(|&s| open_neutral(game, state, s))
        .map(|s| (s, Violation::Invaded))
        .collect();
    violated.extend(by_moves(game, state, power, events, true));
    activate(game, state, power, &violated, events);
}

/// After `power`'s non-combat move: activates the neutrals its aircraft
/// flew over and whose straits its ships passed.
pub(super) fn noncombat_move_ended(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let violated = by_moves(game, state, power, events, false);
    activate(game, state, power, &violated, events);
}

/// The neutrals the moves of this phase (`power`'s `Moved` events of the
/// combat or non-combat move) flew over or passed by canal.
fn by_moves(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    events: &[Event],
    combat: bool,
) -> Vec<(SpaceId, Violation)> {
    let overflight = NEUTRAL_OVERFLIGHT.word(game).as_deref() != Some("forbid");
    let both_ways = STRAITS_BOTH_WAYS.on(game);
    let inward = game.region(BLACK_SEA).unwrap_or_default();
    let types = game.unit_types();
    let mut out = Vec::new();
    for event in events {
        let Event::Moved {
            power: p,
            units,
            path,
            combat: c,
        } = event
        else {
            continue;
        };
        if *p != power || *c != combat {
            continue;
        }
        let has = |kind| units.iter().any(|u| types[u.unit].kind == Some(kind));
        if overflight && has(UnitKind::Air) && path.len() > 2 {
            for &s in &path[1..path.len() - 1] {
                if open_neutral(game, state, s) {
                    out.push((s, Violation::FlownOver));
                }
            }
        }
        if has(UnitKind::Sea) {
            for pair in path.windows(2) {
                if !both_ways && !inward.contains(&pair[1]) {
                    continue;
                }
                for land in neutral_canal(game, state, pair[0], pair[1]) {
                    out.push((land, Violation::StraitsPassed));
                }
            }
        }
    }
    out
}

/// The land of the canal between sea zones `a` and `b` when all of it is
/// neutral; empty otherwise.
fn neutral_canal(game: &GameDef, state: &GameState, a: SpaceId, b: SpaceId) -> Vec<SpaceId> {
    for canal in &game.files().board.canals {
        let zones: Vec<Option<SpaceId>> = canal.sea_zones.iter().map(|z| game.space(z)).collect();
        if !(zones.contains(&Some(a)) && zones.contains(&Some(b))) {
            continue;
        }
        let land: Vec<Option<SpaceId>> =
            canal.controlled_by.iter().map(|t| game.space(t)).collect();
        if land
            .iter()
            .all(|s| s.is_some_and(|s| open_neutral(game, state, s)))
        {
            return land.into_iter().flatten().collect();
        }
    }
    Vec::new()
}

/// Activates the neutrals `power` violated, with their neighbours and
/// nations.
fn activate(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    violated: &[(SpaceId, Violation)],
    events: &mut Vec<Event>,
) {
    if violated.is_empty() {
        return;
    }
    let Some(to) = receiver(game, state, power) else {
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
    for &(s, _) in violated {
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
        // The gravest violation of a space names it: invaded, then flown
        // over, then passed.
        let how = [
            (Violation::Invaded, "invaded"),
            (Violation::FlownOver, "flown over (AAAE-21)"),
            (
                Violation::StraitsPassed,
                "violated by ships passing its straits (AAAE-22)",
            ),
        ]
        .into_iter()
        .find(|(v, _)| violated.contains(&(s, *v)))
        .map_or("activated", |(_, word)| word);
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

/// The defenders' unit types must exist; with `straits_both_ways` off,
/// the region `black_sea` names the waters the straits lead into.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    let mut problems: Vec<Problem> = ["infantry", "fighter"]
        .into_iter()
        .filter(|w| game.unit_type(w).is_none())
        .map(|w| {
            Problem::at(
                files::UNITS,
                "units".to_owned(),
                format!(
                    "neutral defenders are {w} among others (AAAE-19), and no unit type is \
                     called so (name or alias)"
                ),
            )
        })
        .collect();
    let black_sea_ok = game
        .region(BLACK_SEA)
        .is_some_and(|r| !r.is_empty() && r.iter().all(|&s| game.is_sea(s)));
    if !STRAITS_BOTH_WAYS.on(game) && !black_sea_ok {
        problems.push(Problem::at(
            files::GAME,
            format!("regions.{BLACK_SEA}"),
            "with option straits_both_ways off only ships passing the straits into the Black \
             Sea activate Turkey (AAAE-22): name its sea zones in the region black_sea"
                .to_owned(),
        ));
    }
    problems
}
