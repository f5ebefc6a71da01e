//! Stage deadlines: the settings (the daemon's defaults, overridden by a
//! match's players file), and what is due when. Pure: the caller gives the
//! time, the stage's start and the deadline events already logged.
//!
//! A stage's clock starts when the stage becomes the one waited for: the
//! adjudication of the previous stage (standing-order changes do not count),
//! or the match's welcome. At `due - reminder_before` the player is
//! reminded; at `due` the player and the others are told, and then either
//! the match waits (`wait`, the default) or the stage is adjudicated with no
//! orders (`pass`: nothing bought or moved, standing orders still apply).

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::log::DeadlineEvent;

use super::MatchDeadlines;

/// What happens when a stage's deadline passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoOrders {
    /// The match waits for the orders (after the late notices).
    Wait,
    /// The stage is adjudicated with no orders.
    Pass,
}

impl NoOrders {
    /// Parses `wait` or `pass`.
    pub fn parse(text: &str) -> Result<NoOrders, String> {
        match text.trim() {
            "wait" => Ok(NoOrders::Wait),
            "pass" => Ok(NoOrders::Pass),
            other => Err(format!(
                "{other:?} is not a policy; use wait (the match waits) or pass (the stage is played with no orders)"
            )),
        }
    }

    /// The policy's word.
    pub fn as_str(self) -> &'static str {
        match self {
            NoOrders::Wait => "wait",
            NoOrders::Pass => "pass",
        }
    }
}

/// Parses `90s`, `30m`, `72h`, `3d` (a whole number and a unit).
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !c.is_ascii_digit())
        .ok_or_else(|| format!("{t:?} has no unit; write e.g. 90s, 30m, 72h or 3d"))?;
    let (n, unit) = t.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| format!("{t:?} does not start with a whole number"))?;
    let secs = match unit.trim() {
        "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        "d" => n * 86_400,
        other => {
            return Err(format!(
                "{other:?} is not a unit; use s (seconds), m (minutes), h (hours) or d (days)"
            ));
        }
    };
    Ok(Duration::from_secs(secs))
}

/// Parses an IANA time zone name (`Europe/Berlin`, `America/New_York`,
/// `UTC`).
pub fn parse_time_zone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.trim().parse::<chrono_tz::Tz>().map_err(|_| {
        format!(
            "{name:?} is not a time zone name; write it like Europe/Berlin, America/New_York or UTC"
        )
    })
}

/// A deadline as a reader sees it: UTC always, and in the reader's own
/// zone when one is set (`2026-11-24 10:00 UTC`, `2026-11-24 11:00 CET
/// (Europe/Berlin)`).
pub fn format_due(due: DateTime<Utc>, zone: Option<&str>) -> (String, Option<String>) {
    let utc = format!("{} UTC", due.format("%Y-%m-%d %H:%M"));
    let local = zone
        .and_then(|z| parse_time_zone(z).ok())
        .filter(|tz| *tz != chrono_tz::UTC)
        .map(|tz| {
            let t = due.with_timezone(&tz);
            format!("{} ({})", t.format("%Y-%m-%d %H:%M %Z"), tz.name())
        });
    (utc, local)
}

/// The deadline settings in force for a match.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DeadlineSettings {
    /// Time allowed per stage; `None`: no deadline.
    pub stage: Option<Duration>,
    /// How long before the deadline the reminder goes; zero: none.
    pub reminder_before: Duration,
    /// What happens when the deadline passes.
    pub no_orders: NoOrders,
}

