//! The map of the board: a state drawn over the board's shapes as SVG
//! (`svg`), and as PNG with the bundled font (`png`, the cargo feature
//! `png`, on by default).
//!
//! The shapes are each board's own data, `games/<id>/map/shapes.json`,
//! derived once by `tools/map_shapes.py` from public-domain Natural Earth
//! countries and our own points (`games/<id>/map/definition.txt`). They are
//! not part of the game's rules: a match neither copies nor hashes them
//! (`game_files` reads only the files at the top of `games/<id>/`), and the
//! engine never sees them. The built-in boards' shapes are compiled in; a
//! `--games DIR` game brings its own in `DIR/<id>/map/shapes.json`.

use std::collections::BTreeSet;
use std::path::Path;

use serde::Deserialize;

use crate::log::{Body, Entry};
use crate::matches::MatchError;
use crate::matches::history::{game_of, read_log, state_at};
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::{GameDef, SpaceId};

pub mod own;
#[cfg(feature = "png")]
pub mod png;
pub mod svg;

pub use svg::render_svg;

/// Why a map could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// The game has no map.
    #[error(
        "game {0} has no map: its shapes are games/{0}/map/shapes.json, made by tools/map_shapes.py"
    )]
    NoMap(String),
    /// The shapes file could not be read.
    #[error("{path}: {reason}")]
    Read {
        /// The file.
        path: String,
        /// Why.
        reason: String,
    },
    /// The shapes do not fit the game.
    #[error("the map of {game} does not fit its board: {reason}")]
    Mismatch {
        /// The game id.
        game: String,
        /// Which spaces are missing or unknown.
        reason: String,
    },
    /// The SVG could not be turned into pixels.
    #[error("the map could not be drawn as PNG: {0}")]
    Png(String),
    /// The match could not be read.
    #[error(transparent)]
    Match(#[from] crate::matches::MatchError),
}

/// A board's shapes: `games/<id>/map/shapes.json`.
#[derive(Debug, Clone, Deserialize)]
pub struct Shapes {
    /// The map's title (the game it was made for).
    pub title: String,
    /// Where the geometry comes from, and its licence.
    pub provenance: String,
    /// The drawing's size in pixels.
    pub width: u32,
    /// The drawing's size in pixels.
    pub height: u32,
    /// Land that is no space of the board (SVG path data).
    pub background: String,
    /// Water that is no sea zone (lakes), SVG path data.
    pub water: String,
    /// Every space: its shape and where its label goes.
    pub spaces: Vec<SpaceShape>,
}

/// One space's shape.
#[derive(Debug, Clone, Deserialize)]
pub struct SpaceShape {
    /// The space's name, as in `board.yaml`.
    pub name: String,
    /// `land` or `sea`.
    pub kind: String,
    /// Where its label and units go.
    pub x: i32,
    /// Where its label and units go.
    pub y: i32,
    /// Its outline, SVG path data (empty for a space too small to draw:
    /// it is shown as a dot).
    pub d: String,
}

macro_rules! builtin_shapes {
    ($($id:literal),* $(,)?) => {
        /// The shapes of the built-in boards, by game id. A new board adds
        /// its line here once `games/<id>/map/shapes.json` exists (Classic,
        /// Advanced AAE, ...); `tests/map.rs` checks that every built-in
        /// game has one.
        const BUILTIN: &[(&str, &str)] = &[
            $(($id, include_str!(concat!("../../../games/", $id, "/map/shapes.json"))),)*
        ];
    };
}

builtin_shapes!(
    "aae",
    // J Boulton plays AAE's board: games/aae-jboulton/map links to games/aae/map.
    "aae-jboulton",
    "anniversary-1941",
    "anniversary-1942",
    "classic",
    "advanced-aae",
);

/// The ids of the games whose map is built in.
pub fn builtin_maps() -> impl Iterator<Item = &'static str> {
    BUILTIN.iter().map(|(id, _)| *id)
}

impl Shapes {
    /// The built-in shapes of game `id`.
    pub fn builtin(id: &str) -> Result<Shapes, MapError> {
        let (_, text) = BUILTIN
            .iter()
            .find(|(g, _)| *g == id)
            .ok_or_else(|| MapError::NoMap(id.to_owned()))?;
        Shapes::parse(text, &format!("games/{id}/map/shapes.json"))
    }

