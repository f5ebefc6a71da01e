//! Strategic bombing raids, declared on arrival (FAQ: "the attacker doesn't
//! announce that he's making an SBR until the bombers reach their target").
//!
//! Sequence (FAQ with the A&A: Pacific correction, digest §4.5): AA fire at
//! every raider, bombers and escorts (shot-down planes do nothing); one
//! round of air battle between the escorts and the defender's interceptors
//! already in the territory, simultaneous; each surviving bomber rolls one
//! die, and the territory's controller loses that many IPCs, at most what
//! its treasury holds.
//!
//! Where the rule set says so ([`CombatRules`](crate::rules::variants::CombatRules)),
//! the dice damage the industrial complex instead (Anniversary, capped at
//! twice the territory's IPC value), fighters escort and intercept by the
//! FAQ's optional rule rather than by their data, and a raid may share its
//! territory with a battle: the plan's `raiders` raid first, the rest then
//! fight, and interceptors whose territory falls land one space away
//! ([`land_interceptors`]). Heavy Bombers roll two
//! dice per bomber and keep the best (Anniversary errata p.17).

use super::casualties::{Chooser, HitClass, allocate, rank};
use super::fire::{Group, volley};
use super::{Ctx, aa_guns, attackers, destroy};
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::options::FIGHTER_ESCORTS;
use crate::rules::state::GameState;
use crate::rules::vocab::Technology;
use crate::rules::vocab::UnitTypeId;

/// Why a raid on `space` cannot be made, if it cannot.
pub(crate) fn check(ctx: &Ctx, state: &GameState, space: SpaceId) -> Result<(), String> {
    let name = ctx.game.space_name(space);
    // The target need hold no defender (the bombers attack its industrial
    // complex), so it need not be a pending battle; the bombers must be there.
    let target = state.units_at(space).any(|u| {
        !allied(ctx.game, u.owner, ctx.power) && ctx.ut(u).has(&Ability::Production)
            || ctx.ut(u).has(&Ability::Production)
                && state.owner[space.0].is_some_and(|o| !allied(ctx.game, o, ctx.power))
    });
    if !target {
        return Err(format!("{name} has no enemy industrial complex to bomb"));
    }
    let att = raiders(ctx, state, space)?;
    let mut bomber = false;
    for id in att {
        let Some(u) = state.unit(id) else { continue };
        let t = ctx.ut(u);
        if t.has(&Ability::StrategicBomber) {
            bomber = true;
        } else if escort_value(ctx, state, u).is_none() {
            // Where escorts are an optional rule left off, say so.
            let optional =
                crate::rules::variants::find_option(ctx.game.rule_set(), FIGHTER_ESCORTS.name)
                    .is_some();
            let why = if optional && t.kind == Some(UnitKind::Air) {
                "without the optional rule fighter_escorts, bombers raid alone"
            } else {
                "a strategic bombing raid is made by bombers and their escorts alone"
            };
            // Where a raid may share its territory with a battle, say how.
            let how = if ctx.rules.raid_beside_battle && ctx.named_raiders(space).is_empty() {
                "; to raid while other units attack it, name the raiders in its battle plan \
                 (raiders: 1 bomber)"
            } else {
                ""
            };
            return Err(format!("a {} attacks {name}: {why}{how}", t.name));
        }
    }
    if !bomber && !ctx.named_raiders(space).is_empty() {
        return Err(format!(
            "raiders names no bomber for {name}: a strategic bombing raid is made by bombers"
        ));
    }
    if !bomber {
        return Err(format!(
            "no bomber reached {name}: there is nothing to make a strategic bombing raid with"
        ));
    }
    Ok(())
}

/// The units that make the raid on `space`: those the plan names in
/// `raiders` (lowest unit ids first among equal types; the rest of the
/// attackers fight the battle there), else every attacker there. Naming
/// raiders is refused where the rule set makes a raid the territory's only
/// combat.
pub(crate) fn raiders(ctx: &Ctx, state: &GameState, space: SpaceId) -> Result<Vec<u32>, String> {
    let all = attackers(ctx, state, space);
    let named = ctx.named_raiders(space);
    if named.is_empty() {
        return Ok(all);
    }
    let name = ctx.game.space_name(space);
    if !ctx.rules.raid_beside_battle {
        return Err(format!(
            "raiders names the units that raid {name} while others attack it, but in this game \
             a strategic bombing raid is the territory's only combat that turn: leave raiders \
             out and send only bombers (and escorts) there"
        ));
    }
    let mut chosen = Vec::new();
    for c in named {
        let of_type: Vec<u32> = all
            .iter()
            .copied()
            .filter(|id| state.unit(*id).is_some_and(|u| u.unit == c.unit))
            .collect();
        let t = &ctx.game.unit_types()[c.unit].name;
        if of_type.len() < c.count as usize {
            return Err(format!(
                "raiders names {} {t}, but {} attacking {t} reached {name}",
                c.count,
                of_type.len()
            ));
        }
        chosen.extend(of_type.into_iter().take(c.count as usize));
    }
    chosen.sort_unstable();
    Ok(chosen)
}

