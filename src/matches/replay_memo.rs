//! Positions already replayed in this process, by the hash of the
//! adjudication entry they follow.
//!
//! Opening a match replays its whole log through the engine, and the daemon
//! opens a match several times per message; in a long game each replay
//! re-fights hundreds of battles. An entry's hash covers every entry before
//! it (the log is hash-chained, and the genesis fixes the game data), so the
//! position after an adjudication entry is a function of that hash: a
//! replay may start from a remembered position instead of from the setup.
//! The log is still read and its chain checked in full on every open.
//! `adjutant verify` never uses the memo: it re-derives everything.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use crate::dice::Digest32;
use crate::rules::state::GameState;

/// Most positions kept (a few KB each). When full, the memo starts over:
/// simpler than an LRU, and a miss only costs a full replay.
const CAPACITY: usize = 256;

fn memo() -> &'static Mutex<HashMap<Digest32, GameState>> {
    static MEMO: OnceLock<Mutex<HashMap<Digest32, GameState>>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Remembers the position right after the adjudication entry `hash`, whose
/// recorded state digest it matched.
pub(crate) fn remember(hash: Digest32, state: &GameState) {
    let mut m = memo().lock().unwrap_or_else(|p| p.into_inner());
    if m.len() >= CAPACITY && !m.contains_key(&hash) {
        m.clear();
    }
    m.insert(hash, state.clone());
}

/// The position right after the adjudication entry `hash`, if remembered.
pub(crate) fn recall(hash: &Digest32) -> Option<GameState> {
    let m = memo().lock().unwrap_or_else(|p| p.into_inner());
    m.get(hash).cloned()
}
