//! The answer to an odds question: summary probabilities, expected
//! survivors and their value, optionally every outcome; as a value (YAML,
//! JSON) or as plain text for a mail reply.

use serde::Serialize;

use super::exact::End;
use super::query::{OddsQuery, Prepared};
use super::{Tally, exact::Policy};
use crate::rules::GameDef;
use crate::rules::combat::fights;
use crate::rules::orders::grammar::plural;
use crate::rules::vocab::UnitList;

/// How the figures were obtained.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// Exact (dynamic programming; floating point, sums to 1 within 1e-12).
    Exact,
    /// A Monte Carlo estimate from this many simulated battles.
    MonteCarlo {
        /// Battles simulated.
        battles: u64,
    },
}

/// What one side has and keeps.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SideReport {
    /// Its units, in the game's spelling.
    pub units: String,
    /// The value in IPCs of those that fight.
    pub ipc: u32,
    /// Expected survivors by unit type (over every outcome; a retreating
    /// attacker's units survive).
    pub expected_survivors: Vec<Survivors>,
    /// Expected IPC value of the survivors.
    pub expected_ipc_left: f64,
}

/// The expected number left of one unit type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Survivors {
    /// The unit type.
    pub unit: String,
    /// Its expected number after the battle.
    pub expected: f64,
}

/// One outcome: how the battle ended and who is left.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// `attacker wins`, `defender wins`, `both destroyed`, `retreated`,
    /// `stalemate`.
    pub result: String,
    /// The attacker's survivors (`none` when none).
    pub attacker: String,
    /// The defender's survivors.
    pub defender: String,
    /// Its probability.
    pub probability: f64,
}

/// The answer to an [`OddsQuery`](super::OddsQuery).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct OddsReport {
    /// The game's name.
    pub game: String,
    /// `land battle`, `sea battle` or `amphibious assault`.
    pub battle: String,
    /// Exact or Monte Carlo.
    pub method: Method,
    /// Dice or Low Luck.
    pub low_luck: bool,
    /// The attacker's retreat policy, in the orders' words.
    pub retreat: String,
    /// The defenders are destroyed and some attacker is left.
    pub attacker_wins: f64,
    /// The defender holds: the attackers are destroyed, retreat, or neither
    /// side can hit the other.
    pub defender_wins: f64,
    /// Both sides are destroyed.
    pub draw: f64,
    /// Part of `defender_wins`: the attacker retreated.
    pub retreated: f64,
    /// Part of `defender_wins`: neither side could hit the other.
    pub stalemate: f64,
    /// One standard error of the three main figures (Monte Carlo only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub standard_error: Option<[f64; 3]>,
    /// The expected number of rounds fought.
    pub expected_rounds: f64,
    /// The attacking side.
    pub attacker: SideReport,
    /// The defending side.
    pub defender: SideReport,
    /// Assumptions the answer makes.
    pub notes: Vec<String>,
    /// Every outcome, most likely first (when asked for).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub outcomes: Vec<Outcome>,
}

fn end_name(e: End) -> &'static str {
    match e {
        End::AttackerWins => "attacker wins",
        End::DefenderWins => "defender wins",
        End::BothDestroyed => "both destroyed",
        End::Retreated => "attacker retreats",
        End::Stalemate => "stalemate",
    }
}

/// `1 fighter`, `2 fighters` (the orders' own plurals; `infantry` and
/// `armor` are written as players write them).
fn count(n: u32, name: &str) -> String {
    let collective = ["infantry", "armor", "armour", "artillery"];
    if n == 1 || collective.contains(&name) {
        format!("{n} {name}")
    } else {
        format!("{n} {}", plural(name))
    }
}

fn counts_text(game: &GameDef, counts: &[u32]) -> String {
    let types = game.unit_types();
    let parts: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, n)| **n > 0)
        .map(|(t, n)| count(*n, &types[t].name))
        .collect();
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join(", ")
    }
}

/// A side's units, value and expected survivors; units that never fight
/// (an AA gun, which only fires before the battle) are named but neither
/// valued nor counted as survivors.
fn side_report(game: &GameDef, list: &UnitList, expected: &[f64]) -> SideReport {
    let types = game.unit_types();
    let cost = |t: usize| f64::from(types[t].cost.unwrap_or(0));
    let fighting = || list.iter().filter(|c| fights(&types[c.unit]));
    SideReport {
        units: list
            .iter()
            .map(|c| count(c.count, &types[c.unit].name))
            .collect::<Vec<_>>()
            .join(", "),
        ipc: fighting()
            .map(|c| c.count * types[c.unit].cost.unwrap_or(0))
            .sum(),
        expected_survivors: fighting()
            .map(|c| Survivors {
                unit: types[c.unit].name.clone(),
                expected: expected[c.unit],
            })
            .collect(),
        expected_ipc_left: expected.iter().enumerate().map(|(t, e)| e * cost(t)).sum(),
    }
}

fn retreat_text(p: Policy) -> String {
    match p {
        Policy::Never => "never".to_owned(),
        Policy::AfterRound(n) => format!("after round {n}"),
        Policy::AttackersBelow(n) => format!("when attackers are below {n}"),
        Policy::OddsBelow(p) => format!("when the odds of winning are below {p}"),
    }
}

