//! `adjutant report`: re-renders the turn report of one adjudication entry
//! from the match log alone, exactly as the daemon mailed it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::matches::history::read_log;
use crate::report::templates::Templates;
use crate::report::turn::{report_entries, turn_report};

/// Arguments of `adjutant report`.
#[derive(Debug, Args)]
pub struct ReportArgs {
    /// The match directory.
    #[arg(long = "match")]
    dir: PathBuf,
    /// The adjudication entry (its sequence number, as `adjutant log show`
    /// lists it); without it, the entries that have a report are listed.
    #[arg(long)]
    entry: Option<u64>,
    /// Print the HTML part instead of the plain text.
    #[arg(long)]
    html: bool,
    /// A template directory whose files override the built-in templates
    /// (as the daemon's `templates_dir`).
    #[arg(long)]
    templates: Option<PathBuf>,
}

pub fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let Some(seq) = args.entry else {
        let entries = read_log(&args.dir)?;
        for seq in report_entries(&entries) {
            println!("{seq}");
        }
        return Ok(ExitCode::SUCCESS);
    };
    let templates = Templates::load(args.templates.as_deref())?;
    let report = turn_report(&args.dir, seq)?;
    let name = if args.html {
        "report.html"
    } else {
        "report.txt"
    };
    print!("{}", templates.render(name, &report)?);
    Ok(ExitCode::SUCCESS)
}
