//! A scripted J Boulton game (issue 18, item 11): the test bot plays the
//! four powers of Axis & Allies: Europe with every J Boulton addition on
//! (`games/aae-jboulton/` at its defaults) through `Match::submit`, the mail
//! daemon's path with real commit-reveal dice, and scripted orders
//! (`common/jboulton_script.rs`) put the new units and rules into real
//! play: mechanized infantry and heavy armor attacking, air transports
//! dropping paratroopers (AA fire at the carriers, the landing roll, the
//! surprise first strike, the paratrooper at 2) and carrying an infantry
//! to Sicily, which Allied warships cut off (isolation), British landings
//! from the English Channel (Normandy coastal fire), battleships fighting
//! until one takes a hit (the damage table), and special force teams
//! carrying out every mission: a glider dropping them into two territories
//! in one flight, the Allies' detection sweep, Aversion by Germany's
//! standing orders with the Allies' `averted:` word (stay and withdraw),
//! Industrial Strike, battle plans wanting AA Suppression, Supply Strike
//! and Disruption naming a unit type, and defending teams on Evasive
//! (slip out and sacrifice) or Booby Trap. Each must leave its trace in the
//! log, its labelled dice or its event ([`evidence`]).
//!
//! The traces of the missions are read message by message (`Msg`): what
//! the orders then in force wanted, the dice drawn and the events. A
//! mission must have been *tried* (its team's mission roll, the sweep's or
//! Aversion's dice), and wherever the dice opened it and the board allowed
//! it, *carried out* (a Supply Strike in every battle where a wanting team
//! rolled 1, AA Suppression wherever a wanting team rolled 1-3 while the
//! guns would fire, Aversion on every 1 and never on more, a team removed
//! by every sweep that rolled a 1, Evasive wherever a defending team rolled
//! 1-2 and a way out stayed German through the message, a Booby Trap in
//! every battle where a defending team rolled 3-6, each averted unit doing
//! as its owner's word said): a roll the dice never gave fails nothing, a
//! roll they gave without its mission fails.
//!
//! The dice are real, so a rule that needs a particular roll (a 6 on
//! landing, a hit on a battleship) or a front the bot reaches can take
//! several tries: a game goes on past round 6 until every trace is in the
//! logs, up to round 24, and up to four games are played; the test fails
//! naming what never happened. For each game the real `adjutant verify`
//! replays the log through the engine, the independent Python verifier
//! checks its dice, and a forged die is caught by both.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod common;
#[path = "common/jboulton_script.rs"]
mod jboulton_script;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use adjutant::log::{Body, parse_line};
use adjutant::matches::Match;
use adjutant::rules::GameDef;
use adjutant::rules::model::UnitKind;
use adjutant::rules::state::{GameState, Phase};

/// The game is at least this long.
const MIN_ROUNDS: u32 = 6;
/// ... and goes on until every trace is in the log, at most this long.
const MAX_ROUNDS: u32 = 24;

const PLAYERS: &str = "match: jb-scripted-01\nplayers:\n  \
    Germany: {name: Alice, email: alice@example.org}\n  \
    Soviet Union: {name: Boris, email: boris@example.org}\n  \
    United Kingdom: {name: Clem, email: clem@example.org}\n  \
    United States: {name: Dora, email: dora@example.org}\n";

/// The dice labels of the log so far and every event of the receipts.
#[derive(Default)]
struct Trace {
    labels: BTreeSet<String>,
    events: Vec<String>,
    /// Special force teams of one flight landed in two territories (a
    /// message with `drop:` whose team landings name two of them).
    multi_drop: bool,
    /// Each message with what its orders wanted, its dice and its events.
    msgs: Vec<Msg>,
}

/// One accepted message: what its orders (and Germany's standing orders
/// then in force) wanted of the special force teams, and what happened.
struct Msg {
    /// Germany's message, or an Ally's.
    german: bool,
    /// Germany's battle plans for its teams.
    plans: Vec<jboulton_script::TeamPlan>,
    /// The Ally's word on its averted units (`stay` when it gave none).
    averted: &'static str,
    /// The Evasive mode of Germany's standing orders in force.
    evasive: Option<&'static str>,
    /// The dice drawn, label and values.
    dice: Vec<(String, Vec<u32>)>,
    events: Vec<String>,
    /// For each territory where German teams stood as an Ally's message
    /// began: whether an Evasive mission could go anywhere (a neighbouring
    /// land territory German before and after the message) and whether a
    /// German land unit there could be saved by a sacrifice.
    room: Vec<(String, bool, bool)>,
}

