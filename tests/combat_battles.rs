//! The combat engine with scripted dice: land, sea and amphibious battles,
//! AA guns, bombing raids, retreats, battle plans and standing orders, and
//! the FAQ's combat rulings. Positions are built on an empty AAE board and
//! moved into battle through the real combat move.

mod movement_common;

use adjutant::dice::{Label, ScriptedDice};
use adjutant::rules::combat::{self, CombatOutcome, Declarations};
use adjutant::rules::events::Event;
use adjutant::rules::orders::{
    BattlePlan, Located, MoveOrder, OrderError, Origin, Retreat, StandingOrders, SubmarinePolicy,
};
use movement_common::Board;

fn located<T>(section: &'static str, items: Vec<T>) -> Vec<Located<T>> {
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| Located {
            item,
            origin: Origin {
                section,
                index: i + 1,
                line: None,
                text: String::new(),
            },
        })
        .collect()
}

fn lbl(s: &str) -> Label {
    Label::new(s).unwrap()
}

/// Dice per label; any other label panics (exhausted), so a test also pins
/// which labels are drawn.
fn dice(labels: &[(&str, &[u32])]) -> ScriptedDice {
    let mut f = ScriptedDice::sequence([]);
    for (l, v) in labels {
        f = f.with_label(lbl(l), v.iter().copied());
    }
    f
}

struct Fight {
    result: Result<CombatOutcome, Vec<OrderError>>,
    events: Vec<Event>,
    text: Vec<String>,
}

impl Fight {
    fn has(&self, s: &str) -> bool {
        self.text.iter().any(|t| t.contains(s))
    }
    fn assert_has(&self, s: &str) {
        assert!(
            self.has(s),
            "no event mentions {s:?}:\n{}",
            self.text.join("\n")
        );
    }
}

/// Combat move for `power`, then the combat phase with `plans` and `dice`.
fn attack(
    b: &mut Board,
    power: &str,
    moves: Vec<MoveOrder>,
    plans: Vec<BattlePlan>,
    decl: &Declarations,
    dice: Option<&mut ScriptedDice>,
) -> Fight {
    b.combat(power, moves.clone())
        .unwrap_or_else(|e| panic!("combat move refused: {e:?}"));
    let p = b.p(power);
    let orders = located("combat", moves);
    let plans = located("battles", plans);
    let mut events = Vec::new();
    let result = combat::fight_battles_declared(
        &b.game,
        &mut b.state,
        p,
        &orders,
        &plans,
        decl,
        dice.map(|d| d as &mut dyn adjutant::dice::DiceSource),
        &mut events,
    );
    let text = events.iter().map(|e| e.describe(&b.game)).collect();
    Fight {
        result,
        events,
        text,
    }
}

fn plan(
    b: &Board,
    space: Option<&str>,
    retreat: Retreat,
    to: Option<&str>,
    losses: &[&str],
) -> BattlePlan {
    BattlePlan {
        space: space.map(|s| b.s(s)),
        retreat,
        retreat_to: to.map(|s| b.s(s)),
        losses: losses.iter().map(|u| b.u(u)).collect(),
        bombing_raid: false,
        raiders: Vec::new(),
        ignore: false,
        submarines: None,
        screen: 0,
        landing: None,
        teams: Default::default(),
    }
}

fn standing(b: &mut Board, power: &str, losses: &[&str], keep: bool, subs: SubmarinePolicy) {
    let p = b.p(power);
    b.state.standing[p] = StandingOrders {
        losses: losses.iter().map(|u| b.u(u)).collect(),
        keep_one_land_unit: keep,
        submarines: subs,
        intercept: None,
        ..StandingOrders::default()
    };
}

fn turn_of(b: &Board, power: &str) -> usize {
    let p = b.p(power);
    b.game.turn_order().iter().position(|x| *x == p).unwrap()
}

const NONE: &Declarations = &Declarations {
    bombing_raids: Vec::new(),
    submarines: Vec::new(),
    surprise_strikes: Vec::new(),
};

