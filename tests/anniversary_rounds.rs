//! The Anniversary Edition on the same engine as AAE: seven powers, China
//! included, take their turns in each scenario's own order through
//! `Match::submit` (the path the mail daemon uses), and `adjutant verify`
//! replays the log. Each power with an industrial complex buys one infantry
//! a turn and places it in its capital; China buys nothing, collects no IPCs
//! and places the infantry its territories bring.

#[path = "common/verify.rs"]
mod verify;

use std::path::{Path, PathBuf};

use adjutant::matches::Match;

const ROUNDS: u32 = 2;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("match")
}

/// One person plays the United States and China (digest §2: the US player
/// plays China's turn).
const PLAYERS: &str = "players:
  Germany: {name: Alice, email: alice@example.org}
  Soviet Union: {name: Boris, email: boris@example.org}
  Japan: {name: Chie, email: chie@example.org}
  United Kingdom: {name: Clem, email: clem@example.org}
  Italy: {name: Ennio, email: ennio@example.org}
  United States: {name: Dora, email: dora@example.org}
  China: {name: Dora, email: dora@example.org}
";

fn capital(power: &str) -> Option<&'static str> {
    match power {
        "Germany" => Some("Germany"),
        "Soviet Union" => Some("Russia"),
        "Japan" => Some("Japan"),
        "United Kingdom" => Some("United Kingdom"),
        "Italy" => Some("Italy"),
        "United States" => Some("Eastern United States"),
        _ => None,
    }
}

fn play(id: &str, order: [&str; 7], start: [u32; 7]) {
    let dir = fresh_dir(id);
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut m = Match::create(&dir, &games, id, PLAYERS).unwrap();
    let mut messages = 0;
    for round in 1..=ROUNDS {
        for (i, power) in order.iter().enumerate() {
            let p = m.game().power(power).unwrap();
            let state = m.state();
            assert_eq!(state.round, round, "{id}: {power}");
            assert_eq!(state.current_power(m.game()), p, "{id}: round {round}");
            let treasury = state.ipcs[p];
            let (stage1, stage2) = match capital(power) {
                Some(c) => (
                    format!("power: {power}\nround: {round}\npurchase: 1 infantry\n"),
                    format!("power: {power}\nround: {round}\nplace:\n  {c}: 1 infantry\n"),
                ),
                // China receives 3 infantry (7 territories, FAQ) and places
                // them where fewer than 3 Chinese units stand.
                None => (
                    format!("power: {power}\nround: {round}\n"),
                    format!(
                        "power: {power}\nround: {round}\nplace:\n  {}: 3 infantry\n",
                        if round == 1 { "Hupeh" } else { "Fukien" }
                    ),
                ),
            };
            for text in [stage1, stage2] {
                match m.submit(power, &text).unwrap() {
                    Ok(_) => messages += 1,
                    Err(e) => {
                        let e: Vec<String> = e.iter().map(ToString::to_string).collect();
                        panic!("{id} round {round} {power}: {}", e.join("; "))
                    }
                }
            }
            let after = m.state().ipcs[p];
            let cost = if capital(power).is_some() { 3 } else { 0 };
            // Nothing changed hands, so the income is the starting income.
            assert_eq!(after, treasury - cost + start[i], "{id}: {power}");
        }
    }
    let state = m.state();
    assert_eq!((state.round, state.turn), (ROUNDS + 1, 0), "{id}");
    assert_eq!(messages, 2 * 7 * ROUNDS as usize);
    verify::verify_replays(&dir.join("log.jsonl"), messages, id);
}

#[test]
fn two_rounds_of_the_1941_scenario_in_its_turn_order() {
    play(
        "anniversary-1941",
        [
            "Germany",
            "Soviet Union",
            "Japan",
            "United Kingdom",
            "Italy",
            "United States",
            "China",
        ],
        [31, 30, 17, 43, 10, 40, 0],
    );
}

#[test]
fn two_rounds_of_the_1942_scenario_in_its_turn_order() {
    play(
        "anniversary-1942",
        [
            "Japan",
            "Soviet Union",
            "Germany",
            "United Kingdom",
            "Italy",
            "United States",
            "China",
        ],
        [31, 24, 37, 31, 10, 38, 0],
    );
}