/// A special force team's mission roll, read from its event (`... in T:
/// mission roll R (sft/T/KIND/POWER); WHAT`).
struct Roll<'a> {
    territory: &'a str,
    /// `mission` or `aversion`.
    kind: &'a str,
    power: &'a str,
    roll: u32,
    /// What followed: the mission carried out, or why none was.
    what: &'a str,
}

fn roll_of(event: &str) -> Option<Roll<'_>> {
    let rest = event.split_once("mission roll ")?.1;
    let (roll, rest) = rest.split_once(" (")?;
    let (label, what) = rest.split_once(')')?;
    let mut parts = label.split('/');
    (parts.next()? == "sft").then_some(())?;
    let territory = parts.next()?;
    let kind = parts.next()?;
    let power = parts.next()?;
    Some(Roll {
        territory,
        kind,
        power,
        roll: roll.parse().ok()?,
        what: what.trim_start_matches("; "),
    })
}

impl Msg {
    fn rolls(&self) -> impl Iterator<Item = Roll<'_>> {
        self.events.iter().filter_map(|e| roll_of(e))
    }

    /// Germany's mission rolls in its battles whose plan wants `mission`
    /// first, by territory.
    fn attacking(&self, mission: &str) -> Vec<(&str, Vec<Roll<'_>>)> {
        if !self.german {
            return Vec::new();
        }
        self.plans
            .iter()
            .filter(|p| p.missions.first() == Some(&mission))
            .map(|p| {
                let rolls = self
                    .rolls()
                    .filter(|r| r.kind == "mission" && r.territory == p.territory)
                    .collect();
                (p.territory.as_str(), rolls)
            })
            .filter(|(_, r): &(_, Vec<Roll>)| !r.is_empty())
            .collect()
    }

    /// The mission rolls of Germany's teams defending in an Ally's turn.
    fn defending(&self) -> Vec<Roll<'_>> {
        if self.german {
            return Vec::new();
        }
        self.rolls()
            .filter(|r| r.kind == "mission" && r.power == "Germany")
            .collect()
    }

    /// Whether the defenders' AA guns in `territory` fired at attacking
    /// aircraft in its battle.
    fn battle_aa(&self, territory: &str) -> bool {
        let head = format!("aa/{territory}/");
        self.dice
            .iter()
            .any(|(l, _)| l.starts_with(&head) && !l[head.len()..].starts_with("overflight/"))
    }

    fn carried_out(&self, territory: &str, mission: &str) -> bool {
        self.rolls()
            .any(|r| r.territory == territory && r.what.starts_with(mission))
    }
}

/// The territories of the landing rolls of special force teams in one
/// message's events (`... special force team ... (paradrop/T/landing...`).
fn team_landings(events: &[String]) -> BTreeSet<String> {
    events
        .iter()
        .filter(|e| e.contains("special force team"))
        .filter_map(|e| e.split("(paradrop/").nth(1))
        .filter_map(|rest| rest.split_once("/landing").map(|(t, _)| t.to_owned()))
        .collect()
}

impl Trace {
    fn label(&self, f: impl Fn(&str) -> bool) -> bool {
        self.labels.iter().any(|l| f(l))
    }

    fn event(&self, text: &str) -> bool {
        self.events.iter().any(|e| e.contains(text))
    }

    /// Whether some message holds `f`.
    fn any(&self, f: impl Fn(&Msg) -> bool) -> bool {
        self.msgs.iter().any(f)
    }

    /// Whether every message holds `f`.
    fn all(&self, f: impl Fn(&Msg) -> bool) -> bool {
        self.msgs.iter().all(f)
    }

    /// Germany's teams defending under Evasive standing orders `mode`
    /// rolled for their missions.
    fn evasive_tried(&self, mode: &str) -> bool {
        self.any(|m| m.evasive == Some(mode) && !m.defending().is_empty())
    }

