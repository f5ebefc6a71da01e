//! Routing: which match a message is for, and the subject tag we put on
//! everything we send.
//!
//! Two ways in, address first: a plus-address (`orders+MATCH@domain`) is set
//! by the player's mail program when they reply to us or use the address
//! from a report, and survives subject editing; a subject tag
//! (`[MATCH round N POWER]`) covers players who write to the plain address.
//! Match ids are `[A-Za-z0-9._-]+` here, so an id is safe in an address's
//! local part and cannot contain `]`. New matches get narrower ids
//! (`docs/daemon.md`, "Match ids"); routing stays wider for older matches.

use super::message::Inbound;

/// Where orders are sent: `LOCAL+MATCH@DOMAIN`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Address {
    /// The local part before `+` (e.g. `orders`), compared case-insensitively.
    pub local_part: String,
    /// The domain, compared case-insensitively.
    pub domain: String,
}

impl Address {
    /// The configured address.
    pub fn new(local_part: impl Into<String>, domain: impl Into<String>) -> Self {
        Address {
            local_part: local_part.into(),
            domain: domain.into(),
        }
    }

    /// The plus-address of `match_id` (`orders+MATCH@domain`), for the
    /// `Reply-To` of mail about that match.
    pub fn for_match(&self, match_id: &str) -> String {
        format!("{}+{}@{}", self.local_part, match_id, self.domain)
    }

    /// The match id in `address` if it is our plus-address; `None` for any
    /// other address, including our bare address.
    pub fn match_of(&self, address: &str) -> Option<String> {
        let address = address.trim().trim_start_matches('<').trim_end_matches('>');
        let (local, domain) = address.rsplit_once('@')?;
        if !domain.eq_ignore_ascii_case(&self.domain) {
            return None;
        }
        let (base, detail) = local.split_once('+')?;
        if !base.eq_ignore_ascii_case(&self.local_part) || !is_match_id(detail) {
            return None;
        }
        Some(detail.to_string())
    }
}

/// Is `id` usable as a match id in addresses and subject tags?
pub fn is_match_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
}

/// What a subject tag says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SubjectTag {
    /// The match id.
    pub match_id: String,
    /// The round, if the tag has one.
    pub round: Option<u32>,
    /// The power, if the tag has one (may contain spaces: "Soviet Union").
    pub power: Option<String>,
}

/// How a message was routed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RouteSource {
    /// By this recipient address.
    PlusAddress(String),
    /// By the subject tag.
    SubjectTag,
}

/// The match a message is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    /// The match id.
    pub match_id: String,
    /// How it was found.
    pub source: RouteSource,
    /// The subject tag, if the subject has one, even when the address
    /// decided the match: its round and power are context for the reply.
    pub tag: Option<SubjectTag>,
}

impl Route {
    /// `true` when the subject tag names a different match from the one the
    /// address chose (the address wins; the reply may point this out).
    pub fn tag_disagrees(&self) -> bool {
        self.tag
            .as_ref()
            .is_some_and(|t| t.match_id != self.match_id)
    }
}

/// Finds the match of `mail`: the first recipient candidate (envelope
/// recipients, `To`, `Cc`) that is our plus-address, else the subject tag.
pub fn route(ours: &Address, mail: &Inbound) -> Option<Route> {
    let tag = parse_subject_tag(&mail.subject);
    for candidate in mail.recipient_candidates() {
        if let Some(match_id) = ours.match_of(candidate) {
            return Some(Route {
                match_id,
                source: RouteSource::PlusAddress(candidate.to_string()),
                tag,
            });
        }
    }
    let tag = tag?;
    Some(Route {
        match_id: tag.match_id.clone(),
        source: RouteSource::SubjectTag,
        tag: Some(tag),
    })
}

/// Finds the first `[MATCH]`, `[MATCH round N]` or `[MATCH round N POWER]`
/// in `subject`, wherever it is, so `Re:`, `Fwd:`, `AW:` and list prefixes
/// do not matter. Bracketed text that is not a tag (`[EXTERNAL]` with a
/// space, `[1/2]`) is skipped.
pub fn parse_subject_tag(subject: &str) -> Option<SubjectTag> {
    let mut rest = subject;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let close = after.find(']')?;
        if let Some(tag) = parse_tag_body(&after[..close]) {
            return Some(tag);
        }
        rest = &after[close + 1..];
    }
    None
}

fn parse_tag_body(body: &str) -> Option<SubjectTag> {
    let mut words = body.split_whitespace();
    let match_id = words.next()?;
    if !is_match_id(match_id) || match_id.chars().all(|c| c.is_ascii_digit() || c == '/') {
        return None;
    }
    let Some(keyword) = words.next() else {
        return Some(SubjectTag {
            match_id: match_id.to_string(),
            round: None,
            power: None,
        });
    };
    if !keyword.eq_ignore_ascii_case("round") {
        return None;
    }
    let round = words.next()?.parse::<u32>().ok()?;
    let power = words.collect::<Vec<_>>().join(" ");
    Some(SubjectTag {
        match_id: match_id.to_string(),
        round: Some(round),
        power: (!power.is_empty()).then_some(power),
    })
}

/// Formats our stable subject tag: `[MATCH round N POWER]`, `[MATCH round
/// N]` without a power, `[MATCH]` without a round. [`parse_subject_tag`]
/// reads it back.
pub fn format_subject_tag(match_id: &str, round: Option<u32>, power: Option<&str>) -> String {
    match (round, power) {
        (Some(r), Some(p)) => format!("[{match_id} round {r} {p}]"),
        (Some(r), None) => format!("[{match_id} round {r}]"),
        (None, _) => format!("[{match_id}]"),
    }
}
