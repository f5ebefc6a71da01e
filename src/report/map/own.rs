//! An organiser's own geometry for a match (issue 20, item 2): an SVG with
//! one id per territory, or a TripleA map folder they downloaded
//! (`polygons.txt`, `centers.txt`, `place.txt`). It is read at run time from
//! where the organiser keeps it and never becomes part of this repository
//! or of the match's log: the match directory's `map.yaml` points at it
//! (`geometry: PATH`), or `adjutant map --geometry PATH`.
//!
//! Names are the board's, or any of its aliases (TripleA's `7 Sea Zone` is
//! the board's `Sea Zone 7`), case-insensitively. The drawing is scaled to
//! at most `MAX_WIDTH` pixels wide (labels keep their size), and to at least
//! `MIN_WIDTH`.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use super::{MapError, Shapes, SpaceShape};
use crate::rules::names::did_you_mean;
use crate::rules::{GameDef, SpaceId};

/// The widest drawing: the built-in boards' width, which the labels' size
/// suits.
pub const MAX_WIDTH: f64 = 2200.0;
/// The narrowest drawing: smaller geometry is scaled up to this width.
pub const MIN_WIDTH: f64 = 1000.0;

/// The file in a match directory that points at the match's own geometry.
pub const MATCH_FILE: &str = "map.yaml";

/// `map.yaml` in a match directory.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MatchMap {
    /// An SVG file or a TripleA map folder, relative to the match
    /// directory or absolute.
    geometry: PathBuf,
}

/// Where a match's own geometry is, when its directory's `map.yaml` names
/// one.
pub fn match_geometry(dir: &Path) -> Result<Option<PathBuf>, MapError> {
    let file = dir.join(MATCH_FILE);
    if !file.is_file() {
        return Ok(None);
    }
    let read_err = |reason: String| MapError::Read {
        path: file.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(&file).map_err(|e| read_err(e.to_string()))?;
    let m: MatchMap = serde_saphyr::from_str(&text).map_err(|e| {
        read_err(format!(
            "{e} (expected one field, `geometry: PATH`, an SVG file or a TripleA map folder)"
        ))
    })?;
    Ok(Some(dir.join(m.geometry)))
}

/// The shapes of `game` from an organiser's geometry: a `.svg` file, or a
/// TripleA map folder (or its `polygons.txt`).
pub fn read_geometry(path: &Path, game: &GameDef) -> Result<Shapes, MapError> {
    let is_svg = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    if is_svg {
        return svg_geometry(path, game);
    }
    let folder = if path.is_dir() {
        path.to_path_buf()
    } else if path.file_name().is_some_and(|n| n == "polygons.txt") {
        path.parent().unwrap_or(Path::new(".")).to_path_buf()
    } else {
        return Err(MapError::Read {
            path: path.display().to_string(),
            reason: "not an SVG file (.svg) nor a TripleA map folder (with polygons.txt)"
                .to_owned(),
        });
    };
    triplea_geometry(&folder, game)
}

/// A point.
type Pt = (f64, f64);

/// One space's outline, as absolute path commands, before scaling.
#[derive(Default, Clone)]
struct Outline {
    /// `M`, `L`, `C`, `Q` and `Z` with their points.
    cmds: Vec<(char, Vec<Pt>)>,
}

impl Outline {
    fn points(&self) -> impl Iterator<Item = &Pt> {
        self.cmds.iter().flat_map(|(_, p)| p.iter())
    }

    fn bbox_centre(&self) -> Option<Pt> {
        let mut it = self.points();
        let first = *it.next()?;
        let (mut x0, mut y0, mut x1, mut y1) = (first.0, first.1, first.0, first.1);
        for &(x, y) in it {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x);
            y1 = y1.max(y);
        }
        Some(((x0 + x1) / 2.0, (y0 + y1) / 2.0))
    }

    fn path_data(&self, scale: f64) -> String {
        let mut d = String::new();
        for (c, pts) in &self.cmds {
            d.push(*c);
            for (i, (x, y)) in pts.iter().enumerate() {
                if i > 0 {
                    d.push(' ');
                }
                let _ = write!(d, "{} {}", round1(x * scale), round1(y * scale));
            }
        }
        d
    }
}

