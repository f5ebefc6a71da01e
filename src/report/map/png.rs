//! The map as PNG: the SVG drawn by resvg with the one font bundled in the
//! binary (DejaVu Sans Condensed Bold, subset to Latin-1;
//! `assets/fonts/LICENSE.txt`), never the system's fonts, so the same SVG
//! gives the same pixels on every machine with this build.

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::MapError;

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
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans Condensed".to_owned(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| MapError::Png(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| MapError::Png("the map has no size".to_owned()))?;
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
        .encode_png()
        .map_err(|e| MapError::Png(e.to_string()))
}
