//! Benchmarks of whole AAE games (issue 4): adjudicating a full round of all
//! four powers in memory, and `verify` (chain, dice and engine replay) of a
//! 30-round match log. The orders come from the test bot
//! (`tests/common/aae_bot.rs`). Figures go to docs/performance.md.

#[path = "../tests/common/aae_bot.rs"]
mod aae_bot;
#[path = "common/game_bench.rs"]
mod game_bench;

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
    }
}

fn adjudicate_round(c: &mut Criterion) {
    game_bench::adjudicate_round(c, &bench());
}

fn verify_30_rounds(c: &mut Criterion) {
    game_bench::verify_long_log(c, &bench());
}

criterion_group!(benches, adjudicate_round, verify_30_rounds);
criterion_main!(benches);
