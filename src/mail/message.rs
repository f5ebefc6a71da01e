//! Parsing one raw message into an [`Inbound`]: the headers the daemon
//! needs, the SHA-256 of the exact bytes received, and the orders text.

use chrono::{DateTime, Utc};
use mail_parser::{Address, HeaderValue, MessageParser, MimeHeaders, PartType};
use sha2::{Digest, Sha256};

/// A name and an address, as in `Alice <alice@example.org>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mailbox {
    /// The address, as written (`alice@example.org`).
    pub address: String,
    /// The display name, if any.
    pub name: Option<String>,
}

/// Where the orders text came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OrdersSource {
    /// The message's text/plain part(s), quotes and signature removed.
    PlainText,
    /// A `.yaml`/`.yml` attachment (it wins over the body), used verbatim
    /// apart from line-end and space normalisation.
    Attachment {
        /// The attachment's file name.
        filename: String,
    },
    /// An HTML-only message converted to text.
    Html,
}

/// The orders text of a message and its source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Orders {
    /// The text, with `\n` line ends, no non-breaking spaces, quoted reply
    /// and signature removed (body only). May be empty: what an empty
    /// message means is for the layer above.
    pub text: String,
    /// Which part of the message it came from.
    pub source: OrdersSource,
}

/// Why a message's orders could not be read. The `Display` text is written
/// to be quoted in the reply to the sender.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The raw message is larger than the configured limit.
    #[error("the message is {size} bytes, more than the limit of {limit} bytes")]
    TooLarge {
        /// The message's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The message has more than one `.yaml` attachment.
    #[error(
        "the message has more than one YAML attachment ({0}); send one set of orders per message"
    )]
    SeveralAttachments(String),
    /// The attachment is not UTF-8 text.
    #[error("the attachment {0:?} is not UTF-8 text")]
    AttachmentNotUtf8(String),
    /// The HTML-only body could not be safely turned into text.
    #[error("the message has only an HTML body, which could not be converted safely: {0}")]
    UnsafeHtml(String),
    /// No text/plain part, no `.yaml` attachment, no HTML.
    #[error("the message has no plain-text body and no .yaml attachment")]
    NoText,
}

/// Limits applied while parsing.
#[derive(Debug, Clone, Copy)]
pub struct ParseLimits {
    /// Largest raw message, in bytes, whose body is read. A larger message
    /// still yields its headers (so it can be answered) with
    /// [`Refusal::TooLarge`] as its orders.
    pub max_bytes: usize,
}

impl Default for ParseLimits {
    /// 256 KiB: orders are a few kilobytes; a message this large is an
    /// attachment sent by mistake.
    fn default() -> Self {
        ParseLimits {
            max_bytes: 256 * 1024,
        }
    }
}

/// Why raw bytes are not a message at all.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    /// No RFC 5322 header section could be found.
    #[error("not an RFC 5322 message: no header section found")]
    NotAMessage,
}

/// One received message, as the layers above see it.
#[derive(Debug, Clone)]
pub struct Inbound {
    /// The `Message-ID` without angle brackets, if present.
    pub message_id: Option<String>,
    /// The first `From` mailbox.
    pub from: Option<Mailbox>,
    /// `To` mailboxes.
    pub to: Vec<Mailbox>,
    /// `Cc` mailboxes.
    pub cc: Vec<Mailbox>,
    /// Envelope recipients recorded by the delivering MTA (`Delivered-To`,
    /// `X-Original-To`, `Envelope-To`), in header order. The caller may add
    /// recipients it knows from elsewhere (an MTA pipe's arguments).
    pub envelope_to: Vec<String>,
    /// The decoded subject; empty if none.
    pub subject: String,
    /// `In-Reply-To` message ids, without angle brackets.
    pub in_reply_to: Vec<String>,
    /// `References` message ids, without angle brackets, oldest first.
    pub references: Vec<String>,
    /// The `Date` header, converted to UTC.
    pub date: Option<DateTime<Utc>>,
    /// Lowercase hex SHA-256 of the raw bytes, as logged.
    pub sha256: String,
    /// Size of the raw bytes.
    pub size: usize,
    /// Top-level header fields, name as written, value unfolded and trimmed,
    /// in message order (for hygiene checks and diagnostics).
    pub headers: Vec<(String, String)>,
    /// The orders text, or why there is none.
    pub orders: Result<Orders, Refusal>,
}

