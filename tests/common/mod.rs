//! Shared by the integration tests and the benchmarks: synthetic match logs
//! written through the real writer, with real commit-reveal dice.

#![allow(dead_code)]

use std::collections::HashMap;
use std::path::Path;

use adjutant::dice::{DiceKind, Label};
use adjutant::log::{Genesis, LOG_FORMAT, MatchLog};
use adjutant::matches::DiceTurn;

pub mod verify;

/// Sides cycled through the labels, including one that exercises rejection.
pub const SIDES: [u32; 6] = [6, 6, 6, 12, 20, 65175];

/// The shape of a synthetic log.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub turns: u32,
    pub labels_per_turn: usize,
    pub dice_per_label: usize,
}

impl Shape {
    pub fn dice(&self) -> usize {
        self.turns as usize * self.labels_per_turn * self.dice_per_label
    }
}

/// Every die as the Python verifier's `--dump` prints it:
/// `TURN\tLABEL\tINDEX\tSIDES\tVALUE`, in log order.
pub type Dump = Vec<String>;

pub fn genesis(match_id: &str, dice: DiceKind) -> Genesis {
    Genesis {
        format: LOG_FORMAT.into(),
        match_id: match_id.into(),
        dice,
        engine: "adjutant test".into(),
        game: None,
        game_hash: None,
        players: Vec::new(),
        beacon: None,
        rules_version: None,
    }
}

/// Writes a verifiable log at `path` and returns its dump.
///
/// Each turn: commitment, two orders, the reveal, the first half of every
/// label's dice in one entry and the second half in another (streams must
/// continue across entries), then an order after the reveal (which must not
/// feed the key).
pub fn write_log(path: &Path, shape: Shape) -> Dump {
    let (mut log, _) = MatchLog::create(path, genesis("synthetic", DiceKind::Verifiable)).unwrap();
    let mut dump = Vec::with_capacity(shape.dice());
    for _ in 0..shape.turns {
        let (turn, _) = DiceTurn::open(&mut log).unwrap();
        let t = turn.turn();
        // Standing orders of another power, adjudicated at once, then the
        // stage-1 message whose dice the reveal keys.
        turn.record_order(&mut log, "Soviet Union", "entropy: \"ура\"\n")
            .unwrap();
        adjudicate(&mut log, t, "Soviet Union", 0);
        turn.record_order(&mut log, "Germany", &format!("purchase: {t} infantry\n"))
            .unwrap();
        let mut dice = turn.reveal(&mut log).unwrap();
        let mut index: HashMap<String, usize> = HashMap::new();
        let half = shape.dice_per_label / 2;
        for count in [half, shape.dice_per_label - half] {
            for l in 0..shape.labels_per_turn {
                let name = format!(
                    "battle/Territory {}/round/{}/attacker/group{l}",
                    l % 37,
                    l % 5 + 1
                );
                let label = Label::new(name.clone()).unwrap();
                let sides = SIDES[l % SIDES.len()];
                for _ in 0..count {
                    let v = dice.roll(&label, sides);
                    let i = index.entry(name.clone()).or_default();
                    dump.push(format!("{t}\t{name}\t{i}\t{sides}\t{v}"));
                    *i += 1;
                }
            }
            DiceTurn::record_dice(&mut log, t, &mut dice).unwrap();
        }
        adjudicate(&mut log, t, "Germany", 1);
        // A stage-2 order after the reveal: on record, not in the key.
        let late = "noncombat:\n  - 2 infantry: Germany -> Poland\n";
        let digest = adjutant::dice::OrderDigest::of_orders("synthetic", t, "Germany", late);
        log.append(adjutant::log::Body::Order(adjutant::log::OrderEntry {
            turn: t,
            power: "Germany".into(),
            canonical: late.into(),
            digest,
            message_id: Some("<late@example.org>".into()),
            mail_sha256: None,
        }))
        .unwrap();
        adjudicate(&mut log, t, "Germany", 2);
    }
    dump
}

/// The adjudication of the order entry just logged. The synthetic log names
/// no game, so no engine replays it: its events and state are placeholders.
pub fn adjudicate(log: &mut MatchLog, turn: u32, power: &str, stage: u8) {
    log.append(adjutant::log::Body::Adjudication(
        adjutant::log::Adjudication {
            turn,
            power: power.into(),
            round: 1,
            stage,
            events: Vec::new(),
            state: adjutant::dice::Digest32::default(),
        },
    ))
    .unwrap();
}

