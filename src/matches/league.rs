//! Leagues and standings (issue 21, item 5): a league is a `league.yaml`
//! naming its matches, organisers and scoring; its standings are derived
//! from the matches' logs alone (who played which power, how each match
//! ended, which deadlines were missed), so anyone holding the logs can
//! recompute them.
//!
//! A match ends in a victory (the engine's, `state.winner`, with the
//! reason its `Victory` event gave), when a side forfeits or resigns (an
//! organiser entry, `docs/daemon.md`; the other side of a two-sided game
//! then wins), or in a draw the organisers adjudicate. The rating is Elo
//! (`docs/league.md`): each finished match, in the order the matches ended
//! (by the time of the entry that ended each),
//! moves each player by `k * (score - expected)` (score 1, 0, or 1/2 for a
//! draw), where a side's rating is the mean of its players' and the
//! expected score is `1 / (1 + 10^((other - own) / 400))`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use chrono::{DateTime, Utc};

use serde::Deserialize;

use crate::log::{Body, DeadlineEvent, Entry, OrganiserAction};

use super::MatchError;
use super::deadlines::format_due;
use super::history::{game_of, read_log, state_at};
use super::organise::{paused_index, stage_clock_start};
use super::players::address_key;
use super::{PlayersFile, stage_of};

/// `league.yaml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeagueFile {
    /// The league's name.
    pub name: String,
    /// Who runs it (names, as the matches' players files list organisers).
    #[serde(default)]
    pub organisers: Vec<String>,
    /// Points and rating.
    #[serde(default)]
    pub scoring: Scoring,
    /// The league's matches: ids of match directories.
    pub matches: Vec<String>,
}

/// Points for a result and the rating's constants.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Scoring {
    /// Points for a win.
    pub win: f64,
    /// Points for a loss.
    pub loss: f64,
    /// Points for a draw.
    pub draw: f64,
    /// Elo: a new player's rating.
    pub initial_rating: f64,
    /// Elo: the most one match moves a rating.
    pub k: f64,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            win: 1.0,
            loss: 0.0,
            draw: 0.5,
            initial_rating: 1500.0,
            k: 32.0,
        }
    }
}

/// How a match stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Still being played.
    Ongoing,
    /// `side` won: `how`, in words; the log entry that decided it.
    Won {
        /// The winning side's name.
        side: String,
        /// Why (the victory's reason, or who forfeited or resigned).
        how: String,
        /// The deciding entry.
        entry: u64,
    },
    /// The organisers adjudicated a draw.
    Drawn {
        /// Why, as the organiser gave it (or empty).
        how: String,
        /// The deciding entry.
        entry: u64,
    },
}

impl Outcome {
    /// The entry that ended the match, if it ended.
    pub fn entry(&self) -> Option<u64> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Won { entry, .. } | Outcome::Drawn { entry, .. } => Some(*entry),
        }
    }

    /// The result in words: `Allies won (the Axis resigned; log entry 5)`.
    pub fn words(&self) -> String {
        match self {
            Outcome::Ongoing => "being played".to_owned(),
            Outcome::Won { side, how, entry } => format!("{side} won ({how}; log entry {entry})"),
            Outcome::Drawn { how, entry } if how.is_empty() => {
                format!("drawn (adjudicated by the organisers; log entry {entry})")
            }
            Outcome::Drawn { how, entry } => {
                format!("drawn (adjudicated by the organisers: {how}; log entry {entry})")
            }
        }
    }
}

/// One match of the league as its log tells it.
#[derive(Debug, Clone)]
pub struct MatchResult {
    /// The match id.
    pub id: String,
    /// The game id.
    pub game: String,
    /// How it stands.
    pub outcome: Outcome,
    /// Each player's name with their side, and the stages their powers
    /// were due and the deadlines they missed.
    pub players: Vec<PlayerInMatch>,
    /// When the entry that ended the match was written (the ratings take
    /// the matches in this order).
    pub ended_at: Option<DateTime<Utc>>,
}

/// A player in one match.
#[derive(Debug, Clone)]
pub struct PlayerInMatch {
    /// The player's name (genesis `players`, as a bid for sides left the
    /// seats).
    pub name: String,
    /// Their side.
    pub side: String,
    /// Stages their powers played (adjudications).
    pub stages: u32,
    /// Deadlines their powers missed.
    pub missed: u32,
}

