//! Import of TripleA game XML (`adjutant import-triplea`).
//!
//! [`import`] is pure: XML text in, a validated game definition and its YAML
//! out. [`Imported::write_to`] is the only function here that writes files.
//! What the importer maps and why is written down in `docs/games.md`.

use std::path::{Path, PathBuf};

use crate::import::yaml;
use crate::rules::{GameDef, GameSources, Problems, load_sources};

pub mod convert;
pub mod xml;

/// Why a TripleA file could not be imported.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// Not well-formed XML.
    #[error("not well-formed XML: {0}")]
    Xml(String),
    /// Well-formed, but not what a TripleA game file contains.
    #[error("unexpected TripleA content in <{element}>: {reason}")]
    Format {
        /// The element at fault.
        element: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The converted game does not validate (a map with inconsistent data).
    #[error("the imported game does not validate: {0}")]
    Invalid(#[from] Problems),
    /// Writing the output failed.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}

/// An imported game: its YAML files, validated, and what the importer did.
#[derive(Debug)]
pub struct Imported {
    /// The validated game.
    pub game: GameDef,
    /// What the importer changed or left out, one sentence each.
    pub notes: Vec<String>,
    /// `(file name, contents)` for game.yaml, board.yaml, units.yaml, setup.yaml.
    pub files: Vec<(&'static str, String)>,
}

/// Imports TripleA XML text as game `id`. `source` names the input in the
/// header comments. The output is parsed back and validated before it is
/// returned, so what gets written always loads.
pub fn import(text: &str, id: &str, source: &str) -> Result<Imported, ImportError> {
    let parsed = xml::parse(text)?;
    let converted = convert::convert(&parsed, id, source);
    let header = yaml::comment(&format!(
        "Imported by `adjutant import-triplea` from TripleA's \"{}\" ({source}).\n\
         Facts derived from the XML; correct by hand where the rulebook differs, and say so here.\n\
         Importer notes:\n{}",
        parsed.name,
        converted
            .notes
            .iter()
            .map(|n| format!("- {n}"))
            .collect::<Vec<_>>()
            .join("\n")
    ));
    let f = &converted.files;
    let files = vec![
        ("game.yaml", format!("{header}\n{}", yaml::game_yaml(f))),
        ("board.yaml", format!("{header}\n{}", yaml::board_yaml(f))),
        ("units.yaml", format!("{header}\n{}", yaml::units_yaml(f))),
        ("setup.yaml", format!("{header}\n{}", yaml::setup_yaml(f))),
    ];
    let game = load_sources(GameSources {
        game: &files[0].1,
        board: &files[1].1,
        units: &files[2].1,
        setup: &files[3].1,
    })?;
    Ok(Imported {
        game,
        notes: converted.notes,
        files,
    })
}

impl Imported {
    /// Writes the four files into `dir`, creating it if needed. Existing
    /// files are overwritten.
    pub fn write_to(&self, dir: &Path) -> Result<(), ImportError> {
        std::fs::create_dir_all(dir).map_err(|source| ImportError::Io {
            path: dir.to_owned(),
            source,
        })?;
        for (name, text) in &self.files {
            let path = dir.join(name);
            std::fs::write(&path, text).map_err(|source| ImportError::Io { path, source })?;
        }
        Ok(())
    }
}
