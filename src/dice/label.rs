//! Labels: the name of what a die is for.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The longest label accepted, in bytes.
pub const MAX_LABEL_LEN: usize = 256;

/// What a die is for, e.g. `battle/Ukraine/round/2/attacker/infantry`.
///
/// A label is one or more non-empty segments joined by `/`; a segment holds no
/// `/` and no control character. Every label has its own stream, so the dice a
/// battle gets do not depend on the order in which battles are resolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Label(String);

/// Why a string is not a valid [`Label`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// The label is empty or has an empty segment (`a//b`, `/a`, `a/`).
    #[error("label {0:?} has an empty segment")]
    EmptySegment(String),
    /// A segment contains a control character.
    #[error("label {0:?} contains a control character")]
    ControlCharacter(String),
    /// A segment passed to [`Label::from_segments`] contains `/`.
    #[error("label segment {0:?} contains '/'")]
    SlashInSegment(String),
    /// The label is longer than [`MAX_LABEL_LEN`] bytes.
    #[error("label is {0} bytes long; at most {MAX_LABEL_LEN} are allowed")]
    TooLong(usize),
}

impl Label {
    /// Parses a label written out in full.
    pub fn new(s: impl Into<String>) -> Result<Self, LabelError> {
        let s = s.into();
        if s.len() > MAX_LABEL_LEN {
            return Err(LabelError::TooLong(s.len()));
        }
        // One pass over the bytes (labels are checked for every die group of
        // a log): empty segments, then control characters (Unicode Cc: C0,
        // DEL, and C1, which UTF-8 writes as 0xC2 0x80..=0x9F).
        let b = s.as_bytes();
        if b.is_empty()
            || b[0] == b'/'
            || b[b.len() - 1] == b'/'
            || b.windows(2).any(|w| w == b"//")
        {
            return Err(LabelError::EmptySegment(s));
        }
        let control = b.iter().enumerate().any(|(i, &c)| {
            c < 0x20
                || c == 0x7f
                || (c == 0xc2 && b.get(i + 1).is_some_and(|n| (0x80..=0x9f).contains(n)))
        });
        if control {
            return Err(LabelError::ControlCharacter(s));
        }
        Ok(Label(s))
    }

    /// Joins segments into a label, refusing a segment that holds `/`.
    pub fn from_segments<S: AsRef<str>>(segments: &[S]) -> Result<Self, LabelError> {
        if let Some(bad) = segments.iter().find(|s| s.as_ref().contains('/')) {
            return Err(LabelError::SlashInSegment(bad.as_ref().to_owned()));
        }
        let joined: Vec<&str> = segments.iter().map(AsRef::as_ref).collect();
        Label::new(joined.join("/"))
    }

    /// The label as written in the log and hashed into its stream key.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl TryFrom<String> for Label {
    type Error = LabelError;
    fn try_from(s: String) -> Result<Self, LabelError> {
        Label::new(s)
    }
}

impl From<Label> for String {
    fn from(l: Label) -> String {
        l.0
    }
}

impl fmt::Display for Label {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_names_with_spaces() {
        let l = Label::from_segments(&["battle", "West Russia", "round", "1"]).unwrap();
        assert_eq!(l.as_str(), "battle/West Russia/round/1");
    }

    #[test]
    fn rejects_malformed_labels() {
        assert!(matches!(Label::new(""), Err(LabelError::EmptySegment(_))));
        assert!(matches!(
            Label::new("a//b"),
            Err(LabelError::EmptySegment(_))
        ));
        assert!(matches!(Label::new("a/"), Err(LabelError::EmptySegment(_))));
        assert!(matches!(
            Label::new("a\nb"),
            Err(LabelError::ControlCharacter(_))
        ));
        assert!(matches!(
            Label::from_segments(&["a", "b/c"]),
            Err(LabelError::SlashInSegment(_))
        ));
        assert!(matches!(
            Label::new("x".repeat(257)),
            Err(LabelError::TooLong(257))
        ));
        assert!(Label::new("x".repeat(256)).is_ok());
        assert!(matches!(
            Label::new("a\u{85}b"),
            Err(LabelError::ControlCharacter(_))
        ));
        assert!(matches!(
            Label::new("a\u{7f}"),
            Err(LabelError::ControlCharacter(_))
        ));
        assert!(Label::new("Åland/Ærø/ü").is_ok());
    }
}
