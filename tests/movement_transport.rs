//! Transports: what may share one, loading and unloading, amphibious
//! assaults, and the FAQ's transport rulings ("Amphibious Assault,
//! Transport, Naval Movement, Naval Combat"; "Submarines").

mod movement_common;

use movement_common::{Board, rejected};

#[test]
fn an_amphibious_assault_unloads_into_a_battle() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "infantry", 2);
    b.own("Finland", "Soviet Union");
    b.put("Finland", "Soviet Union", "infantry", 1);
    b.combat(
        "Germany",
        vec![b.tr(
            "Baltic Sea",
            &[("2 infantry", "Germany", None)],
            Some("Finland"),
        )],
    )
    .unwrap();
    assert_eq!(b.battles(), ["Finland"]);
    assert_eq!(b.count("Finland", "Germany", "infantry"), 2);
    let inf: Vec<_> = b
        .state
        .units
        .iter()
        .filter(|u| u.at == b.s("Finland") && u.owner == b.p("Germany"))
        .collect();
    assert!(
        inf.iter()
            .all(|u| u.unloaded_from == Some(b.s("Baltic Sea")) && u.cargo_of.is_none())
    );
    let t = b
        .state
        .units
        .iter()
        .find(|u| u.unit == b.u("transport"))
        .unwrap();
    assert_eq!(t.unloaded_to, Some(b.s("Finland")));
}

#[test]
fn a_transport_carries_its_cargo_along_its_path() {
    let mut b = Board::new();
    b.put("Danish Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "armor", 1);
    b.combat(
        "Germany",
        vec![b.tr(
            "Danish Sea -> Baltic Sea",
            &[("1 armor", "Germany", None)],
            Some("Finland"),
        )],
    )
    .unwrap();
    assert_eq!(b.count("Finland", "Germany", "armor"), 1);
    assert_eq!(b.count("Baltic Sea", "Germany", "transport"), 1);
}

#[test]
fn infantry_and_artillery_share_a_transport_but_armor_rides_alone() {
    // FAQ: "Can I load an infantry unit and an artillery unit on the same
    // transport? Yes." Capacity 4: infantry and artillery 2, armor 3.
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "infantry", 1);
    b.put("Germany", "Germany", "artillery", 1);
    b.put("Germany", "Germany", "armor", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.tr(
            "Baltic Sea",
            &[("1 armor, 1 infantry", "Germany", None)],
            None,
        )],
    );
    rejected(r, 1, &["can carry 4 cargo points", "would need 5"]);
    b.noncombat(
        "Germany",
        vec![b.tr(
            "Baltic Sea",
            &[("1 infantry, 1 artillery", "Germany", None)],
            Some("Poland"),
        )],
    )
    .unwrap();
    assert_eq!(b.count("Poland", "Germany", "artillery"), 1);
}

#[test]
fn aircraft_are_not_cargo() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "fighter", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.tr("Baltic Sea", &[("1 fighter", "Germany", None)], None)],
    );
    rejected(r, 1, &["fighter cannot be carried by a transport"]);
}

#[test]
fn units_that_moved_may_not_load() {
    // FAQ: "A unit cannot move before loading into a transport".
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Czechoslovakia", "Germany", "infantry", 1);
    let r = b.noncombat(
        "Germany",
        vec![
            b.mv("1 infantry", "Czechoslovakia -> Germany", None),
            b.tr("Baltic Sea", &[("1 infantry", "Germany", None)], None),
        ],
    );
    rejected(r, 2, &["infantry in Germany", "may not load"]);
}

#[test]
fn no_blitzing_off_a_transport() {
    // FAQ: "Can armor blitz off of a transport ...? No. A unit cannot move
    // ... after unloading from a transport."
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "armor", 1);
    let r = b.combat(
        "Germany",
        vec![
            b.tr(
                "Baltic Sea",
                &[("1 armor", "Germany", None)],
                Some("Baltic States"),
            ),
            b.mv("1 armor", "Baltic States -> Leningrad", None),
        ],
    );
    rejected(
        r,
        2,
        &["armor in Baltic States was unloaded from a transport this turn"],
    );
}

#[test]
fn unloaded_units_do_not_move_in_the_noncombat_move() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "armor", 1);
    b.combat(
        "Germany",
        vec![b.tr(
            "Baltic Sea",
            &[("1 armor", "Germany", None)],
            Some("Baltic States"),
        )],
    )
    .unwrap();
    b.win("Germany", &["Baltic States"]);
    let r = b.noncombat(
        "Germany",
        vec![b.mv("1 armor", "Baltic States -> Poland", None)],
    );
    rejected(r, 1, &["unloaded from a transport"]);
}

#[test]
fn a_transport_unloads_into_one_territory() {
    // FAQ: a transport carrying two units may unload one in an amphibious
    // attack and the other in the non-combat move, into the same territory.
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Baltic Sea", "Germany", "infantry", 1);
    b.put("Baltic Sea", "Germany", "AA gun", 1);
    b.combat(
        "Germany",
        vec![b.tr("Baltic Sea", &[], Some("Baltic States"))],
    )
    .unwrap();
    assert_eq!(b.count("Baltic States", "Germany", "infantry"), 1);
    assert_eq!(
        b.count("Baltic Sea", "Germany", "AA gun"),
        1,
        "an AA gun does not attack"
    );
    b.win("Germany", &["Baltic States"]);
    let r = b.noncombat("Germany", vec![b.tr("Baltic Sea", &[], Some("Poland"))]);
    rejected(
        r,
        1,
        &["already unloaded into Baltic States", "only one territory"],
    );
    b.noncombat(
        "Germany",
        vec![b.tr("Baltic Sea", &[], Some("Baltic States"))],
    )
    .unwrap();
    assert_eq!(b.count("Baltic States", "Germany", "AA gun"), 1);
}

