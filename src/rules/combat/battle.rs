//! One land or sea battle, round by round.
//!
//! A round: attacking submarines may submerge (the attacker's declaration;
//! before the first round this is substalling, FAQ); attacking submarines
//! with no enemy destroyer in play fire first and their victims are removed
//! before they fire (a damaged battleship still afloat fires, FAQ); the rest
//! of the attackers fire, with bombardment in the first round of an
//! amphibious assault; the defender chooses its casualties, its unhit
//! submarines may then submerge (standing orders; only after surviving the
//! attacker's fire, FAQ), and all its units in play fire, casualties
//! included; both sides' casualties are removed; the attacker may retreat.

use super::casualties::{Chooser, HitClass, Hits, Taken, allocate, rank, volunteer_hidden};
use super::fire::{Group, join, volley};
use super::{Ctx, attackers, bystanders, defenders, destroy, retreat, withdrawal};
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{Retreat, SubmarinePolicy};
use crate::rules::research;
use crate::rules::state::GameState;
use crate::rules::vocab::UnitTypeId;

/// A battle's result as the rest of combat needs it.
pub(crate) struct Report {
    /// No enemy unit is in play and some attacker is left in the space.
    pub won: bool,
}

/// No battle lasts longer than this; it cannot be reached with real dice
/// unless neither side can ever hit (checked before each round).
const MAX_ROUNDS: u32 = 500;

/// True when some unit of the enemy side with this ability is in play in
/// the space (`of_attacker`: on the attacker's side, bystanders included
/// where the rule set has them, else the attacking power's own units).
fn side_has(ctx: &Ctx, state: &GameState, space: SpaceId, of_attacker: bool, a: Ability) -> bool {
    state.units_at(space).any(|u| {
        let on_side = if of_attacker && !ctx.rules.allied_bystanders {
            u.owner == ctx.power
        } else {
            allied(ctx.game, u.owner, ctx.power) == of_attacker
        };
        on_side && u.cargo_of.is_none() && !u.submerged && ctx.ut(u).has(&a)
    })
}

/// What a unit's hits may land on, given whether its side has a destroyer
/// in the zone.
fn class_of(ctx: &Ctx, state: &GameState, id: u32, side_spots: bool, attacking: bool) -> HitClass {
    let Some(u) = state.unit(id) else {
        return HitClass::Any;
    };
    let t = ctx.ut(u);
    // Advanced AAE AAAE-47: at sea, a defender that is neither a destroyer
    // nor a fighter (on its carrier) cannot hit the attacking submarines.
    if !attacking
        && ctx.rules.only_destroyers_and_fighters_hit_attacking_subs
        && ctx.game.is_sea(u.at)
    {
        return if t.has(&Ability::AntiSubmarine)
            || (t.kind == Some(UnitKind::Air) && !t.has(&Ability::StrategicBomber))
        {
            HitClass::Any
        } else if t.has(&Ability::CannotHitAir) {
            HitClass::NotAir
        } else {
            HitClass::NotHidden
        };
    }
    if t.has(&Ability::CannotHitAir) {
        HitClass::NotAir
    } else if t.kind == Some(UnitKind::Air) && !side_spots {
        HitClass::NotHidden
    } else {
        HitClass::Any
    }
}

/// True when some unit of `from` (firing at `strength`) has a target in `to`.
fn can_hit(
    ctx: &Ctx,
    state: &GameState,
    from: &[u32],
    to: &[u32],
    spots: bool,
    attacking: bool,
) -> bool {
    from.iter().any(|id| {
        let Some(u) = state.unit(*id) else {
            return false;
        };
        let t = ctx.ut(u);
        let strength = if attacking { t.attack } else { t.defense }.unwrap_or(0);
        if strength == 0 {
            return false;
        }
        has_target(ctx, state, class_of(ctx, state, *id, spots, attacking), to)
    })
}

/// True when some unit of `to` may take a hit of `class`.
fn has_target(ctx: &Ctx, state: &GameState, class: HitClass, to: &[u32]) -> bool {
    to.iter().any(|v| {
        state.unit(*v).is_some_and(|v| {
            let vt = ctx.ut(v);
            match class {
                HitClass::NotAir => vt.kind != Some(UnitKind::Air),
                HitClass::NotHidden => !vt.has(&Ability::HiddenFromAir),
                HitClass::Any => true,
            }
        })
    })
}

