//! `adjutant demo`: the trust core at work on the embedded default.
//!
//! Each run creates a new match of Axis & Allies: Europe under a data
//! directory and plays one power's turn through the same path as `submit`:
//! the dice turn's commitment, the Soviet Union's standing orders, Germany's
//! stage 1 (an attack on East Poland, so there are battle dice) and stage 2.
//! It shows each step as the log records it, then verifies the whole log,
//! re-deriving every die and replaying every message through the engine.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::log::{Body, VerifyOptions, verify_file};
use crate::matches::Match;
use crate::matches::history::read_log;
use crate::rules::builtin::GameSource;

/// Arguments of `adjutant demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The data directory; each run creates a new match DIR/demo-N.
    #[arg(long, default_value = "adjutant-data")]
    dir: PathBuf,
    /// A directory of games, each in DIR/<id>/ (game.yaml, board.yaml,
    /// units.yaml, setup.yaml); without it, the games built into the
    /// program (aae, aae-jboulton, advanced-aae, anniversary-1941,
    /// anniversary-1942, classic).
    #[arg(long, value_name = "DIR")]
    games: Option<PathBuf>,
}

/// The messages of the demo, in the order they are sent.
const MESSAGES: [(&str, &str); 3] = [
    (
        "Soviet Union",
        "standing:\n  losses: infantry, artillery, armor\nentropy: Sasha's own entropy\n",
    ),
    (
        "Germany",
        "purchase: 2 infantry, 1 armor\ncombat:\n  - 3 infantry, 1 artillery, 2 armor: Poland -> East Poland\nentropy: for the demo\n",
    ),
    ("Germany", "place:\n  Germany: 2 infantry, 1 armor\n"),
];

pub fn run(args: DemoArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let (id, dir) = (1..)
        .map(|n| (format!("demo-{n}"), args.dir.join(format!("demo-{n}"))))
        .find(|(_, d)| !d.exists())
        .expect("some demo-N is free");
    let source = GameSource::from_flag(args.games.as_deref());
    let mut m = Match::create_from(
        &dir,
        &source,
        "aae",
        &crate::daemon::demo::players_yaml(&id),
    )
    .with_context(|| format!("cannot create the demo match in {}", dir.display()))?;
    let mut out = String::new();
    let _ = writeln!(out, "match {id} of aae created in {}", dir.display());
    let mut shown = 0;
    shown = show_entries(&dir, shown, &mut out)?;
    for (power, orders) in MESSAGES {
        match m.submit(power, orders)? {
            Ok(receipt) => {
                let what = match receipt.stage {
                    0 => "standing orders".to_owned(),
                    n => format!("stage {n} orders"),
                };
                let _ = writeln!(
                    out,
                    "{power}'s {what} accepted; their digest {}",
                    receipt.digest
                );
            }
            Err(errors) => {
                let list: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                anyhow::bail!(
                    "the demo's orders for {power} were refused: {}",
                    list.join("; ")
                );
            }
        }
        shown = show_entries(&dir, shown, &mut out)?;
    }
    drop(m);
    print!("{out}");
    println!();
    let log = dir.join("log.jsonl");
    let opts = VerifyOptions::default();
    match verify_file(&log, &opts)? {
        Ok(s) => {
            let replay = crate::matches::replay_match(
                &log,
                read_log(&dir)?
                    .first()
                    .and_then(|e| match &e.body {
                        Body::Genesis(g) => Some(g),
                        _ => None,
                    })
                    .context("the demo log has no genesis")?,
            )?;
            println!(
                "verified {}: {} entries, {} turns, {} dice re-derived from the revealed secrets, {} messages replayed by the engine to their recorded states",
                log.display(),
                s.entries,
                s.turns,
                s.dice,
                replay.messages
            );
            println!(
                "check it yourself: adjutant verify {0}  or  python3 tools/verify_dice.py {0}",
                log.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("verify FAILED: {e}");
            Ok(ExitCode::from(1))
        }
    }
}

/// Describes the log entries after the first `from`; returns the count.
fn show_entries(dir: &Path, from: usize, out: &mut String) -> anyhow::Result<usize> {
    let entries = read_log(dir)?;
    for e in &entries[from..] {
        let line = match &e.body {
            Body::Genesis(_) => "genesis: the match, its game and its players".to_owned(),
            Body::TurnOpen(t) => format!(
                "dice turn {} opened: commitment {} published before any order",
                t.turn, t.commitment
            ),
            Body::Order(o) => format!("orders of {} logged, digest {}", o.power, o.digest),
            Body::Reveal(r) => format!(
                "dice turn {} revealed: secret {}; its key is fixed by the secret and the digests before it",
                r.turn, r.secret
            ),
            Body::Dice(d) => {
                let mut s = String::from("dice logged:");
                for g in &d.rolls {
                    let _ = write!(s, "\n      {} d{}: {:?}", g.label, g.sides, g.values);
                }
                s
            }
            Body::Adjudication(a) => format!(
                "adjudication of {}'s stage {}: {} event(s), state {}",
                a.power,
                a.stage,
                a.events.len(),
                a.state
            ),
            other => other.kind().to_owned(),
        };
        let _ = writeln!(out, "  entry {}: {line}", e.seq);
    }
    Ok(entries.len())
}
