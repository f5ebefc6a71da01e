//! YAML orders into typed [`Orders`](super::Orders) (`docs/orders.md`).
//!
//! The YAML is read into a tree of nodes with lines ([`super::yaml`]), then
//! walked by hand: every section, order and field is checked, every problem
//! is collected, and names are resolved against the game with a "did you
//! mean". Only a message without a single problem yields [`Message`].
//!
//! The parser checks the *form* of the orders (known keys, known names,
//! counts, the shape of paths); whether a move is legal on the board is the
//! movement module's business.

mod battles;
mod moves;
mod payments;
mod purchase;
mod repair_and_rockets;
mod research;
mod special_force_teams;
mod standing;
mod take_over;

use super::grammar::Names;
use super::yaml::{self, Kind, Node};
use super::{
    AversionOrder, Averted, BattlePlan, BystanderLosses, DropOff, LandingAllotment, Load, Located,
    MiddleEastPayment, MoveOrder, NeutralDefenders, OrderError, Orders, Origin, PowerId,
    ResearchOrder, Retreat, StandingOrders, SubmarinePolicy, TakeOverOrder, UnitList, UnitTypeId,
    canonical, keys,
};
use crate::rules::names::{NameKey, did_you_mean};
use crate::rules::{GameDef, SpaceId};

/// The fields of a message that are not orders: who sends it, for which
/// match and round, with what secret and entropy. Checking them is the mail
/// and match layers' job; the parser only reads them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Header {
    /// `match:`.
    pub match_id: Option<String>,
    /// `power:` as written (resolved by the caller).
    pub power: Option<String>,
    /// `round:`.
    pub round: Option<u32>,
    /// `secret:`; never echoed back, never in the canonical form.
    pub secret: Option<String>,
    /// `entropy:`: free text mixed into this turn's dice.
    pub entropy: Option<String>,
    /// `command:` (help, status, resend, standing, odds, ...).
    pub command: Option<String>,
    /// `stage:` (1 or 2): with `command: history`, the stage asked for.
    pub stage: Option<u8>,
    /// `entry:`: with `command: history`, the log entry asked for.
    pub entry: Option<u64>,
}

/// A parsed message.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// The header fields.
    pub header: Header,
    /// The orders, names resolved.
    pub orders: Orders,
    /// The canonical form of the orders and entropy (no secret): what the
    /// receipt echoes, what the log records and what the dice digest covers.
    /// Parsing it again gives the same orders.
    pub canonical: String,
}

/// Parses one message's YAML against a game. Every problem is reported at
/// once, each with its line, order and field, and a "did you mean" for a
/// misspelt name.
pub fn parse_message(game: &GameDef, yaml: &str) -> Result<Message, Vec<OrderError>> {
    let (header, orders) = parse_header_and_orders(game, yaml)?;
    let canonical = canonical::render(game, &orders, header.entropy.as_deref());
    Ok(Message {
        header,
        orders,
        canonical,
    })
}

/// [`parse_message`] without the canonical form: the orders of a logged
/// message, which a replay reads from the canonical form the log holds.
pub fn parse_orders(game: &GameDef, yaml: &str) -> Result<Orders, Vec<OrderError>> {
    parse_header_and_orders(game, yaml).map(|(_, orders)| orders)
}

fn parse_header_and_orders(
    game: &GameDef,
    yaml: &str,
) -> Result<(Header, Orders), Vec<OrderError>> {
    let text = yaml::normalise(yaml);
    let root = yaml::read(&text)?;
    let mut parser = Parser {
        names: Names::new(game),
        lines: text.lines().collect(),
        errors: Vec::new(),
        header: Header::default(),
        orders: Orders::default(),
    };
    parser.message(&root);
    let h = &parser.header;
    if (h.stage.is_some() || h.entry.is_some()) && h.command.as_deref() != Some("history") {
        parser.errors.push(OrderError {
            origin: Origin::default(),
            field: None,
            reason: "stage: and entry: go only with command: history (which earlier report to send); orders need neither".into(),
        });
    }
    if !parser.errors.is_empty() {
        return Err(parser.errors);
    }
    Ok((parser.header, parser.orders))
}

