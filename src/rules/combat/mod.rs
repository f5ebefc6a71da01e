//! The combat phase: every battle of the moving power, fought round by round
//! with labelled dice (`docs/rules/combat-labels.md`), driven by its battle
//! plans and the defenders' standing orders.
//!
//! Order of play, fixed so that a log replays the same way (each label's
//! dice do not depend on it anyway): AA fire at aircraft that flew over
//! enemy AA guns in the combat move ([`aa_guns`]); empty territories taken
//! in passing by a blitz; sea battles, in board order, before the land
//! battles they feed (an amphibious assault needs its sea zone cleared),
//! each followed by the landing of defending aircraft whose carrier sank;
//! then land battles and strategic bombing raids, in board order. Within a
//! battle ([`battle`]): AA fire at attacking aircraft, then rounds
//! (attacking submarines' first strike, the attacker's fire with
//! bombardment in the first round of an amphibious assault, the defender's
//! fire, casualties, the attacker's retreat decision). Casualties are chosen
//! by [`casualties`], retreats by [`retreat`], raids by
//! [`strategic_bombing`]. Interpretations and their sources:
//! `docs/rules/aae.md`, section "Combat".
//!
//! Every error (a plan naming units not in its battle, an impossible order
//! of loss, a retreat to a space no attacker came from, a raid that cannot
//! be made) is found before any die is drawn, and then nothing changes.

mod aa_guns;
mod battle;
pub(crate) mod casualties;
mod coastal_fire;
mod fire;
pub(crate) mod fortifications;
pub(crate) mod national_abilities;
mod paradrop;
mod retreat;
pub mod rockets;
pub mod ship_damage;
pub(crate) mod special_force_missions;
mod special_force_teams;
mod strategic_bombing;
pub mod submarines;
mod withdrawal;

use crate::dice::{DiceSource, Label};
use crate::rules::conquest::{allied, capture_territory, is_warship, take_convoy};
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind, UnitType};
use crate::rules::movement::air_transport::is_air_transport;
use crate::rules::options::LOW_LUCK;
use crate::rules::orders::{
    BattlePlan, BystanderLosses, Located, MoveOrder, OrderError, Origin, Retreat, SubmarinePolicy,
};
use crate::rules::state::{GameState, Unit};
use crate::rules::variants::CombatRules;
use crate::rules::vocab::PowerId;
use crate::rules::vocab::Technology;
use crate::rules::{GameDef, SpaceId};

pub(crate) use special_force_teams::is_team as is_special_force_team;

/// What the combat phase did, as far as the turn sequence cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CombatOutcome {
    /// Some die was drawn, so the outcome could not be known when the orders
    /// were written (stage-2 orders sent with stage 1 that no longer fit are
    /// then set aside rather than rejecting the message).
    pub dice_rolled: bool,
    /// Some battle needs dice that were not given (validation before the
    /// turn's secret is revealed); nothing was changed. Always false when
    /// dice were given: every battle was fought.
    pub needs_dice: bool,
}

/// What the attacker declared in its battle plans besides retreats and
/// losses: strategic bombing raids (declared on arrival) and its submarines'
/// policy per battle (`None` = the default plan); and what its stage's
/// Industrial Strikes leave for teams dropped alone (J Boulton).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Declarations {
    /// Territories where the attacker's aircraft make a strategic bombing
    /// raid instead of a battle.
    pub bombing_raids: Vec<SpaceId>,
    /// What attacking submarines do: `Submerge` before the first round is
    /// substalling (FAQ); `SubmergeAfterFirstRound` submerges before they
    /// roll in round 2.
    pub submarines: Vec<(Option<SpaceId>, SubmarinePolicy)>,
    /// J Boulton: the Industrial Strikes ordered for special force teams
    /// dropped alone this turn, made by those that roll 6 on landing.
    pub surprise_strikes: Vec<SurpriseStrike>,
}

/// What a stage's `industrial_strike` order leaves for the attacker's
/// special force teams dropped alone into a territory this turn (J Boulton
/// JB-16, JB-31): up to `teams` of those that roll 6 on landing strike at
/// once, without detection or mission roll; `paid` is what the turn's
/// earlier strike on the territory took (option `industrial_strike_cap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SurpriseStrike {
    /// The territory of the enemy industrial complex.
    pub space: SpaceId,
    /// How many of the teams that roll 6 strike.
    pub teams: u32,
    /// IPCs the turn's strikes on the territory took before the drop.
    pub paid: u32,
}

impl Declarations {
    /// The declarations of a set of battle plans.
    pub fn of_plans(plans: &[Located<BattlePlan>]) -> Declarations {
        Declarations {
            bombing_raids: plans
                .iter()
                .filter(|p| p.item.bombing_raid || !p.item.raiders.is_empty())
                .filter_map(|p| p.item.space)
                .collect(),
            submarines: plans
                .iter()
                .filter_map(|p| p.item.submarines.map(|s| (p.item.space, s)))
                .collect(),
            surprise_strikes: Vec::new(),
        }
    }
}

