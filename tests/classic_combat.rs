//! Classic as DAAK plays it: the odds of battles with Classic's values
//! (one-hit battleships, submarines' first strike, DAAK's standard order of
//! loss) worked out by hand, and the submarine withdrawal order's canonical
//! form. The rulings themselves are scenarios (`tests/scenarios/classic/`).

use std::path::Path;
use std::sync::OnceLock;

use adjutant::rules::odds::{BattleType, Method, OddsQuery, SubmarineWithdrawal, answer};
use adjutant::rules::orders::SubmarinePolicy;
use adjutant::rules::orders::canonical::render;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::{GameDef, load_dir};

fn classic() -> &'static GameDef {
    static GAME: OnceLock<GameDef> = OnceLock::new();
    GAME.get_or_init(|| {
        load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/classic"))
            .unwrap_or_else(|e| panic!("{e}"))
    })
}

#[test]
fn a_submarine_against_a_battleship_strikes_first_and_one_hit_sinks_the_battleship() {
    // Each round the sub hits 2/6 first and the battleship, if afloat,
    // sinks it at 4/6: the sub wins 1/3 a round, loses 2/3 * 2/3 = 4/9,
    // and the round repeats 2/9; 1/3 / (7/9) = 3/7.
    let mut q = OddsQuery::new("1 submarine", "1 battleship");
    q.battle = Some(BattleType::Sea);
    let r = answer(classic(), &q).unwrap();
    assert_eq!(r.method, Method::Exact);
    assert!(
        (r.attacker_wins - 3.0 / 7.0).abs() < 1e-12,
        "{}",
        r.to_text()
    );
    assert!(
        (r.defender_wins - 4.0 / 7.0).abs() < 1e-12,
        "{}",
        r.to_text()
    );
}

fn close(got: f64, want: f64, what: &str, text: &str) {
    assert!(
        (got - want).abs() < 1e-12,
        "{what}: {got} not {want}\n{text}"
    );
}

fn after(n: u32) -> Option<SubmarineWithdrawal> {
    Some(SubmarineWithdrawal {
        withdraw_after_round: n,
    })
}

#[test]
fn an_attacking_submarine_that_withdraws_after_round_1_leaves_the_zone_to_the_defender() {
    // Round 1: the sub's first strike sinks the transport 1/3; else the
    // transport sinks the sub 1/6 (2/3 * 1/6 = 1/9); else (5/9) the sub
    // withdraws and the defender holds. Fighting on, the sub would win
    // (1/3) / (1 - 5/9) = 3/4.
    let mut q = OddsQuery::new("1 submarine", "1 transport");
    let r = answer(classic(), &q).unwrap();
    close(r.attacker_wins, 0.75, "fighting on", &r.to_text());
    q.submarines = after(1);
    let r = answer(classic(), &q).unwrap();
    let text = r.to_text();
    assert_eq!(r.method, Method::Exact, "{text}");
    close(r.attacker_wins, 1.0 / 3.0, "attacker wins", &text);
    close(r.retreated, 5.0 / 9.0, "withdrew", &text);
    close(
        r.defender_wins,
        1.0 / 9.0 + 5.0 / 9.0,
        "defender holds",
        &text,
    );
    assert!(text.contains("withdraw after round 1"), "{text}");
    // The withdrawn sub is a survivor: the attacker keeps one 8/9 of the time.
    let subs: f64 = r
        .attacker
        .expected_survivors
        .iter()
        .map(|s| s.expected)
        .sum();
    close(subs, 8.0 / 9.0, "survivors", &text);
}

#[test]
fn defending_submarines_that_withdraw_leave_the_zone_to_the_attacker() {
    // A battleship (4) against a submarine (2), both firing together: the
    // battleship alone sinks it 2/3 * 2/3 = 4/9, both sink 2/9, the sub
    // alone 1/9; neither 2/9, and then the sub withdraws (standing orders)
    // and the attacker holds the zone: 4/9 + 2/9 = 2/3.
    let mut q = OddsQuery::new("1 battleship", "1 submarine");
    q.defender_submarines = after(1);
    let r = answer(classic(), &q).unwrap();
    let text = r.to_text();
    assert_eq!(r.method, Method::Exact, "{text}");
    close(r.attacker_wins, 2.0 / 3.0, "attacker holds", &text);
    close(r.draw, 2.0 / 9.0, "both destroyed", &text);
    close(r.defender_wins, 1.0 / 9.0, "defender wins", &text);
}

