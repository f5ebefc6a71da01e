//! Control and format characters made visible before text from a log or a
//! player reaches a terminal or a mail reader.
//!
//! A match log and an orders message are written by others: a power name, an
//! event or a label can hold a line break, a carriage return, a terminal
//! escape sequence or a right-to-left override, and printed as it is it
//! could draw a fake `ok:` line or reorder what a reader sees. [`escape`]
//! shows each such character as `<U+XXXX>` instead. It only changes what is
//! displayed: the log keeps the exact text, on which the digests depend.

use std::borrow::Cow;
use std::fmt::Write as _;

/// Where the text goes, which decides what is kept and how an escape is
/// written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// One line of a terminal: every control character is escaped, line
    /// breaks and tabs included.
    Terminal,
    /// A plain-text mail body: line breaks (`\n`, `\r\n`) and tabs are kept.
    MailText,
    /// An HTML mail body: as [`Target::MailText`], the escape written
    /// `&lt;U+XXXX&gt;` so that it shows rather than opening a tag.
    MailHtml,
}

/// `text` with every control character (Unicode category Cc), format
/// character (Cf, the bidirectional controls U+202A..U+202E, U+2066..U+2069,
/// U+200E, U+200F and U+061C among them) and line or paragraph separator
/// (U+2028, U+2029) written as a visible `<U+XXXX>`, except what `target`
/// keeps. The zero-width joiner and non-joiner (U+200D, U+200C) are kept:
/// emoji and several scripts need them, and they move or hide nothing.
/// Borrows `text` when nothing needs escaping.
pub fn escape(text: &str, target: Target) -> Cow<'_, str> {
    let mut out = String::new();
    // Bytes of `text` already in `out`, as they are or escaped.
    let mut done = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let kept = target != Target::Terminal
            && (c == '\n' || c == '\t' || (c == '\r' && next == Some('\n')));
        if !is_hidden(c) || kept {
            continue;
        }
        out.push_str(&text[done..i]);
        let _ = match target {
            Target::MailHtml => write!(out, "&lt;U+{:04X}&gt;", u32::from(c)),
            _ => write!(out, "<U+{:04X}>", u32::from(c)),
        };
        done = i + c.len_utf8();
    }
    if out.is_empty() {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[done..]);
    Cow::Owned(out)
}

/// Is `c` a character that acts on the display rather than showing as
/// itself: categories Cc, Cf (but ZWNJ and ZWJ), Zl and Zp?
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            // Cf, as of Unicode 15.
            '\u{ad}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{180e}'
            | '\u{200b}'
            | '\u{200e}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206f}'
            | '\u{feff}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0001}'
            | '\u{e0020}'..='\u{e007f}'
            // Zl, Zp.
            | '\u{2028}'
            | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_borrowed() {
        let s = "Germany: 3 infantry, ура, 👨\u{200d}👩\u{200d}👧";
        assert!(matches!(escape(s, Target::Terminal), Cow::Borrowed(_)));
    }

    #[test]
    fn every_target_escapes_what_moves_or_hides_text() {
        let s = "a\u{1b}[2Jb\u{202e}c\u{7}\u{85}\u{2028}\u{feff}\u{e0041}";
        assert_eq!(
            escape(s, Target::Terminal),
            "a<U+001B>[2Jb<U+202E>c<U+0007><U+0085><U+2028><U+FEFF><U+E0041>"
        );
        assert_eq!(escape("x\u{202e}y", Target::MailHtml), "x&lt;U+202E&gt;y");
    }

    #[test]
    fn mail_keeps_line_breaks_and_tabs_a_terminal_line_does_not() {
        let s = "one\r\ntwo\tthree\rok: fake\n";
        assert_eq!(
            escape(s, Target::Terminal),
            "one<U+000D><U+000A>two<U+0009>three<U+000D>ok: fake<U+000A>"
        );
        assert_eq!(
            escape(s, Target::MailText),
            "one\r\ntwo\tthree<U+000D>ok: fake\n"
        );
    }
}
