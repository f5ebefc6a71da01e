//! Verifiable dice: commit-reveal turn secrets, player entropy, labelled streams.
//!
//! The byte-level specification is `docs/dice.md`; this module and
//! `tools/verify_dice.py` are two independent implementations of it, and the
//! test suite holds them to the same output. Nothing here knows the rules of
//! any game: the engine names what a die is for with a [`Label`] and receives
//! values from a [`DiceSource`]: a match's verifiable [`Dice`], or the
//! [`ScriptedDice`] of scenarios and rules tests, which no match or log takes.

pub mod beacon;
pub mod bid;
mod commit;
mod label;
mod roller;
mod scripted;
mod stream;

pub use beacon::{BeaconNetwork, BeaconRound};
pub use commit::{Commitment, Digest32, OrderDigest, TurnKey, TurnSecret, key_order};
pub use label::{Label, LabelError};
pub use roller::{Dice, DiceKind, DiceSource, RollGroup};
pub use scripted::ScriptedDice;
pub use stream::{LabelStream, MAX_SIDES};

/// Domain string of the turn commitment (`docs/dice.md`, "Commitment").
pub const DOMAIN_COMMIT: &str = "adjutant/v1/commit";
/// Domain string of an accepted order message's digest.
pub const DOMAIN_ORDER: &str = "adjutant/v1/order";
/// Domain string of the turn key.
pub const DOMAIN_TURN_KEY: &str = "adjutant/v1/turn-key";
/// Domain string of a label's stream key.
pub const DOMAIN_LABEL: &str = "adjutant/v1/label";

/// Appends `str(x)`: the UTF-8 bytes of `x` preceded by their length as a
/// 4-byte big-endian integer. Length prefixes keep concatenations unambiguous.
pub(crate) fn put_str(buf: &mut Vec<u8>, s: &str) {
    put_u32(
        buf,
        u32::try_from(s.len()).expect("string longer than 4 GiB"),
    );
    buf.extend_from_slice(s.as_bytes());
}

/// Appends `u32(x)`: 4 bytes, big-endian.
pub(crate) fn put_u32(buf: &mut Vec<u8>, x: u32) {
    buf.extend_from_slice(&x.to_be_bytes());
}