impl DeadlineSettings {
    /// `base` (the daemon's) with the match's own settings over it. Every
    /// problem is returned, with its key.
    pub fn with_match(
        base: DeadlineSettings,
        m: Option<&MatchDeadlines>,
    ) -> Result<DeadlineSettings, Vec<(String, String)>> {
        let Some(m) = m else {
            return Ok(base);
        };
        let mut out = base;
        let mut problems = Vec::new();
        if let Some(s) = &m.stage {
            if s.trim() == "none" {
                out.stage = None;
            } else {
                match parse_duration(s) {
                    Ok(d) if !d.is_zero() => out.stage = Some(d),
                    Ok(_) => {
                        problems.push(("deadlines.stage".into(), "must be more than 0s".into()))
                    }
                    Err(e) => problems.push(("deadlines.stage".into(), e)),
                }
            }
        }
        if let Some(r) = &m.reminder_before {
            match parse_duration(r) {
                Ok(d) => out.reminder_before = d,
                Err(e) => problems.push(("deadlines.reminder_before".into(), e)),
            }
        }
        if let Some(p) = &m.no_orders {
            match NoOrders::parse(p) {
                Ok(p) => out.no_orders = p,
                Err(e) => problems.push(("deadlines.no_orders".into(), e)),
            }
        }
        if problems.is_empty() {
            Ok(out)
        } else {
            Err(problems)
        }
    }

    /// The settings in words, for the welcome mail.
    pub fn describe(&self) -> String {
        let Some(stage) = self.stage else {
            return "none: the match waits for each stage's orders".into();
        };
        let words = |d: Duration| {
            let s = d.as_secs();
            if s.is_multiple_of(86_400) {
                format!("{}d", s / 86_400)
            } else if s.is_multiple_of(3600) {
                format!("{}h", s / 3600)
            } else if s.is_multiple_of(60) {
                format!("{}m", s / 60)
            } else {
                format!("{s}s")
            }
        };
        let reminder = if self.reminder_before.is_zero() || self.reminder_before >= stage {
            "no reminder".to_owned()
        } else {
            format!("a reminder {} before", words(self.reminder_before))
        };
        let policy = match self.no_orders {
            NoOrders::Wait => "then the match waits for the late orders",
            NoOrders::Pass => "then the stage is played with no orders (standing orders apply)",
        };
        format!("{} per stage, {reminder}; {policy}", words(stage))
    }

    /// The deadline of a stage that started at `start`.
    pub fn due(&self, start: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let d = chrono::Duration::from_std(self.stage?).ok()?;
        Some(start + d)
    }

    /// When the reminder of a stage that started at `start` goes, if one
    /// does (a lead time as long as the stage means none).
    pub fn reminder_at(&self, start: DateTime<Utc>) -> Option<DateTime<Utc>> {
        let due = self.due(start)?;
        let lead = chrono::Duration::from_std(self.reminder_before).ok()?;
        let at = due - lead;
        (!self.reminder_before.is_zero() && at > start).then_some(at)
    }
}

/// A deadline action to take now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    /// Remind the player.
    Remind,
    /// Tell the player and the others that the deadline passed.
    Late,
    /// Adjudicate the stage with no orders.
    Pass,
}

impl Action {
    /// The log event this action writes.
    pub fn event(self) -> DeadlineEvent {
        match self {
            Action::Remind => DeadlineEvent::Reminder,
            Action::Late => DeadlineEvent::Late,
            Action::Pass => DeadlineEvent::Passed,
        }
    }
}

