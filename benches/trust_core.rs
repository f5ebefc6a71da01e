//! Benchmarks of the trust core: labelled-dice throughput and `verify` of a
//! log holding 100,000 dice. Figures go to docs/performance.md.

#[path = "../tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::path::Path;

use adjutant::dice::{Dice, Digest32, Label, TurnKey};
use adjutant::log::{VerifyOptions, verify_bytes};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn dice_throughput(c: &mut Criterion) {
    let key = TurnKey(Digest32([7; 32]));
    let mut g = c.benchmark_group("dice");
    g.throughput(Throughput::Elements(10_000));
    let label = Label::new("battle/West Russia/round/1/attacker/infantry").unwrap();
    g.bench_function("10k d6, one label", |b| {
        b.iter(|| {
            let mut d = Dice::verifiable(key);
            black_box(d.roll_many(&label, 10_000, 6));
        })
    });
    let labels: Vec<Label> = (0..2_500)
        .map(|i| Label::new(format!("battle/Territory {i}/round/1/attacker/infantry")).unwrap())
        .collect();
    g.bench_function("10k d6, 2,500 labels of 4", |b| {
        b.iter(|| {
            let mut d = Dice::verifiable(key);
            for l in &labels {
                black_box(d.roll_many(l, 4, 6));
            }
        })
    });
    g.finish();
}

fn log_of(name: &str, shape: common::Shape) -> Vec<u8> {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bench-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bench.log");
    let dump = common::write_log(&path, shape);
    assert_eq!(dump.len(), 100_000);
    std::fs::read(path).unwrap()
}

fn verify_100k(c: &mut Criterion) {
    let mut g = c.benchmark_group("verify 100k dice");
    g.sample_size(30);
    g.throughput(Throughput::Elements(100_000));
    for (name, shape) in [
        // Long battles: 10 turns of 100 labels with 100 dice each.
        (
            "100 per label",
            common::Shape {
                turns: 10,
                labels_per_turn: 100,
                dice_per_label: 100,
            },
        ),
        // A&A-like: one label per firing group and round, a few dice each.
        (
            "4 per label",
            common::Shape {
                turns: 10,
                labels_per_turn: 2_500,
                dice_per_label: 4,
            },
        ),
    ] {
        let data = log_of(name, shape);
        let opts = VerifyOptions::default();
        assert_eq!(verify_bytes(&data, &opts).unwrap().dice, 100_000);
        g.bench_function(name, |b| {
            b.iter(|| verify_bytes(black_box(&data), &opts).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, dice_throughput, verify_100k);
criterion_main!(benches);
