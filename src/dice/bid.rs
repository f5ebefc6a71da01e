//! Sealed bids (`docs/log.md`, "Bids"): the server's bid secret and its
//! commitment, each bidder's salt and sealed commitment, and the key of the
//! die that breaks a tie. The same byte rules as the dice (`docs/dice.md`):
//! every variable-length field is length-prefixed.

use hmac::{KeyInit, Mac};
use sha2::Sha256;

use super::{Digest32, Label, LabelStream, TurnKey, put_str, put_u32};

/// Domain string of the bid secret's commitment.
pub const DOMAIN_BID_COMMIT: &str = "adjutant/v1/bid-commit";
/// Domain string of a bidder's salt.
pub const DOMAIN_BID_SALT: &str = "adjutant/v1/bid-salt";
/// Domain string of a sealed bid.
pub const DOMAIN_BID: &str = "adjutant/v1/bid";
/// Domain string of the tie-break key.
pub const DOMAIN_BID_TIE: &str = "adjutant/v1/bid-tie";
/// The label of the tie-break die.
pub const TIE_LABEL: &str = "bid/tie";

/// `SHA-256(str(DOMAIN_BID_COMMIT) || str(match) || s)`: published (the
/// `bid` entry of step `open`) before any bid is taken.
pub fn commitment(match_id: &str, secret: &Digest32) -> Digest32 {
    let mut m = Vec::new();
    put_str(&mut m, DOMAIN_BID_COMMIT);
    put_str(&mut m, match_id);
    m.extend_from_slice(&secret.0);
    Digest32::sha256(&m)
}

fn hmac(secret: &Digest32, m: &[u8]) -> Digest32 {
    let mut mac = <hmac::Hmac<Sha256> as KeyInit>::new_from_slice(&secret.0)
        .expect("HMAC accepts a key of any length");
    mac.update(m);
    Digest32(mac.finalize().into_bytes().into())
}

/// A bidder's salt: `HMAC-SHA256(s, str(DOMAIN_BID_SALT) || str(match) ||
/// str(bidder))`. Fixed by the committed secret, so the server has no
/// choice in it; unknown to the others until the reveal, so the sealed bid
/// (a small number) cannot be guessed from its commitment.
pub fn salt(match_id: &str, secret: &Digest32, bidder: &str) -> Digest32 {
    let mut m = Vec::new();
    put_str(&mut m, DOMAIN_BID_SALT);
    put_str(&mut m, match_id);
    put_str(&mut m, bidder);
    hmac(secret, &m)
}

/// A sealed bid: `SHA-256(str(DOMAIN_BID) || str(match) || str(bidder) ||
/// u32(ipcs) || salt)`.
pub fn sealed(match_id: &str, bidder: &str, ipcs: u32, salt: &Digest32) -> Digest32 {
    let mut m = Vec::new();
    put_str(&mut m, DOMAIN_BID);
    put_str(&mut m, match_id);
    put_str(&mut m, bidder);
    put_u32(&mut m, ipcs);
    m.extend_from_slice(&salt.0);
    Digest32::sha256(&m)
}

/// The tie-break die: the key `HMAC-SHA256(s, str(DOMAIN_BID_TIE) ||
/// str(match) || u32(n) || c_1 || ... || c_n)` over the sealed commitments
/// sorted in ascending byte order, and the first die with `sides` faces of
/// label [`TIE_LABEL`] in its stream (`docs/dice.md` §5, §6). Every input was
/// fixed before the last bid came in: the secret by its commitment, the
/// commitments by the bids.
pub fn tie_die(match_id: &str, secret: &Digest32, commitments: &[Digest32], sides: u32) -> u32 {
    let mut sorted = commitments.to_vec();
    sorted.sort_by_key(|a| a.0);
    let mut m = Vec::new();
    put_str(&mut m, DOMAIN_BID_TIE);
    put_str(&mut m, match_id);
    put_u32(
        &mut m,
        u32::try_from(sorted.len()).expect("fewer than 2^32 bids"),
    );
    for c in &sorted {
        m.extend_from_slice(&c.0);
    }
    let key = TurnKey(hmac(secret, &m));
    let label = Label::new(TIE_LABEL).expect("a valid label");
    LabelStream::new(&key, &label).roll(sides)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Values computed by tools/verify_dice.py's independent code
    // (`bid_*`), and listed in docs/log.md, "Bids".
    #[test]
    fn vectors() {
        let s = Digest32([7u8; 32]);
        let m = "league7-classic-01";
        assert_eq!(
            commitment(m, &s).to_hex(),
            "9f6128b6c76901b22dbb4854b67c501c5afe48399c8be2dfbb51373e23ade1c6"
        );
        let salt_axis = salt(m, &s, "Axis");
        let c_axis = sealed(m, "Axis", 9, &salt_axis);
        let c_allies = sealed(m, "Allies", 9, &salt(m, &s, "Allies"));
        assert_eq!(
            salt_axis.to_hex(),
            "eb692e60d4290fb8babe403e6c4904bfcbed8a252733e9dff9e964fde49e10f7"
        );
        assert_eq!(
            c_axis.to_hex(),
            "ae706d3ee7ac61ccc816e80ab5d08f2f5c4a9f8950ffdfbb39c5a7ea6c93d173"
        );
        // The order the commitments come in does not matter.
        assert_eq!(tie_die(m, &s, &[c_axis, c_allies], 2), 2);
        assert_eq!(tie_die(m, &s, &[c_allies, c_axis], 2), 2);
    }
}
