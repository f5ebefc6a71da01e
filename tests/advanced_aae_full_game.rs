//! A scripted Advanced AAE game (issue 19, item 6): the test bot plays the
//! six powers of Advanced Axis & Allies Europe v2.2 (Germany, Italy, Russia,
//! Britain, British Middle East, USA, each with its own treasury and the
//! placement limits of AAAE-17) for 6 rounds through `Match::submit`, the
//! mail daemon's path (real commit-reveal dice). The bot ships British
//! MidEast's oil convoys (AAAE-08), pays lend-lease (AAAE-40), raids enemy
//! complexes within a bomber's 3 combat spaces and repairs its own at 2 IPCs
//! a point (AAAE-32, 33, 36), buys no more than its complexes place
//! (AAAE-17), and invades neutrals (AAAE-19, 20: they are unowned and empty
//! until invaded, so the bot takes them for undefended). Scripted orders add
//! what the bot would not do by itself: Germany's surprise attack on a
//! light-red area in round 1 (AAAE-11), a US transport sailed to Russia's
//! convoy zone so that lend-lease can be paid, and the Axis keeping out of
//! that zone (their submarines would sink its Russian transport in round 1
//! and hold it). Each of these is looked for in the log, so that the test
//! fails when one is silently skipped. Then the real `adjutant verify` replays the log
//! through the engine, the independent Python verifier checks its dice, and
//! a forged die is caught by both, on the plain path a played match takes.
//!
//! A second test plays the 30-round game the verify benchmark measures
//! (capitals spared, the economic victories kept out of reach by the bot)
//! and checks that it lasts and verifies.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod common;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use adjutant::log::{Body, parse_line};
use adjutant::matches::Match;
use adjutant::rules::model::UnitKind;
use adjutant::rules::state::{GameState, Phase};
use adjutant::rules::{GameDef, SpaceId};

const ROUNDS: u32 = 6;
const POWERS: usize = 6;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("advanced-aae-01")
}

fn players() -> String {
    std::fs::read_to_string(root().join("tests/fixtures/advanced-aae-players.yaml")).unwrap()
}

/// What the scripted orders and the bot did, from the receipts.
#[derive(Default)]
struct Seen {
    /// The dice turn of Germany's first message (its round-1 stage 1) and
    /// the light-red territory its scripted surprise attack went into, with
    /// the Russian units there.
    surprise: Option<(String, usize)>,
    neutral_activations: usize,
    /// Rounds in which the scripted US transport moved towards Russia's
    /// convoy zone.
    convoy_runs: usize,
    /// German placements of a submarine: the Wolfpack's free one (AAAE-25;
    /// the bot buys no submarine).
    wolfpack_subs: usize,
}

fn region(game: &GameDef, name: &str) -> Vec<SpaceId> {
    game.region(name).unwrap_or_default()
}

fn free_land_units(game: &GameDef, state: &GameState, power: usize, at: SpaceId) -> Vec<usize> {
    state
        .units_at(at)
        .filter(|u| u.owner == power && u.moved == 0 && u.cargo_of.is_none())
        .filter(|u| game.unit_types()[u.unit].kind == Some(UnitKind::Land))
        .filter(|u| game.unit_types()[u.unit].attack.unwrap_or(0) > 0)
        .map(|u| u.unit)
        .collect()
}

