//! A scripted Classic game (issue 17, item 10): the test bot plays the five
//! powers of Axis & Allies Classic as DAAK plays it for 6 rounds through
//! `Match::submit`, the mail daemon's path (real commit-reveal dice), with
//! British standing orders for DAAK's submarine withdrawal and strategic
//! bombing raids off the bank; then the real `adjutant verify` replays the
//! log through the engine, the independent Python verifier checks its dice,
//! and a forged die is caught by both.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod common;

use std::path::{Path, PathBuf};

use adjutant::log::{Body, parse_line};
use adjutant::matches::Match;

const ROUNDS: u32 = 6;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("daak-classic-01")
}

#[test]
fn six_rounds_of_classic_verify_and_a_forged_die_is_caught() {
    let dir = fresh_dir("classic-full-game");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let players = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/classic-players.yaml"),
    )
    .unwrap();
    let mut m = Match::create(&dir, &games, "classic", &players).unwrap();

    // DAAK's standing orders from a power not to move: an order of loss and
    // submarines that withdraw after the first round of a sea battle.
    let standing = "power: United Kingdom\nstanding:\n  losses: infantry, armor, transport, submarine, fighter\n  submarines: {withdraw_after_round: 1}\n";
    m.submit("United Kingdom", standing).unwrap().unwrap();
    let cfg = aae_bot::BotConfig {
        bombing_raids: true,
        ..aae_bot::BotConfig::default()
    };
    let played = aae_bot::play(&mut m, ROUNDS, cfg);
    let messages = played.messages + 1;

    let state = m.state().clone();
    match state.winner {
        Some(side) => eprintln!(
            "classic: won by the {} in round {}",
            m.game().files().game.sides[side].name,
            state.round
        ),
        None => {
            assert_eq!(state.round, ROUNDS + 1, "all {ROUNDS} rounds were played");
            assert_eq!(played.messages, 2 * 5 * ROUNDS as usize);
        }
    }
    assert!(
        played.battles >= 5,
        "only {} battles were fought",
        played.battles
    );
    // Bombers in reach of an enemy complex raid from round 1 (the bot's
    // choice, whatever the dice); the raids' losses come off the bank.
    assert!(played.raids >= 1, "{} raids declared", played.raids);
    let refused = played.dropped.iter().find(|d| d.contains("raid"));
    assert!(refused.is_none(), "{refused:?}");
    for (p, ipcs) in state.ipcs.iter().enumerate() {
        assert!(
            *ipcs < 10_000,
            "{} has {ipcs} IPCs",
            m.game().powers()[p].name
        );
    }

    let log_path = dir.join("log.jsonl");
    let log = std::fs::read(&log_path).unwrap();
    let text = String::from_utf8_lossy(&log);
    assert!(text.contains("bombing_raid"), "a raid in the log");
    let mut dice = 0;
    for line in log.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let e = parse_line(line).unwrap();
        if let Body::Dice(d) = &e.body {
            dice += d.rolls.iter().map(|g| g.values.len()).sum::<usize>();
        }
    }
    assert!(dice >= 40, "{dice} dice");
    eprintln!(
        "classic: {messages} accepted messages, {} battles ({} ended), {} raids, {dice} dice, \
         {} candidate orders dropped",
        played.battles,
        played.battle_ends,
        played.raids,
        played.dropped.len()
    );
    for d in &played.dropped {
        eprintln!("classic: dropped: {d}");
    }

    // The real binary replays the whole match through the engine, the
    // independent verifier agrees on the dice, and a forged die is caught.
    common::assert_a_played_match_verifies(m, messages, "classic");
}

/// The driver for profiling Classic's verify (issue 17's 100 ms target,
/// docs/performance.md): what `adjutant verify` does with a 30-round log
/// (read it, `verify_entries`, `replay_verified`), as `benches/full_game.rs`
/// measures it, run
/// `ADJUTANT_PROFILE_ITERATIONS` times (default 1). The log's dice are real,
/// so each new game differs; to count instructions on one fixed log, point
/// `ADJUTANT_PROFILE_LOG` at a directory: the first run plays the game into
/// it, later runs verify the log found there.
/// `cargo test --release --test classic_full_game -- --ignored profile`
/// builds it; run the binary under `valgrind --tool=callgrind`.
#[test]
#[ignore = "a profiling driver (docs/performance.md), not a check"]
fn profile_the_verify_of_a_30_round_classic_log() {
    use adjutant::log::{VerifyOptions, verify_entries};
    use adjutant::matches::replay_verified;

    let dir = match std::env::var_os("ADJUTANT_PROFILE_LOG") {
        Some(d) => PathBuf::from(d),
        None => fresh_dir("classic-profile"),
    };
    let log_path = dir.join("log.jsonl");
    if !log_path.exists() {
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let players = include_str!("fixtures/classic-players.yaml");
        let mut m = Match::create(&dir, &games, "classic", players).unwrap();
        let cfg = aae_bot::BotConfig {
            attack_capitals: false,
            ..aae_bot::BotConfig::default()
        };
        let played = aae_bot::play(&mut m, 30, cfg);
        eprintln!(
            "played {} rounds, {} messages",
            m.state().round - 1,
            played.messages
        );
    }
    let iterations: usize = std::env::var("ADJUTANT_PROFILE_ITERATIONS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1);
    for _ in 0..iterations {
        let data = std::fs::read(&log_path).unwrap();
        let verified = verify_entries(&data, &VerifyOptions::default()).unwrap();
        let replayed = replay_verified(&log_path, &verified).unwrap();
        assert!(!replayed.unfinished);
        eprintln!(
            "verified {} entries, {} dice, {} messages",
            verified.summary.entries, verified.summary.dice, replayed.messages
        );
    }
}
