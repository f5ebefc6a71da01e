//! The static match archive (`adjutant archive`, `docs/reports.md`, "The
//! match archive"): a self-contained site for spectators, derived from
//! match logs alone. Plain HTML with inline CSS, no scripts and no external
//! resources: an index of matches, per match an index of its turns, a page
//! per turn (the map, the orders as accepted, what happened and changed,
//! the board, the trust block) linked to the turns before and after, a page
//! per battle with every die and its label, and the log itself with how to
//! verify it.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::control_chars::{self, Target};
use crate::log::Body;
use crate::matches::MatchError;
use crate::matches::history::{game_of, read_log, state_at};
use crate::rules::GameDef;

use super::map::{MapError, MapView, Shapes, render_svg};
use super::turn::{TurnReport, report_entries, space_prefix, turn_report_from};

/// Why a site could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// A match's log or game could not be read.
    #[error("{dir}: {source}")]
    Match {
        /// The match directory.
        dir: String,
        /// What went wrong.
        source: MatchError,
    },
    /// A file could not be read or written.
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// What went wrong.
        reason: String,
    },
    /// A directory that is no match and holds none.
    #[error("{0} holds no match log (log.jsonl), nor does any directory in it")]
    NoMatch(String),
}

fn io(path: &Path, e: impl std::fmt::Display) -> ArchiveError {
    ArchiveError::Io {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// What a site holds.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    /// Matches archived.
    pub matches: usize,
    /// Turn pages written.
    pub turns: usize,
    /// Battle pages written.
    pub battles: usize,
    /// Bytes written in all.
    pub bytes: u64,
    /// What the organiser must hear about although the site was written:
    /// a match whose pages have no map because its `map.yaml` or geometry
    /// is wrong, and why (`adjutant archive` prints them, the daemon logs
    /// them).
    pub warnings: Vec<String>,
}

/// The match directories named by `paths`: each one that holds a
/// `log.jsonl`, or else every directory in it that does (a matches
/// directory such as the daemon's), in name order.
pub fn match_dirs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ArchiveError> {
    let mut out = Vec::new();
    for p in paths {
        if p.join("log.jsonl").is_file() {
            out.push(p.clone());
            continue;
        }
        let mut found: Vec<PathBuf> = std::fs::read_dir(p)
            .map_err(|e| io(p, e))?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|d| d.join("log.jsonl").is_file())
            .collect();
        if found.is_empty() {
            return Err(ArchiveError::NoMatch(p.display().to_string()));
        }
        found.sort();
        out.extend(found);
    }
    Ok(out)
}

/// HTML-escaped text of a log or a player: control and format characters
/// shown as `<U+XXXX>`, never obeyed.
fn h(text: &str) -> String {
    let shown = control_chars::escape(text, Target::MailText);
    let mut out = String::with_capacity(shown.len());
    for c in shown.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A name safe as a directory of the site: letters, digits, `.`, `-`, `_`.
fn slug(id: &str) -> String {
    let s: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("m{s}")
    } else {
        s
    }
}

const STYLE: &str = "body{margin:0;padding:12px;font-family:Helvetica,Arial,sans-serif;font-size:16px;line-height:1.45;color:#1a1a1a;background:#fff}\
main{max-width:1100px;margin:0 auto}h1{font-size:22px;margin:0 0 6px}h2{font-size:18px;margin:18px 0 6px}\
nav{margin:0 0 10px;font-size:15px}nav a{margin-right:14px}img{max-width:100%;height:auto;border:1px solid #ddd}\
pre{white-space:pre-wrap;word-break:break-word;background:#f3f3f3;padding:8px;font-size:14px}\
code{word-break:break-all}table{border-collapse:collapse;font-size:14px}td,th{padding:3px 10px 3px 0;vertical-align:top;text-align:left;border-top:1px solid #ddd}\
.muted{color:#555}li{margin:0 0 3px}";

fn page(title: &str, nav: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<main>\n<nav>{nav}</nav>\n{body}</main>\n</body>\n</html>\n",
        h(title)
    )
}

/// One battle of a message: where, its lines (every die with its label,
/// casualties, decisions, retreats) and how it ended.
struct Battle {
    space: String,
    lines: Vec<String>,
    result: Option<String>,
}

