//! A deterministic AAE "bot" for tests and benchmarks: given the game and
//! the current position, it writes the orders message (YAML, exactly what a
//! player would mail) of the power to move.
//!
//! Stage 1 (the state at `Purchase`): a purchase of land units (and a
//! fighter or a transport now and then) that the power's industrial
//! complexes can place; combat moves against adjacent enemy territories and
//! fleets where it has a local advantage (land units from the neighbouring
//! territories, amphibious assaults from its transports, warships, and
//! aircraft with a stated landing in a friendly territory); battle plans
//! with retreat policies and orders of loss now and then. Stage 2 (at
//! `NoncombatMove`): aircraft land in the nearest friendly territory, idle
//! land units move one step toward the front, transports ferry units from
//! the rear (islands) to the front, and everything bought is placed at the
//! complexes nearest the front.
//!
//! With the [`BotConfig`] options for the Anniversary Edition's newer rules
//! (off by default: AAE refuses repairs and rockets): stage 1 also buys
//! researcher tokens when rich and rolls the tokens held, repairs damaged
//! complexes with up to half the treasury, sends each bomber on a strategic
//! bombing raid against the most valuable enemy complex in reach (buying a
//! bomber when it has none), and launches rockets once it has them. Long-
//! Range Aircraft counts in every aircraft's range; other developments need
//! nothing from the bot (Paratroopers and Improved Mechanized Infantry are
//! left unused).
//!
//! Robust by construction: the candidate orders are rendered, parsed
//! (`parse_message`) and checked (`check_orders`); every order an error
//! names is dropped and the rest tried again, until the engine accepts the
//! message. No randomness: the same position always gives the same message.

#![allow(dead_code)]

use std::collections::{BTreeMap, HashSet, VecDeque};
use std::fmt::Write as _;

use adjutant::rules::income::income;
use adjutant::rules::model::{Ability, UnitKind, UnitType};
use adjutant::rules::orders::OrderError;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::production::sites;
use adjutant::rules::research::Technology;
use adjutant::rules::state::{GameState, Phase, Unit};
use adjutant::rules::turn::check_orders;
use adjutant::rules::{GameDef, SpaceId};

/// Advanced AAE AAAE-14: the Axis wins when Germany's and Italy's incomes
/// reach this.
const AXIS_INCOME: u32 = 120;

/// Advanced AAE AAAE-16: the Allies win when Germany's income is at most
/// this.
const GERMAN_INCOME_FLOOR: u32 = 25;

/// How the bot plays.
#[derive(Clone, Copy, Debug)]
pub struct BotConfig {
    /// Attack enemy capitals (so that a side can win). Long benchmark games
    /// turn it off, so that they last their 30 rounds.
    pub attack_capitals: bool,
    /// Buy researcher tokens when rich and roll the tokens held (games with
    /// research only).
    pub research: bool,
    /// Bombers make strategic bombing raids on enemy industrial complexes in
    /// reach (and the power buys a bomber when it has none).
    pub bombing_raids: bool,
    /// Repair damage on the power's complexes (games whose raids damage
    /// complexes only).
    pub repair: bool,
    /// Launch rockets with the Rockets development.
    pub rockets: bool,
    /// Advanced AAE (AAAE-08): British MidEast ships oil to Britain, up to
    /// 6 IPCs a turn and never more than a third of its treasury.
    pub oil_convoy: bool,
    /// Advanced AAE (AAAE-40): the USA pays Russia lend-lease for every US
    /// transport in Russia's convoy zone (at most 3).
    pub lend_lease: bool,
    /// Sea zones (names) where the bot starts no battle: a scripted game
    /// keeps a route open (Advanced AAE: Russia's convoy zone, whose
    /// transport the Axis submarines would sink in round 1, closing
    /// lend-lease for good).
    pub spared_zones: &'static [&'static str],
    /// Advanced AAE (AAAE-14, 16): keep the economic victories out of
    /// reach by this many IPCs, so that a long game lasts as the spared
    /// capitals keep the military ones away: the Allies take no German
    /// territory that would leave Germany's income within the margin of
    /// 25, the Axis none that would bring Germany's and Italy's within it
    /// of 120. `None`: they take what they can.
    pub economic_margin: Option<u32>,
}

impl Default for BotConfig {
    /// The newer Anniversary rules off: AAE has no research, repair or
    /// rockets, and the benches keep measuring the same games.
    fn default() -> Self {
        BotConfig {
            attack_capitals: true,
            research: false,
            bombing_raids: false,
            repair: false,
            rockets: false,
            oil_convoy: false,
            lend_lease: false,
            spared_zones: &[],
            economic_margin: None,
        }
    }
}

impl BotConfig {
    /// Every rule the bot knows on: research, raids, repairs and rockets.
    pub fn all_rules() -> Self {
        BotConfig {
            research: true,
            bombing_raids: true,
            repair: true,
            rockets: true,
            ..BotConfig::default()
        }
    }
}

/// One message of the power to move.
#[derive(Clone, Debug)]
pub struct BotOrders {
    /// The power's name.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 (purchase, combat) or 2 (non-combat, placement).
    pub stage: u8,
    /// The message, as mailed (header `power:` and `round:` included).
    pub yaml: String,
    /// Candidate orders dropped because the engine refused them, with why.
    pub dropped: Vec<String>,
    /// Battles the combat moves start (stage 1).
    pub attacks: usize,
    /// Researcher tokens bought (stage 1).
    pub tokens: u32,
    /// True when the message rolls researcher tokens (stage 1).
    pub research_rolled: bool,
    /// Strategic bombing raids declared (stage 1).
    pub raids: usize,
    /// Damage points ordered repaired (stage 1).
    pub repairs: u32,
    /// Rockets launched (stage 1).
    pub rockets: usize,
    /// IPCs shipped by oil convoy (stage 1, Advanced AAE).
    pub oil_convoy: u32,
    /// IPCs paid as lend-lease (stage 1, Advanced AAE).
    pub lend_lease: u32,
}

/// Unit types and counts, merged by type.
type List = Vec<(usize, u32)>;

#[derive(Clone, Debug)]
enum Move {
    Units {
        units: List,
        path: Vec<SpaceId>,
        land: Option<SpaceId>,
    },
    Transport {
        path: Vec<SpaceId>,
        load: Option<(List, SpaceId)>,
        unload: Option<SpaceId>,
    },
    /// A move as written (tests inject orders the bot must repair).
    Written(String),
}

#[derive(Clone, Copy, Debug)]
enum RetreatRule {
    AfterRound(u32),
    Below(u32),
}

#[derive(Clone, Debug)]
struct Plan {
    space: SpaceId,
    retreat: Option<(RetreatRule, SpaceId)>,
    losses: Vec<usize>,
    raid: bool,
}

#[derive(Clone, Debug, Default)]
struct Draft {
    /// Tokens bought and the chart's name.
    research: Option<(u32, String)>,
    /// Advanced AAE: IPCs shipped by oil convoy, and paid as lend-lease.
    oil_convoy: u32,
    lend_lease: u32,
    purchase: List,
    repair: Vec<(SpaceId, u32)>,
    rockets: Vec<(SpaceId, SpaceId)>,
    combat: Vec<Move>,
    battles: Vec<Plan>,
    default_never: bool,
    noncombat: Vec<Move>,
    /// The first `landings` non-combat moves land aircraft: they are never
    /// dropped for an error that names no order (an aircraft left without
    /// a landing is refused in its turn).
    landings: usize,
    place: Vec<(SpaceId, List)>,
}

/// Writes the orders of the power to move, checked against the engine.
/// Panics when even the emptiest message is refused (an engine problem:
/// the panic shows the message and the errors).
pub fn orders(game: &GameDef, state: &GameState, cfg: BotConfig) -> BotOrders {
    orders_with(game, state, cfg, &[])
}

/// [`orders`] with extra moves, as written (`1 armor: Germany -> Moscow`),
/// put first in the combat (stage 1) or non-combat (stage 2) section: a
/// test of the repair loop with orders the engine refuses.
pub fn orders_with(game: &GameDef, state: &GameState, cfg: BotConfig, extra: &[&str]) -> BotOrders {
    let power = state.current_power(game);
    let mut bot = Bot::new(game, state, power, cfg);
    let stage = if state.phase == Phase::Purchase { 1 } else { 2 };
    let mut draft = if stage == 1 {
        bot.stage_one()
    } else {
        bot.stage_two()
    };
    let section = if stage == 1 {
        &mut draft.combat
    } else {
        &mut draft.noncombat
    };
    for (i, e) in extra.iter().enumerate() {
        section.insert(i, Move::Written((*e).to_owned()));
    }
    if stage == 2 {
        // The written moves go before the landings: an error must name
        // them to drop them, as it must the landings.
        draft.landings += extra.len();
    }
    let attacks = bot.attacks;
    let mut dropped = Vec::new();
    for _ in 0..200 {
        let yaml = bot.render(&draft);
        let errors = match parse_message(game, &yaml) {
            Ok(m) => match check_orders(game, state, power, &m.orders) {
                Ok(()) => {
                    return BotOrders {
                        power: game.powers()[power].name.clone(),
                        round: state.round,
                        stage,
                        yaml,
                        dropped,
                        attacks,
                        tokens: draft.research.as_ref().map_or(0, |r| r.0),
                        research_rolled: draft.research.is_some()
                            && draft.research.as_ref().map_or(0, |r| r.0)
                                + state.research_tokens[power]
                                > 0,
                        raids: draft.battles.iter().filter(|p| p.raid).count(),
                        repairs: draft.repair.iter().map(|r| r.1).sum(),
                        rockets: draft.rockets.len(),
                        oil_convoy: draft.oil_convoy,
                        lend_lease: draft.lend_lease,
                    };
                }
                Err(e) => e,
            },
            Err(e) => e,
        };
        dropped.extend(errors.iter().map(ToString::to_string));
        if !drop_offending(&mut draft, &errors) {
            panic!(
                "the bot cannot repair its orders for {} (round {}, stage {stage}):\n{yaml}\nerrors:\n{}\ndropped before:\n{}",
                game.powers()[power].name,
                state.round,
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n"),
                dropped.join("\n")
            );
        }
    }
    panic!("the bot kept dropping orders without converging");
}

