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
fn a_submarine_against_a_fighter_and_a_destroyer_is_exact() {
    // The sub's hits go on ships only: on the destroyer (1/2 at defence 3;
    // the fighter 2/3 at 4; the destroyer lets the fighter see the sub).
    // A round: sub hits (1/3) and is hit (5/6): destroyer lost, defender
    // wins 5/18; sub hits, nothing back 1/18: a sub against a fighter that
    // cannot see it, a stalemate; sub misses and is hit 10/18; all miss
    // 2/18. Folded over 16/18: defender wins 15/16 (destroyer lost in 5/16),
    // stalemate 1/16, after 18/16 rounds.
    let mut q = OddsQuery::new("1 submarine", "1 fighter, 1 destroyer");
    q.outcomes = true;
    let r = ask(&q);
    assert_odds(&r, 0.0, 1.0, 0.0);
    assert!((r.stalemate - 1.0 / 16.0).abs() < 1e-12, "{}", r.stalemate);
    assert!((r.expected_rounds - 18.0 / 16.0).abs() < 1e-12);
    let lost = r
        .outcomes
        .iter()
        .find(|o| o.result == "defender wins" && o.defender == "1 fighter")
        .unwrap();
    assert!((lost.probability - 5.0 / 16.0).abs() < 1e-12);
}

#[test]
fn submarines_and_aircraft_at_sea_are_exact_and_allow_when_odds_below() {
    // The battle of issue 15, item 14: a few hundred states.
    let mut q = OddsQuery::new(
        "3 submarines, 1 battleship",
        "2 destroyers, 1 carrier, 2 fighters",
    );
    let r = ask(&q);
    assert_eq!(r.method, Method::Exact);
    assert!(r.standard_error.is_none());
    assert!((r.attacker_wins + r.defender_wins + r.draw - 1.0).abs() < 1e-12);
    // The fighters never see the submarines: a stalemate is possible.
    assert!(r.stalemate > 0.0);
    // What happens to the fighters of a sunk carrier is left to the battle's
    // aftermath, and said so.
    assert!(
        r.notes.iter().any(|n| n.contains("whose carrier sinks")),
        "{:?}",
        r.notes
    );
    q.retreat = Some(RetreatRule::Rule {
        after_round: None,
        when_attackers_below: None,
        when_odds_below: Some(0.3),
    });
    let retreating = ask(&q);
    assert_eq!(retreating.method, Method::Exact);
    assert!(retreating.retreated > 0.0);
    // Retreating when the odds turn bad loses fewer units on average.
    assert!(retreating.attacker.expected_ipc_left > r.attacker.expected_ipc_left);
}

#[test]
fn anniversary_defending_submarines_strike_first() {
    // A cruiser (1/2) against a submarine (1/6) that strikes first while no
    // attacking destroyer is there: defender wins 1/6, else the cruiser
    // fires back: attacker wins 5/6 * 1/2 = 5/12; never both; stays 5/12.
    // Folded: 5/7, 2/7, 0.
    let g = anniversary();
    let r = answer(&g, &OddsQuery::new("1 cruiser", "1 submarine")).unwrap();
    assert_odds(&r, 5.0 / 7.0, 2.0 / 7.0, 0.0);
    // An attacking destroyer (1/3) cancels it: both sides fire together.
    // Some attacker hits 1 - 1/2 * 2/3 = 2/3: attacker wins, whatever the
    // sub does (its hit sinks the cheaper destroyer). Both miss 5/18,
    // stays. Only the sub hits, 1/18: the destroyer is lost and the cruiser
    // is alone against a sub striking first (5/7, 2/7 above). Folded over
    // 13/18: attacker 12/13 + 1/13 * 5/7 = 89/91, defender 2/91.
    let r = answer(&g, &OddsQuery::new("1 cruiser, 1 destroyer", "1 submarine")).unwrap();
    assert_odds(&r, 89.0 / 91.0, 2.0 / 91.0, 0.0);
}

