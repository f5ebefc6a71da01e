//! Matches outlive the engine (issue 21, item 6): a log records the rules
//! version that started it; a log written by a version this program
//! replays is replayed, and one it does not is still checked for its chain
//! and every die, with `adjutant verify` saying which version wrote it.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::log::Body;
use adjutant::rules::version::RULES_VERSION;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matches/aae-rules-version-1")
}

fn verify(log: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .arg("verify")
        .arg(log)
        .output()
        .unwrap()
}

fn python(log: &Path) -> std::process::Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py"))
        .arg(log)
        .output()
        .unwrap()
}

/// A match written by rules version 1 (the demo's German turn: a battle with
/// its dice, placement), kept as it was written: every later program must
/// replay it to the states it recorded, or say why it cannot.
#[test]
fn a_log_written_by_rules_version_1_still_replays() {
    let log = fixture().join("log.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.lines().next().unwrap().contains("\"rules_version\":1"));
    let out = verify(&log);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("3 accepted messages re-adjudicated to their recorded states"),
        "{stdout}"
    );
    let py = python(&log);
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stdout)
    );
}

/// A log of a newer rules version: the chain and the dice are checked, the
/// engine replay is not attempted, and verify says so in exact words (exit
/// status 3).
#[test]
fn a_log_of_a_rules_version_this_program_does_not_replay_is_named_as_such() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-version-newer");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    copy_dir(&fixture(), &dir);
    let log = dir.join("log.jsonl");
    let newer = RULES_VERSION + 1;
    let data = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Genesis(g) = &mut e.body {
            g.rules_version = Some(newer);
        }
    });
    std::fs::write(&log, data).unwrap();
    let out = verify(&log);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "engine replay: not done: written by rules version {newer}; this program replays version {RULES_VERSION} only"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains("23 dice"),
        "the dice are still re-derived: {stdout}"
    );
    let py = python(&log);
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stdout)
    );
    // A rules version that is not a positive whole number is refused.
    let data = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Genesis(g) = &mut e.body {
            g.rules_version = Some(0);
        }
    });
    std::fs::write(&log, data).unwrap();
    let py = python(&log);
    assert!(!py.status.success());
    assert!(
        String::from_utf8_lossy(&py.stdout)
            .contains("rules_version is not a positive whole number")
            || String::from_utf8_lossy(&py.stderr)
                .contains("rules_version is not a positive whole number"),
        "{}{}",
        String::from_utf8_lossy(&py.stdout),
        String::from_utf8_lossy(&py.stderr)
    );
}

/// A new match records the current rules version.
#[test]
fn a_new_match_records_the_rules_version() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-version-new");
    let _ = std::fs::remove_dir_all(&dir);
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let players = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml"),
    )
    .unwrap();
    let m = adjutant::matches::Match::create(&dir, &games, "aae", &players).unwrap();
    let genesis = m.log().chain().genesis().unwrap();
    assert_eq!(genesis.rules_version, Some(RULES_VERSION));
}

fn adjutant(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(args)
        .output()
        .unwrap()
}

fn out_text(o: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The organiser entries of a log, as JSON.
fn upgrades(log: &Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["kind"] == "organiser" && e["body"]["action"] == "upgrade")
        .collect()
}

