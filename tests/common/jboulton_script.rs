//! Scripted orders that put the J Boulton house rules' new units into
//! real play, on top of the test bot's (`aae_bot.rs`) orders for the power
//! to move, in `games/aae-jboulton/`:
//!
//! - Germany buys mechanized infantry, heavy armor, air transports,
//!   paratroopers and a submarine a turn; its mechanized infantry and heavy
//!   armor attack a neighbouring enemy territory when they stand beside
//!   one; it keeps six special force teams (two bought before the planes),
//!   which walk in with the attackers, two a battle (detection, the mission
//!   roll), and the team nearest an enemy industrial complex walks to it
//!   and strikes it (the mission trigger's detection, the mission roll,
//!   Industrial Strike);
//! - its battle plans for the battles where its teams stand or walk in
//!   (the paradrops', into an AA gun's territory where a team is near
//!   first, the bot's, the scripted attacks') want AA Suppression first
//!   where an AA gun defends against German aircraft, else Supply Strike,
//!   then Disruption naming a unit type sent there;
//! - teams left walk into enemy land beside them where no battle is (the
//!   Allies' detection sweep, Aversion) or, in the non-combat move, to the
//!   German territory most threatened beside them; each Ally sends one land
//!   unit at every German territory where German teams stand with German
//!   land units (a probe, few detection dice), so that the teams defend:
//!   Germany's standing orders ([`germany_standing`], a message of their
//!   own after its turn) want Evasive (slip out or sacrifice) else Booby
//!   Trap, and Aversion where its teams stand in enemy land; each Ally's
//!   stage 1 says `averted: stay` or `withdraw` by turns;
//! - its air transports drop the paratroopers waiting with them into the
//!   enemy territory in reach (not a capital), one with an AA gun and a
//!   German team in or beside it first, else one with an AA gun (AA fire at
//!   the carriers, the landing roll, the surprise first strike on a 6, the
//!   paratrooper attacking at 2), and fly home to Germany in the
//!   non-combat move;
//! - a glider (an air transport with special force teams only) flies
//!   over one enemy territory into another, an AA gun's first, dropping a
//!   team into each (all but one into the AA gun's) and carrying a third,
//!   if it has one, home again (JB-12), in the first four rounds and every
//!   third after;
//! - an air transport carries an infantry to Sicily, and the Allies send
//!   warships to the sea zones beside it, so that the island is out of
//!   supply at the start of Germany's turn (JB-39);
//! - the United Kingdom lands from the English Channel in France (else
//!   Netherlands-Belgium) with its battleship in the Channel: Germany's
//!   Normandy coastal fire (JB-45); it buys a transport when none is
//!   beside its island, and the United States a battleship when it has
//!   none;
//! - every battleship attacks the enemy ships in its reach, or sails
//!   toward them, and one that takes a hit rolls on the damage table
//!   (JB-41; JB-46 when the coastal fire hits it).
//!
//! The bot checks the whole message with the engine and drops what it
//! refuses; [`orders`] says which scripted orders made it. Used by
//! `tests/jboulton_full_game.rs` and the `jboulton` round of
//! `benches/full_game.rs`.

#![allow(dead_code)]

use std::collections::VecDeque;

use adjutant::rules::model::UnitKind;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::state::{GameState, Phase, Unit};
use adjutant::rules::turn::check_orders;
use adjutant::rules::{GameDef, SpaceId};

use super::aae_bot;

/// The message of the power to move: the bot's with the script's orders.
pub struct Scripted {
    /// The power's name.
    pub power: String,
    /// The message, as mailed.
    pub yaml: String,
    /// The first line of each scripted order the message holds.
    pub used: Vec<String>,
    /// The first line of each scripted order the bot's repair dropped.
    pub unused: Vec<String>,
    /// Germany's battle plans for its special force teams in the message.
    pub plans: Vec<TeamPlan>,
    /// The word on averted units an Allied stage-1 message gives.
    pub averted: Option<&'static str>,
}

/// The orders of the power to move: the script's for its stage, put first,
/// and the bot's; the script's purchase before the bot's own, which gets
/// what money is left.
pub fn orders(game: &GameDef, state: &GameState, cfg: aae_bot::BotConfig) -> Scripted {
    let b = Board { game, state };
    let power = game.powers()[state.current_power(game)].name.clone();
    let stage_one = state.phase == Phase::Purchase;
    let mut script = match (power.as_str(), stage_one) {
        ("Germany", true) => germany_stage_one(&b),
        ("Germany", false) => germany_stage_two(&b),
        ("United Kingdom", true) => britain_stage_one(&b),
        (_, false) => allied_stage_two(&b),
        _ => Script::default(),
    };
    if stage_one && power != "Germany" {
        probes(&b, &mut script);
    }
    if stage_one {
        allied_purchases(&b, &mut script);
        battleships_attack(&b, &mut script);
    } else {
        battleships_close_in(&b, &mut script);
    }
    let germany_one = power == "Germany" && stage_one;
    let extra: Vec<&str> = script.moves.iter().map(String::as_str).collect();
    let mut o = aae_bot::orders_with(game, state, cfg, &extra);
    if germany_one {
        // The teams left walk into the bot's battles beside them too, and
        // the others into enemy land (the sweep, Aversion): the bot's
        // orders again with theirs.
        let battles: Vec<SpaceId> = battles_of(&b, &o.yaml).into_iter().map(|x| x.0).collect();
        let before = script.moves.len();
        walk_into(&b, &battles, &mut script);
        infiltrate(&b, &battles, &mut script);
        if script.moves.len() > before {
            let extra: Vec<&str> = script.moves.iter().map(String::as_str).collect();
            o = aae_bot::orders_with(game, state, cfg, &extra);
        }
    }
    let mut yaml = o.yaml;
    if !script.buy.is_empty() {
        let bought = with_purchase(game, state, &yaml, &script.buy);
        assert!(
            b.legal_message(&bought),
            "the scripted purchase was refused:\n{bought}"
        );
        yaml = bought;
    }
    // The Industrial Strikes, when the team's walk made it into the
    // message and the engine takes them.
    let strikes: Vec<String> = script
        .strikes
        .iter()
        .map(|&t| format!("  {}: 1\n", b.name(t)))
        .collect();
    if !strikes.is_empty() {
        let sep = if yaml.ends_with('\n') { "" } else { "\n" };
        let with = format!("{yaml}{sep}industrial_strike:\n{}", strikes.concat());
        if b.legal_message(&with) {
            yaml = with;
        }
    }
    let mut plans = Vec::new();
    if germany_one {
        plans = team_plans(&b, &mut yaml);
    }
    let mut averted = None;
    if power != "Germany" && stage_one {
        // The Allies answer Aversion both ways, by turns.
        let word = if (state.round + state.current_power(game) as u32).is_multiple_of(2) {
            "stay"
        } else {
            "withdraw"
        };
        let sep = if yaml.ends_with('\n') { "" } else { "\n" };
        let with = format!("{yaml}{sep}averted: {word}\n");
        if b.legal_message(&with) {
            yaml = with;
            averted = Some(word);
        }
    }
    let (used, unused) = script
        .moves
        .iter()
        .map(|m| m.lines().next().unwrap().to_owned())
        .partition(|first| yaml.contains(first.as_str()));
    Scripted {
        power,
        yaml,
        used,
        unused,
        plans,
        averted,
    }
}

