//! Log entries and their exact line encoding.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::dice::{
    BeaconNetwork, BeaconRound, Commitment, DiceKind, Digest32, OrderDigest, RollGroup,
};

/// The `format` written in every genesis entry of this version.
pub const LOG_FORMAT: &str = "adjutant-log/2";

/// The first format, still read and verified (`docs/log.md`, "Format
/// versions"): its order entries need no adjudication and feed the turn key
/// in log order.
pub const LOG_FORMAT_V1: &str = "adjutant-log/1";

/// Length of the fixed suffix `,"hash":"` + 64 hex digits + `"}`.
const HASH_SUFFIX_LEN: usize = 9 + 64 + 2;

/// The first entry of every log: what the match is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Genesis {
    /// [`LOG_FORMAT`] for a new log; [`LOG_FORMAT_V1`] for an older one.
    pub format: String,
    /// The match id, which every commitment and digest binds.
    #[serde(rename = "match")]
    pub match_id: String,
    /// Whether the dice are verifiable or scripted test dice.
    pub dice: DiceKind,
    /// The program and version that created the log.
    pub engine: String,
    /// The game id (`games/<id>/`), for a match of a game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
    /// SHA-256 over the game's data files as the match uses them
    /// (`docs/log.md`, "Game hash").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game_hash: Option<Digest32>,
    /// Who plays which power (public data only: no addresses).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub players: Vec<PlayerEntry>,
    /// The public randomness beacon whose rounds feed every turn key
    /// (`docs/dice.md` §3, "Beacon"), when the match uses one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<BeaconNetwork>,
    /// The rules version of the engine that started the match
    /// ([`crate::rules::version`]); absent in logs written before versions
    /// were recorded (replayed as version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules_version: Option<u32>,
}

/// A player as the log records them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayerEntry {
    /// The power played.
    pub power: String,
    /// The player's display name.
    pub name: String,
}

/// A dice turn opens: the commitment to its secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnOpen {
    /// The dice turn, 1 for the first.
    pub turn: u32,
    /// `C_T`.
    pub commitment: Commitment,
}

/// An accepted order message and the digest it contributes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OrderEntry {
    /// The open dice turn.
    pub turn: u32,
    /// The power that sent it.
    pub power: String,
    /// The orders in canonical form, entropy included.
    pub canonical: String,
    /// The digest of `docs/dice.md` §2.
    pub digest: OrderDigest,
    /// The Message-ID of the mail, when the orders came by mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// SHA-256 of the raw mail, when the orders came by mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail_sha256: Option<Digest32>,
}

/// The turn's secret, revealed after adjudication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Reveal {
    /// The open dice turn.
    pub turn: u32,
    /// `s_T`.
    pub secret: Digest32,
    /// For a match with a beacon: the first round due after the stage-1
    /// orders were logged, whose randomness the turn key takes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub beacon: Option<BeaconRound>,
}

/// Dice drawn during an adjudication.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DiceEntry {
    /// The open, revealed dice turn.
    pub turn: u32,
    /// The dice in the order drawn.
    pub rolls: Vec<RollGroup>,
}

/// The result of applying one accepted orders message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudication {
    /// The open dice turn.
    pub turn: u32,
    /// The power whose message it was.
    pub power: String,
    /// The game round.
    pub round: u32,
    /// 1 (purchase, combat), 2 (non-combat, placement), or 0 for standing
    /// orders, which are outside the turn.
    pub stage: u8,
    /// What happened, in the game's words, in order.
    pub events: Vec<String>,
    /// SHA-256 of the engine's state afterwards: replaying the log with the
    /// same engine version must reproduce it.
    pub state: Digest32,
}

