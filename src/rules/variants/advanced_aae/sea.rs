//! Advanced AAE's sea rules that are data for the engine: the German
//! Wolfpack (AAAE-25). The submarine rules themselves are `CombatRules`
//! fields set in the rule set's `combat_rules`, played by `combat` and
//! `production`.

use super::super::FreeUnit;
use crate::rules::GameDef;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::problem::{Problem, files};

/// AAAE-25: "Germany receives +1 SUB every round on unit Placement Phase",
/// placed like a submarine Germany builds (a sea zone beside one of its
/// complexes, the three-submarine limit of AAAE-44 included), outside the
/// complexes' limits (AAAE-17 PROPOSAL); lost when no such zone can take it
/// (digest PROPOSAL).
pub(super) const WOLFPACK: FreeUnit = FreeUnit {
    power: "Germany",
    unit: "submarine",
    rule: "German Wolfpack (AAAE-25)",
};

/// The unit types the sea rules name must be in the game's data: the
/// Wolfpack's submarine (found by the rules' word, as a name or an alias),
/// able to submerge, so that the submarine rules (AAAE-43..48) apply to it.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    let word = WOLFPACK.unit;
    match game.unit_type(word) {
        Some(t) if t.has(&Ability::Submerge) && t.kind == Some(UnitKind::Sea) => Vec::new(),
        Some(t) => vec![Problem::at(
            files::UNITS,
            "units".to_owned(),
            format!(
                "{} answers to {word}, but it is not a ship with the submerge ability that the \
                 submarine rules of Advanced AAE (AAAE-25, AAAE-43..48) read",
                t.name
            ),
        )],
        None => vec![Problem::at(
            files::UNITS,
            "units".to_owned(),
            format!(
                "the German Wolfpack of Advanced AAE (AAAE-25) gives a free {word}; no unit type \
                 is called so: name one so, or give it the alias {word}"
            ),
        )],
    }
}