/// Checks the battle plans against the pending battles: at most one plan per
/// battle and one `default`, each for a space where a battle is pending.
pub fn check_plans(
    game: &GameDef,
    state: &GameState,
    plans: &[Located<BattlePlan>],
) -> Vec<OrderError> {
    let mut errors = Vec::new();
    for (i, plan) in plans.iter().enumerate() {
        let earlier = &plans[..i];
        match plan.item.space {
            None if earlier.iter().any(|p| p.item.space.is_none()) => errors.push(OrderError::new(
                &plan.origin,
                "more than one default battle plan",
            )),
            None if plan.item.bombing_raid || !plan.item.raiders.is_empty() => errors.push(
                OrderError::new(
                    &plan.origin,
                    "a strategic bombing raid is declared in the plan for its territory, not in \
                     the default plan",
                )
                .field("bombing_raid"),
            ),
            None if plan.item.ignore => errors.push(
                OrderError::new(
                    &plan.origin,
                    "ignoring enemy submarines and transports is declared in the plan for their \
                     sea zone, not in the default plan",
                )
                .field("ignore"),
            ),
            None => {}
            Some(s) if earlier.iter().any(|p| p.item.space == Some(s)) => {
                errors.push(OrderError::new(
                    &plan.origin,
                    format!("a second battle plan for {}", game.space_name(s)),
                ))
            }
            // A raid's target need hold no defender: the bombers attack its
            // industrial complex (`validate` checks that the raid can be made).
            Some(s)
                if !state.battles.contains(&s)
                    && !plan.item.bombing_raid
                    && plan.item.raiders.is_empty() =>
            {
                errors.push(OrderError::new(
                    &plan.origin,
                    format!(
                        "no battle is fought in {} this turn: a battle plan is for a space the \
                     combat moves attack",
                        game.space_name(s)
                    ),
                ))
            }
            Some(_) => {}
        }
        if let Some(why) = plan
            .item
            .submarines
            .and_then(|p| submarines::one_round_submerge_problem(game, p))
        {
            errors.push(OrderError::new(&plan.origin, why).field("submarines"));
        }
        if let Some(why) = plan
            .item
            .landing
            .as_ref()
            .and_then(|l| paradrop::landing_problem(game, l))
        {
            errors.push(OrderError::new(&plan.origin, why).field("landing"));
        }
    }
    errors
}

/// Fights `power`'s pending battles (`state.battles`) and clears them.
///
/// With `dice == None` (validation, before the turn's secret is revealed)
/// only battles that need no dice are settled, and only when no battle
/// needs dice; otherwise the state is left as it was and the outcome says
/// `needs_dice`. With dice every battle is fought and this never fails once
/// validation passed. Errors are found before any die is drawn.
pub fn fight_battles(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<MoveOrder>],
    plans: &[Located<BattlePlan>],
    dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> Result<CombatOutcome, Vec<OrderError>> {
    fight_battles_declared(
        game,
        state,
        power,
        orders,
        plans,
        &Declarations::of_plans(plans),
        dice,
        events,
    )
}

/// [`fight_battles`] with explicit [`Declarations`] (strategic bombing raids
/// and the attacker's submarine policy) instead of those of the plans.
#[allow(clippy::too_many_arguments)]
pub fn fight_battles_declared(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<MoveOrder>],
    plans: &[Located<BattlePlan>],
    declarations: &Declarations,
    dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> Result<CombatOutcome, Vec<OrderError>> {
    let ctx = Ctx {
        game,
        power,
        orders,
        plans,
        decl: declarations,
        battles: state.battles.clone(),
        low_luck: LOW_LUCK.on(game),
        rules: game.combat_rules(),
    };
    let errors = validate(&ctx, state);
    if !errors.is_empty() {
        return Err(errors);
    }
    let needs_dice = needs_dice(&ctx, state);
    match dice {
        None if needs_dice => Ok(CombatOutcome {
            dice_rolled: false,
            needs_dice: true,
        }),
        None => {
            resolve(&ctx, state, None, events);
            Ok(CombatOutcome::default())
        }
        Some(dice) => {
            let before = dice.drawn();
            resolve(&ctx, state, Some(dice), events);
            let after = dice.drawn();
            Ok(CombatOutcome {
                dice_rolled: after > before,
                needs_dice: false,
            })
        }
    }
}

/// Everything a battle needs to know about the attack.
/// Whether attacking artillery raises `t`: infantry (`artillery_supportable`)
/// and, where the rule set says so, mechanized infantry (J Boulton JB-37,
/// option `mech_artillery_support`).
pub(crate) fn supportable(rules: &CombatRules, t: &UnitType) -> bool {
    t.has(&Ability::ArtillerySupportable)
        || (rules.artillery_supports_mechanized && t.has(&Ability::Mechanized))
}

/// Fighters (aircraft that are not strategic bombers) that the combat
/// orders flew into `space` from a sea zone: they began the turn on a
/// carrier (Advanced AAE AAAE-35 PROPOSAL; units make one move a phase, so
/// a combat order's path starts where the turn began).
pub(crate) fn fighters_from_sea(ctx: &Ctx, space: SpaceId) -> usize {
    ctx.orders
        .iter()
        .filter_map(|o| match &o.item {
            MoveOrder::Move { units, path, .. }
                if path.last() == Some(&space)
                    && path.first().is_some_and(|s| ctx.game.is_sea(*s)) =>
            {
                Some(units)
            }
            _ => None,
        })
        .flatten()
        .filter(|c| {
            let t = &ctx.game.unit_types()[c.unit];
            t.kind == Some(UnitKind::Air) && !t.has(&Ability::StrategicBomber)
        })
        .map(|c| c.count as usize)
        .sum()
}

