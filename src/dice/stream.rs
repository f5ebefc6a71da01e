//! A label's stream: ChaCha20 keystream words turned into unbiased dice.

use rand_chacha::ChaCha20Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::{DOMAIN_LABEL, Digest32, Label, TurnKey, put_str};

/// The largest number of sides a die may have.
pub const MAX_SIDES: u32 = 1 << 16;

/// The dice of one label in one turn.
///
/// Key: `SHA-256(str(DOMAIN_LABEL) || K_T || str(label))`. Stream: the RFC 8439
/// ChaCha20 keystream under that key with an all-zero 96-bit nonce and block
/// counter starting at 0, read as consecutive little-endian 32-bit words.
/// `rand_chacha`'s `ChaCha20Rng` produces exactly that stream for the first
/// 2^32 blocks (its 64-bit counter and stream id overlay the RFC's counter
/// and zero nonce); `tests::rfc8439_keystream` pins it.
#[derive(Clone)]
pub struct LabelStream {
    rng: ChaCha20Rng,
}

impl LabelStream {
    /// Opens the stream of `label` under the turn key.
    pub fn new(key: &TurnKey, label: &Label) -> Self {
        LabelStream::from_stream_key(Self::stream_key(key, label))
    }

    /// The 32-byte ChaCha20 key of a label's stream.
    pub fn stream_key(key: &TurnKey, label: &Label) -> Digest32 {
        let mut m = Vec::with_capacity(64 + label.as_str().len());
        put_str(&mut m, DOMAIN_LABEL);
        m.extend_from_slice(key.bytes());
        put_str(&mut m, label.as_str());
        Digest32::sha256(&m)
    }

    fn from_stream_key(k: Digest32) -> Self {
        LabelStream {
            rng: ChaCha20Rng::from_seed(k.0),
        }
    }

    /// The next die with `sides` faces, 1 to `sides`.
    ///
    /// Words at or above the largest multiple of `sides` below 2^32 are
    /// discarded, so every face is exactly equally likely.
    ///
    /// # Panics
    /// If `sides` is outside 2..=[`MAX_SIDES`]; callers validate first.
    pub fn roll(&mut self, sides: u32) -> u32 {
        assert!(
            (2..=MAX_SIDES).contains(&sides),
            "a die has 2 to {MAX_SIDES} sides, not {sides}"
        );
        let n = u64::from(sides);
        let zone = (1u64 << 32) - (1u64 << 32) % n;
        loop {
            let x = u64::from(self.rng.next_u32());
            if x < zone {
                return (x % n) as u32 + 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439 appendix A.1, test vector 1: all-zero key and nonce, counter 0.
    #[test]
    fn rfc8439_keystream() {
        let mut s = LabelStream::from_stream_key(Digest32([0; 32]));
        let expected: [u32; 4] = [0xade0b876, 0x903df1a0, 0xe56a5d40, 0x28bd8653];
        for e in expected {
            assert_eq!(s.rng.next_u32(), e);
        }
        // Block 1 (counter 1) of the same key, RFC 8439 A.1 test vector 2.
        let mut s = LabelStream::from_stream_key(Digest32([0; 32]));
        for _ in 0..16 {
            s.rng.next_u32();
        }
        assert_eq!(
            s.rng.next_u32(),
            u32::from_le_bytes([0x9f, 0x07, 0xe7, 0xbe])
        );
    }

    /// The smallest word that must be discarded: this label's first word
    /// (found by search) is exactly the zone of a d28901, so `w <= zone`
    /// instead of `w < zone` would show a 1 here.
    #[test]
    fn a_word_equal_to_the_zone_is_discarded() {
        let key = TurnKey(Digest32([0x42; 32]));
        let label = Label::new("vector/zone/391368").unwrap();
        let mut words = LabelStream::new(&key, &label);
        let (w0, w1) = (words.rng.next_u32(), words.rng.next_u32());
        assert_eq!(u64::from(w0), (1u64 << 32) - (1u64 << 32) % 28901);
        let mut dice = LabelStream::new(&key, &label);
        assert_eq!(dice.roll(28901), w1 % 28901 + 1);
    }

    #[test]
    fn labels_have_independent_streams() {
        let key = TurnKey(Digest32([9; 32]));
        let a: Vec<u32> = {
            let mut s = LabelStream::new(&key, &Label::new("a").unwrap());
            (0..32).map(|_| s.roll(6)).collect()
        };
        let b: Vec<u32> = {
            let mut s = LabelStream::new(&key, &Label::new("b").unwrap());
            (0..32).map(|_| s.roll(6)).collect()
        };
        assert_ne!(a, b);
        assert!(a.iter().chain(&b).all(|v| (1..=6).contains(v)));
    }
}
