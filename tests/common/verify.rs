//! Runs the real `adjutant verify` on a match log, as an auditor would, and
//! the independent `tools/verify_dice.py`.

#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

/// Runs `adjutant verify LOG`, asserts that it succeeds and re-adjudicates
/// exactly `messages` accepted messages, and returns its report. `what`
/// names the game in failure messages.
pub fn verify_replays(log: &Path, messages: usize, what: &str) -> String {
    let out = adjutant_verify(log);
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what}: verify failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "engine replay: {messages} accepted messages re-adjudicated"
        )),
        "{what}: {stdout}"
    );
    stdout
}

/// `adjutant verify`'s report (`stdout`) says it re-derived exactly `dice`
/// dice.
pub fn assert_every_die_re_derived(stdout: &str, dice: usize, what: &str) {
    assert!(
        stdout.contains(&format!("{dice} dice re-derived")),
        "{what}: {stdout}"
    );
}

/// The independent verifier, `tools/verify_dice.py`, accepts the log.
pub fn assert_python_accepts(log: &Path, what: &str) {
    let py = python_verify(log);
    assert!(
        py.status.success(),
        "{what}: verify_dice.py failed: {}",
        said(&py)
    );
}

/// `adjutant verify LOG`, whatever it says.
pub fn adjutant_verify(log: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .arg("verify")
        .arg(log)
        .output()
        .unwrap()
}

/// The independent verifier, `python3 tools/verify_dice.py LOG`, whatever
/// it says.
pub fn python_verify(log: &Path) -> std::process::Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py"))
        .arg(log)
        .output()
        .expect("python3 runs the independent verifier")
}

/// A command's standard output and error together, for failure messages
/// and for looking for words.
pub fn said(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Both verifiers accept the log; returns what `adjutant verify` said.
pub fn both_accept(log: &Path) -> String {
    let v = adjutant_verify(log);
    assert!(v.status.success(), "adjutant verify: {}", said(&v));
    let py = python_verify(log);
    assert!(py.status.success(), "verify_dice.py: {}", said(&py));
    said(&v)
}

/// Both verifiers refuse the log, each saying `words`.
pub fn both_refuse(log: &Path, words: &str) {
    let v = adjutant_verify(log);
    assert!(!v.status.success(), "adjutant verify accepted it");
    assert!(said(&v).contains(words), "adjutant verify: {}", said(&v));
    let py = python_verify(log);
    assert!(!py.status.success(), "verify_dice.py accepted it");
    assert!(said(&py).contains(words), "verify_dice.py: {}", said(&py));
}

/// The dice a turn drew (`Dice::take_rolls`), by label, and its turn key
/// in hex: what `tools/verify_dice.py derive` takes.
pub fn rolls_by_label(
    dice: &mut adjutant::dice::Dice,
    key: &adjutant::dice::TurnKey,
) -> (String, std::collections::BTreeMap<String, Vec<u32>>) {
    let mut by_label: std::collections::BTreeMap<String, Vec<u32>> = Default::default();
    for group in dice.take_rolls() {
        assert_eq!(group.sides, 6);
        by_label
            .entry(group.label.as_str().to_owned())
            .or_default()
            .extend(group.values);
    }
    let hex: String = key.bytes().iter().map(|b| format!("{b:02x}")).collect();
    (hex, by_label)
}

/// Runs `tools/verify_dice.py derive` for every label of `dice` (from
/// [`rolls_by_label`]) and compares its dice with the engine's.
pub fn python_re_derives(key: &str, dice: &std::collections::BTreeMap<String, Vec<u32>>) {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py");
    for (label, values) in dice {
        let out = Command::new("python3")
            .arg(&script)
            .args([
                "derive",
                "--turn-key",
                key,
                "--label",
                label,
                "--sides",
                "6",
            ])
            .args(["--count", &values.len().to_string()])
            .output()
            .expect("python3 runs the independent verifier");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let derived: Vec<u32> = String::from_utf8(out.stdout)
            .unwrap()
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(&derived, values, "{label}");
    }
}