/// Drops the orders the errors name; an error that names no order drops the
/// last order of its section. False when nothing could be dropped.
fn drop_offending(draft: &mut Draft, errors: &[OrderError]) -> bool {
    let mut combat = HashSet::new();
    let mut battles = HashSet::new();
    let mut noncombat = HashSet::new();
    let mut repair = HashSet::new();
    let mut rockets = HashSet::new();
    let mut changed = false;
    for e in errors {
        let i = e.origin.index;
        match e.origin.section {
            "research" => {
                changed |= draft.research.take().is_some();
            }
            "oil_convoy" => {
                changed |= std::mem::take(&mut draft.oil_convoy) > 0;
            }
            "lend_lease" => {
                changed |= std::mem::take(&mut draft.lend_lease) > 0;
            }
            "repair" if i > 0 => {
                repair.insert(i - 1);
            }
            "repair" => {
                changed |= !draft.repair.is_empty();
                draft.repair.clear();
            }
            "rockets" if i > 0 => {
                rockets.insert(i - 1);
            }
            "rockets" => {
                changed |= !draft.rockets.is_empty();
                draft.rockets.clear();
            }
            "purchase" => {
                changed |= !draft.purchase.is_empty();
                draft.purchase.clear();
            }
            "combat" if i > 0 => {
                combat.insert(i - 1);
            }
            "battles" if i > 0 => {
                battles.insert(i - 1);
            }
            "noncombat" if i > 0 => {
                noncombat.insert(i - 1);
            }
            "battles" => {
                changed |= !draft.battles.is_empty() || draft.default_never;
                draft.battles.clear();
                draft.default_never = false;
            }
            "combat" if !draft.combat.is_empty() => {
                combat.insert(draft.combat.len() - 1);
            }
            "noncombat" if draft.noncombat.len() > draft.landings => {
                noncombat.insert(draft.noncombat.len() - 1);
            }
            _ if !draft.combat.is_empty() => {
                combat.insert(draft.combat.len() - 1);
            }
            _ if draft.noncombat.len() > draft.landings => {
                noncombat.insert(draft.noncombat.len() - 1);
            }
            _ => {}
        }
    }
    changed |= retain_index(&mut draft.combat, &combat);
    draft.landings -= noncombat.iter().filter(|&&i| i < draft.landings).count();
    changed |= retain_index(&mut draft.noncombat, &noncombat);
    changed |= retain_index(&mut draft.repair, &repair);
    changed |= retain_index(&mut draft.rockets, &rockets);
    let n = draft.battles.len();
    if battles.contains(&n) {
        draft.default_never = false;
        changed = true;
    }
    changed |= retain_index(&mut draft.battles, &battles);
    changed
}

fn retain_index<T>(v: &mut Vec<T>, drop: &HashSet<usize>) -> bool {
    let before = v.len();
    let mut i = 0;
    v.retain(|_| {
        let keep = !drop.contains(&i);
        i += 1;
        keep
    });
    v.len() != before
}

struct Bot<'a> {
    game: &'a GameDef,
    state: &'a GameState,
    power: usize,
    side: usize,
    cfg: BotConfig,
    /// Units committed to an order.
    used: HashSet<u32>,
    /// Distance of each land territory from enemy land, through friendly
    /// land (`None`: cut off, e.g. an island).
    front: Vec<Option<usize>>,
    attacks: usize,
    /// Territories bombers raid this turn: no other attack goes there.
    raided: Vec<SpaceId>,
    /// IPCs a neutral costs to take in the combat move (DAAK-C §2.7a), 0
    /// where neutrals are free or impassable.
    neutral_price: u32,
    /// Aircraft take (and pay for) the neutrals they fly over in the combat
    /// move, and cross none in the non-combat move (Classic), or may not
    /// fly over them at all (Advanced AAE's `neutral_overflight: forbid`):
    /// the bot's flights keep clear of them.
    neutral_overflight: bool,
    /// Cash left after the purchase for taking neutrals (stage 1).
    neutral_cash: u32,
    /// Neutrals this combat move takes (and pays for).
    neutrals_taken: Vec<SpaceId>,
    /// IPCs of territory this combat move means to take
    /// ([`BotConfig::economic_margin`]).
    income_taken: u32,
}

impl<'a> Bot<'a> {
    fn new(game: &'a GameDef, state: &'a GameState, power: usize, cfg: BotConfig) -> Self {
        let mut bot = Bot {
            game,
            state,
            power,
            side: game.side_of(power),
            cfg,
            used: HashSet::new(),
            front: Vec::new(),
            attacks: 0,
            raided: Vec::new(),
            neutral_price: 0,
            neutral_overflight: false,
            neutral_cash: 0,
            neutrals_taken: Vec::new(),
            income_taken: 0,
        };
        let neutrals = game.rule_set().neutral_rules(game);
        bot.neutral_price = neutrals.entry_cost;
        bot.neutral_overflight = neutrals.taken_by_overflight || neutrals.overflight_forbidden;
        bot.front = bot.front_distances();
        bot
    }

