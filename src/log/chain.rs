//! The rules a log must follow, checked entry by entry.
//!
//! [`Chain`] is used twice: by `adjutant verify` to check a whole log, and by
//! the writer to refuse an entry that would make the log invalid. Applying an
//! entry either succeeds completely or changes nothing.

use std::collections::HashMap;
use std::path::Path;

use crate::dice::{
    Commitment, DiceKind, Digest32, Label, LabelStream, MAX_SIDES, OrderDigest, TurnKey, TurnSecret,
};

use super::entry::{Body, Entry, Genesis, LOG_FORMAT, LOG_FORMAT_V1, parse_line};

/// What `verify` may accept beyond the defaults.
#[derive(Clone, Debug, Default)]
pub struct VerifyOptions {
    /// Accept a log whose genesis says its dice are scripted test dice.
    pub allow_fixed_dice: bool,
    /// A head hash from a mail: the log must contain an entry with this hash.
    pub head: Option<Digest32>,
}

/// The first problem found in a log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("entry {seq} (line {seq}, byte {offset}): {reason}")]
pub struct VerifyError {
    /// The sequence number (and line number) of the bad entry.
    pub seq: u64,
    /// Byte offset of the start of that line in the file.
    pub offset: u64,
    /// Why it is bad.
    pub reason: String,
}

/// What a verified log holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Summary {
    /// The match id from the genesis entry.
    pub match_id: String,
    /// The kind of dice the match uses.
    pub dice_kind: DiceKind,
    /// Number of entries.
    pub entries: u64,
    /// Dice turns opened.
    pub turns: u32,
    /// Order entries.
    pub orders: u64,
    /// Dice checked (re-derived for a verifiable log).
    pub dice: u64,
    /// Hash of the last entry.
    pub head: Digest32,
    /// A turn that is open and not yet revealed at the end of the log.
    pub unrevealed_turn: Option<u32>,
    /// With [`VerifyOptions::head`]: the entry whose hash it is.
    pub head_entry: Option<u64>,
    /// An order entry at the end of the log still waiting for its
    /// adjudication (a crash between the two appends): its sequence number.
    pub unadjudicated: Option<u64>,
    /// The log is of the first format, whose rules let a forging server
    /// choose extra order entries to feed a turn key (`docs/log.md`,
    /// "Format versions").
    pub legacy_format: bool,
    /// Organiser actions (`organiser` entries), rollbacks among them.
    pub organiser_actions: u64,
    /// Rollbacks.
    pub rollbacks: u64,
    /// The entry that ended the match, if one did.
    pub ended: Option<u64>,
}

/// Whose rules a log follows, from its genesis `format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rules {
    /// `adjutant-log/1`: digests feed the key in log order; an order entry
    /// need not be adjudicated (kept so that older logs still verify).
    V1,
    /// `adjutant-log/2`: every order is adjudicated before the next, no
    /// digest twice in a dice turn, the key takes the digests sorted.
    V2,
}

/// The order entry whose adjudication has not been logged yet.
#[derive(Clone, Debug)]
struct PendingOrder {
    seq: u64,
    turn: u32,
    power: String,
    /// When it was logged (Unix milliseconds): a beacon round is the first
    /// due after it.
    time_ms: i64,
    /// Whether this message's stage revealed the turn (only a stage-1
    /// message may, and a stage-1 message must).
    revealed: bool,
}

/// The state of a dice turn while it is the open one.
struct OpenTurn {
    turn: u32,
    commitment: Commitment,
    /// Digests of the orders logged before the reveal, in log order.
    digests: Vec<OrderDigest>,
    /// The entry of each digest in `digests`: one digest feeds the key
    /// once, so a server cannot weight the key by repeating a message.
    seen: HashMap<OrderDigest, u64>,
    key: Option<TurnKey>,
    streams: HashMap<Label, LabelStream>,
}

/// A log's state after the entries applied so far.
#[derive(Default)]
pub struct Chain {
    seq: u64,
    head: Digest32,
    genesis: Option<Genesis>,
    rules: Option<Rules>,
    /// The time of the last entry: times never go backwards.
    time: Option<chrono::DateTime<chrono::FixedOffset>>,
    pending: Option<PendingOrder>,
    open: Option<OpenTurn>,
    turns: u32,
    orders: u64,
    dice: u64,
    /// Organiser actions so far (`organiser` and `escalation` entries).
    league: LeagueState,
    organiser_actions: u64,
    rollbacks: u64,
    /// The match's bid (`bid` entries).
    bid: super::bid::BidState,
}