/// The battles of an adjudication's events, in the order fought.
fn battles(game: &GameDef, events: &[String]) -> Vec<Battle> {
    let mut out: Vec<Battle> = Vec::new();
    for e in events {
        if let Some(rest) = e.strip_prefix("battle in ")
            && let Some(space) = space_prefix(game, rest)
            && rest[space.len()..].starts_with(" over after ")
        {
            match out
                .iter_mut()
                .rev()
                .find(|b| b.space == space && b.result.is_none())
            {
                Some(b) => b.result = Some(e.clone()),
                None => out.push(Battle {
                    space: space.to_owned(),
                    lines: Vec::new(),
                    result: Some(e.clone()),
                }),
            }
            continue;
        }
        if let Some(space) = space_prefix(game, e)
            && e[space.len()..].starts_with(": ")
        {
            match out
                .iter_mut()
                .rev()
                .find(|b| b.space == space && b.result.is_none())
            {
                Some(b) => b.lines.push(e.clone()),
                None => out.push(Battle {
                    space: space.to_owned(),
                    lines: vec![e.clone()],
                    result: None,
                }),
            }
        }
    }
    out
}

/// What one match contributes to the site's index (kept beside its pages
/// as `ID/summary.json`, so one match's refresh can rebuild the index).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
struct MatchSummary {
    id: String,
    slug: String,
    game: String,
    turns: usize,
    last: String,
}

/// Writes the site for the matches in `dirs` under `out`: `index.html`,
/// then per match `SLUG/index.html`, `SLUG/turn-SEQ.html` (with its map
/// `SLUG/map-SEQ.svg`), `SLUG/battle-SEQ-N.html` and `SLUG/log.jsonl`;
/// SLUG is the match id (`ID-2` for a second match of the same id).
/// Pages are rewritten whole, so a site refreshed after each stage stays
/// consistent.
pub fn write_site(dirs: &[PathBuf], out: &Path) -> Result<Written, ArchiveError> {
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let mut written = Written::default();
    let mut summaries = Vec::new();
    let mut taken = BTreeSet::new();
    for dir in dirs {
        summaries.push(write_match(dir, out, &mut taken, &mut written)?);
    }
    write_index(out, &summaries, &mut written)?;
    written.matches = summaries.len();
    Ok(written)
}

fn write_index(
    out: &Path,
    summaries: &[MatchSummary],
    written: &mut Written,
) -> Result<(), ArchiveError> {
    let mut body = String::from(
        "<h1>Match archive</h1>\n<p class=\"muted\">Every page is derived from the matches' logs alone; each match's page says how to verify its log.</p>\n<table>\n<tr><th>Match</th><th>Game</th><th>Turns</th><th>Latest</th></tr>\n",
    );
    for m in summaries {
        let _ = writeln!(
            body,
            "<tr><td><a href=\"{}/index.html\">{}</a></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            m.slug,
            h(&m.id),
            h(&m.game),
            m.turns,
            h(&m.last)
        );
    }
    body.push_str("</table>\n");
    put(
        &out.join("index.html"),
        page("Match archive", "", &body).as_bytes(),
        written,
    )?;
    Ok(())
}

/// Refreshes one match's pages in the site `out` (its own pages rewritten,
/// the other matches' pages kept) and the index of every match the site
/// holds: what the daemon runs after each stage (`archive:` in
/// `docs/daemon.md`). The match's directory in the site is its id.
pub fn refresh_match(dir: &Path, out: &Path) -> Result<Written, ArchiveError> {
    std::fs::create_dir_all(out).map_err(|e| io(out, e))?;
    let mut written = Written::default();
    let mut taken = BTreeSet::new();
    write_match(dir, out, &mut taken, &mut written)?;
    let mut summaries: Vec<MatchSummary> = std::fs::read_dir(out)
        .map_err(|e| io(out, e))?
        .filter_map(Result::ok)
        .filter_map(|e| std::fs::read(e.path().join("summary.json")).ok())
        .filter_map(|b| serde_json::from_slice(&b).ok())
        .collect();
    summaries.sort_by(|a, b| a.slug.cmp(&b.slug));
    write_index(out, &summaries, &mut written)?;
    written.matches = summaries.len();
    Ok(written)
}

