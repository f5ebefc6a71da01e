//! Reading a game definition: from YAML text in memory, or from a directory.
//!
//! Only [`load_dir`] touches the file system;
//! everything else works on strings, so tests and the mail daemon can build
//! games from memory.

use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;

use super::game::{GameDef, GameFiles};
use super::problem::{Problem, Problems, files};

/// The YAML text of the four files of a game.
#[derive(Debug, Clone, Copy)]
pub struct GameSources<'a> {
    /// `game.yaml`.
    pub game: &'a str,
    /// `board.yaml`.
    pub board: &'a str,
    /// `units.yaml`.
    pub units: &'a str,
    /// `setup.yaml`.
    pub setup: &'a str,
}

/// Why a game could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// The files were read but are not a valid game; every problem found.
    #[error(transparent)]
    Invalid(#[from] Problems),
}

/// Upper bound on the size of one definition file. A board with a thousand
/// spaces is well under a megabyte; the limit keeps a hostile file (or a YAML
/// alias bomb, which serde-saphyr also budgets) from exhausting memory.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

fn parse<T: DeserializeOwned>(file: &str, text: &str, problems: &mut Vec<Problem>) -> Option<T> {
    match serde_saphyr::from_str::<T>(text) {
        Ok(value) => Some(value),
        Err(err) => {
            let location = err.location().map(|l| (l.line(), l.column()));
            let err = err.without_snippet();
            problems.push(Problem {
                file: file.to_owned(),
                path: String::new(),
                location,
                reason: err.to_string(),
            });
            None
        }
    }
}

/// Parses the four files and validates them together. Syntax problems of
/// all files are reported together; cross-file checks run once all parse.
pub fn load_sources(sources: GameSources<'_>) -> Result<GameDef, Problems> {
    let mut problems = Vec::new();
    let game = parse(files::GAME, sources.game, &mut problems);
    let board = parse(files::BOARD, sources.board, &mut problems);
    let units = parse(files::UNITS, sources.units, &mut problems);
    let setup = parse(files::SETUP, sources.setup, &mut problems);
    match (game, board, units, setup) {
        (Some(game), Some(board), Some(units), Some(setup)) if problems.is_empty() => {
            GameDef::new(GameFiles {
                game,
                board,
                units,
                setup,
            })
        }
        _ => Err(Problems(problems)),
    }
}

/// Reads `game.yaml`, `board.yaml`, `units.yaml` and `setup.yaml` from `dir`
/// and validates them. The game id in `game.yaml` must equal the directory
/// name, so a match log's game id always names its directory.
pub fn load_dir(dir: &Path) -> Result<GameDef, LoadError> {
    let read = |name: &str| -> Result<String, LoadError> {
        let path = dir.join(name);
        let io = |source| LoadError::Io {
            path: path.clone(),
            source,
        };
        let size = std::fs::metadata(&path).map_err(io)?.len();
        if size > MAX_FILE_BYTES {
            return Err(LoadError::Invalid(Problems(vec![Problem::at(
                name,
                "",
                format!("file is {size} bytes; the limit is {MAX_FILE_BYTES}"),
            )])));
        }
        std::fs::read_to_string(&path).map_err(io)
    };
    let game = read(files::GAME)?;
    let board = read(files::BOARD)?;
    let units = read(files::UNITS)?;
    let setup = read(files::SETUP)?;
    let def = load_sources(GameSources {
        game: &game,
        board: &board,
        units: &units,
        setup: &setup,
    })?;
    if let Some(dir_name) = dir.file_name().and_then(|n| n.to_str())
        && dir_name != def.id()
    {
        return Err(LoadError::Invalid(Problems(vec![Problem::at(
            files::GAME,
            "id",
            format!(
                "game id \"{}\" differs from its directory name \"{dir_name}\"",
                def.id()
            ),
        )])));
    }
    Ok(def)
}
