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

use super::grammar::Names;
use super::yaml::{self, Kind, Node};
use super::{
    BattlePlan, BystanderLosses, Load, Located, MiddleEastPayment, MoveOrder, OrderError, Orders,
    Origin, PowerId, ResearchOrder, Retreat, StandingOrders, SubmarinePolicy, TakeOverOrder,
    UnitList, UnitTypeId, canonical, keys,
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
    /// `command:` (help, status, resend, standing, odds).
    pub command: Option<String>,
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
    if !parser.errors.is_empty() {
        return Err(parser.errors);
    }
    let canonical = canonical::render(game, &parser.orders, parser.header.entropy.as_deref());
    Ok(Message {
        header: parser.header,
        orders: parser.orders,
        canonical,
    })
}

/// Compares a written key with a format word: case and spacing do not
/// matter, and a space or dash may stand for an underscore
/// (`Keep one land unit`), since phones capitalise and players forget.
fn key_matches(written: &str, word: &str) -> bool {
    let folded: String = NameKey::new(written)
        .as_str()
        .chars()
        .map(|c| if c == ' ' || c == '-' { '_' } else { c })
        .collect();
    folded == word
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
        let Some(first) = pieces.first() else {
            return Vec::new();
        };
        let mut texts = Vec::new();
        for node in pieces {
            texts.extend(self.list_texts(
                origin,
                node,
                "losses",
                "unit types such as infantry, armor",
            ));
        }
        match self.names.type_list(&texts.join(", ")) {
            Ok(list) => list,
            Err(reasons) => {
                self.errors_at(origin, first, "losses", reasons);
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
                "research" => self.research(value),
                "purchase" => self.purchase(value),
                "repair" => self.repair(value),
                "rockets" => self.rockets(value),
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

    // ----- research --------------------------------------------------------

    /// `research: {buy: 2, chart: air and naval}`; `buy` defaults to 0 (roll
    /// the tokens held), the chart by name or number.
    fn research(&mut self, value: &Node) {
        let origin = self.origin("research", 0, value);
        let entries = match &value.kind {
            Kind::Null => return,
            Kind::Map(entries) => entries,
            _ => {
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "research is key: value lines (buy: researcher tokens to buy, chart: \
                         the breakthrough chart), but here it is {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        let errors_before = self.errors.len();
        let mut order = ResearchOrder::default();
        for (key, value) in entries {
            match key.text().and_then(|k| find_key(k, keys::RESEARCH)) {
                Some("buy") => match value.kind {
                    Kind::Int(n) if n >= 0 && u32::try_from(n).is_ok() => {
                        order.buy = u32::try_from(n).unwrap_or(0);
                    }
                    _ => self.error(
                        &origin,
                        value,
                        Some("buy"),
                        format!(
                            "buy is how many researcher tokens to buy, a whole number, not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    ),
                },
                Some(_) => {
                    let text = match value.kind {
                        Kind::Int(n) => Some(n.to_string()),
                        _ => self
                            .text(&origin, value, "chart", "a research chart")
                            .map(str::to_owned),
                    };
                    if let Some(text) = text {
                        match crate::rules::research::chart_named(self.names.game(), &text) {
                            Ok(c) => order.chart = Some(c),
                            Err(reason) => self.error(&origin, value, Some("chart"), reason),
                        }
                    }
                }
                None => self.unknown_key(&origin, key, "of research", keys::RESEARCH),
            }
        }
        if self.errors.len() == errors_before {
            self.orders.research = Some(Located {
                item: order,
                origin,
            });
        }
    }

    // ----- purchase --------------------------------------------------------

    fn purchase(&mut self, value: &Node) {
        if value.kind == Kind::Null {
            return;
        }
        let origin = self.origin("purchase", 0, value);
        if let Some(list) = self.unit_list(&origin, value, "units") {
            self.orders.purchase = Some(Located { item: list, origin });
        }
    }

    // ----- moves -----------------------------------------------------------

    fn moves(&mut self, section: &'static str, value: &Node) -> Vec<Located<MoveOrder>> {
        let items = match &value.kind {
            Kind::Null => return Vec::new(),
            Kind::Seq(items) => items,
            _ => {
                let origin = self.origin(section, 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "{section} is a list of orders, each on its own line starting with \"- \" \
                         (- 3 infantry: Poland -> Belorussia), but here it is {}",
                        value.describe()
                    ),
                );
                return Vec::new();
            }
        };
        let mut orders = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let origin = self.origin(section, i + 1, item);
            let order = match &item.kind {
                Kind::Map(entries)
                    if entries
                        .iter()
                        .any(|(k, _)| k.text().is_some_and(|t| key_matches(t, "transport"))) =>
                {
                    self.transport(&origin, entries)
                }
                Kind::Map(entries) => self.move_entries(&origin, entries),
                Kind::Str(s) if s.contains(':') => {
                    // `3 infantry:Poland -> X` (no space after the colon) is
                    // one string to YAML; the player meant a move.
                    let (units, path) = s.split_once(':').expect("contains a colon");
                    self.plain_move(&origin, item, units, item, Some(path), None)
                }
                _ => {
                    let found = match item.text() {
                        Some(t) => format!("\"{t}\" has no colon after the units"),
                        None => format!("this is {}", item.describe()),
                    };
                    self.error(
                        &origin,
                        item,
                        None,
                        format!(
                            "a move is written UNITS: FROM -> TO (for example 3 infantry: Poland \
                             -> Belorussia), or as a transport with transport:, load: and \
                             unload:; {found}"
                        ),
                    );
                    None
                }
            };
            if let Some(order) = order {
                orders.push(Located {
                    item: order,
                    origin,
                });
            }
        }
        orders
    }

    /// `3 infantry, 1 artillery: Poland -> Belorussia` (a mapping of one
    /// entry), optionally with a `land: SPACE` entry.
    fn move_entries(&mut self, origin: &Origin, entries: &[(Node, Node)]) -> Option<MoveOrder> {
        let mut units: Option<(&Node, &Node)> = None;
        let mut land: Option<&Node> = None;
        let mut ok = true;
        for (key, value) in entries {
            let written = key.text().unwrap_or("");
            if find_key(written, keys::MOVE_EXTRA).is_some() {
                land = Some(value);
            } else if find_key(written, keys::TRANSPORT).is_some() {
                self.error(
                    origin,
                    key,
                    None,
                    format!(
                        "{written} belongs to a transport's move, which starts with \
                         transport: SEA ZONE"
                    ),
                );
                ok = false;
            } else if units.is_none() {
                units = Some((key, value));
            } else {
                // Only the plain move's own keys are suggested: transport
                // keys are answered above, and `load` is one letter from `lnad`.
                let mut reason = format!("\"{written}\" cannot follow the move's units here.");
                if let Some(s) = suggest(written, keys::MOVE_EXTRA) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                reason.push_str(
                    " Write one move per order (UNITS: PATH), optionally with land: SPACE \
                     for aircraft.",
                );
                self.error(origin, key, None, reason);
                ok = false;
            }
        }
        let Some((key, value)) = units else {
            let at = entries.first().map(|(k, _)| k);
            if let Some(at) = at {
                self.error(
                    origin,
                    at,
                    None,
                    "the move has no units; write UNITS: FROM -> TO".to_owned(),
                );
            }
            return None;
        };
        let units_text = key.text().unwrap_or("");
        let order = self.plain_move(origin, key, units_text, value, value.text(), land);
        if ok { order } else { None }
    }

    /// A move from its parts: the units, the path text (with an optional
    /// `, land SPACE`), and an optional `land:` entry.
    fn plain_move(
        &mut self,
        origin: &Origin,
        units_at: &Node,
        units_text: &str,
        path_at: &Node,
        path_text: Option<&str>,
        land_node: Option<&Node>,
    ) -> Option<MoveOrder> {
        let units = match self.names.unit_list(units_text) {
            Ok(list) if list.is_empty() => {
                let reason = "the move has no units; write UNITS: FROM -> TO".to_owned();
                self.error(origin, units_at, Some("units"), reason);
                None
            }
            Ok(list) => Some(list),
            Err(reasons) => {
                self.errors_at(origin, units_at, "units", reasons);
                None
            }
        };
        let Some(path_text) = path_text.filter(|p| !p.trim().is_empty()) else {
            self.error(
                origin,
                path_at,
                Some("path"),
                "the path is missing; write UNITS: FROM -> TO".to_owned(),
            );
            return None;
        };
        let mut parts = path_text.split(',');
        let path_part = parts.next().unwrap_or("");
        let mut land = None;
        let mut land_count = 0;
        for extra in parts {
            let extra = extra.trim();
            let word_end = extra.find(char::is_whitespace).unwrap_or(extra.len());
            if key_matches(&extra[..word_end], "land") {
                land_count += 1;
                match self.names.space(extra[word_end..].trim()) {
                    Ok(id) => land = Some(id),
                    Err(reason) => self.error(origin, path_at, Some("land"), reason),
                }
            } else {
                let hint = if suggest(&extra[..word_end], &["land"]).is_some() {
                    " Did you mean land?"
                } else {
                    ""
                };
                self.error(
                    origin,
                    path_at,
                    Some("path"),
                    format!(
                        "after the path only \", land SPACE\" may follow (where aircraft will \
                         land), not \"{extra}\".{hint}"
                    ),
                );
            }
        }
        if let Some(node) = land_node {
            land_count += 1;
            land = self.space(origin, node, "land");
        }
        if land_count > 1 {
            self.error(
                origin,
                path_at,
                Some("land"),
                "the landing space is given more than once".to_owned(),
            );
        }
        let path = match self.names.path(path_part) {
            Ok(path) if path.len() < 2 => {
                self.error(
                    origin,
                    path_at,
                    Some("path"),
                    format!(
                        "a move needs where the units are and where they go: FROM -> TO (only \
                         \"{}\" is given)",
                        path_part.trim()
                    ),
                );
                None
            }
            Ok(path) => Some(path),
            Err(reasons) => {
                self.errors_at(origin, path_at, "path", reasons);
                None
            }
        };
        Some(MoveOrder::Move {
            units: units?,
            path: path?,
            land,
        })
    }

    /// `{transport: SEA [-> SEA...], load: UNITS from LAND [at SEA], unload: LAND}`.
    fn transport(&mut self, origin: &Origin, entries: &[(Node, Node)]) -> Option<MoveOrder> {
        let mut path = None;
        let mut load = Vec::new();
        let mut unload = None;
        let mut unload_units = None;
        let mut ok = true;
        for (key, value) in entries {
            let Some(word) = key.text().and_then(|k| find_key(k, keys::TRANSPORT)) else {
                self.unknown_key(origin, key, "of a transport's move", keys::TRANSPORT);
                ok = false;
                continue;
            };
            match word {
                "transport" => {
                    let Some(text) =
                        self.text(origin, value, "transport", "the transport's sea zone")
                    else {
                        ok = false;
                        continue;
                    };
                    match self.names.path(text) {
                        Ok(p) => path = Some(p),
                        Err(reasons) => {
                            self.errors_at(origin, value, "transport", reasons);
                            ok = false;
                        }
                    }
                }
                "load" => {
                    let expected = "cargo such as 2 infantry from Germany";
                    for (text, at) in self.texts_with_nodes(origin, value, "load", expected) {
                        match self.load(text) {
                            Ok(l) => load.push(l),
                            Err(reasons) => {
                                self.errors_at(origin, at, "load", reasons);
                                ok = false;
                            }
                        }
                    }
                }
                _ => {
                    // `unload: Finland`, or a part of the cargo:
                    // `unload: 1 infantry to Finland`.
                    let part = value
                        .text()
                        .and_then(|t| rfind_word(t, "to").map(|at| (t, at)));
                    match part {
                        Some((text, at)) => match self.unload_part(text, at) {
                            Ok((units, to)) => {
                                unload = Some(to);
                                unload_units = Some(units);
                            }
                            Err(reasons) => {
                                self.errors_at(origin, value, "unload", reasons);
                                ok = false;
                            }
                        },
                        None => match self.space(origin, value, "unload") {
                            Some(id) => unload = Some(id),
                            None => ok = false,
                        },
                    }
                }
            }
        }
        if ok {
            Some(MoveOrder::Transport {
                path: path?,
                load,
                unload,
                unload_units,
            })
        } else {
            None
        }
    }

    /// Like [`Self::list_texts`], with the node of each text for its line.
    fn texts_with_nodes<'n>(
        &mut self,
        origin: &Origin,
        node: &'n Node,
        field: &str,
        expected: &str,
    ) -> Vec<(&'n str, &'n Node)> {
        let nodes: Vec<&Node> = match &node.kind {
            Kind::Seq(items) => items.iter().collect(),
            _ => vec![node],
        };
        nodes
            .into_iter()
            .filter_map(|n| self.text(origin, n, field, expected).map(|t| (t, n)))
            .collect()
    }

    /// `2 infantry, 1 armor from Germany [at Baltic Sea]`.
    /// `1 infantry to Finland` (`at` is where ` to ` starts): the units
    /// unloaded and where.
    fn unload_part(&self, text: &str, at: usize) -> Result<(UnitList, SpaceId), Vec<String>> {
        let form = "write the unloading as TERRITORY, or UNITS to TERRITORY to unload part of the \
                    cargo (1 infantry to Finland)";
        let mut errors = Vec::new();
        let units = self
            .names
            .unit_list(&text[..at])
            .map_err(|e| errors.extend(e))
            .ok();
        if units.as_ref().is_some_and(Vec::is_empty) {
            errors.push(format!("\"{}\" unloads no units; {form}", text.trim()));
        }
        let to = self
            .names
            .space(&text[at + " to ".len()..])
            .map_err(|e| errors.push(e))
            .ok();
        match (units, to) {
            (Some(units), Some(to)) if errors.is_empty() => Ok((units, to)),
            _ => Err(errors),
        }
    }

    fn load(&self, text: &str) -> Result<Load, Vec<String>> {
        let form = "write cargo as UNITS from TERRITORY, optionally followed by at SEA ZONE \
                    (2 infantry from Germany)";
        let Some(from) = rfind_word(text, "from") else {
            return Err(vec![format!("\"{}\": {form}", text.trim())]);
        };
        let units_text = &text[..from];
        let rest = &text[from + " from ".len()..];
        let (from_text, at_text) = match rfind_word(rest, "at") {
            Some(at) => (&rest[..at], Some(&rest[at + " at ".len()..])),
            None => (rest, None),
        };
        let mut errors = Vec::new();
        let units = self
            .names
            .unit_list(units_text)
            .map_err(|e| errors.extend(e))
            .ok();
        if units.as_ref().is_some_and(Vec::is_empty) {
            errors.push(format!("\"{}\" loads no units; {form}", text.trim()));
        }
        let from = self.names.space(from_text).map_err(|e| errors.push(e)).ok();
        let at = match at_text {
            Some(t) => self.names.space(t).map_err(|e| errors.push(e)).ok(),
            None => None,
        };
        match (units, from) {
            (Some(units), Some(from)) if errors.is_empty() => Ok(Load { units, from, at }),
            _ => Err(errors),
        }
    }

    // ----- battles ---------------------------------------------------------

    fn battles(&mut self, value: &Node) {
        let entries = match &value.kind {
            Kind::Null => return,
            Kind::Map(entries) => entries,
            _ => {
                let origin = self.origin("battles", 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "battles maps each battle's territory or sea zone (or default) to its \
                         plan, but here it is {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        let mut seen: Vec<(Option<SpaceId>, usize)> = Vec::new();
        for (i, (key, plan)) in entries.iter().enumerate() {
            let origin = self.origin("battles", i + 1, key);
            let Some(written) =
                self.text(&origin, key, "battle", "a territory, sea zone or default")
            else {
                continue;
            };
            let space = if key_matches(written, keys::DEFAULT_PLAN) {
                None
            } else {
                match self.names.space(written) {
                    Ok(id) => Some(id),
                    Err(reason) => {
                        self.error(&origin, key, Some("battle"), reason);
                        continue;
                    }
                }
            };
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "there is already a plan for {} (line {line}); give one plan per battle",
                    space.map_or("default", |s| self.names.game().space_name(s))
                );
                self.error(&origin, key, None, reason);
                continue;
            }
            seen.push((space, key.line));
            if let Some(plan) = self.plan(&origin, space, plan) {
                self.orders.battles.push(Located { item: plan, origin });
            }
        }
    }

    fn plan(&mut self, origin: &Origin, space: Option<SpaceId>, node: &Node) -> Option<BattlePlan> {
        let mut plan = BattlePlan {
            space,
            retreat: Retreat::Never,
            retreat_to: None,
            losses: Vec::new(),
            bombing_raid: false,
            raiders: Vec::new(),
            ignore: false,
            submarines: None,
        };
        let entries = match &node.kind {
            Kind::Map(entries) => entries,
            Kind::Null => return Some(plan),
            _ => {
                self.error(
                    origin,
                    node,
                    None,
                    format!(
                        "a battle plan is written {{retreat: ..., losses: ...}}, but here it is {}",
                        node.describe()
                    ),
                );
                return None;
            }
        };
        let errors_before = self.errors.len();
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            i += 1;
            match key.text().and_then(|k| find_key(k, keys::BATTLE_PLAN)) {
                Some("retreat") => {
                    if let Some((retreat, to)) = self.retreat(origin, value) {
                        plan.retreat = retreat;
                        plan.retreat_to = to;
                    }
                }
                Some("bombing_raid") => {
                    if let Some(b) = self.flag(origin, value, "bombing_raid") {
                        plan.bombing_raid = b;
                    }
                }
                Some("raiders") => {
                    if let Some(list) = self.unit_list(origin, value, "raiders") {
                        plan.raiders = list;
                    }
                }
                Some("ignore") => {
                    if let Some(b) = self.flag(origin, value, "ignore") {
                        plan.ignore = b;
                    }
                }
                Some("submarines") => plan.submarines = self.submarine_policy(origin, value),
                Some(_) => {
                    let extra = Self::rejoined(entries, i - 1, |t| self.is_units(t));
                    let mut pieces = vec![value];
                    pieces.extend(entries[i..i + extra].iter().map(|(k, _)| k));
                    i += extra;
                    plan.losses = self.loss_order(origin, &pieces);
                }
                None if key.text().is_some_and(|k| key_matches(k, "to")) => self.error(
                    origin,
                    key,
                    Some("to"),
                    "to goes inside retreat: retreat: {when_attackers_below: 3, to: Poland}"
                        .to_owned(),
                ),
                None => self.unknown_key(origin, key, "of a battle plan", keys::BATTLE_PLAN),
            }
        }
        (self.errors.len() == errors_before).then_some(plan)
    }

    /// `never`, `{after_round: N}`, `{when_attackers_below: N}` or
    /// `{when_odds_below: P}`, each mapping with an optional `to: SPACE`.
    fn retreat(&mut self, origin: &Origin, node: &Node) -> Option<(Retreat, Option<SpaceId>)> {
        let forms = "retreat is never, {after_round: N}, {when_attackers_below: N} or \
                     {when_odds_below: P}, optionally with to: SPACE inside the braces";
        if let Some(text) = node.text() {
            if key_matches(text, keys::RETREAT_NEVER) {
                return Some((Retreat::Never, None));
            }
            let mut reason = format!("\"{text}\" is not a retreat; {forms}.");
            if let Some(s) = did_you_mean(text, keys::RETREAT.iter().copied()) {
                reason = format!("\"{text}\" is not a retreat; did you mean {{{s}: N}}? {forms}.");
            }
            self.error(origin, node, Some("retreat"), reason);
            return None;
        }
        let Kind::Map(entries) = &node.kind else {
            self.error(
                origin,
                node,
                Some("retreat"),
                format!("{forms}; here it is {}", node.describe()),
            );
            return None;
        };
        let mut condition: Option<Retreat> = None;
        let mut to = None;
        let mut ok = true;
        for (key, value) in entries {
            let Some(word) = key.text().and_then(|k| find_key(k, keys::RETREAT)) else {
                self.unknown_key(origin, key, "of a retreat", keys::RETREAT);
                ok = false;
                continue;
            };
            if word == "to" {
                to = self.space(origin, value, "to");
                ok &= to.is_some();
                continue;
            }
            // The value: a probability for when_odds_below, else a whole
            // number from 1.
            let parsed = if word == "when_odds_below" {
                match value.kind {
                    Kind::Int(_) | Kind::Float => value.raw.trim().parse::<f64>().ok(),
                    _ => None,
                }
                .filter(|p| p.is_finite() && *p > 0.0 && *p <= 1.0)
                .map(Retreat::WhenOddsBelow)
                .ok_or("a probability above 0 and at most 1 (0.3 for 30%)")
            } else {
                match value.kind {
                    Kind::Int(n) if n >= 1 => u32::try_from(n).ok(),
                    _ => None,
                }
                .map(|n| {
                    if word == "after_round" {
                        Retreat::AfterRound(n)
                    } else {
                        Retreat::WhenAttackersBelow(n)
                    }
                })
                .ok_or("a whole number from 1")
            };
            let parsed = match parsed {
                Ok(r) => r,
                Err(wanted) => {
                    self.error(
                        origin,
                        value,
                        Some(word),
                        format!(
                            "{word} takes {wanted}, not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    );
                    ok = false;
                    continue;
                }
            };
            if condition.is_some() {
                self.error(
                    origin,
                    key,
                    Some(word),
                    "a retreat has one condition: after_round, when_attackers_below or \
                     when_odds_below, not two"
                        .to_owned(),
                );
                ok = false;
                continue;
            }
            condition = Some(parsed);
        }
        let Some(condition) = condition else {
            if ok {
                self.error(
                    origin,
                    node,
                    Some("retreat"),
                    format!("the retreat has no condition; {forms}"),
                );
            }
            return None;
        };
        ok.then_some((condition, to))
    }

    // ----- repair and rockets ----------------------------------------------

    /// `repair:`, a mapping of territories to the damage repaired there.
    fn repair(&mut self, value: &Node) {
        let entries = match &value.kind {
            Kind::Null => return,
            Kind::Map(entries) => entries,
            _ => {
                let origin = self.origin("repair", 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "repair maps each territory to the damage repaired on its industrial \
                         complex (Germany: 3), but here it is {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        let mut seen: Vec<(SpaceId, usize)> = Vec::new();
        for (i, (key, points)) in entries.iter().enumerate() {
            let origin = self.origin("repair", i + 1, key);
            let Some(space) = self.space(&origin, key, "space") else {
                continue;
            };
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "{} is given twice (first at line {line}); write its repair once",
                    self.names.game().space_name(space)
                );
                self.error(&origin, key, Some("space"), reason);
                continue;
            }
            seen.push((space, key.line));
            match points.kind {
                Kind::Int(n) if n >= 1 && u32::try_from(n).is_ok() => {
                    self.orders.repair.push(Located {
                        item: (space, u32::try_from(n).unwrap_or(0)),
                        origin,
                    });
                }
                _ => self.error(
                    &origin,
                    points,
                    Some("points"),
                    format!(
                        "the damage repaired is a whole number from 1 (Germany: 3), not \"{}\"",
                        points.text().unwrap_or(points.describe())
                    ),
                ),
            }
        }
    }

    /// `rockets:`, a list of `FROM -> TARGET`.
    fn rockets(&mut self, value: &Node) {
        let items = match &value.kind {
            Kind::Null => return,
            Kind::Seq(items) => items,
            _ => {
                let origin = self.origin("rockets", 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "rockets is a list, each rocket on its own line starting with \"- \" \
                         (- Germany -> United Kingdom), but here it is {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        for (i, item) in items.iter().enumerate() {
            let origin = self.origin("rockets", i + 1, item);
            let form = "a rocket is written FROM -> TARGET: the territory of the AA gun, then \
                        the territory of the industrial complex it strikes (Germany -> United \
                        Kingdom)";
            let Some(text) = item.text().filter(|t| !t.trim().is_empty()) else {
                self.error(
                    &origin,
                    item,
                    None,
                    format!("{form}, but this is {}", item.describe()),
                );
                continue;
            };
            let parts: Vec<&str> = text.split(['→']).flat_map(|p| p.split("->")).collect();
            if parts.len() != 2 {
                self.error(
                    &origin,
                    item,
                    None,
                    format!("{form}, not \"{}\"", text.trim()),
                );
                continue;
            }
            let from = self.names.space(parts[0].trim());
            let to = self.names.space(parts[1].trim());
            match (from, to) {
                (Ok(from), Ok(to)) => self.orders.rockets.push(Located {
                    item: (from, to),
                    origin,
                }),
                (from, to) => {
                    if let Err(reason) = from {
                        self.error(&origin, item, Some("from"), reason);
                    }
                    if let Err(reason) = to {
                        self.error(&origin, item, Some("target"), reason);
                    }
                }
            }
        }
    }

    // ----- take_over -------------------------------------------------------

    /// `take_over:`, a list of `UNITS of POWER in SPACE`.
    fn take_over(&mut self, value: &Node) {
        let items = match &value.kind {
            Kind::Null => return,
            Kind::Seq(items) => items,
            _ => {
                let origin = self.origin("take_over", 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "take_over is a list, each take-over on its own line starting with \"- \" \
                         (- 2 infantry of United Kingdom in Moscow), but here it is {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        for (i, item) in items.iter().enumerate() {
            let origin = self.origin("take_over", i + 1, item);
            let Some(text) = item.text().filter(|t| !t.trim().is_empty()) else {
                let found = match &item.kind {
                    // `- 2 infantry: United Kingdom in Moscow`, by analogy with a move.
                    Kind::Map(_) => "without a colon".to_owned(),
                    _ => format!("but this is {}", item.describe()),
                };
                self.error(&origin, item, None, format!("{TAKE_OVER_FORM}, {found}"));
                continue;
            };
            match self.take_over_text(text) {
                Ok(order) => self.orders.take_over.push(Located {
                    item: order,
                    origin,
                }),
                Err(errors) => {
                    for (field, reason) in errors {
                        self.error(&origin, item, Some(field), reason);
                    }
                }
            }
        }
    }

    /// `2 infantry, 1 fighter of United Kingdom in Moscow`. A name may itself
    /// hold ` of ` or ` in ` (`Strait of Gibraltar`), so every way of
    /// splitting the text at an `of` followed by an `in` is tried, and the one
    /// under which the most parts are names of the game wins (the first of
    /// equals); its problems are the ones reported, each with its field.
    fn take_over_text(&self, text: &str) -> Result<TakeOverOrder, Vec<(&'static str, String)>> {
        let written = text.trim();
        // Padded, so that a missing part still leaves its word findable
        // (`of United Kingdom in Moscow`).
        let padded = format!(" {written} ");
        let ofs = find_words(&padded, "of");
        if ofs.is_empty() {
            return Err(vec![(
                "power",
                format!(
                    "\"{written}\" does not say whose units they are (of POWER); {TAKE_OVER_FORM}"
                ),
            )]);
        }
        let ins = find_words(&padded, "in");
        // Every pair is resolved against the game's names: a line of many
        // "of"s and "in"s (found by fuzzing: 900 bytes took seconds) would
        // otherwise cost time quadratic in its length. Real names hold one
        // "of" at most.
        if ofs.len() * ins.len() > MAX_TAKE_OVER_SPLITS {
            return Err(vec![(
                "units",
                format!(
                    "this take-over has {} \"of\" and {} \"in\": too many to tell the names \
                     apart; {TAKE_OVER_FORM}",
                    ofs.len(),
                    ins.len()
                ),
            )]);
        }
        let splits: Vec<(usize, usize)> = ofs
            .iter()
            .flat_map(|&o| {
                ins.iter()
                    .copied()
                    .filter(move |&n| n >= o + " of".len())
                    .map(move |n| (o, n))
            })
            .collect();
        if splits.is_empty() {
            return Err(vec![(
                "space",
                format!(
                    "\"{written}\" does not say where the units are (in TERRITORY); \
                     {TAKE_OVER_FORM}"
                ),
            )]);
        }
        let mut best: Option<(usize, TakeOverParts)> = None;
        for (o, n) in splits {
            let units = padded[..o].trim();
            let power = padded.get(o + " of ".len()..n).unwrap_or("").trim();
            let space = padded[n + " in ".len()..].trim();
            let parts = self.take_over_parts(units, power, space);
            let score = [
                parts.units.is_ok(),
                parts.power.is_ok(),
                parts.space.is_ok(),
            ]
            .iter()
            .filter(|ok| **ok)
            .count();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, parts));
            }
        }
        let (_, parts) = best.expect("at least one split");
        match parts {
            TakeOverParts {
                units: Ok(units),
                power: Ok(from),
                space: Ok(space),
            } => Ok(TakeOverOrder { space, from, units }),
            TakeOverParts {
                units,
                power,
                space,
            } => {
                let mut errors: Vec<(&'static str, String)> = Vec::new();
                errors.extend(units.err().into_iter().flatten().map(|e| ("units", e)));
                errors.extend(power.err().map(|e| ("power", e)));
                errors.extend(space.err().map(|e| ("space", e)));
                Err(errors)
            }
        }
    }

    /// The three parts of a take-over, each resolved or with its problems.
    fn take_over_parts(&self, units: &str, power: &str, space: &str) -> TakeOverParts {
        let units = match self.names.unit_list(units) {
            _ if units.is_empty() => Err(vec![format!(
                "the take-over names no units before of; {TAKE_OVER_FORM}"
            )]),
            Ok(list) if list.is_empty() => Err(vec![format!(
                "the take-over names no units before of; {TAKE_OVER_FORM}"
            )]),
            other => other,
        };
        let power = if power.is_empty() {
            Err(format!(
                "the take-over names no power between of and in; {TAKE_OVER_FORM}"
            ))
        } else {
            self.names.power(power)
        };
        let space = if space.is_empty() {
            Err(format!(
                "the take-over names no territory after in; {TAKE_OVER_FORM}"
            ))
        } else {
            self.names.space(space)
        };
        TakeOverParts {
            units,
            power,
            space,
        }
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

    /// One of [`keys::SUBMARINE_POLICIES`], or an error on `submarines`.
    fn submarine_policy(&mut self, origin: &Origin, value: &Node) -> Option<SubmarinePolicy> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::SUBMARINE_POLICIES) {
            Some("fight") => Some(SubmarinePolicy::Fight),
            Some("submerge") => Some(SubmarinePolicy::Submerge),
            Some(_) => Some(SubmarinePolicy::SubmergeAfterFirstRound),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!("\"{shown}\" is not a submarine policy.");
                if let Some(s) = did_you_mean(text, keys::SUBMARINE_POLICIES.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                reason.push_str(&format!(
                    " The policies are: {}.",
                    keys::SUBMARINE_POLICIES.join(", ")
                ));
                self.error(origin, value, Some("submarines"), reason);
                None
            }
        }
    }

    fn bystander_losses(&mut self, origin: &Origin, value: &Node) -> Option<BystanderLosses> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::BYSTANDER_LOSSES) {
            Some("last") => Some(BystanderLosses::Last),
            Some(_) => Some(BystanderLosses::AlliesChoose),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!(
                    "\"{shown}\" is not a choice of bystander losses: last (your ships standing \
                     by in an ally's sea battle are lost only after the ally's units) or \
                     allies_choose (the attacking ally's battle plan may name them first)."
                );
                if let Some(s) = did_you_mean(text, keys::BYSTANDER_LOSSES.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                self.error(origin, value, Some("bystander_losses"), reason);
                None
            }
        }
    }

    fn middle_east_payment(&mut self, origin: &Origin, value: &Node) -> Option<MiddleEastPayment> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::MIDDLE_EAST_PAYMENT) {
            Some("first") => Some(MiddleEastPayment::First),
            Some("last") => Some(MiddleEastPayment::Last),
            Some(_) => Some(MiddleEastPayment::RichestFirst),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!(
                    "\"{shown}\" is not a place in the Middle East payment: first (your power \
                     pays Germany before the other Allies), richest_first (the Allies pay in \
                     the order of their treasuries, the default) or last (your power pays only \
                     what the others cannot)."
                );
                if let Some(s) = did_you_mean(text, keys::MIDDLE_EAST_PAYMENT.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                self.error(origin, value, Some("middle_east_payment"), reason);
                None
            }
        }
    }

    // ----- place -----------------------------------------------------------

    fn place(&mut self, value: &Node) {
        let entries = match &value.kind {
            Kind::Null => return,
            Kind::Map(entries) => entries,
            _ => {
                let origin = self.origin("place", 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "place maps each territory or sea zone to the units placed there \
                         (Germany: 6 infantry), but here it is {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        let mut seen: Vec<(SpaceId, usize)> = Vec::new();
        let mut index = 0;
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            let extra = Self::rejoined(entries, i, |t| {
                self.names.space(t).is_err() && self.is_units(t)
            });
            i += 1 + extra;
            index += 1;
            let origin = self.origin("place", index, key);
            let Some(space) = self.space(&origin, key, "space") else {
                continue;
            };
            let mut texts =
                self.list_texts(&origin, value, "units", "a unit list such as 6 infantry");
            texts.extend(entries[i - extra..i].iter().filter_map(|(k, _)| k.text()));
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "{} is given twice (first at line {line}); put all its units in one entry",
                    self.names.game().space_name(space)
                );
                self.error(&origin, key, Some("space"), reason);
                continue;
            }
            seen.push((space, key.line));
            if texts.is_empty() {
                continue;
            }
            match self.names.unit_list(&texts.join(", ")) {
                Ok(units) => self.orders.place.push(Located {
                    item: (space, units),
                    origin,
                }),
                Err(reasons) => self.errors_at(&origin, value, "units", reasons),
            }
        }
    }

    // ----- standing orders -------------------------------------------------

    fn standing(&mut self, value: &Node) {
        let origin = Origin {
            section: "standing",
            index: 0,
            line: Some(value.line),
            text: String::new(),
        };
        let entries = match &value.kind {
            Kind::Null => return,
            Kind::Map(entries) => entries,
            _ => {
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "standing orders are key: value lines (losses:, keep_one_land_unit:, \
                         submarines:, intercept:, bystander_losses:, middle_east_payment:), but here \
                         they are {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        let errors_before = self.errors.len();
        let mut standing = StandingOrders::default();
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            i += 1;
            match key.text().and_then(|k| find_key(k, keys::STANDING)) {
                Some("losses") => {
                    let extra = Self::rejoined(entries, i - 1, |t| self.is_units(t));
                    let mut pieces = vec![value];
                    pieces.extend(entries[i..i + extra].iter().map(|(k, _)| k));
                    i += extra;
                    standing.losses = self.loss_order(&origin, &pieces);
                }
                Some("keep_one_land_unit") => {
                    if let Some(b) = self.flag(&origin, value, "keep_one_land_unit") {
                        standing.keep_one_land_unit = b;
                    }
                }
                Some("bystander_losses") => {
                    if let Some(b) = self.bystander_losses(&origin, value) {
                        standing.bystander_losses = b;
                    }
                }
                Some("middle_east_payment") => {
                    if let Some(m) = self.middle_east_payment(&origin, value) {
                        standing.middle_east_payment = m;
                    }
                }
                Some("intercept") => match value.kind {
                    Kind::Int(n) if u32::try_from(n).is_ok() => {
                        standing.intercept = u32::try_from(n).ok();
                    }
                    _ => self.error(
                        &origin,
                        value,
                        Some("intercept"),
                        format!(
                            "intercept is how many fighters at most rise against a raid, a whole \
                             number from 0, not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    ),
                },
                Some(_) => {
                    if let Some(p) = self.submarine_policy(&origin, value) {
                        standing.submarines = p;
                    }
                }
                None => self.unknown_key(&origin, key, "of standing orders", keys::STANDING),
            }
        }
        if self.errors.len() == errors_before {
            self.orders.standing = Some(Located {
                item: standing,
                origin,
            });
        }
    }
}