/// A fighter under the FAQ's optional rule: any aircraft but a bomber.
fn fighter(t: &crate::rules::model::UnitType) -> bool {
    t.kind == Some(UnitKind::Air) && !t.has(&Ability::StrategicBomber)
}

/// What an attacking aircraft hits at as an escort, if it may escort.
fn escort_value(ctx: &Ctx, state: &GameState, u: &crate::rules::state::Unit) -> Option<u8> {
    let t = ctx.ut(u);
    match ctx.rules.fighter_escorts {
        Some(r) if fighter(t) => Some(if state.has_technology(u.owner, Technology::JetFighters) {
            r.jet_escort
        } else {
            r.escort
        }),
        Some(_) => None,
        None => t.abilities.iter().find_map(|a| match a {
            Ability::Escort(n) if t.kind == Some(UnitKind::Air) => Some(*n),
            _ => None,
        }),
    }
}

/// What a defending unit hits at as an interceptor, if it may intercept.
fn interceptor_value(ctx: &Ctx, u: &crate::rules::state::Unit) -> Option<u8> {
    let t = ctx.ut(u);
    match ctx.rules.fighter_escorts {
        Some(r) => fighter(t).then_some(r.interceptor),
        None => t.abilities.iter().find_map(|a| match a {
            Ability::Interceptor(n) => Some(*n),
            _ => None,
        }),
    }
}

/// The bombers' damage dice: every die rolled, the total and the bombers'
/// dice each (`Some((n, best_only))` under Heavy Bombers): one per bomber,
/// or the development's dice (`research.effects`), the best of them kept
/// (Anniversary errata p.17: two) or all counting (Classic: three).
pub(crate) fn damage_dice(
    dice: &mut dyn DiceSource,
    label: &crate::dice::Label,
    game: &crate::rules::GameDef,
    state: &GameState,
    power: crate::rules::vocab::PowerId,
    bombers: &[&crate::rules::model::UnitType],
) -> (Vec<u32>, u32, Option<(u8, bool)>) {
    let heavy = bombers
        .first()
        .and_then(|t| crate::rules::research::attack_dice(game, state, power, t));
    let per = heavy.map_or(1, |(n, _)| usize::from(n.max(1)));
    let rolls = dice.roll_many(label, bombers.len() * per, 6);
    let total = match heavy {
        Some((_, false)) => rolls.iter().sum(),
        _ => rolls
            .chunks(per)
            .map(|c| c.iter().copied().max().unwrap_or(0))
            .sum(),
    };
    (rolls, total, heavy)
}

/// "two", "three", ... for the dice of a heavy bomber.
fn dice_word(n: u8) -> String {
    match n {
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        n => n.to_string(),
    }
}

/// Adds `rolled` damage to the industrial complex in `space`, capped at
/// twice the territory's IPC value in all (Anniversary; the cap ignores
/// Increased Factory Production, FAQ Weapons Development; Advanced AAE:
/// once, [`CombatRules::complex_damage_cap_per_ipc`]), and logs it.
///
/// [`CombatRules::complex_damage_cap_per_ipc`]: crate::rules::variants::CombatRules::complex_damage_cap_per_ipc
pub(crate) fn damage_complex(
    game: &crate::rules::GameDef,
    state: &mut GameState,
    space: SpaceId,
    cause: String,
    rolled: u32,
    dice_words: String,
    events: &mut Vec<Event>,
) {
    let per_ipc = game.combat_rules().complex_damage_cap_per_ipc;
    let cap = per_ipc * game.territory(space).and_then(|t| t.ipc).unwrap_or(0);
    let times = match per_ipc {
        1 => "",
        2 => "twice ",
        _ => "a multiple of ",
    };
    let before = state.damage_at(space);
    let added = rolled.min(cap.saturating_sub(before));
    if let Some(d) = state.factory_damage.get_mut(space.0) {
        *d = before + added;
    }
    let detail = if added < rolled {
        format!(
            "{dice_words}; capped at {cap}, {times}the territory's IPC value, with {before} \
             already there"
        )
    } else {
        dice_words
    };
    events.push(Event::FactoryDamaged {
        space,
        cause,
        damage: added,
        total: before + added,
        detail,
    });
}

