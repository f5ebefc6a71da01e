//! Log reading and verification: `log::verify_bytes` over a whole log and
//! `log::parse_line` on each of its lines.
//!
//! The first byte chooses a mode. Bit 0 "reseals" the log before it is read:
//! each line's hash suffix is recomputed and its `prev` set to the hash of
//! the line before, so mutations get past the SHA-256 checks and reach the
//! chain's rules (sequence, turns, digests, reveals, dice). Without it the
//! bytes are read as they are. Bit 1 allows fixed (scripted) dice, which the
//! logs written by tests use.
//!
//! Properties: nothing panics; an accepted log verifies again to the same
//! summary; encoding its parsed entries again with `encode_line` (what the
//! writer does) gives a log that verifies to the same summary but for the
//! head, since the hashes cover the exact bytes.
#![no_main]

use adjutant::dice::Digest32;
use adjutant::log::{VerifyOptions, encode_line, parse_line, verify_bytes};
use libfuzzer_sys::fuzz_target;

const SUFFIX_LEN: usize = 75; // ,"hash":"<64 hex>"}
const PREV_KEY: &[u8] = b"\"prev\":\"";

/// Each line with its hash recomputed and chained to the line before.
fn reseal(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len() + SUFFIX_LEN);
    let mut prev: Option<Digest32> = None;
    let mut lines = data.split(|&b| b == b'\n').peekable();
    while let Some(line) = lines.next() {
        if lines.peek().is_none() {
            // After the last newline: a torn tail (or nothing), kept as is.
            out.extend_from_slice(line);
            break;
        }
        let mut p = match line.len().checked_sub(SUFFIX_LEN) {
            Some(n) if line[n..].starts_with(b",\"hash\":\"") => line[..n].to_vec(),
            _ => line.strip_suffix(b"}").unwrap_or(line).to_vec(),
        };
        if let Some(h) = prev
            && let Some(at) = p.windows(PREV_KEY.len()).position(|w| w == PREV_KEY)
            && p.len() >= at + PREV_KEY.len() + 64
        {
            let start = at + PREV_KEY.len();
            p[start..start + 64].copy_from_slice(h.to_hex().as_bytes());
        }
        let hash = Digest32::sha256(&p);
        out.extend_from_slice(&p);
        out.extend_from_slice(b",\"hash\":\"");
        out.extend_from_slice(hash.to_hex().as_bytes());
        out.extend_from_slice(b"\"}\n");
        prev = Some(hash);
    }
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let log = if mode & 1 == 1 {
        reseal(rest)
    } else {
        rest.to_vec()
    };
    let opts = VerifyOptions {
        allow_fixed_dice: mode & 2 == 2,
        head: None,
    };
    let Ok(summary) = verify_bytes(&log, &opts) else {
        return;
    };
    assert_eq!(
        verify_bytes(&log, &opts),
        Ok(summary.clone()),
        "not deterministic"
    );

    let mut again = Vec::with_capacity(log.len());
    let mut prev = Digest32([0; 32]);
    for line in log.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let entry = parse_line(line).expect("a line of an accepted log parses");
        let (text, hash) = encode_line(entry.seq, &prev, &entry.time, &entry.body);
        again.extend_from_slice(text.as_bytes());
        again.push(b'\n');
        prev = hash;
    }
    let reencoded = verify_bytes(&again, &opts).unwrap_or_else(|e| {
        panic!(
            "the accepted log, encoded again, is refused: {e}\n{}",
            String::from_utf8_lossy(&again)
        )
    });
    assert_eq!(
        adjutant::log::Summary {
            head: summary.head,
            ..reencoded
        },
        summary,
        "the log encoded again verifies to another summary"
    );
});