/// The missions one German battle plan wants of its special force teams.
pub struct TeamPlan {
    /// The battle's territory.
    pub territory: String,
    /// `missions`, most wanted first.
    pub missions: Vec<&'static str>,
    /// The unit type `disruption` names.
    pub disruption: Option<&'static str>,
}

/// The battles a message's combat section starts: each land territory a
/// move ends in, or a transport unloads into, where enemy units that fight
/// stand, with the unit types sent there.
fn battles_of(b: &Board, yaml: &str) -> Vec<(SpaceId, Vec<String>)> {
    let power = b.state.current_power(b.game);
    let mut out: Vec<(SpaceId, Vec<String>)> = Vec::new();
    let mut add = |t: SpaceId, list: &str| {
        let types = list
            .split(", ")
            .filter_map(|i| i.split_once(' ').map(|(_, n)| n.to_owned()));
        match out.iter_mut().find(|(s, _)| *s == t) {
            Some((_, have)) => have.extend(types),
            None => out.push((t, types.collect())),
        }
    };
    let mut load = String::new();
    for line in yaml
        .lines()
        .skip_while(|l| *l != "combat:")
        .skip(1)
        .take_while(|l| l.starts_with(' '))
    {
        let (list, rest) = if let Some(o) = line.strip_prefix("  - ") {
            load.clear();
            match o.split_once(": ") {
                Some(x) => x,
                None => continue,
            }
        } else if let Some(l) = line.strip_prefix("    load: ") {
            load = l.split(" from ").next().unwrap_or_default().to_owned();
            continue;
        } else if let Some(t) = line.strip_prefix("    unload: ") {
            (load.as_str(), t)
        } else {
            continue;
        };
        // Teams alone, or carried by a glider, start no battle (JB-22).
        let fights = list
            .split(", ")
            .any(|i| !i.ends_with(" special force team") && !i.ends_with(" air transport"));
        if list == "transport" || !fights {
            continue;
        }
        let path = rest.split(", land ").next().unwrap_or_default();
        let Some(t) = path.rsplit(" -> ").next().and_then(|t| b.game.space(t)) else {
            continue;
        };
        let defended = b.state.units_at(t).any(|u| {
            b.enemies(power, u.owner) && b.game.unit_types()[u.unit].defense.unwrap_or(0) > 0
        });
        if !b.game.is_sea(t) && defended {
            add(t, list);
        }
    }
    out
}

/// Germany's battle plans for the battles where its special force teams
/// stand or walk in, put into `yaml` where the engine takes them: AA
/// Suppression first where an AA gun defends against German aircraft, else
/// Supply Strike, and Disruption naming a unit type sent there.
fn team_plans(b: &Board, yaml: &mut String) -> Vec<TeamPlan> {
    let germany = b.state.current_power(b.game);
    let mut plans = Vec::new();
    for (t, types) in battles_of(b, yaml) {
        let walk = "special force team: ";
        let into = format!(" -> {}", b.name(t));
        let walking = yaml
            .lines()
            .filter(|l| l.contains(walk) && l.ends_with(&into))
            .count();
        if walking + b.teams_in(germany, t) == 0 {
            continue;
        }
        let air = types.iter().any(|n| {
            b.game
                .unit_type(n)
                .is_some_and(|u| u.kind == Some(UnitKind::Air))
        });
        let missions = if air && b.enemy_aa_gun(germany, t) {
            vec!["aa_suppression", "disruption"]
        } else {
            vec!["supply_strike", "disruption"]
        };
        let disruption = [
            "heavy armor",
            "armor",
            "mechanized infantry",
            "artillery",
            "infantry",
            "fighter",
            "bomber",
        ]
        .into_iter()
        .find(|n| types.iter().any(|x| x == n));
        let mut text = format!("special_force_teams: {{missions: [{}]", missions.join(", "));
        if let Some(d) = disruption {
            text.push_str(&format!(", disruption: {d}"));
        }
        text.push('}');
        let with = with_plan(yaml, b.name(t), &text);
        if b.legal_message(&with) {
            *yaml = with;
            plans.push(TeamPlan {
                territory: b.name(t).to_owned(),
                missions,
                disruption,
            });
        }
    }
    plans
}

/// `yaml` with `entry` added to the battle plan for `territory`.
fn with_plan(yaml: &str, territory: &str, entry: &str) -> String {
    let head = format!("  {territory}: {{");
    let mut out = String::new();
    // Into the plan the message has for the territory, else a plan of its
    // own first under `battles:`.
    let has = yaml.lines().any(|l| l.starts_with(&head));
    let mut done = false;
    for line in yaml.lines() {
        if !done && let Some(rest) = line.strip_prefix(&head) {
            out.push_str(&format!("{head}{entry}, {rest}\n"));
            done = true;
            continue;
        }
        out.push_str(line);
        out.push('\n');
        if !done && !has && line == "battles:" {
            out.push_str(&format!("{head}{entry}}}\n"));
            done = true;
        }
    }
    if !done {
        out.push_str(&format!("battles:\n{head}{entry}}}\n"));
    }
    out
}

