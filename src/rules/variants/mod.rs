//! Rule sets: the behaviour that the game data cannot express.
//!
//! Each rule set is one module implementing [`RuleSetHooks`]. The engine asks
//! the game's rule set through this interface, never by comparing game ids.
//! Today the interface carries what loading a game needs: the rule options
//! the rule set understands (with their defaults, so `game.yaml` is checked)
//! and the consistency checks that only hold under that rule set.

use crate::rules::events::Event;
use crate::rules::model::OptionValue;
use crate::rules::orders::{PowerId, UnitList};
use crate::rules::problem::Problem;
use crate::rules::production::{self, Complex};
use crate::rules::state::GameState;
use crate::rules::{GameDef, SpaceId};

pub mod aae;
pub mod advanced_aae;
pub mod anniversary;
pub mod classic;
pub mod generic;
pub mod jboulton;

/// The type and default of a rule option.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OptionKind {
    /// `true` or `false`.
    Bool {
        /// Value when `game.yaml` does not set it.
        default: bool,
    },
    /// A whole number in `min..=max`.
    Int {
        /// Value when `game.yaml` does not set it.
        default: i64,
        /// Smallest accepted value.
        min: i64,
        /// Largest accepted value.
        max: i64,
    },
    /// One word out of a fixed list.
    Choice {
        /// Value when `game.yaml` does not set it.
        default: &'static str,
        /// The accepted words.
        choices: &'static [&'static str],
    },
}

/// A rule option a rule set understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptionSpec {
    /// The key in `game.yaml`'s `options:`.
    pub name: &'static str,
    /// Its type and default.
    pub kind: OptionKind,
    /// What it changes and where the reading comes from.
    pub about: &'static str,
}

impl OptionSpec {
    /// The default value.
    pub fn default_value(&self) -> OptionValue {
        match self.kind {
            OptionKind::Bool { default } => OptionValue::Bool(default),
            OptionKind::Int { default, .. } => OptionValue::Int(default),
            OptionKind::Choice { default, .. } => OptionValue::Text(default.to_owned()),
        }
    }

    /// Checks a value from `game.yaml`; the error says what was expected.
    pub fn check(&self, value: &OptionValue) -> Result<(), String> {
        match (self.kind, value) {
            (OptionKind::Bool { .. }, OptionValue::Bool(_)) => Ok(()),
            (OptionKind::Int { min, max, .. }, OptionValue::Int(v)) if (min..=max).contains(v) => {
                Ok(())
            }
            (OptionKind::Int { min, max, .. }, _) => Err(format!(
                "expected a whole number from {min} to {max}, found {value}"
            )),
            (OptionKind::Choice { choices, .. }, OptionValue::Text(t))
                if choices.contains(&t.as_str()) =>
            {
                Ok(())
            }
            (OptionKind::Choice { choices, .. }, _) => Err(format!(
                "expected one of {}, found {value}",
                choices.join(", ")
            )),
            (OptionKind::Bool { .. }, _) => Err(format!("expected true or false, found {value}")),
        }
    }
}

/// A power's request to take over an ally's units ([`RuleSetHooks::take_over_units`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TakeOver {
    /// Where the units stand.
    pub space: SpaceId,
    /// The ally they belong to.
    pub from: PowerId,
    /// Which units.
    pub units: UnitList,
}

