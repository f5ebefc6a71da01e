//! The map of the board (issue 20): every built-in board has shapes that
//! fit it and renders from its setup (SVG snapshots with insta, in
//! `tests/snapshots/map/`; `cargo insta review` or `INSTA_UPDATE=always`
//! to accept a change), the PNG is stable and decodes, what changed is
//! highlighted, and the map data stays out of what a match copies and
//! hashes.

use std::process::Command;

use adjutant::report::map::{Highlights, MapView, Shapes, builtin_maps, render_svg};
use adjutant::rules::builtin::{GAMES, GameSource};
use adjutant::rules::state::GameState;
use adjutant::rules::{GameDef, SpaceId};

fn game(id: &str) -> GameDef {
    GameSource::Builtin.load(id).expect("built-in game").def
}

/// Every board with a built-in map: the built-in games (Advanced AAE's
/// among them since its rule set is done).
fn every_board() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.id).collect()
}

fn setup_svg(id: &str) -> String {
    let game = game(id);
    let shapes = Shapes::builtin(id).expect("a built-in map");
    render_svg(
        &game,
        &shapes,
        &GameState::initial(&game),
        &MapView::setup(),
    )
    .expect("the map fits the board")
}

#[test]
fn every_built_in_game_has_a_map_that_fits_its_board() {
    for id in every_board() {
        assert!(
            builtin_maps().any(|m| m == id),
            "{id}: add games/{id}/map/ (tools/map_shapes.py) and its line in src/report/map/mod.rs",
        );
        let shapes = Shapes::builtin(id).unwrap();
        let game = game(id);
        let fitted = shapes.fit(&game).unwrap();
        assert_eq!(fitted.len(), game.space_count());
        for sh in &fitted {
            assert!(
                sh.x >= 0
                    && sh.y >= 0
                    && sh.x <= shapes.width as i32
                    && sh.y <= shapes.height as i32,
                "{}: {} is placed off the map",
                id,
                sh.name
            );
        }
        assert!(shapes.provenance.contains("Natural Earth"));
    }
}

#[test]
fn the_map_data_stays_small() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    for id in every_board() {
        let len = std::fs::metadata(root.join(id).join("map/shapes.json"))
            .unwrap()
            .len();
        assert!(len < 64 * 1024, "{id}: shapes.json is {len} bytes");
    }
}

#[test]
fn map_data_is_not_part_of_what_a_match_copies_and_hashes() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    for g in GAMES {
        let names: Vec<String> = GameSource::Dir(root.clone())
            .load(g.id)
            .unwrap()
            .files
            .into_iter()
            .map(|(n, _)| n)
            .collect();
        assert_eq!(
            names,
            ["board.yaml", "game.yaml", "setup.yaml", "units.yaml"],
            "{}",
            g.id
        );
    }
}

#[test]
fn aae_setup_svg() {
    insta::with_settings!({snapshot_path => "snapshots/map", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("aae_setup", setup_svg("aae"));
    });
}

#[test]
fn anniversary_1941_setup_svg() {
    insta::with_settings!({snapshot_path => "snapshots/map", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("anniversary_1941_setup", setup_svg("anniversary-1941"));
    });
}

#[test]
fn anniversary_1942_setup_svg() {
    insta::with_settings!({snapshot_path => "snapshots/map", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("anniversary_1942_setup", setup_svg("anniversary-1942"));
    });
}

#[test]
fn classic_setup_svg() {
    insta::with_settings!({snapshot_path => "snapshots/map", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("classic_setup", setup_svg("classic"));
    });
}

#[test]
fn advanced_aae_setup_svg() {
    insta::with_settings!({snapshot_path => "snapshots/map", prepend_module_to_snapshot => false}, {
        insta::assert_snapshot!("advanced_aae_setup", setup_svg("advanced-aae"));
    });
}

#[test]
fn the_svg_shows_owners_units_ipcs_capitals_and_a_legend() {
    let svg = setup_svg("anniversary-1941");
    // Owners by colour: Germany's tint; units as badges; IPC boxes.
    assert!(svg.contains("fill=\"#b4b4b4\""));
    assert!(svg.contains("class=\"units\""));
    assert!(svg.contains("class=\"ipc\""));
    assert_eq!(
        svg.matches("class=\"capital\"").count(),
        7 - 1,
        "China has no capital"
    );
    assert!(svg.contains("class=\"victory\""));
    assert!(svg.contains("class=\"legend\""));
    assert!(svg.contains("inf infantry"));
    // Plain text, escaped; no scripts or external resources.
    assert!(svg.contains("Axis &amp; Allies"));
    assert!(!svg.contains("<script"));
    assert!(!svg.contains("href"));
}

