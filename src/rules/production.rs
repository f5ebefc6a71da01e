//! Production: buying units in the purchase phase and placing them at
//! industrial complexes in the place phase.
//!
//! Rules (AAE; interpretations in `docs/rules/aae.md`, "Turn sequence,
//! production and income"):
//! - a unit costs what `units.yaml` says; a unit without a cost (the
//!   industrial complex) cannot be bought; the bill may not exceed the
//!   treasury;
//! - units are placed only in territories with an industrial complex that the
//!   power controlled at the start of its turn (not one captured this turn);
//! - a complex in a territory the power originally owned places any number of
//!   units; a captured one (or one a power holds by the liberation
//!   exception) places no more units than the territory's IPC value;
//! - land units and aircraft go into the complex's territory (newly built
//!   fighters only on land, never on a carrier: FAQ); ships into a sea zone
//!   next to it, even one holding enemy ships (FAQ);
//! - every unit bought is placed.

use std::collections::BTreeMap;

use crate::rules::conquest::original_owner;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{Located, OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::variants::FreeUnit;
use crate::rules::vocab::{PowerId, UnitCount, UnitList, UnitTypeId};
use crate::rules::{GameDef, SpaceId};

/// A place where a power may mobilize units this turn: an industrial
/// complex, or any territory where the rule set allows placement without one
/// (Anniversary's China).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Complex {
    /// Its territory.
    pub space: SpaceId,
    /// Most units it places this turn; `None` for no limit.
    pub limit: Option<u32>,
    /// The rule that sets `limit` when it is not the territory's IPC value,
    /// in words for the error (Classic: DAAK-C §2.7d); `None` otherwise.
    pub rule: Option<&'static str>,
}

/// The places where `power` may mobilize units this turn, as its rule set
/// says ([`RuleSetHooks::placement_sites`](crate::rules::variants::RuleSetHooks::placement_sites)).
pub fn sites(game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
    game.rule_set().placement_sites(game, state, power)
}

/// The industrial complexes where `power` may place units this turn: in
/// territories it controls that were not captured this turn. AAE's limits
/// (the default rule): unlimited in the power's original territory, else the
/// territory's IPC value.
pub fn complexes(game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
    (0..game.space_count())
        .map(SpaceId)
        .filter(|&s| game.territory(s).is_some())
        .filter(|&s| state.owner[s.0] == Some(power) && !state.captured_this_turn.contains(&s))
        .filter(|&s| {
            state
                .units_at(s)
                .any(|u| game.unit_types()[u.unit].has(&Ability::Production))
        })
        .map(|space| Complex {
            space,
            rule: None,
            limit: if original_owner(game, space) == Some(power) {
                None
            } else {
                Some(game.territory(space).and_then(|t| t.ipc).unwrap_or(0))
            },
        })
        .collect()
}

/// Adds up a unit list by type (a type written twice counts once, summed).
pub fn totals(units: &UnitList) -> BTreeMap<UnitTypeId, u32> {
    let mut out = BTreeMap::new();
    for c in units {
        *out.entry(c.unit).or_insert(0) += c.count;
    }
    out
}

