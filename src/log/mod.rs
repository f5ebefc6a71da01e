//! The append-only, hash-chained match log (`docs/log.md`).
//!
//! [`entry`] defines the entries and their exact line encoding, [`chain`] the
//! rules a log must follow (used both to verify a log and to refuse writing an
//! entry that would break it), [`writer`] the crash-safe appender. This layer
//! knows nothing of mail.

pub mod bid;
pub mod chain;
pub mod entry;
pub mod writer;

pub use chain::{
    Chain, Summary, Verified, VerifyError, VerifyOptions, verify_bytes, verify_entries, verify_file,
};
pub use entry::{
    Adjudication, BidAmount, BidEntry, BidStep, Body, Deadline, DeadlineEvent, DiceEntry, Entry,
    Escalation, EscalationPolicy, Genesis, LOG_FORMAT, LOG_FORMAT_V1, LineError, OrderEntry,
    Organiser, OrganiserAction, Outcome, PlayerEntry, Received, Reveal, SideMoney, TurnOpen,
    Welcome, encode_line, parse_line,
};
pub use writer::{MatchLog, WriteError, Written};
