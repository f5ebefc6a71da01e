//! Benchmarks of whole AAE games (issue 4): adjudicating a full round of all
//! four powers in memory, and `verify` (chain, dice and engine replay) of a
//! 30-round match log; the same for Classic (issue 17: a round of its five
//! powers, and a log of up to 30 rounds, since Magic 84 may end it sooner;
//! `cargo bench --bench full_game -- classic`). The orders come from the
//! test bot (`tests/common/aae_bot.rs`). Figures go to docs/performance.md.

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
    }
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

criterion_group!(
    benches,
    adjudicate_round,
    verify_30_rounds,
    classic_round,
    classic_verify_30_rounds
);
criterion_main!(benches);
