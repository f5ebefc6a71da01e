//! The map as SVG: our own drawing over the board's shapes. Plain SVG 1.1
//! (paths, rectangles, circles, text), no scripts, no external resources;
//! text names the bundled font first (`png`), then the reader's sans-serif.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{MapError, MapView, Shapes, SpaceShape};
use crate::rules::state::GameState;
use crate::rules::{GameDef, SpaceId};

/// Height of the title band above the map.
const TITLE: u32 = 40;
/// Height of one line of the legend below the map.
const LEGEND_LINE: u32 = 18;
/// The font, first the bundled one.
const FONT: &str = "DejaVu Sans Condensed, DejaVu Sans, Arial Narrow, sans-serif";
/// Label text size.
const LABEL: f32 = 9.0;
/// Unit types on one line of a badge.
const BADGE_TYPES: usize = 3;

const SEA: &str = "#a9cce6";
const SEA_ZONE: &str = "#bcd9ee";
const OFF_BOARD: &str = "#d6d3cb";
const NEUTRAL: &str = "#f5f1e3";
const CAPTURED: &str = "#f2600c";
const BATTLE: &str = "#c8102e";

/// A power's colours: strong (units, legend) and tint (its territories).
/// The usual colours of the boards where the power is known; others from a
/// fixed list, by the power's place in the game.
fn colours(game: &GameDef, power: usize) -> (&'static str, &'static str) {
    let known = match game.powers()[power].name.as_str() {
        "Germany" => Some(("#4d4d4d", "#b4b4b4")),
        "Soviet Union" => Some(("#9e2b22", "#dfa198")),
        "Japan" => Some(("#c97a12", "#f1c98a")),
        "United Kingdom" => Some(("#8f6a35", "#d9b57a")),
        "Italy" => Some(("#6b4325", "#b39274")),
        "United States" => Some(("#4f6b1f", "#b9cf8c")),
        "China" => Some(("#1f6f5c", "#86c2ae")),
        "France" => Some(("#2b54a0", "#a8bce4")),
        "ANZAC" => Some(("#37585a", "#a9c2c2")),
        "Middle East" => Some(("#7d5a9c", "#cfbfe0")),
        _ => None,
    };
    known.unwrap_or({
        const OTHERS: [(&str, &str); 6] = [
            ("#5b3f8c", "#c9bde2"),
            ("#8c3f6e", "#e2bdd3"),
            ("#3f8c7a", "#bde2d9"),
            ("#8c7a3f", "#e2d9bd"),
            ("#3f4f8c", "#bdc5e2"),
            ("#8c4f3f", "#e2c5bd"),
        ];
        OTHERS[power % OTHERS.len()]
    })
}

/// A unit type's short name on the badges: `inf`, `ftr`, ...
pub fn abbreviation(name: &str) -> String {
    let known = match name.to_lowercase().as_str() {
        "infantry" => "inf",
        "mechanized infantry" | "mech infantry" => "mech",
        "artillery" => "art",
        "armor" | "armour" | "tank" => "arm",
        "heavy armor" | "heavy armour" => "hvy",
        "paratrooper" => "para",
        "special force team" => "sft",
        "air transport" => "atr",
        "fighter" => "ftr",
        "tactical bomber" => "tac",
        "bomber" => "bmb",
        "transport" => "trn",
        "submarine" => "sub",
        "destroyer" => "dd",
        "cruiser" => "ca",
        "battleship" => "bb",
        "carrier" | "aircraft carrier" => "cv",
        "aa gun" | "antiaircraft gun" => "aa",
        "industrial complex" => "ic",
        _ => "",
    };
    if known.is_empty() {
        name.chars()
            .filter(|c| c.is_alphanumeric())
            .take(3)
            .collect::<String>()
            .to_lowercase()
    } else {
        known.to_owned()
    }
}

