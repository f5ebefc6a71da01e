//! Aircraft: range, intended landing, suicide attacks, carriers, no landing
//! in newly captured territory (AAE FAQ, "Other Air Unit Questions",
//! "Strategic Bombing Raids", "Combat and Non-Combat Movement").

mod movement_common;

use movement_common::{Board, rejected};

#[test]
fn fighters_attack_and_name_a_landing_within_range() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "fighter", 2);
    b.put("Danish Sea", "United Kingdom", "destroyer", 1);
    b.combat(
        "Germany",
        vec![b.mv("2 fighter", "Germany -> Danish Sea", Some("Denmark"))],
    )
    .unwrap();
    assert_eq!(b.battles(), ["Danish Sea"]);
    assert_eq!(b.count("Danish Sea", "Germany", "fighter"), 2);
}

#[test]
fn the_landing_must_be_within_the_movement_left() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "fighter", 1);
    b.put("Karelia", "Soviet Union", "infantry", 1);
    // Germany -> Baltic Sea -> Vyborg -> Karelia uses 3 of 4; Germany is 3 away.
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Germany -> Baltic Sea -> Vyborg -> Karelia",
            Some("Germany"),
        )],
    );
    rejected(
        r,
        1,
        &["fighter cannot reach its landing in Germany", "has 1 left"],
    );
}

#[test]
fn aircraft_fly_over_enemy_units_but_not_neutrals() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "fighter", 1);
    b.put("East Poland", "Soviet Union", "infantry", 3);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    b.combat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Poland -> East Poland -> Belorussia",
            Some("Poland"),
        )],
    )
    .unwrap();
    assert_eq!(b.battles(), ["Belorussia"]);

    let mut b = Board::new();
    b.put("Germany", "Germany", "fighter", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Germany -> Switzerland -> Northern Italy",
            None,
        )],
    );
    rejected(r, 1, &["Switzerland is neutral and may not be flown over"]);
}

#[test]
fn the_landing_must_be_friendly_now() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "fighter", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Poland -> East Poland -> Belorussia",
            Some("East Poland"),
        )],
    );
    rejected(r, 1, &["East Poland is not friendly territory"]);
}

#[test]
fn a_suicide_attack_without_landing_is_illegal() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "fighter", 1);
    b.put("Atlantic", "United Kingdom", "destroyer", 1);
    // Germany -> Danish Sea -> North Sea -> Atlantic: 3 of 4, no friendly land within 1.
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Germany -> Danish Sea -> North Sea -> Atlantic",
            None,
        )],
    );
    rejected(r, 1, &["no friendly territory to land in", "suicide"]);
}

#[test]
fn carrier_space_must_be_certain() {
    // FAQ: three fighters, one carrier: a suicide attack; losses may not be
    // assumed.
    let mut b = Board::new();
    b.put("Norway", "Germany", "fighter", 3);
    b.put("North Sea", "Germany", "carrier", 1);
    b.put("North Atlantic", "United Kingdom", "destroyer", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "3 fighter",
            "Norway -> Norwegian Sea -> North Atlantic",
            Some("North Sea"),
        )],
    );
    rejected(r, 1, &["not enough carrier space in North Sea", "suicide"]);

    // Two fighters fit on the one carrier: a "risky" attack, legal.
    b.combat(
        "Germany",
        vec![b.mv(
            "2 fighter",
            "Norway -> Norwegian Sea -> North Atlantic",
            Some("North Sea"),
        )],
    )
    .unwrap();
}

