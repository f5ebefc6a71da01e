//! Loop guards: which messages must never be answered, and what a bounce
//! says about the address that failed.
//!
//! Answering machine-generated mail is how mail loops start (two
//! autoresponders answering each other), so anything that looks automatic
//! gets no reply at all. Bounces are the exception worth reading: they tell
//! the daemon that a player's address is failing.

use mail_parser::{MessageParser, MimeHeaders, PartType};

use super::LOOP_HEADER;
use super::message::Inbound;

/// Why a message is treated as machine-generated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AutoReason {
    /// It carries our own loop header: we (or another Adjutant) sent it.
    #[error("it carries our {LOOP_HEADER} header")]
    OwnMail,
    /// A delivery status notification (`multipart/report;
    /// report-type=delivery-status`).
    #[error("it is a delivery status notification")]
    DeliveryReport,
    /// RFC 3834 `Auto-Submitted` with a value other than `no`.
    #[error("Auto-Submitted: {0}")]
    AutoSubmitted(String),
    /// An autoresponder's own marker (`X-Autoreply`, `X-Autorespond`).
    #[error("{0} header present")]
    Autoresponder(String),
    /// `Precedence: bulk`, `junk` or `list`.
    #[error("Precedence: {0}")]
    Precedence(String),
    /// The null return path `<>`, which only bounces and auto-replies use.
    #[error("empty Return-Path")]
    NullReturnPath,
    /// Sent by `MAILER-DAEMON`, `postmaster` or a similar system account.
    #[error("sent by the system address {0}")]
    SystemSender(String),
    /// Sent through a mailing list (`List-Id`, `List-Unsubscribe`).
    #[error("mailing-list mail ({0} header)")]
    MailingList(String),
}

/// Returns why `mail` must not be answered, or `None` if a person sent it.
pub fn auto_generated(mail: &Inbound) -> Option<AutoReason> {
    if mail.header(LOOP_HEADER).is_some() {
        return Some(AutoReason::OwnMail);
    }
    if is_delivery_report(mail) {
        return Some(AutoReason::DeliveryReport);
    }
    if let Some(value) = mail.header("Auto-Submitted") {
        // The keyword may carry parameters ("auto-replied; owner=...").
        let keyword = value.split(';').next().unwrap_or_default().trim();
        if !keyword.eq_ignore_ascii_case("no") {
            return Some(AutoReason::AutoSubmitted(value.to_string()));
        }
    }
    for name in ["X-Autoreply", "X-Autorespond"] {
        if mail.header(name).is_some() {
            return Some(AutoReason::Autoresponder(name.to_string()));
        }
    }
    if let Some(value) = mail.header("Precedence") {
        let v = value.trim().to_ascii_lowercase();
        if matches!(v.as_str(), "bulk" | "junk" | "list") {
            return Some(AutoReason::Precedence(value.to_string()));
        }
    }
    if let Some(value) = mail.header("Return-Path") {
        let inner = value
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .trim();
        if inner.is_empty() {
            return Some(AutoReason::NullReturnPath);
        }
    }
    if let Some(from) = &mail.from
        && is_system_address(&from.address)
    {
        return Some(AutoReason::SystemSender(from.address.clone()));
    }
    for name in ["List-Id", "List-Unsubscribe"] {
        if mail.header(name).is_some() {
            return Some(AutoReason::MailingList(name.to_string()));
        }
    }
    None
}

/// Local parts that belong to mail systems, not people.
fn is_system_address(address: &str) -> bool {
    let local = address.rsplit_once('@').map_or(address, |(l, _)| l);
    let local = local.to_ascii_lowercase();
    matches!(
        local.as_str(),
        "mailer-daemon" | "postmaster" | "mail-daemon" | "mailerdaemon"
    ) || local.starts_with("mailer-daemon")
}

fn is_delivery_report(mail: &Inbound) -> bool {
    mail.header("Content-Type").is_some_and(|ct| {
        let ct = ct.to_ascii_lowercase();
        ct.starts_with("multipart/report") && ct.contains("delivery-status")
    })
}

/// What a bounce says.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Bounce {
    /// The addresses that failed (`Final-Recipient`/`Original-Recipient` of
    /// a DSN, or Exim's `X-Failed-Recipients`). May be empty when the bounce
    /// does not say.
    pub failed_recipients: Vec<String>,
    /// The DSN status code, e.g. `5.1.1`, if given.
    pub status: Option<String>,
    /// The remote server's diagnostic, if given.
    pub diagnostic: Option<String>,
    /// The Message-ID of the message that bounced, when the bounce returns
    /// its headers: lets the daemon tie the bounce to the mail it sent.
    pub original_message_id: Option<String>,
}

