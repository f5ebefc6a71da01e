//! `adjutant log show`: a match log, readably.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;

use crate::log::chain::for_each_line;
use crate::log::{Body, parse_line};

/// What to do with a log.
#[derive(Debug, Subcommand)]
pub enum LogAction {
    /// Print every entry of a log, one line each (dice in full).
    Show {
        /// The match log file.
        path: PathBuf,
    },
}

pub fn run(action: LogAction) -> anyhow::Result<ExitCode> {
    let LogAction::Show { path } = action;
    let data = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = String::new();
    let mut bad = 0u32;
    // Show what can be read even past a bad line; `verify` is the judge.
    let torn = for_each_line(&data, |seq, offset, line| {
        match parse_line(line) {
            Ok(e) => {
                let _ = writeln!(
                    out,
                    "#{:<5} {}  {:<9}  {}",
                    e.seq,
                    e.time,
                    e.body.kind(),
                    describe(&e.body)
                );
            }
            Err(err) => {
                bad += 1;
                let _ = writeln!(out, "#{seq:<5} (byte {offset}) UNREADABLE: {err}");
            }
        }
        Ok(())
    });
    print!("{out}");
    if let Err(e) = torn {
        println!("#{:<5} (byte {}) {}", e.seq, e.offset, e.reason);
        bad += 1;
    }
    if bad > 0 {
        eprintln!("{bad} unreadable line(s); run `adjutant verify` for the full check");
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// One line about an entry's body.
fn describe(body: &Body) -> String {
    match body {
        Body::Genesis(g) => format!(
            "match {}{}, {:?} dice, {} ({})",
            g.match_id,
            g.game
                .as_ref()
                .map(|id| format!(" of {id}"))
                .unwrap_or_default(),
            g.dice,
            g.engine,
            g.format
        )
        .replace("Verifiable", "verifiable")
        .replace("Fixed", "FIXED TEST"),
        Body::TurnOpen(t) => format!("turn {} opens, commitment {}", t.turn, t.commitment),
        Body::Order(o) => {
            let mut s = format!(
                "turn {}, {}: digest {}, orders {:?}",
                o.turn, o.power, o.digest, o.canonical
            );
            if let Some(id) = &o.message_id {
                let _ = write!(s, ", message {id}");
            }
            s
        }
        Body::Reveal(r) => format!("turn {} secret {}", r.turn, r.secret),
        Body::Adjudication(a) => {
            let mut s = format!(
                "turn {}, {} round {} stage {}: state {}",
                a.turn, a.power, a.round, a.stage, a.state
            );
            for e in &a.events {
                let _ = write!(s, "\n{:>46}{e}", "");
            }
            s
        }
        Body::Received(r) => {
            let mut s = format!(
                "{}{}, mail {}",
                r.outcome.as_str(),
                r.power
                    .as_ref()
                    .map(|p| format!(" ({p})"))
                    .unwrap_or_default(),
                r.mail_sha256
            );
            if let Some(id) = &r.message_id {
                let _ = write!(s, ", message {id}");
            }
            if let Some(c) = &r.command {
                let _ = write!(s, ", command {c}");
            }
            for e in &r.errors {
                let _ = write!(s, "\n{:>46}{e}", "");
            }
            s
        }
        Body::Welcome(w) => format!("welcome mails sent to {}", w.powers.join(", ")),
        Body::Deadline(d) => format!(
            "deadline {} of {} round {} stage {} (due {})",
            d.event.as_str(),
            d.power,
            d.round,
            d.stage,
            d.due
        ),
        Body::Dice(d) => {
            let n: usize = d.rolls.iter().map(|g| g.values.len()).sum();
            let mut s = format!("turn {}, {n} dice", d.turn);
            for g in &d.rolls {
                let values: Vec<String> = g.values.iter().map(u32::to_string).collect();
                let _ = write!(
                    s,
                    "\n{:>46}{} d{}: {}",
                    "",
                    g.label,
                    g.sides,
                    values.join(" ")
                );
            }
            s
        }
    }
}
