//! A match offline: `adjutant new`, `submit`, `show`, `verify`, run as a user
//! would, through the code path the mail daemon uses.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn adjutant(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn fresh(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("match-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn orders(dir: &Path, name: &str, yaml: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, yaml).unwrap();
    p.to_str().unwrap().to_owned()
}

fn new_match(root: &Path) -> String {
    let m = root.join("league7");
    let out = adjutant(&[
        "new",
        "--game",
        "aae",
        "--players",
        "tests/fixtures/aae-players.yaml",
        "--dir",
        m.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("created match league7-aae-03"),
        "{}",
        text(&out.stdout)
    );
    m.to_str().unwrap().to_owned()
}

#[test]
fn a_turn_by_stages_is_logged_replayed_and_verified() {
    let root = fresh("stages");
    let m = new_match(&root);
    let stage1 = orders(
        &root,
        "g1.yaml",
        "match: league7-aae-03\npower: Germany\nround: 1\npurchase: 3 infantry\n",
    );
    let out = adjutant(&["submit", "--match", &m, "--as", "Germany", &stage1]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let receipt = text(&out.stdout);
    assert!(
        receipt.contains("Received and applied, stage 1 of Germany's round 1."),
        "{receipt}"
    );
    assert!(receipt.contains("Digest of these orders: "), "{receipt}");

    // Another power may not move now; nothing is logged. (Its own orders:
    // Germany's, with their power: line, are refused for naming Germany.)
    let log = Path::new(&m).join("log.jsonl");
    let before = std::fs::read(&log).unwrap();
    let soviet = orders(
        &root,
        "s1.yaml",
        "round: 1
purchase: 3 infantry
",
    );
    let out = adjutant(&["submit", "--match", &m, "--as", "Soviet Union", &soviet]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not Soviet Union's turn"),
        "{}",
        text(&out.stderr)
    );
    assert!(text(&out.stderr).contains("Nothing was applied."));
    assert_eq!(std::fs::read(&log).unwrap(), before);

    let stage2 = orders(&root, "g2.yaml", "place:\n  Germany: 3 infantry\n");
    let out = adjutant(&["submit", "--match", &m, "--as", "Germany", &stage2]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );

    // The state survives: replayed from the log by a new process.
    let out = adjutant(&["show", "--match", &m]);
    let shown = text(&out.stdout);
    assert!(shown.contains("round 1, Soviet Union to move"), "{shown}");
    assert!(shown.contains("Germany (Germany, "), "{shown}");
    assert!(shown.contains("Germany 7 infantry"), "{shown}");

    // The log's state digest is SHA-256 of the position's canonical text,
    // checked here by Python, independently of our code (docs/log.md).
    let out = adjutant(&["show", "--match", &m, "--position"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let position = text(&out.stdout);
    assert!(
        position.starts_with("adjutant-state/2\nround 1\nturn Soviet Union\n"),
        "{position}"
    );
    assert!(position.contains("\nipcs Germany = "), "{position}");
    let check = Command::new("python3")
        .args([
            "-c",
            "import hashlib, json, sys\n\
             text = sys.stdin.buffer.read()\n\
             last = [json.loads(l) for l in open(sys.argv[1]) if '\"adjudication\"' in l][-1]\n\
             state = last.get('state') or last['body']['state']\n\
             sys.exit(0 if hashlib.sha256(text).hexdigest() == state else 1)",
            Path::new(&m).join("log.jsonl").to_str().unwrap(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write as _;
            child.stdin.take().unwrap().write_all(position.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(
        check.status.success(),
        "the last adjudication's state is not SHA-256 of `show --position`: {}",
        text(&check.stderr)
    );

    // The log holds two dice turns, both orders and their results, and verifies.
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("2 turns, 2 orders"),
        "{}",
        text(&out.stdout)
    );
    let py = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py"))
        .arg(&log)
        .output()
        .unwrap();
    assert!(py.status.success(), "{}", text(&py.stderr));
}

#[test]
fn a_crash_between_orders_and_result_is_finished_on_restart() {
    let root = fresh("crash");
    let m = new_match(&root);
    let stage1 = orders(&root, "g1.yaml", "purchase: 2 armor\n");
    assert!(
        adjutant(&["submit", "--match", &m, "--as", "Germany", &stage1])
            .status
            .success()
    );
    let log = Path::new(&m).join("log.jsonl");
    let full = std::fs::read_to_string(&log).unwrap();
    // Cut the log right after the order entry (before reveal and result),
    // and put the secret file back as it was before the reveal.
    let lines: Vec<&str> = full.lines().collect();
    let order_at = lines
        .iter()
        .position(|l| l.contains("\"kind\":\"order\""))
        .unwrap();
    let reveal: serde_json::Value = serde_json::from_str(lines[order_at + 1]).unwrap();
    assert_eq!(reveal["kind"], "reveal");
    let secret = reveal["body"]["secret"].as_str().unwrap();
    std::fs::write(Path::new(&m).join("secrets/turn-1.secret"), secret).unwrap();
    let cut: String = lines[..=order_at]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&log, cut).unwrap();

    let out = adjutant(&["show", "--match", &m]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("bought, to place: 2 armor"),
        "{}",
        text(&out.stdout)
    );
    // The restart finished the stage: the same kinds of entries follow the
    // order as in the uncut log (reveal, then the result).
    let kinds = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].to_string())
            .collect()
    };
    let healed = std::fs::read_to_string(&log).unwrap();
    assert_eq!(kinds(&healed), kinds(&full));
    assert!(healed.lines().nth(order_at + 1).unwrap().contains(secret));
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn bad_players_files_are_explained() {
    let root = fresh("players");
    let p = root.join("p.yaml");
    std::fs::write(
        &p,
        "players:\n  Germany: {name: A, email: a@example.org}\n  Italy: {name: B, email: b}\n",
    )
    .unwrap();
    let out = adjutant(&[
        "new",
        "--game",
        "aae",
        "--players",
        p.to_str().unwrap(),
        "--dir",
        root.join("m").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains("\"Italy\" is not a power of aae"), "{err}");
    assert!(
        err.contains("Soviet Union takes turns but has no player"),
        "{err}"
    );
}

/// `adjutant new` with the fixture's players under match id `id` (as the
/// players file's `match:`, a JSON string being YAML too).
fn new_with_id(root: &Path, name: &str, id: &str) -> (std::process::Output, PathBuf) {
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml"),
    )
    .unwrap();
    let players = fixture.replace(
        "match: league7-aae-03",
        &format!("match: {}", serde_json::to_string(id).unwrap()),
    );
    let p = root.join(format!("{name}.yaml"));
    std::fs::write(&p, players).unwrap();
    let dir = root.join(name);
    let out = adjutant(&[
        "new",
        "--game",
        "aae",
        "--players",
        p.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
    ]);
    (out, dir)
}

#[test]
fn match_ids_that_mail_cannot_carry_are_refused_at_creation() {
    let root = fresh("ids");
    let long = "a".repeat(65);
    for (n, (id, why)) in [
        ("..", "holds '.'"),
        ("a b", "holds a space"),
        ("<script>", "holds '<'"),
        ("../x", "holds '.'"),
        ("", "the match id is empty"),
        (long.as_str(), "the match id is 65 characters long"),
        ("League7", "holds the capital letter 'L'"),
    ]
    .into_iter()
    .enumerate()
    {
        let (out, dir) = new_with_id(&root, &format!("bad{n}"), id);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{id:?}: {err}");
        assert!(err.contains("players file: match: "), "{id:?}: {err}");
        assert!(err.contains(why), "{id:?}: {err}");
        assert!(
            err.contains("lowercase ASCII letters (a-z), digits and hyphens"),
            "{id:?}: the valid form is named: {err}"
        );
        assert!(
            !dir.join("log.jsonl").exists(),
            "{id:?}: nothing is created"
        );
    }
    // Without `match:`, the directory's name is the id, and is checked.
    let p = root.join("no-id.yaml");
    let fixture = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml"),
    )
    .unwrap();
    std::fs::write(&p, fixture.replace("match: league7-aae-03\n", "")).unwrap();
    let out = adjutant(&[
        "new",
        "--game",
        "aae",
        "--players",
        p.to_str().unwrap(),
        "--dir",
        root.join("Week 1").to_str().unwrap(),
    ]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("the match directory's name") && err.contains("\"Week 1\""),
        "{err}"
    );

    let (out, dir) = new_with_id(&root, "good", "league8-aae-01");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("created match league8-aae-01"),
        "{}",
        text(&out.stdout)
    );
    assert!(dir.join("log.jsonl").exists());
}

#[test]
fn verify_replays_the_engine_and_catches_a_forged_result_or_changed_rules() {
    let root = fresh("forge");
    let m = new_match(&root);
    let stage1 = orders(&root, "g1.yaml", "purchase: 3 infantry\n");
    assert!(
        adjutant(&["submit", "--match", &m, "--as", "Germany", &stage1])
            .status
            .success()
    );
    let log = Path::new(&m).join("log.jsonl");
    let original = std::fs::read_to_string(&log).unwrap();

    // A forger with write access changes the purchase in the order entry and
    // re-signs the whole chain: hashes and digests are consistent, but the
    // engine does not reach the recorded state.
    let mut prev = adjutant::dice::Digest32::default();
    let mut forged = String::new();
    for line in original.lines() {
        let mut e = adjutant::log::parse_line(line.as_bytes()).unwrap();
        if let adjutant::log::Body::Order(o) = &mut e.body {
            o.canonical = o.canonical.replace("3 infantry", "4 infantry");
            o.digest = adjutant::dice::OrderDigest::of_orders(
                "league7-aae-03",
                o.turn,
                &o.power,
                &o.canonical,
            );
        }
        let (text, hash) = adjutant::log::encode_line(e.seq, &prev, &e.time, &e.body);
        forged.push_str(&text);
        forged.push('\n');
        prev = hash;
    }
    std::fs::write(&log, &forged).unwrap();
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    // The changed orders also change the turn key: the commitment still
    // matches, so the chain passes; the replay is what catches it.
    assert!(
        err.contains("the recorded events differ from what the orders give"),
        "{err}"
    );

    // Changing the rules (the match's own game data) is caught too.
    std::fs::write(&log, &original).unwrap();
    let units = Path::new(&m).join("games/aae/units.yaml");
    let yaml = std::fs::read_to_string(&units).unwrap();
    std::fs::write(&units, yaml.replacen("cost: 3", "cost: 2", 1)).unwrap();
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("not what the match was created with"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn standing_orders_come_from_any_power_at_any_time_and_are_replayed() {
    let root = fresh("standing");
    let m = new_match(&root);
    let standing = orders(
        &root,
        "s.yaml",
        "power: Soviet Union\nstanding:\n  losses: infantry, artillery, armor\n  keep_one_land_unit: true\n",
    );
    // Germany is to move; the Soviet Union may still set its standing orders.
    let out = adjutant(&["submit", "--match", &m, "--as", "Soviet Union", &standing]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout).contains("Soviet Union set new standing orders"),
        "{}",
        text(&out.stdout)
    );
    // They are part of the replayed state: the log verifies through the engine.
    let log = Path::new(&m).join("log.jsonl");
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("engine replay: 1 accepted messages"),
        "{}",
        text(&out.stdout)
    );
    // Turn orders from a power not to move are still refused.
    let turn = orders(&root, "t.yaml", "purchase: 1 infantry\n");
    let out = adjutant(&["submit", "--match", &m, "--as", "Soviet Union", &turn]);
    assert_eq!(out.status.code(), Some(1));
}