fn list(game: &GameDef, units: &[usize]) -> String {
    let mut counts: Vec<(usize, u32)> = Vec::new();
    for &t in units {
        match counts.iter_mut().find(|(u, _)| *u == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t, 1)),
        }
    }
    counts
        .iter()
        .map(|&(t, n)| format!("{n} {}", game.unit_types()[t].name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Germany's round-1 surprise attack (AAAE-11): every attacking land unit
/// of the German territory beside a light-red area held by Russian units,
/// the strongest such attack. Returns the move and the target.
fn surprise_attack(game: &GameDef, state: &GameState) -> Option<(String, String, usize)> {
    let germany = game.power("Germany")?;
    let russia = game.power("Russia")?;
    let mut best: Option<(usize, String, String, usize)> = None;
    for target in region(game, "light_red") {
        let russians = state.units_at(target).filter(|u| u.owner == russia).count();
        if russians == 0 {
            continue;
        }
        for &from in game.neighbours(target) {
            if game.is_sea(from) || state.owner[from.0] != Some(germany) {
                continue;
            }
            let units = free_land_units(game, state, germany, from);
            if units.len() <= russians {
                continue;
            }
            let line = format!(
                "{}: {} -> {}",
                list(game, &units),
                game.space_name(from),
                game.space_name(target)
            );
            if best.as_ref().is_none_or(|b| units.len() > b.0) {
                best = Some((
                    units.len(),
                    line,
                    game.space_name(target).to_owned(),
                    russians,
                ));
            }
        }
    }
    best.map(|(_, line, target, n)| (line, target, n))
}

/// The zone of Russia's convoy (the board's `convoy: {power}`).
fn russian_convoy(game: &GameDef) -> Option<SpaceId> {
    let russia = game.power("Russia");
    (0..game.space_count()).map(SpaceId).find(|&z| {
        game.sea_zone(z)
            .and_then(|z| z.convoy.as_ref())
            .is_some_and(|c| game.power(&c.power) == russia)
    })
}

/// A US transport, empty and unmoved, sent two sea zones along the
/// shortest sea route to Russia's convoy zone, avoiding zones with enemy
/// ships; none when one is already there.
fn convoy_run(game: &GameDef, state: &GameState) -> Option<String> {
    let usa = game.power("USA")?;
    let goal = russian_convoy(game)?;
    let side = game.side_of(usa);
    let is_transport = |u: &adjutant::rules::state::Unit| {
        game.unit_types()[u.unit]
            .transport_capacity
            .is_some_and(|c| c > 0)
    };
    if state
        .units_at(goal)
        .any(|u| u.owner == usa && is_transport(u))
    {
        return None;
    }
    let hostile = |z: SpaceId| {
        state.units_at(z).any(|u| {
            game.side_of(u.owner) != side && game.unit_types()[u.unit].kind == Some(UnitKind::Sea)
        })
    };
    // Sea distances from the goal.
    let mut dist = vec![None; game.space_count()];
    let mut prev = vec![None; game.space_count()];
    dist[goal.0] = Some(0usize);
    let mut queue = VecDeque::from([goal]);
    while let Some(z) = queue.pop_front() {
        for &n in game.neighbours(z) {
            if game.is_sea(n) && dist[n.0].is_none() && !hostile(n) {
                dist[n.0] = Some(dist[z.0].unwrap() + 1);
                prev[n.0] = Some(z);
                queue.push_back(n);
            }
        }
    }
    let carrying: Vec<u32> = state.units.iter().filter_map(|u| u.cargo_of).collect();
    let transport = state
        .units
        .iter()
        .filter(|u| u.owner == usa && is_transport(u) && u.moved == 0)
        .filter(|u| !carrying.contains(&u.id))
        .filter_map(|u| dist[u.at.0].map(|d| (d, u.id, u.at)))
        .min()?;
    let (_, _, mut at) = transport;
    let mut path = vec![at];
    for _ in 0..2 {
        match prev[at.0] {
            Some(next) => {
                path.push(next);
                at = next;
            }
            None => break,
        }
    }
    (path.len() > 1).then(|| {
        let names: Vec<&str> = path.iter().map(|&s| game.space_name(s)).collect();
        format!("1 transport: {}", names.join(" -> "))
    })
}

#[test]
fn six_rounds_of_advanced_aae_with_six_powers_verify_and_a_forged_die_is_caught() {
    let dir = fresh_dir("advanced-aae-full-game");
    let mut m = Match::create(&dir, &root().join("games"), "advanced-aae", &players()).unwrap();
    assert_eq!(m.game().powers().len(), POWERS);
    let cfg = aae_bot::BotConfig {
        bombing_raids: true,
        repair: true,
        oil_convoy: true,
        lend_lease: true,
        ..aae_bot::BotConfig::default()
    };

    let mut played = aae_bot::Played::default();
    let mut seen = Seen::default();
    let mut spent_by_power = [0usize; POWERS];
    while m.state().round <= ROUNDS && m.state().winner.is_none() {
        let game = m.game();
        let state = m.state();
        let power = state.current_power(game);
        let name = game.powers()[power].name.clone();
        let stage_one = state.phase == Phase::Purchase;
        let mut extra: Vec<String> = Vec::new();
        let mut surprise = None;
        if stage_one && name == "Germany" && state.round == 1 {
            let (line, target, russians) =
                surprise_attack(game, state).expect("a light-red area to attack in round 1");
            extra.push(line);
            surprise = Some((target, russians));
        }
        let mut run = false;
        if !stage_one
            && name == "USA"
            && let Some(line) = convoy_run(game, state)
        {
            extra.push(line);
            run = true;
        }
        let refs: Vec<&str> = extra.iter().map(String::as_str).collect();
        // The Axis leave Russia's convoy zone alone: their submarines would
        // take it in round 1, and lend-lease needs it (AAAE-40).
        let axis = game.side_of(game.power("Germany").unwrap());
        let cfg = if game.side_of(power) == axis {
            aae_bot::BotConfig {
                spared_zones: &["Russian Convoy"],
                ..cfg
            }
        } else {
            cfg
        };
        let o = aae_bot::orders_with(game, state, cfg, &refs);
        for e in &extra {
            assert!(
                o.yaml.contains(e.as_str()),
                "the scripted order {e:?} was dropped: {:?}\n{}",
                o.dropped,
                o.yaml
            );
        }
        let turn = m.log().chain().open_turn().map(|(t, _)| t);
        let receipt = match m.submit(&o.power, &o.yaml) {
            Ok(Ok(r)) => r,
            Ok(Err(errors)) => panic!(
                "the match refused orders that check_orders accepted:\n{}\n{errors:?}",
                o.yaml
            ),
            Err(e) => panic!("the match failed on these orders: {e}\n{}", o.yaml),
        };
        if let Some((target, russians)) = surprise {
            seen.surprise = Some((format!("{}\t{target}", turn.unwrap()), russians));
        }
        seen.convoy_runs += usize::from(run);
        spent_by_power[power] += 1;
        played.messages += 1;
        played.raids += o.raids;
        for e in &receipt.events {
            if e.starts_with("neutral activation: ") && e.contains(" invaded by ") {
                eprintln!("advanced-aae: round {}: {e}", m.state().round);
                seen.neutral_activations += 1;
            }
            if name == "Germany" && e.starts_with("Germany placed ") && e.contains(" submarine") {
                seen.wolfpack_subs += 1;
            }
            if e.starts_with("oil convoy: ") {
                played.oil_convoys += 1;
            }
            if e.starts_with("lend-lease: ") {
                played.lend_leases += 1;
            }
            if e.contains("its industrial complex takes") {
                played.damage_events += 1;
            }
            if e.contains(" repairs ") {
                played.repairs += 1;
            }
            if e.starts_with("battle in ") && e.contains(" over after ") {
                played.battle_ends += 1;
                if !e.contains(" over after 0 ") {
                    played.battles += 1;
                }
            }
        }
        played.dropped.extend(o.dropped);
    }
    let messages = played.messages;
    let state = m.state().clone();
    match state.winner {
        Some(side) => eprintln!(
            "advanced-aae: won by the {} in round {}",
            m.game().files().game.sides[side].name,
            state.round
        ),
        None => {
            assert_eq!(state.round, ROUNDS + 1, "all {ROUNDS} rounds were played");
            assert_eq!(messages, 2 * POWERS * ROUNDS as usize);
        }
    }
    // Every power played each round it could: six treasuries, six turns.
    for (p, n) in spent_by_power.iter().enumerate() {
        assert!(*n >= 2, "{} sent {n} messages", m.game().powers()[p].name);
    }
    eprintln!(
        "advanced-aae: {messages} messages, {} battles ({} ended), {} raids, {} damage events, \
         {} repairs, {} oil convoys, {} lend-lease payments, {} neutral invasions, {} convoy runs, \
         {} Wolfpack submarines placed, {} candidate orders dropped",
        played.battles,
        played.battle_ends,
        played.raids,
        played.damage_events,
        played.repairs,
        played.oil_convoys,
        played.lend_leases,
        seen.neutral_activations,
        seen.convoy_runs,
        seen.wolfpack_subs,
        played.dropped.len()
    );
    for d in &played.dropped {
        eprintln!("advanced-aae: dropped: {d}");
    }
    assert!(played.battles >= 5, "only {} battles", played.battles);
    // AAAE-17: the bot buys what its complexes can place.
    let refused = played.dropped.iter().find(|d| d.contains(", purchase"));
    assert!(refused.is_none(), "{refused:?}");
    assert!(played.oil_convoys >= 1, "no oil convoy shipped");
    assert!(played.lend_leases >= 1, "no lend-lease paid");
    assert!(played.raids >= 1, "no raid declared");
    assert!(played.damage_events >= 1, "no complex damaged");
    assert!(played.repairs >= 1, "no complex repaired");
    assert!(seen.neutral_activations >= 1, "no neutral invaded");
    // AAAE-25, 44: the bot places Germany's free submarine where the
    // three-submarine limit takes it.
    assert!(seen.wolfpack_subs >= 1, "no Wolfpack submarine placed");

    // The log shows each of them.
    let log_path = dir.join("log.jsonl");
    let log = std::fs::read(&log_path).unwrap();
    let text = String::from_utf8_lossy(&log);
    for needle in [
        "oil convoy: British Middle East ships",
        "lend-lease: USA pays Russia",
        "neutral activation: ",
        "bombing_raid",
        "repair:",
    ] {
        assert!(text.contains(needle), "{needle:?} is not in the log");
    }
    let (surprise_turn, russians) = seen.surprise.expect("the surprise attack was ordered");
    let (turn, target) = surprise_turn.split_once('\t').unwrap();
    let turn: u32 = turn.parse().unwrap();
    let mut dice = 0;
    let mut oil_dice = 0;
    let mut surprise_labels = Vec::new();
    for line in log.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let e = parse_line(line).unwrap();
        if let Body::Dice(d) = &e.body {
            dice += d.rolls.iter().map(|g| g.values.len()).sum::<usize>();
            for g in &d.rolls {
                let l = g.label.as_str();
                if l.starts_with("oil convoy/") {
                    oil_dice += g.values.len();
                }
                if d.turn == turn && l.starts_with(&format!("battle/{target}/round/1/")) {
                    surprise_labels.push(l.to_owned());
                }
            }
        }
    }
    // AAAE-11: in Germany's first turn the Russians in the light-red area
    // were attacked and did not fire in the first round.
    eprintln!(
        "advanced-aae: surprise attack on {target} ({russians} Russian units): {surprise_labels:?}"
    );
    assert!(
        surprise_labels.iter().any(|l| l.contains("/attacker/")),
        "the surprise attack on {target} was not fought: {surprise_labels:?}"
    );
    assert!(
        !surprise_labels.iter().any(|l| l.contains("/defender/")),
        "Russians fired in the first round of the surprise attack: {surprise_labels:?}"
    );
    assert!(oil_dice >= 1, "no oil convoy die in the log");
    assert!(dice >= 60, "{dice} dice");

    // The real binary replays the whole match through the engine, the
    // independent verifier agrees on the dice, and a forged die is caught.
    common::assert_a_played_match_verifies(m, messages, "advanced-aae");
}

/// The game that `cargo bench --bench full_game -- "verify advanced"` measures
/// (issue 19: verify and replay of a 30-round log): the bot spares the
/// capitals and keeps the economic victories 6 IPCs out of reach
/// (`BotConfig::economic_margin`, as `benches/common/game_bench.rs`), so
/// that no victory condition (AAAE-13..16) ends it; it lasts its 30 rounds
/// and is a real game that both verifiers accept.
#[test]
fn the_benchmarks_thirty_round_game_lasts_and_verifies() {
    let dir = fresh_dir("advanced-aae-thirty-rounds");
    let mut m = Match::create(&dir, &root().join("games"), "advanced-aae", &players()).unwrap();
    let cfg = aae_bot::BotConfig {
        attack_capitals: false,
        economic_margin: Some(6),
        oil_convoy: true,
        lend_lease: true,
        ..aae_bot::BotConfig::default()
    };
    let played = aae_bot::play(&mut m, 30, cfg);
    assert_eq!(m.state().winner, None, "a victory condition ended the game");
    assert_eq!(m.state().round, 31, "the game lasted 30 rounds");
    assert_eq!(played.messages, 30 * POWERS * 2);
    let germany = m.game().power("Germany").unwrap();
    let income = adjutant::rules::income::income(m.game(), m.state(), germany);
    eprintln!(
        "advanced-aae, 30 rounds: {} battles; Germany's income {}",
        played.battles, income.land
    );
    assert!(played.battles >= 30, "{} battles", played.battles);
    common::assert_a_played_match_verifies(m, played.messages, "advanced-aae");
}