#[test]
fn the_units_that_stay_fight_on_after_the_submarines_withdraw() {
    // A submarine and a battleship against a transport; DAAK's order of
    // loss takes the sub first. Round 1: the sub's first strike wins 1/3;
    // else the battleship (4) wins 2/3. Else (2/3 * 1/3 = 2/9) the
    // battleship fights the transport alone from round 2, whether the
    // transport sank the sub (1/6) or the sub withdrew (5/6): each round
    // it wins 2/3 * 5/6 = 5/9, both sink 2/3 * 1/6 = 1/9, it sinks 1/3 *
    // 1/6 = 1/18, nothing 5/18; out of 13/18: 10/13, 2/13, 1/13.
    // Attacker: 1/3 + 4/9 + 2/9 * 10/13 = 37/39.
    let mut q = OddsQuery::new("1 submarine, 1 battleship", "1 transport");
    q.submarines = after(1);
    let r = answer(classic(), &q).unwrap();
    let text = r.to_text();
    assert_eq!(r.method, Method::Exact, "{text}");
    close(r.attacker_wins, 37.0 / 39.0, "attacker wins", &text);
    close(r.draw, 2.0 / 9.0 * 2.0 / 13.0, "both destroyed", &text);
    close(
        r.defender_wins,
        2.0 / 9.0 * 1.0 / 13.0,
        "defender wins",
        &text,
    );
    // The simulation plays the same withdrawal.
    q.monte_carlo = true;
    q.battles = Some(200_000);
    let mc = answer(classic(), &q).unwrap();
    assert!(
        matches!(mc.method, Method::MonteCarlo { .. }),
        "{}",
        mc.to_text()
    );
    let se = mc.standard_error.unwrap()[0];
    assert!(
        (mc.attacker_wins - 37.0 / 39.0).abs() < 4.0 * se,
        "{}",
        mc.to_text()
    );
    q.monte_carlo = false;
    // Without the withdrawal the sub strikes first in every round: better.
    q.submarines = None;
    let fight = answer(classic(), &q).unwrap();
    assert!(fight.attacker_wins > r.attacker_wins, "{}", fight.to_text());
}

#[test]
fn a_withdrawal_is_asked_only_where_submarines_withdraw_at_sea() {
    let mut q = OddsQuery::new("1 submarine", "1 transport");
    q.submarines = after(1);
    let aae = adjutant::rules::builtin::GameSource::Builtin
        .load("aae")
        .unwrap()
        .def;
    let e = answer(&aae, &q).unwrap_err().to_string();
    assert!(
        e.contains("submarines do not withdraw from battles in aae"),
        "{e}"
    );
    let mut land = OddsQuery::new("1 armor", "1 infantry");
    land.defender_submarines = after(1);
    let e = answer(classic(), &land).unwrap_err().to_string();
    assert!(e.contains("sea battles only"), "{e}");
}

#[test]
fn without_an_order_of_loss_the_bomber_goes_before_the_fighter() {
    // DAAK's standard order on land: infantry, armor, bomber, fighter. One
    // defending infantry kills at most one attacker a round, so the fighter,
    // cheaper than the bomber, outlives it whenever one of them dies.
    let q = OddsQuery::new("1 fighter, 1 bomber", "2 infantry");
    let r = answer(classic(), &q).unwrap();
    let left = |unit: &str| {
        r.attacker
            .expected_survivors
            .iter()
            .find(|s| s.unit == unit)
            .map_or(0.0, |s| s.expected)
    };
    assert!(
        left("fighter") > left("bomber") + 0.05,
        "fighter {} bomber {}\n{}",
        left("fighter"),
        left("bomber"),
        r.to_text()
    );
}

