//! Deadlines in the daemon: for each match with a deadline, the reminder
//! before it, the late notices after it, and the no-orders policy; and the
//! bid deadline (a stage's time from the welcome), at which the sealed bids
//! that are in are revealed.
//!
//! Every event is logged before its mail is enqueued (keys
//! `MATCH/SEQ/reminder|late|report/ADDRESS`), so after a crash the mail is
//! enqueued from the log and never twice. A `pass` is logged before the
//! stage is adjudicated; a `passed` entry with no adjudication of its stage
//! after it is finished on the next look.
//!
//! Not a step of a message: the daemon looks at every match after each
//! pass over the inbox. A look opens the match once and does everything
//! through it; a match whose log and players file did not change is not
//! opened until its next deadline comes.

use std::path::Path;

use anyhow::Context;
use chrono::{DateTime, Utc};

use crate::log::{Body, Deadline, DeadlineEvent, Escalation, EscalationPolicy};
use crate::mail::compose::Kind;
use crate::mail::route::format_subject_tag;
use crate::matches::deadlines::{Action, DeadlineSettings, NoOrders, format_due, next_action};
use crate::matches::organise::{self, Absence, LeagueSettings};
use crate::matches::players::address_key;
use crate::matches::{Match, Roster};
use crate::report::mail::DeadlineNotice;

use super::super::ledger::Ledger;
use super::super::text::{self, MailBody};
use super::Daemon;
use super::organiser::has_league_entries;

/// The bid deadline of `m` under `settings` ([`Daemon::bid_due`]).
fn bid_due(m: &Match, settings: &DeadlineSettings) -> Option<DateTime<Utc>> {
    let stage = chrono::Duration::from_std(settings.stage?).ok()?;
    let (_, start) = organise::stage_clock_start(m.log().entries())?;
    Some(start + stage)
}

/// What the daemon remembers of a match between looks: the log's length
/// when it last looked and when to look again.
#[derive(Debug, Clone, Copy)]
pub(super) struct Clock {
    /// The log's length and the players file's modification time: a match
    /// is looked at again when either changes (an organiser may edit its
    /// deadlines).
    seen: Seen,
    next: Option<DateTime<Utc>>,
}

type Seen = (u64, Option<std::time::SystemTime>);

fn seen(dir: &Path) -> Seen {
    let len = std::fs::metadata(dir.join("log.jsonl"))
        .map(|m| m.len())
        .unwrap_or(0);
    let players = std::fs::metadata(dir.join("players.yaml"))
        .and_then(|m| m.modified())
        .ok();
    (len, players)
}

impl Daemon {
    /// Acts on every deadline due at `now`; returns when the next one falls
    /// (the daemon's wait ends then). A match is looked at again only when
    /// its log or players file changed or its next event came.
    pub fn check_deadlines(&mut self, now: DateTime<Utc>) -> anyhow::Result<Option<DateTime<Utc>>> {
        let mut wake: Option<DateTime<Utc>> = None;
        let matches: Vec<(String, std::path::PathBuf)> = self
            .matches
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        for (id, dir) in matches {
            if self.stopping() {
                break;
            }
            let now_seen = seen(&dir);
            if let Some(c) = self.clocks.get(&id)
                && c.seen == now_seen
                && c.next.is_none_or(|t| t > now)
            {
                wake = earliest(wake, c.next);
                continue;
            }
            let looked = self.deadlines_of(&id, &dir, now);
            // After the deadlines: an escalation they logged is mailed now.
            let mailed = self.organisers_of(&id, &dir);
            if let Err(e) = &mailed {
                tracing::error!(match_id = %id, error = %format!("{e:#}"), "organisers' mail not sent; tried again on the next pass");
            }
            match looked {
                Ok(next) => {
                    self.clocks.insert(
                        id,
                        Clock {
                            // Mail not sent (the match was busy): looked at
                            // again on the next pass, as if it had changed.
                            seen: if mailed.is_ok() {
                                seen(&dir)
                            } else {
                                (u64::MAX, None)
                            },
                            next,
                        },
                    );
                    wake = earliest(wake, next);
                }
                Err(e) => {
                    tracing::error!(match_id = %id, error = %format!("{e:#}"), "deadlines not checked");
                    // Not again until the log or the players file changes.
                    self.clocks.insert(
                        id,
                        Clock {
                            seen: now_seen,
                            next: None,
                        },
                    );
                }
            }
        }
        Ok(wake)
    }

