//! Matches outlive the engine (issue 21, item 6): a log records the rules
//! version that started it; a log written by a version this program
//! replays is replayed, and one it does not is still checked for its chain
//! and every die, with `adjutant verify` saying which version wrote it.

mod common;

use common::verify as verifiers;

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::log::Body;
use adjutant::rules::version::{RULES_VERSION, replayed};
use verifiers::{adjutant_verify as verify, both_accept, both_refuse, python_verify as python};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/matches/aae-rules-version-1")
}

/// A match written by rules version 1 with an organiser (Olga): Germany's
/// first turn played (entries 5 and 7 its adjudications), the Soviet Union
/// to move, dice turn 2 open with its secret beside the log.
fn organised() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/matches/aae-rules-version-1-organised")
}

/// A copy of fixture `from` in a fresh directory `name`.
fn copy_of(from: &Path, name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    copy_dir(from, &dir);
    dir
}

/// Matches written by rules version 1 (the demo's German turn: a battle
/// with its dice, placement; and a German turn of a match with an
/// organiser), kept as they were written: every later program must replay
/// them to the states they recorded, or say why it cannot, and `verify`
/// says which version wrote them and which versions it replays.
#[test]
fn a_log_written_by_rules_version_1_still_replays() {
    let log = fixture().join("log.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.lines().next().unwrap().contains("\"rules_version\":1"));
    let said = both_accept(&log);
    assert!(
        said.contains("3 accepted messages re-adjudicated to their recorded states"),
        "{said}"
    );
    assert!(
        said.contains("rules version: written by version 1; this program replays versions 1..2"),
        "{said}"
    );
    let said = both_accept(&organised().join("log.jsonl"));
    assert!(
        said.contains("2 accepted messages re-adjudicated to their recorded states"),
        "{said}"
    );
}

/// A log of a newer rules version: the chain and the dice are checked, the
/// engine replay is not attempted, and verify says so in exact words (exit
/// status 3).
#[test]
fn a_log_of_a_rules_version_this_program_does_not_replay_is_named_as_such() {
    let dir = copy_of(&fixture(), "rules-version-newer");
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
    assert_eq!(out.status.code(), Some(3), "{}", out_text(&out));
    assert!(
        stdout.contains(&format!(
            "engine replay: not done: written by rules version {newer}; this program replays {}",
            replayed()
        )),
        "{stdout}"
    );
    assert_eq!(replayed(), format!("versions 1..{RULES_VERSION}"));
    assert!(
        stdout.contains("23 dice"),
        "the dice are still re-derived: {stdout}"
    );
    let py = python(&log);
    assert!(py.status.success(), "{}", out_text(&py));
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
        out_text(&py).contains("rules_version is not a positive whole number"),
        "{}",
        out_text(&py)
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
    verifiers::said(o)
}

/// The organiser entries of a log with this action, as JSON.
fn organiser_entries(log: &Path, action: &str) -> Vec<serde_json::Value> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["kind"] == "organiser" && e["body"]["action"] == action)
        .collect()
}

/// The state digest of adjudication entry `seq`.
fn state_of(log: &Path, seq: u64) -> String {
    let text = std::fs::read_to_string(log).unwrap();
    let line = text.lines().nth(seq as usize - 1).unwrap();
    let e: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(e["kind"], "adjudication");
    e["body"]["state"].as_str().unwrap().to_owned()
}

/// `adjutant organise --match DIR --as Olga ARGS...`.
fn olga(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["organise", "--match", dir.to_str().unwrap(), "--as", "Olga"];
    all.extend_from_slice(args);
    adjutant(&all)
}