/// One decimal, without a trailing `.0`.
fn round1(v: f64) -> String {
    let r = (v * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// What a geometry file gave for each of the board's spaces, and the names
/// it has that are none (with where they are).
struct Found {
    outlines: BTreeMap<usize, Outline>,
    points: BTreeMap<usize, Pt>,
    width: f64,
    height: f64,
}

/// Turns what was found into shapes that fit the board, or says which of
/// the board's spaces the geometry lacks.
fn finish(
    found: Found,
    game: &GameDef,
    path: &Path,
    what: &str,
    strays: &[String],
) -> Result<Shapes, MapError> {
    let missing: Vec<&str> = (0..game.space_count())
        .filter(|s| !found.outlines.contains_key(s))
        .map(|s| game.space_name(SpaceId(s)))
        .collect();
    if !missing.is_empty() {
        let mut reason = format!(
            "no {what} for {} of the board's spaces: {}",
            missing.len(),
            missing.join(", ")
        );
        if !strays.is_empty() {
            let _ = write!(reason, " (unused there: {})", strays.join(", "));
        }
        return Err(MapError::Mismatch {
            game: format!("{} (geometry {})", game.id(), path.display()),
            reason,
        });
    }
    if found.width <= 0.0 || found.height <= 0.0 {
        return Err(MapError::Read {
            path: path.display().to_string(),
            reason: "the geometry has no size".to_owned(),
        });
    }
    let scale = if found.width > MAX_WIDTH {
        MAX_WIDTH / found.width
    } else if found.width < MIN_WIDTH {
        MIN_WIDTH / found.width
    } else {
        1.0
    };
    let spaces = (0..game.space_count())
        .map(|s| {
            let id = SpaceId(s);
            let outline = found.outlines.get(&s);
            let (x, y) = found
                .points
                .get(&s)
                .copied()
                .or_else(|| outline.and_then(Outline::bbox_centre))
                .unwrap_or((0.0, 0.0));
            SpaceShape {
                name: game.space_name(id).to_owned(),
                kind: if game.is_sea(id) { "sea" } else { "land" }.to_owned(),
                x: (x * scale).round() as i32,
                y: (y * scale).round() as i32,
                d: outline.map(|o| o.path_data(scale)).unwrap_or_default(),
            }
        })
        .collect();
    Ok(Shapes {
        title: game.files().game.name.clone(),
        provenance: format!(
            "Geometry of the organiser's own ({}), read at run time; not part of Adjutant.",
            path.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default()
        ),
        width: (found.width * scale).round() as u32,
        height: (found.height * scale).round() as u32,
        background: String::new(),
        water: String::new(),
        spaces,
    })
}

/// A name of the geometry that is no space: where, what, what would be
/// valid.
fn unknown(game: &GameDef, where_: &str, name: &str) -> String {
    let names: Vec<&str> = (0..game.space_count())
        .map(|s| game.space_name(SpaceId(s)))
        .collect();
    match did_you_mean(name, names.iter().copied()) {
        Some(m) => format!("{where_}: \"{name}\" is no space of the board (did you mean {m}?)"),
        None => format!(
            "{where_}: \"{name}\" is no space of the board (its spaces are named as in board.yaml, e.g. {})",
            names.iter().take(3).copied().collect::<Vec<_>>().join(", ")
        ),
    }
}

// ---- TripleA map folders ----------------------------------------------

/// `Name  (x,y) (x,y)` or `Name  <  (x,y) ... >  < ... >`: the name and
/// its points, polygon by polygon.
fn triplea_line(line: &str) -> Option<(&str, Vec<Vec<Pt>>)> {
    let cut = line.find(['(', '<'])?;
    let name = line[..cut].trim();
    let mut polygons: Vec<Vec<Pt>> = vec![Vec::new()];
    let mut rest = &line[cut..];
    while let Some(i) = rest.find(['(', '<', '>', '|']) {
        match rest.as_bytes()[i] {
            b'<' => {
                if !polygons.last().is_some_and(Vec::is_empty) {
                    polygons.push(Vec::new());
                }
                rest = &rest[i + 1..];
            }
            b'>' => rest = &rest[i + 1..],
            // `| overflowToLeft=...` and the like: not points.
            b'|' => break,
            _ => {
                let end = rest[i..].find(')')? + i;
                let (x, y) = rest[i + 1..end].split_once(',')?;
                let p = (x.trim().parse().ok()?, y.trim().parse().ok()?);
                polygons.last_mut()?.push(p);
                rest = &rest[end + 1..];
            }
        }
    }
    polygons.retain(|p| !p.is_empty());
    Some((name, polygons))
}

/// Each line of a TripleA text file with its number, name and points;
/// an error names the file and line of every name that is no space.
#[allow(clippy::type_complexity)]
fn triplea_file(
    path: &Path,
    game: &GameDef,
    errors: &mut Vec<String>,
) -> Result<Vec<(usize, Vec<Vec<Pt>>)>, MapError> {
    let text = std::fs::read_to_string(path).map_err(|e| MapError::Read {
        path: path.display().to_string(),
        reason: e.to_string(),
    })?;
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let where_ = format!("{}:{}", path.display(), n + 1);
        let Some((name, polygons)) = triplea_line(line) else {
            errors.push(format!(
                "{where_}: expected a territory's name and its points, `NAME  (x,y) (x,y) ...`"
            ));
            continue;
        };
        match game.space(name) {
            Some(id) => out.push((id.0, polygons)),
            None => errors.push(unknown(game, &where_, name)),
        }
    }
    Ok(out)
}

fn triplea_geometry(folder: &Path, game: &GameDef) -> Result<Shapes, MapError> {
    let polygons_file = folder.join("polygons.txt");
    if !polygons_file.is_file() {
        return Err(MapError::Read {
            path: polygons_file.display().to_string(),
            reason: "a TripleA map folder has polygons.txt (and centers.txt, place.txt)".to_owned(),
        });
    }
    let mut errors = Vec::new();
    let mut found = Found {
        outlines: BTreeMap::new(),
        points: BTreeMap::new(),
        width: 0.0,
        height: 0.0,
    };
    for (s, polygons) in triplea_file(&polygons_file, game, &mut errors)? {
        let outline = found.outlines.entry(s).or_default();
        for poly in polygons {
            for (i, p) in poly.iter().enumerate() {
                found.width = found.width.max(p.0);
                found.height = found.height.max(p.1);
                outline
                    .cmds
                    .push((if i == 0 { 'M' } else { 'L' }, vec![*p]));
            }
            outline.cmds.push(('Z', Vec::new()));
        }
    }
    // The label at the territory's centre; else at its first place for
    // units; else the middle of its outline.
    for file in ["place.txt", "centers.txt"] {
        let path = folder.join(file);
        if path.is_file() {
            for (s, polygons) in triplea_file(&path, game, &mut errors)? {
                if let Some(p) = polygons.first().and_then(|p| p.first()) {
                    found.points.insert(s, *p);
                }
            }
        }
    }
    if !errors.is_empty() {
        return Err(MapError::Mismatch {
            game: format!("{} (geometry {})", game.id(), folder.display()),
            reason: errors.join("; "),
        });
    }
    finish(found, game, &polygons_file, "polygon in polygons.txt", &[])
}

// ---- SVG ---------------------------------------------------------------

/// An affine transform `[a b c d e f]`, as SVG's `matrix`.
type Affine = [f64; 6];

const IDENTITY: Affine = [1.0, 0.0, 0.0, 1.0, 0.0, 0.0];

fn apply(m: &Affine, (x, y): Pt) -> Pt {
    (m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5])
}

