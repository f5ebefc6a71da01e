//! What a match log says about mail: the `received` and `welcome` entries
//! the daemon wrote, read back for deduplication, crash recovery, rate
//! limits and replies.

use chrono::{DateTime, Utc};

use crate::dice::Digest32;
use crate::log::{Body, DeadlineEvent, Entry, Outcome, Received};
use crate::matches::Match;

use super::text::StageRecord;

/// Every entry of a match log, as the open match holds them (the daemon
/// never reads a log file itself).
#[derive(Clone, Copy)]
pub struct Ledger<'a> {
    entries: &'a [Entry],
}

impl<'a> Ledger<'a> {
    /// The entries of the open match `m`, its last append included.
    pub fn of(m: &'a Match) -> Ledger<'a> {
        Ledger {
            entries: m.log().entries(),
        }
    }

    /// The entries.
    pub fn entries(&self) -> &'a [Entry] {
        self.entries
    }

    /// The `received` body of entry `i`, if it is one.
    pub fn received(&self, i: usize) -> Option<&'a Received> {
        match &self.entries.get(i)?.body {
            Body::Received(r) => Some(r),
            _ => None,
        }
    }

    /// The last `received` entry for this mail (same Message-ID or same raw
    /// hash), by index.
    pub fn find(&self, message_id: Option<&str>, sha: &Digest32) -> Option<usize> {
        (0..self.entries.len()).rev().find(|&i| {
            self.received(i).is_some_and(|r| {
                r.mail_sha256 == *sha
                    || (message_id.is_some() && r.message_id.as_deref() == message_id)
            })
        })
    }

    /// Is there an `order` entry after entry `i` and before the next
    /// `received` entry, or a sealed bid? (The orders, or the bid, of a
    /// `processing` message were logged.)
    pub fn order_after(&self, i: usize) -> bool {
        self.entries[i + 1..]
            .iter()
            .take_while(|e| !matches!(e.body, Body::Received(_)))
            // A sealed bid is the message's whole effect, like orders.
            .any(|e| match &e.body {
                Body::Order(_) => true,
                Body::Bid(b) => b.step == crate::log::BidStep::Sealed,
                _ => false,
            })
    }

    /// The accepted stage recorded by the `processing` entry for the same
    /// mail before the final entry `i`: its order and adjudication entries
    /// (stage 0: standing orders).
    pub fn stage_of(&self, i: usize) -> Option<StageRecord> {
        let fin = self.received(i)?;
        let start = (0..i).rev().find(|&j| {
            self.received(j).is_some_and(|r| {
                r.outcome == Outcome::Processing && r.mail_sha256 == fin.mail_sha256
            })
        })?;
        let mut rec: Option<StageRecord> = None;
        let mut adjudicated = false;
        for e in &self.entries[start + 1..i] {
            match &e.body {
                Body::Order(o) => {
                    rec = Some(StageRecord {
                        power: o.power.clone(),
                        round: 0,
                        stage: 0,
                        turn_ended: false,
                        canonical: o.canonical.clone(),
                        digest: o.digest.to_string(),
                        events: Vec::new(),
                        match_id: match &self.entries[0].body {
                            Body::Genesis(g) => g.match_id.clone(),
                            _ => String::new(),
                        },
                        turn: o.turn,
                    })
                }
                Body::Adjudication(a) => {
                    if let Some(r) = rec.as_mut() {
                        r.round = a.round;
                        r.stage = a.stage;
                        r.events = a.events.clone();
                        adjudicated = true;
                    }
                }
                // The next dice turn opens when the power's turn ended, or
                // (Anniversary, KQ-1) when it hands a shared turn over after
                // its stage 1, without a turn-ended event.
                Body::TurnOpen(_) if adjudicated => {
                    if let Some(r) = rec.as_mut() {
                        r.turn_ended = turn_ended(r.stage, &r.events);
                    }
                }
                _ => {}
            }
        }
        rec.filter(|_| adjudicated)
    }

    /// The index of the last final `accepted` entry.
    pub fn last_accepted(&self) -> Option<usize> {
        (0..self.entries.len()).rev().find(|&i| {
            self.received(i)
                .is_some_and(|r| r.outcome == Outcome::Accepted)
        })
    }

    /// The sequence number of the `welcome` entry, if any.
    pub fn welcome(&self) -> Option<u64> {
        self.entries
            .iter()
            .find(|e| matches!(e.body, Body::Welcome(_)))
            .map(|e| e.seq)
    }

    /// Final `received` entries (not `processing`) since `since`, optionally
    /// only those of one sender, optionally only of one outcome.
    pub fn count_since(
        &self,
        since: DateTime<Utc>,
        from: Option<&Digest32>,
        outcome: Option<Outcome>,
    ) -> usize {
        self.entries
            .iter()
            .filter(|e| time_of(e).is_some_and(|t| t >= since))
            .filter_map(|e| match &e.body {
                Body::Received(r) => Some(r),
                _ => None,
            })
            .filter(|r| r.outcome != Outcome::Processing)
            .filter(|r| from.is_none_or(|f| r.from_hash == *f))
            .filter(|r| outcome.is_none_or(|o| r.outcome == o))
            .count()
    }
}

