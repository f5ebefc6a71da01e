//! A message's header read line by line, without YAML.
//!
//! Before anything is applied, the mail daemon must know who sent a message
//! (`power:`, `secret:`) and whether it holds a command, orders, standing
//! orders or odds questions. It must know this even when the YAML is broken:
//! such a message is answered with the parser's errors, and only after its
//! sender is authenticated. So the header is read here from the lines of the
//! text, never failing, with the parser's own words for the top-level keys
//! ([`super::parse::top_level_key`]); the values the engine uses are still
//! the ones [`super::parse::parse_message`] reads from the YAML.

use super::keys;
use super::parse::top_level_key;

/// What the top level of a message says, read line by line: its header
/// fields as written and which kinds of sections it holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HeaderLines {
    /// `power:` as written.
    pub power: Option<String>,
    /// `secret:` as written.
    pub secret: Option<String>,
    /// `command:`, lowercased (not checked against any list of commands).
    pub command: Option<String>,
    /// `round:` as written.
    pub round: Option<String>,
    /// `stage:` as written (read by `command: history`).
    pub stage: Option<String>,
    /// `entry:` as written (read by `command: history`).
    pub entry: Option<String>,
    /// Some other top-level key than the header's, `standing:` and `odds:`:
    /// the message holds orders.
    pub has_orders: bool,
    /// A `standing:` section.
    pub has_standing: bool,
    /// An `odds:` section: questions about battles.
    pub has_odds: bool,
}

/// Reads the header of an orders text from its top-level lines (those that
/// start neither with a space, a tab, `#` nor `-`), whatever the YAML around
/// them: a value runs to the end of its line or to ` #`, without its quotes,
/// and a key written twice counts as its last line says.
pub fn scan_header(text: &str) -> HeaderLines {
    let mut h = HeaderLines::default();
    for line in text.lines() {
        if line.is_empty() || line.starts_with([' ', '\t', '#', '-']) {
            continue;
        }
        let Some((key, value)) = line.split_once(':') else {
            continue;
        };
        let value = match value.find(" #") {
            Some(i) => &value[..i],
            None => value,
        };
        let value = value.trim().trim_matches(['"', '\'']).trim().to_owned();
        match top_level_key(key) {
            Some("power") => h.power = Some(value),
            Some("secret") => h.secret = Some(value),
            Some("command") => h.command = Some(value.to_lowercase()),
            Some("round") => h.round = Some(value),
            Some("stage") => h.stage = Some(value),
            Some("entry") => h.entry = Some(value),
            Some("standing") => h.has_standing = true,
            Some("odds") => h.has_odds = true,
            // The rest of the header: not orders, and nothing to read here.
            Some(word) if keys::HEADER.contains(&word) => {}
            _ => h.has_orders = true,
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_is_read_even_from_broken_yaml() {
        let h = scan_header(
            "Power: Germany\nsecret: \"bokat-firum\"  # mine\ncommand: Status\npurchase: [oops\n  - x\n",
        );
        assert_eq!(h.power.as_deref(), Some("Germany"));
        assert_eq!(h.secret.as_deref(), Some("bokat-firum"));
        assert_eq!(h.command.as_deref(), Some("status"));
        assert!(h.has_orders);
        assert!(!h.has_standing);
    }

    #[test]
    fn header_keys_are_not_orders_and_sections_are() {
        let h = scan_header("match: m\nRound: 2\nentropy: x\nodds:\n  attackers: 1 infantry\n");
        assert!(!h.has_orders);
        assert!(h.has_odds);
        let h = scan_header("Take over:\n  - 1 infantry of United Kingdom in Moscow\n");
        assert!(h.has_orders);
        let h = scan_header("standing:\n  losses: infantry\nnonsense: 1\n");
        assert!(h.has_standing);
        assert!(h.has_orders);
    }
}