/// The attack value of a unit out of supply: half, rounded up (J Boulton
/// JB-40: 1 and 2 → 1, 3 and 4 → 2).
pub(crate) fn out_of_supply(strength: u8) -> u8 {
    strength.div_ceil(2)
}

pub(crate) struct Ctx<'a> {
    pub game: &'a GameDef,
    pub power: PowerId,
    pub orders: &'a [Located<MoveOrder>],
    pub plans: &'a [Located<BattlePlan>],
    pub decl: &'a Declarations,
    /// The spaces where battles are fought this turn (as the combat phase
    /// began): defending submarines do not withdraw into one (DAAK-C
    /// §4.2(d)).
    pub battles: Vec<SpaceId>,
    pub low_luck: bool,
    /// Where the rule set's combat differs from AAE's.
    pub rules: CombatRules,
}

impl<'a> Ctx<'a> {
    pub fn ut(&self, u: &Unit) -> &'a UnitType {
        &self.game.unit_types()[u.unit]
    }

    /// The plan for a battle: its own, else the default.
    pub fn plan(&self, space: SpaceId) -> Option<&'a Located<BattlePlan>> {
        self.plans
            .iter()
            .find(|p| p.item.space == Some(space))
            .or_else(|| self.plans.iter().find(|p| p.item.space.is_none()))
    }

    /// How the plan is named in the log.
    pub fn plan_source(&self, space: SpaceId) -> String {
        match self.plan(space).map(|p| p.item.space) {
            Some(Some(s)) => format!("battle plan for {}", self.game.space_name(s)),
            Some(None) => "default battle plan".into(),
            None => "no battle plan".into(),
        }
    }

    pub fn attacker_subs(&self, space: SpaceId) -> SubmarinePolicy {
        self.decl
            .submarines
            .iter()
            .find(|(s, _)| *s == Some(space))
            .or_else(|| self.decl.submarines.iter().find(|(s, _)| s.is_none()))
            .map(|(_, p)| *p)
            .unwrap_or_default()
    }

    /// The attacker ignores the enemy units in this sea zone (battle plan
    /// `ignore`; only where the rule set allows it, checked by `validate`).
    pub fn ignores(&self, space: SpaceId) -> bool {
        self.plans
            .iter()
            .any(|p| p.item.space == Some(space) && p.item.ignore)
    }

    pub fn is_raid(&self, space: SpaceId) -> bool {
        self.decl.bombing_raids.contains(&space)
    }

    /// The raiders named in the plan for `space` (empty: every attacker
    /// there raids).
    pub fn named_raiders(&self, space: SpaceId) -> &'a [crate::rules::vocab::UnitCount] {
        self.plans
            .iter()
            .find(|p| p.item.space == Some(space))
            .map_or(&[], |p| p.item.raiders.as_slice())
    }
}

/// A dice label from segments. A name containing `/` (none in the shipped
/// games) has it replaced by `-`, so that building a label never fails.
pub(crate) fn label<S: AsRef<str>>(segments: &[S]) -> Label {
    let clean: Vec<String> = segments
        .iter()
        .map(|s| {
            let s = s.as_ref().replace('/', "-");
            if s.is_empty() { "-".to_owned() } else { s }
        })
        .collect();
    Label::from_segments(&clean).expect("combat labels are short and printable")
}

/// A unit that takes part in battles at all (not a building, not a unit
/// taken with its territory, not one that never fights).
pub(crate) fn fights(t: &UnitType) -> bool {
    t.kind != Some(UnitKind::Building)
        && !t.has(&Ability::CapturedWithTerritory)
        && !t.has(&Ability::NoCombat)
}

/// The attacker's units in the battle: not cargo, not submerged, not an
/// air transport (J Boulton JB-07 PROPOSAL: it never attacks and is never
/// an attacking casualty).
pub(crate) fn attackers(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    state
        .units_at(space)
        .filter(|u| u.owner == ctx.power && u.cargo_of.is_none() && !u.submerged)
        .filter(|u| fights(ctx.ut(u)) && !is_air_transport(ctx.ut(u)))
        .map(|u| u.id)
        .collect()
}

/// Ships of the attacker's allies in the zone: they do not fight but may
/// take hits and their destroyers reveal submarines (AAE FAQ). None where
/// the rule set keeps allies out of the battle entirely.
pub(crate) fn bystanders(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    if !ctx.rules.allied_bystanders {
        return Vec::new();
    }
    state
        .units_at(space)
        .filter(|u| {
            u.owner != ctx.power
                && allied(ctx.game, u.owner, ctx.power)
                && u.cargo_of.is_none()
                && !u.submerged
                && ctx.ut(u).kind == Some(UnitKind::Sea)
        })
        .map(|u| u.id)
        .collect()
}