/// Fights the raid on `space` by the attackers there (the caller has set
/// aside those that fight the battle instead). Returns the interceptors
/// that rose against it and survived: under the FAQ's optional rule they
/// take part in no other battle that turn.
pub(crate) fn raid(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) -> Vec<u32> {
    let game = ctx.game;
    let name = game.space_name(space).to_owned();
    aa_guns::fire_in_battle(ctx, state, space, &["sbr", "aa"], dice, events);
    // The air battle: interceptors already in the territory (FAQ) against
    // the escorts. Interception is the defender's choice (AAE digest §4.5;
    // the Anniversary optional rule): each power's standing orders
    // `intercept` cap how many of its fighters rise; without it every
    // interceptor does.
    let raiders = attackers(ctx, state, space);
    let mut interceptors: Vec<u32> = Vec::new();
    let mut risen: Vec<(usize, u32)> = Vec::new();
    for u in state.units_at(space) {
        if allied(game, u.owner, ctx.power)
            || u.submerged
            || u.cargo_of.is_some()
            || interceptor_value(ctx, u).is_none()
        {
            continue;
        }
        let cap = state.standing.get(u.owner).and_then(|s| s.intercept);
        let n = match risen.iter_mut().find(|r| r.0 == u.owner) {
            Some(r) => &mut r.1,
            None => {
                risen.push((u.owner, 0));
                &mut risen.last_mut().expect("just pushed").1
            }
        };
        if cap.is_some_and(|c| *n >= c) {
            continue;
        }
        *n += 1;
        interceptors.push(u.id);
    }
    if !interceptors.is_empty() && !raiders.is_empty() {
        let rule = "standing orders: intercept (default: every fighter there)";
        events.push(Event::Decision {
            space,
            rule: rule.into(),
            detail: format!(
                "{} interceptor(s) rise against the raid",
                interceptors.len()
            ),
        });
        let groups_of = |ids: &[u32], pick: &dyn Fn(&crate::rules::state::Unit) -> Option<u8>| {
            let mut out: Vec<Group> = Vec::new();
            for id in ids {
                let Some(u) = state.unit(*id) else { continue };
                let Some(v) = pick(u) else { continue };
                super::fire::join(&mut out, ctx.ut(u).name.clone(), v, HitClass::Any, u.unit);
            }
            out
        };
        let escort_groups = groups_of(&raiders, &|u| escort_value(ctx, state, u));
        let interceptor_groups = groups_of(&interceptors, &|u| interceptor_value(ctx, u));
        let e_hits = volley(
            dice,
            ctx.low_luck,
            space,
            &["sbr".to_owned(), name.clone(), "escort".to_owned()],
            "escort",
            escort_groups,
            events,
        );
        let i_hits = volley(
            dice,
            ctx.low_luck,
            space,
            &["sbr".to_owned(), name.clone(), "interceptor".to_owned()],
            "interceptor",
            interceptor_groups,
            events,
        );
        let plan = ctx.plan(space);
        let losses: &[UnitTypeId] = plan.map(|p| p.item.losses.as_slice()).unwrap_or(&[]);
        let standing = state.standing.clone();
        let mut on_raiders = rank(
            game,
            state,
            &raiders,
            &Chooser::Attacker {
                losses,
                source: ctx.plan_source(space),
                power: ctx.power,
                standing: &standing,
            },
        );
        let mut on_interceptors = rank(
            game,
            state,
            &interceptors,
            &Chooser::Defender {
                standing: &standing,
                land: false,
            },
        );
        let (a_lost, _) = allocate(&mut on_raiders, i_hits);
        let (d_lost, _) = allocate(&mut on_interceptors, e_hits);
        for t in a_lost.iter().chain(&d_lost) {
            if let Some(u) = state.unit(t.id) {
                events.push(Event::Casualty {
                    space,
                    power: u.owner,
                    unit: u.unit,
                    destroyed: true,
                    reason: t.reason.clone(),
                });
            }
            destroy(ctx, state, t.id, space, events);
        }
    }
    let bombers: Vec<u32> = attackers(ctx, state, space)
        .into_iter()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).has(&Ability::StrategicBomber))
        })
        .collect();
    let risen: Vec<u32> = interceptors
        .into_iter()
        .filter(|id| state.unit(*id).is_some())
        .collect();
    let Some(victim) = state.owner[space.0] else {
        return risen;
    };
    let l = super::label(&["sbr", &name, "damage"]);
    let types: Vec<&crate::rules::model::UnitType> = bombers
        .iter()
        .filter_map(|id| state.unit(*id))
        .map(|u| ctx.ut(u))
        .collect();
    let (rolls, total, heavy) = damage_dice(dice, &l, game, state, ctx.power, &types);
    events.push(Event::Fire {
        space,
        label: l.as_str().to_owned(),
        side: "attacker".into(),
        group: match heavy {
            Some((n, true)) => format!("heavy bomber damage (best of {} dice each)", dice_word(n)),
            Some((n, false)) => format!("heavy bomber damage ({} dice each)", dice_word(n)),
            None => "bomber damage".into(),
        },
        hits_at: 0,
        dice: rolls.clone(),
        sure_hits: 0,
        hits: 0,
    });
    if ctx.rules.bombing_damages_complexes {
        let words = if let Some((n, best)) = heavy {
            let kept = match (n, best) {
                (2, true) => "best of each pair".to_owned(),
                (n, true) => format!("best of each {}", dice_word(n)),
                (_, false) => "every die counting".to_owned(),
            };
            format!(
                "{} heavy bomber(s) rolled {}, {kept}: {total}",
                bombers.len(),
                rolls
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        } else {
            format!("{} bomber(s) rolled {total}", bombers.len())
        };
        damage_complex(
            game,
            state,
            space,
            "strategic bombing raid".into(),
            total,
            words,
            events,
        );
        return risen;
    }
    let paid = total.min(state.ipcs[victim]);
    state.ipcs[victim] -= paid;
    let detail = if paid < total {
        format!(
            "{} bomber(s) rolled {total}; capped at the {paid} IPCs in the treasury",
            bombers.len()
        )
    } else {
        format!("{} bomber(s) rolled {total}", bombers.len())
    };
    events.push(Event::Bombed {
        space,
        victim,
        damage: paid,
        detail,
    });
    risen
}

