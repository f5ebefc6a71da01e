//! Advanced AAE's submarine rules that are not a value of a firing group:
//! the refusal of a submerging order where submarines fight one round
//! (AAAE-46).

use crate::rules::GameDef;
use crate::rules::orders::SubmarinePolicy;

/// Why a `submarines:` policy (battle plan or standing orders) cannot be
/// played where submarines fight one round and then submerge by rule
/// (`CombatRules::one_round_submarines`, Advanced AAE AAAE-46): submerging
/// is no choice there, so an order to submerge would be silently ignored.
/// `None` for every other policy and every other rule set.
pub fn one_round_submerge_problem(game: &GameDef, policy: SubmarinePolicy) -> Option<String> {
    game.combat_rules().one_round_submarines?;
    if !matches!(
        policy,
        SubmarinePolicy::Submerge | SubmarinePolicy::SubmergeAfterFirstRound
    ) {
        return None;
    }
    let word = policy.word();
    Some(format!(
        "submarines: {word} cannot be played in this game ({}): submarines fight exactly one \
         round of each battle and then submerge by rule, attacking or defending (AAAE-46), so \
         there is no choice to make; leave submarines out (or write fight)",
        game.files().game.name
    ))
}
