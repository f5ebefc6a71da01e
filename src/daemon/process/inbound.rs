//! Steps 1 to 5 of a message (`docs/daemon.md`): read it, parse it, keep
//! machines from getting replies (and record bounces), route it to its
//! match, and find it in the match log if it was handled before.
//!
//! These steps come first because none of them needs to know who sent the
//! message, and each can end its handling with nothing applied: mail that
//! is not mail, machine mail, mail for no match (a rate-limited notice), and
//! mail already handled, whose replies are only enqueued again (under their
//! keys, so a reply already queued is not queued twice). The dedupe is also
//! where a crash inside step 7 is finished: orders logged after a
//! `processing` entry were applied, and only the final entry is missing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use anyhow::Context;
use chrono::{DateTime, Duration as ChronoDuration, Utc};

use crate::dice::Digest32;
use crate::log::{Body, Outcome, Received};
use crate::mail::compose::{Kind, Thread};
use crate::mail::hygiene;
use crate::mail::inbox::Waiting;
use crate::mail::message::{Inbound, ParseLimits, parse};
use crate::mail::route::route;
use crate::matches::players::{address_hash, address_key};
use crate::matches::{Match, Roster};

use super::super::ledger::Ledger;
use super::super::text;
use super::{Daemon, log_received};

/// A message routed to a match: what every later step needs of it.
pub(super) struct Message {
    /// The match id.
    pub id: String,
    /// The match's directory.
    pub dir: PathBuf,
    /// The parsed mail.
    pub mail: Inbound,
    /// The sender's address.
    pub from: String,
    /// The SHA-256 of the raw mail.
    pub sha: Digest32,
}

/// What the match log says of a routed message.
pub(super) enum Dedupe {
    /// Handled before (or finished now after a crash): its final
    /// `received` entry, by index; its replies are checked, nothing applied.
    Handled(usize),
    /// To be handled; `retry` when an earlier attempt logged only its
    /// `processing` entry and applied nothing.
    New {
        /// An earlier attempt was cut short before anything was applied.
        retry: bool,
    },
}

