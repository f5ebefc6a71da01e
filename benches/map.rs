//! Benchmarks of the map (issue 20): the Anniversary board, the biggest,
//! drawn from its setup as SVG, the SVG drawn as PNG, and the PNG drawn
//! in layers with the fixed layers cached (`render_png`, what reports
//! use), stage by stage: the pixels, the palette, each pixel's index in
//! it, the compression. The target is one map in at most 50 ms
//! (release). Also the match archive of a 30-round AAE match played by
//! the test bot (`adjutant archive`; the target: at most 5 s).
//! Figures go to docs/performance.md.

#[path = "../tests/common/aae_bot.rs"]
mod aae_bot;

use std::hint::black_box;
use std::path::Path;

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
        use adjutant::report::map::png;
        let svg = render_svg(&game, &shapes, &state, &view).unwrap();
        let mut group = c.benchmark_group("map_png");
        group.sample_size(10);
        group.bench_function("anniversary", |b| {
            b.iter(|| png::svg_to_png(black_box(&svg)).unwrap())
        });
        group.bench_function("anniversary_pixels_only", |b| {
            b.iter(|| png::svg_to_pixels(black_box(&svg)).unwrap())
        });
        // What reports and `adjutant map` draw: the fixed layers cached
        // (the first call draws them, criterion's warm-up makes it).
        group.bench_function("anniversary_layered", |b| {
            b.iter(|| png::render_png(black_box(&game), &shapes, &state, &view).unwrap())
        });
        group.finish();

        // The layered PNG's stages, one by one.
        let mut group = c.benchmark_group("map_png_stages");
        group.sample_size(20);
        group.bench_function("1_pixels", |b| {
            b.iter(|| png::render_pixels_named(black_box(&game), &shapes, &state, &view).unwrap())
        });
        let (pixmap, named) = png::render_pixels_named(&game, &shapes, &state, &view).unwrap();
        group.bench_function("2_palette", |b| {
            b.iter(|| png::Palette::of(black_box(pixmap.data()), &named))
        });
        let palette = png::Palette::of(pixmap.data(), &named);
        group.bench_function("3_indices", |b| b.iter(|| black_box(&palette).indices()));
        let indices = palette.indices();
        group.bench_function("4_compress", |b| {
            b.iter(|| {
                png::compress(
                    pixmap.width(),
                    pixmap.height(),
                    black_box(&indices),
                    &palette,
                )
                .unwrap()
            })
        });
        group.finish();
    }
}

/// `write_site` of a 30-round AAE match played by the bot through
/// `Match::submit` (real dice, capitals spared so that it lasts), as
/// `adjutant archive --match DIR --out SITE` writes it.
fn archive(c: &mut Criterion) {
    use adjutant::matches::Match;
    use adjutant::report::archive::write_site;
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-map-archive");
    let _ = std::fs::remove_dir_all(&root);
    let dir = root.join("aae-30");
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"));
    let players = std::fs::read_to_string(repo.join("tests/fixtures/aae-players.yaml")).unwrap();
    let mut m = Match::create(&dir, &repo.join("games"), "aae", &players).unwrap();
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
        ..aae_bot::BotConfig::default()
    };
    let played = aae_bot::play(&mut m, 30, cfg);
    assert_eq!(m.state().round, 31, "the game lasted 30 rounds");
    let site = root.join("site");
    let w = write_site(std::slice::from_ref(&dir), &site).unwrap();
    eprintln!(
        "archive: {} messages, {} battles fought; {} turn pages, {} battle pages, {} bytes",
        played.messages, played.battles, w.turns, w.battles, w.bytes
    );
    let mut group = c.benchmark_group("map_archive");
    group.sample_size(10);
    group.bench_function("aae_30_rounds", |b| {
        b.iter(|| write_site(black_box(std::slice::from_ref(&dir)), &site).unwrap())
    });
    group.finish();
}

criterion_group!(benches, map, archive);
criterion_main!(benches);
