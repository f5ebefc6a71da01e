//! Scenario files (`rules::scenario`) through the same public calls as
//! `adjutant scenario`: parse, run against the named game (loaded once, the
//! only I/O), render the resulting board.
//!
//! Properties: nothing panics; running the same scenario twice gives the same
//! position, step results and failures (the engine is deterministic, which
//! replaying a log relies on).
//!
//! Two kinds of scenario are left out, as errors of a scenario's author in
//! test-only tooling rather than of the engine: scripted dice that run out
//! or are not d6 values (`ScriptedDice`, the scenario runner's own dice,
//! panics on purpose, naming the label), and positions
//! of more than a few thousand units (memory and time, not correctness).
//! Scripted dice are padded with every face in turn so that a script too short for a
//! mutated battle still plays it out.
#![no_main]

use std::collections::HashMap;
use std::sync::LazyLock;

use adjutant::report::board;
use adjutant::rules::scenario::Scenario;
use adjutant::rules::{GameDef, load_dir, scenario, state_text};
use libfuzzer_sys::fuzz_target;

static GAMES: LazyLock<HashMap<&'static str, GameDef>> = LazyLock::new(|| {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../games");
    ["aae", "anniversary-1941", "anniversary-1942"]
        .into_iter()
        .map(|id| (id, load_dir(&root.join(id)).expect("the game loads")))
        .collect()
});

/// Most units, researchers and the like a fuzzed position may hold.
const MAX_PIECES: u64 = 2000;

/// Most IPCs a fuzzed power may hold (at most 2000 research tokens bought).
const MAX_IPCS: u32 = 10_000;

/// Whether `sc` is in scope (module comment), after padding its dice.
fn prepare(sc: &mut Scenario) -> bool {
    let p = &sc.position;
    let mut pieces: u64 = p.research_tokens.iter().map(|(_, &n)| u64::from(n)).sum();
    for (_, powers) in p.units.iter().flat_map(|t| t.iter()) {
        for (_, types) in powers.iter() {
            pieces += types.iter().map(|(_, &n)| u64::from(n)).sum::<u64>();
        }
    }
    for table in [&p.held, &p.submerged] {
        for (_, types) in table.iter() {
            pieces += types.iter().map(|(_, &n)| u64::from(n)).sum::<u64>();
        }
    }
    // Money buys research tokens, one scripted die each: bound it with the
    // pieces so that the padding below always covers a mutated message.
    if pieces > MAX_PIECES || p.ipcs.iter().any(|(_, &n)| n > MAX_IPCS) {
        return false;
    }
    for dice in sc.steps.iter_mut().filter_map(|s| s.dice.as_mut()) {
        let values = dice
            .sequence
            .iter()
            .chain(dice.labels.iter().flat_map(|(_, v)| v));
        if !values.into_iter().all(|v| (1..=6).contains(v)) {
            return false;
        }
        // Every face in turn: a re-roll until something new (a development
        // already held) must meet the other faces.
        dice.sequence.extend((0..20_000u32).map(|i| i % 6 + 1));
    }
    true
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(mut sc) = scenario::parse(text) else {
        return;
    };
    if !prepare(&mut sc) {
        return;
    }
    let Some(game) = GAMES.get(sc.game.as_str()) else {
        return;
    };
    let Ok(first) = scenario::run(game, &sc) else {
        return;
    };
    board::render(game, &first.state);
    let second = scenario::run(game, &sc).expect("a scenario that ran once runs again");
    assert_eq!(
        state_text::encode(game, &first.state),
        state_text::encode(game, &second.state),
        "the same scenario ended in two positions"
    );
    assert_eq!(first.steps, second.steps);
    assert_eq!(first.failures, second.failures);
});
