//! Classic (DAAK) played by the test bot for 6 rounds straight through the
//! engine, every power's both stages, with pseudo-random dice: every message
//! the bot checked is applied, no rule panics, battles are fought and the
//! economy holds (no treasury below zero, income each turn). The scripted
//! match that `adjutant verify` checks is `tests/classic_full_game.rs`.

#[path = "common/aae_bot.rs"]
mod aae_bot;

use std::path::Path;

use adjutant::dice::ScriptedDice;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::turn::{apply_orders_with_dice, check_orders};
use adjutant::rules::{GameDef, load_dir};

const ROUNDS: u32 = 6;

/// A long stream of d6 faces from a fixed seed (xorshift), so the game is
/// the same on every run.
fn dice(seed: u64, n: usize) -> ScriptedDice {
    let mut x = seed;
    ScriptedDice::sequence((0..n).map(|_| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % 6 + 1) as u32
    }))
}

/// The game after `ROUNDS` rounds, the messages, the volleys fired and the
/// neutrals taken.
fn play(game: &GameDef, seed: u64) -> (GameState, usize, usize, usize) {
    let mut state = GameState::initial(game);
    let mut dice = dice(seed, 2_000_000);
    let (mut messages, mut battles, mut neutrals) = (0, 0, 0);
    while state.round <= ROUNDS && state.winner.is_none() {
        let o = aae_bot::orders(game, &state, aae_bot::BotConfig::default());
        // The bot orders only the neutrals it can pay for (DAAK-C §2.7a),
        // so the engine never refuses one.
        let unpaid = o.dropped.iter().find(|d| d.contains("neutral"));
        assert!(unpaid.is_none(), "{unpaid:?}\n{}", o.yaml);
        let power = game.power(&o.power).unwrap();
        let message = parse_message(game, &o.yaml)
            .unwrap_or_else(|e| panic!("the bot's orders do not parse: {e:?}\n{}", o.yaml));
        check_orders(game, &state, power, &message.orders)
            .unwrap_or_else(|e| panic!("the bot's orders were checked: {e:?}\n{}", o.yaml));
        let (next, events) =
            apply_orders_with_dice(game, &state, power, &message.orders, &mut dice)
                .unwrap_or_else(|e| panic!("checked orders refused: {e:?}\n{}", o.yaml));
        battles += events
            .iter()
            .filter(|e| matches!(e, adjutant::rules::events::Event::Fire { .. }))
            .count();
        neutrals += events
            .iter()
            .filter(|e| {
                matches!(e, adjutant::rules::events::Event::Special { rule, .. }
                    if rule.starts_with("neutral territories"))
            })
            .count();
        for (p, ipcs) in next.ipcs.iter().enumerate() {
            assert!(*ipcs < 10_000, "{} has {ipcs} IPCs", game.powers()[p].name);
        }
        state = next;
        messages += 1;
    }
    (state, messages, battles, neutrals)
}

#[test]
fn six_rounds_of_classic_are_played_by_the_rules() {
    let game = load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/classic"))
        .unwrap_or_else(|e| panic!("{e}"));
    for seed in [1, 2, 3] {
        let (state, messages, battles, neutrals) = play(&game, seed);
        eprintln!(
            "seed {seed}: round {}, {messages} messages, {battles} volleys, {neutrals} combat \
             moves taking neutrals, winner {:?}",
            state.round, state.winner
        );
        match state.winner {
            Some(_) => {}
            None => {
                assert_eq!(state.round, ROUNDS + 1);
                assert_eq!(messages, 2 * 5 * ROUNDS as usize);
            }
        }
        assert!(battles > 0, "seed {seed}: no die fired in a battle");
    }
}
