//! A scripted game of AAE (combat aside): three full rounds of all four
//! powers buying, moving in the non-combat move, placing and collecting
//! income, in the two stages orders arrive by mail. One German submarine
//! takes an empty British convoy zone in the first combat move, and the
//! United Kingdom's income stays 5 lower from then on.

use std::path::Path;

use adjutant::rules::events::Event;
use adjutant::rules::orders::{
    Located, MoveOrder, OrderError, Orders, Origin, UnitCount, UnitList,
};
use adjutant::rules::state::{GameState, Phase};
use adjutant::rules::turn::apply_orders;
use adjutant::rules::{GameDef, SpaceId, load_dir};

fn aae() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).expect("games/aae loads")
}

fn sp(game: &GameDef, name: &str) -> SpaceId {
    game.space(name)
        .unwrap_or_else(|| panic!("no space {name}"))
}

fn list(game: &GameDef, items: &[(u32, &str)]) -> UnitList {
    items
        .iter()
        .map(|&(count, name)| UnitCount {
            unit: game
                .unit_types()
                .iter()
                .position(|u| u.name == name)
                .unwrap_or_else(|| panic!("no unit type {name}")),
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

/// `units: A -> B -> ...` as one move order.
fn mv(
    game: &GameDef,
    section: &'static str,
    index: usize,
    units: &[(u32, &str)],
    path: &[&str],
) -> Located<MoveOrder> {
    Located {
        item: MoveOrder::Move {
            units: list(game, units),
            path: path.iter().map(|s| sp(game, s)).collect(),
            land: None,
            rail: false,
            drops: Vec::new(),
        },
        origin: origin(section, index),
    }
}

/// Units as written, e.g. `&[(3, "infantry")]`.
type Units = &'static [(u32, &'static str)];
/// Move orders: units and the path they take.
type Moves = Vec<(Units, Vec<&'static str>)>;

/// One power's turn in the script: what it buys, where it places it, its
/// combat and non-combat moves.
struct Turn {
    power: &'static str,
    buy: &'static [(u32, &'static str)],
    cost: u32,
    place: &'static [(&'static str, &'static [(u32, &'static str)])],
    combat: Moves,
    noncombat: Moves,
    income: u32,
}

fn script(round: u32) -> Vec<Turn> {
    let odd = round % 2 == 1;
    let there_and_back =
        |a: &'static str, b: &'static str| if odd { vec![a, b] } else { vec![b, a] };
    vec![
        Turn {
            power: "Germany",
            buy: &[(3, "infantry")],
            cost: 9,
            place: &[("Germany", &[(3, "infantry")])],
            combat: if round == 1 {
                vec![(
                    &[(1, "submarine")],
                    vec!["Mid-Atlantic", "British Convoy 3"],
                )]
            } else {
                Vec::new()
            },
            noncombat: vec![(&[(1, "infantry")], vec!["Germany", "Poland"])],
            income: 40,
        },
        Turn {
            power: "Soviet Union",
            buy: &[(2, "infantry"), (1, "artillery")],
            cost: 10,
            place: &[("Moscow", &[(2, "infantry"), (1, "artillery")])],
            combat: Vec::new(),
            noncombat: vec![(&[(1, "infantry")], vec!["Russia", "Moscow"])],
            income: 24,
        },
        Turn {
            power: "United Kingdom",
            buy: &[(1, "transport"), (1, "infantry")],
            cost: 11,
            place: &[
                ("North Sea", &[(1, "transport")]),
                ("United Kingdom", &[(1, "infantry")]),
            ],
            combat: Vec::new(),
            noncombat: vec![(
                &[(1, "destroyer")],
                there_and_back("Celtic Sea", "Atlantic"),
            )],
            // British Convoy 3 (5 IPCs) is German from round 1 on.
            income: 20,
        },
        Turn {
            power: "United States",
            buy: &[(2, "infantry"), (1, "armor")],
            cost: 11,
            place: &[("United States", &[(2, "infantry"), (1, "armor")])],
            combat: Vec::new(),
            noncombat: vec![(&[(1, "fighter")], there_and_back("United States", "Canada"))],
            income: 40,
        },
    ]
}

fn accepted(
    what: &str,
    result: Result<(GameState, Vec<Event>), Vec<OrderError>>,
) -> (GameState, Vec<Event>) {
    match result {
        Ok(r) => r,
        Err(e) => {
            let list: Vec<String> = e.iter().map(ToString::to_string).collect();
            panic!("{what} rejected:\n  {}", list.join("\n  "))
        }
    }
}