    /// The shapes in `DIR/<id>/map/shapes.json` (a game of `--games DIR`),
    /// else the built-in ones.
    pub fn for_game(id: &str, games_dir: Option<&Path>) -> Result<Shapes, MapError> {
        if let Some(dir) = games_dir {
            let path = dir.join(id).join("map").join("shapes.json");
            if path.is_file() {
                return Shapes::read(&path);
            }
        }
        Shapes::builtin(id)
    }

    /// The shapes a match draws with: the geometry its directory's
    /// `map.yaml` points at (`own`), else those of its game (`for_game`).
    pub fn for_match(
        dir: &Path,
        game: &GameDef,
        games_dir: Option<&Path>,
    ) -> Result<Shapes, MapError> {
        match own::match_geometry(dir)? {
            Some(path) => own::read_geometry(&path, game),
            None => Shapes::for_game(game.id(), games_dir),
        }
    }

    /// A shapes file.
    pub fn read(path: &Path) -> Result<Shapes, MapError> {
        let text = std::fs::read_to_string(path).map_err(|e| MapError::Read {
            path: path.display().to_string(),
            reason: e.to_string(),
        })?;
        Shapes::parse(&text, &path.display().to_string())
    }

    fn parse(text: &str, path: &str) -> Result<Shapes, MapError> {
        serde_json::from_str(text).map_err(|e| MapError::Read {
            path: path.to_owned(),
            reason: e.to_string(),
        })
    }

    /// Each space of the game with its shape, in the game's order; an error
    /// names every space that has no shape and every shape that is no space.
    pub fn fit<'a>(&'a self, game: &GameDef) -> Result<Vec<&'a SpaceShape>, MapError> {
        let mut out = Vec::with_capacity(game.space_count());
        let mut missing = Vec::new();
        for s in 0..game.space_count() {
            let id = SpaceId(s);
            let name = game.space_name(id);
            // Canals and straits are passages, not spaces with a shape.
            match self.spaces.iter().find(|sh| sh.name == name) {
                Some(sh) if (sh.kind == "sea") == game.is_sea(id) => out.push(sh),
                Some(sh) => missing.push(format!("{name} is drawn as {}", sh.kind)),
                None => missing.push(format!("no shape for {name}")),
            }
        }
        for sh in &self.spaces {
            if game.space(&sh.name).is_none() {
                missing.push(format!("{} is no space of the board", sh.name));
            }
        }
        if missing.is_empty() {
            Ok(out)
        } else {
            Err(MapError::Mismatch {
                game: game.id().to_owned(),
                reason: missing.join("; "),
            })
        }
    }
}

/// What to highlight: what changed in the turn shown.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Highlights {
    /// Territories and convoy zones that changed hands.
    pub captured: BTreeSet<SpaceId>,
    /// Where battles were fought or are pending.
    pub battles: BTreeSet<SpaceId>,
}

impl Highlights {
    /// From the engine's events.
    pub fn from_events(events: &[Event]) -> Highlights {
        let mut h = Highlights::default();
        for e in events {
            match e {
                Event::Captured { space, .. } => {
                    h.captured.insert(*space);
                }
                Event::BattlePending { space } | Event::BattleEnded { space, .. } => {
                    h.battles.insert(*space);
                }
                _ => {}
            }
        }
        h
    }

    /// From the events of an adjudication entry, as the log records them
    /// (`Event::describe`): `battle pending in SPACE`, `battle in SPACE over
    /// after ...`, `POWER captured SPACE` and `POWER liberated SPACE`.
    pub fn from_log(game: &GameDef, events: &[String]) -> Highlights {
        let mut h = Highlights::default();
        let spaces: Vec<(SpaceId, &str)> = (0..game.space_count())
            .map(|s| (SpaceId(s), game.space_name(SpaceId(s))))
            .collect();
        // The longest name that fits, so "Sea Zone 1" never wins over
        // "Sea Zone 12".
        let find = |text: &str| {
            spaces
                .iter()
                .filter(|(_, n)| text.starts_with(n))
                .max_by_key(|(_, n)| n.len())
                .map(|(id, _)| *id)
        };
        for e in events {
            if let Some(rest) = e.strip_prefix("battle pending in ") {
                h.battles.extend(find(rest));
            } else if let Some(rest) = e.strip_prefix("battle in ") {
                if let Some(id) = find(rest)
                    && rest[game.space_name(id).len()..].starts_with(" over after ")
                {
                    h.battles.insert(id);
                }
            } else {
                for word in [" captured ", " liberated "] {
                    if let Some((who, rest)) = e.split_once(word)
                        && game.power(who).is_some()
                        && let Some(id) = find(rest)
                    {
                        h.captured.insert(id);
                    }
                }
            }
        }
        h
    }
}