    /// One match: take every action due, make sure the mail of every event
    /// of the current stage is enqueued, and say when to look again. A
    /// paused match does nothing; a power that is out (forfeited, resigned)
    /// or whose player is away with `absence: play` is played with no
    /// orders at once; a power that missed `escalate_after` deadlines is
    /// escalated (`docs/daemon.md`, "Organisers").
    fn deadlines_of(
        &mut self,
        id: &str,
        dir: &Path,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Option<DateTime<Utc>>> {
        // Most matches of a league without deadlines: decided from the
        // players file alone, without replaying the match.
        if self.config.deadlines.stage.is_none()
            && !has_own_deadlines(dir)
            && !has_league_entries(dir)
        {
            return Ok(None);
        }
        let mut m = Match::open(dir)?;
        let roster = Roster::load(dir, m.game())?;
        let settings = DeadlineSettings::with_match(self.config.deadlines, roster.deadlines())
            .map_err(|errs| {
                let list: Vec<String> = errs.iter().map(|(k, e)| format!("{k}: {e}")).collect();
                anyhow::anyhow!("players.yaml: {}", list.join("; "))
            })?;
        let league = LeagueSettings::of(roster.deadlines()).map_err(|errs| {
            let list: Vec<String> = errs.iter().map(|(k, e)| format!("{k}: {e}")).collect();
            anyhow::anyhow!("players.yaml: {}", list.join("; "))
        })?;
        // Each pass adjudicates a stage and starts the next one's clock;
        // the bound only guards against a policy that cannot advance.
        for _ in 0..64 {
            if m.log().chain().paused().is_some() {
                // Resuming writes to the log, which brings the next look.
                self.ensure_pass_reports(id, &m, &roster)?;
                return Ok(None);
            }
            // Sealed bids wait for their reveal: a stage's time from the
            // welcome, then the bids that are in are revealed (a bidder who
            // did not bid has no bid), as an organiser's reveal_bids would.
            if m.log().chain().bid().waiting() {
                let Some(due) = bid_due(&m, &settings) else {
                    return Ok(None);
                };
                if now < due {
                    return Ok(Some(due));
                }
                let seq = m.reveal_bids()?;
                tracing::info!(match_id = %id, entry = seq, "bid deadline passed: the bids revealed");
                let head = m.log().head();
                self.bid_reveal_notices(&m, seq, head)?;
                continue;
            }
            let Some(cur) = organise::current_stage(&m) else {
                self.ensure_pass_reports(id, &m, &roster)?;
                return Ok(None);
            };
            // Played with no orders at once: a power that is out, or whose
            // player is away and the match plays for them.
            let away = organise::absences(m.log().entries(), &cur.power);
            let playing_away = away
                .iter()
                .any(|(f, u, a)| *a == Absence::Play && *f <= now && now < *u);
            if m.log().chain().is_out(&cur.power) || playing_away {
                // The reports of the stage played before this one.
                self.ensure_pass_reports(id, &m, &roster)?;
                let st = StageNow {
                    power: cur.power.clone(),
                    round: cur.round,
                    stage: cur.stage,
                    since: cur.since,
                    start: cur.start,
                    due: cur.due.unwrap_or(now),
                };
                let passed = Ledger::of(&m)
                    .deadline_events(cur.since, cur.round, &cur.power, cur.stage)
                    .iter()
                    .any(|(_, e, _)| *e == DeadlineEvent::Passed);
                if !passed {
                    append_deadline(&mut m, &st, DeadlineEvent::Passed)?;
                    tracing::info!(match_id = %id, power = %st.power, round = st.round, stage = st.stage, "played with no orders (out or away)");
                }
                play_pass(&mut m, &st.power, st.round)?;
                continue;
            }
            // An absence with `play` that has not begun: look again then.
            let away_from = away
                .iter()
                .filter(|(f, _, a)| *a == Absence::Play && *f > now)
                .map(|(f, _, _)| *f)
                .min();
            if settings.stage.is_none() {
                self.ensure_pass_reports(id, &m, &roster)?;
                return Ok(away_from);
            }
            let Some(st) = ensure_stage_set(&mut m, &settings)? else {
                self.ensure_pass_reports(id, &m, &roster)?;
                return Ok(away_from);
            };
            // After the `set` entry: the reports of a pass quote the next
            // stage's deadline.
            self.ensure_pass_reports(id, &m, &roster)?;
            let events = Ledger::of(&m).deadline_events(st.since, st.round, &st.power, st.stage);
            let logged: Vec<DeadlineEvent> = events.iter().map(|(_, e, _)| *e).collect();
            for (seq, event, _) in &events {
                self.ensure_deadline_mail(id, &roster, *seq, *event, &st, &settings)?;
            }
            if logged.contains(&DeadlineEvent::Passed) {
                // Logged, but the stage was not played before a crash.
                play_pass(&mut m, &st.power, st.round)?;
                continue;
            }
            // A power escalated to `standing` is played at its deadlines,
            // whatever the match's policy.
            let mut policy = settings;
            if organise::escalated(m.log().entries(), &st.power) == Some(EscalationPolicy::Standing)
            {
                policy.no_orders = NoOrders::Pass;
            }
            let (action, next) = next_action(&policy, st.start, st.due, &logged, now);
            let Some(action) = action else {
                return Ok(earliest(next, away_from));
            };
            let written = append_deadline(&mut m, &st, action.event())?;
            tracing::info!(match_id = %id, power = %st.power, round = st.round, stage = st.stage, event = action.event().as_str(), "deadline event logged");
            if action == Action::Pass {
                play_pass(&mut m, &st.power, st.round)?;
            } else {
                self.ensure_deadline_mail(id, &roster, written, action.event(), &st, &policy)?;
            }
            if action == Action::Late
                && let Some(limit) = league.escalate_after
            {
                let entries = m.log().entries();
                let missed = organise::missed(entries, &st.power);
                if missed >= limit && organise::escalated(entries, &st.power).is_none() {
                    m.record(Body::Escalation(Escalation {
                        power: st.power.clone(),
                        missed,
                        policy: league.escalation,
                    }))?;
                    if league.escalation == EscalationPolicy::Forfeit {
                        // Out, as by an organiser's forfeit: its secret too.
                        let mut secrets = crate::matches::PlayerSecrets::load(dir)?;
                        secrets.revoke(&st.power);
                        secrets.save()?;
                    }
                    tracing::info!(match_id = %id, power = %st.power, missed, "missed deadlines: escalated");
                }
            }
        }
        anyhow::bail!("deadlines: more than 64 stages passed in one look; stopped")
    }

    /// When the sealed bids of `m` are revealed if not all are in: a
    /// stage's time from the welcome, by the match's deadline settings;
    /// `None` without a stage deadline (an organiser reveals them).
    pub(super) fn bid_due(&self, m: &Match, roster: &Roster) -> Option<DateTime<Utc>> {
        let settings =
            DeadlineSettings::with_match(self.config.deadlines, roster.deadlines()).ok()?;
        bid_due(m, &settings)
    }

    /// Before the replies to an accepted stage are rendered: the next
    /// stage's `set` entry, so that its turn report quotes the deadline.
    pub(super) fn set_deadline_of_next_stage(
        &self,
        m: &mut Match,
        roster: &Roster,
    ) -> anyhow::Result<()> {
        // The roster was read from the players file: its deadlines are
        // the file's own.
        if self.config.deadlines.stage.is_none() && roster.deadlines().is_none() {
            return Ok(());
        }
        let Ok(settings) = DeadlineSettings::with_match(self.config.deadlines, roster.deadlines())
        else {
            // Reported by the deadline check; the reply goes without.
            return Ok(());
        };
        if settings.stage.is_some() && m.log().chain().paused().is_none() {
            ensure_stage_set(m, &settings)?;
        }
        Ok(())
    }

    /// The turn reports of the last `passed` stage, enqueued once.
    fn ensure_pass_reports(&mut self, id: &str, m: &Match, roster: &Roster) -> anyhow::Result<()> {
        let ledger = Ledger::of(m);
        let Some(i) = ledger.last_passed() else {
            return Ok(());
        };
        let seq = ledger.entries()[i].seq;
        let Some((adj_seq, a)) = ledger.adjudication_after(i) else {
            return Ok(());
        };
        let recipients = roster.report_recipients();
        let keys: Vec<String> = recipients
            .iter()
            .map(|(addr, _)| format!("{id}/{seq}/report/{}", address_key(addr)))
            .collect();
        let mut all_known = true;
        for k in &keys {
            all_known &= self.outbox.status(k)?.is_some();
        }
        if all_known {
            return Ok(());
        }
        let head = ledger
            .entries()
            .iter()
            .find(|e| e.seq == adj_seq)
            .map(|e| e.hash)
            .context("the adjudication entry")?;
        let tag = format_subject_tag(id, Some(a.round), Some(&a.power));
        let turn = text::turn_report_of(m, adj_seq)?;
        for ((addr, zone), key) in recipients.iter().zip(&keys) {
            let report: MailBody = text::report_text(&self.templates, &turn, *zone).into();
            let out = self.outgoing(
                id,
                addr,
                Kind::Report,
                Some(tag.clone()),
                format!(
                    "Report: {} stage {} of round {} (no orders by the deadline)",
                    a.power, a.stage, a.round
                ),
                report.clone(),
                None,
                key,
                Some(head),
            );
            self.enqueue(key, &out)?;
        }
        self.refresh_archive(m);
        Ok(())
    }

    /// The mail of a reminder (to the player) or late entry (to everyone).
    fn ensure_deadline_mail(
        &mut self,
        id: &str,
        roster: &Roster,
        seq: u64,
        event: DeadlineEvent,
        st: &StageNow,
        settings: &DeadlineSettings,
    ) -> anyhow::Result<()> {
        let (power, round, stage, due) = (st.power.as_str(), st.round, st.stage, st.due);
        let (kind, recipients): (&str, Vec<(String, Option<String>)>) = match event {
            DeadlineEvent::Reminder => (
                "reminder",
                roster
                    .seat(power)
                    .map(|s| vec![(s.email.clone(), s.time_zone.clone())])
                    .unwrap_or_default(),
            ),
            DeadlineEvent::Late => (
                "late",
                roster
                    .report_recipients()
                    .into_iter()
                    .map(|(a, tz)| (a.to_owned(), tz.map(str::to_owned)))
                    .collect(),
            ),
            DeadlineEvent::Passed | DeadlineEvent::Set => return Ok(()),
        };
        let player = roster.seat(power).map(|s| address_key(&s.email));
        let tag = format_subject_tag(id, Some(round), Some(power));
        for (addr, tz) in recipients {
            let key = format!("{id}/{seq}/{kind}/{}", address_key(&addr));
            if self.outbox.status(&key)?.is_some() {
                continue;
            }
            let to_player = player.as_deref() == Some(address_key(&addr).as_str());
            let (due_utc, due_local) = format_due(due, tz.as_deref());
            let ctx = DeadlineNotice {
                match_id: id.to_owned(),
                power: power.to_owned(),
                round,
                stage,
                due_utc: due_utc.clone(),
                due_local,
                policy: settings.no_orders.as_str().to_owned(),
                to_player,
                orders_address: self.ours.for_match(id),
                skeleton: format!(
                    "match: {id}\npower: {power}\nround: {round}\nsecret: YOUR-SECRET\n"
                ),
            };
            let subject = match (event, to_player) {
                (DeadlineEvent::Reminder, _) => {
                    format!("Reminder: your stage {stage} orders are due by {due_utc}")
                }
                (_, true) => format!("Late: your stage {stage} orders were due by {due_utc}"),
                (_, false) => format!("{power} is late with stage {stage}"),
            };
            let body: MailBody = text::notice_text(&self.templates, kind, &ctx).into();
            let out = self.outgoing(
                id,
                &addr,
                Kind::Report,
                Some(tag.clone()),
                subject,
                body,
                None,
                &key,
                None,
            );
            self.enqueue(&key, &out)?;
        }
        Ok(())
    }
}

/// The stage a match waits for, and its deadline.
pub(super) struct StageNow {
    power: String,
    round: u32,
    stage: u8,
    /// The index of the entry after which the stage's deadline events
    /// count: its last `set` entry (an extension or a resume sets it anew,
    /// and the reminder and late notice go again for the new deadline).
    since: usize,
    start: DateTime<Utc>,
    due: DateTime<Utc>,
}

/// The stage the match in `dir` waits for, with a `set` entry logged if
/// it had none (the deadline from the stage's start, or the last resume
/// after it, and `settings`) or if its deadline falls in an absence of the
/// player with `absence: extend` (then a full stage after the absence);
/// `None` once the game is won or ended.
fn ensure_stage_set(
    m: &mut Match,
    settings: &DeadlineSettings,
) -> anyhow::Result<Option<StageNow>> {
    let Some(cur) = organise::current_stage(m) else {
        return Ok(None);
    };
    let entries = m.log().entries();
    // The clock of a stage that began before a resume starts at the resume.
    let start = match organise::resumed_after(entries, cur.since) {
        Some(r) if r > cur.start => r,
        _ => cur.start,
    };
    let due = match cur.due {
        Some(d) => d,
        None => match settings.due(start) {
            Some(d) => d,
            None => return Ok(None),
        },
    };
    // A deadline in an absence moves to a full stage after it.
    let mut moved = due;
    for (from, until, what) in organise::absences(entries, &cur.power) {
        if what == Absence::Extend
            && from <= moved
            && moved < until
            && let Some(d) = settings.due(until)
        {
            moved = d;
        }
    }
    let mut st = StageNow {
        power: cur.power,
        round: cur.round,
        stage: cur.stage,
        since: cur.since,
        start,
        due: moved,
    };
    if cur.due.is_none() || moved != due {
        append_deadline(m, &st, DeadlineEvent::Set)?;
    }
    st.since = last_set_index(m.log().entries(), &st).unwrap_or(st.since);
    Ok(Some(st))
}

/// The index of the stage's last `set` entry.
fn last_set_index(entries: &[crate::log::Entry], st: &StageNow) -> Option<usize> {
    (st.since..entries.len()).rev().find(|&i| {
        matches!(&entries[i].body, Body::Deadline(d)
            if d.event == DeadlineEvent::Set
                && d.round == st.round
                && d.power == st.power
                && d.stage == st.stage)
    })
}

/// Adjudicates the stage of `power` with no orders.
fn play_pass(m: &mut Match, power: &str, round: u32) -> anyhow::Result<()> {
    let yaml = format!("power: {power}\nround: {round}\n");
    match m.submit(power, &yaml)? {
        Ok(_) => Ok(()),
        Err(errors) => {
            let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            anyhow::bail!(
                "the no-orders policy could not play {power}'s stage: {}",
                list.join("; ")
            )
        }
    }
}

fn append_deadline(m: &mut Match, st: &StageNow, event: DeadlineEvent) -> anyhow::Result<u64> {
    let written = m.record(Body::Deadline(Deadline {
        round: st.round,
        power: st.power.clone(),
        stage: st.stage,
        due: st.due.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        event,
    }))?;
    Ok(written.seq)
}

/// Does the match's players file set deadlines of its own? (An unreadable
/// file counts as yes, so the full path reports the problem.)
fn has_own_deadlines(dir: &Path) -> bool {
    std::fs::read_to_string(dir.join("players.yaml"))
        .ok()
        .and_then(|t| serde_saphyr::from_str::<crate::matches::PlayersFile>(&t).ok())
        .is_none_or(|f| f.deadlines.is_some())
}

fn earliest(a: Option<DateTime<Utc>>, b: Option<DateTime<Utc>>) -> Option<DateTime<Utc>> {
    match (a, b) {
        (Some(x), Some(y)) => Some(x.min(y)),
        (x, None) => x,
        (None, y) => y,
    }
}