#[test]
fn a_submarine_withdrawal_reads_back_from_its_canonical_form() {
    let text = "battles:\n  North Sea: {submarines: {withdraw_after_round: 2, to: Baltic Sea}}\n  \
                default: {submarines: {withdraw_after_round: 1}}\nstanding:\n  submarines: \
                {withdraw_after_round: 1, to: NOR}\n";
    let m = parse_message(classic(), text).unwrap_or_else(|e| panic!("{e:#?}"));
    let baltic = classic().space("Baltic Sea");
    assert_eq!(
        m.orders.battles[0].item.submarines,
        Some(SubmarinePolicy::WithdrawAfterRound {
            after_round: 2,
            to: baltic
        })
    );
    assert_eq!(
        m.orders.battles[1].item.submarines,
        Some(SubmarinePolicy::WithdrawAfterRound {
            after_round: 1,
            to: None
        })
    );
    let orders = m.orders.without_origins();
    let canonical = render(classic(), &orders, None);
    let again =
        parse_message(classic(), &canonical).unwrap_or_else(|e| panic!("{canonical}\n{e:#?}"));
    assert_eq!(again.orders.without_origins(), orders, "{canonical}");
    assert_eq!(again.canonical, canonical);
    assert!(
        canonical.contains("withdraw_after_round: 2\n      to: Baltic Sea"),
        "{canonical}"
    );
}

#[test]
fn a_submarine_withdrawal_must_be_written_in_full() {
    for (text, wanted) in [
        (
            "standing:\n  submarines: {to: NOR}\n",
            "withdraw_after_round: N, to: SEA ZONE",
        ),
        (
            "standing:\n  submarines: {withdraw_after_round: 0}\n",
            "a whole number from 1",
        ),
        (
            "standing:\n  submarines: {withdraw_after_round: 1, too: NOR}\n",
            "withdraw_after_round",
        ),
    ] {
        let errors = parse_message(classic(), text).expect_err(text);
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(
            shown.iter().any(|e| e.contains(wanted)),
            "{text}: {shown:?}"
        );
    }
}

#[test]
fn only_classic_submarines_withdraw() {
    use adjutant::rules::orders::StandingOrders;
    let aae = adjutant::rules::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae"))
        .unwrap();
    let standing = StandingOrders {
        submarines: SubmarinePolicy::WithdrawAfterRound {
            after_round: 1,
            to: None,
        },
        ..StandingOrders::default()
    };
    let refused = aae.rule_set().standing_orders_problem(&aae, &standing);
    assert!(
        refused
            .as_deref()
            .is_some_and(|r| r.contains("submarines do not withdraw")),
        "{refused:?}"
    );
    assert_eq!(
        classic()
            .rule_set()
            .standing_orders_problem(classic(), &standing),
        None
    );
}

/// `docs/rules/classic.md` maps DAAK's clauses to their scenarios: every
/// scenario of `tests/scenarios/classic/` is named there, and every one
/// named there exists.
#[test]
fn the_classic_page_names_every_scenario_and_only_real_ones() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = std::fs::read_to_string(root.join("docs/rules/classic.md")).unwrap();
    let dir = root.join("tests/scenarios/classic");
    let mut unlisted = Vec::new();
    for f in std::fs::read_dir(&dir).unwrap() {
        let name = f.unwrap().file_name().into_string().unwrap();
        if name.ends_with(".yaml") && !doc.contains(&format!("`{name}`")) {
            unlisted.push(name);
        }
    }
    assert!(
        unlisted.is_empty(),
        "not in docs/rules/classic.md: {unlisted:?}"
    );
    let mut missing = Vec::new();
    for part in doc.split('`').skip(1).step_by(2) {
        if part.ends_with(".yaml")
            && (part.starts_with("daak-") || part.starts_with("digest-"))
            && !dir.join(part).is_file()
        {
            missing.push(part.to_owned());
        }
    }
    assert!(
        missing.is_empty(),
        "named in docs/rules/classic.md but missing: {missing:?}"
    );
}
