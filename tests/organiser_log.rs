//! Organiser entries under both verifiers: a log with every kind of
//! organiser action verifies, and a server that rewrites the organisers'
//! history, even re-hashing the whole chain after its change, is caught by
//! `adjutant verify` and `tools/verify_dice.py` alike, at the entry it
//! changed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use adjutant::dice::{Digest32, OrderDigest};
use adjutant::log::{Body, Entry, OrderEntry, encode_line, parse_line};

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn adjutant(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(args)
        .output()
        .unwrap()
}

fn python(log: &Path) -> Output {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py");
    Command::new("python3")
        .arg(script)
        .arg(log)
        .output()
        .unwrap()
}

/// A match whose log holds pause, resume, absent, ruling, forfeit and
/// resign entries, all made with `adjutant organise`.
fn organised_match(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("organiser-log-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let players = root.join("players.yaml");
    std::fs::write(
        &players,
        "match: olog\norganisers:\n  - {name: Olga, email: olga@league.test}\nplayers:\n  Germany: {name: G, email: g@x.test}\n  Soviet Union: {name: S, email: s@x.test}\n  United Kingdom: {name: K, email: k@x.test}\n  United States: {name: U, email: u@x.test}\n",
    )
    .unwrap();
    let dir = root.join("olog");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let out = adjutant(&[
        "new",
        "--game",
        "aae",
        "--players",
        players.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "--games",
        games.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let d = dir.to_str().unwrap();
    for args in [
        &["pause", "--reason", "server move"][..],
        &["resume"],
        &[
            "absent",
            "--power",
            "Germany",
            "--from",
            "2099-01-01",
            "--until",
            "2099-01-07",
        ],
        &[
            "ruling",
            "--entry",
            "1",
            "--text",
            "The match starts as set up.",
        ],
        &["forfeit", "--power", "United States"],
        &["resign", "--side", "Axis"],
    ] {
        let mut all = vec!["organise", "--match", d, "--as", "Olga"];
        all.extend_from_slice(args);
        let out = adjutant(&all);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    }
    dir
}

fn read(log: &Path) -> Vec<Entry> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| parse_line(l.as_bytes()).unwrap())
        .collect()
}

/// Writes `entries` as a valid chain (sequence numbers and hashes redone),
/// as a forging server would.
fn write_rechained(path: &Path, entries: &[Entry]) {
    let mut prev = Digest32::default();
    let mut out = String::new();
    for (i, e) in entries.iter().enumerate() {
        let (line, hash) = encode_line(i as u64 + 1, &prev, &e.time, &e.body);
        out.push_str(&line);
        out.push('\n');
        prev = hash;
    }
    std::fs::write(path, out).unwrap();
}

/// Both verifiers refuse `log` at entry `seq`, saying `why`.
fn both_refuse(log: &Path, seq: u64, why: &str) {
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "adjutant verify: {said}");
    assert!(
        said.contains(&format!("entry {seq} ")) && said.contains(why),
        "adjutant verify, expected entry {seq}: {why}: {said}"
    );
    let out = python(log);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "verify_dice.py: {said}");
    assert!(
        said.contains(&format!("entry {seq} ")) && said.contains(why),
        "verify_dice.py, expected entry {seq}: {why}: {said}"
    );
}

fn organiser_index(entries: &[Entry], action: &str) -> usize {
    entries
        .iter()
        .position(|e| matches!(&e.body, Body::Organiser(o) if o.action.as_str() == action))
        .unwrap_or_else(|| panic!("no {action} entry"))
}

#[test]
fn a_log_with_every_organiser_action_verifies_in_both_verifiers() {
    let dir = organised_match("ok");
    let log = dir.join("log.jsonl");
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(
        text(&out.stdout)
            .contains("6 organiser action(s), 0 rollback(s); the match ended at entry"),
        "{}",
        text(&out.stdout)
    );
    let out = python(&log);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let kinds: Vec<String> = read(&log)
        .iter()
        .filter_map(|e| match &e.body {
            Body::Organiser(o) => Some(format!("{} {}", o.action.as_str(), o.via)),
            _ => None,
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "pause server",
            "resume server",
            "absent server",
            "ruling server",
            "forfeit server",
            "resign server"
        ]
    );
}

