//! The real `adjutant` binary, run as a user would.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn adjutant(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(args)
        .output()
        .unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn fresh_dir(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn demo_verify_and_show_on_the_embedded_default() {
    let dir = fresh_dir("demo");
    let d = dir.to_str().unwrap();
    let out = adjutant(&["demo", "--dir", d]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("11 entries, 2 turns,")
            && stdout.contains("3 messages replayed by the engine"),
        "{stdout}"
    );
    for step in [
        "dice turn 1 opened",
        "Soviet Union's standing orders accepted",
        "Germany's stage 1 orders accepted",
        "dice turn 1 revealed",
        "battle/East Poland/round/1/attacker/",
        "adjudication of Germany's stage 2",
    ] {
        assert!(stdout.contains(step), "{step} missing from:\n{stdout}");
    }
    // A second run plays a new match beside the first.
    let out = adjutant(&["demo", "--dir", d]);
    assert!(text(&out.stdout).contains("match demo-2 of aae created"));

    let log = dir.join("demo-1/log.jsonl");
    let log = log.to_str().unwrap();
    let out = adjutant(&["verify", log]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("ok: match demo-1: 11 entries, 2 turns, 3 orders"),
        "{stdout}"
    );
    let head = stdout
        .lines()
        .find_map(|l| l.strip_prefix("head "))
        .unwrap()
        .to_owned();
    let out = adjutant(&["verify", log, "--head", &head]);
    assert!(text(&out.stdout).contains("the given head is entry 11"));

    let out = adjutant(&["log", "show", log]);
    assert!(out.status.success());
    let shown = text(&out.stdout);
    for kind in [
        "genesis",
        "turn_open",
        "order",
        "reveal",
        "dice",
        "adjudication",
    ] {
        assert!(shown.contains(kind), "{kind} missing from:\n{shown}");
    }
    assert!(shown.contains("battle/East Poland/round/1/attacker/"));
}

#[test]
fn verify_names_the_bad_entry_and_exits_1() {
    let dir = fresh_dir("tamper");
    let d = dir.to_str().unwrap();
    assert!(adjutant(&["demo", "--dir", d]).status.success());
    let log = dir.join("demo-1/log.jsonl");
    let mut data = std::fs::read(&log).unwrap();
    // Change the secret's first digit in the reveal (entry 6).
    let text6 = String::from_utf8(data.clone()).unwrap();
    let at = text6.find("\"secret\":\"").unwrap() + 10;
    data[at] = if data[at] == b'0' { b'1' } else { b'0' };
    std::fs::write(&log, &data).unwrap();
    let out = adjutant(&["verify", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("entry 6 (line 6, byte"),
        "{}",
        text(&out.stderr)
    );

    let out = adjutant(&["log", "show", log.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).contains("#6     (byte"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn bad_arguments_get_clear_errors() {
    let out = adjutant(&["verify", "/nonexistent/match.log"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("cannot read /nonexistent/match.log"));
    let out = adjutant(&["verify", "x.log", "--head", "ABC"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("64 lowercase hexadecimal digits"));
}