/// A match whose log recorded no rules version (as every log written before
/// versions were recorded), one stage played: the organiser's `upgrade`
/// re-bases it on this program's version, recording the position's digest
/// under both; the engine replays across it (checking both digests against
/// the position), play goes on after it, and both verifiers accept the log.
/// A forged upgrade is caught: a wrong digest by the engine, a wrong
/// version by both verifiers, a version this program lacks by exit status
/// 3 with the chain and dice still checked.
#[test]
fn an_upgrade_re_bases_a_match_and_both_verifiers_replay_across_it() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("rules-version-upgrade");
    let _ = std::fs::remove_dir_all(&dir);
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let players = "match: up-1\norganisers:\n  - {name: Olga, email: olga@example.org}\nplayers:\n  \
        Germany: {name: Alice, email: alice@example.org}\n  \
        Soviet Union: {name: Boris, email: boris@example.org}\n  \
        United Kingdom: {name: Clem, email: clem@example.org}\n  \
        United States: {name: Dora, email: dora@example.org}\n";
    let mut m = adjutant::matches::Match::create(&dir, &games, "aae", players).unwrap();
    m.submit("Germany", "purchase: 1 infantry\n")
        .unwrap()
        .unwrap();
    let state = m
        .log()
        .entries()
        .iter()
        .rev()
        .find_map(|e| match &e.body {
            Body::Adjudication(a) => Some(a.state.to_hex()),
            _ => None,
        })
        .unwrap();
    drop(m);
    // As a log from before versions were recorded.
    let log = dir.join("log.jsonl");
    let data = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Genesis(g) = &mut e.body {
            g.rules_version = None;
        }
    });
    std::fs::write(&log, &data).unwrap();
    let d = dir.to_str().unwrap();
    let out = adjutant(&[
        "organise",
        "--match",
        d,
        "--as",
        "Olga",
        "upgrade",
        "--reason",
        "record the version",
    ]);
    assert!(out.status.success(), "{}", out_text(&out));
    assert!(
        out_text(&out).contains(&format!(
            "upgraded the match from rules version 1 (none recorded) to rules version {RULES_VERSION}"
        )),
        "{}",
        out_text(&out)
    );
    let up = upgrades(&log);
    assert_eq!(up.len(), 1);
    let b = &up[0]["body"];
    assert!(b.get("from_version").is_none(), "{b}");
    assert_eq!(b["to_version"], RULES_VERSION);
    // Version 1's text is the text of a log that recorded none: the same
    // digest, which is the last adjudication's.
    assert_eq!(b["from_state"], state.as_str());
    assert_eq!(b["to_state"], state.as_str());
    // Once is enough.
    let again = adjutant(&["organise", "--match", d, "--as", "Olga", "upgrade"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        out_text(&again).contains(&format!(
            "the match is at rules version {RULES_VERSION} already"
        )),
        "{}",
        out_text(&again)
    );
    // Play goes on after it, and the replay crosses it.
    let mut m = adjutant::matches::Match::open(&dir).unwrap();
    assert_eq!(m.log().chain().rules_version(), Some(RULES_VERSION));
    m.submit("Germany", "place:\n  Germany: 1 infantry\n")
        .unwrap()
        .unwrap();
    drop(m);
    let v = verify(&log);
    assert!(v.status.success(), "{}", out_text(&v));
    assert!(
        out_text(&v).contains("2 accepted messages re-adjudicated to their recorded states"),
        "{}",
        out_text(&v)
    );
    let py = python(&log);
    assert!(py.status.success(), "{}", out_text(&py));

    let upgrade_seq = up[0]["seq"].as_u64().unwrap();
    let forged = |edit: &dyn Fn(&mut adjutant::log::Organiser)| {
        let path = dir.join("forged.jsonl");
        let data = common::rechain(&std::fs::read(&log).unwrap(), |e| {
            if e.seq == upgrade_seq
                && let Body::Organiser(o) = &mut e.body
            {
                edit(o);
            }
        });
        // Beside the log, so that the engine finds the match's game.
        std::fs::write(&path, data).unwrap();
        path
    };
    // A digest that is not the position's: the engine says so.
    let f = forged(&|o| o.from_state = Some(adjutant::dice::Digest32::sha256(b"not it")));
    let v = verify(&f);
    assert_eq!(v.status.code(), Some(1), "{}", out_text(&v));
    assert!(
        out_text(&v).contains(
            "the upgrade's from_state is not the position's digest under rules version 1"
        ),
        "{}",
        out_text(&v)
    );
    // A version the match is not at: both verifiers refuse the entry.
    let f = forged(&|o| o.from_version = Some(1));
    let v = verify(&f);
    assert!(!v.status.success());
    assert!(
        out_text(&v).contains("an upgrade from rules version 1, but the match is at none recorded"),
        "{}",
        out_text(&v)
    );
    let py = python(&f);
    assert!(!py.status.success());
    assert!(
        out_text(&py)
            .contains("an upgrade from rules version 1, but the match is at none recorded"),
        "{}",
        out_text(&py)
    );
    // An upgrade to a version this program lacks: the chain and the dice
    // are checked, the replay is not, in exact words.
    let newer = RULES_VERSION + 1;
    let f = forged(&|o| o.to_version = Some(newer));
    let v = verify(&f);
    assert_eq!(v.status.code(), Some(3), "{}", out_text(&v));
    assert!(
        out_text(&v).contains(&format!(
            "engine replay: not done: upgraded at entry {upgrade_seq} to rules version {newer}; this program replays version {RULES_VERSION} only"
        )),
        "{}",
        out_text(&v)
    );
    assert!(python(&f).status.success(), "{}", out_text(&python(&f)));
    let _ = std::fs::remove_file(dir.join("forged.jsonl"));
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}
