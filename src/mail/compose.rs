//! Building outgoing mail: replies threaded to the message they answer,
//! reports marked as machine-generated, both carrying our loop header, and
//! every control or format character of their text made visible
//! ([`crate::control_chars`]).

use std::time::SystemTime;

use lettre::message::header::ContentType;
use lettre::message::header::{HeaderName, HeaderValue};
use lettre::message::{Attachment, Mailbox as LettreMailbox, MultiPart, SinglePart};
use sha2::{Digest, Sha256};

use crate::control_chars::{Target, escape};

use super::LOOP_HEADER;
use super::message::{Inbound, Mailbox};
use super::transport::Envelope;

/// What kind of message this is, for RFC 3834 `Auto-Submitted`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// An answer to a message a person sent (`Auto-Submitted: auto-replied`).
    Reply,
    /// A report or notice the daemon sends on its own
    /// (`Auto-Submitted: auto-generated`).
    Report,
}

/// The message being answered, for `In-Reply-To` and `References`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Thread {
    /// Its Message-ID, without angle brackets.
    pub message_id: String,
    /// Its own `References`, oldest first, without angle brackets.
    pub references: Vec<String>,
}

impl Thread {
    /// The thread of a received message; `None` if it has no Message-ID to
    /// answer.
    pub fn replying_to(mail: &Inbound) -> Option<Thread> {
        Some(Thread {
            message_id: mail.message_id.clone()?,
            references: mail.references.clone(),
        })
    }
}

/// A message to build.
#[derive(Debug, Clone)]
pub struct Outgoing {
    /// `From` (our address).
    pub from: Mailbox,
    /// `To`; also the envelope recipients.
    pub to: Vec<Mailbox>,
    /// `Reply-To`, typically the match's plus-address.
    pub reply_to: Option<Mailbox>,
    /// The subject tag from [`super::route::format_subject_tag`], put first.
    pub tag: Option<String>,
    /// The subject after the tag.
    pub subject: String,
    /// The plain-text body.
    pub text: String,
    /// An HTML alternative; when present the message is
    /// `multipart/alternative`.
    pub html: Option<String>,
    /// Reply or report.
    pub kind: Kind,
    /// The message answered, if any.
    pub thread: Option<Thread>,
    /// Our Message-ID, without angle brackets (see [`message_id_for`]).
    pub message_id: String,
    /// The `Date`.
    pub date: SystemTime,
    /// Our mail domain: the value of the loop header.
    pub domain: String,
    /// The envelope sender (where bounces go); `from`'s address when `None`.
    pub envelope_from: Option<String>,
    /// Further `X-` headers (e.g. the match log head).
    pub extra_headers: Vec<(String, String)>,
}

/// A built message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    /// RFC 5322 bytes with CRLF line ends, ready for a transport.
    pub bytes: Vec<u8>,
    /// Its Message-ID, without angle brackets.
    pub message_id: String,
    /// The envelope to send it with.
    pub envelope: Envelope,
}

/// Why a message could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ComposeError {
    /// An address does not parse.
    #[error("invalid {role} address {address:?}: {reason}")]
    Address {
        /// Which field.
        role: &'static str,
        /// The address.
        address: String,
        /// Why.
        reason: String,
    },
    /// No recipient.
    #[error("the message has no recipients")]
    NoRecipients,
    /// A header name or value that would corrupt the message.
    #[error("header {name:?}: {reason}")]
    Header {
        /// The header.
        name: String,
        /// Why.
        reason: String,
    },
    /// lettre refused the message.
    #[error("building the message: {0}")]
    Build(String),
}

/// A stable Message-ID for the message with outbox `key` (without angle
/// brackets): rebuilding the same message after a crash gives the same id,
/// so a recipient's mail program can tell a duplicate.
pub fn message_id_for(key: &str, domain: &str) -> String {
    let digest = Sha256::digest(key.as_bytes());
    format!("adjutant.{}@{}", hex::encode(&digest[..16]), domain)
}

/// At most this many ids in `References`: the first (the thread's root) and
/// the most recent, as RFC 5322 §3.6.4 allows trimming.
const MAX_REFERENCES: usize = 10;

fn mailbox(m: &Mailbox, role: &'static str) -> Result<LettreMailbox, ComposeError> {
    let address = m
        .address
        .parse()
        .map_err(|e: lettre::address::AddressError| ComposeError::Address {
            role,
            address: m.address.clone(),
            reason: e.to_string(),
        })?;
    Ok(LettreMailbox::new(m.name.clone(), address))
}

fn check_value(name: &str, value: &str) -> Result<(), ComposeError> {
    if value.contains(['\r', '\n']) {
        return Err(ComposeError::Header {
            name: name.to_string(),
            reason: "the value contains a line break".into(),
        });
    }
    Ok(())
}

fn check_id(name: &str, id: &str) -> Result<(), ComposeError> {
    check_value(name, id)?;
    if id.is_empty() || id.contains(['<', '>', ' ']) || !id.contains('@') {
        return Err(ComposeError::Header {
            name: name.to_string(),
            reason: format!("{id:?} is not a message id (local@domain, no brackets)"),
        });
    }
    Ok(())
}

