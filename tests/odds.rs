//! The exact battle calculator against odds worked out by hand (each case's
//! arithmetic is in its comment), and its probabilities summing to 1.

use std::path::Path;

use adjutant::rules::odds::{BattleType, Method, OddsQuery, OddsReport, RetreatRule, answer};
use adjutant::rules::{GameDef, load_dir};

fn game() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap()
}

fn ask(q: &OddsQuery) -> OddsReport {
    answer(&game(), q).unwrap()
}

/// Asserts attacker wins, defender holds and both destroyed to 1e-12.
fn assert_odds(r: &OddsReport, att: f64, def: f64, both: f64) {
    assert_eq!(r.method, Method::Exact);
    for (name, got, want) in [
        ("attacker wins", r.attacker_wins, att),
        ("defender holds", r.defender_wins, def),
        ("both destroyed", r.draw, both),
    ] {
        assert!(
            (got - want).abs() < 1e-12,
            "{name}: {got} but by hand {want}\n{}",
            r.to_text()
        );
    }
}

#[test]
fn one_infantry_against_one_infantry() {
    // Each round: attacker hits 1/6, defender 2/6. Ends with attacker only
    // 4/36, defender only 10/36, both 2/36; stays 20/36. Folded: 1/4, 5/8,
    // 1/8, after 36/16 rounds on average.
    let r = ask(&OddsQuery::new("1 infantry", "1 infantry"));
    assert_odds(&r, 0.25, 0.625, 0.125);
    assert!((r.expected_rounds - 2.25).abs() < 1e-12);
    assert!((r.attacker.expected_ipc_left - 0.25 * 3.0).abs() < 1e-12);
}

#[test]
fn armor_against_infantry() {
    // 1/2 against 1/3: attacker only 1/3, defender only 1/6, both 1/6,
    // stays 1/3; divided by 2/3: 1/2, 1/4, 1/4.
    assert_odds(&ask(&OddsQuery::new("armor", "infantry")), 0.5, 0.25, 0.25);
}

#[test]
fn artillery_supports_infantry_and_infantry_is_lost_first() {
    // Supported infantry and artillery both hit at 2 (1/3 each); the
    // defender at 1/3. From the start: attacker only 5/9*2/3 = 10/27,
    // defender only 4/9*1/3 = 4/27, defender dead and infantry lost 5/27,
    // stays 8/27 -> divided by 19/27: 10/19, 4/19, 5/19. After losing the
    // infantry the artillery (still 2) against infantry: 2/5, 2/5, 1/5.
    // Attacker wins 15/19 + 4/19*2/5 = 83/95, defender 8/95, both 4/95.
    let r = ask(&OddsQuery::new("1 infantry, 1 artillery", "1 infantry"));
    assert_odds(&r, 83.0 / 95.0, 8.0 / 95.0, 4.0 / 95.0);
    // The artillery survives whenever the attacker wins.
    let art = r
        .attacker
        .expected_survivors
        .iter()
        .find(|s| s.unit == "artillery");
    assert!((art.unwrap().expected - 83.0 / 95.0).abs() < 1e-12);
}

#[test]
fn a_battleship_takes_two_hits() {
    // Battleship 2/3 against destroyer 1/2. From undamaged: win 1/3, damaged
    // and stays 1/6, damaged and wins 1/3, nothing 1/6 -> 2/5, 1/5, 2/5.
    // Damaged (still firing at 2/3): wins 2/5, sinks 1/5, both 2/5.
    // Attacker 22/25, defender 1/25, both 2/25.
    let mut q = OddsQuery::new("battleship", "destroyer");
    q.battle = Some(BattleType::Sea);
    assert_odds(&ask(&q), 22.0 / 25.0, 1.0 / 25.0, 2.0 / 25.0);
}

#[test]
fn submarine_first_strike_and_a_destroyer_that_cancels_it() {
    // Sub (1/3) against a transport (1/6): the transport fires only if it
    // survives: attacker 1/3, defender 2/3*1/6 = 1/9, never both; stays
    // 5/9 -> 3/4, 1/4, 0.
    assert_odds(
        &ask(&OddsQuery::new("submarine", "transport")),
        0.75,
        0.25,
        0.0,
    );
    // Against a destroyer (1/2) both fire: 1/6, 1/3, 1/6 over 2/3.
    assert_odds(
        &ask(&OddsQuery::new("submarine", "destroyer")),
        0.25,
        0.5,
        0.25,
    );
}

