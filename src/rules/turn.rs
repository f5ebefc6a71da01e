//! The turn sequence: research, purchase, combat move, combat, non-combat
//! move, place, end of turn (income), for each power in turn order, in the
//! two stages that orders arrive by mail.
//!
//! Stage 1 (the state at [`Phase::Purchase`]): research (with its dice, and
//! the War Bonds die), purchase, combat moves, battle plans, then combat.
//! Stage 2 (at [`Phase::NoncombatMove`]): non-combat moves, take-overs of an
//! ally's units (AAE's Patriotic War, at the end of the non-combat move) and
//! placement, then the end of the turn: submarines
//! resurface and battleships are repaired, the rule set's end-of-turn effects
//! (AAE: the Middle East payment), convoy control, income, the victory check,
//! and the next power in turn order (the next round after the last).
//!
//! Two powers sharing a turn (`shares_turn_with`) play it interleaved where
//! the rule set says so (Anniversary, KQ-1): the first one's stage 1, the
//! second one's stage 1, the first one's stage 2 (its turn ends there, with
//! its income), the second one's stage 2. The power waiting meanwhile keeps
//! its units to mobilize and War Bonds in [`GameState::shared_turn`].

use crate::dice::DiceSource;
use crate::rules::GameDef;
use crate::rules::combat::special_force_missions as missions;
use crate::rules::combat::{self, CombatOutcome};
use crate::rules::conquest;
use crate::rules::events::Event;
use crate::rules::income;
use crate::rules::movement;
use crate::rules::neutrals;
use crate::rules::orders::{Located, OrderError, Orders, Origin, TakeOverOrder};
use crate::rules::production;
use crate::rules::research;
use crate::rules::state::{GameState, Phase, SharedTurn};
use crate::rules::variants::TakeOver;
use crate::rules::vocab::PowerId;

/// Applies one message of `power`'s orders to `state`, with no dice: for
/// messages whose battles (if any) need none. A message whose battles need
/// dice is refused with an error saying so; the match layer uses
/// [`check_orders`] and [`apply_orders_with_dice`] instead.
///
/// The stage is the one `state.phase` is at: at `Purchase` the message is
/// stage 1 (research, purchase, combat moves, battle plans; stage-2 sections in the same
/// message are applied after combat when still legal); at `NoncombatMove` it
/// is stage 2 (non-combat moves, take-overs, placement; the turn then ends:
/// income, next power). A message of standing orders alone may come from any
/// power at any time. Returns the new state and what happened, or every
/// error; a rejected message changes nothing.
pub fn apply_orders(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &Orders,
) -> Result<(GameState, Vec<Event>), Vec<OrderError>> {
    match run(game, state, power, orders, None)? {
        Run::Done(next, events) => Ok((*next, events)),
        Run::NeedsDice => Err(vec![OrderError::new(
            &section("combat"),
            "this stage needs dice (battles, research or war bonds), and none were given",
        )]),
    }
}

/// Applies one message with the turn's dice: every battle is fought. Call
/// [`check_orders`] first: an error here means the orders were invalid
/// before any die was drawn.
pub fn apply_orders_with_dice(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &Orders,
    dice: &mut dyn DiceSource,
) -> Result<(GameState, Vec<Event>), Vec<OrderError>> {
    match run(game, state, power, orders, Some(dice))? {
        Run::Done(next, events) => Ok((*next, events)),
        Run::NeedsDice => unreachable!("battles are fought when dice are given"),
    }
}

/// Checks one message without drawing a die: everything up to the first
/// battle that needs dice. `Ok` means the message is accepted: the match
/// logs it, reveals the turn's secret, and applies it with the dice.
pub fn check_orders(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &Orders,
) -> Result<(), Vec<OrderError>> {
    run(game, state, power, orders, None).map(|_| ())
}

/// True when the message sets standing orders and nothing else.
pub fn is_standing_only(orders: &Orders) -> bool {
    orders.standing.is_some()
        && orders.purchase.is_none()
        && orders.lend_lease.is_none()
        && orders.oil_convoy.is_none()
        && orders.repair.is_empty()
        && orders.rockets.is_empty()
        && orders.industrial_strike.is_empty()
        && orders.averted.is_none()
        && orders.research.is_none()
        && orders.combat.is_empty()
        && orders.battles.is_empty()
        && !has_stage_two(orders)
}

