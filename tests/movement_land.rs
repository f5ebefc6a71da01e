//! Land movement: movement points, adjacency, stopping, blitzing, neutrals,
//! and the non-combat move (AAE FAQ, "Combat and Non-Combat Movement").

mod movement_common;

use movement_common::{Board, rejected};

#[test]
fn armor_moves_two_spaces_and_attacks() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "armor", 1);
    b.put("East Poland", "Soviet Union", "infantry", 1);
    let events = b
        .combat(
            "Germany",
            vec![b.mv("1 armor", "Germany -> Poland -> East Poland", None)],
        )
        .unwrap();
    assert_eq!(b.count("East Poland", "Germany", "armor"), 1);
    assert_eq!(b.count("Germany", "Germany", "armor"), 0);
    assert_eq!(b.battles(), ["East Poland"]);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, adjutant::rules::events::Event::BattlePending { .. }))
    );
    let armor = b
        .state
        .units
        .iter()
        .find(|u| u.owner == b.p("Germany"))
        .unwrap();
    assert_eq!((armor.moved, armor.combat_moved), (2, true));
}

#[test]
fn movement_points_limit_the_path() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "armor", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 armor",
            "Germany -> Poland -> East Poland -> Belorussia",
            None,
        )],
    );
    rejected(
        r,
        1,
        &["armor in Germany", "only 2 spaces of movement left"],
    );
}

#[test]
fn a_unit_without_movement_left_cannot_move() {
    let mut b = Board::new();
    let id = b.put("Poland", "Germany", "armor", 1)[0];
    b.state.unit_mut(id).unwrap().moved = 2;
    let r = b.combat("Germany", vec![b.mv("1 armor", "Poland -> Germany", None)]);
    rejected(r, 1, &["armor in Poland has no movement left"]);
}

#[test]
fn paths_follow_borders() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "armor", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv("1 armor", "Germany -> Ukraine S.S.R.", None)],
    );
    rejected(r, 1, &["Germany does not border Ukraine S.S.R."]);
}

#[test]
fn missing_units_are_named() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "infantry", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv("2 infantry", "Poland -> Germany", None)],
    );
    rejected(r, 1, &["Germany has only 1 infantry in Poland"]);
}

#[test]
fn armor_must_stop_in_an_occupied_territory() {
    // FAQ: "Blitzing aside, can an armor unit move through an enemy-occupied
    // space ...? Absolutely not."
    let mut b = Board::new();
    b.put("Poland", "Germany", "armor", 1);
    b.put("East Poland", "Soviet Union", "infantry", 2);
    let r = b.combat(
        "Germany",
        vec![b.mv("1 armor", "Poland -> East Poland -> Belorussia", None)],
    );
    rejected(r, 1, &["armor must stop when it enters East Poland"]);
}

#[test]
fn armor_blitzes_through_an_empty_enemy_territory() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "armor", 1);
    b.put("Leningrad", "Soviet Union", "infantry", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 armor", "Poland -> Baltic States -> Leningrad", None)],
    )
    .unwrap();
    assert_eq!(b.battles(), ["Baltic States", "Leningrad"]);
    assert_eq!(b.state.taken_in_passing, vec![b.s("Baltic States")]);
    assert_eq!(b.count("Leningrad", "Germany", "armor"), 1);
}

#[test]
fn infantry_cannot_blitz() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "infantry", 1);
    b.put("Poland", "Germany", "armor", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 infantry, 1 armor",
            "Poland -> Baltic States -> Leningrad",
            None,
        )],
    );
    rejected(
        r,
        1,
        &["infantry must stop when it enters enemy territory Baltic States"],
    );
}

#[test]
fn an_empty_enemy_territory_entered_is_pending() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "infantry", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 infantry", "Poland -> Baltic States", None)],
    )
    .unwrap();
    assert_eq!(b.battles(), ["Baltic States"]);
    assert!(b.state.taken_in_passing.is_empty());
    // Movement does not change control: the turn module does after combat.
    assert_eq!(
        b.state.owner[b.s("Baltic States").0],
        Some(b.p("Soviet Union"))
    );
}

#[test]
fn neutrals_cannot_be_entered() {
    let mut b = Board::new();
    b.put("France", "Germany", "armor", 1);
    let r = b.combat("Germany", vec![b.mv("1 armor", "France -> Spain", None)]);
    rejected(r, 1, &["Spain is neutral and may not be entered"]);
}

#[test]
fn land_units_do_not_walk_into_the_sea() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "infantry", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 infantry", "Germany -> Baltic Sea", None)],
    );
    rejected(r, 1, &["cannot enter the sea zone Baltic Sea"]);
}

#[test]
fn aa_guns_do_not_attack() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "AA gun", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv("1 AA gun", "Poland -> Baltic States", None)],
    );
    rejected(r, 1, &["AA gun cannot attack"]);
}

#[test]
fn units_that_moved_in_combat_stay_in_the_noncombat_move() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "armor", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 armor", "Poland -> Baltic States", None)],
    )
    .unwrap();
    b.win("Germany", &["Baltic States"]);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 armor", "Baltic States -> Poland", None)],
    );
    rejected(r, 1, &["armor in Baltic States moved in the combat move"]);
}

#[test]
fn noncombat_moves_pass_through_newly_captured_territory() {
    // FAQ: "During Non-combat Movement, can tanks pass through a newly
    // captured territory to a friendly territory on the other side? Yes."
    let mut b = Board::new();
    b.put("Poland", "Germany", "infantry", 1);
    b.put("Hungary", "Germany", "armor", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 infantry", "Poland -> East Poland", None)],
    )
    .unwrap();
    b.win("Germany", &["East Poland"]);
    b.noncombat(
        "Germany",
        vec![b.mv("1 armor", "Hungary -> East Poland -> Poland", None)],
    )
    .unwrap();
    assert_eq!(b.count("Poland", "Germany", "armor"), 1);
}

#[test]
fn noncombat_moves_stay_out_of_enemy_territory() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "armor", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 armor", "Poland -> Baltic States", None)],
    );
    rejected(
        r,
        1,
        &[
            "Baltic States is enemy territory",
            "only in the combat move",
        ],
    );
}

#[test]
fn one_unit_moves_once_per_phase() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "armor", 1);
    let r = b.noncombat(
        "Germany",
        vec![
            b.mv("1 armor", "Germany -> Poland", None),
            b.mv("1 armor", "Poland -> Hungary", None),
        ],
    );
    rejected(r, 2, &["already moved in an earlier order"]);
}

#[test]
fn every_error_of_a_stage_is_reported_and_nothing_applies() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "armor", 1);
    b.put("France", "Germany", "infantry", 1);
    let before = b.state.clone();
    let r = b.combat(
        "Germany",
        vec![
            b.mv("1 armor", "Germany -> Ukraine S.S.R.", None),
            b.mv("1 infantry", "France -> Spain", None),
        ],
    );
    let errors = r.unwrap_err();
    assert!(
        errors
            .iter()
            .any(|e| e.origin.index == 1 && e.field.as_deref() == Some("path"))
    );
    assert!(errors.iter().any(|e| e.origin.index == 2));
    assert_eq!(b.state, before);
}
