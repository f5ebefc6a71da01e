//! The YAML orders parser (`rules::orders::parse::parse_message`) on
//! arbitrary text, against Axis & Allies: Europe's real data, and the engine
//! behind it: an accepted message is applied without dice to the start
//! position and to the start of Germany's non-combat move.
//!
//! Properties: nothing panics; an accepted message's canonical form parses
//! to the same orders and is a fixed point (it is what the log records and
//! what the dice digest covers, so a second reading must agree).
#![no_main]

use std::sync::LazyLock;

use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::turn::apply_orders;
use adjutant::rules::{GameDef, load_dir, state_text};
use libfuzzer_sys::fuzz_target;

struct World {
    game: GameDef,
    /// Germany at purchase (stage 1), then at its non-combat move (stage 2).
    positions: [GameState; 2],
}

static WORLD: LazyLock<World> = LazyLock::new(|| {
    let game = load_dir(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games/aae"))
        .expect("games/aae loads");
    let start = GameState::initial(&game);
    let power = start.current_power(&game);
    let empty = adjutant::rules::orders::Orders::default();
    // An empty stage 1 needs no dice: it only moves the turn to stage 2.
    let (stage2, _) = apply_orders(&game, &start, power, &empty).expect("an empty stage 1");
    World {
        game,
        positions: [start, stage2],
    }
});

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let w = &*WORLD;
    let Ok(msg) = parse_message(&w.game, text) else {
        return;
    };
    let again = parse_message(&w.game, &msg.canonical)
        .unwrap_or_else(|e| panic!("the canonical form is refused: {e:?}\n{}", msg.canonical));
    assert_eq!(
        again.orders.without_origins(),
        msg.orders.without_origins(),
        "the canonical form means other orders:\n{}",
        msg.canonical
    );
    assert_eq!(
        again.canonical, msg.canonical,
        "the canonical form is not a fixed point"
    );
    assert_eq!(again.header.entropy, msg.header.entropy);

    for state in &w.positions {
        let power = msg
            .header
            .power
            .as_deref()
            .and_then(|p| w.game.power(p))
            .unwrap_or_else(|| state.current_power(&w.game));
        if let Ok((next, events)) = apply_orders(&w.game, state, power, &msg.orders) {
            for e in &events {
                e.describe(&w.game);
            }
            state_text::encode(&w.game, &next);
        }
    }
});