/// Recognises a bounce: a DSN, or a message from a mailer daemon. Returns
/// what it says about the failed delivery; `None` if it is not a bounce.
/// Delayed-delivery DSNs (`Action: delayed`) are not failures and give
/// `None` for their recipients.
pub fn bounce(mail: &Inbound, raw: &[u8]) -> Option<Bounce> {
    let from_daemon = mail
        .from
        .as_ref()
        .is_some_and(|f| is_system_address(&f.address));
    let dsn = is_delivery_report(mail);
    if !dsn && !from_daemon && mail.header("X-Failed-Recipients").is_none() {
        return None;
    }
    let mut result = Bounce::default();
    if let Some(list) = mail.header("X-Failed-Recipients") {
        result.failed_recipients.extend(
            list.split(',')
                .map(|a| a.trim().to_string())
                .filter(|a| !a.is_empty()),
        );
    }
    let mut any_failed = false;
    let mut any_action = false;
    if let Some(message) = MessageParser::default().parse(raw) {
        for part in &message.parts {
            let Some(ct) = part.content_type() else {
                continue;
            };
            let ctype = ct.ctype().to_ascii_lowercase();
            let sub = ct.subtype().unwrap_or_default().to_ascii_lowercase();
            match (ctype.as_str(), sub.as_str()) {
                ("message", "delivery-status") | ("message", "global-delivery-status") => {
                    let text = match &part.body {
                        PartType::Text(t) | PartType::Html(t) => t.to_string(),
                        PartType::Binary(b) | PartType::InlineBinary(b) => {
                            String::from_utf8_lossy(b).into_owned()
                        }
                        PartType::Message(m) => {
                            String::from_utf8_lossy(m.raw_message()).into_owned()
                        }
                        PartType::Multipart(_) => continue,
                    };
                    let (failed, saw_action) = read_delivery_status(&text, &mut result);
                    any_failed |= failed;
                    any_action |= saw_action;
                }
                ("message", "rfc822") | ("text", "rfc822-headers") | ("message", "global")
                    if result.original_message_id.is_none() =>
                {
                    result.original_message_id = original_message_id(part);
                }
                _ => {}
            }
        }
    }
    if dsn && any_action && !any_failed && result.failed_recipients.is_empty() {
        // Only "delayed", "delivered", "relayed" or "expanded": not a bounce.
        return None;
    }
    result.failed_recipients.dedup();
    Some(result)
}

/// Reads the per-recipient fields of a `message/delivery-status` body
/// (RFC 3464). Returns whether any recipient failed and whether any
/// `Action` field was seen.
fn read_delivery_status(text: &str, out: &mut Bounce) -> (bool, bool) {
    let normalised = text.replace("\r\n", "\n");
    // Groups are separated by blank lines; continuation lines (a wrapped
    // Diagnostic-Code) are unfolded into the field before them.
    let mut fields: Vec<String> = Vec::new();
    let mut groups: Vec<Vec<(String, String)>> = vec![Vec::new()];
    for line in normalised.split('\n') {
        if line.trim().is_empty() {
            flush(&mut fields, groups.last_mut().expect("one group"));
            groups.push(Vec::new());
        } else if line.starts_with([' ', '\t']) {
            if let Some(last) = fields.last_mut() {
                last.push(' ');
                last.push_str(line.trim());
            }
        } else {
            fields.push(line.to_string());
        }
    }
    flush(&mut fields, groups.last_mut().expect("one group"));

    let mut any_failed = false;
    let mut any_action = false;
    // The first group describes the message; the others one recipient each.
    for group in groups.iter().filter(|g| !g.is_empty()) {
        let get = |name: &str| {
            group
                .iter()
                .find(|(n, _)| n.eq_ignore_ascii_case(name))
                .map(|(_, v)| v.clone())
        };
        let recipient = get("Final-Recipient").or_else(|| get("Original-Recipient"));
        let Some(recipient) = recipient else {
            continue;
        };
        let action = get("Action").map(|a| a.to_ascii_lowercase());
        any_action |= action.is_some();
        let failed = match action.as_deref() {
            Some(a) => a.starts_with("failed"),
            None => get("Status").is_some_and(|s| s.trim().starts_with('5')),
        };
        if !failed {
            continue;
        }
        any_failed = true;
        // "rfc822; alice@example.org"
        let address = recipient
            .split_once(';')
            .map_or(recipient.as_str(), |(_, a)| a)
            .trim()
            .trim_start_matches('<')
            .trim_end_matches('>')
            .to_string();
        if !address.is_empty() && !out.failed_recipients.contains(&address) {
            out.failed_recipients.push(address);
        }
        if out.status.is_none() {
            out.status = get("Status").map(|s| s.trim().to_string());
        }
        if out.diagnostic.is_none() {
            out.diagnostic = get("Diagnostic-Code").map(|d| {
                d.split_once(';')
                    .map_or(d.as_str(), |(_, text)| text)
                    .trim()
                    .to_string()
            });
        }
    }
    (any_failed, any_action)
}

fn flush(fields: &mut Vec<String>, group: &mut Vec<(String, String)>) {
    for field in fields.drain(..) {
        if let Some((name, value)) = field.split_once(':') {
            group.push((name.trim().to_string(), value.trim().to_string()));
        }
    }
}

fn original_message_id(part: &mail_parser::MessagePart<'_>) -> Option<String> {
    let text = match &part.body {
        PartType::Message(m) => return m.message_id().map(str::to_string),
        PartType::Text(t) => t.to_string(),
        PartType::Binary(b) | PartType::InlineBinary(b) => String::from_utf8_lossy(b).into_owned(),
        _ => return None,
    };
    let headers = MessageParser::default().parse_headers(text.as_bytes())?;
    headers.message_id().map(str::to_string)
}
