//! `adjutant verify`: check a match log without trusting the server.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::control_chars::{Target, escape};
use crate::dice::{DiceKind, Digest32};
use crate::log::{Verified, VerifyOptions, verify_entries};

/// Arguments of `adjutant verify`.
#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// The match log file.
    path: PathBuf,
    /// A log head hash from a mail: fail unless the log contains that entry.
    #[arg(long, value_parser = parse_head)]
    head: Option<Digest32>,
    /// Accept a log made with scripted test dice (they prove nothing).
    #[arg(long)]
    allow_fixed_dice: bool,
}

fn parse_head(s: &str) -> Result<Digest32, String> {
    Digest32::from_hex(s)
}

pub fn run(args: VerifyArgs) -> anyhow::Result<ExitCode> {
    let opts = VerifyOptions {
        allow_fixed_dice: args.allow_fixed_dice,
        head: args.head,
    };
    // The log is read and parsed once: the engine replay takes the entries
    // the chain check parsed (docs/performance.md).
    let data = std::fs::read(&args.path)
        .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", args.path.display()))?;
    match verify_entries(&data, &opts) {
        Ok(verified) => {
            let s = &verified.summary;
            let dice = match s.dice_kind {
                DiceKind::Verifiable => format!("{} dice re-derived", s.dice),
                DiceKind::Fixed => format!("{} FIXED TEST dice (not verifiable)", s.dice),
            };
            // The match id is the log's text, which must not be able to
            // print a line of its own.
            println!(
                "ok: match {}: {} entries, {} turns, {} orders, {dice}",
                escape(&s.match_id, Target::Terminal),
                s.entries,
                s.turns,
                s.orders
            );
            if let Some(t) = s.unrevealed_turn {
                println!("turn {t} is open; its secret is not yet revealed");
            }
            if let Some(n) = s.unadjudicated {
                println!(
                    "the orders of entry {n} have no adjudication yet (the server stopped between the two; opening the match completes them)"
                );
            }
            if s.legacy_format {
                println!(
                    "note: this log is of format adjutant-log/1, whose order entries need no adjudication: a forging server could have fed a turn key extra order entries, which format adjutant-log/2 rules out (docs/log.md, \"Format versions\")"
                );
            }
            if s.organiser_actions > 0 {
                println!(
                    "{} organiser action(s), {} rollback(s){}: each checked against the match so far (adjutant log show lists them)",
                    s.organiser_actions,
                    s.rollbacks,
                    s.ended
                        .map(|e| format!("; the match ended at entry {e}"))
                        .unwrap_or_default()
                );
            }
            if let Some(n) = s.head_entry {
                println!("the given head is entry {n}");
            }
            println!("head {}", s.head);
            replay(&args.path, &verified)
        }
        Err(e) => {
            // The reason can quote the log's text.
            let e = e.to_string();
            eprintln!(
                "verify FAILED: {}: {}",
                args.path.display(),
                escape(&e, Target::Terminal)
            );
            Ok(ExitCode::from(1))
        }
    }
}

/// For the log of a match of a game, replays the rules engine over every
/// accepted message with the match's own copy of the game data.
fn replay(path: &std::path::Path, verified: &Verified) -> anyhow::Result<ExitCode> {
    let Some(crate::log::Body::Genesis(genesis)) = verified.entries.first().map(|e| &e.body) else {
        return Ok(ExitCode::SUCCESS);
    };
    if genesis.game.is_none() {
        return Ok(ExitCode::SUCCESS);
    }
    // A log of rules this program does not replay: the chain and every die
    // were checked above; the engine replay cannot be (docs/log.md, "Rules
    // version").
    let version = crate::rules::version::of_log(genesis.rules_version);
    if let Some(why) = crate::rules::version::cannot_replay(version) {
        println!("engine replay: not done: {why}; the chain and every die are checked above");
        return Ok(ExitCode::from(3));
    }
    // An upgrade to a version this program does not replay: the same.
    let mut versions = format!(
        "rules version: written by version {version}{}",
        if genesis.rules_version.is_none() {
            " (none recorded)"
        } else {
            ""
        }
    );
    for entry in &verified.entries {
        if let crate::log::Body::Organiser(o) = &entry.body
            && let Some(to) = o.to_version
        {
            let seq = entry.seq;
            if let Some(why) = crate::rules::version::cannot_replay(to) {
                let why = why.replacen("written by", &format!("upgraded at entry {seq} to"), 1);
                println!(
                    "engine replay: not done: {why}; the chain and every die are checked above"
                );
                return Ok(ExitCode::from(3));
            }
            versions.push_str(&format!(", upgraded at entry {seq} to version {to}"));
        }
    }
    println!(
        "{versions}; this program replays {}",
        crate::rules::version::replayed()
    );
    match crate::matches::replay_verified(path, verified) {
        Ok(r) => {
            println!(
                "engine replay: {} accepted messages re-adjudicated to their recorded states{}",
                r.messages,
                if r.unfinished {
                    "; the last message's result is not logged yet (a crash before it); opening the match completes it"
                } else {
                    ""
                }
            );
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            let e = e.to_string();
            eprintln!(
                "verify FAILED: {}: {}",
                path.display(),
                escape(&e, Target::Terminal)
            );
            Ok(ExitCode::from(1))
        }
    }
}
