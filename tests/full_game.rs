//! A complete scripted AAE game (issue 4, deliverable 8): the bot plays all
//! four powers for 8 rounds from the standard setup through `Match::submit`,
//! the path the mail daemon uses (real commit-reveal dice); then the real
//! `adjutant verify` replays it through the engine, the independent Python
//! verifier checks its dice, and a forged die is caught.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod common;

use common::verify;

use std::path::{Path, PathBuf};

use adjutant::log::{Body, parse_line};
use adjutant::matches::Match;
use adjutant::rules::GameDef;
use adjutant::rules::state::GameState;

const ROUNDS: u32 = 8;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("league7-aae-03")
}

fn players() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml"),
    )
    .unwrap()
}

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

/// Dice entries and dice in a log, with the sequence number of the first
/// dice entry.
fn dice_in(log: &[u8]) -> (usize, usize, u64) {
    let (mut entries, mut dice, mut first) = (0, 0, 0);
    for line in log.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let e = parse_line(line).unwrap();
        if let Body::Dice(d) = &e.body {
            entries += 1;
            dice += d.rolls.iter().map(|g| g.values.len()).sum::<usize>();
            if first == 0 {
                first = e.seq;
            }
        }
    }
    (entries, dice, first)
}

/// The winning side has what the AAE rules ask: its capitals (Germany's, or
/// the winning Ally's own) together with an enemy capital.
fn assert_legitimate_winner(game: &GameDef, state: &GameState, side: usize) {
    let capital_of = |p: usize| {
        game.powers()[p]
            .capital
            .as_deref()
            .and_then(|c| game.space(c))
    };
    let holds = |p: usize, s: adjutant::rules::SpaceId| {
        state.owner[s.0].is_some_and(|o| game.side_of(o) == game.side_of(p))
    };
    let ok = game.turn_order().into_iter().any(|p| {
        game.side_of(p) == side
            && capital_of(p).is_some_and(|own| holds(p, own))
            && game
                .turn_order()
                .into_iter()
                .filter(|&q| game.side_of(q) != side)
                .filter_map(capital_of)
                .any(|enemy| holds(p, enemy))
    });
    assert!(
        ok,
        "side {} won without holding its capital and an enemy capital",
        game.files().game.sides[side].name
    );
}

#[test]
fn eight_rounds_of_aae_play_verify_and_a_forged_die_is_caught() {
    let started = std::time::Instant::now();
    let dir = fresh_dir("full-game");
    let mut m = Match::create(&dir, &games(), "aae", &players()).unwrap();
    let cfg = aae_bot::BotConfig::default();

    // Standing orders from a power that is not to move (stage 0), then the
    // game itself.
    let standing = "power: Soviet Union\nstanding:\n  losses: infantry, artillery, armor, fighter, bomber\n  keep_one_land_unit: true\n";
    m.submit("Soviet Union", standing).unwrap().unwrap();
    let played = aae_bot::play(&mut m, ROUNDS, cfg);
    let messages = played.messages + 1;

    let state = m.state().clone();
    match state.winner {
        Some(side) => assert_legitimate_winner(m.game(), &state, side),
        None => assert_eq!(state.round, ROUNDS + 1, "all {ROUNDS} rounds were played"),
    }
    // Two messages per power and round, except after a win.
    if state.winner.is_none() {
        assert_eq!(played.messages, 2 * 4 * ROUNDS as usize);
    }
    assert!(
        played.battles >= 10,
        "only {} battles were fought",
        played.battles
    );

    let log_path = dir.join("log.jsonl");
    let log = std::fs::read(&log_path).unwrap();
    let (dice_entries, dice, first_dice) = dice_in(&log);
    assert!(
        dice_entries >= 10 && dice >= 100,
        "{dice_entries} dice entries, {dice} dice"
    );
    eprintln!(
        "full game: {} rounds, {messages} accepted messages, {} battles fought ({} ended), \
         {dice_entries} dice entries, {dice} dice, {} candidate orders dropped, {} log entries, \
         played in {:.2?}",
        state.round - 1,
        played.battles,
        played.battle_ends,
        played.dropped.len(),
        log.split(|&b| b == b'\n').filter(|l| !l.is_empty()).count(),
        started.elapsed()
    );

    if let Some(side) = state.winner {
        eprintln!(
            "won by the {} in round {}",
            m.game().files().game.sides[side].name,
            state.round
        );
    }
    for d in &played.dropped {
        eprintln!("dropped by the bot: {d}");
    }

    // The real binary replays the whole match through the engine.
    let stdout = verify::verify_replays(&log_path, messages, "aae");
    verify::assert_every_die_re_derived(&stdout, dice, "aae");

    // The independent verifier agrees on the dice.
    verify::assert_python_accepts(&log_path, "aae");

    common::assert_a_forged_die_is_caught(&log, &dir, first_dice);
}

/// The bot's repair loop: orders the engine refuses are dropped, one by
/// one, and the rest of the message goes through.
#[test]
fn the_bot_drops_refused_orders_and_keeps_the_rest() {
    let game = adjutant::rules::load_dir(&games().join("aae")).unwrap();
    let state = GameState::initial(&game);
    let cfg = aae_bot::BotConfig::default();
    let plain = aae_bot::orders(&game, &state, cfg);
    assert!(plain.attacks > 0, "{}", plain.yaml);
    let repaired = aae_bot::orders_with(
        &game,
        &state,
        cfg,
        &[
            "1 armor: Germany -> Moscow",
            "9 infantry: Poland -> East Poland",
        ],
    );
    assert_eq!(repaired.yaml, plain.yaml);
    assert!(repaired.dropped.len() >= 2, "{:?}", repaired.dropped);
    assert!(
        repaired
            .dropped
            .iter()
            .any(|d| d.contains("combat order 1")),
        "{:?}",
        repaired.dropped
    );
}
