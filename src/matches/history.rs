//! A match's past, read from its log without opening it for writing: the
//! state after any adjudication entry, for reports that re-render exactly
//! (`adjutant report`, the daemon's turn reports).

use std::fs;
use std::path::Path;

use crate::dice::{Dice, Digest32};
use crate::log::chain::for_each_line;
use crate::log::{Body, Chain, Entry, Genesis, parse_line};
use crate::rules::orders::parse::parse_message;
use crate::rules::state::{GameState, Phase};
use crate::rules::turn::{apply_orders, apply_orders_with_dice, is_standing_only};
use crate::rules::{GameDef, load_dir};

use super::{MatchError, game_hash, state_digest};

/// Every entry of a match's log, checked as `adjutant verify` checks the
/// chain (hashes, turns, digests, reveals).
pub fn read_log(dir: &Path) -> Result<Vec<Entry>, MatchError> {
    let path = dir.join("log.jsonl");
    let data = fs::read(&path).map_err(|source| MatchError::Io {
        path: path.clone(),
        source,
    })?;
    let mut chain = Chain::new();
    let mut entries = Vec::new();
    let mut failure = None;
    let read = for_each_line(&data, |seq, _, line| {
        if failure.is_some() {
            return Ok(());
        }
        match parse_line(line) {
            Ok(e) => match chain.apply(&e) {
                Ok(()) => entries.push(e),
                Err(reason) => failure = Some(MatchError::Replay { seq, reason }),
            },
            Err(e) => {
                failure = Some(MatchError::Replay {
                    seq,
                    reason: e.to_string(),
                })
            }
        }
        Ok(())
    });
    if let Some(f) = failure {
        return Err(f);
    }
    read.map_err(|e| MatchError::Replay {
        seq: e.seq,
        reason: e.reason,
    })?;
    Ok(entries)
}

/// The match's copy of its game, checked against the genesis entry.
pub fn game_of(dir: &Path, genesis: &Genesis) -> Result<GameDef, MatchError> {
    let id = genesis
        .game
        .as_deref()
        .ok_or_else(|| MatchError::Invalid("the log's genesis names no game".into()))?;
    let game_dir = dir.join("games").join(id);
    let game = load_dir(&game_dir)
        .map_err(|e| MatchError::Invalid(format!("{}: {e}", game_dir.display())))?;
    let mut files = Vec::new();
    let io = |source, path: &Path| MatchError::Io {
        path: path.to_owned(),
        source,
    };
    for entry in fs::read_dir(&game_dir).map_err(|e| io(e, &game_dir))? {
        let path = entry.map_err(|e| io(e, &game_dir))?.path();
        if path.is_file() {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            files.push((
                name.into_owned(),
                fs::read(&path).map_err(|e| io(e, &path))?,
            ));
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    let hash: Digest32 = game_hash(&files);
    if genesis.game_hash != Some(hash) {
        return Err(MatchError::Invalid(format!(
            "{}: the game data is not what the match was created with",
            game_dir.display()
        )));
    }
    Ok(game)
}

/// The state right after entry `seq` of `entries`, by replaying every
/// accepted message up to it through the engine with the dice its turn's
/// revealed secret gives; each adjudication's recorded state digest is
/// checked on the way.
pub fn state_at(game: &GameDef, entries: &[Entry], seq: u64) -> Result<GameState, MatchError> {
    let mut state = GameState::initial(game);
    let mut chain = Chain::new();
    let mut pending = None;
    for entry in entries.iter().take_while(|e| e.seq <= seq) {
        chain.apply(entry).map_err(|reason| MatchError::Replay {
            seq: entry.seq,
            reason,
        })?;
        let fail = |reason: String| MatchError::Replay {
            seq: entry.seq,
            reason,
        };
        match &entry.body {
            Body::Order(o) => {
                let power = game
                    .power(&o.power)
                    .ok_or_else(|| fail(format!("unknown power {}", o.power)))?;
                let m = parse_message(game, &o.canonical)
                    .map_err(|_| fail("the logged orders do not parse".into()))?;
                pending = Some((power, m.orders));
            }
            Body::Adjudication(a) => {
                let (power, orders) = pending
                    .take()
                    .ok_or_else(|| fail("an adjudication without its orders".into()))?;
                let stage1 = !is_standing_only(&orders) && state.phase == Phase::Purchase;
                let key = chain.open_turn().and_then(|(_, k)| k);
                let next = match key {
                    Some(key) if stage1 => {
                        let mut dice = Dice::verifiable(key);
                        apply_orders_with_dice(game, &state, power, &orders, &mut dice)
                            .map(|(s, _)| s)
                    }
                    _ => apply_orders(game, &state, power, &orders).map(|(s, _)| s),
                }
                .map_err(|_| fail("the logged orders are rejected on replay".into()))?;
                if state_digest(&next) != a.state {
                    return Err(fail(
                        "replaying gives a different state than recorded".into(),
                    ));
                }
                state = next;
            }
            _ => {}
        }
    }
    Ok(state)
}
