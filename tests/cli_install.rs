//! The program as installed: run from a directory with no `games/` in it,
//! it uses the games built into the binary; `--games DIR` names a directory
//! of games, and an error about it names the flag.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn fresh_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("install-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn adjutant_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap()
}

fn said(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn new_odds_and_demo_outside_the_repository_use_the_built_in_games() {
    let dir = fresh_dir("builtin");
    let players = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml");
    let out = adjutant_in(
        &dir,
        &[
            "new",
            "--game",
            "aae",
            "--players",
            players.to_str().unwrap(),
            "--dir",
            "m1",
        ],
    );
    assert!(out.status.success(), "{}", said(&out));
    assert!(dir.join("m1/games/aae/game.yaml").is_file());
    let out = adjutant_in(&dir, &["verify", "m1/log.jsonl"]);
    assert!(out.status.success(), "{}", said(&out));
    for game in ["anniversary-1941", "anniversary-1942"] {
        let out = adjutant_in(&dir, &["odds", game, "3 infantry, 1 armor", "2 infantry"]);
        assert!(out.status.success(), "{game}: {}", said(&out));
    }
    // An arbiter runs the scenario corpus with the installed program.
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenarios");
    for (game, file) in [
        ("aae", "middle-east-payment.yaml"),
        (
            "anniversary",
            "with-the-optional-rule-escorts-attack-at-1-and-interceptors-defend-at-2.yaml",
        ),
    ] {
        let path = corpus.join(game).join(file);
        let out = adjutant_in(&dir, &["scenario", "--quiet", path.to_str().unwrap()]);
        assert!(out.status.success(), "{file}: {}", said(&out));
        assert!(said(&out).contains("1 passed, 0 failed"), "{}", said(&out));
    }
    let out = adjutant_in(&dir, &["demo", "--dir", "d"]);
    assert!(out.status.success(), "{}", said(&out));
    let out = adjutant_in(&dir, &["run", "--demo"]);
    assert!(out.status.success(), "{}", said(&out));
}

#[test]
fn a_game_that_is_not_found_names_the_flag_and_the_built_in_games() {
    let dir = fresh_dir("missing");
    let players = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml");
    let p = players.to_str().unwrap();
    let out = adjutant_in(
        &dir,
        &["new", "--game", "axis", "--players", p, "--dir", "m1"],
    );
    assert!(!out.status.success());
    let text = said(&out);
    assert!(
        text.contains(
            "\"axis\" is not a built-in game (they are: aae, aae-jboulton, advanced-aae, anniversary-1941, anniversary-1942, classic)"
        ) && text.contains("--games DIR"),
        "{text}"
    );
    let out = adjutant_in(
        &dir,
        &[
            "new",
            "--game",
            "aae",
            "--players",
            p,
            "--dir",
            "m2",
            "--games",
            "nowhere",
        ],
    );
    assert!(!out.status.success());
    let text = said(&out);
    assert!(
        text.contains("cannot read nowhere/aae/game.yaml")
            && text.contains("--games nowhere names the directory holding the games")
            && text.contains("without --games the built-in games are used"),
        "{text}"
    );
    assert!(!dir.join("m2").exists(), "nothing written");
}

/// Every rule set is played: `adjutant new` makes a match of each
/// built-in game, the J Boulton house rules (issue 18) among them, and the
/// new match's log verifies.
#[test]
fn adjutant_new_makes_a_match_of_every_built_in_game() {
    let dir = fresh_dir("every-game");
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    for g in adjutant::rules::builtin::GAMES {
        // J Boulton's powers are AAE's; both Anniversary games have one list.
        let players = match g.id {
            "aae" | "aae-jboulton" => "aae-players.yaml",
            "advanced-aae" => "advanced-aae-players.yaml",
            "classic" => "classic-players.yaml",
            _ => "anniversary-players.yaml",
        };
        let players = fixtures.join(players);
        assert!(players.is_file(), "{}", players.display());
        let out = adjutant_in(
            &dir,
            &[
                "new",
                "--game",
                g.id,
                "--players",
                players.to_str().unwrap(),
                "--dir",
                g.id,
            ],
        );
        assert!(out.status.success(), "{}: {}", g.id, said(&out));
        assert!(
            dir.join(g.id)
                .join("games")
                .join(g.id)
                .join("game.yaml")
                .is_file()
        );
        let log = format!("{}/log.jsonl", g.id);
        let out = adjutant_in(&dir, &["verify", &log]);
        assert!(out.status.success(), "{}: {}", g.id, said(&out));
    }
}