fn count(game: &GameDef, state: &GameState, space: &str, power: &str, unit: &str) -> usize {
    let (s, p) = (sp(game, space), game.power(power).unwrap());
    let u = list(game, &[(1, unit)])[0].unit;
    state
        .units_at(s)
        .filter(|x| x.owner == p && x.unit == u)
        .count()
}

#[test]
fn three_rounds_of_purchase_moves_placement_and_income() {
    let game = aae();
    let mut state = GameState::initial(&game);
    for round in 1..=3 {
        for (i, turn) in script(round).into_iter().enumerate() {
            let power = game.power(turn.power).unwrap();
            let what = format!("round {round}, {}", turn.power);
            assert_eq!(state.round, round, "{what}");
            assert_eq!(state.current_power(&game), power, "{what}");
            assert_eq!(state.phase, Phase::Purchase, "{what}");
            let treasury = state.ipcs[power];

            let stage1 = Orders {
                purchase: Some(Located {
                    item: list(&game, turn.buy),
                    origin: origin("purchase", 0),
                }),
                combat: turn
                    .combat
                    .iter()
                    .enumerate()
                    .map(|(n, (u, p))| mv(&game, "combat", n + 1, u, p))
                    .collect(),
                ..Orders::default()
            };
            let (mid, events) = accepted(&what, apply_orders(&game, &state, power, &stage1));
            assert_eq!(mid.phase, Phase::NoncombatMove, "{what}");
            assert_eq!(mid.ipcs[power], treasury - turn.cost, "{what}: paid");
            assert!(
                events
                    .iter()
                    .any(|e| matches!(e, Event::Purchased { cost, .. } if *cost == turn.cost)),
                "{what}"
            );
            // Stage 2 may not repeat stage 1.
            assert!(apply_orders(&game, &mid, power, &stage1).is_err(), "{what}");

            let stage2 = Orders {
                noncombat: turn
                    .noncombat
                    .iter()
                    .enumerate()
                    .map(|(n, (u, p))| mv(&game, "noncombat", n + 1, u, p))
                    .collect(),
                place: turn
                    .place
                    .iter()
                    .enumerate()
                    .map(|(n, (s, u))| Located {
                        item: (sp(&game, s), list(&game, u)),
                        origin: origin("place", n + 1),
                    })
                    .collect(),
                ..Orders::default()
            };
            let (end, events) = accepted(&what, apply_orders(&game, &mid, power, &stage2));
            let collected = events.iter().find_map(|e| match e {
                Event::Income {
                    power: p, amount, ..
                } if *p == power => Some(*amount),
                _ => None,
            });
            assert_eq!(collected, Some(turn.income), "{what}: income");
            assert_eq!(
                end.ipcs[power],
                treasury - turn.cost + turn.income,
                "{what}: treasury"
            );
            assert!(end.purchased.is_empty(), "{what}");
            assert!(end.captured_this_turn.is_empty(), "{what}");
            let next_round = if i == 3 { round + 1 } else { round };
            assert_eq!(end.round, next_round, "{what}");
            assert!(events.iter().any(|e| matches!(e, Event::TurnEnded { .. })));
            state = end;
        }
    }
    // The convoy stayed German; everyone's treasury is the sum of the script.
    let ger = game.power("Germany").unwrap();
    assert_eq!(state.owner[sp(&game, "British Convoy 3").0], Some(ger));
    assert_eq!(
        state.ipcs,
        vec![40 + 3 * 31, 24 + 3 * 14, 25 + 3 * 9, 40 + 3 * 29, 0]
    );
    // Three rounds of placements, less the moves.
    assert_eq!(
        count(&game, &state, "Germany", "Germany", "infantry"),
        4 + 9 - 3
    );
    assert_eq!(count(&game, &state, "Poland", "Germany", "infantry"), 6 + 3);
    assert_eq!(
        count(&game, &state, "Moscow", "Soviet Union", "infantry"),
        4 + 6 + 3
    );
    assert_eq!(
        count(&game, &state, "Moscow", "Soviet Union", "artillery"),
        3
    );
    assert_eq!(
        count(&game, &state, "North Sea", "United Kingdom", "transport"),
        1 + 3
    );
    assert_eq!(
        count(&game, &state, "Atlantic", "United Kingdom", "destroyer"),
        1
    );
    assert_eq!(
        count(&game, &state, "Canada", "United States", "fighter"),
        1
    );
    assert_eq!(
        count(&game, &state, "United States", "United States", "armor"),
        3
    );
    assert_eq!(
        count(&game, &state, "British Convoy 3", "Germany", "submarine"),
        1
    );
    assert_eq!((state.round, state.turn, state.winner), (4, 0, None));
}