/// What to do about a stage that started at `start` and is due at `due`
/// (as its `set` entry says), given the events already logged for it, at
/// `now`: the action due (at most one; call again after logging it) and,
/// when nothing is due, when to look again.
pub fn next_action(
    settings: &DeadlineSettings,
    start: DateTime<Utc>,
    due: DateTime<Utc>,
    logged: &[DeadlineEvent],
    now: DateTime<Utc>,
) -> (Option<Action>, Option<DateTime<Utc>>) {
    let has = |e: DeadlineEvent| logged.contains(&e);
    if now >= due {
        if !has(DeadlineEvent::Late) {
            return (Some(Action::Late), None);
        }
        if settings.no_orders == NoOrders::Pass && !has(DeadlineEvent::Passed) {
            return (Some(Action::Pass), None);
        }
        return (None, None);
    }
    let reminder_at = chrono::Duration::from_std(settings.reminder_before)
        .ok()
        .filter(|_| !settings.reminder_before.is_zero())
        .map(|lead| due - lead)
        .filter(|at| *at > start);
    match reminder_at {
        Some(at) if !has(DeadlineEvent::Reminder) => {
            if now >= at {
                (Some(Action::Remind), None)
            } else {
                (None, Some(at))
            }
        }
        _ => (None, Some(due)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(h: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_800_000_000 + h * 3600, 0).unwrap()
    }

    fn settings(policy: NoOrders) -> DeadlineSettings {
        DeadlineSettings {
            stage: Some(Duration::from_secs(72 * 3600)),
            reminder_before: Duration::from_secs(24 * 3600),
            no_orders: policy,
        }
    }

    #[test]
    fn a_stage_goes_reminder_then_late_then_waits_or_passes() {
        use DeadlineEvent::*;
        let s = settings(NoOrders::Wait);
        assert_eq!(next_action(&s, t(0), t(72), &[], t(1)), (None, Some(t(48))));
        assert_eq!(
            next_action(&s, t(0), t(72), &[], t(48)),
            (Some(Action::Remind), None)
        );
        assert_eq!(
            next_action(&s, t(0), t(72), &[Reminder], t(50)),
            (None, Some(t(72)))
        );
        assert_eq!(
            next_action(&s, t(0), t(72), &[Reminder], t(72)),
            (Some(Action::Late), None)
        );
        assert_eq!(
            next_action(&s, t(0), t(72), &[Reminder, Late], t(500)),
            (None, None)
        );
        // Found late with no reminder sent (the daemon was down): no
        // reminder after the deadline, straight to the late notices.
        assert_eq!(
            next_action(&s, t(0), t(72), &[], t(80)),
            (Some(Action::Late), None)
        );
        let p = settings(NoOrders::Pass);
        assert_eq!(
            next_action(&p, t(0), t(72), &[Late], t(73)),
            (Some(Action::Pass), None)
        );
        assert_eq!(
            next_action(&p, t(0), t(72), &[Late, Passed], t(73)),
            (None, None)
        );
    }

    #[test]
    fn short_stages_skip_the_reminder() {
        let mut s = settings(NoOrders::Wait);
        s.stage = Some(Duration::from_secs(12 * 3600));
        assert_eq!(s.reminder_at(t(0)), None);
        assert_eq!(next_action(&s, t(0), t(12), &[], t(1)), (None, Some(t(12))));
    }

    #[test]
    fn deadlines_read_in_utc_and_the_readers_zone() {
        let due = DateTime::parse_from_rfc3339("2026-11-24T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            format_due(due, Some("Europe/Berlin")),
            (
                "2026-11-24 10:00 UTC".into(),
                Some("2026-11-24 11:00 CET (Europe/Berlin)".into())
            )
        );
        let summer = DateTime::parse_from_rfc3339("2026-07-01T10:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(
            format_due(summer, Some("America/New_York")).1.as_deref(),
            Some("2026-07-01 06:00 EDT (America/New_York)")
        );
        assert_eq!(format_due(due, None).1, None);
        assert_eq!(format_due(due, Some("UTC")).1, None);
        assert!(parse_time_zone("Mars/Olympus").is_err());
    }

    #[test]
    fn a_match_overrides_the_daemon_and_every_problem_is_named() {
        let base = settings(NoOrders::Wait);
        let m = MatchDeadlines {
            stage: Some("48h".into()),
            reminder_before: None,
            no_orders: Some("pass".into()),
            ..MatchDeadlines::default()
        };
        let s = DeadlineSettings::with_match(base, Some(&m)).unwrap();
        assert_eq!(s.stage, Some(Duration::from_secs(48 * 3600)));
        assert_eq!(s.no_orders, NoOrders::Pass);
        let off = MatchDeadlines {
            stage: Some("none".into()),
            ..MatchDeadlines::default()
        };
        assert_eq!(
            DeadlineSettings::with_match(base, Some(&off))
                .unwrap()
                .stage,
            None
        );
        let bad = MatchDeadlines {
            stage: Some("soon".into()),
            reminder_before: Some("1w".into()),
            no_orders: Some("skip".into()),
            ..MatchDeadlines::default()
        };
        let errs = DeadlineSettings::with_match(base, Some(&bad)).unwrap_err();
        let keys: Vec<&str> = errs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(
            keys,
            [
                "deadlines.stage",
                "deadlines.reminder_before",
                "deadlines.no_orders"
            ]
        );
    }
}
