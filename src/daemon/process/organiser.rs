//! Organisers by mail (`docs/daemon.md`, "Organisers"): a message with an
//! `organiser:` line is an organiser's action, authenticated by that
//! organiser's own secret and carried out through
//! [`crate::matches::organise`], the code `adjutant organise` uses.
//!
//! Steps 6 and 7 of such a message: the organiser is authenticated, the
//! action checked (every problem answered in words, nothing done) and
//! carried out, its `organiser` entry carrying the mail's SHA-256, so a
//! message seen again after a crash is never applied twice; then one
//! `received` entry (`command`, command `organise`) whose reply quotes what
//! was done.
//!
//! Beside the pipeline, [`Daemon::organisers_of`] mails what the log asks
//! for, from the log alone, so actions taken on the command line are mailed
//! the same way: each organiser's secret (once, when they are first listed),
//! the notice of every organiser and escalation entry to the players,
//! observers and organisers, and a replacement player's welcome with a
//! fresh secret.

use std::path::Path;

use chrono::{Duration as ChronoDuration, Utc};

use crate::log::{Body, Outcome, Received};
use crate::mail::compose::Kind;
use crate::mail::route::format_subject_tag;
use crate::matches::organise::{self, Via, applied_mail, describe};
use crate::matches::players::{address_hash, address_key};
use crate::matches::{Match, PlayerSecrets, PlayersFile, Roster};
use crate::rules::orders::header::scan_header;

use super::super::ledger::Ledger;
use super::super::text;
use super::inbound::Message;
use super::{Daemon, log_received};

/// The command word that `received` entries of organisers' actions record.
pub(super) const ORGANISE: &str = "organise";

/// The organiser whose accepted action the `received` entry `r` records.
pub(super) fn organiser_of(m: &Match, r: &Received) -> Option<String> {
    let entries = m.log().entries();
    let seq = applied_mail(entries, &r.mail_sha256)?;
    match &entries.get(seq as usize - 1)?.body {
        Body::Organiser(o) => Some(o.organiser.clone()),
        _ => None,
    }
}

/// The value of a message's top-level `organiser:` line.
fn organiser_line(text: &str) -> Option<String> {
    text.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        k.trim_end().eq_ignore_ascii_case("organiser").then(|| {
            let v = match v.find(" #") {
                Some(i) => &v[..i],
                None => v,
            };
            v.trim().trim_matches(['"', '\'']).trim().to_owned()
        })
    })
}

