//! Axis & Allies Anniversary Edition (2008), 1941 and 1942 scenarios, with
//! the FAQ and errata of 2010.
//!
//! Interpretations and their sources: `docs/rules/anniversary.md`.

mod china;
mod victory_cities;

use super::base::Base;
use super::{
    CombatRules, OptionKind, OptionSpec, RaidAirBattle, RuleSetHooks, ShipBlocking, inherit,
};
use crate::rules::conquest::capital_lost;
use crate::rules::events::Event;
use crate::rules::income::objectives_met;
use crate::rules::model::Ability;
use crate::rules::options::{FIGHTER_ESCORTS, LOW_LUCK, RESEARCH};
use crate::rules::problem::Problem;
use crate::rules::production::Complex;
use crate::rules::research;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The Black Sea, closed to ships by the optional Dardanelles rule.
const BLACK_SEA: &str = "Sea Zone 16";
/// The unit China receives instead of IPCs.
const INFANTRY: &str = "infantry";
/// China receives one infantry per this many territories it controls.
const TERRITORIES_PER_INFANTRY: usize = 2;
/// China may not mobilize in a territory already holding this many Chinese
/// units.
const CHINESE_STACK: usize = 3;

/// A power that plays but collects no IPCs receives infantry instead: in
/// this edition, China (FAQ, China; `collects_income: false` in game.yaml).
fn receives_infantry(game: &GameDef, power: PowerId) -> bool {
    let p = &game.powers()[power];
    p.plays && !p.collects_income
}

/// The Anniversary rule set.
#[derive(Debug, Clone, Copy)]
pub struct Anniversary;

/// Victory cities a side must hold at the end of a round.
pub const VICTORY_CITIES: OptionSpec = OptionSpec {
    name: "victory_cities",
    pending: None,
    kind: OptionKind::Int {
        default: 15,
        min: 1,
        max: 18,
    },
    about: "victory cities a side must hold at the end of a round (13, 15 or 18)",
};

/// The optional national objectives.
pub const NATIONAL_OBJECTIVES: OptionSpec = OptionSpec {
    name: "national_objectives",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "optional national objective bonuses",
};

/// The FAQ's optional rule closing the Dardanelles.
pub const DARDANELLES_CLOSED: OptionSpec = OptionSpec {
    name: "dardanelles_closed",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "FAQ optional rule: no ship may enter or leave the Black Sea",
};

/// The turn the United States and China share (KQ-1).
pub const US_CHINA_TURN: OptionSpec = OptionSpec {
    name: "us_china_turn",
    pending: None,
    kind: OptionKind::Choice {
        default: "interleaved",
        choices: &["interleaved", SEPARATE],
    },
    about: "the turn the United States and China share: interleaved (KQ-1: US combat, \
            Chinese combat, then both non-combat moves and mobilizations) or separate \
            (the US turn, then China's, as TripleA)",
};

/// The United States plays its whole turn, then China.
const SEPARATE: &str = "separate";

static OPTIONS: &[OptionSpec] = &[
    VICTORY_CITIES,
    NATIONAL_OBJECTIVES,
    RESEARCH,
    DARDANELLES_CLOSED,
    FIGHTER_ESCORTS,
    US_CHINA_TURN,
    LOW_LUCK,
];

