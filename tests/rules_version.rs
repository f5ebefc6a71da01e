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
