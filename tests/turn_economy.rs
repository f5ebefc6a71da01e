//! The turn sequence's economy in AAE: purchase, placement, conquest,
//! convoys, income, the Middle East payment, the Patriotic War and victory,
//! each ruling asserted on positions built from `games/aae`.

use std::path::Path;

use adjutant::rules::combat;
use adjutant::rules::events::Event;
use adjutant::rules::income::income;
use adjutant::rules::orders::{Located, OrderError, Orders, Origin, UnitCount, UnitList};
use adjutant::rules::state::{GameState, Phase};
use adjutant::rules::turn::apply_orders;
use adjutant::rules::variants::TakeOver;
use adjutant::rules::{GameDef, SpaceId, load_dir};

fn aae() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).expect("games/aae loads")
}

fn sp(game: &GameDef, name: &str) -> SpaceId {
    game.space(name)
        .unwrap_or_else(|| panic!("no space {name}"))
}

fn pw(game: &GameDef, name: &str) -> usize {
    game.power(name)
        .unwrap_or_else(|| panic!("no power {name}"))
}

fn ut(game: &GameDef, name: &str) -> usize {
    game.unit_types()
        .iter()
        .position(|u| u.name == name)
        .unwrap_or_else(|| panic!("no unit type {name}"))
}

fn list(game: &GameDef, items: &[(u32, &str)]) -> UnitList {
    items
        .iter()
        .map(|&(count, name)| UnitCount {
            unit: ut(game, name),
            count,
        })
        .collect()
}

fn origin(section: &'static str, index: usize) -> Origin {
    Origin {
        section,
        index,
        line: None,
        text: String::new(),
    }
}

fn buy(game: &GameDef, items: &[(u32, &str)]) -> Option<Located<UnitList>> {
    Some(Located {
        item: list(game, items),
        origin: origin("purchase", 0),
    })
}

fn place(game: &GameDef, at: &[(&str, &[(u32, &str)])]) -> Vec<Located<(SpaceId, UnitList)>> {
    at.iter()
        .enumerate()
        .map(|(i, (space, units))| Located {
            item: (sp(game, space), list(game, units)),
            origin: origin("place", i + 1),
        })
        .collect()
}

/// Units of `power` and `unit` type in `space`.
fn count(game: &GameDef, state: &GameState, space: &str, power: &str, unit: &str) -> usize {
    let (s, p, u) = (sp(game, space), pw(game, power), ut(game, unit));
    state
        .units_at(s)
        .filter(|x| x.owner == p && x.unit == u)
        .count()
}

/// A position with only the given units (space, power, unit, count), at
/// `power`'s purchase phase.
fn bare(game: &GameDef, power: &str, units: &[(&str, &str, &str, u32)]) -> GameState {
    let mut state = GameState::initial(game);
    state.units.clear();
    for &(space, owner, unit, n) in units {
        for _ in 0..n {
            state.add_unit(ut(game, unit), pw(game, owner), sp(game, space));
        }
    }
    let p = pw(game, power);
    state.turn = game.turn_order().iter().position(|&q| q == p).unwrap();
    state
}

/// Hands `space` to `power` with nobody's units left in it.
fn give(game: &GameDef, state: &mut GameState, space: &str, power: &str) {
    let s = sp(game, space);
    state.owner[s.0] = Some(pw(game, power));
    state.units.retain(|u| u.at != s);
}

fn errors(result: Result<(GameState, Vec<Event>), Vec<OrderError>>) -> Vec<OrderError> {
    match result {
        Ok(_) => panic!("the message was accepted, but it should be rejected"),
        Err(e) => e,
    }
}

fn has_error(errors: &[OrderError], section: &str, text: &str) -> bool {
    errors
        .iter()
        .any(|e| e.origin.section == section && e.reason.contains(text))
}

fn accepted(result: Result<(GameState, Vec<Event>), Vec<OrderError>>) -> (GameState, Vec<Event>) {
    match result {
        Ok(r) => r,
        Err(e) => {
            let list: Vec<String> = e.iter().map(ToString::to_string).collect();
            panic!("rejected:\n  {}", list.join("\n  "))
        }
    }
}

#[test]
fn setup_income_matches_the_national_production_chart() {
    let game = aae();
    let state = GameState::initial(&game);
    for (power, land, convoys) in [
        ("Germany", 40, 0),
        ("Soviet Union", 20, 4),
        ("United Kingdom", 9, 16),
        ("United States", 30, 10),
    ] {
        let inc = income(&game, &state, pw(&game, power));
        assert_eq!((inc.land, inc.convoys), (land, convoys), "{power}");
        assert_eq!(
            inc.total(),
            state.ipcs[pw(&game, power)],
            "{power}'s treasury"
        );
    }
    assert_eq!(income(&game, &state, pw(&game, "Middle East")).total(), 0);
}

