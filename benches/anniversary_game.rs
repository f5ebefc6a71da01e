//! Benchmarks of whole Anniversary games (issue 7, the AAE benchmarks of
//! issue 4 on this map): adjudicating a full round of all seven powers of
//! the 1941 scenario in memory, and `verify` (chain, dice and engine replay)
//! of a match log of up to 30 rounds. The orders come from the test bot
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
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/anniversary-1941")).unwrap()
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
    eprintln!(
        "adjudicating round {}: {} messages, {} battles",
        round.start.round,
        round.messages.len(),
        round.battles
    );
    let mut g = c.benchmark_group("anniversary 1941 round");
    g.bench_function("check + apply, 7 powers", |b| {
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

/// A match of up to 30 rounds played by the bot through `Match::submit`
/// (real commit-reveal dice, the log on disk), capitals spared so that it
/// lasts; a victory by victory cities may end it sooner.
fn thirty_round_log() -> (PathBuf, usize) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-anniversary-game");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.join("anniversary-1941-bench");
    let players = "players:
  Germany: {name: A, email: a@example.org}
  Soviet Union: {name: B, email: b@example.org}
  Japan: {name: C, email: c@example.org}
  United Kingdom: {name: D, email: d@example.org}
  Italy: {name: E, email: e@example.org}
  United States: {name: F, email: f@example.org}
  China: {name: F, email: f@example.org}
";
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut m = Match::create(&dir, &games, "anniversary-1941", players).unwrap();
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
    };
    let played = aae_bot::play(&mut m, 30, cfg);
    eprintln!(
        "log: {} rounds, {} messages, {} battles",
        m.state().round - 1,
        played.messages,
        played.battles
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
        "log: {} bytes, {} entries, {} dice",
        data.len(),
        summary.entries,
        summary.dice
    );
    let mut g = c.benchmark_group("verify anniversary 1941 game");
    g.sample_size(20);
    g.bench_function("up to 30 rounds: chain, dice and engine replay", |b| {
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