/// The firing groups of `ids` against `targets`: attacking artillery
/// raises one supportable attacker each by one; a unit with nothing it may
/// hit does not roll (FAQ: unseen submarines "play no part"; a submarine
/// "can never damage a plane").
fn groups(
    ctx: &Ctx,
    state: &GameState,
    ids: &[u32],
    targets: &[u32],
    attacking: bool,
    spots: bool,
    prefix: &str,
) -> Vec<Group> {
    // Improved Artillery Support: each of that owner's artillery supports two.
    let mut support: usize = if attacking {
        ids.iter()
            .filter_map(|id| state.unit(*id))
            .filter(|u| ctx.ut(u).has(&Ability::ArtillerySupport))
            .map(|u| {
                super::national_abilities::supported_per_artillery(
                    ctx.game, &ctx.rules, state, u.owner,
                )
            })
            .sum()
    } else {
        0
    };
    // Advanced AAE AAAE-35: how many attacking fighters came from a sea
    // zone (off a carrier) into this battle.
    let mut carrier_based = match (attacking, ctx.rules.fighter_basing) {
        (true, Some(_)) => ids
            .first()
            .and_then(|id| state.unit(*id))
            .map_or(0, |u| super::fighters_from_sea(ctx, u.at)),
        _ => 0,
    };
    // Advanced AAE AAAE-29: one defending infantry per fortification.
    let fortified = if attacking {
        Vec::new()
    } else {
        super::fortifications::fortified(ctx.game, &ctx.rules, state, ids, ctx.power)
    };
    let mut out = Vec::new();
    for &id in ids {
        let Some(u) = state.unit(id) else { continue };
        // Averted by a special force team, it rolls in no combat this
        // turn (J Boulton JB-35).
        if state.averted.contains(&id) {
            continue;
        }
        let t = ctx.ut(u);
        let mut strength = if attacking {
            research::attack(ctx.game, state, u.owner, t)
        } else {
            research::defense(ctx.game, state, u.owner, t)
        }
        .unwrap_or(0);
        let mut name = format!("{prefix}{}", t.name);
        let mut supportable = super::supportable(&ctx.rules, t);
        // Advanced AAE's national abilities (German armor, marines, RAF).
        if let Some(v) =
            super::national_abilities::value(ctx.game, &ctx.rules, state, u, attacking, supportable)
        {
            strength = v.strength;
            supportable = v.supportable;
            name = format!("{prefix}{} {}", v.group, t.name);
        }
        if let Some(f) = ctx.rules.fortifications.filter(|_| fortified.contains(&id)) {
            strength = strength.max(f.defence);
            name = format!("{prefix}fortified {}", t.name);
        }
        if let (true, Some(b)) = (attacking, ctx.rules.fighter_basing)
            && t.kind == Some(UnitKind::Air)
            && !t.has(&Ability::StrategicBomber)
        {
            let sea = ctx.game.is_sea(u.at);
            if carrier_based > 0 {
                carrier_based -= 1;
                strength = if sea {
                    b.carrier_based_at_sea
                } else {
                    b.carrier_based_on_land
                };
                name = format!("{prefix}carrier {}", t.name);
            } else {
                strength = if sea {
                    b.land_based_at_sea
                } else {
                    b.land_based_on_land
                };
            }
        }
        // An isolated unit takes the support only where the half of the
        // raised value is higher (J Boulton JB-40): the attacker pairs its
        // artillery where the support counts, as the odds do.
        let isolated = attacking && state.isolated.contains(&id);
        let raised =
            !isolated || super::out_of_supply(strength + 1) > super::out_of_supply(strength);
        if support > 0 && strength > 0 && supportable && raised {
            support -= 1;
            strength += 1;
            name = format!("{prefix}supported {}", &name[prefix.len()..]);
        }
        // J Boulton paratroopers attack at 2 in the battle they were
        // dropped into (JB-18).
        if attacking
            && state.paradropped.contains(&id)
            && let Some(air) = ctx.rules.air_transports
        {
            strength = air.dropped_attack;
            name = format!("{prefix}paradropped {}", t.name);
        }
        if let (damaged, Some(how)) = super::ship_damage::strength(state, id, strength) {
            strength = damaged;
            name = format!("{prefix}{how} {}", t.name);
        }
        if isolated {
            strength = super::out_of_supply(strength);
            name = format!("{prefix}isolated {}", &name[prefix.len()..]);
        }
        let class = class_of(ctx, state, id, spots, attacking);
        if has_target(ctx, state, class, targets) {
            join(&mut out, name, strength, class, u.unit);
        }
    }
    // Advanced AAE AAAE-46: each attacking submarine rolls two dice.
    if let (true, Some(n)) = (attacking, ctx.rules.one_round_submarines) {
        for g in &mut out {
            if ctx.game.unit_types()[g.order.0].has(&Ability::Submerge) {
                g.count *= u32::from(n);
            }
        }
    }
    // Heavy Bombers: more dice per attacking bomber, the best counting
    // (Anniversary errata p.12: two) or every one (Classic: three).
    if attacking {
        for g in &mut out {
            let t = &ctx.game.unit_types()[g.order.0];
            match research::attack_dice(ctx.game, state, ctx.power, t) {
                Some((n, true)) => g.dice_each = n,
                Some((n, false)) => g.count *= u32::from(n),
                None => {}
            }
        }
    }
    out
}

/// Chooses who takes `hits` among `ids` (without applying them), in
/// round `round` of the battle (0: outside the rounds).
#[allow(clippy::too_many_arguments)]
pub(crate) fn choose(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    ids: &[u32],
    chooser: &Chooser,
    hits: Hits,
    round: u32,
    events: &mut Vec<Event>,
) -> Vec<Taken> {
    if hits.total() == 0 {
        return Vec::new();
    }
    // Advanced AAE AAAE-29: the defender may take a fortification as a
    // casualty (it never fires, so it is not among the units in play).
    let mut with_forts;
    let ids = if let Chooser::Defender { land: true, .. } = chooser {
        with_forts = ids.to_vec();
        with_forts.extend(
            super::fortifications::defending(ctx.game, &ctx.rules, state, space, ctx.power)
                .into_iter()
                .filter(|f| !ids.contains(f)),
        );
        &with_forts[..]
    } else {
        ids
    };
    let mut cands = rank(ctx.game, state, ids, chooser);
    // Advanced AAE AAAE-45: submarines may take any hit in round 1.
    if round == 1 && ctx.rules.submarines_take_any_hit_first_round {
        volunteer_hidden(&mut cands);
    }
    let (taken, wasted) = allocate(&mut cands, hits);
    let destroyed = taken.iter().filter(|t| t.destroyed).count();
    if wasted > 0 && destroyed < ids.len() {
        events.push(Event::Decision {
            space,
            rule: "FAQ: submarine hits go to ships only; aircraft cannot hit submarines \
                   without a destroyer of their side in the zone"
                .into(),
            detail: format!("{wasted} hit(s) could not be taken by any unit and are lost"),
        });
    }
    taken
}

