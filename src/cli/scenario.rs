//! `adjutant scenario FILE...`: run rules scenarios and print what happened.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::Args;

use crate::report::board;
use crate::rules::builtin::GameSource;
use crate::rules::{GameDef, scenario};

/// Arguments of `adjutant scenario`.
#[derive(Debug, Args)]
pub struct ScenarioArgs {
    /// Scenario files (`tests/scenarios/<game>/<ruling>.yaml`).
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// A directory of games, each in DIR/<id>/; without it, the games
    /// built into the program.
    #[arg(long)]
    games: Option<PathBuf>,
    /// Print only failures and the summary.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(args: ScenarioArgs) -> anyhow::Result<ExitCode> {
    let source = GameSource::from_flag(args.games.as_deref());
    let mut games: HashMap<String, GameDef> = HashMap::new();
    let mut failed = 0usize;
    for file in &args.files {
        let text = std::fs::read_to_string(file)
            .with_context(|| format!("cannot read {}", file.display()))?;
        let sc = scenario::parse(&text).with_context(|| file.display().to_string())?;
        if !games.contains_key(&sc.game) {
            let def = source
                .load(&sc.game)
                .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?
                .def;
            games.insert(sc.game.clone(), def);
        }
        let game = &games[&sc.game];
        // A scenario that cannot be set up, or whose scripted dice run out,
        // fails alone: the rest of the batch still runs.
        let outcome = match run_caught(game, &sc) {
            Ok(outcome) => outcome,
            Err(why) => {
                failed += 1;
                println!("== {} (FAILED)", file.display());
                println!("ruling: {}", sc.ruling);
                println!("{why}");
                println!();
                continue;
            }
        };
        let ok = outcome.failures.is_empty();
        if !ok {
            failed += 1;
        }
        if args.quiet && ok {
            continue;
        }
        println!(
            "== {} ({})",
            file.display(),
            if ok { "ok" } else { "FAILED" }
        );
        println!("ruling: {}", sc.ruling);
        println!("source: {}", sc.source);
        for (i, step) in outcome.steps.iter().enumerate() {
            match step {
                Ok(events) => {
                    println!("step {}: accepted", i + 1);
                    for e in events {
                        println!("    {e}");
                    }
                }
                Err(errors) => {
                    println!("step {}: rejected, nothing applied", i + 1);
                    for e in errors {
                        println!("    {e}");
                    }
                }
            }
        }
        for f in &outcome.failures {
            println!("EXPECTATION FAILED, {f}");
        }
        if !args.quiet {
            println!("resulting state:");
            for line in board::render(game, &outcome.state).lines() {
                println!("    {line}");
            }
        }
        println!();
    }
    println!("{} passed, {failed} failed", args.files.len() - failed);
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// Runs a scenario; a scenario that cannot be set up, or that stops the
/// engine (scripted dice that run out panic on purpose, naming the label),
/// is an error in words, with no Rust panic message on the terminal.
fn run_caught(game: &GameDef, sc: &scenario::Scenario) -> Result<scenario::Outcome, String> {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scenario::run(game, sc)));
    std::panic::set_hook(hook);
    match result {
        Ok(Ok(outcome)) => Ok(outcome),
        Ok(Err(e)) => Err(format!("cannot set up the scenario: {e}")),
        Err(payload) => {
            let what = payload
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| payload.downcast_ref::<&str>().copied())
                .unwrap_or("the engine stopped");
            let hint = if what.starts_with("scripted dice exhausted") {
                " (a step needs more scripted dice than it gives)"
            } else {
                ""
            };
            Err(format!("the scenario stopped: {what}{hint}"))
        }
    }
}
