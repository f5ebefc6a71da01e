//! J Boulton house rules on top of AAE (jboultoncdg; digest
//! `../shared/rules/digest-jboulton.md`, JB-01..46). Everything the house
//! rules do not touch is AAE's exactly, and every house rule is a match
//! option: with all of them off a game plays as AAE (tested below).
//!
//! Played today: mechanized infantry and heavy armor (JB-05, JB-06, JB-37,
//! JB-38: units of `games/aae-jboulton/units.yaml`, with the options that
//! withhold them and let artillery support mechanized infantry), supply and
//! isolation (JB-39, JB-40, [`supply`]), the battleship damage table
//! (JB-41..44, `combat::ship_damage`), Normandy coastal fire (JB-45, JB-46,
//! `combat::coastal_fire`), air transports and paradrops (JB-02,
//! JB-07..17, `movement::air_transport`, `combat::paradrop`), paratroopers
//! (JB-03, JB-18..20), the transport points model with its free special
//! force team slot (Part A, JB-23), special force teams' moves, landings,
//! drops, detection, mission roll and the missions inside battles with
//! their orders (JB-04, JB-21..30, JB-32..34, `combat::special_force_teams`,
//! `orders::special_force_teams`), the detection sweep, Industrial Strike
//! and Aversion (JB-26, JB-31, JB-35, JB-36,
//! `combat::special_force_missions`), with the Industrial Strike at once
//! of a team dropped alone that rolled 6 on landing (JB-16).
//! Readings: `docs/rules/jboulton.md`.

mod supply;

use super::aae::Aae;
use super::{
    AirTransports, BattleshipDamage, CoastalFire, CombatRules, OptionKind, OptionSpec,
    RuleSetHooks, SpecialForceTeams, inherit,
};
use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;

/// The J Boulton rule set.
#[derive(Debug, Clone, Copy)]
pub struct JBoulton;

/// Mechanized infantry may be bought (JB-05, JB-37).
pub const MECHANIZED_INFANTRY: OptionSpec = OptionSpec {
    name: "mechanized_infantry",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "mechanized infantry (JB-05, JB-37: cost 5, attack 2, defence 3, move 2, no blitz) \
            may be bought",
};

/// Heavy armor may be bought (JB-06, JB-38).
pub const HEAVY_ARMOR: OptionSpec = OptionSpec {
    name: "heavy_armor",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "heavy armor (JB-06, JB-38: cost 7, attack 4, defence 5, move 1) may be bought",
};

/// Artillery supports mechanized infantry (JB-37 PROPOSAL: no).
pub const MECH_ARTILLERY_SUPPORT: OptionSpec = OptionSpec {
    name: "mech_artillery_support",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "whether attacking artillery raises mechanized infantry as it does infantry \
            (JB-37, digest PROPOSAL: no)",
};

/// Supply and isolation (JB-39, JB-40; [`supply`]).
pub const ISOLATION: OptionSpec = OptionSpec {
    name: "isolation",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "supply/isolation: units that begin their turn in a territory surrounded by enemy \
            land and blockaded sea zones attack at half value, do not blitz and do not fly in \
            the combat move (JB-39, JB-40)",
};

/// Whether neutral and impassable land supplies a territory (Part E 7).
pub const ISOLATION_NEUTRAL_SUPPLY: OptionSpec = OptionSpec {
    name: "isolation_neutral_supply",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "whether a neighbouring neutral or impassable territory keeps a territory supplied \
            (digest Part E 7, PROPOSAL: no, it counts as not friendly)",
};

/// The damage roll after a battle in which a surviving battleship took a
/// hit (JB-41..44; `combat::ship_damage`).
pub const BATTLESHIP_DAMAGE: OptionSpec = OptionSpec {
    name: "battleship_damage",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "the battleship damage table: a die after the battle for a hit battleship (1-2 \
            righted, 3-4 light damage, 5-6 heavy damage), repairs at a friendly coast, \
            replacing AAE's free repair (JB-41..44)",
};

