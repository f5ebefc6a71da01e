//! Strategic rail movement (AAAE-30): the rule's numbers are
//! `CombatRules::strategic_rail`, played by `movement::rail`; the board
//! says where rail is barred ("Strategic Rail cannot be used for African &
//! Middle Eastern countries") through `game.yaml`'s region named here.

use crate::rules::GameDef;
use crate::rules::problem::{Problem, files};

/// The region of land territories where rail is barred.
pub(super) const BARRED: &str = "africa_and_middle_east";

/// The region exists and holds land only.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    let ok = game
        .region(BARRED)
        .is_some_and(|r| !r.is_empty() && r.iter().all(|&s| !game.is_sea(s)));
    if ok {
        return Vec::new();
    }
    vec![Problem::at(
        files::GAME,
        format!("regions.{BARRED}"),
        "Advanced AAE needs the region africa_and_middle_east: the land territories of Africa \
         and the Middle East, where strategic rail cannot be used (AAAE-30)"
            .to_owned(),
    )]
}
