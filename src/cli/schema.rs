//! `adjutant schema`: print a JSON Schema, for editors with a YAML language
//! server (`# yaml-language-server: $schema=orders.schema.json`).

use std::io::Write;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use crate::rules::orders::schema::orders_schema;

/// Arguments of `adjutant schema`.
#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which format.
    #[arg(value_enum)]
    format: Format,
}

/// The formats with a schema.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    /// An orders message (docs/orders.md).
    Orders,
}

/// Prints the schema as pretty JSON on standard output.
pub fn run(args: SchemaArgs) -> anyhow::Result<ExitCode> {
    let schema = match args.format {
        Format::Orders => orders_schema(),
    };
    let text = serde_json::to_string_pretty(&schema)?;
    match writeln!(std::io::stdout().lock(), "{text}") {
        // `adjutant schema orders | head` is not an error.
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(ExitCode::SUCCESS),
    }
}
