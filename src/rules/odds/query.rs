//! An odds question as a player writes it (by mail or on the command line)
//! and its answer: units parsed with the orders' own unit-list grammar, the
//! sides ranked by the adjudicator's casualty code.

use serde::{Deserialize, Serialize};

use super::exact::Policy;
use super::report::build;
use super::side::Side;
use super::withdrawal::Withdrawals;
use super::{Battle, DEFAULT_BATTLES, OddsReport};
use crate::rules::combat::casualties::Chooser;
use crate::rules::combat::fights;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::options::LOW_LUCK;
use crate::rules::orders::grammar::Names;
use crate::rules::orders::{StandingOrders, SubmarinePolicy};
use crate::rules::research::{self};
use crate::rules::state::{GameState, Unit};
use crate::rules::vocab::Technology;
use crate::rules::vocab::{UnitCount, UnitList};
use crate::rules::{GameDef, SpaceId};

/// Units written as in orders: `10 infantry, 3 armor`, or a list of such
/// entries (`[10 infantry, 3 armor]`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum UnitsText {
    /// `10 infantry, 3 armor`.
    Text(String),
    /// `[10 infantry, 3 armor]`.
    List(Vec<String>),
}

impl UnitsText {
    /// The entries joined with commas, as the unit-list grammar reads them.
    pub fn text(&self) -> String {
        match self {
            UnitsText::Text(t) => t.clone(),
            UnitsText::List(l) => l.join(", "),
        }
    }
}

impl From<&str> for UnitsText {
    fn from(s: &str) -> Self {
        UnitsText::Text(s.to_owned())
    }
}

/// Where the battle is fought.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BattleType {
    /// In a territory: AA guns fire, an amphibious assault may be bombarded.
    Land,
    /// In a sea zone.
    Sea,
}

/// When the attacker retreats: `never`, `{after_round: N}`,
/// `{when_attackers_below: N}` or `{when_odds_below: P}` (as in a battle
/// plan, without `to:`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(untagged)]
pub enum RetreatRule {
    /// `never`.
    Word(String),
    /// One condition.
    Rule {
        /// Retreat at the end of round N if the battle goes on.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after_round: Option<u32>,
        /// Retreat at the end of a round that leaves fewer attacking units.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when_attackers_below: Option<u32>,
        /// Retreat at the end of a round when the chance of winning by
        /// fighting on is below this (0 to 1).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        when_odds_below: Option<f64>,
    },
}

/// When a side's submarines withdraw from a sea battle (Classic, DAAK-C
/// §4.2): `{withdraw_after_round: N}`, as in a battle plan or standing
/// orders (without `to:`, which the odds do not need).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct SubmarineWithdrawal {
    /// Every submarine of the side withdraws at the end of this round
    /// (from 1).
    pub withdraw_after_round: u32,
}