    /// Every defending German team that rolled 1-2 under Evasive standing
    /// orders `mode`, where `room` says the mission could be carried out,
    /// carried it out (one team a battle at least: a second may find no
    /// unit left to save).
    fn evasive_done(
        &self,
        mode: &str,
        text: &str,
        room: fn(&(String, bool, bool)) -> bool,
    ) -> bool {
        self.all(|m| {
            m.evasive != Some(mode)
                || m.defending().iter().all(|r| {
                    r.roll > 2
                        || !m.room.iter().any(|x| x.0 == r.territory && room(x))
                        || m.events.iter().any(|e| {
                            e.contains(text) && e.contains(&format!(" in {}: ", r.territory))
                        })
                })
        })
    }
}

/// Whether a trace shows one rule in play.
type Seen = fn(&Trace) -> bool;

/// What the log must show: one trace for each new unit and rule in play,
/// each a labelled die (docs/rules/combat-labels.md) or an event.
fn evidence() -> Vec<(&'static str, Seen)> {
    vec![
        ("mechanized infantry fired in a battle", |t| {
            t.label(|l| l.starts_with("battle/") && l.ends_with("/mechanized infantry"))
        }),
        ("heavy armor fired in a battle", |t| {
            t.label(|l| l.starts_with("battle/") && l.ends_with("/heavy armor"))
        }),
        ("an AA gun fired at an air transport", |t| {
            t.label(|l| l.starts_with("aa/") && l.ends_with("/air transport"))
        }),
        ("the defender's landing roll", |t| {
            t.label(|l| l.starts_with("paradrop/") && l.ends_with("/landing"))
        }),
        // The strike follows a 6 on the landing roll, one chance in six a
        // paratrooper: a game may see none, but a 6 without its strike fails.
        (
            "a paratrooper's surprise first strike after its 6 on landing",
            |t| {
                !t.event("surprise, a first strike")
                    || t.label(|l| l.ends_with("/first-strike/paradropped paratrooper"))
            },
        ),
        (
            "a dropped paratrooper attacked (at 2) in a battle round",
            |t| {
                t.label(|l| {
                    l.starts_with("battle/") && l.ends_with("/attacker/paradropped paratrooper")
                })
            },
        ),
        ("a territory out of supply", |t| {
            t.event("out of supply this turn")
        }),
        ("Normandy coastal fire", |t| {
            t.label(|l| l == "coastal/English Channel")
        }),
        ("a battleship rolled on the damage table", |t| {
            t.label(|l| l.ends_with("/battleship damage"))
        }),
        // Germany's special force teams walk in with its attackers: the
        // defender rolls to detect them.
        (
            "an air transport dropped special force teams into two territories in one flight",
            |t| t.multi_drop,
        ),
        ("a special force team faced detection", |t| {
            t.label(|l| l.starts_with("sft/") && l.contains("/detection/"))
        }),
        // Detection may find every team (one chance in six a searching
        // unit): a game may see no mission, but a team left unseen
        // without its mission roll fails.
        // A second team walks to an enemy industrial complex and strikes
        // it: detected first, or rolling for the mission.
        ("a special force team tried an Industrial Strike", |t| {
            t.event("Industrial Strike") || t.event("before its mission")
        }),
        (
            "a special force team not detected rolled for its mission",
            |t| {
                !t.event("was not detected")
                    || t.label(|l| l.starts_with("sft/") && l.contains("/mission/"))
            },
        ),
        // Germany's teams walk into its battles, the paradrops' (into an
        // AA gun's territory first) and the bot's, under battle plans that
        // want AA Suppression first where an AA gun defends against German
        // aircraft, else Supply Strike, then Disruption naming a type.
        (
            "a team whose plan wanted AA Suppression rolled where AA guns fire at aircraft",
            |t| {
                t.any(|m| {
                    m.attacking("aa_suppression")
                        .iter()
                        .any(|(at, _)| m.battle_aa(at) || m.carried_out(at, "AA Suppression"))
                })
            },
        ),
        // A roll of 1-3 opens it: then the guns never fire.
        (
            "AA Suppression carried out on every 1-3 where it could be",
            |t| {
                t.all(|m| {
                    m.attacking("aa_suppression").iter().all(|(at, rolls)| {
                        !rolls.iter().any(|r| r.roll <= 3)
                            || !m.battle_aa(at)
                            || m.carried_out(at, "AA Suppression")
                    })
                })
            },
        ),
        (
            "a team whose plan wanted Supply Strike rolled for it",
            |t| t.any(|m| !m.attacking("supply_strike").is_empty()),
        ),
        // A 1 opens it, once a battle.
        (
            "Supply Strike carried out in every battle a wanting team rolled 1",
            |t| {
                t.all(|m| {
                    m.attacking("supply_strike").iter().all(|(at, rolls)| {
                        !rolls.iter().any(|r| r.roll == 1) || m.carried_out(at, "Supply Strike")
                    })
                })
            },
        ),
        (
            "a Disruption struck with the unit type its battle plan named",
            |t| {
                t.any(|m| {
                    m.german
                        && m.plans.iter().any(|p| {
                            p.disruption.is_some_and(|d| {
                                let l = format!("sft/{}/disruption/{d}", p.territory);
                                m.dice.iter().any(|(x, _)| *x == l)
                            })
                        })
                })
            },
        ),
        // Germany's standing orders want Evasive, slipping out in odd
        // rounds and giving a team up for a land unit in even ones, else
        // Booby Trap, for its teams the Allies attack.
        (
            "a defending team rolled under Evasive (slip out) orders",
            |t| t.evasive_tried("slip_out"),
        ),
        (
            "a defending team rolled under Evasive (sacrifice) orders",
            |t| t.evasive_tried("sacrifice"),
        ),
        ("a defending team carried out Evasive", |t| {
            t.any(|m| m.defending().iter().any(|r| r.what.starts_with("Evasive")))
        }),
        (
            "every defending team's 1-2 slipped out where it could",
            |t| t.evasive_done("slip_out", "the team slips out to", |x| x.1),
        ),
        (
            "every defending team's 1-2 saved a land unit where it could",
            |t| {
                t.evasive_done("sacrifice", "the team gives itself up so that", |x| {
                    x.1 && x.2
                })
            },
        ),
        ("a defending team carried out Booby Trap", |t| {
            t.any(|m| {
                m.defending()
                    .iter()
                    .any(|r| r.what.starts_with("Booby Trap"))
            })
        }),
        // A 3-6 opens only Booby Trap, one attacker a team: the first
        // team of a battle always finds one.
        (
            "a Booby Trap in every battle where a defending team rolled 3-6",
            |t| {
                t.all(|m| {
                    m.defending()
                        .iter()
                        .all(|r| r.roll <= 2 || m.carried_out(r.territory, "Booby Trap"))
                })
            },
        ),
        // Teams the glider drops into enemy land, and teams walking into
        // it, face the enemy's sweep in its turn and carry out Aversion by
        // Germany's standing orders, the Allies answering stay or withdraw.
        ("the detection sweep rolled for German teams", |t| {
            t.label(|l| l.starts_with("sft/") && l.contains("/sweep/"))
        }),
        ("a sweep removed a team", |t| {
            t.event("in the sweep at the start of the combat move, a 1")
        }),
        ("every sweep that rolled a 1 removed a team", |t| {
            t.all(|m| {
                m.dice.iter().all(|(l, v)| {
                    !l.contains("/sweep/")
                        || !v.contains(&1)
                        || m.events
                            .iter()
                            .any(|e| e.contains("rule: detected") && e.contains(&format!("({l})")))
                })
            })
        }),
        ("a German team rolled for Aversion", |t| {
            t.any(|m| m.rolls().any(|r| r.kind == "aversion"))
        }),
        ("Aversion carried out on every 1 and on nothing else", |t| {
            t.all(|m| {
                m.rolls()
                    .filter(|r| r.kind == "aversion")
                    .all(|r| (r.roll == 1) == r.what.starts_with("Aversion:"))
            })
        }),
        ("every averted unit did as its owner's word said", |t| {
            t.all(|m| {
                let word = format!("(its owner's word: {})", m.averted);
                m.rolls()
                    .filter(|r| r.what.starts_with("Aversion:"))
                    .all(|r| r.what.contains(&word))
            })
        }),
    ]
}