/// The teams left outside Germany's home territories (where the glider
/// waits for them) walk into an enemy territory beside them where no battle
/// is fought, an AA gun's first: there the enemy's detection sweep looks
/// for them and they carry out Aversion in the enemy's turn.
fn infiltrate(b: &Board, battles: &[SpaceId], script: &mut Script) {
    let germany = b.state.current_power(b.game);
    let planes: Vec<SpaceId> = b
        .fresh(germany, "air transport")
        .iter()
        .map(|u| u.at)
        .collect();
    let mut from: Vec<SpaceId> = b
        .fresh(germany, "special force team")
        .iter()
        .map(|u| u.at)
        .filter(|s| !planes.contains(s) && b.friendly_land(germany, *s))
        .collect();
    from.sort();
    from.dedup();
    for s in from {
        let mut to: Vec<SpaceId> = b
            .game
            .neighbours(s)
            .iter()
            .copied()
            .filter(|&t| {
                b.enemy_land(germany, t)
                    && b.enemy_land_units(germany, t)
                    && !b.capital(t)
                    && !battles.contains(&t)
            })
            .collect();
        to.sort_by_key(|&t| (!b.enemy_aa_gun(germany, t), t));
        let Some(&t) = to.first() else {
            continue;
        };
        while script.teams_at(b, s) > 0 {
            let order = format!("1 special force team: {} -> {}", b.name(s), b.name(t));
            if !b.legal("combat", &order) {
                break;
            }
            script.moves.push(order);
            script.take_team(s);
        }
    }
}

/// Germany's standing orders, a message of their own after its stage 2
/// (in force through the Allies' turns): its defending teams want Evasive
/// (`slip_out` or `sacrifice`, `mode`), else Booby Trap; its teams in enemy
/// land carry out Aversion against the most numerous land unit type of the
/// territory's owner there, before its combat move or after it, by turns.
/// The engine must take them.
pub fn germany_standing(game: &GameDef, state: &GameState, mode: &str) -> String {
    let b = Board { game, state };
    let germany = game.power("Germany").unwrap();
    let mut out = format!(
        "power: Germany\nstanding:\n  special_force_teams: {{missions: [evasive, booby_trap], \
         evasive: {mode}}}\n"
    );
    let mut aversion = String::new();
    for (i, t) in b
        .spaces()
        .filter(|&t| b.enemy_land(germany, t) && b.teams_in(germany, t) > 0)
        .enumerate()
    {
        let owner = b.state.owner[t.0];
        let mut counts: Vec<(usize, usize)> = Vec::new();
        for u in b.state.units_at(t).filter(|u| Some(u.owner) == owner) {
            let ut = &b.game.unit_types()[u.unit];
            if ut.kind == Some(UnitKind::Land) && ut.defense.unwrap_or(0) > 0 {
                match counts.iter_mut().find(|c| c.1 == u.unit) {
                    Some(c) => c.0 += 1,
                    None => counts.push((1, u.unit)),
                }
            }
        }
        let Some(&(_, unit)) = counts.iter().max_by_key(|c| (c.0, std::cmp::Reverse(c.1))) else {
            continue;
        };
        let name = &b.game.unit_types()[unit].name;
        let when = if (i as u32 + b.state.round).is_multiple_of(2) {
            "before"
        } else {
            "after"
        };
        aversion.push_str(&format!(
            "    {}: {{unit: {name}, when: {when}}}\n",
            b.name(t)
        ));
    }
    if !aversion.is_empty() {
        out.push_str("  aversion:\n");
        out.push_str(&aversion);
    }
    let ok = parse_message(game, &out)
        .is_ok_and(|m| check_orders(game, state, germany, &m.orders).is_ok());
    assert!(ok, "Germany's standing orders were refused:\n{out}");
    out
}

/// Whether the power to move may buy `list` (`1 special force team`).
pub fn can_buy(game: &GameDef, state: &GameState, list: &str) -> bool {
    Board { game, state }.legal_purchase(list)
}

/// The board's lookups the script needs.
struct Board<'a> {
    game: &'a GameDef,
    state: &'a GameState,
}

impl<'a> Board<'a> {
    fn ty(&self, name: &str) -> usize {
        self.game
            .unit_types()
            .iter()
            .position(|t| t.name == name)
            .unwrap_or_else(|| panic!("no unit type {name}"))
    }

