//! `adjutant map`: the board as a picture, SVG or PNG by the output's
//! extension (`src/report/map/`).

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::report::map::own::read_geometry;
use crate::report::map::{MapView, Shapes, match_position, render_svg};
use crate::rules::builtin::GameSource;
use crate::rules::state::GameState;

/// Arguments of `adjutant map`.
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["dir", "game"])))]
pub struct MapArgs {
    /// A match directory: its board after the last adjudication (or
    /// `--entry`), with what that message changed highlighted.
    #[arg(long = "match")]
    dir: Option<PathBuf>,
    /// A game id: its starting position.
    #[arg(long)]
    game: Option<String>,
    /// With --match: the adjudication entry to show (its sequence number).
    #[arg(long, requires = "dir")]
    entry: Option<u64>,
    /// A directory of games, each in DIR/<id>/: with --game, the game and
    /// its map; with --match, the map only (DIR/<id>/map/shapes.json, else
    /// the built-in one).
    #[arg(long, value_name = "DIR")]
    games: Option<PathBuf>,
    /// The organiser's own geometry, read now and never kept: an SVG with
    /// one id per territory, or a TripleA map folder (polygons.txt,
    /// centers.txt, place.txt). A match's `map.yaml` (`geometry: PATH`)
    /// gives it without this flag.
    #[arg(long, value_name = "PATH")]
    geometry: Option<PathBuf>,
    /// Where to write the map: FILE.svg or FILE.png.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: MapArgs) -> anyhow::Result<ExitCode> {
    let ext = args
        .out
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let png = match ext.as_deref() {
        Some("svg") => false,
        Some("png") => true,
        _ => anyhow::bail!("--out must name a .svg or .png file"),
    };
    let (game, state, view, shapes) = match (&args.dir, &args.game) {
        (Some(dir), _) => {
            let (game, state, view) = match_position(dir, args.entry)?;
            let shapes = match &args.geometry {
                Some(path) => read_geometry(path, &game)?,
                None => Shapes::for_match(dir, &game, args.games.as_deref())?,
            };
            (game, state, view, shapes)
        }
        (None, Some(id)) => {
            let game = GameSource::from_flag(args.games.as_deref())
                .load(id)
                .map_err(anyhow::Error::msg)?
                .def;
            let state = GameState::initial(&game);
            let shapes = match &args.geometry {
                Some(path) => read_geometry(path, &game)?,
                None => Shapes::for_game(id, args.games.as_deref())?,
            };
            (game, state, MapView::setup(), shapes)
        }
        (None, None) => anyhow::bail!("give --match DIR or --game ID"),
    };
    let bytes = if png {
        to_png(&game, &shapes, &state, &view)?
    } else {
        render_svg(&game, &shapes, &state, &view)?.into_bytes()
    };
    std::fs::write(&args.out, &bytes).with_context(|| format!("writing {}", args.out.display()))?;
    println!("{}: {} bytes", args.out.display(), bytes.len());
    Ok(ExitCode::SUCCESS)
}

#[cfg(feature = "png")]
fn to_png(
    game: &crate::rules::GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> anyhow::Result<Vec<u8>> {
    Ok(crate::report::map::png::render_png(
        game, shapes, state, view,
    )?)
}

#[cfg(not(feature = "png"))]
fn to_png(
    _game: &crate::rules::GameDef,
    _shapes: &Shapes,
    _state: &GameState,
    _view: &MapView,
) -> anyhow::Result<Vec<u8>> {
    anyhow::bail!("this adjutant was built without the feature `png`: write the map as .svg")
}