/// XML text and attribute values.
fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The advance widths of ' ' to '~' in the bundled font (DejaVu Sans
/// Condensed Bold), in units of 1/2048 em, read from the font with
/// fontTools.
const ADVANCE: [u16; 95] = [
    641, 840, 960, 1544, 1282, 1846, 1607, 564, 842, 842, 963, 1544, 700, 765, 700, 673, 1282,
    1282, 1282, 1282, 1282, 1282, 1282, 1282, 1282, 1282, 737, 737, 1544, 1544, 1544, 1069, 1843,
    1426, 1404, 1352, 1530, 1259, 1259, 1512, 1542, 685, 685, 1428, 1174, 1834, 1542, 1566, 1350,
    1566, 1419, 1327, 1257, 1496, 1426, 2033, 1421, 1334, 1336, 842, 673, 842, 1544, 921, 921,
    1243, 1319, 1092, 1319, 1250, 801, 1319, 1312, 631, 631, 1225, 631, 1920, 1312, 1266, 1319,
    1319, 909, 1097, 881, 1312, 1201, 1702, 1188, 1201, 1072, 1312, 673, 1312, 1544,
];

/// The width of a text in the bundled font at `size` (other characters
/// than ASCII taken as a wide letter).
fn text_width(s: &str, size: f32) -> f32 {
    let units: u32 = s
        .chars()
        .map(|c| {
            let i = c as usize;
            if (32..127).contains(&i) {
                u32::from(ADVANCE[i - 32])
            } else {
                1400
            }
        })
        .sum();
    units as f32 * size / 2048.0
}

/// A space's label on the map: the number alone for a numbered sea zone.
fn label(name: &str) -> &str {
    name.strip_prefix("Sea Zone ").unwrap_or(name)
}

/// A five-pointed star centred on (x, y).
fn star(x: f32, y: f32, r: f32) -> String {
    let mut d = String::new();
    for i in 0..10 {
        let radius = if i % 2 == 0 { r } else { r * 0.45 };
        let a = std::f32::consts::PI * (i as f32) / 5.0 - std::f32::consts::FRAC_PI_2;
        let _ = write!(
            d,
            "{}{:.1} {:.1}",
            if i == 0 { "M" } else { "L" },
            x + radius * a.cos(),
            y + radius * a.sin()
        );
    }
    d.push('Z');
    d
}

/// The battle marker: a red disc with crossed swords' lines, at (x, y).
fn battle_marker(out: &mut String, x: f32, y: f32) {
    let _ = writeln!(
        out,
        "<g class=\"battle\"><circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"7\" fill=\"{BATTLE}\" stroke=\"#fff\" stroke-width=\"1.2\"/>\
         <path d=\"M{:.1} {:.1}L{:.1} {:.1}M{:.1} {:.1}L{:.1} {:.1}\" stroke=\"#fff\" stroke-width=\"1.8\" stroke-linecap=\"round\"/></g>",
        x - 3.5,
        y - 3.5,
        x + 3.5,
        y + 3.5,
        x + 3.5,
        y - 3.5,
        x - 3.5,
        y + 3.5
    );
}

/// Where the parts of a space's label go: its marks, its name and its IPC
/// value, left to right, centred on the space's point. Only the game and
/// the shapes decide it (a convoy zone keeps room for its holder's square
/// whoever holds it), so that the labels are the same in every position
/// and the PNG draws them once (`png`).
struct LabelLayout {
    /// The capital's star, centred here.
    star: Option<f32>,
    /// The victory city's ring, centred here.
    victory: Option<f32>,
    /// A convoy zone's holder square, its left edge.
    convoy: Option<f32>,
    /// The name's left edge.
    name: f32,
    /// The name's text size.
    size: f32,
    /// The IPC box's left edge and width.
    ipc: Option<(f32, f32)>,
    /// The whole label's width.
    width: f32,
}

fn label_layout(game: &GameDef, capitals: &[&str], id: SpaceId, x: f32) -> LabelLayout {
    let name = game.space_name(id);
    let territory = game.territory(id);
    let convoy = game.sea_zone(id).and_then(|z| z.convoy.as_ref());
    let ipc = ipc_value(game, id);
    let capital = territory.is_some() && capitals.iter().any(|c| c.eq_ignore_ascii_case(name));
    let victory = territory.is_some_and(|t| t.victory_city);
    let size = if territory.is_some() { LABEL } else { 8.0 };
    let ipc_w = if ipc > 0 {
        text_width(&ipc.to_string(), 8.0) + 4.0
    } else {
        0.0
    };
    let marks_w = if capital { 11.0 } else { 0.0 }
        + if victory { 10.0 } else { 0.0 }
        + if convoy.is_some() { 12.0 } else { 0.0 };
    let name_w = text_width(label(name), size);
    let width = marks_w + name_w + if ipc > 0 { ipc_w + 2.0 } else { 0.0 };
    let mut cx = x - width / 2.0;
    let mut out = LabelLayout {
        star: None,
        victory: None,
        convoy: None,
        name: 0.0,
        size,
        ipc: None,
        width,
    };
    if capital {
        out.star = Some(cx + 5.0);
        cx += 11.0;
    }
    if victory {
        out.victory = Some(cx + 4.5);
        cx += 10.0;
    }
    if convoy.is_some() {
        out.convoy = Some(cx + 1.0);
        cx += 12.0;
    }
    out.name = cx;
    cx += name_w + 2.0;
    if ipc > 0 {
        out.ipc = Some((cx, ipc_w));
    }
    out
}

/// A territory's IPC value, or a convoy zone's; 0 for none.
fn ipc_value(game: &GameDef, id: SpaceId) -> u32 {
    let convoy = game.sea_zone(id).and_then(|z| z.convoy.as_ref());
    game.territory(id)
        .and_then(|t| t.ipc)
        .or(convoy.map(|c| c.value))
        .unwrap_or(0)
}

fn capitals(game: &GameDef) -> Vec<&str> {
    game.powers()
        .iter()
        .filter_map(|p| p.capital.as_deref())
        .collect()
}

/// Spaces in the order their labels are drawn: land over sea, so that
/// coasts stay readable.
fn label_order(game: &GameDef, n: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&s| !game.is_sea(SpaceId(s)));
    order
}

