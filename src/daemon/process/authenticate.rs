//! Step 6 of a message (`docs/daemon.md`): who sent it, and the rate
//! limits.
//!
//! It comes after the dedupe, so a message seen again after a crash is
//! never counted twice against a limit, and before anything is applied: the
//! secret in the header decides the power, a known address without one is
//! refused, and a stranger gets at most a notice a day. The header is read
//! line by line (`rules::orders::header`), so a message whose YAML is broken
//! is still authenticated and answered with its errors.

use chrono::{Duration as ChronoDuration, Utc};

use crate::log::{Outcome, Received};
use crate::matches::players::address_hash;
use crate::matches::{Match, PlayerSecrets, Roster};
use crate::rules::GameDef;
use crate::rules::orders::header::{HeaderLines, scan_header};

use super::super::ledger::Ledger;
use super::Daemon;
use super::inbound::Message;

/// What the authentication of a message decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// The sender is the player of this power (by secret).
    Player {
        /// The power, as the game names it.
        power: String,
    },
    /// A valid secret, of `power`, in a message whose `power:` names
    /// another power (`claimed`): nothing is applied.
    Mismatch {
        /// The power whose secret it is.
        power: String,
        /// The power the message names.
        claimed: String,
    },
    /// A known player's address with a missing or wrong secret.
    Refused {
        /// What the sender is told.
        reason: String,
    },
    /// An address that is not a player of the match, without a valid secret.
    Unknown,
}

/// What step 6 decided about a message.
pub(super) enum Verdict {
    /// Nothing is logged and nothing answered (a rate limit).
    Drop,
    /// The message is answered without applying anything: this `received`
    /// entry is logged and its reply sent.
    Answer(Received),
    /// A player of the match, to whom step 7 applies the message.
    Sender(Sender),
}

/// An authenticated message, ready to be applied.
pub(super) struct Sender {
    /// The power of the secret.
    pub power: String,
    /// The header, read line by line.
    pub header: HeaderLines,
    /// The orders text.
    pub orders: String,
    /// The `received` entry so far (the power set, the outcome to come).
    pub base: Received,
}

impl Daemon {
    /// Authenticates a routed message that is not yet handled, against the
    /// open match and its players; `retry` is a message whose earlier
    /// attempt logged nothing but its `processing` entry, which the rate
    /// limits already counted.
    pub(super) fn authenticate(
        &self,
        m: &Match,
        roster: &Roster,
        msg: &Message,
        retry: bool,
    ) -> anyhow::Result<Verdict> {
        let id = msg.id.as_str();
        let ledger = Ledger::of(m);
        let from_hash = address_hash(&msg.from);
        if !retry {
            let hour_ago = Utc::now() - ChronoDuration::hours(1);
            if ledger.count_since(hour_ago, Some(&from_hash), None)
                >= self.config.limits.per_sender_per_hour as usize
                || ledger.count_since(hour_ago, None, None)
                    >= self.config.limits.per_match_per_hour as usize
            {
                tracing::warn!(match_id = %id, "rate limit reached: message dropped without reply");
                return Ok(Verdict::Drop);
            }
        }
        let base = Received {
            message_id: msg.mail.message_id.clone(),
            mail_sha256: msg.sha,
            from_hash,
            power: None,
            outcome: Outcome::Refused,
            command: None,
            errors: Vec::new(),
        };
        let secrets = PlayerSecrets::load(&msg.dir)?;
        let known = !roster.powers_of(&msg.from).is_empty();
        let orders = match &msg.mail.orders {
            Ok(o) => o.text.clone(),
            Err(refusal) => {
                if !known {
                    return Ok(self.unknown_sender(id, ledger, base));
                }
                return Ok(Verdict::Answer(Received {
                    outcome: Outcome::Rejected,
                    errors: vec![refusal.to_string()],
                    ..base
                }));
            }
        };
        let header = scan_header(&orders);
        let power = match authenticate(m.game(), &header, known, &secrets) {
            Auth::Unknown => return Ok(self.unknown_sender(id, ledger, base)),
            Auth::Refused { reason } => {
                return Ok(Verdict::Answer(Received {
                    errors: vec![reason],
                    ..base
                }));
            }
            Auth::Mismatch { power, claimed } => {
                return Ok(Verdict::Answer(Received {
                    outcome: Outcome::Rejected,
                    power: Some(power.clone()),
                    errors: vec![format!(
                        "power: {claimed} does not match the power of the secret, which is {power}'s; \
                         the secret decides whose orders these are: write power: {power}, or send {claimed}'s own secret"
                    )],
                    ..base
                }));
            }
            Auth::Player { power } => power,
        };
        Ok(Verdict::Sender(Sender {
            base: Received {
                power: Some(power.clone()),
                ..base
            },
            power,
            header,
            orders,
        }))
    }

    /// A sender who is not a player and gave no valid secret: a notice at
    /// most once a day per sender and a few an hour per match, else silence.
    fn unknown_sender(&self, id: &str, ledger: Ledger<'_>, base: Received) -> Verdict {
        let now = Utc::now();
        let sender_recent = ledger.count_since(
            now - ChronoDuration::days(1),
            Some(&base.from_hash),
            Some(Outcome::Refused),
        );
        let match_recent =
            ledger.count_since(now - ChronoDuration::hours(1), None, Some(Outcome::Refused));
        if sender_recent > 0
            || match_recent >= self.config.limits.unknown_sender_notices_per_hour as usize
        {
            tracing::info!(match_id = %id, "unknown sender: no notice (rate limit)");
            return Verdict::Drop;
        }
        Verdict::Answer(Received {
            outcome: Outcome::Refused,
            errors: vec![format!(
                "this address is not a player of match {id}, and the message has no valid secret; you will get at most one such notice a day"
            )],
            ..base
        })
    }
}

/// Decides who sent a message from its scanned header: `known` says whether
/// the sender's address is a player's of the match. A valid secret names the
/// power (the claimed one if the secret is its own); a known address
/// without one is refused; anyone else is unknown.
pub fn authenticate(
    game: &GameDef,
    header: &HeaderLines,
    known: bool,
    secrets: &PlayerSecrets,
) -> Auth {
    let claimed = header
        .power
        .as_deref()
        .and_then(|p| game.power(p))
        .map(|p| game.powers()[p].name.clone());
    match header.secret.as_deref().filter(|s| !s.is_empty()) {
            None if known => Auth::Refused {
                reason: "the message has no secret: line; every message needs `secret:` with the secret from your welcome mail".into(),
            },
            None => Auth::Unknown,
            Some(secret) => {
                let owners = secrets.powers_with(secret);
                match claimed {
                    Some(c) if owners.contains(&c) => Auth::Player { power: c },
                    Some(c) if !owners.is_empty() => Auth::Mismatch {
                        power: owners[0].clone(),
                        claimed: c,
                    },
                    _ if !owners.is_empty() => Auth::Player {
                        power: owners[0].clone(),
                    },
                    _ if known => Auth::Refused {
                        reason: "the secret is wrong; nothing was applied (`command: rotate` with the right secret, or the organiser, gives a new one)".into(),
                    },
                    _ => Auth::Unknown,
                }
            }
        }
}