/// What the daemon did with a received mail message (`received` entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Written just before the orders are applied: if the entries that follow
    /// hold an `order` entry, the message was accepted even when a crash
    /// prevented its final `received` entry.
    Processing,
    /// The orders were accepted (their `order` entry precedes this one).
    Accepted,
    /// The orders were rejected; nothing was applied.
    Rejected,
    /// A command (`help`, `status`, `standing`, `resend`, `rotate`) was answered.
    Command,
    /// The sender could not be authenticated; nothing was applied.
    Refused,
    /// A bounce: mail to the player failed.
    Bounce,
}

impl Outcome {
    /// The word written in the log.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Processing => "processing",
            Outcome::Accepted => "accepted",
            Outcome::Rejected => "rejected",
            Outcome::Command => "command",
            Outcome::Refused => "refused",
            Outcome::Bounce => "bounce",
        }
    }
}

/// A mail message the daemon received for this match and what became of it.
/// The mail daemon deduplicates on `message_id` and `mail_sha256`, so a
/// message is never applied or answered twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Received {
    /// The `Message-ID` of the mail, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// SHA-256 of the raw mail.
    pub mail_sha256: Digest32,
    /// SHA-256 of the sender's address (lowercased): addresses stay out of
    /// the log, which players and auditors hold.
    pub from_hash: Digest32,
    /// The power the sender was authenticated as, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// What happened.
    pub outcome: Outcome,
    /// The command answered (outcome `command`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Every error (rejected, refused) or the bounce's diagnostic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub errors: Vec<String>,
}

/// The daemon sent the welcome mails of a match (each player's secret):
/// logged so that they are never sent twice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Welcome {
    /// The powers welcomed.
    pub powers: Vec<String>,
}

/// What a deadline event was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineEvent {
    /// The stage began with this deadline (written when a stage starts, so
    /// the reports and every later look read the same time even if the
    /// match's settings change).
    Set,
    /// The reminder before the deadline was sent to the power's player.
    Reminder,
    /// The deadline passed without the stage's orders: the late notices
    /// were sent.
    Late,
    /// The match's no-orders policy applies: the stage is adjudicated with
    /// no orders (standing orders still apply). Written before the stage's
    /// entries, so a crash in between is finished on restart.
    Passed,
}

impl DeadlineEvent {
    /// The word written in the log.
    pub fn as_str(self) -> &'static str {
        match self {
            DeadlineEvent::Set => "set",
            DeadlineEvent::Reminder => "reminder",
            DeadlineEvent::Late => "late",
            DeadlineEvent::Passed => "passed",
        }
    }
}

/// A deadline event of one stage: logged before its mail is sent, so each
/// reminder or notice goes out once, and anyone holding the log sees when
/// the server acted for a player who did not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Deadline {
    /// The round.
    pub round: u32,
    /// The power to move.
    pub power: String,
    /// The stage, 1 or 2.
    pub stage: u8,
    /// The deadline (RFC 3339, UTC).
    pub due: String,
    /// What happened.
    pub event: DeadlineEvent,
}

/// What an organiser did (`organiser` entries, `docs/daemon.md`,
/// "Organisers").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OrganiserAction {
    /// Deadlines stop: no reminders, late notices or no-orders plays.
    Pause,
    /// Deadlines run again; the current stage's deadline moves by the time
    /// the match was paused.
    Resume,
    /// The current stage's deadline moves to `due`.
    Extend,
    /// A new player takes `power` (`name`); the old secret no longer works.
    Replace,
    /// The player of `power` is away from `from` to `until`; `absence`
    /// says what happens to their stages meanwhile.
    Absent,
    /// `power` forfeits (played with no orders from now on), or with
    /// `side` the whole match ends, that side forfeiting.
    Forfeit,
    /// As `forfeit`, but the player's or side's own choice.
    Resign,
    /// A ruling: `text`, about entry `entry`.
    Ruling,
    /// The match goes back to the position after entry `entry` (1: the
    /// start); the open dice turn, if unrevealed, is revealed by `turn` and
    /// `secret`, so no die can be rolled again in secret.
    Rollback,
    /// The organisers adjudicate the match a draw: it ends, no side winning.
    Draw,
    /// The match is re-based on a later rules version: from here on it is
    /// replayed by `to_version`'s rules; the position's digest under the
    /// version before (`from_state`) and the new one (`to_state`) are
    /// recorded, so both engines can check the position carried across.
    Upgrade,
    /// The sealed bids are revealed at their deadline (a bidder who did
    /// not bid has no bid): the `bid` reveal entry follows at once.
    RevealBids,
}