/// The box each space's label takes on the map (x, y, width, height, in
/// the map's pixels, without the title band), by space name: for the test
/// that no two labels of a board overlap.
pub fn label_boxes(game: &GameDef, shapes: &Shapes) -> Result<Vec<(String, [f32; 4])>, MapError> {
    let fitted = shapes.fit(game)?;
    let capitals = capitals(game);
    Ok((0..fitted.len())
        .map(|s| {
            let sh = fitted[s];
            let (x, y) = (sh.x as f32, sh.y as f32);
            let l = label_layout(game, &capitals, SpaceId(s), x);
            let top = if l.star.is_some() { y - 8.5 } else { y - 8.0 };
            (
                game.space_name(SpaceId(s)).to_owned(),
                [x - l.width / 2.0, top, l.width, y + 2.5 - top],
            )
        })
        .collect())
}

/// The parts of the map's SVG, bottom to top: what no position changes
/// (`under`: sea and land that is no space), the position's colours
/// (`base`), what no position changes again (`labels`: names, IPC values,
/// capitals, victory cities, the title and the legend) and the position's
/// units (`overlay`).
/// `render_svg` joins them into one document; the PNG draws the fixed part
/// once per board and process (`png`).
pub struct Layers {
    /// The opening `<svg>` tag.
    pub open: String,
    /// The page, the sea and the land that is no space.
    pub under: String,
    /// The caption, the land in its owners' colours and what changed
    /// hands.
    pub base: String,
    /// The labels, the title and the legend.
    pub labels: String,
    /// Convoy zones' holders, battles, units and damage.
    pub overlay: String,
}

impl Layers {
    /// The whole map as one SVG document.
    pub fn document(&self) -> String {
        let mut out = String::with_capacity(
            self.open.len()
                + self.under.len()
                + self.base.len()
                + self.labels.len()
                + self.overlay.len()
                + 16,
        );
        out.push_str(&self.open);
        out.push_str(&self.under);
        out.push_str(&self.base);
        out.push_str(&self.labels);
        out.push_str(&self.overlay);
        out.push_str("</svg>\n");
        out
    }

    /// One part as an SVG document of its own, the same size.
    pub fn alone(&self, part: &str) -> String {
        format!("{}{part}</svg>\n", self.open)
    }
}

