//! `adjutant odds GAME ATTACKERS DEFENDERS`: the exact odds of a battle
//! (`docs/odds.md`), as text or YAML.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};

use crate::rules::odds::{
    BattleType, OddsQuery, RetreatRule, SubmarineWithdrawal, UnitsText, answer,
};

/// Where the battle is fought, on the command line.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Battle {
    Land,
    Sea,
}

/// Output format.
#[derive(Debug, Clone, Copy, ValueEnum)]
enum Format {
    Text,
    Yaml,
}

/// Arguments of `adjutant odds`.
#[derive(Debug, Args)]
pub struct OddsArgs {
    /// The game id: a built-in game (`aae`), or a directory under --games.
    game: String,
    /// The attacking units, written as in orders: "10 infantry, 3 armor".
    attackers: String,
    /// The defending units: "8 infantry, 1 AA gun".
    defenders: String,
    /// A directory of games, each in DIR/<id>/ (game.yaml, board.yaml,
    /// units.yaml, setup.yaml); without it, the games built into the
    /// program (aae, aae-jboulton, advanced-aae, anniversary-1941,
    /// anniversary-1942, classic).
    #[arg(long, value_name = "DIR")]
    games: Option<PathBuf>,
    /// The attacker's order of loss: "infantry, artillery, armor".
    #[arg(long)]
    losses: Option<String>,
    /// The defender's order of loss.
    #[arg(long)]
    defender_losses: Option<String>,
    /// The defender keeps one land unit until its aircraft are lost.
    #[arg(long)]
    keep_one_land_unit: bool,
    /// never, after_round:N, when_attackers_below:N or when_odds_below:P.
    #[arg(long)]
    retreat: Option<String>,
    /// Classic: the attacker's submarines withdraw after round N (DAAK-C
    /// §4.2), as a battle plan's `submarines: {withdraw_after_round: N}`.
    #[arg(long, value_name = "N")]
    submarines_withdraw_after: Option<u32>,
    /// Classic: the defender's submarines withdraw after round N, as its
    /// standing orders say.
    #[arg(long, value_name = "N")]
    defender_submarines_withdraw_after: Option<u32>,
    /// Low Luck (otherwise the game's low_luck option).
    #[arg(long, conflicts_with = "dice")]
    low_luck: bool,
    /// Dice, even if the game is set up for Low Luck.
    #[arg(long)]
    dice: bool,
    /// An amphibious assault: ships among the attackers bombard.
    #[arg(long)]
    amphibious: bool,
    /// land or sea (inferred from the units when left out).
    #[arg(long, value_enum)]
    battle: Option<Battle>,
    /// The attacker's developments, comma-separated: "jet fighters, heavy
    /// bombers" (games with research only).
    #[arg(long, value_name = "NAMES")]
    attacker_developments: Option<String>,
    /// The defender's developments: "radar".
    #[arg(long, value_name = "NAMES")]
    defender_developments: Option<String>,
    /// The power the attackers belong to, where national abilities make it
    /// matter (Advanced AAE).
    #[arg(long, value_name = "POWER")]
    attacker_power: Option<String>,
    /// The power the defenders belong to.
    #[arg(long, value_name = "POWER")]
    defender_power: Option<String>,
    /// The territory fought over, where it matters (Advanced AAE's RAF).
    #[arg(long, value_name = "SPACE")]
    territory: Option<String>,
    /// The round of the game, where it matters (Advanced AAE's surprise
    /// attack in round 1).
    #[arg(long, value_name = "N")]
    round: Option<u32>,
    /// J Boulton Supply Strike (JB-32): every defender defends at half.
    #[arg(long)]
    supply_strike: bool,
    /// J Boulton Booby Traps (JB-33): this many of the weakest attackers do
    /// not roll in round 1.
    #[arg(long, value_name = "N")]
    booby_traps: Option<u32>,
    /// J Boulton Disruption (JB-29): the attacking units that fire before
    /// round 1, unanswered: "1 armor".
    #[arg(long, value_name = "UNITS")]
    disruption: Option<String>,
    /// List every outcome with its probability.
    #[arg(long)]
    outcomes: bool,
    /// Battles simulated when only a Monte Carlo estimate is possible.
    #[arg(long)]
    battles: Option<u64>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// `after_round:2` (or `after_round=2`, `{after_round: 2}`, `never`) as a
/// retreat rule, read with the same YAML types the mail query uses.
fn retreat(text: &str) -> anyhow::Result<RetreatRule> {
    let t = text.trim().replace('=', ":");
    let yaml = if t.starts_with('{') || !t.contains(':') {
        t
    } else {
        let (k, v) = t.split_once(':').unwrap_or((&t, ""));
        format!("{{{}: {}}}", k.trim(), v.trim())
    };
    serde_saphyr::from_str(&yaml).with_context(|| {
        format!(
            "--retreat {text:?}: write never, after_round:N, when_attackers_below:N or \
             when_odds_below:P"
        )
    })
}

pub fn run(args: OddsArgs) -> anyhow::Result<ExitCode> {
    let game = crate::rules::builtin::GameSource::from_flag(args.games.as_deref())
        .load(&args.game)
        .map_err(anyhow::Error::msg)?
        .def;
    let mut q = OddsQuery::new(&args.attackers, &args.defenders);
    q.losses = args.losses.as_deref().map(UnitsText::from);
    q.defender_losses = args.defender_losses.as_deref().map(UnitsText::from);
    q.keep_one_land_unit = args.keep_one_land_unit;
    q.retreat = args.retreat.as_deref().map(retreat).transpose()?;
    let withdraw = |n: u32| SubmarineWithdrawal {
        withdraw_after_round: n,
    };
    q.submarines = args.submarines_withdraw_after.map(withdraw);
    q.defender_submarines = args.defender_submarines_withdraw_after.map(withdraw);
    q.low_luck = match (args.low_luck, args.dice) {
        (true, _) => Some(true),
        (_, true) => Some(false),
        _ => None,
    };
    q.amphibious = args.amphibious;
    q.battle = args.battle.map(|b| match b {
        Battle::Land => BattleType::Land,
        Battle::Sea => BattleType::Sea,
    });
    q.attacker_developments = args.attacker_developments.as_deref().map(UnitsText::from);
    q.defender_developments = args.defender_developments.as_deref().map(UnitsText::from);
    q.attacker_power = args.attacker_power;
    q.defender_power = args.defender_power;
    q.territory = args.territory;
    q.round = args.round;
    q.supply_strike = args.supply_strike;
    q.booby_traps = args.booby_traps;
    q.disruption = args.disruption.as_deref().map(UnitsText::from);
    q.outcomes = args.outcomes;
    q.battles = args.battles;
    let report = match answer(&game, &q) {
        Ok(r) => r,
        Err(e) => bail!("{e}"),
    };
    match args.format {
        Format::Text => print!("{}", report.to_text()),
        Format::Yaml => print!("{}", serde_saphyr::to_string(&report)?),
    }
    Ok(ExitCode::SUCCESS)
}