#[test]
fn what_changed_is_highlighted() {
    let game = game("aae");
    let shapes = Shapes::builtin("aae").unwrap();
    let events = [
        "Germany captured Karelia from Soviet Union".to_owned(),
        "battle in Karelia over after 2 round(s): the attacker won".to_owned(),
        "battle pending in Baltic Sea".to_owned(),
        "Germany combat move: 2 infantry: Finland -> Karelia".to_owned(),
    ];
    let h = Highlights::from_log(&game, &events);
    let karelia = game.space("Karelia").unwrap();
    let baltic = game.space("Baltic Sea").unwrap();
    assert_eq!(
        h.captured.iter().copied().collect::<Vec<SpaceId>>(),
        [karelia]
    );
    assert_eq!(
        h.battles.iter().copied().collect::<Vec<SpaceId>>(),
        [karelia.min(baltic), karelia.max(baltic)]
    );
    let view = MapView {
        caption: "Round 1, after Germany's stage 1".to_owned(),
        highlights: h,
    };
    let svg = render_svg(&game, &shapes, &GameState::initial(&game), &view).unwrap();
    assert_eq!(svg.matches("class=\"captured\"").count(), 1);
    // Two on the map, one in the legend.
    assert_eq!(svg.matches("class=\"battle\"").count(), 3);
    assert!(
        svg.contains("Round 1, after Germany&#39;s stage 1")
            || svg.contains("Round 1, after Germany's stage 1")
    );
}

#[test]
fn a_map_that_does_not_fit_says_which_spaces() {
    let game = game("aae");
    let err = Shapes::builtin("anniversary-1941")
        .unwrap()
        .fit(&game)
        .unwrap_err()
        .to_string();
    assert!(err.contains("no shape for Stalingrad"), "{err}");
    assert!(err.contains("Sea Zone 1 is no space of the board"), "{err}");
}

#[cfg(feature = "png")]
#[test]
fn the_png_is_stable_and_decodes() {
    use adjutant::report::map::png::svg_to_png;
    for id in every_board() {
        let svg = setup_svg(id);
        let a = svg_to_png(&svg).unwrap();
        let b = svg_to_png(&svg).unwrap();
        assert_eq!(a, b, "{id}: the same SVG gives the same bytes");
        assert!(a.len() < 400 * 1024, "{id}: {} bytes", a.len());
        // What reports send: the layered drawing, at most 300 KB (issue 20).
        let game = game(id);
        let shapes = Shapes::builtin(id).unwrap();
        let layered = adjutant::report::map::png::render_png(
            &game,
            &shapes,
            &GameState::initial(&game),
            &MapView::setup(),
        )
        .unwrap();
        assert!(layered.len() <= 300 * 1024, "{id}: {} bytes", layered.len());
        assert_eq!(
            layered,
            adjutant::report::map::png::render_png(
                &game,
                &shapes,
                &GameState::initial(&game),
                &MapView::setup(),
            )
            .unwrap(),
            "{id}: the layers drawn from the cache give the same bytes"
        );
        let decoder = png::Decoder::new(std::io::Cursor::new(&a));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        let shapes = Shapes::builtin(id).unwrap();
        assert_eq!(info.width, shapes.width);
        assert!(info.height > shapes.height);
        // Not blank: many distinct pixel values.
        let distinct: std::collections::BTreeSet<&[u8]> = buf[..info.buffer_size()]
            .chunks(info.line_size / info.width as usize)
            .collect();
        assert!(distinct.len() > 16, "{id}: {} colours", distinct.len());
        std::fs::create_dir_all(env!("CARGO_TARGET_TMPDIR")).unwrap();
        std::fs::write(
            std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("map-{id}.png")),
            &a,
        )
        .unwrap();
    }
}

