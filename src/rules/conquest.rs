//! Capturing territories and convoy zones: who controls a space after it is
//! taken, liberation, capitals and the units that change hands with the land.
//!
//! Interpretations and their sources: `docs/rules/aae.md`, section "Turn
//! sequence, production and income".

use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The power whose territory `space` is at the start of the game (the one
/// liberation returns it to); `None` for sea zones and neutrals.
pub fn original_owner(game: &GameDef, space: SpaceId) -> Option<PowerId> {
    game.territory(space)
        .and_then(|t| t.original_owner.as_deref())
        .and_then(|name| game.power(name))
}

/// The territory holding `power`'s capital, if it has one.
pub fn capital(game: &GameDef, power: PowerId) -> Option<SpaceId> {
    game.powers()[power]
        .capital
        .as_deref()
        .and_then(|name| game.space(name))
}

/// True when the two powers are on the same side.
pub fn allied(game: &GameDef, a: PowerId, b: PowerId) -> bool {
    game.side_of(a) == game.side_of(b)
}

/// True when `space` is controlled by a power on `power`'s side.
pub fn held_by_side_of(game: &GameDef, state: &GameState, space: SpaceId, power: PowerId) -> bool {
    state.owner[space.0].is_some_and(|o| allied(game, o, power))
}

/// True when `power` has a capital and a power of another side controls it.
pub fn capital_lost(game: &GameDef, state: &GameState, power: PowerId) -> bool {
    capital(game, power).is_some_and(|c| !held_by_side_of(game, state, c, power))
}

/// A sea unit that can fight (not a transport): what takes and holds a
/// convoy zone.
pub fn is_warship(game: &GameDef, unit: usize) -> bool {
    let t = &game.unit_types()[unit];
    t.kind == Some(UnitKind::Sea) && t.attack.unwrap_or(0) > 0
}

/// Who a captured territory goes to: its original owner when that power is
/// an ally of the capturer whose capital its side holds (liberation; a power
/// without a capital, such as AAE's Middle East, always gets its land back,
/// and a capital always returns to its owner), else the capturer.
pub fn new_controller(game: &GameDef, state: &GameState, space: SpaceId, by: PowerId) -> PowerId {
    match original_owner(game, space) {
        Some(orig) if orig != by && allied(game, orig, by) => {
            let returns = match capital(game, orig) {
                None => true,
                Some(c) if c == space => true,
                Some(c) => held_by_side_of(game, state, c, orig),
            };
            if returns { orig } else { by }
        }
        _ => by,
    }
}

/// `by` takes the land territory `space` (its last defenders are gone and a
/// land unit of `by` stands in it): control passes per [`new_controller`],
/// the space is recorded in `state.captured_this_turn`, units that are
/// captured with the territory (industrial complexes, AA guns) change hands,
/// and a captured capital's owner loses its treasury to `by`.
pub fn capture_territory(
    game: &GameDef,
    state: &mut GameState,
    space: SpaceId,
    by: PowerId,
    events: &mut Vec<Event>,
) {
    let from = state.owner[space.0];
    let to = new_controller(game, state, space, by);
    state.owner[space.0] = Some(to);
    if !state.captured_this_turn.contains(&space) {
        state.captured_this_turn.push(space);
    }
    // Advanced AAE AAAE-29 (option `captured_fortifications: destroyed`):
    // the loser's fortifications go instead of changing hands.
    let rules = game.combat_rules();
    if rules.fortifications.is_some_and(|f| f.destroyed_on_capture) {
        let before = state.units.len();
        state.units.retain(|u| {
            u.at != space
                || allied(game, u.owner, by)
                || !crate::rules::combat::fortifications::is_fortification(
                    game,
                    &rules,
                    &game.unit_types()[u.unit],
                )
        });
        let razed = before - state.units.len();
        if razed > 0 {
            events.push(Event::Special {
                rule: "AAAE-29: fortifications (option captured_fortifications: destroyed)".into(),
                detail: format!(
                    "{razed} fortification(s) in {} destroyed with its conquest",
                    game.space_name(space)
                ),
            });
        }
    }
    let mut taken: Vec<usize> = Vec::new();
    for u in state.units.iter_mut().filter(|u| u.at == space) {
        let t = &game.unit_types()[u.unit];
        if u.owner != to && !allied(game, u.owner, by) && t.has(&Ability::CapturedWithTerritory) {
            u.owner = to;
            taken.push(u.unit);
        }
    }
    events.push(Event::Captured {
        space,
        by: to,
        from,
        liberated: to != by,
    });
    if !taken.is_empty() {
        let mut names: Vec<&str> = taken
            .iter()
            .map(|&u| game.unit_types()[u].name.as_str())
            .collect();
        names.sort_unstable();
        events.push(Event::Special {
            rule: "captured with the territory".into(),
            detail: format!(
                "{} in {} taken over by {}",
                names.join(", "),
                game.space_name(space),
                game.powers()[to].name
            ),
        });
    }
    if from.is_some_and(|f| !allied(game, f, to))
        && capital(game, to) == Some(space)
        && let Some(rule) = game.rule_set().freed_capital_regains_territories()
    {
        regain_territories(game, state, to, rule, events);
    }
    if let Some(loser) = from.filter(|&f| !allied(game, f, by) && capital(game, f) == Some(space)) {
        let amount = std::mem::take(&mut state.ipcs[loser]);
        state.ipcs[by] += amount;
        // Units waiting in the mobilization zone are lost with the capital
        // (Anniversary FAQ, Miscellaneous).
        let lost = state
            .held
            .get_mut(loser)
            .map(std::mem::take)
            .unwrap_or_default();
        if !lost.is_empty() {
            let list: Vec<String> = lost
                .iter()
                .map(|c| format!("{} {}", c.count, game.unit_types()[c.unit].name))
                .collect();
            events.push(Event::Special {
                rule: "capital captured".into(),
                detail: format!(
                    "{} loses the units it held back: {}",
                    game.powers()[loser].name,
                    list.join(", ")
                ),
            });
        }
        // So are its researcher tokens (Anniversary FAQ, Miscellaneous).
        crate::rules::research::lose_tokens(game, state, loser, events);
        events.push(Event::Special {
            rule: "capital captured".into(),
            detail: format!(
                "{} took {}'s capital {} and its treasury of {amount} IPCs",
                game.powers()[by].name,
                game.powers()[loser].name,
                game.space_name(space)
            ),
        });
    }
}

/// `power`'s capital is free again: every territory it originally controlled
/// that an ally holds (taken while the capital was lost) goes back to it,
/// with the industrial complexes there; AA guns stay with the ally, the one
/// time a territory changes hands without its AA guns (Anniversary FAQ,
/// Miscellaneous).
fn regain_territories(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    rule: &str,
    events: &mut Vec<Event>,
) {
    for s in 0..game.space_count() {
        let space = SpaceId(s);
        let Some(holder) = state.owner[s] else {
            continue;
        };
        if holder == power
            || !allied(game, holder, power)
            || original_owner(game, space) != Some(power)
        {
            continue;
        }
        state.owner[s] = Some(power);
        let mut kept = 0;
        for u in state
            .units
            .iter_mut()
            .filter(|u| u.at == space && u.owner == holder)
        {
            let t = &game.unit_types()[u.unit];
            if !t.has(&Ability::CapturedWithTerritory) {
                continue;
            }
            if t.has(&Ability::AntiAircraft(0)) {
                kept += 1;
            } else {
                u.owner = power;
            }
        }
        let (to, from) = (&game.powers()[power].name, &game.powers()[holder].name);
        let guns = match kept {
            0 => String::new(),
            1 => format!("; the AA gun there stays with {from}"),
            n => format!("; the {n} AA guns there stay with {from}"),
        };
        events.push(Event::Special {
            rule: rule.into(),
            detail: format!(
                "{} goes back from {from} to {to}, whose capital is free again{guns}",
                game.space_name(space)
            ),
        });
    }
}

/// Brings the control of every convoy zone up to date: a zone where the
/// warships (surface ships or submarines, submerged or not; transports do
/// not count) of only one side stand is controlled by that side: by the
/// convoy's own power when that is its side (the route is reopened), else by
/// the power of the first such warship. An empty zone, or one where both
/// sides have warships, keeps its controller (FAQ: a submerged German
/// submarine takes the convoy once the Allied ships leave).
pub fn update_convoys(game: &GameDef, state: &mut GameState, events: &mut Vec<Event>) {
    for s in 0..game.space_count() {
        let space = SpaceId(s);
        if game
            .sea_zone(space)
            .and_then(|z| z.convoy.as_ref())
            .is_none()
        {
            continue;
        }
        let mut present: Option<PowerId> = None;
        let mut contested = false;
        for u in state.units_at(space).filter(|u| is_warship(game, u.unit)) {
            match present {
                None => present = Some(u.owner),
                Some(p) if !allied(game, p, u.owner) => contested = true,
                Some(_) => {}
            }
        }
        let Some(holder) = present.filter(|_| !contested) else {
            continue;
        };
        take_convoy(game, state, space, holder, events);
    }
}

/// `by`'s warships take (or reopen) the convoy zone `space`: it goes to the
/// convoy's own power when `by` is on its side, else to `by`. Nothing happens
/// in a space that is not a convoy zone or that is already so controlled.
pub fn take_convoy(
    game: &GameDef,
    state: &mut GameState,
    space: SpaceId,
    by: PowerId,
    events: &mut Vec<Event>,
) {
    let Some(convoy_power) = game
        .sea_zone(space)
        .and_then(|z| z.convoy.as_ref())
        .and_then(|c| game.power(&c.power))
    else {
        return;
    };
    let to = if allied(game, by, convoy_power) {
        convoy_power
    } else {
        by
    };
    let from = state.owner[space.0];
    if from != Some(to) {
        state.owner[space.0] = Some(to);
        events.push(Event::Captured {
            space,
            by: to,
            from,
            liberated: to == convoy_power,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn aae() -> GameDef {
        crate::rules::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap()
    }

    fn id(game: &GameDef, name: &str) -> SpaceId {
        game.space(name).unwrap()
    }

    #[test]
    fn liberation_needs_the_owners_capital_held_by_its_side() {
        let game = aae();
        let mut state = GameState::initial(&game);
        let (ussr, uk, ger) = (
            game.power("USSR").unwrap(),
            game.power("UK").unwrap(),
            game.power("Germany").unwrap(),
        );
        let karelia = id(&game, "Karelia");
        state.owner[karelia.0] = Some(ger);
        assert_eq!(new_controller(&game, &state, karelia, uk), ussr);
        state.owner[id(&game, "Moscow").0] = Some(ger);
        assert_eq!(new_controller(&game, &state, karelia, uk), uk);
        // A capital itself always goes back to its owner.
        assert_eq!(new_controller(&game, &state, id(&game, "Moscow"), uk), ussr);
        // The Middle East has no capital: its land always goes back.
        let egypt = id(&game, "Egypt");
        assert_eq!(
            new_controller(&game, &state, egypt, uk),
            game.power("Middle East").unwrap()
        );
    }

    #[test]
    fn in_aae_a_freed_capital_does_not_take_back_what_its_allies_hold() {
        let game = aae();
        let mut state = GameState::initial(&game);
        let (ussr, uk, ger) = (
            game.power("USSR").unwrap(),
            game.power("UK").unwrap(),
            game.power("Germany").unwrap(),
        );
        let (moscow, karelia) = (id(&game, "Moscow"), id(&game, "Karelia"));
        state.owner[moscow.0] = Some(ger);
        state.owner[karelia.0] = Some(uk);
        let mut events = Vec::new();
        capture_territory(&game, &mut state, moscow, uk, &mut events);
        assert_eq!(state.owner[moscow.0], Some(ussr));
        // AAE has no such rule (the Anniversary FAQ's): the UK keeps Karelia.
        assert_eq!(state.owner[karelia.0], Some(uk));
    }

    #[test]
    fn capturing_a_capital_takes_the_treasury_and_the_factory() {
        let game = aae();
        let mut state = GameState::initial(&game);
        let (ussr, ger) = (game.power("USSR").unwrap(), game.power("Germany").unwrap());
        let moscow = id(&game, "Moscow");
        let ic = game
            .unit_types()
            .iter()
            .position(|u| u.name == "industrial complex")
            .unwrap();
        state.units.retain(|u| u.at != moscow || u.unit == ic);
        state.ipcs[ussr] = 17;
        state.ipcs[ger] = 3;
        let mut events = Vec::new();
        capture_territory(&game, &mut state, moscow, ger, &mut events);
        assert_eq!(state.owner[moscow.0], Some(ger));
        assert_eq!((state.ipcs[ussr], state.ipcs[ger]), (0, 20));
        assert!(state.units_at(moscow).all(|u| u.owner == ger));
        assert_eq!(state.captured_this_turn, vec![moscow]);
        assert!(capital_lost(&game, &state, ussr));
    }

    #[test]
    fn convoy_control_follows_lone_warships() {
        let game = aae();
        let mut state = GameState::initial(&game);
        let (uk, us, ger) = (
            game.power("UK").unwrap(),
            game.power("USA").unwrap(),
            game.power("Germany").unwrap(),
        );
        let bc3 = id(&game, "British Convoy 3");
        let sub = game
            .unit_types()
            .iter()
            .position(|u| u.name == "submarine")
            .unwrap();
        let trn = game
            .unit_types()
            .iter()
            .position(|u| u.name == "transport")
            .unwrap();
        let dd = game
            .unit_types()
            .iter()
            .position(|u| u.name == "destroyer")
            .unwrap();
        let mut events = Vec::new();
        // A transport alone takes nothing.
        let t = state.add_unit(trn, ger, bc3);
        update_convoys(&game, &mut state, &mut events);
        assert_eq!(state.owner[bc3.0], Some(uk));
        state.units.retain(|u| u.id != t);
        // A submarine with an enemy destroyer present: contested, unchanged.
        let s = state.add_unit(sub, ger, bc3);
        state.unit_mut(s).unwrap().submerged = true;
        let d = state.add_unit(dd, us, bc3);
        update_convoys(&game, &mut state, &mut events);
        assert_eq!(state.owner[bc3.0], Some(uk));
        // The destroyer leaves: the submerged submarine holds the box.
        state.units.retain(|u| u.id != d);
        update_convoys(&game, &mut state, &mut events);
        assert_eq!(state.owner[bc3.0], Some(ger));
        // An American destroyer alone reopens it for the UK.
        state.units.retain(|u| u.id != s);
        state.add_unit(dd, us, bc3);
        update_convoys(&game, &mut state, &mut events);
        assert_eq!(state.owner[bc3.0], Some(uk));
        assert_eq!(events.len(), 2);
    }
}