#[test]
fn purchase_pays_from_the_treasury_and_checks_cost() {
    let game = aae();
    let state = GameState::initial(&game);
    let ger = pw(&game, "Germany");
    let orders = Orders {
        purchase: buy(&game, &[(2, "infantry"), (1, "armor"), (1, "infantry")]),
        ..Orders::default()
    };
    let (next, events) = accepted(apply_orders(&game, &state, ger, &orders));
    assert_eq!(next.ipcs[ger], 40 - 3 * 3 - 5);
    assert_eq!(next.phase, Phase::NoncombatMove);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Purchased { cost: 14, .. }))
    );

    let too_much = Orders {
        purchase: buy(&game, &[(2, "battleship")]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, ger, &too_much));
    assert!(has_error(
        &e,
        "purchase",
        "costs 48 IPCs, but Germany has only 40"
    ));

    let factory = Orders {
        purchase: buy(&game, &[(1, "industrial complex")]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, ger, &factory));
    assert!(has_error(
        &e,
        "purchase",
        "no new industrial complex may be built"
    ));
}

#[test]
fn only_the_power_to_move_and_only_its_stages_sections() {
    let game = aae();
    let state = GameState::initial(&game);
    let e = errors(apply_orders(
        &game,
        &state,
        pw(&game, "USSR"),
        &Orders::default(),
    ));
    assert!(e[0].reason.contains("it is Germany's turn"));

    let mut stage2 = state.clone();
    stage2.phase = Phase::NoncombatMove;
    let orders = Orders {
        purchase: buy(&game, &[(1, "infantry")]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &stage2, pw(&game, "Germany"), &orders));
    assert!(has_error(&e, "purchase", "purchase belongs to stage 1"));
}

#[test]
fn newly_built_fighters_only_on_land() {
    // FAQ, Industry: "Newly built fighters can only be placed on a land territory."
    let game = aae();
    let state = bare(
        &game,
        "Germany",
        &[
            ("Germany", "Germany", "industrial complex", 1),
            ("Germany", "Germany", "infantry", 1),
        ],
    );
    let ger = pw(&game, "Germany");
    let mut state = state;
    state.ipcs[ger] = 60;
    let at_sea = Orders {
        purchase: buy(&game, &[(1, "carrier"), (2, "fighter")]),
        place: place(&game, &[("Baltic Sea", &[(1, "carrier"), (2, "fighter")])]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, ger, &at_sea));
    assert!(has_error(&e, "place", "only be placed on a land territory"));
    let on_land = Orders {
        purchase: buy(&game, &[(1, "carrier"), (2, "fighter")]),
        place: place(
            &game,
            &[
                ("Baltic Sea", &[(1, "carrier")]),
                ("Germany", &[(2, "fighter")]),
            ],
        ),
        ..Orders::default()
    };
    let (next, _) = accepted(apply_orders(&game, &state, ger, &on_land));
    assert_eq!(count(&game, &next, "Germany", "Germany", "fighter"), 2);
    assert_eq!(count(&game, &next, "Baltic Sea", "Germany", "carrier"), 1);
}

#[test]
fn ships_may_be_built_into_a_zone_with_enemy_ships() {
    // FAQ, Submarines: "The presence of enemy ships has no effect on naval construction."
    let game = aae();
    let state = bare(
        &game,
        "United States",
        &[
            ("United States", "United States", "industrial complex", 1),
            ("U.S. Eastern Coast", "Germany", "submarine", 1),
            ("U.S. Eastern Coast", "Germany", "battleship", 1),
        ],
    );
    let us = pw(&game, "USA");
    let orders = Orders {
        purchase: buy(&game, &[(1, "destroyer"), (1, "transport")]),
        place: place(
            &game,
            &[("U.S. Eastern Coast", &[(1, "destroyer"), (1, "transport")])],
        ),
        ..Orders::default()
    };
    let (next, _) = accepted(apply_orders(&game, &state, us, &orders));
    assert_eq!(
        count(
            &game,
            &next,
            "U.S. Eastern Coast",
            "United States",
            "destroyer"
        ),
        1
    );
    assert_eq!(
        count(&game, &next, "U.S. Eastern Coast", "Germany", "battleship"),
        1
    );
}

