//! `adjutant archive`: the static match archive (`src/report/archive.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use crate::report::archive::{match_dirs, write_site};

/// Arguments of `adjutant archive`.
#[derive(Debug, Args)]
pub struct ArchiveArgs {
    /// A match directory, or a directory of matches (each subdirectory
    /// with a log.jsonl); repeat for several.
    #[arg(long = "match", value_name = "DIR", required = true)]
    dirs: Vec<PathBuf>,
    /// The site's directory (created; its pages are rewritten).
    #[arg(long, value_name = "SITE")]
    out: PathBuf,
}

pub fn run(args: ArchiveArgs) -> anyhow::Result<ExitCode> {
    let dirs = match_dirs(&args.dirs)?;
    let w = write_site(&dirs, &args.out)?;
    for warning in &w.warnings {
        eprintln!("warning: {warning}");
    }
    println!(
        "{}: {} match(es), {} turn page(s), {} battle page(s), {} bytes; open {}",
        args.out.display(),
        w.matches,
        w.turns,
        w.battles,
        w.bytes,
        args.out.join("index.html").display()
    );
    Ok(ExitCode::SUCCESS)
}
