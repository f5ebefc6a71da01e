//! Reading a mail body's YAML into a tree of nodes that know their line.
//!
//! The orders parser walks this tree by hand rather than deserialising into
//! typed structs: that way it can collect every problem in one pass, match
//! keys without regard to case, and say what was expected in the game's
//! words. serde-saphyr does the YAML itself, under limits fit for a mail
//! body, and its [`Spanned`] wrapper gives each node its line and column.

use std::fmt;

use serde::de::{Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::budget::BudgetBreach;
use serde_saphyr::options::{AliasLimits, DuplicateKeyPolicy};
use serde_saphyr::{Budget, Error as YamlError, Options, Spanned};

use super::{OrderError, Origin};

/// Largest orders message accepted, in bytes. A full turn of a big power is a
/// few kilobytes; the limit only stops abuse.
pub const MAX_BYTES: usize = 64 * 1024;
/// Deepest nesting of lists and mappings accepted. The format itself needs
/// five levels (`combat` > order > `load` > list > entry).
pub const MAX_DEPTH: usize = 12;
/// Most YAML nodes (scalars, lists, mappings) in one message.
const MAX_NODES: usize = 20_000;
/// Most anchors or aliases: orders have no use for them, a few are tolerated
/// so that a player who knows YAML is not punished, many are an attack.
const MAX_ALIASES: usize = 32;

/// The YAML options for a mail body: strict booleans (so `no` and `off` stay
/// words), errors on duplicate keys, and budgets against YAML bombs.
fn options() -> Options {
    let mut budget = Budget::default();
    budget.max_depth = MAX_DEPTH;
    budget.flow_nesting_limit = MAX_DEPTH;
    budget.max_nodes = MAX_NODES;
    budget.max_events = 4 * MAX_NODES;
    budget.max_aliases = MAX_ALIASES;
    budget.max_anchors = MAX_ALIASES;
    budget.max_documents = 1;
    budget.max_total_scalar_bytes = MAX_BYTES;
    budget.max_total_comment_bytes = MAX_BYTES;
    budget.max_reader_input_bytes = Some(MAX_BYTES);
    let mut alias_limits = AliasLimits::default();
    alias_limits.max_total_replayed_events = MAX_NODES;
    alias_limits.max_replay_stack_depth = 4;
    alias_limits.max_alias_expansions_per_anchor = MAX_ALIASES;
    serde_saphyr::options! {
        budget: Some(budget),
        alias_limits: alias_limits,
        duplicate_keys: DuplicateKeyPolicy::Error,
        strict_booleans: true,
        with_snippet: false,
        emit_comments: false,
    }
}

/// A YAML node with its place in the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the node holds.
    pub kind: Kind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The scalar exactly as written (without resolving numbers); empty for
    /// lists and mappings.
    pub raw: String,
}

/// The content of a [`Node`].
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// Nothing (`key:` with no value, `~`, `null`).
    Null,
    /// A string.
    Str(String),
    /// An integer.
    Int(i64),
    /// `true` or `false`.
    Bool(bool),
    /// A number with a fraction.
    Float,
    /// A list.
    Seq(Vec<Node>),
    /// A mapping, in written order.
    Map(Vec<(Node, Node)>),
}

impl Node {
    /// The scalar as text: a string's value, a number or boolean exactly as
    /// written (so a secret `0123` stays `0123`). `None` for nothing, lists
    /// and mappings.
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Str(s) => Some(s),
            Kind::Int(_) | Kind::Bool(_) | Kind::Float => Some(&self.raw),
            Kind::Null | Kind::Seq(_) | Kind::Map(_) => None,
        }
    }

    /// What kind of value this is, in plain words, for "expected X, found Y".
    pub fn describe(&self) -> &'static str {
        match self.kind {
            Kind::Null => "nothing",
            Kind::Str(_) => "text",
            Kind::Int(_) | Kind::Float => "a number",
            Kind::Bool(_) => "true or false",
            Kind::Seq(_) => "a list",
            Kind::Map(_) => "a mapping (key: value lines)",
        }
    }
}