#[test]
fn adjutant_map_writes_svg_and_png() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("map-cli");
    std::fs::create_dir_all(&dir).unwrap();
    let exts: &[&str] = if cfg!(feature = "png") {
        &["svg", "png"]
    } else {
        &["svg"]
    };
    for ext in exts {
        let out = dir.join(format!("aae.{ext}"));
        let status = Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .args(["map", "--game", "aae", "--out"])
            .arg(&out)
            .status()
            .unwrap();
        assert!(status.success());
        assert!(std::fs::metadata(&out).unwrap().len() > 10_000);
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["map", "--game", "aae", "--out"])
        .arg(dir.join("aae.gif"))
        .output()
        .unwrap();
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains(".svg or .png"));
}

#[test]
fn adjutant_map_of_a_match_highlights_its_last_message() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("map-match-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let m = root.join("m");
    let run = |args: &[&std::ffi::OsStr]| {
        let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let os = |s: &str| std::ffi::OsString::from(s);
    run(&[
        &os("new"),
        &os("--game"),
        &os("aae"),
        &os("--players"),
        &os("tests/fixtures/aae-players.yaml"),
        &os("--dir"),
        m.as_os_str(),
    ]);
    let before = root.join("before.svg");
    run(&[
        &os("map"),
        &os("--match"),
        m.as_os_str(),
        &os("--out"),
        before.as_os_str(),
    ]);
    let svg = std::fs::read_to_string(&before).unwrap();
    assert!(svg.contains("The starting position"));
    assert!(!svg.contains("class=\"captured\""));

    let orders = root.join("g1.yaml");
    std::fs::write(
        &orders,
        "match: league7-aae-03\npower: Germany\nround: 1\npurchase: 3 infantry\ncombat:\n  \
         - 3 infantry: Finland -> Karelia\n  - 1 fighter: Norway -> Finland -> Karelia\n",
    )
    .unwrap();
    run(&[
        &os("submit"),
        &os("--match"),
        m.as_os_str(),
        &os("--as"),
        &os("Germany"),
        orders.as_os_str(),
    ]);
    let after = root.join("after.svg");
    run(&[
        &os("map"),
        &os("--match"),
        m.as_os_str(),
        &os("--out"),
        after.as_os_str(),
    ]);
    let svg = std::fs::read_to_string(&after).unwrap();
    assert!(svg.contains("Round 1, after Germany's stage 1"), "caption");
    // The battle for Karelia is marked (and the legend has one marker);
    // whether it was captured depends on the dice.
    assert_eq!(svg.matches("class=\"battle\"").count(), 2);
    // The starting position is still there to see, by entry.
    let log = std::fs::read_to_string(m.join("log.jsonl")).unwrap();
    assert!(log.lines().count() > 4);
}

/// A turn report mail with the map (issue 20, item 4; the daemon does not
/// send it yet): the HTML shows the map by `cid:`, the PNG is there once,
/// inline and with a file name, the text part says so, and the mail of the
/// biggest board stays under 400 KB.
#[cfg(feature = "png")]
#[test]
fn a_turn_report_mail_with_the_map_stays_under_400_kb() {
    use adjutant::mail::compose::{Kind, MailImage, Outgoing, compose_with_image};
    use adjutant::mail::message::Mailbox;
    use adjutant::matches::history::{game_of, read_log};
    use adjutant::report::map::adjudication_png;
    use adjutant::report::templates::Templates;
    use adjutant::report::turn::{report_entries, turn_report};
    use mail_parser::MimeHeaders;

    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("map-mail-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let m = root.join("mapmail");
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["new", "--game", "anniversary-1941", "--players"])
        .arg("tests/fixtures/anniversary-players.yaml")
        .arg("--dir")
        .arg(&m)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let orders = root.join("g1.yaml");
    std::fs::write(&orders, "round: 1\npurchase: 1 infantry\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["submit", "--match"])
        .arg(&m)
        .args(["--as", "Germany"])
        .arg(&orders)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let entries = read_log(&m).unwrap();
    let seq = *report_entries(&entries).last().unwrap();
    let genesis = match &entries[0].body {
        adjutant::log::Body::Genesis(g) => g.clone(),
        _ => unreachable!(),
    };
    let game = game_of(&m, &genesis).unwrap();
    let png = adjudication_png(&m, &game, &entries, seq).unwrap();
    assert_eq!(png, adjudication_png(&m, &game, &entries, seq).unwrap());
    let report = turn_report(&m, seq).unwrap().with_map("map@example.org");
    let mail = Templates::load(None)
        .unwrap()
        .render_mail("battle", &report)
        .unwrap();
    assert!(mail.html.contains("src=\"cid:map@example.org\""));
    assert!(mail.text.contains("map.png"));
    let outgoing = Outgoing {
        from: Mailbox {
            address: "adjutant@example.org".into(),
            name: None,
        },
        to: vec![Mailbox {
            address: "alice@example.org".into(),
            name: None,
        }],
        reply_to: None,
        tag: None,
        subject: "Report".into(),
        text: mail.text,
        html: Some(mail.html),
        kind: Kind::Report,
        thread: None,
        message_id: "report-1@example.org".into(),
        date: std::time::SystemTime::UNIX_EPOCH,
        domain: "example.org".into(),
        envelope_from: None,
        extra_headers: Vec::new(),
    };
    let image = MailImage {
        content_id: "map@example.org".into(),
        filename: "map.png".into(),
        png: png.clone(),
    };
    let composed = compose_with_image(&outgoing, Some(&image)).unwrap();
    assert!(
        composed.bytes.len() < 400 * 1024,
        "{} bytes",
        composed.bytes.len()
    );
    let parsed = mail_parser::MessageParser::default()
        .parse(&composed.bytes)
        .unwrap();
    assert!(parsed.body_html(0).unwrap().contains("cid:map@example.org"));
    let images: Vec<_> = parsed.attachments().collect();
    assert_eq!(images.len(), 1);
    assert_eq!(images[0].content_id(), Some("map@example.org"));
    assert_eq!(images[0].attachment_name(), Some("map.png"));
    assert_eq!(images[0].contents(), &png[..]);
    std::fs::write(
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("map-report.eml"),
        &composed.bytes,
    )
    .unwrap();
}

#[test]
fn a_game_of_ones_own_brings_its_map() {
    let root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("map-own-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let game_dir = root.join("aae");
    std::fs::create_dir_all(game_dir.join("map")).unwrap();
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae");
    for f in ["game.yaml", "board.yaml", "units.yaml", "setup.yaml"] {
        std::fs::copy(src.join(f), game_dir.join(f)).unwrap();
    }
    let shapes = std::fs::read_to_string(src.join("map/shapes.json"))
        .unwrap()
        .replace("Natural Earth", "Our Own Survey");
    std::fs::write(game_dir.join("map/shapes.json"), shapes).unwrap();
    let out = root.join("own.svg");
    let status = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["map", "--game", "aae", "--games"])
        .arg(&root)
        .arg("--out")
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    assert!(
        std::fs::read_to_string(&out)
            .unwrap()
            .contains("Our Own Survey")
    );
}

/// tools/map_shapes.py on a made-up world of two square countries: a whole
/// country, a split one, a sea zone and water that is none; the same input
/// gives the same bytes (Python 3 standard library, no network).
#[test]
fn the_shapes_tool_partitions_countries_and_sea_by_our_points() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("map-tool-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("map")).unwrap();
    let topo = r#"{"type":"Topology","transform":{"scale":[1,1],"translate":[0,0]},
        "arcs":[[[0,0],[10,0],[0,10],[-10,0],[0,-10]],[[20,0],[10,0],[0,10],[-10,0],[0,-10]]],
        "objects":{"countries":{"type":"GeometryCollection","geometries":[
          {"type":"Polygon","arcs":[[0]],"properties":{"name":"Alpha"}},
          {"type":"Polygon","arcs":[[1]],"properties":{"name":"Beta"}}]}}}"#;
    std::fs::write(dir.join("topo.json"), topo).unwrap();
    std::fs::write(
        dir.join("map/definition.txt"),
        "title Test\nview equirect -5 35 -5 15 400\n\
         land West = Alpha @ 5 5\n\
         land North Beta = Beta* @ 25 8\n\
         land South Beta = Beta* @ 25 2\n\
         sea Sea @ 15 5\nsea - @ 15 -4\n",
    )
    .unwrap();
    let run = || {
        let out = Command::new("python3")
            .arg(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/map_shapes.py"))
            .arg(dir.join("topo.json"))
            .arg(dir.join("map/definition.txt"))
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::read(dir.join("map/shapes.json")).unwrap()
    };
    let first = run();
    assert_eq!(first, run(), "the tool is deterministic");
    let shapes: serde_json::Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(shapes["width"], 400);
    let spaces = shapes["spaces"].as_array().unwrap();
    let names: Vec<&str> = spaces.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["West", "North Beta", "South Beta", "Sea"]);
    for s in spaces {
        assert!(s["d"].as_str().unwrap().starts_with('M'), "{s}");
    }
    // Beta is split between its two territories, one above the other.
    let y = |i: usize| spaces[i]["y"].as_i64().unwrap();
    assert!(y(1) < y(2));
    assert!(shapes["water"].as_str().unwrap().starts_with('M'));
    assert!(
        shapes["provenance"]
            .as_str()
            .unwrap()
            .contains("public domain")
    );
}

/// A scratch directory of its own for a test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("map-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A made-up TripleA map folder for `game`: every space a square on a grid
/// of 12 a row, 300 pixels each (a drawing 3590 wide, so it is scaled to
/// 2200), sea zones by TripleA's names (`7 Sea Zone`), a centre for each;
/// `skip` leaves a space out and `extra` adds lines.
fn triplea_folder(dir: &std::path::Path, game: &GameDef, skip: &str, extra: &str) {
    let mut polygons = String::new();
    let mut centers = String::new();
    for s in 0..game.space_count() {
        let name = game.space_name(SpaceId(s));
        if name == skip {
            continue;
        }
        let name = match name.strip_prefix("Sea Zone ") {
            Some(n) => format!("{n} Sea Zone"),
            None => name.to_owned(),
        };
        let (x, y) = ((s % 12) as i32 * 300, (s / 12) as i32 * 300);
        polygons.push_str(&format!(
            "{name}  <  ({x},{y}) ({},{y}) ({},{}) ({x},{})  >\n",
            x + 290,
            x + 290,
            y + 290,
            y + 290
        ));
        centers.push_str(&format!("{name}  ({},{})\n", x + 150, y + 100));
    }
    polygons.push_str(extra);
    std::fs::write(dir.join("polygons.txt"), polygons).unwrap();
    std::fs::write(dir.join("centers.txt"), centers).unwrap();
    // Places for units: TripleA's own syntax, not read for the label when
    // a centre is given.
    std::fs::write(
        dir.join("place.txt"),
        format!(
            "{}  (5,5)  (9,9)  | overflowToLeft=false\n",
            game.space_name(SpaceId(0))
        ),
    )
    .unwrap();
}

#[test]
fn a_triplea_map_folder_of_the_organisers_own_is_drawn() {
    use adjutant::report::map::own::read_geometry;
    let game = game("anniversary-1941");
    let dir = scratch("triplea");
    triplea_folder(&dir, &game, "", "");
    let shapes = read_geometry(&dir, &game).unwrap();
    assert_eq!(shapes.width, 2200, "3590 pixels scaled to 2200");
    let karelia = SpaceId(13);
    let name = game.space_name(karelia);
    let sh = shapes.spaces.iter().find(|s| s.name == name).unwrap();
    let scale = 2200.0 / 3590.0;
    let (x, y) = (
        (karelia.0 % 12) as f64 * 300.0,
        (karelia.0 / 12) as f64 * 300.0,
    );
    assert_eq!(sh.x, ((x + 150.0) * scale).round() as i32, "the centre");
    assert_eq!(sh.y, ((y + 100.0) * scale).round() as i32, "the centre");
    assert!(sh.d.starts_with('M') && sh.d.ends_with('Z'), "{}", sh.d);
    // TripleA's "7 Sea Zone" is the board's Sea Zone 7.
    let sz = shapes
        .spaces
        .iter()
        .find(|s| s.name == "Sea Zone 7")
        .unwrap();
    assert_eq!(sz.kind, "sea");
    let svg = render_svg(
        &game,
        &shapes,
        &GameState::initial(&game),
        &MapView::setup(),
    )
    .unwrap();
    assert!(svg.contains("organiser&#39;s own") || svg.contains("organiser's own"));

    // `adjutant map --geometry` draws with it, as PNG too.
    let exts: &[&str] = if cfg!(feature = "png") {
        &["svg", "png"]
    } else {
        &["svg"]
    };
    for ext in exts {
        let out = dir.join(format!("own.{ext}"));
        let run = Command::new(env!("CARGO_BIN_EXE_adjutant"))
            .args(["map", "--game", "anniversary-1941", "--geometry"])
            .arg(&dir)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(std::fs::metadata(&out).unwrap().len() > 10_000);
    }
}

#[test]
fn a_triplea_folder_that_does_not_fit_says_what_where_and_what_is_valid() {
    use adjutant::report::map::own::read_geometry;
    let game = game("aae");
    let dir = scratch("triplea-bad");
    triplea_folder(
        &dir,
        &game,
        "Karelia",
        "Karelya  <  (1,1) (2,1) (2,2)  >\nAtlantis  <  (1,1) (2,1) (2,2)  >\n",
    );
    let err = read_geometry(&dir, &game).unwrap_err().to_string();
    let lines = game.space_count();
    assert!(
        err.contains(&format!(
            "polygons.txt:{lines}: \"Karelya\" is no space of the board (did you mean Karelia?)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "polygons.txt:{}: \"Atlantis\" is no space of the board",
            lines + 1
        )),
        "{err}"
    );
    // With the names right, the missing territory is named.
    triplea_folder(&dir, &game, "Karelia", "");
    let err = read_geometry(&dir, &game).unwrap_err().to_string();
    assert!(
        err.contains("no polygon in polygons.txt for 1 of the board's spaces: Karelia"),
        "{err}"
    );
    // Neither an SVG nor a folder with polygons.txt.
    std::fs::remove_file(dir.join("polygons.txt")).unwrap();
    let err = read_geometry(&dir, &game).unwrap_err().to_string();
    assert!(
        err.contains("polygons.txt") && err.contains("TripleA map folder"),
        "{err}"
    );
}

/// A made-up SVG: every space a path in a group moved by a transform, one
/// territory two pieces in a group, ids with `_` for spaces.
fn own_svg(game: &GameDef, skip: &str) -> String {
    let mut body = String::new();
    for s in 0..game.space_count() {
        let name = game.space_name(SpaceId(s));
        if name == skip {
            continue;
        }
        let id = name.replace(' ', "_");
        let (x, y) = ((s % 12) * 100, (s / 12) * 100);
        if name == "Karelia" {
            body.push_str(&format!(
                "<g id=\"{id}\"><rect x=\"{x}\" y=\"{y}\" width=\"40\" height=\"90\"/><polygon points=\"{},{y} {},{y} {},{}\"/></g>\n",
                x + 50,
                x + 90,
                x + 90,
                y + 90
            ));
        } else {
            body.push_str(&format!("<path id=\"{id}\" d=\"m{x} {y}h90v90h-90z\"/>\n"));
        }
    }
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"-10 -10 1400 1200\">\
         <defs><path id=\"Germany\" d=\"M0 0\"/></defs>\
         <path id=\"frame\" d=\"M0 0H10\"/>\
         <g transform=\"translate(10 10)\">{body}</g></svg>"
    )
}