impl OrganiserAction {
    /// Every action, in the order the documents list them.
    pub const ALL: [OrganiserAction; 12] = [
        OrganiserAction::Pause,
        OrganiserAction::Resume,
        OrganiserAction::Extend,
        OrganiserAction::Replace,
        OrganiserAction::Absent,
        OrganiserAction::Forfeit,
        OrganiserAction::Resign,
        OrganiserAction::Ruling,
        OrganiserAction::Rollback,
        OrganiserAction::Draw,
        OrganiserAction::Upgrade,
        OrganiserAction::RevealBids,
    ];

    /// The word written in the log (and by an organiser).
    pub fn as_str(self) -> &'static str {
        match self {
            OrganiserAction::Pause => "pause",
            OrganiserAction::Resume => "resume",
            OrganiserAction::Extend => "extend",
            OrganiserAction::Replace => "replace",
            OrganiserAction::Absent => "absent",
            OrganiserAction::Forfeit => "forfeit",
            OrganiserAction::Resign => "resign",
            OrganiserAction::Ruling => "ruling",
            OrganiserAction::Rollback => "rollback",
            OrganiserAction::Draw => "draw",
            OrganiserAction::Upgrade => "upgrade",
            OrganiserAction::RevealBids => "reveal_bids",
        }
    }

    /// The action of a word, if it is one (case does not matter, and a
    /// hyphen reads as `_`: `reveal-bids` as on the command line).
    pub fn from_word(word: &str) -> Option<OrganiserAction> {
        let w = word.trim().to_ascii_lowercase().replace('-', "_");
        OrganiserAction::ALL.into_iter().find(|a| a.as_str() == w)
    }
}

/// An organiser's action: authenticated (by their secret, by mail, or on
/// the server's command line) and logged before it takes effect, so that
/// anyone holding the log sees what the organisers did. Addresses and
/// secrets stay out of it, as everywhere in the log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Organiser {
    /// The organiser's name, as the players file lists them.
    pub organiser: String,
    /// How it came: `mail` (authenticated by the organiser's secret) or
    /// `server` (`adjutant organise` on the server).
    pub via: String,
    /// What they did.
    pub action: OrganiserAction,
    /// The power concerned (extend, replace, absent, forfeit, resign).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power: Option<String>,
    /// The side that forfeits or resigns the whole match.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// The new player's name (replace).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The new deadline (extend), RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due: Option<String>,
    /// An absence's first moment, RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// An absence's end (the player is back), RFC 3339 UTC.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until: Option<String>,
    /// What an absence does: `extend` (deadlines move past it) or `play`
    /// (the stages are played with no orders).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub absence: Option<String>,
    /// The entry a ruling is about; the entry a rollback goes back to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entry: Option<u64>,
    /// A rollback's reveal: the open dice turn it reveals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn: Option<u32>,
    /// A rollback's reveal: that turn's secret `s_T`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<Digest32>,
    /// An upgrade: the rules version the match was at (absent for a log
    /// that recorded none, replayed as version 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_version: Option<u32>,
    /// An upgrade: the rules version the match is at from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_version: Option<u32>,
    /// An upgrade: SHA-256 of the position's canonical text under
    /// `from_version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_state: Option<Digest32>,
    /// An upgrade: SHA-256 of the same position's canonical text under
    /// `to_version`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_state: Option<Digest32>,
    /// A ruling's text, or the reason given for any other action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// SHA-256 of the organiser's mail, when it came by mail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mail_sha256: Option<Digest32>,
}