/// The tree as serde sees it, before spans are turned into lines.
enum RawKind {
    Null,
    Str(String),
    Int(i64),
    Bool(bool),
    Float,
    Seq(Vec<Spanned<RawKind>>),
    Map(Vec<(Spanned<RawKind>, Spanned<RawKind>)>),
}

struct RawVisitor;

impl<'de> Visitor<'de> for RawVisitor {
    type Value = RawKind;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<RawKind, E> {
        Ok(RawKind::Null)
    }
    fn visit_none<E>(self) -> Result<RawKind, E> {
        Ok(RawKind::Null)
    }
    fn visit_bool<E>(self, v: bool) -> Result<RawKind, E> {
        Ok(RawKind::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<RawKind, E> {
        Ok(RawKind::Int(v))
    }
    fn visit_u64<E>(self, v: u64) -> Result<RawKind, E> {
        // Beyond i64 only as a (meaningless) count; keep the text via `raw`.
        Ok(i64::try_from(v).map_or(RawKind::Float, RawKind::Int))
    }
    fn visit_i128<E>(self, _: i128) -> Result<RawKind, E> {
        Ok(RawKind::Float)
    }
    fn visit_u128<E>(self, _: u128) -> Result<RawKind, E> {
        Ok(RawKind::Float)
    }
    fn visit_f64<E>(self, _: f64) -> Result<RawKind, E> {
        Ok(RawKind::Float)
    }
    fn visit_str<E>(self, v: &str) -> Result<RawKind, E> {
        Ok(RawKind::Str(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<RawKind, E> {
        Ok(RawKind::Str(v))
    }
    fn visit_bytes<E>(self, v: &[u8]) -> Result<RawKind, E> {
        Ok(RawKind::Str(String::from_utf8_lossy(v).into_owned()))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<RawKind, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(RawKind::Seq(items))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<RawKind, A::Error> {
        let mut entries = Vec::new();
        while let Some(key) = map.next_key()? {
            let value = map.next_value()?;
            entries.push((key, value));
        }
        Ok(RawKind::Map(entries))
    }
}

impl<'de> Deserialize<'de> for RawKind {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(RawVisitor)
    }
}

/// Characters that mail programs put in place of spaces and that YAML does
/// not treat as spaces: no-break space, narrow no-break space, figure space.
/// Each is one character, so columns stay where the player sees them.
const SPACE_LOOKALIKES: &[char] = &['\u{00A0}', '\u{202F}', '\u{2007}'];

/// Mail hygiene before YAML sees the text: space look-alikes become spaces,
/// and a byte-order mark or zero-width characters (invisible, but they break
/// names) are dropped.
pub fn normalise(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(c, '\u{FEFF}' | '\u{200B}' | '\u{200C}' | '\u{200D}'))
        .map(|c| {
            if SPACE_LOOKALIKES.contains(&c) {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// Reads normalised text into a tree, or explains in plain words why the
/// YAML cannot be read (with line and column).
pub fn read(text: &str) -> Result<Node, Vec<OrderError>> {
    if text.len() > MAX_BYTES {
        return Err(vec![whole(format!(
            "the message is {} bytes long; orders may be at most {MAX_BYTES} bytes",
            text.len()
        ))]);
    }
    match serde_saphyr::from_str_with_options::<Spanned<RawKind>>(text, options()) {
        Ok(root) => Ok(convert(root, text)),
        Err(err) => Err(explain(&err, text)),
    }
}

fn convert(spanned: Spanned<RawKind>, text: &str) -> Node {
    let loc = spanned.referenced;
    let span = loc.span();
    let raw = match (span.byte_offset(), span.byte_len()) {
        (Some(start), Some(len)) => usize::try_from(start)
            .ok()
            .zip(usize::try_from(start + len).ok())
            .and_then(|(a, b)| text.get(a..b))
            .unwrap_or("")
            .to_owned(),
        _ => String::new(),
    };
    let kind = match spanned.value {
        RawKind::Null => Kind::Null,
        RawKind::Str(s) => Kind::Str(s),
        RawKind::Int(i) => Kind::Int(i),
        RawKind::Bool(b) => Kind::Bool(b),
        RawKind::Float => Kind::Float,
        RawKind::Seq(items) => Kind::Seq(items.into_iter().map(|i| convert(i, text)).collect()),
        RawKind::Map(entries) => Kind::Map(
            entries
                .into_iter()
                .map(|(k, v)| (convert(k, text), convert(v, text)))
                .collect(),
        ),
    };
    let is_collection = matches!(kind, Kind::Seq(_) | Kind::Map(_));
    Node {
        kind,
        line: loc.line() as usize,
        column: loc.column() as usize,
        raw: if is_collection { String::new() } else { raw },
    }
}

/// An error about the message as a whole (no line).
fn whole(reason: String) -> OrderError {
    OrderError {
        origin: Origin::default(),
        field: None,
        reason,
    }
}

/// An error at a line of the message, outside any order.
fn at_line(line: usize, reason: String) -> OrderError {
    OrderError {
        origin: Origin {
            line: Some(line),
            ..Origin::default()
        },
        field: None,
        reason,
    }
}

/// Every line whose indentation contains a tab: (line, column of the tab).
fn tab_indents(text: &str) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let indent: String = line
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        if indent.len() == line.len() {
            continue; // blank line: tabs there do no harm
        }
        if let Some(col) = indent.chars().position(|c| c == '\t') {
            found.push((i + 1, col + 1));
        }
    }
    found
}

/// Turns a YAML error into plain words. The parser's own wording is kept
/// only as a hint after ours, without its trailing "at line N, column M",
/// which we give in our own format.
fn explain(err: &YamlError, text: &str) -> Vec<OrderError> {
    let err = err.without_snippet();
    let location = err.location().filter(|l| l.line() > 0);
    let line = location.map(|l| l.line() as usize);
    let column = location.map_or(0, |l| l.column() as usize);
    let rendered = err.to_string();
    let detail = rendered
        .rfind(" at line ")
        .map_or(rendered.as_str(), |i| &rendered[..i]);
    let reason = match err {
        YamlError::Budget { breach, .. } => budget_reason(breach),
        YamlError::AliasReplayLimitExceeded { .. }
        | YamlError::AliasExpansionLimitExceeded { .. }
        | YamlError::AliasReplayStackDepthExceeded { .. }
        | YamlError::AliasReplayCounterOverflow { .. } => alias_reason(),
        // Alias limits hit during replay arrive wrapped in other variants.
        _ if detail.contains("alias replay") || detail.contains("alias expansion") => {
            alias_reason()
        }
        YamlError::DuplicateMappingKey { key, .. } => match key {
            Some(k) => format!(
                "\"{k}\" is written twice in the same mapping; write it once (a second \
                 order for the same place or section goes in the first one)"
            ),
            None => "a key is written twice in the same mapping; write it once".to_owned(),
        },
        YamlError::MultipleDocuments { .. } => "the message holds more than one YAML document \
             (a line \"---\" starts a new one); send one set of orders per message"
            .to_owned(),
        // The parser's own guard against deep nesting, before our budget.
        _ if detail.contains("recursion limit") => budget_reason(&BudgetBreach::Depth {
            depth: MAX_DEPTH + 1,
        }),
        _ if detail.contains("tab") => {
            let tabs = tab_indents(text);
            if !tabs.is_empty() {
                return tabs
                    .into_iter()
                    .map(|(line, col)| at_line(line, tab_reason(col)))
                    .collect();
            }
            tab_reason(column)
        }
        _ => format!(
            "this is not valid YAML at column {column} ({detail}); check the indentation, \
             the colon after each key and the \"- \" before each order"
        ),
    };
    vec![match line {
        Some(line) => at_line(line, reason),
        None => whole(reason),
    }]
}

fn alias_reason() -> String {
    "the message repeats YAML anchors (&name) through aliases (*name) too often; write the \
     orders out in full"
        .to_owned()
}

fn tab_reason(column: usize) -> String {
    format!(
        "a tab at column {column} indents this line, but YAML allows only spaces for \
         indentation; replace the tab with spaces"
    )
}

fn budget_reason(breach: &BudgetBreach) -> String {
    match breach {
        BudgetBreach::Depth { .. } => format!(
            "lists and mappings are nested more than {MAX_DEPTH} levels deep; orders never \
             need that many"
        ),
        BudgetBreach::Aliases { .. }
        | BudgetBreach::Anchors { .. }
        | BudgetBreach::AliasAnchorRatio { .. } => format!(
            "the message uses more than {MAX_ALIASES} YAML anchors (&name) or aliases \
             (*name); write the orders out in full"
        ),
        BudgetBreach::Documents { .. } => "the message holds more than one YAML document (a \
             line \"---\" starts a new one); send one set of orders per message"
            .to_owned(),
        _ => format!("the message is too long for one set of orders (limit: {MAX_BYTES} bytes)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_ok(text: &str) -> Node {
        read(&normalise(text)).expect("valid YAML")
    }

    #[test]
    fn numbers_keep_their_spelling() {
        let root = read_ok("secret: 0123\nround: 2\nflag: no\n");
        let Kind::Map(entries) = root.kind else {
            panic!("a mapping")
        };
        assert_eq!(entries[0].1.text(), Some("0123"));
        assert_eq!(entries[1].1.kind, Kind::Int(2));
        // strict booleans: `no` is a word, not false
        assert_eq!(entries[2].1.kind, Kind::Str("no".into()));
        assert_eq!((entries[2].0.line, entries[2].0.column), (3, 1));
    }

    #[test]
    fn no_break_spaces_become_spaces() {
        let root = read_ok("combat:\n\u{a0} - 1 armor: Poland\u{a0}-> Germany\n");
        let Kind::Map(entries) = root.kind else {
            panic!("a mapping")
        };
        let Kind::Seq(items) = &entries[0].1.kind else {
            panic!("a list")
        };
        assert_eq!(items[0].line, 2);
    }

    #[test]
    fn tabs_are_reported_per_line() {
        let errors = read("combat:\n\t- 1 armor: Poland -> Germany\n").unwrap_err();
        assert_eq!(errors.len(), 1);
        assert_eq!(errors[0].origin.line, Some(2));
        assert!(
            errors[0].reason.contains("tab at column 1"),
            "{}",
            errors[0]
        );
    }

    fn read_err(text: &str) -> Vec<OrderError> {
        match read(text) {
            Ok(_) => panic!("accepted: {text:.60}"),
            Err(errors) => errors,
        }
    }

    #[test]
    fn limits_are_reported() {
        let deep = format!("a: {}1{}\n", "[".repeat(30), "]".repeat(30));
        let errors = read_err(&deep);
        assert!(errors[0].reason.contains("nested"), "{}", errors[0]);
        let big = format!("entropy: \"{}\"\n", "x".repeat(MAX_BYTES));
        let errors = read_err(&big);
        assert!(errors[0].reason.contains("bytes"), "{}", errors[0]);
        // A "billion laughs": each line repeats the previous anchor nine times.
        let mut bomb = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
        for level in 1..6 {
            let refs = vec![format!("*a{}", level - 1); 9].join(", ");
            bomb.push_str(&format!("a{level}: &a{level} [{refs}]\n"));
        }
        let errors = read_err(&bomb);
        assert!(errors[0].reason.contains("anchors"), "{}", errors[0]);
    }
}