/// A strike before the battle's rounds (a paratrooper's surprise, JB-17; a
/// special force team's Disruption, JB-29): `groups` fire as the attacker
/// under `prefix`, the defender takes the hits from `targets` by its
/// standing orders' order of loss, and the units hit never fire back
/// (`why` says which rule, in their casualty reasons).
#[allow(clippy::too_many_arguments)]
pub(crate) fn strike_before_battle(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    targets: &[u32],
    prefix: &[String],
    groups: Vec<Group>,
    why: &str,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let hits = volley(
        dice,
        ctx.low_luck,
        space,
        prefix,
        "attacker",
        groups,
        events,
    );
    let standing = state.standing.clone();
    let chooser = Chooser::Defender {
        standing: &standing,
        land: true,
    };
    let mut taken = choose(ctx, state, space, targets, &chooser, hits, 0, events);
    for t in &mut taken {
        t.reason = format!("{}; {why}", t.reason);
    }
    apply(ctx, state, space, &taken, events);
}

/// Applies chosen casualties: destroyed units leave the board (with their
/// cargo), others take a hit.
pub(crate) fn apply(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    taken: &[Taken],
    events: &mut Vec<Event>,
) {
    for t in taken {
        let Some(u) = state.unit(t.id) else { continue };
        events.push(Event::Casualty {
            space,
            power: u.owner,
            unit: u.unit,
            destroyed: t.destroyed,
            reason: t.reason.clone(),
        });
        if t.destroyed {
            destroy(ctx, state, t.id, space, events);
        } else if let Some(u) = state.unit_mut(t.id) {
            u.hits += 1;
        }
    }
}

pub(crate) fn submerge(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    ids: &[u32],
    rule: String,
    events: &mut Vec<Event>,
) {
    if ids.is_empty() {
        return;
    }
    let mut by: Vec<(usize, usize, u32)> = Vec::new();
    for id in ids {
        if let Some(u) = state.unit_mut(*id) {
            u.submerged = true;
            match by.iter_mut().find(|b| b.0 == u.owner && b.1 == u.unit) {
                Some(b) => b.2 += 1,
                None => by.push((u.owner, u.unit, 1)),
            }
        }
    }
    for (p, t, n) in by {
        events.push(Event::Decision {
            space,
            rule: rule.clone(),
            detail: format!(
                "{n} {} {} submerged and {} out of this battle",
                ctx.game.powers()[p].name,
                ctx.game.unit_types()[t].name,
                if n == 1 { "is" } else { "are" }
            ),
        });
    }
}

/// The defenseless-transport rule (Anniversary FAQ and errata p.19): when
/// no defender can hit the attacker and every defender the attacker could
/// hit is a transport, those transports are removed without rolling.
/// Attacking transports are never defenseless: they can still retreat (FAQ).
/// Returns whether any were removed.
fn remove_defenseless_transports(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    att: &[u32],
    def: &[u32],
    a_spots: bool,
    events: &mut Vec<Event>,
) -> bool {
    let exposed: Vec<u32> = def
        .iter()
        .copied()
        .filter(|id| can_hit(ctx, state, att, &[*id], a_spots, true))
        .collect();
    let transport = |id: &u32| {
        state.unit(*id).is_some_and(|u| {
            let t = ctx.ut(u);
            t.kind == Some(UnitKind::Sea)
                && t.transport_capacity.is_some()
                && t.defense.unwrap_or(0) == 0
        })
    };
    if exposed.is_empty() || !exposed.iter().all(transport) {
        return false;
    }
    let taken: Vec<Taken> = exposed
        .into_iter()
        .map(|id| Taken {
            id,
            destroyed: true,
            reason: "rule: defenseless transports are removed without rolling (FAQ)".into(),
        })
        .collect();
    events.push(Event::Decision {
        space,
        rule: "rule: defenseless transports (FAQ, Combat; errata p.19)".into(),
        detail: "only the attacker can still roll and the only defenders it can hit are \
                 transports: they are removed without dice"
            .into(),
    });
    apply(ctx, state, space, &taken, events);
    true
}

/// The defending submarines whose standing orders take them under now (not
/// those in `marked`, already chosen as casualties), and why.
fn defenders_diving(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    standing: &[crate::rules::orders::StandingOrders],
    round: u32,
    marked: &[Taken],
) -> (Vec<u32>, String) {
    let mut diving = Vec::new();
    let mut why = String::new();
    let when = if ctx.rules.submerge_before_any_die {
        "Anniversary FAQ: the defender decides after the attacker, before any die of the round"
    } else {
        "FAQ: defending subs submerge only after withstanding a round of fire, immediately \
         before rolling"
    };
    for id in defenders(ctx, state, space) {
        let Some(u) = state.unit(id) else { continue };
        if !ctx.ut(u).has(&Ability::Submerge) || marked.iter().any(|t| t.id == id) {
            continue;
        }
        let policy = standing.get(u.owner).map(|s| s.submarines);
        let go = match policy {
            Some(SubmarinePolicy::Submerge) => true,
            Some(SubmarinePolicy::SubmergeAfterFirstRound) => round >= 2,
            _ => false,
        };
        if go {
            diving.push(id);
            why = format!(
                "standing orders of {}: submarines {} ({when})",
                ctx.game.powers()[u.owner].name,
                if round >= 2 && policy == Some(SubmarinePolicy::SubmergeAfterFirstRound) {
                    "submerge after the first round"
                } else {
                    "submerge at the first chance"
                }
            );
        }
    }
    (diving, why)
}

/// What came before a land battle's rounds that its rounds must know (J
/// Boulton; empty elsewhere).
#[derive(Debug, Default)]
pub(crate) struct Prelude {
    /// Attackers that do not roll in round 1: their shot was a first strike
    /// already (a paratrooper's surprise, JB-17; Disruption, JB-29) or a
    /// booby trap denies it (JB-33).
    pub fired_early: Vec<u32>,
    /// Supply Strike (JB-32): every defender defends at half, rounded up.
    pub supply_struck: bool,
    /// Evasive missions (JB-34), carried out at the start of their round.
    pub evasions: Vec<super::special_force_teams::Evade>,
}