#[test]
fn placement_only_at_complexes_held_since_the_start_of_the_turn() {
    let game = aae();
    let ger = pw(&game, "Germany");
    let state = bare(
        &game,
        "Germany",
        &[
            ("Germany", "Germany", "industrial complex", 1),
            ("Leningrad", "Germany", "industrial complex", 1),
        ],
    );
    // No complex in Poland; ships not next to any complex; a ship on land.
    let orders = Orders {
        purchase: buy(&game, &[(1, "infantry"), (2, "submarine")]),
        place: place(
            &game,
            &[
                ("Poland", &[(1, "infantry")]),
                ("North Sea", &[(1, "submarine")]),
                ("Germany", &[(1, "submarine")]),
            ],
        ),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, ger, &orders));
    assert!(has_error(&e, "place", "Poland has no industrial complex"));
    assert!(has_error(
        &e,
        "place",
        "North Sea is not next to an industrial complex"
    ));
    assert!(has_error(&e, "place", "submarine is a ship"));

    // A complex captured this turn (Leningrad) may not be used; one held by
    // Germany at the start of its turn may, up to the territory's IPC value (1).
    let mut captured = state.clone();
    captured.owner[sp(&game, "Leningrad").0] = Some(ger);
    captured.captured_this_turn.push(sp(&game, "Leningrad"));
    let one = Orders {
        purchase: buy(&game, &[(1, "infantry")]),
        place: place(&game, &[("Leningrad", &[(1, "infantry")])]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &captured, ger, &one));
    assert!(has_error(
        &e,
        "place",
        "Leningrad has no industrial complex that Germany controlled"
    ));

    let mut held = state.clone();
    held.owner[sp(&game, "Leningrad").0] = Some(ger);
    let (next, _) = accepted(apply_orders(&game, &held, ger, &one));
    assert_eq!(count(&game, &next, "Leningrad", "Germany", "infantry"), 1);
    let two = Orders {
        purchase: buy(&game, &[(1, "infantry"), (1, "armor")]),
        place: place(&game, &[("Leningrad", &[(1, "infantry"), (1, "armor")])]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &held, ger, &two));
    assert!(has_error(&e, "place", "its territory's IPC value (1)"));
    // The original complex in Germany has no limit.
    let many = Orders {
        purchase: buy(&game, &[(13, "infantry")]),
        place: place(&game, &[("Germany", &[(13, "infantry")])]),
        ..Orders::default()
    };
    let (next, _) = accepted(apply_orders(&game, &held, ger, &many));
    assert_eq!(count(&game, &next, "Germany", "Germany", "infantry"), 13);
}

#[test]
fn every_unit_bought_is_placed() {
    let game = aae();
    let state = GameState::initial(&game);
    let ger = pw(&game, "Germany");
    let orders = Orders {
        purchase: buy(&game, &[(3, "infantry")]),
        place: place(&game, &[("Germany", &[(2, "infantry")])]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, ger, &orders));
    assert!(has_error(
        &e,
        "place",
        "1 infantry bought this turn and not placed"
    ));
    let over = Orders {
        purchase: buy(&game, &[(1, "infantry")]),
        place: place(&game, &[("Germany", &[(2, "infantry")])]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, ger, &over));
    assert!(has_error(
        &e,
        "place",
        "only 1 infantry bought and not yet placed"
    ));
}

#[test]
fn a_power_without_a_complex_cannot_buy() {
    let game = aae();
    let state = bare(&game, "Germany", &[("Poland", "Germany", "infantry", 1)]);
    let orders = Orders {
        purchase: buy(&game, &[(1, "infantry")]),
        ..Orders::default()
    };
    let e = errors(apply_orders(&game, &state, pw(&game, "Germany"), &orders));
    assert!(has_error(&e, "purchase", "controls no industrial complex"));
}

/// Ends `power`'s turn with an empty stage 1 and stage 2.
fn pass(game: &GameDef, state: &GameState) -> (GameState, Vec<Event>) {
    let power = state.current_power(game);
    let (mid, mut events) = accepted(apply_orders(game, state, power, &Orders::default()));
    let (end, more) = accepted(apply_orders(game, &mid, power, &Orders::default()));
    events.extend(more);
    (end, events)
}

fn income_of(events: &[Event], power: usize) -> Option<u32> {
    events.iter().find_map(|e| match e {
        Event::Income {
            power: p, amount, ..
        } if *p == power => Some(*amount),
        _ => None,
    })
}