    fn name(&self, s: SpaceId) -> &'a str {
        self.game.space_name(s)
    }

    fn spaces(&self) -> impl Iterator<Item = SpaceId> + '_ {
        (0..self.state.owner.len()).map(SpaceId)
    }

    fn enemies(&self, a: usize, b: usize) -> bool {
        self.game.side_of(a) != self.game.side_of(b)
    }

    fn kind(&self, u: &Unit) -> Option<UnitKind> {
        self.game.unit_types()[u.unit].kind
    }

    fn capital(&self, s: SpaceId) -> bool {
        let name = self.name(s);
        self.game
            .powers()
            .iter()
            .any(|p| p.capital.as_deref() == Some(name))
    }

    fn passable(&self, s: SpaceId) -> bool {
        self.game.territory(s).is_none_or(|t| !t.impassable)
    }

    /// Land held by an enemy of `power`.
    fn enemy_land(&self, power: usize, s: SpaceId) -> bool {
        !self.game.is_sea(s)
            && self.passable(s)
            && self.state.owner[s.0].is_some_and(|o| self.enemies(power, o))
    }

    fn friendly_land(&self, power: usize, s: SpaceId) -> bool {
        !self.game.is_sea(s)
            && self.passable(s)
            && self.state.owner[s.0].is_some_and(|o| !self.enemies(power, o))
    }

    /// `power`'s units of `type_name` that have not moved this turn and
    /// ride nothing.
    fn fresh(&self, power: usize, type_name: &str) -> Vec<&'a Unit> {
        let t = self.ty(type_name);
        self.state
            .units
            .iter()
            .filter(|u| u.owner == power && u.unit == t)
            .filter(|u| u.moved == 0 && !u.combat_moved && u.cargo_of.is_none())
            .collect()
    }

    fn count(&self, power: usize, type_name: &str) -> usize {
        let t = self.ty(type_name);
        self.state
            .units
            .iter()
            .filter(|u| u.owner == power && u.unit == t)
            .count()
    }

    fn enemy_land_units(&self, power: usize, s: SpaceId) -> bool {
        self.state
            .units_at(s)
            .any(|u| self.enemies(power, u.owner) && self.kind(u) == Some(UnitKind::Land))
    }

    /// Whether a special force team of `power` stands in `s` or, fresh,
    /// beside it.
    fn teams_near(&self, power: usize, s: SpaceId) -> bool {
        let team = self.ty("special force team");
        self.state.units.iter().any(|u| {
            u.owner == power
                && u.unit == team
                && u.cargo_of.is_none()
                && (u.at == s || (u.moved == 0 && self.game.adjacent(u.at, s)))
        })
    }

    /// German special force teams standing in `s`.
    fn teams_in(&self, power: usize, s: SpaceId) -> usize {
        let team = self.ty("special force team");
        self.state
            .units_at(s)
            .filter(|u| u.owner == power && u.unit == team && u.cargo_of.is_none())
            .count()
    }

    fn enemy_aa_gun(&self, power: usize, s: SpaceId) -> bool {
        let aa = self.ty("AA gun");
        self.state
            .units_at(s)
            .any(|u| self.enemies(power, u.owner) && u.unit == aa)
    }

    /// Shortest paths from `from` through the spaces `through` allows.
    fn bfs(&self, from: SpaceId, through: impl Fn(SpaceId) -> bool) -> Vec<Option<SpaceId>> {
        let mut prev = vec![None; self.state.owner.len()];
        prev[from.0] = Some(from);
        let mut queue = VecDeque::from([from]);
        while let Some(s) = queue.pop_front() {
            for &n in self.game.neighbours(s) {
                if prev[n.0].is_none() && through(n) {
                    prev[n.0] = Some(s);
                    queue.push_back(n);
                }
            }
        }
        prev
    }

    fn path(&self, prev: &[Option<SpaceId>], from: SpaceId, to: SpaceId) -> Option<Vec<SpaceId>> {
        prev[to.0]?;
        let mut path = vec![to];
        let mut s = to;
        while s != from {
            s = prev[s.0]?;
            path.push(s);
        }
        path.reverse();
        Some(path)
    }

    fn written(&self, path: &[SpaceId]) -> String {
        path.iter()
            .map(|&s| self.name(s))
            .collect::<Vec<_>>()
            .join(" -> ")
    }

    /// Whether `order` alone is a legal stage-1 move of the power to move.
    fn legal(&self, section: &str, order: &str) -> bool {
        let power = self.state.current_power(self.game);
        let yaml = format!(
            "power: {}\nround: {}\n{section}:\n  - {order}\n",
            self.game.powers()[power].name,
            self.state.round
        );
        self.legal_message(&yaml)
    }

    /// Whether the engine accepts `yaml` from the power to move.
    fn legal_message(&self, yaml: &str) -> bool {
        let power = self.state.current_power(self.game);
        parse_message(self.game, yaml)
            .is_ok_and(|m| check_orders(self.game, self.state, power, &m.orders).is_ok())
    }

    fn legal_purchase(&self, list: &str) -> bool {
        let power = self.state.current_power(self.game);
        let yaml = format!(
            "power: {}\nround: {}\npurchase: {list}\n",
            self.game.powers()[power].name,
            self.state.round
        );
        self.legal_message(&yaml)
    }
}

/// Scripted orders of one stage: moves put first in the stage's section,
/// and units bought before the bot's own purchase.
#[derive(Default)]
struct Script {
    moves: Vec<String>,
    buy: Vec<(String, u32)>,
    /// Territories whose industrial complex one team strikes (JB-31).
    strikes: Vec<SpaceId>,
    /// Germany's special force teams given an order, by where they stand.
    teams_taken: Vec<SpaceId>,
}

impl Script {
    /// Germany's special force teams at `s` free to move (fresh and not
    /// yet given an order).
    fn teams_at(&self, b: &Board, s: SpaceId) -> usize {
        let germany = b.state.current_power(b.game);
        let fresh = b
            .fresh(germany, "special force team")
            .iter()
            .filter(|u| u.at == s)
            .count();
        fresh.saturating_sub(self.teams_taken.iter().filter(|&&t| t == s).count())
    }

    fn take_team(&mut self, s: SpaceId) {
        self.teams_taken.push(s);
    }
}