/// What the organisers' entries have done to a match so far.
#[derive(Clone, Debug, Default)]
struct LeagueState {
    /// The entry that paused the match, while it is paused.
    paused: Option<u64>,
    /// The entry that ended the match (a side forfeited or resigned, or
    /// the organisers adjudicated a draw).
    ended: Option<u64>,
    /// Powers that forfeited or resigned (and were not replaced since).
    out: Vec<String>,
    /// The adjudication entries on the match's current line (a rollback
    /// drops those after the position it goes back to): the positions a
    /// rollback may go back to, with entry 1, the start.
    positions: Vec<u64>,
    /// The rules version the match is at: its genesis's (none for a log
    /// that recorded none), then each upgrade's.
    version: Option<u32>,
    /// The last upgrade's entry: no rollback goes back before it.
    upgraded: Option<u64>,
    /// An organiser's `reveal_bids` entry, until the bids' reveal that
    /// must come next.
    reveal_due: Option<u64>,
}

impl Chain {
    /// An empty log.
    pub fn new() -> Self {
        Chain::default()
    }

    /// Sequence number of the last entry (0 for an empty log).
    pub fn seq(&self) -> u64 {
        self.seq
    }

    /// Hash of the last entry (zeros for an empty log).
    pub fn head(&self) -> Digest32 {
        self.head
    }

    /// The genesis entry, once applied.
    pub fn genesis(&self) -> Option<&Genesis> {
        self.genesis.as_ref()
    }

    /// The open dice turn, if any, and its key once revealed.
    pub fn open_turn(&self) -> Option<(u32, Option<TurnKey>)> {
        self.open.as_ref().map(|t| (t.turn, t.key))
    }

    /// Checks `entry` against everything before it and applies it. On error
    /// nothing changes.
    pub fn apply(&mut self, entry: &Entry) -> Result<(), String> {
        if entry.seq != self.seq + 1 {
            return Err(format!(
                "sequence number is {}, expected {}: an entry is missing, repeated or out of order",
                entry.seq,
                self.seq + 1
            ));
        }
        if entry.prev != self.head {
            return Err(format!(
                "prev is {}, but the previous entry's hash is {}: the chain is broken here",
                entry.prev, self.head
            ));
        }
        let time = chrono::DateTime::parse_from_rfc3339(&entry.time)
            .map_err(|e| format!("time {:?} is not an RFC 3339 time: {e}", entry.time))?;
        if let Some(last) = self.time
            && time < last
        {
            return Err(format!(
                "time {} is earlier than the previous entry's {}: entries are appended in time order",
                entry.time,
                last.format("%Y-%m-%dT%H:%M:%S%.3fZ")
            ));
        }
        self.apply_body(entry.seq, time.timestamp_millis(), &entry.body)?;
        self.seq = entry.seq;
        self.head = entry.hash;
        self.time = Some(time);
        Ok(())
    }

    /// The time of the last entry, for a writer whose clock went back.
    pub fn last_time(&self) -> Option<chrono::DateTime<chrono::Utc>> {
        self.time.map(|t| t.with_timezone(&chrono::Utc))
    }

    /// The entry whose orders have `digest`, among those that feed the open
    /// turn's key (a message sent again identically before the reveal would
    /// repeat it).
    pub fn key_digest_entry(&self, digest: &OrderDigest) -> Option<u64> {
        let open = self.open.as_ref().filter(|t| t.key.is_none())?;
        open.seen.get(digest).copied()
    }

    /// The match's bid so far.
    pub fn bid(&self) -> &super::bid::BidState {
        &self.bid
    }

    /// The entry that ended the match (a side forfeited or resigned, or a
    /// draw), if any.
    pub fn ended(&self) -> Option<u64> {
        self.league.ended
    }

    /// The entry that paused the match, while it is paused.
    pub fn paused(&self) -> Option<u64> {
        self.league.paused
    }

    /// The rules version the match is at: the genesis's, or the last
    /// upgrade's (`None` for a log that recorded none and was not upgraded).
    pub fn rules_version(&self) -> Option<u32> {
        self.league.version
    }

    /// Whether `power` forfeited or resigned (and was not replaced since).
    pub fn is_out(&self, power: &str) -> bool {
        self.league.out.iter().any(|p| p == power)
    }

    /// When the order entry still waiting for its adjudication was logged
    /// (Unix milliseconds): its beacon round is the first due after it.
    pub fn unadjudicated_time_ms(&self) -> Option<i64> {
        self.pending.as_ref().map(|p| p.time_ms)
    }

