//! The games built into the binary: the definitions of `games/` as they were
//! when the program was compiled, so an installed `adjutant` needs no data
//! directory. `--games DIR` names a directory of games instead (a game of
//! one's own, or an edited copy).

use std::path::{Path, PathBuf};

use super::{GameDef, GameSources, LoadError, load_dir, load_sources};

/// One built-in game: its id and its four files (name, text).
#[derive(Debug, Clone, Copy)]
pub struct BuiltinGame {
    /// The game id, as in `games/<id>/`.
    pub id: &'static str,
    /// `game.yaml`, `board.yaml`, `units.yaml`, `setup.yaml`.
    pub files: [(&'static str, &'static str); 4],
}

macro_rules! builtin {
    ($id:literal) => {
        BuiltinGame {
            id: $id,
            files: [
                (
                    "board.yaml",
                    include_str!(concat!("../../games/", $id, "/board.yaml")),
                ),
                (
                    "game.yaml",
                    include_str!(concat!("../../games/", $id, "/game.yaml")),
                ),
                (
                    "setup.yaml",
                    include_str!(concat!("../../games/", $id, "/setup.yaml")),
                ),
                (
                    "units.yaml",
                    include_str!(concat!("../../games/", $id, "/units.yaml")),
                ),
            ],
        }
    };
}

/// Every game of `games/`, built in (a test checks that none is missing).
pub const GAMES: [BuiltinGame; 6] = [
    builtin!("aae"),
    builtin!("aae-jboulton"),
    builtin!("advanced-aae"),
    builtin!("anniversary-1941"),
    builtin!("anniversary-1942"),
    builtin!("classic"),
];

/// The built-in game `id`, if there is one.
pub fn builtin(id: &str) -> Option<&'static BuiltinGame> {
    GAMES.iter().find(|g| g.id == id)
}

/// The ids of the built-in games, for messages: `aae, anniversary-1941, ...`.
pub fn builtin_ids() -> String {
    GAMES.iter().map(|g| g.id).collect::<Vec<_>>().join(", ")
}

/// Where a command finds its games: built in (the default), or the
/// directory given with `--games`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameSource {
    /// The games compiled into the binary.
    Builtin,
    /// `DIR/<id>/` for each game (`--games DIR`).
    Dir(PathBuf),
}

/// A game definition with the exact bytes of its files (sorted by name),
/// which a match copies and hashes.
pub struct LoadedGame {
    /// The checked definition.
    pub def: GameDef,
    /// Its files: name and bytes.
    pub files: Vec<(String, Vec<u8>)>,
}

impl GameSource {
    /// `--games DIR` when given, else the built-in games.
    pub fn from_flag(dir: Option<&Path>) -> GameSource {
        match dir {
            Some(d) => GameSource::Dir(d.to_owned()),
            None => GameSource::Builtin,
        }
    }

    /// Loads game `id`. The error says where it was looked for and what to
    /// do: the built-in ids, or the `--games` flag and the layout it needs.
    pub fn load(&self, id: &str) -> Result<LoadedGame, String> {
        match self {
            GameSource::Builtin => {
                let Some(g) = builtin(id) else {
                    return Err(format!(
                        "\"{id}\" is not a built-in game (they are: {}); for a game of your own, give the directory that holds it with --games DIR (it reads DIR/{id}/game.yaml and the other files)",
                        builtin_ids()
                    ));
                };
                let [board, game, setup, units] = g.files.map(|(_, text)| text);
                let def = load_sources(GameSources {
                    game,
                    board,
                    units,
                    setup,
                })
                .map_err(|e| format!("the built-in game {id} is not valid: {e}"))?;
                Ok(LoadedGame {
                    def,
                    files: g
                        .files
                        .iter()
                        .map(|(n, t)| ((*n).to_owned(), t.as_bytes().to_vec()))
                        .collect(),
                })
            }
            GameSource::Dir(dir) => {
                let game_dir = dir.join(id);
                let def = load_dir(&game_dir).map_err(|e| match e {
                    LoadError::Io { path, source } => format!(
                        "cannot read {} ({source}): --games {} names the directory holding the games, each in DIR/<id>/ (game.yaml, board.yaml, units.yaml, setup.yaml); without --games the built-in games are used ({})",
                        path.display(),
                        dir.display(),
                        builtin_ids()
                    ),
                    other => format!("game {id} in {}: {other}", game_dir.display()),
                })?;
                let files = read_files(&game_dir)
                    .map_err(|e| format!("cannot read {}: {e}", game_dir.display()))?;
                Ok(LoadedGame { def, files })
            }
        }
    }
}

/// The regular files of a game directory, sorted by name.
pub fn read_files(dir: &Path) -> std::io::Result<Vec<(String, Vec<u8>)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if path.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.push((name, std::fs::read(&path)?));
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every game of `games/` is built in and loads, on disk and built in
    /// alike.
    #[test]
    fn every_game_directory_is_built_in_and_loads() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let mut on_disk: Vec<String> = std::fs::read_dir(&root)
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.path().join("game.yaml").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        on_disk.sort();
        for id in &on_disk {
            load_dir(&root.join(id)).unwrap_or_else(|e| panic!("games/{id}: {e}"));
        }
        let built: Vec<&str> = GAMES.iter().map(|g| g.id).collect();
        assert_eq!(on_disk, built, "add the new game to rules::builtin::GAMES");
        for g in GAMES {
            let loaded = GameSource::Builtin.load(g.id).unwrap();
            assert_eq!(loaded.def.id(), g.id);
            assert_eq!(loaded.files, read_files(&root.join(g.id)).unwrap());
        }
    }
}
