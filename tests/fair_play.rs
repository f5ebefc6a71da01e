//! A forging server against both verifiers (issue: "Verify must prove what
//! the dice promise"). Each forgery edits a real match log the way a
//! dishonest server with the turn secrets would: it re-draws every die from
//! the key its edit gives, re-adjudicates every message through the engine,
//! and re-chains every hash, so that only the rules under test can catch it.
//! Each grind is also written as a format-1 log, which the chain's checks
//! and the Python verifier accept: that shows the edit is otherwise
//! consistent, and that what rejects it is the new rules.

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::dice::{Dice, Digest32, OrderDigest, RollGroup, TurnSecret};
use adjutant::log::{
    Adjudication, Body, Entry, LOG_FORMAT, LOG_FORMAT_V1, OrderEntry, VerifyOptions, encode_line,
    parse_line, verify_bytes,
};
use adjutant::matches::{Match, stage_of, state_digest};
use adjutant::rules::GameDef;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::GameState;
use adjutant::rules::turn::{apply_orders, apply_orders_with_dice, is_standing_only};

const PLAYERS: &str = "match: fair-play\nplayers:\n  Germany: {name: Gerda, email: gerda@example.org}\n  Soviet Union: {name: Sasha, email: sasha@example.org}\n  United Kingdom: {name: Una, email: una@example.org}\n  United States: {name: Sam, email: sam@example.org}\n";

const SOVIET_STANDING: &str = "standing:\n  losses: infantry, artillery, armor\nentropy: Sasha\n";
const GERMANY_STAGE_1: &str = "purchase: 2 infantry\ncombat:\n  - 3 infantry, 1 artillery, 2 armor: Poland -> East Poland\nentropy: Gerda\n";
const GERMANY_STAGE_2: &str = "place:\n  Germany: 2 infantry\n";

