//! The replies to a sealed bid (`docs/league.md`, "Bids"), from the log:
//! the bidder's receipt (the commitment and its salt, so they can check it),
//! and after the reveal a notice to every player, organiser and observer,
//! with a new secret for each power whose seat changed hands. The notices
//! of a reveal are the same whether the last bid, an organiser's
//! `reveal_bids` or the bid deadline brought it.

use crate::dice::Digest32;
use crate::log::{BidEntry, BidStep, Body};
use crate::mail::compose::{Kind, Thread};
use crate::mail::route::format_subject_tag;
use crate::matches::players::address_key;
use crate::matches::{Match, PlayerSecrets, Roster, bids};

use super::super::text;
use super::Daemon;

impl Daemon {
    /// The replies of an accepted message whose entries (after its
    /// `processing` entry, before its final entry `i`) are `bid` entries;
    /// `false` when they are not (the message was orders).
    pub(super) fn bid_replies(
        &mut self,
        m: &Match,
        i: usize,
        from: &str,
        thread: Option<Thread>,
        head: Digest32,
    ) -> anyhow::Result<bool> {
        let entries = m.log().entries();
        let fin = &entries[i];
        let Body::Received(r) = &fin.body else {
            return Ok(false);
        };
        let Some(start) = (0..i).rev().find(|&j| {
            matches!(&entries[j].body, Body::Received(p)
                if p.outcome == crate::log::Outcome::Processing && p.mail_sha256 == r.mail_sha256)
        }) else {
            return Ok(false);
        };
        let steps: Vec<(u64, &BidEntry)> = entries[start + 1..i]
            .iter()
            .filter_map(|e| match &e.body {
                Body::Bid(b) => Some((e.seq, b)),
                _ => None,
            })
            .collect();
        let Some((_, sealed)) = steps.iter().find(|(_, b)| b.step == BidStep::Sealed) else {
            return Ok(false);
        };
        let id = m.log().chain().genesis().expect("genesis").match_id.clone();
        let bidder = sealed.bidder.clone().unwrap_or_default();
        let reveal = steps.iter().find(|(_, b)| b.step == BidStep::Reveal);
        // The secret and the amount: on the server until the reveal, in
        // the log after it.
        let (secret, ipcs) = match reveal {
            Some((_, rv)) => (
                rv.secret,
                rv.bids
                    .as_deref()
                    .unwrap_or_default()
                    .iter()
                    .find(|b| b.bidder == bidder)
                    .map(|b| b.ipcs),
            ),
            None => (
                bids::load_secret(m.dir()).ok(),
                bids::load_amounts(m.dir())
                    .ok()
                    .and_then(|a| a.into_iter().find(|(b, _)| *b == bidder).map(|(_, n)| n)),
            ),
        };
        let (Some(secret), Some(ipcs)) = (secret, ipcs) else {
            anyhow::bail!(
                "entry {}: a sealed bid whose secret or amount is gone",
                fin.seq
            );
        };
        let salt = crate::dice::bid::salt(&id, &secret, &bidder);
        let commitment = sealed.commitment.unwrap_or_default();
        let key = format!("{id}/{}/bid/{}", fin.seq, address_key(from));
        let subject = format!("Sealed: the {bidder} bid");
        let body = format!(
            "Your bid of {ipcs} IPCs for the {bidder} is sealed in the log.\n\n\
             Commitment: {commitment}\nSalt: {salt}\n\n\
             No one sees the amount until every bid is in; then the log reveals them all. \
             To check that the commitment seals your bid:\n\n    \
             python3 tools/verify_dice.py bid {id} {bidder:?} {ipcs} {salt}\n\n\
             Log head {head}.\n"
        );
        self.mail_once(
            &id,
            from,
            Kind::Reply,
            None,
            &subject,
            &body,
            thread,
            &key,
            head,
        )?;
        if let Some((seq, _)) = reveal {
            self.bid_reveal_notices(m, *seq, head)?;
        }
        Ok(true)
    }

    /// The notices of the bids' reveal at entry `seq` (whether the last bid,
    /// an organiser or the bid deadline brought it): the bids and the seats
    /// to every player, observer and organiser, and a new secret to each
    /// player of a seat that changed hands. Each mail goes once (by its
    /// key), so this may be called again after a crash.
    pub(super) fn bid_reveal_notices(
        &mut self,
        m: &Match,
        seq: u64,
        head: Digest32,
    ) -> anyhow::Result<()> {
        let Some(Body::Bid(rv)) = m.log().entries().get(seq as usize - 1).map(|e| &e.body) else {
            anyhow::bail!("entry {seq} is not the bids' reveal");
        };
        let id = m.log().chain().genesis().expect("genesis").match_id.clone();
        let words = bids::describe(rv);
        // The seats as the reveal left them (a roster read before it has
        // the old ones).
        let roster = &Roster::load(m.dir(), m.game())?;
        let seats: Vec<String> = roster
            .seats()
            .iter()
            .map(|s| format!("  {}: {}", s.power, s.name))
            .collect();
        let body = format!(
            "{words}.\n\nThe seats now:\n{}\n\nLog entry {seq}, hash {head}. {}\n",
            seats.join("\n"),
            m.state().phase.stage_name()
        );
        let mut to: Vec<&str> = roster
            .report_recipients()
            .into_iter()
            .map(|(a, _)| a)
            .chain(roster.organisers().iter().map(|o| o.email.as_str()))
            .collect();
        to.sort_by_key(|a| address_key(a));
        to.dedup_by_key(|a| address_key(a));
        for addr in to {
            let key = format!("{id}/{seq}/bids-revealed/{}", address_key(addr));
            self.mail_once(
                &id,
                addr,
                Kind::Report,
                None,
                "Bids revealed",
                &body,
                None,
                &key,
                head,
            )?;
        }
        // The seats that changed hands: their secrets were revoked; each
        // player gets one for every power they now play.
        let mut secrets = PlayerSecrets::load(m.dir())?;
        for seat in roster.seats() {
            let key = format!("{id}/{seq}/bid-seat/{}", seat.power);
            if secrets.has(&seat.power) || self.outbox.status(&key)?.is_some() {
                continue;
            }
            let secret = secrets.issue(&seat.power)?;
            secrets.save()?;
            let body = format!(
                "The bids are revealed and the seats changed hands: in match {id} you play {} from now on.\n\n\
                 Your secret: {secret}\n\n\
                 Every orders message needs it (secret: {secret}). Send command: help to {} for a guide to the orders.\n",
                seat.power,
                self.ours.for_match(&id),
            );
            self.mail_once(
                &id,
                &seat.email,
                Kind::Report,
                Some(&seat.power),
                &format!("Welcome: you play {}", seat.power),
                &body,
                None,
                &key,
                head,
            )?;
        }
        Ok(())
    }

    /// One mail of a bid, under `key` (sent once), tagged with the match
    /// (and `power`).
    #[allow(clippy::too_many_arguments)]
    fn mail_once(
        &mut self,
        id: &str,
        to: &str,
        kind: Kind,
        power: Option<&str>,
        subject: &str,
        body: &str,
        thread: Option<Thread>,
        key: &str,
        head: Digest32,
    ) -> anyhow::Result<()> {
        let out = self.outgoing(
            id,
            to,
            kind,
            Some(format_subject_tag(id, None, power)),
            subject.to_owned(),
            text::answer_text(&self.templates, subject, body),
            thread,
            key,
            Some(head),
        );
        self.enqueue(key, &out)
    }
}