/// The board drawn as SVG: owners by colour, units by type and count on a
/// badge per power, IPC values, capitals and victory cities, what `view`
/// highlights, and a legend.
pub fn render_svg(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> Result<String, MapError> {
    Ok(layers(game, shapes, state, view)?.document())
}

/// The map's SVG in its parts (`Layers`).
pub fn layers(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
    view: &MapView,
) -> Result<Layers, MapError> {
    let fitted = shapes.fit(game)?;
    let w = shapes.width;
    let legend_lines = 4;
    let h = TITLE + shapes.height + legend_lines * LEGEND_LINE + 12;
    let open = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
         font-family=\"{FONT}\" font-weight=\"bold\">\n"
    );
    Ok(Layers {
        under: under(game, shapes, &fitted, w, h),
        base: base(game, &fitted, state, view),
        labels: labels(game, shapes, &fitted),
        overlay: overlay(game, &fitted, state, view),
        open,
    })
}

/// What no position changes under the land: the page, the sea, the sea
/// zones, the water that is none and the land that is no space.
fn under(game: &GameDef, shapes: &Shapes, fitted: &[&SpaceShape], w: u32, h: u32) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = writeln!(
        out,
        "<title>{}</title>\n<rect width=\"{w}\" height=\"{h}\" fill=\"#f7f5f0\"/>",
        esc(&game.files().game.name)
    );
    let _ = writeln!(out, "<g transform=\"translate(0 {TITLE})\">");
    let _ = writeln!(
        out,
        "<rect width=\"{w}\" height=\"{}\" fill=\"{SEA}\"/>",
        shapes.height
    );

    // Sea zones, then the water that is none, then the land that is none.
    let _ = writeln!(
        out,
        "<g fill=\"{SEA_ZONE}\" stroke=\"#ffffff\" stroke-width=\"1\">"
    );
    for (s, sh) in fitted.iter().enumerate() {
        if game.is_sea(SpaceId(s)) && !sh.d.is_empty() {
            let _ = writeln!(out, "<path d=\"{}\"/>", sh.d);
        }
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        "<path d=\"{}\" fill=\"{SEA}\"/>\n<path d=\"{}\" fill=\"{OFF_BOARD}\" stroke=\"#b8b0a0\" stroke-width=\"0.6\"/>",
        shapes.water, shapes.background
    );
    let _ = writeln!(out, "</g>");
    out
}

/// The position's colours: the caption, the land in its owners' colours
/// and what changed hands.
fn base(game: &GameDef, fitted: &[&SpaceShape], state: &GameState, view: &MapView) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"34\" font-size=\"11\" fill=\"#444\">{}</text>",
        esc(&view.caption)
    );
    let _ = writeln!(out, "<g transform=\"translate(0 {TITLE})\">");
    let _ = writeln!(
        out,
        "<g stroke=\"#4a4a4a\" stroke-width=\"0.8\" stroke-linejoin=\"bevel\" fill-rule=\"evenodd\">"
    );
    for (s, sh) in fitted.iter().enumerate() {
        let id = SpaceId(s);
        if game.is_sea(id) {
            continue;
        }
        let fill = state.owner[s].map_or(NEUTRAL, |p| colours(game, p).1);
        if sh.d.is_empty() {
            let _ = writeln!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"{fill}\"/>",
                sh.x, sh.y
            );
        } else {
            let _ = writeln!(out, "<path d=\"{}\" fill=\"{fill}\"/>", sh.d);
        }
    }
    let _ = writeln!(out, "</g>");

    // What changed hands: a bright outline.
    for &id in &view.highlights.captured {
        let sh = fitted[id.0];
        if sh.d.is_empty() {
            let _ = writeln!(
                out,
                "<circle class=\"captured\" cx=\"{}\" cy=\"{}\" r=\"7\" fill=\"none\" stroke=\"{CAPTURED}\" stroke-width=\"2.5\"/>",
                sh.x, sh.y
            );
        } else {
            let _ = writeln!(
                out,
                "<path class=\"captured\" d=\"{}\" fill=\"none\" stroke=\"{CAPTURED}\" stroke-width=\"2.5\" stroke-linejoin=\"round\"/>",
                sh.d
            );
        }
    }
    let _ = writeln!(out, "</g>");
    out
}

