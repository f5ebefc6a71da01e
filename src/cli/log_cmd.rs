//! `adjutant log show`: a match log, readably.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Subcommand;

use crate::control_chars::{Target, escape};
use crate::dice::DiceKind;
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
            // Every line is escaped as a whole: the log's text must not be
            // able to start a line of its own or rewrite one on the screen.
            Ok(e) => {
                let mut lines = describe(&e.body).into_iter();
                let first = lines.next().unwrap_or_default();
                let _ = writeln!(
                    out,
                    "#{:<5} {}  {:<9}  {}",
                    e.seq,
                    escape(&e.time, Target::Terminal),
                    e.body.kind(),
                    escape(&first, Target::Terminal)
                );
                for line in lines {
                    let _ = writeln!(out, "{:>46}{}", "", escape(&line, Target::Terminal));
                }
            }
            Err(err) => {
                bad += 1;
                let err = err.to_string();
                let _ = writeln!(
                    out,
                    "#{seq:<5} (byte {offset}) UNREADABLE: {}",
                    escape(&err, Target::Terminal)
                );
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

/// What an entry's body says: one line, then the lines of its events or
/// dice (shown indented), as the log has them (unescaped).
fn describe(body: &Body) -> Vec<String> {
    match body {
        Body::Genesis(g) => {
            let dice = match g.dice {
                DiceKind::Verifiable => "verifiable",
                DiceKind::Fixed => "FIXED TEST",
            };
            vec![format!(
                "match {}{}, {dice} dice, {} ({})",
                g.match_id,
                g.game
                    .as_ref()
                    .map(|id| format!(" of {id}"))
                    .unwrap_or_default(),
                g.engine,
                g.format
            )]
            .into_iter()
            .chain(g.beacon.as_ref().map(|b| {
                format!(
                    "beacon {} (chain {}, round 1 at {}, every {} s)",
                    b.name, b.chain_hash, b.genesis_time, b.period
                )
            }))
            .collect()
        }
        Body::TurnOpen(t) => vec![format!(
            "turn {} opens, commitment {}",
            t.turn, t.commitment
        )],
        Body::Order(o) => {
            let mut s = format!(
                "turn {}, {}: digest {}, orders {:?}",
                o.turn, o.power, o.digest, o.canonical
            );
            if let Some(id) = &o.message_id {
                let _ = write!(s, ", message {id}");
            }
            vec![s]
        }
        Body::Reveal(r) => match &r.beacon {
            Some(b) => vec![format!(
                "turn {} secret {}, beacon round {} signature {}",
                r.turn, r.secret, b.round, b.signature
            )],
            None => vec![format!("turn {} secret {}", r.turn, r.secret)],
        },
        Body::Adjudication(a) => {
            let mut lines = vec![format!(
                "turn {}, {} round {} stage {}: state {}",
                a.turn, a.power, a.round, a.stage, a.state
            )];
            lines.extend(a.events.iter().cloned());
            lines
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
            let mut lines = vec![s];
            lines.extend(r.errors.iter().cloned());
            lines
        }
        Body::Welcome(w) => vec![format!("welcome mails sent to {}", w.powers.join(", "))],
        Body::Deadline(d) => vec![format!(
            "deadline {} of {} round {} stage {} (due {})",
            d.event.as_str(),
            d.power,
            d.round,
            d.stage,
            d.due
        )],
        Body::Organiser(o) => {
            let mut s = format!("organiser {} ({}): ", o.organiser, o.via);
            let words = crate::matches::organise::describe(o);
            let mut lines = words.lines();
            s.push_str(lines.next().unwrap_or_default());
            let mut out = vec![s];
            out.extend(lines.filter(|l| !l.is_empty()).map(str::to_owned));
            out
        }
        Body::Bid(b) => vec![format!("bid: {}", crate::matches::bids::describe(b))],
        Body::Escalation(e) => vec![format!(
            "escalation: {} missed {} deadlines; policy {}",
            e.power,
            e.missed,
            e.policy.as_str()
        )],
        Body::Dice(d) => {
            let n: usize = d.rolls.iter().map(|g| g.values.len()).sum();
            let mut lines = vec![format!("turn {}, {n} dice", d.turn)];
            for g in &d.rolls {
                let values: Vec<String> = g.values.iter().map(u32::to_string).collect();
                lines.push(format!("{} d{}: {}", g.label, g.sides, values.join(" ")));
            }
            lines
        }
    }
}