    fn apply_body(&mut self, seq: u64, time_ms: i64, body: &Body) -> Result<(), String> {
        let Some(genesis) = &self.genesis else {
            let Body::Genesis(g) = body else {
                return Err(format!(
                    "the first entry must be genesis, not {}",
                    body.kind()
                ));
            };
            self.rules = Some(match g.format.as_str() {
                LOG_FORMAT => Rules::V2,
                LOG_FORMAT_V1 => Rules::V1,
                other => {
                    return Err(format!(
                        "unknown log format {other:?}; this version reads {LOG_FORMAT:?} and {LOG_FORMAT_V1:?}"
                    ));
                }
            });
            if let Some(b) = &g.beacon {
                if self.rules == Some(Rules::V1) {
                    return Err("a format 1 log cannot name a beacon".into());
                }
                b.check()?;
            }
            self.league.version = g.rules_version;
            self.genesis = Some(g.clone());
            return Ok(());
        };
        let match_id = genesis.match_id.as_str();
        let dice_kind = genesis.dice;
        let rules = self.rules.expect("set with the genesis");
        // Version 2 binds every order to one adjudication (docs/log.md,
        // "Messages"), so no entry can feed a key without being played.
        let paired = rules == Rules::V2;
        if let Some(end) = self.league.ended
            && matches!(
                body,
                Body::TurnOpen(_)
                    | Body::Order(_)
                    | Body::Reveal(_)
                    | Body::Dice(_)
                    | Body::Adjudication(_)
            )
        {
            return Err(format!(
                "a {} entry after the match ended at entry {end}: an ended match takes no more orders or dice",
                body.kind()
            ));
        }
        // An organiser's reveal_bids is followed by the reveal itself.
        if let Some(at) = self.league.reveal_due.take()
            && !matches!(body, Body::Bid(b) if b.step == super::entry::BidStep::Reveal)
        {
            return Err(format!(
                "a {} entry after the organisers' reveal_bids at entry {at}: the bids' reveal comes next",
                body.kind()
            ));
        }
        match body {
            Body::Genesis(_) => Err("a second genesis entry".into()),
            Body::Bid(b) => {
                self.bid = self.bid.apply(match_id, seq, b)?;
                Ok(())
            }
            Body::Organiser(o) => {
                let players: Vec<&str> = genesis.players.iter().map(|p| p.power.as_str()).collect();
                if o.action == super::entry::OrganiserAction::RevealBids && !self.bid.waiting() {
                    return Err(
                        "an organiser's reveal_bids while no sealed bids wait for their reveal"
                            .into(),
                    );
                }
                let next = check_organiser(
                    &self.league,
                    o,
                    &players,
                    seq,
                    time_ms,
                    self.pending.as_ref().map(|p| p.seq),
                )?;
                // A rollback reveals the open turn if it is not revealed,
                // so that no die of it can be rolled again in secret.
                let mut key = None;
                if o.action == super::entry::OrganiserAction::Rollback {
                    let unrevealed = self.open.as_ref().filter(|t| t.key.is_none());
                    match (unrevealed, o.turn, &o.secret) {
                        (None, None, None) => {}
                        (Some(t), Some(turn), Some(secret)) if t.turn == turn => {
                            let secret = TurnSecret::from_bytes(secret.0);
                            let commitment = secret.commitment(match_id, turn);
                            if commitment != t.commitment {
                                return Err(format!(
                                    "the rollback's secret gives commitment {commitment}, but turn {turn} committed to {}",
                                    t.commitment
                                ));
                            }
                            let digests = rules.key_order(&t.digests);
                            key = Some(secret.turn_key(match_id, turn, &digests));
                        }
                        (Some(t), _, _) => {
                            return Err(format!(
                                "a rollback while dice turn {} is not revealed must reveal it (turn {} and its secret)",
                                t.turn, t.turn
                            ));
                        }
                        (None, _, _) => {
                            return Err(
                                "a rollback reveals a turn only when the open turn is not revealed"
                                    .into(),
                            );
                        }
                    }
                }
                if let Some(k) = key {
                    self.open.as_mut().expect("checked above").key = Some(k);
                }
                self.league = next;
                self.organiser_actions += 1;
                if o.action == super::entry::OrganiserAction::Rollback {
                    self.rollbacks += 1;
                }
                Ok(())
            }
            Body::Escalation(e) => {
                if let Some(end) = self.league.ended {
                    return Err(format!(
                        "an escalation after the match ended at entry {end}"
                    ));
                }
                check_power(
                    &e.power,
                    &genesis
                        .players
                        .iter()
                        .map(|p| p.power.as_str())
                        .collect::<Vec<_>>(),
                )?;
                if e.missed == 0 {
                    return Err("an escalation after 0 missed deadlines".into());
                }
                if e.policy == super::entry::EscalationPolicy::Forfeit
                    && !self.league.out.contains(&e.power)
                {
                    self.league.out.push(e.power.clone());
                }
                Ok(())
            }
            Body::TurnOpen(t) => {
                if let Some(open) = &self.open
                    && open.key.is_none()
                {
                    return Err(format!(
                        "turn {} opens while turn {} is not revealed",
                        t.turn, open.turn
                    ));
                }
                if paired && let Some(p) = &self.pending {
                    return Err(format!(
                        "turn {} opens while the orders of entry {} ({}) wait for their adjudication",
                        t.turn, p.seq, p.power
                    ));
                }
                if t.turn != self.turns + 1 {
                    return Err(format!(
                        "turn {} opens, but the next turn is {}",
                        t.turn,
                        self.turns + 1
                    ));
                }
                self.open = Some(OpenTurn {
                    turn: t.turn,
                    commitment: t.commitment,
                    digests: Vec::new(),
                    seen: HashMap::new(),
                    key: None,
                    streams: HashMap::new(),
                });
                self.turns = t.turn;
                Ok(())
            }
            Body::Order(o) => {
                if self.bid.waiting() {
                    return Err(
                        "an order while the bids are sealed: the match starts when they are revealed"
                            .into(),
                    );
                }
                let open = Self::open_mut(&mut self.open, o.turn, "an order")?;
                let expected = OrderDigest::of_orders(match_id, o.turn, &o.power, &o.canonical);
                if expected != o.digest {
                    return Err(format!(
                        "order digest is {}, but the orders as logged give {expected}",
                        o.digest
                    ));
                }
                if paired {
                    if let Some(p) = &self.pending {
                        return Err(format!(
                            "the orders of entry {} ({}) were never adjudicated: each accepted message is adjudicated before the next is logged",
                            p.seq, p.power
                        ));
                    }
                    if open.key.is_none() {
                        if let Some(first) = open.seen.get(&o.digest) {
                            return Err(format!(
                                "these orders repeat entry {first} of dice turn {} (same power, same text) before its reveal: a digest feeds a turn key once",
                                o.turn
                            ));
                        }
                        open.seen.insert(o.digest, seq);
                    }
                    self.pending = Some(PendingOrder {
                        seq,
                        turn: o.turn,
                        power: o.power.clone(),
                        time_ms,
                        revealed: false,
                    });
                }
                // Orders after the reveal belong to a later stage; they are
                // on record but cannot feed a key already fixed.
                if open.key.is_none() {
                    open.digests.push(o.digest);
                }
                self.orders += 1;
                Ok(())
            }
            Body::Reveal(r) => {
                let open = Self::open_mut(&mut self.open, r.turn, "a reveal")?;
                if open.key.is_some() {
                    return Err(format!("turn {} is revealed a second time", r.turn));
                }
                if paired && self.pending.is_none() {
                    return Err(format!(
                        "turn {} is revealed with no orders waiting for their dice: the secret is revealed by the stage-1 message it keys",
                        r.turn
                    ));
                }
                let secret = TurnSecret::from_bytes(r.secret.0);
                let commitment = secret.commitment(match_id, r.turn);
                if commitment != open.commitment {
                    return Err(format!(
                        "the revealed secret gives commitment {commitment}, but turn {} committed to {}",
                        r.turn, open.commitment
                    ));
                }
                let randomness = match (&genesis.beacon, &r.beacon, &self.pending) {
                    (None, None, _) => None,
                    (None, Some(_), _) => {
                        return Err("a beacon round in a match that names no beacon".into());
                    }
                    (Some(net), None, _) => {
                        return Err(format!(
                            "the reveal has no beacon round, but the match takes every turn key from the {} beacon",
                            net.name
                        ));
                    }
                    (Some(net), Some(b), Some(p)) => {
                        let due = net.round_after(p.time_ms);
                        if b.round != due {
                            return Err(format!(
                                "beacon round {} is not the first due after the orders of entry {} were logged, which is round {due}",
                                b.round, p.seq
                            ));
                        }
                        net.verify(b)?;
                        Some(b.randomness()?)
                    }
                    (Some(_), Some(_), None) => {
                        return Err("a beacon round with no orders waiting for it".into());
                    }
                };
                let digests = rules.key_order(&open.digests);
                open.key = Some(secret.turn_key_with_beacon(
                    match_id,
                    r.turn,
                    &digests,
                    randomness.as_ref(),
                ));
                if let Some(p) = &mut self.pending {
                    p.revealed = true;
                }
                Ok(())
            }
            Body::Adjudication(a) => {
                Self::open_mut(&mut self.open, a.turn, "an adjudication")?;
                if a.stage > 2 {
                    return Err(format!(
                        "stage {} is not 0 (standing orders), 1 or 2",
                        a.stage
                    ));
                }
                if paired {
                    let Some(p) = &self.pending else {
                        return Err(
                            "an adjudication with no orders waiting for it: each adjudication follows its own order entry".into(),
                        );
                    };
                    if p.turn != a.turn || p.power != a.power {
                        return Err(format!(
                            "the adjudication is of {} in dice turn {}, but the orders waiting (entry {}) are {}'s in dice turn {}",
                            a.power, a.turn, p.seq, p.power, p.turn
                        ));
                    }
                    if p.revealed != (a.stage == 1) {
                        return Err(if p.revealed {
                            format!(
                                "stage {} orders revealed the turn's secret: only a stage-1 message has dice",
                                a.stage
                            )
                        } else {
                            format!(
                                "a stage-1 adjudication whose orders (entry {}) did not reveal the turn: its dice must be keyed by them",
                                p.seq
                            )
                        });
                    }
                    self.pending = None;
                }
                self.league.positions.push(seq);
                Ok(())
            }
            // The daemon's records of mail: allowed at any point after
            // genesis; they feed neither the dice nor the state.
            Body::Received(_) | Body::Welcome(_) => Ok(()),
            Body::Deadline(d) => {
                if !(1..=2).contains(&d.stage) {
                    return Err(format!("deadline of stage {}, not 1 or 2", d.stage));
                }
                chrono::DateTime::parse_from_rfc3339(&d.due).map_err(|e| {
                    format!("deadline due {:?} is not an RFC 3339 time: {e}", d.due)
                })?;
                Ok(())
            }
            Body::Dice(d) => {
                let open = Self::open_mut(&mut self.open, d.turn, "dice")?;
                let Some(key) = open.key else {
                    return Err(format!("dice for turn {} before its reveal", d.turn));
                };
                if paired && !self.pending.as_ref().is_some_and(|p| p.revealed) {
                    return Err(
                        "dice outside a stage-1 message: dice belong to the message whose orders revealed the turn".into(),
                    );
                }
                // Dice are checked in place; on a bad die the streams are
                // put back as they were (new ones removed, advanced ones
                // restored), so a refused entry changes nothing.
                let mut added: Vec<&Label> = Vec::new();
                let mut saved: HashMap<&Label, LabelStream> = HashMap::new();
                let result =
                    Self::check_rolls(open, &key, dice_kind, &d.rolls, &mut added, &mut saved);
                if result.is_err() {
                    // Restore first, then remove: a label added by this entry
                    // and met again later in it ends up removed.
                    for (label, stream) in saved {
                        open.streams.insert(label.clone(), stream);
                    }
                    for label in added {
                        open.streams.remove(label);
                    }
                }
                self.dice += result?;
                Ok(())
            }
        }
    }

