//! `adjutant demo`: the trust core at work on the embedded default.
//!
//! Writes (or continues) a match log under a data directory with real
//! commit-reveal dice: each run plays one dice turn with two sample order
//! messages and the dice of a few battles, then verifies the whole log.
//! The battles' dice are drawn for fixed labels because the rules engine
//! arrives with the Axis & Allies: Europe issues; the dice, commitments and
//! log are the real ones.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::dice::{DiceKind, Label};
use crate::log::{Genesis, LOG_FORMAT, MatchLog, VerifyOptions, verify_file};
use crate::matches::DiceTurn;

/// Arguments of `adjutant demo`.
#[derive(Debug, Args)]
pub struct DemoArgs {
    /// The data directory; the log is DIR/demo.log (continued if it exists).
    #[arg(long, default_value = "adjutant-data")]
    dir: PathBuf,
}

const SAMPLE_ORDERS: [(&str, &str); 2] = [
    (
        "Germany",
        "combat:\n  - 3 infantry, 1 artillery, 2 armor: Poland -> Belorussia\nentropy: for the demo\n",
    ),
    (
        "Soviet Union",
        "standing:\n  losses: infantry, artillery, armor\n",
    ),
];

/// (territory, attacking dice, defending dice) of the demo's battles.
const BATTLES: [(&str, usize, usize); 3] =
    [("Belorussia", 6, 3), ("Ukraine", 4, 2), ("Finland", 2, 2)];

pub fn run(args: DemoArgs) -> anyhow::Result<ExitCode> {
    std::fs::create_dir_all(&args.dir)
        .with_context(|| format!("cannot create {}", args.dir.display()))?;
    let path = args.dir.join("demo.log");
    let mut log = if path.exists() {
        MatchLog::open(&path)?
    } else {
        let genesis = Genesis {
            format: LOG_FORMAT.into(),
            match_id: "demo".into(),
            dice: DiceKind::Verifiable,
            engine: format!("adjutant {}", env!("CARGO_PKG_VERSION")),
            game: None,
            game_hash: None,
            players: Vec::new(),
        };
        MatchLog::create(&path, genesis)?.0
    };

    let (turn, opened) = DiceTurn::open(&mut log)?;
    let t = turn.turn();
    println!(
        "turn {t} opened (entry {}), commitment published before any order",
        opened.seq
    );
    for (power, orders) in SAMPLE_ORDERS {
        let (digest, w) = turn.record_order(&mut log, power, orders)?;
        println!(
            "  accepted orders from {power} (entry {}), digest {digest}",
            w.seq
        );
    }
    let mut dice = turn.reveal(&mut log)?;
    println!("  secret revealed; turn key fixed by the secret and both digests");
    for (territory, attack, defend) in BATTLES {
        for (side, count) in [("attacker", attack), ("defender", defend)] {
            let label =
                Label::from_segments(&["battle", territory, "round", "1", side, "infantry"])?;
            let values = dice.roll_many(&label, count, 6);
            println!("  {label}: {values:?}");
        }
    }
    let w = DiceTurn::record_dice(&mut log, t, &mut dice)?;
    println!("  dice logged (entry {}), head {}", w.seq, w.hash);
    drop(log);

    println!();
    match verify_file(&path, &VerifyOptions::default())? {
        Ok(s) => {
            println!(
                "verified {}: {} entries, {} turns, {} dice re-derived from the revealed secrets",
                path.display(),
                s.entries,
                s.turns,
                s.dice
            );
            println!(
                "check it yourself: adjutant verify {0}  or  python3 tools/verify_dice.py {0}",
                path.display()
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("verify FAILED: {e}");
            Ok(ExitCode::from(1))
        }
    }
}
