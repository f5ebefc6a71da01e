//! J Boulton special force teams' missions inside a battle with verifiable
//! dice: a German team ordered to Supply Strike (JB-32) and a Soviet team
//! whose standing orders want Evasive (JB-34); a German team's Disruption
//! (JB-29) with isolated units (JB-40). Every die of the turn (detection,
//! mission rolls, the battle's `supply-struck` groups, the strike's
//! round-1 firing group) is re-derived by the independent Python verifier
//! from the turn key and its label (`tools/verify_dice.py derive`).

#[path = "common/verify.rs"]
mod verifiers;

#[path = "jboulton_turns/mod.rs"]
mod turns;

use std::collections::BTreeMap;

use adjutant::rules::GameDef;
use adjutant::rules::orders::parse::parse_message;
use turns::{board, jboulton};

/// Germany's `orders` on `state`, with the dice of a turn keyed by `seed`.
fn play(
    game: &GameDef,
    state: &adjutant::rules::state::GameState,
    orders: &str,
    seed: u8,
) -> (String, BTreeMap<String, Vec<u32>>) {
    turns::turn_on(game, state, orders, "jb-missions", seed)
}

/// Germany's infantry and a team attack East Poland, held by Soviet
/// infantry and a Soviet team, with the dice of a turn keyed by `seed`.
fn attack_with(game: &GameDef, seed: u8) -> (String, BTreeMap<String, Vec<u32>>) {
    let mut state = board(
        game,
        &[
            ("infantry", "Germany", "Poland", 3),
            ("special force team", "Germany", "Poland", 1),
            ("infantry", "Soviet Union", "East Poland", 2),
            ("special force team", "Soviet Union", "East Poland", 1),
        ],
    );
    let soviet = game.power("Soviet Union").unwrap();
    let standing = parse_message(
        game,
        "standing:\n  special_force_teams: {missions: [evasive, booby trap]}\n",
    )
    .expect("the standing orders parse");
    state.standing[soviet] = standing.orders.standing.unwrap().item;
    let orders = "combat:\n  - 3 infantry, 1 special force team: Poland -> East Poland\n\
                  battles:\n  East Poland: {special_force_teams: {missions: [supply strike]}}\n";
    play(game, &state, orders, seed)
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

#[test]
fn the_python_verifier_re_derives_a_disruption_strike_in_its_round_1_firing_group() {
    let game = jboulton();
    // Belorussia, German and surrounded by Soviet land, is out of supply:
    // its armor attacks at 2 (JB-40), and so does its Disruption strike.
    let mut state = board(
        &game,
        &[
            ("armor", "Germany", "Belorussia", 1),
            ("infantry", "Germany", "Belorussia", 1),
            ("special force team", "Germany", "Russia", 1),
            ("infantry", "Soviet Union", "Russia", 2),
        ],
    );
    let belorussia = game.space("Belorussia").unwrap();
    state.owner[belorussia.0] = game.power("Germany");
    let orders = "combat:\n  - 1 armor, 1 infantry: Belorussia -> Russia\n";
    let (key, dice) = (0u8..=120)
        .map(|seed| play(&game, &state, orders, seed))
        .find(|(_, d)| d.contains_key("sft/Russia/disruption/isolated armor"))
        .expect("some turn key lets the German team through to a Disruption");
    for label in [
        "sft/Russia/detection/Germany",
        "sft/Russia/mission/Germany",
        "battle/Russia/round/1/attacker/isolated infantry",
    ] {
        assert!(dice.contains_key(label), "no {label} dice: {dice:?}");
    }
    // The strike is the armor's round-1 shot: it never fires at 3, and
    // does not roll again in round 1.
    assert!(
        !dice.contains_key("sft/Russia/disruption/armor")
            && !dice.contains_key("battle/Russia/round/1/attacker/isolated armor"),
        "{dice:?}"
    );
    verifiers::python_re_derives(&key, &dice);
}