/// How often each mission was tried and carried out, for the test's
/// output.
fn summary(t: &Trace) -> String {
    let mut n = std::collections::BTreeMap::<&str, usize>::new();
    for m in &t.msgs {
        for r in m.rolls() {
            let key = match (m.german, r.kind) {
                (_, "aversion") => "aversion roll",
                (true, _) => "attacking roll",
                (false, _) => "defending roll",
            };
            *n.entry(key).or_default() += 1;
            for what in [
                "AA Suppression",
                "Supply Strike",
                "Disruption",
                "Booby Trap",
                "Evasive",
                "Aversion:",
                "Industrial Strike",
            ] {
                if r.what.starts_with(what) {
                    *n.entry(what).or_default() += 1;
                }
            }
        }
        for e in &m.events {
            for what in [
                "the team slips out to",
                "the team gives itself up",
                "owner's word: stay",
                "owner's word: withdraw",
                "in the sweep at the start of the combat move, a 1",
            ] {
                if e.contains(what) {
                    *n.entry(what).or_default() += 1;
                }
            }
        }
        for (l, _) in &m.dice {
            if l.contains("/sweep/") {
                *n.entry("sweep dice").or_default() += 1;
            }
        }
    }
    format!("{n:?}")
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("jb-scripted-01")
}

