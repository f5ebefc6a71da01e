//! The map as PNG: the SVG drawn by resvg with the one font bundled in the
//! binary (DejaVu Sans Condensed Bold, subset to Latin-1;
//! `assets/fonts/LICENSE.txt`), never the system's fonts, so the same SVG
//! gives the same pixels on every machine with this build.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use resvg::{tiny_skia, usvg};
use sha2::{Digest, Sha256};

use super::svg::{Layers, layers};
use super::{MapError, MapView, Shapes};
use crate::rules::GameDef;
use crate::rules::state::GameState;

/// The bundled font.
const FONT: &[u8] = include_bytes!("../../../assets/fonts/DejaVuSansCondensed-Bold-subset.ttf");

fn fonts() -> Arc<usvg::fontdb::Database> {
    static DB: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_font_data(FONT.to_vec());
        // Every family the SVG may name falls back to the bundled face.
        let family = db
            .faces()
            .next()
            .and_then(|f| f.families.first().map(|(n, _)| n.clone()))
            .unwrap_or_default();
        db.set_sans_serif_family(family.clone());
        db.set_serif_family(family.clone());
        db.set_monospace_family(family);
        Arc::new(db)
    })
    .clone()
}

/// The SVG drawn to PNG at its own size.
pub fn svg_to_png(svg: &str) -> Result<Vec<u8>, MapError> {
    let pixmap = svg_to_pixels(svg)?;
    indexed_png(
        pixmap.width(),
        pixmap.height(),
        pixmap.data(),
        &colours_named(svg),
    )
}