/// The enemy units that fight in the battle: in play, not cargo.
pub(crate) fn defenders(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<u32> {
    state
        .units_at(space)
        .filter(|u| !allied(ctx.game, u.owner, ctx.power) && u.cargo_of.is_none() && !u.submerged)
        .filter(|u| fights(ctx.ut(u)))
        .map(|u| u.id)
        .collect()
}

/// Whether units of `owner` in `space` are caught by the rule set's
/// surprise attack in this turn ([`CombatRules::first_round_surprise`](crate::rules::variants::CombatRules::first_round_surprise)):
/// they do not fire in the first round of a battle.
pub(crate) fn surprised(ctx: &Ctx, state: &GameState, space: SpaceId, owner: PowerId) -> bool {
    let Some(s) = ctx.rules.first_round_surprise else {
        return false;
    };
    state.round == s.game_round
        && ctx.game.power(s.attacker) == Some(ctx.power)
        && ctx.game.power(s.surprised) == Some(owner)
        && ctx
            .game
            .region(s.region)
            .is_some_and(|r| r.contains(&space))
}

/// Enemy AA guns in a territory: the best hit value, if any.
pub(crate) fn enemy_aa(ctx: &Ctx, state: &GameState, space: SpaceId) -> Option<u8> {
    if ctx.game.is_sea(space) {
        return None;
    }
    state
        .units_at(space)
        .filter(|u| !allied(ctx.game, u.owner, ctx.power))
        // Advanced AAE: AA guns caught by the surprise attack stay silent.
        .filter(|u| {
            !(ctx.rules.first_round_surprise.is_some_and(|s| s.aa_guns)
                && surprised(ctx, state, space, u.owner))
        })
        .filter_map(|u| {
            ctx.ut(u)
                .abilities
                .iter()
                .find_map(|a| match a {
                    Ability::AntiAircraft(n) => Some(*n),
                    _ => None,
                })
                // Radar: the gun's owner hits on one more (1-2 in Anniversary).
                .map(|n| n + u8::from(state.has_technology(u.owner, Technology::Radar)))
        })
        .max()
}

/// Removes unit `id` from the board (and from this turn's drops) with the
/// event of its loss, `reason` saying why; nothing when it is gone.
pub(crate) fn remove_unit(state: &mut GameState, id: u32, reason: String, events: &mut Vec<Event>) {
    let Some(u) = state.unit(id) else {
        return;
    };
    events.push(Event::Casualty {
        space: u.at,
        power: u.owner,
        unit: u.unit,
        destroyed: true,
        reason,
    });
    state.units.retain(|c| c.id != id);
    state.paradropped.retain(|c| *c != id);
}

/// The units `ids` still on the board grouped by `key` (their owner, their
/// type): each key once, ascending, with its units in unit id order.
pub(crate) fn group_units<K: Ord + Copy>(
    state: &GameState,
    ids: &[u32],
    key: impl Fn(&Unit) -> K,
) -> Vec<(K, Vec<u32>)> {
    let mut keyed: Vec<(K, u32)> = ids
        .iter()
        .filter_map(|&id| state.unit(id).map(|u| (key(u), id)))
        .collect();
    keyed.sort_unstable();
    keyed.dedup();
    let mut groups: Vec<(K, Vec<u32>)> = Vec::new();
    for (k, id) in keyed {
        match groups.last_mut() {
            Some((last, units)) if *last == k => units.push(id),
            _ => groups.push((k, vec![id])),
        }
    }
    groups
}

/// Removes a unit and its cargo; logs lost cargo.
pub(crate) fn destroy(
    ctx: &Ctx,
    state: &mut GameState,
    id: u32,
    space: SpaceId,
    events: &mut Vec<Event>,
) {
    let cargo: Vec<(PowerId, usize)> = state
        .units
        .iter()
        .filter(|u| u.cargo_of == Some(id))
        .map(|u| (u.owner, u.unit))
        .collect();
    // Allied aircraft riding a carrier are its cargo too (movement::air).
    let carrier = state
        .unit(id)
        .is_some_and(|u| ctx.ut(u).carrier_capacity.unwrap_or(0) > 0);
    for (power, unit) in cargo {
        events.push(Event::Casualty {
            space,
            power,
            unit,
            destroyed: true,
            reason: if carrier {
                "rule: allied aircraft carried as cargo go down with their carrier".into()
            } else {
                "rule: cargo goes down with its transport".into()
            },
        });
    }
    state.units.retain(|u| u.id != id && u.cargo_of != Some(id));
}

/// Errors in the plans and declarations, before any die.
fn validate(ctx: &Ctx, state: &GameState) -> Vec<OrderError> {
    let game = ctx.game;
    let mut errors = Vec::new();
    for plan in ctx.plans {
        let p = &plan.item;
        let types = game.unit_types();
        for (i, t) in p.losses.iter().enumerate() {
            if p.losses[..i].contains(t) {
                errors.push(
                    OrderError::new(
                        &plan.origin,
                        format!(
                            "impossible order of loss: {} is listed twice",
                            types[*t].name
                        ),
                    )
                    .field("losses"),
                );
            } else if !fights(&types[*t]) {
                errors.push(
                    OrderError::new(
                        &plan.origin,
                        format!(
                            "impossible order of loss: {} never takes part in a battle, so it \
                             is never a casualty",
                            types[*t].name
                        ),
                    )
                    .field("losses"),
                );
            }
        }
        if let Some(space) = p.space {
            let here = attackers(ctx, state, space);
            let standing_by = bystanders(ctx, state, space);
            let lent = |owner: PowerId| {
                state
                    .standing
                    .get(owner)
                    .is_some_and(|s| s.bystander_losses == BystanderLosses::AlliesChoose)
            };
            for t in &p.losses {
                let of_type = |id: &u32| state.unit(*id).filter(|u| u.unit == *t);
                if here.iter().any(|id| of_type(id).is_some())
                    || standing_by
                        .iter()
                        .any(|id| of_type(id).is_some_and(|u| lent(u.owner)))
                {
                    continue;
                }
                let mut reason = format!(
                    "the battle plan for {} names {}, but no attacking {} is in that battle",
                    game.space_name(space),
                    types[*t].name,
                    types[*t].name
                );
                // An ally's ship of that type is there, but its owner has not
                // left its losses to the attacker's plan.
                if let Some(owner) = standing_by
                    .iter()
                    .find_map(|id| of_type(id).map(|u| u.owner))
                {
                    reason.push_str(&format!(
                        "; the {} {} standing by is named in your plan only when {}'s standing \
                         orders say bystander_losses: allies_choose",
                        game.powers()[owner].name,
                        types[*t].name,
                        game.powers()[owner].name
                    ));
                }
                errors.push(OrderError::new(&plan.origin, reason).field("losses"));
            }
        }
        if let Some(to) = p.retreat_to {
            let battles: Vec<SpaceId> = match p.space {
                Some(s) => vec![s],
                None => state.battles.clone(),
            };
            let ok = battles
                .iter()
                .any(|b| retreat::came_from(ctx, *b).contains(&to));
            if !ok {
                let which = match p.space {
                    Some(s) => format!("the battle in {}", game.space_name(s)),
                    None => "any battle".into(),
                };
                errors.push(
                    OrderError::new(
                        &plan.origin,
                        format!(
                            "no attacker of {which} came from {}: a retreat goes to an adjacent \
                             space the attackers came from",
                            game.space_name(to)
                        ),
                    )
                    .field("retreat_to"),
                );
            } else if game.is_sea(to)
                && state.units_at(to).any(|u| {
                    !allied(game, u.owner, ctx.power)
                        && !u.submerged
                        && ctx.ut(u).kind == Some(UnitKind::Sea)
                })
            {
                errors.push(
                    OrderError::new(
                        &plan.origin,
                        format!(
                            "{} holds enemy ships: a fleet cannot retreat into a battle",
                            game.space_name(to)
                        ),
                    )
                    .field("retreat_to"),
                );
            }
        }
        if let Some(SubmarinePolicy::WithdrawAfterRound { to, .. }) = p.submarines
            && let Err(reason) = withdrawal::check_plan(ctx, state, p.space, to)
        {
            errors.push(OrderError::new(&plan.origin, reason).field("submarines"));
        }
        if p.screen > 0
            && let Err(reason) = submarines::check_screen(ctx, state, p.space, p.screen)
        {
            errors.push(OrderError::new(&plan.origin, reason).field("screen"));
        }
        for reason in special_force_teams::check_plan(ctx, state, p.space, &p.teams) {
            errors.push(OrderError::new(&plan.origin, reason).field("special_force_teams"));
        }
        if let (true, Some(space)) = (p.ignore, p.space)
            && let Err(reason) = check_ignore(ctx, state, space)
        {
            errors.push(OrderError::new(&plan.origin, reason).field("ignore"));
        }
        if let Retreat::AfterRound(0) = p.retreat {
            errors.push(
                OrderError::new(
                    &plan.origin,
                    "after_round must be at least 1: attackers retreat at the end of a round",
                )
                .field("retreat"),
            );
        }
    }
    for &space in &ctx.decl.bombing_raids {
        if let Err(reason) = strategic_bombing::check(ctx, state, space) {
            let origin = Origin {
                section: "battles",
                ..Origin::default()
            };
            errors.push(OrderError::new(&origin, reason).field("bombing_raid"));
        }
    }
    errors
}

/// Why the attacker may not ignore the enemy units in `space` (battle plan
/// `ignore`): only where the rule set allows it, only in a sea zone, only
/// when every enemy unit there is a submarine or a transport (FAQ,
/// Submarines: "only when there are no surface warships in the sea zone with
/// them"), and only with no attacking aircraft there, which came to fight.
fn check_ignore(ctx: &Ctx, state: &GameState, space: SpaceId) -> Result<(), String> {
    let game = ctx.game;
    let name = game.space_name(space);
    if !ctx.rules.may_ignore_subs_and_transports {
        return Err(format!(
            "the rules of this game let no combat move end beside enemy units without attacking \
             them: the units that moved to {name} attack every enemy unit there (leave ignore \
             out to attack, or move elsewhere)"
        ));
    }
    if !game.is_sea(space) {
        return Err(format!(
            "{name} is a territory: ignore is for a sea zone holding only enemy submarines and/or \
             transports"
        ));
    }
    let warships: Vec<&str> = state
        .units_at(space)
        .filter(|u| !allied(game, u.owner, ctx.power) && ctx.ut(u).is_surface_warship())
        .map(|u| ctx.ut(u).name.as_str())
        .collect();
    if let Some(first) = warships.first() {
        return Err(format!(
            "{name} holds an enemy {first}: submarines and transports may be ignored only when \
             no enemy surface warship is with them (FAQ, Submarines); a combat move that ends \
             there attacks every enemy unit in the zone"
        ));
    }
    if state.units_at(space).any(|u| {
        u.owner == ctx.power && u.cargo_of.is_none() && ctx.ut(u).kind == Some(UnitKind::Air)
    }) {
        return Err(format!(
            "aircraft moved to {name} in the combat move, which they make only to fight: with \
             the enemy units there ignored they would have no battle (move them elsewhere, or \
             leave ignore out and attack)"
        ));
    }
    Ok(())
}

/// True when some battle (or AA fire on the way) needs dice.
fn needs_dice(ctx: &Ctx, state: &GameState) -> bool {
    if aa_guns::overflights(ctx, state).next().is_some() {
        return true;
    }
    if !ctx.decl.bombing_raids.is_empty() {
        return true;
    }
    state.battles.iter().any(|&space| {
        let att = attackers(ctx, state, space);
        if att.is_empty() || ctx.ignores(space) {
            return false;
        }
        let air = att.iter().any(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).kind == Some(UnitKind::Air))
        });
        ctx.is_raid(space)
            || !defenders(ctx, state, space).is_empty()
            || (air && enemy_aa(ctx, state, space).is_some())
    }) || coastal_fire::triggered(ctx, state).is_some()
        || paradrop::pending(ctx, state)
}