#[test]
fn aa_fire_before_the_battle() {
    // The AA gun hits the fighter with 1/6 and it never fires. Otherwise
    // fighter (1/2) against infantry (1/3): 1/2, 1/4, 1/4. Attacker 5/12,
    // defender 1/6 + 5/24 = 3/8, both 5/24.
    let r = ask(&OddsQuery::new("fighter", "infantry, AA gun"));
    assert_odds(&r, 5.0 / 12.0, 3.0 / 8.0, 5.0 / 24.0);
}

#[test]
fn bombardment_in_the_first_round_only() {
    // Round 1: infantry 1/6 and battleship shot 2/3 against infantry 1/3.
    // Some attacking hit: 1 - 5/6*1/3 = 13/18. Attacker only 13/27,
    // defender only 5/54, both 13/54, nothing 5/27 -> then 1 against 1
    // (1/4, 5/8, 1/8). Attacker 19/36, defender 5/24, both 19/72.
    let mut q = OddsQuery::new("infantry, battleship", "infantry");
    q.amphibious = true;
    let r = ask(&q);
    assert_odds(&r, 19.0 / 36.0, 5.0 / 24.0, 19.0 / 72.0);
    assert_eq!(r.battle, "amphibious assault");
}

#[test]
fn retreat_after_the_first_round() {
    // One round of infantry against infantry: 4/36, 10/36, 2/36; the 20/36
    // still fighting retreat.
    let mut q = OddsQuery::new("infantry", "infantry");
    q.retreat = Some(RetreatRule::Rule {
        after_round: Some(1),
        when_attackers_below: None,
        when_odds_below: None,
    });
    let r = ask(&q);
    assert_odds(&r, 4.0 / 36.0, 30.0 / 36.0, 2.0 / 36.0);
    assert!((r.retreated - 20.0 / 36.0).abs() < 1e-12);
    assert!((r.expected_rounds - 1.0).abs() < 1e-12);
}

#[test]
fn retreat_when_attackers_below_and_when_odds_below() {
    // Two infantry against one: after a round that leaves one attacker
    // (below 2) the attacker retreats. Round: attacker hits 11/36, the
    // defender 1/3. Attacker wins 11/36 (kills it whatever it lost), one
    // attacker lost and defender alive 25/36*1/3 -> retreat; nothing 25/54.
    // Attacker wins 11/36 / (1 - 25/54) = (11/36)*(54/29) = 33/58.
    let mut q = OddsQuery::new("2 infantry", "1 infantry");
    q.retreat = Some(RetreatRule::Rule {
        after_round: None,
        when_attackers_below: Some(2),
        when_odds_below: None,
    });
    let r = ask(&q);
    assert!(
        (r.attacker_wins - 33.0 / 58.0).abs() < 1e-12,
        "{}",
        r.to_text()
    );
    assert_eq!(r.draw, 0.0);
    // One infantry left against one has 1/4 to win: when_odds_below 0.3
    // retreats in exactly those states, and so gives the same answer.
    q.retreat = Some(RetreatRule::Rule {
        after_round: None,
        when_attackers_below: None,
        when_odds_below: Some(0.3),
    });
    let r2 = ask(&q);
    assert!((r2.attacker_wins - 33.0 / 58.0).abs() < 1e-12);
    assert!((r2.retreated - r.retreated).abs() < 1e-12);
}

#[test]
fn low_luck_is_exact_arithmetic() {
    // Two armor: 6 points, one sure hit; the infantry hits back on a 2.
    let mut q = OddsQuery::new("2 armor", "1 infantry");
    q.low_luck = Some(true);
    let r = ask(&q);
    assert_odds(&r, 1.0, 0.0, 0.0);
    assert!((r.attacker.expected_ipc_left - 5.0 * 5.0 / 3.0).abs() < 1e-12);
    assert!((r.expected_rounds - 1.0).abs() < 1e-12);
}

#[test]
fn probabilities_sum_to_one() {
    let cases = [
        ("10 infantry, 3 armor", "8 infantry", false),
        (
            "20 infantry, 10 artillery, 10 armor, 3 fighters, 2 bombers",
            "40 infantry, 4 fighters",
            false,
        ),
        (
            "3 battleships, 4 destroyers, 2 carriers, 4 fighters",
            "2 battleships, 6 destroyers, 3 transports",
            false,
        ),
        ("100 infantry, 50 armor", "120 infantry, 30 armor", true),
        (
            "4 submarines, 1 destroyer",
            "3 destroyers, 2 transports",
            false,
        ),
    ];
    for (a, d, ll) in cases {
        let mut q = OddsQuery::new(a, d);
        q.low_luck = Some(ll);
        q.outcomes = true;
        let r = ask(&q);
        assert_eq!(r.method, Method::Exact, "{a} vs {d}");
        let total = r.attacker_wins + r.defender_wins + r.draw;
        let listed: f64 = r.outcomes.iter().map(|o| o.probability).sum();
        assert!((total - 1.0).abs() < 1e-12, "{a} vs {d}: {total}");
        assert!((listed - 1.0).abs() < 1e-12, "{a} vs {d}: {listed}");
    }
}