#[test]
fn a_rewritten_organiser_history_is_refused_by_both_verifiers() {
    let dir = organised_match("tamper");
    let entries = read(&dir.join("log.jsonl"));
    let path = |n: &str| dir.join(format!("{n}.jsonl"));

    // A changed byte of an organiser entry: its hash no longer matches.
    let raw = std::fs::read_to_string(dir.join("log.jsonl")).unwrap();
    let flipped = raw.replacen("server move", "server mover", 1);
    std::fs::write(path("flipped"), flipped).unwrap();
    let pause = organiser_index(&entries, "pause");
    both_refuse(&path("flipped"), pause as u64 + 1, "hash");

    // The pause removed (the chain re-hashed): the resume has none.
    let mut e = entries.clone();
    e.remove(pause);
    write_rechained(&path("no-pause"), &e);
    both_refuse(
        &path("no-pause"),
        pause as u64 + 1,
        "resume while the match is not paused",
    );

    // A ruling made about a later entry than itself.
    let mut e = entries.clone();
    let ruling = organiser_index(&e, "ruling");
    if let Body::Organiser(o) = &mut e[ruling].body {
        o.entry = Some(ruling as u64 + 5);
    }
    write_rechained(&path("ruling"), &e);
    both_refuse(&path("ruling"), ruling as u64 + 1, "not an earlier entry");

    // A forfeit that names both a power and a side.
    let mut e = entries.clone();
    let forfeit = organiser_index(&e, "forfeit");
    if let Body::Organiser(o) = &mut e[forfeit].body {
        o.side = Some("Allies".into());
    }
    write_rechained(&path("both"), &e);
    both_refuse(&path("both"), forfeit as u64 + 1, "exactly one");

    // A power the match does not have.
    let mut e = entries.clone();
    let absent = organiser_index(&e, "absent");
    if let Body::Organiser(o) = &mut e[absent].body {
        o.power = Some("Atlantis".into());
    }
    write_rechained(&path("atlantis"), &e);
    both_refuse(
        &path("atlantis"),
        absent as u64 + 1,
        "not a power of this match",
    );

    // An absence that ends before it begins.
    let mut e = entries.clone();
    if let Body::Organiser(o) = &mut e[absent].body {
        std::mem::swap(&mut o.from, &mut o.until);
    }
    write_rechained(&path("backwards"), &e);
    both_refuse(
        &path("backwards"),
        absent as u64 + 1,
        "must end after it begins",
    );

    // An action by an unknown way.
    let mut e = entries.clone();
    if let Body::Organiser(o) = &mut e[pause].body {
        o.via = "telepathy".into();
    }
    write_rechained(&path("via"), &e);
    both_refuse(&path("via"), pause as u64 + 1, "by mail or on the server");

    // Orders after the match ended (the Axis resigned).
    let mut e = entries.clone();
    let last = e.last().unwrap().clone();
    let canonical = "purchase: 1 infantry\n".to_owned();
    e.push(Entry {
        body: Body::Order(OrderEntry {
            turn: 1,
            power: "Germany".into(),
            digest: OrderDigest::of_orders("olog", 1, "Germany", &canonical),
            canonical,
            message_id: None,
            mail_sha256: None,
        }),
        ..last
    });
    write_rechained(&path("after-end"), &e);
    both_refuse(&path("after-end"), e.len() as u64, "after the match ended");

    // An upgrade that does not start from the match's version (this
    // program's, which its genesis records), and one that goes back.
    let v = adjutant::rules::version::RULES_VERSION;
    for (name, from, to, why) in [
        (
            "upgrade-from",
            None,
            v + 1,
            format!("an upgrade from rules version none recorded, but the match is at {v}"),
        ),
        (
            "upgrade-back",
            Some(v),
            v,
            format!(
                "an upgrade to rules version {v}: it must be {} or later",
                v + 1
            ),
        ),
    ] {
        let mut e = entries.clone();
        let mut up = e[pause].clone();
        if let Body::Organiser(o) = &mut up.body {
            o.action = adjutant::log::OrganiserAction::Upgrade;
            o.text = None;
            o.from_version = from;
            o.to_version = Some(to);
            o.from_state = Some(Digest32::sha256(b"a"));
            o.to_state = Some(Digest32::sha256(b"b"));
        }
        e.insert(pause, up);
        write_rechained(&path(name), &e);
        both_refuse(&path(name), pause as u64 + 1, &why);
    }

    // A draw while orders wait for their adjudication.
    let mut e = entries.clone();
    let canonical = "purchase: 1 infantry\n".to_owned();
    let order = Entry {
        body: Body::Order(OrderEntry {
            turn: 1,
            power: "Germany".into(),
            digest: OrderDigest::of_orders("olog", 1, "Germany", &canonical),
            canonical,
            message_id: None,
            mail_sha256: None,
        }),
        ..e[pause].clone()
    };
    let mut draw = e[pause].clone();
    if let Body::Organiser(o) = &mut draw.body {
        o.action = adjutant::log::OrganiserAction::Draw;
    }
    e.insert(pause, draw);
    e.insert(pause, order);
    write_rechained(&path("draw-pending"), &e);
    both_refuse(
        &path("draw-pending"),
        pause as u64 + 2,
        "the match ends while the orders of entry",
    );

    // Another action after the end (only a ruling may follow).
    let mut e = entries.clone();
    let time = e.last().unwrap().time.clone();
    e.push(Entry {
        time,
        ..e[pause].clone()
    });
    write_rechained(&path("pause-after-end"), &e);
    both_refuse(
        &path("pause-after-end"),
        e.len() as u64,
        "only a ruling may follow",
    );
}

