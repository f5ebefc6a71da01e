//! Organisers' actions on a match: pause and resume, extend a deadline,
//! replace a player, set a player absent, forfeit or resign a power or the
//! whole match, and rulings (`docs/daemon.md`, "Organisers").
//!
//! Every action is an `organiser` entry in the match log, written before
//! it takes effect, so anyone holding the log can audit what the organisers
//! did; `log::chain` checks each against the match so far. An action comes
//! by mail (authenticated by the organiser's own secret) or from
//! `adjutant organise` on the server; both ask with the same [`Request`],
//! checked by [`plan`] (every problem in words, nothing applied) and carried
//! out by [`carry_out`]. The daemon derives the players' notices from the
//! log ([`describe`]), so an action taken on the command line is mailed the
//! same way. Pure apart from the match it is given: the time is passed in.

use chrono::{DateTime, NaiveDate, Utc};
use serde::Deserialize;

use crate::dice::Digest32;
use crate::log::{
    Body, Deadline, DeadlineEvent, Entry, EscalationPolicy, Organiser, OrganiserAction,
};

use super::deadlines::{format_due, parse_duration, parse_time_zone};
use super::players::PlayerSecrets;
use super::{Match, MatchDeadlines, MatchError, PlayersFile, Roster, stage_of};

/// What an organiser's `absent` does to the absent player's stages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Absence {
    /// A deadline that falls in the absence moves to a full stage after it.
    Extend,
    /// The stages are played with no orders meanwhile (standing orders apply).
    Play,
}

impl Absence {
    /// The word in the players file and the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Absence::Extend => "extend",
            Absence::Play => "play",
        }
    }
}

/// The league settings of a match (its players file's `deadlines:`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeagueSettings {
    /// What an absence does.
    pub absence: Absence,
    /// After how many missed deadlines the organisers are alerted.
    pub escalate_after: Option<u32>,
    /// What happens to the power then.
    pub escalation: EscalationPolicy,
}

impl LeagueSettings {
    /// The settings of a players file's `deadlines:`, every problem with
    /// its key.
    pub fn of(m: Option<&MatchDeadlines>) -> Result<LeagueSettings, Vec<(String, String)>> {
        let mut out = LeagueSettings {
            absence: Absence::Extend,
            escalate_after: None,
            escalation: EscalationPolicy::Standing,
        };
        let Some(m) = m else {
            return Ok(out);
        };
        let mut problems = Vec::new();
        match m.absence.as_deref().map(str::trim) {
            None | Some("extend") => {}
            Some("play") => out.absence = Absence::Play,
            Some(other) => problems.push((
                "deadlines.absence".into(),
                format!(
                    "{other:?} is not a policy; use extend (deadlines move past an absence) or play (the absent player's stages are played with no orders)"
                ),
            )),
        }
        match m.escalate_after {
            Some(0) => problems.push((
                "deadlines.escalate_after".into(),
                "must be 1 or more missed deadlines".into(),
            )),
            n => out.escalate_after = n,
        }
        match m.escalation.as_deref().map(str::trim) {
            None | Some("standing") => {}
            Some("forfeit") => out.escalation = EscalationPolicy::Forfeit,
            Some(other) => problems.push((
                "deadlines.escalation".into(),
                format!(
                    "{other:?} is not a policy; use standing (the power is played with no orders at each deadline) or forfeit"
                ),
            )),
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(problems)
        }
    }
}

/// What an organiser asks: the keys of an organiser's mail, which are also
/// the options of `adjutant organise`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    /// The match (mail only; checked against the match it was sent to).
    #[serde(rename = "match", default)]
    pub match_id: Option<String>,
    /// The organiser's name, as the players file lists them.
    #[serde(default)]
    pub organiser: Option<String>,
    /// The organiser's secret (mail only).
    #[serde(default)]
    pub secret: Option<String>,
    /// The action's word.
    #[serde(default)]
    pub action: Option<String>,
    /// The power concerned.
    #[serde(default)]
    pub power: Option<String>,
    /// The side that forfeits or resigns the whole match.
    #[serde(default)]
    pub side: Option<String>,
    /// Extend by this long (`48h`).
    #[serde(default)]
    pub by: Option<String>,
    /// Extend to this time; the end of an absence.
    #[serde(default)]
    pub until: Option<String>,
    /// The start of an absence.
    #[serde(default)]
    pub from: Option<String>,
    /// A replacement player's name.
    #[serde(default)]
    pub name: Option<String>,
    /// A replacement player's address.
    #[serde(default)]
    pub email: Option<String>,
    /// A replacement player's time zone.
    #[serde(default)]
    pub time_zone: Option<String>,
    /// The log entry a ruling is about.
    #[serde(default)]
    pub entry: Option<u64>,
    /// A ruling's text.
    #[serde(default)]
    pub text: Option<String>,
    /// Why (any action but a ruling).
    #[serde(default)]
    pub reason: Option<String>,
}

/// Is this mail text an organiser's? (A top-level `organiser:` line.)
pub fn is_organiser_mail(text: &str) -> bool {
    text.lines().any(|l| {
        l.split_once(':')
            .is_some_and(|(k, _)| k.trim_end().eq_ignore_ascii_case("organiser"))
    })
}

