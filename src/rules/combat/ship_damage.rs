//! The battleship damage table (J Boulton JB-41..44), where the rule set
//! plays it ([`CombatRules::battleship_damage`]; `None` everywhere else,
//! where nothing here runs and battleships are repaired free at the end of
//! their owner's turn).
//!
//! After a sea battle, each battleship (a unit with more than one hit
//! point) still afloat that took a hit in it is rolled for by its owner,
//! one die each under `battle/<space>/battleship damage` in unit id order:
//! 1-2 righted (no hit), 3-4 light damage (attack and defence 3, no
//! bombardment), 5-6 heavy damage (2, no bombardment). A damaged ship keeps
//! its hit unless the rule set says otherwise. Light damage is repaired at
//! the start of the owner's non-combat move when the ship stood at a
//! friendly coast at the end of its owner's last turn and has not moved in
//! the combat move; heavy damage costs two dice of IPCs, rolled in the
//! owner's first stage at that coast (`repair/<power>/<sea zone>/<unit
//! type>`, two dice per ship in unit id order) after the combat move and
//! paid from what the purchase left as soon as it covers the cost; the ship
//! is then repaired at the start of that turn's non-combat move. A ship its
//! owner moves in the combat move is not repaired that turn.

use super::{Ctx, label};
use crate::dice::DiceSource;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::{UnitKind, UnitType};
use crate::rules::state::{GameState, ShipDamage};
use crate::rules::variants::{BattleshipDamage, CombatRules};
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The rule's name in events.
const RULE: &str = "battleship damage table (J Boulton JB-41..44)";

/// Attack and defence of a battleship in light damage (JB-42).
const LIGHT: u8 = 3;
/// Attack and defence of a battleship in heavy damage (JB-43).
const HEAVY: u8 = 2;

/// A ship the damage table applies to: more than one hit point.
fn battleship(t: &UnitType) -> bool {
    t.kind == Some(UnitKind::Sea) && t.hit_points > 1
}

