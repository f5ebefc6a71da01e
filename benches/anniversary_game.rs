//! Benchmarks of whole Anniversary games (issue 7, the AAE benchmarks of
//! issue 4 on this map): adjudicating a full round of all seven powers of
//! the 1941 scenario in memory, and `verify` (chain, dice and engine replay)
//! of a match log of up to 30 rounds (a victory by victory cities may end
//! it sooner). The orders come from the test bot
//! (`tests/common/aae_bot.rs`). Figures go to docs/performance.md.

#[path = "../tests/common/aae_bot.rs"]
mod aae_bot;
#[path = "common/game_bench.rs"]
mod game_bench;

use criterion::{Criterion, criterion_group, criterion_main};
use game_bench::GameBench;

fn bench() -> GameBench {
    GameBench {
        game: "anniversary-1941",
        players: include_str!("../tests/fixtures/anniversary-players.yaml").to_owned(),
        min_battles: 0,
        names: [
            "anniversary 1941 round",
            "check + apply, 7 powers",
            "verify anniversary 1941 game",
            "up to 30 rounds: chain, dice and engine replay",
        ],
        full_length: false,
        orders: game_bench::bot_orders,
        bot: aae_bot::BotConfig::default(),
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