fn fresh(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("fair_play-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

/// An honest match: Soviet standing orders, Germany's stage 1 with a
/// battle, Germany's stage 2. Returns its directory.
fn honest_match(name: &str) -> PathBuf {
    let dir = fresh(name);
    let mut m = Match::create(&dir, Path::new("games"), "aae", PLAYERS).unwrap();
    for (power, orders) in [
        ("Soviet Union", SOVIET_STANDING),
        ("Germany", GERMANY_STAGE_1),
        ("Germany", GERMANY_STAGE_2),
    ] {
        m.submit(power, orders).unwrap().unwrap();
    }
    dir
}

fn entries(dir: &Path) -> Vec<Entry> {
    std::fs::read(dir.join("log.jsonl"))
        .unwrap()
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| parse_line(l).unwrap())
        .collect()
}

/// The digests of the order entries before the first reveal, in log order.
fn fed_before_reveal(entries: &[Entry]) -> Vec<OrderDigest> {
    entries
        .iter()
        .take_while(|e| !matches!(e.body, Body::Reveal(_)))
        .filter_map(|e| match &e.body {
            Body::Order(o) => Some(o.digest),
            _ => None,
        })
        .collect()
}

fn game(dir: &Path) -> GameDef {
    adjutant::rules::load_dir(&dir.join("games/aae")).unwrap()
}

fn order_entry(match_id: &str, turn: u32, power: &str, canonical: &str) -> Body {
    Body::Order(OrderEntry {
        turn,
        power: power.into(),
        canonical: canonical.into(),
        digest: OrderDigest::of_orders(match_id, turn, power, canonical),
        message_id: None,
        mail_sha256: None,
    })
}

/// What a forging server holding every turn secret writes after editing the
/// entries: the genesis says `format`; every turn key is re-derived from
/// the digests before its reveal (in the order `format` feeds them), every
/// message with an adjudication is re-adjudicated through the engine with
/// that key's dice (dice, events, state), and the chain is recomputed.
fn forge(dir: &Path, format: &str, edit: impl FnOnce(&mut Vec<Body>)) -> Vec<u8> {
    let game = game(dir);
    let mut src = entries(dir);
    let times: Vec<String> = src.iter().map(|e| e.time.clone()).collect();
    let mut bodies: Vec<Body> = src.drain(..).map(|e| e.body).collect();
    edit(&mut bodies);
    let Body::Genesis(g) = &mut bodies[0] else {
        panic!("genesis first")
    };
    g.format = format.into();
    let match_id = g.match_id.clone();

    let mut state = GameState::initial(&game);
    let mut digests: Vec<OrderDigest> = Vec::new();
    let mut dice: Option<Dice> = None;
    let mut pending: Option<(String, String)> = None;
    let mut out: Vec<Body> = Vec::new();
    for body in bodies {
        match body {
            Body::TurnOpen(ref t) => {
                let _ = t;
                digests.clear();
                dice = None;
                out.push(body);
            }
            Body::Order(ref o) => {
                if dice.is_none() {
                    digests.push(o.digest);
                }
                pending = Some((o.power.clone(), o.canonical.clone()));
                out.push(body);
            }
            Body::Reveal(ref r) => {
                let secret = TurnSecret::from_bytes(r.secret.0);
                let mut fed = digests.clone();
                if format == LOG_FORMAT {
                    fed.sort_by(|a, b| a.bytes().cmp(b.bytes()));
                }
                dice = Some(Dice::verifiable(secret.turn_key(&match_id, r.turn, &fed)));
                out.push(body);
            }
            // Re-drawn with the adjudication below.
            Body::Dice(_) => {}
            Body::Adjudication(mut a) => {
                let (power, canonical) = pending.take().expect("orders before adjudication");
                let p = game.power(&power).unwrap();
                let orders = parse_message(&game, &canonical).unwrap().orders;
                let stage = if is_standing_only(&orders) {
                    0
                } else {
                    stage_of(&state)
                };
                let (next, events, rolls): (_, _, Vec<RollGroup>) = match (&mut dice, stage) {
                    (Some(d), 1) => {
                        let (n, e) = apply_orders_with_dice(&game, &state, p, &orders, d).unwrap();
                        (n, e, d.take_rolls())
                    }
                    _ => {
                        let (n, e) = apply_orders(&game, &state, p, &orders).unwrap();
                        (n, e, Vec::new())
                    }
                };
                if !rolls.is_empty() {
                    out.push(Body::Dice(adjutant::log::DiceEntry {
                        turn: a.turn,
                        rolls,
                    }));
                }
                a.events = events.iter().map(|e| e.describe(&game)).collect();
                a.state = state_digest(&game, &next);
                a.stage = stage;
                state = next;
                out.push(Body::Adjudication(a));
            }
            other => out.push(other),
        }
    }
    chain(&out, &times)
}

/// Encodes `bodies` as a log, with the honest log's times (the last one
/// repeated for added entries).
fn chain(bodies: &[Body], times: &[String]) -> Vec<u8> {
    let mut data = Vec::new();
    let mut prev = Digest32::default();
    for (i, body) in bodies.iter().enumerate() {
        let time = times.get(i).unwrap_or_else(|| times.last().unwrap());
        let (line, hash) = encode_line(i as u64 + 1, &prev, time, body);
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        prev = hash;
    }
    data
}

fn position(bodies: &[Body], f: impl Fn(&Body) -> bool) -> usize {
    bodies.iter().position(f).expect("entry present")
}

fn reveal_at(bodies: &[Body]) -> usize {
    position(bodies, |b| matches!(b, Body::Reveal(_)))
}

/// Verifies `data` as a match log beside the match's own game data, with
/// `adjutant verify` (chain and engine replay) and the Python verifier.
/// Returns (adjutant's success, its output, Python's success, its output).
fn both_verifiers(dir: &Path, name: &str, data: &[u8]) -> (bool, String, bool, String) {
    let forged = dir.join(format!("{name}.jsonl"));
    std::fs::write(&forged, data).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .arg("verify")
        .arg(&forged)
        .output()
        .unwrap();
    let rust = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let py = Command::new(python())
        .arg("tools/verify_dice.py")
        .arg(&forged)
        .output()
        .unwrap();
    let python_out = format!(
        "{}{}",
        String::from_utf8_lossy(&py.stdout),
        String::from_utf8_lossy(&py.stderr)
    );
    (out.status.success(), rust, py.status.success(), python_out)
}

fn python() -> &'static str {
    "python3"
}

