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

/// Boards whose rule set is still to come: their map is built in, and
/// tests load them through `load_dir_unfinished`.
const UNFINISHED: [&str; 1] = ["advanced-aae"];

fn game(id: &str) -> GameDef {
    if UNFINISHED.contains(&id) {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("games")
            .join(id);
        return adjutant::rules::load_dir_unfinished(&dir).expect("unfinished game");
    }
    GameSource::Builtin.load(id).expect("built-in game").def
}

/// Every board with a built-in map: the playable games and the boards
/// still waiting for their rules.
fn every_board() -> Vec<&'static str> {
    GAMES.iter().map(|g| g.id).chain(UNFINISHED).collect()
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
    let png = adjudication_png(&game, &entries, seq).unwrap();
    assert_eq!(png, adjudication_png(&game, &entries, seq).unwrap());
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
