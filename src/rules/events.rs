//! What happened when a stage was applied, in order: the raw material of the
//! turn report and of the log's adjudication entries.

use super::SpaceId;
use super::orders::{PowerId, UnitList};

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// Units bought (IPCs spent).
    Purchased {
        /// Who bought.
        power: PowerId,
        /// What.
        units: UnitList,
        /// IPCs paid.
        cost: u32,
    },
    /// Units moved along a path (combat or non-combat move).
    Moved {
        /// Whose units.
        power: PowerId,
        /// Which.
        units: UnitList,
        /// Start, then each space entered.
        path: Vec<SpaceId>,
        /// In the combat move.
        combat: bool,
    },
    /// A battle will be fought here.
    BattlePending {
        /// The territory or sea zone.
        space: SpaceId,
    },
    /// A territory or convoy zone changed hands.
    Captured {
        /// Where.
        space: SpaceId,
        /// The new controller.
        by: PowerId,
        /// The controller before.
        from: Option<PowerId>,
        /// It went back to its original owner (liberation), not to the
        /// capturing power.
        liberated: bool,
    },
    /// Units placed on the board.
    Placed {
        /// Whose.
        power: PowerId,
        /// Where.
        space: SpaceId,
        /// What.
        units: UnitList,
    },
    /// Income collected at the end of a turn.
    Income {
        /// Who collects.
        power: PowerId,
        /// IPCs added.
        amount: u32,
        /// How it is made up, in the game's words ("land 36, convoys 4").
        detail: String,
    },
    /// A rule-set effect (convoy loss, Middle East payment, Patriotic War
    /// conversion, ...), described in the game's words.
    Special {
        /// The rule's name ("Middle East payment").
        rule: String,
        /// What it did.
        detail: String,
    },
    /// A power's turn ended; the next power's turn begins.
    TurnEnded {
        /// Who ended.
        power: PowerId,
        /// Whose turn it is now.
        next: PowerId,
        /// The round now.
        round: u32,
    },
    /// A side has won.
    Victory {
        /// The side's name.
        side: String,
        /// Why, in the game's words.
        reason: String,
    },
}

impl Event {
    /// The event in the game's words, with names from the game's data.
    pub fn describe(&self, game: &super::GameDef) -> String {
        let power = |p: &PowerId| game.powers()[*p].name.clone();
        let space = |s: &SpaceId| game.space_name(*s).to_owned();
        let units = |u: &UnitList| {
            u.iter()
                .map(|c| format!("{} {}", c.count, game.unit_types()[c.unit].name))
                .collect::<Vec<_>>()
                .join(", ")
        };
        match self {
            Event::Purchased {
                power: p,
                units: u,
                cost,
            } => format!("{} bought {} for {cost} IPCs", power(p), units(u)),
            Event::Moved {
                power: p,
                units: u,
                path,
                combat,
            } => format!(
                "{} {}: {} {}",
                power(p),
                if *combat {
                    "combat move"
                } else {
                    "non-combat move"
                },
                units(u),
                path.iter().map(space).collect::<Vec<_>>().join(" -> ")
            ),
            Event::BattlePending { space: s } => format!("battle pending in {}", space(s)),
            Event::Captured {
                space: s,
                by,
                from,
                liberated,
            } => format!(
                "{} {} {}{}",
                power(by),
                if *liberated { "liberated" } else { "captured" },
                space(s),
                from.map(|f| format!(" from {}", power(&f)))
                    .unwrap_or_default()
            ),
            Event::Placed {
                power: p,
                space: s,
                units: u,
            } => format!("{} placed {} in {}", power(p), units(u), space(s)),
            Event::Income {
                power: p,
                amount,
                detail,
            } => format!("{} collected {amount} IPCs ({detail})", power(p)),
            Event::Special { rule, detail } => format!("{rule}: {detail}"),
            Event::TurnEnded {
                power: p,
                next,
                round,
            } => format!(
                "{}'s turn ended; round {round}, {} to move",
                power(p),
                power(next)
            ),
            Event::Victory { side, reason } => format!("{side} win: {reason}"),
        }
    }
}