#[test]
fn one_infantry_takes_a_territory_with_labelled_dice() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let mv = vec![b.mv("1 infantry", "East Poland -> Belorussia", None)];
    let mut d = dice(&[
        ("battle/Belorussia/round/1/attacker/infantry", &[1]),
        ("battle/Belorussia/round/1/defender/infantry", &[3]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    let out = f.result.as_ref().unwrap();
    assert!(out.dice_rolled && !out.needs_dice);
    assert_eq!(b.state.owner[b.s("Belorussia").0], Some(b.p("Germany")));
    assert_eq!(b.count("Belorussia", "Soviet Union", "infantry"), 0);
    assert_eq!(b.count("Belorussia", "Germany", "infantry"), 1);
    f.assert_has(
        "dice [1 hit] needing 1 or less: 1 hit(s) (battle/Belorussia/round/1/attacker/infantry)",
    );
    f.assert_has("dice [3] needing 2 or less: 0 hit(s)");
    f.assert_has("the attacker wins");
    assert!(b.state.battles.is_empty());
}

#[test]
fn without_dice_nothing_changes_when_a_battle_needs_them() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 2);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let mv = vec![
        b.mv("1 infantry", "East Poland -> Belorussia", None),
        b.mv("1 infantry", "East Poland -> Ukraine S.S.R.", None),
    ];
    b.own("Ukraine S.S.R.", "Soviet Union");
    b.combat("Germany", mv.clone()).unwrap();
    let before = b.state.clone();
    let mut events = Vec::new();
    let ger = b.p("Germany");
    let out = combat::fight_battles(
        &b.game,
        &mut b.state,
        ger,
        &located("combat", mv),
        &[],
        None,
        &mut events,
    )
    .unwrap();
    assert_eq!(
        out,
        CombatOutcome {
            dice_rolled: false,
            needs_dice: true
        }
    );
    assert_eq!(b.state, before, "validation without dice changes nothing");
    assert!(events.is_empty());
}

#[test]
fn artillery_supports_one_infantry_and_standing_orders_choose_losses() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 2);
    b.put("East Poland", "Germany", "artillery", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "armor", 1);
    // The USSR loses armor before infantry, by its standing orders.
    standing(
        &mut b,
        "Soviet Union",
        &["armor", "infantry"],
        false,
        SubmarinePolicy::Fight,
    );
    let mv = vec![b.mv("2 infantry, 1 artillery", "East Poland -> Belorussia", None)];
    let mut d = dice(&[
        ("battle/Belorussia/round/1/attacker/infantry", &[6]),
        (
            "battle/Belorussia/round/1/attacker/supported infantry",
            &[2],
        ),
        ("battle/Belorussia/round/1/attacker/artillery", &[5]),
        ("battle/Belorussia/round/1/defender/infantry", &[6]),
        ("battle/Belorussia/round/1/defender/armor", &[6]),
        ("battle/Belorussia/round/2/attacker/infantry", &[1]),
        (
            "battle/Belorussia/round/2/attacker/supported infantry",
            &[6],
        ),
        ("battle/Belorussia/round/2/attacker/artillery", &[6]),
        ("battle/Belorussia/round/2/defender/infantry", &[1]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has(
        "Soviet Union armor lost (standing orders of Soviet Union, losses entry 1 (armor))",
    );
    // The defender's hit in round 2 takes the cheapest German unit.
    f.assert_has("Germany infantry lost (default order of loss: cheapest unit first)");
    assert_eq!(b.count("Belorussia", "Germany", "infantry"), 1);
    assert_eq!(b.state.owner[b.s("Belorussia").0], Some(b.p("Germany")));
}

#[test]
fn keep_one_land_unit_loses_the_fighter_first() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "armor", 2);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "fighter", 1);
    standing(
        &mut b,
        "Soviet Union",
        &["infantry", "fighter"],
        true,
        SubmarinePolicy::Fight,
    );
    let mv = vec![b.mv("2 armor", "East Poland -> Belorussia", None)];
    let mut d = dice(&[
        ("battle/Belorussia/round/1/attacker/armor", &[1, 6]),
        ("battle/Belorussia/round/1/defender/infantry", &[6]),
        ("battle/Belorussia/round/1/defender/fighter", &[6]),
        ("battle/Belorussia/round/2/attacker/armor", &[6, 6]),
        ("battle/Belorussia/round/2/defender/infantry", &[6]),
    ]);
    let plans = vec![plan(
        &b,
        Some("Belorussia"),
        Retreat::AfterRound(2),
        Some("East Poland"),
        &[],
    )];
    let f = attack(&mut b, "Germany", mv, plans, NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has(
        "Soviet Union fighter lost (standing orders of Soviet Union, losses entry 2 (fighter))",
    );
    assert_eq!(b.count("Belorussia", "Soviet Union", "infantry"), 1);
    // Retreat after round 2 to where they came from.
    f.assert_has("Germany retreated 2 armor to East Poland");
    assert_eq!(b.count("East Poland", "Germany", "armor"), 2);
    assert_eq!(
        b.state.owner[b.s("Belorussia").0],
        Some(b.p("Soviet Union"))
    );
}