impl Prelude {
    /// The defending land units that Evasive sacrifices due after `round`
    /// take out of the battle for `space` at the start of their round,
    /// before any die of it (JB-34), as `special_force_teams::evade` carries
    /// them out (the team must still stand there), in rounds still to be
    /// fought before each leaves.
    fn leaving(
        &self,
        state: &GameState,
        space: SpaceId,
        round: u32,
    ) -> Vec<crate::rules::odds::Leaving> {
        self.evasions
            .iter()
            .filter(|e| e.round > round && state.unit(e.team).is_some_and(|u| u.at == space))
            .filter_map(|e| {
                e.save.map(|unit| crate::rules::odds::Leaving {
                    rounds: e.round - round - 1,
                    unit,
                })
            })
            .collect()
    }
}

/// Fights the battle in `space`; `bombard` are the attacker's ships that
/// fire once before the first round of an amphibious assault; `prelude`
/// what came before the rounds (J Boulton).
pub(crate) fn fight(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    bombard: &[u32],
    prelude: &Prelude,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Report {
    let game = ctx.game;
    let name = game.space_name(space).to_owned();
    let sea = game.is_sea(space);
    let amphibious = !sea
        && state
            .units_at(space)
            .any(|u| u.owner == ctx.power && u.cargo_of.is_none() && u.unloaded_from.is_some());
    let plan = ctx.plan(space);
    let policy = plan
        .map(|p| p.item.retreat.clone())
        .unwrap_or(Retreat::Never);
    let losses: &[UnitTypeId] = plan.map(|p| p.item.losses.as_slice()).unwrap_or(&[]);
    let standing = state.standing.clone();
    let attacker_chooser = Chooser::Attacker {
        losses,
        source: ctx.plan_source(space),
        power: ctx.power,
        standing: &standing,
    };
    let defender_chooser = Chooser::Defender {
        standing: &standing,
        land: !sea,
    };
    let sub_policy = ctx.attacker_subs(space);
    let mut round = 0;
    let mut retreat_tried = false;
    let mut retreated = false;
    let mut stalemate = false;
    let mut all_submerged = false;
    let mut subs_dived = false;
    let mut withdrew: Option<&str> = None;
    // Advanced AAE AAAE-48: the screen procedure comes before the battle.
    let screen_n = plan
        .filter(|p| p.item.space == Some(space))
        .map_or(0, |p| p.item.screen);
    let screened = if sea && screen_n > 0 {
        super::submarines::screen(
            ctx,
            state,
            space,
            screen_n,
            (&attacker_chooser, &defender_chooser),
            dice,
            events,
        )
    } else {
        super::submarines::Screened::default()
    };
    subs_dived |= screened.submerged;
    loop {
        // J Boulton Evasive missions of this round, before any of its dice
        // (JB-34 PROPOSAL).
        if !prelude.evasions.is_empty()
            && round < MAX_ROUNDS
            && !attackers(ctx, state, space).is_empty()
            && !defenders(ctx, state, space).is_empty()
        {
            super::special_force_teams::evade(
                ctx,
                state,
                space,
                &prelude.evasions,
                round + 1,
                events,
            );
        }
        let att = attackers(ctx, state, space);
        let def = defenders(ctx, state, space);
        if att.is_empty() || def.is_empty() || round >= MAX_ROUNDS {
            break;
        }
        let a_spots = side_has(ctx, state, space, true, Ability::AntiSubmarine);
        let d_spots = side_has(ctx, state, space, false, Ability::AntiSubmarine);
        let mut target_side = att.clone();
        target_side.extend(bystanders(ctx, state, space));
        let bombardment_due = round == 0 && !bombard.is_empty();
        if ctx.rules.defenseless_transports
            && !bombardment_due
            && !can_hit(ctx, state, &def, &target_side, d_spots, false)
            && remove_defenseless_transports(ctx, state, space, &att, &def, a_spots, events)
        {
            continue;
        }
        if !bombardment_due
            && !can_hit(ctx, state, &att, &def, a_spots, true)
            && !can_hit(ctx, state, &def, &target_side, d_spots, false)
        {
            stalemate = true;
            events.push(Event::Decision {
                space,
                rule: "rule: a battle ends when neither side can hit the other".into(),
                detail: "no unit of either side can hit a unit of the other (FAQ: submarines \
                         cannot hit aircraft; aircraft cannot hit submarines without a \
                         destroyer); both stay"
                    .into(),
            });
            break;
        }
        round += 1;
        let r = round.to_string();
        // Attacking submarines decide immediately before they roll.
        let one_round = ctx.rules.one_round_submarines.is_some();
        let subs_go = !one_round
            && match sub_policy {
                SubmarinePolicy::Fight | SubmarinePolicy::WithdrawAfterRound { .. } => false,
                SubmarinePolicy::Submerge => true,
                SubmarinePolicy::SubmergeAfterFirstRound => round >= 2,
            }
            && !(ctx.rules.submerge_before_any_die && d_spots);
        if subs_go {
            let subs: Vec<u32> = att
                .iter()
                .copied()
                .filter(|id| {
                    state
                        .unit(*id)
                        .is_some_and(|u| ctx.ut(u).has(&Ability::Submerge))
                })
                .collect();
            let rule = if round == 1 {
                "attacker's declaration: submarines submerge before the first round \
                 (substalling, FAQ)"
            } else {
                "attacker's declaration: submarines submerge after the first round (FAQ: \
                 immediately before rolling)"
            };
            submerge(ctx, state, space, &subs, rule.into(), events);
        }
        let att = attackers(ctx, state, space);
        if att.is_empty() {
            // Every attacker submerged before rolling: this round was
            // never fought (before the first, no round at all).
            round -= 1;
            all_submerged = true;
            break;
        }
        // Anniversary: the defender's submarines decide right after the
        // attacker's, before any die (FAQ), unless an attacking destroyer
        // cancels Submersible (errata p.29).
        if ctx.rules.submerge_before_any_die && !a_spots && !one_round {
            let (diving, why) = defenders_diving(ctx, state, space, &standing, round, &[]);
            submerge(ctx, state, space, &diving, why, events);
        }
        // Anniversary: defending submarines' surprise strike, in the same
        // step as the attacker's (their hits are applied together with it).
        let def_strikers: Vec<u32> = if ctx.rules.defending_subs_strike_first && !a_spots {
            first_strikers(ctx, state, defenders(ctx, state, space))
        } else {
            Vec::new()
        };
        // First strike: attacking submarines while no enemy destroyer is in
        // play (and only in round 1 where the rule set says so; never where
        // submarines fight one round); their victims are removed before firing.
        let first_strike =
            !d_spots && !one_round && (round == 1 || !ctx.rules.first_strike_first_round_only);
        let strikers: Vec<u32> = if first_strike {
            first_strikers(ctx, state, att.iter().copied())
        } else {
            Vec::new()
        };
        if !strikers.is_empty() || !def_strikers.is_empty() {
            let mut taken = Vec::new();
            if !strikers.is_empty() {
                let def = defenders(ctx, state, space);
                let g = groups(ctx, state, &strikers, &def, true, a_spots, "first-strike/");
                let prefix: Vec<String> = ["battle", &name, "round", &r, "attacker"]
                    .map(String::from)
                    .to_vec();
                let hits = volley(dice, ctx.low_luck, space, &prefix, "attacker", g, events);
                taken = choose(
                    ctx,
                    state,
                    space,
                    &def,
                    &defender_chooser,
                    hits,
                    round,
                    events,
                );
            }
            if !def_strikers.is_empty() {
                let att = attackers(ctx, state, space);
                let g = groups(
                    ctx,
                    state,
                    &def_strikers,
                    &att,
                    false,
                    d_spots,
                    "first-strike/",
                );
                let prefix: Vec<String> = ["battle", &name, "round", &r, "defender"]
                    .map(String::from)
                    .to_vec();
                let hits = volley(dice, ctx.low_luck, space, &prefix, "defender", g, events);
                taken.extend(choose(
                    ctx,
                    state,
                    space,
                    &att,
                    &attacker_chooser,
                    hits,
                    round,
                    events,
                ));
            }
            apply(ctx, state, space, &taken, events);
        }
        // The attacker's other units (and bombardment in round 1).
        // Advanced AAE AAAE-41: landed units hold their fire in round 1.
        let holding = round == 1 && ctx.rules.landed_units_hold_fire_first_round;
        let rest: Vec<u32> = att
            .iter()
            .copied()
            .filter(|id| {
                !(strikers.contains(id) || (round == 1 && prelude.fired_early.contains(id)))
            })
            .filter(|id| !(round == 1 && screened.restricted.contains(id)))
            .collect();
        let landed = |id: &u32| state.unit(*id).is_some_and(|u| u.unloaded_from.is_some());
        let held = if holding {
            rest.iter().filter(|id| landed(id)).count()
        } else {
            0
        };
        let rest: Vec<u32> = rest
            .into_iter()
            .filter(|id| !(holding && landed(id)))
            .collect();
        if held > 0 {
            events.push(Event::Decision {
                space,
                rule: "AAAE-41: land units arriving by amphibious landing do not fire in round 1"
                    .into(),
                detail: format!("{held} landed unit(s) hold their fire this round"),
            });
        }
        let def = defenders(ctx, state, space);
        let g = groups(ctx, state, &rest, &def, true, a_spots, "");
        let prefix: Vec<String> = ["battle", &name, "round", &r, "attacker"]
            .map(String::from)
            .to_vec();
        let mut hits = volley(dice, ctx.low_luck, space, &prefix, "attacker", g, events);
        if round == 1 && !bombard.is_empty() {
            let mut g = Vec::new();
            for &id in bombard {
                let Some(u) = state.unit(id) else { continue };
                let t = ctx.ut(u);
                if let Some(n) = t.abilities.iter().find_map(|a| match a {
                    Ability::Bombard(n) => Some(*n),
                    _ => None,
                }) {
                    join(&mut g, t.name.clone(), n, HitClass::Any, u.unit);
                }
            }
            let prefix = vec!["bombard".to_owned(), name.clone()];
            let b = volley(dice, ctx.low_luck, space, &prefix, "bombardment", g, events);
            hits.any += b.total();
        }
        let def = defenders(ctx, state, space);
        // AAAE-48: submarines blocked or turned back by the screen fire
        // their round at the ships that are not capital ships; their hits
        // are taken first, the others' from what they leave.
        let mut marked = Vec::new();
        if round == 1 && !screened.restricted.is_empty() {
            let live: Vec<u32> = screened
                .restricted
                .iter()
                .copied()
                .filter(|id| state.unit(*id).is_some())
                .collect();
            let capitals = super::submarines::capital_ships(ctx, state, space);
            let open: Vec<u32> = def
                .iter()
                .copied()
                .filter(|id| !capitals.contains(id))
                .collect();
            let g = groups(ctx, state, &live, &open, true, a_spots, "screened ");
            let h = volley(dice, ctx.low_luck, space, &prefix, "attacker", g, events);
            marked = choose(
                ctx,
                state,
                space,
                &open,
                &defender_chooser,
                h,
                round,
                events,
            );
        }
        let left: Vec<u32> = def
            .iter()
            .copied()
            .filter(|id| !marked.iter().any(|t| t.id == *id && t.destroyed))
            .collect();
        marked.extend(choose(
            ctx,
            state,
            space,
            &left,
            &defender_chooser,
            hits,
            round,
            events,
        ));
        // AAE: defending submarines not marked as lost may submerge now,
        // after withstanding the attacker's fire and before rolling (FAQ).
        if !ctx.rules.submerge_before_any_die && !one_round {
            let (diving, why) = defenders_diving(ctx, state, space, &standing, round, &marked);
            submerge(ctx, state, space, &diving, why, events);
        }
        // Submarines that struck first do not fire again this round.
        // Advanced AAE: units caught by the surprise attack hold their
        // fire in the first round (AAAE-11).
        let firing: Vec<u32> = defenders(ctx, state, space)
            .into_iter()
            .filter(|id| !def_strikers.contains(id))
            .filter(|id| !(round == 1 && screened.fired.contains(id)))
            .filter(|id| {
                round > 1
                    || !state
                        .unit(*id)
                        .is_some_and(|u| super::surprised(ctx, state, space, u.owner))
            })
            .collect();
        let mut targets = attackers(ctx, state, space);
        targets.extend(bystanders(ctx, state, space));
        let mut g = groups(ctx, state, &firing, &targets, false, d_spots, "");
        if prelude.supply_struck {
            super::special_force_teams::supply_struck(&mut g);
        }
        let prefix: Vec<String> = ["battle", &name, "round", &r, "defender"]
            .map(String::from)
            .to_vec();
        let hits = volley(dice, ctx.low_luck, space, &prefix, "defender", g, events);
        let taken = choose(
            ctx,
            state,
            space,
            &targets,
            &attacker_chooser,
            hits,
            round,
            events,
        );
        apply(ctx, state, space, &taken, events);
        apply(ctx, state, space, &marked, events);
        // Advanced AAE AAAE-46: the submarines of both sides have fought
        // their one round; the survivors submerge.
        if one_round && round == 1 {
            let subs: Vec<u32> = attackers(ctx, state, space)
                .into_iter()
                .chain(defenders(ctx, state, space))
                .filter(|id| {
                    state
                        .unit(*id)
                        .is_some_and(|u| ctx.ut(u).has(&Ability::Submerge))
                })
                .collect();
            subs_dived |= !subs.is_empty();
            submerge(
                ctx,
                state,
                space,
                &subs,
                "AAAE-46: submarines fight one round per battle, then submerge".into(),
                events,
            );
        }
        let att = attackers(ctx, state, space);
        if att.is_empty() || defenders(ctx, state, space).is_empty() {
            break;
        }
        // Classic: the submarines' withdrawals come before the retreat
        // (DAAK-C §4.2(b)).
        if ctx.rules.submarines_withdraw {
            withdrawal::after_round(ctx, state, space, round, events);
            if attackers(ctx, state, space).is_empty() {
                withdrew = Some("the attacking submarines withdrew; the defender holds");
                break;
            }
            if defenders(ctx, state, space).is_empty() {
                withdrew = Some("the defending submarines withdrew; the attacker holds the zone");
                break;
            }
        }
        let att = attackers(ctx, state, space);
        // The odds are those of fighting on from the survivors as they stand
        // (no bombardment or AA fire: those come before round 2), with what
        // the rounds to come hold: the submarines' withdrawals, a Supply
        // Strike, Evasive sacrifices (J Boulton JB-32, JB-34; averted units
        // count as the rounds fight them).
        let mut chance = None;
        let odds = || {
            let mut def = defenders(ctx, state, space);
            // AAAE-29: the fortifications fight on with them.
            def.extend(super::fortifications::defending(
                game, &ctx.rules, state, space, ctx.power,
            ));
            let c = crate::rules::odds::attacker_win_now_with(
                game,
                state,
                (&att, &def),
                (&attacker_chooser, &defender_chooser),
                ctx.low_luck,
                &crate::rules::odds::ToCome {
                    withdrawals: withdrawal::still_to_come(ctx, state, space, round),
                    supply_struck: prelude.supply_struck,
                    leaving: prelude.leaving(state, space, round),
                },
            );
            chance = Some(c);
            c.0
        };
        if !retreat_tried && retreat::wanted(&policy, round, att.len(), odds) {
            retreat_tried = true;
            let why = format!(
                "{}: retreat {}",
                ctx.plan_source(space),
                match policy {
                    Retreat::Never => String::new(),
                    Retreat::AfterRound(n) => format!("after round {n}"),
                    Retreat::WhenAttackersBelow(n) => format!("when attackers are below {n}"),
                    Retreat::WhenOddsBelow(p) => match chance {
                        Some((now, true)) => {
                            format!("when the odds of winning are below {p} (exactly: {now:.4})")
                        }
                        Some((now, false)) => format!(
                            "when the odds of winning are below {p} (estimated: {now:.4}, from \
                             {} simulated battles)",
                            crate::rules::odds::DEFAULT_BATTLES
                        ),
                        None => format!("when the odds of winning are below {p}"),
                    },
                }
            );
            // Where aircraft stay in the zone (DAAK), the retreat of the
            // others ends the battle.
            if retreat::retreat(ctx, state, space, amphibious, &why, events)
                && (attackers(ctx, state, space).is_empty()
                    || (!amphibious && !ctx.rules.aircraft_retreat_with_the_force))
            {
                retreated = true;
                break;
            }
        }
    }
    let att = attackers(ctx, state, space);
    let def = defenders(ctx, state, space);
    // Submerged submarines of the attacker (or of the defender) still here.
    let dived = |of_attacker: bool| {
        state
            .units_at(space)
            .any(|u| u.submerged && (u.owner == ctx.power) == of_attacker && u.cargo_of.is_none())
    };
    let result = if let Some(how) = withdrew {
        how.to_owned()
    } else if retreated {
        "the attacker retreated; the defender holds".to_owned()
    } else if stalemate {
        "neither side can hit the other; both stay".to_owned()
    } else if all_submerged && round == 0 {
        "the attacking submarines submerged on arrival (substalling): no round was fought; \
         both stay"
            .to_owned()
    } else if all_submerged {
        "the attacking submarines submerged before rolling; both stay".to_owned()
    } else if subs_dived && att.is_empty() && def.is_empty() && dived(true) && !dived(false) {
        // Every defender sunk, the attacker's submarines still in the zone
        // (Advanced AAE AAAE-46: they submerge and stay): the battle goes
        // on until one side is gone, and the defender's side is.
        "every defender sunk: the attacker wins; its submarines fought their one round and \
         submerged, and stay in the zone"
            .to_owned()
    } else if subs_dived && att.is_empty() && dived(true) {
        "the attacking submarines fought their one round and submerged; both stay".to_owned()
    } else if subs_dived && def.is_empty() && dived(false) && !att.is_empty() {
        "the defending submarines fought their one round and submerged; the attacker holds the \
         zone"
            .to_owned()
    } else if att.is_empty() && def.is_empty() {
        "both sides destroyed".to_owned()
    } else if def.is_empty() {
        "the attacker wins".to_owned()
    } else if att.is_empty() {
        "the defender wins".to_owned()
    } else {
        format!("stopped after {MAX_ROUNDS} rounds; both stay")
    };
    events.push(Event::BattleEnded {
        space,
        rounds: round,
        result,
    });
    // Attacking submarines that submerged after their round count as
    // survivors: they stay in the zone (AAAE-46).
    let survived = !att.is_empty() || (subs_dived && dived(true));
    Report {
        won: !retreated && def.is_empty() && survived && !(att.is_empty() && dived(false)),
    }
}

/// The units among `ids` that strike first (submarines).
fn first_strikers(ctx: &Ctx, state: &GameState, ids: impl IntoIterator<Item = u32>) -> Vec<u32> {
    ids.into_iter()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).has(&Ability::FirstStrike))
        })
        .collect()
}

