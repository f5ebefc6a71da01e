//! The Soviet Patriotic War (AAE 2nd-edition errata, FAQ): the Soviet Union
//! takes over allied land units and aircraft in its territories with an
//! industrial complex.

use super::PATRIOTIC_WAR;
use crate::rules::GameDef;
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::state::GameState;
use crate::rules::variants::TakeOver;
use crate::rules::vocab::{PowerId, SpaceId};

/// The power that may invoke the Patriotic War.
const SOVIET_UNION: &str = "Soviet Union";

/// The Soviet Patriotic War (2nd-edition errata, FAQ): the Soviet Union
/// takes over an ally's land units and aircraft, only in a territory that
/// holds a Soviet industrial complex (Leningrad, Archangel, Stalingrad,
/// Moscow), never at sea, never ships.
pub(super) fn patriotic_war(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    take: &TakeOver,
    events: &mut Vec<Event>,
) -> Result<(), String> {
    let TakeOver { space, from, units } = take;
    let (space, from) = (*space, *from);
    let here = game.space_name(space);
    if !PATRIOTIC_WAR.on(game) {
        return Err("the Patriotic War rule is not used in this game".into());
    }
    if game.power(SOVIET_UNION) != Some(power) {
        return Err(format!(
            "only the {SOVIET_UNION} may take over allied units (Patriotic War)"
        ));
    }
    if from == power || !allied(game, from, power) {
        return Err(format!(
            "the Patriotic War takes over units of the {SOVIET_UNION}'s allies, not of {}",
            game.powers()[from].name
        ));
    }
    if game.is_sea(space) {
        return Err(format!(
            "the Patriotic War never applies at sea: units in {here} cannot be taken over, \
             only units in a territory with a Soviet industrial complex"
        ));
    }
    let soviet_complex = |s: SpaceId| {
        state.owner[s.0] == Some(power)
            && state
                .units_at(s)
                .any(|u| u.owner == power && game.unit_types()[u.unit].has(&Ability::Production))
    };
    if !soviet_complex(space) {
        let places: Vec<&str> = (0..game.space_count())
            .map(SpaceId)
            .filter(|&s| soviet_complex(s))
            .map(|s| game.space_name(s))
            .collect();
        let now = if places.is_empty() {
            "none is left".to_owned()
        } else {
            places.join(", ")
        };
        return Err(format!(
            "{here} holds no Soviet industrial complex: the Patriotic War applies only in a \
             Soviet-held territory with one (now: {now})"
        ));
    }
    if units.is_empty() {
        return Err("the take-over names no units".into());
    }
    let mut chosen = Vec::new();
    for c in units {
        let t = &game.unit_types()[c.unit];
        if !matches!(t.kind, Some(UnitKind::Land | UnitKind::Air)) {
            return Err(format!(
                "{} cannot be taken over: the Patriotic War takes only land units and aircraft",
                t.name
            ));
        }
        let ids: Vec<u32> = state
            .units_at(space)
            .filter(|u| u.owner == from && u.unit == c.unit && u.cargo_of.is_none())
            .map(|u| u.id)
            .filter(|id| !chosen.contains(id))
            .take(c.count as usize)
            .collect();
        let from_name = &game.powers()[from].name;
        if ids.is_empty() {
            return Err(format!("{from_name} has no {} in {here}", t.name));
        }
        if (ids.len() as u32) < c.count {
            return Err(format!(
                "{from_name} has only {} {} in {here}, not {}",
                ids.len(),
                t.name,
                c.count
            ));
        }
        chosen.extend(ids);
    }
    for id in &chosen {
        if let Some(u) = state.unit_mut(*id) {
            u.owner = power;
        }
    }
    let list: Vec<String> = units
        .iter()
        .map(|c| format!("{} {}", c.count, game.unit_types()[c.unit].name))
        .collect();
    events.push(Event::Special {
        rule: "Patriotic War".into(),
        detail: format!(
            "the {SOVIET_UNION} took over {} of {} in {here}",
            list.join(", "),
            game.powers()[from].name
        ),
    });
    Ok(())
}
