//! What happened when a stage was applied, in order: the raw material of the
//! turn report and of the log's adjudication entries.

use super::SpaceId;
use crate::rules::vocab::{PowerId, UnitList};

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
    // combat: one firing group's dice, as drawn, with what they needed.
    /// A firing group rolled in a battle (or AA fire, bombardment, raid).
    Fire {
        /// Where the battle is.
        space: SpaceId,
        /// The dice label (`docs/rules/combat-labels.md`).
        label: String,
        /// Who fired: `attacker`, `defender`, `AA gun`, `bombardment`, ...
        side: String,
        /// The firing group in the game's words ("infantry", "supported
        /// infantry", "first-strike submarine").
        group: String,
        /// A die hits at or below this value.
        hits_at: u8,
        /// The values, in the order drawn.
        dice: Vec<u32>,
        /// Low Luck: hits scored without dice (total strength / 6).
        sure_hits: u32,
        /// Hits scored in all.
        hits: u32,
    },
    // combat: a unit hit, with the rule, plan entry or standing order that
    // chose it.
    /// A unit took a hit (destroyed, or damaged when it has hit points left).
    Casualty {
        /// Where.
        space: SpaceId,
        /// Whose unit.
        power: PowerId,
        /// Its type.
        unit: crate::rules::vocab::UnitTypeId,
        /// Destroyed (false: damaged and still afloat).
        destroyed: bool,
        /// Which rule, battle-plan entry or standing order chose it.
        reason: String,
    },
    // combat: a choice made on a player's behalf or forced by a rule that is
    // not a casualty (submerging, a landing called off, hits that no unit
    // can take, ...).
    /// A decision in a battle, with the rule or order that made it.
    Decision {
        /// Where.
        space: SpaceId,
        /// The rule, plan entry or standing order.
        rule: String,
        /// What it decided.
        detail: String,
    },
    // combat: attackers leaving a battle.
    /// Attacking units retreated.
    Retreated {
        /// The battle.
        space: SpaceId,
        /// Whose units.
        power: PowerId,
        /// Where they went.
        to: SpaceId,
        /// Which.
        units: UnitList,
        /// The plan entry or rule that ordered it.
        reason: String,
    },
    // combat: how a battle ended.
    /// A battle is over.
    BattleEnded {
        /// Where.
        space: SpaceId,
        /// Rounds fought.
        rounds: u32,
        /// The result in the game's words.
        result: String,
    },
    // combat: a strategic bombing raid's damage.
    /// A strategic bombing raid cost its victim IPCs.
    Bombed {
        /// The territory bombed.
        space: SpaceId,
        /// Whose treasury paid.
        victim: PowerId,
        /// IPCs lost.
        damage: u32,
        /// The dice and any cap, in words.
        detail: String,
    },
    /// Damage on an industrial complex (Anniversary: a strategic bombing
    /// raid or a rocket).
    FactoryDamaged {
        /// The territory of the complex.
        space: SpaceId,
        /// What struck it ("strategic bombing raid", "rocket from Germany").
        cause: String,
        /// Damage added now.
        damage: u32,
        /// Damage on the complex afterwards.
        total: u32,
        /// The dice and any cap, in words.
        detail: String,
    },
    /// Damage repaired on an industrial complex in the purchase phase.
    FactoryRepaired {
        /// The territory of the complex.
        space: SpaceId,
        /// The power that paid.
        power: PowerId,
        /// Damage removed.
        points: u32,
        /// IPCs paid.
        cost: u32,
        /// Damage left.
        left: u32,
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
            Event::Fire {
                space: s,
                label,
                side,
                group,
                hits_at,
                dice,
                sure_hits,
                hits,
            } => {
                let rolls: Vec<String> = dice
                    .iter()
                    .map(|d| {
                        if *d <= u32::from(*hits_at) {
                            format!("{d} hit")
                        } else {
                            format!("{d}")
                        }
                    })
                    .collect();
                if *hits_at == 0 && *sure_hits == 0 {
                    // Dice counted, not compared (strategic bombing damage).
                    return format!(
                        "{}: {side} {group}: dice [{}] ({label})",
                        space(s),
                        dice.iter()
                            .map(u32::to_string)
                            .collect::<Vec<_>>()
                            .join(", ")
                    );
                }
                let sure = if *sure_hits > 0 {
                    format!("{sure_hits} sure hit(s) (Low Luck), ")
                } else {
                    String::new()
                };
                format!(
                    "{}: {side} {group} fire: {sure}dice [{}] needing {hits_at} or less: \
                     {hits} hit(s) ({label})",
                    space(s),
                    rolls.join(", ")
                )
            }
            Event::Casualty {
                space: s,
                power: p,
                unit,
                destroyed,
                reason,
            } => format!(
                "{}: {} {} {} ({reason})",
                space(s),
                power(p),
                game.unit_types()[*unit].name,
                if *destroyed { "lost" } else { "damaged" }
            ),
            Event::Decision {
                space: s,
                rule,
                detail,
            } => format!("{}: {detail} ({rule})", space(s)),
            Event::Retreated {
                space: s,
                power: p,
                to,
                units: u,
                reason,
            } => format!(
                "{}: {} retreated {} to {} ({reason})",
                space(s),
                power(p),
                units(u),
                space(to)
            ),
            Event::BattleEnded {
                space: s,
                rounds,
                result,
            } => format!(
                "battle in {} over after {rounds} round(s): {result}",
                space(s)
            ),
            Event::FactoryDamaged {
                space: s,
                cause,
                damage,
                total,
                detail,
            } => format!(
                "{cause} on {}: its industrial complex takes {damage} damage, {total} in all \
                 ({detail})",
                space(s)
            ),
            Event::FactoryRepaired {
                space: s,
                power: p,
                points,
                cost,
                left,
            } => format!(
                "{} repairs {points} damage on the industrial complex in {} for {cost} IPCs \
                 ({left} left)",
                power(p),
                space(s)
            ),
            Event::Bombed {
                space: s,
                victim,
                damage,
                detail,
            } => format!(
                "strategic bombing raid on {}: {} loses {damage} IPCs ({detail})",
                space(s),
                power(victim)
            ),
        }
    }
}
