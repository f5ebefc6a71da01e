//! J Boulton special force teams' missions inside a battle with verifiable
//! dice: a German team ordered to Supply Strike (JB-32) and a Soviet team
//! whose standing orders want Evasive (JB-34); every die of the turn
//! (detection, mission rolls, the battle's `supply-struck` groups) is
//! re-derived by the independent Python verifier from the turn key and its
//! label (`tools/verify_dice.py derive`).

#[path = "common/verify.rs"]
mod verifiers;

use std::collections::BTreeMap;
use std::path::Path;

use adjutant::dice::{Dice, TurnSecret};
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::{GameDef, load_dir, turn};

fn jboulton() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae-jboulton"))
        .expect("games/aae-jboulton loads")
}

/// Germany's infantry and a team attack East Poland, held by Soviet
/// infantry and a Soviet team, with the dice of a turn keyed by `seed`:
/// the turn key in hex and every die by label.
fn attack_with(game: &GameDef, seed: u8) -> (String, BTreeMap<String, Vec<u32>>) {
    let mut state = GameState::initial(game);
    state.units.clear();
    let soviet = game.power("Soviet Union").unwrap();
    let germany = game.power("Germany").unwrap();
    let setup = [
        ("infantry", germany, "Poland", 3),
        ("special force team", germany, "Poland", 1),
        ("infantry", soviet, "East Poland", 2),
        ("special force team", soviet, "East Poland", 1),
    ];
    for (unit, power, at, count) in setup {
        let unit = game
            .unit_types()
            .iter()
            .position(|t| t.name == unit)
            .unwrap();
        for _ in 0..count {
            state.add_unit(unit, power, game.space(at).unwrap());
        }
    }
    let standing = parse_message(
        game,
        "standing:\n  special_force_teams: {missions: [evasive, booby trap]}\n",
    )
    .expect("the standing orders parse");
    state.standing[soviet] = standing.orders.standing.unwrap().item;
    let orders = "combat:\n  - 3 infantry, 1 special force team: Poland -> East Poland\n\
                  battles:\n  East Poland: {special_force_teams: {missions: [supply strike]}}\n";
    let message = parse_message(game, orders).expect("the orders parse");
    let key = TurnSecret::from_bytes([seed; 32]).turn_key("jb-missions", 1, &[]);
    let mut dice = Dice::verifiable(key);
    turn::apply_orders_with_dice(game, &state, germany, &message.orders, &mut dice)
        .expect("the orders are legal");
    verifiers::rolls_by_label(&mut dice, &key)
}

#[test]
fn the_python_verifier_re_derives_every_die_of_a_supply_strike() {
    let game = jboulton();
    // A turn in which the German team passes detection and rolls a 1.
    let (key, dice) = (0u8..=120)
        .map(|seed| attack_with(&game, seed))
        .find(|(_, d)| d.contains_key("battle/East Poland/round/1/defender/supply-struck infantry"))
        .expect("some turn key lets the German team through to a Supply Strike");
    for label in [
        "sft/East Poland/detection/Germany",
        "sft/East Poland/mission/Germany",
        "battle/East Poland/round/1/attacker/infantry",
    ] {
        assert!(dice.contains_key(label), "no {label} dice: {dice:?}");
    }
    // The defenders never fire at full value once the strike is made.
    assert!(
        !dice.keys().any(|l| l.ends_with("/defender/infantry")),
        "{dice:?}"
    );
    verifiers::python_re_derives(&key, &dice);
}
