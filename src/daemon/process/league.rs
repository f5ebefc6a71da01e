//! The league's commands by mail (`docs/league.md`): `standings` (the
//! standings of the leagues the sender's match belongs to, from the league
//! files of `leagues_dir`), `list` (the sender's matches on this server,
//! each with its state and deadline) and `history` (an earlier turn report,
//! by `round:` and `stage:` or by `entry:`).
//!
//! Every answer is derived from the logs alone, read without opening the
//! matches for writing: the match the message is for is held open while it
//! is answered, and the others are only read.

use std::path::Path;

use crate::log::{Body, Entry};
use crate::matches::league::{LeagueFile, player_matches, standings, standings_text};
use crate::matches::organise::positions;
use crate::report::turn::report_entries;
use crate::rules::orders::header::HeaderLines;

use super::Daemon;

impl Daemon {
    /// The answer to `standings` for match `id` in `dir`: the standings of
    /// every league whose file lists it.
    pub(super) fn standings_answer(&self, id: &str, dir: &Path) -> String {
        let dir_name = dir
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let mut out = String::new();
        for (path, league) in league_files(&self.config.leagues_dir) {
            if !league.matches.iter().any(|m| *m == dir_name || m == id) {
                continue;
            }
            match standings(&league, &self.config.matches_dir) {
                Ok((rows, results)) => {
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(&standings_text(&league, &rows, &results));
                }
                Err(e) => {
                    tracing::warn!(league = %path.display(), error = %e, "standings not computed");
                    out.push_str(&format!(
                        "The standings of {} cannot be computed now; the organisers are told by the server's log.\n",
                        league.name
                    ));
                }
            }
        }
        if out.is_empty() {
            out = format!(
                "Match {id} belongs to no league on this server, so it has no standings.\n"
            );
        }
        out
    }

    /// The answer to `list`: every match on this server in which `from`
    /// plays a power, with its state and the current stage's deadline.
    pub(super) fn list_answer(&self, from: &str) -> String {
        let matches: Vec<(String, std::path::PathBuf)> = self
            .matches
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        let mut out = String::new();
        for listed in player_matches(&matches, from) {
            let line = listed.state.unwrap_or_else(|e| {
                tracing::warn!(match_id = %listed.id, error = %e, "match not read for list");
                "cannot be read now (the server's log says why)".to_owned()
            });
            out.push_str(&format!(
                "{}: you play {}\n    {line}\n    orders to {}\n",
                listed.id,
                listed.powers.join(", "),
                self.ours.for_match(&listed.id)
            ));
        }
        if out.is_empty() {
            out = "This address plays in no match on this server.\n".to_owned();
        }
        out
    }
}

/// The league files of `dir` (`*.yaml`, by name); one that does not read
/// is logged and left out.
fn league_files(dir: &Path) -> Vec<(std::path::PathBuf, LeagueFile)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = rd
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| {
            let text = std::fs::read_to_string(&p).ok()?;
            match serde_saphyr::from_str::<LeagueFile>(&text) {
                Ok(l) => Some((p, l)),
                Err(e) => {
                    tracing::warn!(league = %p.display(), error = %e, "league file does not read");
                    None
                }
            }
        })
        .collect()
}

/// The adjudication entries whose reports `command: history` asks for:
/// `entry: N` (one played stage's adjudication), or every played stage of
/// `round: R` on the match's current line (only stage `S` with `stage: S`),
/// in log order. Every problem
/// in words, with what would be valid.
pub(super) fn history_entries(entries: &[Entry], h: &HeaderLines) -> Result<Vec<u64>, String> {
    let reports = report_entries(entries);
    let rounds = || -> String {
        let last = entries.iter().rev().find_map(|e| match &e.body {
            Body::Adjudication(a) if a.stage != 0 => Some(a.round),
            _ => None,
        });
        match last {
            Some(r) => format!("the reports so far are of rounds 1 to {r}"),
            None => "no stage has been played yet: there is no report".to_owned(),
        }
    };
    let number = |key: &str, text: &str| -> Result<u64, String> {
        text.trim()
            .parse::<u64>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| format!("{key}: {text:?} is not a whole number from 1"))
    };
    match (&h.entry, &h.round) {
        (Some(_), Some(_)) => Err(
            "history takes either entry: (a report's log entry) or round: (with stage: if you like), not both".into(),
        ),
        (None, None) => Err(format!(
            "history needs round: (and stage: 1 or 2) or entry: (a report's log entry), e.g.\n\ncommand: history\nround: 1\nstage: 1\n\n({})",
            rounds()
        )),
        (Some(e), None) => {
            if h.stage.is_some() {
                return Err("stage: goes with round:, not with entry:".into());
            }
            let n = number("entry", e)?;
            if reports.contains(&n) {
                Ok(vec![n])
            } else {
                let recent: Vec<String> =
                    reports.iter().rev().take(8).rev().map(u64::to_string).collect();
                Err(format!(
                    "entry {n} is not the adjudication of a played stage, so it has no report; {}",
                    if recent.is_empty() {
                        rounds()
                    } else {
                        format!("the latest reports are entries {}", recent.join(", "))
                    }
                ))
            }
        }
        (None, Some(r)) => {
            let round = number("round", r)?;
            let stage = match h.stage.as_deref().map(str::trim) {
                None => None,
                Some("1") => Some(1),
                Some("2") => Some(2),
                Some(other) => return Err(format!("stage: {other:?} is not 1 or 2")),
            };
            // The match's current line: stages a rollback undid are asked
            // for by their entry only.
            let line = positions(entries);
            let found: Vec<u64> = entries
                .iter()
                .filter(|e| line.contains(&e.seq))
                .filter(|e| match &e.body {
                    Body::Adjudication(a) => {
                        a.stage != 0
                            && u64::from(a.round) == round
                            && stage.is_none_or(|s| a.stage == s)
                    }
                    _ => false,
                })
                .map(|e| e.seq)
                .collect();
            if found.is_empty() {
                Err(format!(
                    "round {round}{} has no report; {}",
                    stage.map(|s| format!(", stage {s},")).unwrap_or_default(),
                    rounds()
                ))
            } else {
                Ok(found)
            }
        }
    }
}
