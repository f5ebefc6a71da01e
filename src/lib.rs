//! Adjutant: a play-by-email adjudicator for Axis & Allies-family board games.
//!
//! Layers, each depending only on those listed before it:
//!
//! * [`rules`]: game definitions (`games/<id>/`, `docs/games.md`) and rule sets.
//! * [`import`]: importers that turn other programs' game files into definitions.
//! * [`dice`]: commitments, turn keys and labelled dice streams (the byte-level
//!   specification is `docs/dice.md`). Knows nothing of the rules.
//! * [`log`]: the append-only, hash-chained match log and its verifier
//!   (`docs/log.md`). Knows nothing of mail.
//! * [`matches`]: the match lifecycle over dice and log.
//! * [`mail`]: inbound parsing, routing, loop guards, the outbox and its
//!   transports. Deals in messages, addresses, bytes and text; knows no rules.
//! * [`report`]: what players read, rendered from data and state.
//! * [`daemon`]: the mail daemon: configuration, the processing loop that
//!   ties mail, matches and reports together, signals.
//! * [`cli`]: the `adjutant` commands; wiring only.
//!
//! [`control_chars`] serves the layers that show others' text: it makes
//! control and format characters visible before they reach a terminal or a
//! mail reader. [`file_lock`] serves the log and the outbox: an exclusive
//! lock that a child process forked a moment ago does not hold against us.
//!
//! `docs/architecture.md` states what each layer does not know.

pub mod cli;
pub mod control_chars;
pub mod daemon;
pub mod dice;
pub mod file_lock;
pub mod import;
pub mod log;
pub mod mail;
pub mod matches;
pub mod report;
pub mod rules;
