//! Tidy tests: what each layer does not know, checked on the sources (as
//! rust-analyzer's tidy tests do). The rules engine is pure: it imports
//! nothing from the layers around it (mail, daemon, log, reports, matches,
//! the command line), reads no clock, touches files only where games are
//! loaded, and draws no random number but through the dice it is handed.
//! docs/architecture.md states the same rules.

use std::path::{Path, PathBuf};

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The lines of a source file that are code: comments left out, and the
/// unit tests at its end (`#[cfg(test)]` before `mod tests`), which may read
/// the repository's games.
fn code_lines(path: &Path) -> Vec<(usize, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]")
            && lines
                .get(i + 1)
                .is_some_and(|n| n.trim_start().starts_with("mod tests"))
        {
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        let code = match t.find("//") {
            // A `//` inside a string (a URL) is not a comment; good enough
            // for the patterns below, which never follow one.
            Some(c) if !t[..c].contains('"') => &t[..c],
            _ => t,
        };
        out.push((i + 1, code.to_owned()));
    }
    out
}

/// Places in the engine's sources (`src/rules`) whose code contains one of
/// `patterns`, outside the files `allowed` (paths relative to `src/rules`).
fn engine_lines_with(patterns: &[&str], allowed: &[&str]) -> Vec<String> {
    lines_with("src/rules", patterns, allowed)
}

/// Places under `dir` (a path from the repository root) whose code contains
/// one of `patterns`, outside the files `allowed` (paths relative to `dir`).
fn lines_with(dir: &str, patterns: &[&str], allowed: &[&str]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut found = Vec::new();
    for file in rust_files(&root) {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if allowed.contains(&rel.as_str()) {
            continue;
        }
        for (n, line) in code_lines(&file) {
            if let Some(p) = patterns.iter().find(|p| line.contains(*p)) {
                found.push(format!("{dir}/{rel}:{n}: `{p}` in `{}`", line.trim()));
            }
        }
    }
    found
}