/// The grind itself: a forgery that both verifiers must reject in format 2,
/// and that the old rules (format 1) let through.
fn assert_grind_rejected(name: &str, edit: impl Fn(&mut Vec<Body>), reason: &str) {
    let dir = honest_match(name);
    // Control: the checks of format 1 (the chain's, and the Python
    // verifier's, which has no engine) let the same forgery through.
    let v1 = forge(&dir, LOG_FORMAT_V1, &edit);
    let (_, _, py, py_out) = both_verifiers(&dir, "v1", &v1);
    let chain = verify_bytes(&v1, &VerifyOptions::default());
    assert!(
        chain.is_ok() && py,
        "control: the forgery passes format 1's checks\nchain: {chain:?}\npython: {py_out}"
    );
    let v2 = forge(&dir, LOG_FORMAT, &edit);
    let (rust, rust_out, py, py_out) = both_verifiers(&dir, "v2", &v2);
    assert!(!rust, "adjutant verify accepted the grind:\n{rust_out}");
    assert!(!py, "verify_dice.py accepted the grind:\n{py_out}");
    assert!(rust_out.contains(reason), "adjutant: {rust_out}");
    assert!(py_out.contains(reason), "python: {py_out}");
}

#[test]
fn the_honest_match_verifies_with_both() {
    let dir = honest_match("honest");
    let data = std::fs::read(dir.join("log.jsonl")).unwrap();
    let (rust, rust_out, py, py_out) = both_verifiers(&dir, "honest", &data);
    assert!(rust, "{rust_out}");
    assert!(py, "{py_out}");
    assert!(
        rust_out.contains("engine replay: 3 accepted messages"),
        "{rust_out}"
    );
    // And a forgery that changes nothing is the honest log, byte for byte
    // apart from nothing: the forging tool itself is faithful.
    assert_eq!(forge(&dir, LOG_FORMAT, |_| {}), data);
}

#[test]
fn an_entropy_line_inserted_before_the_reveal_is_rejected() {
    assert_grind_rejected(
        "entropy",
        |b| {
            let at = reveal_at(b);
            let extra = order_entry("fair-play", 1, "Soviet Union", "entropy: grind 4242\n");
            // Before Germany's stage-1 order, so that order still reveals.
            b.insert(at - 1, extra);
        },
        "were never adjudicated",
    );
}

#[test]
fn a_real_order_entry_duplicated_with_its_adjudication_is_rejected() {
    assert_grind_rejected(
        "duplicate",
        |b| {
            let order = position(
                b,
                |x| matches!(x, Body::Order(o) if o.power == "Soviet Union"),
            );
            let copy = [b[order].clone(), b[order + 1].clone()];
            assert!(matches!(copy[1], Body::Adjudication(_)));
            b.splice(order + 2..order + 2, copy);
        },
        "repeat entry",
    );
}

#[test]
fn a_reveal_moved_before_the_stage_one_orders_is_rejected() {
    // The server would reveal inside the Soviet standing orders, so that
    // Germany's stage-1 digest no longer feeds the key: rejected because
    // only the stage-1 message reveals the turn.
    let edit = |b: &mut Vec<Body>| {
        let r = reveal_at(b);
        let reveal = b.remove(r);
        let soviet = position(
            b,
            |x| matches!(x, Body::Order(o) if o.power == "Soviet Union"),
        );
        b.insert(soviet + 1, reveal);
    };
    let dir = honest_match("early-reveal");
    let v2 = forge(&dir, LOG_FORMAT, edit);
    let (rust, rust_out, py, py_out) = both_verifiers(&dir, "v2", &v2);
    assert!(!rust && !py, "{rust_out}\n{py_out}");
    assert!(
        rust_out.contains("only a stage-1 message has dice"),
        "{rust_out}"
    );
    assert!(
        py_out.contains("only a stage-1 message has dice"),
        "{py_out}"
    );
}

#[test]
fn the_turn_key_takes_the_digests_sorted_so_their_order_cannot_be_chosen() {
    let dir = honest_match("sorted");
    let entries = entries(&dir);
    let digests = fed_before_reveal(&entries);
    assert_eq!(digests.len(), 2);
    let secret = entries
        .iter()
        .find_map(|e| match &e.body {
            Body::Reveal(r) => Some(TurnSecret::from_bytes(r.secret.0)),
            _ => None,
        })
        .unwrap();
    let mut sorted = digests.clone();
    sorted.sort_by(|a, b| a.bytes().cmp(b.bytes()));
    let mut reversed = sorted.clone();
    reversed.reverse();
    // The dice in the log are those of the sorted key, whichever order the
    // messages came in.
    let key = secret.turn_key("fair-play", 1, &sorted);
    let other = secret.turn_key("fair-play", 1, &reversed);
    assert_ne!(key, other);
    let logged: Vec<&RollGroup> = entries
        .iter()
        .filter_map(|e| match &e.body {
            Body::Dice(d) => Some(d.rolls.iter()),
            _ => None,
        })
        .flatten()
        .collect();
    assert!(!logged.is_empty());
    let mut dice = Dice::verifiable(key);
    for g in &logged {
        for &v in &g.values {
            assert_eq!(dice.roll(&g.label, g.sides), v);
        }
    }
}