    fn ut(&self, u: &Unit) -> &'a UnitType {
        &self.game.unit_types()[u.unit]
    }

    fn ut_id(&self, t: usize) -> &'a UnitType {
        &self.game.unit_types()[t]
    }

    fn kind(&self, t: usize) -> UnitKind {
        self.game.unit_types()[t].kind.unwrap_or(UnitKind::Building)
    }

    fn type_id(&self, name: &str) -> Option<usize> {
        self.game.unit_types().iter().position(|t| t.name == name)
    }

    fn friendly(&self, p: usize) -> bool {
        self.game.side_of(p) == self.side
    }

    fn passable(&self, s: SpaceId) -> bool {
        self.game.territory(s).is_none_or(|t| !t.impassable)
    }

    fn hostile_land(&self, s: SpaceId) -> bool {
        !self.game.is_sea(s)
            && self.passable(s)
            && self.state.owner[s.0].is_none_or(|o| !self.friendly(o))
    }

    fn friendly_land(&self, s: SpaceId) -> bool {
        !self.game.is_sea(s)
            && self.passable(s)
            && self.state.owner[s.0].is_some_and(|o| self.friendly(o))
    }

    fn airfield(&self, s: SpaceId) -> bool {
        self.friendly_land(s) && !self.state.captured_this_turn.contains(&s)
    }

    fn is_capital(&self, s: SpaceId) -> bool {
        let name = self.game.space_name(s);
        self.game
            .powers()
            .iter()
            .any(|p| p.capital.as_deref() == Some(name))
    }

    fn my_capital(&self) -> Option<SpaceId> {
        self.game.powers()[self.power]
            .capital
            .as_deref()
            .and_then(|c| self.game.space(c))
    }

    /// Enemy units that fight in `s`: (defence strength, count).
    fn defence(&self, s: SpaceId) -> (u32, u32) {
        let mut value = 0;
        let mut n = 0;
        for u in self.state.units_at(s) {
            let t = self.ut(u);
            if self.friendly(u.owner)
                || u.submerged
                || u.cargo_of.is_some()
                || t.kind == Some(UnitKind::Building)
                || t.has(&Ability::CapturedWithTerritory)
            {
                continue;
            }
            value += u32::from(t.defense.unwrap_or(0)) * u32::from(t.hit_points.max(1));
            n += 1;
        }
        (value, n)
    }

    fn enemy_ships(&self, s: SpaceId) -> bool {
        self.state.units_at(s).any(|u| {
            !self.friendly(u.owner) && !u.submerged && self.ut(u).kind == Some(UnitKind::Sea)
        })
    }

    fn enemy_convoy(&self, s: SpaceId) -> bool {
        self.game.sea_zone(s).is_some_and(|z| z.convoy.is_some())
            && self.state.owner[s.0].is_some_and(|o| !self.friendly(o))
    }

    /// Strength of an attacking force: attack values plus artillery support.
    fn strength(&self, units: &[(usize, u32)]) -> u32 {
        let mut sum = 0;
        let mut supportable = 0;
        let mut support = 0;
        for &(t, n) in units {
            let ty = &self.game.unit_types()[t];
            sum += u32::from(ty.attack.unwrap_or(0)) * n;
            if ty.has(&Ability::ArtillerySupportable) {
                supportable += n;
            }
            if ty.has(&Ability::ArtillerySupport) {
                support += n;
            }
        }
        sum + supportable.min(support)
    }

    /// My free units in `s` that could move now (not cargo, not moved when
    /// `fresh`), lowest ids first.
    fn free(&self, s: SpaceId, fresh: bool) -> Vec<&'a Unit> {
        let state: &'a GameState = self.state;
        state
            .units_at(s)
            .filter(|u| {
                u.owner == self.power
                    && u.cargo_of.is_none()
                    && !u.submerged
                    && !self.used.contains(&u.id)
                    && u.unloaded_from.is_none()
                    && (!fresh || (u.moved == 0 && !u.combat_moved))
                    && self.ut(u).movement.unwrap_or(0) > 0
                    // A J Boulton paratrooper waits for an air transport:
                    // the bot leaves it to the test that scripts the drops.
                    && !self.ut(u).has(&Ability::Paradrop)
            })
            .collect()
    }

    fn front_distances(&self) -> Vec<Option<usize>> {
        let n = self.game.space_count();
        let mut dist = vec![None; n];
        let mut queue = VecDeque::new();
        for s in (0..n).map(SpaceId) {
            if self.hostile_land(s) && self.state.owner[s.0].is_some() {
                dist[s.0] = Some(0);
                queue.push_back(s);
            }
        }
        while let Some(here) = queue.pop_front() {
            let d = dist[here.0].expect("queued");
            for &next in self.game.neighbours(here) {
                if dist[next.0].is_none() && self.friendly_land(next) {
                    dist[next.0] = Some(d + 1);
                    queue.push_back(next);
                }
            }
        }
        dist
    }

    /// Breadth-first search through spaces `pass` allows: distance and the
    /// previous space of each space reached.
    fn bfs(
        &self,
        from: SpaceId,
        pass: impl Fn(SpaceId) -> bool,
    ) -> (Vec<Option<usize>>, Vec<Option<SpaceId>>) {
        let n = self.game.space_count();
        let mut dist = vec![None; n];
        let mut prev = vec![None; n];
        dist[from.0] = Some(0);
        let mut queue = VecDeque::from([from]);
        while let Some(here) = queue.pop_front() {
            let d = dist[here.0].expect("queued");
            for &next in self.game.neighbours(here) {
                if dist[next.0].is_none() && pass(next) {
                    dist[next.0] = Some(d + 1);
                    prev[next.0] = Some(here);
                    queue.push_back(next);
                }
            }
        }
        (dist, prev)
    }

    fn path_to(prev: &[Option<SpaceId>], from: SpaceId, to: SpaceId) -> Vec<SpaceId> {
        let mut path = vec![to];
        let mut here = to;
        while here != from {
            here = prev[here.0].expect("reached");
            path.push(here);
        }
        path.reverse();
        path
    }

    fn air_bfs(&self, from: SpaceId) -> (Vec<Option<usize>>, Vec<Option<SpaceId>>) {
        // Anniversary's China: its aircraft never leave China. Classic's
        // aircraft would pay for every neutral they fly over.
        self.bfs(from, |s| {
            self.passable(s)
                && self.game.may_enter(self.power, s)
                && !(self.neutral_overflight && self.is_neutral(s))
        })
    }

    /// Land no power controls that may be entered.
    fn is_neutral(&self, s: SpaceId) -> bool {
        !self.game.is_sea(s) && self.passable(s) && self.state.owner[s.0].is_none()
    }

    /// True when the combat move may take `s`: not a neutral with a price,
    /// or one already paid for, or one the cash left after the purchase
    /// still pays for.
    fn can_take(&self, s: SpaceId) -> bool {
        (!self.is_neutral(s)
            || self.neutral_price == 0
            || self.neutrals_taken.contains(&s)
            || self.neutral_cash >= self.neutral_price)
            && self.keeps_economies(s)
    }

    /// Pays for taking `s` when it is a neutral with a price (after
    /// [`Self::can_take`]).
    fn take(&mut self, s: SpaceId) {
        if self.is_neutral(s) && self.neutral_price > 0 && !self.neutrals_taken.contains(&s) {
            self.neutral_cash -= self.neutral_price;
            self.neutrals_taken.push(s);
        }
        if self.counts_for_economies(s) {
            self.income_taken += self.game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
        }
    }

    /// Whether taking `s` moves an income that an economic victory counts
    /// ([`BotConfig::economic_margin`]): for the Allies, Germany's land;
    /// for the Axis, any land.
    fn counts_for_economies(&self, s: SpaceId) -> bool {
        let Some(germany) = self.game.power("Germany") else {
            return false;
        };
        self.cfg.economic_margin.is_some()
            && if self.friendly(germany) {
                true
            } else {
                self.state.owner[s.0] == Some(germany)
            }
    }

    /// True unless taking `s`, with what this combat move already means to
    /// take, brings an economic victory within the margin.
    fn keeps_economies(&self, s: SpaceId) -> bool {
        let (Some(margin), Some(germany), Some(italy)) = (
            self.cfg.economic_margin,
            self.game.power("Germany"),
            self.game.power("Italy"),
        ) else {
            return true;
        };
        if !self.counts_for_economies(s) {
            return true;
        }
        let value = self.game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
        let income = |p| {
            let i = income(self.game, self.state, p);
            (i.land + i.convoys).saturating_sub(i.withheld)
        };
        if self.friendly(germany) {
            income(germany) + income(italy) + self.income_taken + value + margin < AXIS_INCOME
        } else {
            income(germany).saturating_sub(self.income_taken + value) > GERMAN_INCOME_FLOOR + margin
        }
    }

    /// True when the power's capital is within two land moves of the enemy:
    /// it then keeps every unit and gets every new one.
    fn capital_threatened(&self) -> bool {
        self.my_capital()
            .is_some_and(|c| self.front[c.0].is_some_and(|d| d <= 2))
    }

    /// The units a territory keeps back when its units attack.
    fn keep(&self, s: SpaceId, available: usize) -> usize {
        if Some(s) == self.my_capital() {
            if self.capital_threatened() {
                available
            } else {
                available.min(3)
            }
        } else if available >= 2
            && self
                .game
                .neighbours(s)
                .iter()
                .filter(|&&n| self.hostile_land(n))
                .count()
                > 1
        {
            1
        } else {
            0
        }
    }

    // ------------------------------------------------------------------
    // Stage 1

    fn stage_one(&mut self) -> Draft {
        // Research first, then repairs from what is left; the purchase gets
        // the rest (repairs are paid after it, from the same treasury).
        let research = self.research();
        let token_cost = self.game.research().map_or(0, |r| r.token_cost);
        let mut budget =
            self.state.ipcs[self.power] - research.as_ref().map_or(0, |r| r.0 * token_cost);
        // Advanced AAE: the oil convoy and lend-lease leave the treasury
        // before the purchase.
        let oil_convoy = self.oil_convoy(budget);
        budget -= oil_convoy;
        let lend_lease = self.lend_lease(budget);
        budget -= lend_lease;
        let (repair, repair_cost) = self.repairs(budget);
        budget -= repair_cost;
        let repaired = repair.iter().map(|r| r.1).sum();
        // A neutral beside free land units is worth one entry price kept
        // back from the purchase (DAAK-C §2.7a: paid from the cash left).
        let keep_for_neutral = if self.neutral_price > 0
            && !self.capital_threatened()
            && budget >= self.neutral_price + 3
            && (0..self.game.space_count()).map(SpaceId).any(|s| {
                self.is_neutral(s)
                    && self
                        .game
                        .neighbours(s)
                        .iter()
                        .any(|&n| !self.game.is_sea(n) && !self.free(n, true).is_empty())
            }) {
            self.neutral_price
        } else {
            0
        };
        let purchase = self.purchase(budget - keep_for_neutral, repaired);
        let spent: u32 = purchase
            .iter()
            .map(|&(t, n)| self.game.unit_types()[t].cost.unwrap_or(0) * n)
            .sum();
        self.neutral_cash = budget - spent;
        let mut draft = Draft {
            research,
            oil_convoy,
            lend_lease,
            purchase,
            repair,
            ..Draft::default()
        };
        if self.cfg.bombing_raids {
            self.raids(&mut draft);
        }
        if self.cfg.rockets {
            draft.rockets = self.rockets();
        }
        let mut plans: Vec<(SpaceId, Vec<SpaceId>, List, bool)> = Vec::new();
        self.naval_attacks(&mut draft, &mut plans);
        self.land_attacks(&mut draft, &mut plans);
        self.amphibious_attacks(&mut draft, &mut plans);
        self.attacks = plans.len();
        // Battle plans now and then: retreat policies for land battles the
        // attackers can retreat from, orders of loss for others.
        for (space, sources, force, amphibious) in plans {
            let pick = (self.state.round as usize + space.0) % 3;
            let mut losses: Vec<usize> = force.iter().map(|&(t, _)| t).collect();
            losses.sort_by_key(|&t| {
                let ty = &self.game.unit_types()[t];
                (ty.cost.unwrap_or(0), ty.attack.unwrap_or(0), t)
            });
            losses.dedup();
            let count: u32 = force.iter().map(|&(_, n)| n).sum();
            let land_battle = !self.game.is_sea(space);
            let plan = match pick {
                0 if land_battle && !amphibious && !sources.is_empty() => Some(Plan {
                    space,
                    retreat: Some((RetreatRule::Below((count / 3).max(1)), sources[0])),
                    losses,
                    raid: false,
                }),
                1 if land_battle && !amphibious && !sources.is_empty() => Some(Plan {
                    space,
                    retreat: Some((RetreatRule::AfterRound(3), sources[0])),
                    losses: Vec::new(),
                    raid: false,
                }),
                0 | 1 => Some(Plan {
                    space,
                    retreat: None,
                    losses,
                    raid: false,
                }),
                _ => None,
            };
            draft.battles.extend(plan);
        }
        draft.default_never = !draft.combat.is_empty();
        draft
    }

    /// What to buy with `budget`; `repaired` damage points are repaired
    /// this turn, so the complexes place that many more units.
    fn purchase(&self, budget: u32, repaired: u32) -> List {
        let places = sites(self.game, self.state, self.power);
        if places.is_empty() {
            return Vec::new();
        }
        // The sites' limits already count the damage on their complexes.
        // Where a purchase beyond them is refused at once (not held back),
        // the check sees the damage before this turn's repairs, unless the
        // repairs come first (Advanced AAE).
        let repaired = if self.game.rule_set().holds_unplaceable_units()
            || self.game.combat_rules().repair_before_purchase
        {
            repaired
        } else {
            0
        };
        let room: Option<u32> = places
            .iter()
            .try_fold(0u32, |acc, c| c.limit.map(|l| acc + l))
            .map(|r| r + repaired);
        let coastal = places.iter().any(|c| {
            c.limit.is_none()
                && self
                    .game
                    .neighbours(c.space)
                    .iter()
                    .any(|&n| self.game.is_sea(n))
        });
        let mut budget = budget;
        let mut list: List = Vec::new();
        let round = self.state.round;
        let cost = |t: usize| self.game.unit_types()[t].cost.unwrap_or(u32::MAX);
        let buy = |t: Option<usize>, n: u32, budget: &mut u32, list: &mut List| {
            if let Some(t) = t
                && n > 0
                && cost(t).saturating_mul(n) <= *budget
            {
                *budget -= cost(t) * n;
                list.push((t, n));
            }
        };
        let (inf, art, arm, ftr, trn) = (
            self.type_id("infantry"),
            self.type_id("artillery"),
            self.type_id("armor"),
            self.type_id("fighter"),
            self.type_id("transport"),
        );
        // An island power (no land route to the front) buys a transport on
        // even rounds while it has fewer than three.
        let island = self.my_capital().is_some_and(|c| self.front[c.0].is_none());
        let transports = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == self.power && Some(u.unit) == trn)
            .count();
        if island && coastal && room.is_none() {
            // Enough transports to ship what waits at home.
            let waiting = self
                .my_capital()
                .map_or(0, |c| self.free(c, true).len() as u32);
            let want = (waiting / 4).min(3);
            let have = transports as u32;
            if have < 2 || (want > 0 && have < 8 && round.is_multiple_of(2)) {
                buy(trn, want.max(1), &mut budget, &mut list);
            }
        }
        if round % 3 == 2 && budget >= 21 {
            buy(ftr, 1, &mut budget, &mut list);
        }
        // A raiding power without a bomber buys one when it can spare it.
        if self.cfg.bombing_raids && budget >= 24 && self.bombers().is_empty() {
            buy(self.type_id("bomber"), 1, &mut budget, &mut list);
        }
        let armor = budget / 15;
        buy(arm, armor, &mut budget, &mut list);
        let artillery = budget / 12;
        buy(art, artillery, &mut budget, &mut list);
        let infantry = budget / 3;
        buy(inf, infantry, &mut budget, &mut list);
        if let Some(r) = room {
            // Captured complexes only: trim to what they place.
            let mut left = r;
            for (_, n) in &mut list {
                *n = (*n).min(left);
                left -= *n;
            }
            list.retain(|&(_, n)| n > 0);
        }
        list
    }

    /// An aircraft's movement with Long-Range Aircraft (2 more for the
    /// power's fighters and bombers).
    fn air_range(&self, u: &Unit) -> usize {
        let t = self.ut(u);
        let extra = if t.kind == Some(UnitKind::Air)
            && self
                .state
                .has_technology(u.owner, Technology::LongRangeAircraft)
        {
            2
        } else {
            0
        };
        usize::from(t.movement.unwrap_or(0)) + extra
    }

    /// How far an aircraft may fly in the combat move: its range, or less
    /// where the rule set limits combat flights (Advanced AAE AAAE-36).
    fn combat_reach(&self, u: &Unit) -> usize {
        let range = self.air_range(u);
        let limit = self.game.combat_rules().combat_move_air_range;
        match limit {
            Some(l) if self.ut(u).has(&Ability::StrategicBomber) => {
                range.min(usize::from(l.bomber))
            }
            Some(l) => range.min(usize::from(l.fighter)),
            None => range,
        }
    }

    /// Advanced AAE (AAAE-08): British MidEast's oil convoy, up to 6 IPCs
    /// and a third of `budget`. The engine refuses it where no Allied power
    /// holds Cairo and the Allies lack the convoy zone; the order is dropped.
    fn oil_convoy(&self, budget: u32) -> u32 {
        if !self.cfg.oil_convoy || self.game.power("British MidEast") != Some(self.power) {
            return 0;
        }
        (budget / 3).min(6)
    }

    /// Advanced AAE (AAAE-40): 4 IPCs per US transport in Russia's convoy
    /// zones, at most 3, while the USA can pay.
    fn lend_lease(&self, budget: u32) -> u32 {
        let russia = self.game.power("Russia");
        if !self.cfg.lend_lease || russia.is_none() || self.game.power("USA") != Some(self.power) {
            return 0;
        }
        let transports = (0..self.game.space_count())
            .map(SpaceId)
            .filter(|&z| {
                self.game
                    .sea_zone(z)
                    .and_then(|z| z.convoy.as_ref())
                    .is_some_and(|c| self.game.power(&c.power) == russia)
            })
            .flat_map(|z| self.state.units_at(z))
            .filter(|u| {
                u.owner == self.power
                    && u.cargo_of.is_none()
                    && self.ut(u).transport_capacity.is_some_and(|c| c > 0)
            })
            .count() as u32;
        let mut n = transports.min(3);
        while n > 0 && 4 * n > budget {
            n -= 1;
        }
        4 * n
    }

    fn complex_at(&self, s: SpaceId) -> bool {
        self.state
            .units_at(s)
            .any(|u| self.ut(u).has(&Ability::Production))
    }

    /// Damage a complex in `s` can still take before the cap (the rule
    /// set's multiple of the territory's value): a raid or rocket beyond it
    /// is wasted.
    fn damage_room(&self, s: SpaceId) -> u32 {
        let per_ipc = self.game.combat_rules().complex_damage_cap_per_ipc;
        let cap = per_ipc * self.game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
        cap.saturating_sub(self.state.damage_at(s))
    }

    fn damages_complexes(&self) -> bool {
        self.game
            .rule_set()
            .combat_rules(self.game)
            .bombing_damages_complexes
    }

    /// Researcher tokens: a power with IPCs to spare (30 or more, capital
    /// safe) buys one, two from 45; tokens held are always rolled. The
    /// chart: the first not yet complete, from one that depends on the
    /// power (so that powers research different things).
    fn research(&self) -> Option<(u32, String)> {
        let rules = self.game.research()?;
        if !self.cfg.research || !self.game.powers()[self.power].collects_income {
            return None;
        }
        let n = rules.charts.len();
        let chart = (0..n)
            .map(|i| &rules.charts[(self.power + i) % n])
            .find(|c| {
                !c.developments
                    .iter()
                    .filter_map(|d| Technology::from_name(d))
                    .all(|t| self.state.has_technology(self.power, t))
            })?;
        let ipcs = self.state.ipcs[self.power];
        let buy = if self.capital_threatened() || ipcs < 30 {
            0
        } else if ipcs < 45 {
            1
        } else {
            2
        };
        (buy + self.state.research_tokens[self.power] > 0).then(|| (buy, chart.name.clone()))
    }

    /// Repairs of the power's damaged complexes, the capital first, with
    /// at most half of `budget`; with the cost.
    fn repairs(&self, budget: u32) -> (Vec<(SpaceId, u32)>, u32) {
        if !self.cfg.repair || !self.damages_complexes() {
            return (Vec::new(), 0);
        }
        let half = self
            .state
            .has_technology(self.power, Technology::IncreasedFactoryProduction);
        let per_point = self.game.combat_rules().repair_cost_per_point;
        let cost = |points: u32| if half { points.div_ceil(2) } else { points } * per_point;
        let mut damaged: Vec<SpaceId> = (0..self.game.space_count())
            .map(SpaceId)
            .filter(|&s| self.state.owner[s.0] == Some(self.power))
            .filter(|&s| self.state.damage_at(s) > 0 && self.complex_at(s))
            .collect();
        damaged.sort_by_key(|&s| (Some(s) != self.my_capital(), s));
        let mut out = Vec::new();
        let mut points = 0;
        for s in damaged {
            let mut n = self.state.damage_at(s);
            while n > 0 && cost(points + n) > budget / 2 {
                n -= 1;
            }
            if n == 0 {
                break;
            }
            points += n;
            out.push((s, n));
        }
        (out, cost(points))
    }

    /// The power's bombers that have not moved, not at sea.
    fn bombers(&self) -> Vec<&'a Unit> {
        let state: &'a GameState = self.state;
        state
            .units
            .iter()
            .filter(|u| {
                u.owner == self.power
                    && self.ut(u).has(&Ability::StrategicBomber)
                    && u.moved == 0
                    && !self.game.is_sea(u.at)
            })
            .collect()
    }

    /// Each free bomber raids the enemy complex in reach worth most (where
    /// damage still counts), with a landing in a friendly territory after;
    /// one battle plan per target, bombers alone.
    fn raids(&mut self, draft: &mut Draft) {
        let targets: Vec<SpaceId> = (0..self.game.space_count())
            .map(SpaceId)
            .filter(|&s| self.hostile_land(s) && self.state.owner[s.0].is_some())
            .filter(|&s| self.complex_at(s) && self.damage_room(s) > 0)
            .filter(|&s| self.game.may_enter(self.power, s))
            .collect();
        for b in self.bombers() {
            if self.used.contains(&b.id) {
                continue;
            }
            let range = self.air_range(b);
            let reach = self.combat_reach(b);
            let (dist, prev) = self.air_bfs(b.at);
            let mut best: Option<(std::cmp::Reverse<u32>, usize, SpaceId, SpaceId)> = None;
            for &t in &targets {
                let Some(d) = dist[t.0].filter(|&d| d > 0 && d <= reach) else {
                    continue;
                };
                let (from_target, _) = self.air_bfs(t);
                let landing = (0..self.game.space_count())
                    .map(SpaceId)
                    .filter(|&l| l != t && self.airfield(l))
                    .filter_map(|l| from_target[l.0].map(|dl| (dl, l)))
                    .filter(|&(dl, _)| d + dl <= range)
                    .min();
                let Some((_, landing)) = landing else {
                    continue;
                };
                let value = self.game.territory(t).and_then(|x| x.ipc).unwrap_or(0);
                let key = (std::cmp::Reverse(value), d, t, landing);
                if best.is_none_or(|k| key < k) {
                    best = Some(key);
                }
            }
            let Some((_, _, t, landing)) = best else {
                continue;
            };
            self.used.insert(b.id);
            push_move(
                &mut draft.combat,
                vec![(b.unit, 1)],
                Self::path_to(&prev, b.at, t),
                Some(landing),
            );
            if !self.raided.contains(&t) {
                self.raided.push(t);
                draft.battles.push(Plan {
                    space: t,
                    retreat: None,
                    losses: Vec::new(),
                    raid: true,
                });
            }
        }
    }

    /// With Rockets, each territory with the power's AA gun strikes the
    /// enemy complex within 3 spaces (never over a neutral) worth most,
    /// one rocket per complex.
    fn rockets(&self) -> Vec<(SpaceId, SpaceId)> {
        if !self.damages_complexes() || !self.state.has_technology(self.power, Technology::Rockets)
        {
            return Vec::new();
        }
        let mut out: Vec<(SpaceId, SpaceId)> = Vec::new();
        for from in (0..self.game.space_count()).map(SpaceId) {
            let gun = self.state.units_at(from).any(|u| {
                u.owner == self.power
                    && self
                        .ut(u)
                        .abilities
                        .iter()
                        .any(|a| matches!(a, Ability::AntiAircraft(_)))
            });
            if !gun {
                continue;
            }
            let (dist, _) = self.bfs(from, |s| self.passable(s));
            let target = (0..self.game.space_count())
                .map(SpaceId)
                .filter(|&t| dist[t.0].is_some_and(|d| d <= 3))
                .filter(|&t| self.hostile_land(t) && self.state.owner[t.0].is_some())
                .filter(|&t| self.complex_at(t) && self.damage_room(t) > 0)
                .filter(|&t| !out.iter().any(|r| r.1 == t))
                .min_by_key(|&t| {
                    let value = self.game.territory(t).and_then(|x| x.ipc).unwrap_or(0);
                    (std::cmp::Reverse(value), t)
                });
            if let Some(t) = target {
                out.push((from, t));
            }
        }
        out
    }

    /// Warships (and aircraft) attack enemy fleets where they are stronger.
    fn naval_attacks(
        &mut self,
        draft: &mut Draft,
        plans: &mut Vec<(SpaceId, Vec<SpaceId>, List, bool)>,
    ) {
        let zones: Vec<SpaceId> = (0..self.game.space_count())
            .map(SpaceId)
            .filter(|&s| self.game.is_sea(s) && self.enemy_ships(s))
            .filter(|&s| {
                !self
                    .cfg
                    .spared_zones
                    .iter()
                    .any(|n| self.game.space(n) == Some(s))
            })
            .collect();
        for z in zones {
            let (dval, _) = self.defence(z);
            // Ships already there fight anyway.
            let mut force: List = Vec::new();
            for u in self.free(z, true) {
                if self.ut(u).kind == Some(UnitKind::Sea) {
                    add(&mut force, u.unit, 1);
                }
            }
            let mut moves: Vec<(SpaceId, usize, u32)> = Vec::new();
            let mut ids = Vec::new();
            let goal = dval * 3 / 2 + 1;
            for &s in self.game.neighbours(z) {
                if !self.game.is_sea(s) {
                    continue;
                }
                for u in self.free(s, true) {
                    let t = self.ut(u);
                    if t.kind != Some(UnitKind::Sea)
                        || t.attack.unwrap_or(0) == 0
                        || t.carrier_capacity.is_some()
                        || self.strength(&force) >= goal
                    {
                        continue;
                    }
                    add(&mut force, u.unit, 1);
                    add3(&mut moves, s, u.unit);
                    ids.push(u.id);
                }
            }
            let air = self.add_aircraft(z, &mut force, goal, &mut ids);
            if moves.is_empty() && air.is_empty() {
                continue;
            }
            if self.strength(&force) * 5 < dval * 6 {
                continue;
            }
            self.used.extend(ids);
            let mut sources = Vec::new();
            for (s, t, n) in moves {
                sources.push(s);
                push_move(&mut draft.combat, vec![(t, n)], vec![s, z], None);
            }
            for m in air {
                draft.combat.push(m);
            }
            plans.push((z, sources, force, false));
        }
    }

    /// Adds aircraft that can reach `target` and land in a friendly
    /// territory afterwards, until the force reaches `goal`. Returns their
    /// moves; the ids go to `ids`.
    fn add_aircraft(
        &self,
        target: SpaceId,
        force: &mut List,
        goal: u32,
        ids: &mut Vec<u32>,
    ) -> Vec<Move> {
        let mut moves = Vec::new();
        if self.strength(force) >= goal || !self.game.may_enter(self.power, target) {
            return moves;
        }
        let (from_target, _) = self.air_bfs(target);
        let mut flyers: Vec<&Unit> = self
            .state
            .units
            .iter()
            .filter(|u| {
                u.owner == self.power
                    && self.ut(u).kind == Some(UnitKind::Air)
                    && u.moved == 0
                    && !self.used.contains(&u.id)
                    && !self.game.is_sea(u.at)
            })
            .collect();
        flyers.sort_by_key(|u| (from_target[u.at.0], u.id));
        for u in flyers {
            if self.strength(force) >= goal {
                break;
            }
            let Some(d) = from_target[u.at.0] else {
                continue;
            };
            let range = self.air_range(u);
            if d == 0 || d > self.combat_reach(u) {
                continue;
            }
            // The nearest friendly territory to land in after the battle.
            let landing = (0..self.game.space_count())
                .map(SpaceId)
                .filter(|&l| l != target && self.airfield(l))
                .filter_map(|l| from_target[l.0].map(|dl| (dl, l)))
                .filter(|&(dl, _)| d + dl <= range)
                .min();
            let Some((_, landing)) = landing else {
                continue;
            };
            let (_, prev) = self.air_bfs(u.at);
            let path = Self::path_to(&prev, u.at, target);
            add(force, u.unit, 1);
            ids.push(u.id);
            push_move(&mut moves, vec![(u.unit, 1)], path, Some(landing));
        }
        moves
    }

    /// Land units attack adjacent enemy territories where they are stronger.
    fn land_attacks(
        &mut self,
        draft: &mut Draft,
        plans: &mut Vec<(SpaceId, Vec<SpaceId>, List, bool)>,
    ) {
        let mut targets: Vec<(u32, SpaceId)> = (0..self.game.space_count())
            .map(SpaceId)
            .filter(|&s| self.hostile_land(s))
            .filter(|&s| self.cfg.attack_capitals || !self.is_capital(s))
            .filter(|&s| !self.raided.contains(&s))
            .filter(|&s| self.can_take(s))
            .filter(|&s| {
                self.game
                    .neighbours(s)
                    .iter()
                    .any(|&n| !self.free(n, true).is_empty())
            })
            .map(|s| (self.defence(s).0, s))
            .collect();
        targets.sort();
        for (dval, e) in targets {
            let (_, dn) = self.defence(e);
            let mut force: List = Vec::new();
            let mut moves: Vec<(SpaceId, usize, u32)> = Vec::new();
            let mut ids = Vec::new();
            let goal = dval * 3 / 2 + 2;
            let mut count = 0u32;
            for &s in self.game.neighbours(e) {
                if self.game.is_sea(s) {
                    continue;
                }
                let mut units: Vec<&Unit> = self
                    .free(s, true)
                    .into_iter()
                    .filter(|u| {
                        let t = self.ut(u);
                        t.kind == Some(UnitKind::Land) && t.attack.unwrap_or(0) > 0
                    })
                    .collect();
                let keep = self.keep(s, units.len());
                // Strongest first; the cheapest stay behind.
                units.sort_by_key(|u| (std::cmp::Reverse(self.ut(u).attack.unwrap_or(0)), u.id));
                let usable = units.len() - keep;
                for u in units.into_iter().take(usable) {
                    let enough = if dn == 0 {
                        count >= 1
                    } else {
                        self.strength(&force) >= goal && count > dn
                    };
                    if enough {
                        break;
                    }
                    add(&mut force, u.unit, 1);
                    add3(&mut moves, s, u.unit);
                    ids.push(u.id);
                    count += 1;
                }
            }
            if count == 0 {
                continue;
            }
            let air = if dn > 0 {
                self.add_aircraft(e, &mut force, goal, &mut ids)
            } else {
                Vec::new()
            };
            if dn > 0 && (self.strength(&force) * 5 < dval * 6 || count < dn) {
                continue;
            }
            // An earlier attack may have spent the cash for neutrals.
            if !self.can_take(e) {
                continue;
            }
            self.take(e);
            self.used.extend(ids);
            let mut sources = Vec::new();
            for (s, t, n) in moves {
                if !sources.contains(&s) {
                    sources.push(s);
                }
                push_move(&mut draft.combat, vec![(t, n)], vec![s, e], None);
            }
            draft.combat.extend(air);
            plans.push((e, sources, force, false));
        }
    }

    /// Transports carry up to one load into an enemy territory next to the
    /// zone they reach (at most one zone away).
    fn amphibious_attacks(
        &mut self,
        draft: &mut Draft,
        plans: &mut Vec<(SpaceId, Vec<SpaceId>, List, bool)>,
    ) {
        let Some(trn) = self.type_id("transport") else {
            return;
        };
        let transports: Vec<&Unit> = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == self.power && u.unit == trn && u.moved == 0)
            .filter(|u| !self.enemy_ships(u.at))
            .filter(|u| !self.state.units.iter().any(|c| c.cargo_of == Some(u.id)))
            .collect();
        for t in transports {
            let z = t.at;
            let Some(cargo) = self.cargo_from(z, true) else {
                continue;
            };
            let (from, load, load_ids) = cargo;
            let mut ends = vec![z];
            ends.extend(
                self.game
                    .neighbours(z)
                    .iter()
                    .copied()
                    .filter(|&n| self.game.is_sea(n) && !self.enemy_ships(n)),
            );
            let mut best: Option<(u32, SpaceId, SpaceId)> = None;
            for &end in &ends {
                for &e in self.game.neighbours(end) {
                    if !self.hostile_land(e)
                        || (!self.cfg.attack_capitals && self.is_capital(e))
                        || self.raided.contains(&e)
                        || !self.can_take(e)
                    {
                        continue;
                    }
                    let planned = plans.iter().any(|p| p.0 == e);
                    let (dval, _) = self.defence(e);
                    let ok = planned || self.strength(&load) * 5 >= dval * 6 + 5;
                    if ok && best.is_none_or(|b| (dval, e, end) < b) {
                        best = Some((dval, e, end));
                    }
                }
            }
            let Some((_, e, end)) = best else {
                continue;
            };
            self.take(e);
            self.used.insert(t.id);
            self.used.extend(load_ids);
            let path = if end == z { vec![z] } else { vec![z, end] };
            draft.combat.push(Move::Transport {
                path,
                load: Some((load.clone(), from)),
                unload: Some(e),
            });
            match plans.iter_mut().find(|p| p.0 == e) {
                Some(p) => {
                    for &(ty, n) in &load {
                        add(&mut p.2, ty, n);
                    }
                    p.3 = true;
                }
                None => plans.push((e, Vec::new(), load, true)),
            }
        }
    }

    /// A transport load from a territory next to `z`: one infantry and one
    /// artillery, two infantry, or one armor, leaving what the territory
    /// keeps. With `front_only` false, only from territories in the rear.
    fn cargo_from(&self, z: SpaceId, attack: bool) -> Option<(SpaceId, List, Vec<u32>)> {
        let (inf, art, arm) = (
            self.type_id("infantry")?,
            self.type_id("artillery"),
            self.type_id("armor"),
        );
        for &s in self.game.neighbours(z) {
            if !self.friendly_land(s) {
                continue;
            }
            if !attack && self.front[s.0].is_some_and(|d| d <= 1) {
                continue;
            }
            let units: Vec<&Unit> = self
                .free(s, true)
                .into_iter()
                .filter(|u| self.ut(u).kind == Some(UnitKind::Land))
                .filter(|u| self.ut(u).attack.unwrap_or(0) > 0)
                .collect();
            let keep = if attack { self.keep(s, units.len()) } else { 0 };
            if units.len() <= keep {
                continue;
            }
            let of = |t: Option<usize>| -> Vec<u32> {
                units
                    .iter()
                    .filter(|u| Some(u.unit) == t)
                    .map(|u| u.id)
                    .collect()
            };
            let (i, a, r) = (of(Some(inf)), of(art), of(arm));
            let spare = units.len() - keep;
            if spare >= 2 && !i.is_empty() && !a.is_empty() {
                return Some((s, vec![(inf, 1), (art.expect("some"), 1)], vec![i[0], a[0]]));
            }
            if spare >= 2 && i.len() >= 2 {
                return Some((s, vec![(inf, 2)], vec![i[0], i[1]]));
            }
            if let Some(&id) = r.first() {
                return Some((s, vec![(arm.expect("some"), 1)], vec![id]));
            }
            if let Some(&id) = i.first() {
                return Some((s, vec![(inf, 1)], vec![id]));
            }
        }
        None
    }

    // ------------------------------------------------------------------
    // Stage 2

    fn stage_two(&mut self) -> Draft {
        let mut draft = Draft::default();
        self.land_aircraft(&mut draft);
        draft.landings = draft.noncombat.len();
        self.ferry(&mut draft);
        self.advance(&mut draft);
        draft.place = self.placement(&draft.noncombat);
        draft
    }

    /// Every aircraft not where it may end the turn flies to the nearest
    /// friendly territory within its remaining movement.
    fn land_aircraft(&mut self, draft: &mut Draft) {
        let flyers: Vec<&Unit> = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == self.power && self.ut(u).kind == Some(UnitKind::Air))
            .collect();
        for u in flyers {
            let ok = if self.game.is_sea(u.at) {
                // The side's carriers there hold every aircraft there (the
                // engine counts the zone's slots as a whole).
                let slots: u32 = self
                    .state
                    .units_at(u.at)
                    .filter(|c| self.friendly(c.owner))
                    .map(|c| u32::from(self.ut(c).carrier_capacity.unwrap_or(0)))
                    .sum();
                let taken: u32 = self
                    .state
                    .units_at(u.at)
                    .filter(|c| self.friendly(c.owner) && self.ut(c).kind == Some(UnitKind::Air))
                    .map(|c| u32::from(self.ut(c).carrier_cost.unwrap_or(0)))
                    .sum();
                self.ut(u).carrier_cost.is_some() && slots > 0 && taken <= slots
            } else {
                self.airfield(u.at)
            };
            if ok {
                continue;
            }
            let left = self.air_range(u).saturating_sub(usize::from(u.moved));
            let (dist, prev) = self.air_bfs(u.at);
            let landing = (0..self.game.space_count())
                .map(SpaceId)
                .filter(|&l| self.airfield(l))
                .filter_map(|l| dist[l.0].map(|d| (d, l)))
                .filter(|&(d, _)| d <= left && d > 0)
                .min();
            if let Some((_, l)) = landing {
                self.used.insert(u.id);
                let path = Self::path_to(&prev, u.at, l);
                if self.ut(u).transport_capacity.is_some() {
                    // A J Boulton air transport's order names only air
                    // transports and their cargo.
                    draft.noncombat.push(Move::Units {
                        units: vec![(u.unit, 1)],
                        path,
                        land: None,
                    });
                } else {
                    // Never merged into an air transport's order, which
                    // names only air transports and their cargo.
                    let types = self.game.unit_types();
                    let carries = |list: &List| {
                        list.iter().any(|&(t, _)| {
                            types[t].kind == Some(UnitKind::Air)
                                && types[t].transport_capacity.is_some()
                        })
                    };
                    match draft.noncombat.iter_mut().find(|m| {
                        matches!(m, Move::Units { units, path: p, land: None }
                            if *p == path && !carries(units))
                    }) {
                        Some(Move::Units { units, .. }) => add(units, u.unit, 1),
                        _ => draft.noncombat.push(Move::Units {
                            units: vec![(u.unit, 1)],
                            path,
                            land: None,
                        }),
                    }
                }
            }
        }
    }

    /// Transports ferry land units from the rear (islands) to the front:
    /// an empty transport loads idle rear units next to it, or sails toward
    /// them; a loaded one sails (two zones a turn) toward the nearest zone
    /// beside friendly land on the front, and unloads there when it arrives.
    fn ferry(&mut self, draft: &mut Draft) {
        let Some(trn) = self.type_id("transport") else {
            return;
        };
        let transports: Vec<&Unit> = self
            .state
            .units
            .iter()
            .filter(|u| u.owner == self.power && u.unit == trn && !self.used.contains(&u.id))
            .filter(|u| u.moved == 0 && !u.combat_moved && u.unloaded_to.is_none())
            .filter(|u| !self.enemy_ships(u.at))
            .collect();
        let range = usize::from(self.game.unit_types()[trn].movement.unwrap_or(2));
        for t in transports {
            let z = t.at;
            let aboard = self.state.units.iter().any(|c| c.cargo_of == Some(t.id));
            let load = if aboard {
                None
            } else {
                self.cargo_from(z, false)
            };
            let (dist, prev) = self.bfs(z, |s| {
                self.game.is_sea(s) && !self.enemy_ships(s) && !self.enemy_convoy(s)
            });
            let carrying = aboard || load.is_some();
            let from = load.as_ref().map(|l| l.0);
            let mut best: Option<(usize, usize, SpaceId, SpaceId)> = None;
            for end in (0..self.game.space_count()).map(SpaceId) {
                let Some(d) = dist[end.0] else {
                    continue;
                };
                for &f in self.game.neighbours(end) {
                    if !self.friendly_land(f) || Some(f) == from {
                        continue;
                    }
                    let key = if carrying {
                        let Some(front) = self.front[f.0] else {
                            continue;
                        };
                        (d.div_ceil(range), front, end, f)
                    } else {
                        // Sail empty toward idle units in the rear.
                        let idle = self
                            .free(f, true)
                            .iter()
                            .filter(|u| self.ut(u).kind == Some(UnitKind::Land))
                            .count();
                        if d == 0 || idle < 2 || self.front[f.0].is_some_and(|x| x <= 1) {
                            continue;
                        }
                        (d, 0, end, f)
                    };
                    if best.is_none_or(|b| key < b) {
                        best = Some(key);
                    }
                }
            }
            let Some((_, _, end, f)) = best else {
                continue;
            };
            let mut path = Self::path_to(&prev, z, end);
            let arrives = path.len() <= range + 1;
            path.truncate(range + 1);
            if path.len() == 1 && !(carrying && arrives) {
                continue;
            }
            self.used.insert(t.id);
            let load = load.map(|(from, list, ids)| {
                self.used.extend(ids);
                (list, from)
            });
            draft.noncombat.push(Move::Transport {
                path,
                load,
                unload: (carrying && arrives).then_some(f),
            });
        }
    }

    /// Idle land units move toward the front through friendly land; the
    /// capital keeps four.
    fn advance(&mut self, draft: &mut Draft) {
        let capital = self.my_capital();
        for s in (0..self.game.space_count()).map(SpaceId) {
            let Some(d) = self.front[s.0] else {
                continue;
            };
            if d < 2 || !self.friendly_land(s) {
                continue;
            }
            let mut units: Vec<&Unit> = self
                .free(s, true)
                .into_iter()
                .filter(|u| {
                    let t = self.ut(u);
                    t.kind == Some(UnitKind::Land) && t.attack.unwrap_or(0) > 0
                })
                .collect();
            if Some(s) == capital {
                let keep = if self.capital_threatened() {
                    units.len()
                } else {
                    units.len().min(4)
                };
                units.drain(..keep);
            }
            for u in units {
                let range = usize::from(self.ut(u).movement.unwrap_or(0));
                // Walk down the front distance, as far as the unit can go.
                let mut path = vec![s];
                let mut here = s;
                while path.len() <= range {
                    let dh = self.front[here.0].expect("on the map");
                    if dh <= 1 {
                        break;
                    }
                    let next = self
                        .game
                        .neighbours(here)
                        .iter()
                        .copied()
                        .filter(|&n| self.friendly_land(n) && self.front[n.0] == Some(dh - 1))
                        .min();
                    match next {
                        Some(n) => {
                            path.push(n);
                            here = n;
                        }
                        None => break,
                    }
                }
                if path.len() > 1 {
                    self.used.insert(u.id);
                    push_move(&mut draft.noncombat, vec![(u.unit, 1)], path, None);
                }
            }
        }
    }

    /// The unit type the power receives free each turn (Advanced AAE's
    /// Wolfpack submarine, AAAE-25), if any.
    fn free_unit(&self) -> Option<usize> {
        let free = self.game.combat_rules().free_unit_each_turn?;
        if self.game.power(free.power) != Some(self.power) {
            return None;
        }
        let t = self.game.unit_type(free.unit)?;
        self.game
            .unit_types()
            .iter()
            .position(|u| std::ptr::eq(u, t))
    }

    /// True when `n` more submarines of type `t` may go to sea zone `z`
    /// beside the `placed` ones: the rule set's limit of submarines of one
    /// side in a zone (Advanced AAE AAAE-44), new ones included.
    fn submarine_room(&self, z: SpaceId, t: usize, placed: u32) -> bool {
        let Some(limit) = self.game.combat_rules().submarines_per_zone else {
            return true;
        };
        if !self.game.unit_types()[t].has(&Ability::Submerge) {
            return true;
        }
        let standing = self
            .state
            .units_at(z)
            .filter(|u| u.cargo_of.is_none() && self.friendly(u.owner))
            .filter(|u| self.ut(u).has(&Ability::Submerge))
            .count() as u32;
        standing + placed < u32::from(limit)
    }

    /// Everything bought, at the complexes nearest the front; ships in a
    /// free sea zone next to a complex, submarines where the zone's limit
    /// takes them. The unit the power receives free (Advanced AAE's
    /// Wolfpack) takes no room at the complexes and goes beside any of
    /// them; when no zone can take it, it is left out (the engine then
    /// records it lost).
    fn placement(&self, noncombat: &[Move]) -> Vec<(SpaceId, List)> {
        let mut places = sites(self.game, self.state, self.power);
        // Where a rule limits placement by the units already there
        // (Anniversary's China), avoid the territories its own non-combat
        // moves fill first.
        if self
            .game
            .rule_set()
            .placement_rule(self.game, self.power)
            .is_some()
        {
            let filled: Vec<SpaceId> = noncombat
                .iter()
                .filter_map(|m| match m {
                    Move::Units { path, .. } => path.last().copied(),
                    _ => None,
                })
                .collect();
            places.retain(|c| !filled.contains(&c.space));
        }
        let capital = if self.capital_threatened() {
            self.my_capital()
        } else {
            None
        };
        places.sort_by_key(|c| {
            (
                Some(c.space) != capital,
                self.front[c.space.0].unwrap_or(usize::MAX),
                c.space,
            )
        });
        let mut room: Vec<Option<u32>> = places.iter().map(|c| c.limit).collect();
        let mut out: BTreeMap<SpaceId, List> = BTreeMap::new();
        let mut free = self.free_unit();
        // Submarines placed in each zone so far.
        let mut subs: BTreeMap<SpaceId, u32> = BTreeMap::new();
        for c in &self.state.purchased {
            for _ in 0..c.count {
                let is_free = free == Some(c.unit);
                if is_free {
                    free = None;
                }
                if self.kind(c.unit) == UnitKind::Sea {
                    let zone = places
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| is_free || room[*i].is_none_or(|r| r > 0))
                        .flat_map(|(i, p)| {
                            self.game.neighbours(p.space).iter().map(move |&n| (i, n))
                        })
                        .filter(|&(_, n)| self.game.is_sea(n))
                        .filter(|&(_, n)| {
                            self.submarine_room(n, c.unit, subs.get(&n).copied().unwrap_or(0))
                        })
                        .min_by_key(|&(_, n)| (self.enemy_ships(n), n));
                    if let Some((i, n)) = zone {
                        if !is_free && let Some(r) = &mut room[i] {
                            *r -= 1;
                        }
                        if self.ut_id(c.unit).has(&Ability::Submerge) {
                            *subs.entry(n).or_default() += 1;
                        }
                        add(out.entry(n).or_default(), c.unit, 1);
                    }
                } else if is_free {
                    if let Some(p) = places.first() {
                        add(out.entry(p.space).or_default(), c.unit, 1);
                    }
                } else if let Some(i) = (0..places.len()).find(|&i| room[i].is_none_or(|r| r > 0)) {
                    if let Some(r) = &mut room[i] {
                        *r -= 1;
                    }
                    add(out.entry(places[i].space).or_default(), c.unit, 1);
                }
            }
        }
        out.into_iter().collect()
    }

    // ------------------------------------------------------------------
    // Rendering

    fn list(&self, units: &[(usize, u32)]) -> String {
        units
            .iter()
            .map(|&(t, n)| format!("{n} {}", self.game.unit_types()[t].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn path(&self, path: &[SpaceId]) -> String {
        path.iter()
            .map(|&s| self.game.space_name(s))
            .collect::<Vec<_>>()
            .join(" -> ")
    }

    fn moves(&self, out: &mut String, section: &str, moves: &[Move]) {
        if moves.is_empty() {
            return;
        }
        let _ = writeln!(out, "{section}:");
        for m in moves {
            match m {
                Move::Units { units, path, land } => {
                    let _ = write!(out, "  - {}: {}", self.list(units), self.path(path));
                    if let Some(l) = land {
                        let _ = write!(out, ", land {}", self.game.space_name(*l));
                    }
                    out.push('\n');
                }
                Move::Written(text) => {
                    let _ = writeln!(out, "  - {text}");
                }
                Move::Transport { path, load, unload } => {
                    let _ = writeln!(out, "  - transport: {}", self.path(path));
                    if let Some((load, from)) = load {
                        let _ = writeln!(
                            out,
                            "    load: {} from {}",
                            self.list(load),
                            self.game.space_name(*from)
                        );
                    }
                    if let Some(unload) = unload {
                        let _ = writeln!(out, "    unload: {}", self.game.space_name(*unload));
                    }
                }
            }
        }
    }

    fn render(&self, d: &Draft) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "power: {}", self.game.powers()[self.power].name);
        let _ = writeln!(out, "round: {}", self.state.round);
        if let Some((buy, chart)) = &d.research {
            let _ = writeln!(out, "research: {{buy: {buy}, chart: {chart}}}");
        }
        if d.oil_convoy > 0 {
            let _ = writeln!(out, "oil_convoy: {}", d.oil_convoy);
        }
        if d.lend_lease > 0 {
            let _ = writeln!(out, "lend_lease: {}", d.lend_lease);
        }
        if !d.purchase.is_empty() {
            let _ = writeln!(out, "purchase: {}", self.list(&d.purchase));
        }
        if !d.repair.is_empty() {
            out.push_str("repair:\n");
            for &(s, n) in &d.repair {
                let _ = writeln!(out, "  {}: {n}", self.game.space_name(s));
            }
        }
        self.moves(&mut out, "combat", &d.combat);
        if !d.rockets.is_empty() {
            out.push_str("rockets:\n");
            for &(from, to) in &d.rockets {
                let _ = writeln!(out, "  - {}", self.path(&[from, to]));
            }
        }
        if !d.battles.is_empty() || d.default_never {
            out.push_str("battles:\n");
            for p in &d.battles {
                let mut parts = Vec::new();
                if let Some((rule, to)) = p.retreat {
                    let to = self.game.space_name(to);
                    parts.push(match rule {
                        RetreatRule::AfterRound(n) => {
                            format!("retreat: {{after_round: {n}, to: {to}}}")
                        }
                        RetreatRule::Below(n) => {
                            format!("retreat: {{when_attackers_below: {n}, to: {to}}}")
                        }
                    });
                }
                if p.raid {
                    parts.push("bombing_raid: true".into());
                }
                if !p.losses.is_empty() {
                    let names: Vec<&str> = p
                        .losses
                        .iter()
                        .map(|&t| self.game.unit_types()[t].name.as_str())
                        .collect();
                    parts.push(format!("losses: [{}]", names.join(", ")));
                }
                if parts.is_empty() {
                    parts.push("retreat: never".into());
                }
                let _ = writeln!(
                    out,
                    "  {}: {{{}}}",
                    self.game.space_name(p.space),
                    parts.join(", ")
                );
            }
            if d.default_never {
                out.push_str("  default: {retreat: never}\n");
            }
        }
        self.moves(&mut out, "noncombat", &d.noncombat);
        if !d.place.is_empty() {
            out.push_str("place:\n");
            for (s, units) in &d.place {
                let _ = writeln!(out, "  {}: {}", self.game.space_name(*s), self.list(units));
            }
        }
        out
    }
}

