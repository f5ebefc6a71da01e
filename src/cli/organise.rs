//! `adjutant organise`: an organiser's action on the server, through the
//! same checks and entries as an organiser's mail
//! ([`crate::matches::organise`]); the daemon mails the players' notices
//! from the log.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::log::{Body, WriteError};
use crate::matches::organise::{self, Request, Via};
use crate::matches::{Match, MatchError, Roster};

/// Arguments of `adjutant organise`.
#[derive(Debug, Args)]
pub struct OrganiseArgs {
    /// The match directory.
    #[arg(long = "match")]
    dir: PathBuf,
    /// The organiser acting, as the players file's `organisers:` names them.
    #[arg(long = "as")]
    organiser: String,
    /// pause, resume, extend, replace, absent, forfeit, resign, draw, ruling,
    /// rollback, upgrade, or reveal-bids (the sealed bids at their deadline:
    /// a bidder who did not bid has no bid).
    action: String,
    /// The power concerned.
    #[arg(long)]
    power: Option<String>,
    /// The side that forfeits or resigns the whole match.
    #[arg(long)]
    side: Option<String>,
    /// extend: how much later (48h, 3d).
    #[arg(long)]
    by: Option<String>,
    /// extend: the new deadline; absent: the last day away (2026-12-08) or the time the player is back.
    #[arg(long)]
    until: Option<String>,
    /// absent: the first day away (default: now).
    #[arg(long)]
    from: Option<String>,
    /// replace: the new player's name.
    #[arg(long)]
    name: Option<String>,
    /// replace: the new player's address.
    #[arg(long)]
    email: Option<String>,
    /// replace: the new player's time zone (Europe/Berlin).
    #[arg(long)]
    time_zone: Option<String>,
    /// ruling: the log entry it is about.
    #[arg(long)]
    entry: Option<u64>,
    /// ruling: the ruling's text.
    #[arg(long)]
    text: Option<String>,
    /// Why (every action but a ruling).
    #[arg(long)]
    reason: Option<String>,
}

pub fn run(args: OrganiseArgs) -> anyhow::Result<ExitCode> {
    // A running daemon holds the match's log while it handles a message
    // for it: wait a little for it rather than fail.
    let mut tries = 0;
    let mut m = loop {
        match Match::open(&args.dir) {
            Err(MatchError::Log(WriteError::Locked(_))) if tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(100));
            }
            other => break other?,
        }
    };
    let roster = Roster::load(&args.dir, m.game())?;
    let Some(who) = roster.organiser(&args.organiser) else {
        let names: Vec<&str> = roster
            .organisers()
            .iter()
            .map(|o| o.name.as_str())
            .collect();
        eprintln!(
            "{:?} is not an organiser of this match; {}",
            args.organiser,
            if names.is_empty() {
                "its players file names none (add organisers: [{name: ..., email: ...}])".to_owned()
            } else {
                format!("its organisers are {}", names.join(", "))
            }
        );
        return Ok(ExitCode::from(1));
    };
    let name = who.name.clone();
    let req = Request {
        action: Some(args.action),
        power: args.power,
        side: args.side,
        by: args.by,
        until: args.until,
        from: args.from,
        name: args.name,
        email: args.email,
        time_zone: args.time_zone,
        entry: args.entry,
        text: args.text,
        reason: args.reason,
        ..Request::default()
    };
    let plan = match organise::plan(&m, &req, chrono::Utc::now()) {
        Ok(p) => p,
        Err(errors) => {
            eprintln!("Nothing was done:");
            for e in errors {
                eprintln!("  - {e}");
            }
            return Ok(ExitCode::from(1));
        }
    };
    let seq = organise::carry_out(&mut m, &name, Via::Server, plan)?;
    let entry = &m.log().entries()[seq as usize - 1];
    if let Body::Organiser(o) = &entry.body {
        println!("{}", organise::describe(o));
    }
    // A reveal_bids: the reveal that follows it.
    if let Some(Body::Bid(b)) = m.log().entries().get(seq as usize).map(|e| &e.body) {
        println!("{}", crate::matches::bids::describe(b));
    }
    println!("Log entry {seq}; log head {}", m.log().head());
    println!("The daemon mails the players and organisers a notice on its next pass.");
    Ok(ExitCode::SUCCESS)
}