#[test]
fn bad_plans_are_refused_before_any_die() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let mv = vec![b.mv("1 infantry", "East Poland -> Belorussia", None)];
    let plans = vec![plan(
        &b,
        Some("Belorussia"),
        Retreat::AfterRound(1),
        Some("Ukraine S.S.R."),
        &["armor", "infantry", "infantry"],
    )];
    let mut d = dice(&[]);
    let f = attack(&mut b, "Germany", mv, plans, NONE, Some(&mut d));
    let errors = f.result.unwrap_err();
    let all: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    let joined = all.join("\n");
    assert!(
        joined.contains("names armor, but no attacking armor is in that battle"),
        "{joined}"
    );
    assert!(
        joined.contains("impossible order of loss: infantry is listed twice"),
        "{joined}"
    );
    assert!(
        joined.contains("no attacker of the battle in Belorussia came from Ukraine S.S.R."),
        "{joined}"
    );
    assert!(errors.iter().all(|e| e.origin.section == "battles"));
    assert_eq!(adjutant::dice::DiceSource::drawn(&d), 0, "no die drawn");
    assert_eq!(b.count("Belorussia", "Soviet Union", "infantry"), 1);
}

#[test]
fn submarine_first_strike_victims_do_not_fire_but_a_damaged_battleship_does() {
    let mut b = Board::new();
    b.put("Bay of Biscay", "Germany", "submarine", 2);
    b.put("Celtic Sea", "United Kingdom", "battleship", 1);
    b.put("Celtic Sea", "United Kingdom", "transport", 1);
    // AAE transports are ordinary casualties (the cheapest would go first):
    // the United Kingdom's standing orders give up the battleship first.
    standing(
        &mut b,
        "United Kingdom",
        &["battleship", "transport"],
        false,
        SubmarinePolicy::Fight,
    );
    let mv = vec![b.mv("2 submarine", "Bay of Biscay -> Celtic Sea", None)];
    let mut d = dice(&[
        // Both subs hit: hit points to spare first (the battleship is
        // damaged), then the order of loss: the battleship is sunk by the
        // second hit.
        (
            "battle/Celtic Sea/round/1/attacker/first-strike/submarine",
            &[1, 2],
        ),
        ("battle/Celtic Sea/round/1/defender/transport", &[1]),
        (
            "battle/Celtic Sea/round/2/attacker/first-strike/submarine",
            &[6, 6],
        ),
        ("battle/Celtic Sea/round/2/defender/transport", &[6]),
        (
            "battle/Celtic Sea/round/3/attacker/first-strike/submarine",
            &[1, 6],
        ),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("United Kingdom battleship damaged");
    f.assert_has("United Kingdom battleship lost");
    // The battleship, sunk by first strike, never fired.
    assert!(!f.has("defender battleship fire"), "{}", f.text.join("\n"));
    // The transport fired in round 1 and hit a submarine.
    f.assert_has("Germany submarine lost");
    assert_eq!(b.count("Celtic Sea", "Germany", "submarine"), 1);
    assert_eq!(b.count("Celtic Sea", "United Kingdom", "transport"), 0);
}

#[test]
fn a_battleship_hit_once_by_first_strike_fires_back() {
    let mut b = Board::new();
    b.put("Bay of Biscay", "Germany", "submarine", 1);
    b.put("Celtic Sea", "United Kingdom", "battleship", 1);
    let mv = vec![b.mv("1 submarine", "Bay of Biscay -> Celtic Sea", None)];
    let mut d = dice(&[
        (
            "battle/Celtic Sea/round/1/attacker/first-strike/submarine",
            &[1],
        ),
        ("battle/Celtic Sea/round/1/defender/battleship", &[4]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("defender battleship fire: dice [4 hit]");
    assert_eq!(b.count("Celtic Sea", "Germany", "submarine"), 0);
    let bb = b
        .state
        .units
        .iter()
        .find(|u| u.unit == b.u("battleship"))
        .unwrap();
    assert_eq!(bb.hits, 1);
}

#[test]
fn a_destroyer_cancels_first_strike() {
    let mut b = Board::new();
    b.put("Bay of Biscay", "Germany", "submarine", 1);
    b.put("Celtic Sea", "United Kingdom", "destroyer", 1);
    let mv = vec![b.mv("1 submarine", "Bay of Biscay -> Celtic Sea", None)];
    let mut d = dice(&[
        ("battle/Celtic Sea/round/1/attacker/submarine", &[1]),
        ("battle/Celtic Sea/round/1/defender/destroyer", &[1]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("both sides destroyed");
}

#[test]
fn defending_sub_hits_go_only_to_ships() {
    // FAQ: "all the hits caused by defending subs must be placed on ships".
    let mut b = Board::new();
    b.put("Celtic Sea", "Germany", "submarine", 1);
    b.put("Celtic Sea", "Germany", "destroyer", 1);
    b.put("English Channel", "United Kingdom", "destroyer", 1);
    b.put("United Kingdom", "United Kingdom", "fighter", 1);
    b.state.turn = turn_of(&b, "United Kingdom");
    let mv = vec![
        b.mv("1 destroyer", "English Channel -> Celtic Sea", None),
        b.mv(
            "1 fighter",
            "United Kingdom -> Celtic Sea",
            Some("United Kingdom"),
        ),
    ];
    // Fighter before destroyer in the plan: the sub's hit still goes on the
    // destroyer.
    let plans = vec![plan(
        &b,
        None,
        Retreat::Never,
        None,
        &["fighter", "destroyer"],
    )];
    let mut d = dice(&[
        ("battle/Celtic Sea/round/1/attacker/destroyer", &[6]),
        ("battle/Celtic Sea/round/1/attacker/fighter", &[6]),
        ("battle/Celtic Sea/round/1/defender/submarine", &[1]),
        ("battle/Celtic Sea/round/1/defender/destroyer", &[6]),
        ("battle/Celtic Sea/round/2/attacker/fighter", &[1]),
        ("battle/Celtic Sea/round/2/defender/destroyer", &[6]),
    ]);
    let f = attack(&mut b, "United Kingdom", mv, plans, NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("United Kingdom destroyer lost (rule: submarine hits go to ships only (FAQ)");
    // Without a destroyer the fighter cannot hit the sub: round 2's hit sinks
    // the German destroyer, then neither side can hit the other (the sub
    // cannot hit the fighter), and the sub's dice are not even drawn.
    f.assert_has("Germany destroyer lost");
    f.assert_has("neither side can hit the other");
    assert_eq!(b.count("Celtic Sea", "Germany", "submarine"), 1);
}

#[test]
fn subs_play_no_part_against_bombers_without_a_destroyer() {
    // FAQ: battleship, transport, two subs attacked by three bombers, three
    // hits: the subs cannot take them.
    let mut b = Board::new();
    b.put("Celtic Sea", "Germany", "battleship", 1);
    b.put("Celtic Sea", "Germany", "transport", 1);
    b.put("Celtic Sea", "Germany", "submarine", 2);
    b.put("United Kingdom", "United States", "bomber", 3);
    b.state.turn = turn_of(&b, "United States");
    standing(
        &mut b,
        "Germany",
        &["submarine"],
        false,
        SubmarinePolicy::Fight,
    );
    let mv = vec![b.mv(
        "3 bomber",
        "United Kingdom -> Celtic Sea",
        Some("United Kingdom"),
    )];
    let mut d = dice(&[
        ("battle/Celtic Sea/round/1/attacker/bomber", &[1, 1, 1]),
        ("battle/Celtic Sea/round/1/defender/battleship", &[6]),
        ("battle/Celtic Sea/round/1/defender/transport", &[6]),
    ]);
    let plans = vec![plan(
        &b,
        None,
        Retreat::AfterRound(1),
        Some("United Kingdom"),
        &[],
    )];
    let f = attack(&mut b, "United States", mv, plans, NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    assert_eq!(b.count("Celtic Sea", "Germany", "submarine"), 2);
    assert_eq!(b.count("Celtic Sea", "Germany", "battleship"), 0);
    assert_eq!(b.count("Celtic Sea", "Germany", "transport"), 0);
}

#[test]
fn a_bystander_allied_destroyer_reveals_subs_and_takes_hits() {
    // FAQ: the British destroyer reveals the subs to US bombers "whether or
    // not the US player likes it", and is subject to German hits.
    let mut b = Board::new();
    b.put("Celtic Sea", "Germany", "submarine", 2);
    b.put("Celtic Sea", "United Kingdom", "destroyer", 1);
    b.put("United Kingdom", "United States", "bomber", 1);
    b.state.turn = turn_of(&b, "United States");
    let mv = vec![b.mv(
        "1 bomber",
        "United Kingdom -> Celtic Sea",
        Some("United Kingdom"),
    )];
    let mut d = dice(&[
        ("battle/Celtic Sea/round/1/attacker/bomber", &[1]),
        ("battle/Celtic Sea/round/1/defender/submarine", &[1, 1]),
    ]);
    let f = attack(&mut b, "United States", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("Germany submarine lost");
    // Two sub hits: they cannot touch the bomber, so the British destroyer
    // takes one; the other is lost.
    f.assert_has("United Kingdom destroyer lost (rule: submarine hits go to ships only (FAQ); then rule: hits the attackers cannot take fall on their allies' ships");
    assert_eq!(b.count("Celtic Sea", "United States", "bomber"), 1);
}

#[test]
fn bystander_allied_ships_take_excess_hits() {
    // FAQ: three German subs, two British transports; two US destroyers
    // attack; the subs score three hits: the Allies lose three ships.
    let mut b = Board::new();
    b.put("Celtic Sea", "Germany", "submarine", 3);
    b.put("Celtic Sea", "United Kingdom", "transport", 2);
    b.put("English Channel", "United States", "destroyer", 2);
    b.state.turn = turn_of(&b, "United States");
    let mv = vec![b.mv("2 destroyer", "English Channel -> Celtic Sea", None)];
    let mut d = dice(&[
        ("battle/Celtic Sea/round/1/attacker/destroyer", &[6, 6]),
        ("battle/Celtic Sea/round/1/defender/submarine", &[1, 1, 1]),
    ]);
    let f = attack(&mut b, "United States", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    assert_eq!(b.count("Celtic Sea", "United States", "destroyer"), 0);
    assert_eq!(b.count("Celtic Sea", "United Kingdom", "transport"), 1);
    f.assert_has("United Kingdom transport lost");
}

#[test]
fn defending_subs_submerge_only_after_a_round_of_fire() {
    let mut b = Board::new();
    b.put("Celtic Sea", "Germany", "submarine", 2);
    b.put("English Channel", "United Kingdom", "destroyer", 1);
    b.state.turn = turn_of(&b, "United Kingdom");
    standing(&mut b, "Germany", &[], false, SubmarinePolicy::Submerge);
    let mv = vec![b.mv("1 destroyer", "English Channel -> Celtic Sea", None)];
    let mut d = dice(&[
        ("battle/Celtic Sea/round/1/attacker/destroyer", &[2]),
        ("battle/Celtic Sea/round/1/defender/submarine", &[6]),
    ]);
    let f = attack(&mut b, "United Kingdom", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    // One sub was hit: it fires back (its last shot) while the other dives.
    f.assert_has("1 Germany submarine submerged");
    f.assert_has("standing orders of Germany: submarines submerge at the first chance");
    assert!(
        f.has("defender submarine fire"),
        "the hit sub fires its last shot"
    );
}

#[test]
fn attacking_subs_may_substall() {
    let mut b = Board::new();
    b.put("Bay of Biscay", "Germany", "submarine", 1);
    b.put("Celtic Sea", "United Kingdom", "destroyer", 1);
    let mv = vec![b.mv("1 submarine", "Bay of Biscay -> Celtic Sea", None)];
    let decl = Declarations {
        bombing_raids: vec![],
        submarines: vec![(None, SubmarinePolicy::Submerge)],
        surprise_strikes: vec![],
    };
    let mut d = dice(&[]);
    let f = attack(&mut b, "Germany", mv, vec![], &decl, Some(&mut d));
    assert!(!f.result.as_ref().unwrap().dice_rolled);
    f.assert_has("substalling");
    assert!(
        b.state
            .units
            .iter()
            .any(|u| u.submerged && u.owner == b.p("Germany"))
    );
}

#[test]
fn amphibious_ground_units_never_retreat_and_destroyers_support_at_2() {
    let mut b = Board::new();
    b.put("Eastern Mediterranean", "United Kingdom", "transport", 1);
    b.put("Eastern Mediterranean", "United Kingdom", "infantry", 1);
    b.put("Eastern Mediterranean", "United Kingdom", "destroyer", 1);
    b.put("Eastern Mediterranean", "United Kingdom", "battleship", 1);
    b.put("Egypt", "United Kingdom", "armor", 1);
    b.put("Libya", "Germany", "infantry", 3);
    b.state.turn = turn_of(&b, "United Kingdom");
    let mv = vec![
        b.tr("Eastern Mediterranean", &[], Some("Libya")),
        b.mv("1 armor", "Egypt -> Libya", None),
    ];
    let plans = vec![plan(
        &b,
        Some("Libya"),
        Retreat::AfterRound(1),
        Some("Egypt"),
        &[],
    )];
    let mut d = dice(&[
        ("bombard/Libya/battleship", &[4]),
        ("bombard/Libya/destroyer", &[3]),
        ("battle/Libya/round/1/attacker/infantry", &[6]),
        ("battle/Libya/round/1/attacker/armor", &[6]),
        ("battle/Libya/round/1/defender/infantry", &[6, 6, 6]),
        ("battle/Libya/round/2/attacker/infantry", &[1]),
        ("battle/Libya/round/2/attacker/armor", &[1]),
        ("battle/Libya/round/2/defender/infantry", &[6, 6]),
    ]);
    let f = attack(&mut b, "United Kingdom", mv, plans, NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    // Battleship hits on 4; the destroyer's 3 misses (support shot on 2).
    f.assert_has("bombardment battleship fire: dice [4 hit]");
    f.assert_has("bombardment destroyer fire: dice [3] needing 2 or less");
    // The bombarded infantry still fired in round 1 (its dice were drawn).
    f.assert_has("the attackers fight on: only aircraft may leave an amphibious assault");
    assert_eq!(b.state.owner[b.s("Libya").0], Some(b.p("United Kingdom")));
    assert_eq!(b.count("Libya", "United Kingdom", "armor"), 1);
}

#[test]
fn aa_guns_shoot_planes_that_then_never_fire() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 1);
    b.own("East Poland", "Germany");
    b.put("Poland", "Germany", "fighter", 2);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "AA gun", 1);
    let mv = vec![
        b.mv("1 infantry", "East Poland -> Belorussia", None),
        b.mv(
            "2 fighter",
            "Poland -> East Poland -> Belorussia",
            Some("East Poland"),
        ),
    ];
    let mut d = dice(&[
        ("aa/Belorussia/fighter", &[1, 5]),
        ("battle/Belorussia/round/1/attacker/infantry", &[1]),
        ("battle/Belorussia/round/1/attacker/fighter", &[6]),
        ("battle/Belorussia/round/1/defender/infantry", &[6]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("shot down by AA fire before the battle; it never fires");
    // One fighter rolled (one die under the fighter label).
    assert_eq!(b.count("Belorussia", "Germany", "fighter"), 1);
    assert_eq!(
        b.count("Belorussia", "Germany", "AA gun"),
        1,
        "the AA gun is captured"
    );
}

#[test]
fn aa_guns_fire_at_aircraft_flying_over() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "bomber", 1);
    b.put("East Poland", "Soviet Union", "AA gun", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let mv = vec![b.mv(
        "1 bomber",
        "Poland -> East Poland -> Belorussia",
        Some("Poland"),
    )];
    let mut d = dice(&[("aa/East Poland/overflight/bomber", &[1])]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("shot down by AA fire flying over East Poland");
    assert_eq!(b.count("Belorussia", "Germany", "bomber"), 0);
    assert_eq!(b.count("Belorussia", "Soviet Union", "infantry"), 1);
}

#[test]
fn a_strategic_bombing_raid_with_escorts_and_interceptors() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "bomber", 2);
    b.put("Poland", "Germany", "fighter", 1);
    b.put("Leningrad", "Soviet Union", "fighter", 1);
    b.put("Leningrad", "Soviet Union", "industrial complex", 1);
    b.put("Leningrad", "Soviet Union", "infantry", 1);
    let mv = vec![b.mv(
        "2 bomber, 1 fighter",
        "Poland -> Baltic States -> Leningrad",
        Some("Poland"),
    )];
    let decl = Declarations {
        bombing_raids: vec![b.s("Leningrad")],
        submarines: vec![],
        surprise_strikes: vec![],
    };
    let ussr = b.p("Soviet Union");
    b.state.ipcs[ussr] = 7;
    let mut d = dice(&[
        ("sbr/Leningrad/escort/fighter", &[1]),
        ("sbr/Leningrad/interceptor/fighter", &[2]),
        ("sbr/Leningrad/damage", &[6, 5]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], &decl, Some(&mut d));
    f.result.as_ref().unwrap();
    // The interceptor's hit takes the escort (cheapest first), the escort's
    // the interceptor; both bombers roll: 11, capped at the treasury.
    assert_eq!(b.count("Leningrad", "Soviet Union", "fighter"), 0);
    assert_eq!(b.count("Leningrad", "Germany", "fighter"), 0);
    f.assert_has("Soviet Union loses 7 IPCs");
    assert_eq!(b.state.ipcs[ussr], 0);
    assert_eq!(
        b.state.owner[b.s("Leningrad").0],
        Some(ussr),
        "a raid takes nothing"
    );
}

#[test]
fn a_raid_needs_bombers_alone() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let mv = vec![b.mv("1 infantry", "East Poland -> Belorussia", None)];
    let decl = Declarations {
        bombing_raids: vec![b.s("Belorussia")],
        submarines: vec![],
        surprise_strikes: vec![],
    };
    let f = attack(&mut b, "Germany", mv, vec![], &decl, None);
    let e = f.result.unwrap_err();
    assert!(
        e[0].reason.contains("no enemy industrial complex"),
        "{}",
        e[0]
    );
}

#[test]
fn low_luck_scores_sure_hits_and_rolls_the_remainder() {
    let mut b = Board::new();
    let mut files = b.game.files().clone();
    files.game.options.0.push((
        "low_luck".into(),
        adjutant::rules::model::OptionValue::Bool(true),
    ));
    b.game = adjutant::rules::GameDef::new(files).unwrap();
    b.put("East Poland", "Germany", "armor", 3);
    b.put("Belorussia", "Soviet Union", "infantry", 3);
    let mv = vec![b.mv("3 armor", "East Poland -> Belorussia", None)];
    // Armor: 9 points = 1 sure hit + one die at 3; infantry: 6 = 1 sure hit.
    let mut d = dice(&[
        ("battle/Belorussia/round/1/attacker/armor", &[3]),
        ("battle/Belorussia/round/2/defender/infantry", &[5]),
    ]);
    let f = attack(&mut b, "Germany", mv, vec![], NONE, Some(&mut d));
    f.result.as_ref().unwrap();
    f.assert_has("1 sure hit(s) (Low Luck), dice [3 hit] needing 3 or less: 2 hit(s)");
    f.assert_has("1 sure hit(s) (Low Luck), dice [] needing 0 or less: 1 hit(s)");
    let _ = f.events;
}