fn add(list: &mut List, t: usize, n: u32) {
    match list.iter_mut().find(|(u, _)| *u == t) {
        Some((_, c)) => *c += n,
        None => list.push((t, n)),
    }
}

fn add3(list: &mut Vec<(SpaceId, usize, u32)>, s: SpaceId, t: usize) {
    match list.iter_mut().find(|(a, b, _)| *a == s && *b == t) {
        Some((_, _, c)) => *c += 1,
        None => list.push((s, t, 1)),
    }
}

/// Adds a move, merging it into an earlier one with the same path and
/// landing (one order per group of units, as a player writes them).
fn push_move(moves: &mut Vec<Move>, units: List, path: Vec<SpaceId>, land: Option<SpaceId>) {
    for m in moves.iter_mut() {
        if let Move::Units {
            units: u,
            path: p,
            land: l,
        } = m
            && *p == path
            && *l == land
        {
            for (t, n) in units {
                add(u, t, n);
            }
            return;
        }
    }
    moves.push(Move::Units { units, path, land });
}

/// What [`play`] saw: accepted messages, battles fought, and the stage-1
/// messages the bot had to repair.
#[derive(Clone, Debug, Default)]
pub struct Played {
    /// Orders messages accepted by `Match::submit`.
    pub messages: usize,
    /// Battles fought with dice: `battle in ... over after N round(s)`
    /// events with N at least 1 (a battle against nothing ends after 0).
    pub battles: usize,
    /// Every battle's end, fought or not.
    pub battle_ends: usize,
    /// Candidate orders the engine refused and the bot dropped.
    pub dropped: Vec<String>,
    /// Researcher tokens bought.
    pub tokens: u32,
    /// Messages that rolled researcher tokens.
    pub research_rolls: usize,
    /// Research events that gave a development.
    pub breakthroughs: usize,
    /// Strategic bombing raids declared.
    pub raids: usize,
    /// Damage events on industrial complexes (raids and rockets).
    pub damage_events: usize,
    /// Damage points repaired (events).
    pub repaired: u32,
    /// Repair events.
    pub repairs: usize,
    /// Rockets launched.
    pub rockets: usize,
    /// Oil convoys shipped (events, Advanced AAE).
    pub oil_convoys: usize,
    /// Lend-lease payments (events, Advanced AAE).
    pub lend_leases: usize,
}