/// What no position changes: every space's marks, name and IPC value, the
/// title and the legend.
fn labels(game: &GameDef, shapes: &Shapes, fitted: &[&SpaceShape]) -> String {
    let mut out = String::with_capacity(96 * 1024);
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"18\" font-size=\"15\" fill=\"#222\">{}</text>",
        esc(&game.files().game.name),
    );
    let _ = writeln!(
        out,
        "<g class=\"labels\" transform=\"translate(0 {TITLE})\">"
    );
    let capitals = capitals(game);
    for s in label_order(game, fitted.len()) {
        let id = SpaceId(s);
        let sh = fitted[s];
        let (x, y) = (sh.x as f32, sh.y as f32);
        let l = label_layout(game, &capitals, id, x);
        let _ = writeln!(out, "<g class=\"space\">");
        if let Some(cx) = l.star {
            let _ = writeln!(
                out,
                "<path class=\"capital\" d=\"{}\" fill=\"#ffd21f\" stroke=\"#222\" stroke-width=\"0.7\"/>",
                star(cx, y - 3.0, 5.5)
            );
        }
        if let Some(cx) = l.victory {
            let _ = writeln!(
                out,
                "<circle class=\"victory\" cx=\"{cx:.1}\" cy=\"{:.1}\" r=\"3.6\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"1.6\"/>",
                y - 3.0
            );
        }
        let colour = if game.territory(id).is_some() {
            "#1d1d1d"
        } else {
            "#2d5878"
        };
        let _ = writeln!(
            out,
            "<text x=\"{:.1}\" y=\"{:.1}\" font-size=\"{}\" fill=\"{colour}\" stroke=\"#ffffff\" stroke-width=\"2.2\" stroke-opacity=\"0.75\" paint-order=\"stroke\" stroke-linejoin=\"round\">{}</text>",
            l.name,
            y,
            l.size,
            esc(label(game.space_name(id)))
        );
        if let Some((cx, ipc_w)) = l.ipc {
            let _ = writeln!(
                out,
                "<rect class=\"ipc\" x=\"{cx:.1}\" y=\"{:.1}\" width=\"{ipc_w:.1}\" height=\"10\" rx=\"2\" fill=\"#1d1d1d\"/>\
                 <text x=\"{:.1}\" y=\"{:.1}\" font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">{}</text>",
                y - 8.0,
                cx + ipc_w / 2.0,
                y - 0.5,
                ipc_value(game, id)
            );
        }
        let _ = writeln!(out, "</g>");
    }
    let _ = writeln!(out, "</g>");
    legend(&mut out, game, shapes, TITLE + shapes.height + 4);
    out
}

/// A badge's height.
const BADGE_H: f32 = 11.0;

/// One badge under a space's label: a power's units (`3 inf 2 arm 1
/// ftr`, three types a line) or, for no power, an industrial complex's
/// damage.
struct Badge {
    /// Whose units; `None` for damage.
    power: Option<usize>,
    text: String,
    /// Left edge.
    x: f32,
    /// Top edge.
    y: f32,
    width: f32,
}

/// The badges of space `id` in `state`, centred under its point (x, y).
fn badges(game: &GameDef, state: &GameState, id: SpaceId, x: f32, y: f32) -> Vec<Badge> {
    let mut by_power: BTreeMap<usize, BTreeMap<usize, u32>> = BTreeMap::new();
    for u in state.units_at(id) {
        *by_power
            .entry(u.owner)
            .or_default()
            .entry(u.unit)
            .or_default() += 1;
    }
    let mut out = Vec::new();
    let mut by = y + 3.0;
    let mut push = |power: Option<usize>, text: String| {
        let width = text_width(&text, 8.0) + 6.0;
        out.push(Badge {
            power,
            text,
            x: x - width / 2.0,
            y: by,
            width,
        });
        by += BADGE_H + 0.5;
    };
    for (p, types) in &by_power {
        let entries: Vec<String> = types
            .iter()
            .map(|(u, n)| format!("{n} {}", abbreviation(&game.unit_types()[*u].name)))
            .collect();
        // Three unit types a line, so that a big stack stays narrow.
        for chunk in entries.chunks(BADGE_TYPES) {
            push(Some(*p), chunk.join(" "));
        }
    }
    let damage = state.damage_at(id);
    if damage > 0 {
        push(None, format!("ic damage {damage}"));
    }
    out
}