/// The report of a computed battle.
pub(crate) fn build(game: &GameDef, q: &OddsQuery, prep: &Prepared, tally: &Tally) -> OddsReport {
    let types = game.unit_types().len();
    let mut by_end = [0.0f64; 5];
    let mut att_exp = vec![0.0; types];
    let mut def_exp = vec![0.0; types];
    let mut outcomes = Vec::new();
    for ((e, a, d), p) in &tally.ends {
        by_end[*e as usize] += p;
        for t in 0..types {
            att_exp[t] += p * f64::from(a[t]);
            def_exp[t] += p * f64::from(d[t]);
        }
        if q.outcomes {
            outcomes.push(Outcome {
                result: end_name(*e).to_owned(),
                attacker: counts_text(game, a),
                defender: counts_text(game, d),
                probability: *p,
            });
        }
    }
    outcomes.sort_by(|x, y| y.probability.total_cmp(&x.probability));
    let [att, def, both, retreated, stalemate] = by_end;
    let defender_wins = def + retreated + stalemate;
    let standard_error = tally.battles.map(|n| {
        let se = |p: f64| (p * (1.0 - p) / n as f64).sqrt();
        [se(att), se(defender_wins), se(both)]
    });
    let mut notes = prep.notes.clone();
    if prep.battle.aa.is_some() {
        notes.push("the AA gun fires at attacking aircraft before the battle".to_owned());
    }
    if !prep.battle.bombard.is_empty() {
        notes.push("ships bombard in the first round".to_owned());
    }
    OddsReport {
        game: game.files().game.name.clone(),
        battle: if prep.sea {
            "sea battle"
        } else if prep.amphibious {
            "amphibious assault"
        } else {
            "land battle"
        }
        .to_owned(),
        method: match tally.battles {
            None => Method::Exact,
            Some(battles) => Method::MonteCarlo { battles },
        },
        low_luck: prep.battle.low_luck,
        retreat: retreat_text(prep.battle.policy),
        attacker_wins: att,
        defender_wins,
        draw: both,
        retreated,
        stalemate,
        standard_error,
        expected_rounds: tally.rounds,
        attacker: side_report(game, &prep.attackers, &att_exp),
        defender: side_report(game, &prep.defenders, &def_exp),
        notes,
        outcomes,
    }
}

/// Widest line of [`OddsReport::to_text`].
pub const TEXT_WIDTH: usize = 72;

/// Appends `text` to `out`, wrapped at [`TEXT_WIDTH`] with `indent` on the
/// continuation lines.
fn wrap(out: &mut String, text: &str, indent: &str) {
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > TEXT_WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.to_owned();
        } else if !line.is_empty() && !line.ends_with(' ') {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push_str(line.trim_end());
    out.push('\n');
}

fn pct(p: f64) -> String {
    format!("{:6.2}%", 100.0 * p)
}

impl OddsReport {
    /// The answer as plain text, no line longer than 72 characters.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let method = match &self.method {
            Method::Exact => "exact".to_owned(),
            Method::MonteCarlo { battles } => {
                format!("Monte Carlo estimate from {battles} battles, ± one standard error")
            }
        };
        wrap(
            &mut out,
            &format!("Odds of a {}: {method}", self.battle),
            "  ",
        );
        wrap(&mut out, &format!("Game: {}", self.game), "  ");
        wrap(
            &mut out,
            &format!(
                "Attackers: {} ({} IPCs)",
                self.attacker.units, self.attacker.ipc
            ),
            "  ",
        );
        wrap(
            &mut out,
            &format!(
                "Defenders: {} ({} IPCs)",
                self.defender.units, self.defender.ipc
            ),
            "  ",
        );
        wrap(
            &mut out,
            &format!(
                "{}, retreat {}",
                if self.low_luck { "Low Luck" } else { "dice" },
                self.retreat
            ),
            "  ",
        );
        out.push('\n');
        let se = |i: usize| {
            self.standard_error
                .map(|s| format!(" ± {:.2}", 100.0 * s[i]))
                .unwrap_or_default()
        };
        out.push_str(&format!(
            "Attacker wins    {}{}\n",
            pct(self.attacker_wins),
            se(0)
        ));
        out.push_str(&format!(
            "Defender holds   {}{}\n",
            pct(self.defender_wins),
            se(1)
        ));
        if self.retreated > 0.0 {
            out.push_str(&format!("  by retreat     {}\n", pct(self.retreated)));
        }
        if self.stalemate > 0.0 {
            out.push_str(&format!("  by stalemate   {}\n", pct(self.stalemate)));
        }
        out.push_str(&format!("Both destroyed   {}{}\n", pct(self.draw), se(2)));
        out.push_str(&format!("Expected rounds  {:7.2}\n", self.expected_rounds));
        for (who, side) in [("Attacker", &self.attacker), ("Defender", &self.defender)] {
            let left: Vec<String> = side
                .expected_survivors
                .iter()
                .map(|s| format!("{:.2} {}", s.expected, s.unit))
                .collect();
            wrap(
                &mut out,
                &format!(
                    "{who} keeps on average: {} ({:.1} of {} IPCs)",
                    left.join(", "),
                    side.expected_ipc_left,
                    side.ipc
                ),
                "  ",
            );
        }
        if !self.outcomes.is_empty() {
            out.push_str("\nOutcomes, most likely first:\n");
            for o in &self.outcomes {
                let who = match o.result.as_str() {
                    "attacker wins" | "attacker retreats" => o.attacker.clone(),
                    "defender wins" => o.defender.clone(),
                    "stalemate" => format!("{} / {}", o.attacker, o.defender),
                    _ => String::new(),
                };
                let text = if who.is_empty() {
                    format!("{} {}", pct(o.probability), o.result)
                } else if o.result == "attacker retreats" {
                    format!(
                        "{} {}: {who}; defender keeps {}",
                        pct(o.probability),
                        o.result,
                        o.defender
                    )
                } else {
                    format!("{} {}: {who}", pct(o.probability), o.result)
                };
                wrap(&mut out, &text, "          ");
            }
        }
        for n in &self.notes {
            wrap(&mut out, &format!("Note: {n}."), "  ");
        }
        out
    }
}