/// A row of the standings.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The player.
    pub player: String,
    /// Finished matches won.
    pub wins: u32,
    /// Finished matches lost.
    pub losses: u32,
    /// Finished matches drawn.
    pub draws: u32,
    /// Matches still being played.
    pub current: u32,
    /// Points by the league's scoring.
    pub points: f64,
    /// The Elo rating.
    pub rating: f64,
    /// Stages played on time over stages played (1 when none missed).
    pub on_time: f64,
}

/// What a match's log says about it. The log is read, not opened for
/// writing, so a match the caller holds open (the daemon answering a
/// message of it) can be read too.
pub fn result_of(dir: &Path) -> Result<MatchResult, String> {
    let fail = |e: MatchError| format!("{}: {e}", dir.display());
    let entries = read_log(dir).map_err(fail)?;
    let genesis = match entries.first().map(|e| &e.body) {
        Some(Body::Genesis(g)) => g.clone(),
        _ => return Err(format!("{}: the log has no genesis", dir.display())),
    };
    let game = game_of(dir, &genesis).map_err(fail)?;
    let state = state_at(&game, &entries, u64::MAX).map_err(fail)?;
    result_from(&game, &genesis, &entries, &state)
}

/// What a match's log says about it, from its game, genesis, entries and
/// the state they replay to.
pub fn result_from(
    game: &crate::rules::GameDef,
    genesis: &crate::log::Genesis,
    entries: &[crate::log::Entry],
    state: &crate::rules::state::GameState,
) -> Result<MatchResult, String> {
    let side_name = |power: &str| -> Option<String> {
        let p = game.power(power)?;
        Some(game.files().game.sides[game.side_of(p)].name.clone())
    };
    let mut players: Vec<PlayerInMatch> = Vec::new();
    // A bid for sides may have exchanged the genesis's seats.
    let seats = super::bids::seats_after_bid(game, &genesis.players, entries);
    for (power, name) in &seats {
        let seat = crate::log::PlayerEntry {
            power: power.clone(),
            name: name.clone(),
        };
        let Some(side) = side_name(&seat.power) else {
            continue;
        };
        let stages = entries
            .iter()
            .filter(|e| matches!(&e.body, Body::Adjudication(a) if a.power == seat.power))
            .count() as u32;
        let missed = super::organise::missed(entries, &seat.power);
        match players
            .iter_mut()
            .find(|p| p.name == seat.name && p.side == side)
        {
            Some(p) => {
                p.stages += stages;
                p.missed += missed;
            }
            None => players.push(PlayerInMatch {
                name: seat.name.clone(),
                side,
                stages,
                missed,
            }),
        }
    }
    let sides: Vec<String> = game
        .files()
        .game
        .sides
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let ended = entries.iter().find(|e| {
        matches!(&e.body, Body::Organiser(o) if o.action == OrganiserAction::Draw
            || (matches!(o.action, OrganiserAction::Forfeit | OrganiserAction::Resign)
                && o.side.is_some()))
    });
    let outcome = if let Some(end) = ended.map(|e| e.seq) {
        let e = entries
            .iter()
            .find(|e| e.seq == end)
            .ok_or_else(|| format!("{}: entry {end} is not in the log", genesis.match_id))?;
        match &e.body {
            Body::Organiser(o) if o.action == OrganiserAction::Draw => Outcome::Drawn {
                how: o.text.clone().unwrap_or_default(),
                entry: end,
            },
            Body::Organiser(o) => {
                let loser = o.side.clone().unwrap_or_default();
                let verb = if o.action == OrganiserAction::Resign {
                    "resigned"
                } else {
                    "forfeited"
                };
                match sides.iter().find(|s| !s.eq_ignore_ascii_case(&loser)) {
                    Some(winner) if sides.len() == 2 => Outcome::Won {
                        side: winner.clone(),
                        how: format!("the {loser} {verb}"),
                        entry: end,
                    },
                    _ => Outcome::Ongoing,
                }
            }
            _ => Outcome::Ongoing,
        }
    } else if let Some(side) = state.winner {
        let (entry, how) = entries
            .iter()
            .rev()
            .find_map(|e| match &e.body {
                Body::Adjudication(a) => a
                    .events
                    .iter()
                    .find_map(|ev| ev.split_once(" win: ").map(|(_, why)| why.to_owned()))
                    .map(|why| (e.seq, why)),
                _ => None,
            })
            .unwrap_or((0, "victory".into()));
        Outcome::Won {
            side: sides[side].clone(),
            how,
            entry,
        }
    } else {
        Outcome::Ongoing
    };
    let ended_at = outcome.entry().and_then(|n| {
        entries
            .iter()
            .find(|e| e.seq == n)
            .and_then(super::organise::time_of)
    });
    Ok(MatchResult {
        id: genesis.match_id.clone(),
        game: game.id().to_owned(),
        outcome,
        players,
        ended_at,
    })
}