/// Reads an organiser's mail.
pub fn parse_mail(text: &str) -> Result<Request, Vec<String>> {
    serde_saphyr::from_str::<Request>(text).map_err(|e| {
        // The parser's words for a number are a programmer's.
        let e = e
            .to_string()
            .replace("invalid u64", "not a whole number (entry: is the number of a log entry, e.g. entry: 212)");
        vec![format!(
            "the organiser's message does not read: {e}; write one action, e.g.\n\norganiser: YOUR NAME\nsecret: YOUR-SECRET\naction: extend\nby: 48h\nreason: a holiday"
        )]
    })
}

/// How an action came.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Via {
    /// By mail, authenticated by the organiser's secret: the mail's SHA-256.
    Mail(Digest32),
    /// `adjutant organise` on the server.
    Server,
}

/// A checked action, ready to be carried out.
#[derive(Debug, Clone)]
pub struct Plan {
    body: Organiser,
    /// A new deadline for the current stage (extend, resume).
    set_due: Option<(Deadline, DateTime<Utc>)>,
    /// A new player for a power (replace).
    seat: Option<NewSeat>,
    /// The power whose secret stops working.
    revoke: Option<String>,
}

#[derive(Debug, Clone)]
pub(crate) struct NewSeat {
    pub(crate) power: String,
    pub(crate) name: String,
    pub(crate) email: String,
    pub(crate) time_zone: Option<String>,
}

/// The stage a match waits for, and its deadline as the log sets it.
#[derive(Debug, Clone)]
pub struct StageAt {
    /// The power to move.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 or 2.
    pub stage: u8,
    /// The index of the entry that started the stage's clock.
    pub since: usize,
    /// When the stage began.
    pub start: DateTime<Utc>,
    /// Its deadline: the last `set` entry of the stage, if any.
    pub due: Option<DateTime<Utc>>,
}

/// The time of an entry.
pub fn time_of(e: &Entry) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(&e.time)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

fn parse_utc(t: &str) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(t)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// When the stage now waited for began: the last adjudication of a stage
/// (not a standing-orders change), or the match's welcome, or its genesis;
/// with the index of that entry.
pub fn stage_clock_start(entries: &[Entry]) -> Option<(usize, DateTime<Utc>)> {
    let i = (0..entries.len()).rev().find(|&i| match &entries[i].body {
        Body::Adjudication(a) => a.stage != 0,
        Body::Welcome(_) | Body::Genesis(_) => true,
        _ => false,
    })?;
    Some((i, time_of(&entries[i])?))
}

/// The stage `m` waits for (`None` once the game is won or ended, and
/// while the sealed bids wait for their reveal: no power is to move).
pub fn current_stage(m: &Match) -> Option<StageAt> {
    if m.state().winner.is_some()
        || m.log().chain().ended().is_some()
        || m.log().chain().bid().waiting()
    {
        return None;
    }
    let game = m.game();
    let power = game.powers()[m.state().current_power(game)].name.clone();
    let round = m.state().round;
    let stage = stage_of(m.state());
    let entries = m.log().entries();
    let (since, start) = stage_clock_start(entries)?;
    let due = entries[since + 1..]
        .iter()
        .rev()
        .find_map(|e| match &e.body {
            Body::Deadline(d)
                if d.event == DeadlineEvent::Set
                    && d.round == round
                    && d.power == power
                    && d.stage == stage =>
            {
                parse_utc(&d.due)
            }
            _ => None,
        });
    Some(StageAt {
        power,
        round,
        stage,
        since,
        start,
        due,
    })
}

/// When the match was paused, while it is.
pub fn paused_at(m: &Match) -> Option<DateTime<Utc>> {
    let seq = m.log().chain().paused()?;
    m.log().entries().get(seq as usize - 1).and_then(time_of)
}

/// The index of the entry that paused the match, while it is paused (read
/// from the entries alone: the last pause with no resume or end after it).
pub fn paused_index(entries: &[Entry]) -> Option<usize> {
    let i = entries.iter().rposition(|e| {
        matches!(&e.body, Body::Organiser(o) if matches!(o.action,
            OrganiserAction::Pause | OrganiserAction::Resume)
            || (matches!(o.action, OrganiserAction::Forfeit | OrganiserAction::Resign)
                && o.side.is_some())
            || o.action == OrganiserAction::Draw)
    })?;
    matches!(&entries[i].body, Body::Organiser(o) if o.action == OrganiserAction::Pause)
        .then_some(i)
}

/// The time of the last `resume` after entry index `since`.
pub fn resumed_after(entries: &[Entry], since: usize) -> Option<DateTime<Utc>> {
    entries[since + 1..]
        .iter()
        .rev()
        .find_map(|e| match &e.body {
            Body::Organiser(o) if o.action == OrganiserAction::Resume => time_of(e),
            _ => None,
        })
}

/// The index of the last entry that gave `power` a new player (its
/// `replace`), or 0: missed deadlines and escalations count from there.
fn seat_taken(entries: &[Entry], power: &str) -> usize {
    entries
        .iter()
        .rposition(|e| {
            matches!(&e.body, Body::Organiser(o)
                if o.action == OrganiserAction::Replace && o.power.as_deref() == Some(power))
        })
        .unwrap_or(0)
}

/// The deadlines `power` missed since its player took the seat (its
/// `late` entries).
pub fn missed(entries: &[Entry], power: &str) -> u32 {
    let from = seat_taken(entries, power);
    entries[from..]
        .iter()
        .filter(|e| {
            matches!(&e.body, Body::Deadline(d)
                if d.event == DeadlineEvent::Late && d.power == power)
        })
        .count() as u32
}