/// Fights every battle (dice given) or settles the battles without
/// defenders (no dice; only called when no battle needs them).
fn resolve(
    ctx: &Ctx,
    state: &mut GameState,
    mut dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) {
    // J Boulton: the territories where teams came alone, as the orders were
    // checked, before any die (JB-22 PROPOSAL): no battle there, whatever
    // AA fire or the landing roll do to a paratrooper dropped with them.
    let teams_alone: Vec<SpaceId> = state
        .battles
        .iter()
        .copied()
        .filter(|&s| !special_force_missions::dropped_alone(ctx, state, s).is_empty())
        .collect();
    if let Some(d) = dice.as_deref_mut() {
        aa_guns::fire_at_overflights(ctx, state, d, events);
    }
    let mut battles = std::mem::take(&mut state.battles);
    // A raid on an undefended industrial complex is fought without a
    // pending battle there.
    for &raid in &ctx.decl.bombing_raids {
        if !battles.contains(&raid) {
            battles.push(raid);
        }
    }
    // Sea battles first (an amphibious assault needs its zone cleared),
    // each group in board order.
    battles.sort_by_key(|s| (!ctx.game.is_sea(*s), s.0));
    // Territories taken in passing by a blitz are taken on the way, before
    // the battles beyond them (a retreat may go back into one).
    for &space in &battles {
        if ctx.game.is_sea(space)
            || !state.taken_in_passing.contains(&space)
            || ctx.is_raid(space)
            || state.owner[space.0].is_some_and(|o| allied(ctx.game, o, ctx.power))
            || !defenders(ctx, state, space).is_empty()
            || state
                .units_at(space)
                .any(|u| u.owner == ctx.power && ctx.ut(u).kind == Some(UnitKind::Air))
        {
            continue;
        }
        let neutral = state.owner[space.0].is_none();
        events.push(Event::Decision {
            space,
            rule: if neutral {
                "rule: a neutral territory crossed in the combat move is taken (DAAK-C §2.7a)"
            } else {
                "rule: armor blitzing through an empty enemy territory takes it on the way \
                 (digest §5)"
            }
            .into(),
            detail: if neutral {
                "taken on the way, before the battles beyond it"
            } else {
                "taken on the way by the blitz, so captured before the battles beyond it"
            }
            .into(),
        });
        capture_territory(ctx.game, state, space, ctx.power, events);
    }
    let mut fought_at_sea: Vec<SpaceId> = Vec::new();
    let mut bombarded: Vec<u32> = Vec::new();
    let mut coastal_fired = false;
    // Interceptors that rose against a raid beside a battle, with their
    // territory: they land elsewhere if it falls (after every battle).
    let mut intercepted: Vec<(u32, SpaceId)> = Vec::new();
    // Territories some attacking land unit is landing in from the sea, known
    // before the sea battles may call the landings off (errata p.17).
    let amphibious: Vec<SpaceId> = battles
        .iter()
        .copied()
        .filter(|&s| {
            !ctx.game.is_sea(s)
                && state
                    .units_at(s)
                    .any(|u| u.owner == ctx.power && u.unloaded_from.is_some())
        })
        .collect();
    for space in battles {
        let passing = state.taken_in_passing.contains(&space);
        if ctx.game.is_sea(space) {
            let mut cleared = true;
            if ctx.ignores(space) {
                events.push(Event::Decision {
                    space,
                    rule: "FAQ (Submarines): enemy submarines and transports may be ignored \
                           during movement"
                        .into(),
                    detail: format!(
                        "{}: the attacker ignores the enemy units here; no sea battle",
                        ctx.plan_source(space)
                    ),
                });
            } else if !defenders(ctx, state, space).is_empty()
                && !attackers(ctx, state, space).is_empty()
                && let Some(d) = dice.as_deref_mut()
            {
                fought_at_sea.push(space);
                if ctx.rules.sea_battle_ends_movement {
                    // KQ-4: every ship of the attacker in the zone fights, so
                    // none moves in the non-combat move (aircraft still land).
                    let ships: Vec<u32> = attackers(ctx, state, space)
                        .into_iter()
                        .filter(|id| {
                            state
                                .unit(*id)
                                .is_some_and(|u| ctx.ut(u).kind == Some(UnitKind::Sea))
                        })
                        .collect();
                    state.fought_at_sea.extend(ships);
                }
                let carriers = battle::defending_carriers(ctx, state, space);
                let hits_before = ship_damage::hits_before(ctx, state, space);
                let report = battle::fight(ctx, state, space, &[], &Default::default(), d, events);
                ship_damage::roll(ctx, state, space, &hits_before, d, events);
                cleared = report.won
                    || (ctx.rules.land_combat_per_errata_p17
                        && battle::only_transports_defend(ctx, state, space));
                battle::land_stranded_aircraft(ctx, state, space, &carriers, events);
            }
            if cleared {
                let warship = state
                    .units_at(space)
                    .any(|u| u.owner == ctx.power && !u.submerged && is_warship(ctx.game, u.unit));
                if warship || passing {
                    take_convoy(ctx.game, state, space, ctx.power, events);
                }
            }
            battle::after_sea_battle(ctx, state, space, cleared, events);
            continue;
        }
        // J Boulton coastal fire: once, after the sea battles, before any
        // land battle and its bombardment (JB-45).
        if !coastal_fired {
            coastal_fired = true;
            if let Some(d) = dice.as_deref_mut()
                && let Some(due) = coastal_fire::triggered(ctx, state)
            {
                coastal_fire::fire(ctx, state, due, d, events);
            }
        }
        // The raid is made when the bombers arrive (FAQ): if AA fire on the
        // way shot every bomber down, the escorts fight a normal battle.
        let bombers_arrived = state.units_at(space).any(|u| {
            u.owner == ctx.power
                && ctx
                    .ut(u)
                    .has(&crate::rules::model::Ability::StrategicBomber)
        });
        // Units kept out of this territory's battle: the raiders, and the
        // interceptors that rose against them (FAQ, Additional Optional
        // Rules: they "cannot participate in other battles during that turn").
        let mut aside: Vec<Unit> = Vec::new();
        if ctx.is_raid(space) && bombers_arrived {
            let Some(d) = dice.as_deref_mut() else {
                continue;
            };
            let all = attackers(ctx, state, space);
            let raiders = strategic_bombing::raiders(ctx, state, space).unwrap_or(all.clone());
            let others: Vec<u32> = all.into_iter().filter(|id| !raiders.contains(id)).collect();
            if others.is_empty() {
                strategic_bombing::raid(ctx, state, space, d, events);
                continue;
            }
            // The raid first (digest §5.1), the others set aside meanwhile.
            let battle_units = take_units(state, &others);
            let risen = strategic_bombing::raid(ctx, state, space, d, events);
            let mut out: Vec<u32> = raiders;
            out.extend(&risen);
            aside = take_units(state, &out);
            intercepted.extend(risen.iter().map(|&id| (id, space)));
            state.units.extend(battle_units);
            state.units.sort_by_key(|u| u.id);
            events.push(Event::Decision {
                space,
                rule: "FAQ 2010 (Additional Optional Rules): fighters in a raid take part in no \
                       other battle that turn"
                    .into(),
                detail: format!(
                    "{}: the raiders (and any interceptors that rose against them) stay out of the \
                     battle for {} that the other attackers now fight",
                    ctx.plan_source(space),
                    ctx.game.space_name(space)
                ),
            });
        }
        'battle: {
            if ctx.is_raid(space) && !bombers_arrived {
                events.push(Event::Special {
                    rule: "strategic bombing raid".into(),
                    detail: format!(
                        "no raid on {}: no bomber arrived, so its escorts fight a normal battle",
                        ctx.game.space_name(space)
                    ),
                });
            }
            if state.owner[space.0].is_some_and(|o| allied(ctx.game, o, ctx.power)) {
                break 'battle;
            }
            if ctx.rules.land_combat_per_errata_p17
                && amphibious.contains(&space)
                && !state.units_at(space).any(|u| {
                    u.owner == ctx.power
                        && u.cargo_of.is_none()
                        && ctx.ut(u).kind == Some(UnitKind::Land)
                        && !ctx.ut(u).has(&Ability::NoCombat)
                })
            {
                events.push(Event::Decision {
                    space,
                    rule: "errata p.17 (amphibious assaults, step 3): land combat only while the \
                           attacker still has land units committed to the territory"
                        .into(),
                    detail: format!(
                        "every landing in {} was lost or called off: no land combat; aircraft \
                         committed to it take no part and fly on in the non-combat move",
                        ctx.game.space_name(space)
                    ),
                });
                break 'battle;
            }
            let mut won = true;
            // J Boulton: detection of the special force teams standing here
            // before anything else (JB-26; digest Part C step 1).
            if let Some(d) = dice.as_deref_mut() {
                let teams = special_force_teams::facing_battle(ctx, state, space, |u| {
                    !state.paradropped.contains(&u.id)
                });
                special_force_teams::detect(ctx, state, space, &teams, d, events);
            }
            // Then the missions of the teams still there (JB-27; Part C
            // step 2), before AA fire.
            let mut missions = special_force_teams::Missions::default();
            if let Some(d) = dice.as_deref_mut() {
                let teams = special_force_teams::facing_battle(ctx, state, space, |u| {
                    !state.paradropped.contains(&u.id)
                });
                missions = special_force_teams::missions(
                    ctx, state, space, &teams, false, d, events, missions,
                );
            }
            if let Some(d) = dice.as_deref_mut() {
                if missions.aa_suppressed {
                    events.push(Event::Decision {
                        space,
                        rule: "special force team AA Suppression (J Boulton JB-30)".into(),
                        detail: format!(
                            "the AA guns in {} do not fire at the attacking aircraft in this \
                             battle",
                            ctx.game.space_name(space)
                        ),
                    });
                } else {
                    aa_guns::fire_in_battle(ctx, state, space, &["aa"], d, events);
                }
            }
            // Paratroopers land after AA fire (errata p.12).
            crate::rules::research::drop_paratroopers(ctx.game, state, space, ctx.power, events);
            // J Boulton: the landing roll, then the detection of the teams
            // dropped that did not roll 6, then the surprise first strike
            // (JB-16, JB-26, JB-17).
            let mut surprised = Vec::new();
            if let Some(d) = dice.as_deref_mut() {
                let dropped: Vec<u32> = state.paradropped.clone();
                surprised = paradrop::land(ctx, state, space, d, events);
                let teams = special_force_teams::facing_battle(ctx, state, space, |u| {
                    dropped.contains(&u.id) && !surprised.contains(&u.id)
                });
                special_force_teams::detect(ctx, state, space, &teams, d, events);
                // Dropped teams act not this turn (JB-25), but those that
                // rolled 6 act at once (JB-16).
                let teams = special_force_teams::facing_battle(ctx, state, space, |u| {
                    dropped.contains(&u.id) && !surprised.contains(&u.id)
                });
                missions = special_force_teams::missions(
                    ctx, state, space, &teams, false, d, events, missions,
                );
                let teams = special_force_teams::facing_battle(ctx, state, space, |u| {
                    surprised.contains(&u.id)
                });
                missions = special_force_teams::missions(
                    ctx, state, space, &teams, true, d, events, missions,
                );
                // Dropped alone, with no battle: the Industrial Strike
                // ordered for them (JB-16, JB-31, JB-36).
                if teams_alone.contains(&space) {
                    special_force_missions::surprise_industrial_strike(
                        ctx, state, space, &surprised, d, events,
                    );
                }
            }
            if let Some(d) = dice.as_deref_mut()
                && !defenders(ctx, state, space).is_empty()
                && !attackers(ctx, state, space).is_empty()
            {
                let mut fired = paradrop::surprise_strike(ctx, state, space, &surprised, d, events);
                if !defenders(ctx, state, space).is_empty() {
                    fired.extend(special_force_teams::disruption_strike(
                        ctx,
                        state,
                        space,
                        &missions.disruptors,
                        d,
                        events,
                    ));
                }
                // Booby-trapped attackers do not roll in round 1 (JB-33).
                fired.extend(&missions.booby_trapped);
                if !defenders(ctx, state, space).is_empty() {
                    let ships = battle::bombarding_ships(
                        ctx,
                        state,
                        space,
                        &fought_at_sea,
                        &bombarded,
                        events,
                    );
                    bombarded.extend(&ships);
                    let prelude = battle::Prelude {
                        fired_early: fired,
                        supply_struck: missions.supply_strike.is_some(),
                        evasions: std::mem::take(&mut missions.evasions),
                    };
                    won = battle::fight(ctx, state, space, &ships, &prelude, d, events).won;
                }
            }
            special_force_teams::after_battle(state, &missions, events);
            if !won || !defenders(ctx, state, space).is_empty() {
                break 'battle;
            }
            // A special force team takes nothing (JB-22 PROPOSAL).
            let land_unit = state.units_at(space).any(|u| {
                u.owner == ctx.power
                    && u.cargo_of.is_none()
                    && ctx.ut(u).kind == Some(UnitKind::Land)
                    && !ctx.ut(u).has(&Ability::NoCombat)
            });
            if land_unit || passing {
                capture_territory(ctx.game, state, space, ctx.power, events);
            } else if state.units_at(space).any(|u| u.owner == ctx.power) {
                events.push(Event::Special {
                    rule: "no land unit".into(),
                    detail: format!(
                        "{} stays in its controller's hands: only land units take a territory",
                        ctx.game.space_name(space)
                    ),
                });
            }
        }
        state.units.extend(aside);
        state.units.sort_by_key(|u| u.id);
    }
    strategic_bombing::land_interceptors(ctx, state, &intercepted, events);
}

/// Takes the units `ids` and their cargo out of the board, to be put back
/// with `state.units.extend` (and sorted by id) once a battle is over.
fn take_units(state: &mut GameState, ids: &[u32]) -> Vec<Unit> {
    let (taken, kept): (Vec<Unit>, Vec<Unit>) = std::mem::take(&mut state.units)
        .into_iter()
        .partition(|u| ids.contains(&u.id) || u.cargo_of.is_some_and(|c| ids.contains(&c)));
    state.units = kept;
    taken
}
