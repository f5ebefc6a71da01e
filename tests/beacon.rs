//! A match that mixes a public randomness beacon into its turn keys
//! (`docs/dice.md` §3, "Beacon"), against a local relay that serves the
//! rounds of the tests' own beacon network, signed here with a key of our
//! own (the same scheme as drand's quicknet, whose real round 123 pins the
//! verification in the unit tests and `docs/dice.md`'s vectors). No test
//! reaches the network.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use adjutant::dice::{BeaconNetwork, BeaconRound, Digest32};
use adjutant::log::{Body, encode_line, parse_line};
use adjutant::matches::{Match, MatchError};
use bls12_381::hash_to_curve::{ExpandMsgXmd, HashToCurve};
use bls12_381::{G1Affine, G1Projective, G2Affine, G2Projective, Scalar};

mod daemon_support;

const DST: &[u8] = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_";

/// The tests' own beacon network: a key pair made here, rounds every
/// second, its genesis a minute ago.
struct TestNetwork {
    secret: Scalar,
    network: BeaconNetwork,
}

impl TestNetwork {
    fn new() -> TestNetwork {
        let secret = Scalar::from(0x5eed_0fad_7a47_0001u64);
        let public = G2Affine::from(G2Projective::generator() * secret).to_compressed();
        let genesis = u64::try_from(chrono::Utc::now().timestamp()).unwrap() - 60;
        TestNetwork {
            secret,
            network: BeaconNetwork {
                name: "adjutant-test".into(),
                chain_hash: Digest32::sha256(b"adjutant test beacon"),
                public_key: hex::encode(public),
                genesis_time: genesis,
                period: 1,
                scheme: "bls-unchained-g1-rfc9380".into(),
            },
        }
    }

    /// Round `round` signed as drand signs an unchained round.
    fn sign(&self, round: u64) -> BeaconRound {
        use sha2_09::Digest;
        let msg = sha2_09::Sha256::digest(&round.to_be_bytes());
        let h =
            <G1Projective as HashToCurve<ExpandMsgXmd<sha2_09::Sha256>>>::hash_to_curve(msg, DST);
        BeaconRound {
            round,
            signature: hex::encode(G1Affine::from(h * self.secret).to_compressed()),
        }
    }
}

/// A relay on 127.0.0.1 serving `/<chain hash>/public/<round>` for rounds
/// already due; it answers 503 to its first `refuse` requests. Returns its
/// base address and the count of requests it received.
fn relay(net: Arc<TestNetwork>, refuse: usize) -> (String, Arc<AtomicUsize>) {
    relay_switched(net, refuse, Arc::new(AtomicBool::new(false)))
}