/// After the sea battle in `zone` (or its absence): ground units unloaded
/// from a transport sunk there never landed; when the zone was not cleared,
/// the landing from it is called off and they stay aboard.
pub(crate) fn after_sea_battle(
    ctx: &Ctx,
    state: &mut GameState,
    zone: SpaceId,
    cleared: bool,
    events: &mut Vec<Event>,
) {
    let landed: Vec<(u32, Option<u32>, SpaceId)> = state
        .units
        .iter()
        .filter(|u| u.owner == ctx.power && u.cargo_of.is_none() && u.unloaded_from == Some(zone))
        .map(|u| (u.id, u.unloaded_by, u.at))
        .collect();
    for (id, by, at) in landed {
        let transport = by.and_then(|t| state.unit(t)).map(|t| (t.id, t.at));
        match transport {
            None => {
                if let Some(u) = state.unit(id) {
                    events.push(Event::Casualty {
                        space: at,
                        power: u.owner,
                        unit: u.unit,
                        destroyed: true,
                        reason: "rule: its transport was sunk in the sea battle before the \
                                 landing (sea battle first)"
                            .into(),
                    });
                }
                state.units.retain(|u| u.id != id);
            }
            Some((t, t_at)) if !cleared => {
                if let Some(u) = state.unit_mut(id) {
                    u.cargo_of = Some(t);
                    u.at = t_at;
                    u.unloaded_from = None;
                    u.unloaded_by = None;
                }
                if let Some(tr) = state.unit_mut(t) {
                    tr.unloaded_to = None;
                }
                events.push(Event::Decision {
                    space: at,
                    rule: "rule: an amphibious assault lands only from a cleared sea zone".into(),
                    detail: format!(
                        "the landing from {} is called off: the unit stays aboard its transport",
                        ctx.game.space_name(zone)
                    ),
                });
            }
            Some(_) => {}
        }
    }
}

