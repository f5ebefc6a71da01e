//! What the whole-game benchmarks share (`full_game` for AAE, and
//! `anniversary_game`): a round adjudicated in memory, and `verify` of a
//! long match log, both played by the test bot.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use adjutant::dice::{Dice, Digest32, TurnKey};
use adjutant::log::{Body, VerifyOptions, parse_line, verify_bytes, verify_entries};
use adjutant::matches::{Match, replay_match, replay_verified};
use adjutant::rules::events::Event;
use adjutant::rules::orders::Orders;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::turn::{apply_orders_with_dice, check_orders};
use adjutant::rules::{GameDef, load_dir};
use criterion::Criterion;

use super::aae_bot;

/// Which game a benchmark plays, and how it names itself.
pub struct GameBench {
    /// The game id under `games/`.
    pub game: &'static str,
    /// The players file of the logged match.
    pub players: String,
    /// Battles the busiest of the first six rounds must have.
    pub min_battles: usize,
    /// Criterion's names: the round group and function, the verify group
    /// and function.
    pub names: [&'static str; 4],
    /// Whether the logged match must last all 30 rounds (no victory).
    pub full_length: bool,
    /// The message of the power to move, given how the bot plays:
    /// [`bot_orders`], or the bot with a script on top.
    pub orders: fn(&GameDef, &GameState, aae_bot::BotConfig) -> String,
    /// How the bot plays (the long games spare capitals on top of it).
    pub bot: aae_bot::BotConfig,
}

/// The test bot's message.
pub fn bot_orders(game: &GameDef, state: &GameState, cfg: aae_bot::BotConfig) -> String {
    aae_bot::orders(game, state, cfg).yaml
}

/// One round's messages: the power, its orders and the key of its dice.
struct Round {
    start: GameState,
    messages: Vec<(usize, Orders, TurnKey)>,
    /// Battles fought with dice (at least one round).
    battles: usize,
    /// The dice's firing groups and rolls (each label's last part).
    groups: std::collections::BTreeSet<String>,
}

fn game(id: &str) -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join(id)).unwrap()
}

/// Plays `rounds` rounds in memory with the bot, each message's dice keyed
/// by its round and position (so that replaying them gives the same game).
fn play_in_memory(
    game: &GameDef,
    rounds: u32,
    bench: &GameBench,
    cfg: aae_bot::BotConfig,
) -> Vec<Round> {
    let mut state = GameState::initial(game);
    let mut out = Vec::new();
    while state.round <= rounds && state.winner.is_none() {
        let mut round = Round {
            start: state.clone(),
            messages: Vec::new(),
            battles: 0,
            groups: Default::default(),
        };
        let r = state.round;
        while state.round == r && state.winner.is_none() {
            let yaml = (bench.orders)(game, &state, cfg);
            let orders = parse_message(game, &yaml).unwrap().orders;
            let power = state.current_power(game);
            let key = TurnKey(Digest32::sha256(
                format!("bench/{r}/{}", round.messages.len()).as_bytes(),
            ));
            check_orders(game, &state, power, &orders).unwrap();
            let mut dice = Dice::verifiable(key);
            let (next, events) =
                apply_orders_with_dice(game, &state, power, &orders, &mut dice).unwrap();
            for g in dice.take_rolls() {
                let label = g.label.as_str();
                round
                    .groups
                    .insert(label.rsplit('/').next().unwrap_or(label).to_owned());
            }
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

/// Adjudicating the busiest of the first six rounds, in memory.
pub fn adjudicate_round(c: &mut Criterion, bench: &GameBench) {
    let game = game(bench.game);
    let rounds = play_in_memory(&game, 6, bench, bench.bot);
    let round = rounds
        .iter()
        .max_by_key(|r| (r.battles, std::cmp::Reverse(r.start.round)))
        .unwrap();
    assert!(
        round.battles >= bench.min_battles,
        "the busiest round has {} battles",
        round.battles
    );
    eprintln!(
        "adjudicating round {}: {} messages, {} battles; dice of {}",
        round.start.round,
        round.messages.len(),
        round.battles,
        round.groups.iter().cloned().collect::<Vec<_>>().join(", ")
    );
    let mut g = c.benchmark_group(bench.names[0]);
    g.bench_function(bench.names[1], |b| {
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

/// How far the long games keep an economic victory (Advanced AAE's
/// AAAE-14 and 16; no other game has one) out of reach, in IPCs: more than
/// an activated neutral nation hands the other side (3).
const ECONOMIC_MARGIN: u32 = 6;

/// A match of up to 30 rounds played by the bot through `Match::submit`
/// (real commit-reveal dice, the log on disk), capitals spared and the
/// economic victories kept out of reach so that it lasts.
fn long_log(bench: &GameBench) -> (PathBuf, usize) {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-{}-game", bench.game));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let dir = dir.join(format!("{}-bench", bench.game));
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut m = Match::create(&dir, &games, bench.game, &bench.players).unwrap();
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
        economic_margin: Some(ECONOMIC_MARGIN),
        ..bench.bot
    };
    let played = aae_bot::play(&mut m, 30, cfg);
    if bench.full_length {
        assert_eq!(m.state().round, 31, "the game lasted 30 rounds");
    }
    eprintln!(
        "log: {} rounds, {} messages, {} battles",
        m.state().round - 1,
        played.messages,
        played.battles
    );
    (dir.join("log.jsonl"), played.messages)
}

/// `verify` of that log: chain, dice and engine replay.
pub fn verify_long_log(c: &mut Criterion, bench: &GameBench) {
    let (path, messages) = long_log(bench);
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
    let mut g = c.benchmark_group(bench.names[2]);
    g.sample_size(20);
    // What `adjutant verify` does: the log read once, its chain and dice
    // checked, and the engine replay over the entries that check parsed.
    g.bench_function(bench.names[3], |b| {
        b.iter(|| {
            let data = std::fs::read(black_box(&path)).unwrap();
            let v = verify_entries(&data, &opts).unwrap();
            let r = replay_verified(&path, &v).unwrap();
            black_box((v.summary, r.messages))
        })
    });
    // What the daemon pays per open of this match: the log read and its
    // chain checked, the replay starting from the position this process
    // remembers after the last adjudication (src/matches/replay_memo.rs).
    let dir = path.parent().unwrap().to_owned();
    g.bench_function("Match::open, position remembered", |b| {
        b.iter(|| black_box(Match::open(&dir).unwrap().state().round))
    });
    g.finish();
}
