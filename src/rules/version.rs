//! The rules version: which adjudications this engine gives. A match's log
//! records the version of the engine that started it (`rules_version` in
//! the genesis entry), so that a log outlives the program: every change
//! that alters an adjudication or the canonical state text
//! ([`state_text`](crate::rules::state_text)) raises [`RULES_VERSION`], and
//! the engine keeps replaying every version from [`OLDEST_REPLAYED`] on, or
//! `adjutant verify` says which version wrote the log and which it replays,
//! while still checking the chain and every die.
//!
//! The versions:
//! 1. 2026-11-27: the first version recorded. Logs written before this one
//!    record none and are replayed as version 1 (they replay today).
//! 2. 2026-11-28: the canonical state text `adjutant-state/2`, which writes
//!    every fact of every position, `-` or 0 for none, where version 1
//!    left out the facts added after it unless they held (so that an
//!    auditor reading a position never has to ask whether a missing line
//!    means "none" or "not known to the engine that wrote it"). The
//!    adjudications are version 1's; only the digests differ. Version 1's
//!    encoder is kept ([`crate::rules::state_text::encode_v1`]), so that
//!    every log it wrote still replays (`tests/fixtures/matches/
//!    aae-rules-version-1/`), and an organiser's `upgrade` carries such a
//!    match across, recording the position's digest under both.

/// The version of the rules this engine adjudicates by.
pub const RULES_VERSION: u32 = 2;

/// The oldest version this engine still replays.
pub const OLDEST_REPLAYED: u32 = 1;

// The versions replayed are a range ending at the current one.
const _: () = assert!(OLDEST_REPLAYED <= RULES_VERSION);

/// The version a log was written by: its genesis's, or 1 for a log from
/// before versions were recorded.
pub fn of_log(recorded: Option<u32>) -> u32 {
    recorded.unwrap_or(1)
}

/// Why this engine cannot replay a log written by rules version `v`, in the
/// words `adjutant verify` prints; `None` when it can.
pub fn cannot_replay(v: u32) -> Option<String> {
    (!(OLDEST_REPLAYED..=RULES_VERSION).contains(&v)).then(|| {
        format!(
            "written by rules version {v}; this program replays {}",
            replayed()
        )
    })
}

/// The versions this program replays, in words: `versions 1..2`, or
/// `version 2 only`.
pub fn replayed() -> String {
    if OLDEST_REPLAYED == RULES_VERSION {
        format!("version {RULES_VERSION} only")
    } else {
        format!("versions {OLDEST_REPLAYED}..{RULES_VERSION}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_versions_replayed_are_a_range_ending_at_the_current_one() {
        assert_eq!(cannot_replay(RULES_VERSION), None);
        assert_eq!(of_log(None), 1);
        let newer = cannot_replay(RULES_VERSION + 1).unwrap();
        assert!(
            newer.starts_with(&format!(
                "written by rules version {}; this program replays",
                RULES_VERSION + 1
            )),
            "{newer}"
        );
        assert!(cannot_replay(0).is_some());
    }
}
