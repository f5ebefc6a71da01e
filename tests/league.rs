//! A league of three matches (issue 21, item 5): two ended (one side
//! resigned, the other forfeited), one still being played; three matches
//! played by script to a result (a resignation, a forfeit, a draw), whose
//! standings are compared with figures worked by hand; the standings come
//! from the logs alone, by the real binary and by the library alike. And
//! `adjutant league list`, a player's matches.

#[path = "common/verify.rs"]
mod verifiers;

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
    verifiers::both_accept(&log);

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

/// `adjutant league list`: every match of a player's address under the
/// matches directory, with the powers it plays and the match's state, as
/// `command: list` answers by mail.
#[test]
fn a_players_matches_on_the_command_line() {
    let dir = league_of("league-list", &["l-1", "l-2", "l-3"]);
    let matches = dir.join("matches");
    let m = matches.to_str().unwrap();
    let out = adjutant(&[
        "league",
        "list",
        "--player",
        "Boris@Example.org",
        "--matches",
        m,
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.lines()
            .filter(|l| l.starts_with("l-"))
            .collect::<Vec<_>>(),
        [
            "l-1: plays Soviet Union, United Kingdom",
            "l-2: plays Soviet Union, United Kingdom",
            "l-3: plays Soviet Union, United Kingdom"
        ],
        "{text}"
    );
    assert!(
        text.contains("    Axis & Allies: Europe (1999, 2nd-edition rules) (l-1): Allies won (the Axis resigned; log entry"),
        "{text}"
    );
    assert!(
        text.contains("    Axis & Allies: Europe (1999, 2nd-edition rules): round 1, Germany to move (stage 1); deadline none set"),
        "{text}"
    );
    let out = adjutant(&[
        "league",
        "list",
        "--player",
        "nobody@example.org",
        "--matches",
        m,
    ]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("nobody@example.org plays in no match under"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// Three matches played by script to a result, each with different seats,
/// and the standings compared with figures worked by hand. The league
/// scores a win 3, a draw 1, a loss 0; Elo from 1200 with k 24.
///
/// - m-1: Alice (Axis) against Boris and Clem (Allies); Germany plays its
///   first turn, then the Axis resigns: the Allies win. Even sides
///   (1200 each): Boris and Clem +12 (1212), Alice -12 (1188).
/// - m-2: Boris (Axis) against Alice and Dora (Allies); Germany plays its
///   first turn and the Soviet Union its purchase, then the Allies
///   forfeit: the Axis wins. Boris 1212 against the Allies' mean
///   (1188 + 1200) / 2 = 1194: expected 1 / (1 + 10^(-18/400)) =
///   0.5258809, so Boris +24 * 0.4741191 = +11.378858 (1223.378858),
///   Alice and Dora -11.378858 (1176.621142, 1188.621142).
/// - m-3: Clem (Axis) against Alice (Allies); the organisers adjudicate a
///   draw. Clem 1212 against Alice 1176.621142: Clem expected
///   1 / (1 + 10^(-35.378858/400)) = 0.5507390, so Clem
///   +24 * (0.5 - 0.5507390) = -1.217736 (1210.782264), Alice +1.217736
///   (1177.838879).
///
/// Points: Boris 6 (two wins), Clem 4 (a win, a draw), Alice 1 (two
/// losses, a draw), Dora 0 (a loss).
#[test]
fn the_standings_of_three_scripted_matches_played_to_a_result() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("league-scripted");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("matches")).unwrap();
    let seats = |axis: &str, soviet: &str, uk: &str, us: &str| {
        let email = |n: &str| format!("{}@example.org", n.to_lowercase());
        format!(
            "organisers:\n  - {{name: Olga, email: olga@example.org}}\nplayers:\n  \
             Germany: {{name: {axis}, email: {}}}\n  \
             Soviet Union: {{name: {soviet}, email: {}}}\n  \
             United Kingdom: {{name: {uk}, email: {}}}\n  \
             United States: {{name: {us}, email: {}}}\n",
            email(axis),
            email(soviet),
            email(uk),
            email(us)
        )
    };
    let new = |id: &str, players: String| -> String {
        let file = dir.join(format!("{id}.players.yaml"));
        std::fs::write(&file, format!("match: {id}\n{players}")).unwrap();
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
        m.to_str().unwrap().to_owned()
    };
    let submit = |m: &str, power: &str, orders: &str| {
        let file = dir.join("orders.yaml");
        std::fs::write(&file, orders).unwrap();
        adjutant(&[
            "submit",
            "--match",
            m,
            "--as",
            power,
            file.to_str().unwrap(),
        ]);
    };
    let olga = |m: &str, args: &[&str]| {
        let mut all = vec!["organise", "--match", m, "--as", "Olga"];
        all.extend_from_slice(args);
        adjutant(&all);
    };
    let m1 = new("m-1", seats("Alice", "Boris", "Boris", "Clem"));
    submit(&m1, "Germany", "purchase: 1 infantry\n");
    submit(&m1, "Germany", "place:\n  Germany: 1 infantry\n");
    olga(&m1, &["resign", "--side", "Axis"]);
    let m2 = new("m-2", seats("Boris", "Alice", "Alice", "Dora"));
    submit(&m2, "Germany", "purchase: 2 infantry\n");
    submit(&m2, "Germany", "place:\n  Germany: 2 infantry\n");
    submit(&m2, "Soviet Union", "purchase: 1 armor\n");
    olga(&m2, &["forfeit", "--side", "Allies"]);
    let m3 = new("m-3", seats("Clem", "Alice", "Alice", "Alice"));
    submit(&m3, "Germany", "purchase: 1 armor\n");
    olga(&m3, &["draw", "--reason", "agreed"]);
    std::fs::write(
        dir.join("league.yaml"),
        "name: Scripted League\nmatches: [m-1, m-2, m-3]\n\
         scoring: {win: 3, loss: 0, draw: 1, initial_rating: 1200, k: 24}\n",
    )
    .unwrap();
    let league: LeagueFile =
        serde_saphyr::from_str(&std::fs::read_to_string(dir.join("league.yaml")).unwrap()).unwrap();
    let (rows, results) = standings(&league, &dir.join("matches")).unwrap();
    let words: Vec<String> = results.iter().map(|r| r.outcome.words()).collect();
    assert!(
        words[0].starts_with("Allies won (the Axis resigned; log entry"),
        "{words:?}"
    );
    assert!(
        words[1].starts_with("Axis won (the Allies forfeited; log entry"),
        "{words:?}"
    );
    assert!(
        words[2].starts_with("drawn (adjudicated by the organisers: agreed; log entry"),
        "{words:?}"
    );
    // (player, won, lost, drawn, now, points, rating), best first.
    let table: Vec<(&str, u32, u32, u32, u32, f64)> = rows
        .iter()
        .map(|r| {
            (
                r.player.as_str(),
                r.wins,
                r.losses,
                r.draws,
                r.current,
                r.points,
            )
        })
        .collect();
    assert_eq!(
        table,
        [
            ("Boris", 2, 0, 0, 0, 6.0),
            ("Clem", 1, 0, 1, 0, 4.0),
            ("Alice", 0, 2, 1, 0, 1.0),
            ("Dora", 0, 1, 0, 0, 0.0),
        ]
    );
    let rating = |name: &str| rows.iter().find(|r| r.player == name).unwrap().rating;
    for (name, by_hand) in [
        ("Boris", 1223.378858),
        ("Clem", 1210.782264),
        ("Alice", 1177.838879),
        ("Dora", 1188.621142),
    ] {
        assert!(
            (rating(name) - by_hand).abs() < 1e-5,
            "{name}: {} against {by_hand} worked by hand",
            rating(name)
        );
    }
    assert!(rows.iter().all(|r| r.on_time == 1.0));
    // The binary prints the same table.
    let out = adjutant(&[
        "league",
        "standings",
        "--league",
        dir.join("league.yaml").to_str().unwrap(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!(
            "{:<20} {:>4} {:>4} {:>5} {:>4} {:>7.1} {:>7.0}",
            "Boris", 2, 0, 0, 0, 6.0, 1223.378858
        )),
        "{text}"
    );
}