impl Inbound {
    /// The first header named `name` (case-insensitive), unfolded.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every header named `name` (case-insensitive), in order.
    pub fn header_all<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.headers
            .iter()
            .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Every address the message may have been delivered to, most reliable
    /// first: envelope recipients, then `To`, then `Cc`.
    pub fn recipient_candidates(&self) -> Vec<&str> {
        self.envelope_to
            .iter()
            .map(String::as_str)
            .chain(self.to.iter().map(|m| m.address.as_str()))
            .chain(self.cc.iter().map(|m| m.address.as_str()))
            .collect()
    }
}

/// Lowercase hex SHA-256 of `raw`.
pub fn sha256_hex(raw: &[u8]) -> String {
    hex::encode(Sha256::digest(raw))
}

/// Parses `raw`. Fails only when the bytes are not a message; a message
/// whose orders cannot be read still parses, with the reason in
/// [`Inbound::orders`], so that the sender can be told.
pub fn parse(raw: &[u8], limits: ParseLimits) -> Result<Inbound, ParseError> {
    let too_large = raw.len() > limits.max_bytes;
    let parser = MessageParser::default();
    let message = if too_large {
        parser.parse_headers(raw)
    } else {
        parser.parse(raw)
    }
    .ok_or(ParseError::NotAMessage)?;
    let root = message.root_part();
    if root.headers.is_empty() {
        return Err(ParseError::NotAMessage);
    }

    let headers = root
        .headers
        .iter()
        .map(|h| {
            let start = h.offset_start as usize;
            let end = (h.offset_end as usize).min(raw.len());
            let value = raw.get(start..end).unwrap_or_default();
            (h.name.as_str().to_string(), unfold(value))
        })
        .collect::<Vec<_>>();

    let envelope_to = headers
        .iter()
        .filter(|(n, _)| {
            ["delivered-to", "x-original-to", "envelope-to"]
                .iter()
                .any(|x| n.eq_ignore_ascii_case(x))
        })
        .flat_map(|(_, v)| v.split(','))
        .map(|a| {
            a.trim()
                .trim_start_matches('<')
                .trim_end_matches('>')
                .trim()
        })
        .filter(|a| !a.is_empty())
        .map(str::to_string)
        .collect();

    let orders = if too_large {
        Err(Refusal::TooLarge {
            size: raw.len(),
            limit: limits.max_bytes,
        })
    } else {
        extract_orders(&message)
    };

    Ok(Inbound {
        message_id: message.message_id().map(|id| id.to_string()),
        from: message.from().and_then(mailboxes_first),
        to: message.to().map(mailboxes).unwrap_or_default(),
        cc: message.cc().map(mailboxes).unwrap_or_default(),
        envelope_to,
        subject: message.subject().unwrap_or_default().trim().to_string(),
        in_reply_to: ids(message.in_reply_to()),
        references: ids(message.references()),
        date: message
            .date()
            .and_then(|d| DateTime::<Utc>::from_timestamp(d.to_timestamp(), 0)),
        sha256: sha256_hex(raw),
        size: raw.len(),
        headers,
        orders,
    })
}

/// Unfolds a raw header value: line breaks followed by whitespace become
/// the whitespace; the result is trimmed. Non-UTF-8 bytes are replaced.
fn unfold(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c != '\r' && c != '\n' {
            out.push(c);
        }
    }
    out.trim().to_string()
}

fn ids(value: &HeaderValue<'_>) -> Vec<String> {
    match value {
        HeaderValue::Text(t) => vec![t.to_string()],
        HeaderValue::TextList(list) => list.iter().map(|t| t.to_string()).collect(),
        _ => Vec::new(),
    }
}

