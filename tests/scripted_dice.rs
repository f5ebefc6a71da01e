//! Scripted dice: the scenario runner has them in every build, a match
//! never does.
//!
//! The separation is by types: the engine takes any `DiceSource`, a match
//! and its log take only `Dice`, which has no scripted kind (the
//! `compile_fail` examples on `ScriptedDice` show that it cannot be passed
//! where a match's dice go). These tests add what types cannot show: the
//! binary as built (no cargo feature, the same as a release build) runs
//! every scenario that scripts its dice, and a match neither starts nor
//! opens with scripted dice.

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::dice::DiceKind;
use adjutant::log::{Genesis, MatchLog};
use adjutant::matches::{Match, MatchError};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Every scenario file whose steps script their dice.
fn scripted_scenarios() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in std::fs::read_dir(root().join("tests/scenarios")).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() {
            continue;
        }
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let scripted = f.extension().is_some_and(|e| e == "yaml") && {
                let text = std::fs::read_to_string(&f).unwrap();
                text.lines().any(|l| l.trim_start().starts_with("dice:"))
            };
            if scripted {
                files.push(f);
            }
        }
    }
    files.sort();
    files
}

#[test]
fn the_binary_runs_every_scenario_that_scripts_its_dice() {
    let files = scripted_scenarios();
    assert!(files.len() >= 90, "only {} scripted scenarios", files.len());
    // Classic's among them since its rule set is played (issue 17).
    let classic = files
        .iter()
        .filter(|f| f.parent().is_some_and(|d| d.ends_with("classic")))
        .count();
    assert!(classic >= 25, "only {classic} scripted Classic scenarios");
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(root())
        .arg("scenario")
        .arg("--quiet")
        .args(&files)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "stdout:\n{stdout}\nstderr:\n{stderr}");
    assert!(
        stdout.contains(&format!("{} passed, 0 failed", files.len())),
        "{stdout}"
    );
}

/// A scenario whose scripted dice run out fails alone, in words: no Rust
/// panic message, and the rest of the batch still runs.
#[test]
fn a_scenario_whose_scripted_dice_run_out_fails_alone_in_words() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("scripted-short-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let short = dir.join("short.yaml");
    std::fs::write(
        &short,
        "ruling: \"dice that run out\"\nsource: \"test\"\ngame: aae\nposition:\n  units:\n    \
         Norway: {Germany: {fighter: 2}}\n    North Atlantic: {United Kingdom: {destroyer: 1}}\n\
         steps:\n  - orders: |\n      combat:\n        - 2 fighter: Norway -> Norwegian Sea -> \
         North Atlantic, land Norway\n    dice:\n      labels:\n        \
         \"battle/North Atlantic/round/1/attacker/fighter\": [6]\n",
    )
    .unwrap();
    let fine = root().join("tests/scenarios/aae/middle-east-payment.yaml");
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(root())
        .arg("scenario")
        .arg("--quiet")
        .arg(&short)
        .arg(&fine)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(
        stdout.contains(
            "the scenario stopped: scripted dice exhausted at label battle/North Atlantic/round/1/"
        ) && stdout.contains("1 passed, 1 failed"),
        "{stdout}"
    );
    assert!(!stderr.contains("panicked"), "{stderr}");
}

fn new_match(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("scripted-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let players = std::fs::read_to_string(root().join("tests/fixtures/aae-players.yaml")).unwrap();
    Match::create(&dir, &root().join("games"), "aae", &players).unwrap();
    dir
}

fn genesis(dir: &Path) -> Genesis {
    MatchLog::open(&dir.join("log.jsonl"))
        .unwrap()
        .chain()
        .genesis()
        .unwrap()
        .clone()
}

#[test]
fn a_new_match_has_verifiable_dice() {
    let dir = new_match("new");
    assert_eq!(genesis(&dir).dice, DiceKind::Verifiable);
    Match::open(&dir).unwrap();
}

#[test]
fn a_match_never_opens_a_log_of_scripted_dice() {
    let dir = new_match("fixed");
    // The same match, its log begun again with a genesis that claims
    // scripted dice (no dice turn yet, so nothing else is wrong with it).
    let mut g = genesis(&dir);
    g.dice = DiceKind::Fixed;
    std::fs::remove_file(dir.join("log.jsonl")).unwrap();
    std::fs::remove_dir_all(dir.join("secrets")).unwrap();
    MatchLog::create(&dir.join("log.jsonl"), g).unwrap();
    match Match::open(&dir) {
        Err(MatchError::Invalid(reason)) => {
            assert!(reason.contains("scripted test dice"), "{reason}")
        }
        Err(e) => panic!("refused for another reason: {e}"),
        Ok(_) => panic!("a match opened a log of scripted dice"),
    }
}