/// Plays `m` with the bot through `Match::submit` (the mail daemon's path:
/// real commit-reveal dice) until round `rounds` is complete or a side has
/// won. Panics when the match refuses a message the bot checked.
pub fn play(m: &mut adjutant::matches::Match, rounds: u32, cfg: BotConfig) -> Played {
    let mut played = Played::default();
    while m.state().round <= rounds && m.state().winner.is_none() {
        let o = orders(m.game(), m.state(), cfg);
        let receipt = match m.submit(&o.power, &o.yaml) {
            Ok(Ok(r)) => r,
            Ok(Err(errors)) => panic!(
                "the match refused orders that check_orders accepted:\n{}\n{}",
                o.yaml,
                errors
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join("\n")
            ),
            Err(e) => panic!("the match failed on these orders: {e}\n{}", o.yaml),
        };
        played.messages += 1;
        played.tokens += o.tokens;
        played.research_rolls += usize::from(o.research_rolled);
        played.raids += o.raids;
        played.rockets += o.rockets;
        for e in &receipt.events {
            if e.contains(": a breakthrough;") {
                played.breakthroughs += 1;
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
            if let Some((_, rest)) = e.split_once(" repairs ")
                && let Some(n) = rest.split(' ').next().and_then(|n| n.parse::<u32>().ok())
            {
                played.repairs += 1;
                played.repaired += n;
            }
            let Some((_, rest)) = e.split_once(" over after ") else {
                continue;
            };
            if !e.starts_with("battle in ") {
                continue;
            }
            played.battle_ends += 1;
            let rounds: u32 = rest
                .split(' ')
                .next()
                .and_then(|n| n.parse().ok())
                .unwrap_or(0);
            if rounds >= 1 {
                played.battles += 1;
            }
        }
        played.dropped.extend(o.dropped);
    }
    played
}