#[test]
fn submarines_against_aircraft_get_a_labelled_estimate() {
    let q = OddsQuery::new(
        "2 submarines, 2 fighters",
        "1 carrier, 2 fighters, 1 submarine",
    );
    let r = ask(&q);
    assert_eq!(r.method, Method::MonteCarlo { battles: 20_000 });
    let se = r.standard_error.unwrap();
    assert!(se.iter().all(|s| *s > 0.0 && *s < 0.004));
    assert!(
        r.to_text()
            .contains("Monte Carlo estimate from 20000 battles")
    );
    assert!((r.attacker_wins + r.defender_wins + r.draw - 1.0).abs() < 1e-12);
}

#[test]
fn bad_questions_are_answered_with_what_is_wrong() {
    let g = game();
    let e = answer(&g, &OddsQuery::new("10 infantri", "8 infantry")).unwrap_err();
    assert!(e.to_string().contains("Did you mean infantry?"), "{e}");
    let e = answer(
        &g,
        &OddsQuery::new("2 infantry, 1 battleship", "8 infantry"),
    )
    .unwrap_err();
    assert!(e.to_string().contains("amphibious"), "{e}");
    let mut q = OddsQuery::new("infantry", "infantry");
    q.retreat = Some(RetreatRule::Word("sometimes".into()));
    assert!(
        answer(&g, &q)
            .unwrap_err()
            .to_string()
            .contains("not a retreat")
    );
}

#[test]
fn the_text_answer_fits_in_72_columns() {
    let mut q = OddsQuery::new(
        "20 infantry, 10 artillery, 10 armor, 3 fighters, 2 bombers",
        "40 infantry, 4 fighters, 1 AA gun",
    );
    q.outcomes = true;
    let text = ask(&q).to_text();
    for line in text.lines() {
        assert!(line.chars().count() <= 72, "too wide: {line}");
    }
    assert!(text.contains("Attacker wins"));
}

#[test]
fn the_fallback_simulation_agrees_with_the_exact_odds() {
    // The Monte Carlo fallback, forced on battles the exact calculator
    // covers, against the exact figures (within 4 standard errors).
    for (a, d, ll) in [
        (
            "3 infantry, 1 artillery, 2 armor, 1 fighter",
            "4 infantry, 1 AA gun",
            false,
        ),
        (
            "2 submarines, 1 battleship",
            "2 destroyers, 1 transport",
            false,
        ),
        ("6 infantry, 2 armor", "5 infantry", true),
    ] {
        let mut q = OddsQuery::new(a, d);
        q.low_luck = Some(ll);
        let exact = ask(&q);
        q.monte_carlo = true;
        let mc = ask(&q);
        assert_eq!(mc.method, Method::MonteCarlo { battles: 20_000 });
        let se = mc.standard_error.unwrap();
        for (i, (x, y)) in [
            (exact.attacker_wins, mc.attacker_wins),
            (exact.defender_wins, mc.defender_wins),
            (exact.draw, mc.draw),
        ]
        .into_iter()
        .enumerate()
        {
            let tolerance = 4.0 * se[i].max((x * (1.0 - x) / 20_000.0).sqrt());
            assert!(
                (x - y).abs() <= tolerance.max(1e-12),
                "{a} vs {d}: figure {i}: exact {x}, simulated {y} ± {}",
                se[i]
            );
        }
    }
}

#[test]
fn a_question_read_from_yaml_as_a_mail_sends_it() {
    let q: OddsQuery = serde_saphyr::from_str(
        "attackers: [1 infantry]\ndefenders: 1 infantry\nretreat: {after_round: 1}\noutcomes: true\n",
    )
    .unwrap();
    let r = ask(&q);
    assert!((r.retreated - 20.0 / 36.0).abs() < 1e-12);
    assert_eq!(r.outcomes.len(), 4);
    let never: OddsQuery =
        serde_saphyr::from_str("attackers: infantry\ndefenders: infantry\nretreat: never\n")
            .unwrap();
    assert_odds(&ask(&never), 0.25, 0.625, 0.125);
    // A misspelt key is an error, not a silently different question.
    assert!(
        serde_saphyr::from_str::<OddsQuery>(
            "attackers: infantry\ndefenders: infantry\nretreet: never\n"
        )
        .is_err()
    );
}