/// The league's standings: a row per player, best first (points, then
/// rating), and each match's result.
pub fn standings(
    league: &LeagueFile,
    matches_dir: &Path,
) -> Result<(Vec<Row>, Vec<MatchResult>), String> {
    let mut results = Vec::new();
    for id in &league.matches {
        results.push(result_of(&matches_dir.join(id))?);
    }
    let s = league.scoring;
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    let mut stages: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    for r in &results {
        for p in &r.players {
            let row = rows.entry(p.name.clone()).or_insert_with(|| Row {
                player: p.name.clone(),
                wins: 0,
                losses: 0,
                draws: 0,
                current: 0,
                points: 0.0,
                rating: s.initial_rating,
                on_time: 1.0,
            });
            match &r.outcome {
                Outcome::Ongoing => row.current += 1,
                Outcome::Won { side, .. } if *side == p.side => {
                    row.wins += 1;
                    row.points += s.win;
                }
                Outcome::Won { .. } => {
                    row.losses += 1;
                    row.points += s.loss;
                }
                Outcome::Drawn { .. } => {
                    row.draws += 1;
                    row.points += s.draw;
                }
            }
            let t = stages.entry(p.name.clone()).or_default();
            t.0 += p.stages;
            t.1 += p.missed;
        }
    }
    // Elo, in the order the matches ended.
    let mut finished: Vec<&MatchResult> = results
        .iter()
        .filter(|r| r.outcome.entry().is_some())
        .collect();
    // By time: the entry numbers of two logs say nothing of which match
    // ended first. (A stable sort: the league file's order breaks a tie.)
    finished.sort_by_key(|r| r.ended_at);
    for r in finished {
        // The first side is the one scored: the winners, or in a draw the
        // side of the first player (a draw scores 1/2 either way).
        let (first, score) = match &r.outcome {
            Outcome::Won { side, .. } => (side.clone(), 1.0),
            Outcome::Drawn { .. } => match r.players.first() {
                Some(p) => (p.side.clone(), 0.5),
                None => continue,
            },
            Outcome::Ongoing => continue,
        };
        let mean = |own: bool| -> f64 {
            let ratings: Vec<f64> = r
                .players
                .iter()
                .filter(|p| (p.side == first) == own)
                .map(|p| rows[&p.name].rating)
                .collect();
            ratings.iter().sum::<f64>() / ratings.len().max(1) as f64
        };
        let (own, other) = (mean(true), mean(false));
        let expected = 1.0 / (1.0 + 10f64.powf((other - own) / 400.0));
        for p in &r.players {
            let row = rows.get_mut(&p.name).expect("every player has a row");
            row.rating += if p.side == first {
                s.k * (score - expected)
            } else {
                s.k * ((1.0 - score) - (1.0 - expected))
            };
        }
    }
    for (name, (played, missed)) in stages {
        if played > 0 {
            rows.get_mut(&name).expect("a row").on_time =
                f64::from(played.saturating_sub(missed)) / f64::from(played);
        }
    }
    let mut rows: Vec<Row> = rows.into_values().collect();
    rows.sort_by(|a, b| {
        b.points
            .total_cmp(&a.points)
            .then(b.rating.total_cmp(&a.rating))
            .then(a.player.cmp(&b.player))
    });
    Ok((rows, results))
}

/// The standings as a table of text.
pub fn standings_text(league: &LeagueFile, rows: &[Row], results: &[MatchResult]) -> String {
    let mut out = format!("Standings of {}\n\n", league.name);
    out.push_str(&format!(
        "{:<20} {:>4} {:>4} {:>5} {:>4} {:>7} {:>7} {:>8}\n",
        "player", "won", "lost", "drawn", "now", "points", "rating", "on time"
    ));
    for r in rows {
        out.push_str(&format!(
            "{:<20} {:>4} {:>4} {:>5} {:>4} {:>7.1} {:>7.0} {:>7.0}%\n",
            r.player,
            r.wins,
            r.losses,
            r.draws,
            r.current,
            r.points,
            r.rating,
            r.on_time * 100.0
        ));
    }
    out.push_str("\nMatches\n");
    for m in results {
        out.push_str(&format!("{} ({}): {}\n", m.id, m.game, m.outcome.words()));
    }
    out
}

