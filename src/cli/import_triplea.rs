//! `adjutant import-triplea FILE.xml --out games/ID`: turn a TripleA map into
//! a game definition.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::Args;

use crate::import::triplea;

/// Arguments of `adjutant import-triplea`.
#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The TripleA game XML file.
    pub file: PathBuf,
    /// The game directory to write (its last component becomes the game id).
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite an existing game directory.
    #[arg(long)]
    pub force: bool,
}

/// Imports, validates and writes the game; prints what the importer did.
pub fn run(args: ImportArgs) -> anyhow::Result<ExitCode> {
    let id = args
        .out
        .file_name()
        .and_then(|n| n.to_str())
        .context("--out must end in the game id, e.g. games/aae")?
        .to_owned();
    if args.out.join("game.yaml").exists() && !args.force {
        anyhow::bail!(
            "{} already holds a game; pass --force to overwrite it",
            args.out.display()
        );
    }
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{} is not UTF-8", args.file.display()))?;
    let source = args
        .file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("input")
        .to_owned();
    let imported = triplea::import(&text, &id, &source)?;
    imported.write_to(&args.out)?;
    let game = &imported.game;
    let board = &game.files().board;
    println!(
        "Wrote {}: {} territories, {} sea zones, {} unit types, {} powers.",
        args.out.display(),
        board.territories.len(),
        board.sea_zones.len(),
        game.unit_types().len(),
        game.powers().len()
    );
    for note in &imported.notes {
        println!("  - {note}");
    }
    Ok(ExitCode::SUCCESS)
}