#[test]
fn an_svg_of_the_organisers_own_is_drawn_and_its_gaps_are_named() {
    use adjutant::report::map::own::read_geometry;
    let game = game("aae");
    let dir = scratch("own-svg");
    let file = dir.join("board.svg");
    std::fs::write(&file, own_svg(&game, "")).unwrap();
    let shapes = read_geometry(&file, &game).unwrap();
    assert_eq!((shapes.width, shapes.height), (1400, 1200));
    // The viewBox starts at -10 and the group moves by +10: the first
    // space's square is where its path says.
    let first = game.space_name(SpaceId(0));
    let sh = shapes.spaces.iter().find(|s| s.name == first).unwrap();
    assert_eq!(sh.d, "M20 20L110 20L110 110L20 110Z");
    assert_eq!((sh.x, sh.y), (65, 65), "the middle of its outline");
    let karelia = shapes.spaces.iter().find(|s| s.name == "Karelia").unwrap();
    assert_eq!(
        karelia.d.matches('M').count(),
        2,
        "both pieces: {}",
        karelia.d
    );
    #[cfg(feature = "png")]
    {
        let png = adjutant::report::map::png::render_png(
            &game,
            &shapes,
            &GameState::initial(&game),
            &MapView::setup(),
        )
        .unwrap();
        assert!(png.len() > 10_000);
    }

    std::fs::write(&file, own_svg(&game, "Karelia")).unwrap();
    let err = read_geometry(&file, &game).unwrap_err().to_string();
    assert!(err.contains("board.svg"), "{err}");
    assert!(
        err.contains("no element with its name as id for 1 of the board's spaces: Karelia"),
        "{err}"
    );
    assert!(err.contains("unused there: id=\"frame\""), "{err}");

    std::fs::write(
        &file,
        own_svg(&game, "").replace("translate(10 10)", "skewX(10)"),
    )
    .unwrap();
    let err = read_geometry(&file, &game).unwrap_err().to_string();
    assert!(err.contains("unsupported transform skewX(10)"), "{err}");
}

