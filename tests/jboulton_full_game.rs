//! A scripted J Boulton game (issue 18, item 11): the test bot plays the
//! four powers of Axis & Allies: Europe with every J Boulton addition on
//! (`games/aae-jboulton/` at its defaults) through `Match::submit`, the mail
//! daemon's path with real commit-reveal dice, and scripted orders
//! (`common/jboulton_script.rs`) put the new units and rules into real
//! play: mechanized infantry and heavy armor attacking, air transports
//! dropping paratroopers (AA fire at the carriers, the landing roll, the
//! surprise first strike, the paratrooper at 2) and carrying an infantry
//! to Sicily, which Allied warships cut off (isolation), British landings
//! from the English Channel (Normandy coastal fire), battleships fighting
//! until one takes a hit (the damage table). Each must leave its trace in
//! the log, its labelled dice or its event ([`evidence`]).
//!
//! The dice are real, so a rule that needs a particular roll (a 6 on
//! landing, a hit on a battleship) or a front the bot reaches can take
//! several tries: a game goes on past round 6 until every trace is in the
//! logs, up to round 24, and up to three games are played; the test fails
//! naming what never happened. For each game the real `adjutant verify`
//! replays the log through the engine, the independent Python verifier
//! checks its dice, and a forged die is caught by both.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod common;
#[path = "common/jboulton_script.rs"]
mod jboulton_script;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use adjutant::log::{Body, parse_line};
use adjutant::matches::Match;

/// The game is at least this long.
const MIN_ROUNDS: u32 = 6;
/// ... and goes on until every trace is in the log, at most this long.
const MAX_ROUNDS: u32 = 24;

const PLAYERS: &str = "match: jb-scripted-01\nplayers:\n  \
    Germany: {name: Alice, email: alice@example.org}\n  \
    Soviet Union: {name: Boris, email: boris@example.org}\n  \
    United Kingdom: {name: Clem, email: clem@example.org}\n  \
    United States: {name: Dora, email: dora@example.org}\n";

/// The dice labels of the log so far and every event of the receipts.
#[derive(Default)]
struct Trace {
    labels: BTreeSet<String>,
    events: Vec<String>,
    /// Special force teams of one flight landed in two territories (a
    /// message with `drop:` whose team landings name two of them).
    multi_drop: bool,
}

/// The territories of the landing rolls of special force teams in one
/// message's events (`... special force team ... (paradrop/T/landing...`).
fn team_landings(events: &[String]) -> BTreeSet<String> {
    events
        .iter()
        .filter(|e| e.contains("special force team"))
        .filter_map(|e| e.split("(paradrop/").nth(1))
        .filter_map(|rest| rest.split_once("/landing").map(|(t, _)| t.to_owned()))
        .collect()
}

impl Trace {
    fn label(&self, f: impl Fn(&str) -> bool) -> bool {
        self.labels.iter().any(|l| f(l))
    }

    fn event(&self, text: &str) -> bool {
        self.events.iter().any(|e| e.contains(text))
    }
}

/// Whether a trace shows one rule in play.
type Seen = fn(&Trace) -> bool;

/// What the log must show: one trace for each new unit and rule in play,
/// each a labelled die (docs/rules/combat-labels.md) or an event.
fn evidence() -> Vec<(&'static str, Seen)> {
    vec![
        ("mechanized infantry fired in a battle", |t| {
            t.label(|l| l.starts_with("battle/") && l.ends_with("/mechanized infantry"))
        }),
        ("heavy armor fired in a battle", |t| {
            t.label(|l| l.starts_with("battle/") && l.ends_with("/heavy armor"))
        }),
        ("an AA gun fired at an air transport", |t| {
            t.label(|l| l.starts_with("aa/") && l.ends_with("/air transport"))
        }),
        ("the defender's landing roll", |t| {
            t.label(|l| l.starts_with("paradrop/") && l.ends_with("/landing"))
        }),
        // The strike follows a 6 on the landing roll, one chance in six a
        // paratrooper: a game may see none, but a 6 without its strike fails.
        (
            "a paratrooper's surprise first strike after its 6 on landing",
            |t| {
                !t.event("surprise, a first strike")
                    || t.label(|l| l.ends_with("/first-strike/paradropped paratrooper"))
            },
        ),
        (
            "a dropped paratrooper attacked (at 2) in a battle round",
            |t| {
                t.label(|l| {
                    l.starts_with("battle/") && l.ends_with("/attacker/paradropped paratrooper")
                })
            },
        ),
        ("a territory out of supply", |t| {
            t.event("out of supply this turn")
        }),
        ("Normandy coastal fire", |t| {
            t.label(|l| l == "coastal/English Channel")
        }),
        ("a battleship rolled on the damage table", |t| {
            t.label(|l| l.ends_with("/battleship damage"))
        }),
        // Germany's special force teams walk in with its attackers: the
        // defender rolls to detect them.
        (
            "an air transport dropped special force teams into two territories in one flight",
            |t| t.multi_drop,
        ),
        ("a special force team faced detection", |t| {
            t.label(|l| l.starts_with("sft/") && l.contains("/detection/"))
        }),
        // Detection may find every team (one chance in six a searching
        // unit): a game may see no mission, but a team left unseen
        // without its mission roll fails.
        // A second team walks to an enemy industrial complex and strikes
        // it: detected first, or rolling for the mission.
        ("a special force team tried an Industrial Strike", |t| {
            t.event("Industrial Strike") || t.event("before its mission")
        }),
        (
            "a special force team not detected rolled for its mission",
            |t| {
                !t.event("was not detected")
                    || t.label(|l| l.starts_with("sft/") && l.contains("/mission/"))
            },
        ),
    ]
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("jb-scripted-01")
}

