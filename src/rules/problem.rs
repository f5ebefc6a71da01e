//! A problem found in a game definition: which file, where, and why.

use std::fmt;

/// One problem in a game definition. The loader collects every problem it
/// can find before giving up, so an organiser fixes a map in one pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file, relative to the game directory (`board.yaml`).
    pub file: String,
    /// The YAML path of the offending value (`territories[3].neighbours[1]`);
    /// empty when the problem concerns the whole file.
    pub path: String,
    /// Line and column (1-based) when the YAML parser knows them.
    pub location: Option<(u64, u64)>,
    /// What is wrong, in the game's words.
    pub reason: String,
}

impl Problem {
    /// A problem at a YAML path.
    pub fn at(file: &str, path: impl Into<String>, reason: impl Into<String>) -> Self {
        Problem {
            file: file.to_owned(),
            path: path.into(),
            location: None,
            reason: reason.into(),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.file)?;
        if let Some((line, column)) = self.location {
            write!(f, ":{line}:{column}")?;
        }
        if !self.path.is_empty() {
            write!(f, ": {}", self.path)?;
        }
        write!(f, ": {}", self.reason)
    }
}

/// Every problem found while loading a game definition.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} problem(s) in the game definition", self.0.len())?;
        for problem in &self.0 {
            write!(f, "\n  {problem}")?;
        }
        Ok(())
    }
}

/// File names of a game directory, used in problem reports.
pub mod files {
    /// Identity, powers, sides, turn order, options.
    pub const GAME: &str = "game.yaml";
    /// Territories, sea zones, canals.
    pub const BOARD: &str = "board.yaml";
    /// Unit types.
    pub const UNITS: &str = "units.yaml";
    /// Starting position.
    pub const SETUP: &str = "setup.yaml";
}
