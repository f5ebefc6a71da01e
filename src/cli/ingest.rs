//! `adjutant ingest`: one message on standard input (an MTA pipe or
//! `.forward`), delivered into the configured inbox Maildir; then, unless a
//! daemon is running on the same data directory (it holds the outbox), the
//! inbox is handled once and due mail sent.

use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::daemon::config::Inbound;
use crate::daemon::{self, Daemon, StartError};
use crate::mail::maildir::Maildir;

/// Arguments of `adjutant ingest`.
#[derive(Debug, Args)]
pub struct IngestArgs {
    /// The configuration file; without it, the embedded default.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Only deliver into the inbox; leave the handling to the daemon.
    #[arg(long)]
    deliver_only: bool,
}

/// `EX_DATAERR` (sysexits.h): the message itself is unusable; retrying
/// cannot help, so the MTA returns it to the sender.
const DATAERR: u8 = 65;
/// `EX_TEMPFAIL` (sysexits.h): the MTA keeps the message and retries.
const TEMPFAIL: u8 = 75;

pub fn run(args: IngestArgs) -> anyhow::Result<ExitCode> {
    daemon::init_tracing();
    let config = super::run::load_config(args.config.as_ref())?;
    let Inbound::Maildir(inbox) = &config.inbound else {
        anyhow::bail!("ingest needs a Maildir inbox in the configuration");
    };
    let mut raw = Vec::new();
    std::io::stdin()
        .read_to_end(&mut raw)
        .context("cannot read standard input")?;
    if raw.is_empty() {
        eprintln!(
            "adjutant ingest: empty message on standard input; not delivered (a permanent failure)"
        );
        return Ok(ExitCode::from(DATAERR));
    }
    let delivered = match Maildir::open(inbox).and_then(|m| m.deliver(&raw)) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("adjutant ingest: {e}");
            return Ok(ExitCode::from(TEMPFAIL));
        }
    };
    tracing::info!(path = %delivered.path.display(), "delivered into the inbox");
    if args.deliver_only {
        return Ok(ExitCode::SUCCESS);
    }
    let stop = daemon::signals::stop_flag()?;
    match Daemon::open(config, stop) {
        Ok(mut d) => {
            d.discover()?;
            d.process_pending()?;
            d.deliver()?;
        }
        Err(StartError::Running(_)) => {
            tracing::info!(
                "a daemon is running on this data directory; it will handle the message"
            );
        }
        Err(e) => return Err(e.into()),
    }
    Ok(ExitCode::SUCCESS)
}