    /// Checks every die of a `dice` entry, advancing the streams; returns the
    /// number of dice. `added` and `saved` record what to undo on failure.
    fn check_rolls<'r>(
        open: &mut OpenTurn,
        key: &TurnKey,
        dice_kind: DiceKind,
        rolls: &'r [crate::dice::RollGroup],
        added: &mut Vec<&'r Label>,
        saved: &mut HashMap<&'r Label, LabelStream>,
    ) -> Result<u64, String> {
        let mut count = 0u64;
        for (g, group) in rolls.iter().enumerate() {
            if !(2..=MAX_SIDES).contains(&group.sides) {
                return Err(format!(
                    "roll group {}: a die has 2 to {MAX_SIDES} sides, not {}",
                    g + 1,
                    group.sides
                ));
            }
            if group.values.is_empty() {
                return Err(format!(
                    "roll group {} ({}) has no dice",
                    g + 1,
                    group.label
                ));
            }
            let mut stream = match dice_kind {
                DiceKind::Verifiable => Some(match open.streams.get_mut(&group.label) {
                    Some(s) => {
                        saved.entry(&group.label).or_insert_with(|| s.clone());
                        s
                    }
                    None => {
                        added.push(&group.label);
                        open.streams
                            .entry(group.label.clone())
                            .or_insert_with(|| LabelStream::new(key, &group.label))
                    }
                }),
                DiceKind::Fixed => None,
            };
            for (i, &v) in group.values.iter().enumerate() {
                let ok = match stream.as_mut() {
                    Some(s) => s.roll(group.sides) == v,
                    None => (1..=group.sides).contains(&v),
                };
                if !ok {
                    return Err(format!(
                        "roll group {} ({}), die {}: {v} is not the die its label's stream gives",
                        g + 1,
                        group.label,
                        i + 1
                    ));
                }
            }
            count += group.values.len() as u64;
        }
        Ok(count)
    }

    fn open_mut<'a>(
        open: &'a mut Option<OpenTurn>,
        turn: u32,
        what: &str,
    ) -> Result<&'a mut OpenTurn, String> {
        match open.as_ref().map(|t| t.turn) {
            Some(t) if t == turn => Ok(open.as_mut().expect("checked above")),
            Some(t) => Err(format!("{what} for turn {turn}, but the open turn is {t}")),
            None => Err(format!("{what} for turn {turn}, but no turn is open")),
        }
    }

    fn summary(&self, head_entry: Option<u64>) -> Summary {
        let g = self.genesis.as_ref().expect("summary after genesis");
        Summary {
            match_id: g.match_id.clone(),
            dice_kind: g.dice,
            entries: self.seq,
            turns: self.turns,
            orders: self.orders,
            dice: self.dice,
            head: self.head,
            unrevealed_turn: self
                .open
                .as_ref()
                .filter(|t| t.key.is_none())
                .map(|t| t.turn),
            head_entry,
            unadjudicated: self.pending.as_ref().map(|p| p.seq),
            legacy_format: self.rules == Some(Rules::V1),
            organiser_actions: self.organiser_actions,
            rollbacks: self.rollbacks,
            ended: self.league.ended,
        }
    }
}

