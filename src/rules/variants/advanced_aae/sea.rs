//! Advanced AAE's sea rules that are data for the engine: the German
//! Wolfpack (AAAE-25) and the screen procedure against capital ships
//! (AAAE-48) with its two options. The submarine rules themselves are `CombatRules`
//! fields set in the rule set's `combat_rules`, played by `combat` and
//! `production`.

use super::super::{FreeUnit, OptionKind, OptionSpec, SubmarineScreen};
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

/// The unit types the sea rules name must be in the game's data (found by
/// the rules' words, as names or aliases): the screen's capital ships, and
/// the Wolfpack's submarine, able to submerge, so that the submarine rules
/// (AAAE-43..48) apply to it.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    let word = WOLFPACK.unit;
    let mut problems: Vec<Problem> = screen(game)
        .capital_ships
        .iter()
        .filter(|w| game.unit_type(w).is_none())
        .map(|w| {
            Problem::at(
                files::UNITS,
                "units".to_owned(),
                format!(
                    "the screen procedure of Advanced AAE (AAAE-48) attacks capital ships, the \
                     {w} among them; no unit type is called so: name one so, or give it the \
                     alias {w}"
                ),
            )
        })
        .collect();
    problems.extend(match game.unit_type(word) {
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
    });
    problems
}

/// AAAE-48 ambiguity: what the submarines blocked by the destroyers or
/// turned back by the screen do.
pub(super) const FAILED_SCREEN_SUBS: OptionSpec = OptionSpec {
    name: "failed_screen_subs",
    pending: None,
    kind: OptionKind::Choice {
        default: "fire_noncapital",
        choices: &["fire_noncapital", "idle"],
    },
    about: "AAAE-48: submarines blocked by the destroyers or failing the escort screen: \
            fire_noncapital (digest PROPOSAL) fire their one round in the battle, their hits \
            only on ships that are not capital ships; idle: they do nothing and submerge",
};

/// AAAE-48 ambiguity: whether the destroyers' return fire in the screen is
/// their round-1 fire.
pub(super) const SCREEN_DD_FIRE_COUNTS_AS_ROUND1: OptionSpec = OptionSpec {
    name: "screen_dd_fire_counts_as_round1",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "AAAE-48: off (digest PROPOSAL), the defending destroyers' return fire in the \
            screen procedure comes on top of their round-1 fire in the battle (they fire \
            twice); on, it is their round-1 fire and they hold it in round 1",
};

/// AAAE-48 as played: capital ships are battleships and carriers
/// (PROPOSAL), one attempting submarine blocked per two destroyers, through
/// on 3 or less, and the two options above.
pub(super) fn screen(game: &GameDef) -> SubmarineScreen {
    SubmarineScreen {
        capital_ships: &["battleship", "carrier"],
        destroyers_per_block: 2,
        through_at: 3,
        failed_fire_noncapital: FAILED_SCREEN_SUBS.word(game).as_deref() != Some("idle"),
        return_fire_is_round_1: SCREEN_DD_FIRE_COUNTS_AS_ROUND1.on(game),
    }
}