/// An image a message carries: the map of a turn report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailImage {
    /// Its Content-ID, without angle brackets: the HTML part shows it as
    /// `<img src="cid:CONTENT-ID">`.
    pub content_id: String,
    /// The file name a mail program saves it under (`map.png`).
    pub filename: String,
    /// The PNG.
    pub png: Vec<u8>,
}

/// Builds `out` into bytes.
pub fn compose(out: &Outgoing) -> Result<Composed, ComposeError> {
    compose_with_image(out, None)
}

/// Builds `out` into bytes with an image. With an HTML part the message is
/// `multipart/related`: the text and HTML alternatives, then the PNG once,
/// inline under its Content-ID and with its file name, so the HTML shows it
/// and a mail program lists it as an attachment to save (one copy keeps a
/// report with the map under 400 KB). Without HTML the PNG is attached to
/// the text (`multipart/mixed`).
pub fn compose_with_image(
    out: &Outgoing,
    image: Option<&MailImage>,
) -> Result<Composed, ComposeError> {
    if out.to.is_empty() {
        return Err(ComposeError::NoRecipients);
    }
    check_id("Message-ID", &out.message_id)?;
    check_value(LOOP_HEADER, &out.domain)?;
    let subject = match &out.tag {
        Some(tag) => format!("{tag} {}", out.subject).trim().to_string(),
        None => out.subject.clone(),
    };
    // A line break is refused (header injection); other controls are shown.
    check_value("Subject", &subject)?;
    let subject = escape(&subject, Target::Terminal).into_owned();

    let mut builder = lettre::Message::builder()
        .from(mailbox(&out.from, "From")?)
        .subject(subject)
        .date(out.date)
        .message_id(Some(format!("<{}>", out.message_id)));
    for to in &out.to {
        builder = builder.to(mailbox(to, "To")?);
    }
    if let Some(reply_to) = &out.reply_to {
        builder = builder.reply_to(mailbox(reply_to, "Reply-To")?);
    }
    if let Some(thread) = &out.thread {
        check_id("In-Reply-To", &thread.message_id)?;
        let mut refs = thread.references.clone();
        refs.push(thread.message_id.clone());
        if refs.len() > MAX_REFERENCES {
            let tail = refs.split_off(refs.len() - (MAX_REFERENCES - 1));
            refs.truncate(1);
            refs.extend(tail);
        }
        for r in &refs {
            check_id("References", r)?;
        }
        builder = builder
            .in_reply_to(format!("<{}>", thread.message_id))
            .references(
                refs.iter()
                    .map(|r| format!("<{r}>"))
                    .collect::<Vec<_>>()
                    .join(" "),
            );
    }
    let auto = match out.kind {
        Kind::Reply => "auto-replied",
        Kind::Report => "auto-generated",
    };
    builder = builder
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str("Auto-Submitted"),
            auto.to_string(),
        ))
        .raw_header(HeaderValue::new(
            HeaderName::new_from_ascii_str(LOOP_HEADER),
            out.domain.clone(),
        ));
    for (name, value) in &out.extra_headers {
        let is_x = name.len() > 2 && name[..2].eq_ignore_ascii_case("x-");
        if !is_x || name.eq_ignore_ascii_case(LOOP_HEADER) {
            return Err(ComposeError::Header {
                name: name.clone(),
                reason: "extra headers must be X- headers other than the loop header".into(),
            });
        }
        check_value(name, value)?;
        let header_name =
            HeaderName::new_from_ascii(name.clone()).map_err(|e| ComposeError::Header {
                name: name.clone(),
                reason: e.to_string(),
            })?;
        builder = builder.raw_header(HeaderValue::new(header_name, value.clone()));
    }

    // Replies quote players' orders: a right-to-left override or an escape
    // sequence in them must show, not act. Only the mail changes; the log
    // keeps the exact text.
    let text = escape(&out.text, Target::MailText).into_owned();
    let png = ContentType::parse("image/png").expect("a valid content type");
    if let Some(img) = image {
        check_id("Content-ID", &img.content_id)?;
        check_value("filename", &img.filename)?;
    }
    let message = match (&out.html, image) {
        (Some(html), None) => builder.multipart(MultiPart::alternative_plain_html(
            text,
            escape(html, Target::MailHtml).into_owned(),
        )),
        (None, None) => builder.singlepart(SinglePart::plain(text)),
        (Some(html), Some(img)) => builder.multipart(
            MultiPart::related()
                .multipart(MultiPart::alternative_plain_html(
                    text,
                    escape(html, Target::MailHtml).into_owned(),
                ))
                .singlepart(
                    Attachment::new_inline_with_name(img.content_id.clone(), img.filename.clone())
                        .body(img.png.clone(), png),
                ),
        ),
        (None, Some(img)) => builder.multipart(
            MultiPart::mixed()
                .singlepart(SinglePart::plain(text))
                .singlepart(Attachment::new(img.filename.clone()).body(img.png.clone(), png)),
        ),
    }
    .map_err(|e| ComposeError::Build(e.to_string()))?;

    Ok(Composed {
        bytes: message.formatted(),
        message_id: out.message_id.clone(),
        envelope: Envelope {
            from: out
                .envelope_from
                .clone()
                .unwrap_or_else(|| out.from.address.clone()),
            to: out.to.iter().map(|m| m.address.clone()).collect(),
        },
    })
}
