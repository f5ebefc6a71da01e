//! The bid placement stage: before round 1, a side that won setup money in
//! a bid (or that a match gives setup money, such as AAE's special cash
//! advance) buys units with it and puts them on the board at once. Its
//! powers place in turn order, each in one message of `place:` orders that
//! buy and place together; the side's money is shared, and what its last
//! power leaves unspent is lost (DAAK-A: the bid "is spent on units placed
//! before the game starts").
//!
//! Where the units may go is the rule set's ([`BidPlacementRules`],
//! [`RuleSetHooks::bid_placement`](crate::rules::variants::RuleSetHooks::bid_placement)).
//! The stage is pure like the rest of the engine: the match starts it from
//! the bid's result in the log ([`start`]) and every message is applied by
//! [`place`], which changes nothing when it refuses.

use crate::rules::GameDef;
use crate::rules::events::Event;
use crate::rules::model::UnitKind;
use crate::rules::orders::{OrderError, Orders, Origin};
use crate::rules::production::totals;
use crate::rules::state::{GameState, Phase};
use crate::rules::vocab::PowerId;

/// Where a rule set lets bid units be placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BidPlacementRules {
    /// Land units and aircraft go to a land territory the power controls
    /// (at the start of the game: the stage comes before any move), and,
    /// when this is `true`, only where it already has a unit of its own
    /// (TripleA's AAE bid, digest-aae §1).
    pub land_needs_own_units: bool,
    /// Ships go to a sea zone where the power already has a unit of its
    /// own (`true`, TripleA's AAE bid), or to any sea zone beside a land
    /// territory it controls (`false`).
    pub sea_needs_own_units: bool,
    /// The rule, with its source, as errors and reports quote it.
    pub rule: &'static str,
}

/// DAAK's bid placement (Classic): the units go to territories the power
/// controls at the start of the game (DAAK-A, the bid "spent on units placed
/// before the game starts"; the club rules' limits, DAAK-R ch. 2, are
/// UNCONFIRMED, digest-classic §1), and ships, which no territory holds, to
/// a sea zone beside one of them; no limit per space.
pub const DAAK: BidPlacementRules = BidPlacementRules {
    land_needs_own_units: false,
    sea_needs_own_units: false,
    rule: "DAAK-A: bid units go to territories the power controls at the start, ships to a sea \
           zone beside one",
};

/// Starts the bid placement stage: `money` gives each side's setup money
/// (index into `game.yaml`'s sides). With no money for anyone the state is
/// returned as it was (round 1 starts at once).
pub fn start(game: &GameDef, state: &GameState, money: &[u32]) -> (GameState, Vec<Event>) {
    let mut next = state.clone();
    let mut events = Vec::new();
    let sides = &game.files().game.sides;
    next.bid_money = (0..sides.len())
        .map(|s| money.get(s).copied().unwrap_or(0))
        .collect();
    for (s, n) in next.bid_money.iter().enumerate() {
        if *n > 0 {
            events.push(Event::Special {
                rule: "bid".into(),
                detail: format!(
                    "the {} have {n} IPCs of setup money to place before round 1",
                    sides[s].name
                ),
            });
        }
    }
    match first_placer(game, &next, 0) {
        Some(turn) => {
            next.phase = Phase::BidPlacement;
            next.turn = turn;
        }
        None => next.bid_money.clear(),
    }
    (next, events)
}

/// The first index of the turn order, from `from` on, of a power whose side
/// still has setup money.
fn first_placer(game: &GameDef, state: &GameState, from: usize) -> Option<usize> {
    let order = game.turn_order();
    (from..order.len()).find(|&i| {
        let side = game.side_of(order[i]);
        state.bid_money.get(side).copied().unwrap_or(0) > 0
    })
}