#[test]
fn a_match_finds_its_own_geometry_in_its_map_yaml() {
    use adjutant::report::map::own::MATCH_FILE;
    let game = game("aae");
    let dir = scratch("match-own");
    let folder = dir.join("triplea");
    std::fs::create_dir_all(&folder).unwrap();
    triplea_folder(&folder, &game, "", "");
    let m = dir.join("m");
    std::fs::create_dir_all(&m).unwrap();
    // Without map.yaml, the game's own map.
    let shapes = Shapes::for_match(&m, &game, None).unwrap();
    assert!(shapes.provenance.contains("Natural Earth"));
    std::fs::write(m.join(MATCH_FILE), "geometry: ../triplea\n").unwrap();
    let shapes = Shapes::for_match(&m, &game, None).unwrap();
    assert!(
        shapes.provenance.contains("organiser's own"),
        "{}",
        shapes.provenance
    );
    std::fs::write(m.join(MATCH_FILE), "geometry: ../nowhere.svg\n").unwrap();
    let err = Shapes::for_match(&m, &game, None).unwrap_err().to_string();
    assert!(err.contains("nowhere.svg"), "{err}");
    std::fs::write(m.join(MATCH_FILE), "geometri: ../triplea\n").unwrap();
    let err = Shapes::for_match(&m, &game, None).unwrap_err().to_string();
    assert!(
        err.contains("map.yaml") && err.contains("geometry: PATH"),
        "{err}"
    );
}