fn mailboxes(address: &Address<'_>) -> Vec<Mailbox> {
    address
        .iter()
        .filter_map(|a| {
            Some(Mailbox {
                address: a.address()?.trim().to_string(),
                name: a
                    .name()
                    .map(|n| n.trim().to_string())
                    .filter(|n| !n.is_empty()),
            })
        })
        .collect()
}

fn mailboxes_first(address: &Address<'_>) -> Option<Mailbox> {
    mailboxes(address).into_iter().next()
}

fn is_yaml_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".yaml") || lower.ends_with(".yml")
}

fn is_yaml_type(part: &mail_parser::MessagePart<'_>) -> bool {
    part.content_type().is_some_and(|ct| {
        let sub = ct.subtype().unwrap_or_default().to_ascii_lowercase();
        matches!(sub.as_str(), "yaml" | "x-yaml")
            && matches!(
                ct.ctype().to_ascii_lowercase().as_str(),
                "application" | "text"
            )
    })
}

fn extract_orders(message: &mail_parser::Message<'_>) -> Result<Orders, Refusal> {
    // 1. A YAML attachment wins: the player chose to send a file.
    let mut yaml = Vec::new();
    for part in message.attachments() {
        let named = part.attachment_name().filter(|n| is_yaml_name(n));
        if named.is_some() || is_yaml_type(part) {
            yaml.push((named.unwrap_or("orders.yaml").to_string(), part));
        }
    }
    if yaml.len() > 1 {
        let names = yaml
            .iter()
            .map(|(n, _)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Refusal::SeveralAttachments(names));
    }
    if let Some((filename, part)) = yaml.pop() {
        let text = match &part.body {
            PartType::Text(t) | PartType::Html(t) => t.to_string(),
            PartType::Binary(b) | PartType::InlineBinary(b) => String::from_utf8(b.to_vec())
                .map_err(|_| Refusal::AttachmentNotUtf8(filename.clone()))?,
            _ => return Err(Refusal::AttachmentNotUtf8(filename)),
        };
        return Ok(Orders {
            text: normalise(&text),
            source: OrdersSource::Attachment { filename },
        });
    }

    // 2. The text/plain body parts (mail-parser lists HTML parts here too
    // when a message has no plain text; those are handled below).
    let texts = message
        .text_body
        .iter()
        .filter(|id| !message.attachments.contains(id))
        .filter_map(|&id| match &message.parts.get(id as usize)?.body {
            PartType::Text(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect::<Vec<_>>();
    if !texts.is_empty() {
        return Ok(Orders {
            text: strip_reply(&normalise(&texts.join("\n"))),
            source: OrdersSource::PlainText,
        });
    }

    // 3. HTML only: convert when it is simple enough to do so faithfully.
    let html = message
        .html_body
        .iter()
        .filter_map(|&id| match &message.parts.get(id as usize)?.body {
            PartType::Html(t) => Some(t.as_ref()),
            _ => None,
        })
        .collect::<Vec<_>>();
    if !html.is_empty() {
        let text = html_to_text(&html.join("\n")).map_err(Refusal::UnsafeHtml)?;
        return Ok(Orders {
            text: strip_reply(&normalise(&text)),
            source: OrdersSource::Html,
        });
    }
    Err(Refusal::NoText)
}

/// Normalises text for the orders parser: CRLF and lone CR become LF, a
/// leading byte-order mark is dropped, and non-breaking spaces (which mail
/// programs put in indentation, where YAML needs spaces) become spaces.
/// Tabs are left alone: the orders parser reports them with line and column.
pub fn normalise(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\u{a0}' | '\u{2007}' | '\u{202f}' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Is `line` the first line of a reply attribution ("On ... wrote:")?
/// Returns how many lines the attribution spans (mail programs wrap long
/// ones), or `None`.
fn attribution_len(lines: &[&str], i: usize) -> Option<usize> {
    let first = lines[i].trim_start();
    if !(first.starts_with("On ") || first.starts_with("Am ") || first.starts_with("Le ")) {
        return None;
    }
    for span in 1..=3 {
        let last = i + span - 1;
        if last >= lines.len() {
            return None;
        }
        let joined = lines[i..=last].join(" ");
        let joined = joined.trim();
        let is_attribution = (joined.starts_with("On ") && joined.ends_with("wrote:"))
            || (joined.starts_with("Am ") && joined.contains(" schrieb") && joined.ends_with(':'))
            || (joined.starts_with("Le ")
                && (joined.ends_with("a écrit :") || joined.ends_with("a écrit:")));
        if is_attribution {
            // An attribution is followed by the quote, blank lines, or the
            // end; otherwise "On Monday I wrote:" may be the player's text.
            let rest = &lines[last + 1..];
            let next = rest.iter().find(|l| !l.trim().is_empty());
            return match next {
                None => Some(span),
                Some(l) if l.starts_with('>') => Some(span),
                Some(_) => None,
            };
        }
    }
    None
}

/// Removes what a reply adds around the player's own text: lines quoted
/// with `>`, the "On ... wrote:" line before them, a signature after a
/// `-- ` line, an Outlook "Original Message" block, trailing spaces and
/// trailing blank lines.
pub fn strip_reply(text: &str) -> String {
    let lines = text.split('\n').collect::<Vec<_>>();
    let mut kept = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line == "-- " || line == "--" {
            break;
        }
        let trimmed = line.trim();
        if trimmed == "-----Original Message-----"
            || (trimmed.len() >= 20
                && trimmed.chars().all(|c| c == '_')
                && lines
                    .get(i + 1)
                    .is_some_and(|l| l.trim_start().starts_with("From:")))
        {
            break;
        }
        if line.starts_with('>') {
            i += 1;
            continue;
        }
        if let Some(span) = attribution_len(&lines, i) {
            i += span;
            continue;
        }
        kept.push(line.trim_end());
        i += 1;
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    while kept.first().is_some_and(|l| l.is_empty()) {
        kept.remove(0);
    }
    let mut out = kept.join("\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// Elements whose presence means the HTML is not a simple letter: it runs
/// code, embeds content or collects input. Such mail is refused, not
/// converted, because its visible text cannot be known without a browser.
const REFUSED_ELEMENTS: [&str; 9] = [
    "script", "iframe", "object", "embed", "applet", "form", "frame", "frameset", "svg",
];

/// Elements whose content is never visible text.
const HIDDEN_ELEMENTS: [&str; 3] = ["style", "head", "title"];

/// Elements that end a line.
const BLOCK_ELEMENTS: [&str; 15] = [
    "br", "p", "div", "li", "tr", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "table", "ul",
];

/// Converts a simple HTML body to text by removing tags: block elements end
/// lines, `<blockquote>` (a quoted reply) is dropped, entities are decoded.
/// Runs of spaces and line breaks collapse to one space outside `<pre>`, as
/// a browser shows them, but `&nbsp;`, which mail programs use for
/// indentation, is kept. Refuses scripts, embedded content, and markup that
/// is not well formed, with the reason.
pub fn html_to_text(html: &str) -> Result<String, String> {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    let mut hidden: Option<String> = None;
    let mut quote_depth = 0usize;
    let mut pre_depth = 0usize;
    let mut pending_space = false;
    while !rest.is_empty() {
        let Some(lt) = rest.find('<') else {
            text_run(
                rest,
                hidden.is_some() || quote_depth > 0,
                pre_depth > 0,
                &mut out,
                &mut pending_space,
            )?;
            break;
        };
        text_run(
            &rest[..lt],
            hidden.is_some() || quote_depth > 0,
            pre_depth > 0,
            &mut out,
            &mut pending_space,
        )?;
        rest = &rest[lt..];
        if let Some(after) = rest.strip_prefix("<!--") {
            let end = after.find("-->").ok_or("an HTML comment is never closed")?;
            rest = &after[end + 3..];
            continue;
        }
        if rest.starts_with("<!") || rest.starts_with("<?") {
            let end = rest.find('>').ok_or("a declaration is never closed")?;
            rest = &rest[end + 1..];
            continue;
        }
        if !rest[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/') {
            return Err(format!(
                "\"{}\" is not a tag (write &lt; for a literal <)",
                truncate(rest, 10)
            ));
        }
        let end = tag_end(rest).ok_or("a tag is never closed")?;
        let tag = &rest[1..end];
        rest = &rest[end + 1..];
        let (closing, body) = match tag.strip_prefix('/') {
            Some(b) => (true, b),
            None => (false, tag),
        };
        let name = body
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if name.is_empty()
            || !name.starts_with(|c: char| c.is_ascii_alphabetic())
            || !name.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(format!("\"<{}\" is not a tag", truncate(tag, 20)));
        }
        if REFUSED_ELEMENTS.contains(&name.as_str()) {
            return Err(format!("it contains a <{name}> element"));
        }
        if let Some(h) = &hidden {
            if closing && *h == name {
                hidden = None;
            }
            continue;
        }
        if HIDDEN_ELEMENTS.contains(&name.as_str()) && !closing {
            hidden = Some(name);
            continue;
        }
        if name == "blockquote" {
            if closing {
                quote_depth = quote_depth.saturating_sub(1);
            } else {
                quote_depth += 1;
            }
            continue;
        }
        if name == "pre" {
            pre_depth = if closing {
                pre_depth.saturating_sub(1)
            } else {
                pre_depth + 1
            };
        }
        if quote_depth == 0 && BLOCK_ELEMENTS.contains(&name.as_str()) {
            // A block element ends the line before it (opening) or after it
            // (closing); a `<br>` always does.
            if name == "br" || closing || !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            pending_space = false;
        }
    }
    if hidden.is_some() {
        return Err("a <style>, <head> or <title> element is never closed".into());
    }
    Ok(out)
}

fn truncate(s: &str, n: usize) -> String {
    s.chars().take(n).collect()
}

/// Finds the `>` closing a tag that starts at `s[0] == '<'`, skipping quoted
/// attribute values.
fn tag_end(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices().skip(1) {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '>') => return Some(i),
            (None, '<') => return None,
            _ => {}
        }
    }
    None
}

fn text_run(
    text: &str,
    skip: bool,
    pre: bool,
    out: &mut String,
    pending_space: &mut bool,
) -> Result<(), String> {
    if skip {
        return Ok(());
    }
    let decoded = decode_entities(text)?;
    if pre {
        out.push_str(&decoded);
        return Ok(());
    }
    for c in decoded.chars() {
        if c.is_ascii_whitespace() {
            *pending_space = true;
            continue;
        }
        if *pending_space && !out.is_empty() && !out.ends_with('\n') {
            out.push(' ');
        }
        *pending_space = false;
        out.push(c);
    }
    Ok(())
}

fn decode_entities(text: &str) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        rest = &rest[amp..];
        // Looked for in bytes: the 12th byte may fall inside a character
        // (`&` then accented text), where a `str` slice would panic.
        let Some(semi) = rest.as_bytes()[..rest.len().min(12)]
            .iter()
            .position(|&b| b == b';')
        else {
            // A bare ampersand is common in hand-written mail; keep it.
            out.push('&');
            rest = &rest[1..];
            continue;
        };
        let entity = &rest[1..semi];
        let decoded = match entity {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "apos" => Some('\''),
            "nbsp" => Some('\u{a0}'),
            _ => {
                let number = if let Some(hex) = entity
                    .strip_prefix("#x")
                    .or_else(|| entity.strip_prefix("#X"))
                {
                    u32::from_str_radix(hex, 16).ok()
                } else if let Some(dec) = entity.strip_prefix('#') {
                    dec.parse().ok()
                } else {
                    None
                };
                number.and_then(char::from_u32)
            }
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[semi + 1..];
            }
            None => {
                return Err(format!("unknown HTML entity \"&{entity};\""));
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}