/// How far a message got.
enum Run {
    /// Applied completely.
    Done(Box<GameState>, Vec<Event>),
    /// Valid so far; its battles need dice that were not given.
    NeedsDice,
}

fn run(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    orders: &Orders,
    dice: Option<&mut (dyn DiceSource + '_)>,
) -> Result<Run, Vec<OrderError>> {
    let whole = |reason: String| vec![OrderError::new(&Origin::default(), reason)];
    // A sealed bid is the match's (`matches::bids`), never part of a turn.
    if let Some(b) = &orders.bid {
        return Err(vec![OrderError::new(
            &b.origin,
            "a bid is sealed by the match before round 1, not played in a turn; send it alone",
        )]);
    }
    if is_standing_only(orders) {
        // Any power, any time: how it defends when it cannot be asked.
        let standing = orders.standing.as_ref().expect("checked");
        // A choice no rule of this game reads would be kept and ignored.
        if let Some(reason) = game
            .rule_set()
            .standing_orders_problem(game, &standing.item)
        {
            return Err(vec![OrderError::new(&standing.origin, reason)]);
        }
        let mut next = state.clone();
        next.standing[power] = standing.item.clone();
        let event = Event::Special {
            rule: "standing orders".into(),
            detail: format!("{} set new standing orders", game.powers()[power].name),
        };
        return Ok(Run::Done(Box::new(next), vec![event]));
    }
    if let Some(side) = state.winner {
        return Err(whole(format!(
            "the game is over: the {} have won",
            game.files().game.sides[side].name
        )));
    }
    let current = state.current_power(game);
    if power != current {
        return Err(whole(format!(
            "it is {}'s turn, not {}'s",
            game.powers()[current].name,
            game.powers()[power].name
        )));
    }
    let mut next = state.clone();
    let mut events = Vec::new();
    match state.phase {
        Phase::BidPlacement => {
            let (placed, placed_events) =
                crate::rules::bid_placement::place(game, state, power, orders)?;
            return Ok(Run::Done(Box::new(placed), placed_events));
        }
        Phase::Purchase => {
            if !stage_one(game, &mut next, power, orders, dice, &mut events)? {
                return Ok(Run::NeedsDice);
            }
        }
        Phase::NoncombatMove => {
            let errors = stage_one_sections(orders, "stage 1 of this turn was already applied");
            if !errors.is_empty() {
                return Err(errors);
            }
            stage_two(game, &mut next, power, orders, &mut events)?;
        }
        other => {
            return Err(whole(format!(
                "{}'s turn is in the {} phase, where no orders are taken",
                game.powers()[power].name,
                other.name()
            )));
        }
    }
    Ok(Run::Done(Box::new(next), events))
}

fn section(name: &'static str) -> Origin {
    Origin {
        section: name,
        ..Origin::default()
    }
}

/// The origin of a whole section: its name and the line of its first order.
fn first_line<T>(name: &'static str, orders: &[Located<T>]) -> Origin {
    Origin {
        section: name,
        line: orders.first().and_then(|o| o.origin.line),
        ..Origin::default()
    }
}

/// Errors for stage-1 sections in a message that may not carry them, and
/// for standing orders, which are not part of a turn.
fn stage_one_sections(orders: &Orders, why: &str) -> Vec<OrderError> {
    let mut errors = Vec::new();
    if let Some(r) = &orders.research {
        errors.push(OrderError::new(
            &r.origin,
            format!("research belongs to stage 1; {why}"),
        ));
    }
    if let Some(p) = &orders.purchase {
        errors.push(OrderError::new(
            &p.origin,
            format!("purchase belongs to stage 1; {why}"),
        ));
    }
    for (p, what) in [
        (&orders.lend_lease, "lend_lease"),
        (&orders.oil_convoy, "oil_convoy"),
    ] {
        if let Some(p) = p {
            errors.push(OrderError::new(
                &p.origin,
                format!("{what} belongs to stage 1; {why}"),
            ));
        }
    }
    if !orders.combat.is_empty() {
        errors.push(OrderError::new(
            &first_line("combat", &orders.combat),
            format!("combat moves belong to stage 1; {why}"),
        ));
    }
    if !orders.battles.is_empty() {
        errors.push(OrderError::new(
            &first_line("battles", &orders.battles),
            format!("battle plans belong to stage 1; {why}"),
        ));
    }
    if !orders.repair.is_empty() {
        errors.push(OrderError::new(
            &first_line("repair", &orders.repair),
            format!("repairs belong to stage 1 (the purchase phase); {why}"),
        ));
    }
    if !orders.rockets.is_empty() {
        errors.push(OrderError::new(
            &first_line("rockets", &orders.rockets),
            format!("rockets belong to stage 1 (the combat phase); {why}"),
        ));
    }
    if !orders.industrial_strike.is_empty() {
        errors.push(OrderError::new(
            &first_line("industrial_strike", &orders.industrial_strike),
            format!("Industrial Strikes belong to stage 1 (the combat phase); {why}"),
        ));
    }
    if let Some(a) = &orders.averted {
        errors.push(OrderError::new(
            &a.origin,
            format!("averted belongs to stage 1 (the combat move); {why}"),
        ));
    }
    errors.extend(standing(orders));
    errors
}

fn standing(orders: &Orders) -> Option<OrderError> {
    orders.standing.as_ref().map(|s| {
        OrderError::new(
            &s.origin,
            "standing orders are not part of a turn's orders: send them in a message of their own",
        )
    })
}

fn has_stage_two(orders: &Orders) -> bool {
    !orders.noncombat.is_empty() || !orders.take_over.is_empty() || !orders.place.is_empty()
}

/// Payments to allies, research, purchase, combat move, battle plans and
/// combat; then stage 2
/// when the message carries it. Returns `false` when payments, research or the
/// battles need dice that were not given (everything else was valid).
fn stage_one(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &Orders,
    mut dice: Option<&mut (dyn DiceSource + '_)>,
    events: &mut Vec<Event>,
) -> Result<bool, Vec<OrderError>> {
    let mut errors: Vec<OrderError> = standing(orders).into_iter().collect();
    if has_stage_two(orders)
        && let Some(why) = shared_turn_stage_two_waits(game, state, power)
    {
        errors.push(OrderError::new(&Origin::default(), why));
    }
    // Units held back on an earlier turn wait to be mobilized again.
    if let Some(held) = state.held.get_mut(power).map(std::mem::take)
        && !held.is_empty()
    {
        state.purchased = held;
    }
    game.rule_set().start_of_turn(game, state, power, events);
    production::receive_free_unit(game, state, power, events);
    // Payments to allies come first, so that what is sent cannot be spent.
    let mut payments_need_dice = false;
    match game
        .rule_set()
        .payments(game, state, power, orders, dice.as_deref_mut(), events)
    {
        Ok(needs) => payments_need_dice = needs,
        Err(e) => errors.extend(e),
    }
    // Research comes before the purchase (digest §2). Without dice it is
    // checked and its tokens bought, and the rest is checked as if no
    // breakthrough came: every development only widens what is legal.
    let mut research_needs_dice = false;
    if let Some(r) = &orders.research {
        match research::research(game, state, power, r, dice.as_deref_mut(), events) {
            Ok(needs) => research_needs_dice = needs,
            Err(e) => errors.extend(e),
        }
    }
    research_needs_dice |= research::roll_war_bonds(game, state, power, dice.as_deref_mut());
    research_needs_dice |= payments_need_dice;
    let purchase = |state: &mut GameState, events: &mut Vec<Event>| match &orders.purchase {
        Some(p) => production::purchase(game, state, power, p, events),
        None => Ok(()),
    };
    if game.combat_rules().repair_before_purchase {
        // Advanced AAE AAAE-33: the repairs come first, and the purchase
        // is checked against the capacity they restore.
        let repaired = production::repair(game, state, power, &orders.repair, events);
        errors.extend(repaired.err().unwrap_or_default());
        errors.extend(purchase(state, events).err().unwrap_or_default());
    } else {
        match purchase(state, events) {
            // Repairs are paid from what the purchase left (same phase).
            Ok(()) => {
                if let Err(e) = production::repair(game, state, power, &orders.repair, events) {
                    errors.extend(e);
                }
            }
            Err(e) => errors.extend(e),
        }
    }
    state.phase = Phase::CombatMove;
    // J Boulton: the detection sweep at the start of the combat move
    // (JB-26); where each unit stood then, for an Aversion made just
    // before it (JB-35).
    research_needs_dice |= missions::sweep(game, state, power, dice.as_deref_mut(), events);
    let started = missions::positions(state, power);
    match movement::combat_move(game, state, power, &orders.combat, events) {
        Ok(()) => {
            // J Boulton heavy battleship damage (JB-43): the repair cost is
            // rolled at the coast and paid from what the purchase left, for
            // the ships the combat move left there: a ship ordered away is
            // not repaired, whatever the dice, so checking the orders
            // without dice and applying them with dice agree.
            research_needs_dice |=
                combat::ship_damage::heavy_repairs(game, state, power, dice.as_deref_mut(), events);
            errors.extend(neutrals::pay(game, state, power, events));
            game.rule_set()
                .combat_move_ended(game, state, power, events);
        }
        Err(e) => errors.extend(e),
    }
    errors.extend(combat::check_plans(game, state, &orders.battles));
    errors.extend(combat::rockets::check(game, state, power, &orders.rockets));
    errors.extend(missions::check_strikes(
        game,
        state,
        power,
        &orders.industrial_strike,
    ));
    errors.extend(missions::check_averted(game, orders.averted.as_ref()));
    errors.extend(research::paratroopers_do_not_raid(
        game, state, power, orders,
    ));
    if !errors.is_empty() {
        return Err(errors);
    }
    state.phase = Phase::Combat;
    // J Boulton: the Aversions of enemy teams around the combat move
    // (JB-35), by the word of this power's stage or standing orders.
    let averted = orders
        .averted
        .as_ref()
        .map_or(state.standing[power].averted, |a| a.item);
    let mut spent = Vec::new();
    let aversion_needs_dice = missions::aversion(
        game,
        state,
        power,
        &started,
        averted,
        dice.as_deref_mut(),
        events,
        &mut spent,
    );
    // Rockets and Industrial Strikes (J Boulton JB-31) strike in the combat
    // phase, before the battles; they need dice.
    // Any rest of an Industrial Strike order is for teams dropped alone
    // that roll 6 on landing, in the combat phase (JB-16).
    let mut declarations = combat::Declarations::of_plans(&orders.battles);
    if !orders.rockets.is_empty() || !orders.industrial_strike.is_empty() || aversion_needs_dice {
        match dice.as_deref_mut() {
            Some(d) => {
                combat::rockets::fire(game, state, &orders.rockets, d, events);
                declarations.surprise_strikes =
                    missions::strike(game, state, power, &orders.industrial_strike, d, events);
            }
            None => {
                // Validate the battles too before asking for dice.
                let mut scratch = Vec::new();
                combat::fight_battles(
                    game,
                    state,
                    power,
                    &orders.combat,
                    &orders.battles,
                    None,
                    &mut scratch,
                )?;
                return Ok(false);
            }
        }
    }
    let outcome = combat::fight_battles_declared(
        game,
        state,
        power,
        &orders.combat,
        &orders.battles,
        &declarations,
        dice,
        events,
    )?;
    if outcome.needs_dice || research_needs_dice {
        return Ok(false);
    }
    missions::end_aversion(state, &spent, events);
    state.phase = Phase::NoncombatMove;
    if hand_over_shared_turn(game, state, power, events) {
        return Ok(true);
    }
    if has_stage_two(orders) {
        stage_two_after_combat(game, state, power, orders, outcome, events)?;
    }
    Ok(true)
}

/// The power that shares `power`'s turn and plays after it in turn order,
/// when the rule set interleaves shared turns.
fn interleaved_partner(game: &GameDef, state: &GameState, power: PowerId) -> Option<usize> {
    if !game.combat_rules().shared_turn_combat_first {
        return None;
    }
    let order = game.turn_order();
    let next = (state.turn + 1) % order.len();
    (next != 0 && game.share_turn(power, order[next])).then_some(next)
}

/// Why a stage-1 message of `power` may not carry its stage 2 in an
/// interleaved shared turn: the partner's combat comes in between (KQ-1).
fn shared_turn_stage_two_waits(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
) -> Option<String> {
    let partner = if let Some(next) = interleaved_partner(game, state, power) {
        game.turn_order()[next]
    } else {
        state.shared_turn.as_ref()?.waiting
    };
    let names = game.powers();
    let first = order_first(game, power, partner);
    let second = if first == power { partner } else { power };
    Some(format!(
        "{}'s non-combat moves and placement come in a message of their own: in the turn {} and \
         {} share, both fight first, then {} moves and mobilizes, then {} (KQ-1)",
        names[power].name,
        names[first].name,
        names[second].name,
        names[first].name,
        names[second].name
    ))
}

/// Of two powers sharing a turn, the one first in turn order.
fn order_first(game: &GameDef, a: PowerId, b: PowerId) -> PowerId {
    let order = game.turn_order();
    let pos = |p| order.iter().position(|&x| x == p).unwrap_or(usize::MAX);
    if pos(a) <= pos(b) { a } else { b }
}

/// After `power`'s combat in an interleaved shared turn (KQ-1): the first
/// power's stage 2 waits while its partner purchases and fights; after the
/// partner's combat the first power moves and mobilizes, then the partner
/// (see [`end_turn`]). Returns whether the turn was handed over.
fn hand_over_shared_turn(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    events: &mut Vec<Event>,
) -> bool {
    let order = game.turn_order();
    let names = game.powers();
    let rule = "a shared turn (Anniversary, KQ-1): both powers fight one after the other, then \
                both move and mobilize";
    let (next, phase, back) = if let Some(next) = interleaved_partner(game, state, power) {
        (next, Phase::Purchase, None)
    } else if let Some(waiting) = state.shared_turn.take() {
        let Some(at) = order.iter().position(|&p| p == waiting.waiting) else {
            return false;
        };
        (at, Phase::NoncombatMove, Some(waiting))
    } else {
        return false;
    };
    state.shared_turn = Some(SharedTurn {
        waiting: power,
        purchased: std::mem::take(&mut state.purchased),
        war_bonds: std::mem::take(&mut state.war_bonds),
    });
    if let Some(back) = back {
        state.purchased = back.purchased;
        state.war_bonds = back.war_bonds;
    }
    state.turn = next;
    state.phase = phase;
    let detail = if phase == Phase::Purchase {
        format!(
            "{}'s non-combat move and mobilization wait until {} has fought; {} to move",
            names[power].name, names[order[next]].name, names[order[next]].name
        )
    } else {
        format!(
            "both have fought: {} moves and mobilizes, then {}",
            names[order[next]].name, names[power].name
        )
    };
    events.push(Event::Special {
        rule: rule.into(),
        detail,
    });
    true
}

/// Stage 2 sent with stage 1. When dice decided some battle, orders that no
/// longer fit are set aside (stage 1 stands and the player sends stage 2
/// again); when every outcome was certain, an illegal stage 2 is a mistake
/// in the message and rejects it whole.
fn stage_two_after_combat(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &Orders,
    outcome: CombatOutcome,
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let mut attempt = state.clone();
    let mut more = Vec::new();
    match stage_two(game, &mut attempt, power, orders, &mut more) {
        Ok(()) => {
            *state = attempt;
            events.extend(more);
            Ok(())
        }
        Err(errors) if outcome.dice_rolled => {
            let reasons: Vec<String> = errors.iter().map(ToString::to_string).collect();
            events.push(Event::Special {
                rule: "stage 2 not applied".into(),
                detail: format!(
                    "the non-combat moves, take-overs and placement sent with stage 1 no longer \
                     fit after combat; send stage 2 again: {}",
                    reasons.join("; ")
                ),
            });
            Ok(())
        }
        Err(errors) => Err(errors),
    }
}

/// Non-combat move, take-overs and placement, then the end of the turn.
///
/// Take-overs (AAE's Patriotic War) come at the end of the non-combat move,
/// before placement, as in TripleA's Europe Improved procedure (rules digest
/// §2 and §6.5; the rulebook's own timing is unconfirmed), so units taken
/// over have made every move of the turn under their old owner.
fn stage_two(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &Orders,
    events: &mut Vec<Event>,
) -> Result<(), Vec<OrderError>> {
    let mut errors = Vec::new();
    state.phase = Phase::NoncombatMove;
    combat::ship_damage::repair_at_noncombat(game, state, power, events);
    if *orders == Orders::default() {
        // No orders at all (an empty message, or the deadline's `pass`):
        // nothing lands and nothing is placed.
        movement::lose_unlanded_aircraft(game, state, power, events);
        production::forfeit_unplaced(game, state, power, events);
    }
    if let Err(e) = movement::noncombat_move_after(
        game,
        state,
        power,
        &orders.noncombat,
        &orders.combat,
        events,
    ) {
        errors.extend(e);
    }
    errors.extend(take_over(game, state, power, &orders.take_over, events));
    state.phase = Phase::Place;
    if let Err(e) = production::place(game, state, power, &orders.place, events) {
        errors.extend(e);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    state.phase = Phase::EndTurn;
    end_turn(game, state, power, events);
    Ok(())
}

/// Applies take-over orders in the order written through the rule set's
/// hook ([`RuleSetHooks::take_over_units`](crate::rules::variants::RuleSetHooks::take_over_units)),
/// which refuses them in a game without such a rule. Each refusal is an
/// error on its order, field `take_over`.
fn take_over(
    game: &GameDef,
    state: &mut GameState,
    power: PowerId,
    orders: &[Located<TakeOverOrder>],
    events: &mut Vec<Event>,
) -> Vec<OrderError> {
    let rules = game.rule_set();
    let mut errors = Vec::new();
    for order in orders {
        let TakeOverOrder { space, from, units } = &order.item;
        let take = TakeOver {
            space: *space,
            from: *from,
            units: units.clone(),
        };
        if let Err(reason) = rules.take_over_units(game, state, power, &take, events) {
            errors.push(OrderError::new(&order.origin, reason).field("take_over"));
        }
    }
    errors
}

/// The end of `power`'s turn: resurface and repair, the rule set's effects,
/// convoy control, income, victory, and the next power.
pub fn end_turn(game: &GameDef, state: &mut GameState, power: PowerId, events: &mut Vec<Event>) {
    // Battleships under the J Boulton damage table keep their damage until
    // repaired at a coast (none outside that rule set).
    let damaged: Vec<u32> = state.ship_damage.iter().map(|d| d.unit).collect();
    for unit in state.units.iter_mut().filter(|u| u.owner == power) {
        unit.submerged = false;
        if !damaged.contains(&unit.id) {
            unit.hits = 0;
        }
    }
    // In an interleaved shared turn the partner still has its stage 2 to
    // play: its units keep what they did this turn.
    let partner = state.shared_turn.as_ref().map(|w| w.waiting);
    movement::end_turn(game, state, partner);
    let rules = game.rule_set();
    rules.end_of_turn(game, state, power, events);
    conquest::update_convoys(game, state, events);
    income::collect(game, state, power, events);
    state.battles.clear();
    state.purchased.clear();
    rules.victory(game, state, power, events);
    let order = game.turn_order();
    state.turn += 1;
    if state.turn >= order.len() {
        state.turn = 0;
        state.round += 1;
    }
    // Powers playing one turn (the US and China) keep each other's captures
    // as "captured this turn": neither lands aircraft there (Anniversary FAQ).
    if !game.share_turn(power, order[state.turn]) {
        state.captured_this_turn.clear();
    }
    state.phase = Phase::Purchase;
    // The partner of an interleaved shared turn has fought already: it
    // moves and mobilizes now (KQ-1).
    if let Some(waiting) = state.shared_turn.take() {
        state.purchased = waiting.purchased;
        state.war_bonds = waiting.war_bonds;
        state.phase = Phase::NoncombatMove;
    }
    events.push(Event::TurnEnded {
        power,
        next: order[state.turn],
        round: state.round,
    });
}