/// A question "what are my chances?" about one battle (`docs/odds.md`).
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct OddsQuery {
    /// The attacking units (with bombarding ships in an amphibious assault).
    pub attackers: UnitsText,
    /// The defending units (an AA gun among them fires at attacking aircraft).
    pub defenders: UnitsText,
    /// `land` or `sea`; when left out, `sea` if a defender is a ship, or
    /// some unit is a ship and none a land unit (and not amphibious), else
    /// `land`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<BattleType>,
    /// An amphibious assault: ships among the attackers bombard in the first
    /// round; ground units never retreat.
    #[serde(default)]
    pub amphibious: bool,
    /// The attacker's order of loss (unit types, first lost first); the
    /// default is the adjudicator's (cheapest first, or the rule set's
    /// standard order: Classic's DAAK order).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub losses: Option<UnitsText>,
    /// The defender's order of loss, as in standing orders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_losses: Option<UnitsText>,
    /// The defender's standing order `keep_one_land_unit`.
    #[serde(default)]
    pub keep_one_land_unit: bool,
    /// The attacker's retreat policy; `never` when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retreat: Option<RetreatRule>,
    /// The attacker's submarines withdraw after a round, as a battle plan's
    /// `submarines:` (rule sets where submarines withdraw: Classic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub submarines: Option<SubmarineWithdrawal>,
    /// The defender's submarines withdraw after a round, as its standing
    /// orders' `submarines:`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_submarines: Option<SubmarineWithdrawal>,
    /// Low Luck; when left out, the game's `low_luck` option.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low_luck: Option<bool>,
    /// The attacker's developments (`[jet fighters, heavy bombers]`, names as
    /// [`Technology::from_name`] reads them); none when left out. Only in a
    /// game that plays research.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_developments: Option<UnitsText>,
    /// The defender's developments (Radar: its AA gun hits on one more).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_developments: Option<UnitsText>,
    /// The power the attackers belong to, where national abilities make it
    /// matter (Advanced AAE: Russian artillery, US marines); the first
    /// power when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attacker_power: Option<String>,
    /// The power the defenders belong to (Advanced AAE: German armor, the
    /// RAF); the first power when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defender_power: Option<String>,
    /// The territory fought over, where it matters (Advanced AAE: British
    /// fighters at home); the board's first space when left out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub territory: Option<String>,
    /// The round of the game, where it matters (Advanced AAE: in round 1
    /// Germany's attack surprises the Russian units in the light-red areas,
    /// AAAE-11); left out, no rule of a particular round applies.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub round: Option<u32>,
    /// J Boulton Supply Strike (JB-32): every defender defends at half,
    /// rounded up.
    #[serde(default)]
    pub supply_strike: bool,
    /// J Boulton Booby Traps (JB-33): this many attacking units, the
    /// weakest, do not roll in round 1.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booby_traps: Option<u32>,
    /// J Boulton Disruption (JB-29): the attacking units that fire their
    /// round-1 shot before the battle, unanswered (`1 armor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disruption: Option<UnitsText>,
    /// Also list every outcome (survivors of each side) with its probability.
    #[serde(default)]
    pub outcomes: bool,
    /// Battles to simulate when only a Monte Carlo estimate is possible.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battles: Option<u64>,
    /// Estimate by simulation even where exact odds are possible (to
    /// compare the two; the exact answer is the better one).
    #[serde(default)]
    pub monte_carlo: bool,
}

impl OddsQuery {
    /// A question with the given sides and every option at its default.
    pub fn new(attackers: &str, defenders: &str) -> OddsQuery {
        OddsQuery {
            attackers: attackers.into(),
            defenders: defenders.into(),
            battle: None,
            amphibious: false,
            losses: None,
            defender_losses: None,
            keep_one_land_unit: false,
            retreat: None,
            submarines: None,
            defender_submarines: None,
            low_luck: None,
            attacker_developments: None,
            defender_developments: None,
            attacker_power: None,
            defender_power: None,
            territory: None,
            round: None,
            supply_strike: false,
            booby_traps: None,
            disruption: None,
            outcomes: false,
            battles: None,
            monte_carlo: false,
        }
    }
}

/// Why a question cannot be answered. Each message names the field.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum OddsError {
    /// Unit lists or orders of loss that do not parse, or units that cannot
    /// be in this battle.
    #[error("{}", .0.join("\n"))]
    Invalid(Vec<String>),
    /// A battle the calculator does not handle (and says why).
    #[error("{0}")]
    Unsupported(String),
}

/// Answers `q` about a battle of `game`: exact odds, or a labelled Monte
/// Carlo estimate where the exact calculator does not apply. The same as
/// [`prepare`] then [`PreparedQuery::compute`].
pub fn answer(game: &GameDef, q: &OddsQuery) -> Result<OddsReport, OddsError> {
    Ok(prepare(game, q)?.compute(game))
}

/// A question read (names resolved, sides ranked in their order of loss)
/// and ready to compute: [`answer`] in two steps, so that the calculation
/// can be timed apart from reading the question.
pub struct PreparedQuery {
    query: OddsQuery,
    prepared: Prepared,
}

/// Reads `q`: every problem with it, or the battle ready to compute.
pub fn prepare(game: &GameDef, q: &OddsQuery) -> Result<PreparedQuery, OddsError> {
    Ok(PreparedQuery {
        query: q.clone(),
        prepared: prepare_battle(game, q)?,
    })
}