pub(crate) fn describe(game: &GameDef, counts: &BTreeMap<UnitTypeId, u32>) -> String {
    counts
        .iter()
        .filter(|(_, n)| **n > 0)
        .map(|(u, n)| format!("{n} {}", game.unit_types()[*u].name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn kind(game: &GameDef, unit: UnitTypeId) -> UnitKind {
    game.unit_types()[unit].kind.unwrap_or(UnitKind::Land)
}

fn coastal(game: &GameDef, space: SpaceId) -> bool {
    game.neighbours(space).iter().any(|&n| game.is_sea(n))
}

/// Checks and applies `power`'s purchase: pays for the units from its
/// treasury and keeps them in `state.purchased` until placement.
pub fn purchase(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    order: &Located<UnitList>,
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let origin = &order.origin;
    let bought = totals(&order.item);
    let mut errors = Vec::new();
    let mut cost = 0u32;
    let withheld = game.combat_rules().withheld_units;
    for (&unit, &n) in &bought {
        let t = &game.unit_types()[unit];
        if let Some((_, why)) = withheld
            .iter()
            .find(|(name, _)| game.unit_type(name).is_some_and(|w| std::ptr::eq(w, t)))
        {
            errors.push(OrderError::new(
                origin,
                format!("{} cannot be bought: {why}", t.name),
            ));
            continue;
        }
        // Improved Shipyards lowers naval prices (research).
        match crate::rules::research::unit_cost(game, state, power, t) {
            Some(c) => cost += c * n,
            None if t.has(&Ability::Production) => errors.push(OrderError::new(
                origin,
                format!("no new {} may be built: they cannot be bought", t.name),
            )),
            None => errors.push(OrderError::new(
                origin,
                format!("{} cannot be bought", t.name),
            )),
        }
    }
    let treasury = state.ipcs[power];
    if cost > treasury {
        errors.push(OrderError::new(
            origin,
            format!(
                "{} costs {cost} IPCs, but {} has only {treasury}",
                describe(game, &bought),
                game.powers()[power].name
            ),
        ));
    }
    let count: u32 = bought.values().sum();
    // Where units may be held back, a purchase beyond capacity is legal: the
    // excess waits in the mobilization zone (Anniversary FAQ).
    if count > 0 && !game.rule_set().holds_unplaceable_units() {
        errors.extend(check_room(game, state, power, origin, &bought));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    state.ipcs[power] -= cost;
    let mut all = totals(&state.purchased);
    for (u, n) in &bought {
        *all.entry(*u).or_insert(0) += n;
    }
    state.purchased = all
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(unit, count)| UnitCount { unit, count })
        .collect();
    if count > 0 {
        events.push(Event::Purchased {
            power,
            units: bought
                .into_iter()
                .map(|(unit, count)| UnitCount { unit, count })
                .collect(),
            cost,
        });
    }
    Ok(())
}

/// Whether the units bought can be placed at all this turn: a purchase that
/// no placement could satisfy is refused now rather than at placement.
fn check_room(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    origin: &Origin,
    bought: &BTreeMap<UnitTypeId, u32>,
) -> Vec<OrderError> {
    let name = &game.powers()[power].name;
    let places = sites(game, state, power);
    // Buildings need no complex (new complexes, Advanced AAE's fortifications).
    let needs_a_complex = bought
        .iter()
        .any(|(u, n)| *n > 0 && kind(game, *u) != UnitKind::Building);
    if places.is_empty() && needs_a_complex {
        return vec![OrderError::new(
            origin,
            format!(
                "{name} controls no industrial complex where units bought this turn could be placed"
            ),
        )];
    }
    let room = |list: &[&Complex]| -> Option<u32> {
        list.iter()
            .try_fold(0u32, |acc, c| c.limit.map(|l| acc + l))
    };
    let mut errors = Vec::new();
    let all: Vec<&Complex> = places.iter().collect();
    let total: u32 = bought
        .iter()
        .filter(|(u, _)| kind(game, **u) != UnitKind::Building)
        .map(|(_, n)| n)
        .sum();
    if let Some(r) = room(&all).filter(|&r| total > r) {
        errors.push(OrderError::new(
            origin,
            format!(
                "{total} units bought, but {name}'s industrial complexes can place only {r} this \
                 turn: {}; buy at most {r}{}",
                capacities(game, state, &all),
                repair_hint(game, state, &all)
            ),
        ));
    }
    let ships: u32 = bought
        .iter()
        .filter(|(u, _)| kind(game, **u) == UnitKind::Sea)
        .map(|(_, n)| n)
        .sum();
    let coast: Vec<&Complex> = places.iter().filter(|c| coastal(game, c.space)).collect();
    if ships > 0 && coast.is_empty() {
        errors.push(OrderError::new(
            origin,
            format!(
                "{name} has no industrial complex next to a sea zone where ships could be placed"
            ),
        ));
    } else if let Some(r) = room(&coast).filter(|&r| ships > r) {
        errors.push(OrderError::new(
            origin,
            format!(
                "{ships} ships bought, but {name}'s coastal industrial complexes can place only {r} \
                 this turn: {}; buy at most {r} ships{}",
                capacities(game, state, &coast),
                repair_hint(game, state, &coast)
            ),
        ));
    }
    errors
}

/// Each limited complex of `list` with what it places this turn and why:
/// its rule, or its territory's IPC value less its damage.
fn capacities(game: &GameDef, state: &GameState, list: &[&Complex]) -> String {
    list.iter()
        .filter_map(|c| {
            let limit = c.limit?;
            let here = game.space_name(c.space);
            if let Some(rule) = c.rule {
                return Some(format!("{here} {limit} ({rule})"));
            }
            let ipc = game.territory(c.space).and_then(|t| t.ipc).unwrap_or(0);
            Some(match state.damage_at(c.space) {
                d if d > 0 && limit < ipc => {
                    format!("{here} {limit} (its IPC value {ipc} less {d} damage)")
                }
                _ => format!("{here} {limit} (its IPC value)"),
            })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Where repairs come before the purchase, that damage repaired in the
/// same orders raises these complexes' capacity.
fn repair_hint(game: &GameDef, state: &GameState, list: &[&Complex]) -> String {
    let rules = game.combat_rules();
    let damage: u32 = list.iter().map(|c| state.damage_at(c.space)).sum();
    if !rules.repair_before_purchase || damage == 0 {
        return String::new();
    }
    format!(
        ", or repair some of their {damage} damage in the same orders (`repair:`, {} IPCs a \
         point, one more unit a point)",
        rules.repair_cost_per_point
    )
}

/// A stage 2 sent with no orders at all (an empty message, or the
/// deadline's `pass`): the units bought this turn are not placed, and they
/// are lost (the IPCs stay spent), as units a player leaves unplaced are;
/// so is the unit its rule set gave it free ([`receive_free_unit`]), which
/// the event names apart, since it was never bought.
pub fn forfeit_unplaced(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let mut bought = totals(&state.purchased);
    // The free unit joined the units to place at the start of the turn:
    // one of its type is it.
    let free = free_unit(game, power).filter(|(u, _)| bought.get(u).is_some_and(|&n| n > 0));
    if let Some((u, _)) = free
        && let Some(n) = bought.get_mut(&u)
    {
        *n -= 1;
    }
    let bought = describe(game, &bought);
    if bought.is_empty() && free.is_none() {
        return;
    }
    state.purchased.clear();
    let name = &game.powers()[power].name;
    let free = free.map(|(u, f)| (&game.unit_types()[u].name, f.rule));
    let detail = match free {
        None => format!(
            "{name} placed none of the {bought} bought this turn: with no orders they are lost"
        ),
        Some((unit, rule)) if bought.is_empty() => format!(
            "{name} placed nothing this turn: with no orders the 1 {unit} it received free \
             under the {rule} is lost"
        ),
        Some((unit, rule)) => format!(
            "{name} placed none of the {bought} bought this turn, nor the 1 {unit} it received \
             free under the {rule}: with no orders they are lost"
        ),
    };
    events.push(Event::Special {
        rule: "units not placed".into(),
        detail,
    });
}

/// The unit type `power` receives free each turn under its rule set
/// ([`CombatRules::free_unit_each_turn`](crate::rules::variants::CombatRules::free_unit_each_turn):
/// Advanced AAE's Wolfpack), with the rule, if any.
fn free_unit(game: &GameDef, power: PowerId) -> Option<(UnitTypeId, FreeUnit)> {
    let free = game.combat_rules().free_unit_each_turn?;
    if game.power(free.power) != Some(power) {
        return None;
    }
    let t = game.unit_type(free.unit)?;
    let unit = game.unit_types().iter().position(|u| std::ptr::eq(u, t))?;
    Some((unit, free))
}

/// At the start of `power`'s turn, before its purchase: the unit its rule
/// set gives it free each turn joins the units it places this turn (as
/// Anniversary's Chinese infantry do), outside its complexes' limits
/// (Advanced AAE AAAE-25 and AAAE-17 PROPOSAL).
pub fn receive_free_unit(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let Some((unit, free)) = free_unit(game, power) else {
        return;
    };
    let mut all = totals(&state.purchased);
    *all.entry(unit).or_insert(0) += 1;
    state.purchased = all
        .into_iter()
        .map(|(unit, count)| UnitCount { unit, count })
        .collect();
    let name = &game.unit_types()[unit].name;
    events.push(Event::Special {
        rule: free.rule.into(),
        detail: format!(
            "{} receives 1 {name} free, placed this turn like a {name} it builds but outside \
             its industrial complexes' limits",
            game.powers()[power].name
        ),
    });
}

/// Where the free unit of `power` could still go after the placements of
/// `orders` (`placed`: what they put in each space): the spaces a unit of
/// its kind is placed in (sea zones beside a placement site, or the sites)
/// whose own limits (submarines per zone, AA guns) would take one more.
fn free_unit_room(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    unit: UnitTypeId,
    placed: &BTreeMap<SpaceId, BTreeMap<UnitTypeId, u32>>,
) -> Vec<SpaceId> {
    let mut spaces: Vec<SpaceId> = Vec::new();
    for c in sites(game, state, power) {
        if kind(game, unit) == UnitKind::Sea {
            spaces.extend(game.neighbours(c.space).iter().filter(|&&n| game.is_sea(n)));
        } else {
            spaces.push(c.space);
        }
    }
    spaces.sort_by_key(|s| s.0);
    spaces.dedup();
    spaces.retain(|&s| {
        let mut counts = placed.get(&s).cloned().unwrap_or_default();
        *counts.entry(unit).or_insert(0) += 1;
        submarines_refused(game, state, power, s, &counts).is_none()
            && aa_guns_refused(game, state, s, &counts).is_none()
    });
    spaces
}

/// Checks and applies `power`'s placement of the units in
/// `state.purchased`. Every unit bought must be placed; the unit its rule
/// set gives it free ([`receive_free_unit`]) takes no room at the
/// complexes, and is lost when no space could take it.
pub fn place(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<(SpaceId, UnitList)>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let places = sites(game, state, power);
    let complex_at = |s: SpaceId| places.iter().find(|c| c.space == s);
    let mut left = totals(&state.purchased);
    // Units still to be placed at each limited complex this turn.
    let mut room: BTreeMap<SpaceId, u32> = places
        .iter()
        .filter_map(|c| c.limit.map(|l| (c.space, l)))
        .collect();
    let mut errors = Vec::new();
    let mut sea_orders = Vec::new();
    // The free unit (one at most, when it is among the units to place)
    // takes no room only when every unit of its type is placed; else it is
    // the one left out, and the placed ones are those bought.
    let free = free_unit(game, power);
    let free_due = free.map_or(0, |(u, _)| left.get(&u).copied().unwrap_or(0).min(1));
    let free_placed = free.is_some_and(|(u, _)| {
        let placing: u32 = orders
            .iter()
            .flat_map(|o| o.item.1.iter())
            .filter(|c| c.unit == u)
            .map(|c| c.count)
            .sum();
        placing >= left.get(&u).copied().unwrap_or(0)
    });
    let mut free_left = if free_placed { free_due } else { 0 };
    let mut placed: BTreeMap<SpaceId, BTreeMap<UnitTypeId, u32>> = BTreeMap::new();
    for (i, order) in orders.iter().enumerate() {
        let (space, units) = &order.item;
        let origin = &order.origin;
        let here = game.space_name(*space);
        let counts = totals(units);
        placed.insert(*space, counts.clone());
        let mut ok = true;
        for (&unit, &n) in &counts {
            let t = &game.unit_types()[unit];
            let have = left.get(&unit).copied().unwrap_or(0);
            if n > have {
                ok = false;
                errors.push(OrderError::new(
                    origin,
                    if have == 0 {
                        format!("no {} was bought this turn to place", t.name)
                    } else {
                        format!("only {have} {} bought and not yet placed, not {n}", t.name)
                    },
                ));
            } else {
                left.insert(unit, have - n);
            }
            let k = kind(game, unit);
            match (k, game.is_sea(*space)) {
                (UnitKind::Sea, false) => {
                    ok = false;
                    errors.push(OrderError::new(
                        origin,
                        format!(
                            "{} is a ship: it is placed in a sea zone next to an industrial \
                             complex, not in {here}",
                            t.name
                        ),
                    ));
                }
                (UnitKind::Air, true) => {
                    ok = false;
                    errors.push(OrderError::new(
                        origin,
                        format!(
                            "newly built {} may only be placed on a land territory with an \
                             industrial complex, not at sea in {here} (not even on a carrier)",
                            t.name
                        ),
                    ));
                }
                (UnitKind::Land | UnitKind::Building, true) => {
                    ok = false;
                    errors.push(OrderError::new(
                        origin,
                        format!("{} cannot be placed at sea in {here}", t.name),
                    ));
                }
                _ => {}
            }
        }
        if !ok {
            continue;
        }
        if let Some(reason) = aa_guns_refused(game, state, *space, &counts) {
            errors.push(OrderError::new(origin, reason));
        }
        if let Some(reason) = submarines_refused(game, state, power, *space, &counts) {
            errors.push(OrderError::new(origin, reason));
        }
        // New industrial complexes take no production capacity; they go
        // where the power has held the land since the start of its turn and
        // no complex stands yet (digest §3: one per territory).
        let mut n = 0;
        let mut exempt = 0;
        for (&unit, &count) in &counts {
            if kind(game, unit) != UnitKind::Building {
                // The free unit takes no room at the complexes.
                if free.is_some_and(|(u, _)| u == unit) && free_left > 0 {
                    exempt = count.min(free_left);
                    free_left -= exempt;
                }
                n += count - exempt;
                continue;
            }
            let refused = match game.combat_rules().fortifications {
                Some(f)
                    if crate::rules::combat::fortifications::is_fortification(
                        game,
                        &game.combat_rules(),
                        &game.unit_types()[unit],
                    ) =>
                {
                    fortification_refused(game, state, power, (*space, count), &counts, f)
                }
                _ => building_refused(game, state, power, *space, count),
            };
            if let Some(reason) = refused {
                errors.push(OrderError::new(origin, reason));
            }
        }
        if n == 0 && exempt == 0 {
            continue;
        }
        if game.is_sea(*space) {
            let next_to: Vec<SpaceId> = game
                .neighbours(*space)
                .iter()
                .copied()
                .filter(|&s| complex_at(s).is_some())
                .collect();
            if next_to.is_empty() {
                errors.push(OrderError::new(
                    origin,
                    format!(
                        "{here} is not next to an industrial complex that {} controlled at the \
                         start of the turn",
                        game.powers()[power].name
                    ),
                ));
            } else if n > 0 {
                sea_orders.push((i, next_to, n));
            }
        } else if complex_at(*space).is_none() {
            let reason = match game.rule_set().placement_rule(game, power) {
                Some(rule) => format!("new units may not be placed in {here}: {rule}"),
                None => format!(
                    "{here} has no industrial complex that {} controlled at the start of the turn",
                    game.powers()[power].name
                ),
            };
            errors.push(OrderError::new(origin, reason));
        } else if let Some(r) = room.get_mut(space) {
            if n > *r {
                let extra = crate::rules::research::extra_production(
                    state,
                    power,
                    game.territory(*space).and_then(|t| t.ipc).unwrap_or(0),
                );
                errors.push(OrderError::new(
                    origin,
                    over_limit(
                        game,
                        state,
                        *space,
                        (*r, n, extra),
                        complex_at(*space).and_then(|c| c.rule),
                    ),
                ));
            } else {
                *r -= n;
            }
        }
    }
    // Ships: charged to an unlimited complex next to the zone when there is
    // one, else to the limited ones with the most room left.
    for (i, next_to, mut n) in sea_orders {
        if next_to.iter().any(|s| !room.contains_key(s)) {
            continue;
        }
        let mut by_room: Vec<SpaceId> = next_to;
        by_room.sort_by_key(|s| std::cmp::Reverse(room[s]));
        let available: u32 = by_room.iter().map(|s| room[s]).sum();
        if n > available {
            let origin = &orders[i].origin;
            errors.push(OrderError::new(
                origin,
                format!(
                    "{} units placed in {}, but the limited industrial complexes next to it can \
                     place only {available} more this turn (no more than their territory's IPC \
                     value)",
                    n,
                    game.space_name(orders[i].item.0)
                ),
            ));
            continue;
        }
        for s in by_room {
            let r = room.get_mut(&s).expect("a limited complex");
            let take = n.min(*r);
            *r -= take;
            n -= take;
        }
    }
    // The free unit not placed: lost when no space could take it, else it
    // must be placed like the units bought.
    if let (Some((unit, rule)), 1, false) = (free, free_due, free_placed)
        && left.get(&unit).is_some_and(|&n| n > 0)
    {
        let name = &game.unit_types()[unit].name;
        let room = free_unit_room(game, state, power, unit, &placed);
        if let Some(n) = left.get_mut(&unit) {
            *n -= 1;
        }
        if room.is_empty() {
            events.push(Event::Special {
                rule: rule.rule.into(),
                detail: format!(
                    "no space where {} places a new {name} can take one more: its free {name} \
                     is lost",
                    game.powers()[power].name
                ),
            });
        } else {
            let names: Vec<&str> = room.iter().map(|s| game.space_name(*s)).collect();
            errors.push(OrderError::new(
                &Origin {
                    section: "place",
                    line: orders.first().and_then(|o| o.origin.line),
                    ..Origin::default()
                },
                format!(
                    "the free {name} ({}) is not placed: it is placed like a {name} bought this \
                     turn, outside the complexes' limits; it may go to {}",
                    rule.rule,
                    names.join(", ")
                ),
            ));
        }
    }
    // Units no site has room for are held back where the rule set allows
    // it; any other unit left out is an error.
    let mut held: BTreeMap<UnitTypeId, u32> = BTreeMap::new();
    if game.rule_set().holds_unplaceable_units() {
        let has_room = |s: &SpaceId| room.get(s).is_none_or(|&r| r > 0);
        let land_room = places.iter().any(|c| has_room(&c.space));
        let sea_room = places
            .iter()
            .any(|c| coastal(game, c.space) && has_room(&c.space));
        for (&unit, n) in left.iter_mut() {
            let fits = match kind(game, unit) {
                UnitKind::Building => true,
                UnitKind::Sea => sea_room,
                UnitKind::Land | UnitKind::Air => land_room,
            };
            if !fits && *n > 0 {
                held.insert(unit, std::mem::take(n));
            }
        }
    }
    let unplaced = describe(game, &left);
    if !unplaced.is_empty() {
        // The line of the place section, when the message has one, and
        // where the units could go (few places: every complex is listed).
        let where_ = places
            .iter()
            .map(|c| game.space_name(c.space))
            .collect::<Vec<_>>()
            .join(", ");
        errors.push(OrderError::new(
            &Origin {
                section: "place",
                line: orders.first().and_then(|o| o.origin.line),
                ..Origin::default()
            },
            if where_.is_empty() {
                format!("{unplaced} bought this turn and not placed: every unit bought must be placed")
            } else {
                format!(
                    "{unplaced} bought this turn and not placed: every unit bought must be placed (where {} may place now: {where_})",
                    game.powers()[power].name
                )
            },
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    for order in orders {
        let (space, units) = &order.item;
        for c in units {
            for _ in 0..c.count {
                state.add_unit(c.unit, power, *space);
            }
        }
        events.push(Event::Placed {
            power,
            space: *space,
            units: units.clone(),
        });
    }
    state.purchased.clear();
    if !held.is_empty() {
        events.push(Event::Special {
            rule: "units held back".into(),
            detail: format!(
                "{} has no production capacity left for {}: they wait in the mobilization zone \
                 for a later turn",
                game.powers()[power].name,
                describe(game, &held)
            ),
        });
        let mine = &mut state.held[power];
        let mut all = totals(mine);
        for (u, n) in held {
            *all.entry(u).or_insert(0) += n;
        }
        *mine = all
            .into_iter()
            .map(|(unit, count)| UnitCount { unit, count })
            .collect();
    }
    Ok(())
}

fn anti_aircraft(game: &GameDef, unit: UnitTypeId) -> bool {
    game.unit_types()[unit]
        .abilities
        .iter()
        .any(|a| matches!(a, Ability::AntiAircraft(_)))
}

/// DAAK-C §3.1(b), where the rule set says so: why the AA guns of this
/// placement would leave more than one AA gun in the land territory
/// `space` (the place section names each territory once).
fn aa_guns_refused(
    game: &GameDef,
    state: &GameState,
    space: SpaceId,
    counts: &BTreeMap<UnitTypeId, u32>,
) -> Option<String> {
    if !game.combat_rules().one_aa_gun_per_territory || game.is_sea(space) {
        return None;
    }
    let new: u32 = counts
        .iter()
        .filter(|(u, _)| anti_aircraft(game, **u))
        .map(|(_, n)| *n)
        .sum();
    if new == 0 {
        return None;
    }
    let standing = state
        .units_at(space)
        .filter(|u| u.cargo_of.is_none() && anti_aircraft(game, u.unit))
        .count();
    let total = u32::try_from(standing)
        .unwrap_or(u32::MAX)
        .saturating_add(new);
    (total > 1).then(|| {
        format!(
            "{} would hold {total} AA guns: a territory holds at most one AA gun at any time, \
             new ones included (DAAK-C §3.1(b))",
            game.space_name(space)
        )
    })
}

/// AAAE-44 at placement, where the rule set limits submarines per zone:
/// why the submarines of this placement would leave more than the limit of
/// `power`'s side in the sea zone `space`, counted by side (digest PROPOSAL;
/// the place section names each zone once).
fn submarines_refused(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    space: SpaceId,
    counts: &BTreeMap<UnitTypeId, u32>,
) -> Option<String> {
    let limit = game.combat_rules().submarines_per_zone?;
    if !game.is_sea(space) {
        return None;
    }
    let sub = |u: UnitTypeId| game.unit_types()[u].has(&Ability::Submerge);
    let new: u32 = counts
        .iter()
        .filter(|(u, _)| sub(**u))
        .map(|(_, n)| *n)
        .sum();
    if new == 0 {
        return None;
    }
    let side = game.side_of(power);
    let standing = state
        .units_at(space)
        .filter(|u| u.cargo_of.is_none() && game.side_of(u.owner) == side && sub(u.unit))
        .count();
    let total = u32::try_from(standing)
        .unwrap_or(u32::MAX)
        .saturating_add(new);
    (total > u32::from(limit)).then(|| {
        format!(
            "{} would hold {total} submarines of {}'s side: a sea zone holds at most {limit} \
             submarines of one side at the end of a phase, new ones included (AAAE-44)",
            game.space_name(space),
            game.powers()[power].name
        )
    })
}

/// Why `count` new buildings may not be placed in `space`, if they may not.
fn building_refused(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    space: SpaceId,
    count: u32,
) -> Option<String> {
    let here = game.space_name(space);
    let name = &game.powers()[power].name;
    if state.owner[space.0] != Some(power) || state.captured_this_turn.contains(&space) {
        Some(format!(
            "a new industrial complex goes only in a territory {name} has controlled since the \
             start of its turn, not in {here}"
        ))
    } else if count > 1
        || state
            .units_at(space)
            .any(|u| game.unit_types()[u.unit].has(&Ability::Production))
    {
        Some(format!(
            "{here} would hold more than one industrial complex; a territory holds at most one"
        ))
    } else {
        None
    }
}

/// Why `count` fortifications may not be placed in `space` by `power`
/// (Advanced AAE AAAE-29), beside the units `placed` there this phase: the
/// territory must have been its side's since the start of the turn, take
/// no more than the turn's limit, and hold enough infantry. No complex is
/// needed and the complexes' limits do not count them.
fn fortification_refused(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    (space, count): (SpaceId, u32),
    placed: &BTreeMap<UnitTypeId, u32>,
    f: crate::rules::variants::Fortifications,
) -> Option<String> {
    let here = game.space_name(space);
    let name = &game.powers()[power].name;
    let side = game.side_of(power);
    let held = state.owner[space.0].is_some_and(|o| game.side_of(o) == side)
        && !state.captured_this_turn.contains(&space);
    if !held {
        return Some(format!(
            "a fortification goes only in a territory {name}'s side has controlled since the \
             start of the turn (AAAE-29), not in {here}"
        ));
    }
    if count > f.per_turn {
        return Some(format!(
            "{count} fortifications placed in {here}, but at most {} may be placed in a \
             territory each turn (AAAE-29)",
            f.per_turn
        ));
    }
    let raised = game.unit_type(f.raises).map(|t| t.name.as_str());
    let is_infantry = |u: UnitTypeId| Some(game.unit_types()[u].name.as_str()) == raised;
    let standing = state
        .units_at(space)
        .filter(|u| u.cargo_of.is_none() && is_infantry(u.unit))
        .filter(|u| {
            if f.own_infantry_to_place {
                u.owner == power
            } else {
                game.side_of(u.owner) == side
            }
        })
        .count() as u32;
    let new: u32 = if f.placed_infantry_count {
        placed
            .iter()
            .filter(|(u, _)| is_infantry(**u))
            .map(|(_, n)| n)
            .sum()
    } else {
        0
    };
    let whose = if f.own_infantry_to_place {
        format!("{name}'s")
    } else {
        format!("{name}'s side's")
    };
    let when = if f.placed_infantry_count {
        "standing or placed there"
    } else {
        "standing there after the non-combat move"
    };
    (standing + new < f.infantry_to_place).then(|| {
        format!(
            "a fortification needs at least {} of {whose} infantry in {here} (AAAE-29), {when}; \
             it has {}",
            f.infantry_to_place,
            standing + new
        )
    })
}

fn over_limit(
    game: &GameDef,
    state: &GameState,
    space: SpaceId,
    (room, n, extra): (u32, u32, u32),
    rule: Option<&'static str>,
) -> String {
    if let Some(rule) = rule {
        return format!(
            "{n} units placed in {}, but {rule}; {room} more may be placed there",
            game.space_name(space)
        );
    }
    let ipc = game.territory(space).and_then(|t| t.ipc).unwrap_or(0);
    // Increased Factory Production (research) raises the limit; damage
    // from raids and rockets lowers it.
    let beyond = if extra > 0 {
        format!(" plus {extra} (increased factory production)")
    } else {
        String::new()
    };
    let damage = match state.damage_at(space) {
        0 => String::new(),
        d => format!(" less its damage ({d})"),
    };
    format!(
        "{n} units placed in {}, but its industrial complex places no more units per turn than \
         its territory's IPC value ({ipc}){beyond}{damage}; {room} more may be placed there",
        game.space_name(space)
    )
}

/// Checks and applies `power`'s repairs of damaged industrial complexes in
/// the purchase phase (Anniversary, rulebook p.17): one IPC per point
/// (Advanced AAE AAAE-33: two, `CombatRules::repair_cost_per_point`), half
/// price with Increased Factory Production (the turn's total halved, rounded
/// up). Applied after the purchase, so the treasury must cover both, or
/// before it where the rule set says so
/// ([`CombatRules::repair_before_purchase`](crate::rules::variants::CombatRules::repair_before_purchase)).
pub fn repair(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<(SpaceId, u32)>],
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    if orders.is_empty() {
        return Ok(());
    }
    let name = &game.powers()[power].name;
    let mut errors = Vec::new();
    if !game.combat_rules().bombing_damages_complexes {
        for o in orders {
            errors.push(
                OrderError::new(
                    &o.origin,
                    "in this game strategic bombing takes IPCs from the treasury and never \
                     damages an industrial complex, so there is nothing to repair",
                )
                .field("space"),
            );
        }
        return Err(errors);
    }
    let mut points = 0u32;
    for o in orders {
        let (space, n) = o.item;
        let here = game.space_name(space);
        let complex = state
            .units_at(space)
            .any(|u| game.unit_types()[u.unit].has(&Ability::Production));
        let damage = state.damage_at(space);
        if !complex {
            errors.push(
                OrderError::new(
                    &o.origin,
                    format!("{here} has no industrial complex to repair"),
                )
                .field("space"),
            );
        } else if state.owner[space.0] != Some(power) {
            errors.push(
                OrderError::new(
                    &o.origin,
                    format!("the industrial complex in {here} is not {name}'s to repair"),
                )
                .field("space"),
            );
        } else if damage == 0 {
            errors.push(
                OrderError::new(
                    &o.origin,
                    format!("the industrial complex in {here} has no damage to repair"),
                )
                .field("points"),
            );
        } else if n > damage {
            errors.push(
                OrderError::new(
                    &o.origin,
                    format!(
                        "the industrial complex in {here} has only {damage} damage; repair at \
                         most {damage}"
                    ),
                )
                .field("points"),
            );
        }
        points += n;
    }
    let half = state.has_technology(
        power,
        crate::rules::vocab::Technology::IncreasedFactoryProduction,
    );
    // Advanced AAE AAAE-33: two IPCs a point.
    let per_point = game.combat_rules().repair_cost_per_point;
    let cost = if half { points.div_ceil(2) } else { points } * per_point;
    let treasury = state.ipcs[power];
    if errors.is_empty() && cost > treasury {
        let price = if half {
            " (half price with Increased Factory Production, rounded up)"
        } else {
            ""
        };
        let left = if game.combat_rules().repair_before_purchase {
            ""
        } else {
            " left after its purchase"
        };
        errors.push(OrderError::new(
            &orders[0].origin,
            format!(
                "repairing {points} damage costs {cost} IPCs{price}, but {name} has only \
                 {treasury}{left}"
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    state.ipcs[power] -= cost;
    // The cost is reported per complex; with half price the rounding up
    // falls on the last one written.
    let mut left_to_charge = cost;
    for (i, o) in orders.iter().enumerate() {
        let (space, n) = o.item;
        let c = if i + 1 == orders.len() {
            left_to_charge
        } else if half {
            n / 2 * per_point
        } else {
            n * per_point
        };
        let c = c.min(left_to_charge);
        left_to_charge -= c;
        state.factory_damage[space.0] -= n;
        events.push(Event::FactoryRepaired {
            space,
            power,
            points: n,
            cost: c,
            left: state.damage_at(space),
        });
    }
    Ok(())
}