impl Daemon {
    /// Steps 6 and 7 for an organiser's message: `None` if the message is
    /// not one (it has no `organiser:` line), else the index of its final
    /// `received` entry (or `Some(None)` when it is dropped unanswered).
    pub(super) fn organiser_message(
        &mut self,
        m: &mut Match,
        roster: &Roster,
        msg: &Message,
    ) -> anyhow::Result<Option<Option<usize>>> {
        let Ok(orders) = &msg.mail.orders else {
            return Ok(None);
        };
        let text = orders.text.clone();
        if !organise::is_organiser_mail(&text) {
            return Ok(None);
        }
        let id = msg.id.as_str();
        let from_hash = address_hash(&msg.from);
        let hour_ago = Utc::now() - ChronoDuration::hours(1);
        let ledger = Ledger::of(m);
        if ledger.count_since(hour_ago, Some(&from_hash), None)
            >= self.config.limits.per_sender_per_hour as usize
        {
            tracing::warn!(match_id = %id, "rate limit reached: organiser's message dropped without reply");
            return Ok(Some(None));
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
        let name = organiser_line(&text).unwrap_or_default();
        let secret = scan_header(&text).secret.unwrap_or_default();
        let secrets = PlayerSecrets::load(&msg.dir)?;
        let who = roster
            .organiser(&name)
            .filter(|_| secrets.verify_organiser(&name, &secret));
        let Some(who) = who else {
            let known = roster
                .organisers()
                .iter()
                .any(|o| address_key(&o.email) == address_key(&msg.from));
            if !known
                && ledger.count_since(
                    Utc::now() - ChronoDuration::days(1),
                    Some(&from_hash),
                    Some(Outcome::Refused),
                ) > 0
            {
                return Ok(Some(None));
            }
            let reason = if roster.organiser(&name).is_none() {
                format!(
                    "{name:?} is not an organiser of match {id}; an organiser's message names them with organiser: as the players file lists them, and carries their secret"
                )
            } else {
                "the organiser's secret is missing or wrong; nothing was done (the secret is the one from your organiser's mail)".to_owned()
            };
            return Ok(Some(Some(log_received(
                m,
                Received {
                    errors: vec![reason],
                    ..base
                },
            )?)));
        };
        let who = who.name.clone();
        let done = Received {
            outcome: Outcome::Command,
            command: Some(ORGANISE.to_owned()),
            ..base.clone()
        };
        // Carried out before a crash cut its record short: only the record.
        if applied_mail(m.log().entries(), &msg.sha).is_some() {
            return Ok(Some(Some(log_received(m, done)?)));
        }
        let rejected = |errors: Vec<String>| Received {
            outcome: Outcome::Rejected,
            errors,
            ..base.clone()
        };
        let req = match organise::parse_mail(&text) {
            Ok(r) => r,
            Err(errors) => return Ok(Some(Some(log_received(m, rejected(errors))?))),
        };
        if let Some(mid) = &req.match_id
            && mid.trim() != id
        {
            let r = rejected(vec![format!(
                "the message is for match {mid}, but it was sent to {id}"
            )]);
            return Ok(Some(Some(log_received(m, r)?)));
        }
        let plan = match organise::plan(m, &req, Utc::now()) {
            Ok(p) => p,
            Err(errors) => return Ok(Some(Some(log_received(m, rejected(errors))?))),
        };
        let seq = organise::carry_out(m, &who, Via::Mail(msg.sha), plan)?;
        tracing::info!(match_id = %id, organiser = %who, entry = seq, "organiser's action logged");
        Ok(Some(Some(log_received(m, done)?)))
    }

    /// The reply to an organiser's accepted action: what was done, in the
    /// words of the notice.
    pub(super) fn organiser_reply_text(&self, m: &Match, r: &Received) -> String {
        let entries = m.log().entries();
        match applied_mail(entries, &r.mail_sha256).and_then(|seq| entries.get(seq as usize - 1)) {
            Some(e) => match &e.body {
                Body::Organiser(o) => format!(
                    "Done (log entry {}):\n\n{}\n\nEvery player, observer and organiser gets a notice.\n",
                    e.seq,
                    describe(o)
                ),
                _ => "Done.\n".into(),
            },
            None => "Done.\n".into(),
        }
    }

    /// Mails what the organisers' entries and settings call for (module
    /// docs); each under a key made of its entry, so each goes once.
    pub(super) fn organisers_of(&mut self, id: &str, dir: &Path) -> anyhow::Result<()> {
        let organisers = std::fs::read_to_string(dir.join("players.yaml"))
            .ok()
            .and_then(|t| serde_saphyr::from_str::<PlayersFile>(&t).ok())
            .map(|f| f.organisers)
            .unwrap_or_default();
        if organisers.is_empty() && !has_league_entries(dir) {
            return Ok(());
        }
        let m = Match::open(dir)?;
        let roster = Roster::load(dir, m.game())?;
        let head = m.log().head();
        // Each organiser's secret, once.
        let mut secrets: Option<PlayerSecrets> = None;
        for o in roster.organisers() {
            let key = format!(
                "{id}/organiser-secret/{}/{}",
                address_key(&o.email),
                o.name.trim().to_lowercase()
            );
            if self.outbox.status(&key)?.is_some() {
                continue;
            }
            if secrets.is_none() {
                secrets = Some(PlayerSecrets::load(dir)?);
            }
            let s = secrets.as_mut().expect("just loaded");
            let secret = s.issue_organiser(&o.name)?;
            s.save()?;
            let body = format!(
                "You are an organiser of match {id}, as {name}.\n\n\
                 Your organiser's secret: {secret}\n\n\
                 It is yours alone and works only for this match; keep it. To act on the match, write to {address} one action per message:\n\n\
                 match: {id}\norganiser: {name}\nsecret: {secret}\naction: extend\nby: 48h\nreason: a holiday\n\n\
                 The actions: {actions}.\n\
                 Every action is an entry in the match log, which every player can check, and every player gets a notice of it.\n",
                name = o.name,
                address = self.ours.for_match(id),
                actions = organise::actions_in_words(),
            );
            let out = self.outgoing(
                id,
                &o.email,
                Kind::Report,
                Some(format_subject_tag(id, None, None)),
                format!("You organise {id}: your secret"),
                text::answer_text(&self.templates, &format!("Organiser of {id}"), &body),
                None,
                &key,
                Some(head),
            );
            self.enqueue(&key, &out)?;
        }
        let entries = m.log().entries();
        let game_name = m.game().files().game.name.clone();
        let former = organise::former_players(dir);
        for (i, e) in entries.iter().enumerate() {
            let (subject, words) = match &e.body {
                Body::Organiser(o) => (
                    format!("Organiser: {} ({})", o.action.as_str(), o.organiser),
                    describe(o),
                ),
                Body::Escalation(x) => (
                    format!("{} missed {} deadlines", x.power, x.missed),
                    format!(
                        "{} has missed {} deadlines (the match's limit). {}\n",
                        x.power,
                        x.missed,
                        match x.policy {
                            crate::log::EscalationPolicy::Standing => format!(
                                "From now on {} is played with no orders at each of its deadlines (standing orders apply), until an organiser replaces its player.",
                                x.power
                            ),
                            crate::log::EscalationPolicy::Forfeit => format!(
                                "{} forfeits: it is played with no orders from now on (standing orders apply).",
                                x.power
                            ),
                        }
                    ),
                ),
                _ => continue,
            };
            let kind = match e.body {
                Body::Escalation(_) => "escalation",
                _ => "organiser",
            };
            let mut recipients: Vec<&str> = roster
                .notice_recipients()
                .into_iter()
                .map(|(a, _)| a)
                .collect();
            // The player a replacement took the seat from.
            if let Some(old) = former.get(&e.seq.to_string())
                && !recipients
                    .iter()
                    .any(|a| address_key(a) == address_key(old))
            {
                recipients.push(old);
            }
            for addr in recipients {
                let key = format!("{id}/{}/{kind}/{}", e.seq, address_key(addr));
                if self.outbox.status(&key)?.is_some() {
                    continue;
                }
                let out = self.outgoing(
                    id,
                    addr,
                    Kind::Report,
                    Some(format_subject_tag(id, None, None)),
                    subject.clone(),
                    text::answer_text(
                        &self.templates,
                        &subject,
                        &format!("{words}\n\nLog entry {}, hash {}.\n", e.seq, e.hash),
                    ),
                    None,
                    &key,
                    Some(e.hash),
                );
                self.enqueue(&key, &out)?;
            }
            // An organiser's reveal_bids: the reveal that follows it is
            // mailed as a last bid's is.
            if let Body::Organiser(o) = &e.body
                && o.action == crate::log::OrganiserAction::RevealBids
                && let Some(next) = entries.get(i + 1)
                && matches!(&next.body, Body::Bid(b) if b.step == crate::log::BidStep::Reveal)
            {
                self.bid_reveal_notices(&m, next.seq, next.hash)?;
            }
            // A replacement's welcome with a fresh secret: for the last
            // replacement of the power only (an earlier one's player is
            // no longer in the seat).
            if let Body::Organiser(o) = &e.body
                && o.action == crate::log::OrganiserAction::Replace
                && let Some(power) = &o.power
                && !entries[i + 1..].iter().any(|later| {
                    matches!(&later.body, Body::Organiser(x)
                        if x.action == crate::log::OrganiserAction::Replace && x.power == o.power)
                })
                && let Some(seat) = roster.seat(power)
            {
                let key = format!("{id}/{}/replaced/{}", e.seq, address_key(&seat.email));
                if self.outbox.status(&key)?.is_some() {
                    continue;
                }
                if secrets.is_none() {
                    secrets = Some(PlayerSecrets::load(dir)?);
                }
                let s = secrets.as_mut().expect("just loaded");
                let secret = s.issue(power)?;
                s.save()?;
                let body = format!(
                    "Welcome to match {id} of {game_name}: you play {power} from now on, in place of its former player.\n\n\
                     Your secret: {secret}\n\n\
                     Every orders message needs it (secret: {secret}). Send command: help to {address} for a guide to the orders, and command: status for the board.\n",
                    address = self.ours.for_match(id),
                );
                let out = self.outgoing(
                    id,
                    &seat.email,
                    Kind::Report,
                    Some(format_subject_tag(id, None, Some(power))),
                    format!("Welcome: you play {power}"),
                    text::answer_text(&self.templates, &format!("You play {power}"), &body),
                    None,
                    &key,
                    Some(e.hash),
                );
                self.enqueue(&key, &out)?;
            }
        }
        Ok(())
    }
}

/// Does the match's log hold organiser or escalation entries? (Read from
/// the file's bytes, so a match without them is not opened.)
pub(super) fn has_league_entries(dir: &Path) -> bool {
    std::fs::read(dir.join("log.jsonl")).is_ok_and(|b| {
        let has = |pat: &[u8]| b.windows(pat.len()).any(|w| w == pat);
        has(b"\"kind\":\"organiser\"") || has(b"\"kind\":\"escalation\"")
    })
}

#[cfg(test)]
mod tests {
    use super::organiser_line;

    #[test]
    fn the_organiser_line_is_read_without_yaml() {
        assert_eq!(
            organiser_line("match: m\nOrganiser: \"Olga P\"  # me\naction: [broken\n").as_deref(),
            Some("Olga P")
        );
        assert_eq!(organiser_line("power: Germany\n"), None);
    }
}