/// Whether a damaged battleship keeps its hit (Part E 4).
pub const DAMAGED_BATTLESHIP_KEEPS_HIT: OptionSpec = OptionSpec {
    name: "damaged_battleship_keeps_hit",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "a battleship in light or heavy damage still carries its hit, so the next one \
            sinks it (JB-41, digest Part E 4 PROPOSAL: yes)",
};

/// What a friendly coast is (Part E 5).
pub const FRIENDLY_COAST: OptionSpec = OptionSpec {
    name: "friendly_coast",
    pending: None,
    kind: OptionKind::Choice {
        default: "owner_or_ally",
        choices: &["owner_or_ally", OWNER_COAST],
    },
    about: "where a damaged battleship is repaired: a sea zone next to land controlled by its \
            owner or an ally (JB-42, digest Part E 5 PROPOSAL), or by its owner only",
};

/// A friendly coast is land of the ship's owner only.
const OWNER_COAST: &str = "owner";

/// Germany's coastal fire at ships in the English Channel (JB-45, JB-46;
/// `combat::coastal_fire`).
pub const NORMANDY_COASTAL_FIRE: OptionSpec = OptionSpec {
    name: "normandy_coastal_fire",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "Germany rolls one die per Allied ship in the English Channel when an amphibious \
            assault is launched from it into German-held land, hitting on 1, before \
            bombardment (JB-45, JB-46; digest Part E 6 PROPOSAL: every Allied naval unit \
            there, once per turn)",
};

/// Air transports: bought, carrying cargo in the non-combat move and
/// dropping paratroopers in the combat move (JB-02, JB-07..17).
pub const AIR_TRANSPORTS: OptionSpec = OptionSpec {
    name: "air_transports",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "air transports (JB-02, JB-07..17: cost 12, attack 0, defence 1, move 7) may be \
            bought, carry one infantry, artillery or paratrooper in the non-combat move and drop \
            one paratrooper in the combat move",
};

/// Paratroopers may be bought (JB-03, JB-18..20).
pub const PARATROOPERS: OptionSpec = OptionSpec {
    name: "paratroopers",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "paratroopers (JB-03, JB-18..20: cost 4, attack 1 or 2 when dropped, defence 2, \
            move 1) may be bought",
};

/// Whether a paratrooper's surprise first strike is a shot of its own
/// (Part E 3).
pub const FIRST_STRIKE_IS_EXTRA: OptionSpec = OptionSpec {
    name: "first_strike_is_extra",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "whether a paratrooper's surprise first strike (landing roll 6) is an extra shot \
            besides its round-1 shot (JB-17, digest Part E 3 PROPOSAL: no, it is the round-1 \
            shot fired early)",
};

/// How the landing dice of one territory are rolled (JB-16).
pub const LANDING_ROLL_ALLOCATION: OptionSpec = OptionSpec {
    name: "landing_roll_allocation",
    pending: None,
    kind: OptionKind::Choice {
        default: "attacker",
        choices: &["attacker", PER_UNIT],
    },
    about: "the defender's landing roll for dropped units (JB-16): one pool of dice per \
            territory that the attacker allots (digest PROPOSAL), or one die per unit",
};

/// Landing dice one per unit.
const PER_UNIT: &str = "per_unit";

/// One special force team rides free on every sea and air transport
/// (JB-08, JB-23).
pub const FREE_SFT_SLOT: OptionSpec = OptionSpec {
    name: "free_sft_slot",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "every sea and air transport carries one special force team on top of its capacity \
            (JB-08, JB-23)",
};

