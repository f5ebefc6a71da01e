//! The base rule set: the engine's rules where no edition changes them, and
//! the rule set of plain data such as an imported TripleA map (`rule_set:
//! generic`). Every other rule set builds on it, directly (AAE, Anniversary,
//! Classic) or through another (J Boulton and Advanced AAE on AAE), and
//! takes each hook it does not write from its base with [`inherit!`].
//!
//! The choices written here are those of the oldest rules the engine plays
//! (AAE's 2005 FAQ where the editions differ): every point on which a rule
//! set differs is a hook or a field of [`CombatRules`] that it overrides.
//!
//! [`inherit!`]: super::inherit

use super::{CombatRules, OptionSpec, RuleSetHooks, ShipBlocking, TakeOver};
use crate::rules::events::Event;
use crate::rules::orders::{
    Averted, MiddleEastPayment, NeutralDefenders, StandingOrders, SubmarinePolicy,
};
use crate::rules::problem::Problem;
use crate::rules::production::{self, Complex};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The base rule set.
#[derive(Debug, Clone, Copy)]
pub struct Base;

impl RuleSetHooks for Base {
    /// Bid units go where the power already has units of its own, ships
    /// included: TripleA's bid placement (digest-aae §1, "placed only where
    /// the player already has units"), the reading of AAE's special cash
    /// advance and of the league bids of AAE and Anniversary.
    fn bid_placement(&self, _game: &GameDef) -> crate::rules::bid_placement::BidPlacementRules {
        crate::rules::bid_placement::BidPlacementRules {
            land_needs_own_units: true,
            sea_needs_own_units: true,
            rule: "bid units go where the power already has units (TripleA's bid placement)",
        }
    }