/// The box of each badge of `state` (x, y, width, height, in the map's
/// pixels, without the title band), by its space's name: for the test
/// that no badge covers another space's label.
pub fn badge_boxes(
    game: &GameDef,
    shapes: &Shapes,
    state: &GameState,
) -> Result<Vec<(String, [f32; 4])>, MapError> {
    let fitted = shapes.fit(game)?;
    let mut out = Vec::new();
    for (s, sh) in fitted.iter().enumerate() {
        let id = SpaceId(s);
        for b in badges(game, state, id, sh.x as f32, sh.y as f32) {
            out.push((game.space_name(id).to_owned(), [b.x, b.y, b.width, BADGE_H]));
        }
    }
    Ok(out)
}

/// What the position puts over the labels: convoy zones' holders, battles,
/// units and damage.
fn overlay(game: &GameDef, fitted: &[&SpaceShape], state: &GameState, view: &MapView) -> String {
    let mut out = String::with_capacity(32 * 1024);
    let _ = writeln!(
        out,
        "<g class=\"position\" transform=\"translate(0 {TITLE})\">"
    );
    let capitals = capitals(game);
    for s in label_order(game, fitted.len()) {
        let id = SpaceId(s);
        let sh = fitted[s];
        let (x, y) = (sh.x as f32, sh.y as f32);
        let holder = game
            .sea_zone(id)
            .and_then(|z| z.convoy.as_ref())
            .and(state.owner[s]);
        if let Some(p) = holder
            && let Some(cx) = label_layout(game, &capitals, id, x).convoy
        {
            let _ = writeln!(
                out,
                "<rect class=\"convoy\" x=\"{cx:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.8\"/>",
                y - 8.0,
                colours(game, p).0
            );
        }
        if view.highlights.battles.contains(&id) {
            battle_marker(&mut out, x, y - 15.0);
        }
        for b in badges(game, state, id, x, y) {
            match b.power {
                Some(p) => {
                    let _ = writeln!(
                        out,
                        "<rect class=\"units\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{BADGE_H}\" rx=\"2.5\" fill=\"{}\" stroke=\"#fff\" stroke-width=\"0.6\"/>\
                         <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">{}</text>",
                        b.x,
                        b.y,
                        b.width,
                        colours(game, p).0,
                        b.y + 8.3,
                        esc(&b.text)
                    );
                }
                None => {
                    let _ = writeln!(
                        out,
                        "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{BADGE_H}\" rx=\"2.5\" fill=\"{BATTLE}\"/>\
                         <text x=\"{x:.1}\" y=\"{:.1}\" font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">{}</text>",
                        b.x,
                        b.y,
                        b.width,
                        b.y + 8.3,
                        b.text
                    );
                }
            }
        }
    }
    let _ = writeln!(out, "</g>");
    out
}