/// [`relay`] that answers 503 while `down` is set.
fn relay_switched(
    net: Arc<TestNetwork>,
    refuse: usize,
    down: Arc<AtomicBool>,
) -> (String, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = format!("http://{}", listener.local_addr().unwrap());
    let seen = Arc::new(AtomicUsize::new(0));
    let count = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut line = String::new();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            if reader.read_line(&mut line).is_err() {
                continue;
            }
            // Drain the headers.
            let mut h = String::new();
            while reader.read_line(&mut h).is_ok_and(|n| n > 2) {
                h.clear();
            }
            let n = count.fetch_add(1, Ordering::SeqCst);
            let path = line.split_whitespace().nth(1).unwrap_or("").to_owned();
            let prefix = format!("/{}/public/", net.network.chain_hash);
            let round: Option<u64> = path.strip_prefix(&prefix).and_then(|r| r.parse().ok());
            let now = u64::try_from(chrono::Utc::now().timestamp()).unwrap();
            let (status, body) = match round {
                _ if n < refuse || down.load(Ordering::SeqCst) => {
                    ("503 Service Unavailable", String::new())
                }
                Some(r) if net.network.due(r) <= now => {
                    let b = net.sign(r);
                    (
                        "200 OK",
                        format!(
                            "{{\"round\":{r},\"randomness\":\"{}\",\"signature\":\"{}\"}}",
                            b.randomness().unwrap(),
                            b.signature
                        ),
                    )
                }
                Some(_) => ("425 Too Early", String::new()),
                None => ("404 Not Found", String::new()),
            };
            let _ = write!(
                stream,
                "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    (addr, seen)
}

fn fresh(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("beacon-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d
}

fn players(net: &BeaconNetwork, relays: &[&str], wait: u64) -> String {
    format!(
        "match: beacon-match\nplayers:\n  Germany: {{name: Gerda, email: gerda@example.org}}\n  Soviet Union: {{name: Sasha, email: sasha@example.org}}\n  United Kingdom: {{name: Una, email: una@example.org}}\n  United States: {{name: Sam, email: sam@example.org}}\nbeacon:\n  network:\n    name: {}\n    chain_hash: {}\n    public_key: {}\n    genesis_time: {}\n    period: {}\n    scheme: {}\n  relays: [{}]\n  wait: {wait}\n",
        net.name,
        net.chain_hash,
        net.public_key,
        net.genesis_time,
        net.period,
        net.scheme,
        relays.join(", ")
    )
}

const STAGE_1: &str = "purchase: 2 infantry\ncombat:\n  - 3 infantry, 1 artillery, 2 armor: Poland -> East Poland\nentropy: Gerda\n";

fn entries(dir: &Path) -> Vec<adjutant::log::Entry> {
    std::fs::read(dir.join("log.jsonl"))
        .unwrap()
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| parse_line(l).unwrap())
        .collect()
}

fn verify(path: &Path) -> (bool, String, bool, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .arg("verify")
        .arg(path)
        .output()
        .unwrap();
    let py = Command::new("python3")
        .arg("tools/verify_dice.py")
        .arg(path)
        .output()
        .unwrap();
    let text = |o: &std::process::Output| {
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )
    };
    (
        out.status.success(),
        text(&out),
        py.status.success(),
        text(&py),
    )
}

