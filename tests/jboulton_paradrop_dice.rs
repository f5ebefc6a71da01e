//! J Boulton paradrops with verifiable dice: every die the engine draws for
//! a drop (AA fire at the air transports, jump-out, the landing roll, the
//! surprise first strike, the battle) is re-derived by the independent
//! Python verifier from the turn key and its label
//! (`tools/verify_dice.py derive`), one by one, the jump-out dice of a
//! carrier shot down included (which `tests/jboulton_full_game.rs`, a whole
//! game's log checked by both verifiers, does not make sure of), and so is
//! every die of special force team detection.

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

/// The units placed for a turn: (unit type, power, territory, count).
type Setup<'a> = &'a [(&'a str, &'a str, &'a str, usize)];

/// `orders` of Germany on a board holding only `setup`, with the dice of a
/// turn keyed by `seed`: the turn key in hex and every die by label.
fn turn_with(
    game: &GameDef,
    setup: Setup,
    orders: &str,
    seed: u8,
) -> (String, BTreeMap<String, Vec<u32>>) {
    turn_on(game, &board(game, setup), orders, seed)
}

/// A board holding only `setup`.
fn board(game: &GameDef, setup: Setup) -> GameState {
    let mut state = GameState::initial(game);
    state.units.clear();
    for &(unit, power, at, count) in setup {
        let unit = game
            .unit_types()
            .iter()
            .position(|t| t.name == unit)
            .unwrap();
        let power = game.power(power).unwrap();
        let at = game.space(at).unwrap();
        for _ in 0..count {
            state.add_unit(unit, power, at);
        }
    }
    state
}

/// `orders` of Germany on `state`, as [`turn_with`].
fn turn_on(
    game: &GameDef,
    state: &GameState,
    orders: &str,
    seed: u8,
) -> (String, BTreeMap<String, Vec<u32>>) {
    let germany = game.power("Germany").unwrap();
    let message = parse_message(game, orders).expect("the orders parse");
    let key = TurnSecret::from_bytes([seed; 32]).turn_key("jb-paradrop", 1, &[]);
    let mut dice = Dice::verifiable(key);
    turn::apply_orders_with_dice(game, state, germany, &message.orders, &mut dice)
        .expect("the orders are legal");
    verifiers::rolls_by_label(&mut dice, &key)
}

/// Germany drops six paratroopers on East Poland, held by two Soviet
/// infantry and an AA gun, with the dice of a turn keyed by `seed`.
fn drop_with(game: &GameDef, seed: u8) -> (String, BTreeMap<String, Vec<u32>>) {
    turn_with(
        game,
        &[
            ("air transport", "Germany", "Germany", 6),
            ("paratrooper", "Germany", "Germany", 6),
            ("infantry", "Soviet Union", "East Poland", 2),
            ("AA gun", "Soviet Union", "East Poland", 1),
        ],
        "combat:\n  - 6 air transports, 6 paratroopers: Germany -> Poland -> East Poland, land Poland\n",
        seed,
    )
}

use verifiers::python_re_derives;

#[test]
fn the_python_verifier_re_derives_every_die_of_a_paradrop() {
    let game = jboulton();
    // A turn whose AA fire shoots a carrier down, so that the jump-out
    // dice are drawn too.
    let (key, dice) = (0u8..=60)
        .map(|seed| drop_with(&game, seed))
        .find(|(_, d)| d.contains_key("paradrop/East Poland/jump-out"))
        .expect("some turn key shoots an air transport down");
    for label in [
        "aa/East Poland/air transport",
        "paradrop/East Poland/jump-out",
        "paradrop/East Poland/landing",
    ] {
        assert!(dice.contains_key(label), "no {label} dice: {dice:?}");
    }
    python_re_derives(&key, &dice);
}

/// Special force teams' dice (JB-26, JB-27, JB-29): a team walking in with
/// an infantry and three dropped beside a paratrooper face detection by the
/// two Soviet infantry, and the Soviet team there by Germany's infantry;
/// the walking team rolls for its mission and its infantry strikes first.
/// The Python verifier re-derives every die of the turn (detection, mission
/// roll, Disruption, AA fire, landing roll, battle).
#[test]
fn the_python_verifier_re_derives_every_die_of_special_force_teams() {
    let game = jboulton();
    let setup: Setup = &[
        ("air transport", "Germany", "Germany", 2),
        ("paratrooper", "Germany", "Germany", 1),
        ("special force team", "Germany", "Germany", 3),
        ("infantry", "Germany", "Poland", 1),
        ("special force team", "Germany", "Poland", 1),
        ("infantry", "Soviet Union", "East Poland", 2),
        ("AA gun", "Soviet Union", "East Poland", 1),
        ("special force team", "Soviet Union", "East Poland", 1),
    ];
    let orders = "combat:\n  - 2 air transports, 1 paratrooper, 3 special force teams: Germany -> \
                  Poland -> East Poland, land Poland\n  - 1 infantry, 1 special force team: Poland \
                  -> East Poland\n";
    // A turn in which the walking German team passes detection, so that
    // its mission roll and its Disruption strike are drawn too.
    let (key, dice) = (0u8..=60)
        .map(|seed| turn_with(&game, setup, orders, seed))
        .find(|(_, d)| d.contains_key("sft/East Poland/mission/Germany"))
        .expect("some turn key lets the German team through");
    for label in [
        "sft/East Poland/detection/Germany",
        "sft/East Poland/detection/Soviet Union",
        "sft/East Poland/mission/Germany",
        "sft/East Poland/disruption/infantry",
        "paradrop/East Poland/landing",
    ] {
        assert!(dice.contains_key(label), "no {label} dice: {dice:?}");
    }
    // Two Soviet infantry search each German team, present or dropped.
    let german = dice["sft/East Poland/detection/Germany"].len();
    assert!(german % 2 == 0 && german >= 2, "{dice:?}");
    // The Soviet team standing there is searched before the drop lands
    // (digest Part C step 1): by the German infantry alone, not by German
    // teams nor by the paratrooper still aboard.
    assert_eq!(dice["sft/East Poland/detection/Soviet Union"].len(), 1);
    python_re_derives(&key, &dice);
}

/// Special force teams outside battles (JB-26 sweep and mission trigger,
/// JB-31, JB-35): in Germany's turn its two infantry in Poland sweep the
/// two British teams there, whose survivors try Aversion on an infantry
/// before the combat move (British standing orders), and three German
/// teams in the United Kingdom, searched by its infantry, try an Industrial
/// Strike. The Python verifier re-derives every die of the turn.
#[test]
fn the_python_verifier_re_derives_every_die_of_missions_outside_battles() {
    let game = jboulton();
    let mut state = board(
        &game,
        &[
            ("infantry", "Germany", "Poland", 2),
            ("special force team", "United Kingdom", "Poland", 2),
            ("infantry", "United Kingdom", "United Kingdom", 1),
            ("industrial complex", "United Kingdom", "United Kingdom", 1),
            ("special force team", "Germany", "United Kingdom", 3),
        ],
    );
    let uk = game.power("United Kingdom").unwrap();
    state.standing[uk] = parse_message(&game, "standing:\n  aversion:\n    Poland: infantry\n")
        .expect("standing orders parse")
        .orders
        .standing
        .expect("standing orders")
        .item;
    let orders = "industrial_strike:\n  United Kingdom: 3\n";
    let labels = [
        "sft/Poland/sweep/United Kingdom",
        "sft/Poland/aversion/United Kingdom",
        "sft/United Kingdom/detection/Germany",
        "sft/United Kingdom/mission/Germany",
        "sft/United Kingdom/industrial strike",
    ];
    // A turn in which a British team outlives the sweep and a German team
    // strikes, so that every kind of die is drawn.
    let (key, dice) = (0u8..=60)
        .map(|seed| turn_on(&game, &state, orders, seed))
        .find(|(_, d)| labels.iter().all(|l| d.contains_key(*l)))
        .expect("some turn key draws every die of the missions");
    // Two German infantry sweep each British team; one British infantry
    // searches each German team before its mission.
    assert_eq!(dice["sft/Poland/sweep/United Kingdom"].len(), 4);
    assert_eq!(dice["sft/United Kingdom/detection/Germany"].len(), 3);
    python_re_derives(&key, &dice);
}

/// A drop of special force teams alone (JB-16, JB-31): three German teams
/// glide into the Ukraine, where a fourth stands beside a Soviet infantry
/// and industrial complex, and the stage orders an Industrial Strike by
/// all four. The standing team faces detection and rolls its mission
/// before the battles; the dropped ones that roll 6 on landing strike at
/// once, without either. The Python verifier re-derives every die of the
/// turn, the strike dice of both drawn under the one label.
#[test]
fn the_python_verifier_re_derives_every_die_of_a_surprise_industrial_strike() {
    let game = jboulton();
    let setup: Setup = &[
        ("air transport", "Germany", "Germany", 1),
        ("special force team", "Germany", "Germany", 3),
        ("infantry", "Soviet Union", "Ukraine S.S.R.", 1),
        ("industrial complex", "Soviet Union", "Ukraine S.S.R.", 1),
        ("special force team", "Germany", "Ukraine S.S.R.", 1),
    ];
    let orders = "combat:\n  - 1 air transport, 3 special force teams: Germany -> Poland -> East \
                  Poland -> Ukraine S.S.R., land Poland\nindustrial_strike:\n  Ukraine S.S.R.: 4\n";
    const LANDING: &str = "paradrop/Ukraine S.S.R./landing";
    const STRIKE: &str = "sft/Ukraine S.S.R./industrial strike";
    const MISSION: &str = "sft/Ukraine S.S.R./mission/Germany";
    // How many teams struck: the standing one on a mission roll of 1-2,
    // and each dropped one that rolled 6 on landing.
    let struck = |d: &BTreeMap<String, Vec<u32>>| {
        let standing = d.get(MISSION).is_some_and(|m| m[0] <= 2);
        let sixes = d[LANDING].iter().filter(|&&v| v == 6).count();
        (usize::from(standing), sixes)
    };
    // A turn in which the standing team and some dropped team both strike.
    let (key, dice) = (0u8..=120)
        .map(|seed| turn_with(&game, setup, orders, seed))
        .find(|(_, d)| struck(d) >= (1, 1))
        .expect("some turn key lets both kinds of team strike");
    let (standing, sixes) = struck(&dice);
    assert_eq!(dice[STRIKE].len(), standing + sixes, "{dice:?}");
    // One Soviet infantry searches the standing team only: the dropped
    // teams face no detection and roll no mission die.
    assert_eq!(dice["sft/Ukraine S.S.R./detection/Germany"].len(), 1);
    assert_eq!(dice[MISSION].len(), 1);
    assert_eq!(dice[LANDING].len(), 3);
    python_re_derives(&key, &dice);
}