/// One match of a player, as `list` shows it (`command: list` by mail,
/// `adjutant league list` on the server).
#[derive(Debug, Clone)]
pub struct Listed {
    /// The match id.
    pub id: String,
    /// The powers the player's address plays in it.
    pub powers: Vec<String>,
    /// The match's state in one line (who is to move and the deadline, or
    /// how it ended), or why it cannot be read.
    pub state: Result<String, String>,
}

/// Every match of `matches` (id and directory) in which `address` plays a
/// power (by its players file), in the order given.
pub fn player_matches(matches: &[(String, PathBuf)], address: &str) -> Vec<Listed> {
    let me = address_key(address);
    let mut out = Vec::new();
    for (id, dir) in matches {
        let Some(file) = std::fs::read_to_string(dir.join("players.yaml"))
            .ok()
            .and_then(|t| serde_saphyr::from_str::<PlayersFile>(&t).ok())
        else {
            continue;
        };
        let seats: Vec<(&str, Option<&str>)> = file
            .players
            .iter()
            .filter(|(_, p)| address_key(&p.email) == me)
            .map(|(power, p)| (power, p.time_zone.as_deref()))
            .collect();
        if seats.is_empty() {
            continue;
        }
        let zone = seats.iter().find_map(|(_, z)| *z);
        out.push(Listed {
            id: id.clone(),
            powers: seats.iter().map(|(p, _)| (*p).to_owned()).collect(),
            state: match_state(dir, zone),
        });
    }
    out
}

/// The matches under `dir` (each a directory holding a log), by match id
/// (the genesis's), sorted; a directory without a readable genesis is left
/// out, and of two holding the same id the first by name is kept.
pub fn match_dirs(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let rd = std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
    for path in paths {
        if let Some(g) = super::history::genesis_of(&path) {
            found.entry(g.match_id).or_insert(path);
        }
    }
    Ok(found.into_iter().collect())
}

/// A match's state in one line: who is to move and the deadline, or how
/// it ended (`zone`: the reader's time zone, for the deadline).
pub fn match_state(dir: &Path, zone: Option<&str>) -> Result<String, String> {
    let fail = |e: crate::matches::MatchError| e.to_string();
    let entries = read_log(dir).map_err(fail)?;
    let Some(Body::Genesis(genesis)) = entries.first().map(|e| &e.body) else {
        return Err("the log has no genesis".into());
    };
    let game = game_of(dir, genesis).map_err(fail)?;
    let state = state_at(&game, &entries, u64::MAX).map_err(fail)?;
    let result = result_from(&game, genesis, &entries, &state)?;
    if result.outcome != Outcome::Ongoing {
        return Ok(format!(
            "{} ({}): {}",
            game.files().game.name,
            result.id,
            result.outcome.words()
        ));
    }
    let power = &game.powers()[state.current_power(&game)].name;
    let stage = stage_of(&state);
    let deadline = match paused_index(&entries) {
        Some(i) => format!("none while paused (log entry {})", entries[i].seq),
        None => match stage_due(&entries, power, state.round, stage) {
            Some(due) => match format_due(due, zone) {
                (utc, Some(local)) => format!("{utc} ({local})"),
                (utc, None) => utc,
            },
            None => "none set".to_owned(),
        },
    };
    Ok(format!(
        "{}: round {}, {power} to move (stage {stage}); deadline {deadline}",
        game.files().game.name,
        state.round
    ))
}

/// The deadline of the stage now waited for: its last `set` entry.
fn stage_due(entries: &[Entry], power: &str, round: u32, stage: u8) -> Option<DateTime<Utc>> {
    let (since, _) = stage_clock_start(entries)?;
    entries[since + 1..]
        .iter()
        .rev()
        .find_map(|e| match &e.body {
            Body::Deadline(d)
                if d.event == DeadlineEvent::Set
                    && d.power == power
                    && d.round == round
                    && d.stage == stage =>
            {
                DateTime::parse_from_rfc3339(&d.due)
                    .ok()
                    .map(|t| t.with_timezone(&Utc))
            }
            _ => None,
        })
}