/// True when the attacker is still in the sea zone and every defender in
/// play there is a transport: errata p.17 lets the landing go ahead past
/// them (submerged submarines are out of play already).
pub(crate) fn only_transports_defend(ctx: &Ctx, state: &GameState, zone: SpaceId) -> bool {
    !attackers(ctx, state, zone).is_empty()
        && defenders(ctx, state, zone).iter().all(|id| {
            state.unit(*id).is_some_and(|u| {
                let t = ctx.ut(u);
                t.transport_capacity.is_some() && t.attack.unwrap_or(0) == 0
            })
        })
}

/// The bombardment value of a unit type (0 when it cannot bombard).
fn bombard_value(t: &crate::rules::model::UnitType) -> u8 {
    t.abilities
        .iter()
        .find_map(|a| match a {
            Ability::Bombard(n) => Some(*n),
            _ => None,
        })
        .unwrap_or(0)
}

/// The attacker's ships that bombard the amphibious assault on `space`:
/// those with `bombard` in the zones its ground units landed from, when at
/// least one unit that can attack landed (FAQ), that did not fight a sea
/// battle there this turn and have not bombarded elsewhere.
pub(crate) fn bombarding_ships(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    fought_at_sea: &[SpaceId],
    used: &[u32],
    events: &mut Vec<Event>,
) -> Vec<u32> {
    let mut zones: Vec<SpaceId> = state
        .units_at(space)
        .filter(|u| {
            u.owner == ctx.power
                && u.cargo_of.is_none()
                && ctx.ut(u).kind == Some(UnitKind::Land)
                && ctx.ut(u).attack.unwrap_or(0) > 0
        })
        .filter_map(|u| u.unloaded_from)
        .collect();
    zones.sort_by_key(|z| z.0);
    zones.dedup();
    let mut ships = Vec::new();
    for z in zones {
        let here: Vec<u32> = state
            .units_at(z)
            .filter(|u| {
                u.owner == ctx.power
                    && u.cargo_of.is_none()
                    && !used.contains(&u.id)
                    && ctx.ut(u).has(&Ability::Bombard(0))
                    && state.ship_damage_of(u.id).is_none()
            })
            .map(|u| u.id)
            .collect();
        if here.is_empty() {
            continue;
        }
        if fought_at_sea.contains(&z) {
            events.push(Event::Decision {
                space,
                rule: "interpretation: ships that fought a sea battle this turn do not bombard \
                       (docs/rules/aae.md and anniversary.md, Combat)"
                    .into(),
                detail: format!(
                    "the ships in {} fought there and give no support shot",
                    ctx.game.space_name(z)
                ),
            });
            continue;
        }
        ships.extend(here);
    }
    if ctx.rules.one_bombardment_per_landed_unit {
        let landed = state
            .units_at(space)
            .filter(|u| {
                u.owner == ctx.power
                    && u.cargo_of.is_none()
                    && u.unloaded_from.is_some()
                    && ctx.ut(u).kind == Some(UnitKind::Land)
                    && ctx.ut(u).attack.unwrap_or(0) > 0
            })
            .count();
        if ships.len() > landed {
            // The strongest ships bombard: what the attacker would choose.
            ships.sort_by_key(|id| {
                let value = state.unit(*id).map_or(0, |u| bombard_value(ctx.ut(u)));
                (std::cmp::Reverse(value), *id)
            });
            events.push(Event::Decision {
                space,
                rule: "interpretation: one ship bombards per land unit landed in the territory \
                       (TripleA \"Shore Bombard Per Ground Unit Restricted\"; \
                       docs/rules/anniversary.md, Combat)"
                    .into(),
                detail: format!(
                    "{landed} land unit(s) landed, so {landed} of the {} ships able to bombard \
                     do, the strongest first",
                    ships.len()
                ),
            });
            ships.truncate(landed);
        }
    }
    ships
}