#[test]
fn the_same_standing_orders_sent_twice_before_the_reveal_are_refused_with_a_reason() {
    let dir = fresh("resend");
    let mut m = Match::create(&dir, Path::new("games"), "aae", PLAYERS).unwrap();
    m.submit("Soviet Union", SOVIET_STANDING).unwrap().unwrap();
    let errors = m
        .submit("Soviet Union", SOVIET_STANDING)
        .unwrap()
        .unwrap_err();
    let text = errors[0].to_string();
    assert!(text.contains("word for word"), "{text}");
    assert!(text.contains("entropy"), "{text}");
    // Changed entropy makes it a new message.
    m.submit(
        "Soviet Union",
        "standing:\n  losses: infantry, artillery, armor\nentropy: again\n",
    )
    .unwrap()
    .unwrap();
}

/// An adjudication entry edited after the fact (its hash chain recomputed).
fn edit_adjudication(dir: &Path, edit: impl Fn(&mut Adjudication)) -> Vec<u8> {
    let src = entries(dir);
    let times: Vec<String> = src.iter().map(|e| e.time.clone()).collect();
    let mut bodies: Vec<Body> = src.into_iter().map(|e| e.body).collect();
    let last = bodies
        .iter()
        .rposition(|b| matches!(b, Body::Adjudication(a) if a.stage == 1))
        .unwrap();
    if let Body::Adjudication(a) = &mut bodies[last] {
        edit(a);
    }
    chain(&bodies, &times)
}

#[test]
fn forged_events_power_round_and_stage_fail_verify_and_the_report() {
    let dir = honest_match("events");
    type Edit = Box<dyn Fn(&mut Adjudication)>;
    let cases: [(&str, Edit, &str); 4] = [
        (
            "event",
            Box::new(|a| {
                a.events
                    .push("Germany captured Moscow from Soviet Union".into())
            }),
            "the recorded events differ",
        ),
        (
            "power",
            Box::new(|a| a.power = "United Kingdom".into()),
            "the adjudication is of United Kingdom",
        ),
        ("round", Box::new(|a| a.round = 2), "round 2 stage 1"),
        ("reworded", Box::new(|a| a.events[0].push('!')), "event 1"),
    ];
    for (name, edit, reason) in cases {
        let data = edit_adjudication(&dir, edit);
        let (rust, rust_out, _, _) = both_verifiers(&dir, name, &data);
        assert!(!rust, "{name}: adjutant verify accepted it:\n{rust_out}");
        assert!(rust_out.contains(reason), "{name}: {rust_out}");
    }
    // `adjutant report` builds from the same replay, so it refuses a forged
    // log instead of showing the false event.
    let forged = edit_adjudication(&dir, |a| {
        a.events
            .push("Germany captured Moscow from Soviet Union".into())
    });
    std::fs::write(dir.join("log.jsonl"), &forged).unwrap();
    let seq = entries(&dir)
        .iter()
        .rposition(|e| matches!(&e.body, Body::Adjudication(a) if a.stage == 1))
        .unwrap()
        + 1;
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["report", "--match"])
        .arg(&dir)
        .args(["--entry", &seq.to_string()])
        .output()
        .unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!out.status.success(), "{all}");
    assert!(all.contains("the recorded events differ"), "{all}");
    assert!(out.stdout.is_empty(), "no report is printed: {all}");
}

#[test]
fn the_python_verifier_says_what_it_leaves_to_the_engine() {
    let dir = honest_match("left");
    let data = std::fs::read(dir.join("log.jsonl")).unwrap();
    let (_, _, py, py_out) = both_verifiers(&dir, "left", &data);
    assert!(py, "{py_out}");
    assert!(py_out.contains("left to `adjutant verify`"), "{py_out}");
}

#[test]
fn a_timestamp_that_goes_backwards_fails_both_verifiers() {
    let dir = honest_match("time");
    let src = entries(&dir);
    let mut times: Vec<String> = src.iter().map(|e| e.time.clone()).collect();
    let bodies: Vec<Body> = src.into_iter().map(|e| e.body).collect();
    times[4] = "1970-01-01T00:00:00.000Z".into();
    let data = chain(&bodies, &times);
    let (rust, rust_out, py, py_out) = both_verifiers(&dir, "time", &data);
    assert!(!rust && !py, "{rust_out}\n{py_out}");
    for out in [&rust_out, &py_out] {
        assert!(out.contains("entry 5"), "{out}");
        assert!(
            out.contains("is earlier than the previous entry's"),
            "{out}"
        );
    }
    // Equal times are fine (entries in the same millisecond).
    let same = vec![times[0].clone(); bodies.len()];
    assert!(verify_bytes(&chain(&bodies, &same), &VerifyOptions::default()).is_ok());
}

