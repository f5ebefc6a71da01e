//! Naval movement: stopping among enemy ships, straits and canals, ships
//! that begin the turn beside enemy ships, convoy zones, the non-combat move
//! (AAE FAQ, "Submarines" and "Amphibious Assault, Transport, Naval
//! Movement, Naval Combat").

mod movement_common;

use movement_common::{Board, rejected};

#[test]
fn ships_stop_when_they_enter_a_zone_with_enemy_ships() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "destroyer", 1);
    b.put("Danish Sea", "United Kingdom", "destroyer", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv("1 destroyer", "Baltic Sea -> Danish Sea -> North Sea", None)],
    );
    rejected(
        r,
        1,
        &[
            "destroyer must stop when it enters Danish Sea",
            "enemy ships",
        ],
    );
}

#[test]
fn enemy_submarines_also_stop_ships() {
    // FAQ: combat movement always triggers combat; the naval exception is
    // only for ships *leaving* a zone with enemy subs.
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "battleship", 1);
    b.put("Danish Sea", "United Kingdom", "submarine", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 battleship",
            "Baltic Sea -> Danish Sea -> North Sea",
            None,
        )],
    );
    rejected(r, 1, &["must stop when it enters Danish Sea"]);
}

#[test]
fn submerged_submarines_do_not_stop_ships() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "battleship", 1);
    let sub = b.put("Danish Sea", "United Kingdom", "submarine", 1)[0];
    b.state.unit_mut(sub).unwrap().submerged = true;
    b.combat(
        "Germany",
        vec![b.mv(
            "1 battleship",
            "Baltic Sea -> Danish Sea -> North Sea",
            None,
        )],
    )
    .unwrap();
    assert!(b.battles().is_empty());
}

#[test]
fn entering_a_zone_with_enemy_ships_is_a_battle() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "submarine", 2);
    b.put("Danish Sea", "United Kingdom", "transport", 1);
    b.combat(
        "Germany",
        vec![b.mv("2 submarine", "Baltic Sea -> Danish Sea", None)],
    )
    .unwrap();
    assert_eq!(b.battles(), ["Danish Sea"]);
    assert_eq!(b.count("Danish Sea", "Germany", "submarine"), 2);
}

#[test]
fn ships_stay_at_sea() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "destroyer", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv("1 destroyer", "Baltic Sea -> Finland", None)],
    );
    rejected(r, 1, &["cannot enter the territory Finland"]);
}

#[test]
fn the_bosphorus_is_closed_while_turkey_is_neutral() {
    let mut b = Board::new();
    b.put("Aegean Sea", "Germany", "destroyer", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 destroyer", "Aegean Sea -> Black Sea", None)],
    );
    rejected(r, 1, &["Bosphorus"]);
}

#[test]
fn the_bosphorus_opens_to_the_side_that_holds_its_shores() {
    let mut b = Board::new();
    b.put("Aegean Sea", "Germany", "destroyer", 1);
    b.own("Turkey", "Germany");
    b.noncombat(
        "Germany",
        vec![b.mv("1 destroyer", "Aegean Sea -> Black Sea", None)],
    )
    .unwrap();
    assert_eq!(b.count("Black Sea", "Germany", "destroyer"), 1);
}

#[test]
fn the_strait_of_gibraltar_needs_no_land() {
    // FAQ: not required to own Gibraltar or Spanish Morocco to pass.
    let mut b = Board::new();
    assert_eq!(
        b.state.owner[b.s("Gibraltar").0],
        Some(b.p("United Kingdom"))
    );
    b.put("Western Mediterranean", "Germany", "battleship", 1);
    b.noncombat(
        "Germany",
        vec![b.mv(
            "1 battleship",
            "Western Mediterranean -> Strait of Gibraltar -> South Atlantic",
            None,
        )],
    )
    .unwrap();
    assert_eq!(b.count("South Atlantic", "Germany", "battleship"), 1);
}

#[test]
fn ships_beside_enemy_ships_at_the_start_leave_or_fight() {
    // FAQ: ships that begin the turn with enemy naval units "must either move
    // out during Combat Movement ... or stay and attack".
    let mut b = Board::new();
    b.put("North Sea", "United Kingdom", "destroyer", 1);
    b.put("North Sea", "United Kingdom", "transport", 1);
    b.put("North Sea", "Germany", "submarine", 1);
    let mut leaving = Board::new();
    leaving.state = b.state.clone();
    b.combat("United Kingdom", vec![]).unwrap();
    assert_eq!(b.battles(), ["North Sea"]);
    leaving
        .combat(
            "United Kingdom",
            vec![
                leaving.mv("1 destroyer", "North Sea -> Atlantic", None),
                leaving.mv("1 transport", "North Sea -> Atlantic", None),
            ],
        )
        .unwrap();
    assert!(leaving.battles().is_empty(), "{:?}", leaving.battles());
}

#[test]
fn noncombat_ships_avoid_enemy_ships() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "destroyer", 1);
    b.put("Danish Sea", "United Kingdom", "destroyer", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 destroyer", "Baltic Sea -> Danish Sea", None)],
    );
    rejected(r, 1, &["Danish Sea holds enemy ships"]);
}

#[test]
fn noncombat_ships_cross_a_zone_cleared_this_turn() {
    // FAQ: "Any unit can move through a sea zone or land territory that was
    // just cleared of enemy units."
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "destroyer", 1);
    b.put("Germany", "Germany", "fighter", 1);
    b.put("Danish Sea", "United Kingdom", "transport", 1);
    b.put("Baltic Sea", "Germany", "battleship", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 destroyer", "Baltic Sea -> Danish Sea", None)],
    )
    .unwrap();
    b.win("Germany", &["Danish Sea"]);
    b.noncombat(
        "Germany",
        vec![b.mv(
            "1 battleship",
            "Baltic Sea -> Danish Sea -> North Sea",
            None,
        )],
    )
    .unwrap();
    assert_eq!(b.count("North Sea", "Germany", "battleship"), 1);
}

#[test]
fn warships_take_enemy_convoy_zones_they_sail_through() {
    let mut b = Board::new();
    b.put("Azores Sea", "Germany", "submarine", 1);
    b.combat(
        "Germany",
        vec![b.mv(
            "1 submarine",
            "Azores Sea -> British Convoy 3 -> Celtic Sea",
            None,
        )],
    )
    .unwrap();
    assert_eq!(b.state.taken_in_passing, vec![b.s("British Convoy 3")]);
    assert_eq!(b.battles(), ["British Convoy 3"]);
}

#[test]
fn noncombat_ships_stay_out_of_enemy_convoy_zones() {
    let mut b = Board::new();
    b.put("Azores Sea", "Germany", "submarine", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 submarine", "Azores Sea -> British Convoy 3", None)],
    );
    rejected(
        r,
        1,
        &["British Convoy 3 is an enemy-controlled convoy zone"],
    );
}

#[test]
fn ships_that_moved_in_combat_do_not_move_again() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "destroyer", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 destroyer", "Baltic Sea -> Danish Sea", None)],
    )
    .unwrap();
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 destroyer", "Danish Sea -> Baltic Sea", None)],
    );
    rejected(r, 1, &["destroyer in Danish Sea moved in the combat move"]);
}