/// What the caption says and what is highlighted.
#[derive(Debug, Clone, Default)]
pub struct MapView {
    /// The line under the title: `round 3, after Germany's stage 1`.
    pub caption: String,
    /// What changed.
    pub highlights: Highlights,
}

impl MapView {
    /// The starting position of a game.
    pub fn setup() -> MapView {
        MapView {
            caption: "The starting position".to_owned(),
            highlights: Highlights::default(),
        }
    }

    /// The view after an adjudication entry of a log: its caption and what
    /// its message changed.
    pub fn after(game: &GameDef, entry: &Entry) -> MapView {
        match &entry.body {
            Body::Adjudication(a) => MapView {
                caption: format!(
                    "Round {}, after {}'s {} (log entry {})",
                    a.round,
                    a.power,
                    match a.stage {
                        0 => "standing orders".to_owned(),
                        n => format!("stage {n}"),
                    },
                    entry.seq
                ),
                highlights: Highlights::from_log(game, &a.events),
            },
            _ => MapView {
                caption: format!("After log entry {}", entry.seq),
                highlights: Highlights::default(),
            },
        }
    }
}

/// A match's board after adjudication entry `seq` (the last one when
/// `None`; the starting position before any), replayed from its log alone,
/// with its game and view.
pub fn match_position(
    dir: &Path,
    seq: Option<u64>,
) -> Result<(GameDef, GameState, MapView), MapError> {
    let entries = read_log(dir)?;
    let genesis = match entries.first().map(|e| &e.body) {
        Some(Body::Genesis(g)) => g.clone(),
        _ => return Err(MatchError::Invalid("the log has no genesis".into()).into()),
    };
    let game = game_of(dir, &genesis)?;
    let entry = match seq {
        Some(n) => {
            let e = n
                .checked_sub(1)
                .and_then(|i| entries.get(i as usize))
                .ok_or_else(|| MatchError::Invalid(format!("entry {n} is not in the log")))?;
            if !matches!(e.body, Body::Adjudication(_)) {
                return Err(MatchError::Invalid(format!(
                    "entry {n} is not an adjudication (see `adjutant log show`)"
                ))
                .into());
            }
            Some(e)
        }
        None => entries
            .iter()
            .rev()
            .find(|e| matches!(e.body, Body::Adjudication(_))),
    };
    match entry {
        Some(e) => {
            let state = state_at(&game, &entries, e.seq)?;
            let view = MapView::after(&game, e);
            Ok((game, state, view))
        }
        None => {
            let state = GameState::initial(&game);
            Ok((game, state, MapView::setup()))
        }
    }
}

/// The map of a match after adjudication entry `seq`, as PNG, derived from
/// the log alone (the same entry always gives the same picture): what a
/// turn-report mail carries (`mail::compose::compose_with_image`), drawn on
/// the match's own geometry when its directory `dir` has one (`own`).
#[cfg(feature = "png")]
pub fn adjudication_png(
    dir: &Path,
    game: &GameDef,
    entries: &[Entry],
    seq: u64,
) -> Result<Vec<u8>, MapError> {
    let entry = seq
        .checked_sub(1)
        .and_then(|i| entries.get(i as usize))
        .ok_or_else(|| MatchError::Invalid(format!("entry {seq} is not in the log")))?;
    let state = state_at(game, entries, seq)?;
    let view = MapView::after(game, entry);
    let shapes = Shapes::for_match(dir, game, None)?;
    png::render_png(game, &shapes, &state, &view)
}
