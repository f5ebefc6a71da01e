//! A public randomness beacon (drand) mixed into a turn key (`docs/dice.md`
//! §3, "Beacon").
//!
//! A match that names a beacon network in its genesis entry takes, for each
//! dice turn, the randomness of the first beacon round due after the
//! stage-1 orders were logged. The server commits its secret before the
//! orders, the player sends the orders before that round exists, so no one,
//! not even a server that leaked its secret to a player, can know the dice
//! before the orders are final. Everything here is pure: fetching a round
//! is the match layer's business.

use serde::{Deserialize, Serialize};

use super::Digest32;

/// The one signature scheme supported: unchained rounds signed on G1 with
/// the RFC 9380 hash to curve (drand's quicknet).
pub const SCHEME: &str = "bls-unchained-g1-rfc9380";

/// A beacon network as a match's genesis entry records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeaconNetwork {
    /// A name for people (`quicknet`).
    pub name: String,
    /// The network's chain hash: where relays serve it
    /// (`/<chain_hash>/public/<round>`).
    pub chain_hash: Digest32,
    /// The group public key, 96 bytes (compressed G2) in hex.
    pub public_key: String,
    /// Unix time (seconds) of round 1.
    pub genesis_time: u64,
    /// Seconds between rounds.
    pub period: u64,
    /// Always [`SCHEME`].
    pub scheme: String,
}

/// One round of a beacon as a reveal entry records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BeaconRound {
    /// The round number.
    pub round: u64,
    /// Its signature, 48 bytes (compressed G1) in hex.
    pub signature: String,
}

impl BeaconNetwork {
    /// drand's quicknet, the default network (its published chain info).
    pub fn quicknet() -> BeaconNetwork {
        BeaconNetwork {
            name: "quicknet".into(),
            chain_hash: Digest32::from_hex(
                "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
            )
            .expect("a valid constant"),
            public_key: "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3ac6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5a6e9c76a4bc09e76eae8991ef5ece45a".into(),
            genesis_time: 1_692_803_367,
            period: 3,
            scheme: SCHEME.into(),
        }
    }

    /// Checks the parameters (as read from a log or a players file).
    pub fn check(&self) -> Result<(), String> {
        if self.scheme != SCHEME {
            return Err(format!(
                "beacon scheme {:?} is not supported; the one supported is {SCHEME:?}",
                self.scheme
            ));
        }
        if self.period == 0 {
            return Err("a beacon period of 0 seconds".into());
        }
        self.key().map(|_| ())
    }

    fn key(&self) -> Result<drand_verify::G2PubkeyRfc, String> {
        use drand_verify::Pubkey;
        let bytes: [u8; 96] = hex::decode(&self.public_key)
            .ok()
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| "the beacon public key is not 96 bytes of hex".to_owned())?;
        drand_verify::G2PubkeyRfc::from_fixed(bytes)
            .map_err(|e| format!("the beacon public key is not a point of G2: {e}"))
    }

    /// The first round due strictly after `unix_ms` (milliseconds): round
    /// `r` is due at `genesis_time + (r - 1) * period` seconds.
    pub fn round_after(&self, unix_ms: i64) -> u64 {
        let genesis_ms = i128::from(self.genesis_time) * 1000;
        let period_ms = i128::from(self.period) * 1000;
        let t = i128::from(unix_ms);
        if t < genesis_ms {
            return 1;
        }
        u64::try_from((t - genesis_ms) / period_ms + 2).unwrap_or(u64::MAX)
    }

    /// When round `round` is due, in Unix seconds.
    pub fn due(&self, round: u64) -> u64 {
        self.genesis_time
            .saturating_add(round.saturating_sub(1).saturating_mul(self.period))
    }

    /// Checks the round's BLS signature against the network's key.
    pub fn verify(&self, round: &BeaconRound) -> Result<(), String> {
        use drand_verify::Pubkey;
        let key = self.key()?;
        let sig = round_signature(round)?;
        match key.verify(round.round, b"", &sig) {
            Ok(true) => Ok(()),
            Ok(false) => Err(format!(
                "the signature of beacon round {} is not the {} network's",
                round.round, self.name
            )),
            Err(e) => Err(format!(
                "the signature of beacon round {} is not a point of G1: {e}",
                round.round
            )),
        }
    }
}

fn round_signature(round: &BeaconRound) -> Result<Vec<u8>, String> {
    let sig = hex::decode(&round.signature)
        .ok()
        .filter(|s| s.len() == 48 && round.signature.bytes().all(|b| !b.is_ascii_uppercase()))
        .ok_or_else(|| {
            format!(
                "the signature of beacon round {} is not 48 bytes of lowercase hex",
                round.round
            )
        })?;
    Ok(sig)
}

impl BeaconRound {
    /// The round's randomness, SHA-256 of its signature bytes: what the
    /// turn key takes.
    pub fn randomness(&self) -> Result<Digest32, String> {
        Ok(Digest32::sha256(&round_signature(self)?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Quicknet round 123 as its relays serve it (public beacon output).
    fn quicknet_123() -> BeaconRound {
        BeaconRound {
            round: 123,
            signature: "b75c69d0b72a5d906e854e808ba7e2accb1542ac355ae486d591aa9d43765482e26cd02df835d3546d23c4b13e0dfc92".into(),
        }
    }

    #[test]
    fn a_recorded_quicknet_round_verifies_and_a_changed_one_does_not() {
        let net = BeaconNetwork::quicknet();
        net.check().unwrap();
        net.verify(&quicknet_123()).unwrap();
        let mut other = quicknet_123();
        other.round = 124;
        assert!(
            net.verify(&other)
                .unwrap_err()
                .contains("is not the quicknet")
        );
        let mut flipped = quicknet_123();
        flipped.signature.replace_range(10..11, "0");
        assert!(net.verify(&flipped).is_err());
        let mut upper = quicknet_123();
        upper.signature = upper.signature.to_uppercase();
        assert!(net.verify(&upper).unwrap_err().contains("lowercase"));
    }

    #[test]
    fn the_round_after_a_time_is_the_first_due_strictly_later() {
        let net = BeaconNetwork::quicknet();
        let g = net.genesis_time as i64 * 1000;
        assert_eq!(net.round_after(g - 5), 1);
        assert_eq!(net.round_after(g), 2);
        assert_eq!(net.round_after(g + 2_999), 2);
        assert_eq!(net.round_after(g + 3_000), 3);
        for t in [g, g + 1, g + 2_999, g + 3_000, g + 123_456_789] {
            let r = net.round_after(t);
            assert!(net.due(r) as i64 * 1000 > t);
            assert!(r == 1 || (net.due(r - 1) as i64 * 1000) <= t);
        }
    }
}