/// How cargo shares a sea transport (Part E 9).
pub const TRANSPORT_POINTS: OptionSpec = OptionSpec {
    name: "transport_points",
    pending: None,
    kind: OptionKind::Choice {
        default: "points",
        choices: &["points", ARMOR_ALONE],
    },
    about: "how cargo shares a sea transport: by points alone, so armor (3) takes a special \
            force team (1) besides the free one (digest Part A, Part E 9 PROPOSAL), or armor \
            and the other 3-point units ride with nothing but the free special force team",
};

/// A 3-point unit rides alone (but for the free rider).
const ARMOR_ALONE: &str = "armor_alone";

/// Special force teams: bought, moving into enemy land without a battle,
/// carried and dropped, detected before battles (JB-04, JB-21..26).
pub const SPECIAL_FORCE_TEAMS: OptionSpec = OptionSpec {
    name: "special_force_teams",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "special force teams (JB-04, JB-21..35: cost 6, move 1, never roll and are never \
            casualties) may be bought, may stand in and enter enemy land without a battle, land \
            from sea transports and drop from air transports, face detection before battles and \
            missions, and carry out the missions their orders want: Disruption, AA Suppression, \
            Supply Strike, Booby Trap and Evasive inside battles, Industrial Strike and Aversion \
            outside them",
};

/// How detection dice remove special force teams (JB-26, Part E 2).
pub const SFT_DETECTION: OptionSpec = OptionSpec {
    name: "sft_detection",
    pending: None,
    kind: OptionKind::Choice {
        default: "per_sft",
        choices: &["per_sft", POOLED],
    },
    about: "detection before a battle (JB-26): each special force team has dice of its own, one \
            per enemy ground unit there, and any 1 removes it (digest PROPOSAL, Part E 2), or \
            one power's teams share the dice as one pool and each 1 removes one of them",
};

/// Detection dice pooled.
const POOLED: &str = "pooled";

/// Whether special force teams count among the units that roll detection
/// (Part E 1).
pub const SFT_DETECTION_BY_TEAMS: OptionSpec = OptionSpec {
    name: "sft_detection_by_teams",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "whether special force teams count among the ground units that roll detection \
            against enemy teams (JB-26, digest Part E 1 PROPOSAL: no, only land units that \
            fight, AA guns left out)",
};

/// The detection sweep at the start of a power's combat move (JB-26).
pub const SFT_DETECTION_SWEEP: OptionSpec = OptionSpec {
    name: "sft_detection_sweep",
    pending: None,
    kind: OptionKind::Bool { default: true },
    about: "at the start of its combat move a power rolls detection once against each enemy \
            special force team in a land territory it controls, one die per ground unit of its \
            own there (JB-26 sweep trigger, digest PROPOSAL jb.detection_sweep: yes)",
};

/// How much one turn's Industrial Strikes may take from a treasury
/// (Part E 8).
pub const INDUSTRIAL_STRIKE_CAP: OptionSpec = OptionSpec {
    name: "industrial_strike_cap",
    pending: None,
    kind: OptionKind::Choice {
        default: "none",
        choices: &["none", TERRITORY_VALUE],
    },
    about: "the IPCs one turn's Industrial Strikes on a territory may take (JB-31, digest Part \
            E 8): no cap but the treasury, as AAE's strategic bombing (digest PROPOSAL), or at \
            most the territory's IPC value",
};

/// Industrial Strikes capped at the territory's IPC value.
const TERRITORY_VALUE: &str = "territory_value";

/// How many special force teams a sea transport may put ashore on its move
/// in a turn, sailing on (JB-23).
pub const SFT_DROP_OFFS: OptionSpec = OptionSpec {
    name: "sft_drop_offs",
    pending: None,
    kind: OptionKind::Int {
        default: 1,
        min: 0,
        max: 5,
    },
    about: "how many special force teams a sea transport may put ashore during its move in a \
            turn and sail on (JB-23: 'may drop one SFT without having to stop there'; digest \
            PROPOSAL: one drop per transport per turn); 0: a team lands only by unloading, which \
            stops the transport",
};