fn compose(m: &Affine, n: &Affine) -> Affine {
    [
        m[0] * n[0] + m[2] * n[1],
        m[1] * n[0] + m[3] * n[1],
        m[0] * n[2] + m[2] * n[3],
        m[1] * n[2] + m[3] * n[3],
        m[0] * n[4] + m[2] * n[5] + m[4],
        m[1] * n[4] + m[3] * n[5] + m[5],
    ]
}

/// Numbers in SVG attribute syntax (`1,2 -3.5e1 .5.5`).
fn numbers(s: &str) -> Result<Vec<f64>, String> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() || c == b',' {
            i += 1;
            continue;
        }
        let start = i;
        if c == b'+' || c == b'-' {
            i += 1;
        }
        let mut dot = false;
        while i < b.len() && (b[i].is_ascii_digit() || (b[i] == b'.' && !dot)) {
            dot |= b[i] == b'.';
            i += 1;
        }
        if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
            i += 1;
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                i += 1;
            }
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
        if i == start {
            return Err(format!("unexpected {:?}", c as char));
        }
        out.push(
            s[start..i]
                .parse()
                .map_err(|_| format!("not a number: {}", &s[start..i]))?,
        );
    }
    Ok(out)
}

fn transform(s: &str) -> Result<Affine, String> {
    let mut m = IDENTITY;
    let mut rest = s.trim();
    while !rest.is_empty() {
        let open = rest
            .find('(')
            .ok_or_else(|| format!("bad transform {s:?}"))?;
        let close = rest
            .find(')')
            .ok_or_else(|| format!("bad transform {s:?}"))?;
        let name = rest[..open].trim().trim_start_matches(',').trim();
        let v = numbers(&rest[open + 1..close])?;
        let n: Affine = match (name, v.as_slice()) {
            ("matrix", [a, b, c, d, e, f]) => [*a, *b, *c, *d, *e, *f],
            ("translate", [x]) => [1.0, 0.0, 0.0, 1.0, *x, 0.0],
            ("translate", [x, y]) => [1.0, 0.0, 0.0, 1.0, *x, *y],
            ("scale", [k]) => [*k, 0.0, 0.0, *k, 0.0, 0.0],
            ("scale", [x, y]) => [*x, 0.0, 0.0, *y, 0.0, 0.0],
            ("rotate", [a]) => {
                let (sin, cos) = a.to_radians().sin_cos();
                [cos, sin, -sin, cos, 0.0, 0.0]
            }
            _ => {
                return Err(format!(
                    "unsupported transform {name}({})",
                    &rest[open + 1..close]
                ));
            }
        };
        m = compose(&m, &n);
        rest = rest[close + 1..].trim();
    }
    Ok(m)
}