/// Rewrites a log after `edit` has changed its entries, recomputing every
/// hash and `prev` so that only the semantic checks can catch the change:
/// what a forger with write access to the file would do.
pub fn rechain(data: &[u8], mut edit: impl FnMut(&mut adjutant::log::entry::Entry)) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len());
    let mut prev = adjutant::dice::Digest32::default();
    for line in data.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let mut e = adjutant::log::parse_line(line).unwrap();
        edit(&mut e);
        let (text, hash) = adjutant::log::encode_line(e.seq, &prev, &e.time, &e.body);
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
        prev = hash;
    }
    out
}

/// A forger changes one die of dice entry `first_dice` of `log` and re-signs
/// the chain, so every hash is right and the die is not: both `adjutant
/// verify` (naming that entry) and `tools/verify_dice.py` must refuse it.
/// The forged log is written into `dir`.
pub fn assert_a_forged_die_is_caught(log: &[u8], dir: &Path, first_dice: u64) {
    let forged = rechain(log, |e| {
        if e.seq == first_dice
            && let adjutant::log::Body::Dice(d) = &mut e.body
        {
            let g = &mut d.rolls[0];
            g.values[0] = g.values[0] % g.sides + 1;
        }
    });
    assert_ne!(forged, log);
    let forged_path = dir.join("forged.jsonl");
    std::fs::write(&forged_path, &forged).unwrap();
    let out = verify::adjutant_verify(&forged_path);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(&format!("entry {first_dice} "))
            || stderr.contains(&format!("entry {first_dice},")),
        "verify should name entry {first_dice}: {stderr}"
    );
    let py = verify::python_verify(&forged_path);
    assert!(!py.status.success(), "verify_dice.py accepted a forged die");
}

/// What an auditor checks of a match a test has played: the real
/// `adjutant verify LOG` re-derives every die of the log and
/// re-adjudicates all `messages`, the independent `tools/verify_dice.py`
/// agrees, the match reopens to the position a full replay derives and to
/// the one played, and a forged die is caught by both verifiers. `what`
/// names the game in failure messages; returns what `verify` printed.
pub fn assert_a_played_match_verifies(
    m: adjutant::matches::Match,
    messages: usize,
    what: &str,
) -> String {
    let dir = m.dir().to_owned();
    let log_path = dir.join("log.jsonl");
    let log = std::fs::read(&log_path).unwrap();
    let mut first_dice = 0;
    let mut dice = 0;
    for line in log.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let e = adjutant::log::parse_line(line).unwrap();
        if let adjutant::log::Body::Dice(d) = &e.body {
            dice += d.rolls.iter().map(|g| g.values.len()).sum::<usize>();
            if first_dice == 0 {
                first_dice = e.seq;
            }
        }
    }
    assert!(first_dice > 0, "{what}: the log holds no dice");

    let stdout = verify::verify_replays(&log_path, messages, what);
    verify::assert_every_die_re_derived(&stdout, dice, what);
    verify::assert_python_accepts(&log_path, what);

    // Reopening starts from the position a full replay derives.
    let played = m.state().clone();
    drop(m);
    let reopened = adjutant::matches::Match::open(&dir).unwrap();
    let genesis = reopened.log().chain().genesis().unwrap().clone();
    let full = adjutant::matches::replay_match(&log_path, &genesis).unwrap();
    assert_eq!(full.messages, messages, "{what}");
    // `adjutant verify`'s replay, over the entries its chain check parsed,
    // derives the same.
    let data = std::fs::read(&log_path).unwrap();
    let verified = adjutant::log::verify_entries(&data, &Default::default()).unwrap();
    let once = adjutant::matches::replay_verified(&log_path, &verified).unwrap();
    assert_eq!(
        (once.messages, &once.state),
        (messages, &full.state),
        "{what}: verify's replay v replay_match"
    );
    assert_eq!(
        reopened.state(),
        &full.state,
        "{what}: remembered v replayed"
    );
    assert_eq!(reopened.state(), &played, "{what}: remembered v played");
    drop(reopened);

    assert_a_forged_die_is_caught(&log, &dir, first_dice);
    stdout
}
