//! Step 8 of a message (`docs/daemon.md`): every reply its final
//! `received` entry calls for, into the outbox.
//!
//! Replies are derived from the log alone (the entry, the orders and the
//! adjudication before it, the match as it stands) and enqueued under keys
//! made of the entry (`MATCH/SEQ/what/recipient`), so the same message seen
//! again after a crash enqueues the same replies under the same keys, which
//! the outbox holds once. They are enqueued only after the entry is
//! durable, and the message leaves the inbox only after they are (step 9).
//! The mail builders here serve the welcome and deadline mails too.

use std::time::SystemTime;

use chrono::Utc;

use crate::dice::Digest32;
use crate::log::{Body, Outcome};
use crate::mail::compose::{Kind, MailImage, Outgoing, Thread, compose_with_image, message_id_for};
use crate::mail::message::Mailbox;
use crate::mail::route::format_subject_tag;
use crate::matches::players::address_key;
use crate::matches::{Match, PlayerSecrets, Roster};
use crate::report::board;

use super::super::commands::Command;
use super::super::ledger::Ledger;
use super::super::text::{self, MailBody};
use super::Daemon;
use super::inbound::Message;

impl Daemon {
    /// Enqueues every reply that the `received` entry `i` calls for, under
    /// keys derived from the entry (`MATCH/SEQ/what/recipient`): called
    /// after the entry is durable, and again for a message seen after a
    /// crash, where the outbox's once-per-key rule keeps each reply single.
    pub(super) fn ensure_replies(
        &mut self,
        m: &mut Match,
        roster: &Roster,
        i: usize,
        msg: &Message,
    ) -> anyhow::Result<()> {
        let (id, dir, mail, from) = (
            msg.id.as_str(),
            msg.dir.as_path(),
            &msg.mail,
            msg.from.as_str(),
        );
        if Ledger::of(m).received(i).map(|r| r.outcome) == Some(Outcome::Accepted) {
            // The next stage's deadline goes into the log before the
            // report that quotes it is rendered.
            self.set_deadline_of_next_stage(m, roster)?;
        }
        let m = &*m;
        let ledger = Ledger::of(m);
        let entry = &ledger.entries()[i];
        let seq = entry.seq;
        let head = entry.hash;
        let r = ledger.received(i).expect("a received entry").clone();
        let thread = Thread::replying_to(mail);
        let sender = address_key(from);
        let round = m.state().round;
        let next = match m.log().chain().bid().bidders() {
            // Sealed bids wait: nobody is to move (the help and status
            // say what is awaited instead).
            Some((_, side)) if m.log().chain().bid().waiting() => format!(
                "the match waits for the sealed bids of the {} (a message with bid: N alone, the setup money you would accept to play the {side}; the lower bid takes the {side}); they are revealed when the last is in, or {}",
                m.waiting_bidders().join(", the "),
                match self.bid_due(m, roster) {
                    Some(due) => format!(
                        "at the bid deadline, {}, with the bids that are in",
                        crate::matches::deadlines::format_due(due, None).0
                    ),
                    None => "when an organiser reveals them at the bid deadline".to_owned(),
                }
            ),
            _ => format!(
                "{} to move, {}",
                m.game().powers()[m.state().current_power(m.game())].name,
                m.state().phase.stage_name()
            ),
        };
        let tag = format_subject_tag(id, Some(round), r.power.as_deref());
        // Authenticated from an address that is not the player's of record.
        if let Some(power) = &r.power
            && matches!(
                r.outcome,
                Outcome::Accepted | Outcome::Rejected | Outcome::Command
            )
            && let Some(seat) = roster.seat(power)
            && address_key(&seat.email) != sender
        {
            let key = format!("{id}/{seq}/alert/{}", address_key(&seat.email));
            let out = self.outgoing(
                id,
                &seat.email,
                Kind::Report,
                Some(tag.clone()),
                "Your secret was used from another address".into(),
                text::alert_text(&self.templates, power, id, from),
                None,
                &key,
                Some(head),
            );
            self.enqueue(&key, &out)?;
        }
        match r.outcome {
            Outcome::Processing | Outcome::Bounce => {}
            Outcome::Accepted => {
                if self.bid_replies(m, i, from, thread.clone(), head)? {
                    return Ok(());
                }
                let Some(rec) = ledger.stage_of(i) else {
                    anyhow::bail!("entry {seq}: accepted, but its orders are not in the log");
                };
                let key = format!("{id}/{seq}/receipt/{sender}");
                let tag = format_subject_tag(id, Some(rec.round), Some(&rec.power));
                let subject = if rec.stage == 0 {
                    format!("Accepted: standing orders of {}", rec.power)
                } else {
                    format!("Accepted: {} of round {}", rec.stages(), rec.round)
                };
                let out = self.outgoing(
                    id,
                    from,
                    Kind::Reply,
                    Some(tag.clone()),
                    subject,
                    text::receipt_text(&self.templates, &rec, &head.to_hex(), &next),
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
                // Standing orders change no position: the receipt is all.
                if rec.stage == 0 {
                    return Ok(());
                }
                let Some(adjudication) = adjudication_before(ledger, i) else {
                    anyhow::bail!("entry {seq}: accepted, but its adjudication is not in the log");
                };
                // The report is replayed from the log once, and only if some
                // copy is not queued yet (a duplicate message finds them all).
                let mut turn = None;
                let mut map: Option<MailImage> = None;
                for (addr, zone) in roster.report_recipients() {
                    let key = format!("{id}/{seq}/report/{}", address_key(addr));
                    if self.outbox.status(&key)?.is_some() {
                        continue;
                    }
                    if turn.is_none() {
                        let mut report = text::turn_report_of(m, adjudication)?;
                        map = self.report_map(m, adjudication);
                        if let Some(image) = &map {
                            report = report.with_map(&image.content_id);
                        }
                        turn = Some(report);
                    }
                    let turn = turn.as_ref().expect("just built");
                    let report: MailBody = text::report_text(&self.templates, turn, zone).into();
                    let out = self.outgoing(
                        id,
                        addr,
                        Kind::Report,
                        Some(tag.clone()),
                        format!(
                            "Report: {} {} of round {}",
                            rec.power,
                            rec.stages(),
                            rec.round
                        ),
                        report.clone(),
                        None,
                        &key,
                        Some(head),
                    );
                    self.enqueue_with_image(&key, &out, map.as_ref())?;
                }
                self.refresh_archive(m);
            }
            Outcome::Rejected => {
                let key = format!("{id}/{seq}/rejected/{sender}");
                let out = self.outgoing(
                    id,
                    from,
                    Kind::Reply,
                    Some(tag),
                    "Rejected: nothing was applied".into(),
                    text::rejection_text(
                        &self.templates,
                        &r.errors,
                        &self.deadline_text(ledger, roster, from),
                    ),
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
            }
            Outcome::Refused => {
                let key = format!("{id}/{seq}/refused/{sender}");
                let out = self.outgoing(
                    id,
                    from,
                    Kind::Reply,
                    Some(format_subject_tag(id, None, None)),
                    "Refused: nothing was applied".into(),
                    text::refused_text(&self.templates, &r.errors),
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
            }
            Outcome::Command => {
                let cmd = r.command.clone().unwrap_or_default();
                let power = r.power.clone().unwrap_or_default();
                let key = format!("{id}/{seq}/{cmd}/{sender}");
                if self.outbox.status(&key)?.is_some() {
                    return Ok(());
                }
                if cmd == super::organiser::ORGANISE {
                    // The organiser's secret from another address: their
                    // address of record is told, as a player's would be.
                    if let Some(o) = super::organiser::organiser_of(m, &r)
                        && let Some(who) = roster.organiser(&o)
                        && address_key(&who.email) != sender
                    {
                        let key = format!("{id}/{seq}/alert/{}", address_key(&who.email));
                        let out = self.outgoing(
                            id,
                            &who.email,
                            Kind::Report,
                            Some(format_subject_tag(id, None, None)),
                            "Your organiser's secret was used from another address".into(),
                            text::answer_text(
                                &self.templates,
                                "Your organiser's secret was used from another address",
                                &format!(
                                    "A message from {from} carried your organiser's secret for match {id}, and its action was carried out (log entry {seq}).\nIf it was not you, tell the server's operator: your secret is known to someone else.\n"
                                ),
                            ),
                            None,
                            &key,
                            Some(head),
                        );
                        self.enqueue(&key, &out)?;
                    }
                    let body = self.organiser_reply_text(m, &r);
                    let out = self.outgoing(
                        id,
                        from,
                        Kind::Reply,
                        Some(format_subject_tag(id, None, None)),
                        "Organiser: done".into(),
                        text::answer_text(&self.templates, "Done", &body),
                        thread,
                        &key,
                        Some(head),
                    );
                    return self.enqueue(&key, &out);
                }
                let Some(command) = Command::from_word(&cmd) else {
                    anyhow::bail!("entry {seq}: unknown command {cmd:?}");
                };
                let (to, body) = match command {
                    Command::History => {
                        let text = mail.orders.as_ref().map(|o| o.text.as_str()).unwrap_or("");
                        let header = crate::rules::orders::header::scan_header(text);
                        let wanted = super::league::history_entries(ledger.entries(), &header)
                            .map_err(anyhow::Error::msg)?;
                        let zone = roster
                            .report_recipients()
                            .into_iter()
                            .find(|(x, _)| address_key(x) == sender)
                            .and_then(|(_, z)| z);
                        // One mail per report, each under its own key.
                        for a in wanted {
                            let key = format!("{id}/{seq}/history/{sender}/{a}");
                            let turn = text::turn_report_of(m, a)?;
                            let out = self.outgoing(
                                id,
                                from,
                                Kind::Reply,
                                Some(format_subject_tag(id, Some(turn.round), Some(&turn.power))),
                                format!(
                                    "History: {} {} of round {} (log entry {a})",
                                    turn.power, turn.stages, turn.round
                                ),
                                text::report_text(&self.templates, &turn, zone),
                                thread.clone(),
                                &key,
                                Some(head),
                            );
                            self.enqueue(&key, &out)?;
                        }
                        return Ok(());
                    }
                    Command::Standings => (
                        from.to_owned(),
                        text::answer_text(
                            &self.templates,
                            &format!("Standings: {id}"),
                            &self.standings_answer(id, dir),
                        )
                        .into(),
                    ),
                    Command::List => (
                        from.to_owned(),
                        text::answer_text(&self.templates, "Your matches", &self.list_answer(from))
                            .into(),
                    ),
                    Command::Help => {
                        let orders_address = self.ours.for_match(id);
                        let reader = m.game().power(&power).unwrap_or(0);
                        let help = text::HelpFor {
                            match_id: id,
                            orders_address: &orders_address,
                            game: m.game(),
                            power: reader,
                            round,
                            now: &next,
                            help_url: self.config.help_url.as_deref(),
                        };
                        (
                            from.to_owned(),
                            text::help_text(&self.templates, &help).into(),
                        )
                    }
                    Command::Status => (
                        from.to_owned(),
                        text::answer_text(
                            &self.templates,
                            &format!("Status of {id}"),
                            &format!(
                                "{}\nNow: {next}\nDeadline: {}\nLog head: {head}\n",
                                board::render(m.game(), m.state()),
                                self.deadline_text(ledger, roster, from)
                            ),
                        )
                        .into(),
                    ),
                    Command::Standing => (
                        from.to_owned(),
                        text::answer_text(
                            &self.templates,
                            &format!("Standing orders of {power}"),
                            &standing_text(m, &power),
                        )
                        .into(),
                    ),
                    Command::Resend => {
                        let body: MailBody = match ledger
                            .last_accepted()
                            .and_then(|j| adjudication_before(ledger, j))
                        {
                            Some(a) => {
                                let zone = roster
                                    .report_recipients()
                                    .into_iter()
                                    .find(|(x, _)| address_key(x) == sender)
                                    .and_then(|(_, z)| z);
                                let turn = text::turn_report_of(m, a)?;
                                text::report_text(&self.templates, &turn, zone).into()
                            }
                            None => text::answer_text(
                                &self.templates,
                                "Nothing to resend",
                                "No stage has been played yet: there is no report to resend.\n",
                            )
                            .into(),
                        };
                        (from.to_owned(), body)
                    }
                    Command::Odds => {
                        let text = mail.orders.as_ref().map(|o| o.text.as_str()).unwrap_or("");
                        (
                            from.to_owned(),
                            text::answer_text(
                                &self.templates,
                                "Odds",
                                &text::odds_text(m.game(), text),
                            )
                            .into(),
                        )
                    }
                    Command::Rotate => {
                        // The new secret goes to the address of record only.
                        let Some(seat) = roster.seat(&power) else {
                            anyhow::bail!("{power} has no seat in the players file");
                        };
                        let mut secrets = PlayerSecrets::load(dir)?;
                        let secret = secrets.issue(&power)?;
                        secrets.save()?;
                        (
                            seat.email.clone(),
                            text::rotated_text(&self.templates, &power, id, &secret).into(),
                        )
                    }
                };
                let out = self.outgoing(
                    id,
                    &to,
                    Kind::Reply,
                    Some(tag),
                    cmd.clone(),
                    body,
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn outgoing(
        &self,
        id: &str,
        to: &str,
        kind: Kind,
        tag: Option<String>,
        subject: String,
        body: impl Into<MailBody>,
        thread: Option<Thread>,
        key: &str,
        head: Option<Digest32>,
    ) -> Outgoing {
        let body = body.into();
        let mut out = self.outgoing_plain(to, kind, tag, subject, body.text, thread, key);
        out.html = body.html;
        let plus = self.ours.for_match(id);
        out.reply_to = Some(Mailbox {
            address: plus.clone(),
            name: None,
        });
        out.envelope_from = Some(plus);
        if let Some(h) = head {
            out.extra_headers
                .push(("X-Adjutant-Log-Head".into(), h.to_hex()));
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn outgoing_plain(
        &self,
        to: &str,
        kind: Kind,
        tag: Option<String>,
        subject: String,
        text: String,
        thread: Option<Thread>,
        key: &str,
    ) -> Outgoing {
        Outgoing {
            from: self.config.from.clone(),
            to: vec![Mailbox {
                address: to.to_owned(),
                name: None,
            }],
            reply_to: None,
            tag,
            subject,
            text,
            html: None,
            kind,
            thread,
            message_id: message_id_for(key, &self.config.domain),
            date: SystemTime::now(),
            domain: self.config.domain.clone(),
            envelope_from: None,
            extra_headers: Vec::new(),
        }
    }

    /// Composes and enqueues under `key`, unless the key is already known.
    pub(super) fn enqueue(&mut self, key: &str, out: &Outgoing) -> anyhow::Result<()> {
        self.enqueue_with_image(key, out, None)
    }

    /// The map of the board after adjudication `seq`, for a turn report
    /// (`mail.map_in_reports`); `None` when the setting is off or the game
    /// has no map data, and when it cannot be drawn (logged: a report
    /// without its picture is still the whole report).
    fn report_map(&self, m: &Match, seq: u64) -> Option<MailImage> {
        if !self.config.map_in_reports {
            return None;
        }
        match crate::report::map::adjudication_png(m.dir(), m.game(), m.log().entries(), seq) {
            Ok(png) => Some(MailImage {
                content_id: format!("map.{seq}@{}", self.config.domain),
                filename: "map.png".into(),
                png,
            }),
            Err(e) => {
                tracing::warn!(game = %m.game().id(), error = %e, "no map in the report");
                None
            }
        }
    }

    /// Refreshes the match's pages of the static archive (`archive.dir`)
    /// after a stage; a failure is logged, never the message's.
    pub(super) fn refresh_archive(&self, m: &Match) {
        let Some(site) = &self.config.archive_dir else {
            return;
        };
        match crate::report::archive::refresh_match(m.dir(), site) {
            Ok(w) => {
                for warning in &w.warnings {
                    tracing::warn!(site = %site.display(), "archive: {warning}");
                }
            }
            Err(e) => {
                tracing::warn!(site = %site.display(), error = %e, "the archive was not refreshed")
            }
        }
    }

    /// [`Self::enqueue`], with `image` inline in the HTML part and listed
    /// as an attachment.
    pub(super) fn enqueue_with_image(
        &mut self,
        key: &str,
        out: &Outgoing,
        image: Option<&MailImage>,
    ) -> anyhow::Result<()> {
        if self.outbox.status(key)?.is_some() {
            return Ok(());
        }
        match compose_with_image(out, image) {
            Ok(c) => {
                self.outbox
                    .enqueue(&c.bytes, &c.envelope, key, Utc::now())?;
            }
            // A recipient address that cannot be written (a player's typo):
            // nothing can be sent, which must not stop the daemon.
            Err(e) => tracing::error!(key = %key, error = %e, "reply cannot be built; not sent"),
        }
        Ok(())
    }

    /// The current stage's deadline as `reader` sees it (UTC, and their
    /// own zone when set): the stage's last `set` entry (an organiser may
    /// have moved it), else the settings from the stage's start.
    fn deadline_text(&self, ledger: Ledger<'_>, roster: &Roster, reader: &str) -> String {
        let settings = crate::matches::deadlines::DeadlineSettings::with_match(
            self.config.deadlines,
            roster.deadlines(),
        )
        .unwrap_or(self.config.deadlines);
        let entries = ledger.entries();
        if let Some(i) = crate::matches::organise::paused_index(entries) {
            return format!(
                "none while the match is paused (by an organiser, log entry {})",
                entries[i].seq
            );
        }
        let due = ledger.stage_clock_start().and_then(|(since, start)| {
            let set = entries[since + 1..]
                .iter()
                .rev()
                .find_map(|e| match &e.body {
                    Body::Deadline(d) if d.event == crate::log::DeadlineEvent::Set => {
                        chrono::DateTime::parse_from_rfc3339(&d.due)
                            .ok()
                            .map(|t| t.with_timezone(&Utc))
                    }
                    _ => None,
                });
            set.or_else(|| settings.due(start))
        });
        match due {
            Some(due) => {
                let tz = roster
                    .report_recipients()
                    .into_iter()
                    .find(|(a, _)| address_key(a) == address_key(reader))
                    .and_then(|(_, tz)| tz);
                match crate::matches::deadlines::format_due(due, tz) {
                    (utc, Some(local)) => format!("{utc} ({local})"),
                    (utc, None) => utc,
                }
            }
            None => "none set: the match waits for your orders".into(),
        }
    }
}

/// The adjudication entry (its sequence number) of the accepted message
/// whose final `received` entry is at index `i`: the last one before it.
fn adjudication_before(ledger: Ledger<'_>, i: usize) -> Option<u64> {
    ledger.entries()[..i]
        .iter()
        .rev()
        .find(|e| matches!(e.body, Body::Adjudication(_)))
        .map(|e| e.seq)
}

/// The answer to `standing`: the standing orders of `power`.
fn standing_text(m: &Match, power: &str) -> String {
    let game = m.game();
    let Some(p) = game.power(power) else {
        return format!("{power} is not a power of this game.\n");
    };
    let Some(s) = m.state().standing.get(p) else {
        return format!("{power} has no standing orders.\n");
    };
    let losses: Vec<&str> = s
        .losses
        .iter()
        .map(|&u| game.unit_types()[u].name.as_str())
        .collect();
    format!(
        "Standing orders of {power}:\n    losses: {}\n    keep_one_land_unit: {}\n    submarines: {}\n    bystander_losses: {}\n{}{}{}{}\n\
         To change them, send a message with a standing: section (command: help shows one).\n",
        if losses.is_empty() {
            "the rules' default order".to_string()
        } else {
            losses.join(", ")
        },
        s.keep_one_land_unit,
        match s.submarines {
            crate::rules::orders::SubmarinePolicy::WithdrawAfterRound { after_round, to } => {
                format!(
                    "{{withdraw_after_round: {after_round}{}}}",
                    to.map(|z| format!(", to: {}", game.space_name(z)))
                        .unwrap_or_default()
                )
            }
            other => other.word().to_owned(),
        },
        s.bystander_losses.word(),
        s.intercept
            .map(|n| format!("    intercept: {n}\n"))
            .unwrap_or_default(),
        if s.middle_east_payment != crate::rules::orders::MiddleEastPayment::default() {
            format!(
                "    middle_east_payment: {}\n",
                s.middle_east_payment.word()
            )
        } else {
            String::new()
        },
        if s.neutral_defenders != crate::rules::orders::NeutralDefenders::default() {
            format!("    neutral_defenders: {}\n", s.neutral_defenders.word())
        } else {
            String::new()
        },
        if s.teams != Default::default() {
            format!("    special_force_teams: {}\n", s.teams.written(game))
        } else {
            String::new()
        }
    )
}
