//! Neutral territories: land that no power controls. How they are taken is
//! the rule set's ([`NeutralRules`](crate::rules::variants::NeutralRules)):
//! movement stops units in them and lets aircraft take them by flying over
//! (`movement`), and this module charges for them at the end of the combat
//! move (DAAK-C §2.7a: "3 IPC penalty for each neutral country that is
//! taken ... paid from cash left after purchases. If insufficient money has
//! been saved, the taking of a neutral country is not permitted").

use crate::rules::events::Event;
use crate::rules::orders::{OrderError, Origin};
use crate::rules::state::GameState;
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, SpaceId};

/// The neutrals `power`'s combat move takes: land no power controls where a
/// battle is pending (walked into) or that is taken in passing (flown over).
pub fn being_taken(game: &GameDef, state: &GameState) -> Vec<SpaceId> {
    let mut out: Vec<SpaceId> = state
        .battles
        .iter()
        .chain(state.taken_in_passing.iter())
        .copied()
        .filter(|&s| !game.is_sea(s) && state.owner[s.0].is_none())
        .collect();
    out.sort_by_key(|s| s.0);
    out.dedup();
    out
}

/// Pays for the neutrals the combat move takes, from the cash the purchase
/// left; when it cannot, the error says what it costs and what is left.
pub(crate) fn pay(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) -> Vec<OrderError> {
    let price = game.rule_set().neutral_rules(game).entry_cost;
    let taken = being_taken(game, state);
    if price == 0 || taken.is_empty() {
        return Vec::new();
    }
    let names: Vec<&str> = taken.iter().map(|&s| game.space_name(s)).collect();
    let cost = price * taken.len() as u32;
    let name = &game.powers()[power].name;
    let cash = state.ipcs[power];
    if cost > cash {
        return vec![OrderError::new(
            &Origin {
                section: "combat",
                ..Origin::default()
            },
            format!(
                "taking the neutral territor{} {} costs {cost} IPCs ({price} each, DAAK-C \
                     §2.7a) and {name} has {cash} left after its purchase; buy less or take \
                     fewer neutrals",
                if taken.len() == 1 { "y" } else { "ies" },
                names.join(", ")
            ),
        )];
    }
    state.ipcs[power] -= cost;
    events.push(Event::Special {
        rule: "neutral territories (DAAK-C §2.7a)".into(),
        detail: format!(
            "{name} pays {cost} IPCs to take {} ({price} each)",
            names.join(", ")
        ),
    });
    Vec::new()
}
