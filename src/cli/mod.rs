//! The `adjutant` command line: argument parsing and wiring into the library.
//!
//! Each subcommand lives in its own module and owns no logic that a lower layer
//! should hold.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod archive;
mod demo;
mod import_triplea;
mod ingest;
mod league;
mod log_cmd;
mod map;
mod match_cmd;
mod odds;
mod organise;
mod report;
mod run;
mod scenario;
mod schema;
mod verify;

/// Adjutant: a play-by-email adjudicator for Axis & Allies-family games.
#[derive(Debug, Parser)]
#[command(name = "adjutant", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Inspect a match log.
    Log {
        #[command(subcommand)]
        action: log_cmd::LogAction,
    },
    /// Check a match log: hash chain, commitments against reveals, every die.
    Verify(verify::VerifyArgs),
    /// Write a demonstration match log with real verifiable dice, then verify it.
    Demo(demo::DemoArgs),
    /// Import a TripleA game XML file as a game definition (games/ID).
    ImportTriplea(import_triplea::ImportArgs),
    /// Run rules scenarios (tests/scenarios/...): position, orders, expectations.
    Scenario(scenario::ScenarioArgs),
    /// Create a match of a game in a new directory.
    New(match_cmd::NewArgs),
    /// Submit one power's orders to a match, as the mail daemon would.
    Submit(match_cmd::SubmitArgs),
    /// A league's standings from its matches' logs (`league standings --league FILE`), or a player's matches (`league list --player ADDRESS`).
    League(league::LeagueArgs),
    /// An organiser's action: pause, resume, extend, replace, absent, forfeit, resign, draw, ruling, rollback, upgrade, reveal-bids.
    Organise(organise::OrganiseArgs),
    /// Show a match: the board, treasuries, whose turn and which stage.
    Show(match_cmd::ShowArgs),
    /// Re-render the turn report of an adjudication entry from the match log.
    Report(report::ReportArgs),
    /// Draw the board as a map: `map --game aae --out map.png`, or a match's
    /// board after its last (or `--entry`) adjudication.
    Map(map::MapArgs),
    /// Write a static site of matches from their logs: `archive --match DIR --out SITE/`.
    Archive(archive::ArchiveArgs),
    /// Print a JSON Schema (`schema orders`) for editors with a YAML language server.
    Schema(schema::SchemaArgs),
    /// Run the mail daemon (docs/daemon.md); `--demo` plays a turn by mail.
    Run(run::RunArgs),
    /// Deliver one message from standard input into the inbox (MTA pipe).
    Ingest(ingest::IngestArgs),
    /// The exact odds of a battle: `odds aae "10 infantry, 3 armor" "8 infantry"`.
    Odds(odds::OddsArgs),
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The daemon keeps Rust's default (SIGPIPE ignored): a sendmail child
    // that exits early must not kill it. Every other command writes to a
    // terminal or a pipe and ends quietly when the reader goes (`| head`).
    if !matches!(cli.command, Command::Run(_) | Command::Ingest(_)) {
        die_quietly_on_broken_pipe();
    }
    let result = match cli.command {
        Command::Log { action } => log_cmd::run(action),
        Command::Verify(args) => verify::run(args),
        Command::Demo(args) => demo::run(args),
        Command::ImportTriplea(args) => import_triplea::run(args),
        Command::Scenario(args) => scenario::run(args),
        Command::New(args) => match_cmd::new(args),
        Command::Submit(args) => match_cmd::submit(args),
        Command::Organise(args) => organise::run(args),
        Command::League(args) => league::run(args),
        Command::Show(args) => match_cmd::show(args),
        Command::Report(args) => report::run(args),
        Command::Map(args) => map::run(args),
        Command::Archive(args) => archive::run(args),
        Command::Schema(args) => schema::run(args),
        Command::Run(args) => run::run(args),
        Command::Ingest(args) => ingest::run(args),
        Command::Odds(args) => odds::run(args),
    };
    match result {
        Ok(code) => code,
        Err(err) => {
            eprintln!("adjutant: {err:#}");
            ExitCode::from(2)
        }
    }
}

/// Restores the default action of SIGPIPE, which Rust's runtime ignores: a
/// write to a closed pipe then ends the process silently, as for `cat`,
/// instead of `println!` panicking on the `EPIPE` error.
#[cfg(unix)]
fn die_quietly_on_broken_pipe() {
    // SAFETY: `signal` with `SIG_DFL` installs no handler, and this runs at
    // the start of `main`, before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn die_quietly_on_broken_pipe() {}

/// Writes `text` to standard output for the commands that keep SIGPIPE
/// ignored (`run`, `ingest`): a reader that went away ends the output
/// quietly instead of failing the command.
pub(crate) fn write_stdout(text: &str) -> std::io::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}