/// No two labels of a board overlap (a name, its marks and its IPC value:
/// what no position moves), so every name stays readable; a label is
/// moved by its `label LON LAT` in the board's definition.txt.
#[test]
fn no_two_labels_of_a_board_overlap() {
    use adjutant::report::map::svg::label_boxes;
    let mut overlaps = Vec::new();
    for id in every_board() {
        let game = game(id);
        let boxes = label_boxes(&game, &Shapes::builtin(id).unwrap()).unwrap();
        for (i, (a, [ax, ay, aw, ah])) in boxes.iter().enumerate() {
            for (b, [bx, by, bw, bh]) in &boxes[i + 1..] {
                if ax < &(bx + bw) && bx < &(ax + aw) && ay < &(by + bh) && by < &(ay + ah) {
                    overlaps.push(format!(
                        "{id}: {a} (x {ax:.0}..{:.0}, y {ay:.0}..{:.0}) and {b} (x {bx:.0}..{:.0}, y {by:.0}..{:.0})",
                        ax + aw,
                        ay + ah,
                        bx + bw,
                        by + bh
                    ));
                }
            }
        }
    }
    assert!(
        overlaps.is_empty(),
        "labels overlap:\n{}",
        overlaps.join("\n")
    );
}

/// No unit badge of a board's starting position covers another space's
/// label (its name, marks and IPC value), so that a stack never hides a
/// neighbour's name; a label is moved by its `label LON LAT` in the
/// board's definition.txt.
#[test]
fn no_badge_covers_another_spaces_label() {
    use adjutant::report::map::svg::{badge_boxes, label_boxes};
    let mut covered = Vec::new();
    for id in every_board() {
        let game = game(id);
        let shapes = Shapes::builtin(id).unwrap();
        let labels = label_boxes(&game, &shapes).unwrap();
        let badges = badge_boxes(&game, &shapes, &GameState::initial(&game)).unwrap();
        assert!(!badges.is_empty(), "{id}: the setup has units");
        for (a, [ax, ay, aw, ah]) in &badges {
            for (b, [bx, by, bw, bh]) in &labels {
                if a != b
                    && ax < &(bx + bw)
                    && bx < &(ax + aw)
                    && ay < &(by + bh)
                    && by < &(ay + ah)
                {
                    covered.push(format!(
                        "{id}: a badge of {a} (x {ax:.0}..{:.0}, y {ay:.0}..{:.0}) covers {b} (x {bx:.0}..{:.0}, y {by:.0}..{:.0})",
                        ax + aw,
                        ay + ah,
                        bx + bw,
                        by + bh
                    ));
                }
            }
        }
    }
    assert!(
        covered.is_empty(),
        "{} badges cover labels:\n{}",
        covered.len(),
        covered.join("\n")
    );
}