/// Adds every dice label of the log past its first `seen` lines to the
/// trace, and returns those dice and the number of lines now read.
fn read_labels(log: &Path, seen: usize, trace: &mut Trace) -> (Vec<(String, Vec<u32>)>, usize) {
    let bytes = std::fs::read(log).unwrap();
    let lines: Vec<&[u8]> = bytes
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .collect();
    let mut dice = Vec::new();
    for line in &lines[seen..] {
        if let Body::Dice(d) = parse_line(line).unwrap().body {
            for g in d.rolls {
                trace.labels.insert(g.label.as_str().to_owned());
                dice.push((g.label.as_str().to_owned(), g.values));
            }
        }
    }
    (dice, lines.len())
}

/// For each territory where German special force teams stand in `before`:
/// whether a neighbouring land territory is German in `before` and
/// `after` (an Evasive mission's way out all through the message), and
/// whether a German land unit that fights stands there (one to save).
fn evasive_room(
    game: &GameDef,
    before: &GameState,
    after: &GameState,
) -> Vec<(String, bool, bool)> {
    let germany = game.power("Germany").unwrap();
    let team = game
        .unit_types()
        .iter()
        .position(|t| t.name == "special force team")
        .unwrap();
    let mut out: Vec<(String, bool, bool)> = Vec::new();
    for u in before
        .units
        .iter()
        .filter(|u| u.owner == germany && u.unit == team && u.cargo_of.is_none())
    {
        let name = game.space_name(u.at).to_owned();
        if out.iter().any(|x| x.0 == name) {
            continue;
        }
        let slip = game.neighbours(u.at).iter().any(|&n| {
            !game.is_sea(n)
                && before.owner[n.0] == Some(germany)
                && after.owner[n.0] == Some(germany)
        });
        let save = before.units_at(u.at).any(|d| {
            let t = &game.unit_types()[d.unit];
            d.owner == germany
                && d.cargo_of.is_none()
                && t.kind == Some(UnitKind::Land)
                && t.defense.unwrap_or(0) > 0
        });
        out.push((name, slip, save));
    }
    out
}

/// How many games may be played for every trace to show.
const MAX_GAMES: u32 = 4;

#[test]
fn a_scripted_jboulton_game_uses_every_new_unit_and_verifies() {
    // The traces of every game played, each of them verified whole: a
    // rule that needs a particular roll or a front the bot reaches may
    // miss one game; it must show in one of at most four.
    let mut trace = Trace::default();
    let mut games = 0;
    while games < MAX_GAMES {
        games += 1;
        play_and_verify(games, &mut trace);
        let missing: Vec<&str> = evidence()
            .into_iter()
            .filter(|(_, seen)| !seen(&trace))
            .map(|(what, _)| what)
            .collect();
        eprintln!("jboulton: after game {games}, not yet seen: {missing:?}");
        if evidence().iter().all(|(_, seen)| seen(&trace)) {
            break;
        }
    }
    eprintln!("jboulton: {}", summary(&trace));
    let missing: Vec<&str> = evidence()
        .into_iter()
        .filter(|(_, seen)| !seen(&trace))
        .map(|(what, _)| what)
        .collect();
    assert!(
        missing.is_empty(),
        "never happened in {games} games: {missing:?}\nlabels: {:?}",
        trace.labels
    );
}

