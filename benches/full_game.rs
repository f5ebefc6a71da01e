//! Benchmarks of whole AAE games (issue 4): adjudicating a full round of all
//! four powers in memory, and `verify` (chain, dice and engine replay) of a
//! 30-round match log. The orders come from the test bot
//! (`tests/common/aae_bot.rs`). Figures go to docs/performance.md.

#[path = "../tests/common/aae_bot.rs"]
mod aae_bot;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use adjutant::dice::{Dice, Digest32, TurnKey};
use adjutant::log::{Body, VerifyOptions, parse_line, verify_bytes};
use adjutant::matches::{Match, replay_match};
use adjutant::rules::events::Event;
use adjutant::rules::orders::Orders;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::turn::{apply_orders_with_dice, check_orders};
use adjutant::rules::{GameDef, load_dir};
use criterion::{Criterion, criterion_group, criterion_main};

/// One round's messages: the power, its orders and the key of its dice.
struct Round {
    start: GameState,
    messages: Vec<(usize, Orders, TurnKey)>,
    /// Battles fought with dice (at least one round).
    battles: usize,
}

fn game() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap()
}

/// Plays `rounds` rounds in memory with the bot, each message's dice keyed
/// by its round and position (so that replaying them gives the same game).
fn play_in_memory(game: &GameDef, rounds: u32) -> Vec<Round> {
    let mut state = GameState::initial(game);
    let mut out = Vec::new();
    while state.round <= rounds && state.winner.is_none() {
        let mut round = Round {
            start: state.clone(),
            messages: Vec::new(),
            battles: 0,
        };
        let r = state.round;
        while state.round == r && state.winner.is_none() {
            let o = aae_bot::orders(game, &state, aae_bot::BotConfig::default());
            let orders = parse_message(game, &o.yaml).unwrap().orders;
            let power = state.current_power(game);
            let key = TurnKey(Digest32::sha256(
                format!("bench/{r}/{}", round.messages.len()).as_bytes(),
            ));
            check_orders(game, &state, power, &orders).unwrap();
            let (next, events) =
                apply_orders_with_dice(game, &state, power, &orders, &mut Dice::verifiable(key))
                    .unwrap();
            round.battles += events
                .iter()
                .filter(|e| matches!(e, Event::BattleEnded { rounds, .. } if *rounds > 0))
                .count();
            round.messages.push((power, orders, key));
            state = next;
        }
        out.push(round);
    }
    out
}

fn adjudicate_round(c: &mut Criterion) {
    let game = game();
    let rounds = play_in_memory(&game, 6);
    let round = rounds
        .iter()
        .max_by_key(|r| (r.battles, std::cmp::Reverse(r.start.round)))
        .unwrap();
    assert!(
        round.battles >= 10,
        "the busiest round has {} battles",
        round.battles
    );
    eprintln!(
        "adjudicating round {}: {} messages, {} battles",
        round.start.round,
        round.messages.len(),
        round.battles
    );
    let mut g = c.benchmark_group("aae round");
    g.bench_function("check + apply, 4 powers", |b| {
        b.iter(|| {
            let mut state = round.start.clone();
            for (power, orders, key) in &round.messages {
                check_orders(&game, &state, *power, orders).unwrap();
                let mut dice = Dice::verifiable(*key);
                state = apply_orders_with_dice(&game, &state, *power, orders, &mut dice)
                    .unwrap()
                    .0;
            }
            black_box(state)
        })
    });
    g.finish();
}

/// A 30-round match played by the bot through `Match::submit` (real
/// commit-reveal dice, the log on disk), capitals spared so that it lasts.
fn thirty_round_log() -> (PathBuf, usize) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-full-game");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.join("league7-aae-03");
    let players = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml"),
    )
    .unwrap();
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut m = Match::create(&dir, &games, "aae", &players).unwrap();
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
    };
    let played = aae_bot::play(&mut m, 30, cfg);
    assert_eq!(m.state().round, 31, "the game lasted 30 rounds");
    eprintln!(
        "30-round log: {} messages, {} battles",
        played.messages, played.battles
    );
    (dir.join("log.jsonl"), played.messages)
}

fn verify_30_rounds(c: &mut Criterion) {
    let (path, messages) = thirty_round_log();
    let data = std::fs::read(&path).unwrap();
    let opts = VerifyOptions::default();
    let summary = verify_bytes(&data, &opts).unwrap();
    let first = data.split(|&b| b == b'\n').next().unwrap();
    let Body::Genesis(genesis) = parse_line(first).unwrap().body else {
        panic!("the log starts with its genesis");
    };
    assert_eq!(replay_match(&path, &genesis).unwrap().messages, messages);
    eprintln!(
        "30-round log: {} bytes, {} entries, {} dice",
        data.len(),
        summary.entries,
        summary.dice
    );
    let mut g = c.benchmark_group("verify aae game");
    g.sample_size(20);
    g.bench_function("30 rounds: chain, dice and engine replay", |b| {
        b.iter(|| {
            let s = verify_bytes(black_box(&data), &opts).unwrap();
            let r = replay_match(&path, &genesis).unwrap();
            black_box((s, r.messages))
        })
    });
    g.finish();
}

criterion_group!(benches, adjudicate_round, verify_30_rounds);
criterion_main!(benches);