/// The escalation in force for `power` since its player took the seat.
pub fn escalated(entries: &[Entry], power: &str) -> Option<EscalationPolicy> {
    let from = seat_taken(entries, power);
    entries[from..].iter().rev().find_map(|e| match &e.body {
        Body::Escalation(x) if x.power == power => Some(x.policy),
        _ => None,
    })
}

/// The absences of `power` on record: from, until, and what they do.
pub fn absences(entries: &[Entry], power: &str) -> Vec<(DateTime<Utc>, DateTime<Utc>, Absence)> {
    entries
        .iter()
        .filter_map(|e| match &e.body {
            Body::Organiser(o)
                if o.action == OrganiserAction::Absent && o.power.as_deref() == Some(power) =>
            {
                let from = parse_utc(o.from.as_deref()?)?;
                let until = parse_utc(o.until.as_deref()?)?;
                let what = if o.absence.as_deref() == Some("play") {
                    Absence::Play
                } else {
                    Absence::Extend
                };
                Some((from, until, what))
            }
            _ => None,
        })
        .collect()
}

/// The positions a rollback may go back to: entry 1 (the start) and the
/// adjudication entries of the match's current line (those a rollback
/// undid are off it).
pub fn positions(entries: &[Entry]) -> Vec<u64> {
    let mut line = vec![1];
    for e in entries {
        match &e.body {
            Body::Adjudication(_) => line.push(e.seq),
            Body::Organiser(o) if o.action == OrganiserAction::Rollback => {
                let to = o.entry.unwrap_or(1);
                line.retain(|&p| p <= to);
            }
            _ => {}
        }
    }
    line
}

/// The last upgrade of the match: its entry and the version it went to.
pub fn last_upgrade(entries: &[Entry]) -> Option<(u64, u32)> {
    entries.iter().rev().find_map(|e| match &e.body {
        Body::Organiser(o) if o.action == OrganiserAction::Upgrade => {
            Some((e.seq, o.to_version.unwrap_or_default()))
        }
        _ => None,
    })
}

/// The organiser entry written for the mail with this SHA-256, if any (so
/// a mail seen again after a crash is not applied twice).
pub fn applied_mail(entries: &[Entry], sha: &Digest32) -> Option<u64> {
    entries.iter().rev().find_map(|e| match &e.body {
        Body::Organiser(o) if o.mail_sha256.as_ref() == Some(sha) => Some(e.seq),
        _ => None,
    })
}

/// Reads a time an organiser wrote: `2026-12-01` (a whole day, UTC: its
/// start, or with `end_of_day` the start of the next), `2026-12-01 18:00`
/// (UTC) or RFC 3339.
pub fn parse_when(text: &str, end_of_day: bool) -> Result<DateTime<Utc>, String> {
    let t = text.trim();
    if let Some(x) = parse_utc(t) {
        return Ok(x);
    }
    if let Ok(d) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        let d = if end_of_day {
            d.succ_opt().unwrap_or(d)
        } else {
            d
        };
        return Ok(d.and_hms_opt(0, 0, 0).expect("midnight").and_utc());
    }
    if let Ok(x) = chrono::NaiveDateTime::parse_from_str(t, "%Y-%m-%d %H:%M") {
        return Ok(x.and_utc());
    }
    Err(format!(
        "{t:?} is not a time; write a date (2026-12-01, a whole day in UTC), a time in UTC (2026-12-01 18:00) or RFC 3339 (2026-12-01T18:00:00+01:00)"
    ))
}

fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
}

/// The keys each action takes (beyond `organiser`, `secret`, `match`).
fn keys_of(action: OrganiserAction) -> &'static [&'static str] {
    use OrganiserAction as A;
    match action {
        A::Pause | A::Resume => &["reason"],
        A::Extend => &["power", "by", "until", "reason"],
        A::Replace => &["power", "name", "email", "time_zone", "reason"],
        A::Absent => &["power", "from", "until", "reason"],
        A::Forfeit | A::Resign => &["power", "side", "reason"],
        A::Ruling => &["entry", "text"],
        A::Rollback => &["entry", "reason"],
        A::Draw | A::Upgrade | A::RevealBids => &["reason"],
    }
}

