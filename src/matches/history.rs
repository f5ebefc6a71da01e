//! A match's past, read from its log without opening it for writing: the
//! state after any adjudication entry, for reports that re-render exactly
//! (`adjutant report`, the daemon's turn reports).

use std::fs;
use std::path::Path;

use crate::log::chain::for_each_line;
use crate::log::{Chain, Entry, Genesis, parse_line};
use crate::rules::GameDef;
use crate::rules::state::GameState;

use super::MatchError;

/// Every entry of a match's log, checked as `adjutant verify` checks the
/// chain (hashes, turns, digests, reveals).
pub fn read_log(dir: &Path) -> Result<Vec<Entry>, MatchError> {
    read_entries(&dir.join("log.jsonl"))
}

/// [`read_log`] for a log file by its path.
pub(crate) fn read_entries(path: &Path) -> Result<Vec<Entry>, MatchError> {
    let data = fs::read(path).map_err(|source| MatchError::Io {
        path: path.to_owned(),
        source,
    })?;
    let mut chain = Chain::new();
    let mut entries = Vec::new();
    for_each_line(&data, |seq, offset, line| {
        let err = |reason: String| crate::log::VerifyError {
            seq,
            offset,
            reason,
        };
        let e = parse_line(line).map_err(|e| err(e.to_string()))?;
        chain.apply(&e).map_err(err)?;
        entries.push(e);
        Ok(())
    })
    .map_err(|e| MatchError::Replay {
        seq: e.seq,
        reason: e.reason,
    })?;
    Ok(entries)
}

/// The genesis entry of the log in `dir`, from its first line alone (a
/// league's logs are long, and finding the matches of a data directory
/// needs only their ids); `None` for a directory without a readable one.
pub fn genesis_of(dir: &Path) -> Option<Genesis> {
    let file = fs::File::open(dir.join("log.jsonl")).ok()?;
    let mut first = Vec::new();
    std::io::BufRead::read_until(&mut std::io::BufReader::new(file), b'\n', &mut first).ok()?;
    let first = first.strip_suffix(b"\n").unwrap_or(&first);
    match parse_line(first).ok()?.body {
        crate::log::Body::Genesis(g) => Some(g),
        _ => None,
    }
}

/// The match's copy of its game, checked against the genesis entry.
pub fn game_of(dir: &Path, genesis: &Genesis) -> Result<GameDef, MatchError> {
    super::game_match::match_game(dir, genesis)
}

/// The state right after entry `seq` of `entries`, by replaying every
/// accepted message up to it through the engine with the dice its turn's
/// revealed secret gives; each recorded die and state digest is checked on
/// the way (from the last position this process already replayed and
/// checked, when there is one).
pub fn state_at(game: &GameDef, entries: &[Entry], seq: u64) -> Result<GameState, MatchError> {
    super::game_match::replay_entries(game, entries, seq, super::game_match::Memo::Use)
        .map(|(state, _, _)| state)
}