/// Compares a written key with a format word: case and spacing do not
/// matter, and a space or dash may stand for an underscore
/// (`Keep one land unit`), since phones capitalise and players forget.
fn key_matches(written: &str, word: &str) -> bool {
    // The characters of `NameKey::new(written)` (its words lowercased, one
    // space between), compared as they come: every key of every logged
    // message is tried against a list of words, so nothing is allocated.
    let folded = written
        .split_whitespace()
        .enumerate()
        .flat_map(|(i, w)| {
            (i > 0)
                .then_some(' ')
                .into_iter()
                .chain(w.chars().flat_map(char::to_lowercase))
        })
        .map(|c| if c == ' ' || c == '-' { '_' } else { c });
    folded.eq(word.chars())
}

/// The format word among `words` that `written` stands for.
fn find_key(written: &str, words: &[&'static str]) -> Option<&'static str> {
    words.iter().copied().find(|w| key_matches(written, w))
}

/// The top-level key (header field, section or reserved key) that `written`
/// stands for: the one reading of a message's keys, shared by the parser
/// and the line-by-line header ([`super::header::scan_header`]).
pub(super) fn top_level_key(written: &str) -> Option<&'static str> {
    find_key(written, keys::HEADER)
        .or_else(|| find_key(written, keys::SECTIONS))
        .or_else(|| find_key(written, keys::RESERVED))
}

/// The format word a mistyped key was probably meant to be: the names
/// module's suggestion, or else a word that differs by two swapped
/// neighbouring letters (`laod`), which short words need since an edit
/// distance of two is too far for them.
fn suggest(written: &str, words: &[&str]) -> Option<String> {
    if let Some(s) = did_you_mean(written, words.iter().copied()) {
        return Some(s.to_owned());
    }
    let written: Vec<char> = NameKey::new(written).as_str().chars().collect();
    words
        .iter()
        .find(|w| {
            let w: Vec<char> = w.chars().collect();
            w.len() == written.len()
                && (0..w.len().saturating_sub(1)).any(|i| {
                    let mut swapped = written.clone();
                    swapped.swap(i, i + 1);
                    swapped == w
                })
        })
        .map(|w| (*w).to_owned())
}

/// How a take-over is written, for error messages.
const TAKE_OVER_FORM: &str = "a take-over is written UNITS of POWER in TERRITORY, for example \
                              2 infantry, 1 fighter of United Kingdom in Moscow";

/// Most ways of splitting one take-over into UNITS of POWER in TERRITORY
/// that are tried (each "of" with each "in" after it).
const MAX_TAKE_OVER_SPLITS: usize = 16;

/// Byte positions of every occurrence of the ASCII word ` word ` in `text`,
/// ignoring case, in order.
fn find_words(text: &str, word: &str) -> Vec<usize> {
    let pattern = format!(" {word} ");
    text.as_bytes()
        .windows(pattern.len())
        .enumerate()
        .filter(|(_, w)| w.eq_ignore_ascii_case(pattern.as_bytes()))
        .map(|(i, _)| i)
        .collect()
}

/// Byte position of the last occurrence of the ASCII word ` word ` in
/// `text`, ignoring case.
fn rfind_word(text: &str, word: &str) -> Option<usize> {
    let pattern = format!(" {word} ");
    text.as_bytes()
        .windows(pattern.len())
        .rposition(|w| w.eq_ignore_ascii_case(pattern.as_bytes()))
}

/// A take-over's parts under one way of splitting its text.
struct TakeOverParts {
    units: Result<UnitList, Vec<String>>,
    power: Result<PowerId, String>,
    space: Result<SpaceId, String>,
}

struct Parser<'g, 't> {
    names: Names<'g>,
    lines: Vec<&'t str>,
    errors: Vec<OrderError>,
    header: Header,
    orders: Orders,
}

impl Parser<'_, '_> {
    // ----- helpers ---------------------------------------------------------

    /// The source from `node` to the end of its line, without a trailing
    /// comment: the order as the player wrote it, for quoting back.
    fn written(&self, node: &Node) -> String {
        let Some(line) = node.line.checked_sub(1).and_then(|l| self.lines.get(l)) else {
            return String::new();
        };
        let from: String = line.chars().skip(node.column.saturating_sub(1)).collect();
        let without_comment = match from.find(" #") {
            Some(i) => &from[..i],
            None => &from,
        };
        without_comment.trim().to_owned()
    }

    /// The `key: value` lines of a section: `None` when it is empty, or
    /// when it is not such lines (an error saying `expected`, then what it
    /// is, recorded on the section's line).
    fn section_map<'n>(
        &mut self,
        section: &'static str,
        value: &'n Node,
        expected: &str,
    ) -> Option<&'n [(Node, Node)]> {
        match &value.kind {
            Kind::Null => None,
            Kind::Map(entries) => Some(entries),
            _ => {
                self.section_shape(section, value, expected);
                None
            }
        }
    }

    /// The items of a section written as a list, as [`Self::section_map`].
    fn section_list<'n>(
        &mut self,
        section: &'static str,
        value: &'n Node,
        expected: &str,
    ) -> Option<&'n [Node]> {
        match &value.kind {
            Kind::Null => None,
            Kind::Seq(items) => Some(items),
            _ => {
                self.section_shape(section, value, expected);
                None
            }
        }
    }

    /// The error for a section of the wrong shape.
    fn section_shape(&mut self, section: &'static str, value: &Node, expected: &str) {
        let origin = self.origin(section, 0, value);
        let reason = format!("{expected}, but here it is {}", value.describe());
        self.error(&origin, value, None, reason);
    }

    fn origin(&self, section: &'static str, index: usize, node: &Node) -> Origin {
        Origin {
            section,
            index,
            line: Some(node.line),
            text: self.written(node),
        }
    }

    /// Records an error about `origin`'s order, at the line of `at`.
    fn error(&mut self, origin: &Origin, at: &Node, field: Option<&str>, reason: String) {
        let mut origin = origin.clone();
        if at.line > 0 {
            origin.line = Some(at.line);
        }
        self.errors.push(OrderError {
            origin,
            field: field.map(str::to_owned),
            reason,
        });
    }

    fn errors_at(&mut self, origin: &Origin, at: &Node, field: &str, reasons: Vec<String>) {
        for reason in reasons {
            self.error(origin, at, Some(field), reason);
        }
    }

    /// Reports an unknown key with the valid ones and a suggestion.
    fn unknown_key(&mut self, origin: &Origin, key: &Node, place: &str, valid: &[&str]) {
        let written = key.text().unwrap_or(&key.raw).to_owned();
        let mut reason = format!("\"{written}\" is not a key {place}.");
        if let Some(s) = suggest(&written, valid) {
            reason.push_str(&format!(" Did you mean {s}?"));
        }
        reason.push_str(&format!(" The keys here are: {}.", valid.join(", ")));
        self.error(origin, key, None, reason);
    }

    /// A scalar's text, or an error naming what was expected.
    fn text<'n>(
        &mut self,
        origin: &Origin,
        node: &'n Node,
        field: &str,
        expected: &str,
    ) -> Option<&'n str> {
        match node.text() {
            Some(t) if !t.trim().is_empty() => Some(t),
            _ => {
                let found = if node.text().is_some() {
                    "nothing"
                } else {
                    node.describe()
                };
                self.error(
                    origin,
                    node,
                    Some(field),
                    format!("expected {expected}, found {found}"),
                );
                None
            }
        }
    }

    fn space(&mut self, origin: &Origin, node: &Node, field: &str) -> Option<SpaceId> {
        let text = self.text(origin, node, field, "a territory or sea zone")?;
        match self.names.space(text) {
            Ok(id) => Some(id),
            Err(reason) => {
                self.error(origin, node, Some(field), reason);
                None
            }
        }
    }

    /// The texts of a value that may be written as one string or as a list
    /// of strings (`6 infantry, 2 armor` or `[6 infantry, 2 armor]`).
    fn list_texts<'n>(
        &mut self,
        origin: &Origin,
        node: &'n Node,
        field: &str,
        expected: &str,
    ) -> Vec<&'n str> {
        match &node.kind {
            Kind::Seq(items) => items
                .iter()
                .filter_map(|i| self.text(origin, i, field, expected))
                .collect(),
            _ => self
                .text(origin, node, field, expected)
                .into_iter()
                .collect(),
        }
    }

    fn unit_list(&mut self, origin: &Origin, node: &Node, field: &str) -> Option<UnitList> {
        let texts = self.list_texts(
            origin,
            node,
            field,
            "a unit list such as 3 infantry, 1 armor",
        );
        if texts.is_empty() {
            return None;
        }
        match self.names.unit_list(&texts.join(", ")) {
            Ok(list) => Some(list),
            Err(reasons) => {
                self.errors_at(origin, node, field, reasons);
                None
            }
        }
    }

    /// An order of loss: unit types, from one string, a list, or pieces that
    /// YAML split off at commas inside `{...}` (see [`Self::rejoined`]).
    fn loss_order(&mut self, origin: &Origin, pieces: &[&Node]) -> Vec<UnitTypeId> {
        self.type_order(origin, pieces, "losses")
    }

    /// Unit types, first first, written as an order of loss is; `field`
    /// names them in errors.
    fn type_order(&mut self, origin: &Origin, pieces: &[&Node], field: &str) -> Vec<UnitTypeId> {
        let Some(first) = pieces.first() else {
            return Vec::new();
        };
        let mut texts = Vec::new();
        for node in pieces {
            texts.extend(self.list_texts(
                origin,
                node,
                field,
                "unit types such as infantry, armor",
            ));
        }
        match self.names.type_list(&texts.join(", ")) {
            Ok(list) => list,
            Err(reasons) => {
                self.errors_at(origin, first, field, reasons);
                Vec::new()
            }
        }
    }

    /// Inside `{...}`, YAML splits `losses: infantry, artillery, armor` at
    /// the commas into `losses: infantry`, `artillery:` and `armor:` (keys
    /// without values). This returns the keys without values that follow
    /// entry `i`, read as unit names, so the list the player meant is put back
    /// together; every other entry is left for the caller.
    fn rejoined(entries: &[(Node, Node)], i: usize, is_unit: impl Fn(&str) -> bool) -> usize {
        entries[i + 1..]
            .iter()
            .take_while(|(k, v)| {
                v.kind == Kind::Null
                    && k.line == entries[i].0.line
                    && k.text().is_some_and(&is_unit)
            })
            .count()
    }

    fn is_units(&self, text: &str) -> bool {
        self.names.unit_list(text).is_ok()
    }

    /// `true`/`false` (also yes/no, on/off), or an error on `field`.
    fn flag(&mut self, origin: &Origin, value: &Node, field: &'static str) -> Option<bool> {
        let flag = match (&value.kind, value.text()) {
            (Kind::Bool(b), _) => Some(*b),
            (_, Some(t)) if ["yes", "on"].iter().any(|w| key_matches(t, w)) => Some(true),
            (_, Some(t)) if ["no", "off"].iter().any(|w| key_matches(t, w)) => Some(false),
            _ => None,
        };
        if flag.is_none() {
            self.error(
                origin,
                value,
                Some(field),
                format!(
                    "{field} is true or false, not \"{}\"",
                    value.text().unwrap_or(value.describe())
                ),
            );
        }
        flag
    }

    // ----- the message -----------------------------------------------------

    fn message(&mut self, root: &Node) {
        let whole = Origin::default();
        let entries = match &root.kind {
            Kind::Map(entries) => entries,
            Kind::Null => {
                self.errors.push(OrderError::new(
                    &whole,
                    "the message is empty; orders start with match:, power: and secret:, \
                     then the sections (docs/orders.md)",
                ));
                return;
            }
            _ => {
                self.error(
                    &whole,
                    root,
                    None,
                    format!(
                        "the message must be YAML key: value lines (match:, power:, secret:, \
                         then sections such as combat:), but it is {}",
                        root.describe()
                    ),
                );
                return;
            }
        };
        let valid = keys::top_level();
        let mut seen: Vec<(&'static str, usize)> = Vec::new();
        for (key, value) in entries {
            let Some(word) = key.text().and_then(top_level_key) else {
                self.unknown_key(&whole, key, "of an orders message", &valid);
                continue;
            };
            if let Some((_, line)) = seen.iter().find(|(w, _)| *w == word) {
                let reason =
                    format!("{word} is written twice (first at line {line}); write it once");
                self.error(&whole, key, None, reason);
                continue;
            }
            seen.push((word, key.line));
            match word {
                "bid" => self.bid(value),
                "research" => self.research(value),
                "purchase" => self.purchase(value),
                "repair" => self.repair(value),
                "lend_lease" => self.payment("lend_lease", value),
                "oil_convoy" => self.payment("oil_convoy", value),
                "rockets" => self.rockets(value),
                "industrial_strike" => self.industrial_strike(value),
                "averted" => {
                    let origin = self.origin("averted", 0, value);
                    self.orders.averted = self
                        .averted(&origin, value)
                        .map(|item| Located { item, origin });
                }
                "combat" => self.orders.combat = self.moves("combat", value),
                "noncombat" => self.orders.noncombat = self.moves("noncombat", value),
                "take_over" => self.take_over(value),
                "battles" => self.battles(value),
                "place" => self.place(value),
                "standing" => self.standing(value),
                "odds" => self.error(
                    &whole,
                    key,
                    None,
                    "odds questions are answered in a message of their own, without orders \
                     (docs/odds.md); send them separately"
                        .to_owned(),
                ),
                header => self.header_field(header, key, value),
            }
        }
    }

    fn header_field(&mut self, word: &'static str, key: &Node, value: &Node) {
        let origin = Origin::default();
        if value.kind == Kind::Null {
            if word != "entropy" {
                self.error(&origin, key, Some(word), format!("{word} has no value"));
            }
            return;
        }
        match word {
            "round" => match value.kind {
                Kind::Int(n) if n >= 1 && u32::try_from(n).is_ok() => {
                    self.header.round = u32::try_from(n).ok();
                }
                _ => self.error(
                    &origin,
                    value,
                    Some(word),
                    format!(
                        "the round is a whole number from 1, not \"{}\"",
                        value.text().unwrap_or(value.describe())
                    ),
                ),
            },
            "stage" => match value.kind {
                Kind::Int(n @ 1..=2) => self.header.stage = u8::try_from(n).ok(),
                _ => self.error(
                    &origin,
                    value,
                    Some(word),
                    format!(
                        "the stage is 1 or 2, not \"{}\"",
                        value.text().unwrap_or(value.describe())
                    ),
                ),
            },
            "entry" => match value.kind {
                Kind::Int(n) if n >= 1 => self.header.entry = u64::try_from(n).ok(),
                _ => self.error(
                    &origin,
                    value,
                    Some(word),
                    format!(
                        "entry is the number of a log entry (1 or more), not \"{}\"",
                        value.text().unwrap_or(value.describe())
                    ),
                ),
            },
            // Entropy is free text: even an empty string is what was written.
            "entropy" if matches!(value.kind, Kind::Str(_)) => {
                self.header.entropy = value.text().map(str::to_owned);
            }
            _ => {
                let Some(text) = self.text(&origin, value, word, "text") else {
                    return;
                };
                let text = text.trim().to_owned();
                match word {
                    "match" => self.header.match_id = Some(text),
                    "secret" => self.header.secret = Some(text),
                    "entropy" => self.header.entropy = Some(text),
                    "power" => {
                        if let Err(reason) = self.names.power(&text) {
                            self.error(&origin, value, Some(word), reason);
                        }
                        self.header.power = Some(text);
                    }
                    _ => match find_key(&text, keys::COMMANDS) {
                        Some(c) => self.header.command = Some(c.to_owned()),
                        None => {
                            let mut reason = format!("\"{text}\" is not a command.");
                            if let Some(s) = did_you_mean(&text, keys::COMMANDS.iter().copied()) {
                                reason.push_str(&format!(" Did you mean {s}?"));
                            }
                            reason.push_str(&format!(
                                " The commands are: {}.",
                                keys::COMMANDS.join(", ")
                            ));
                            self.error(&origin, value, Some(word), reason);
                        }
                    },
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What `key_matches` computes without allocating: the written key's
    /// `NameKey`, with spaces and dashes as underscores.
    fn folded(written: &str) -> String {
        NameKey::new(written)
            .as_str()
            .chars()
            .map(|c| if c == ' ' || c == '-' { '_' } else { c })
            .collect()
    }

    #[test]
    fn a_key_matches_exactly_the_words_its_folded_name_key_spells() {
        let written = [
            "Keep one land unit",
            "  keep\tONE-land   unit ",
            "keep_one_land_unit",
            "keep one land unit x",
            "transport",
            "Transport ",
            "trans port",
            "İs",
            "ǅ-x",
            "",
            "   ",
            "-",
        ];
        let words = [
            "keep_one_land_unit",
            "transport",
            "trans_port",
            "i\u{307}s",
            "ǆ_x",
            "",
            "_",
        ];
        for w in written {
            for word in words {
                assert_eq!(key_matches(w, word), folded(w) == word, "{w:?} v {word:?}");
            }
        }
    }
}