/// Every action with what it takes, for errors and the help.
pub fn actions_in_words() -> String {
    OrganiserAction::ALL
        .iter()
        .map(|a| format!("{} ({})", a.as_str(), keys_of(*a).join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Checks what an organiser asks of `m` at `now`: every problem in words
/// (what is wrong, what would be valid), or the plan to carry out.
pub fn plan(m: &Match, req: &Request, now: DateTime<Utc>) -> Result<Plan, Vec<String>> {
    use OrganiserAction as A;
    let Some(word) = req.action.as_deref().filter(|w| !w.trim().is_empty()) else {
        return Err(vec![format!(
            "the message names no action; write action: and one of: {}",
            actions_in_words()
        )]);
    };
    let Some(action) = OrganiserAction::from_word(word) else {
        return Err(vec![format!(
            "{word:?} is not an organiser's action; the actions are: {}",
            actions_in_words()
        )]);
    };
    let mut errors = Vec::new();
    let given = [
        ("power", req.power.is_some()),
        ("side", req.side.is_some()),
        ("by", req.by.is_some()),
        ("until", req.until.is_some()),
        ("from", req.from.is_some()),
        ("name", req.name.is_some()),
        ("email", req.email.is_some()),
        ("time_zone", req.time_zone.is_some()),
        ("entry", req.entry.is_some()),
        ("text", req.text.is_some()),
        ("reason", req.reason.is_some()),
    ];
    let takes = keys_of(action);
    for (key, present) in given {
        if present && !takes.contains(&key) {
            errors.push(format!(
                "{} takes no {key}; it takes {}",
                action.as_str(),
                takes.join(", ")
            ));
        }
    }
    if let Some(end) = m.log().chain().ended()
        && action != A::Ruling
    {
        errors.push(format!(
            "the match ended at log entry {end}; only a ruling can follow"
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let game = m.game();
    let power_of = |p: &str| -> Result<String, String> {
        game.power(p)
            .map(|i| game.powers()[i].name.clone())
            .ok_or_else(|| {
                let names: Vec<&str> = game.powers().iter().map(|p| p.name.as_str()).collect();
                format!(
                    "{p:?} is not a power of this match; the powers are {}",
                    names.join(", ")
                )
            })
    };
    let mut body = Organiser {
        organiser: String::new(),
        via: String::new(),
        action,
        power: None,
        side: None,
        name: None,
        due: None,
        from: None,
        until: None,
        absence: None,
        entry: None,
        turn: None,
        secret: None,
        from_version: None,
        to_version: None,
        from_state: None,
        to_state: None,
        text: if action == A::Ruling {
            req.text.clone()
        } else {
            req.reason.clone()
        }
        .filter(|t| !t.trim().is_empty()),
        mail_sha256: None,
    };
    let mut set_due = None;
    let mut seat = None;
    let mut revoke = None;
    let set_entry = |st: &StageAt, due: DateTime<Utc>| Deadline {
        round: st.round,
        power: st.power.clone(),
        stage: st.stage,
        due: rfc3339(due),
        event: DeadlineEvent::Set,
    };
    match action {
        A::Pause => {
            if let Some(seq) = m.log().chain().paused() {
                errors.push(format!(
                    "the match is already paused (log entry {seq}); send resume to restart its deadlines"
                ));
            }
        }
        A::Resume => match paused_at(m) {
            None => errors.push(
                "the match is not paused; pause stops its deadlines, resume restarts them".into(),
            ),
            Some(paused) => {
                // The current stage's deadline moves by the time the match
                // was paused while the stage ran.
                if let Some(st) = current_stage(m)
                    && let Some(due) = st.due
                {
                    let shift = now - paused.max(st.start);
                    if shift > chrono::Duration::zero() {
                        set_due = Some((set_entry(&st, due + shift), due + shift));
                    }
                }
            }
        },
        A::Extend => match current_stage(m) {
            None => errors.push("the game is over: there is no deadline to extend".into()),
            Some(st) => {
                if let Some(p) = &req.power {
                    match power_of(p) {
                        Ok(p) if p != st.power => errors.push(format!(
                            "only the current stage's deadline can be extended: {} is to move (stage {} of round {}), not {p}",
                            st.power, st.stage, st.round
                        )),
                        Ok(_) => {}
                        Err(e) => errors.push(e),
                    }
                }
                let new = match (&req.by, &req.until, st.due) {
                    (_, _, None) => Err(format!(
                        "{}'s stage {} of round {} has no deadline to extend (the match has no deadlines, or the stage's is not set yet)",
                        st.power, st.stage, st.round
                    )),
                    (Some(by), None, Some(due)) => parse_duration(by)
                        .map(|d| due + chrono::Duration::from_std(d).unwrap_or_default()),
                    (None, Some(until), Some(_)) => parse_when(until, false),
                    _ => Err("extend takes either by: (a duration added to the deadline, e.g. 48h) or until: (the new deadline, e.g. 2026-12-01 18:00), one of them".into()),
                };
                match new {
                    Ok(due) if due <= now => errors.push(format!(
                        "the new deadline, {}, is not in the future",
                        format_due(due, None).0
                    )),
                    Ok(due) => {
                        body.power = Some(st.power.clone());
                        body.due = Some(rfc3339(due));
                        set_due = Some((set_entry(&st, due), due));
                    }
                    Err(e) => errors.push(e),
                }
            }
        },
        A::Replace => {
            let power = match req.power.as_deref().map(power_of) {
                Some(Ok(p)) => Some(p),
                Some(Err(e)) => {
                    errors.push(e);
                    None
                }
                None => {
                    errors.push("replace needs power: the power that gets a new player".into());
                    None
                }
            };
            let name = req
                .name
                .as_deref()
                .map(str::trim)
                .filter(|n| !n.is_empty());
            if name.is_none() {
                errors.push("replace needs name: the new player's name".into());
            }
            let email = req.email.as_deref().map(str::trim).unwrap_or_default();
            if !email.contains('@') || email.contains(char::is_whitespace) {
                errors.push(format!(
                    "replace needs email: the new player's address ({email:?} is not one)"
                ));
            }
            if let Some(tz) = &req.time_zone
                && let Err(e) = parse_time_zone(tz)
            {
                errors.push(format!("time_zone: {e}"));
            }
            if let (Some(power), Some(name)) = (power, name) {
                body.power = Some(power.clone());
                body.name = Some(name.to_owned());
                seat = Some(NewSeat {
                    power: power.clone(),
                    name: name.to_owned(),
                    email: email.to_owned(),
                    time_zone: req.time_zone.clone(),
                });
                revoke = Some(power);
            }
        }
        A::Absent => {
            let power = match req.power.as_deref().map(power_of) {
                Some(Ok(p)) => Some(p),
                Some(Err(e)) => {
                    errors.push(e);
                    None
                }
                None => {
                    errors.push("absent needs power: the power whose player is away".into());
                    None
                }
            };
            let from = match &req.from {
                Some(f) => parse_when(f, false).map_err(|e| format!("from: {e}")),
                None => Ok(now),
            };
            let until = match &req.until {
                Some(u) => parse_when(u, true).map_err(|e| format!("until: {e}")),
                None => Err("absent needs until: the last day away (2026-12-08) or the time the player is back".into()),
            };
            let settings = Roster::load(m.dir(), game)
                .ok()
                .and_then(|r| LeagueSettings::of(r.deadlines()).ok())
                .unwrap_or(LeagueSettings {
                    absence: Absence::Extend,
                    escalate_after: None,
                    escalation: EscalationPolicy::Standing,
                });
            match (from, until) {
                (Ok(f), Ok(u)) if f >= u => errors.push(format!(
                    "the absence ends ({}) before it begins ({})",
                    format_due(u, None).0,
                    format_due(f, None).0
                )),
                (Ok(_), Ok(u)) if u <= now => errors.push(format!(
                    "the absence is over already (it ended {})",
                    format_due(u, None).0
                )),
                (Ok(f), Ok(u)) => {
                    body.power = power;
                    body.from = Some(rfc3339(f));
                    body.until = Some(rfc3339(u));
                    body.absence = Some(settings.absence.as_str().to_owned());
                }
                (f, u) => {
                    errors.extend(f.err());
                    errors.extend(u.err());
                }
            }
        }
        A::Forfeit | A::Resign => match (&req.power, &req.side) {
            (Some(p), None) => match power_of(p) {
                Ok(p) if m.log().chain().is_out(&p) => {
                    errors.push(format!("{p} has already forfeited or resigned"))
                }
                Ok(p) => {
                    body.power = Some(p.clone());
                    revoke = Some(p);
                }
                Err(e) => errors.push(e),
            },
            (None, Some(side)) => {
                let sides = &game.files().game.sides;
                match sides
                    .iter()
                    .find(|s| s.name.trim().eq_ignore_ascii_case(side.trim()))
                {
                    Some(s) => body.side = Some(s.name.clone()),
                    None => errors.push(format!(
                        "{side:?} is not a side of this game; the sides are {}",
                        sides
                            .iter()
                            .map(|s| s.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                }
            }
            _ => errors.push(format!(
                "{} names either power: (that power is out, played with no orders from now on) or side: (that side ends the match), one of them",
                action.as_str()
            )),
        },
        A::Rollback => {
            let line = positions(m.log().entries());
            let upgraded = last_upgrade(m.log().entries());
            match req.entry {
                Some(n) if line.contains(&n) && upgraded.is_some_and(|(u, _)| n < u) => {
                    let (u, to) = upgraded.expect("matched");
                    let after: Vec<String> = line
                        .iter()
                        .filter(|&&p| p > u)
                        .map(u64::to_string)
                        .collect();
                    errors.push(format!(
                        "entry {n} is before the upgrade to rules version {to} at entry {u}: the positions before it were played by an older rules version, which this match is no longer played by, so a rollback cannot cross it; {}",
                        if after.is_empty() {
                            "no position after the upgrade has been played yet".to_owned()
                        } else {
                            format!("the positions after it: {}", after.join(", "))
                        }
                    ));
                }
                Some(n) if line.contains(&n) => {
                    if m.log().chain().unadjudicated_time_ms().is_some() {
                        errors.push(
                            "orders wait for their adjudication; try again once they are played"
                                .into(),
                        );
                    }
                    body.entry = Some(n);
                }
                other => {
                    let recent: Vec<String> = line
                        .iter()
                        .rev()
                        .take(8)
                        .map(u64::to_string)
                        .collect();
                    errors.push(format!(
                        "{} is not a position to go back to; the match can go back to entry 1 (the start) or the adjudication entries of its current line, the latest: {}",
                        other.map_or("no entry:".to_owned(), |n| format!("entry {n}")),
                        recent.join(", ")
                    ));
                }
            }
        }
        A::Upgrade => {
            use crate::rules::version::{RULES_VERSION, cannot_replay, of_log};
            let recorded = m.log().chain().rules_version();
            let from = of_log(recorded);
            if recorded == Some(RULES_VERSION) {
                errors.push(format!(
                    "the match is at rules version {RULES_VERSION} already, this program's: there is nothing to upgrade to"
                ));
            } else if from > RULES_VERSION {
                errors.push(format!(
                    "the match is at rules version {from}, later than this program's {RULES_VERSION}: run a program that plays it"
                ));
            } else if let Some(why) = cannot_replay(from) {
                errors.push(format!(
                    "the match's position cannot be carried across: {why}"
                ));
            } else if m.log().chain().unadjudicated_time_ms().is_some() {
                errors.push(
                    "orders wait for their adjudication; try again once they are played".into(),
                );
            } else {
                let digest = |v| super::game_match::state_digest_as(v, game, m.state());
                match (digest(from), digest(RULES_VERSION)) {
                    (Ok(before), Ok(after)) => {
                        body.from_version = recorded;
                        body.to_version = Some(RULES_VERSION);
                        body.from_state = Some(before);
                        body.to_state = Some(after);
                    }
                    (Err(e), _) | (_, Err(e)) => errors.push(e),
                }
            }
        }
        A::RevealBids => {
            let waiting = m.waiting_bidders();
            if !m.log().chain().bid().waiting() {
                errors.push("no sealed bids wait for their reveal".into());
            } else if !waiting.is_empty() {
                // Said, not refused: the reveal at the deadline is the
                // point of the action.
                body.text.get_or_insert_with(|| {
                    format!("no bid from the {} by the deadline", waiting.join(", the "))
                });
            }
        }
        A::Draw => {
            if let Some(side) = m.state().winner {
                errors.push(format!(
                    "the game is won already: the {} won it; a draw can only end a match still being played",
                    game.files().game.sides[side].name
                ));
            }
            if m.log().chain().unadjudicated_time_ms().is_some() {
                errors.push(
                    "orders wait for their adjudication; try again once they are played".into(),
                );
            }
        }
        A::Ruling => {
            let last = m.log().chain().seq();
            match req.entry {
                Some(n) if (1..=last).contains(&n) => body.entry = Some(n),
                Some(n) => errors.push(format!(
                    "entry {n} is not in the log; its entries are 1 to {last}"
                )),
                None => errors.push(format!(
                    "a ruling needs entry: the log entry it is about (1 to {last})"
                )),
            }
            if body.text.is_none() {
                errors.push("a ruling needs text: the ruling itself".into());
            }
        }
    }
    if errors.is_empty() {
        Ok(Plan {
            body,
            set_due,
            seat,
            revoke,
        })
    } else {
        Err(errors)
    }
}

/// Carries out a checked plan for `organiser`: the players file first (a
/// replacement's seat), then the `organiser` entry, then what follows from
/// it (a stage's new deadline, a revoked secret). Returns the entry's
/// sequence number.
pub fn carry_out(m: &mut Match, organiser: &str, via: Via, plan: Plan) -> Result<u64, MatchError> {
    let Plan {
        mut body,
        set_due,
        seat,
        revoke,
    } = plan;
    body.organiser = organiser.trim().to_owned();
    match via {
        Via::Mail(sha) => {
            body.via = "mail".into();
            body.mail_sha256 = Some(sha);
        }
        Via::Server => body.via = "server".into(),
    }
    // The player who leaves the seat is told too: their address, which
    // the players file no longer has, is kept beside it for that notice.
    let former = seat.as_ref().and_then(|s| {
        Roster::load(m.dir(), m.game())
            .ok()?
            .seat(&s.power)
            .map(|x| x.email.clone())
    });
    if let Some(seat) = &seat {
        replace_seat(m, seat)?;
    }
    let reveal = body.action == OrganiserAction::RevealBids;
    let written = if body.action == OrganiserAction::Rollback {
        m.rollback(body)?
    } else {
        m.record(Body::Organiser(body))?
    };
    if reveal {
        // The bids' reveal follows the organiser's entry at once (a crash
        // between the two is finished when the match is opened again).
        m.reveal_bids()?;
    }
    if let Some(address) = former {
        let mut all = former_players(m.dir());
        all.insert(written.seq.to_string(), address);
        let path = m.dir().join(FORMER_PLAYERS);
        let bytes = serde_json::to_vec_pretty(&all).expect("a map of strings serializes");
        std::fs::write(&path, bytes).map_err(|source| MatchError::Io { path, source })?;
    }
    if let Some((d, _)) = set_due {
        m.record(Body::Deadline(d))?;
    }
    if let Some(power) = revoke {
        let mut secrets =
            PlayerSecrets::load(m.dir()).map_err(|e| MatchError::Invalid(e.to_string()))?;
        secrets.revoke(&power);
        secrets
            .save()
            .map_err(|e| MatchError::Invalid(e.to_string()))?;
    }
    Ok(written.seq)
}

/// The file of a match directory that keeps the address of each replaced
/// player, by the sequence number of the `replace` entry (addresses stay
/// out of the log).
pub const FORMER_PLAYERS: &str = "former-players.json";

/// The addresses of replaced players, by the `replace` entry's number.
pub fn former_players(dir: &std::path::Path) -> std::collections::BTreeMap<String, String> {
    std::fs::read(dir.join(FORMER_PLAYERS))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

/// Writes a replacement's seat into `players.yaml`: the power's entry under
/// `players:` is rewritten in place (the rest of the file, comments
/// included, stays as the organiser wrote it), and the result must read
/// back with the new player.
pub(crate) fn replace_seat(m: &Match, seat: &NewSeat) -> Result<(), MatchError> {
    let path = m.dir().join("players.yaml");
    let text = std::fs::read_to_string(&path).map_err(|source| MatchError::Io {
        path: path.clone(),
        source,
    })?;
    let new = rewrite_seat(
        &text,
        |k| {
            m.game().power(k).map(|i| m.game().powers()[i].name.clone()) == Some(seat.power.clone())
        },
        seat,
    )
    .map_err(MatchError::Invalid)?;
    let file: PlayersFile = serde_saphyr::from_str(&new)
        .map_err(|e| MatchError::Invalid(format!("players.yaml after the replacement: {e}")))?;
    let ok = file.players.iter().any(|(k, p)| {
        m.game()
            .power(k)
            .map(|i| m.game().powers()[i].name.as_str())
            == Some(seat.power.as_str())
            && p.email == seat.email
            && p.name == seat.name
    });
    if !ok {
        return Err(MatchError::Invalid(
            "players.yaml: the replacement could not be written; edit the seat by hand and send the replacement again".into(),
        ));
    }
    let tmp = path.with_extension("yaml.tmp");
    std::fs::write(&tmp, new.as_bytes())
        .and_then(|()| std::fs::File::open(&tmp)?.sync_all())
        .and_then(|()| std::fs::rename(&tmp, &path))
        .map_err(|source| MatchError::Io {
            path: path.clone(),
            source,
        })
}

/// `text` (a players file) with the entry of the power `is_power` names
/// under `players:` replaced by the new seat, written as one flow mapping.
fn rewrite_seat(
    text: &str,
    is_power: impl Fn(&str) -> bool,
    seat: &NewSeat,
) -> Result<String, String> {
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let top = |l: &str| !l.starts_with([' ', '\t', '#']) && !l.trim().is_empty();
    let Some(start) = lines.iter().position(|l| {
        top(l) && l.trim_end().trim_end_matches(':') == "players" && l.trim_end().ends_with(':')
    }) else {
        return Err("players.yaml: no block `players:` to write the new player into; write the seat by hand and send the replacement again".into());
    };
    let end = (start + 1..lines.len())
        .find(|&i| top(lines[i]))
        .unwrap_or(lines.len());
    let indent_of = |l: &str| l.len() - l.trim_start().len();
    let content = |l: &str| !l.trim().is_empty() && !l.trim_start().starts_with('#');
    let Some(first) = (start + 1..end).find(|&i| content(lines[i])) else {
        return Err("players.yaml: players: has no entries".into());
    };
    let indent = indent_of(lines[first]);
    let key_of = |l: &str| {
        l.trim()
            .split_once(':')
            .map(|(k, _)| k.trim().trim_matches(['"', '\'']).to_owned())
    };
    let Some(at) = (start + 1..end).find(|&i| {
        content(lines[i])
            && indent_of(lines[i]) == indent
            && key_of(lines[i]).is_some_and(|k| is_power(&k))
    }) else {
        return Err(format!(
            "players.yaml: no entry for {} under players:",
            seat.power
        ));
    };
    let stop = (at + 1..end)
        .find(|&i| content(lines[i]) && indent_of(lines[i]) <= indent)
        .unwrap_or(end);
    let q = |s: &str| serde_json::to_string(s).expect("strings serialize");
    let key = key_of(lines[at]).expect("found by its key");
    let mut entry = format!(
        "{}{}: {{name: {}, email: {}",
        " ".repeat(indent),
        q(&key),
        q(&seat.name),
        q(&seat.email)
    );
    if let Some(tz) = &seat.time_zone {
        entry.push_str(&format!(", time_zone: {}", q(tz)));
    }
    entry.push_str("}\n");
    let mut out: String = lines[..at].concat();
    out.push_str(&entry);
    // Comment lines after the old entry stay.
    out.push_str(
        &lines[at + 1..stop]
            .iter()
            .filter(|l| !content(l))
            .copied()
            .collect::<String>(),
    );
    out.push_str(&lines[stop..].concat());
    Ok(out)
}

/// An organiser entry in words, as the organiser's reply and the players'
/// notice say it.
pub fn describe(o: &Organiser) -> String {
    use OrganiserAction as A;
    let who = &o.organiser;
    let when = |t: &Option<String>| {
        t.as_deref()
            .and_then(parse_utc)
            .map(|t| format_due(t, None).0)
            .unwrap_or_default()
    };
    let power = o.power.as_deref().unwrap_or("?");
    let mut s = match o.action {
        A::Pause => format!(
            "{who} (organiser) paused the match: no deadline runs, and no reminder, late notice or no-orders play is sent, until it is resumed."
        ),
        A::Resume => format!(
            "{who} (organiser) resumed the match: deadlines run again, the current stage's moved on by the time the match was paused."
        ),
        A::Extend => format!(
            "{who} (organiser) extended the deadline of {power}'s stage to {}.",
            when(&o.due)
        ),
        A::Replace => format!(
            "{who} (organiser) replaced the player of {power}: {} plays it from now on. The old secret no longer works; the new player gets their own.",
            o.name.as_deref().unwrap_or("?")
        ),
        A::Absent => format!(
            "{who} (organiser) set the player of {power} absent from {} until {}: {}",
            when(&o.from),
            when(&o.until),
            if o.absence.as_deref() == Some("play") {
                "their stages in that time are played with no orders (standing orders apply)."
            } else {
                "a deadline of theirs that falls in that time moves to a full stage after it."
            }
        ),
        A::Forfeit | A::Resign => {
            let verb = if o.action == A::Forfeit {
                "forfeits"
            } else {
                "resigns"
            };
            match (&o.power, &o.side) {
                (_, Some(side)) => format!(
                    "{who} (organiser) recorded that {side} {verb} the match: the match has ended and takes no more orders."
                ),
                _ => format!(
                    "{who} (organiser) recorded that {power} {verb}: it is played with no orders from now on (standing orders apply), and its secret no longer works."
                ),
            }
        }
        A::Rollback => format!(
            "{who} (organiser) rolled the match back to the position after log entry {}{}: play continues from there. The entries after it stay in the log, and every die already shown stays as it was; {}",
            o.entry.unwrap_or_default(),
            if o.entry == Some(1) {
                " (the start)"
            } else {
                ""
            },
            match o.turn {
                Some(t) => format!(
                    "dice turn {t}, committed but not used, is revealed now, and the stage played again gets a new dice turn with a new commitment."
                ),
                None =>
                    "a stage 1 played again gets a new dice turn with a new commitment.".to_owned(),
            }
        ),
        A::Draw => format!(
            "{who} (organiser) adjudicated the match a draw: the match has ended, no side winning, and takes no more orders."
        ),
        A::Upgrade => format!(
            "{who} (organiser) upgraded the match from rules version {} to rules version {}: from now on it is played and replayed by version {}'s rules. The position is carried across as it stands (its digest under the old version {}, under the new {}).",
            o.from_version
                .map_or("1 (none recorded)".to_owned(), |v| v.to_string()),
            o.to_version.unwrap_or_default(),
            o.to_version.unwrap_or_default(),
            o.from_state.map(|d| d.to_hex()).unwrap_or_default(),
            o.to_state.map(|d| d.to_hex()).unwrap_or_default(),
        ),
        A::RevealBids => format!(
            "{who} (organiser) revealed the sealed bids at their deadline: a bidder who did not bid has no bid. The reveal is the next log entry."
        ),
        A::Ruling => format!(
            "{who} (organiser) made a ruling on log entry {}:\n\n{}",
            o.entry.unwrap_or_default(),
            o.text.as_deref().unwrap_or_default()
        ),
    };
    if o.action != A::Ruling
        && let Some(t) = &o.text
    {
        s.push_str(&format!("\nReason: {t}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_is_rewritten_in_place_with_the_rest_of_the_file_kept() {
        let text = "match: m1\n# the players\nplayers:\n  Germany: {name: Alice, email: a@x.org}\n  Soviet Union:\n    name: Bob   # old\n    email: b@x.org\n  # next\n  Britain: {name: Carol, email: c@x.org}\nobservers: []\n";
        let seat = NewSeat {
            power: "Soviet Union".into(),
            name: "Dora \"D\"".into(),
            email: "d@x.org".into(),
            time_zone: Some("Europe/Berlin".into()),
        };
        let out = rewrite_seat(text, |k| k == "Soviet Union", &seat).unwrap();
        assert_eq!(
            out,
            "match: m1\n# the players\nplayers:\n  Germany: {name: Alice, email: a@x.org}\n  \"Soviet Union\": {name: \"Dora \\\"D\\\"\", email: \"d@x.org\", time_zone: \"Europe/Berlin\"}\n  # next\n  Britain: {name: Carol, email: c@x.org}\nobservers: []\n"
        );
        assert!(rewrite_seat(text, |k| k == "Italy", &seat).is_err());
        assert!(
            rewrite_seat(
                "players: {Germany: {name: A, email: a@x}}\n",
                |_| true,
                &seat
            )
            .is_err()
        );
    }

    #[test]
    fn organisers_write_days_and_times() {
        let t = |s: &str, end| parse_when(s, end).map(rfc3339);
        assert_eq!(t("2026-12-01", false).unwrap(), "2026-12-01T00:00:00Z");
        assert_eq!(t("2026-12-08", true).unwrap(), "2026-12-09T00:00:00Z");
        assert_eq!(t("2026-12-01 18:30", true).unwrap(), "2026-12-01T18:30:00Z");
        assert_eq!(
            t("2026-12-01T18:00:00+01:00", false).unwrap(),
            "2026-12-01T17:00:00Z"
        );
        let e = t("next week", false).unwrap_err();
        assert!(e.contains("write a date (2026-12-01"), "{e}");
    }

    #[test]
    fn league_settings_are_checked_with_their_keys() {
        let m = MatchDeadlines {
            absence: Some("skip".into()),
            escalate_after: Some(0),
            escalation: Some("ban".into()),
            ..MatchDeadlines::default()
        };
        let keys: Vec<String> = LeagueSettings::of(Some(&m))
            .unwrap_err()
            .into_iter()
            .map(|(k, _)| k)
            .collect();
        assert_eq!(
            keys,
            [
                "deadlines.absence",
                "deadlines.escalate_after",
                "deadlines.escalation"
            ]
        );
        let m = MatchDeadlines {
            absence: Some("play".into()),
            escalate_after: Some(2),
            escalation: Some("forfeit".into()),
            ..MatchDeadlines::default()
        };
        let s = LeagueSettings::of(Some(&m)).unwrap();
        assert_eq!(
            (s.absence, s.escalate_after, s.escalation),
            (Absence::Play, Some(2), EscalationPolicy::Forfeit)
        );
    }

    #[test]
    fn an_organiser_mail_is_told_by_its_organiser_line() {
        assert!(is_organiser_mail(
            "match: m\nOrganiser: Olga\naction: pause\n"
        ));
        assert!(!is_organiser_mail("power: Germany\nsecret: x\n"));
    }
}

#[cfg(test)]
mod mail_tests {
    use super::*;

    #[test]
    fn a_mail_with_an_unknown_key_is_answered_in_words() {
        let e = parse_mail("organiser: Olga\nsecret: x\naction: extend\ndelay: 48h\n").unwrap_err();
        assert!(e[0].contains("unknown field `delay`"), "{}", e[0]);
        assert!(e[0].contains("action: extend"), "{}", e[0]);
        let e = parse_mail("organiser: Olga\nentry: twelve\n").unwrap_err();
        assert!(!e[0].contains("u64"), "{}", e[0]);
        assert!(e[0].contains("not a whole number"), "{}", e[0]);
    }
}