/// How battles differ between rule sets: the points on which the editions'
/// combat rules disagree, read by the combat engine
/// ([`RuleSetHooks::combat_rules`]). The default is AAE's (2005 FAQ).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CombatRules {
    /// Ships of the attacker's allies in a sea battle are bystanders: they
    /// may be chosen as casualties and their destroyers let the attacker's
    /// aircraft hit submarines (AAE FAQ). When `false` they take no part in
    /// any way (Anniversary FAQ: "never participate in a battle in any way").
    pub allied_bystanders: bool,
    /// Defending submarines fire a surprise strike, like attacking ones, in
    /// every round without an attacking destroyer (Anniversary FAQ); when
    /// `false` only attacking submarines strike first (AAE).
    pub defending_subs_strike_first: bool,
    /// Submarines decide to submerge before any die of the round, the
    /// attacker first, and only while no enemy destroyer is in the battle
    /// (Anniversary FAQ and errata p.29). When `false`, defending submarines
    /// submerge only after withstanding the attacker's fire (AAE FAQ).
    pub submerge_before_any_die: bool,
    /// Defending transports that only the attacker could ever hit are
    /// removed without rolling (Anniversary FAQ, defenseless transports).
    pub defenseless_transports: bool,
    /// The attacker retreats only to a space from which some attacking land
    /// or sea unit came (Anniversary errata p.19); when `false`, aircraft
    /// coming from a space open it too.
    pub retreat_needs_land_or_sea: bool,
    /// The land combat of an amphibious assault follows errata p.17
    /// (Anniversary): the landing goes ahead when the sea battle in the
    /// transports' zone left only defending transports and submerged
    /// submarines there, and there is no land combat at all unless some
    /// attacking land unit is still committed to the territory. When
    /// `false` (AAE), any defender left in play calls the landing off, and
    /// aircraft fight the land battle even when every landing failed.
    pub land_combat_per_errata_p17: bool,
    /// At most one ship bombards per land unit that landed in the territory
    /// (TripleA "Shore Bombard Per Ground Unit Restricted", the Anniversary
    /// reading); when `false`, every ship able to bombard does (AAE).
    pub one_bombardment_per_landed_unit: bool,
    /// A combat move may end in a sea zone holding only enemy submarines
    /// and/or transports without attacking them (battle plan `ignore`;
    /// Anniversary FAQ, Submarines). When `false` a combat move ending beside
    /// enemy units always attacks them (AAE FAQ).
    pub may_ignore_subs_and_transports: bool,
    /// A strategic bombing raid damages the target's industrial complex
    /// (damage capped at twice the territory's IPC value, each point lowering
    /// its production capacity by one until repaired) instead of taking IPCs
    /// from the treasury (Anniversary rulebook p.17, digest §7). When `false`,
    /// the controller loses IPCs, at most its treasury (AAE).
    pub bombing_damages_complexes: bool,
    /// Fighters may escort and intercept in raids with these values,
    /// whatever the data says (Anniversary FAQ optional rule "Fighter Escorts
    /// and Interceptors"); `None` leaves it to the units' `escort` and
    /// `interceptor` abilities (AAE).
    pub fighter_escorts: Option<RaidAirBattle>,
    /// AA guns fire at enemy aircraft flying over their territory in the
    /// combat move (AAE FAQ); when `false` they fire only at aircraft
    /// attacking their own territory (Anniversary, digest §5).
    pub aa_fires_at_overflights: bool,
    /// Transports are taken as casualties only when nothing else of their
    /// side can take the hit (Anniversary FAQ 2010: "transports may only be
    /// taken as casualties when there is no other"). When `false` a
    /// transport is an ordinary casualty in its side's order of loss (AAE:
    /// defence 1; FAQ 2005, Submarines, "two destroyers and a transport or
    /// two transports and a destroyer is up to the Allied players").
    pub transports_last: bool,
    /// The attacker's ships that took part in a sea battle (retreating or
    /// not) do not move, load or unload in that turn's non-combat move, so
    /// cargo whose landing was called off stays aboard until the next turn
    /// (Anniversary: KQ-4; Official Q&A, axisandallies.org topic 8355). When
    /// `false` a transport that survived combat may still unload where it
    /// stands (AAE FAQ).
    pub sea_battle_ends_movement: bool,
    /// Bombers (and their escorts) may raid a territory that other units
    /// attack in the same turn, the battle plan naming the `raiders`; the
    /// raid comes first, and interceptors that rose against it take no part
    /// in the battle and, if the territory falls, land one space away or
    /// are lost (Anniversary FAQ 2010, Additional Optional Rules). When
    /// `false` a raid is the territory's only combat (AAE).
    pub raid_beside_battle: bool,
}

/// The values of the air battle before a raid under the Anniversary FAQ's
/// optional rule: every fighter (aircraft that is not a strategic bomber)
/// may escort or intercept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RaidAirBattle {
    /// An escorting fighter hits at or below this.
    pub escort: u8,
    /// An escorting fighter of a power with Jet Fighters hits at or below
    /// this.
    pub jet_escort: u8,
    /// An intercepting fighter hits at or below this.
    pub interceptor: u8,
}

