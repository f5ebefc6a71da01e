//! Convoy zones need a transport (AAAE-38), and which transports serve
//! whose zones (AAAE-39, option `convoy_stand_ins`).
//!
//! A convoy zone pays its power only while it is not under enemy control
//! (the base rule, [`crate::rules::income::land_and_convoys`]) and a
//! transport that serves it is in it. Whose zone it is comes from the
//! board's `convoy: {power: ...}`; the powers from the rules' words.

use super::CONVOY_STAND_INS;
use crate::rules::GameDef;
use crate::rules::SpaceId;
use crate::rules::model::UnitKind;
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
