//! Orders for the special force teams' missions inside a battle (J Boulton
//! JB-27..34; `docs/orders.md`, "Special force teams' missions"): the
//! attacker's in its battle plan (`special_force_teams:` under a battle),
//! the defender's in its standing orders (`special_force_teams:` under
//! `standing:`), since the defender cannot be asked during the attacker's
//! turn (issue 18 item 7).

use crate::rules::SpaceId;
use crate::rules::vocab::UnitTypeId;

/// A special force team's mission inside a battle (JB-27).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mission {
    /// Attacking, any roll: one of the owner's attacking units fires its
    /// round-1 shot before the battle (JB-29); the team stays.
    Disruption,
    /// Attacking, a roll of 1-3: the defending AA guns do not fire in this
    /// battle (JB-30); the team is removed.
    AaSuppression,
    /// Attacking, a roll of 1: every defending unit defends at half,
    /// rounded up, the whole battle (JB-32); the team is removed after it.
    SupplyStrike,
    /// Defending, any roll: one attacking unit does not roll in round 1
    /// (JB-33); the team stays.
    BoobyTrap,
    /// Defending, a roll of 1-2: the team slips out of the battle, or gives
    /// itself up so that one of its side's land units may (JB-34).
    Evasive,
}

impl Mission {
    /// Every mission, in the order of [`Mission::word`]'s list.
    pub const ALL: [Mission; 5] = [
        Mission::Disruption,
        Mission::AaSuppression,
        Mission::SupplyStrike,
        Mission::BoobyTrap,
        Mission::Evasive,
    ];

    /// The word a player writes (`keys::MISSIONS`), which replies show.
    pub fn word(self) -> &'static str {
        match self {
            Mission::Disruption => "disruption",
            Mission::AaSuppression => "aa_suppression",
            Mission::SupplyStrike => "supply_strike",
            Mission::BoobyTrap => "booby_trap",
            Mission::Evasive => "evasive",
        }
    }

    /// True for a mission of the attacking side (battle plans); false for
    /// one of the defending side (standing orders).
    pub fn attacking(self) -> bool {
        matches!(
            self,
            Mission::Disruption | Mission::AaSuppression | Mission::SupplyStrike
        )
    }

    /// The highest mission roll that allows it (JB-27: a lower roll opens
    /// everything a higher one does).
    pub fn allowed_up_to(self) -> u32 {
        match self {
            Mission::Disruption | Mission::BoobyTrap => 6,
            Mission::AaSuppression => 3,
            Mission::Evasive => 2,
            Mission::SupplyStrike => 1,
        }
    }

    /// Its name in the rules, with the digest's item.
    pub fn name(self) -> &'static str {
        match self {
            Mission::Disruption => "Disruption (JB-29)",
            Mission::AaSuppression => "AA Suppression (JB-30)",
            Mission::SupplyStrike => "Supply Strike (JB-32)",
            Mission::BoobyTrap => "Booby Trap (JB-33)",
            Mission::Evasive => "Evasive (JB-34)",
        }
    }
}

/// The missions a side's teams try when its orders name none: the one of
/// each side that any roll allows and that keeps the team (Disruption,
/// Booby Trap).
pub const DEFAULT_ATTACKING: &[Mission] = &[Mission::Disruption];

/// See [`DEFAULT_ATTACKING`].
pub const DEFAULT_DEFENDING: &[Mission] = &[Mission::BoobyTrap];

/// The attacker's orders for its teams in one battle (battle plan key
/// `special_force_teams`), or in every battle without a plan of its own.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamPlan {
    /// The missions wanted, most wanted first; each team carries out the
    /// first its mission roll allows and that has something to act on, and
    /// calls the mission off (JB-28: it stays and may try again in a later
    /// turn) when none does. `None`: [`DEFAULT_ATTACKING`]; `Some([])`
    /// (`missions: none`): the teams try no mission and roll no die.
    pub missions: Option<Vec<Mission>>,
    /// The unit types a Disruption names, first first: each team names a
    /// unit of the first type listed that has one not yet named; empty (or
    /// none left): the strongest attacking unit not yet named, by its value
    /// in that battle. Only a unit that would roll in round 1 is named
    /// (never an averted one, JB-35).
    pub disruption: Vec<UnitTypeId>,
}

impl TeamPlan {
    /// The missions wanted.
    pub fn wanted(&self) -> &[Mission] {
        self.missions.as_deref().unwrap_or(DEFAULT_ATTACKING)
    }
}

/// What an Evasive mission does (JB-34).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Evasion {
    /// (a) The team slips out of the battle into an adjacent friendly land
    /// territory; it stays on the map.
    #[default]
    SlipOut,
    /// (b) The team gives itself up so that one of its owner's defending
    /// land units retreats into an adjacent friendly land territory.
    Sacrifice,
}

impl Evasion {
    /// The word a player writes (`keys::EVASIONS`).
    pub fn word(self) -> &'static str {
        match self {
            Evasion::SlipOut => "slip_out",
            Evasion::Sacrifice => "sacrifice",
        }
    }
}

/// A power's standing orders for its defending teams (standing orders key
/// `special_force_teams`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TeamStanding {
    /// The missions wanted, most wanted first, as in [`TeamPlan::missions`]
    /// (`None`: [`DEFAULT_DEFENDING`]).
    pub missions: Option<Vec<Mission>>,
    /// What an Evasive mission does.
    pub evasive: Evasion,
    /// For [`Evasion::Sacrifice`]: the unit types to save, first first;
    /// empty (or none there): the defending land unit of highest defence,
    /// then cost.
    pub save: Vec<UnitTypeId>,
    /// Where an Evasive mission goes, first first: the first of these that
    /// is an adjacent friendly land territory; empty (or none adjacent and
    /// friendly): the first such territory in board order.
    pub to: Vec<SpaceId>,
    /// The round at whose start the Evasive mission is carried out (JB-34
    /// PROPOSAL: the start of any round, before dice); `None`: round 1.
    pub round: Option<u32>,
}

impl TeamStanding {
    /// The missions wanted.
    pub fn wanted(&self) -> &[Mission] {
        self.missions.as_deref().unwrap_or(DEFAULT_DEFENDING)
    }

    /// The round at whose start Evasive is carried out.
    pub fn evasive_round(&self) -> u32 {
        self.round.unwrap_or(1)
    }

    /// The orders as a player writes them, in one line (`{missions:
    /// [evasive, booby_trap], evasive: sacrifice}`), for replies.
    pub fn written(&self, game: &crate::rules::GameDef) -> String {
        let mut parts = Vec::new();
        if let Some(m) = &self.missions {
            let words: Vec<&str> = m.iter().map(|m| m.word()).collect();
            parts.push(if words.is_empty() {
                "missions: none".to_owned()
            } else {
                format!("missions: [{}]", words.join(", "))
            });
        }
        parts.push(format!("evasive: {}", self.evasive.word()));
        if !self.save.is_empty() {
            let t: Vec<&str> = self
                .save
                .iter()
                .map(|u| game.unit_types()[*u].name.as_str())
                .collect();
            parts.push(format!("save: [{}]", t.join(", ")));
        }
        if !self.to.is_empty() {
            let t: Vec<&str> = self.to.iter().map(|s| game.space_name(*s)).collect();
            parts.push(format!("to: [{}]", t.join(", ")));
        }
        parts.push(format!("round: {}", self.evasive_round()));
        format!("{{{}}}", parts.join(", "))
    }
}