impl Default for CombatRules {
    fn default() -> Self {
        CombatRules {
            allied_bystanders: true,
            defending_subs_strike_first: false,
            submerge_before_any_die: false,
            defenseless_transports: false,
            retreat_needs_land_or_sea: false,
            land_combat_per_errata_p17: false,
            one_bombardment_per_landed_unit: false,
            may_ignore_subs_and_transports: false,
            bombing_damages_complexes: false,
            fighter_escorts: None,
            aa_fires_at_overflights: true,
            transports_last: false,
            sea_battle_ends_movement: false,
            raid_beside_battle: false,
        }
    }
}

/// Which enemy naval units stop moving ships, per rule set
/// ([`RuleSetHooks::ships_blocked_by`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShipBlocking {
    /// Every enemy naval unit in play, submarines and transports included
    /// (AAE FAQ: combat movement always triggers combat).
    AnyNavalUnit,
    /// Only enemy surface warships make a zone hostile; enemy submarines and
    /// transports may be passed or ignored, and moving submarines are stopped
    /// only by enemy destroyers (Anniversary FAQ and errata p.29, digest §4).
    SurfaceWarships,
}

/// The hooks through which a rule set adds behaviour to the generic engine.
pub trait RuleSetHooks: Sync {
    /// The `rule_set:` word in `game.yaml`.
    fn id(&self) -> &'static str;

    /// The rule options this rule set understands. Any other key in
    /// `game.yaml`'s `options:` is an error.
    fn options(&self) -> &'static [OptionSpec];

    /// Checks that only hold under this rule set, run after the generic
    /// validation succeeded (so every name in `game` resolves).
    fn check(&self, game: &GameDef) -> Vec<Problem>;

    /// Whether the IPC value of the land territory `space` counts in the
    /// income of the power that controls it. By default every territory
    /// does; AAE's Middle East territories never do (the Allies pay Germany
    /// instead, [`RuleSetHooks::end_of_turn`]).
    fn territory_pays_income(&self, game: &GameDef, space: SpaceId) -> bool {
        let _ = (game, space);
        true
    }

    /// Rule-set effects at the start of `power`'s turn, before its purchase
    /// (Anniversary: China receives its infantry). Nothing by default.
    fn start_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        let _ = (game, state, power, events);
    }

    /// Where `power` may mobilize new units this turn and how many each
    /// place takes. By default AAE's: its industrial complexes held since the
    /// start of the turn, unlimited in its original territory, else up to the
    /// territory's IPC value ([`production::complexes`]).
    fn placement_sites(&self, game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
        production::complexes(game, state, power)
    }

    /// Whether units that cannot be mobilized for lack of production
    /// capacity wait for a later turn (Anniversary FAQ) instead of the
    /// purchase being refused (AAE). `false` by default.
    fn holds_unplaceable_units(&self) -> bool {
        false
    }

    /// The placement rule in words, for the error when a power places where
    /// [`RuleSetHooks::placement_sites`] does not allow it; `None` for the
    /// industrial-complex rule.
    fn placement_rule(&self, game: &GameDef, power: PowerId) -> Option<String> {
        let _ = (game, power);
        None
    }

    /// Rule-set effects at the end of `power`'s turn, after placement and
    /// before income is collected (AAE: the Middle East payment). Nothing by
    /// default.
    fn end_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        let _ = (game, state, power, events);
    }

    /// Checks the rule set's victory conditions at the end of `power`'s turn
    /// (after income), recording progress in `state` and setting
    /// `state.winner` when a side has won. No victory condition by default.
    fn victory(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        let _ = (game, state, power, events);
    }

    /// Whether a power whose capital is freed from the enemy gets back at
    /// once every territory it originally controlled that its allies took
    /// while the capital was lost, the AA guns there staying with those
    /// allies (Anniversary FAQ, Miscellaneous). `false` by default: the
    /// allies keep them (AAE).
    fn freed_capital_regains_territories(&self) -> bool {
        false
    }

    /// Which enemy naval units stop ships and make a zone hostile. AAE's
    /// (every naval unit) by default.
    fn ships_blocked_by(&self) -> ShipBlocking {
        ShipBlocking::AnyNavalUnit
    }

    /// Why ships may not sail from sea zone `from` to `to`, beyond canals
    /// (Anniversary's optional Dardanelles rule); aircraft are unaffected.
    /// `None` (open) by default.
    fn sea_passage_closed(&self, game: &GameDef, from: SpaceId, to: SpaceId) -> Option<String> {
        let _ = (game, from, to);
        None
    }

    /// The points of the combat rules on which editions differ, with the
    /// game's options (optional rules). AAE's by default.
    fn combat_rules(&self, game: &GameDef) -> CombatRules {
        let _ = game;
        CombatRules::default()
    }

    /// Whether two powers that share a turn (`shares_turn_with`) play it
    /// interleaved: the first one's purchase and combat, the second one's
    /// purchase and combat, then the first one's non-combat move and
    /// mobilization and the second one's (Anniversary, KQ-1, option
    /// `us_china_turn`). `false` by default: each plays a whole turn.
    fn interleaves_shared_turn(&self, game: &GameDef) -> bool {
        let _ = game;
        false
    }

    /// `power` taking over an ally's units (AAE: the Soviet Patriotic War).
    /// The units named must be there; on success they belong to `power`. By
    /// default no rule allows it.
    fn take_over_units(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        take: &TakeOver,
        events: &mut Vec<Event>,
    ) -> Result<(), String> {
        let _ = (game, state, power, take, events);
        Err("no rule of this game lets a power take over an ally's units".into())
    }
}