impl Daemon {
    /// Steps 1 to 4: reads, parses, checks and routes the message. `None`
    /// when its handling ends here (the reason is logged, and a notice or
    /// a bounce recorded where one is due).
    pub(super) fn inbound(&mut self, entry: &Waiting) -> anyhow::Result<Option<Message>> {
        let Some(raw) = self.inbox.read(entry)? else {
            tracing::info!(message = %entry.name(), "message gone from the inbox before it was read");
            return Ok(None);
        };
        let limits = ParseLimits {
            max_bytes: self.config.limits.max_message_bytes,
        };
        let mail = match parse(&raw, limits) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(message = %entry.name(), error = %e, "not a mail message; set aside");
                return Ok(None);
            }
        };
        if let Some(reason) = hygiene::auto_generated(&mail) {
            tracing::info!(message = %entry.name(), reason = ?reason, "machine-generated mail: no reply");
            if let Some(b) = hygiene::bounce(&mail, &raw) {
                self.record_bounce(&mail, &b)?;
            }
            return Ok(None);
        }
        let Some(from) = mail.from.as_ref().map(|m| m.address.clone()) else {
            tracing::info!(message = %entry.name(), "no From address: no reply");
            return Ok(None);
        };
        let routed = route(&self.ours, &mail);
        let dir = routed
            .as_ref()
            .and_then(|r| self.matches.get(&r.match_id).cloned());
        let (Some(r), Some(dir)) = (routed, dir) else {
            self.unrouted(&mail, &from)?;
            return Ok(None);
        };
        let sha = Digest32::from_hex(&mail.sha256).map_err(anyhow::Error::msg)?;
        Ok(Some(Message {
            id: r.match_id,
            dir,
            mail,
            from,
            sha,
        }))
    }

    /// Step 5: looks the message up in the open match's log by Message-ID
    /// or raw hash. A message whose orders were logged after its
    /// `processing` entry, before a crash, gets its final entry now
    /// (opening the match finished their adjudication).
    pub(super) fn dedupe(&self, m: &mut Match, msg: &Message) -> anyhow::Result<Dedupe> {
        let ledger = Ledger::of(m);
        let Some(i) = ledger.find(msg.mail.message_id.as_deref(), &msg.sha) else {
            return Ok(Dedupe::New { retry: false });
        };
        let r = ledger.received(i).expect("found").clone();
        if r.outcome != Outcome::Processing {
            tracing::info!(match_id = %msg.id, seq = ledger.entries()[i].seq, "already handled: replies checked, not applied again");
            return Ok(Dedupe::Handled(i));
        }
        if ledger.order_after(i) {
            let i = log_received(
                m,
                Received {
                    outcome: Outcome::Accepted,
                    errors: Vec::new(),
                    command: None,
                    ..r
                },
            )?;
            tracing::info!(match_id = %msg.id, "recovered orders accepted before a crash");
            return Ok(Dedupe::Handled(i));
        }
        // Logged as in progress but nothing applied: do it again.
        Ok(Dedupe::New { retry: true })
    }

    /// Mail for no match: a notice, at most one a day per sender.
    fn unrouted(&mut self, mail: &Inbound, from: &str) -> anyhow::Result<()> {
        let now = Utc::now();
        let k = address_key(from);
        let h = address_hash(from).to_hex();
        if self
            .unrouted_notices
            .get(&h)
            .is_some_and(|t| now - *t < ChronoDuration::days(1))
        {
            tracing::info!("mail for no known match: no notice (rate limit)");
            return Ok(());
        }
        // Recorded before the notice is queued: after a crash in between,
        // a stranger gets one notice too few, never one too many.
        self.unrouted_notices
            .retain(|_, t| now - *t < ChronoDuration::days(1));
        self.unrouted_notices.insert(h, now);
        save_notices(&self.config.data_dir, &self.unrouted_notices)?;
        let key = format!("unrouted/{}/{k}", mail.sha256);
        let body = text::unrouted_text(&self.templates, &self.ours.for_match("MATCH"));
        let mut out = self.outgoing_plain(
            from,
            Kind::Reply,
            None,
            "Which match?".into(),
            body.text,
            Thread::replying_to(mail),
            &key,
        );
        out.html = Some(body.html);
        self.enqueue(&key, &out)
    }

    /// A bounce routed to a match and naming a player's address: logged
    /// against that player, once.
    fn record_bounce(&mut self, mail: &Inbound, b: &hygiene::Bounce) -> anyhow::Result<()> {
        let Some(r) = route(&self.ours, mail) else {
            tracing::warn!(failed = ?b.failed_recipients, "bounce for no known match");
            return Ok(());
        };
        let Some(dir) = self.matches.get(&r.match_id).cloned() else {
            return Ok(());
        };
        let sha = Digest32::from_hex(&mail.sha256).map_err(anyhow::Error::msg)?;
        let mut m = Match::open(&dir)?;
        if Ledger::of(&m)
            .find(mail.message_id.as_deref(), &sha)
            .is_some()
        {
            return Ok(());
        }
        let roster = Roster::load(&dir, m.game())?;
        let seat = b
            .failed_recipients
            .iter()
            .find_map(|f| roster.powers_of(f).into_iter().next().cloned());
        if let Some(seat) = seat {
            let mut errors = vec![format!("mail to the player of {} bounced", seat.power)];
            errors.extend(b.status.iter().map(|s| format!("status {s}")));
            // The log is public to the players: the diagnostic loses every
            // address it quotes (docs/log.md: addresses stay out).
            errors.extend(b.diagnostic.as_deref().map(redact_addresses));
            let from = mail.from.as_ref().map(|m| m.address.as_str()).unwrap_or("");
            m.record(Body::Received(Received {
                message_id: mail.message_id.clone(),
                mail_sha256: sha,
                from_hash: address_hash(from),
                power: Some(seat.power.clone()),
                outcome: Outcome::Bounce,
                command: None,
                errors,
            }))?;
            tracing::warn!(match_id = %r.match_id, power = %seat.power, "bounce recorded against the player");
        }
        Ok(())
    }
}

const NOTICES_FILE: &str = "unrouted-notices.json";

/// The unrouted-mail notices of the last day, as saved.
pub(super) fn load_notices(data_dir: &Path) -> HashMap<String, DateTime<Utc>> {
    std::fs::read(data_dir.join(NOTICES_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn save_notices(data_dir: &Path, notices: &HashMap<String, DateTime<Utc>>) -> anyhow::Result<()> {
    let path = data_dir.join(NOTICES_FILE);
    let tmp = data_dir.join(format!("{NOTICES_FILE}.tmp"));
    let _ = std::fs::remove_file(&tmp);
    crate::mail::fsutil::write_new_synced(&tmp, &serde_json::to_vec(notices)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    crate::mail::fsutil::rename_synced(&tmp, &path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// `text` with every word that holds an address (`<a@b>`, `a@b`) replaced
/// by `<address>`.
fn redact_addresses(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            if w.contains('@') {
                let tail: String = w
                    .chars()
                    .rev()
                    .take_while(|c| matches!(c, ':' | ',' | ';' | '.'))
                    .collect();
                format!("<address>{tail}")
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounce_diagnostics_lose_their_addresses() {
        assert_eq!(
            redact_addresses("550 5.1.1 <g.r1@players.test>: Recipient rejected, to x@y.z."),
            "550 5.1.1 <address>: Recipient rejected, to <address>."
        );
    }
}