#[test]
fn a_transport_may_not_move_after_unloading() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "infantry", 1);
    let r = b.noncombat(
        "Germany",
        vec![
            b.tr(
                "Baltic Sea",
                &[("1 infantry", "Germany", None)],
                Some("Poland"),
            ),
            b.tr("Baltic Sea -> Danish Sea", &[], None),
        ],
    );
    // The only transport already moved in order 1.
    rejected(r, 2, &["transport in Baltic Sea"]);
    let mut b = Board::new();
    let t = b.put("Baltic Sea", "Germany", "transport", 1)[0];
    b.state.unit_mut(t).unwrap().unloaded_to = Some(b.s("Poland"));
    let r = b.noncombat("Germany", vec![b.tr("Baltic Sea -> Danish Sea", &[], None)]);
    rejected(
        r,
        1,
        &["transport in Baltic Sea already unloaded this turn"],
    );
}

#[test]
fn enemy_submarines_block_loading_in_the_combat_move() {
    // FAQ: "a transport in a sea zone with enemy subs can't load troops
    // during Combat Movement, but it will be able to load troops during
    // Non-combat Movement ... (submerged subs don't prevent loading or
    // unloading)".
    let mut b = Board::new();
    b.put("North Sea", "United Kingdom", "transport", 1);
    b.put("United Kingdom", "United Kingdom", "infantry", 2);
    let sub = b.put("North Sea", "Germany", "submarine", 1)[0];
    let r = b.combat(
        "United Kingdom",
        vec![b.tr(
            "North Sea",
            &[("2 infantry", "United Kingdom", None)],
            Some("Norway"),
        )],
    );
    rejected(
        r,
        1,
        &["cannot load during combat movement", "enemy submarines"],
    );
    // The sub submerged in the battle: loading in the non-combat move is fine.
    b.combat("United Kingdom", vec![]).unwrap();
    assert_eq!(b.battles(), ["North Sea"]);
    b.state.unit_mut(sub).unwrap().submerged = true;
    b.state.battles.clear();
    b.noncombat(
        "United Kingdom",
        vec![b.tr("North Sea", &[("2 infantry", "United Kingdom", None)], None)],
    )
    .unwrap();
    assert_eq!(b.count("North Sea", "United Kingdom", "infantry"), 2);
}

#[test]
fn a_transport_that_fought_loads_but_does_not_move_in_the_noncombat_move() {
    // FAQ: "a transport that survives combat can either load or unload
    // during Non-combat Movement".
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Baltic Sea", "Germany", "destroyer", 1);
    b.put("Danish Sea", "United Kingdom", "destroyer", 1);
    b.put("Denmark", "Germany", "infantry", 1);
    b.combat(
        "Germany",
        vec![b.mv("1 destroyer, 1 transport", "Baltic Sea -> Danish Sea", None)],
    )
    .unwrap();
    b.win("Germany", &["Danish Sea"]);
    let r = b.noncombat("Germany", vec![b.tr("Danish Sea -> North Sea", &[], None)]);
    rejected(r, 1, &["moved in the combat move"]);
    b.noncombat(
        "Germany",
        vec![b.tr("Danish Sea", &[("1 infantry", "Denmark", None)], None)],
    )
    .unwrap();
    assert_eq!(b.count("Danish Sea", "Germany", "infantry"), 1);
}

#[test]
fn noncombat_unloading_stays_in_friendly_territory() {
    let mut b = Board::new();
    b.put("Baltic Sea", "Germany", "transport", 1);
    b.put("Baltic Sea", "Germany", "infantry", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.tr("Baltic Sea", &[], Some("Baltic States"))],
    );
    rejected(
        r,
        1,
        &["Baltic States is enemy territory", "amphibious assault"],
    );
}

#[test]
fn cargo_loads_along_the_path() {
    let mut b = Board::new();
    b.put("Danish Sea", "Germany", "transport", 1);
    b.put("Poland", "Germany", "infantry", 1);
    b.noncombat(
        "Germany",
        vec![b.tr(
            "Danish Sea -> Baltic Sea",
            &[("1 infantry", "Poland", Some("Baltic Sea"))],
            Some("Germany"),
        )],
    )
    .unwrap();
    assert_eq!(b.count("Germany", "Germany", "infantry"), 1);
    let mut b = Board::new();
    b.put("Danish Sea", "Germany", "transport", 1);
    b.put("Germany", "Germany", "infantry", 1);
    let r = b.noncombat(
        "Germany",
        vec![b.tr(
            "Danish Sea",
            &[("1 infantry", "Germany", Some("North Sea"))],
            None,
        )],
    );
    rejected(r, 1, &["North Sea is not on the transport's path"]);
}
