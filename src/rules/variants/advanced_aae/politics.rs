//! Who plays when: the turn order (AAAE-04, option `turn_order`).
//!
//! The rules' Turn order heading is empty. The digest's PROPOSAL is AAE's
//! order with each new power straight after the one it was split from;
//! the order played is always `game.yaml`'s `turn_order`, and the option
//! says whether the rule set holds it to the proposal.

use super::TURN_ORDER;
use crate::rules::GameDef;
use crate::rules::problem::{Problem, files};

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
