//! `adjutant new`, `submit` and `show`: a match offline, through exactly the
//! code path the mail daemon uses ([`Match`]).

use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::matches::{Match, Submitted};
use crate::report::board;
use crate::rules::builtin::GameSource;

/// Arguments of `adjutant new`.
#[derive(Debug, Args)]
pub struct NewArgs {
    /// The game id: a built-in game, or a directory under --games.
    #[arg(long)]
    game: String,
    /// The players file: `players: {Germany: {name: ..., email: ...}, ...}`.
    #[arg(long)]
    players: PathBuf,
    /// The new match's directory (its name is the match id unless the
    /// players file sets `match:`).
    #[arg(long)]
    dir: PathBuf,
    /// A directory of games, each in DIR/<id>/ (game.yaml, board.yaml,
    /// units.yaml, setup.yaml); without it, the games built into the
    /// program (aae, aae-jboulton, advanced-aae, anniversary-1941,
    /// anniversary-1942, classic).
    #[arg(long, value_name = "DIR")]
    games: Option<PathBuf>,
}

/// Arguments of `adjutant submit`.
#[derive(Debug, Args)]
pub struct SubmitArgs {
    /// The match directory.
    #[arg(long = "match")]
    dir: PathBuf,
    /// The power sending the orders.
    #[arg(long = "as")]
    power: String,
    /// The orders file (YAML as a player writes it); `-` for standard input.
    orders: PathBuf,
}

/// Arguments of `adjutant show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The match directory.
    #[arg(long = "match")]
    dir: PathBuf,
    /// Print the position's canonical text instead (what each log entry's
    /// `state` digest is the SHA-256 of; `docs/log.md`).
    #[arg(long)]
    position: bool,
}

pub fn new(args: NewArgs) -> anyhow::Result<ExitCode> {
    let players = std::fs::read_to_string(&args.players)
        .with_context(|| format!("cannot read {}", args.players.display()))?;
    let source = GameSource::from_flag(args.games.as_deref());
    let m = Match::create_from(&args.dir, &source, &args.game, &players)?;
    let genesis = m.log().chain().genesis().expect("genesis");
    println!(
        "created match {} of {} in {}",
        genesis.match_id,
        m.game().files().game.name,
        args.dir.display()
    );
    if let Some((turn, _)) = m.log().chain().open_turn() {
        println!("dice turn {turn} committed; log head {}", m.log().head());
    }
    print!("{}", board::render(m.game(), m.state()));
    Ok(ExitCode::SUCCESS)
}

pub fn submit(args: SubmitArgs) -> anyhow::Result<ExitCode> {
    let yaml = if args.orders.as_os_str() == "-" {
        let mut s = String::new();
        std::io::stdin()
            .read_to_string(&mut s)
            .context("cannot read standard input")?;
        s
    } else {
        std::fs::read_to_string(&args.orders)
            .with_context(|| format!("cannot read {}", args.orders.display()))?
    };
    let mut m = Match::open(&args.dir)?;
    match m.submit_any(&args.power, &yaml)? {
        Ok(Submitted::Bid(b)) => {
            println!(
                "Sealed: the {} bid {} IPCs, commitment {} (salt {}).",
                b.bidder, b.ipcs, b.commitment, b.salt
            );
            if let Some(seq) = b.revealed {
                if let Some(crate::log::Body::Bid(e)) =
                    m.log().entries().get(seq as usize - 1).map(|e| &e.body)
                {
                    println!("{}", crate::matches::bids::describe(e));
                }
            } else {
                println!(
                    "Waiting for the bids of {}.",
                    m.waiting_bidders().join(" and ")
                );
            }
            println!("Log head: {}", b.head);
            println!("{}", m.state().phase.stage_name());
            Ok(ExitCode::SUCCESS)
        }
        Ok(Submitted::Orders(r)) => {
            println!(
                "Received and applied, stage {} of {}'s round {}.",
                r.stage, r.power, r.round
            );
            println!("Your orders as understood:");
            for line in r.canonical.lines() {
                println!("    {line}");
            }
            println!("What happened:");
            for e in &r.events {
                println!("    {e}");
            }
            println!("Digest of these orders: {}", r.digest);
            println!("Log head: {}", r.head);
            println!("{}", m.state().phase.stage_name());
            Ok(ExitCode::SUCCESS)
        }
        Err(errors) => {
            for e in &errors {
                eprintln!("{e}");
            }
            eprintln!("Nothing was applied.");
            Ok(ExitCode::from(1))
        }
    }
}

pub fn show(args: ShowArgs) -> anyhow::Result<ExitCode> {
    let m = Match::open(&args.dir)?;
    if args.position {
        // The text of the rules version the match is at (its digests').
        let version = crate::rules::version::of_log(m.log().chain().rules_version());
        let text = crate::matches::state_text_as(version, m.game(), m.state())
            .map_err(|e| anyhow::anyhow!(e))?;
        print!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    print!("{}", board::render(m.game(), m.state()));
    if let Some((turn, key)) = m.log().chain().open_turn() {
        println!();
        println!(
            "dice turn {turn}: {}",
            if key.is_some() {
                "secret revealed"
            } else {
                "committed, secret not yet revealed"
            }
        );
    }
    println!("log head {}", m.log().head());
    Ok(ExitCode::SUCCESS)
}