/// The defenders' carriers in the sea zone `zone` (ids), taken before a sea
/// battle so that [`land_stranded_aircraft`] knows whether one sank.
pub(crate) fn defending_carriers(ctx: &Ctx, state: &GameState, zone: SpaceId) -> Vec<u32> {
    state
        .units_at(zone)
        .filter(|u| {
            !allied(ctx.game, u.owner, ctx.power)
                && u.cargo_of.is_none()
                && ctx.ut(u).carrier_capacity.unwrap_or(0) > 0
        })
        .map(|u| u.id)
        .collect()
}

/// The rule that lands defending aircraft whose carrier sank.
const STRANDED_RULE: &str = "rule: defending fighters whose carrier sank stay only on another \
     friendly carrier with room in the zone or land on a friendly island lying wholly in it, \
     else they are lost (classic 2nd edition, DAAK clarifications §3.4(b); docs/rules/aae.md, \
     Combat)";

/// After the sea battle in `zone`: when one of the defenders' carriers
/// (`carriers_before`) was sunk, their surviving aircraft there stay only as
/// far as the friendly carriers left in the zone have room (lowest unit id
/// first); each other one lands on a friendly island lying wholly in the
/// zone (the first in board order), else it is lost. Classic 2nd edition
/// (DAAK clarifications §3.4(b)); the AAE FAQ and digest are silent.
pub(crate) fn land_stranded_aircraft(
    ctx: &Ctx,
    state: &mut GameState,
    zone: SpaceId,
    carriers_before: &[u32],
    events: &mut Vec<Event>,
) {
    if carriers_before.iter().all(|id| state.unit(*id).is_some()) {
        return;
    }
    let game = ctx.game;
    let mut room: Vec<(usize, u32)> = defending_carriers(ctx, state, zone)
        .into_iter()
        .filter_map(|id| state.unit(id))
        .map(|u| (u.owner, u32::from(ctx.ut(u).carrier_capacity.unwrap_or(0))))
        .collect();
    let mut planes: Vec<(u32, usize, usize, Option<u8>)> = state
        .units_at(zone)
        .filter(|u| {
            !allied(game, u.owner, ctx.power)
                && u.cargo_of.is_none()
                && ctx.ut(u).kind == Some(UnitKind::Air)
        })
        .map(|u| (u.id, u.owner, u.unit, ctx.ut(u).carrier_cost))
        .collect();
    planes.sort_by_key(|p| p.0);
    for (id, owner, unit, cost) in planes {
        if let Some(cost) = cost.map(u32::from)
            && let Some(slot) = room
                .iter_mut()
                .find(|(o, left)| allied(game, *o, owner) && *left >= cost)
        {
            slot.1 -= cost;
            continue;
        }
        let island = game.neighbours(zone).iter().copied().find(|&t| {
            !game.is_sea(t)
                && game.neighbours(t).iter().all(|n| *n == zone)
                && state.owner[t.0].is_some_and(|o| allied(game, o, owner))
        });
        let name = &game.unit_types()[unit].name;
        let power = &game.powers()[owner].name;
        match island {
            Some(t) => {
                if let Some(u) = state.unit_mut(id) {
                    u.at = t;
                }
                events.push(Event::Decision {
                    space: zone,
                    rule: STRANDED_RULE.into(),
                    detail: format!(
                        "{power} {name}: its carrier sank and no friendly carrier here has \
                         room, so it lands on {}",
                        game.space_name(t)
                    ),
                });
            }
            None => {
                state.units.retain(|u| u.id != id);
                events.push(Event::Casualty {
                    space: zone,
                    power: owner,
                    unit,
                    destroyed: true,
                    reason: STRANDED_RULE.into(),
                });
            }
        }
    }
}
