//! Mail templates (`templates/`, `docs/reports.md`): the built-in ones are
//! compiled into the binary; a template directory overrides them by file
//! name. Each mail has a plain-text template (`NAME.txt`, no escaping, long
//! lines wrapped at 72 columns by the `wrap` filter) and an HTML one
//! (`NAME.html`, auto-escaped, inline CSS only).

use std::path::Path;
use std::sync::OnceLock;

use minijinja::Environment;
use serde::Serialize;

/// The built-in templates, by file name.
pub const BUILTIN: &[(&str, &str)] = &[
    ("receipt.txt", include_str!("../../templates/receipt.txt")),
    ("receipt.html", include_str!("../../templates/receipt.html")),
    (
        "rejection.txt",
        include_str!("../../templates/rejection.txt"),
    ),
    (
        "rejection.html",
        include_str!("../../templates/rejection.html"),
    ),
    ("report.txt", include_str!("../../templates/report.txt")),
    ("report.html", include_str!("../../templates/report.html")),
    ("battle.txt", include_str!("../../templates/battle.txt")),
    ("battle.html", include_str!("../../templates/battle.html")),
    ("reminder.txt", include_str!("../../templates/reminder.txt")),
    (
        "reminder.html",
        include_str!("../../templates/reminder.html"),
    ),
    ("late.txt", include_str!("../../templates/late.txt")),
    ("late.html", include_str!("../../templates/late.html")),
    ("welcome.txt", include_str!("../../templates/welcome.txt")),
    ("welcome.html", include_str!("../../templates/welcome.html")),
    ("notice.html", include_str!("../../templates/notice.html")),
    ("help.txt", include_str!("../../templates/help.txt")),
    ("help.html", include_str!("../../templates/help.html")),
    ("refused.txt", include_str!("../../templates/refused.txt")),
    ("refused.html", include_str!("../../templates/refused.html")),
    ("alert.txt", include_str!("../../templates/alert.txt")),
    ("alert.html", include_str!("../../templates/alert.html")),
    ("rotated.txt", include_str!("../../templates/rotated.txt")),
    ("rotated.html", include_str!("../../templates/rotated.html")),
    ("unrouted.txt", include_str!("../../templates/unrouted.txt")),
    (
        "unrouted.html",
        include_str!("../../templates/unrouted.html"),
    ),
    ("answer.txt", include_str!("../../templates/answer.txt")),
    ("answer.html", include_str!("../../templates/answer.html")),
];

/// The width the plain-text parts are wrapped at.
pub const TEXT_WIDTH: usize = 72;

/// A template that does not parse or render: which one, where, why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("template {name}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
pub struct TemplateError {
    /// The template's file name.
    pub name: String,
    /// The line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl TemplateError {
    fn from_minijinja(fallback: &str, e: &minijinja::Error) -> TemplateError {
        let mut message = e.kind().to_string();
        if let Some(d) = e.detail() {
            message = format!("{message}: {d}");
        }
        TemplateError {
            name: e.name().unwrap_or(fallback).to_owned(),
            line: e.line(),
            message,
        }
    }
}

/// A rendered mail: both parts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rendered {
    /// The plain-text part.
    pub text: String,
    /// The HTML part.
    pub html: String,
}

/// The set of templates in use.
#[derive(Debug)]
pub struct Templates {
    env: Environment<'static>,
}

impl Templates {
    /// The built-in templates only.
    pub fn builtin() -> Templates {
        Templates::load(None).expect("the built-in templates parse")
    }

