//! Benchmarks of the exact battle calculator (issue 8): land battles with
//! the default order of loss at the sizes the issue sets targets for, and
//! the Monte Carlo simulation of the same battles for the ratio; sea battles
//! of submarines and aircraft (issue 15, the calculator for restricted
//! hits) against their simulation. Figures go to docs/performance.md.

use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

use adjutant::rules::odds::{Method, OddsQuery, answer, prepare};
use adjutant::rules::{GameDef, load_dir};
use criterion::{Criterion, criterion_group, criterion_main};

fn game() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap()
}

/// (name, attackers, defenders, Low Luck): 13 against 8, 45 against 44,
/// 150 against 146 with dice, 400 against 350 with Low Luck.
const CASES: &[(&str, &str, &str, bool)] = &[
    ("13v8", "10 infantry, 3 armor", "8 infantry", false),
    (
        "45v44",
        "25 infantry, 10 artillery, 10 armor",
        "30 infantry, 10 armor, 4 fighters",
        false,
    ),
    (
        "150v146",
        "80 infantry, 30 artillery, 40 armor",
        "110 infantry, 30 armor, 6 fighters",
        false,
    ),
    (
        "ll400v350",
        "250 infantry, 50 artillery, 100 armor",
        "300 infantry, 50 armor",
        true,
    ),
];

/// Battles per Monte Carlo sample; the docs scale the time to 100,000.
const MC_BATTLES: u64 = 10_000;

fn query(a: &str, d: &str, low_luck: bool) -> OddsQuery {
    let mut q = OddsQuery::new(a, d);
    q.low_luck = Some(low_luck);
    q
}

/// The calculation (and its report) of a question already read.
fn exact(c: &mut Criterion) {
    let game = game();
    let mut g = c.benchmark_group("odds_exact");
    for (name, a, d, ll) in CASES {
        let p = prepare(&game, &query(a, d, *ll)).unwrap();
        assert_eq!(p.compute(&game).method, Method::Exact);
        g.bench_function(*name, |b| b.iter(|| black_box(&p).compute(&game)));
    }
    g.finish();
}

/// The whole answer: reading the unit names (with their "did you mean"
/// index) and ranking the sides, then the calculation.
fn answer_whole(c: &mut Criterion) {
    let game = game();
    let mut g = c.benchmark_group("odds_answer");
    for (name, a, d, ll) in CASES.iter().take(2) {
        let q = query(a, d, *ll);
        g.bench_function(*name, |b| b.iter(|| answer(&game, black_box(&q)).unwrap()));
    }
    g.finish();
}

fn monte_carlo(c: &mut Criterion) {
    let game = game();
    let mut g = c.benchmark_group("odds_monte_carlo_10k");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, a, d, ll) in CASES {
        let mut q = query(a, d, *ll);
        q.monte_carlo = true;
        q.battles = Some(MC_BATTLES);
        g.bench_function(*name, |b| b.iter(|| answer(&game, black_box(&q)).unwrap()));
    }
    g.finish();
}

/// Sea battles of submarines and aircraft: (name, attackers, defenders),
/// 72, 16,470 and 68,926 pairs of side states.
const MIXED: &[(&str, &str, &str)] = &[
    (
        "4v5",
        "3 submarines, 1 battleship",
        "2 destroyers, 1 carrier, 2 fighters",
    ),
    (
        "20v21",
        "8 submarines, 4 destroyers, 2 carriers, 4 fighters, 2 battleships",
        "6 destroyers, 3 carriers, 6 fighters, 4 submarines, 2 battleships",
    ),
    (
        "30v31",
        "12 submarines, 6 destroyers, 3 carriers, 6 fighters, 3 battleships",
        "10 destroyers, 4 carriers, 8 fighters, 6 submarines, 3 battleships",
    ),
];

/// The exact calculation of the sea battles with restricted hits, and the
/// simulation of 10,000 of each.
fn mixed(c: &mut Criterion) {
    let game = game();
    let mut g = c.benchmark_group("odds_mixed");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    for (name, a, d) in MIXED {
        let q = query(a, d, false);
        let p = prepare(&game, &q).unwrap();
        assert_eq!(p.compute(&game).method, Method::Exact);
        g.bench_function(*name, |b| b.iter(|| black_box(&p).compute(&game)));
        let mut q = q.clone();
        q.monte_carlo = true;
        q.battles = Some(MC_BATTLES);
        let p = prepare(&game, &q).unwrap();
        g.bench_function(format!("{name}_monte_carlo_10k"), |b| {
            b.iter(|| black_box(&p).compute(&game))
        });
    }
    g.finish();
}

criterion_group!(benches, exact, answer_whole, monte_carlo, mixed);
criterion_main!(benches);