/// Germany's stage 1: the new units bought, mechanized infantry and heavy
/// armor attacking, paratroopers dropped.
fn germany_stage_one(b: &Board) -> Script {
    let germany = b.state.current_power(b.game);
    let mut script = Script::default();
    let mut budget = b.state.ipcs[germany];
    let mut buy = |script: &mut Script, name: &str, n: usize| {
        let cost = b.game.unit_type(name).and_then(|t| t.cost).unwrap();
        let n = (n as u32).min(budget / cost);
        if n > 0 {
            budget -= n * cost;
            script.buy.push((name.to_owned(), n));
        }
        n as usize
    };
    for name in ["mechanized infantry", "heavy armor"] {
        if b.count(germany, name) == 0 {
            buy(&mut script, name, 1);
        }
    }
    // Two special force teams before the planes, so that they come early.
    let teams = b.count(germany, "special force team");
    let teams = teams
        + buy(
            &mut script,
            "special force team",
            2usize.saturating_sub(teams),
        );
    // Four air transports (one may sit on Sicily, one is a glider for
    // special force teams), a paratrooper for each of the others.
    let planes = b.count(germany, "air transport");
    let planes = planes + buy(&mut script, "air transport", 4usize.saturating_sub(planes));
    // A paratrooper for each plane but the glider; the bot leaves them
    // where they are placed, so they wait for the planes' return.
    buy(&mut script, "paratrooper", planes.saturating_sub(1));
    // Six special force teams: two or three wait at home for the glider
    // (placed there, they fly the next turn), the others walk in with the
    // attackers and the paradrops, and one makes for an enemy industrial
    // complex to strike it (JB-31).
    buy(
        &mut script,
        "special force team",
        6usize.saturating_sub(teams),
    );
    // A submarine a turn keeps a German fleet at sea for the Allied
    // battleships to fight.
    buy(&mut script, "submarine", 1);

    let mut attacked: Vec<(SpaceId, SpaceId)> = Vec::new();
    for name in ["mechanized infantry", "heavy armor"] {
        for u in b.fresh(germany, name) {
            let target = b
                .game
                .neighbours(u.at)
                .iter()
                .copied()
                .find(|&t| b.enemy_land(germany, t) && b.enemy_land_units(germany, t));
            if let Some(t) = target {
                let order = format!("1 {name}: {} -> {}", b.name(u.at), b.name(t));
                if b.legal("combat", &order) && !script.moves.contains(&order) {
                    script.moves.push(order);
                    attacked.push((u.at, t));
                }
            }
        }
    }
    // The glider first: the bot's repair keeps the first of the orders that
    // compete for the same teams.
    let gliders = if glider_round(b.state.round) {
        glider_flight(b, &mut script)
    } else {
        Vec::new()
    };
    let mut dropped_on: Vec<SpaceId> = Vec::new();
    // A team walks toward the nearest enemy industrial complex not under
    // attack, one land space a turn, and once beside one walks in and
    // strikes it at once (a team that walked in acts, JB-25); one standing
    // there strikes where it is. The team nearest such a territory goes,
    // so that one team keeps going turn after turn.
    let fresh_teams = b.fresh(germany, "special force team");
    let nearest = fresh_teams
        .iter()
        .filter(|u| script.teams_at(b, u.at) > 0)
        .filter_map(|u| {
            strike_path(b, u, &attacked).map(|p| (p.len(), std::cmp::Reverse(u.id), *u, p))
        })
        .min_by_key(|x| (x.0, x.1));
    if fresh_teams.len() >= 2
        && let Some((_, _, u, path)) = nearest
        && strike_team(b, u, &path, &mut script)
    {
        script.take_team(u.at);
    }

    // Each territory where planes and paratroopers wait together drops
    // them on the enemy territory in reach (there and back: 3 spaces),
    // one with an AA gun first.
    let mut starts: Vec<SpaceId> = b
        .fresh(germany, "air transport")
        .iter()
        .map(|u| u.at)
        .collect();
    starts.dedup();
    starts.sort();
    starts.dedup();
    for s in starts {
        let planes = b
            .fresh(germany, "air transport")
            .iter()
            .filter(|u| u.at == s)
            .count()
            - gliders.iter().filter(|&&g| g == s).count();
        let troops = b
            .fresh(germany, "paratrooper")
            .iter()
            .filter(|u| u.at == s)
            .count();
        let k = planes.min(troops);
        if k == 0 {
            continue;
        }
        let prev = b.bfs(s, |n| b.passable(n));
        let mut targets: Vec<(bool, bool, usize, SpaceId, Vec<SpaceId>)> = b
            .spaces()
            .filter(|&t| b.enemy_land(germany, t) && b.enemy_land_units(germany, t))
            // Capitals spared, as the bot spares them: drops that took
            // London would end the British landings.
            .filter(|&t| !b.capital(t))
            .filter_map(|t| b.path(&prev, s, t).map(|p| (t, p)))
            .filter(|(_, p)| p.len() <= 4)
            .map(|(t, p)| {
                let aa = b.enemy_aa_gun(germany, t);
                (!(aa && b.teams_near(germany, t)), !aa, p.len(), t, p)
            })
            .collect();
        targets.sort();
        for (_, _, _, t, path) in targets {
            let order = format!(
                "{k} air transport, {k} paratrooper: {}, land {}",
                b.written(&path),
                b.name(s)
            );
            if b.legal("combat", &order) {
                script.moves.push(order);
                dropped_on.push(t);
                break;
            }
        }
    }
    // The teams left walk into the battles beside them (JB-21): the
    // paradrops first, then the attacks; each faces detection and, unseen,
    // rolls for the missions its battle plan wants.
    let battles: Vec<SpaceId> = dropped_on
        .iter()
        .copied()
        .chain(attacked.iter().map(|&(_, t)| t))
        .collect();
    walk_into(b, &battles, &mut script);
    script
}

/// Walks the special force teams `script` has left into the battles
/// `battles` beside them, at most two into each.
fn walk_into(b: &Board, battles: &[SpaceId], script: &mut Script) {
    for &t in battles {
        let mut sent = 0;
        for &s in b.game.neighbours(t) {
            while sent < 2 && script.teams_at(b, s) > 0 {
                let order = format!("1 special force team: {} -> {}", b.name(s), b.name(t));
                if !b.legal("combat", &order) {
                    break;
                }
                script.moves.push(order);
                script.take_team(s);
                sent += 1;
            }
        }
    }
}

/// The way of team `u` to the nearest enemy territory with an industrial
/// complex and no battle this turn, over land, from where it stands.
fn strike_path(b: &Board, u: &Unit, attacked: &[(SpaceId, SpaceId)]) -> Option<Vec<SpaceId>> {
    let germany = u.owner;
    let complex = b.ty("industrial complex");
    let target = |t: SpaceId| {
        b.enemy_land(germany, t)
            && !attacked.iter().any(|&(_, a)| a == t)
            && b.state.units_at(t).any(|c| c.unit == complex)
    };
    let prev = b.bfs(u.at, |n| !b.game.is_sea(n) && b.passable(n));
    b.spaces()
        .filter(|&t| target(t))
        .filter_map(|t| b.path(&prev, u.at, t))
        .min_by_key(Vec::len)
}