#[test]
fn a_lost_convoy_lowers_income_not_the_treasury() {
    // FAQ, Convoys: "losing a Convoy center lowers that country's income ... Do not remove
    // 5 IPCs from Great Britain's bank balance or move Germany's income up by 5."
    let game = aae();
    let (ger, uk) = (pw(&game, "Germany"), pw(&game, "UK"));
    let mut state = GameState::initial(&game);
    state.add_unit(ut(&game, "submarine"), ger, sp(&game, "British Convoy 3"));
    let (after_ger, events) = pass(&game, &state);
    assert_eq!(state.owner[sp(&game, "British Convoy 3").0], Some(uk));
    assert_eq!(after_ger.owner[sp(&game, "British Convoy 3").0], Some(ger));
    assert_eq!(after_ger.ipcs[uk], 25, "the UK treasury is untouched");
    assert_eq!(
        income_of(&events, ger),
        Some(40),
        "Germany collects nothing for it"
    );
    let (after_ussr, _) = pass(&game, &after_ger);
    let (after_uk, events) = pass(&game, &after_ussr);
    assert_eq!(income_of(&events, uk), Some(20));
    assert_eq!(after_uk.ipcs[uk], 45);
}

#[test]
fn the_soviet_convoy_needs_archangel() {
    // FAQ, Convoys: Archangel lost = 1 + 4; the box stays Soviet; recapture restores it;
    // a German-held box stays German after Archangel is liberated.
    let game = aae();
    let (ger, ussr) = (pw(&game, "Germany"), pw(&game, "USSR"));
    let arch = sp(&game, "Archangel");
    let convoy = sp(&game, "Soviet Convoy");
    let mut state = GameState::initial(&game);
    state.owner[arch.0] = Some(ger);
    let inc = income(&game, &state, ussr);
    assert_eq!((inc.land, inc.convoys), (19, 0));
    assert_eq!(
        state.owner[convoy.0],
        Some(ussr),
        "taking Archangel gives Germany no box"
    );
    state.owner[arch.0] = Some(ussr);
    state.owner[convoy.0] = Some(ger);
    assert_eq!(income(&game, &state, ussr).total(), 20);
    assert_eq!(
        income(&game, &state, ger).total(),
        40,
        "the convoy IPCs are sunk"
    );
}

#[test]
fn a_submerged_sub_takes_the_convoy_when_the_enemy_ships_leave() {
    // FAQ, Submarines: German sub submerged in a convoy with enemy ships; the Allied
    // ships move out on their turn: the convoy is in German hands.
    let game = aae();
    let (ger, uk) = (pw(&game, "Germany"), pw(&game, "UK"));
    let bc1 = sp(&game, "British Convoy 1");
    let mut state = GameState::initial(&game);
    let sub = state.add_unit(ut(&game, "submarine"), ger, bc1);
    state.unit_mut(sub).unwrap().submerged = true;
    let dd = state.add_unit(ut(&game, "destroyer"), uk, bc1);
    let (after_ger, _) = pass(&game, &state);
    assert_eq!(
        after_ger.owner[bc1.0],
        Some(uk),
        "both sides present: unchanged"
    );
    let (mut after_ussr, _) = pass(&game, &after_ger);
    // The British destroyer sails away during the UK's turn.
    after_ussr.units.retain(|u| u.id != dd);
    let (after_uk, events) = pass(&game, &after_ussr);
    assert_eq!(after_uk.owner[bc1.0], Some(ger));
    assert_eq!(income_of(&events, uk), Some(22));
}

#[test]
fn middle_east_payment_goes_from_the_allies_to_germany() {
    // FAQ, Industry: the Allies pay the territories' value directly to Germany; holding
    // them gives the Allies nothing; the bank is not involved.
    let game = aae();
    let (ger, ussr, uk, us) = (
        pw(&game, "Germany"),
        pw(&game, "USSR"),
        pw(&game, "UK"),
        pw(&game, "USA"),
    );
    let mut state = GameState::initial(&game);
    state.owner[sp(&game, "Egypt").0] = Some(ger);
    state.owner[sp(&game, "Iraq").0] = Some(ger);
    state.ipcs = vec![0, 5, 10, 2, 0];
    let (next, events) = pass(&game, &state);
    let payment = events
        .iter()
        .find_map(|e| match e {
            Event::Special { rule, detail } if rule == "Middle East payment" => Some(detail),
            _ => None,
        })
        .expect("a Middle East payment");
    assert!(
        payment.contains("United Kingdom paid Germany 3 IPCs"),
        "{payment}"
    );
    assert_eq!(
        income_of(&events, ger),
        Some(40),
        "Egypt and Iraq pay through the Allies only"
    );
    assert_eq!(next.ipcs[ger], 43);
    assert_eq!((next.ipcs[ussr], next.ipcs[uk], next.ipcs[us]), (5, 7, 2));
    // Allied-held Middle East: nothing to anyone.
    let plain = GameState::initial(&game);
    let (_, events) = pass(&game, &plain);
    assert!(
        !events
            .iter()
            .any(|e| matches!(e, Event::Special { rule, .. } if rule == "Middle East payment"))
    );
}

