//! Classic's combat as DAAK plays it (DAAK-C §3, §4; digest §4, §6): the
//! points where it differs from the base rule set's (AAE's) combat, as
//! [`CombatRules`] fields. The rest of DAAK's combat rulings are what the
//! engine already does (`docs/rules/classic.md`, "Units and combat").

use crate::rules::GameDef;
use crate::rules::variants::base::Base;
use crate::rules::variants::{CombatRules, DefaultLosses, OptionKind, OptionSpec, RuleSetHooks};

/// Whether defending submarines withdraw only to an adjacent sea zone:
/// DAAK-C §4.2(d) says "any sea zone" without enemy naval units and without
/// a battle this turn, and the digest presumes adjacency (UNCONFIRMED,
/// digest §4.4, §12). `adjacent` (default) or `any`.
pub const DEFENDING_SUB_WITHDRAWAL: OptionSpec = OptionSpec {
    name: "defending_sub_withdrawal",
    pending: None,
    kind: OptionKind::Choice {
        default: "adjacent",
        choices: &["adjacent", "any"],
    },
    about: "where defending submarines may withdraw (DAAK-C 4.2(d)): adjacent (an adjacent sea \
            zone, the digest's presumption) or any (any sea zone on the board) without enemy \
            naval units and without a battle this turn; UNCONFIRMED (digest §4.4)",
};

/// Whether the attacking submarines' first strike repeats in every round of
/// a battle or happens in the first round only: UNCONFIRMED for MB (digest
/// §4.4, §12). `every_round` (default: TripleA's classic engine, and the
/// engine's rule before the option) or `first_round`.
pub const SUBMARINE_FIRST_STRIKE: OptionSpec = OptionSpec {
    name: "submarine_first_strike",
    pending: None,
    kind: OptionKind::Choice {
        default: "every_round",
        choices: &["every_round", "first_round"],
    },
    about: "when attacking submarines strike first: every_round (TripleA's classic engine) or \
            first_round (later rounds they fire with the other attackers); UNCONFIRMED for \
            the MB rules (digest §4.4)",
};

/// DAAK's standard order of loss, for a side that sent none (digest §6.1,
/// DAAK-A): land infantry, armor, bomber, fighter; sea transport,
/// submarine, fighter, carrier, battleship.
pub static DAAK_ORDER_OF_LOSS: DefaultLosses = DefaultLosses {
    land: &["infantry", "armor", "bomber", "fighter"],
    sea: &["transport", "submarine", "fighter", "carrier", "battleship"],
    rule: "DAAK standard order of loss (digest §6.1): land infantry, armor, bomber, fighter; \
           sea transport, submarine, fighter, carrier, battleship",
};

/// Whether the attacker's transports (and other ships) that fought a sea
/// battle and did not withdraw may still load or unload where they stand
/// in the non-combat move: the AAMC FAQ lets them unload, IAAPA forbids
/// both, DAAK is silent (digest §4.1, UNCONFIRMED). `stays` (default, as
/// DAAK rules for a transport that withdrew, DAAK-C §3.2(f), and as the
/// digest's §2 says of units that fought) or `may_unload`.
pub const TRANSPORT_AFTER_SEA_BATTLE: OptionSpec = OptionSpec {
    name: "transport_after_sea_battle",
    pending: None,
    kind: OptionKind::Choice {
        default: "stays",
        choices: &["stays", "may_unload"],
    },
    about: "whether the attacker's ships that fought a sea battle stay put in the non-combat \
            move, cargo aboard (stays, IAAPA) or may still load or unload where they are \
            (may_unload, AAMC FAQ); a transport that withdrew always keeps its cargo aboard \
            (DAAK-C 3.2(f)); UNCONFIRMED (digest §4.1)",
};

/// Classic's combat rules: the base's, with DAAK's order of loss, no
/// withdrawal of any unit from an amphibious assault (§4.3(b)), aircraft
/// that stay in the battle zone when the others retreat (§4.1(b)), no
/// partial unloading in the combat move and unloading into several
/// territories in the non-combat move (§3.2(e)), and submarines that
/// withdraw after any full round (§4.2); allied transports in three steps
/// (§3.3); one AA gun per territory (§3.1(b)) and captured AA guns that
/// stay put (§4.4(b)); landings on a carrier that gets there only if
/// declared battles are won (§3.4(g)).
pub(crate) fn combat_rules(game: &GameDef) -> CombatRules {
    CombatRules {
        default_losses: Some(&DAAK_ORDER_OF_LOSS),
        aircraft_retreat_from_amphibious: false,
        aircraft_retreat_with_the_force: false,
        whole_cargo_unloads_in_combat: true,
        noncombat_unloading_into_several_territories: true,
        submarines_withdraw: true,
        allied_transports: true,
        sea_battle_ends_movement: TRANSPORT_AFTER_SEA_BATTLE.word(game).as_deref()
            != Some("may_unload"),
        fought_at_sea_rule: "DAAK-C §3.2(f) for a transport that withdrew; for one that fought \
                             on, option transport_after_sea_battle (IAAPA; UNCONFIRMED)",
        retreated_ships_stay: true,
        one_aa_gun_per_territory: true,
        captured_aa_guns_stay: true,
        carrier_landing_after_declared_battles: true,
        board_in_embattled_zone_for_assault: true,
        retreat_to_friendly_only: true,
        defending_subs_withdraw_beyond_adjacent: DEFENDING_SUB_WITHDRAWAL.word(game).as_deref()
            == Some("any"),
        first_strike_first_round_only: SUBMARINE_FIRST_STRIKE.word(game).as_deref()
            == Some("first_round"),
        ..Base.combat_rules(game)
    }
}
