//! Convoy zones need a transport (AAAE-38), which transports serve whose
//! zones (AAAE-39, option `convoy_stand_ins`), lend-lease through Russia's
//! convoy zone (AAAE-40) and British MidEast's oil convoys (AAAE-08).
//!
//! A convoy zone pays its power only while it is not under enemy control
//! (the base rule, [`crate::rules::income::land_and_convoys`]) and a
//! transport that serves it is in it. Whose zone it is comes from the
//! board's `convoy: {power: ...}`; the powers from the rules' words.

use super::{CONVOY_STAND_INS, LENDLEASE_REQUIRES_ARCHANGEL};
use crate::dice::{DiceSource, Label};
use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::orders::{OrderError, Orders};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// The powers whose transports serve a convoy zone of `owner` (AAAE-39).
/// With option `convoy_stand_ins` at `british_family` (the digest's
/// PROPOSAL): Britain's and British MidEast's zones are British zones,
/// served by British, British MidEast and US transports; at `rules_text`:
/// a British zone by British and US transports, a British MidEast zone by
/// its own only. Every other zone by its own power's.
pub(super) fn servers(game: &GameDef, owner: PowerId) -> Vec<PowerId> {
    let word = |w: &str| game.power(w);
    let britain = word("Britain");
    let bme = word("British MidEast");
    let usa = word("USA");
    let family = CONVOY_STAND_INS.word(game).as_deref() != Some("rules_text");
    let mut out = vec![owner];
    if Some(owner) == britain || (family && Some(owner) == bme) {
        out.extend(usa);
    }
    if family && Some(owner) == britain {
        out.extend(bme);
    }
    if family && Some(owner) == bme {
        out.extend(britain);
    }
    out
}

/// Whether convoy zone `zone` holds a transport that serves it (AAAE-38,
/// 39); any sea zone that is no convoy zone is served.
pub(super) fn served(game: &GameDef, state: &GameState, zone: SpaceId) -> bool {
    let Some(owner) = game
        .sea_zone(zone)
        .and_then(|z| z.convoy.as_ref())
        .and_then(|c| game.power(&c.power))
    else {
        return true;
    };
    let servers = servers(game, owner);
    state.units_at(zone).any(|u| {
        let t = &game.unit_types()[u.unit];
        u.cargo_of.is_none()
            && servers.contains(&u.owner)
            && t.kind == Some(UnitKind::Sea)
            && t.transport_capacity.is_some_and(|c| c > 0)
    })
}

/// AAAE-40: IPCs lend-lease pays per US transport in Russia's convoy zone.
const LEND_LEASE_PER_TRANSPORT: u32 = 4;

/// AAAE-40: at most this many transports count.
const LEND_LEASE_TRANSPORTS: u32 = 3;

/// AAAE-08: the most IPCs one oil convoy carries.
const OIL_CONVOY_MAX: u32 = 6;

/// AAAE-08: an enemy die at or below this sinks a shipped IPC.
const OIL_CONVOY_SINKS_AT: u32 = 2;

/// The dice label of `power`'s oil convoy (`docs/rules/combat-labels.md`).
fn oil_label(power: &str) -> Label {
    Label::from_segments(&["oil convoy", &power.replace('/', "-")])
        .expect("oil convoy labels are short and printable")
}

/// The convoy zones of `owner` on the board.
fn zones_of(game: &GameDef, owner: PowerId) -> Vec<SpaceId> {
    (0..game.space_count())
        .map(SpaceId)
        .filter(|&s| {
            game.sea_zone(s)
                .and_then(|z| z.convoy.as_ref())
                .is_some_and(|c| game.power(&c.power) == Some(owner))
        })
        .collect()
}

/// Whether `zone` is controlled by `power`'s side (in the base sense: no
/// enemy warship has taken it).
fn side_holds(game: &GameDef, state: &GameState, power: PowerId, zone: SpaceId) -> bool {
    state.owner[zone.0].is_some_and(|o| game.side_of(o) == game.side_of(power))
}