#[test]
fn a_carrier_that_can_still_sail_there_counts() {
    let mut b = Board::new();
    b.put("Norway", "Germany", "fighter", 2);
    b.put("Danish Sea", "Germany", "carrier", 1);
    b.put("Atlantic", "United Kingdom", "destroyer", 1);
    // Land in the North Atlantic: Norway -> North Sea -> Atlantic (2), then 1 to it.
    b.combat(
        "Germany",
        vec![b.mv(
            "2 fighter",
            "Norway -> North Sea -> Atlantic",
            Some("North Atlantic"),
        )],
    )
    .unwrap();
    // The same carrier cannot be promised twice.
    let mut b2 = Board::new();
    b2.put("Norway", "Germany", "fighter", 4);
    b2.put("Danish Sea", "Germany", "carrier", 1);
    b2.put("Atlantic", "United Kingdom", "destroyer", 1);
    let r = b2.combat(
        "Germany",
        vec![
            b2.mv(
                "2 fighter",
                "Norway -> North Sea -> Atlantic",
                Some("North Atlantic"),
            ),
            b2.mv(
                "2 fighter",
                "Norway -> North Sea -> Atlantic",
                Some("North Atlantic"),
            ),
        ],
    );
    rejected(r, 2, &["not enough carrier space in North Atlantic"]);
}

#[test]
fn bombers_do_not_land_on_carriers() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "bomber", 1);
    b.put("North Sea", "Germany", "carrier", 1);
    b.put("Atlantic", "United Kingdom", "destroyer", 1);
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 bomber",
            "Germany -> Danish Sea -> North Sea -> Atlantic",
            Some("North Sea"),
        )],
    );
    rejected(r, 1, &["bomber cannot land on a carrier"]);
}

#[test]
fn no_landing_in_territory_captured_this_turn() {
    // FAQ: "Only air units are prohibited from landing in newly conquered
    // territories."
    let mut b = Board::new();
    b.put("Poland", "Germany", "fighter", 1);
    b.put("Poland", "Germany", "infantry", 1);
    b.combat(
        "Germany",
        vec![
            b.mv("1 infantry", "Poland -> Baltic States", None),
            b.mv("1 fighter", "Poland -> Baltic States", Some("Poland")),
        ],
    )
    .unwrap();
    b.win("Germany", &["Baltic States"]);
    // Staying in the captured territory is not landing somewhere legal.
    let r = b.noncombat("Germany", vec![]);
    rejected(r, 0, &["fighter in Baltic States", "captured this turn"]);
    // Flying back to Poland finishes the move: aircraft may move in the
    // non-combat move after a combat move, within their movement.
    b.noncombat(
        "Germany",
        vec![b.mv("1 fighter", "Baltic States -> Poland", None)],
    )
    .unwrap();
    assert_eq!(b.count("Poland", "Germany", "fighter"), 1);
}

#[test]
fn a_captured_territory_cannot_be_named_as_landing() {
    let mut b = Board::new();
    b.put("Poland", "Germany", "fighter", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    b.own("East Poland", "Germany");
    b.state.captured_this_turn.push(b.s("East Poland"));
    let r = b.combat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Poland -> East Poland -> Belorussia",
            Some("East Poland"),
        )],
    );
    rejected(r, 1, &["East Poland was captured this turn"]);
}

#[test]
fn aircraft_range_covers_the_whole_turn() {
    let mut b = Board::new();
    b.put("Germany", "Germany", "fighter", 1);
    b.put("Karelia", "Soviet Union", "infantry", 1);
    b.own("Vyborg", "Germany");
    b.combat(
        "Germany",
        vec![b.mv(
            "1 fighter",
            "Germany -> Baltic Sea -> Vyborg -> Karelia",
            Some("Vyborg"),
        )],
    )
    .unwrap();
    b.win("Germany", &[]);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 fighter", "Karelia -> Finland -> Norway", None)],
    );
    rejected(
        r,
        1,
        &["fighter in Karelia has only 1 space of movement left"],
    );
}

#[test]
fn fighters_on_a_carrier_need_the_carrier_to_stay() {
    let mut b = Board::new();
    b.put("North Sea", "Germany", "carrier", 1);
    b.put("North Sea", "Germany", "fighter", 2);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 carrier", "North Sea -> Atlantic", None)],
    );
    rejected(r, 0, &["not enough carrier space in North Sea"]);
}