/// Adds every dice label of the log to the trace.
fn read_labels(log: &Path, trace: &mut Trace) {
    let bytes = std::fs::read(log).unwrap();
    for line in bytes.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        if let Body::Dice(d) = parse_line(line).unwrap().body {
            for g in d.rolls {
                trace.labels.insert(g.label.as_str().to_owned());
            }
        }
    }
}

/// How many games may be played for every trace to show.
const MAX_GAMES: u32 = 3;

#[test]
fn a_scripted_jboulton_game_uses_every_new_unit_and_verifies() {
    // The traces of every game played, each of them verified whole: a
    // rule that needs a particular roll or a front the bot reaches may
    // miss one game; it must show in one of at most three.
    let mut trace = Trace::default();
    let mut games = 0;
    while games < MAX_GAMES {
        games += 1;
        play_and_verify(games, &mut trace);
        if evidence().iter().all(|(_, seen)| seen(&trace)) {
            break;
        }
    }
    let missing: Vec<&str> = evidence()
        .into_iter()
        .filter(|(_, seen)| !seen(&trace))
        .map(|(what, _)| what)
        .collect();
    assert!(
        missing.is_empty(),
        "never happened in {games} games: {missing:?}\nlabels: {:?}",
        trace.labels
    );
}

/// Plays game `n` until every trace is in `trace` (past round 6, up to
/// round 24), adding its labels and events, and checks its log with both
/// verifiers, the replay and a forged die.
fn play_and_verify(n: u32, trace: &mut Trace) {
    let dir = fresh_dir(&format!("jboulton-full-game-{n}"));
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut m = Match::create(&dir, &games, "aae-jboulton", PLAYERS).unwrap();
    let log_path = dir.join("log.jsonl");
    // Capitals are not attacked, so that the game lasts until every rule
    // has shown itself.
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
        ..aae_bot::BotConfig::default()
    };
    let mut messages = 0;
    let mut unused: Vec<String> = Vec::new();
    loop {
        let state = m.state().clone();
        let seen_all = evidence().iter().all(|(_, seen)| seen(trace));
        if state.winner.is_some()
            || state.round > MAX_ROUNDS
            || (state.round > MIN_ROUNDS && seen_all)
        {
            break;
        }
        let game = m.game().clone();
        let power = game.powers()[state.current_power(&game)].name.clone();
        let o = jboulton_script::orders(&game, &state, cfg);
        for first in &o.used {
            eprintln!("round {}: {power}: {first}", state.round);
        }
        unused.extend(
            o.unused
                .iter()
                .map(|first| format!("round {}: {power}: {first}", state.round)),
        );
        let yaml = o.yaml;
        let receipt = match m.submit(&power, &yaml) {
            Ok(Ok(r)) => r,
            Ok(Err(errors)) => panic!(
                "the match refused checked orders:\n{yaml}\n{}",
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            Err(e) => panic!("the match failed on these orders: {e}\n{yaml}"),
        };
        messages += 1;
        if yaml.contains("drop:") && team_landings(&receipt.events).len() >= 2 {
            trace.multi_drop = true;
        }
        trace.events.extend(receipt.events);
        read_labels(&log_path, trace);
    }
    let state = m.state().clone();
    eprintln!(
        "jboulton: game {n}: {messages} messages, round {}, {} dice labels in all",
        state.round,
        trace.labels.len()
    );
    for u in &unused {
        eprintln!("jboulton: a scripted order the bot's repair dropped: {u}");
    }
    assert!(state.round > MIN_ROUNDS, "{} rounds", state.round - 1);

    // Both verifiers, the replay and a forged die.
    common::assert_a_played_match_verifies(m, messages, "jboulton");
}
