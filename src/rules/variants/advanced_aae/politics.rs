//! Who plays when: the turn order (AAAE-04, option `turn_order`), and the
//! German surprise attack of round 1 (AAAE-11).
//!
//! The rules' Turn order heading is empty. The digest's PROPOSAL is AAE's
//! order with each new power straight after the one it was split from;
//! the order played is always `game.yaml`'s `turn_order`, and the option
//! says whether the rule set holds it to the proposal.

use super::{SURPRISE_ATTACK_AA, TURN_ORDER};
use crate::rules::GameDef;
use crate::rules::problem::{Problem, files};
use crate::rules::variants::aae::Aae;
use crate::rules::variants::{CombatRules, RuleSetHooks, SurpriseAttack};

/// The region of `game.yaml` holding the light-red Russian areas (AAAE-11).
const LIGHT_RED: &str = "light_red";

/// AAE's combat rules with the German surprise attack (AAAE-11): in
/// Germany's round-1 turn, Russian units in the light-red areas do not fire
/// in the first round of any battle, nor (option `surprise_attack_aa`, the
/// digest's PROPOSAL) do their AA guns.
pub(super) fn combat_rules(game: &GameDef) -> CombatRules {
    CombatRules {
        first_round_surprise: Some(SurpriseAttack {
            attacker: "Germany",
            surprised: "Russia",
            game_round: 1,
            region: LIGHT_RED,
            aa_guns: SURPRISE_ATTACK_AA.on(game),
        }),
        ..Aae.combat_rules(game)
    }
}

/// The light-red areas are a region of Russian land territories.
pub(super) fn check_light_red(game: &GameDef) -> Vec<Problem> {
    let russia = game.power("Russia");
    let bad = match game.region(LIGHT_RED) {
        None => true,
        Some(spaces) => {
            spaces.is_empty()
                || spaces
                    .iter()
                    .any(|&s| game.is_sea(s) || game.starting_owner(s) != russia)
        }
    };
    if russia.is_none() || !bad {
        return Vec::new();
    }
    vec![Problem::at(
        files::GAME,
        format!("regions.{LIGHT_RED}"),
        "Advanced AAE needs the region light_red: the light-red Russian areas of the German \
         surprise attack, Russian land territories at the start (AAAE-11)"
            .to_owned(),
    )]
}

/// The digest's PROPOSAL, in the rules' words.
const PROPOSED: [&str; 6] = [
    "Germany",
    "Italy",
    "Russia",
    "Britain",
    "British MidEast",
    "USA",
];

/// With `turn_order: split_after_parent`, `game.yaml`'s turn order must be
/// the proposal's (the powers found by the rules' words).
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    if TURN_ORDER.word(game).as_deref() == Some("as_listed") {
        return Vec::new();
    }
    let wanted: Vec<Option<usize>> = PROPOSED.iter().map(|w| game.power(w)).collect();
    let order: Vec<Option<usize>> = game.turn_order().into_iter().map(Some).collect();
    if wanted.iter().any(Option::is_none) || order == wanted {
        // A missing power is the six-powers check's to report.
        return Vec::new();
    }
    vec![Problem::at(
        files::GAME,
        "turn_order".to_owned(),
        format!(
            "with option turn_order: split_after_parent the powers play in the order {} \
             (AAAE-04, the digest's proposal: each new power straight after the one it was \
             split from); set turn_order: as_listed to play game.yaml's order",
            PROPOSED.join(", ")
        ),
    )]
}
