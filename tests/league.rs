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
    league_of("league-three", &["l-1", "l-2", "l-3"])
}

/// A league directory `name` with new matches `ids`; l-1's Axis resigns and
/// l-2's Allies forfeit.
fn league_of(name: &str, ids: &[&str]) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("matches")).unwrap();
    for id in ids.iter().copied() {
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
    if ids.contains(&"l-2") {
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
    }
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
            "{:<20} {:>4} {:>4} {:>5} {:>4} {:>7.1} {:>7.0}",
            "Alice", 1, 1, 0, 1, 1.0, alice
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

/// An adjudicated draw ends the match, scores the league's `draw` points
/// (1/2 by default) and moves the ratings by a score of 1/2: after l-1
/// (the Allies won), Alice at 1484 draws against the Allies' 1516.
#[test]
fn an_adjudicated_draw_ends_the_match_and_scores_half() {
    let dir = league_of("league-draw", &["l-1", "l-4"]);
    let m4 = dir.join("matches").join("l-4");
    adjutant(&[
        "organise",
        "--match",
        m4.to_str().unwrap(),
        "--as",
        "Olga",
        "draw",
        "--reason",
        "stalemate on every front",
    ]);
    // The match has ended: no other action but a ruling.
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args([
            "organise",
            "--match",
            m4.to_str().unwrap(),
            "--as",
            "Olga",
            "draw",
        ])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("only a ruling can follow"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Both verifiers accept the entry.
    let log = m4.join("log.jsonl");
    adjutant(&["verify", log.to_str().unwrap()]);
    let py = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py"))
        .arg(&log)
        .output()
        .unwrap();
    assert!(
        py.status.success(),
        "{}",
        String::from_utf8_lossy(&py.stdout)
    );

    let league = LeagueFile {
        name: "Draws".into(),
        organisers: vec!["Olga".into()],
        scoring: Default::default(),
        matches: vec!["l-1".into(), "l-4".into()],
    };
    let (rows, results) = standings(&league, &dir.join("matches")).unwrap();
    assert!(
        matches!(&results[1].outcome, Outcome::Drawn { how, .. } if how == "stalemate on every front"),
        "{:?}",
        results[1].outcome
    );
    let row = |name: &str| rows.iter().find(|r| r.player == name).unwrap().clone();
    let alice = row("Alice");
    assert_eq!(
        (alice.wins, alice.losses, alice.draws, alice.current),
        (0, 1, 1, 0)
    );
    assert_eq!(alice.points, 0.5);
    assert_eq!(row("Boris").points, 1.5);
    let expected = 1.0 / (1.0 + 10f64.powf(32.0 / 400.0));
    assert!((alice.rating - (1484.0 + 32.0 * (0.5 - expected))).abs() < 1e-9);
    assert!((row("Clem").rating - (1516.0 - 32.0 * (0.5 - expected))).abs() < 1e-9);
    let text = adjutant::matches::league::standings_text(&league, &rows, &results);
    assert!(
        text.contains(
            "l-4 (aae): drawn (adjudicated by the organisers: stalemate on every front; log entry"
        ),
        "{text}"
    );
}