/// Path data as absolute `M L C Q Z` commands, transformed by `m`. Arcs
/// are drawn as straight lines to their end (territory outlines rarely
/// have them).
fn path_outline(d: &str, m: &Affine, out: &mut Outline) -> Result<(), String> {
    let b = d.as_bytes();
    let mut i = 0;
    let mut cur: Pt = (0.0, 0.0);
    let mut start: Pt = (0.0, 0.0);
    let mut last_ctrl: Option<Pt> = None;
    let mut cmd = b'M';
    let mut args: Vec<f64> = Vec::new();
    // Split into commands with their numbers.
    let mut groups: Vec<(u8, Vec<f64>)> = Vec::new();
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() && c != b'e' && c != b'E' {
            if i > 0 || !args.is_empty() {
                groups.push((cmd, std::mem::take(&mut args)));
            }
            cmd = c;
            i += 1;
            continue;
        }
        let end = b[i..]
            .iter()
            .position(|&x| x.is_ascii_alphabetic() && x != b'e' && x != b'E')
            .map_or(b.len(), |p| i + p);
        args.extend(numbers(&d[i..end])?);
        i = end;
    }
    groups.push((cmd, args));
    for (c, v) in groups {
        let rel = c.is_ascii_lowercase();
        let up = c.to_ascii_uppercase();
        let arity = match up {
            b'M' | b'L' | b'T' => 2,
            b'H' | b'V' => 1,
            b'C' => 6,
            b'S' | b'Q' => 4,
            b'A' => 7,
            b'Z' => 0,
            _ => return Err(format!("unknown path command {:?}", c as char)),
        };
        if up == b'Z' {
            out.cmds.push(('Z', Vec::new()));
            cur = start;
            last_ctrl = None;
            continue;
        }
        if v.is_empty() || v.len() % arity != 0 {
            return Err(format!(
                "path command {:?} takes {arity} numbers at a time",
                c as char
            ));
        }
        for (k, a) in v.chunks(arity).enumerate() {
            let p = |x: f64, y: f64| if rel { (cur.0 + x, cur.1 + y) } else { (x, y) };
            match up {
                b'M' => {
                    cur = p(a[0], a[1]);
                    if k == 0 {
                        start = cur;
                        out.cmds.push(('M', vec![apply(m, cur)]));
                    } else {
                        out.cmds.push(('L', vec![apply(m, cur)]));
                    }
                    last_ctrl = None;
                }
                b'L' | b'A' => {
                    cur = if up == b'L' {
                        p(a[0], a[1])
                    } else {
                        p(a[5], a[6])
                    };
                    out.cmds.push(('L', vec![apply(m, cur)]));
                    last_ctrl = None;
                }
                b'H' => {
                    cur = (if rel { cur.0 + a[0] } else { a[0] }, cur.1);
                    out.cmds.push(('L', vec![apply(m, cur)]));
                    last_ctrl = None;
                }
                b'V' => {
                    cur = (cur.0, if rel { cur.1 + a[0] } else { a[0] });
                    out.cmds.push(('L', vec![apply(m, cur)]));
                    last_ctrl = None;
                }
                b'C' | b'S' => {
                    let (c1, c2, end) = if up == b'C' {
                        (p(a[0], a[1]), p(a[2], a[3]), p(a[4], a[5]))
                    } else {
                        let c1 = last_ctrl.map_or(cur, |q| (2.0 * cur.0 - q.0, 2.0 * cur.1 - q.1));
                        (c1, p(a[0], a[1]), p(a[2], a[3]))
                    };
                    out.cmds
                        .push(('C', vec![apply(m, c1), apply(m, c2), apply(m, end)]));
                    last_ctrl = Some(c2);
                    cur = end;
                }
                _ => {
                    // Q and T.
                    let (c1, end) = if up == b'Q' {
                        (p(a[0], a[1]), p(a[2], a[3]))
                    } else {
                        let c1 = last_ctrl.map_or(cur, |q| (2.0 * cur.0 - q.0, 2.0 * cur.1 - q.1));
                        (c1, p(a[0], a[1]))
                    };
                    out.cmds.push(('Q', vec![apply(m, c1), apply(m, end)]));
                    last_ctrl = Some(c1);
                    cur = end;
                }
            }
        }
    }
    Ok(())
}