/// The FAQ's optional rule for interceptors whose territory fell after
/// their raid: "the fighters may move one space to land in a friendly
/// territory or on a friendly aircraft carrier. This movement occurs after
/// all of the attacker's combats have been resolved ... If no such landing
/// space is available, the fighters are lost." The defender cannot be asked
/// in the attacker's turn, so each goes, lowest unit id first, to the first
/// adjacent territory (in board order) its own power controls, else one an
/// ally controls, else the first adjacent sea zone where its side's
/// carriers have room left.
pub(crate) fn land_interceptors(
    ctx: &Ctx,
    state: &mut GameState,
    intercepted: &[(u32, SpaceId)],
    events: &mut Vec<Event>,
) {
    const RULE: &str = "FAQ 2010 (Additional Optional Rules): interceptors whose territory is \
                        captured move one space to a friendly territory or carrier, or are lost";
    let game = ctx.game;
    for &(id, space) in intercepted {
        let Some(u) = state.unit(id) else { continue };
        let (owner, unit) = (u.owner, u.unit);
        if state.owner[space.0].is_some_and(|o| allied(game, o, owner)) {
            continue;
        }
        let held_by = |t: SpaceId, own: bool| {
            !game.is_sea(t)
                && state.owner[t.0].is_some_and(|o| {
                    if own {
                        o == owner
                    } else {
                        allied(game, o, owner)
                    }
                })
        };
        let mut near = game.neighbours(space).to_vec();
        near.sort_unstable();
        let cost = u32::from(game.unit_types()[unit].carrier_cost.unwrap_or(0));
        let deck = |z: SpaceId| {
            let room: u32 = state
                .units_at(z)
                .filter(|c| allied(game, c.owner, owner) && c.cargo_of.is_none())
                .map(|c| u32::from(ctx.ut(c).carrier_capacity.unwrap_or(0)))
                .sum();
            let used: u32 = state
                .units_at(z)
                .filter(|a| allied(game, a.owner, owner) && a.cargo_of.is_none())
                .filter(|a| ctx.ut(a).kind == Some(UnitKind::Air))
                .map(|a| u32::from(ctx.ut(a).carrier_cost.unwrap_or(0)))
                .sum();
            game.is_sea(z) && cost > 0 && used + cost <= room
        };
        let to = near
            .iter()
            .copied()
            .find(|&t| held_by(t, true))
            .or_else(|| near.iter().copied().find(|&t| held_by(t, false)))
            .or_else(|| near.iter().copied().find(|&z| deck(z)));
        let name = &game.unit_types()[unit].name;
        let power = &game.powers()[owner].name;
        match to {
            Some(t) => {
                if let Some(u) = state.unit_mut(id) {
                    u.at = t;
                }
                events.push(Event::Decision {
                    space,
                    rule: RULE.into(),
                    detail: format!(
                        "{power} {name}: it intercepted the raid on {} and the territory fell, so \
                         it lands in {}",
                        game.space_name(space),
                        game.space_name(t)
                    ),
                });
            }
            None => {
                state.units.retain(|u| u.id != id);
                events.push(Event::Casualty {
                    space,
                    power: owner,
                    unit,
                    destroyed: true,
                    reason: format!(
                        "{RULE}: no friendly territory or carrier with room borders {}",
                        game.space_name(space)
                    ),
                });
            }
        }
    }
}
