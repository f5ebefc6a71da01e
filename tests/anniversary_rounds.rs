//! The Anniversary Edition on the same engine as AAE: seven powers, China
//! included, take their turns in each scenario's own order (the United
//! States and China interleaved, KQ-1) through
//! `Match::submit` (the path the mail daemon uses), and `adjutant verify`
//! replays the log. Each power with an industrial complex buys one infantry
//! a turn and places it in its capital; China buys nothing, collects no IPCs
//! and places the infantry its territories bring.

#[path = "common/verify.rs"]
mod verify;

use std::path::{Path, PathBuf};

use adjutant::daemon::text::report_template;
use adjutant::log::Body;
use adjutant::matches::Match;
use adjutant::matches::history::read_log;
use adjutant::report::turn::turn_report;

const ROUNDS: u32 = 2;

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("match")
}

/// One person plays the United States and China (digest §2).
const PLAYERS: &str = include_str!("fixtures/anniversary-players.yaml");

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

/// Germany's research when it researches: two tokens a turn on the air and
/// naval chart (no War Bonds there, so its income stays the same).
const GERMAN_RESEARCH: &str = "research: {buy: 2, chart: air and naval}\n";
const TOKENS_A_TURN: u32 = 2;

fn play(id: &str, order: [&str; 7], start: [u32; 7], research: bool) {
    let dir = fresh_dir(id);
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let game = id.trim_end_matches("-research");
    let mut m = Match::create(&dir, &games, game, PLAYERS).unwrap();
    let mut messages = 0;
    for round in 1..=ROUNDS {
        let mut i = 0;
        while i < order.len() {
            // The United States and China share a turn (KQ-1): both fight,
            // then both move and mobilize, the US first.
            let group: &[&str] = if order[i] == "United States" {
                &order[i..i + 2]
            } else {
                &order[i..=i]
            };
            let mut before = Vec::new();
            let mut stage2 = Vec::new();
            for power in group {
                let p = m.game().power(power).unwrap();
                let state = m.state();
                assert_eq!(state.round, round, "{id}: {power}");
                assert_eq!(state.current_power(m.game()), p, "{id}: round {round}");
                let researching = research && *power == "Germany";
                before.push((
                    p,
                    state.ipcs[p],
                    state.research_tokens[p],
                    state.technologies[p].len(),
                    researching,
                ));
                let extra = if researching { GERMAN_RESEARCH } else { "" };
                let (one, two) = match capital(power) {
                    Some(c) => (
                        format!("power: {power}\nround: {round}\n{extra}purchase: 1 infantry\n"),
                        format!("power: {power}\nround: {round}\nplace:\n  {c}: 1 infantry\n"),
                    ),
                    // China receives 3 infantry (7 territories, FAQ) and
                    // places them where fewer than 3 Chinese units stand.
                    None => (
                        format!("power: {power}\nround: {round}\n"),
                        format!(
                            "power: {power}\nround: {round}\nplace:\n  {}: 3 infantry\n",
                            if round == 1 { "Hupeh" } else { "Fukien" }
                        ),
                    ),
                };
                submit(&mut m, id, round, power, &one);
                messages += 1;
                stage2.push((power, two));
            }
            for (power, text) in stage2 {
                submit(&mut m, id, round, power, &text);
                messages += 1;
            }
            for (k, (p, treasury, tokens, developments, researching)) in
                before.into_iter().enumerate()
            {
                let power = group[k];
                let after = m.state().ipcs[p];
                let mut cost = if capital(power).is_some() { 3 } else { 0 };
                if researching {
                    cost += 5 * TOKENS_A_TURN;
                    // Either no 6 (tokens kept) or a breakthrough (all
                    // discarded, one development more), whatever the dice.
                    let state = m.state();
                    let kept = state.research_tokens[p] == tokens + TOKENS_A_TURN
                        && state.technologies[p].len() == developments;
                    let breakthrough = state.research_tokens[p] == 0
                        && state.technologies[p].len() == developments + 1;
                    assert!(
                        kept || breakthrough,
                        "{id} round {round}: {:?}",
                        state.research_tokens
                    );
                }
                // Nothing changed hands, so the income is the starting income.
                assert_eq!(after, treasury - cost + start[i + k], "{id}: {power}");
            }
            i += group.len();
        }
    }
    let state = m.state();
    assert_eq!((state.round, state.turn), (ROUNDS + 1, 0), "{id}");
    assert_eq!(messages, 2 * 7 * ROUNDS as usize);
    verify::verify_replays(&dir.join("log.jsonl"), messages, id);
    // Every message played one stage: the US stage 1 hands the shared turn
    // to China (a dice turn opens after it) but is not "stages 1 and 2".
    let entries = read_log(&dir).unwrap();
    let mut stage_ones = 0;
    for e in &entries {
        if let Body::Adjudication(a) = &e.body {
            let report = turn_report(&dir, e.seq).unwrap();
            assert_eq!(
                report.stages,
                format!("stage {}", a.stage),
                "{id}: entry {}",
                e.seq
            );
            stage_ones += usize::from(a.stage == 1 && a.power == "United States");
            // A stage-1 report asks its power for stage 2, but China moves
            // after the US stage 1 and the US after China's (the general
            // report names who is next).
            if a.stage == 1 {
                let handed_over = a.power == "United States" || a.power == "China";
                let template = if handed_over { "report" } else { "battle" };
                assert_eq!(report_template(&report), template, "{id}: entry {}", e.seq);
            }
        }
    }
    assert_eq!(stage_ones, ROUNDS as usize, "{id}");
}

fn submit(m: &mut Match, id: &str, round: u32, power: &str, text: &str) {
    if let Err(e) = m.submit(power, text).unwrap() {
        let e: Vec<String> = e.iter().map(ToString::to_string).collect();
        panic!("{id} round {round} {power}: {}", e.join("; "))
    }
}

/// The 1941 turn order and starting treasuries (digest §1).
const ORDER_1941: [&str; 7] = [
    "Germany",
    "Soviet Union",
    "Japan",
    "United Kingdom",
    "Italy",
    "United States",
    "China",
];
const IPCS_1941: [u32; 7] = [31, 30, 17, 43, 10, 40, 0];

#[test]
fn two_rounds_of_the_1941_scenario_in_its_turn_order() {
    play("anniversary-1941", ORDER_1941, IPCS_1941, false);
}

/// Research through `Match::submit`: the research dice are the turn's dice,
/// logged and replayed by `adjutant verify` like a battle's.
#[test]
fn germany_researches_every_turn_and_the_log_replays() {
    play("anniversary-1941-research", ORDER_1941, IPCS_1941, true);
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
        false,
    );
}