#[test]
fn a_player_recomputes_their_receipt_digest_from_the_orders_it_shows() {
    let dir = fresh("receipt");
    let mut m = Match::create(&dir, Path::new("games"), "aae", PLAYERS).unwrap();
    m.submit("Soviet Union", SOVIET_STANDING).unwrap().unwrap();
    let receipt = m.submit("Germany", GERMANY_STAGE_1).unwrap().unwrap();
    // The orders as the receipt shows them: indented by four spaces.
    let shown: String = receipt
        .canonical
        .lines()
        .map(|l| format!("    {l}\r\n"))
        .collect();
    let file = dir.join("as-shown.txt");
    std::fs::write(&file, shown).unwrap();
    let out = Command::new(python())
        .args([
            "tools/verify_dice.py",
            "digest",
            "fair-play",
            "1",
            "Germany",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        receipt.digest.to_string()
    );
    // The digest is among those the turn's key took, as the log records them.
    let fed = fed_before_reveal(&entries(&dir));
    assert!(fed.contains(&receipt.digest));
}

#[test]
fn the_same_text_after_the_reveal_is_a_new_message_since_it_feeds_no_key() {
    // An empty stage 1 and an empty stage 2 of the same power in one dice
    // turn have the same digest; the second comes after the reveal.
    let dir = fresh("empty-stages");
    let mut m = Match::create(&dir, Path::new("games"), "aae", PLAYERS).unwrap();
    let a = m.submit("Germany", "power: Germany\n").unwrap().unwrap();
    let b = m.submit("Germany", "power: Germany\n").unwrap().unwrap();
    assert_eq!((a.stage, b.stage), (1, 2));
    assert_eq!(a.digest, b.digest);
    let data = std::fs::read(dir.join("log.jsonl")).unwrap();
    assert!(verify_bytes(&data, &VerifyOptions::default()).is_ok());
}

#[test]
fn a_dice_turn_opened_between_the_stages_of_a_power_fails_the_replay() {
    // The server opens the next dice turn (a fresh secret it may like
    // better) before Germany's stage 2, and moves stage 2 into it.
    let dir = honest_match("mid-turn");
    let data = forge(&dir, LOG_FORMAT, |b| {
        let open2 = b.len() - 1;
        assert!(matches!(b[open2], Body::TurnOpen(_)));
        let t = b.remove(open2);
        let stage2 = b.len() - 2;
        b.insert(stage2, t);
        for body in &mut b[stage2 + 1..] {
            match body {
                Body::Order(o) => {
                    o.turn = 2;
                    o.digest = OrderDigest::of_orders("fair-play", 2, &o.power, &o.canonical);
                }
                Body::Adjudication(a) => a.turn = 2,
                _ => {}
            }
        }
    });
    assert!(verify_bytes(&data, &VerifyOptions::default()).is_ok());
    let (rust, rust_out, _, _) = both_verifiers(&dir, "mid-turn", &data);
    assert!(!rust, "{rust_out}");
    assert!(
        rust_out.contains("opens in the middle of Germany's turn"),
        "{rust_out}"
    );
}

#[test]
fn the_turn_report_lists_the_digests_in_the_order_the_key_took_them() {
    let dir = honest_match("report-order");
    let all = entries(&dir);
    let seq = all
        .iter()
        .position(|e| matches!(&e.body, Body::Adjudication(a) if a.stage == 1))
        .unwrap() as u64
        + 1;
    let report = adjutant::report::turn::turn_report(&dir, seq).unwrap();
    let listed: Vec<String> = report
        .trust
        .digests
        .iter()
        .map(|d| d.digest.clone())
        .collect();
    let fed = fed_before_reveal(&all);
    let key_order: Vec<String> = adjutant::dice::key_order(&fed)
        .iter()
        .map(|d| d.to_string())
        .collect();
    assert_eq!(listed, key_order);
    assert_eq!(listed.len(), 2);
    // The match is built so that log order is not sorted order: the test
    // tells the two apart.
    assert_ne!(fed[0].to_string(), listed[0]);
}