    /// A shared instance of the built-in templates.
    pub fn shared_builtin() -> &'static Templates {
        static T: OnceLock<Templates> = OnceLock::new();
        T.get_or_init(Templates::builtin)
    }

    /// The built-in templates, each replaced by the file of the same name
    /// in `dir` when there is one. Every template is parsed here, so a
    /// broken override is reported before any mail is rendered.
    pub fn load(dir: Option<&Path>) -> Result<Templates, TemplateError> {
        let mut env = Environment::new();
        env.set_syntax(
            minijinja::syntax::SyntaxConfig::builder()
                .trim_blocks(true)
                .lstrip_blocks(true)
                .keep_trailing_newline(true)
                .build()
                .expect("the default delimiters"),
        );
        env.set_undefined_behavior(minijinja::UndefinedBehavior::Strict);
        env.add_filter("wrap", wrap_filter);
        env.add_filter("lines", |s: String| -> Vec<String> {
            s.lines().map(str::to_owned).collect()
        });
        for (name, source) in BUILTIN {
            let source = match dir.map(|d| d.join(name)) {
                Some(path) if path.is_file() => {
                    std::fs::read_to_string(&path).map_err(|e| TemplateError {
                        name: (*name).to_owned(),
                        line: None,
                        message: format!("cannot read {}: {e}", path.display()),
                    })?
                }
                _ => (*source).to_owned(),
            };
            env.add_template_owned(*name, source)
                .map_err(|e| TemplateError::from_minijinja(name, &e))?;
        }
        Ok(Templates { env })
    }

    /// Renders one template.
    pub fn render<S: Serialize>(&self, name: &str, ctx: &S) -> Result<String, TemplateError> {
        let t = self.env.get_template(name).map_err(|e| TemplateError {
            name: name.to_owned(),
            line: None,
            message: e.to_string(),
        })?;
        t.render(minijinja::value::Serde(ctx))
            .map_err(|e| TemplateError::from_minijinja(name, &e))
    }

    /// Renders `KIND.txt` and `KIND.html`.
    pub fn render_mail<S: Serialize>(
        &self,
        kind: &str,
        ctx: &S,
    ) -> Result<Rendered, TemplateError> {
        Ok(Rendered {
            text: self.render(&format!("{kind}.txt"), ctx)?,
            html: self.render(&format!("{kind}.html"), ctx)?,
        })
    }
}

fn wrap_filter(value: String, width: Option<usize>, indent: Option<String>) -> String {
    wrap(
        &value,
        width.unwrap_or(TEXT_WIDTH),
        indent.as_deref().unwrap_or(""),
    )
}

/// Wraps every line of `text` longer than `width` characters at spaces;
/// continuation lines keep the line's own indentation plus `indent`. A word
/// longer than the width stays whole on its own line.
pub fn wrap(text: &str, width: usize, indent: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if line.chars().count() <= width {
            out.push_str(line);
            continue;
        }
        let lead: String = line.chars().take_while(|c| *c == ' ').collect();
        let cont = format!("{lead}{indent}");
        let mut current = lead.clone();
        let mut empty = true;
        for word in line[lead.len()..].split(' ').filter(|w| !w.is_empty()) {
            let needed = current.chars().count() + usize::from(!empty) + word.chars().count();
            if !empty && needed > width {
                out.push_str(&current);
                out.push('\n');
                current = cont.clone();
                empty = true;
            }
            if !empty {
                current.push(' ');
            }
            current.push_str(word);
            empty = false;
        }
        out.push_str(&current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_short_lines_and_indents_continuations() {
        assert_eq!(wrap("short\n", 10, "  "), "short\n");
        assert_eq!(
            wrap("  one two three four", 10, "  "),
            "  one two\n    three\n    four"
        );
        assert_eq!(
            wrap("averyveryverylongword x", 5, ""),
            "averyveryverylongword\nx"
        );
    }

    #[test]
    fn every_builtin_parses() {
        let t = Templates::builtin();
        for (name, _) in BUILTIN {
            assert!(t.env.get_template(name).is_ok(), "{name}");
        }
    }

    #[test]
    fn errors_name_the_template_and_line() {
        let dir = std::env::temp_dir().join(format!("adjutant-tpl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("receipt.txt"), "fine\n{% if %}\n").unwrap();
        let err = Templates::load(Some(&dir)).unwrap_err();
        assert_eq!(err.name, "receipt.txt");
        assert_eq!(err.line, Some(2));
        std::fs::write(dir.join("receipt.txt"), "line one\n{{ nothing.here }}\n").unwrap();
        let t = Templates::load(Some(&dir)).unwrap();
        let err = t.render("receipt.txt", &serde_json::json!({})).unwrap_err();
        assert_eq!((err.name.as_str(), err.line), ("receipt.txt", Some(2)));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_override_replaces_the_builtin_of_its_name() {
        let dir = std::env::temp_dir().join(format!("adjutant-tpl2-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("rejection.txt"), "Nope: {{ errors|length }}\n").unwrap();
        let t = Templates::load(Some(&dir)).unwrap();
        let ctx = serde_json::json!({"errors": ["a", "b"], "deadline": "none"});
        assert_eq!(t.render("rejection.txt", &ctx).unwrap(), "Nope: 2\n");
        assert!(t.render("rejection.html", &ctx).unwrap().contains("<html"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