impl<'a> Ledger<'a> {
    /// When the stage now waited for began, for its deadline: the last
    /// adjudication of a stage (not a standing-orders change), or the
    /// match's welcome, or its genesis; with the index of that entry.
    pub fn stage_clock_start(&self) -> Option<(usize, DateTime<Utc>)> {
        let i = (0..self.entries.len())
            .rev()
            .find(|&i| match &self.entries[i].body {
                Body::Adjudication(a) => a.stage != 0,
                Body::Welcome(_) | Body::Genesis(_) => true,
                // A rollback starts the clock of the stage played again.
                Body::Organiser(o) => o.action == crate::log::OrganiserAction::Rollback,
                _ => false,
            })?;
        Some((i, time_of(&self.entries[i])?))
    }

    /// The deadline events logged after entry `since` for one stage, with
    /// their sequence numbers.
    pub fn deadline_events(
        &self,
        since: usize,
        round: u32,
        power: &str,
        stage: u8,
    ) -> Vec<(u64, DeadlineEvent, String)> {
        self.entries[since + 1..]
            .iter()
            .filter_map(|e| match &e.body {
                Body::Deadline(d) if d.round == round && d.power == power && d.stage == stage => {
                    Some((e.seq, d.event, d.due.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// The last `passed` deadline entry, by index.
    pub fn last_passed(&self) -> Option<usize> {
        (0..self.entries.len()).rev().find(|&i| {
            matches!(&self.entries[i].body, Body::Deadline(d) if d.event == DeadlineEvent::Passed)
        })
    }

    /// The adjudication after entry `i`, by sequence number.
    pub fn adjudication_after(&self, i: usize) -> Option<(u64, &'a crate::log::Adjudication)> {
        self.entries[i + 1..].iter().find_map(|e| match &e.body {
            Body::Adjudication(a) => Some((e.seq, a)),
            _ => None,
        })
    }
}

/// The time of an entry.
pub fn time_of(e: &Entry) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(&e.time)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// Whether a message followed by a new dice turn ended its power's turn: a
/// stage 2 always does; a stage 1 only when it carried stage 2 too (its
/// events say the turn ended), not when it hands a shared turn to the
/// partner's stage 1 (Anniversary, KQ-1), which also opens a dice turn.
fn turn_ended(stage: u8, events: &[String]) -> bool {
    stage != 1 || events.iter().any(|e| e.contains("'s turn ended;"))
}

#[cfg(test)]
mod tests {
    use super::turn_ended;

    #[test]
    fn a_stage_1_ends_the_turn_only_when_its_events_say_so() {
        let handed_over = vec![
            "United States bought 1 infantry for 3 IPCs".to_owned(),
            "United States's non-combat move and mobilization wait until China has fought; \
             China to move (a shared turn (Anniversary, KQ-1): both powers fight one after the \
             other, then both move and mobilize)"
                .to_owned(),
        ];
        assert!(!turn_ended(1, &handed_over));
        let both = vec!["Germany's turn ended; round 1, Soviet Union to move".to_owned()];
        assert!(turn_ended(1, &both));
        assert!(turn_ended(2, &[]));
    }
}