/// What the server does about a power that missed too many deadlines
/// (`escalation` entries).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EscalationPolicy {
    /// The power is played with no orders at each of its deadlines from
    /// now on (standing orders apply), whatever the match's `no_orders`.
    Standing,
    /// The power forfeits.
    Forfeit,
}

impl EscalationPolicy {
    /// The word written in the log and the players file.
    pub fn as_str(self) -> &'static str {
        match self {
            EscalationPolicy::Standing => "standing",
            EscalationPolicy::Forfeit => "forfeit",
        }
    }
}

/// A power missed its `missed`-th deadline: the organisers were alerted,
/// and the match's policy applies from now on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Escalation {
    /// The power.
    pub power: String,
    /// How many deadlines it missed (since its player took the seat).
    pub missed: u32,
    /// What happens to it now.
    pub policy: EscalationPolicy,
}

/// The steps of a match's bid (`bid` entries; `docs/log.md`, "Bids").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BidStep {
    /// Sealed bids for sides open: the bidders, the side the lower bid
    /// takes, and the commitment to the server's bid secret.
    Open,
    /// A bidder's sealed bid.
    Sealed,
    /// The bid secret, every bid and the result.
    Reveal,
    /// Setup money the match gives without bidding.
    Setup,
}

/// A bid in the clear, as the reveal lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BidAmount {
    /// The bidder (a side as the players file seats it).
    pub bidder: String,
    /// The setup money bid, in IPCs.
    pub ipcs: u32,
}

/// Setup money of a side (`setup` step).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideMoney {
    /// The side, as `game.yaml` names it.
    pub side: String,
    /// IPCs.
    pub ipcs: u32,
}

/// One step of a match's bid. Which fields a step carries, and no others,
/// is in `docs/log.md` ("Bids"), checked by `log::bid`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BidEntry {
    /// Which step.
    pub step: BidStep,
    /// `open`: the bidders, in order (the tie-break die counts in it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidders: Option<Vec<String>>,
    /// `open`: the side the lower bid takes, with its bid as setup money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side: Option<String>,
    /// `sealed`: who bids.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bidder: Option<String>,
    /// `open`: the bid secret's commitment; `sealed`: the sealed bid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commitment: Option<Digest32>,
    /// `reveal`: the bid secret.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub secret: Option<Digest32>,
    /// `reveal`: every sealed bid in the clear, in the bidders' order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bids: Option<Vec<BidAmount>>,
    /// `reveal`: the tie-break die, when the lowest bids tie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tie: Option<u32>,
    /// `reveal`: the bidder who takes `side` (absent when nobody bid).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub winner: Option<String>,
    /// `setup`: each side's setup money.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub money: Option<Vec<SideMoney>>,
}

/// The body of an entry, tagged by its kind.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "body", rename_all = "snake_case")]
pub enum Body {
    /// See [`Genesis`].
    Genesis(Genesis),
    /// See [`TurnOpen`].
    TurnOpen(TurnOpen),
    /// See [`OrderEntry`].
    Order(OrderEntry),
    /// See [`Reveal`].
    Reveal(Reveal),
    /// See [`DiceEntry`].
    Dice(DiceEntry),
    /// See [`Adjudication`].
    Adjudication(Adjudication),
    /// See [`Received`].
    Received(Received),
    /// See [`Welcome`].
    Welcome(Welcome),
    /// See [`Deadline`].
    Deadline(Deadline),
    /// See [`Organiser`].
    Organiser(Organiser),
    /// See [`Escalation`].
    Escalation(Escalation),
    /// See [`BidEntry`].
    Bid(BidEntry),
}

impl Body {
    /// The `kind` string of this body.
    pub fn kind(&self) -> &'static str {
        match self {
            Body::Genesis(_) => "genesis",
            Body::TurnOpen(_) => "turn_open",
            Body::Order(_) => "order",
            Body::Reveal(_) => "reveal",
            Body::Dice(_) => "dice",
            Body::Adjudication(_) => "adjudication",
            Body::Received(_) => "received",
            Body::Welcome(_) => "welcome",
            Body::Deadline(_) => "deadline",
            Body::Organiser(_) => "organiser",
            Body::Escalation(_) => "escalation",
            Body::Bid(_) => "bid",
        }
    }
}