/// The special force team's name in `games/aae-jboulton/units.yaml`.
const SFT_NAME: &str = "special force team";

/// J Boulton's options, on top of AAE's (its base): one per house rule and
/// per open point of the digest's Part E that the rules played so far
/// touch, the digest's proposal the default.
pub static OPTIONS: &[OptionSpec] = &[
    MECHANIZED_INFANTRY,
    HEAVY_ARMOR,
    MECH_ARTILLERY_SUPPORT,
    ISOLATION,
    ISOLATION_NEUTRAL_SUPPLY,
    BATTLESHIP_DAMAGE,
    DAMAGED_BATTLESHIP_KEEPS_HIT,
    FRIENDLY_COAST,
    NORMANDY_COASTAL_FIRE,
    AIR_TRANSPORTS,
    PARATROOPERS,
    FIRST_STRIKE_IS_EXTRA,
    LANDING_ROLL_ALLOCATION,
    FREE_SFT_SLOT,
    TRANSPORT_POINTS,
    SPECIAL_FORCE_TEAMS,
    SFT_DETECTION,
    SFT_DETECTION_BY_TEAMS,
    SFT_DETECTION_SWEEP,
    INDUSTRIAL_STRIKE_CAP,
    SFT_DROP_OFFS,
];

/// The unit names of `games/aae-jboulton/units.yaml` the options withhold,
/// each with its option (bit `1 << i` of [`WITHHELD`]'s index set when the
/// option is off).
const OPTIONAL_UNITS: [(&OptionSpec, &str, &str); 5] = [
    (
        &MECHANIZED_INFANTRY,
        "mechanized infantry",
        "this match plays without mechanized infantry (option mechanized_infantry)",
    ),
    (
        &HEAVY_ARMOR,
        "heavy armor",
        "this match plays without heavy armor (option heavy_armor)",
    ),
    (
        &AIR_TRANSPORTS,
        "air transport",
        "this match plays without air transports (option air_transports)",
    ),
    (
        &PARATROOPERS,
        "paratrooper",
        "this match plays without paratroopers (option paratroopers)",
    ),
    (
        &SPECIAL_FORCE_TEAMS,
        SFT_NAME,
        "this match plays without special force teams (option special_force_teams)",
    ),
];

/// The units withheld by each combination of the options of
/// [`OPTIONAL_UNITS`]: `CombatRules::withheld_units` is a static list.
static WITHHELD: std::sync::LazyLock<Vec<Vec<(&str, &str)>>> = std::sync::LazyLock::new(|| {
    (0..1usize << OPTIONAL_UNITS.len())
        .map(|bits| {
            OPTIONAL_UNITS
                .iter()
                .enumerate()
                .filter(|(i, _)| bits & (1 << i) != 0)
                .map(|(_, &(_, name, why))| (name, why))
                .collect()
        })
        .collect()
});