/// Applies `power`'s bid placement: every `place:` order buys its units
/// with the side's setup money and puts them on the board. Any other
/// section is refused. Returns the new state and what happened; a refused
/// message changes nothing.
pub fn place(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &Orders,
) -> Result<(GameState, Vec<Event>), Vec<OrderError>> {
    let rules = game.rule_set().bid_placement(game);
    let name = &game.powers()[power].name;
    let mut errors = other_sections(orders);
    let side = game.side_of(power);
    let side_name = &game.files().game.sides[side].name;
    let money = state.bid_money.get(side).copied().unwrap_or(0);
    let mut cost = 0u32;
    for order in &orders.place {
        let (space, units) = &order.item;
        let origin = &order.origin;
        let here = game.space_name(*space);
        for (&unit, &n) in &totals(units) {
            let t = &game.unit_types()[unit];
            match crate::rules::research::unit_cost(game, state, power, t) {
                Some(c) => cost += c * n,
                None => {
                    errors.push(OrderError::new(
                        origin,
                        format!("{} cannot be bought, so not with a bid either", t.name),
                    ));
                    continue;
                }
            }
            let own_here = state
                .units_at(*space)
                .any(|u| u.owner == power && u.cargo_of.is_none());
            let sea = game.is_sea(*space);
            let problem = match (t.kind, sea) {
                (Some(UnitKind::Sea), false) => Some(format!(
                    "{} is a ship: it goes in a sea zone, not in {here}",
                    t.name
                )),
                (Some(UnitKind::Sea), true) if rules.sea_needs_own_units && !own_here => {
                    Some(format!("{name} has no unit of its own in {here}"))
                }
                (Some(UnitKind::Sea), true) => {
                    let beside = game
                        .neighbours(*space)
                        .iter()
                        .any(|&s| !game.is_sea(s) && state.owner[s.0] == Some(power));
                    (!rules.sea_needs_own_units && !beside)
                        .then(|| format!("{here} is beside no territory {name} controls"))
                }
                (_, true) => Some(format!("{} cannot be placed at sea in {here}", t.name)),
                (_, false) if state.owner[space.0] != Some(power) => {
                    Some(format!("{name} does not control {here}"))
                }
                (_, false) if rules.land_needs_own_units && !own_here => {
                    Some(format!("{name} has no unit of its own in {here}"))
                }
                _ => None,
            };
            if let Some(p) = problem {
                errors.push(OrderError::new(
                    origin,
                    format!("no bid units in {here}: {p} ({})", rules.rule),
                ));
            }
        }
    }
    if cost > money {
        errors.push(OrderError::new(
            &section(),
            format!(
                "these units cost {cost} IPCs, but the {side_name} have {money} IPCs of setup money left"
            ),
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let mut next = state.clone();
    let mut events = Vec::new();
    for order in &orders.place {
        let (space, units) = &order.item;
        for (&unit, &n) in &totals(units) {
            for _ in 0..n {
                next.add_unit(unit, power, *space);
            }
        }
        events.push(Event::Special {
            rule: "bid placement".into(),
            detail: format!(
                "{name} places {} in {}",
                crate::rules::production::describe(game, &totals(units)),
                game.space_name(*space)
            ),
        });
    }
    next.bid_money[side] = money - cost;
    // The next power of a side with money left, in turn order; a side's
    // last power ends its part, and what is left is lost.
    let last_of_side = !game.turn_order()[state.turn + 1..]
        .iter()
        .any(|&p| game.side_of(p) == side);
    if last_of_side && next.bid_money[side] > 0 {
        events.push(Event::Special {
            rule: "bid placement".into(),
            detail: format!(
                "the {side_name} leave {} IPCs of setup money unspent; they are lost",
                next.bid_money[side]
            ),
        });
        next.bid_money[side] = 0;
    }
    match first_placer(game, &next, state.turn + 1) {
        Some(turn) => next.turn = turn,
        None => {
            next.bid_money.clear();
            next.phase = Phase::Purchase;
            next.turn = 0;
            events.push(Event::Special {
                rule: "bid placement".into(),
                detail: "the bid placement is over; round 1 begins".into(),
            });
        }
    }
    Ok((next, events))
}

fn section() -> Origin {
    Origin {
        section: "place",
        ..Origin::default()
    }
}

/// Errors for every section but `place`: the stage buys and places only.
fn other_sections(orders: &Orders) -> Vec<OrderError> {
    let why = "the bid placement before round 1 takes only `place:` orders, which buy and place \
               units with the side's setup money";
    let mut errors = Vec::new();
    let mut refuse = |name: &'static str, line: Option<usize>| {
        errors.push(OrderError::new(
            &Origin {
                section: name,
                line,
                ..Origin::default()
            },
            format!("{name} is not part of the bid placement: {why}"),
        ));
    };
    if let Some(r) = &orders.research {
        refuse("research", r.origin.line);
    }
    if let Some(p) = &orders.purchase {
        refuse("purchase", p.origin.line);
    }
    let firsts = [
        ("repair", orders.repair.first().map(|o| o.origin.line)),
        ("combat", orders.combat.first().map(|o| o.origin.line)),
        ("rockets", orders.rockets.first().map(|o| o.origin.line)),
        ("battles", orders.battles.first().map(|o| o.origin.line)),
        ("noncombat", orders.noncombat.first().map(|o| o.origin.line)),
        ("take_over", orders.take_over.first().map(|o| o.origin.line)),
    ];
    for (name, line) in firsts {
        if let Some(line) = line {
            refuse(name, line);
        }
    }
    if let Some(s) = &orders.standing {
        refuse("standing", s.origin.line);
    }
    errors
}