/// The hits each battleship in `space` carries before a battle.
pub(crate) fn hits_before(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<(u32, u8)> {
    if ctx.rules.battleship_damage.is_none() {
        return Vec::new();
    }
    state
        .units_at(space)
        .filter(|u| u.cargo_of.is_none() && battleship(ctx.ut(u)))
        .map(|u| (u.id, u.hits))
        .collect()
}

/// The damage roll after the battle in `space` for every battleship still
/// afloat that took a hit in it (JB-41).
pub(crate) fn roll(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    before: &[(u32, u8)],
    dice: &mut dyn DiceSource,
    events: &mut Vec<Event>,
) {
    let Some(rules) = ctx.rules.battleship_damage else {
        return;
    };
    let mut hit: Vec<u32> = before
        .iter()
        .filter(|(id, hits)| state.unit(*id).is_some_and(|u| u.hits > *hits))
        .map(|(id, _)| *id)
        .collect();
    hit.sort_unstable();
    if hit.is_empty() {
        return;
    }
    let l = label(&["battle", ctx.game.space_name(space), "battleship damage"]);
    let values = dice.roll_many(&l, hit.len(), 6);
    for (&id, &die) in hit.iter().zip(&values) {
        apply_roll(ctx.game, state, id, die, rules, l.as_str(), events);
    }
}

/// The damage roll of battleship `id` hit by coastal fire (JB-46: the hit
/// never sinks it; the roll is made at once).
pub(crate) fn after_coastal_hit(
    ctx: &Ctx,
    state: &mut GameState,
    id: u32,
    die: u32,
    label: &str,
    events: &mut Vec<Event>,
) {
    let Some(rules) = ctx.rules.battleship_damage else {
        return;
    };
    if rules.keeps_hit
        && let Some(u) = state.unit_mut(id)
    {
        // The hit stays with a damaged ship as a battle's would, never
        // more than it can float with.
        u.hits = 1;
    }
    apply_roll(ctx.game, state, id, die, rules, label, events);
}

/// Applies damage roll `die` to battleship `id`.
fn apply_roll(
    game: &GameDef,
    state: &mut GameState,
    id: u32,
    die: u32,
    rules: BattleshipDamage,
    label: &str,
    events: &mut Vec<Event>,
) {
    let Some(u) = state.unit(id).cloned() else {
        return;
    };
    let was_heavy = state.ship_damage_of(id).is_some_and(|d| d.heavy);
    let outcome = match die {
        1 | 2 => None,
        3 | 4 => Some(was_heavy),
        _ => Some(true),
    };
    let detail = match outcome {
        None => {
            state.ship_damage.retain(|d| d.unit != id);
            if let Some(s) = state.unit_mut(id) {
                s.hits = 0;
            }
            "righted: fully fit again".to_owned()
        }
        Some(heavy) => {
            state.ship_damage.retain(|d| d.unit != id);
            state.ship_damage.push(ShipDamage {
                unit: id,
                heavy,
                docked_at: None,
                repair_cost: None,
                repair_paid: false,
            });
            if !rules.keeps_hit
                && let Some(s) = state.unit_mut(id)
            {
                s.hits = 0;
            }
            format!(
                "{} damage: attacks and defends at {}, may not bombard, repaired at a friendly \
                 coast{}",
                if heavy { "heavy" } else { "light" },
                if heavy { HEAVY } else { LIGHT },
                if rules.keeps_hit {
                    "; it keeps its hit"
                } else {
                    ""
                }
            )
        }
    };
    events.push(Event::Decision {
        space: u.at,
        rule: RULE.to_owned(),
        detail: format!(
            "{}'s {} (unit {id}) rolled {die} ({label}): {detail}",
            game.powers()[u.owner].name,
            game.unit_types()[u.unit].name
        ),
    });
}

/// The attack or defence of unit `id` at `strength`, with the name of its
/// damage for its firing group: a damaged battleship fights at 3 (light)
/// or 2 (heavy), whatever else would raise it.
pub(crate) fn strength(state: &GameState, id: u32, strength: u8) -> (u8, Option<&'static str>) {
    match state.ship_damage_of(id) {
        Some(d) if d.heavy => (strength.min(HEAVY), Some("heavily damaged")),
        Some(_) => (strength.min(LIGHT), Some("lightly damaged")),
        None => (strength, None),
    }
}

/// Whether sea zone `zone` is a friendly coast for `power` (JB-42).
fn friendly_coast(
    game: &GameDef,
    state: &GameState,
    zone: SpaceId,
    power: PowerId,
    rules: BattleshipDamage,
) -> bool {
    game.neighbours(zone).iter().any(|&n| {
        !game.is_sea(n)
            && state.owner[n.0]
                .is_some_and(|o| o == power || (rules.allies_coast && allied(game, o, power)))
    })
}

/// At the end of `power`'s turn: its damaged battleships at a friendly
/// coast start (or keep) their repair there; one elsewhere loses its place
/// and any quoted cost (JB-42, JB-43 PROPOSAL). Statuses of sunk ships go.
pub fn dock(game: &GameDef, state: &mut GameState, power: PowerId, rules: &CombatRules) {
    let Some(rules) = rules.battleship_damage else {
        return;
    };
    let mut list = std::mem::take(&mut state.ship_damage);
    list.retain(|d| state.unit(d.unit).is_some());
    for d in &mut list {
        let Some(u) = state.unit(d.unit) else {
            continue;
        };
        if u.owner != power {
            continue;
        }
        let at = u.at;
        if friendly_coast(game, state, at, power, rules) && !d.repair_paid {
            if d.docked_at != Some(at) {
                d.docked_at = Some(at);
                d.repair_cost = None;
            }
        } else if !d.repair_paid {
            d.docked_at = None;
            d.repair_cost = None;
        }
    }
    state.ship_damage = list;
}

/// In `power`'s first stage, after its purchase and its combat move: the
/// repair cost of each heavily damaged battleship docked since its last
/// turn that the combat move left at its coast is rolled (once, kept while
/// it stays) and paid from the IPCs the purchase left when they cover it
/// (JB-43: repaired, it moves only in the non-combat move). A ship ordered
/// away in the combat move is its owner's choice not to repair it this
/// turn: no roll, no payment, and the quote lapses as it leaves the coast.
/// Returns `true` when dice are needed and not given.
pub fn heavy_repairs(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> bool {
    if game
        .rule_set()
        .combat_rules(game)
        .battleship_damage
        .is_none()
    {
        return false;
    }
    let mut docked: Vec<(u32, SpaceId)> = Vec::new();
    for d in state
        .ship_damage
        .iter()
        .filter(|d| d.heavy && !d.repair_paid)
    {
        let (Some(u), Some(coast)) = (state.unit(d.unit), d.docked_at) else {
            continue;
        };
        if u.owner != power {
            continue;
        }
        if u.combat_moved {
            events.push(Event::Decision {
                space: coast,
                rule: RULE.to_owned(),
                detail: format!(
                    "the heavily damaged {} (unit {}) left its coast in the combat move: it is \
                     not repaired this turn (JB-43)",
                    game.unit_types()[u.unit].name,
                    d.unit
                ),
            });
        } else if u.at == coast {
            docked.push((d.unit, coast));
        }
    }
    let unrolled: Vec<(u32, SpaceId)> = docked
        .iter()
        .copied()
        .filter(|(id, _)| {
            state
                .ship_damage_of(*id)
                .is_some_and(|d| d.repair_cost.is_none())
        })
        .collect();
    if !unrolled.is_empty() {
        let Some(dice) = dice else {
            return true;
        };
        let mut zones: Vec<SpaceId> = unrolled.iter().map(|(_, z)| *z).collect();
        zones.sort_by_key(|z| z.0);
        zones.dedup();
        for zone in zones {
            let mut ships: Vec<u32> = unrolled
                .iter()
                .filter(|(_, z)| *z == zone)
                .map(|(id, _)| *id)
                .collect();
            ships.sort_unstable();
            let t = state.unit(ships[0]).map(|u| u.unit).unwrap_or_default();
            let l = label(&[
                "repair",
                game.powers()[power].name.as_str(),
                game.space_name(zone),
                game.unit_types()[t].name.as_str(),
            ]);
            let values = dice.roll_many(&l, ships.len() * 2, 6);
            for (i, &id) in ships.iter().enumerate() {
                let cost = values[2 * i] + values[2 * i + 1];
                if let Some(d) = state.ship_damage.iter_mut().find(|d| d.unit == id) {
                    d.repair_cost = Some(cost);
                }
                events.push(Event::Decision {
                    space: zone,
                    rule: RULE.to_owned(),
                    detail: format!(
                        "the heavily damaged {} (unit {id}) is at a friendly coast: repairs \
                         cost {} + {} = {cost} IPCs ({})",
                        game.unit_types()[t].name,
                        values[2 * i],
                        values[2 * i + 1],
                        l.as_str()
                    ),
                });
            }
        }
    }
    for (id, zone) in docked {
        let Some(cost) = state.ship_damage_of(id).and_then(|d| d.repair_cost) else {
            continue;
        };
        if state.ipcs[power] < cost {
            events.push(Event::Decision {
                space: zone,
                rule: RULE.to_owned(),
                detail: format!(
                    "the repair of unit {id} ({cost} IPCs) waits: {} has {} IPCs left after \
                     its purchase",
                    game.powers()[power].name,
                    state.ipcs[power]
                ),
            });
            continue;
        }
        state.ipcs[power] -= cost;
        if let Some(d) = state.ship_damage.iter_mut().find(|d| d.unit == id) {
            d.repair_paid = true;
        }
        events.push(Event::Decision {
            space: zone,
            rule: RULE.to_owned(),
            detail: format!(
                "{} pays {cost} IPCs for the repair of unit {id}: repaired at the start of the \
                 non-combat move, in which it may move",
                game.powers()[power].name
            ),
        });
    }
    false
}

/// At the start of `power`'s non-combat move: a lightly damaged battleship
/// that stood at a friendly coast at the end of its owner's last turn and
/// did not move in the combat move, and a heavily damaged one whose repair
/// is paid, are repaired (hit and status gone) and may move (JB-42, JB-43).
pub fn repair_at_noncombat(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    if state.ship_damage.is_empty() {
        return;
    }
    let done: Vec<(u32, SpaceId)> = state
        .ship_damage
        .iter()
        .filter_map(|d| {
            let u = state.unit(d.unit)?;
            let light_done = !d.heavy && d.docked_at == Some(u.at) && !u.combat_moved;
            (u.owner == power && (light_done || d.repair_paid)).then_some((d.unit, u.at))
        })
        .collect();
    for (id, at) in done {
        state.ship_damage.retain(|d| d.unit != id);
        if let Some(u) = state.unit_mut(id) {
            u.hits = 0;
        }
        events.push(Event::Decision {
            space: at,
            rule: RULE.to_owned(),
            detail: format!(
                "{}'s battleship (unit {id}) is repaired at the coast and may move in this \
                 non-combat move",
                game.powers()[power].name
            ),
        });
    }
}