fn put(path: &Path, bytes: &[u8], written: &mut Written) -> Result<(), ArchiveError> {
    // Written beside and renamed, so a reader never sees half a page.
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes).map_err(|e| io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| io(path, e))?;
    written.bytes += bytes.len() as u64;
    Ok(())
}

fn turn_title(r: &TurnReport) -> String {
    format!("Round {}: {}, {}", r.round, r.power, r.stages)
}

fn write_match(
    dir: &Path,
    site: &Path,
    taken: &mut BTreeSet<String>,
    written: &mut Written,
) -> Result<MatchSummary, ArchiveError> {
    let err = |source: MatchError| ArchiveError::Match {
        dir: dir.display().to_string(),
        source,
    };
    let entries = read_log(dir).map_err(err)?;
    let genesis = match entries.first().map(|e| &e.body) {
        Some(Body::Genesis(g)) => g.clone(),
        _ => return Err(err(MatchError::Invalid("the log has no genesis".into()))),
    };
    let game = game_of(dir, &genesis).map_err(err)?;
    // A game without map data (one of `--games DIR` that brings none) has
    // pages without a map, as documented; any other failure is the
    // organiser's to fix (a bad `map.yaml`, geometry that does not fit).
    let shapes = match Shapes::for_match(dir, &game, None) {
        Ok(s) => Some(s),
        Err(MapError::NoMap(_)) => None,
        Err(e) => {
            written.warnings.push(format!(
                "{}: the match's pages have no map: {e}",
                dir.display()
            ));
            None
        }
    };
    let mut map_failed = false;
    // Two matches of one id (copies, test matches) get `ID-2`, `ID-3`.
    let base = slug(&genesis.match_id);
    let slug = (1..)
        .map(|n| {
            if n == 1 {
                base.clone()
            } else {
                format!("{base}-{n}")
            }
        })
        .find(|s| !taken.contains(s))
        .unwrap_or(base);
    taken.insert(slug.clone());
    let out = site.join(&slug);
    std::fs::create_dir_all(&out).map_err(|e| io(&out, e))?;
    let log_bytes =
        std::fs::read(dir.join("log.jsonl")).map_err(|e| io(&dir.join("log.jsonl"), e))?;
    put(&out.join("log.jsonl"), &log_bytes, written)?;

    let seqs = report_entries(&entries);
    let reports: Vec<TurnReport> = seqs
        .iter()
        .map(|&s| turn_report_from(&game, &entries, s))
        .collect::<Result<_, _>>()
        .map_err(err)?;
    let game_name = game.files().game.name.clone();
    let head = entries.last().map(|e| (e.seq, e.hash.to_hex()));
    let mut rows = String::new();
    for (i, (&seq, r)) in seqs.iter().zip(&reports).enumerate() {
        let entry = &entries[(seq - 1) as usize];
        let fought = battles(&game, &r.events);
        let prev = i.checked_sub(1).map(|j| seqs[j]);
        let next = seqs.get(i + 1).copied();
        let mut nav = String::from(
            "<a href=\"../index.html\">All matches</a><a href=\"index.html\">This match</a>",
        );
        match prev {
            Some(p) => {
                let _ = write!(
                    nav,
                    "<a href=\"turn-{p}.html\" rel=\"prev\">&larr; Previous turn</a>"
                );
            }
            None => nav.push_str("<span class=\"muted\">&larr; Previous turn</span> "),
        }
        match next {
            Some(n) => {
                let _ = write!(
                    nav,
                    "<a href=\"turn-{n}.html\" rel=\"next\">Next turn &rarr;</a>"
                );
            }
            None => nav.push_str("<span class=\"muted\">Next turn &rarr;</span>"),
        }
        let mut body = format!(
            "<h1>{}</h1>\n<p class=\"muted\">{} &middot; match {} &middot; log entry {seq}</p>\n<p>Next: <strong>{}</strong> to move, {}.{}</p>\n",
            h(&turn_title(r)),
            h(&game_name),
            h(&r.match_id),
            h(&r.next_power),
            h(&r.next_stage),
            r.winner
                .as_ref()
                .map(|w| format!(" <strong>{} has won.</strong>", h(w)))
                .unwrap_or_default()
        );
        if let Some(shapes) = &shapes {
            let state = state_at(&game, &entries, seq).map_err(err)?;
            match render_svg(&game, shapes, &state, &MapView::after(&game, entry)) {
                Ok(svg) => {
                    put(&out.join(format!("map-{seq}.svg")), svg.as_bytes(), written)?;
                    let _ = writeln!(
                        body,
                        "<p><a href=\"map-{seq}.svg\"><img src=\"map-{seq}.svg\" alt=\"Map of the board after log entry {seq}\"></a></p>"
                    );
                }
                // Once per match: the same shapes fail the same way.
                Err(e) if !map_failed => {
                    map_failed = true;
                    written.warnings.push(format!(
                        "{}: the page of log entry {seq} and later ones may have no map: {e}",
                        dir.display()
                    ));
                }
                Err(_) => {}
            }
        }
        list(
            &mut body,
            "What changed",
            &r.changes,
            "Nothing changed hands.",
        );
        list(&mut body, "What happened", &r.summary, "Nothing to report.");
        if !fought.is_empty() {
            body.push_str("<h2>Battles</h2>\n<ul>\n");
            for (k, b) in fought.iter().enumerate() {
                let _ = writeln!(
                    body,
                    "<li><a href=\"battle-{seq}-{}.html\">{}</a>: {}</li>",
                    k + 1,
                    h(&b.space),
                    h(b.result
                        .as_deref()
                        .unwrap_or("fire before or outside a battle"))
                );
            }
            body.push_str("</ul>\n");
        }
        // The orders as accepted: the message's own order entries (after
        // the previous adjudication), in their canonical form.
        let from = entries[..(seq - 1) as usize]
            .iter()
            .rposition(|e| matches!(e.body, Body::Adjudication(_)))
            .map_or(0, |p| p + 1);
        body.push_str("<h2>Orders as accepted</h2>\n");
        for e in &entries[from..(seq - 1) as usize] {
            if let Body::Order(o) = &e.body {
                let _ = writeln!(
                    body,
                    "<p>{} (log entry {}, digest <code>{}</code>):</p>\n<pre>{}</pre>",
                    h(&o.power),
                    e.seq,
                    o.digest,
                    h(&o.canonical)
                );
            }
        }
        list(&mut body, "Every event", &r.events, "Nothing to report.");
        body.push_str("<h2>The board after the turn</h2>\n<table>\n");
        for row in &r.board {
            let _ = writeln!(body, "<tr><td>{}</td></tr>", h(&row.text));
        }
        body.push_str("</table>\n<h2>Treasuries</h2>\n<table>\n<tr><th>Power</th><th>IPCs</th><th>Income</th><th>Production</th></tr>\n");
        for t in &r.ipcs {
            let _ = writeln!(
                body,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                h(&t.power),
                t.ipcs,
                t.income,
                h(&t.capacity)
            );
        }
        body.push_str("</table>\n");
        list(&mut body, "Victory", &r.victory, "");
        trust(&mut body, r);
        let title = format!("{}: {}", r.match_id, turn_title(r));
        put(
            &out.join(format!("turn-{seq}.html")),
            page(&title, &nav, &body).as_bytes(),
            written,
        )?;
        written.turns += 1;

        for (k, b) in fought.iter().enumerate() {
            let nav = format!(
                "<a href=\"../index.html\">All matches</a><a href=\"index.html\">This match</a><a href=\"turn-{seq}.html\">Back to the turn</a>"
            );
            let mut body = format!(
                "<h1>Battle in {}</h1>\n<p class=\"muted\">{} &middot; {} &middot; log entry {seq}</p>\n<p><strong>{}</strong></p>\n",
                h(&b.space),
                h(&r.match_id),
                h(&turn_title(r)),
                h(b.result
                    .as_deref()
                    .unwrap_or("fire before or outside a battle"))
            );
            list(
                &mut body,
                "Every die, casualty and decision",
                &b.lines,
                "No dice.",
            );
            let needle = format!("/{}/", b.space);
            body.push_str("<h2>The dice by label</h2>\n<table>\n<tr><th>Label</th><th>Sides</th><th>Values</th></tr>\n");
            for g in r.trust.dice.iter().filter(|g| g.label.contains(&needle)) {
                let values: Vec<String> = g.values.iter().map(u32::to_string).collect();
                let _ = writeln!(
                    body,
                    "<tr><td><code>{}</code></td><td>d{}</td><td>{}</td></tr>",
                    h(&g.label),
                    g.sides,
                    values.join(", ")
                );
            }
            body.push_str("</table>\n");
            trust(&mut body, r);
            put(
                &out.join(format!("battle-{seq}-{}.html", k + 1)),
                page(
                    &format!("{}: battle in {}", r.match_id, b.space),
                    &nav,
                    &body,
                )
                .as_bytes(),
                written,
            )?;
            written.battles += 1;
        }
        let _ = writeln!(
            rows,
            "<tr><td>{}</td><td>{}</td><td><a href=\"turn-{seq}.html\">{}</a></td><td>{}</td></tr>",
            r.round,
            h(&r.power),
            h(&r.stages),
            fought.len()
        );
    }

    let mut body = format!(
        "<h1>Match {}</h1>\n<p class=\"muted\">{}</p>\n",
        h(&genesis.match_id),
        h(&game_name)
    );
    if !genesis.players.is_empty() {
        body.push_str("<h2>Seats</h2>\n<ul>\n");
        for p in &genesis.players {
            let _ = writeln!(body, "<li>{}: {}</li>", h(&p.power), h(&p.name));
        }
        body.push_str("</ul>\n");
    }
    let _ = write!(
        body,
        "<h2>Turns</h2>\n<table>\n<tr><th>Round</th><th>Power</th><th>Played</th><th>Battles</th></tr>\n{rows}</table>\n"
    );
    if reports.is_empty() {
        body.push_str("<p>No turn has been played yet.</p>\n");
    }
    if let Some((seq, hash)) = &head {
        let _ = write!(
            body,
            "<h2>The log and how to verify it</h2>\n<p>The whole log: <a href=\"log.jsonl\">log.jsonl</a> ({} entries). Its head, the hash of entry {seq}:<br><code>{hash}</code></p>\n\
             <p>Anyone can check the hash chain, every commitment against its reveal, every order digest and every die, without trusting the server, with Adjutant or with its independent Python verifier (standard library only, <code>tools/verify_dice.py</code> in Adjutant's sources):</p>\n\
             <pre>adjutant verify log.jsonl --head {hash}\npython3 tools/verify_dice.py log.jsonl</pre>\n\
             <p>A head quoted in a player's receipt or turn report that appears in this log proves the log was not rewritten before it.</p>\n",
            entries.len()
        );
    }
    put(
        &out.join("index.html"),
        page(
            &format!("Match {}", genesis.match_id),
            "<a href=\"../index.html\">All matches</a>",
            &body,
        )
        .as_bytes(),
        written,
    )?;
    let last = match reports.last() {
        Some(r) => turn_title(r),
        None => "no turn yet".to_owned(),
    };
    let summary = MatchSummary {
        id: genesis.match_id.clone(),
        slug,
        game: game_name,
        turns: reports.len(),
        last,
    };
    let json = serde_json::to_vec(&summary).expect("a summary serializes");
    put(&out.join("summary.json"), &json, written)?;
    Ok(summary)
}

fn list(body: &mut String, title: &str, items: &[String], none: &str) {
    let _ = writeln!(body, "<h2>{}</h2>", h(title));
    if items.is_empty() {
        if !none.is_empty() {
            let _ = writeln!(body, "<p>{}</p>", h(none));
        }
        return;
    }
    body.push_str("<ul>\n");
    for i in items {
        let _ = writeln!(body, "<li>{}</li>", h(i));
    }
    body.push_str("</ul>\n");
}

fn trust(body: &mut String, r: &TurnReport) {
    let t = &r.trust;
    let _ = write!(
        body,
        "<h2>Trust</h2>\n<p>Dice turn {}, commitment <code>{}</code>; {}.</p>\n<p>Log entry {}, head <code>{}</code>. <a href=\"log.jsonl\">The log</a>; check it with <code>adjutant verify log.jsonl --head {}</code> or <code>python3 tools/verify_dice.py log.jsonl</code>.</p>\n",
        t.turn,
        h(&t.commitment),
        match &t.secret {
            Some(s) => format!("its secret, revealed: <code>{}</code>", h(s)),
            None => "its secret is not revealed yet".to_owned(),
        },
        t.seq,
        h(&t.head),
        h(&t.head)
    );
}