/// The striking team `u` on its way `path`: where it stands, an
/// Industrial Strike there; beside it, into the territory and an
/// Industrial Strike at once (a team that walked in acts, JB-25); else one
/// land space on. Whether it was given an order.
fn strike_team(b: &Board, u: &Unit, path: &[SpaceId], script: &mut Script) -> bool {
    let Some(&next) = path.get(1) else {
        script.strikes.push(u.at);
        return true;
    };
    let order = format!("1 special force team: {} -> {}", b.name(u.at), b.name(next));
    if b.legal("combat", &order) && !script.moves.contains(&order) {
        script.moves.push(order);
        if path.len() == 2 {
            script.strikes.push(next);
        }
        return true;
    }
    false
}

/// Whether the glider flies in round `round`: in the first four, then
/// every third, so that most teams go to the front between its flights.
fn glider_round(round: u32) -> bool {
    round <= 4 || round.is_multiple_of(3)
}

/// One air transport and the special force teams waiting with it (two or
/// three) fly over an enemy territory into another in reach, dropping one
/// team into each (JB-12) and carrying a third on to the landing, home
/// again in the non-combat move. Returns the start of the flight, if any.
fn glider_flight(b: &Board, script: &mut Script) -> Vec<SpaceId> {
    let germany = b.state.current_power(b.game);
    let teams = b.fresh(germany, "special force team");
    for p in b.fresh(germany, "air transport") {
        let s = p.at;
        let n = teams.iter().filter(|u| u.at == s).count().min(3);
        if n < 2 {
            continue;
        }
        let prev = b.bfs(s, |x| b.passable(x));
        let mut flights: Vec<(usize, SpaceId, SpaceId, Vec<SpaceId>)> = b
            .spaces()
            .filter(|&t| b.enemy_land(germany, t) && !b.capital(t))
            .filter_map(|t| b.path(&prev, s, t))
            .filter(|p| p.len() <= 4)
            .filter_map(|p| {
                let over = p[1..p.len() - 1]
                    .iter()
                    .copied()
                    .find(|&m| b.enemy_land(germany, m))?;
                Some((p.len(), over, *p.last().unwrap(), p))
            })
            .collect();
        // Over or into an AA gun's territory first, all teams but one
        // dropped there: if the sweep spares them, they are there for the
        // next turn's paradrop (AA Suppression).
        let aa = |f: &(usize, SpaceId, SpaceId, Vec<SpaceId>)| {
            b.enemy_aa_gun(germany, f.1) || b.enemy_aa_gun(germany, f.2)
        };
        flights.sort_by_key(|f| (!aa(f), f.0, f.1, f.2));
        for (_, over, to, path) in flights {
            let (first, last) = if b.enemy_aa_gun(germany, over) {
                (n - 1, 1)
            } else if b.enemy_aa_gun(germany, to) {
                (1, n - 1)
            } else {
                (1, 1)
            };
            for (first, last) in [(first, last), (1, 1)] {
                let order = format!(
                    "1 air transport, {n} special force team: {}, land {}\n    drop: [{first} \
                     special force team to {}, {last} special force team to {}]",
                    b.written(&path),
                    b.name(s),
                    b.name(over),
                    b.name(to)
                );
                if b.legal("combat", &order) {
                    script.moves.push(order);
                    for _ in 0..n {
                        script.take_team(s);
                    }
                    return vec![s];
                }
            }
        }
    }
    Vec::new()
}

/// Germany's stage 2: an air transport carries an infantry to Sicily
/// while no German unit stands there. (The bot flies the planes home from
/// their drops, to the nearest friendly territory.)
fn germany_stage_two(b: &Board) -> Script {
    let germany = b.state.current_power(b.game);
    let mut script = Script::default();
    let home = b.game.space("Germany").unwrap();
    let plane = b.ty("air transport");
    let mut lifted = None;
    let sicily = b.game.space("Sicily").unwrap();
    let held = b.state.owner[sicily.0] == Some(germany)
        && !b.state.units_at(sicily).any(|u| u.owner == germany);
    if held {
        let infantry: Vec<SpaceId> = b.fresh(germany, "infantry").iter().map(|u| u.at).collect();
        for p in b.fresh(germany, "air transport") {
            if !infantry.contains(&p.at) {
                continue;
            }
            let prev = b.bfs(p.at, |n| b.passable(n));
            if let Some(path) = b.path(&prev, p.at, sicily) {
                // Checked with the bot's orders: alone, a stage 2 lacks the
                // landings and placements the engine asks for.
                script
                    .moves
                    .push(format!("1 air transport, 1 infantry: {}", b.written(&path)));
                lifted = Some(p.id);
                break;
            }
        }
    }
    // Every other plane flies home to Germany, where the paratroopers are
    // placed: from its drop, with the movement it has left (JB-15), or from
    // wherever the bot landed it.
    if b.state.owner[home.0] == Some(germany) {
        let prev = b.bfs(home, |n| b.passable(n));
        for p in b
            .state
            .units
            .iter()
            .filter(|u| u.owner == germany && u.unit == plane)
        {
            if p.at == home || Some(p.id) == lifted || p.cargo_of.is_some() {
                continue;
            }
            let Some(mut path) = b.path(&prev, home, p.at) else {
                continue;
            };
            path.reverse();
            if path.len() - 1 + usize::from(p.moved) <= 7 {
                script
                    .moves
                    .push(format!("1 air transport: {}", b.written(&path)));
            }
        }
    }
    to_the_front(b, &mut script);
    script
}