/// The organiser's upgrade of a match written by rules version 1 to
/// version 2, whose canonical text differs: the entry records the
/// position's two different digests (the version 1 one is the last
/// adjudication's, the version 2 one is that of the text `adjutant show
/// --position` prints after it); the match refused orders before it and
/// takes them after it; both verifiers accept the log, and `verify` says
/// where the version changed. A forged upgrade is caught: a digest that is
/// not the position's by the engine, a version the match is not at by both
/// verifiers, a version this program lacks by exit status 3 with the chain
/// and dice still checked.
#[test]
fn an_upgrade_from_version_1_to_2_carries_the_position_across_two_digests() {
    let dir = copy_of(&organised(), "rules-version-upgrade-1-2");
    let log = dir.join("log.jsonl");
    let d = dir.to_str().unwrap();
    // Version 1's match takes no orders from this program before it.
    let mut m = adjutant::matches::Match::open(&dir).unwrap();
    let refused = m
        .submit("Soviet Union", "purchase: 1 infantry\n")
        .unwrap()
        .unwrap_err();
    assert!(
        format!("{refused:?}")
            .contains("the match is at rules version 1; this program plays version 2"),
        "{refused:?}"
    );
    drop(m);
    let out = olga(&dir, &["upgrade", "--reason", "the new server"]);
    assert!(out.status.success(), "{}", out_text(&out));
    assert!(
        out_text(&out).contains("upgraded the match from rules version 1 to rules version 2"),
        "{}",
        out_text(&out)
    );
    let up = organiser_entries(&log, "upgrade");
    assert_eq!(up.len(), 1);
    let b = &up[0]["body"];
    let upgrade_seq = up[0]["seq"].as_u64().unwrap();
    assert_eq!(b["from_version"], 1);
    assert_eq!(b["to_version"], 2);
    assert_eq!(b["from_state"], state_of(&log, 7).as_str());
    assert_ne!(b["from_state"], b["to_state"]);
    let shown = adjutant(&["show", "--match", d, "--position"]);
    assert!(shown.stdout.starts_with(b"adjutant-state/2\n"));
    assert_eq!(
        b["to_state"],
        adjutant::dice::Digest32::sha256(&shown.stdout)
            .to_hex()
            .as_str()
    );
    // Play goes on after it, and the replay crosses it.
    let mut m = adjutant::matches::Match::open(&dir).unwrap();
    m.submit("Soviet Union", "purchase: 1 infantry\n")
        .unwrap()
        .unwrap();
    drop(m);
    let said = both_accept(&log);
    assert!(
        said.contains("3 accepted messages re-adjudicated to their recorded states"),
        "{said}"
    );
    assert!(
        said.contains(&format!(
            "rules version: written by version 1, upgraded at entry {upgrade_seq} to version 2; this program replays versions 1..2"
        )),
        "{said}"
    );

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
    // The version 1 digest given as the version 2 one: the engine says so.
    let f = forged(&|o| o.to_state = o.from_state);
    let v = verify(&f);
    assert_eq!(v.status.code(), Some(1), "{}", out_text(&v));
    assert!(
        out_text(&v)
            .contains("the upgrade's to_state is not the position's digest under rules version 2"),
        "{}",
        out_text(&v)
    );
    // A version the match is not at: both verifiers refuse the entry.
    let f = forged(&|o| o.from_version = Some(2));
    both_refuse(&f, "an upgrade from rules version 2, but the match is at 1");
    // An upgrade to a version this program lacks: the chain and the dice
    // are checked, the replay is not, in exact words.
    let newer = RULES_VERSION + 1;
    let f = forged(&|o| o.to_version = Some(newer));
    let v = verify(&f);
    assert_eq!(v.status.code(), Some(3), "{}", out_text(&v));
    assert!(
        out_text(&v).contains(&format!(
            "engine replay: not done: upgraded at entry {upgrade_seq} to rules version {newer}; this program replays {}",
            replayed()
        )),
        "{}",
        out_text(&v)
    );
    assert!(python(&f).status.success(), "{}", out_text(&python(&f)));
    let _ = std::fs::remove_file(dir.join("forged.jsonl"));
}