/// The legend under the map: the powers' colours, the markers, the units'
/// short names and the geography's source.
fn legend(out: &mut String, game: &GameDef, shapes: &Shapes, top: u32) {
    let _ = writeln!(out, "<g class=\"legend\" font-size=\"10\" fill=\"#222\">");
    let line = |n: u32| (top + n * LEGEND_LINE + 13) as f32;
    // Powers.
    let mut x = 10.0;
    let y = line(0);
    for p in 0..game.powers().len() {
        let (strong, tint) = colours(game, p);
        let name = &game.powers()[p].name;
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"10\" fill=\"{tint}\" stroke=\"{strong}\" stroke-width=\"2\"/>\
             <text x=\"{:.1}\" y=\"{y:.1}\">{}</text>",
            y - 9.0,
            x + 18.0,
            esc(name)
        );
        x += 18.0 + text_width(name, 10.0) + 14.0;
    }
    let _ = writeln!(
        out,
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"10\" fill=\"{NEUTRAL}\" stroke=\"#4a4a4a\" stroke-width=\"0.8\"/>\
         <text x=\"{:.1}\" y=\"{y:.1}\">neutral</text>",
        y - 9.0,
        x + 18.0
    );
    // Markers.
    let y = line(1);
    let mut x = 10.0;
    let _ = writeln!(
        out,
        "<path d=\"{}\" fill=\"#ffd21f\" stroke=\"#222\" stroke-width=\"0.7\"/><text x=\"{:.1}\" y=\"{y:.1}\">capital</text>",
        star(x + 5.0, y - 4.0, 5.5),
        x + 14.0
    );
    x += 14.0 + text_width("capital", 10.0) + 14.0;
    if (0..game.space_count()).any(|s| game.territory(SpaceId(s)).is_some_and(|t| t.victory_city)) {
        let _ = writeln!(
            out,
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.6\" fill=\"#fff\" stroke=\"#222\" stroke-width=\"1.6\"/><text x=\"{:.1}\" y=\"{y:.1}\">victory city</text>",
            x + 4.0,
            y - 4.0,
            x + 12.0
        );
        x += 12.0 + text_width("victory city", 10.0) + 14.0;
    }
    let _ = writeln!(
        out,
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"12\" height=\"10\" rx=\"2\" fill=\"#1d1d1d\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">5</text><text x=\"{:.1}\" y=\"{y:.1}\">IPC value</text>",
        y - 9.0,
        x + 6.0,
        y - 1.5,
        x + 16.0
    );
    x += 16.0 + text_width("IPC value", 10.0) + 14.0;
    let convoys = (0..game.space_count()).any(|s| {
        game.sea_zone(SpaceId(s))
            .is_some_and(|z| z.convoy.is_some())
    });
    if convoys {
        let _ = writeln!(
            out,
            "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"9\" height=\"9\" fill=\"#4d4d4d\"/><text x=\"{:.1}\" y=\"{y:.1}\">convoy zone's holder</text>",
            y - 8.5,
            x + 13.0
        );
        x += 13.0 + text_width("convoy zone's holder", 10.0) + 14.0;
    }
    let _ = writeln!(
        out,
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"14\" height=\"10\" fill=\"none\" stroke=\"{CAPTURED}\" stroke-width=\"2.5\"/><text x=\"{:.1}\" y=\"{y:.1}\">changed hands this turn</text>",
        y - 9.0,
        x + 18.0
    );
    x += 18.0 + text_width("changed hands this turn", 10.0) + 14.0;
    battle_marker(out, x + 7.0, y - 4.0);
    let _ = writeln!(
        out,
        "<text x=\"{:.1}\" y=\"{y:.1}\">battle this turn</text>",
        x + 18.0
    );
    x += 18.0 + text_width("battle this turn", 10.0) + 14.0;
    let _ = writeln!(
        out,
        "<rect x=\"{x:.1}\" y=\"{:.1}\" width=\"30\" height=\"11\" rx=\"2.5\" fill=\"#4d4d4d\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"8\" fill=\"#fff\" text-anchor=\"middle\">3 inf</text><text x=\"{:.1}\" y=\"{y:.1}\">units, in their owner's colour</text>",
        y - 9.5,
        x + 15.0,
        y - 1.2,
        x + 34.0
    );
    // Units' short names.
    let mut names: Vec<String> = Vec::new();
    for u in game.unit_types() {
        let entry = format!("{} {}", abbreviation(&u.name), u.name);
        if !names.contains(&entry) {
            names.push(entry);
        }
    }
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"{:.1}\">{}</text>",
        line(2),
        esc(&format!("Units: {}", names.join(" \u{b7} ")))
    );
    let _ = writeln!(
        out,
        "<text x=\"10\" y=\"{:.1}\" font-size=\"8\" fill=\"#666\">{}</text>",
        line(3),
        esc(&shapes.provenance)
    );
    let _ = writeln!(out, "</g>");
}