/// Every rule set, in the order they are listed to users.
pub static RULE_SETS: &[&dyn RuleSetHooks] = &[
    &aae::Aae,
    &advanced_aae::AdvancedAae,
    &jboulton::JBoulton,
    &classic::Classic,
    &anniversary::Anniversary,
    &generic::Generic,
];

/// The rule set with the given id (exact, lower-case match).
pub fn rule_set(id: &str) -> Option<&'static dyn RuleSetHooks> {
    RULE_SETS.iter().copied().find(|r| r.id() == id)
}

/// Problems for every playing power whose starting treasury differs from the
/// income of its starting position. Rule sets where the two are equal by rule
/// (AAE, Classic, Anniversary) use it to catch setup typos.
pub(crate) fn starting_ipcs_equal_income(game: &GameDef, why: &str) -> Vec<Problem> {
    let mut problems = Vec::new();
    for (index, power) in game.powers().iter().enumerate() {
        if !power.plays || !power.collects_income {
            continue;
        }
        let treasury = game.starting_ipcs(index);
        let income = game.starting_income(index);
        if treasury != income {
            problems.push(Problem::at(
                crate::rules::problem::files::SETUP,
                format!("ipcs.{}", power.name),
                format!(
                    "{} starts with {treasury} IPCs but its starting territories and convoys \
                     are worth {income}; {why}",
                    power.name
                ),
            ));
        }
    }
    problems
}

/// Problems for every unit with the `production` ability that has a cost:
/// rule sets without industrial-complex purchases use it.
pub(crate) fn no_buyable_factories(game: &GameDef, why: &str) -> Vec<Problem> {
    game.unit_types()
        .iter()
        .enumerate()
        .filter(|(_, u)| u.has(&crate::rules::model::Ability::Production) && u.cost.is_some())
        .map(|(i, u)| {
            Problem::at(
                crate::rules::problem::files::UNITS,
                format!("units[{i}].cost"),
                format!("{} has a cost, but {why}", u.name),
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_set_ids_are_unique_and_found() {
        for (i, a) in RULE_SETS.iter().enumerate() {
            assert!(rule_set(a.id()).is_some());
            for b in &RULE_SETS[i + 1..] {
                assert_ne!(a.id(), b.id());
            }
        }
        assert!(rule_set("AAE").is_none());
    }

    #[test]
    fn option_defaults_pass_their_own_check() {
        for set in RULE_SETS {
            for spec in set.options() {
                assert_eq!(
                    spec.check(&spec.default_value()),
                    Ok(()),
                    "{}.{}",
                    set.id(),
                    spec.name
                );
            }
        }
    }

    #[test]
    fn option_check_rejects_wrong_types_and_ranges() {
        let spec = OptionSpec {
            name: "n",
            kind: OptionKind::Int {
                default: 1,
                min: 0,
                max: 5,
            },
            about: "",
        };
        assert!(spec.check(&OptionValue::Int(6)).is_err());
        assert!(spec.check(&OptionValue::Bool(true)).is_err());
        let spec = OptionSpec {
            name: "c",
            kind: OptionKind::Choice {
                default: "a",
                choices: &["a", "b"],
            },
            about: "",
        };
        assert!(spec.check(&OptionValue::Text("b".into())).is_ok());
        assert!(spec.check(&OptionValue::Text("z".into())).is_err());
    }
}