fn submit(dir: &Path, power: &str, orders: &str) {
    let file = dir.join("orders.yaml");
    std::fs::write(&file, orders).unwrap();
    let out = adjutant(&[
        "submit",
        "--match",
        dir.to_str().unwrap(),
        "--as",
        power,
        file.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

fn rollback(dir: &Path, entry: u64) -> Output {
    adjutant(&[
        "organise",
        "--match",
        dir.to_str().unwrap(),
        "--as",
        "Olga",
        "rollback",
        "--entry",
        &entry.to_string(),
    ])
}

fn both_accept(log: &Path) {
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let out = python(log);
    assert!(
        out.status.success(),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

/// A match of four players and Olga, no actions yet.
fn plain_match(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("organiser-log-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let players = root.join("players.yaml");
    std::fs::write(
        &players,
        "match: roll\norganisers:\n  - {name: Olga, email: olga@league.test}\nplayers:\n  Germany: {name: G, email: g@x.test}\n  Soviet Union: {name: S, email: s@x.test}\n  United Kingdom: {name: K, email: k@x.test}\n  United States: {name: U, email: u@x.test}\n",
    )
    .unwrap();
    let dir = root.join("roll");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let out = adjutant(&[
        "new",
        "--game",
        "aae",
        "--players",
        players.to_str().unwrap(),
        "--dir",
        dir.to_str().unwrap(),
        "--games",
        games.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    dir
}

fn turn_opens(entries: &[Entry]) -> Vec<u32> {
    entries
        .iter()
        .filter_map(|e| match &e.body {
            Body::TurnOpen(t) => Some(t.turn),
            _ => None,
        })
        .collect()
}

#[test]
fn a_rollback_replays_from_an_earlier_position_with_new_dice_turns_and_verifies() {
    let dir = plain_match("rollback");
    let log = dir.join("log.jsonl");
    // Germany's turn: stage 1 reveals dice turn 1; the Soviet turn opens 2.
    submit(&dir, "Germany", "purchase: 1 infantry\n");
    submit(&dir, "Germany", "place:\n  Germany: 1 infantry\n");
    let before = read(&log);
    assert_eq!(turn_opens(&before), [1, 2]);
    let germany_stage_1 = before
        .iter()
        .find(|e| matches!(&e.body, Body::Adjudication(a) if a.stage == 1))
        .unwrap()
        .seq;

    // Back to the start: turn 2, committed and unused, is revealed in the
    // rollback entry, and Germany's stage 1 gets a new turn, 3.
    let out = rollback(&dir, 1);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .contains("rolled the match back to the position after log entry 1 (the start)")
    );
    let after = read(&log);
    let rb = after
        .iter()
        .find(|e| matches!(&e.body, Body::Organiser(o) if o.action.as_str() == "rollback"))
        .unwrap();
    let Body::Organiser(o) = &rb.body else {
        unreachable!()
    };
    assert_eq!(o.turn, Some(2));
    assert!(o.secret.is_some());
    assert_eq!(turn_opens(&after), [1, 2, 3]);
    assert!(
        !dir.join("secrets/turn-2.secret").exists(),
        "a revealed secret is not kept"
    );
    let shown = adjutant(&["show", "--match", dir.to_str().unwrap()]);
    assert!(
        text(&shown.stdout).contains("Germany"),
        "{}",
        text(&shown.stdout)
    );
    both_accept(&log);

    // Germany plays its turn again, differently; then a rollback to the
    // middle of it (stage 2 to play again, no new dice turn needed).
    submit(&dir, "Germany", "purchase: 2 infantry\n");
    both_accept(&log);
    let replayed_stage_1 = read(&log)
        .iter()
        .rev()
        .find(|e| matches!(&e.body, Body::Adjudication(a) if a.stage == 1))
        .unwrap()
        .seq;
    submit(&dir, "Germany", "place:\n  Germany: 2 infantry\n");
    let out = rollback(&dir, replayed_stage_1);
    assert!(out.status.success(), "{}", text(&out.stderr));
    submit(
        &dir,
        "Germany",
        "place:\n  Germany: 2 infantry\nentropy: again\n",
    );
    both_accept(&log);

    // A position the first rollback undid is no longer one to go back to.
    let out = rollback(&dir, germany_stage_1);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is not a position to go back to"),
        "{}",
        text(&out.stderr)
    );

    // Forgeries of the rollback, re-hashed: both verifiers refuse them.
    let entries = read(&log);
    let at = entries
        .iter()
        .position(|e| matches!(&e.body, Body::Organiser(o) if o.action.as_str() == "rollback"))
        .unwrap();
    let path = |n: &str| dir.join(format!("{n}.jsonl"));
    let mut e = entries.clone();
    if let Body::Organiser(o) = &mut e[at].body {
        o.secret = Some(Digest32([7; 32]));
    }
    write_rechained(&path("bad-secret"), &e);
    both_refuse(&path("bad-secret"), at as u64 + 1, "commitment");
    let mut e = entries.clone();
    if let Body::Organiser(o) = &mut e[at].body {
        o.turn = None;
        o.secret = None;
    }
    write_rechained(&path("no-reveal"), &e);
    both_refuse(&path("no-reveal"), at as u64 + 1, "must reveal it");
    let mut e = entries.clone();
    let second = entries
        .iter()
        .rposition(|e| matches!(&e.body, Body::Organiser(o) if o.action.as_str() == "rollback"))
        .unwrap();
    if let Body::Organiser(o) = &mut e[second].body {
        o.entry = Some(germany_stage_1);
    }
    write_rechained(&path("undone"), &e);
    both_refuse(
        &path("undone"),
        second as u64 + 1,
        "not a position of the match's current line",
    );
}
