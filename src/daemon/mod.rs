//! The mail daemon (`adjutant run`, `adjutant ingest`): wiring between the
//! mail layer, the matches and the reports. It owns no rules and no mail
//! format; what it owns is the order in which a message's steps happen, so
//! that every message is applied and answered exactly once (`docs/daemon.md`).
//!
//! * [`config`]: the configuration file and the embedded default.
//! * [`process`]: the [`Daemon`]: welcome mails, the inbox pass, one module
//!   per step of a message, deadlines.
//! * [`commands`]: the commands a mail may carry instead of orders.
//! * [`ledger`]: what a match log says about the mail already handled.
//! * [`text`]: the words of every mail sent.
//! * [`demo`]: a whole turn by mail on the embedded default.
//! * [`signals`]: SIGTERM/SIGINT as a flag checked between messages.

pub mod commands;
pub mod config;
pub mod demo;
pub mod ledger;
pub mod process;
pub mod signals;
pub mod text;

pub use config::{Config, ConfigError};
pub use process::{Daemon, Pass, StartError};

/// Sets up structured logs (`tracing`) on standard error; `RUST_LOG`
/// (e.g. `adjutant=debug`) chooses what is shown, `info` by default.
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}