/// One parsed line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Sequence number (= line number).
    pub seq: u64,
    /// Hash of the previous entry.
    pub prev: Digest32,
    /// UTC time of the append, as written.
    pub time: String,
    /// The body.
    pub body: Body,
    /// This entry's hash.
    pub hash: Digest32,
}

#[derive(Serialize)]
struct HeaderOut<'a> {
    seq: u64,
    prev: Digest32,
    time: &'a str,
    #[serde(flatten)]
    body: &'a Body,
}

/// A line as read: the fields in the documented order. `kind` comes before
/// `body`, so the body is parsed straight into its type in the same pass.
struct LineIn<'a> {
    seq: u64,
    prev: Cow<'a, str>,
    time: Cow<'a, str>,
    body: Body,
}

impl<'de: 'a, 'a> Deserialize<'de> for LineIn<'a> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(LineVisitor(std::marker::PhantomData))
    }
}

struct LineVisitor<'a>(std::marker::PhantomData<&'a ()>);

impl<'de: 'a, 'a> serde::de::Visitor<'de> for LineVisitor<'a> {
    type Value = LineIn<'a>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an object with the keys {KEY_ORDER:?} in that order")
    }

    // Reads the keys strictly in the documented order, which also rules out
    // unknown and duplicate keys in one pass.
    fn visit_map<M: serde::de::MapAccess<'de>>(self, mut m: M) -> Result<Self::Value, M::Error> {
        use serde::de::Error;
        let expect = |m: &mut M, want: &str| -> Result<(), M::Error> {
            match m.next_key::<Cow<'de, str>>()? {
                Some(k) if k == want => Ok(()),
                Some(k) => Err(M::Error::custom(format!(
                    "expected key {want:?}, found {k:?} (keys must be {KEY_ORDER:?} in that order)"
                ))),
                None => Err(M::Error::custom(format!("missing key {want:?}"))),
            }
        };
        expect(&mut m, "seq")?;
        let seq = m.next_value()?;
        expect(&mut m, "prev")?;
        let prev = m.next_value::<Cow<'de, str>>()?;
        expect(&mut m, "time")?;
        let time = m.next_value::<Cow<'de, str>>()?;
        expect(&mut m, "kind")?;
        let kind = m.next_value::<Cow<'de, str>>()?;
        expect(&mut m, "body")?;
        let body = match kind.as_ref() {
            "genesis" => Body::Genesis(m.next_value()?),
            "turn_open" => Body::TurnOpen(m.next_value()?),
            "order" => Body::Order(m.next_value()?),
            "reveal" => Body::Reveal(m.next_value()?),
            "dice" => Body::Dice(m.next_value()?),
            "adjudication" => Body::Adjudication(m.next_value()?),
            "received" => Body::Received(m.next_value()?),
            "welcome" => Body::Welcome(m.next_value()?),
            "deadline" => Body::Deadline(m.next_value()?),
            "organiser" => Body::Organiser(m.next_value()?),
            "escalation" => Body::Escalation(m.next_value()?),
            "bid" => Body::Bid(m.next_value()?),
            other => {
                return Err(M::Error::custom(format!(
                    "unknown kind {other:?}; this version knows genesis, turn_open, order, reveal, dice, adjudication, received, welcome, deadline, organiser, escalation, bid"
                )));
            }
        };
        expect(&mut m, "hash")?;
        m.next_value::<serde::de::IgnoredAny>()?;
        if let Some(k) = m.next_key::<Cow<'de, str>>()? {
            return Err(M::Error::custom(format!(
                "unexpected key {k:?} after \"hash\""
            )));
        }
        Ok(LineIn {
            seq,
            prev,
            time,
            body,
        })
    }
}

