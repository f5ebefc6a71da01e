//! A league of three matches (issue 21, item 5): two ended (one side
//! resigned, the other forfeited), one still being played; the standings
//! come from the logs alone, by the real binary and by the library alike.

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::matches::league::{LeagueFile, Outcome, standings};

fn adjutant(args: &[&str]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "adjutant {args:?}: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn players(id: &str) -> String {
    format!(
        "match: {id}\norganisers:\n  - {{name: Olga, email: olga@example.org}}\nplayers:\n  \
         Germany: {{name: Alice, email: alice@example.org}}\n  \
         Soviet Union: {{name: Boris, email: boris@example.org}}\n  \
         United Kingdom: {{name: Boris, email: boris@example.org}}\n  \
         United States: {{name: Clem, email: clem@example.org}}\n"
    )
}

fn league_dir() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-three");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("matches")).unwrap();
    for id in ["l-1", "l-2", "l-3"] {
        let file = dir.join(format!("{id}.players.yaml"));
        std::fs::write(&file, players(id)).unwrap();
        let m = dir.join("matches").join(id);
        adjutant(&[
            "new",
            "--game",
            "aae",
            "--players",
            file.to_str().unwrap(),
            "--dir",
            m.to_str().unwrap(),
        ]);
    }
    let m = |id: &str| dir.join("matches").join(id).to_str().unwrap().to_owned();
    adjutant(&[
        "organise",
        "--match",
        &m("l-1"),
        "--as",
        "Olga",
        "resign",
        "--side",
        "Axis",
    ]);
    adjutant(&[
        "organise",
        "--match",
        &m("l-2"),
        "--as",
        "Olga",
        "forfeit",
        "--side",
        "Allies",
    ]);
    std::fs::write(
        dir.join("league.yaml"),
        "name: Autumn League\norganisers: [Olga]\nmatches: [l-1, l-2, l-3]\n",
    )
    .unwrap();
    dir
}

#[test]
fn the_standings_of_a_league_of_three_matches() {
    let dir = league_dir();
    let league: LeagueFile =
        serde_saphyr::from_str(&std::fs::read_to_string(dir.join("league.yaml")).unwrap()).unwrap();
    let (rows, results) = standings(&league, &dir.join("matches")).unwrap();
    assert!(
        matches!(&results[0].outcome, Outcome::Won { side, how, .. } if side == "Allies" && how == "the Axis resigned")
    );
    assert!(
        matches!(&results[1].outcome, Outcome::Won { side, how, .. } if side == "Axis" && how == "the Allies forfeited")
    );
    assert_eq!(results[2].outcome, Outcome::Ongoing);
    let row = |name: &str| rows.iter().find(|r| r.player == name).unwrap().clone();
    // Boris plays two powers of one side: one player, counted once a match.
    assert_eq!(rows.len(), 3);
    for name in ["Alice", "Boris", "Clem"] {
        let r = row(name);
        assert_eq!((r.wins, r.losses, r.current), (1, 1, 1), "{name}");
        assert_eq!(r.points, 1.0, "{name}");
    }
    // Elo, K 32 from 1500: match 1 even (Alice -16, the Allies +16); match 2
    // Alice at 1484 against the Allies' 1516 expects 1/(1+10^(32/400)).
    let expected = 1.0 / (1.0 + 10f64.powf(32.0 / 400.0));
    let alice = 1484.0 + 32.0 * (1.0 - expected);
    let allied = 1516.0 - 32.0 * (1.0 - expected);
    assert!(
        (row("Alice").rating - alice).abs() < 1e-9,
        "{}",
        row("Alice").rating
    );
    assert!((row("Boris").rating - allied).abs() < 1e-9);
    assert!((row("Clem").rating - allied).abs() < 1e-9);
    // Nobody missed a deadline.
    assert!(rows.iter().all(|r| r.on_time == 1.0));

    // The binary prints the same.
    let out = adjutant(&[
        "league",
        "standings",
        "--league",
        dir.join("league.yaml").to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("Standings of Autumn League"), "{text}");
    assert!(
        text.contains("l-1 (aae): Allies won (the Axis resigned; log entry"),
        "{text}"
    );
    assert!(text.contains("l-3 (aae): being played"), "{text}");
    assert!(
        text.contains(&format!(
            "{:<20} {:>4} {:>4} {:>4} {:>7.1} {:>7.0}",
            "Alice", 1, 1, 1, 1.0, alice
        )),
        "{text}"
    );
}

#[test]
fn a_league_file_with_a_missing_match_says_which() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-missing");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("matches")).unwrap();
    std::fs::write(dir.join("league.yaml"), "name: L\nmatches: [nope]\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["league", "standings", "--league"])
        .arg(dir.join("league.yaml"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("nope"), "{err}");
}