    fn id(&self) -> &'static str {
        "generic"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        None
    }

    fn options(&self) -> &'static [OptionSpec] {
        &[]
    }

    /// No checks beyond the generic validation.
    fn check(&self, _game: &GameDef) -> Vec<Problem> {
        Vec::new()
    }

    /// No research (AAE and Advanced AAE have none).
    fn research_procedure(&self, _game: &GameDef) -> Option<super::ResearchProcedure> {
        None
    }

    /// Neutral land that is not impassable is walked into like an empty
    /// enemy territory, free, and flown over freely (a plain TripleA map;
    /// AAE's neutrals are impassable data).
    fn neutral_rules(&self, _game: &GameDef) -> super::NeutralRules {
        super::NeutralRules {
            entry_cost: 0,
            taken_by_overflight: false,
            blitz_through: true,
            overflight_forbidden: false,
            neutral_canals_open: false,
        }
    }

    /// Every territory pays its controller.
    fn territory_pays_income(&self, _game: &GameDef, _space: SpaceId) -> bool {
        true
    }

    /// Land and convoys, every convoy zone served.
    fn income(
        &self,
        game: &GameDef,
        state: &GameState,
        power: PowerId,
    ) -> crate::rules::income::Income {
        crate::rules::income::land_and_convoys(game, state, power, &|_| true)
    }

    /// No payments between powers: the sections are refused.
    fn payments(
        &self,
        game: &GameDef,
        _state: &mut GameState,
        _power: PowerId,
        orders: &crate::rules::orders::Orders,
        _dice: Option<&mut (dyn crate::dice::DiceSource + '_)>,
        _events: &mut Vec<Event>,
    ) -> Result<bool, Vec<crate::rules::orders::OrderError>> {
        let refuse = |p: &crate::rules::orders::Located<u32>, what: &str| {
            crate::rules::orders::OrderError::new(
                &p.origin,
                format!("{} has no {what}", game.files().game.name),
            )
        };
        let errors: Vec<_> = [
            orders.lend_lease.as_ref().map(|p| refuse(p, "lend-lease")),
            orders.oil_convoy.as_ref().map(|p| refuse(p, "oil convoy")),
        ]
        .into_iter()
        .flatten()
        .collect();
        if errors.is_empty() {
            Ok(false)
        } else {
            Err(errors)
        }
    }

    /// Nothing happens at the end of the combat move.
    fn combat_move_ended(
        &self,
        _game: &GameDef,
        _state: &mut GameState,
        _power: PowerId,
        _events: &mut Vec<Event>,
    ) {
    }

    /// Nothing happens at the start of a turn.
    fn start_of_turn(
        &self,
        _game: &GameDef,
        _state: &mut GameState,
        _power: PowerId,
        _events: &mut Vec<Event>,
    ) {
    }

    /// Industrial complexes held since the start of the turn: unlimited in
    /// the power's original territory, else up to the territory's IPC value.
    fn placement_sites(&self, game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
        production::complexes(game, state, power)
    }

    /// A purchase that cannot be mobilized is refused.
    fn holds_unplaceable_units(&self) -> bool {
        false
    }

    /// The industrial-complex rule, which the placement errors word.
    fn placement_rule(&self, _game: &GameDef, _power: PowerId) -> Option<String> {
        None
    }

    /// Nothing happens at the end of a turn before income.
    fn end_of_turn(
        &self,
        _game: &GameDef,
        _state: &mut GameState,
        _power: PowerId,
        _events: &mut Vec<Event>,
    ) {
    }

    /// No victory condition: the game goes on.
    fn victory(
        &self,
        _game: &GameDef,
        _state: &mut GameState,
        _power: PowerId,
        _events: &mut Vec<Event>,
    ) {
    }

    /// Allies keep the territories they liberated.
    fn freed_capital_regains_territories(&self) -> Option<&'static str> {
        None
    }

    /// Every enemy naval unit stops ships (combat movement always triggers
    /// combat).
    fn ships_blocked_by(&self) -> ShipBlocking {
        ShipBlocking::AnyNavalUnit
    }

    /// Only canals close sea passages.
    fn sea_passage_closed(&self, _game: &GameDef, _from: SpaceId, _to: SpaceId) -> Option<String> {
        None
    }

    /// AAE's combat rules (FAQ 2005) on every point where editions differ.
    fn combat_rules(&self, _game: &GameDef) -> CombatRules {
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
            shared_turn_combat_first: false,
            default_losses: None,
            aircraft_retreat_from_amphibious: true,
            aircraft_retreat_with_the_force: true,
            whole_cargo_unloads_in_combat: false,
            noncombat_unloading_into_several_territories: false,
            submarines_withdraw: false,
            defending_subs_withdraw_beyond_adjacent: false,
            allied_transports: false,
            fought_at_sea_rule: "KQ-4; its cargo stays aboard until next turn",
            retreated_ships_stay: false,
            one_aa_gun_per_territory: false,
            first_strike_first_round_only: false,
            captured_aa_guns_stay: false,
            carrier_landing_after_declared_battles: false,
            board_in_embattled_zone_for_assault: false,
            retreat_to_friendly_only: false,
            artillery_supports_mechanized: false,
            withheld_units: &[],
            battleship_damage: None,
            first_round_surprise: None,
            coastal_fire: None,
            national_abilities: None,
            landed_units_hold_fire_first_round: false,
            only_landed_units_stay: false,
            complex_damage_cap_per_ipc: 2,
            repair_cost_per_point: 1,
            repair_before_purchase: false,
            combat_move_air_range: None,
            one_round_submarines: None,
            submarines_per_zone: None,
            fighter_basing: None,
            only_destroyers_and_fighters_hit_attacking_subs: false,
            submarines_take_any_hit_first_round: false,
            free_unit_each_turn: None,
            submarine_screen: None,
            air_transports: None,
            free_rider: None,
            vehicle_rides_alone: false,
            one_space_blitz: false,
            strategic_rail: None,
            special_force_teams: None,
            fortifications: None,
        }
    }

    /// Every standing order but a place in AAE's Middle East payment, which
    /// no rule here reads, a submarine withdrawal where submarines do not
    /// withdraw, and a submerging where submarines fight one round.
    fn standing_orders_problem(&self, game: &GameDef, standing: &StandingOrders) -> Option<String> {
        if let Some(why) =
            crate::rules::combat::submarines::one_round_submerge_problem(game, standing.submarines)
        {
            return Some(why);
        }
        if matches!(
            standing.submarines,
            SubmarinePolicy::WithdrawAfterRound { .. }
        ) && !game.combat_rules().submarines_withdraw
        {
            return Some(format!(
                "in this game ({}) submarines do not withdraw from a battle to another sea zone: \
                 submarines is fight, submerge or submerge_after_first_round",
                game.files().game.name
            ));
        }
        if (!standing.aversion.is_empty() || standing.averted != Averted::default())
            && game.combat_rules().special_force_teams.is_none()
        {
            return Some(format!(
                "in this game ({}) no special force team carries out Aversion: leave out \
                 aversion and averted",
                game.files().game.name
            ));
        }
        if let Some(a) = standing.aversion.iter().find(|a| game.is_sea(a.space)) {
            return Some(format!(
                "aversion names {}, a sea zone: special force teams carry out no mission at sea \
                 (JB-22); name the territory where they stand",
                game.space_name(a.space)
            ));
        }
        if standing.neutral_defenders != NeutralDefenders::default() {
            return Some(format!(
                "in this game ({}) no power receives neutral defenders: leave out \
                 neutral_defenders",
                game.files().game.name
            ));
        }
        (standing.middle_east_payment != MiddleEastPayment::default()).then(|| {
            format!(
                "this game ({}) has no Middle East payment: leave out middle_east_payment",
                game.files().game.name
            )
        })
    }

    /// No rule lets a power take over an ally's units.
    fn take_over_units(
        &self,
        _game: &GameDef,
        _state: &mut GameState,
        _power: PowerId,
        _take: &TakeOver,
        _events: &mut Vec<Event>,
    ) -> Result<(), String> {
        Err("no rule of this game lets a power take over an ally's units".into())
    }
}