#[test]
fn a_power_whose_capital_is_held_collects_nothing() {
    let game = aae();
    let ussr = pw(&game, "USSR");
    let mut state = GameState::initial(&game);
    give(&game, &mut state, "Moscow", "Germany");
    let (after_ger, _) = pass(&game, &state);
    let (after_ussr, events) = pass(&game, &after_ger);
    assert_eq!(income_of(&events, ussr), Some(0));
    assert_eq!(after_ussr.ipcs[ussr], 24);
}

#[test]
fn empty_land_is_taken_without_dice_and_defended_battles_are_fought() {
    let game = aae();
    let (ger, ussr) = (pw(&game, "Germany"), pw(&game, "USSR"));
    let karelia = sp(&game, "Karelia");
    let mut state = bare(
        &game,
        "Germany",
        &[
            ("Karelia", "Germany", "infantry", 1),
            ("Karelia", "Soviet Union", "AA gun", 1),
        ],
    );
    state.battles.push(karelia);
    let mut events = Vec::new();
    let mut taken = state.clone();
    combat::fight_battles(&game, &mut taken, ger, &[], &[], None, &mut events).unwrap();
    assert_eq!(taken.owner[karelia.0], Some(ger));
    assert!(taken.battles.is_empty());
    assert_eq!(taken.captured_this_turn, vec![karelia]);
    assert_eq!(
        count(&game, &taken, "Karelia", "Germany", "AA gun"),
        1,
        "the AA gun is taken"
    );

    let mut defended = state.clone();
    defended.add_unit(ut(&game, "infantry"), ussr, karelia);
    // A defended battle needs dice: without them nothing changes; with them
    // it is fought (the German infantry hits, the Soviet one misses).
    let before = defended.clone();
    let out =
        combat::fight_battles(&game, &mut defended, ger, &[], &[], None, &mut events).unwrap();
    assert!(out.needs_dice);
    assert_eq!(defended, before);
    let mut dice = adjutant::dice::ScriptedDice::sequence([1, 6]);
    let out = combat::fight_battles(
        &game,
        &mut defended,
        ger,
        &[],
        &[],
        Some(&mut dice),
        &mut events,
    )
    .unwrap();
    assert!(out.dice_rolled);
    assert_eq!(defended.owner[karelia.0], Some(ger));
    // Aircraft attacking a territory with an AA gun meet its fire: a battle.
    let mut flak = state.clone();
    flak.add_unit(ut(&game, "fighter"), ger, karelia);
    let out = combat::fight_battles(&game, &mut flak, ger, &[], &[], None, &mut events).unwrap();
    assert!(out.needs_dice, "the AA gun fires at the fighter");
}

#[test]
fn liberated_territory_returns_to_its_owner() {
    let game = aae();
    let (ger, ussr, uk) = (pw(&game, "Germany"), pw(&game, "USSR"), pw(&game, "UK"));
    let karelia = sp(&game, "Karelia");
    let mut state = bare(
        &game,
        "United Kingdom",
        &[("Karelia", "United Kingdom", "infantry", 1)],
    );
    state.owner[karelia.0] = Some(ger);
    state.battles.push(karelia);
    let mut events = Vec::new();
    combat::fight_battles(&game, &mut state, uk, &[], &[], None, &mut events).unwrap();
    assert_eq!(state.owner[karelia.0], Some(ussr));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Captured {
            liberated: true,
            ..
        }
    )));
}