/// Plays game `n` until every trace is in `trace` (past round 6, up to
/// round 24), adding its labels and events, and checks its log with both
/// verifiers, the replay and a forged die.
fn play_and_verify(n: u32, trace: &mut Trace) {
    let dir = fresh_dir(&format!("jboulton-full-game-{n}"));
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut m = Match::create(&dir, &games, "aae-jboulton", PLAYERS).unwrap();
    let log_path = dir.join("log.jsonl");
    // Capitals are not attacked, so that the game lasts until every rule
    // has shown itself.
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
        ..aae_bot::BotConfig::default()
    };
    let mut messages = 0;
    let mut unused: Vec<String> = Vec::new();
    // Lines of the log read, and the Evasive mode of Germany's standing
    // orders in force.
    let mut seen = 0;
    let mut evasive = None;
    loop {
        let state = m.state().clone();
        let seen_all = evidence().iter().all(|(_, seen)| seen(trace));
        if state.winner.is_some()
            || state.round > MAX_ROUNDS
            || (state.round > MIN_ROUNDS && seen_all)
        {
            break;
        }
        let game = m.game().clone();
        let power = game.powers()[state.current_power(&game)].name.clone();
        let o = jboulton_script::orders(&game, &state, cfg);

        for first in &o.used {
            eprintln!("round {}: {power}: {first}", state.round);
        }
        unused.extend(
            o.unused
                .iter()
                .map(|first| format!("round {}: {power}: {first}", state.round)),
        );
        let yaml = o.yaml;
        let receipt = match m.submit(&power, &yaml) {
            Ok(Ok(r)) => r,
            Ok(Err(errors)) => panic!(
                "the match refused checked orders:\n{yaml}\n{}",
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            Err(e) => panic!("the match failed on these orders: {e}\n{yaml}"),
        };
        messages += 1;
        if yaml.contains("drop:") && team_landings(&receipt.events).len() >= 2 {
            trace.multi_drop = true;
        }
        let (dice, now) = read_labels(&log_path, seen, trace);
        seen = now;
        let german = power == "Germany";
        trace.msgs.push(Msg {
            german,
            plans: o.plans,
            averted: o.averted.unwrap_or("stay"),
            evasive,
            dice,
            events: receipt.events.clone(),
            room: if german {
                Vec::new()
            } else {
                evasive_room(&game, &state, m.state())
            },
        });
        trace.events.extend(receipt.events);
        // After its turn Germany sends the standing orders its teams follow
        // in the Allies' turns, a message of their own.
        if german && state.phase != Phase::Purchase {
            // Each Evasive mode until a defending team has rolled under
            // it, then by turns.
            let mode = match (
                trace.evasive_tried("slip_out"),
                trace.evasive_tried("sacrifice"),
            ) {
                (false, _) => "slip_out",
                (true, false) => "sacrifice",
                _ if state.round % 2 == 1 => "slip_out",
                _ => "sacrifice",
            };
            let standing = jboulton_script::germany_standing(&game, m.state(), mode);
            match m.submit("Germany", &standing) {
                Ok(Ok(_)) => {}
                other => panic!("Germany's standing orders were refused: {other:?}\n{standing}"),
            }
            messages += 1;
            evasive = Some(mode);
        }
    }
    let state = m.state().clone();
    eprintln!(
        "jboulton: game {n}: {messages} messages, round {}, {} dice labels in all",
        state.round,
        trace.labels.len()
    );
    for u in &unused {
        eprintln!("jboulton: a scripted order the bot's repair dropped: {u}");
    }
    assert!(state.round > MIN_ROUNDS, "{} rounds", state.round - 1);

    // Both verifiers, the replay and a forged die.
    common::assert_a_played_match_verifies(m, messages, "jboulton");
}
