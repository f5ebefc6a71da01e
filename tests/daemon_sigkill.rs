//! Exactly once under SIGKILL: a burst of 200 order messages across four
//! matches, the daemon killed at random moments and restarted until the
//! inbox is empty. Every message is applied once, every reply is sent once
//! (the file transport names files by content, so a re-sent reply would be
//! a second file only if it differed), and every log verifies.

mod daemon_support;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use daemon_support::*;

const MATCHES: usize = 4;
const PER_MATCH: usize = 50;

/// A small xorshift, seeded from the clock: kill moments differ per run.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

#[test]
fn a_burst_survives_sigkill_exactly_once() {
    let env = Env::new(
        "sigkill",
        // No map in the reports: this test is about crash safety, and a
        // picture per report only slows each run between kills.
        Some(
            "limits: {per_sender_per_hour: 1000, per_match_per_hour: 1000}\npoll_interval: 1s\n\
             mail: {map_in_reports: false}\n",
        ),
    );
    let ids: Vec<String> = (0..MATCHES).map(|i| format!("k{i}")).collect();
    for id in &ids {
        env.new_match(id);
    }
    env.run_once();
    let mut secrets: HashMap<(String, String), String> = HashMap::new();
    for id in &ids {
        for (p, _) in TURN_ORDER {
            secrets.insert((id.clone(), p.to_owned()), env.secret(id, p));
        }
    }
    let welcomes = env.sent().len();
    assert_eq!(welcomes, MATCHES * 4);

    // Interleave the matches; within a match the names sort in play order.
    let mut n = 0u64;
    for k in 0..PER_MATCH {
        for id in &ids {
            let (power, body) =
                burst_orders(id, k, &|p| secrets[&(id.clone(), p.to_owned())].clone());
            let raw = mail(
                &player_address(id, &power),
                &orders_to(id),
                &format!("{id}-{k}@burst"),
                "orders",
                &body,
            );
            env.drop_mail(n, &raw);
            n += 1;
        }
    }
    let total = MATCHES * PER_MATCH;
    assert_eq!(env.pending(), total);

    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    let mut rng = Rng(seed);
    let deadline = Instant::now() + Duration::from_secs(900);
    let cfg = env.config.clone().unwrap();
    let mut kills = 0;
    let mut runs = 0;
    loop {
        assert!(
            Instant::now() < deadline,
            "not done in time (seed {seed}, {kills} kills)"
        );
        runs += 1;
        let mut child = env
            .command(&["run", "--once", "--config", cfg.to_str().unwrap()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let wait = Duration::from_millis(100 + rng.next() % 1400);
        let started = Instant::now();
        let mut exited = None;
        while started.elapsed() < wait {
            if let Some(status) = child.try_wait().unwrap() {
                exited = Some(status);
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        match exited {
            Some(status) => {
                assert!(status.success(), "the daemon failed (seed {seed})");
                if env.pending() == 0 {
                    break;
                }
            }
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                kills += 1;
            }
        }
    }
    // A last clean pass sends anything still queued.
    env.run_once();
    eprintln!("seed {seed}: {runs} runs, {kills} SIGKILLs");
    assert!(
        kills >= 3,
        "the test must actually kill the daemon (seed {seed}, {kills} kills)"
    );

    for id in &ids {
        env.verify(id);
        let entries = env.entries(id);
        let orders = entries.iter().filter(|e| e["kind"] == "order").count();
        assert_eq!(
            orders, PER_MATCH,
            "{id}: every message applied exactly once (seed {seed})"
        );
        let mut finals: HashMap<String, usize> = HashMap::new();
        for e in &entries {
            if e["kind"] == "received" && e["body"]["outcome"] != "processing" {
                assert_eq!(e["body"]["outcome"], "accepted", "{id}: {e} (seed {seed})");
                *finals
                    .entry(e["body"]["mail_sha256"].as_str().unwrap().to_owned())
                    .or_default() += 1;
            }
        }
        assert_eq!(finals.len(), PER_MATCH, "{id} (seed {seed})");
        assert!(finals.values().all(|&c| c == 1), "{id} (seed {seed})");
    }
    // Replies: a receipt and four reports per message, each exactly once.
    let sent = env.sent();
    let receipts = sent
        .iter()
        .filter(|s| s.subject.contains("Accepted"))
        .count();
    let reports = sent.iter().filter(|s| s.subject.contains("Report")).count();
    assert_eq!(receipts, total, "seed {seed}");
    assert_eq!(reports, total * 4, "seed {seed}");
    assert_eq!(sent.len(), welcomes + total * 5, "seed {seed}");
    let mut replies_to: HashMap<String, usize> = HashMap::new();
    for s in sent.iter().filter(|s| s.subject.contains("Accepted")) {
        *replies_to
            .entry(s.in_reply_to.clone().unwrap())
            .or_default() += 1;
    }
    assert_eq!(replies_to.len(), total);
    let processed = std::fs::read_dir(env.data.join("inbox/.processed/cur"))
        .unwrap()
        .count();
    assert_eq!(processed, total);
}