impl RuleSetHooks for Anniversary {
    fn id(&self) -> &'static str {
        "anniversary"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Base)
    }

    inherit!(Base =>
        bid_placement,
        neutral_rules,
        territory_pays_income,
        income,
        payments,
        combat_move_ended,
        standing_orders_problem,
        take_over_units,
    );

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    /// Researcher tokens kept until a breakthrough (rulebook p.11).
    fn research_procedure(&self, _game: &GameDef) -> Option<super::ResearchProcedure> {
        Some(super::ResearchProcedure::ResearcherTokens)
    }

    fn check(&self, game: &GameDef) -> Vec<Problem> {
        // China collects no income (collects_income: false), so it is skipped.
        super::starting_ipcs_equal_income(
            game,
            "in Anniversary starting IPCs equal starting income",
        )
    }

    /// China's infantry: one per two territories it controls at the start of
    /// its turn, rounded down, received in the purchase phase (FAQ, China);
    /// its turn starts with the United States' (KQ-1), so territories
    /// captured earlier in that shared turn are not counted.
    fn start_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        china::receive_infantry(game, state, power, events);
    }

    /// Every industrial complex mobilizes up to its territory's IPC value
    /// (rulebook p.26, KQ-5), two more with Increased Factory Production
    /// where that value is 3 or more (errata p.12), less its damage. China mobilizes in any territory it controls,
    /// captured this turn included, that held fewer than three Chinese units
    /// before placement began, any number there (FAQ, China).
    fn placement_sites(&self, game: &GameDef, state: &GameState, power: PowerId) -> Vec<Complex> {
        let land = (0..game.space_count())
            .map(SpaceId)
            .filter(|&s| game.territory(s).is_some() && state.owner[s.0] == Some(power));
        if receives_infantry(game, power) {
            return land
                .filter(|&s| {
                    state
                        .units_at(s)
                        .filter(|u| u.owner == power && u.cargo_of.is_none())
                        .count()
                        < CHINESE_STACK
                })
                .map(|space| Complex {
                    space,
                    limit: None,
                    rule: None,
                })
                .collect();
        }
        land.filter(|s| !state.captured_this_turn.contains(s))
            .filter(|&s| {
                state
                    .units_at(s)
                    .any(|u| game.unit_types()[u.unit].has(&Ability::Production))
            })
            .map(|space| {
                let value = game.territory(space).and_then(|t| t.ipc).unwrap_or(0);
                // Increased Factory Production: two more where worth 3 or
                // more (errata p.12); each point of damage one less
                // (rulebook p.17, digest §7), never below zero.
                let extra = research::extra_production(state, power, value);
                Complex {
                    space,
                    limit: Some((value + extra).saturating_sub(state.damage_at(space))),
                    rule: None,
                }
            })
            .collect()
    }

    /// FAQ (Miscellaneous): only units the production capacity cannot take
    /// may be held back; they stay in the mobilization zone.
    fn holds_unplaceable_units(&self) -> bool {
        true
    }

    fn placement_rule(&self, game: &GameDef, power: PowerId) -> Option<String> {
        receives_infantry(game, power).then(|| {
            format!(
                "{} places only in territories it controls that held fewer than \
                 {CHINESE_STACK} of its units before placement began (FAQ, China)",
                game.powers()[power].name
            )
        })
    }

    /// National objectives (option `national_objectives`): each objective
    /// met now pays its bonus in the power's Collect Income phase, every turn
    /// it is met; none before the first turn, none while the capital is
    /// enemy-held (FAQ, Miscellaneous; KQ-6).
    fn end_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        if !NATIONAL_OBJECTIVES.on(game)
            || !game.powers()[power].collects_income
            || capital_lost(game, state, power)
        {
            return;
        }
        let met = objectives_met(game, state, power);
        let bonus: u32 = met.iter().map(|o| o.bonus).sum();
        if bonus == 0 {
            return;
        }
        state.ipcs[power] += bonus;
        let names: Vec<String> = met
            .iter()
            .map(|o| format!("{} ({})", o.name, o.bonus))
            .collect();
        events.push(Event::Special {
            rule: "national objectives".into(),
            detail: format!(
                "{} collects {bonus} IPCs for {}",
                game.powers()[power].name,
                names.join(", ")
            ),
        });
    }

    /// A side wins when it controls the agreed number of victory cities
    /// (option `victory_cities`) at the end of a complete round, that is after
    /// the last power in turn order (digest §12; exact rulebook wording
    /// UNCONFIRMED).
    fn victory(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        victory_cities::check(game, state, power, events);
    }

    /// FAQ optional rule "Dardanelles Closed to Sea Movement": no sea unit
    /// moves into or out of sea zone 16 (option `dardanelles_closed`).
    fn sea_passage_closed(&self, game: &GameDef, from: SpaceId, to: SpaceId) -> Option<String> {
        let closed = DARDANELLES_CLOSED.on(game);
        let black_sea = game.space(BLACK_SEA)?;
        (closed && (from == black_sea || to == black_sea)).then(|| {
            format!(
                "the Dardanelles are closed (optional rule): no ship moves into or out of {}",
                game.space_name(black_sea)
            )
        })
    }

    /// Only surface warships make a sea zone hostile; subs pass everything
    /// but destroyers (FAQ, Submarines; errata p.29).
    /// FAQ (Miscellaneous, AA guns): "If Italy then liberates Germany,
    /// Germany gets France back, but Italy gets to keep the AA gun there."
    fn freed_capital_regains_territories(&self) -> Option<&'static str> {
        Some("capital liberated (FAQ, Miscellaneous)")
    }

    fn ships_blocked_by(&self) -> ShipBlocking {
        ShipBlocking::SurfaceWarships
    }

    /// FAQ (Submarines): allies of the attacker take no part in a battle;
    /// defending subs strike first too, in every round without an attacking
    /// destroyer; submerging is decided before any die, attacker first;
    /// defenseless transports are removed without rolling (FAQ, Combat); a
    /// retreat goes where a land or sea unit came from (errata p.19); the
    /// land combat of an amphibious assault per errata p.17; one bombarding
    /// ship per landed unit (TripleA's reading, UNCONFIRMED in the rulebook);
    /// enemy subs and transports alone may be ignored (FAQ, Submarines);
    /// raids damage industrial complexes (rulebook p.17, errata p.17);
    /// fighters escort and intercept only under the FAQ's optional rule
    /// (option `fighter_escorts`); AA guns fire only at aircraft attacking
    /// their territory, never at fly-overs (digest §5); transports are taken
    /// as casualties last (FAQ 2010, transports); ships that fought a sea
    /// battle do not move, load or unload in the non-combat move (KQ-4,
    /// Official Q&A topic 8355); a raid may share its territory with a
    /// battle (FAQ, Additional Optional Rules: interceptors "cannot
    /// participate in other battles", "if that territory is captured"); the
    /// United States and China both fight before either moves on (KQ-1).
    fn combat_rules(&self, game: &GameDef) -> CombatRules {
        let escorts = FIGHTER_ESCORTS.on(game);
        CombatRules {
            allied_bystanders: false,
            defending_subs_strike_first: true,
            submerge_before_any_die: true,
            defenseless_transports: true,
            retreat_needs_land_or_sea: true,
            land_combat_per_errata_p17: true,
            one_bombardment_per_landed_unit: true,
            may_ignore_subs_and_transports: true,
            bombing_damages_complexes: true,
            fighter_escorts: escorts.then_some(RaidAirBattle {
                escort: 1,
                jet_escort: 2,
                interceptor: 2,
            }),
            aa_fires_at_overflights: false,
            transports_last: true,
            sea_battle_ends_movement: true,
            raid_beside_battle: true,
            // KQ-1 (option us_china_turn, interleaved by default; separate
            // plays TripleA's two whole turns).
            shared_turn_combat_first: US_CHINA_TURN.word(game).as_deref() != Some(SEPARATE),
            ..Base.combat_rules(game)
        }
    }
}
