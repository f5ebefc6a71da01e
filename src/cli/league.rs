//! `adjutant league standings --league league.yaml [--matches DIR]`: a
//! league's standings, derived from its matches' logs; `adjutant league
//! list --player ADDRESS [--matches DIR]`: a player's matches, as
//! `command: list` answers by mail.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{Args, Subcommand};

use crate::matches::league::{LeagueFile, match_dirs, player_matches, standings, standings_text};

/// Arguments of `adjutant league`.
#[derive(Debug, Args)]
pub struct LeagueArgs {
    #[command(subcommand)]
    what: LeagueCommand,
}

#[derive(Debug, Subcommand)]
enum LeagueCommand {
    /// Wins, losses, points, Elo rating and on-time ratio of every player,
    /// and each match's result.
    Standings {
        /// The league file (`docs/league.md`).
        #[arg(long)]
        league: PathBuf,
        /// Where the matches are (`DIR/<match id>/log.jsonl`); default: the
        /// `matches` directory beside the league file.
        #[arg(long)]
        matches: Option<PathBuf>,
    },
    /// Every match in which an address plays: the powers, who is to move
    /// and the deadline, or how it ended.
    List {
        /// The player's address, as the players files give it.
        #[arg(long)]
        player: String,
        /// Where the matches are (`DIR/<match id>/log.jsonl`).
        #[arg(long, default_value = "adjutant-data/matches")]
        matches: PathBuf,
    },
}

/// Prints the standings, or a player's matches.
pub fn run(args: LeagueArgs) -> anyhow::Result<ExitCode> {
    match args.what {
        LeagueCommand::Standings { league, matches } => {
            let text = std::fs::read_to_string(&league)
                .with_context(|| format!("cannot read {}", league.display()))?;
            let file: LeagueFile = serde_saphyr::from_str(&text)
                .map_err(|e| anyhow::anyhow!("{}: {e}", league.display()))?;
            let dir = matches.unwrap_or_else(|| {
                league
                    .parent()
                    .unwrap_or(std::path::Path::new("."))
                    .join("matches")
            });
            let (rows, results) = standings(&file, &dir).map_err(|e| anyhow::anyhow!(e))?;
            print!("{}", standings_text(&file, &rows, &results));
            Ok(ExitCode::SUCCESS)
        }
        LeagueCommand::List { player, matches } => {
            let all = match_dirs(&matches).map_err(|e| anyhow::anyhow!(e))?;
            let listed = player_matches(&all, &player);
            if listed.is_empty() {
                println!("{player} plays in no match under {}.", matches.display());
            }
            for l in listed {
                println!("{}: plays {}", l.id, l.powers.join(", "));
                match l.state {
                    Ok(line) => println!("    {line}"),
                    Err(e) => println!("    cannot be read: {e}"),
                }
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}