#[test]
fn patriotic_war_only_in_soviet_complex_territories() {
    // FAQ, 2nd-edition change 2 and Miscellaneous: only in Leningrad, Stalingrad,
    // Archangel and Moscow; never sea zones, never ships.
    let game = aae();
    let (ussr, uk, us) = (pw(&game, "USSR"), pw(&game, "UK"), pw(&game, "USA"));
    let mut state = GameState::initial(&game);
    let moscow = sp(&game, "Moscow");
    let russia = sp(&game, "Russia");
    let white = sp(&game, "White Sea");
    state.add_unit(ut(&game, "armor"), uk, moscow);
    state.add_unit(ut(&game, "fighter"), us, moscow);
    state.add_unit(ut(&game, "armor"), uk, russia);
    state.add_unit(ut(&game, "destroyer"), uk, white);
    let hooks = game.rule_set();
    let mut events = Vec::new();
    let take = |space, from, units| TakeOver { space, from, units };
    let e = hooks
        .take_over_units(
            &game,
            &mut state,
            ussr,
            &take(russia, uk, list(&game, &[(1, "armor")])),
            &mut events,
        )
        .unwrap_err();
    assert!(e.contains("no Soviet industrial complex"), "{e}");
    let e = hooks
        .take_over_units(
            &game,
            &mut state,
            ussr,
            &take(white, uk, list(&game, &[(1, "destroyer")])),
            &mut events,
        )
        .unwrap_err();
    assert!(e.contains("never applies at sea"), "{e}");
    let e = hooks
        .take_over_units(
            &game,
            &mut state,
            uk,
            &take(moscow, us, list(&game, &[(1, "fighter")])),
            &mut events,
        )
        .unwrap_err();
    assert!(e.contains("only the Soviet Union"), "{e}");
    hooks
        .take_over_units(
            &game,
            &mut state,
            ussr,
            &take(moscow, uk, list(&game, &[(1, "armor")])),
            &mut events,
        )
        .unwrap();
    hooks
        .take_over_units(
            &game,
            &mut state,
            ussr,
            &take(moscow, us, list(&game, &[(1, "fighter")])),
            &mut events,
        )
        .unwrap();
    assert_eq!(count(&game, &state, "Moscow", "United Kingdom", "armor"), 0);
    assert_eq!(count(&game, &state, "Moscow", "Soviet Union", "armor"), 2);
    assert_eq!(count(&game, &state, "Moscow", "Soviet Union", "fighter"), 2);
    assert_eq!(count(&game, &state, "Russia", "United Kingdom", "armor"), 1);
}

#[test]
fn germany_wins_holding_an_enemy_capital_with_its_own_for_a_complete_round() {
    // FAQ, Victory Conditions: both capitals, simultaneously, for one complete round
    // (the end of your turn until the end of your next turn).
    let game = aae();
    let ger = pw(&game, "Germany");
    let moscow = sp(&game, "Moscow");
    let mut state = GameState::initial(&game);
    give(&game, &mut state, "Moscow", "Germany");
    let mut s = state.clone();
    for _ in 0..4 {
        let (next, events) = pass(&game, &s);
        assert!(!events.iter().any(|e| matches!(e, Event::Victory { .. })));
        s = next;
    }
    assert_eq!((s.round, s.winner), (2, None));
    let (won, events) = pass(&game, &s);
    assert_eq!(won.winner, Some(game.side_of(ger)));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::Victory { side, .. } if side == "Axis"))
    );
    let e = errors(apply_orders(
        &game,
        &won,
        won.current_power(&game),
        &Orders::default(),
    ));
    assert!(e[0].reason.contains("the game is over"));

    // Moscow liberated for a moment (held by the USSR at the end of a turn): the
    // count starts again.
    let mut s = state.clone();
    for i in 0..5 {
        if i == 2 {
            s.owner[moscow.0] = Some(pw(&game, "USSR"));
        }
        if i == 3 {
            s.owner[moscow.0] = Some(ger);
        }
        let (next, _) = pass(&game, &s);
        s = next;
    }
    assert_eq!(s.winner, None);
}

#[test]
fn allied_victory_follows_the_option() {
    // Option `allied_victory`, default germany_and_own_capital: an Allied power holding
    // Germany with its own capital for a complete round.
    let game = aae();
    let uk = pw(&game, "UK");
    let mut s = GameState::initial(&game);
    give(&game, &mut s, "Germany", "United Kingdom");
    let mut winner = None;
    for _ in 0..8 {
        let (next, events) = pass(&game, &s);
        if events.iter().any(|e| matches!(e, Event::Victory { .. })) {
            winner = Some((next.round, next.turn));
            s = next;
            break;
        }
        s = next;
    }
    // Held at the end of the UK's turn in round 1, won at the end of its turn in round 2.
    assert_eq!(s.winner, Some(game.side_of(uk)));
    assert_eq!(winner, Some((2, 3)));
}
