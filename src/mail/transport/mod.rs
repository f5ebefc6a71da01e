//! Transports: how a formatted message leaves the machine.
//!
//! The outbox owns durability and retries; a transport only tries once and
//! says whether a failure is worth retrying ([`SendError::permanent`]).

mod file;
mod sendmail;
mod smtp;

pub use file::FileTransport;
pub use sendmail::SendmailTransport;
pub use smtp::{SmtpConfig, SmtpConfigError, SmtpSecurity, SmtpTransport};

use serde::{Deserialize, Serialize};

/// The SMTP envelope of a message: who bounces come back to and who
/// receives it. It is not read from the message's headers, so Bcc-style
/// delivery and a bounce address different from `From` both work.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Envelope {
    /// The envelope sender (`MAIL FROM`, `Return-Path`); empty for the null
    /// sender `<>`.
    pub from: String,
    /// The envelope recipients (`RCPT TO`); never empty for a sendable
    /// message.
    pub to: Vec<String>,
}

/// One failed attempt to hand a message to a transport.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{} failure: {message}", if *permanent { "permanent" } else { "temporary" })]
pub struct SendError {
    /// `true` when retrying cannot help (an SMTP 5xx reply, an address the
    /// server refuses); the outbox then moves the message to `failed/`.
    pub permanent: bool,
    /// What went wrong, for the operator and the `failed/` record.
    pub message: String,
}

impl SendError {
    /// A failure that a later attempt may not have (connection refused,
    /// timeout, 4xx reply, a full disk).
    pub fn temporary(message: impl Into<String>) -> Self {
        SendError {
            permanent: false,
            message: message.into(),
        }
    }

    /// A failure that every later attempt would repeat.
    pub fn permanent(message: impl Into<String>) -> Self {
        SendError {
            permanent: true,
            message: message.into(),
        }
    }
}

/// Something that can send one formatted message to its envelope
/// recipients. Implementations make exactly one attempt per call.
pub trait Transport {
    /// Sends `message` (RFC 5322 bytes, CRLF line ends) to `envelope.to`.
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError>;
}

impl<T: Transport + ?Sized> Transport for &T {
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError> {
        (**self).send(envelope, message)
    }
}

impl<T: Transport + ?Sized> Transport for Box<T> {
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError> {
        (**self).send(envelope, message)
    }
}

/// Checks an envelope before any transport touches it: at least one
/// recipient, and no address that could smuggle a command or an option
/// (line breaks, a leading `-`, whitespace, angle brackets).
pub(crate) fn check_envelope(envelope: &Envelope) -> Result<(), SendError> {
    if envelope.to.is_empty() {
        return Err(SendError::permanent("the envelope has no recipients"));
    }
    let bad = |a: &str| {
        a.starts_with('-')
            || a.chars()
                .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
    };
    if bad(&envelope.from) {
        return Err(SendError::permanent(format!(
            "invalid envelope sender {:?}",
            envelope.from
        )));
    }
    for to in &envelope.to {
        if to.is_empty() || bad(to) || !to.contains('@') {
            return Err(SendError::permanent(format!(
                "invalid envelope recipient {to:?}"
            )));
        }
    }
    Ok(())
}