/// A power named by an organiser or escalation entry must be one of the
/// match's players (when the genesis lists them).
fn check_power(power: &str, players: &[&str]) -> Result<(), String> {
    if !players.is_empty() && !players.contains(&power) {
        return Err(format!(
            "{power:?} is not a power of this match; its players are {}",
            players.join(", ")
        ));
    }
    Ok(())
}

fn rfc3339_ms(what: &str, t: &str) -> Result<i64, String> {
    chrono::DateTime::parse_from_rfc3339(t)
        .map(|t| t.timestamp_millis())
        .map_err(|e| format!("{what} {t:?} is not an RFC 3339 time: {e}"))
}

/// Checks an organiser entry against the match so far (`docs/log.md`,
/// kind `organiser`) and returns the match's new league state.
fn check_organiser(
    league: &LeagueState,
    o: &super::entry::Organiser,
    players: &[&str],
    seq: u64,
    time_ms: i64,
    pending: Option<u64>,
) -> Result<LeagueState, String> {
    use super::entry::OrganiserAction as A;
    let mut next = league.clone();
    if o.organiser.trim().is_empty() {
        return Err("an organiser entry must name its organiser".into());
    }
    match o.via.as_str() {
        "mail" | "server" => {}
        other => {
            return Err(format!(
                "via {other:?}: an organiser acts by mail or on the server"
            ));
        }
    }
    if o.mail_sha256.is_some() && o.via != "mail" {
        return Err("a mail hash on an organiser entry that did not come by mail".into());
    }
    if let Some(end) = league.ended
        && o.action != A::Ruling
    {
        return Err(format!(
            "{} after the match ended at entry {end}: only a ruling may follow the end",
            o.action.as_str()
        ));
    }
    // The fields each action takes; any other is an error.
    let given = [
        ("power", o.power.is_some()),
        ("side", o.side.is_some()),
        ("name", o.name.is_some()),
        ("due", o.due.is_some()),
        ("from", o.from.is_some()),
        ("until", o.until.is_some()),
        ("absence", o.absence.is_some()),
        ("entry", o.entry.is_some()),
        ("turn", o.turn.is_some()),
        ("secret", o.secret.is_some()),
        ("from_version", o.from_version.is_some()),
        ("to_version", o.to_version.is_some()),
        ("from_state", o.from_state.is_some()),
        ("to_state", o.to_state.is_some()),
    ];
    let (required, optional): (&[&str], &[&str]) = match o.action {
        A::Pause | A::Resume => (&[], &[]),
        A::Extend => (&["power", "due"], &[]),
        A::Replace => (&["power", "name"], &[]),
        A::Absent => (&["power", "from", "until", "absence"], &[]),
        A::Forfeit | A::Resign => (&[], &["power", "side"]),
        A::Ruling => (&["entry"], &[]),
        A::Rollback => (&["entry"], &["turn", "secret"]),
        A::Draw => (&[], &[]),
        A::Upgrade => (&["to_version", "from_state", "to_state"], &["from_version"]),
        A::RevealBids => (&[], &[]),
    };
    for (field, present) in given {
        if present && !required.contains(&field) && !optional.contains(&field) {
            return Err(format!(
                "an organiser's {} takes no {field}",
                o.action.as_str()
            ));
        }
        if !present && required.contains(&field) {
            return Err(format!(
                "an organiser's {} needs {field}",
                o.action.as_str()
            ));
        }
    }
    if let Some(p) = &o.power {
        check_power(p, players)?;
    }
    match o.action {
        A::Pause => {
            if let Some(at) = league.paused {
                return Err(format!("pause while the match is paused since entry {at}"));
            }
            next.paused = Some(seq);
        }
        A::Resume => {
            if league.paused.is_none() {
                return Err("resume while the match is not paused".into());
            }
            next.paused = None;
        }
        A::Extend => {
            let due = rfc3339_ms("due", o.due.as_deref().unwrap_or_default())?;
            if due <= time_ms {
                return Err(
                    "an extended deadline must be later than the entry that sets it".into(),
                );
            }
        }
        A::Replace => {
            if o.name.as_deref().unwrap_or_default().trim().is_empty() {
                return Err("a replacement player needs a name".into());
            }
            // A new player brings a forfeited power back.
            next.out.retain(|p| Some(p) != o.power.as_ref());
        }
        A::Absent => {
            let from = rfc3339_ms("from", o.from.as_deref().unwrap_or_default())?;
            let until = rfc3339_ms("until", o.until.as_deref().unwrap_or_default())?;
            if from >= until {
                return Err("an absence must end after it begins".into());
            }
            match o.absence.as_deref() {
                Some("extend" | "play") => {}
                other => {
                    return Err(format!(
                        "absence {other:?} is not extend (deadlines move) or play (played with no orders)"
                    ));
                }
            }
        }
        A::Forfeit | A::Resign => match (&o.power, &o.side) {
            (Some(p), None) => {
                if league.out.contains(p) {
                    return Err(format!("{p} has already forfeited or resigned"));
                }
                next.out.push(p.clone());
            }
            (None, Some(side)) => {
                if side.trim().is_empty() {
                    return Err("the side that ends the match must be named".into());
                }
                if let Some(p) = pending {
                    return Err(format!(
                        "the match ends while the orders of entry {p} wait for their adjudication"
                    ));
                }
                next.ended = Some(seq);
                next.paused = None;
            }
            _ => {
                return Err(format!(
                    "an organiser's {} names a power or a side, exactly one",
                    o.action.as_str()
                ));
            }
        },
        A::Upgrade => {
            // From the version the match is at, to a later one (a log that
            // recorded none is replayed as version 1 and may be re-based on
            // version 1 itself, which records it).
            if o.from_version != league.version {
                return Err(format!(
                    "an upgrade from rules version {}, but the match is at {}",
                    o.from_version
                        .map_or("none recorded".to_owned(), |v| v.to_string()),
                    league
                        .version
                        .map_or("none recorded (replayed as 1)".to_owned(), |v| v
                            .to_string())
                ));
            }
            let to = o.to_version.unwrap_or_default();
            let floor = o.from_version.map_or(1, |v| v + 1);
            if to < floor {
                return Err(format!(
                    "an upgrade to rules version {to}: it must be {floor} or later"
                ));
            }
            if let Some(p) = pending {
                return Err(format!(
                    "an upgrade while the orders of entry {p} wait for their adjudication"
                ));
            }
            next.version = Some(to);
            next.upgraded = Some(seq);
        }
        A::RevealBids => next.reveal_due = Some(seq),
        A::Draw => {
            if let Some(p) = pending {
                return Err(format!(
                    "the match ends while the orders of entry {p} wait for their adjudication"
                ));
            }
            next.ended = Some(seq);
            next.paused = None;
        }
        A::Rollback => {
            let entry = o.entry.unwrap_or_default();
            if entry != 1 && !league.positions.contains(&entry) {
                return Err(format!(
                    "a rollback to entry {entry}, which is not a position of the match's current line (entry 1, the start, or an adjudication not undone by an earlier rollback)"
                ));
            }
            if let Some(p) = pending {
                return Err(format!(
                    "a rollback while the orders of entry {p} wait for their adjudication"
                ));
            }
            // The positions before an upgrade were played by an older rules
            // version, which this match no longer plays by.
            if let Some(u) = league.upgraded
                && entry < u
            {
                return Err(format!(
                    "a rollback to entry {entry}, before the upgrade at entry {u}: a rollback cannot cross an upgrade"
                ));
            }
            next.positions.retain(|&p| p <= entry);
        }
        A::Ruling => {
            let entry = o.entry.unwrap_or_default();
            if entry == 0 || entry >= seq {
                return Err(format!(
                    "a ruling about entry {entry}, which is not an earlier entry of this log"
                ));
            }
            if o.text.as_deref().unwrap_or_default().trim().is_empty() {
                return Err("a ruling needs its text".into());
            }
        }
    }
    Ok(next)
}

