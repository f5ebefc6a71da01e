//! `adjutant report`: re-renders the turn report of one adjudication entry
//! from the match log alone, exactly as the daemon mailed it.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::control_chars::{Target, escape};
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
    /// The reader's time zone (IANA name), as in the players file: the
    /// deadline is shown in it too, as that reader's copy was.
    #[arg(long = "time-zone")]
    time_zone: Option<String>,
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
    if let Some(z) = &args.time_zone {
        crate::matches::deadlines::parse_time_zone(z).map_err(anyhow::Error::msg)?;
    }
    let report = turn_report(&args.dir, seq)?.for_reader(args.time_zone.as_deref());
    let kind = crate::daemon::text::report_template(&report);
    let (name, target) = if args.html {
        (format!("{kind}.html"), Target::MailHtml)
    } else {
        (format!("{kind}.txt"), Target::MailText)
    };
    // Escaped as the mail layer escapes every mail, so that this is what
    // was mailed.
    let rendered = templates.render(&name, &report)?;
    print!("{}", escape(&rendered, target));
    Ok(ExitCode::SUCCESS)
}