/// Germany's stage 2: its teams in its own land, but for three at home for
/// the glider when it flies next, walk to the neighbouring German territory with the most
/// enemy land units beside it, where the Allies are likely to attack them:
/// they defend by Germany's standing orders (Evasive, Booby Trap).
fn to_the_front(b: &Board, script: &mut Script) {
    let germany = b.state.current_power(b.game);
    let home = b.game.space("Germany").unwrap();
    let threat = |t: SpaceId| -> usize {
        b.game
            .neighbours(t)
            .iter()
            .map(|&n| {
                b.state
                    .units_at(n)
                    .filter(|u| b.enemies(germany, u.owner) && b.kind(u) == Some(UnitKind::Land))
                    .count()
            })
            .sum()
    };
    let mut from: Vec<SpaceId> = b
        .fresh(germany, "special force team")
        .iter()
        .map(|u| u.at)
        .filter(|&s| b.friendly_land(germany, s))
        .collect();
    from.sort();
    from.dedup();
    for s in from {
        let keep = if s == home && glider_round(b.state.round + 1) {
            3
        } else {
            0
        };
        if threat(s) > 0 && s != home {
            continue;
        }
        let Some(t) = b
            .game
            .neighbours(s)
            .iter()
            .copied()
            .filter(|&t| b.friendly_land(germany, t) && t != home && threat(t) > 0)
            .max_by_key(|&t| (threat(t), std::cmp::Reverse(t)))
        else {
            continue;
        };
        while script.teams_at(b, s) > keep {
            script.moves.push(format!(
                "1 special force team: {} -> {}",
                b.name(s),
                b.name(t)
            ));
            script.take_team(s);
        }
    }
}

/// The United Kingdom's stage 1: a landing in France from the English
/// Channel, the battleship moving into the Channel with it.
fn britain_stage_one(b: &Board) -> Script {
    let uk = b.state.current_power(b.game);
    let mut script = Script::default();
    let channel = b.game.space("English Channel").unwrap();
    let home = b.game.space("United Kingdom").unwrap();
    // France, else Netherlands-Belgium: the Channel's German coast.
    let Some(coast) = ["France", "Netherlands-Belgium"]
        .into_iter()
        .find(|c| b.enemy_land(uk, b.game.space(c).unwrap()))
    else {
        return script;
    };
    // What waits at home: two infantry, else one artillery, else one
    // armor (a transport's 4 points).
    let waiting = |name: &str| b.fresh(uk, name).iter().filter(|u| u.at == home).count();
    let cargo = match (waiting("infantry"), waiting("artillery"), waiting("armor")) {
        (0, 0, 0) => return script,
        (0, 0, _) => "1 armor".to_owned(),
        (0, _, _) => "1 artillery".to_owned(),
        (n, _, _) => format!("{} infantry", n.min(2)),
    };
    let enemy_at = |z: SpaceId| b.state.units_at(z).any(|u| b.enemies(uk, u.owner));
    for t in b.fresh(uk, "transport") {
        if !b.game.adjacent(t.at, home) {
            continue;
        }
        // Loaded where it is, then to the Channel (two zones at most).
        let prev = b.bfs(t.at, |z| b.game.is_sea(z) && (z == channel || !enemy_at(z)));
        let Some(path) = b.path(&prev, t.at, channel).filter(|p| p.len() <= 3) else {
            continue;
        };
        let order = format!(
            "transport: {}\n    load: {cargo} from United Kingdom\n    unload: {coast}",
            b.written(&path)
        );
        if b.legal("combat", &order) {
            script.moves.push(order);
            break;
        }
    }
    if script.moves.is_empty() {
        return script;
    }
    for ship in b.fresh(uk, "battleship") {
        if ship.at != channel && b.game.adjacent(ship.at, channel) {
            let order = format!("1 battleship: {} -> {}", b.name(ship.at), b.name(channel));
            if b.legal("combat", &order) {
                script.moves.push(order);
            }
        }
    }
    script
}

/// Every power's stage 1: a battleship not yet moved attacks the enemy
/// ships in its reach, so that a hit on it (taken first, before anything
/// is lost) sets off its damage roll (JB-41).
fn battleships_attack(b: &Board, script: &mut Script) {
    let power = b.state.current_power(b.game);
    let enemy_at = |z: SpaceId| b.state.units_at(z).any(|u| b.enemies(power, u.owner));
    for ship in b.fresh(power, "battleship") {
        let named = format!("battleship: {}", b.name(ship.at));
        // A damaged one stays out: one under repair may not move in the
        // combat move, and `check_orders` does not know yet whether the
        // purchase leaves the money that starts its repair
        // (`apply_orders` does).
        if script.moves.iter().any(|m| m.contains(&named))
            || b.state.ship_damage_of(ship.id).is_some()
        {
            continue;
        }
        // Through empty or friendly zones to a zone with enemy ships.
        let prev = b.bfs(ship.at, |n| b.game.is_sea(n));
        let reach = usize::from(b.game.unit_types()[ship.unit].movement.unwrap_or(0));
        let mut targets: Vec<(usize, Vec<SpaceId>)> = b
            .spaces()
            .filter(|&z| b.game.is_sea(z) && z != ship.at && enemy_at(z))
            .filter_map(|z| b.path(&prev, ship.at, z))
            .filter(|p| p.len() <= reach + 1 && p[1..p.len() - 1].iter().all(|&z| !enemy_at(z)))
            .map(|p| (p.len(), p))
            .collect();
        targets.sort();
        for (_, path) in targets {
            let order = format!("1 battleship: {}", b.written(&path));
            if b.legal("combat", &order) {
                script.moves.push(order);
                break;
            }
        }
    }
}

/// Every power's stage 2: a battleship not yet moved sails toward the
/// nearest enemy ships, stopping short of them, so that it finds a battle
/// in its next turn.
fn battleships_close_in(b: &Board, script: &mut Script) {
    let power = b.state.current_power(b.game);
    let enemy_at = |z: SpaceId| b.state.units_at(z).any(|u| b.enemies(power, u.owner));
    for ship in b.fresh(power, "battleship") {
        let named = format!("battleship: {}", b.name(ship.at));
        if script.moves.iter().any(|m| m.contains(&named))
            || b.game.neighbours(ship.at).iter().any(|&z| enemy_at(z))
        {
            continue;
        }
        let prev = b.bfs(ship.at, |n| b.game.is_sea(n));
        let reach = usize::from(b.game.unit_types()[ship.unit].movement.unwrap_or(0));
        let nearest = b
            .spaces()
            .filter(|&z| b.game.is_sea(z) && enemy_at(z))
            .filter_map(|z| b.path(&prev, ship.at, z))
            .min_by_key(Vec::len);
        let Some(mut path) = nearest else {
            continue;
        };
        path.pop();
        path.truncate(reach + 1);
        if path.len() > 1 && path.iter().all(|&z| !enemy_at(z)) {
            script
                .moves
                .push(format!("1 battleship: {}", b.written(&path)));
        }
    }
}

