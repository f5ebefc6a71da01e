//! Name matching in the game's words.
//!
//! Players type names by hand ("baltic sea", "Soviet  Union"), so every name on
//! a board, every power and every unit type is compared through a [`NameKey`]:
//! case-insensitive, with runs of whitespace collapsed. Two names that map to
//! the same key are the same name, which is why the loader rejects them as
//! duplicates.

use std::fmt;

/// The canonical comparison form of a name: lower case, single spaces, trimmed.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameKey(String);

impl NameKey {
    /// Builds the key of `name`.
    pub fn new(name: &str) -> Self {
        let mut key = String::with_capacity(name.len());
        for word in name.split_whitespace() {
            if !key.is_empty() {
                key.push(' ');
            }
            // Board and unit names are ASCII: lowered in place, as
            // `char::to_lowercase` would (a replay looks up every space
            // name of every logged message).
            if word.is_ascii() {
                let start = key.len();
                key.push_str(word);
                key[start..].make_ascii_lowercase();
            } else {
                key.extend(word.chars().flat_map(char::to_lowercase));
            }
        }
        NameKey(key)
    }

    /// The key as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for NameKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Levenshtein distance over characters (small inputs only: names).
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The candidate closest to `wanted`, if it is close enough to be a plausible
/// typo (at most a third of the longer name's length, and at least one edit).
pub fn did_you_mean<'a, I>(wanted: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    let wanted_key = NameKey::new(wanted);
    let wanted_len = wanted_key.as_str().chars().count();
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let limit = (wanted_len.max(candidate.chars().count()) / 3).max(1);
        let key = NameKey::new(candidate);
        // The distance is at least the difference in length: skipping such
        // candidates changes no answer and keeps a long garbage name (which
        // the fuzzer writes) from costing its length times every name's.
        if wanted_len.abs_diff(key.as_str().chars().count()) > limit {
            continue;
        }
        let distance = edit_distance(wanted_key.as_str(), key.as_str());
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, name)| name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_ascii_name_is_lowered_as_unicode_lowers_it() {
        for name in [
            "Ukraine S.S.R.",
            " Sea\tZone  5 ",
            "ÉIRE and Eire",
            "İstanbul",
            "AA-Gun_x\u{0b}Y",
            "",
        ] {
            let by_chars = name
                .split_whitespace()
                .map(|w| w.chars().flat_map(char::to_lowercase).collect::<String>())
                .collect::<Vec<_>>()
                .join(" ");
            assert_eq!(NameKey::new(name).as_str(), by_chars, "{name:?}");
        }
    }

    #[test]
    fn keys_ignore_case_and_spacing() {
        assert_eq!(NameKey::new("  Baltic   Sea "), NameKey::new("baltic sea"));
        assert_ne!(NameKey::new("Baltic Sea"), NameKey::new("Baltic Seas"));
    }

    #[test]
    fn suggests_close_names_only() {
        let names = ["Finland", "Poland", "Germany"];
        assert_eq!(did_you_mean("Finlnd", names), Some("Finland"));
        assert_eq!(did_you_mean("polnad", names), Some("Poland"));
        assert_eq!(did_you_mean("Mongolia", names), None);
    }

    #[test]
    fn edit_distance_counts_edits() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
