//! The Middle East payment (AAE FAQ 2005, Industry): the Allies pay Germany
//! the IPC value of the Middle East territories it holds, from their
//! treasuries, with no bank; who pays is theirs to choose.

use super::{ALLIES_CHOOSE, MIDDLE_EAST_PAYER};
use crate::rules::GameDef;
use crate::rules::conquest::{allied, original_owner};
use crate::rules::events::Event;
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, SpaceId};

/// The Middle East payment, at the end of `power`'s turn: for every Middle
/// East territory (original owner a power that collects no income) that
/// `power` holds against that power's side, the Allies pay its IPC value from
/// their treasuries straight to `power` (FAQ: "the Allies must pay the
/// territories' IPC value directly to the German player ... The bank is not
/// involved"). Who pays: option `middle_east_payer`; with `allies_choose`
/// the Allies choose in their standing orders (`middle_east_payment`: first,
/// richest_first or last), and within each choice the richest pays first,
/// the next richest what it could not. A payment the treasuries cannot cover
/// is paid as far as they go.
pub(super) fn middle_east_payment(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) {
    let mut owed = 0u32;
    let mut names = Vec::new();
    let mut owners: Vec<PowerId> = Vec::new();
    for s in (0..game.space_count()).map(SpaceId) {
        let Some(orig) = original_owner(game, s) else {
            continue;
        };
        if game.powers()[orig].collects_income
            || state.owner[s.0] != Some(power)
            || allied(game, orig, power)
        {
            continue;
        }
        let value = game.territory(s).and_then(|t| t.ipc).unwrap_or(0);
        if value == 0 {
            continue;
        }
        owed += value;
        names.push(game.space_name(s).to_owned());
        if !owners.contains(&orig) {
            owners.push(orig);
        }
    }
    if owed == 0 {
        return;
    }
    let payers: Vec<PowerId> = (0..game.powers().len())
        .filter(|&p| game.powers()[p].plays && owners.iter().any(|&o| allied(game, o, p)))
        .collect();
    let fixed = match MIDDLE_EAST_PAYER.word(game) {
        Some(t) if t != ALLIES_CHOOSE => payers
            .iter()
            .copied()
            .find(|&p| game.powers()[p].name.to_lowercase().replace(' ', "_") == t),
        _ => None,
    };
    let mut order: Vec<PowerId> = match fixed {
        Some(p) => vec![p],
        None => payers,
    };
    // Each Allied power's standing orders place it first, by treasury or
    // last; within a place the richest first, ties in the order the powers
    // are listed. A named payer pays alone.
    order.sort_by_key(|&p| {
        (
            state.standing[p].middle_east_payment,
            std::cmp::Reverse(state.ipcs[p]),
        )
    });
    let receiver = &game.powers()[power].name;
    let mut paid = Vec::new();
    let mut left = owed;
    for p in order {
        let amount = left.min(state.ipcs[p]);
        if amount == 0 {
            continue;
        }
        state.ipcs[p] -= amount;
        state.ipcs[power] += amount;
        left -= amount;
        paid.push(format!(
            "{} paid {receiver} {amount} IPCs",
            game.powers()[p].name
        ));
    }
    let mut detail = format!(
        "{receiver} holds {} worth {owed} IPCs; {}",
        names.join(", "),
        if paid.is_empty() {
            "nothing was paid".to_owned()
        } else {
            paid.join(", ")
        }
    );
    if left > 0 {
        detail.push_str(&format!(
            "; {left} IPCs could not be paid: the payers' treasuries are empty"
        ));
    }
    events.push(Event::Special {
        rule: "Middle East payment".into(),
        detail,
    });
}
