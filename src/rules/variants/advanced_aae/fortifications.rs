//! Fortifications (AAAE-29): the rules' numbers and the digest's readings
//! as options, handed to the engine as [`Fortifications`]. The marker is a
//! `building` of the game's `units.yaml` answering to the rules' word
//! (fortification), with the rules' cost, so where fortifications stand at
//! the start is setup data; the battles (`combat::fortifications`), the
//! placement (`production`) and the conquest read the rest.

use super::super::{Fortifications, OptionKind, OptionSpec};
use crate::rules::GameDef;
use crate::rules::model::UnitKind;
use crate::rules::problem::{Problem, files};

/// The marker, in the rules' words.
const UNIT: &str = "fortification";
/// [R] "Fortifications cost 2 IPC each."
const COST: u32 = 2;

/// AAAE-29 PROPOSAL: which defending infantry a fortification raises.
pub(super) const FORTIFIED_INFANTRY: OptionSpec = OptionSpec {
    name: "fortified_infantry",
    pending: None,
    kind: OptionKind::Choice {
        default: "side",
        choices: &["side", "owner"],
    },
    about: "AAAE-29 (digest PROPOSAL: side): each fortification raises one defending infantry \
            of its side to 3; owner: only infantry of the power that owns the fortification",
};

/// AAAE-29 ambiguity: whose infantry make the two a placement needs.
pub(super) const FORTIFICATION_INFANTRY_OF: OptionSpec = OptionSpec {
    name: "fortification_infantry_of",
    pending: None,
    kind: OptionKind::Choice {
        default: "side",
        choices: &["side", "own"],
    },
    about: "AAAE-29 (\"there must be at least two infantry units in the space to build\"; the \
            rules do not say whose): side counts the infantry of the placing power's side \
            there, own only its own",
};

/// AAAE-29 PROPOSAL: when the two infantry are counted.
pub(super) const FORTIFICATION_COUNTS_PLACED_INFANTRY: OptionSpec = OptionSpec {
    name: "fortification_counts_placed_infantry",
    pending: None,
    kind: OptionKind::Bool { default: false },
    about: "AAAE-29 (digest PROPOSAL: off): the infantry a fortification needs are counted \
            at placement, after the non-combat move, among those standing there; on, \
            infantry placed there in the same place phase count too",
};

/// AAAE-29 PROPOSAL: what happens to fortifications when their territory
/// falls.
pub(super) const CAPTURED_FORTIFICATIONS: OptionSpec = OptionSpec {
    name: "captured_fortifications",
    pending: None,
    kind: OptionKind::Choice {
        default: "pass_to_conqueror",
        choices: &["pass_to_conqueror", "destroyed"],
    },
    about: "AAAE-29 (\"fortifications can be captured if the defending space is unoccupied by \
            enemy units\"; digest PROPOSAL: pass_to_conqueror): the fortifications of a \
            conquered territory pass to the conqueror, as complexes do; destroyed: they are \
            removed",
};

/// AAAE-29 PROPOSAL: a battle where only fortifications defend.
pub(super) const FORTIFICATIONS_ALONE: OptionSpec = OptionSpec {
    name: "fortifications_alone",
    pending: Some(
        "the digest's PROPOSAL (attacker_wins) is the only reading played: a territory \
         holding only fortifications is taken like an empty one",
    ),
    kind: OptionKind::Choice {
        default: "attacker_wins",
        choices: &["attacker_wins", "fight_on"],
    },
    about: "AAAE-29 (digest PROPOSAL: attacker_wins): when only fortifications are left on the \
            defending side the battle ends and the attacker has won; fight_on would have the \
            attacker hit them first",
};

/// The fortifications of the match, with its options.
pub(super) fn rules(game: &GameDef) -> Fortifications {
    Fortifications {
        unit: UNIT,
        raises: "infantry",
        defence: 3,
        owner_only: FORTIFIED_INFANTRY.word(game).as_deref() == Some("owner"),
        infantry_to_place: 2,
        own_infantry_to_place: FORTIFICATION_INFANTRY_OF.word(game).as_deref() == Some("own"),
        placed_infantry_count: FORTIFICATION_COUNTS_PLACED_INFANTRY.on(game),
        per_turn: 1,
        destroyed_on_capture: CAPTURED_FORTIFICATIONS.word(game).as_deref() == Some("destroyed"),
    }
}

/// The game's units must have the marker: a building answering to the
/// rules' word, bought at the rules' cost.
pub(super) fn check(game: &GameDef) -> Vec<Problem> {
    let problem = |reason: String| vec![Problem::at(files::UNITS, "units".to_owned(), reason)];
    match game.unit_type(UNIT) {
        None => problem(format!(
            "Advanced AAE's fortifications (AAAE-29) are bought and placed; no unit type is \
             called {UNIT}: name one so (a building costing {COST}), or give it the alias {UNIT}"
        )),
        Some(t) if t.kind != Some(UnitKind::Building) => problem(format!(
            "{} answers to {UNIT}, but it is not a building: fortifications never move and \
             never hold a territory (AAAE-29 PROPOSAL)",
            t.name
        )),
        Some(t) if t.cost != Some(COST) => problem(format!(
            "{} costs {}, but fortifications cost {COST} IPCs (AAAE-29)",
            t.name,
            t.cost.map_or("nothing".to_owned(), |c| c.to_string())
        )),
        Some(_) => Vec::new(),
    }
}