impl Rules {
    /// The digests in the order the turn key takes them: log order in
    /// version 1, ascending bytes in version 2, so that no one can choose it.
    fn key_order(self, digests: &[OrderDigest]) -> Vec<OrderDigest> {
        match self {
            Rules::V1 => digests.to_vec(),
            Rules::V2 => crate::dice::key_order(digests),
        }
    }
}

/// Calls `f` with each line's sequence number, byte offset and bytes
/// (without the newline). A last line without its newline is a torn tail.
pub(crate) fn for_each_line(
    data: &[u8],
    mut f: impl FnMut(u64, u64, &[u8]) -> Result<(), VerifyError>,
) -> Result<(), VerifyError> {
    let mut offset = 0usize;
    let mut seq = 0u64;
    while offset < data.len() {
        seq += 1;
        let rest = &data[offset..];
        let Some(end) = rest.iter().position(|&b| b == b'\n') else {
            return Err(VerifyError {
                seq,
                offset: offset as u64,
                reason: format!(
                    "torn tail: the last {} bytes do not end with a newline; the log was cut while this entry was written",
                    rest.len()
                ),
            });
        };
        f(seq, offset as u64, &rest[..end])?;
        offset += end + 1;
    }
    Ok(())
}

/// Verifies a whole log held in memory.
pub fn verify_bytes(data: &[u8], opts: &VerifyOptions) -> Result<Summary, VerifyError> {
    verify_each(data, opts, |_| {})
}