/// The orders' `lend_lease` and `oil_convoy` (AAAE-40, AAAE-08).
pub(super) fn payments(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &Orders,
    dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> Result<bool, Vec<OrderError>> {
    let mut errors = Vec::new();
    if let Some(order) = &orders.lend_lease
        && let Err(reason) = lend_lease(game, state, power, order.item, events)
    {
        errors.push(OrderError::new(&order.origin, reason).field("lend_lease"));
    }
    let mut needs_dice = false;
    if let Some(order) = &orders.oil_convoy {
        match oil_convoy(game, state, power, order.item, dice, events) {
            Ok(needs) => needs_dice = needs,
            Err(reason) => {
                errors.push(OrderError::new(&order.origin, reason).field("oil_convoy"));
            }
        }
    }
    if errors.is_empty() {
        Ok(needs_dice)
    } else {
        Err(errors)
    }
}

/// AAAE-40: at the start of its turn the USA may pay Russia 4 IPCs per US
/// transport in Russia's convoy zone, at most 3 transports, while the zone
/// is not the enemy's (and, with option `lendlease_requires_archangel`,
/// while Russia holds the land the convoy requires).
fn lend_lease(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    ipcs: u32,
    events: &mut Vec<Event>,
) -> Result<(), String> {
    let (Some(usa), Some(russia)) = (game.power("USA"), game.power("Russia")) else {
        return Err("lend-lease goes from the USA to Russia (AAAE-40)".into());
    };
    if power != usa {
        return Err(format!(
            "only the USA sends lend-lease, to Russia (AAAE-40), not {}",
            game.powers()[power].name
        ));
    }
    let mut open = Vec::new();
    let mut transports = 0u32;
    for zone in zones_of(game, russia) {
        let requires_held = !LENDLEASE_REQUIRES_ARCHANGEL.on(game)
            || game
                .sea_zone(zone)
                .and_then(|z| z.convoy.as_ref())
                .is_none_or(|c| {
                    c.requires
                        .iter()
                        .filter_map(|r| game.space(r))
                        .all(|s| state.owner[s.0] == Some(russia))
                });
        if !side_holds(game, state, russia, zone) || !requires_held {
            continue;
        }
        open.push(game.space_name(zone).to_owned());
        transports += state
            .units_at(zone)
            .filter(|u| u.owner == usa && u.cargo_of.is_none())
            .filter(|u| {
                let t = &game.unit_types()[u.unit];
                t.kind == Some(UnitKind::Sea) && t.transport_capacity.is_some_and(|c| c > 0)
            })
            .count() as u32;
    }
    let most = LEND_LEASE_PER_TRANSPORT * transports.min(LEND_LEASE_TRANSPORTS);
    if !ipcs.is_multiple_of(LEND_LEASE_PER_TRANSPORT) || ipcs > most {
        let zone = if open.is_empty() {
            "Russia's convoy zone is not open to it (enemy-held, or with option \
             lendlease_requires_archangel, its land not Russian)"
                .to_owned()
        } else {
            format!(
                "{transports} US transport(s) in {} at the start of the turn allow {most}",
                open.join(", ")
            )
        };
        return Err(format!(
            "lend-lease is {LEND_LEASE_PER_TRANSPORT} IPCs per US transport in Russia's \
             convoy zone, at most {LEND_LEASE_TRANSPORTS} transports (AAAE-40): {ipcs} is not \
             allowed; {zone}"
        ));
    }
    if state.ipcs[usa] < ipcs {
        return Err(format!(
            "the USA has {} IPCs and cannot pay {ipcs} in lend-lease",
            state.ipcs[usa]
        ));
    }
    state.ipcs[usa] -= ipcs;
    state.ipcs[russia] += ipcs;
    events.push(Event::Special {
        rule: "lend-lease".into(),
        detail: format!(
            "{} pays {} {ipcs} IPCs through {} (AAAE-40)",
            game.powers()[usa].name,
            game.powers()[russia].name,
            open.join(", ")
        ),
    });
    Ok(())
}

/// AAAE-08: in its purchase phase British MidEast may ship up to 6 IPCs
/// to Britain, while an Allied power holds Cairo or the Allies hold its
/// convoy zone; the IPCs leave its treasury at once, the enemy rolls a die
/// for each, and each 1 or 2 sinks one; Britain receives the rest at once
/// (nothing of Britain's moves in British MidEast's turn, so this is its
/// Collect Income of the digest's PROPOSAL in effect).
fn oil_convoy(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    ipcs: u32,
    dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> Result<bool, String> {
    let (Some(bme), Some(britain)) = (game.power("British MidEast"), game.power("Britain")) else {
        return Err("the oil convoy goes from British MidEast to Britain (AAAE-08)".into());
    };
    if power != bme {
        return Err(format!(
            "only British MidEast ships oil convoys, to Britain (AAAE-08), not {}",
            game.powers()[power].name
        ));
    }
    if ipcs > OIL_CONVOY_MAX {
        return Err(format!(
            "an oil convoy carries at most {OIL_CONVOY_MAX} IPCs a turn (AAAE-08), not {ipcs}"
        ));
    }
    let cairo = super::victory::city(game, "Cairo");
    let cairo_held = cairo
        .is_some_and(|s| state.owner[s.0].is_some_and(|o| game.side_of(o) == game.side_of(bme)));
    let zone_held = zones_of(game, bme)
        .into_iter()
        .any(|z| side_holds(game, state, bme, z));
    if !cairo_held && !zone_held {
        return Err(
            "an oil convoy sails only while the Allies hold Cairo or British MidEast's convoy \
             zone (AAAE-08)"
                .into(),
        );
    }
    if state.ipcs[bme] < ipcs {
        return Err(format!(
            "British MidEast has {} IPCs and cannot ship {ipcs}",
            state.ipcs[bme]
        ));
    }
    state.ipcs[bme] -= ipcs;
    let Some(dice) = dice else {
        return Ok(true);
    };
    let name = &game.powers()[bme].name;
    let rolled = dice.roll_many(&oil_label(name), ipcs as usize, 6);
    let sunk = rolled.iter().filter(|&&d| d <= OIL_CONVOY_SINKS_AT).count() as u32;
    state.ipcs[britain] += ipcs - sunk;
    let shown: Vec<String> = rolled.iter().map(u32::to_string).collect();
    events.push(Event::Special {
        rule: "oil convoy".into(),
        detail: format!(
            "{name} ships {ipcs} IPCs to {}; the Axis dice {} sink {sunk} (1 or 2 each), \
             {} arrive (AAAE-08)",
            game.powers()[britain].name,
            shown.join(", "),
            ipcs - sunk
        ),
    });
    Ok(false)
}