const KEY_ORDER: [&str; 6] = ["seq", "prev", "time", "kind", "body", "hash"];

/// Why a line is not a well-formed entry.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    /// The line is not UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line does not end with the `,"hash":"<64 hex>"}` suffix.
    #[error("the line does not end with ,\"hash\":\"<64 lowercase hex digits>\"}}")]
    NoHashSuffix,
    /// The written hash is not SHA-256 of the line's content.
    #[error("the entry hash does not match its content (written {written}, computed {computed})")]
    HashMismatch {
        /// The hash in the line.
        written: String,
        /// The hash of the content.
        computed: String,
    },
    /// The line is not a JSON object of the required shape.
    #[error("malformed entry: {0}")]
    Malformed(String),
}

/// Encodes an entry as one line (without the trailing newline) and returns
/// the line and its hash.
pub fn encode_line(seq: u64, prev: &Digest32, time: &str, body: &Body) -> (String, Digest32) {
    let header = HeaderOut {
        seq,
        prev: *prev,
        time,
        body,
    };
    let mut line = serde_json::to_string(&header).expect("entries always serialize");
    // Drop the object's closing brace: what remains is P, the hashed prefix.
    line.pop();
    let hash = Digest32::sha256(line.as_bytes());
    line.push_str(",\"hash\":\"");
    line.push_str(&hash.to_hex());
    line.push_str("\"}");
    (line, hash)
}

/// Parses one line (without its newline), checking its hash and shape.
pub fn parse_line(bytes: &[u8]) -> Result<Entry, LineError> {
    let line = std::str::from_utf8(bytes).map_err(|_| LineError::NotUtf8)?;
    let hash = check_hash(line)?;
    let raw: LineIn<'_> =
        serde_json::from_str(line).map_err(|e| LineError::Malformed(e.to_string()))?;
    let prev =
        Digest32::from_hex(&raw.prev).map_err(|e| LineError::Malformed(format!("prev: {e}")))?;
    check_time(&raw.time)?;
    Ok(Entry {
        seq: raw.seq,
        prev,
        time: raw.time.into_owned(),
        body: raw.body,
        hash,
    })
}

fn check_hash(line: &str) -> Result<Digest32, LineError> {
    let n = line.len();
    if n < HASH_SUFFIX_LEN || !line.is_char_boundary(n - HASH_SUFFIX_LEN) {
        return Err(LineError::NoHashSuffix);
    }
    let (p, suffix) = line.split_at(n - HASH_SUFFIX_LEN);
    let hex = suffix
        .strip_prefix(",\"hash\":\"")
        .and_then(|s| s.strip_suffix("\"}"))
        .ok_or(LineError::NoHashSuffix)?;
    let written = Digest32::from_hex(hex).map_err(|_| LineError::NoHashSuffix)?;
    let computed = Digest32::sha256(p.as_bytes());
    if written != computed {
        return Err(LineError::HashMismatch {
            written: written.to_hex(),
            computed: computed.to_hex(),
        });
    }
    Ok(written)
}

fn check_time(t: &str) -> Result<(), LineError> {
    // Exactly what `format_time` writes, as `tools/verify_dice.py` demands:
    // chrono alone also takes a lowercase `t`, a space or an offset.
    let ok = chrono::DateTime::parse_from_rfc3339(t)
        .is_ok_and(|p| format_time(p.with_timezone(&chrono::Utc)) == t);
    if ok {
        Ok(())
    } else {
        Err(LineError::Malformed(format!(
            "time {t:?} is not UTC in the form 2026-11-21T07:19:14.123Z"
        )))
    }
}

