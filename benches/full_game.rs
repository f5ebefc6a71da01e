//! Benchmarks of whole AAE games (issue 4): adjudicating a full round of all
//! four powers in memory, and `verify` (chain, dice and engine replay) of a
//! 30-round match log; the same for Classic (issue 17: a round of its five
//! powers, and a log of up to 30 rounds, since Magic 84 may end it sooner;
//! `cargo bench --bench full_game -- classic`); the same for Advanced AAE
//! (issue 19: a round of its six powers, with oil convoys and lend-lease,
//! and a 30-round log, the bot keeping every victory condition out of
//! reach; `-- advanced`); and a round of J Boulton's house rules (issue 18,
//! `-- jboulton`). The orders come from the test bot
//! (`tests/common/aae_bot.rs`). Figures go to docs/performance.md.

#[path = "../tests/common/aae_bot.rs"]
mod aae_bot;
#[path = "common/game_bench.rs"]
mod game_bench;
#[path = "../tests/common/jboulton_script.rs"]
mod jboulton_script;

use criterion::{Criterion, criterion_group, criterion_main};
use game_bench::GameBench;

fn bench() -> GameBench {
    GameBench {
        game: "aae",
        players: std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/aae-players.yaml"),
        )
        .unwrap(),
        min_battles: 10,
        names: [
            "aae round",
            "check + apply, 4 powers",
            "verify aae game",
            "30 rounds: chain, dice and engine replay",
        ],
        full_length: true,
        orders: game_bench::bot_orders,
        bot: aae_bot::BotConfig::default(),
    }
}

fn classic() -> GameBench {
    GameBench {
        game: "classic",
        players: include_str!("../tests/fixtures/classic-players.yaml").to_owned(),
        min_battles: 3,
        names: [
            "classic round",
            "check + apply, 5 powers",
            "verify classic game",
            "up to 30 rounds: chain, dice and engine replay",
        ],
        full_length: false,
        orders: game_bench::bot_orders,
        bot: aae_bot::BotConfig::default(),
    }
}

fn advanced() -> GameBench {
    GameBench {
        game: "advanced-aae",
        players: include_str!("../tests/fixtures/advanced-aae-players.yaml").to_owned(),
        min_battles: 5,
        names: [
            "advanced aae round",
            "check + apply, 6 powers",
            "verify advanced aae game",
            "30 rounds: chain, dice and engine replay",
        ],
        // The capitals spared and the economic victories out of reach
        // (AAAE-13..16), the bot's game lasts its 30 rounds.
        full_length: true,
        orders: game_bench::bot_orders,
        bot: aae_bot::BotConfig {
            oil_convoy: true,
            lend_lease: true,
            ..aae_bot::BotConfig::default()
        },
    }
}

/// J Boulton (issue 18): AAE's board with every house rule on, the bot's
/// orders with the scripted new units on top (`jboulton_script.rs`:
/// mechanized infantry, heavy armor, paradrops, the Normandy landings,
/// battleships hunting), so that the busiest of the first six rounds plays
/// them. `cargo bench --bench full_game -- jboulton`.
fn jboulton() -> GameBench {
    GameBench {
        game: "aae-jboulton",
        players: include_str!("../tests/fixtures/aae-players.yaml").to_owned(),
        min_battles: 10,
        names: [
            "jboulton round",
            "check + apply, 4 powers, house rules on",
            "verify jboulton game",
            "30 rounds: chain, dice and engine replay",
        ],
        full_length: false,
        orders: |game, state, cfg| jboulton_script::orders(game, state, cfg).yaml,
        bot: aae_bot::BotConfig {
            attack_capitals: false,
            ..aae_bot::BotConfig::default()
        },
    }
}

fn jboulton_round(c: &mut Criterion) {
    game_bench::adjudicate_round(c, &jboulton());
}

fn adjudicate_round(c: &mut Criterion) {
    game_bench::adjudicate_round(c, &bench());
}

fn verify_30_rounds(c: &mut Criterion) {
    game_bench::verify_long_log(c, &bench());
}

fn classic_round(c: &mut Criterion) {
    game_bench::adjudicate_round(c, &classic());
}

fn classic_verify_30_rounds(c: &mut Criterion) {
    game_bench::verify_long_log(c, &classic());
}

fn advanced_round(c: &mut Criterion) {
    game_bench::adjudicate_round(c, &advanced());
}

fn advanced_verify_30_rounds(c: &mut Criterion) {
    game_bench::verify_long_log(c, &advanced());
}

criterion_group!(
    benches,
    adjudicate_round,
    verify_30_rounds,
    classic_round,
    classic_verify_30_rounds,
    advanced_round,
    advanced_verify_30_rounds,
    jboulton_round
);
criterion_main!(benches);
