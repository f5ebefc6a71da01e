//! `adjutant odds` through the real binary: text and YAML answers, options,
//! and a refused question.

use std::process::Command;

fn odds(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("odds")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The text with every run of spaces made one.
/// `attacker_wins:` of a YAML answer.
fn attacker_wins(yaml: &str) -> f64 {
    yaml.lines()
        .find_map(|l| l.strip_prefix("attacker_wins: "))
        .unwrap_or_else(|| panic!("no attacker_wins in {yaml}"))
        .parse()
        .unwrap()
}

fn squeeze(text: &str) -> String {
    text.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn one_infantry_against_one_as_text() {
    let (ok, out, err) = odds(&["aae", "1 infantry", "1 infantry"]);
    assert!(ok, "{err}");
    assert!(out.contains("Odds of a land battle: exact"), "{out}");
    let text = squeeze(&out);
    assert!(text.contains("Attacker wins 25.00%"), "{out}");
    assert!(text.contains("Defender holds 62.50%"), "{out}");
    assert!(text.contains("Both destroyed 12.50%"), "{out}");
    assert!(text.contains("Expected rounds 2.25"), "{out}");
    assert!(out.lines().all(|l| l.chars().count() <= 72));
}

#[test]
fn options_and_yaml_output() {
    let (ok, out, err) = odds(&[
        "aae",
        "2 infantry",
        "1 infantry",
        "--retreat",
        "when_attackers_below:2",
        "--outcomes",
        "--format",
        "yaml",
    ]);
    assert!(ok, "{err}");
    // 33/58 worked out in tests/odds.rs.
    let wins = attacker_wins(&out);
    assert!((wins - 33.0 / 58.0).abs() < 1e-12, "{out}");
    assert!(out.contains("result: attacker retreats"), "{out}");
    let (ok, out, _) = odds(&["aae", "2 armor", "1 infantry", "--low-luck"]);
    assert!(ok);
    assert!(
        out.contains("Low Luck") && squeeze(&out).contains("Attacker wins 100.00%"),
        "{out}"
    );
    let (ok, out, _) = odds(&[
        "aae",
        "1 infantry, 1 battleship",
        "1 infantry",
        "--amphibious",
    ]);
    assert!(ok);
    assert!(
        out.contains("amphibious assault") && out.contains("bombard"),
        "{out}"
    );
}

#[test]
fn a_typo_is_refused_with_a_suggestion() {
    let (ok, out, err) = odds(&["aae", "3 infantri", "1 infantry"]);
    assert!(!ok);
    assert!(out.is_empty());
    assert!(err.contains("Did you mean infantry?"), "{err}");
    let (ok, _, err) = odds(&["aae", "3 infantry", "1 infantry", "--retreat", "sometimes"]);
    assert!(!ok);
    assert!(err.contains("not a retreat"), "{err}");
}

#[test]
fn developments_by_option() {
    // 1 heavy bomber against 1 infantry: 16/25 (worked out in tests/odds.rs).
    let (ok, out, err) = odds(&[
        "anniversary-1941",
        "1 bomber",
        "1 infantry",
        "--attacker-developments",
        "heavy bombers, jet fighters",
        "--dice",
        "--format",
        "yaml",
    ]);
    assert!(ok, "{err}");
    let wins = attacker_wins(&out);
    assert!((wins - 16.0 / 25.0).abs() < 1e-12, "{out}");
    assert!(out.contains("heavy bombers, jet fighters"), "{out}");
    let (ok, _, err) = odds(&[
        "anniversary-1941",
        "1 bomber",
        "1 infantry",
        "--defender-developments",
        "radr",
    ]);
    assert!(!ok);
    assert!(
        err.contains("defender_developments: no development \"radr\"") && err.contains("radar"),
        "{err}"
    );
    let (ok, _, err) = odds(&[
        "aae",
        "1 bomber",
        "1 infantry",
        "--attacker-developments",
        "heavy bombers",
    ]);
    assert!(!ok);
    assert!(err.contains("has no research and development"), "{err}");
}
