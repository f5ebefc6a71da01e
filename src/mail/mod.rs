//! The mail layer: messages in, messages out, and the guards between.
//!
//! What it knows: RFC 5322 messages and MIME (parsed with `mail-parser`,
//! built with `lettre`), addresses, subject tags, Maildir inboxes, a
//! persisted outbox and the transports that empty it (files, the sendmail
//! binary, SMTP). It hands the layers above an [`message::Inbound`] with the
//! orders *text* found in a message, and takes from them the text of a reply
//! or report to send.
//!
//! What it does not know: the rules of any game, the meaning of orders (the
//! orders text is opaque here; YAML is parsed by the layers above), players,
//! secrets, the match log. A match is only an id found in an address or a
//! subject tag; whether that match exists is for the caller to decide.
//!
//! The pieces, in the order a message meets them:
//!
//! * [`maildir`]: the inbox; lists, reads and (after the caller's log
//!   entries are durable) moves a message to the `.processed` folder.
//! * [`message`]: parses raw bytes into an [`message::Inbound`]: headers,
//!   the SHA-256 of the raw bytes, and the orders text or why there is none.
//! * [`hygiene`]: decides whether a message was machine-generated (and so
//!   must never be answered) and extracts the failed recipient of a bounce.
//! * [`route`]: finds the match by plus-address or subject tag, and formats
//!   the stable subject tag of outgoing mail.
//! * [`compose`]: builds replies and reports with threading and loop headers.
//! * [`outbox`]: persists outgoing mail before any send, once per key, and
//!   retries with backoff.
//! * [`transport`]: the [`transport::Transport`] trait and its file, sendmail
//!   and SMTP implementations.

pub mod compose;
pub mod hygiene;
pub mod imap;
pub mod inbox;
pub mod maildir;
pub mod message;
pub mod outbox;
pub mod route;
pub mod transport;

pub(crate) mod fsutil;

/// The header every message Adjutant sends carries, with our domain as its
/// value. Inbound mail bearing it is never answered (see [`hygiene`]), so two
/// daemons, or one daemon and its own bounces, cannot talk to each other
/// forever.
pub const LOOP_HEADER: &str = "X-Adjutant-Loop";