/// A shape element's outline (path, polygon, polyline, rect, circle,
/// ellipse), and a group's: all of its shapes.
fn element_outline(node: roxmltree::Node, m: &Affine, out: &mut Outline) -> Result<(), String> {
    let m = match node.attribute("transform") {
        Some(t) => compose(m, &transform(t)?),
        None => *m,
    };
    let num = |a: &str| -> Result<f64, String> {
        node.attribute(a).map_or(Ok(0.0), |v| {
            v.trim_end_matches("px")
                .trim()
                .parse()
                .map_err(|_| format!("{a}=\"{v}\" is not a number"))
        })
    };
    match node.tag_name().name() {
        "path" => path_outline(node.attribute("d").unwrap_or(""), &m, out)?,
        "polygon" | "polyline" => {
            let v = numbers(node.attribute("points").unwrap_or(""))?;
            for (i, p) in v.chunks_exact(2).enumerate() {
                out.cmds.push((
                    if i == 0 { 'M' } else { 'L' },
                    vec![apply(&m, (p[0], p[1]))],
                ));
            }
            out.cmds.push(('Z', Vec::new()));
        }
        "rect" => {
            let (x, y, w, h) = (num("x")?, num("y")?, num("width")?, num("height")?);
            for (i, p) in [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
                .into_iter()
                .enumerate()
            {
                out.cmds
                    .push((if i == 0 { 'M' } else { 'L' }, vec![apply(&m, p)]));
            }
            out.cmds.push(('Z', Vec::new()));
        }
        "circle" | "ellipse" => {
            let (cx, cy) = (num("cx")?, num("cy")?);
            let (rx, ry) = if node.tag_name().name() == "circle" {
                (num("r")?, num("r")?)
            } else {
                (num("rx")?, num("ry")?)
            };
            // Sixteen sides are round enough for an island.
            for i in 0..16 {
                let a = std::f64::consts::TAU * f64::from(i) / 16.0;
                out.cmds.push((
                    if i == 0 { 'M' } else { 'L' },
                    vec![apply(&m, (cx + rx * a.cos(), cy + ry * a.sin()))],
                ));
            }
            out.cmds.push(('Z', Vec::new()));
        }
        _ => {
            for child in node.children().filter(roxmltree::Node::is_element) {
                element_outline(child, &m, out)?;
            }
        }
    }
    Ok(())
}

/// The transform of `node`'s ancestors (not its own).
fn ancestors_transform(node: roxmltree::Node) -> Result<Affine, String> {
    let mut chain: Vec<&str> = node
        .ancestors()
        .skip(1)
        .filter_map(|a| a.attribute("transform"))
        .collect();
    chain.reverse();
    let mut m = IDENTITY;
    for t in chain {
        m = compose(&m, &transform(t)?);
    }
    Ok(m)
}

fn svg_geometry(path: &Path, game: &GameDef) -> Result<Shapes, MapError> {
    let read_err = |reason: String| MapError::Read {
        path: path.display().to_string(),
        reason,
    };
    let text = std::fs::read_to_string(path).map_err(|e| read_err(e.to_string()))?;
    let doc = roxmltree::Document::parse(&text).map_err(|e| read_err(e.to_string()))?;
    let root = doc.root_element();
    if root.tag_name().name() != "svg" {
        return Err(read_err("not an SVG document".to_owned()));
    }
    // The drawing's size and origin: its viewBox, else its width and height.
    let (x0, y0, width, height) = match root.attribute("viewBox") {
        Some(v) => match numbers(v).map_err(|e| read_err(format!("viewBox: {e}")))?[..] {
            [x, y, w, h] => (x, y, w, h),
            _ => return Err(read_err(format!("viewBox=\"{v}\": expected four numbers"))),
        },
        None => {
            let dim = |a: &str| {
                root.attribute(a)
                    .and_then(|v| v.trim_end_matches("px").trim().parse::<f64>().ok())
                    .ok_or_else(|| {
                        read_err(format!(
                            "the <svg> element has no viewBox and no {a} in pixels"
                        ))
                    })
            };
            (0.0, 0.0, dim("width")?, dim("height")?)
        }
    };
    let origin: Affine = [1.0, 0.0, 0.0, 1.0, -x0, -y0];
    let mut found = Found {
        outlines: BTreeMap::new(),
        points: BTreeMap::new(),
        width,
        height,
    };
    let mut strays = Vec::new();
    let mut errors = Vec::new();
    for node in root.descendants().filter(roxmltree::Node::is_element) {
        let Some(id) = node.attribute("id") else {
            continue;
        };
        if node
            .ancestors()
            .any(|a| matches!(a.tag_name().name(), "defs" | "clipPath" | "mask" | "symbol"))
        {
            continue;
        }
        // Ids cannot hold every character of a name: `Sea_Zone_7` and
        // `sea-zone-7` are `Sea Zone 7`.
        let name = id.replace(['_', '-'], " ");
        let Some(space) = game.space(&name).or_else(|| game.space(id)) else {
            if matches!(
                node.tag_name().name(),
                "path" | "polygon" | "polyline" | "rect" | "circle" | "ellipse" | "g"
            ) {
                strays.push(format!("id=\"{id}\""));
            }
            continue;
        };
        if found.outlines.contains_key(&space.0) {
            errors.push(format!(
                "line {}: a second element for {} (id=\"{id}\"); one element (a group for several pieces) a space",
                doc.text_pos_at(node.range().start).row,
                game.space_name(space)
            ));
            continue;
        }
        let mut outline = Outline::default();
        let m = ancestors_transform(node)
            .map(|m| compose(&origin, &m))
            .and_then(|m| element_outline(node, &m, &mut outline));
        match m {
            Ok(()) if outline.cmds.is_empty() => errors.push(format!(
                "line {}: id=\"{id}\" has no shape",
                doc.text_pos_at(node.range().start).row
            )),
            Ok(()) => {
                found.outlines.insert(space.0, outline);
            }
            Err(e) => errors.push(format!(
                "line {}: id=\"{id}\": {e}",
                doc.text_pos_at(node.range().start).row
            )),
        }
    }
    if !errors.is_empty() {
        return Err(read_err(errors.join("; ")));
    }
    strays.truncate(12);
    finish(found, game, path, "element with its name as id", &strays)
}
