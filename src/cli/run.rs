//! `adjutant run`: the mail daemon, on a configuration file or the
//! embedded default; `--demo` plays a turn by mail first.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::daemon::{self, Config, Daemon};

/// Arguments of `adjutant run`.
#[derive(Debug, Args)]
pub struct RunArgs {
    /// The configuration file (docs/daemon.md); without it, the embedded
    /// default: everything under ./adjutant-data.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Check the configuration, print it, and exit.
    #[arg(long)]
    check: bool,
    /// Create a demonstration match, drop Germany's stage 1 and 2 orders as
    /// mail into the inbox, handle them, and exit.
    #[arg(long)]
    demo: bool,
    /// Handle what is waiting (inbox and due mail), then exit.
    #[arg(long)]
    once: bool,
    /// For --demo: a directory of games, each in DIR/<id>/; without it,
    /// the games built into the program.
    #[arg(long, value_name = "DIR")]
    games: Option<PathBuf>,
}

pub(crate) fn load_config(path: Option<&PathBuf>) -> anyhow::Result<Config> {
    Ok(match path {
        Some(p) => Config::load(p)?,
        None => Config::embedded(std::path::Path::new(daemon::config::DEFAULT_DATA_DIR)),
    })
}

pub fn run(args: RunArgs) -> anyhow::Result<ExitCode> {
    daemon::init_tracing();
    let config = load_config(args.config.as_ref())?;
    if args.check {
        super::write_stdout(&config.describe())?;
        return Ok(ExitCode::SUCCESS);
    }
    let stop = daemon::signals::stop_flag()?;
    let mut d = Daemon::open(config, stop)?;
    if args.demo {
        super::write_stdout(&daemon::demo::run(
            &mut d,
            &crate::rules::builtin::GameSource::from_flag(args.games.as_deref()),
        )?)?;
        return Ok(ExitCode::SUCCESS);
    }
    d.run(args.once)?;
    Ok(ExitCode::SUCCESS)
}