/// Formats a UTC time the way entries record it.
pub fn format_time(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Body {
        Body::Reveal(Reveal {
            turn: 3,
            secret: Digest32([0xab; 32]),
            beacon: None,
        })
    }

    #[test]
    fn round_trip() {
        let (line, hash) =
            encode_line(4, &Digest32([1; 32]), "2026-11-21T07:19:14.123Z", &sample());
        assert!(line.starts_with("{\"seq\":4,\"prev\":\"0101"));
        assert!(line.contains("\"kind\":\"reveal\",\"body\":{\"turn\":3,"));
        let e = parse_line(line.as_bytes()).unwrap();
        assert_eq!(e.seq, 4);
        assert_eq!(e.hash, hash);
        assert_eq!(e.body, sample());
    }

    const TIME: &str = "2026-11-21T07:19:14.123Z";

    /// `p` (the hashed prefix) with its correct hash suffix appended.
    fn hashed(p: &str) -> String {
        format!("{p},\"hash\":\"{}\"}}", Digest32::sha256(p.as_bytes()))
    }

    /// The prefix of a reveal entry, written with the given keys in order.
    fn prefix(keys: [&str; 5], time: &str) -> String {
        format!(
            "{{\"{}\":1,\"{}\":\"{}\",\"{}\":\"{time}\",\"{}\":\"reveal\",\"{}\":{{\"turn\":1,\"secret\":\"{}\"}}",
            keys[0],
            keys[1],
            "0".repeat(64),
            keys[2],
            keys[3],
            keys[4],
            "ab".repeat(32)
        )
    }

    const KEYS: [&str; 5] = ["seq", "prev", "time", "kind", "body"];

    fn malformed(line: &str) -> String {
        match parse_line(line.as_bytes()) {
            Err(LineError::Malformed(m)) => m,
            other => panic!("{line}: {other:?}"),
        }
    }

    #[test]
    fn the_test_prefix_is_a_valid_entry() {
        // The tests below change one thing of this line each.
        assert!(parse_line(hashed(&prefix(KEYS, TIME)).as_bytes()).is_ok());
    }

    #[test]
    fn rejects_reordered_keys_even_with_a_valid_hash() {
        let p = format!(
            "{{\"prev\":\"{}\",\"seq\":1,\"time\":\"{TIME}\",\"kind\":\"reveal\",\"body\":{{\"turn\":1,\"secret\":\"{}\"}}",
            "0".repeat(64),
            "ab".repeat(32)
        );
        // The key order itself is named, not a value of the wrong type.
        let m = malformed(&hashed(&p));
        assert!(m.contains("expected key \"seq\", found \"prev\""), "{m}");
    }

    #[test]
    fn every_key_is_checked_by_name() {
        // Each value stays in its place and would parse: only the key's name
        // is wrong, so only the key check can refuse it.
        for i in 0..KEYS.len() {
            let mut keys = KEYS;
            let wrong = format!("{}x", KEYS[i]);
            keys[i] = &wrong;
            let m = malformed(&hashed(&prefix(keys, TIME)));
            let want = format!("expected key {:?}, found {wrong:?}", KEYS[i]);
            assert!(m.contains(&want), "{m}");
        }
        // The same for "hash": another key before the real hash suffix.
        let p = format!("{},\"hush\":\"\"", prefix(KEYS, TIME));
        let m = malformed(&hashed(&p));
        assert!(m.contains("expected key \"hash\", found \"hush\""), "{m}");
    }

    #[test]
    fn the_time_has_exactly_the_written_form() {
        // A leap second is valid RFC 3339, and the Python verifier takes it.
        assert!(parse_line(hashed(&prefix(KEYS, "2026-12-31T23:59:60.500Z")).as_bytes()).is_ok());
        for bad in [
            "2026-11-21T07:19:14Z",          // no milliseconds
            "2026-11-21T07:19:14.1234Z",     // too many digits
            "2026-11-21T07:19:14.123z",      // lowercase z
            "2026-11-21t07:19:14.123Z",      // lowercase t
            "2026-11-21 07:19:14.123Z",      // a space for the T
            "2026-11-21T07:19:14.123+00:00", // an offset, even a zero one
            "2026-11-31T07:19:14.123Z",      // no such day
            "yesterday",
        ] {
            let m = malformed(&hashed(&prefix(KEYS, bad)));
            assert!(m.contains("is not UTC in the form"), "{bad}: {m}");
        }
    }

    #[test]
    fn a_line_too_short_for_the_hash_suffix_is_an_error_not_a_panic() {
        for line in ["", "{}", &"x".repeat(HASH_SUFFIX_LEN - 1)] {
            assert_eq!(parse_line(line.as_bytes()), Err(LineError::NoHashSuffix));
        }
        // Exactly the suffix, hashing the empty prefix: long enough, so it
        // gets past the guard to the JSON parser.
        let line = hashed("");
        assert_eq!(line.len(), HASH_SUFFIX_LEN);
        assert!(matches!(
            parse_line(line.as_bytes()),
            Err(LineError::Malformed(_))
        ));
    }

    #[test]
    fn a_suffix_split_inside_a_character_is_an_error_not_a_panic() {
        // 'é' is two bytes; the suffix would start at its second byte.
        let line = format!("é{}", "x".repeat(HASH_SUFFIX_LEN - 1));
        assert!(!line.is_char_boundary(line.len() - HASH_SUFFIX_LEN));
        assert_eq!(parse_line(line.as_bytes()), Err(LineError::NoHashSuffix));
    }

    #[test]
    fn a_line_that_is_no_object_is_told_what_an_entry_is() {
        let m = malformed(&hashed("[1,2"));
        assert!(
            m.contains("expected an object with the keys [\"seq\", \"prev\""),
            "{m}"
        );
    }

    #[test]
    fn valid_lines_parse_wherever_their_multi_byte_characters_fall() {
        // Long lines of 3-byte characters at each of the three alignments:
        // the suffix check may look only where the suffix starts.
        for pad in 0..3 {
            let body = Body::Order(OrderEntry {
                turn: 1,
                power: "Germany".into(),
                canonical: format!("{}{}", "x".repeat(pad), "€".repeat(5000)),
                digest: OrderDigest(Digest32([2; 32])),
                message_id: None,
                mail_sha256: None,
            });
            let (line, _) = encode_line(3, &Digest32([1; 32]), TIME, &body);
            assert_eq!(parse_line(line.as_bytes()).unwrap().body, body);
        }
    }

    #[test]
    fn the_words_of_kinds_and_events_are_those_the_log_writes() {
        let json = |v: String| v.trim_matches('"').to_owned();
        for o in [
            Outcome::Processing,
            Outcome::Accepted,
            Outcome::Rejected,
            Outcome::Command,
            Outcome::Refused,
            Outcome::Bounce,
        ] {
            assert_eq!(o.as_str(), json(serde_json::to_string(&o).unwrap()));
        }
        for e in [
            DeadlineEvent::Set,
            DeadlineEvent::Reminder,
            DeadlineEvent::Late,
            DeadlineEvent::Passed,
        ] {
            assert_eq!(e.as_str(), json(serde_json::to_string(&e).unwrap()));
        }
        let (line, _) = encode_line(1, &Digest32([1; 32]), TIME, &sample());
        assert!(line.contains(&format!("\"kind\":\"{}\"", sample().kind())));
    }

    #[test]
    fn rejects_unknown_fields_and_kinds() {
        for (kind, body) in [
            (
                "reveal",
                "{\"turn\":1,\"secret\":\"00\",\"x\":1}".to_string(),
            ),
            ("coup", "{}".to_string()),
        ] {
            let p = format!(
                "{{\"seq\":1,\"prev\":\"{}\",\"time\":\"2026-11-21T07:19:14.123Z\",\"kind\":\"{kind}\",\"body\":{body}",
                "0".repeat(64)
            );
            let line = format!("{p},\"hash\":\"{}\"}}", Digest32::sha256(p.as_bytes()));
            assert!(matches!(
                parse_line(line.as_bytes()),
                Err(LineError::Malformed(_))
            ));
        }
    }
}