/// A log from before versions were recorded (the version 1 match with its
/// genesis's version taken out) is replayed as version 1, and its upgrade
/// records no `from_version`; once is enough.
#[test]
fn an_upgrade_of_a_log_that_recorded_no_version() {
    let dir = copy_of(&organised(), "rules-version-upgrade-none");
    let log = dir.join("log.jsonl");
    let data = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Genesis(g) = &mut e.body {
            g.rules_version = None;
        }
    });
    std::fs::write(&log, &data).unwrap();
    let said = both_accept(&log);
    assert!(
        said.contains("rules version: written by version 1 (none recorded);"),
        "{said}"
    );
    let out = olga(&dir, &["upgrade", "--reason", "record the version"]);
    assert!(out.status.success(), "{}", out_text(&out));
    assert!(
        out_text(&out).contains(&format!(
            "upgraded the match from rules version 1 (none recorded) to rules version {RULES_VERSION}"
        )),
        "{}",
        out_text(&out)
    );
    let up = organiser_entries(&log, "upgrade");
    let b = &up[0]["body"];
    assert!(b.get("from_version").is_none(), "{b}");
    assert_eq!(b["to_version"], RULES_VERSION);
    assert_eq!(b["from_state"], state_of(&log, 7).as_str());
    let again = olga(&dir, &["upgrade"]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        out_text(&again).contains(&format!(
            "the match is at rules version {RULES_VERSION} already"
        )),
        "{}",
        out_text(&again)
    );
    both_accept(&log);
    // An upgrade that claims a version the match is not at.
    let forged = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Organiser(o) = &mut e.body {
            o.from_version = Some(1);
        }
    });
    let f = dir.join("forged.jsonl");
    std::fs::write(&f, forged).unwrap();
    both_refuse(
        &f,
        "an upgrade from rules version 1, but the match is at none recorded",
    );
}

/// A rollback cannot cross an upgrade: the positions before it were played
/// by the older version. The organiser is told so, with the positions
/// there are; a rollback to a position after it works; a log whose
/// rollback goes back before the upgrade is refused by both verifiers.
#[test]
fn a_rollback_to_before_an_upgrade_is_refused() {
    let dir = copy_of(&organised(), "rules-version-rollback");
    let log = dir.join("log.jsonl");
    assert!(olga(&dir, &["upgrade"]).status.success());
    let mut m = adjutant::matches::Match::open(&dir).unwrap();
    m.submit("Soviet Union", "purchase: 1 infantry\n")
        .unwrap()
        .unwrap();
    let after = m.log().chain().seq();
    drop(m);
    let upgrade_seq = organiser_entries(&log, "upgrade")[0]["seq"]
        .as_u64()
        .unwrap();
    let out = olga(&dir, &["rollback", "--entry", "7", "--reason", "a typo"]);
    assert_eq!(out.status.code(), Some(1), "{}", out_text(&out));
    assert!(
        out_text(&out).contains(&format!(
            "entry 7 is before the upgrade to rules version 2 at entry {upgrade_seq}: the positions before it were played by an older rules version, which this match is no longer played by, so a rollback cannot cross it; the positions after it: {after}"
        )),
        "{}",
        out_text(&out)
    );
    let out = olga(&dir, &["rollback", "--entry", &after.to_string()]);
    assert!(out.status.success(), "{}", out_text(&out));
    both_accept(&log);
    // The same rollback, forged to go back before the upgrade.
    let forged = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Organiser(o) = &mut e.body
            && o.action == adjutant::log::OrganiserAction::Rollback
        {
            o.entry = Some(5);
        }
    });
    let f = dir.join("forged.jsonl");
    std::fs::write(&f, forged).unwrap();
    both_refuse(
        &f,
        &format!(
            "a rollback to entry 5, before the upgrade at entry {upgrade_seq}: a rollback cannot cross an upgrade"
        ),
    );
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
