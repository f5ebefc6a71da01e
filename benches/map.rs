//! Benchmarks of the map (issue 20): the Anniversary board, the biggest,
//! drawn from its setup as SVG, the SVG drawn as PNG, and the PNG drawn
//! in layers with the labels cached (`render_png`, what reports use). The issue's
//! target is one map in at most 50 ms (release). Figures go to
//! docs/performance.md.

use std::hint::black_box;

use adjutant::report::map::{MapView, Shapes, render_svg};
use adjutant::rules::builtin::GameSource;
use adjutant::rules::state::GameState;
use criterion::{Criterion, criterion_group, criterion_main};

fn map(c: &mut Criterion) {
    let game = GameSource::Builtin.load("anniversary-1941").unwrap().def;
    let shapes = Shapes::builtin("anniversary-1941").unwrap();
    let state = GameState::initial(&game);
    let view = MapView::setup();
    c.bench_function("map_svg_anniversary", |b| {
        b.iter(|| render_svg(black_box(&game), &shapes, &state, &view).unwrap())
    });
    #[cfg(feature = "png")]
    {
        let svg = render_svg(&game, &shapes, &state, &view).unwrap();
        let mut group = c.benchmark_group("map_png");
        group.sample_size(10);
        group.bench_function("anniversary", |b| {
            b.iter(|| adjutant::report::map::png::svg_to_png(black_box(&svg)).unwrap())
        });
        // What reports and `adjutant map` draw: the labels' layer cached
        // (the first call draws it, criterion's warm-up makes it).
        group.bench_function("anniversary_layered", |b| {
            b.iter(|| {
                adjutant::report::map::png::render_png(black_box(&game), &shapes, &state, &view)
                    .unwrap()
            })
        });
        group.bench_function("anniversary_layered_pixels_only", |b| {
            b.iter(|| {
                adjutant::report::map::png::render_pixels(black_box(&game), &shapes, &state, &view)
                    .unwrap()
            })
        });
        group.bench_function("anniversary_pixels_only", |b| {
            b.iter(|| adjutant::report::map::png::svg_to_pixels(black_box(&svg)).unwrap())
        });
        group.finish();
    }
}

criterion_group!(benches, map);
criterion_main!(benches);
