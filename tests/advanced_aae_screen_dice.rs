//! Advanced AAE's screen procedure (AAAE-48) with verifiable dice: every
//! die the engine draws for it (the rolls to get through the escort
//! screen, the submarines' fire at the capital ships, the destroyers'
//! return fire) and for the battle after it is re-derived by the
//! independent Python verifier from the turn key and its label
//! (`tools/verify_dice.py derive`). The bot's games are not sure to hold a
//! screen, so this sets one up and checks its dice one by one.

#[path = "common/verify.rs"]
mod verifiers;

use std::collections::BTreeMap;
use std::path::Path;

use adjutant::dice::{Dice, TurnSecret};
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::{GameDef, load_dir, turn};

fn advanced() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/advanced-aae"))
        .expect("games/advanced-aae loads")
}

/// Three German submarines attack a British battleship, carrier and two
/// destroyers in the North Sea, two of them trying the screen, with the
/// dice of a turn keyed by `seed`.
fn screen_with(game: &GameDef, seed: u8) -> (String, BTreeMap<String, Vec<u32>>) {
    let mut state = GameState::initial(game);
    state.units.clear();
    let unit = |name: &str| {
        game.unit_types()
            .iter()
            .position(|t| t.name == name)
            .unwrap()
    };
    let germany = game.power("Germany").unwrap();
    let britain = game.power("Britain").unwrap();
    let from = game.space("Danish Sea").unwrap();
    let zone = game.space("North Sea").unwrap();
    for _ in 0..3 {
        state.add_unit(unit("submarine"), germany, from);
    }
    for ship in ["battleship", "carrier", "destroyer", "destroyer"] {
        state.add_unit(unit(ship), britain, zone);
    }
    let message = parse_message(
        game,
        "combat:\n  - 3 submarine: Danish Sea -> North Sea\nbattles:\n  North Sea: {screen: 2}\n",
    )
    .expect("the orders parse");
    let key = TurnSecret::from_bytes([seed; 32]).turn_key("aaae-screen", 1, &[]);
    let mut dice = Dice::verifiable(key);
    turn::apply_orders_with_dice(game, &state, germany, &message.orders, &mut dice)
        .expect("the attack is legal");
    verifiers::rolls_by_label(&mut dice, &key)
}

#[test]
fn the_python_verifier_re_derives_every_die_of_the_screen_procedure() {
    let game = advanced();
    // A turn in which a submarine gets through, so that its fire at the
    // capital ships is drawn too, and the blocked one fires in round 1.
    let (key, dice) = (0u8..=60)
        .map(|seed| screen_with(&game, seed))
        .find(|(_, d)| d.contains_key("screen/North Sea/attacker/submarine"))
        .expect("some turn key gets a submarine through the screen");
    for label in [
        "screen/North Sea/through/submarine",
        "screen/North Sea/attacker/submarine",
        "screen/North Sea/defender/destroyer",
        "battle/North Sea/round/1/attacker/screened submarine",
    ] {
        assert!(dice.contains_key(label), "no {label} dice: {dice:?}");
    }
    // Two dice for the one submarine through (AAAE-46), one per destroyer.
    assert_eq!(dice["screen/North Sea/attacker/submarine"].len(), 2);
    assert_eq!(dice["screen/North Sea/defender/destroyer"].len(), 2);
    verifiers::python_re_derives(&key, &dice);
}