/// The map of a position as PNG, as `svg_to_png` of `render_svg` draws it
/// but faster: what no position changes (labels, title, legend: the most
/// text, with halos) is drawn once per board and process and laid over
/// the position's colours, and the units over both.
pub fn render_png(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> Result<Vec<u8>, MapError> {
    let layers = layers(game, shapes, state, view)?;
    let mut pixmap = svg_to_pixels(&layers.alone(&layers.base))?;
    let fixed = fixed_layer(&layers)?;
    pixmap.draw_pixmap(
        0,
        0,
        fixed.as_ref().as_ref(),
        &tiny_skia::PixmapPaint::default(),
        tiny_skia::Transform::identity(),
        None,
    );
    let overlay = tree(&layers.alone(&layers.overlay))?;
    resvg::render(
        &overlay,
        tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    let mut named = colours_named(&layers.base);
    named.extend(colours_named(&layers.labels));
    named.extend(colours_named(&layers.overlay));
    named.sort_unstable();
    named.dedup();
    named.truncate(128);
    indexed_png(pixmap.width(), pixmap.height(), pixmap.data(), &named)
}

/// The labels' layer, drawn once for each distinct text of it (a board and
/// its shapes) and kept for the process; a handful of boards at most, so
/// the cache starts over rather than grow past eight.
fn fixed_layer(layers: &Layers) -> Result<Arc<tiny_skia::Pixmap>, MapError> {
    type Cache = Mutex<HashMap<[u8; 32], Arc<tiny_skia::Pixmap>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let svg = layers.alone(&layers.labels);
    let key: [u8; 32] = Sha256::digest(svg.as_bytes()).into();
    if let Some(p) = cache.lock().map_err(|_| poisoned())?.get(&key) {
        return Ok(p.clone());
    }
    // Drawn outside the lock: two threads may both draw a new board once.
    let pixmap = Arc::new(svg_to_pixels(&svg)?);
    let mut cache = cache.lock().map_err(|_| poisoned())?;
    if cache.len() >= 8 {
        cache.clear();
    }
    cache.insert(key, pixmap.clone());
    Ok(pixmap)
}

fn poisoned() -> MapError {
    MapError::Png("the cache of map layers is poisoned".to_owned())
}

/// Every `#rrggbb` colour the SVG names, sorted: the palette keeps them
/// exactly, however few pixels have them (a capital's star, a battle).
fn colours_named(svg: &str) -> Vec<u32> {
    let bytes = svg.as_bytes();
    let mut out: Vec<u32> = bytes
        .windows(7)
        .filter(|w| w[0] == b'#' && w[1..].iter().all(u8::is_ascii_hexdigit))
        .filter_map(|w| u32::from_str_radix(std::str::from_utf8(&w[1..]).ok()?, 16).ok())
        .collect();
    out.sort_unstable();
    out.dedup();
    out.truncate(128);
    out
}

/// The SVG drawn to pixels (the PNG without its encoding; for the
/// benchmark).
pub fn svg_to_pixels(svg: &str) -> Result<tiny_skia::Pixmap, MapError> {
    let tree = tree(svg)?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| MapError::Png("the map has no size".to_owned()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    Ok(pixmap)
}

fn tree(svg: &str) -> Result<usvg::Tree, MapError> {
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans Condensed".to_owned(),
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &options).map_err(|e| MapError::Png(e.to_string()))
}

/// The pixels (opaque RGBA: the map paints its whole canvas) as an
/// indexed-colour PNG: the colours the SVG names, then the most frequent
/// others up to 256, every other colour (the anti-aliased edges) drawn in
/// its nearest one. A quarter of the bytes of true colour, for mail.
fn indexed_png(width: u32, height: u32, rgba: &[u8], named: &[u32]) -> Result<Vec<u8>, MapError> {
    let rgb = |px: &[u8]| u32::from_be_bytes([0, px[0], px[1], px[2]]);
    // Neighbouring pixels are mostly the same colour: count runs.
    let mut counts: HashMap<u32, u32> = HashMap::new();
    let mut run: Option<(u32, u32)> = None;
    for px in rgba.chunks_exact(4) {
        let c = rgb(px);
        match &mut run {
            Some((colour, n)) if *colour == c => *n += 1,
            _ => {
                if let Some((colour, n)) = run {
                    *counts.entry(colour).or_default() += n;
                }
                run = Some((c, 1));
            }
        }
    }
    if let Some((colour, n)) = run {
        *counts.entry(colour).or_default() += n;
    }
    let mut by_count: Vec<(u32, u32)> = counts.iter().map(|(c, n)| (*c, *n)).collect();
    // Most frequent first; equal counts by colour, so the palette never
    // depends on the hash map's order.
    by_count.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut palette: Vec<u32> = named.to_vec();
    for (c, _) in &by_count {
        if palette.len() == 256 {
            break;
        }
        if !named.contains(c) {
            palette.push(*c);
        }
    }
    let split = |c: u32| {
        let [_, r, g, b] = c.to_be_bytes();
        (i32::from(r), i32::from(g), i32::from(b))
    };
    let mut index: HashMap<u32, u8> = HashMap::with_capacity(counts.len());
    for (i, c) in palette.iter().enumerate() {
        index.insert(*c, i as u8);
    }
    for (c, _) in &by_count {
        if index.contains_key(c) {
            continue;
        }
        let (r, g, b) = split(*c);
        let nearest = palette
            .iter()
            .enumerate()
            .min_by_key(|(_, p)| {
                let (pr, pg, pb) = split(**p);
                (pr - r).pow(2) + (pg - g).pow(2) + (pb - b).pow(2)
            })
            .map_or(0, |(i, _)| i as u8);
        index.insert(*c, nearest);
    }
    let mut last = (u32::MAX, 0u8);
    let pixels: Vec<u8> = rgba
        .chunks_exact(4)
        .map(|px| {
            let c = rgb(px);
            if c != last.0 {
                last = (c, index[&c]);
            }
            last.1
        })
        .collect();
    let mut out = Vec::new();
    {
        let mut encoder = png::Encoder::new(&mut out, width, height);
        encoder.set_color(png::ColorType::Indexed);
        encoder.set_depth(png::BitDepth::Eight);
        encoder.set_palette(
            palette
                .iter()
                .flat_map(|c| {
                    let [_, r, g, b] = c.to_be_bytes();
                    [r, g, b]
                })
                .collect::<Vec<u8>>(),
        );
        encoder.set_compression(png::Compression::Default);
        encoder.set_filter(png::FilterType::NoFilter);
        let mut writer = encoder
            .write_header()
            .map_err(|e| MapError::Png(e.to_string()))?;
        writer
            .write_image_data(&pixels)
            .map_err(|e| MapError::Png(e.to_string()))?;
    }
    Ok(out)
}
