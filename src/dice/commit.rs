//! Turn secrets, their commitments, order digests and the turn key.

use std::fmt;

use hmac::{KeyInit, Mac};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::{DOMAIN_COMMIT, DOMAIN_ORDER, DOMAIN_TURN_KEY, put_str, put_u32};

/// A 32-byte value written as 64 lowercase hexadecimal digits.
///
/// Only lowercase is accepted when parsing, so a value has exactly one written
/// form and a log cannot be altered by changing the case of a digit.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Digest32(pub [u8; 32]);

impl Digest32 {
    /// SHA-256 of `data`.
    pub fn sha256(data: &[u8]) -> Self {
        Digest32(Sha256::digest(data).into())
    }

    /// Parses 64 lowercase hexadecimal digits.
    pub fn from_hex(s: &str) -> Result<Self, String> {
        if s.len() != 64 || !s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            return Err(format!(
                "expected 64 lowercase hexadecimal digits, found {:?}",
                truncate(s)
            ));
        }
        let mut out = [0u8; 32];
        hex::decode_to_slice(s, &mut out).map_err(|e| e.to_string())?;
        Ok(Digest32(out))
    }

    /// The 64-digit lowercase hexadecimal form.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }
}

fn truncate(s: &str) -> String {
    s.chars().take(80).collect()
}

impl fmt::Display for Digest32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for Digest32 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_hex())
    }
}

impl Serialize for Digest32 {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Digest32 {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Digest32::from_hex(&s).map_err(serde::de::Error::custom)
    }
}

/// Declares a distinct 32-byte type so that a commitment can never be passed
/// where a turn key is expected.
macro_rules! digest_type {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Digest32);

        impl $name {
            /// The raw 32 bytes.
            pub fn bytes(&self) -> &[u8; 32] {
                &self.0.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

digest_type!(
    /// `C_T`: the published SHA-256 commitment to a turn's secret.
    Commitment
);
digest_type!(
    /// The digest an accepted order message contributes to its turn's dice.
    OrderDigest
);
digest_type!(
    /// `K_T`: the HMAC that keys every labelled stream of a turn.
    TurnKey
);

/// A turn's 32-byte secret `s_T`.
///
/// Drawn from the operating system's CSPRNG; it is kept private until the
/// turn is adjudicated and then revealed in the log. `Debug` never prints it.
#[derive(Clone, PartialEq, Eq)]
pub struct TurnSecret([u8; 32]);

impl TurnSecret {
    /// Draws a fresh secret from the operating system's random source.
    pub fn generate() -> Result<Self, getrandom::Error> {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes)?;
        Ok(TurnSecret(bytes))
    }

    /// A secret revealed in a log (or a test vector).
    pub fn from_bytes(bytes: [u8; 32]) -> Self {
        TurnSecret(bytes)
    }

    /// The bytes, for revealing.
    pub fn reveal(&self) -> Digest32 {
        Digest32(self.0)
    }

    /// `C_T = SHA-256(str(DOMAIN_COMMIT) || str(match) || u32(turn) || s_T)`.
    pub fn commitment(&self, match_id: &str, turn: u32) -> Commitment {
        let mut m = Vec::with_capacity(96);
        put_str(&mut m, DOMAIN_COMMIT);
        put_str(&mut m, match_id);
        put_u32(&mut m, turn);
        m.extend_from_slice(&self.0);
        Commitment(Digest32::sha256(&m))
    }

    /// `K_T = HMAC-SHA256(s_T, str(DOMAIN_TURN_KEY) || str(match) || u32(turn)
    /// || u32(n) || d_1 || ... || d_n)` over the digests in log order.
    pub fn turn_key(&self, match_id: &str, turn: u32, digests: &[OrderDigest]) -> TurnKey {
        self.turn_key_with_beacon(match_id, turn, digests, None)
    }

    /// [`TurnSecret::turn_key`] of a match with a beacon: the round's
    /// randomness `B` follows the digests, `... || d_n || B`
    /// (`docs/dice.md` §3, "Beacon").
    pub fn turn_key_with_beacon(
        &self,
        match_id: &str,
        turn: u32,
        digests: &[OrderDigest],
        beacon: Option<&Digest32>,
    ) -> TurnKey {
        let mut mac = <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(&self.0)
            .expect("HMAC accepts a key of any length");
        let mut m = Vec::with_capacity(64 + 32 * digests.len());
        put_str(&mut m, DOMAIN_TURN_KEY);
        put_str(&mut m, match_id);
        put_u32(&mut m, turn);
        put_u32(
            &mut m,
            u32::try_from(digests.len()).expect("fewer than 2^32 orders"),
        );
        for d in digests {
            m.extend_from_slice(d.bytes());
        }
        if let Some(b) = beacon {
            m.extend_from_slice(&b.0);
        }
        mac.update(&m);
        TurnKey(Digest32(mac.finalize().into_bytes().into()))
    }
}

/// The digests in the order the turn key of a version 2 log takes them
/// (`docs/dice.md` §3): ascending bytes, so that no one chooses the order.
pub fn key_order(digests: &[OrderDigest]) -> Vec<OrderDigest> {
    let mut d = digests.to_vec();
    d.sort_by(|a, b| a.bytes().cmp(b.bytes()));
    d
}

impl fmt::Debug for TurnSecret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("TurnSecret(<hidden>)")
    }
}

