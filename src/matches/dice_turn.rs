//! A dice turn: commit, collect order digests, reveal, record the dice.

use crate::dice::{BeaconRound, Dice, OrderDigest, TurnSecret};
use crate::log::{Body, DiceEntry, MatchLog, OrderEntry, Reveal, TurnOpen, WriteError, Written};

/// Why a dice turn could not advance.
#[derive(Debug, thiserror::Error)]
pub enum DiceTurnError {
    /// The operating system's random source failed.
    #[error("cannot draw a turn secret from the operating system: {0}")]
    Random(getrandom::Error),
    /// The log refused or failed the entry.
    #[error(transparent)]
    Log(#[from] WriteError),
}

/// The open dice turn of a match and its secret, until it is revealed.
///
/// Order of events, each logged (and fsync'd) before the next: the commitment
/// (`open`), the digest of every accepted order (`record_order`), the reveal
/// that yields the turn's [`Dice`] (`reveal`), the dice drawn (`record_dice`).
pub struct DiceTurn {
    turn: u32,
    secret: TurnSecret,
}

impl DiceTurn {
    /// Draws a fresh secret and logs its commitment for the next turn.
    pub fn open(log: &mut MatchLog) -> Result<(DiceTurn, Written), DiceTurnError> {
        let secret = TurnSecret::generate().map_err(DiceTurnError::Random)?;
        Self::open_with(log, secret)
    }

    /// The dice turn number the next [`DiceTurn::open`] of this log will use.
    pub fn next_turn(log: &MatchLog) -> u32 {
        log.chain().open_turn().map_or(1, |(t, _)| t + 1)
    }

    /// Logs the commitment to `secret` for the next turn. The caller has
    /// already stored the secret where it survives a restart.
    pub fn open_with(
        log: &mut MatchLog,
        secret: TurnSecret,
    ) -> Result<(DiceTurn, Written), DiceTurnError> {
        let turn = Self::next_turn(log);
        let match_id = match_id(log);
        let commitment = secret.commitment(&match_id, turn);
        let written = log.append(Body::TurnOpen(TurnOpen { turn, commitment }))?;
        Ok((DiceTurn { turn, secret }, written))
    }

    /// Takes up an open turn again (after a restart) with its stored secret.
    pub fn resume(turn: u32, secret: TurnSecret) -> DiceTurn {
        DiceTurn { turn, secret }
    }

    /// The dice turn number.
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Logs an accepted order message and returns the digest it contributes.
    pub fn record_order(
        &self,
        log: &mut MatchLog,
        power: &str,
        canonical: &str,
    ) -> Result<(OrderDigest, Written), DiceTurnError> {
        Self::record_order_in(log, self.turn, power, canonical)
    }

    /// Logs an accepted order message of `turn`, revealed or not (orders of a
    /// later stage come after the reveal and do not feed the key).
    pub fn record_order_in(
        log: &mut MatchLog,
        turn: u32,
        power: &str,
        canonical: &str,
    ) -> Result<(OrderDigest, Written), DiceTurnError> {
        let digest = OrderDigest::of_orders(&match_id(log), turn, power, canonical);
        let written = log.append(Body::Order(OrderEntry {
            turn,
            power: power.to_owned(),
            canonical: canonical.to_owned(),
            digest,
            message_id: None,
            mail_sha256: None,
        }))?;
        Ok((digest, written))
    }

    /// The secret as a reveal writes it: for a rollback, which reveals a
    /// turn that will never roll.
    pub fn secret_revealed(&self) -> crate::dice::Digest32 {
        self.secret.reveal()
    }

    /// Reveals the secret and returns the turn's dice, keyed by the secret and
    /// every order digest logged so far.
    pub fn reveal(self, log: &mut MatchLog) -> Result<Dice, DiceTurnError> {
        self.reveal_with_beacon(log, None)
    }

    /// [`DiceTurn::reveal`] for a match with a beacon: the round (checked
    /// by the log against the network's key) joins the turn key.
    pub fn reveal_with_beacon(
        self,
        log: &mut MatchLog,
        beacon: Option<BeaconRound>,
    ) -> Result<Dice, DiceTurnError> {
        log.append(Body::Reveal(Reveal {
            turn: self.turn,
            secret: self.secret.reveal(),
            beacon,
        }))?;
        let (_, key) = log
            .chain()
            .open_turn()
            .expect("the turn just revealed is open");
        Ok(Dice::verifiable(key.expect("a revealed turn has a key")))
    }

    /// Logs every die drawn from `dice` since the last call. Use one [`Dice`]
    /// for the whole turn: a label's stream continues across entries.
    pub fn record_dice(
        log: &mut MatchLog,
        turn: u32,
        dice: &mut Dice,
    ) -> Result<Written, DiceTurnError> {
        Ok(log.append(Body::Dice(DiceEntry {
            turn,
            rolls: dice.take_rolls(),
        }))?)
    }
}

fn match_id(log: &MatchLog) -> String {
    log.chain()
        .genesis()
        .expect("an open log has its genesis")
        .match_id
        .clone()
}