#[test]
fn the_exact_odds_of_submarines_and_aircraft_agree_with_the_simulation() {
    // The exact calculator for restricted hits against the Monte Carlo
    // estimate (the adjudicator's allocation, round by round) of the same
    // battles: AAE, Anniversary (defending submarines striking first), Low
    // Luck, retreats; within 4 standard errors.
    let aae = game();
    let ann = anniversary();
    let rule = |after_round, when_attackers_below| RetreatRule::Rule {
        after_round,
        when_attackers_below,
        when_odds_below: None,
    };
    let cases: Vec<(&GameDef, &str, &str, bool, Option<RetreatRule>)> = vec![
        (
            &aae,
            "3 submarines, 1 battleship",
            "2 destroyers, 1 carrier, 2 fighters",
            false,
            None,
        ),
        (
            &aae,
            "2 submarines, 2 fighters",
            "1 carrier, 2 fighters, 1 submarine",
            false,
            None,
        ),
        (
            &aae,
            "1 destroyer, 2 fighters, 2 submarines",
            "2 submarines, 1 destroyer, 1 transport",
            false,
            Some(rule(Some(2), None)),
        ),
        (
            &aae,
            "2 submarines, 1 bomber, 1 fighter",
            "1 battleship, 2 submarines, 1 fighter",
            true,
            Some(rule(None, Some(3))),
        ),
        (
            &ann,
            "1 cruiser, 2 fighters",
            "2 submarines, 1 destroyer, 1 transport",
            false,
            None,
        ),
        (
            &ann,
            "2 submarines, 1 destroyer, 1 fighter",
            "3 submarines, 1 carrier, 1 fighter",
            false,
            None,
        ),
    ];
    for (g, a, d, ll, retreat) in cases {
        let mut q = OddsQuery::new(a, d);
        q.low_luck = Some(ll);
        q.retreat = retreat;
        let exact = answer(g, &q).unwrap();
        assert_eq!(exact.method, Method::Exact, "{a} vs {d}");
        assert!((exact.attacker_wins + exact.defender_wins + exact.draw - 1.0).abs() < 1e-12);
        q.monte_carlo = true;
        let mc = answer(g, &q).unwrap();
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
        let (x, y) = (exact.expected_rounds, mc.expected_rounds);
        assert!(
            (x - y).abs() < 0.05 * x,
            "{a} vs {d}: rounds {x}, simulated {y}"
        );
    }
}

#[test]
fn a_sea_battle_past_the_state_bound_gets_a_labelled_estimate() {
    let mut q = OddsQuery::new(
        "30 submarines, 15 fighters",
        "15 destroyers, 15 fighters, 15 submarines",
    );
    q.battles = Some(2_000);
    let r = ask(&q);
    assert_eq!(r.method, Method::MonteCarlo { battles: 2_000 });
    let se = r.standard_error.unwrap();
    assert!(se.iter().all(|s| *s > 0.0 && *s < 0.02));
    assert!(
        r.to_text()
            .contains("Monte Carlo estimate from 2000 battles")
    );
    assert!((r.attacker_wins + r.defender_wins + r.draw - 1.0).abs() < 1e-12);
    // when_odds_below needs exact odds: refused, saying why.
    q.retreat = Some(RetreatRule::Rule {
        after_round: None,
        when_attackers_below: None,
        when_odds_below: Some(0.3),
    });
    let e = answer(&game(), &q).unwrap_err().to_string();
    assert!(e.contains("100000 states"), "{e}");
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

fn anniversary() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/anniversary-1941")).unwrap()
}

fn with_developments(att: &str, def: &str, att_dev: &str, def_dev: &str) -> OddsQuery {
    let mut q = OddsQuery::new(att, def);
    q.battle = Some(BattleType::Land);
    q.low_luck = Some(false);
    if !att_dev.is_empty() {
        q.attacker_developments = Some(att_dev.into());
    }
    if !def_dev.is_empty() {
        q.defender_developments = Some(def_dev.into());
    }
    q
}

#[test]
fn heavy_bombers_roll_two_dice_and_keep_the_best() {
    let g = anniversary();
    // A bomber attacks at 4: 2/3 with one die, 1 - (1/3)^2 = 8/9 with two.
    // Against an infantry (2/6): attacker only 8/9*2/3 = 16/27, defender
    // only 1/9*1/3 = 1/27, both 8/9*1/3 = 8/27, stays 2/27; divided by
    // 25/27: 16/25, 1/25, 8/25, after 27/25 rounds on average.
    let r = answer(
        &g,
        &with_developments("bomber", "infantry", "heavy bombers", ""),
    )
    .unwrap();
    assert_odds(&r, 16.0 / 25.0, 1.0 / 25.0, 8.0 / 25.0);
    assert!((r.expected_rounds - 27.0 / 25.0).abs() < 1e-12);
    // Without: 2/3 against 1/3: 4/9, 1/9, 2/9, stays 2/9 -> 4/7, 1/7, 2/7.
    let plain = answer(&g, &with_developments("bomber", "infantry", "", "")).unwrap();
    assert_odds(&plain, 4.0 / 7.0, 1.0 / 7.0, 2.0 / 7.0);
    // The defender's Heavy Bombers do nothing for the attacker.
    let r = answer(
        &g,
        &with_developments("bomber", "infantry", "", "heavy bombers"),
    )
    .unwrap();
    assert_odds(&r, 4.0 / 7.0, 1.0 / 7.0, 2.0 / 7.0);
    assert!(
        r.notes.iter().any(|n| n.contains("no effect")),
        "{:?}",
        r.notes
    );
}