/// An Ally's stage 1: one land unit beside each German territory where
/// German special force teams stand with German land units attacks it, a
/// probe that brings few detection dice, so that the teams, seldom found,
/// roll for their defending missions (Evasive, Booby Trap).
fn probes(b: &Board, script: &mut Script) {
    let power = b.state.current_power(b.game);
    let germany = b.game.power("Germany").unwrap();
    let fighting = |u: &Unit| {
        u.owner == germany
            && b.kind(u) == Some(UnitKind::Land)
            && b.game.unit_types()[u.unit].defense.unwrap_or(0) > 0
    };
    for t in b.spaces() {
        if b.state.owner[t.0] != Some(germany)
            || b.capital(t)
            || b.teams_in(germany, t) == 0
            || !b.state.units_at(t).any(fighting)
        {
            continue;
        }
        'found: for name in ["infantry", "artillery", "mechanized infantry", "armor"] {
            for u in b.fresh(power, name) {
                if !b.game.adjacent(u.at, t) || b.game.is_sea(u.at) {
                    continue;
                }
                let order = format!("1 {name}: {} -> {}", b.name(u.at), b.name(t));
                if b.legal("combat", &order) {
                    script.moves.push(order);
                    break 'found;
                }
            }
        }
    }
}

/// The United States' stage 1: a battleship whenever it has none, and the
/// United Kingdom's: a transport whenever none is beside its island, so
/// that the battleships' battles and the Normandy landings go on.
fn allied_purchases(b: &Board, script: &mut Script) {
    let power = b.state.current_power(b.game);
    let name = b.game.powers()[power].name.as_str();
    let home = b.game.space(name);
    let (want, have) = match name {
        "United States" => ("battleship", b.count(power, "battleship")),
        "United Kingdom" => {
            let home = home.unwrap();
            let t = b.ty("transport");
            let near = b
                .state
                .units
                .iter()
                .filter(|u| u.owner == power && u.unit == t && b.game.adjacent(u.at, home))
                .count();
            ("transport", near)
        }
        _ => return,
    };
    let cost = b.game.unit_type(want).and_then(|t| t.cost).unwrap();
    if have == 0 && b.state.ipcs[power] >= cost {
        script.buy.push((want.to_owned(), 1));
    }
}

/// An Allied power's stage 2: its warships blockade every sea zone beside
/// an island where German units stand, so that they are out of supply at
/// the start of Germany's turn (JB-39).
fn allied_stage_two(b: &Board) -> Script {
    let power = b.state.current_power(b.game);
    let mut script = Script::default();
    let germany = b.game.power("Germany").unwrap();
    if !b.enemies(power, germany) {
        return script;
    }
    let warship = |u: &Unit| {
        b.kind(u) == Some(UnitKind::Sea) && b.game.unit_types()[u.unit].name != "transport"
    };
    let blockaded = |z: SpaceId| {
        b.state
            .units_at(z)
            .any(|u| b.enemies(germany, u.owner) && warship(u))
    };
    let islands: Vec<SpaceId> = b
        .spaces()
        .filter(|&s| !b.game.is_sea(s) && b.passable(s))
        .filter(|&s| {
            b.game
                .neighbours(s)
                .iter()
                .all(|&n| b.game.is_sea(n) || !b.passable(n))
        })
        .filter(|&s| b.state.units_at(s).any(|u| u.owner == germany))
        .collect();
    let mut sent = Vec::new();
    for island in islands {
        for &z in b.game.neighbours(island) {
            if !b.game.is_sea(z) || blockaded(z) {
                continue;
            }
            let open = |n: SpaceId| {
                b.game.is_sea(n) && !b.state.units_at(n).any(|u| b.enemies(power, u.owner))
            };
            for ship in b
                .state
                .units
                .iter()
                .filter(|u| u.owner == power && warship(u))
            {
                if ship.moved > 0 || ship.combat_moved || sent.contains(&ship.id) {
                    continue;
                }
                let prev = b.bfs(ship.at, open);
                let Some(path) = b.path(&prev, ship.at, z) else {
                    continue;
                };
                let reach = usize::from(b.game.unit_types()[ship.unit].movement.unwrap_or(0));
                if path.len() > reach + 1 {
                    continue;
                }
                script.moves.push(format!(
                    "1 {}: {}",
                    b.game.unit_types()[ship.unit].name,
                    b.written(&path)
                ));
                sent.push(ship.id);
                break;
            }
        }
    }
    script
}

/// The bot's message with the script's purchase first and the bot's own
/// after it while the money lasts.
fn with_purchase(game: &GameDef, state: &GameState, yaml: &str, buy: &[(String, u32)]) -> String {
    let mut budget = state.ipcs[state.current_power(game)];
    let cost = |name: &str| game.unit_type(name).and_then(|t| t.cost).unwrap();
    let mut list: Vec<(String, u32)> = Vec::new();
    let mut add = |name: &str, n: u32| match list.iter_mut().find(|(t, _)| t == name) {
        Some((_, m)) => *m += n,
        None => list.push((name.to_owned(), n)),
    };
    for (name, n) in buy {
        budget -= cost(name) * n;
        add(name, *n);
    }
    let bot = yaml
        .lines()
        .find_map(|l| l.strip_prefix("purchase: "))
        .unwrap_or_default();
    for item in bot.split(", ").filter(|i| !i.is_empty()) {
        let (n, name) = item.split_once(' ').unwrap();
        let n = n.parse::<u32>().unwrap().min(budget / cost(name));
        if n > 0 {
            budget -= n * cost(name);
            add(name, n);
        }
    }
    let list: Vec<String> = list.iter().map(|(t, n)| format!("{n} {t}")).collect();
    let mut out = String::new();
    for line in yaml.lines().filter(|l| !l.starts_with("purchase: ")) {
        out.push_str(line);
        out.push('\n');
        if line.starts_with("round: ") {
            out.push_str(&format!("purchase: {}\n", list.join(", ")));
        }
    }
    out
}