impl RuleSetHooks for JBoulton {
    fn id(&self) -> &'static str {
        "jboulton"
    }

    fn base(&self) -> Option<&'static dyn RuleSetHooks> {
        Some(&Aae)
    }

    fn options(&self) -> &'static [OptionSpec] {
        OPTIONS
    }

    /// AAE's start of turn, then the isolation test for `power`'s units
    /// (JB-39: before its combat move) when option `isolation` is on.
    fn start_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        Aae.start_of_turn(game, state, power, events);
        state.isolated.clear();
        if ISOLATION.on(game) {
            supply::mark(game, state, power, events);
        }
    }

    /// AAE's end of turn; the turn's isolation ends with it (JB-39), and
    /// damaged battleships at a friendly coast start their repair.
    fn end_of_turn(
        &self,
        game: &GameDef,
        state: &mut GameState,
        power: PowerId,
        events: &mut Vec<Event>,
    ) {
        Aae.end_of_turn(game, state, power, events);
        state.isolated.clear();
        // Damaged battleships at a friendly coast start their repair
        // (JB-42, JB-43).
        crate::rules::combat::ship_damage::dock(game, state, power, &self.combat_rules(game));
    }

    /// AAE's combat, with artillery support for mechanized infantry
    /// (option `mech_artillery_support`), the new units withheld by their
    /// options, and the battleship damage table (option
    /// `battleship_damage`, with `damaged_battleship_keeps_hit` and
    /// `friendly_coast`).
    fn combat_rules(&self, game: &GameDef) -> CombatRules {
        let off: usize = OPTIONAL_UNITS
            .iter()
            .enumerate()
            .filter(|(_, (o, _, _))| !o.on(game))
            .map(|(i, _)| 1 << i)
            .sum();
        let withheld: &'static [(&'static str, &'static str)] = &WITHHELD[off];
        CombatRules {
            artillery_supports_mechanized: MECH_ARTILLERY_SUPPORT.on(game),
            withheld_units: withheld,
            battleship_damage: BATTLESHIP_DAMAGE.on(game).then(|| BattleshipDamage {
                keeps_hit: DAMAGED_BATTLESHIP_KEEPS_HIT.on(game),
                allies_coast: FRIENDLY_COAST.word(game).as_deref() != Some(OWNER_COAST),
            }),
            coastal_fire: NORMANDY_COASTAL_FIRE.on(game).then_some(CoastalFire {
                zone: "English Channel",
                power: "Germany",
                hits_at: 1,
            }),
            air_transports: AIR_TRANSPORTS.on(game).then(|| AirTransports {
                dropped_attack: 2,
                first_strike_is_extra: FIRST_STRIKE_IS_EXTRA.on(game),
                pooled_landing_roll: LANDING_ROLL_ALLOCATION.word(game).as_deref()
                    != Some(PER_UNIT),
            }),
            free_rider: FREE_SFT_SLOT.on(game).then_some(SFT_NAME),
            vehicle_rides_alone: TRANSPORT_POINTS.word(game).as_deref() == Some(ARMOR_ALONE),
            special_force_teams: SPECIAL_FORCE_TEAMS.on(game).then(|| SpecialForceTeams {
                pooled_detection: SFT_DETECTION.word(game).as_deref() == Some(POOLED),
                teams_search: SFT_DETECTION_BY_TEAMS.on(game),
                detection_sweep: SFT_DETECTION_SWEEP.on(game),
                strike_capped: INDUSTRIAL_STRIKE_CAP.word(game).as_deref() == Some(TERRITORY_VALUE),
                sea_drop_offs: SFT_DROP_OFFS
                    .number(game)
                    .and_then(|n| u32::try_from(n).ok())
                    .unwrap_or(1),
            }),
            ..Aae.combat_rules(game)
        }
    }

    inherit!(Aae =>
        bid_placement,
        neutral_rules,
        research_procedure,
        check,
        territory_pays_income,
        income,
        payments,
        combat_move_ended,
        placement_sites,
        holds_unplaceable_units,
        placement_rule,
        victory,
        freed_capital_regains_territories,
        ships_blocked_by,
        sea_passage_closed,
        standing_orders_problem,
        take_over_units,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::model::OptionValue;

    /// Every J Boulton option that can be switched off, off; the others
    /// (declared ahead of their rules) at their defaults, which no code
    /// reads.
    fn everything_off() -> Vec<(String, OptionValue)> {
        OPTIONS
            .iter()
            .filter(|o| o.pending.is_none())
            .filter_map(|o| match o.kind {
                OptionKind::Bool { .. } => Some((o.name.to_owned(), OptionValue::Bool(false))),
                _ => None,
            })
            .collect()
    }

    /// Item 1 of issue 18: the J Boulton rule set with every house rule off
    /// plays every AAE scenario exactly as AAE does (same events or errors
    /// at every step, same final position).
    #[test]
    fn with_every_house_rule_off_jboulton_adjudicates_every_aae_scenario_as_aae() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let aae = crate::rules::load_dir(&root.join("games/aae")).unwrap();
        let mut files = aae.files().clone();
        files.game.rule_set = JBoulton.id().to_owned();
        files.game.options.0.extend(everything_off());
        let jb = GameDef::new(files).unwrap();
        assert_eq!(jb.rule_set().id(), "jboulton");
        assert!(!ISOLATION.on(&jb) && !MECHANIZED_INFANTRY.on(&jb));
        crate::rules::variants::tests::assert_plays_every_aae_scenario_alike(&aae, &jb);
    }

    /// Item 10 of issue 18: the odds know mechanized infantry (2/3) and
    /// heavy armor (4/5) from the data. Heavy armor attacking mechanized
    /// infantry: per round the attacker alone hits 4/6 * 3/6 = 1/3, the
    /// defender alone 2/6 * 3/6 = 1/6, both 1/3, neither 1/6; folded over
    /// the 5/6 that decide, 2/5, 1/5 and 2/5. The other way round: 2/36,
    /// 20/36 and 10/36 of the 32/36 that decide.
    #[test]
    fn the_odds_know_mechanized_infantry_and_heavy_armor() {
        use crate::rules::odds::{OddsQuery, answer};
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let jb = crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap();
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        let r = answer(
            &jb,
            &OddsQuery::new("1 heavy armor", "1 mechanized infantry"),
        )
        .unwrap();
        assert!(
            close(r.attacker_wins, 0.4) && close(r.defender_wins, 0.2) && close(r.draw, 0.4),
            "{}",
            r.to_text()
        );
        let r = answer(
            &jb,
            &OddsQuery::new("1 mechanized infantry", "1 heavy armor"),
        )
        .unwrap();
        assert!(
            close(r.attacker_wins, 1.0 / 16.0)
                && close(r.defender_wins, 5.0 / 8.0)
                && close(r.draw, 5.0 / 16.0),
            "{}",
            r.to_text()
        );
    }

    /// The J Boulton game and its opening position with no unit on the
    /// board, for the odds tests below to place their own.
    fn empty_board() -> (GameDef, GameState) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let jb = crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap();
        let mut state = GameState::initial(&jb);
        state.units.clear();
        (jb, state)
    }

    /// Places a `unit` of `power` at `space` (all by name).
    fn place(jb: &GameDef, state: &mut GameState, unit: &str, power: &str, space: &str) -> u32 {
        let t = jb.unit_types().iter().position(|t| t.name == unit).unwrap();
        state.add_unit(t, jb.power(power).unwrap(), jb.space(space).unwrap())
    }

    /// The odds a battle plan's `when_odds_below` weighs after a round of
    /// the battle of `attackers` against `defenders` in `state`, by the
    /// default orders of loss, and whether they are exact; `supply_struck`
    /// when a team carried out Supply Strike in the battle.
    fn plan_odds(
        jb: &GameDef,
        state: &GameState,
        (attackers, defenders): (&[u32], &[u32]),
        supply_struck: bool,
    ) -> (f64, bool) {
        use crate::rules::combat::casualties::Chooser;
        let standing = state.standing.clone();
        let att = Chooser::Attacker {
            losses: &[],
            source: "default battle plan".into(),
            power: state.unit(attackers[0]).unwrap().owner,
            standing: &standing,
        };
        let def = Chooser::Defender {
            standing: &standing,
            land: !jb.is_sea(state.unit(defenders[0]).unwrap().at),
        };
        crate::rules::odds::attacker_win_now_with(
            jb,
            state,
            (attackers, defenders),
            (&att, &def),
            false,
            &crate::rules::odds::ToCome {
                supply_struck,
                ..Default::default()
            },
        )
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// Item 10 of issue 18: the odds a battle plan's `when_odds_below` asks
    /// for count a damaged battleship at 3 (light) or 2 (heavy damage).
    #[test]
    fn the_odds_of_a_battle_count_a_damaged_battleship_at_its_damaged_value() {
        use crate::rules::state::ShipDamage;
        let (jb, mut state) = empty_board();
        let ship = place(&jb, &mut state, "battleship", "Germany", "Danish Sea");
        let enemy = place(&jb, &mut state, "destroyer", "United Kingdom", "Danish Sea");
        let (fit, exact) = plan_odds(&jb, &state, (&[ship], &[enemy]), false);
        assert!(exact);
        let damaged = |heavy: bool| {
            let mut s = state.clone();
            s.ship_damage.push(ShipDamage {
                unit: ship,
                heavy,
                docked_at: None,
                repair_cost: None,
                repair_paid: false,
            });
            plan_odds(&jb, &s, (&[ship], &[enemy]), false).0
        };
        let (light, heavy) = (damaged(false), damaged(true));
        assert!(heavy < light && light < fit, "{heavy} {light} {fit}");
    }

    /// Item 10 of issue 18: the odds a battle plan's `when_odds_below` asks
    /// for count a paratrooper dropped into the battle at 2 (JB-18), one
    /// that walked in at 1. Against one infantry (defence 2): at 2 each
    /// round the attacker alone hits 2/9, the defender alone 2/9, both 1/9,
    /// so it wins 2/5 of the rounds that decide; at 1 it alone hits 1/9 of
    /// 4/9 that decide, 1/4.
    #[test]
    fn the_odds_of_a_battle_count_a_dropped_paratrooper_at_2() {
        let (jb, mut state) = empty_board();
        let para = place(&jb, &mut state, "paratrooper", "Germany", "East Poland");
        let inf = place(&jb, &mut state, "infantry", "Soviet Union", "East Poland");
        let (walked, exact) = plan_odds(&jb, &state, (&[para], &[inf]), false);
        assert!(exact);
        state.paradropped.push(para);
        let (dropped, _) = plan_odds(&jb, &state, (&[para], &[inf]), false);
        assert!(
            close(walked, 0.25) && close(dropped, 0.4),
            "{walked} {dropped}"
        );
    }

    /// Item 10 of issue 18: the odds a battle plan's `when_odds_below` asks
    /// for during a battle where a special force team carried out Supply
    /// Strike count every defender at half, rounded up (JB-32), as the
    /// battle's `supply-struck` groups fire. One infantry (1) against one
    /// infantry: at 2, each round the attacker alone hits 1/6 * 4/6 = 4/36
    /// and nothing happens 5/6 * 4/6 = 20/36, so it wins
    /// (4/36) / (1 - 20/36) = 1/4; struck, the defender hits at 1: the
    /// attacker alone hits 5/36, nothing 25/36, it wins 5/11.
    #[test]
    fn the_odds_of_a_battle_count_a_supply_strike() {
        let (jb, mut state) = empty_board();
        let attacker = place(&jb, &mut state, "infantry", "Germany", "East Poland");
        let defender = place(&jb, &mut state, "infantry", "Soviet Union", "East Poland");
        let sides = (&[attacker][..], &[defender][..]);
        let (plain, exact) = plan_odds(&jb, &state, sides, false);
        let (struck, exact_struck) = plan_odds(&jb, &state, sides, true);
        assert!(exact && exact_struck);
        assert!(
            close(plain, 0.25) && close(struck, 5.0 / 11.0),
            "{plain} {struck}"
        );
    }

    /// Item 10 of issue 18: the odds a battle plan's `when_odds_below` asks
    /// for count a unit averted by a special force team (JB-35) as rolling
    /// in no combat, though it may still be lost. One armor (3) and one
    /// infantry (1) against one infantry (2), the infantry lost first:
    /// - not averted: each round the attacker hits 1 - 5/6 * 1/2 = 7/12 and
    ///   wins (a defender's hit in the same round leaves it the armor); the
    ///   defender alone hits 5/12 * 1/3 = 5/36, leaving the armor alone,
    ///   which wins (1/2 * 2/3) / (1 - 1/2 * 2/3) = 1/2; nothing happens
    ///   5/12 * 2/3 = 10/36: (21/36 + 5/36 * 1/2) / (26/36) = 47/52;
    /// - the armor averted: the infantry alone hits 1/6 * 2/3 = 4/36; both
    ///   hit 1/6 * 1/3 = 2/36 (the armor is left: a win); the defender
    ///   alone hits 5/6 * 1/3 = 10/36 (the silent armor left then never
    ///   wins); nothing happens 5/6 * 2/3 = 20/36: (6/36) / (16/36) = 3/8.
    #[test]
    fn the_odds_of_a_battle_count_an_averted_unit_as_silent() {
        let (jb, mut state) = empty_board();
        let armor = place(&jb, &mut state, "armor", "Germany", "East Poland");
        let inf = place(&jb, &mut state, "infantry", "Germany", "East Poland");
        let enemy = place(&jb, &mut state, "infantry", "Soviet Union", "East Poland");
        let sides = (&[armor, inf][..], &[enemy][..]);
        let (free, exact) = plan_odds(&jb, &state, sides, false);
        assert!(exact);
        state.averted.push(armor);
        let (silent, exact) = plan_odds(&jb, &state, sides, false);
        assert!(exact);
        assert!(
            close(free, 47.0 / 52.0) && close(silent, 3.0 / 8.0),
            "{free} {silent}"
        );
    }

    /// The game of the house rules is AAE's board and setup with five more
    /// unit types, and loads.
    #[test]
    fn the_aae_jboulton_game_is_aae_with_the_new_units() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let aae = crate::rules::load_dir(&root.join("games/aae")).unwrap();
        let jb = crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap();
        assert_eq!(jb.files().board, aae.files().board);
        assert_eq!(jb.files().setup, aae.files().setup);
        assert_eq!(jb.unit_types().len(), aae.unit_types().len() + 5);
        // AAE's units, infantry and artillery also flying on air transports.
        for t in aae.unit_types() {
            let mut jt = jb.unit_type(&t.name).unwrap().clone();
            jt.abilities
                .retain(|a| *a != crate::rules::model::Ability::AirTransportable);
            assert_eq!(&jt, t, "{}", t.name);
        }
        let flying: Vec<&str> = jb
            .unit_types()
            .iter()
            .filter(|t| t.has(&crate::rules::model::Ability::AirTransportable))
            .map(|t| t.name.as_str())
            .collect();
        assert_eq!(
            flying,
            ["infantry", "artillery", "paratrooper", "special force team"]
        );
        let air = jb.unit_type("air transport").unwrap();
        assert_eq!(
            (
                air.cost,
                air.attack,
                air.defense,
                air.movement,
                air.transport_capacity
            ),
            (Some(12), Some(0), Some(1), Some(7), Some(2))
        );
        let para = jb.unit_type("paratrooper").unwrap();
        assert_eq!(
            (
                para.cost,
                para.attack,
                para.defense,
                para.movement,
                para.transport_cost
            ),
            (Some(4), Some(1), Some(2), Some(1), Some(2))
        );
        let mech = jb.unit_type("mechanized infantry").unwrap();
        assert_eq!(
            (mech.cost, mech.attack, mech.defense, mech.movement),
            (Some(5), Some(2), Some(3), Some(2))
        );
        let heavy = jb.unit_type("heavy armor").unwrap();
        assert_eq!(
            (heavy.cost, heavy.attack, heavy.defense, heavy.movement),
            (Some(7), Some(4), Some(5), Some(1))
        );
        for (_, name, _) in OPTIONAL_UNITS {
            assert!(jb.unit_type(name).is_some(), "{name}");
        }
    }
}