impl OrderDigest {
    /// `SHA-256(str(DOMAIN_ORDER) || str(match) || u32(turn) || str(power) ||
    /// str(canonical))`: what one accepted order message adds to the turn key.
    /// `canonical` is the orders (with the player's entropy) as the log
    /// records them.
    pub fn of_orders(match_id: &str, turn: u32, power: &str, canonical: &str) -> Self {
        let mut m = Vec::with_capacity(64 + canonical.len());
        put_str(&mut m, DOMAIN_ORDER);
        put_str(&mut m, match_id);
        put_u32(&mut m, turn);
        put_str(&mut m, power);
        put_str(&mut m, canonical);
        OrderDigest(Digest32::sha256(&m))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_strict_lowercase() {
        let lower = "ab".repeat(32);
        assert!(Digest32::from_hex(&lower).is_ok());
        assert!(Digest32::from_hex(&"AB".repeat(32)).is_err());
        assert!(Digest32::from_hex(&"ab".repeat(31)).is_err());
        assert!(Digest32::from_hex(&format!("{}g", &lower[..63])).is_err());
    }

    #[test]
    fn digests_print_as_their_hex_and_errors_quote_the_input() {
        let d = Digest32([0xab; 32]);
        assert_eq!(format!("{d}"), "ab".repeat(32));
        assert_eq!(format!("{d:?}"), "ab".repeat(32));
        // The input is quoted, cut to 80 characters.
        let long = "Z".repeat(100);
        let err = Digest32::from_hex(&long).unwrap_err();
        assert!(
            err.ends_with(&format!("found {:?}", "Z".repeat(80))),
            "{err}"
        );
    }

    #[test]
    fn generated_secrets_differ() {
        let a = TurnSecret::generate().unwrap();
        let b = TurnSecret::generate().unwrap();
        assert_ne!(a, b);
        assert_eq!(format!("{a:?}"), "TurnSecret(<hidden>)");
    }

    #[test]
    fn commitment_binds_match_and_turn() {
        let s = TurnSecret::from_bytes([7; 32]);
        assert_ne!(s.commitment("m", 1), s.commitment("m", 2));
        assert_ne!(s.commitment("m", 1), s.commitment("n", 1));
        // Length prefixes: ("ab", "c") and ("a", "bc") must not collide.
        assert_ne!(
            OrderDigest::of_orders("ab", 1, "c", ""),
            OrderDigest::of_orders("a", 1, "bc", "")
        );
    }

    #[test]
    fn turn_key_depends_on_every_digest_and_its_order() {
        let s = TurnSecret::from_bytes([1; 32]);
        let d1 = OrderDigest::of_orders("m", 1, "Germany", "a");
        let d2 = OrderDigest::of_orders("m", 1, "Germany", "b");
        let k12 = s.turn_key("m", 1, &[d1, d2]);
        assert_ne!(k12, s.turn_key("m", 1, &[d2, d1]));
        assert_ne!(k12, s.turn_key("m", 1, &[d1]));
        assert_ne!(
            k12,
            TurnSecret::from_bytes([2; 32]).turn_key("m", 1, &[d1, d2])
        );
    }
}
