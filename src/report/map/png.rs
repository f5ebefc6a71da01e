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
/// but faster (`render_pixels`).
pub fn render_png(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> Result<Vec<u8>, MapError> {
    let (pixmap, named) = render_pixels_named(game, shapes, state, view)?;
    indexed_png(pixmap.width(), pixmap.height(), pixmap.data(), &named)
}

/// `render_pixels`, with the colours its SVG names (sorted, at most 128:
/// what `Palette::of` keeps exactly).
pub fn render_pixels_named(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> Result<(tiny_skia::Pixmap, Vec<u32>), MapError> {
    let layers = layers(game, shapes, state, view)?;
    let pixmap = layered_pixels(&layers)?;
    let mut named = Vec::new();
    for part in [&layers.under, &layers.base, &layers.labels, &layers.overlay] {
        named.extend(colours_named(part));
    }
    named.sort_unstable();
    named.dedup();
    named.truncate(128);
    Ok((pixmap, named))
}

/// The map of a position as pixels, drawn in layers: what no position
/// changes (the sea and the land that is no space under everything; the
/// labels, title and legend, the most text, with halos, over the land) is
/// drawn once per board and process and reused; only the land's colours
/// and the units are drawn each time.
pub fn render_pixels(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> Result<tiny_skia::Pixmap, MapError> {
    layered_pixels(&layers(game, shapes, state, view)?)
}

fn layered_pixels(layers: &Layers) -> Result<tiny_skia::Pixmap, MapError> {
    let mut pixmap = fixed_layer(&layers.alone(&layers.under))?.as_ref().clone();
    let transform = tiny_skia::Transform::default();
    resvg::render(
        &tree(&layers.alone(&layers.base))?,
        transform,
        &mut pixmap.as_mut(),
    );
    over(
        &mut pixmap,
        fixed_layer(&layers.alone(&layers.labels))?.as_ref(),
    );
    resvg::render(
        &tree(&layers.alone(&layers.overlay))?,
        transform,
        &mut pixmap.as_mut(),
    );
    Ok(pixmap)
}

/// `top` laid over `pixmap` (both premultiplied, the same size): source
/// over, pixel by pixel. tiny-skia's `draw_pixmap` does the same through
/// its general pipeline, several times slower; most of the labels' layer
/// is clear and skipped here.
fn over(pixmap: &mut tiny_skia::Pixmap, top: &tiny_skia::Pixmap) {
    for (d, s) in pixmap
        .data_mut()
        .chunks_exact_mut(4)
        .zip(top.data().chunks_exact(4))
    {
        match s[3] {
            0 => {}
            255 => d.copy_from_slice(s),
            a => {
                let keep = 255 - u16::from(a);
                for i in 0..4 {
                    d[i] = s[i] + ((u16::from(d[i]) * keep + 127) / 255) as u8;
                }
            }
        }
    }
}

/// A layer no position changes, drawn once for each distinct text of it
/// (a board and its shapes) and kept for the process; a handful of boards
/// at most, so the cache starts over rather than grow past sixteen.
fn fixed_layer(svg: &str) -> Result<Arc<tiny_skia::Pixmap>, MapError> {
    type Cache = Mutex<HashMap<[u8; 32], Arc<tiny_skia::Pixmap>>>;
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let cache = CACHE.get_or_init(Cache::default);
    let key: [u8; 32] = Sha256::digest(svg.as_bytes()).into();
    if let Some(p) = cache.lock().map_err(|_| poisoned())?.get(&key) {
        return Ok(p.clone());
    }
    // Drawn outside the lock: two threads may both draw a new board once.
    let pixmap = Arc::new(svg_to_pixels(svg)?);
    let mut cache = cache.lock().map_err(|_| poisoned())?;
    if cache.len() >= 16 {
        cache.clear();
    }
    cache.insert(key, pixmap.clone());
    Ok(pixmap)
}

fn poisoned() -> MapError {
    MapError::Png("the cache of map layers is poisoned".to_owned())
}

/// A hash for colours (`u32`) in the palette's maps: the standard one is
/// built against adversaries, which pixels are not, and costs a third of
/// the encoding.
#[derive(Default)]
struct ColourHash(u64);

impl std::hash::Hasher for ColourHash {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 =
                (self.0.rotate_left(5) ^ u64::from(*b)).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
    }
    fn write_u32(&mut self, n: u32) {
        self.0 = u64::from(n).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 29;
    }
}

type ColourMap<V> = HashMap<u32, V, std::hash::BuildHasherDefault<ColourHash>>;

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

/// The data as a zlib stream.
fn deflate(data: &[u8], level: flate2::Compression) -> Result<Vec<u8>, MapError> {
    use std::io::Write as _;
    let mut z = flate2::write::ZlibEncoder::new(Vec::with_capacity(data.len() / 8), level);
    z.write_all(data)
        .map_err(|e| MapError::Png(e.to_string()))?;
    z.finish().map_err(|e| MapError::Png(e.to_string()))
}

/// A PNG chunk: length, type, data, CRC of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}

/// The pixels (opaque RGBA: the map paints its whole canvas) as an
/// indexed-colour PNG: the colours the SVG names, then the most frequent
/// others up to 256, every other colour (the anti-aliased edges) drawn in
/// its nearest one. A quarter of the bytes of true colour, for mail.
fn indexed_png(width: u32, height: u32, rgba: &[u8], named: &[u32]) -> Result<Vec<u8>, MapError> {
    let palette = Palette::of(rgba, named);
    let indices = palette.indices();
    compress(width, height, &indices, &palette)
}

/// An image's palette: at most 256 colours, and the one each colour of
/// the image is drawn in. The encoding's first stages, public for the
/// benchmark (`benches/map.rs`): `Palette::of`, `Palette::indices`, then
/// `compress`.
pub struct Palette {
    /// The palette's colours, `0x00rrggbb`.
    colours: Vec<u32>,
    /// The image as runs of one colour: the colour's number (its order of
    /// first appearance) and the run's length.
    runs: Vec<(u32, u32)>,
    /// Each colour number's place in `colours`.
    place: Vec<u8>,
}

impl Palette {
    /// The palette of opaque RGBA pixels: `named` (sorted, at most 128)
    /// first, then the most frequent other colours up to 256; every other
    /// colour of the image mapped to its nearest (the first of equally
    /// near ones).
    pub fn of(rgba: &[u8], named: &[u32]) -> Palette {
        // Neighbouring pixels are mostly the same colour: one hash lookup
        // a run, which numbers the colour for the later stages.
        let mut numbers: ColourMap<u32> = ColourMap::default();
        let mut distinct: Vec<(u32, u32)> = Vec::new();
        let mut runs: Vec<(u32, u32)> = Vec::new();
        let mut add = |word: u32, len: u32| {
            let [r, g, b, _] = word.to_ne_bytes();
            let colour = u32::from_be_bytes([0, r, g, b]);
            let n = *numbers.entry(colour).or_insert_with(|| {
                distinct.push((colour, 0));
                (distinct.len() - 1) as u32
            });
            distinct[n as usize].1 += len;
            runs.push((n, len));
        };
        let mut current = None;
        let mut len = 0u32;
        for px in rgba.chunks_exact(4) {
            // The whole pixel as one word: alpha is always opaque.
            let word = u32::from_ne_bytes([px[0], px[1], px[2], px[3]]);
            if current == Some(word) {
                len += 1;
                continue;
            }
            if let Some(w) = current {
                add(w, len);
            }
            current = Some(word);
            len = 1;
        }
        if let Some(w) = current {
            add(w, len);
        }
        // Most frequent first; equal counts by colour, so the palette never
        // depends on the order of first appearance.
        let mut by_count: Vec<u32> = (0..distinct.len() as u32).collect();
        by_count.sort_unstable_by(|&a, &b| {
            let (ca, na) = distinct[a as usize];
            let (cb, nb) = distinct[b as usize];
            nb.cmp(&na).then(ca.cmp(&cb))
        });
        let mut colours: Vec<u32> = named.to_vec();
        for &n in &by_count {
            if colours.len() == 256 {
                break;
            }
            let c = distinct[n as usize].0;
            if !named.contains(&c) {
                colours.push(c);
            }
        }
        let mut exact: ColourMap<u8> = ColourMap::default();
        for (i, c) in colours.iter().enumerate() {
            exact.insert(*c, i as u8);
        }
        let mut nearest = Nearest::new(&colours);
        let place = distinct
            .iter()
            .map(|(c, _)| match exact.get(c) {
                Some(i) => *i,
                None => nearest.find(*c),
            })
            .collect();
        Palette {
            colours,
            runs,
            place,
        }
    }

    /// How many colours it has.
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    /// Whether it has none (an image of no pixels).
    pub fn is_empty(&self) -> bool {
        self.colours.is_empty()
    }

    /// Each pixel's place in the palette, for the pixels `of` was made
    /// from.
    pub fn indices(&self) -> Vec<u8> {
        let total: usize = self.runs.iter().map(|(_, len)| *len as usize).sum();
        let mut out = Vec::with_capacity(total);
        for &(n, len) in &self.runs {
            out.resize(out.len() + len as usize, self.place[n as usize]);
        }
        out
    }
}

/// The nearest palette colour of a colour (squared distance in RGB, the
/// first of equally near ones), found among a few candidates: the RGB cube
/// is cut in 8 x 8 x 8 cells, and a cell's candidates are the colours that
/// can be nearest to some point of it (no nearer to the whole cell than
/// the best colour's farthest point from it), worked out when a colour
/// first falls in the cell. The same answer as comparing all 256, a tenth
/// of the work for the many anti-aliased colours of a map.
struct Nearest<'a> {
    palette: &'a [u32],
    cells: Vec<Option<Vec<u8>>>,
}

impl<'a> Nearest<'a> {
    const SIDE: i32 = 32;

    fn new(palette: &'a [u32]) -> Nearest<'a> {
        Nearest {
            palette,
            cells: vec![None; 512],
        }
    }

    fn rgb(c: u32) -> [i32; 3] {
        let [_, r, g, b] = c.to_be_bytes();
        [i32::from(r), i32::from(g), i32::from(b)]
    }

    fn find(&mut self, colour: u32) -> u8 {
        let x = Self::rgb(colour);
        let cell = x.map(|v| v / Self::SIDE);
        let key = ((cell[0] * 8 + cell[1]) * 8 + cell[2]) as usize;
        let palette = self.palette;
        let candidates = self.cells[key].get_or_insert_with(|| {
            // Per axis, the distance from the cell's span [lo, hi] to a
            // value: nearest and farthest.
            let lo = cell.map(|v| v * Self::SIDE);
            let hi = lo.map(|v| v + Self::SIDE - 1);
            let bounds: Vec<(i32, i32)> = palette
                .iter()
                .map(|&p| {
                    let p = Self::rgb(p);
                    let (mut near, mut far) = (0, 0);
                    for a in 0..3 {
                        let n = (lo[a] - p[a]).max(p[a] - hi[a]).max(0);
                        let f = (p[a] - lo[a]).abs().max((p[a] - hi[a]).abs());
                        near += n * n;
                        far += f * f;
                    }
                    (near, far)
                })
                .collect();
            let best_far = bounds.iter().map(|b| b.1).min().unwrap_or(0);
            bounds
                .iter()
                .enumerate()
                .filter(|(_, b)| b.0 <= best_far)
                .map(|(i, _)| i as u8)
                .collect()
        });
        let mut best = (i32::MAX, 0u8);
        for &i in candidates.iter() {
            let p = Self::rgb(palette[i as usize]);
            let d = (p[0] - x[0]).pow(2) + (p[1] - x[1]).pow(2) + (p[2] - x[2]).pow(2);
            if d < best.0 {
                best = (d, i);
            }
        }
        best.1
    }
}

/// The PNG of an image of `width` x `height` palette indices: the last
/// stage of the encoding (rows, zlib, chunks).
pub fn compress(
    width: u32,
    height: u32,
    indices: &[u8],
    palette: &Palette,
) -> Result<Vec<u8>, MapError> {
    let plte: Vec<u8> = palette
        .colours
        .iter()
        .flat_map(|c| {
            let [_, r, g, b] = c.to_be_bytes();
            [r, g, b]
        })
        .collect();
    // Each row with its filter byte (none: a paletted map compresses
    // better unfiltered).
    let mut raw = Vec::with_capacity(indices.len() + height as usize);
    for row in indices.chunks_exact(width as usize) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    // zlib-rs at level 3: an eighth of the default level's time for a file
    // 6 % bigger (levels 1 and 2 are faster again but up to a quarter
    // bigger, and the mail of the biggest board would pass 400 KB); a map
    // that would pass LARGE at it takes the default level.
    const LARGE: usize = 260 * 1024;
    let mut idat = deflate(&raw, flate2::Compression::new(3))?;
    if idat.len() > LARGE {
        idat = deflate(&raw, flate2::Compression::default())?;
    }
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&width.to_be_bytes());
    header.extend_from_slice(&height.to_be_bytes());
    // 8 bits, indexed colour, deflate, adaptive filtering, no interlace.
    header.extend_from_slice(&[8, 3, 0, 0, 0]);
    let mut out = Vec::with_capacity(idat.len() + plte.len() + 64);
    out.extend_from_slice(b"\x89PNG\r\n\x1a\n");
    chunk(&mut out, b"IHDR", &header);
    chunk(&mut out, b"PLTE", &plte);
    chunk(&mut out, b"IDAT", &idat);
    chunk(&mut out, b"IEND", &[]);
    Ok(out)
}