#[test]
fn heavy_bombers_with_artillery_support_in_play() {
    // With artillery among the attackers the firing groups are formed per
    // state (another code path than bombers alone). The attacker retreats
    // after round 1, so the defender keeps its armor exactly when every
    // attacking die of round 1 misses.
    let g = anniversary();
    let mut q = with_developments(
        "1 infantry, 1 artillery, 2 bombers",
        "1 armor",
        "heavy bombers",
        "",
    );
    q.retreat = Some(RetreatRule::Rule {
        after_round: Some(1),
        when_attackers_below: None,
        when_odds_below: None,
    });
    let r = answer(&g, &q).unwrap();
    // Supported infantry and artillery each miss 2/3 (hit at 2); the
    // defender's armor survives round 1 with (2/3)^2 * (1/9)^2 = 4/729 and
    // then the attacker retreats (a retreat counts as the defender holding).
    let survives = 4.0 / 729.0;
    assert_eq!(r.method, Method::Exact);
    assert!(
        (r.defender_wins - survives).abs() < 1e-12,
        "{}",
        r.to_text()
    );
}

#[test]
fn heavy_bombers_under_low_luck_count_once_as_the_adjudicator_does() {
    // Low Luck: a bomber's 4 is one die hitting on 4 or less, two dice or
    // not; the infantry's 2 the same as with dice. 4/7, 1/7, 2/7.
    let mut q = with_developments("bomber", "infantry", "heavy bombers", "");
    q.low_luck = Some(true);
    let r = answer(&anniversary(), &q).unwrap();
    assert_odds(&r, 4.0 / 7.0, 1.0 / 7.0, 2.0 / 7.0);
    assert!(
        r.notes.iter().any(|n| n.contains("Low Luck")),
        "{:?}",
        r.notes
    );
}

#[test]
fn jet_fighters_attack_at_four_and_radar_aa_guns_hit_at_two() {
    let g = anniversary();
    // A jet fighter at 4 (2/3) against an infantry (1/3): 4/7, 1/7, 2/7.
    let r = answer(
        &g,
        &with_developments("fighter", "infantry", "jet fighters", ""),
    )
    .unwrap();
    assert_odds(&r, 4.0 / 7.0, 1.0 / 7.0, 2.0 / 7.0);
    // At 3 (1/2): 1/3, 1/6, 1/6, stays 1/3 -> 1/2, 1/4, 1/4. The
    // defender's Jet Fighters change no defence.
    let r = answer(
        &g,
        &with_developments("fighter", "infantry", "", "jet fighters"),
    )
    .unwrap();
    assert_odds(&r, 0.5, 0.25, 0.25);
    // Radar: the AA gun shoots the fighter down with 2/6; the rest as at 3.
    // Attacker 2/3*1/2 = 1/3, defender 1/3 + 2/3*1/4 = 1/2, both 1/6.
    let r = answer(
        &g,
        &with_developments("fighter", "infantry, AA gun", "", "radar"),
    )
    .unwrap();
    assert_odds(&r, 1.0 / 3.0, 0.5, 1.0 / 6.0);
    // The attacker's Radar does not help the defender's gun (1/6).
    let r = answer(
        &g,
        &with_developments("fighter", "infantry, AA gun", "radar", ""),
    )
    .unwrap();
    assert_odds(&r, 5.0 / 12.0, 1.0 / 6.0 + 5.0 / 24.0, 5.0 / 24.0);
}

#[test]
fn developments_are_named_as_in_the_rules_and_only_where_research_is_played() {
    let e = answer(
        &anniversary(),
        &with_developments("bomber", "infantry", "heavy bomber, jets", ""),
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("attacker_developments: no development \"heavy bomber\""),
        "{e}"
    );
    assert!(e.contains("\"jets\""), "{e}");
    assert!(
        e.contains("jet fighters") && e.contains("heavy bombers"),
        "{e}"
    );
    // Spellings as Technology::from_name reads them.
    let ok = answer(
        &anniversary(),
        &with_developments("bomber", "infantry", "Heavy_Bombers", ""),
    )
    .unwrap();
    assert_odds(&ok, 16.0 / 25.0, 1.0 / 25.0, 8.0 / 25.0);
    // AAE has no research: no power can have a development.
    let mut q = OddsQuery::new("bomber", "infantry");
    q.defender_developments = Some("radar".into());
    let e = answer(&game(), &q).unwrap_err().to_string();
    assert!(
        e.contains("defender_developments:") && e.contains("has no research and development"),
        "{e}"
    );
}

#[test]
fn developments_read_from_yaml_as_a_mail_sends_them() {
    let q: OddsQuery = serde_saphyr::from_str(
        "attackers: bomber\ndefenders: infantry\nbattle: land\nlow_luck: false\n\
         attacker_developments: [jet fighters, heavy bombers]\n",
    )
    .unwrap();
    assert_odds(
        &answer(&anniversary(), &q).unwrap(),
        16.0 / 25.0,
        1.0 / 25.0,
        8.0 / 25.0,
    );
}