/// Rewrites the log with `edit` applied to its reveal entry, hashes
/// recomputed (a forger with write access).
fn forge_reveal(dir: &Path, edit: impl Fn(&mut adjutant::log::Reveal)) -> PathBuf {
    let mut out = Vec::new();
    let mut prev = Digest32::default();
    for mut e in entries(dir) {
        if let Body::Reveal(r) = &mut e.body {
            edit(r);
        }
        let (line, hash) = encode_line(e.seq, &prev, &e.time, &e.body);
        out.extend_from_slice(line.as_bytes());
        out.push(b'\n');
        prev = hash;
    }
    let path = dir.join("forged.jsonl");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn our_test_network_signs_as_drand_does() {
    let t = TestNetwork::new();
    t.network.check().unwrap();
    t.network.verify(&t.sign(42)).unwrap();
    let mut wrong = t.sign(42);
    wrong.round = 43;
    assert!(t.network.verify(&wrong).is_err());
}

#[test]
fn a_stage_one_waits_for_the_first_round_after_its_orders_and_both_verifiers_agree() {
    let t = Arc::new(TestNetwork::new());
    // The relay is down for its first three requests: the match retries.
    let (addr, seen) = relay(t.clone(), 3);
    let dir = fresh("flow");
    let mut m = Match::create(
        &dir,
        Path::new("games"),
        "aae",
        &players(&t.network, &[&addr], 20),
    )
    .unwrap();
    m.submit(
        "Soviet Union",
        "standing:\n  losses: infantry, artillery, armor\n",
    )
    .unwrap()
    .unwrap();
    m.submit("Germany", STAGE_1).unwrap().unwrap();
    drop(m);
    assert!(seen.load(Ordering::SeqCst) >= 4, "the relay was retried");

    let all = entries(&dir);
    let genesis = match &all[0].body {
        Body::Genesis(g) => g.clone(),
        _ => panic!(),
    };
    assert_eq!(genesis.beacon.as_ref(), Some(&t.network));
    let order = all
        .iter()
        .find(|e| matches!(&e.body, Body::Order(o) if o.power == "Germany"))
        .unwrap();
    let order_ms = chrono::DateTime::parse_from_rfc3339(&order.time)
        .unwrap()
        .timestamp_millis();
    let reveal = all
        .iter()
        .find_map(|e| match &e.body {
            Body::Reveal(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    let b = reveal.beacon.clone().expect("the reveal carries its round");
    assert_eq!(b.round, t.network.round_after(order_ms));
    assert!(t.network.due(b.round) as i64 * 1000 > order_ms);

    let log = dir.join("log.jsonl");
    let (rust, rust_out, py, py_out) = verify(&log);
    assert!(rust, "{rust_out}");
    assert!(py, "{py_out}");
    assert!(
        py_out.contains("the BLS signatures of the 1 beacon rounds"),
        "{py_out}"
    );
    let shown = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["log", "show"])
        .arg(&log)
        .output()
        .unwrap();
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(shown.contains("beacon adjutant-test (chain"), "{shown}");
    assert!(
        shown.contains(&format!("beacon round {} signature", b.round)),
        "{shown}"
    );

    // A later round, genuinely signed: not the one the orders' time gives.
    let later = t.sign(b.round + 1);
    let forged = forge_reveal(&dir, |r| r.beacon = Some(later.clone()));
    let (rust, rust_out, py, py_out) = verify(&forged);
    assert!(!rust && !py, "{rust_out}\n{py_out}");
    for out in [&rust_out, &py_out] {
        assert!(
            out.contains("is not the first due after the orders"),
            "{out}"
        );
    }
    // The right round with a signature that is not the network's: the
    // Rust verifier checks the pairing.
    let other = TestNetwork {
        secret: Scalar::from(7u64),
        network: t.network.clone(),
    };
    let bad = other.sign(b.round);
    let forged = forge_reveal(&dir, |r| r.beacon = Some(bad.clone()));
    let (rust, rust_out, _, _) = verify(&forged);
    assert!(!rust, "{rust_out}");
    assert!(
        rust_out.contains("is not the adjutant-test network's"),
        "{rust_out}"
    );
    // A reveal without its round.
    let forged = forge_reveal(&dir, |r| r.beacon = None);
    let (rust, rust_out, py, py_out) = verify(&forged);
    assert!(!rust && !py, "{rust_out}\n{py_out}");
    assert!(
        rust_out.contains("the reveal has no beacon round"),
        "{rust_out}"
    );
    assert!(
        py_out.contains("the reveal has no beacon round"),
        "{py_out}"
    );
}

#[test]
fn an_unreachable_relay_leaves_the_orders_logged_and_a_later_attempt_completes_them() {
    let t = Arc::new(TestNetwork::new());
    // Nothing listens here: the port of a listener just closed.
    let dead = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let dir = fresh("down");
    let mut m = Match::create(
        &dir,
        Path::new("games"),
        "aae",
        &players(&t.network, &[&dead], 1),
    )
    .unwrap();
    match m.submit("Germany", STAGE_1) {
        Err(MatchError::Beacon(reason)) => {
            assert!(reason.contains("could not be had"), "{reason}");
            assert!(reason.contains("stay logged"), "{reason}");
        }
        other => panic!("expected a beacon error, got {other:?}"),
    }
    drop(m);
    // The orders are logged and wait; no reveal was written.
    let all = entries(&dir);
    assert!(matches!(all.last().unwrap().body, Body::Order(_)));
    assert!(!all.iter().any(|e| matches!(e.body, Body::Reveal(_))));
    let (rust, rust_out, _, _) = verify(&dir.join("log.jsonl"));
    assert!(rust, "{rust_out}");
    assert!(rust_out.contains("have no adjudication yet"), "{rust_out}");

    // The relay comes back (the organiser points the match at it): opening
    // the match completes the stage with the round due after the orders.
    let (addr, _) = relay(t.clone(), 0);
    let path = dir.join("players.yaml");
    let text = std::fs::read_to_string(&path)
        .unwrap()
        .replace(&dead, &addr);
    std::fs::write(&path, text).unwrap();
    let m = Match::open(&dir).unwrap();
    drop(m);
    let all = entries(&dir);
    assert!(
        all.iter()
            .any(|e| matches!(&e.body, Body::Adjudication(a) if a.stage == 1))
    );
    let (rust, rust_out, py, py_out) = verify(&dir.join("log.jsonl"));
    assert!(rust, "{rust_out}");
    assert!(py, "{py_out}");
}

#[test]
fn a_players_file_naming_an_unknown_network_or_a_bad_relay_is_refused() {
    for (beacon, reason) in [
        ("beacon:\n  network: mainnet\n", "is not known"),
        (
            "beacon:\n  network: quicknet\n  relays: [ftp://x]\n",
            "not an http:// or https:// address",
        ),
    ] {
        let dir = fresh("bad");
        let players = format!(
            "players:\n  Germany: {{name: G, email: g@example.org}}\n  Soviet Union: {{name: S, email: s@example.org}}\n  United Kingdom: {{name: U, email: u@example.org}}\n  United States: {{name: A, email: a@example.org}}\n{beacon}"
        );
        let err = Match::create(&dir, Path::new("games"), "aae", &players)
            .err()
            .unwrap()
            .to_string();
        assert!(err.contains(reason), "{err}");
    }
}

#[test]
fn the_daemon_keeps_a_stage_waiting_for_its_round_and_finishes_it_when_the_relay_answers() {
    use daemon_support::{Env, mail, orders_to, player_address};
    let t = Arc::new(TestNetwork::new());
    let down = Arc::new(AtomicBool::new(true));
    let (addr, _) = relay_switched(t.clone(), 0, down.clone());
    let env = Env::new("beacon", None);
    let mut yaml = players(&t.network, &[&addr], 1).replace("beacon-match", "bm");
    for p in ["Germany", "Soviet Union", "United Kingdom", "United States"] {
        let from = yaml
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{p}:")))
            .unwrap()
            .to_owned();
        yaml = yaml.replace(
            &from,
            &format!(
                "  {p}: {{name: {p} player, email: {}}}",
                player_address("bm", p)
            ),
        );
    }
    let out = env.try_new_match("bm", &yaml);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    env.run_once();
    let secret = env.secret("bm", "Germany");
    let body = format!("match: bm\npower: Germany\nround: 1\nsecret: {secret}\n{STAGE_1}");
    env.drop_mail(
        1,
        &mail(
            &player_address("bm", "Germany"),
            &orders_to("bm"),
            "g1@players.test",
            "orders",
            &body,
        ),
    );
    // The relay is down: the orders are logged, the message waits in the
    // inbox, and nobody is told anything yet.
    let out = env.adjutant(&["run", "--once"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("message left in the inbox"), "{said}");
    assert!(said.contains("could not be had"), "{said}");
    assert_eq!(env.pending(), 1);
    let kinds: Vec<String> = env
        .entries("bm")
        .iter()
        .map(|e| e["kind"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(kinds.iter().filter(|k| *k == "order").count(), 1);
    assert!(!kinds.contains(&"reveal".to_owned()), "{kinds:?}");
    assert!(!env.sent().iter().any(|s| s.subject.contains("Accepted")));
    // The relay is back: the next pass finishes the stage once.
    down.store(false, Ordering::SeqCst);
    env.run_once();
    assert_eq!(env.pending(), 0);
    let receipts = env
        .sent()
        .iter()
        .filter(|s| s.subject.contains("Accepted"))
        .count();
    assert_eq!(receipts, 1);
    let reveals: Vec<serde_json::Value> = env
        .entries("bm")
        .into_iter()
        .filter(|e| e["kind"] == "reveal")
        .collect();
    assert_eq!(reveals.len(), 1);
    assert!(reveals[0]["body"]["beacon"]["round"].as_u64().is_some());
    env.verify("bm");
}
