//! The board as plain text: whose turn, treasuries, and every occupied or
//! owned space.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::rules::state::GameState;
use crate::rules::{GameDef, SpaceId};

/// Renders the position for `adjutant show` and `adjutant scenario`.
pub fn render(game: &GameDef, state: &GameState) -> String {
    let mut out = String::new();
    let to_move = &game.powers()[state.current_power(game)].name;
    let _ = writeln!(
        out,
        "{}: round {}, {to_move} to move, {}",
        game.files().game.name,
        state.round,
        state.phase.stage_name()
    );
    let _ = writeln!(out);
    let _ = writeln!(out, "IPCs:");
    for p in game.turn_order() {
        let _ = writeln!(out, "  {:<16} {:>4}", game.powers()[p].name, state.ipcs[p]);
    }
    if !state.purchased.is_empty() {
        let bought: Vec<String> = state
            .purchased
            .iter()
            .map(|c| format!("{} {}", c.count, game.unit_types()[c.unit].name))
            .collect();
        let _ = writeln!(out, "  bought, to place: {}", bought.join(", "));
    }
    if !state.battles.is_empty() {
        let names: Vec<&str> = state.battles.iter().map(|s| game.space_name(*s)).collect();
        let _ = writeln!(out, "Battles pending: {}", names.join(", "));
    }
    let _ = writeln!(out);
    for row in rows(game, state) {
        let _ = writeln!(out, "{}", row.text);
    }
    out
}

/// One space of the board, for the mail templates.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BoardRow {
    /// The space's name.
    pub space: String,
    /// Who holds it (a territory: its owner or `neutral`; a sea zone: the
    /// convoy holder, if any).
    pub holder: Option<String>,
    /// A territory's IPC value.
    pub ipc: Option<u32>,
    /// The territory is not held by its starting owner.
    pub changed: bool,
    /// Each power's units there: `Germany 3 infantry, 1 armor`.
    pub units: Vec<String>,
    /// Damage on its industrial complex (Anniversary), 0 for none.
    pub damage: u32,
    /// The whole row as [`render`] writes it.
    pub text: String,
}

/// Every occupied or changed space, in the game's order, as rows.
pub fn rows(game: &GameDef, state: &GameState) -> Vec<BoardRow> {
    let mut out = Vec::new();
    for s in 0..game.space_count() {
        let space = SpaceId(s);
        let mut by_power: BTreeMap<usize, BTreeMap<usize, u32>> = BTreeMap::new();
        for u in state.units_at(space) {
            *by_power
                .entry(u.owner)
                .or_default()
                .entry(u.unit)
                .or_default() += 1;
        }
        let owner = state.owner[s];
        let changed = owner != game.starting_owner(space);
        if by_power.is_empty() && !changed {
            continue;
        }
        let mut text = String::from(game.space_name(space));
        let (holder, ipc) = if let Some(t) = game.territory(space) {
            let ipc = t.ipc.unwrap_or(0);
            let holder = owner.map_or("neutral", |p| game.powers()[p].name.as_str());
            let _ = write!(
                text,
                " ({holder}, {ipc} IPC{})",
                if changed { ", changed hands" } else { "" }
            );
            (Some(holder.to_owned()), Some(ipc))
        } else if let Some(p) = owner {
            let _ = write!(text, " (convoy held by {})", game.powers()[p].name);
            (Some(game.powers()[p].name.clone()), None)
        } else {
            (None, None)
        };
        let units: Vec<String> = by_power
            .iter()
            .map(|(p, types)| {
                let list: Vec<String> = types
                    .iter()
                    .map(|(u, n)| format!("{n} {}", game.unit_types()[*u].name))
                    .collect();
                format!("{} {}", game.powers()[*p].name, list.join(", "))
            })
            .collect();
        if !units.is_empty() {
            let _ = write!(text, ": {}", units.join("; "));
        }
        let damage = state.damage_at(space);
        if damage > 0 {
            let _ = write!(text, " [industrial complex damaged: {damage}]");
        }
        out.push(BoardRow {
            space: game.space_name(space).to_owned(),
            holder,
            ipc,
            changed: changed && game.territory(space).is_some(),
            units,
            damage,
            text,
        });
    }
    out
}