impl PreparedQuery {
    /// Computes the odds (`game` must be the one the question was read for).
    pub fn compute(&self, game: &GameDef) -> OddsReport {
        let q = &self.query;
        let battles = q.battles.unwrap_or(DEFAULT_BATTLES).clamp(1, 10_000_000);
        let tally = self.prepared.battle.compute(
            game.unit_types().len(),
            battles,
            seed_of(q),
            q.monte_carlo,
        );
        build(game, q, &self.prepared, &tally)
    }
}

/// A question turned into a battle, with what the report needs to say.
pub(crate) struct Prepared {
    pub battle: Battle,
    pub sea: bool,
    pub amphibious: bool,
    pub attackers: UnitList,
    pub defenders: UnitList,
    pub notes: Vec<String>,
}

/// A seed for the Monte Carlo fallback: the same question, the same estimate.
fn seed_of(q: &OddsQuery) -> u64 {
    let text = format!("{:?}", q);
    // FNV-1a: stable across builds and platforms, unlike the std hasher.
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn prepare_battle(game: &GameDef, q: &OddsQuery) -> Result<Prepared, OddsError> {
    let names = Names::new(game);
    let types = game.unit_types();
    let mut errors = Vec::new();
    let mut list = |what: &str, text: &UnitsText| match names.unit_list(&text.text()) {
        Ok(l) if l.is_empty() => {
            errors.push(format!("{what}: no units given"));
            Vec::new()
        }
        Ok(l) => l,
        Err(es) => {
            errors.extend(es.into_iter().map(|e| format!("{what}: {e}")));
            Vec::new()
        }
    };
    let attackers = list("attackers", &q.attackers);
    let defenders = list("defenders", &q.defenders);
    let mut order = |what: &str, text: &Option<UnitsText>| match text {
        None => Vec::new(),
        Some(t) => names.type_list(&t.text()).unwrap_or_else(|es| {
            errors.extend(es.into_iter().map(|e| format!("{what}: {e}")));
            Vec::new()
        }),
    };
    let losses = order("losses", &q.losses);
    let defender_losses = order("defender_losses", &q.defender_losses);
    let att_techs = developments(game, "attacker_developments", &q.attacker_developments);
    let def_techs = developments(game, "defender_developments", &q.defender_developments);
    let (att_techs, def_techs) = match (att_techs, def_techs) {
        (Ok(a), Ok(d)) => (a, d),
        (a, d) => {
            errors.extend(a.err().into_iter().chain(d.err()).flatten());
            (Vec::new(), Vec::new())
        }
    };
    let low_luck = q.low_luck.unwrap_or(LOW_LUCK.on(game));
    let is_ship = |u: usize| types[u].kind == Some(UnitKind::Sea);
    let sea = match q.battle {
        Some(b) => b == BattleType::Sea,
        // Ships defend only at sea; with no land unit anywhere it is at sea.
        None => {
            let fighting_ship = |c: &UnitCount| is_ship(c.unit) && fights(&types[c.unit]);
            let land = |c: &UnitCount| {
                types[c.unit].kind == Some(UnitKind::Land) && fights(&types[c.unit])
            };
            !q.amphibious
                && (defenders.iter().any(fighting_ship)
                    || (attackers.iter().chain(&defenders).any(fighting_ship)
                        && !attackers.iter().chain(&defenders).any(land)))
        }
    };
    if sea && q.amphibious {
        errors.push("amphibious: an amphibious assault is a land battle".to_owned());
    }
    let policy = match policy(q.retreat.as_ref()) {
        Ok(p) => p,
        Err(e) => {
            errors.push(e);
            Policy::Never
        }
    };
    let mut withdrawals = Withdrawals::default();
    for (field, asked, side) in [
        ("submarines", q.submarines, &mut withdrawals.attacker),
        (
            "defender_submarines",
            q.defender_submarines,
            &mut withdrawals.defender,
        ),
    ] {
        let Some(w) = asked else { continue };
        if !game.combat_rules().submarines_withdraw {
            errors.push(format!(
                "{field}: submarines do not withdraw from battles in {} (DAAK-C §4.2 is \
                 Classic's); leave it out",
                game.id()
            ));
        } else if !sea {
            errors.push(format!(
                "{field}: submarines withdraw from sea battles only"
            ));
        } else if w.withdraw_after_round == 0 {
            errors.push(format!(
                "{field}: withdraw_after_round counts rounds from 1"
            ));
        } else {
            *side = Some(w.withdraw_after_round);
        }
    }
    // Advanced AAE AAAE-46: every submarine of both sides fights one round
    // and then submerges, out of the battle: the calculator plays that as a
    // withdrawal of both sides' submarines after round 1 (they count among
    // their side's survivors, as submerged ones stay in the zone).
    if game.combat_rules().one_round_submarines.is_some() && sea {
        withdrawals = Withdrawals {
            attacker: Some(1),
            defender: Some(1),
        };
        if matches!(policy, Policy::OddsBelow(_))
            && attackers
                .iter()
                .chain(&defenders)
                .any(|c| types[c.unit].has(&Ability::Submerge))
        {
            errors.push(
                "retreat: when_odds_below in a sea battle with submarines, which fight one \
                 round and then submerge (AAAE-46), is not covered: ask with never, after_round \
                 or when_attackers_below"
                    .to_owned(),
            );
        }
    } else if !withdrawals.none() && matches!(policy, Policy::OddsBelow(_)) {
        errors.push(
            "retreat: when_odds_below with a submarine withdrawal is not covered: ask with \
             never, after_round or when_attackers_below"
                .to_owned(),
        );
    }
    // Whose units and where (national abilities, Advanced AAE).
    let mut power = |what: &str, name: &Option<String>| match name {
        None => 0,
        Some(n) => game.power(n).unwrap_or_else(|| {
            errors.push(format!("{what}: no power is called {n}"));
            0
        }),
    };
    let att_power = power("attacker_power", &q.attacker_power);
    let def_power = power("defender_power", &q.defender_power);
    // A sea battle is fought in a sea zone (AAAE-35: fighters' values).
    let first_sea = (0..game.space_count())
        .map(SpaceId)
        .find(|s| game.is_sea(*s));
    let at = match &q.territory {
        None if sea => first_sea.unwrap_or(SpaceId(0)),
        None => SpaceId(0),
        Some(n) => game.space(n).unwrap_or_else(|| {
            errors.push(format!("territory: no space is called {n}"));
            SpaceId(0)
        }),
    };
    let mut notes = Vec::new();
    let mut state = GameState::initial(game);
    state.units.clear();
    let mut next_id = 1u32;
    let mut place = |state: &mut GameState, unit: usize, count: u32, owner: usize| -> Vec<u32> {
        let mut ids = Vec::new();
        for _ in 0..count {
            state.units.push(Unit {
                id: next_id,
                unit,
                owner,
                at,
                moved: 0,
                combat_moved: false,
                hits: 0,
                cargo_of: None,
                submerged: false,
                unloaded_from: None,
                unloaded_by: None,
                unloaded_to: None,
            });
            ids.push(next_id);
            next_id += 1;
        }
        ids
    };
    let mut att_ids = Vec::new();
    let mut bombard = Vec::new();
    for c in &attackers {
        let t = &types[c.unit];
        let bombard_value = t.abilities.iter().find_map(|a| match a {
            Ability::Bombard(n) => Some(*n),
            _ => None,
        });
        if !fights(t) {
            errors.push(format!(
                "attackers: {} never takes part in a battle; leave it out",
                t.name
            ));
        } else if !sea && t.kind == Some(UnitKind::Sea) {
            match bombard_value {
                Some(v) if q.amphibious => {
                    super::dist::add(&mut bombard, c.unit, false, v, 1, c.count);
                }
                _ => errors.push(format!(
                    "attackers: {} cannot fight in a land battle{}",
                    t.name,
                    if q.amphibious {
                        ""
                    } else {
                        " (ships bombard only in an amphibious assault: amphibious: true)"
                    }
                )),
            }
        } else if sea && t.kind == Some(UnitKind::Land) {
            errors.push(format!(
                "attackers: {} cannot fight in a sea battle (cargo does not fight)",
                t.name
            ));
        } else {
            let ids = place(&mut state, c.unit, c.count, att_power);
            // In an amphibious question every attacking land unit landed
            // from a transport (Advanced AAE: the marines, AAAE-27).
            if q.amphibious && t.kind == Some(UnitKind::Land) {
                for u in state.units.iter_mut().filter(|u| ids.contains(&u.id)) {
                    u.unloaded_from = first_sea;
                }
            }
            att_ids.extend(ids);
        }
    }
    let mut def_ids = Vec::new();
    let mut forts = 0u32;
    let mut aa = None;
    for c in &defenders {
        let t = &types[c.unit];
        let aa_value = t.abilities.iter().find_map(|a| match a {
            Ability::AntiAircraft(n) => Some(*n),
            _ => None,
        });
        if let Some(v) = aa_value
            && !sea
        {
            aa = aa.max(Some(v));
        }
        let fortification =
            crate::rules::combat::fortifications::is_fortification(game, &game.combat_rules(), t);
        if fortification && !sea {
            // AAAE-29: it never fires, raises infantry and may be lost.
            forts += c.count;
            def_ids.extend(place(&mut state, c.unit, c.count, def_power));
        } else if !fights(t) {
            if aa_value.is_none() || sea {
                notes.push(format!("{} does not fight and is left out", t.name));
            }
        } else if !sea && t.kind == Some(UnitKind::Sea) {
            errors.push(format!(
                "defenders: {} cannot defend a territory; a land battle has no ships",
                t.name
            ));
        } else if sea && t.kind == Some(UnitKind::Land) {
            errors.push(format!(
                "defenders: {} cannot fight in a sea battle (cargo does not fight)",
                t.name
            ));
        } else {
            def_ids.extend(place(&mut state, c.unit, c.count, def_power));
        }
    }
    if errors.is_empty() && att_ids.is_empty() {
        errors.push("attackers: no unit that fights".to_owned());
    }
    if errors.is_empty() && def_ids.len() as u64 == u64::from(forts) {
        errors.push("defenders: no unit that fights".to_owned());
    }
    let disruption = match &q.disruption {
        None => Vec::new(),
        Some(t) => names.unit_list(&t.text()).unwrap_or_else(|es| {
            errors.extend(es.into_iter().map(|e| format!("disruption: {e}")));
            Vec::new()
        }),
    };
    let missions = super::missions::read(
        game,
        (q.supply_strike, q.booby_traps, disruption),
        &attackers,
        sea,
        &mut errors,
    );
    for t in &losses {
        if !attackers.iter().any(|c| c.unit == *t) {
            errors.push(format!(
                "losses: {} is not among the attackers",
                types[*t].name
            ));
        }
    }
    if !errors.is_empty() {
        return Err(OddsError::Invalid(errors));
    }
    let att_air = att_ids
        .iter()
        .filter_map(|id| state.unit(*id))
        .any(|u| types[u.unit].kind == Some(UnitKind::Air));
    let policy = if q.amphibious && policy != Policy::Never {
        if att_air {
            return Err(OddsError::Unsupported(
                "a retreat from an amphibious assault takes only the aircraft out and the \
                 ground units fight on; the calculator does not cover that: ask without \
                 retreat"
                    .to_owned(),
            ));
        }
        notes.push(if game.combat_rules().only_landed_units_stay {
            "the landed units never retreat from an amphibious assault (AAAE-42), and in an \
             amphibious question every attacking land unit landed"
                .to_owned()
        } else {
            "ground units in an amphibious assault never retreat".to_owned()
        });
        Policy::Never
    } else {
        policy
    };
    // Each side belongs to one power (the first unless the question names
    // it) and is ranked in a state of its own holding that side's
    // developments, so that they never mix.
    let mut def_state = state.clone();
    def_state.technologies[def_power] = def_techs.clone();
    state.technologies[att_power] = att_techs.clone();
    // Radar: the defender's AA gun hits on one more (`combat::enemy_aa`).
    let aa = aa.map(|v| v + u8::from(def_techs.contains(&Technology::Radar)));
    notes.extend(development_notes(game, &att_techs, &def_techs, low_luck));
    let att_chooser = Chooser::Attacker {
        losses: &losses,
        source: "the question's order of loss".to_owned(),
        power: att_power,
        standing: &[],
    };
    // Standing orders are read by the owner's index: the defender's.
    let mut standing = vec![StandingOrders::default(); def_power + 1];
    standing[def_power] = StandingOrders {
        losses: defender_losses,
        keep_one_land_unit: q.keep_one_land_unit,
        submarines: SubmarinePolicy::Fight,
        intercept: None,
        bystander_losses: Default::default(),
        middle_east_payment: Default::default(),
        neutral_defenders: Default::default(),
        aversion: Vec::new(),
        averted: Default::default(),
        teams: Default::default(),
    };
    let def_chooser = Chooser::Defender {
        standing: &standing,
        land: !sea,
    };
    // Advanced AAE AAAE-11: in the surprise attack's round the attacker's
    // turn catches the defenders in its region; they hold their fire in
    // round 1 (and, where the rule says so, their AA guns do not fire).
    let surprise = game.combat_rules().first_round_surprise.filter(|s| {
        q.round == Some(s.game_round)
            && game.power(s.attacker) == Some(att_power)
            && game.power(s.surprised) == Some(def_power)
            && game.region(s.region).is_some_and(|r| r.contains(&at))
    });
    let mut def = Side::ranked(game, &def_state, &def_ids, &def_chooser, false);
    let mut aa = if att_air { aa } else { None };
    if let Some(s) = surprise {
        for slot in &mut def.slots {
            slot.silent_first_round = true;
        }
        if s.aa_guns {
            aa = None;
        }
        notes.push(format!(
            "the surprise attack: {}'s units in {} do not fire in the first round{} \
             (AAAE-11)",
            game.powers()[def_power].name,
            game.space_name(at),
            if s.aa_guns {
                ", nor do their AA guns"
            } else {
                ""
            }
        ));
    }
    let mut att = Side::ranked(game, &state, &att_ids, &att_chooser, true);
    // Advanced AAE AAAE-41: the landed units hold their fire in round 1.
    if q.amphibious && game.combat_rules().landed_units_hold_fire_first_round {
        for slot in &mut att.slots {
            slot.silent_first_round = types[slot.unit].kind == Some(UnitKind::Land);
        }
        notes.push(
            "every attacking land unit landed from a transport, and landed units do not fire \
             in the first round (AAAE-41)"
                .to_owned(),
        );
    }
    let pre_strike =
        super::missions::apply(game, &missions, &mut att, &mut def, low_luck, &mut notes);
    let battle = Battle {
        att,
        def,
        low_luck,
        aa,
        bombard,
        policy,
        first_strike_once: game.combat_rules().first_strike_first_round_only,
        withdrawals,
        pre_strike,
    };
    if matches!(policy, Policy::OddsBelow(_)) && (q.monte_carlo || !battle.exact()) {
        return Err(OddsError::Unsupported(format!(
            "when_odds_below needs exact odds, and this battle has only a Monte Carlo \
                 estimate (more than {} states with submarines and aircraft at sea, more \
                 than {} otherwise)",
            super::MAX_MIXED_STATES,
            super::MAX_EXACT_STATES
        )));
    }
    let sea_subs = battle
        .att
        .slots
        .iter()
        .chain(&battle.def.slots)
        .any(|s| s.hidden || s.first_strike);
    let w = battle.withdrawals.of(&battle.att, &battle.def);
    for (who, round) in [("attacking", w.attacker), ("defending", w.defender)] {
        if let Some(n) = round {
            notes.push(format!(
                "the {who} submarines withdraw after round {n} (DAAK-C §4.2), always to a \
                 zone open to them, and count among the survivors"
            ));
        }
    }
    if sea_subs && w.none() {
        notes.push("submarines fight; none submerges".to_owned());
    }
    let carrier = |c: &UnitCount| types[c.unit].carrier_capacity.unwrap_or(0) > 0;
    let air = |c: &UnitCount| types[c.unit].kind == Some(UnitKind::Air);
    if sea && defenders.iter().any(carrier) && defenders.iter().any(air) {
        notes.push(
            "defending aircraft whose carrier sinks count among the survivors; where they \
             land, or whether they are lost, is decided after the battle"
                .to_owned(),
        );
    }
    Ok(Prepared {
        battle,
        sea,
        amphibious: q.amphibious,
        attackers,
        defenders,
        notes,
    })
}

/// Whether development `t` changes a battle for the attacker (or the
/// defender): its values in the game's data (`research.effects`), or a rule
/// of the engine (Improved Artillery Support; Radar for the defender's AA).
fn changes_battle(game: &GameDef, t: Technology, attacking: bool) -> bool {
    let rule = if attacking {
        t == Technology::ImprovedArtillerySupport
    } else {
        t == Technology::Radar
    };
    rule || game.development_values().iter().any(|(d, v)| {
        *d == t
            && if attacking {
                v.attack != 0 || v.dice.is_some()
            } else {
                v.defense != 0
            }
    })
}

/// The developments named in `field`, or every problem with them: unknown
/// names (listing the valid ones), or any at all in a game without research.
fn developments(
    game: &GameDef,
    field: &str,
    text: &Option<UnitsText>,
) -> Result<Vec<Technology>, Vec<String>> {
    let Some(text) = text else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for name in text
        .text()
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
    {
        match Technology::from_name(name) {
            Some(t) if !out.contains(&t) => out.push(t),
            Some(_) => {}
            None => {
                let all: Vec<&str> = Technology::ALL.iter().map(|t| t.name()).collect();
                errors.push(format!(
                    "{field}: no development {name:?}; the developments are {}",
                    all.join(", ")
                ));
            }
        }
    }
    if !out.is_empty()
        && let Some(reason) = research::refusal_for_game(game)
    {
        errors.push(format!(
            "{field}: {reason}, so no power has developments; leave {field} out"
        ));
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// What the report says about the sides' developments.
fn development_notes(
    game: &GameDef,
    att: &[Technology],
    def: &[Technology],
    low_luck: bool,
) -> Vec<String> {
    let mut notes = Vec::new();
    for (who, techs, attacking) in [("attacker", att, true), ("defender", def, false)] {
        if techs.is_empty() {
            continue;
        }
        let names: Vec<&str> = techs.iter().map(|t| t.name()).collect();
        notes.push(format!("{who}'s developments: {}", names.join(", ")));
        let idle: Vec<&str> = techs
            .iter()
            .filter(|t| !changes_battle(game, **t, attacking))
            .map(|t| t.name())
            .collect();
        if !idle.is_empty() {
            notes.push(format!(
                "no effect in a battle for the {who}: {}",
                idle.join(", ")
            ));
        }
    }
    let best_die_only = game
        .development_values()
        .iter()
        .any(|(t, v)| att.contains(t) && v.best_die_only);
    if low_luck && best_die_only {
        notes.push(
            "Low Luck: heavy bombers count their attack once, as the adjudicator does \
             (no second die)"
                .to_owned(),
        );
    }
    notes
}

/// The retreat rule as a policy.
fn policy(rule: Option<&RetreatRule>) -> Result<Policy, String> {
    let forms = "retreat is never, {after_round: N}, {when_attackers_below: N} or \
                 {when_odds_below: P}";
    match rule {
        None => Ok(Policy::Never),
        Some(RetreatRule::Word(w)) if w.trim().eq_ignore_ascii_case("never") => Ok(Policy::Never),
        Some(RetreatRule::Word(w)) => Err(format!("retreat: \"{w}\" is not a retreat; {forms}")),
        Some(RetreatRule::Rule {
            after_round,
            when_attackers_below,
            when_odds_below,
        }) => match (after_round, when_attackers_below, when_odds_below) {
            (Some(0), None, None) => Err("retreat: after_round must be at least 1".to_owned()),
            (Some(n), None, None) => Ok(Policy::AfterRound(*n)),
            (None, Some(n), None) => Ok(Policy::AttackersBelow(*n)),
            (None, None, Some(p)) if p.is_finite() && *p > 0.0 && *p <= 1.0 => {
                Ok(Policy::OddsBelow(*p))
            }
            (None, None, Some(p)) => Err(format!(
                "retreat: when_odds_below takes a probability above 0 and at most 1, not {p}"
            )),
            _ => Err(format!("retreat: one condition only; {forms}")),
        },
    }
}
