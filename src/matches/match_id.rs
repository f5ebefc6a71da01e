//! Which match ids a new match may have.
//!
//! A match id travels where little is allowed: the local part of a
//! plus-address (`orders+ID@domain`, where some mail servers fold case),
//! the subject tag `[ID round N POWER]`, and a directory name. An id that
//! one of them cannot carry makes a match nobody can write to, so ids are
//! checked when a match is created: 1 to [`MAX_LEN`] lowercase ASCII
//! letters, digits and hyphens, starting with a letter or digit, with at
//! least one letter (a subject tag of digits alone, like `[2]`, is not
//! read as a tag). Matches created before this rule are opened as they are.

/// The longest match id, in characters.
pub const MAX_LEN: usize = 64;

/// What a valid id looks like, for error messages.
const RULE: &str = "a match id is 1 to 64 lowercase ASCII letters (a-z), digits and hyphens, \
                    starting with a letter or digit and with at least one letter, \
                    e.g. league7-aae-03";

/// Why an id cannot be a match id. Each message names the problem and the
/// rule.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MatchIdError {
    /// The id is empty.
    #[error("the match id is empty; {RULE}")]
    Empty,
    /// The id is longer than [`MAX_LEN`].
    #[error("the match id is {len} characters long; {RULE}")]
    TooLong {
        /// Its length in characters.
        len: usize,
    },
    /// The id holds a character outside the alphabet.
    #[error("the match id {id:?} holds {found}; {RULE}")]
    Character {
        /// The id.
        id: String,
        /// The character, described (`'.'`, `a space`, `'A'`).
        found: String,
    },
    /// The id starts with a hyphen.
    #[error("the match id {id:?} starts with a hyphen; {RULE}")]
    LeadingHyphen {
        /// The id.
        id: String,
    },
    /// The id has no letter.
    #[error("the match id {id:?} has no letter; {RULE}")]
    NoLetter {
        /// The id.
        id: String,
    },
}

/// Checks that `id` can be a new match's id (see the module's rule).
pub fn check_match_id(id: &str) -> Result<(), MatchIdError> {
    let len = id.chars().count();
    if len == 0 {
        return Err(MatchIdError::Empty);
    }
    if len > MAX_LEN {
        return Err(MatchIdError::TooLong { len });
    }
    if let Some(c) = id
        .chars()
        .find(|&c| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-'))
    {
        let found = match c {
            ' ' => "a space".to_owned(),
            c if c.is_ascii_uppercase() => format!("the capital letter {c:?}"),
            c => format!("{c:?}"),
        };
        return Err(MatchIdError::Character {
            id: id.to_owned(),
            found,
        });
    }
    if id.starts_with('-') {
        return Err(MatchIdError::LeadingHyphen { id: id.to_owned() });
    }
    if !id.chars().any(|c| c.is_ascii_lowercase()) {
        return Err(MatchIdError::NoLetter { id: id.to_owned() });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ids_in_use_are_valid() {
        for id in [
            "league7-aae-03",
            "t1",
            "demo-12",
            "7th-league",
            "match",
            "a",
        ] {
            assert_eq!(check_match_id(id), Ok(()), "{id}");
        }
        assert_eq!(check_match_id(&"a".repeat(64)), Ok(()));
    }

    #[test]
    fn unusable_ids_are_refused_with_the_reason() {
        let err = |id: &str| check_match_id(id).unwrap_err().to_string();
        assert!(err("").starts_with("the match id is empty"));
        assert!(err(&"a".repeat(65)).starts_with("the match id is 65 characters long"));
        assert!(err("a b").contains("holds a space"));
        assert!(err("..").contains("holds '.'"));
        assert!(err("../x").contains("holds '.'"));
        assert!(err("<script>").contains("holds '<'"));
        assert!(err("League7").contains("the capital letter 'L'"));
        assert!(err("a\u{1b}[2J").contains(r"'\u{1b}'"));
        assert!(err("-x").contains("starts with a hyphen"));
        assert!(err("2026").contains("has no letter"));
        assert!(err("a b").ends_with("e.g. league7-aae-03"));
    }
}