/// A log verified by [`verify_entries`]: what it holds, and its entries as
/// parsed, for the engine replay (`matches::replay_verified`), so that
/// `adjutant verify` reads and parses the log once.
#[derive(Debug, Clone)]
pub struct Verified {
    /// What [`verify_bytes`] returns.
    pub summary: Summary,
    /// Every entry, in log order.
    pub entries: Vec<Entry>,
}

/// [`verify_bytes`], keeping the entries.
pub fn verify_entries(data: &[u8], opts: &VerifyOptions) -> Result<Verified, VerifyError> {
    let mut entries = Vec::new();
    let summary = verify_each(data, opts, |e| entries.push(e))?;
    Ok(Verified { summary, entries })
}

/// Verifies a log, handing each entry to `keep` once the chain accepted it.
fn verify_each(
    data: &[u8],
    opts: &VerifyOptions,
    mut keep: impl FnMut(Entry),
) -> Result<Summary, VerifyError> {
    let mut chain = Chain::new();
    let mut head_entry = None;
    for_each_line(data, |seq, offset, line| {
        let err = |reason: String| VerifyError {
            seq,
            offset,
            reason,
        };
        let entry = parse_line(line).map_err(|e| err(e.to_string()))?;
        chain.apply(&entry).map_err(err)?;
        if opts.head == Some(entry.hash) {
            head_entry = Some(seq);
        }
        keep(entry);
        Ok(())
    })?;
    if chain.genesis.is_none() {
        return Err(VerifyError {
            seq: 1,
            offset: 0,
            reason: "the log is empty: it has no genesis entry".into(),
        });
    }
    if let Some(h) = opts.head
        && head_entry.is_none()
    {
        return Err(VerifyError {
            seq: chain.seq,
            offset: data.len() as u64,
            reason: format!(
                "no entry has the hash {h}: the log does not contain the history that head vouches for"
            ),
        });
    }
    if chain.genesis.as_ref().map(|g| g.dice) == Some(DiceKind::Fixed) && !opts.allow_fixed_dice {
        return Err(VerifyError {
            seq: 1,
            offset: 0,
            reason: "this match uses fixed (scripted) test dice, which prove nothing; pass --allow-fixed-dice to check the rest".into(),
        });
    }
    Ok(chain.summary(head_entry))
}

/// Reads and verifies a log file.
pub fn verify_file(
    path: &Path,
    opts: &VerifyOptions,
) -> anyhow::Result<Result<Summary, VerifyError>> {
    let data =
        std::fs::read(path).map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
    Ok(verify_bytes(&data, opts))
}
