//! Battle odds with Advanced AAE's values (issue 19 item 5): the national
//! abilities that change what a unit hits at, worked out by hand.

use std::path::Path;

use adjutant::rules::odds::{OddsError, OddsQuery, OddsReport, RetreatRule, UnitsText, answer};
use adjutant::rules::{GameDef, load_dir};

fn game() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/advanced-aae")).unwrap()
}

fn query(att: &str, att_power: &str, def: &str, def_power: &str) -> OddsQuery {
    let mut q = OddsQuery::new(att, def);
    q.attacker_power = Some(att_power.into());
    q.defender_power = Some(def_power.into());
    q.low_luck = Some(false);
    q
}

fn assert_odds(r: &OddsReport, att: f64, def: f64, both: f64) {
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
fn german_armor_defends_at_3_and_italian_armor_at_2() {
    let g = game();
    // Infantry 1/6 against armor 1/2: attacker only 1/12, defender only
    // 5/12, both 1/12, stays 5/12; divided by 7/12: 1/7, 5/7, 1/7.
    let r = answer(&g, &query("infantry", "Russia", "armor", "Germany")).unwrap();
    assert_odds(&r, 1.0 / 7.0, 5.0 / 7.0, 1.0 / 7.0);
    // Italy's armor defends at 2, as infantry does: 1/4, 5/8, 1/8.
    let r = answer(&g, &query("infantry", "Russia", "armor", "Italy")).unwrap();
    assert_odds(&r, 0.25, 0.625, 0.125);
}

#[test]
fn russian_artillery_supports_two_infantry() {
    let g = game();
    let one_round = |power: &str| {
        let mut q = query("2 infantry, 1 artillery", power, "infantry", "Germany");
        q.retreat = Some(RetreatRule::Rule {
            after_round: Some(1),
            when_attackers_below: None,
            when_odds_below: None,
        });
        answer(&g, &q).unwrap()
    };
    // One round, then retreat; the attacker cannot lose all three. Russia:
    // three dice at 2, none hitting (2/3)^3 = 8/27. Britain: two at 2 and
    // one at 1, (2/3)^2 * 5/6 = 10/27.
    assert_odds(&one_round("Russia"), 19.0 / 27.0, 8.0 / 27.0, 0.0);
    assert_odds(&one_round("Britain"), 17.0 / 27.0, 10.0 / 27.0, 0.0);
}

#[test]
fn british_fighters_defend_at_6_only_at_home() {
    let g = game();
    let at = |territory: &str, defender: &str| {
        let mut q = query("bomber", "Germany", "fighter", defender);
        q.territory = Some(territory.into());
        answer(&g, &q).unwrap()
    };
    // In London the RAF always hits: the bomber (4) takes it down with it
    // 2/3 of the time.
    assert_odds(&at("London", "Britain"), 0.0, 1.0 / 3.0, 2.0 / 3.0);
    assert_odds(&at("Scotland", "Britain"), 0.0, 1.0 / 3.0, 2.0 / 3.0);
    // In Canada, or a US fighter in London: 4 against 4, 1/4, 1/4, 1/2.
    assert_odds(&at("Canada", "Britain"), 0.25, 0.25, 0.5);
    assert_odds(&at("London", "USA"), 0.25, 0.25, 0.5);
}

#[test]
fn landed_units_hold_fire_in_round_1_and_us_marines_attack_at_2() {
    let g = game();
    let ask = |att: &str, power: &str, monte_carlo: bool| {
        let mut q = query(att, power, "infantry", "Germany");
        q.amphibious = true;
        q.monte_carlo = monte_carlo;
        q.battles = Some(40_000);
        answer(&g, &q).unwrap()
    };
    // Round 1: the landed infantry holds its fire (AAAE-41), the defender
    // hits 1/3 and wins outright. Then (2/3) a US marine at 2 against 2:
    // attacker only 2/9, defender only 2/9, both 1/9, divided by 5/9:
    // 2/5, 2/5, 1/5. So 4/15, 1/3 + 4/15 = 3/5, 2/15.
    let r = ask("infantry", "USA", false);
    assert_odds(&r, 4.0 / 15.0, 3.0 / 5.0, 2.0 / 15.0);
    assert!(r.to_text().contains("AAAE-41"), "{}", r.to_text());
    // The simulation plays the same silent round.
    let mc = ask("infantry", "USA", true);
    assert!(
        (mc.attacker_wins - 4.0 / 15.0).abs() < 0.015,
        "{}",
        mc.to_text()
    );
    // A British infantry is no marine: from round 2 at 1 against 2, 1/4,
    // 5/8, 1/8 (as below), so 1/6, 1/3 + 5/12 = 3/4, 1/12.
    assert_odds(
        &ask("infantry", "Britain", false),
        1.0 / 6.0,
        0.75,
        1.0 / 12.0,
    );
    // The battleship bombards in round 1 all the same (4: 2/3), while the
    // defender fires (1/3): both 2/9, attacker 4/9, defender 1/9, and 2/9
    // go on as the first case: 8/15, 1/5, 4/15.
    assert_odds(
        &ask("infantry, battleship", "USA", false),
        8.0 / 15.0,
        1.0 / 5.0,
        4.0 / 15.0,
    );
    // Landed units never retreat (AAAE-42); with aircraft among the
    // attackers, who would leave alone, the question is refused.
    let mut q = query("infantry", "USA", "infantry", "Germany");
    q.amphibious = true;
    q.retreat = Some(RetreatRule::Rule {
        after_round: Some(1),
        when_attackers_below: None,
        when_odds_below: None,
    });
    let r = answer(&g, &q).unwrap();
    assert_odds(&r, 4.0 / 15.0, 3.0 / 5.0, 2.0 / 15.0);
    assert!(r.to_text().contains("AAAE-42"), "{}", r.to_text());
    q.attackers = "infantry, fighter".into();
    match answer(&g, &q) {
        Err(OddsError::Unsupported(why)) => assert!(why.contains("aircraft"), "{why}"),
        other => panic!("{:?}", other.map(|r| r.to_text())),
    }
    let mut q = query("infantry", "Russia", "infantry", "Germany");
    q.attacker_power = Some("Atlantis".into());
    let err = answer(&g, &q).unwrap_err().to_string();
    assert!(
        err.contains("attacker_power: no power is called Atlantis"),
        "{err}"
    );
}

#[test]
fn fortifications_raise_infantry_and_are_lost_as_the_order_of_loss_says() {
    let g = game();
    let ask = |def: &str, losses: Option<&str>, monte_carlo: bool| {
        let mut q = query("armor", "Russia", def, "Germany");
        q.defender_losses = losses.map(UnitsText::from);
        q.monte_carlo = monte_carlo;
        q.battles = Some(40_000);
        answer(&g, &q).unwrap()
    };
    // Armor (3) against infantry (2): attacker only 1/3, defender only
    // 1/6, both 1/6, none 1/3; divided by 2/3: 1/2, 1/4, 1/4.
    assert_odds(&ask("infantry", None, false), 0.5, 0.25, 0.25);
    // With a fortification lost last, the infantry defends at 3 until it
    // dies, and the fortification left alone loses the battle (AAAE-29):
    // 1/4 each way, 1/4 both, 1/4 again: 1/3, 1/3, 1/3.
    let last = ask("infantry, fortification", Some("infantry"), false);
    assert_odds(&last, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0);
    // Lost first (cheapest first, the default): from the start, the
    // defender hits (1/2) and wins, else (1/4) the armor's hit takes the
    // fortification, the rest (1/4) again; divided by 3/4: 2/3, and 1/3 to
    // the battle above: 1/6, 2/3 + 1/12 = 3/4, 1/12.
    let first = ask("infantry, fortification", None, false);
    assert_odds(&first, 1.0 / 6.0, 0.75, 1.0 / 12.0);
    // The simulation fights them the same way.
    let mc = ask("infantry, fortification", None, true);
    assert!(
        (mc.attacker_wins - 1.0 / 6.0).abs() < 0.015,
        "{}",
        mc.to_text()
    );
    let mc = ask("infantry, fortification", Some("infantry"), true);
    assert!(
        (mc.attacker_wins - 1.0 / 3.0).abs() < 0.015,
        "{}",
        mc.to_text()
    );
    // Fortifications alone do not defend.
    let mut q = query("armor", "Russia", "2 fortification", "Germany");
    q.low_luck = Some(false);
    let err = answer(&g, &q).unwrap_err().to_string();
    assert!(err.contains("defenders: no unit that fights"), "{err}");
}

#[test]
fn an_attacking_submarine_rolls_two_dice_for_one_round_and_then_submerges() {
    let g = game();
    // AAAE-46: two dice at 2: at least one hit 5/9. The destroyer (at 3,
    // 1/2) may hit it (AAAE-47). Both hit 5/18; the destroyer alone sunk
    // 5/18; the submarine alone 2/9; neither 2/9, and the submarine then
    // submerges: the defender holds.
    let r = answer(&g, &query("submarine", "Germany", "destroyer", "Britain")).unwrap();
    assert_odds(&r, 5.0 / 18.0, 4.0 / 9.0, 5.0 / 18.0);
    assert!((r.retreated - 2.0 / 9.0).abs() < 1e-12, "{}", r.to_text());
    assert!((r.expected_rounds - 1.0).abs() < 1e-12, "{}", r.to_text());
}

#[test]
fn only_destroyers_and_fighters_may_hit_attacking_submarines_in_the_odds() {
    let g = game();
    // AAAE-47: the carrier may not hit the submarine, so it does not roll;
    // the submarine sinks it with 5/9 and else submerges. A hit that may
    // not land everywhere, with the submarines' withdrawal, is a Monte
    // Carlo estimate: within four standard errors.
    let r = answer(&g, &query("submarine", "Germany", "carrier", "Britain")).unwrap();
    let se = r.standard_error.expect("a Monte Carlo estimate");
    for (got, want, e) in [
        (r.attacker_wins, 5.0 / 9.0, se[0]),
        (r.defender_wins, 4.0 / 9.0, se[1]),
    ] {
        assert!(
            (got - want).abs() <= 4.0 * e + 1e-9,
            "{got} {want}\n{}",
            r.to_text()
        );
    }
    assert_eq!(r.draw, 0.0, "{}", r.to_text());
    // Two against a defending submarine, which may hit them: four dice,
    // at least one hit 65/81; the attackers always keep one.
    let r = answer(&g, &query("2 submarine", "Germany", "submarine", "Britain")).unwrap();
    assert_odds(&r, 65.0 / 81.0, 16.0 / 81.0, 0.0);
}

#[test]
fn retreating_by_the_odds_is_not_covered_with_one_round_submarines() {
    let mut q = query("submarine, destroyer", "Germany", "destroyer", "Britain");
    q.retreat = Some(RetreatRule::Rule {
        after_round: None,
        when_attackers_below: None,
        when_odds_below: Some(0.5),
    });
    let err = match answer(&game(), &q) {
        Err(OddsError::Invalid(e)) => e.join("; "),
        other => panic!("{:?}", other.map(|r| r.to_text())),
    };
    assert!(err.contains("AAAE-46"), "{err}");
}

#[test]
fn fighters_attack_ships_at_2_and_land_at_3_as_land_based() {
    let g = game();
    // At sea: a fighter at 2 (1/3) against a destroyer at 3 (1/2): attacker
    // only 1/6, defender only 1/3, both 1/6, stays 1/3; divided by 2/3:
    // 1/4, 1/2, 1/4.
    let r = answer(&g, &query("fighter", "USA", "destroyer", "Germany")).unwrap();
    assert_odds(&r, 0.25, 0.5, 0.25);
    // On land at 3 against an infantry at 2: 1/3, 1/6, 1/6, 1/3 -> 1/2,
    // 1/4, 1/4.
    let r = answer(&g, &query("fighter", "USA", "infantry", "Germany")).unwrap();
    assert_odds(&r, 0.5, 0.25, 0.25);
}

#[test]
fn russians_surprised_in_round_1_hold_their_fire_in_the_first_round() {
    let g = game();
    let ask = |territory: &str, round: Option<u32>, monte_carlo: bool| {
        let mut q = query("infantry", "Germany", "infantry", "Russia");
        q.territory = Some(territory.into());
        q.round = round;
        q.monte_carlo = monte_carlo;
        q.battles = Some(40_000);
        answer(&g, &q).unwrap()
    };
    // Infantry 1/6 against infantry 1/3, every round alike: attacker only
    // 4/36, defender only 10/36, both 2/36: 1/4, 5/8, 1/8.
    for (territory, round) in [
        ("East Poland", None),
        ("East Poland", Some(2)),
        ("Belorussia", Some(1)),
    ] {
        assert_odds(&ask(territory, round, false), 0.25, 0.625, 0.125);
    }
    // Round 1 in a light-red area: the Russian infantry does not fire in
    // round 1, so the German hit (1/6) wins outright; otherwise (5/6) the
    // battle goes on as above: 1/6 + 5/24 = 3/8, 25/48, 5/48.
    let r = ask("East Poland", Some(1), false);
    assert_odds(&r, 3.0 / 8.0, 25.0 / 48.0, 5.0 / 48.0);
    assert!(r.to_text().contains("AAAE-11"), "{}", r.to_text());
    // The simulation plays the same silent round.
    let r = ask("East Poland", Some(1), true);
    assert!((r.attacker_wins - 0.375).abs() < 0.015, "{}", r.to_text());
    // Italy's attack surprises nobody.
    let mut q = query("infantry", "Italy", "infantry", "Russia");
    q.territory = Some("East Poland".into());
    q.round = Some(1);
    assert_odds(&answer(&g, &q).unwrap(), 0.25, 0.625, 0.125);
}
