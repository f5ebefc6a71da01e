//! Benchmarks of the mail daemon (issue 5), figures in docs/performance.md:
//!
//! - `daemon/maildir_throughput`: messages handled per second on the Maildir
//!   path with real adjudication: parse, authenticate, dedupe, log (fsync),
//!   adjudicate, render the receipt and four turn reports, enqueue, move.
//! - resident memory of the real daemon (`adjutant run`, release build) with
//!   1,000 active matches: every match welcomed and one stage played in each,
//!   then idle; VmHWM (peak) and VmRSS read from /proc.

#[path = "../tests/daemon_support/mod.rs"]
mod daemon_support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use adjutant::daemon::{Config, Daemon};
use adjutant::matches::Match;
use criterion::{Criterion, criterion_group};

use daemon_support::{TURN_ORDER, burst_orders, mail, player_address};

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

fn players_yaml(id: &str) -> String {
    let mut yaml = format!("match: {id}\nplayers:\n");
    for (p, _) in TURN_ORDER {
        yaml.push_str(&format!(
            "  {p}: {{name: {p} player, email: {}}}\n",
            player_address(id, p)
        ));
    }
    yaml
}

fn fresh(dir: &Path) {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).unwrap();
}

/// A data directory with `matches` matches, welcomed, and Germany's two
/// stage messages of round 1 for each waiting in the inbox.
fn prepared(root: &Path, matches: usize) -> Daemon {
    fresh(root);
    let config = Config::embedded(root);
    std::fs::create_dir_all(&config.matches_dir).unwrap();
    for m in 0..matches {
        let id = format!("b{m}");
        drop(
            Match::create(
                &config.matches_dir.join(&id),
                &games(),
                "aae",
                &players_yaml(&id),
            )
            .unwrap(),
        );
    }
    let mut d = Daemon::open(config, Arc::new(AtomicBool::new(false))).unwrap();
    let secrets = d.discover().unwrap();
    d.deliver().unwrap();
    let mut n = 0;
    for m in 0..matches {
        let id = format!("b{m}");
        for k in 0..2 {
            let (power, body) = burst_orders(&id, k, &|p| {
                secrets
                    .iter()
                    .find(|(mid, pw, _)| *mid == id && pw == p)
                    .map(|(_, _, s)| s.clone())
                    .unwrap()
            });
            let bytes = mail(
                &player_address(&id, &power),
                &format!("orders+{id}@adjutant.localhost"),
                &format!("bench{n}@players.test"),
                "orders",
                &body,
            );
            d.maildir().unwrap().deliver(&bytes).unwrap();
            n += 1;
        }
    }
    d
}

fn throughput(c: &mut Criterion) {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-daemon-throughput");
    let mut g = c.benchmark_group("daemon");
    g.sample_size(10);
    // 8 matches x 2 messages per iteration; the time is per message.
    const MATCHES: usize = 8;
    g.bench_function("maildir_throughput_per_message", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut d = prepared(&root, MATCHES);
                let t = Instant::now();
                let pass = d.process_pending().unwrap();
                total += t.elapsed();
                assert_eq!(pass.processed, 2 * MATCHES);
                assert_eq!(pass.failed, 0);
            }
            total / (2 * MATCHES) as u32
        })
    });
    g.finish();
}

fn vm_kib(pid: u32, key: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix(key))
        .map(|v| v.trim().trim_end_matches("kB").trim().parse().unwrap())
        .unwrap()
}

fn count(dir: &Path) -> usize {
    std::fs::read_dir(dir).map(|r| r.count()).unwrap_or(0)
}

fn count_eml(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok())
                .filter(|e| e.path().extension().is_some_and(|x| x == "eml"))
                .count()
        })
        .unwrap_or(0)
}

/// 1,000 matches under the real daemon, then its memory.
fn memory_with_1000_matches() {
    const MATCHES: usize = 1000;
    let root = Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-daemon-memory");
    let t = Instant::now();
    // The matches, welcomed, with Germany's stage 1 and 2 in the inbox
    // (prepared in this process; the daemon under test starts after).
    let d = prepared(&root, MATCHES);
    drop(d);
    let setup = t.elapsed();
    let cfg = root.join("adjutant.yaml");
    std::fs::write(
        &cfg,
        format!("data_dir: {}\npoll_interval: 1s\n", root.display()),
    )
    .unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["run", "--config", cfg.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let pid = child.id();
    let t = Instant::now();
    let inbox = root.join("inbox");
    while count(&inbox.join("new")) + count(&inbox.join("cur")) > 0 {
        assert!(
            t.elapsed() < Duration::from_secs(1800),
            "the daemon did not empty the inbox"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    let handled = t.elapsed();
    // Let it send and go idle for a few polls.
    std::thread::sleep(Duration::from_secs(5));
    let rss = vm_kib(pid, "VmRSS:");
    let hwm = vm_kib(pid, "VmHWM:");
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
    let status = child.wait().unwrap();
    let sent = count_eml(&root.join("sent-mail"));
    println!(
        "daemon/memory_1000_matches: VmRSS {:.1} MiB idle, VmHWM {:.1} MiB peak (target < 100 MB); \
         {} messages handled in {:.1} s ({:.1} msg/s, real daemon, release); {} mails in sent-mail; \
         setup {:.1} s; exit {status}",
        rss as f64 / 1024.0,
        hwm as f64 / 1024.0,
        2 * MATCHES,
        handled.as_secs_f64(),
        (2 * MATCHES) as f64 / handled.as_secs_f64(),
        sent,
        setup.as_secs_f64(),
    );
}

criterion_group!(benches, throughput);

fn main() {
    benches();
    Criterion::default().configure_from_args().final_summary();
    // The memory figure is one measurement of a real process, not a
    // criterion sample; skipped when a filter excludes it.
    let filter: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    if filter.is_empty()
        || filter
            .iter()
            .any(|f| "daemon/memory_1000_matches".contains(f.as_str()))
    {
        memory_with_1000_matches();
    }
}