#[test]
fn the_engine_imports_nothing_from_the_layers_around_it() {
    let found = engine_lines_with(
        &[
            "crate::mail",
            "crate::daemon",
            "crate::log",
            "crate::report",
            "crate::matches",
            "crate::cli",
            "crate::import",
        ],
        &[],
    );
    assert!(
        found.is_empty(),
        "the rules engine must not know mail, daemon, log, reports, matches, the command \
         line or the importer:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_engine_reads_no_clock() {
    let found = engine_lines_with(
        &[
            "SystemTime",
            "Instant",
            "Utc::now",
            "Local::now",
            "chrono",
            "std::time",
        ],
        &[],
    );
    assert!(
        found.is_empty(),
        "the rules engine reads no clock (time comes in with the orders and the log):\n{}",
        found.join("\n")
    );
}

#[test]
fn the_engine_touches_files_only_where_games_are_loaded() {
    let found = engine_lines_with(
        &[
            "std::fs",
            "File::",
            "OpenOptions",
            "read_dir",
            "std::env",
            "std::net",
            "std::process",
            "println!",
            "eprintln!",
        ],
        // Loading a game from its directory, and the built-in games.
        &["load.rs", "builtin.rs"],
    );
    assert!(
        found.is_empty(),
        "only the game loader reads files; the engine does no other I/O:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_engine_draws_random_numbers_only_through_the_dice_it_is_handed() {
    let found = engine_lines_with(
        &[
            "rand::",
            "rand_core",
            "rand_chacha",
            "thread_rng",
            "getrandom",
        ],
        // The odds calculator's Monte Carlo estimate: a generator seeded
        // from the question, never adjudication dice (docs/odds.md).
        &["odds/monte_carlo.rs"],
    );
    assert!(
        found.is_empty(),
        "adjudication randomness comes only from the DiceSource handed in:\n{}",
        found.join("\n")
    );
}

/// The checks above find what they look for: each pattern list catches a
/// line written the way the engine would write it.
#[test]
fn the_tidy_scanner_sees_code_and_skips_comments_and_unit_tests() {
    let dir = std::env::temp_dir().join(format!("adjutant-tidy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sample.rs");
    std::fs::write(
        &file,
        "//! uses crate::mail in a comment\n\
         use crate::log::Entry; // a real import\n\
         let t = std::time::SystemTime::now();\n\
         #[cfg(test)]\n\
         mod tests {\n\
             use std::fs;\n\
         }\n",
    )
    .unwrap();
    let lines = code_lines(&file);
    std::fs::remove_dir_all(&dir).unwrap();
    let text: Vec<&str> = lines.iter().map(|(_, l)| l.as_str()).collect();
    assert_eq!(
        text,
        [
            "use crate::log::Entry; ",
            "let t = std::time::SystemTime::now();"
        ]
    );
    assert_eq!(lines[0].0, 2);
}

/// `docs/architecture.md`'s "Find a rule by its name": every file it names
/// exists, and every function it names after a file is defined in it.
#[test]
fn the_rule_index_names_only_real_files_and_functions() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/architecture.md")).unwrap();
    let start = doc
        .find("## Find a rule by its name")
        .expect("docs/architecture.md has the rule index");
    let section = &doc[start..];
    let end = section[3..].find("\n## ").map_or(section.len(), |e| e + 3);
    let mut rows = 0;
    let mut wrong = Vec::new();
    for line in section[..end].lines().filter(|l| l.starts_with("| ")) {
        let Some(cell) = line.trim_end_matches('|').rsplit('|').next() else {
            continue;
        };
        let mut file: Option<String> = None;
        for (i, piece) in cell.split('`').enumerate() {
            if i % 2 == 0 {
                // Text between code spans: a `:` after a path introduces
                // its functions; anything else ends them.
                if !piece.trim().is_empty() && !piece.trim().starts_with(':') && piece != ", " {
                    file = None;
                }
                continue;
            }
            if piece.starts_with("src/") {
                rows += 1;
                if !root.join(piece).is_file() {
                    wrong.push(format!("no file {piece}"));
                }
                file = Some(piece.to_owned());
            } else if let Some(f) = &file {
                let text = std::fs::read_to_string(root.join(f)).unwrap_or_default();
                if !text.contains(&format!("fn {piece}("))
                    && !text.contains(&format!("fn {piece}<"))
                {
                    wrong.push(format!("no fn {piece} in {f}"));
                }
            }
        }
    }
    assert!(rows >= 30, "the index names only {rows} files");
    assert!(
        wrong.is_empty(),
        "docs/architecture.md's rule index: {wrong:?}"
    );
}

/// Options are read through their typed declarations
/// (`src/rules/options.rs`), never by a name written as a string in engine
/// code.
#[test]
fn no_option_is_read_by_its_name_outside_the_option_module() {
    let found = engine_lines_with(
        &["option(\"", "o.name == \"", "s.name == \""],
        &["options.rs"],
    );
    assert!(
        found.is_empty(),
        "read options with their OptionSpec (LOW_LUCK.on(game), ...), not by name:\n{}",
        found.join("\n")
    );
}

/// No branch on a game's or rule set's name in the engine: what differs
/// between rule sets lives in `src/rules/variants/` behind a hook, and the
/// built-in games are listed once in `builtin.rs`.
#[test]
fn the_engine_branches_on_no_game_name_outside_the_rule_set_modules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/rules/variants");
    let variants: Vec<String> = rust_files(&root)
        .iter()
        .map(|f| {
            format!(
                "variants/{}",
                f.strip_prefix(&root).unwrap().to_string_lossy()
            )
        })
        .collect();
    let mut allowed: Vec<&str> = variants.iter().map(String::as_str).collect();
    allowed.push("builtin.rs");
    let found = engine_lines_with(
        &[
            "id() == \"",
            ".id == \"",
            "rule_set == \"",
            "\"aae\"",
            "\"anniversary",
            "\"classic\"",
            "\"jboulton\"",
            "\"advanced_aae\"",
            "\"generic\"",
        ],
        &allowed,
    );
    assert!(
        found.is_empty(),
        "a rule that differs between games belongs to a rule-set hook, not a branch on a name:\n{}",
        found.join("\n")
    );
}

/// The layers under the mail: the dice and the log know nothing of matches,
/// reports, mail, the daemon or the command line; matches know nothing of
/// reports, mail, the daemon or the command line (a stage's name, say, is
/// the game's vocabulary, in `rules::state`).
#[test]
fn dice_log_and_matches_know_nothing_of_the_layers_above_them() {
    let above_matches = [
        "crate::report",
        "crate::mail",
        "crate::daemon",
        "crate::cli",
    ];
    let mut found = lines_with("src/matches", &above_matches, &[]);
    let mut above_log = above_matches.to_vec();
    above_log.push("crate::matches");
    found.extend(lines_with("src/log", &above_log, &[]));
    found.extend(lines_with("src/dice", &above_log, &[]));
    assert!(
        found.is_empty(),
        "a lower layer imports a higher one:\n{}",
        found.join("\n")
    );
}

/// The vocabulary (spaces, powers, unit types, unit lists, developments)
/// lives at the bottom, in `src/rules/vocab.rs`: no module outside the
/// orders reaches into `orders` for it, and the state does not import
/// research (which imports the state) for the developments.
#[test]
fn the_vocabulary_is_taken_from_its_own_module() {
    let vocab = ["PowerId", "UnitTypeId", "UnitList", "UnitCount"];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    for file in rust_files(&root) {
        let rel = file
            .strip_prefix(&root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if rel.starts_with("rules/orders/") {
            continue;
        }
        let code: String = code_lines(&file)
            .into_iter()
            .map(|(_, l)| l)
            .collect::<Vec<_>>()
            .join(" ");
        for (at, _) in code.match_indices("orders::") {
            let rest = &code[at + "orders::".len()..];
            let named = if let Some(inner) = rest.strip_prefix('{') {
                &inner[..inner.find('}').unwrap_or(inner.len())]
            } else {
                &rest[..rest
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len())]
            };
            for word in named.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
                if vocab.contains(&word) {
                    found.push(format!("src/{rel}: {word} from orders"));
                }
            }
        }
        if rel == "rules/state.rs" && code.contains("research::") {
            found.push("src/rules/state.rs imports research".into());
        }
    }
    assert!(
        found.is_empty(),
        "take the vocabulary from crate::rules::vocab:\n{}",
        found.join("\n")
    );
}
