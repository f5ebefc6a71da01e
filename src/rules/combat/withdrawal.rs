//! Submarines' withdrawal (Classic as DAAK plays it, DAAK-C §4.2): after
//! every full round of a sea battle, the attacking submarines may withdraw
//! to an adjacent sea zone, empty or friendly, that some attacker came from;
//! then, while attackers are left, the defending submarines may withdraw to
//! a sea zone (adjacent, unless the rule set's option says otherwise) with no
//! enemy naval unit that saw no battle this turn; then the attacker's
//! normal retreat. The submarines that withdraw at one moment go to one sea
//! zone; a canal on the way must be friendly since the start of the turn.
//! The attacker says what its submarines do in the battle plan, each
//! defender in its standing orders (`submarines: {withdraw_after_round: N,
//! to: ZONE}`).

use super::{Ctx, attackers, defenders, retreat};
use crate::rules::conquest::allied;
use crate::rules::events::Event;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::SubmarinePolicy;
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, UnitCount, UnitList};
use crate::rules::{GameDef, SpaceId};

/// The rule the withdrawal events name.
const RULE: &str = "DAAK-C §4.2: submarines may withdraw after any full round, those \
     withdrawing together to one sea zone";

/// The submarines (first-strike units) among `ids`.
fn subs(ctx: &Ctx, state: &GameState, ids: &[u32]) -> Vec<u32> {
    ids.iter()
        .copied()
        .filter(|id| {
            state
                .unit(*id)
                .is_some_and(|u| ctx.ut(u).has(&Ability::FirstStrike))
        })
        .collect()
}

/// True when a canal between `a` and `b` (if any) lets ships of `power`'s
/// side through: every territory that controls it held by that side since
/// the start of the turn (for the attacker), or at the start of the
/// attacker's turn (for a defender: held now, or taken this turn by the
/// attacker, DAAK-C §2.3).
fn canal_open(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    attacking: bool,
    a: SpaceId,
    b: SpaceId,
) -> bool {
    game.files().board.canals.iter().all(|canal| {
        let zones: Vec<Option<SpaceId>> = canal.sea_zones.iter().map(|z| game.space(z)).collect();
        if !(zones.contains(&Some(a)) && zones.contains(&Some(b))) {
            return true;
        }
        canal.controlled_by.iter().all(|land| {
            game.space(land).is_some_and(|s| {
                let taken = state.captured_this_turn.contains(&s);
                let held = state.owner[s.0].is_some_and(|o| allied(game, o, power));
                if attacking {
                    held && !taken
                } else {
                    held || taken
                }
            })
        })
    })
}

/// Where the attacker's submarines in `space` may withdraw: adjacent sea
/// zones that some attacker came from, empty or friendly (DAAK-C §4.2(c)).
fn attacker_zones(ctx: &Ctx, state: &GameState, space: SpaceId) -> Vec<SpaceId> {
    let game = ctx.game;
    retreat::came_from(ctx, space)
        .into_iter()
        .filter(|&z| game.is_sea(z) && game.adjacent(space, z))
        .filter(|&z| !state.units_at(z).any(|u| !allied(game, u.owner, ctx.power)))
        .filter(|&z| canal_open(game, state, ctx.power, true, space, z))
        .collect()
}

/// Where `power`'s defending submarines in `space` may withdraw: sea zones
/// without naval units of the attacker's side in which no battle was
/// fought this turn (DAAK-C §4.2(d)), adjacent ones only unless the rule
/// set lets them go further.
fn defender_zones(ctx: &Ctx, state: &GameState, space: SpaceId, power: PowerId) -> Vec<SpaceId> {
    let game = ctx.game;
    let mut candidates: Vec<SpaceId> = if ctx.rules.defending_subs_withdraw_beyond_adjacent {
        (0..game.space_count()).map(SpaceId).collect()
    } else {
        game.neighbours(space).to_vec()
    };
    candidates.sort_by_key(|z| z.0);
    candidates
        .into_iter()
        .filter(|&z| z != space && game.is_sea(z) && !ctx.battles.contains(&z))
        .filter(|&z| {
            !state
                .units_at(z)
                .any(|u| !allied(game, u.owner, power) && ctx.ut(u).kind == Some(UnitKind::Sea))
        })
        .filter(|&z| !game.adjacent(space, z) || canal_open(game, state, power, false, space, z))
        .collect()
}

/// Moves `ids` to `to` and logs it.
fn go(
    state: &mut GameState,
    space: SpaceId,
    power: PowerId,
    ids: &[u32],
    to: SpaceId,
    reason: String,
    events: &mut Vec<Event>,
) {
    let mut units: UnitList = Vec::new();
    for id in ids {
        let Some(u) = state.unit_mut(*id) else {
            continue;
        };
        u.at = to;
        let t = u.unit;
        match units.iter_mut().find(|c| c.unit == t) {
            Some(c) => c.count += 1,
            None => units.push(UnitCount { unit: t, count: 1 }),
        }
    }
    events.push(Event::Retreated {
        space,
        power,
        to,
        units,
        reason: format!("{reason}; {RULE}"),
    });
}

/// The zone chosen among `zones`: the one wanted if there, else the first.
fn pick(zones: &[SpaceId], wanted: Option<SpaceId>) -> Option<SpaceId> {
    wanted
        .filter(|w| zones.contains(w))
        .or_else(|| zones.first().copied())
}

/// The withdrawals after round `round` of the sea battle in `space`:
/// attacking submarines by the battle plan, then defending ones by their
/// owners' standing orders while attackers are left.
pub(crate) fn after_round(
    ctx: &Ctx,
    state: &mut GameState,
    space: SpaceId,
    round: u32,
    events: &mut Vec<Event>,
) {
    let game = ctx.game;
    if !ctx.rules.submarines_withdraw || !game.is_sea(space) {
        return;
    }
    if let SubmarinePolicy::WithdrawAfterRound { after_round, to } = ctx.attacker_subs(space)
        && round >= after_round
    {
        let going = subs(ctx, state, &attackers(ctx, state, space));
        if !going.is_empty() {
            let zones = attacker_zones(ctx, state, space);
            match pick(&zones, to) {
                Some(z) => {
                    let how = match to {
                        Some(w) if w != z => format!(
                            "{}: submarines withdraw after round {after_round}; {} is not open \
                             to them, so the first zone that is",
                            ctx.plan_source(space),
                            game.space_name(w)
                        ),
                        _ => format!(
                            "{}: submarines withdraw after round {after_round}",
                            ctx.plan_source(space)
                        ),
                    };
                    go(state, space, ctx.power, &going, z, how, events);
                }
                None => events.push(Event::Decision {
                    space,
                    rule: "DAAK-C §4.2(c): attacking submarines withdraw only to an empty or \
                           friendly adjacent sea zone from which some attacker came"
                        .into(),
                    detail: "no such zone: the submarines fight on".into(),
                }),
            }
        }
    }
    if attackers(ctx, state, space).is_empty() {
        return;
    }
    let standing = state.standing.clone();
    let mut powers: Vec<PowerId> = Vec::new();
    for id in subs(ctx, state, &defenders(ctx, state, space)) {
        if let Some(u) = state.unit(id)
            && !powers.contains(&u.owner)
        {
            powers.push(u.owner);
        }
    }
    for power in powers {
        let Some(SubmarinePolicy::WithdrawAfterRound { after_round, to }) =
            standing.get(power).map(|s| s.submarines)
        else {
            continue;
        };
        if round < after_round {
            continue;
        }
        let going: Vec<u32> = subs(ctx, state, &defenders(ctx, state, space))
            .into_iter()
            .filter(|id| state.unit(*id).is_some_and(|u| u.owner == power))
            .collect();
        let zones = defender_zones(ctx, state, space, power);
        let name = &game.powers()[power].name;
        match pick(&zones, to) {
            Some(z) => {
                let how = format!(
                    "standing orders of {name}: submarines withdraw after round {after_round}{}",
                    match to {
                        Some(w) if w != z => format!(
                            "; {} is not open to them, so the first zone that is",
                            game.space_name(w)
                        ),
                        _ => String::new(),
                    }
                );
                go(state, space, power, &going, z, how, events);
            }
            None => events.push(Event::Decision {
                space,
                rule: "DAAK-C §4.2(d): defending submarines withdraw only to a sea zone without \
                       enemy naval units in which no battle took place this turn"
                    .into(),
                detail: format!("no such zone for {name}'s submarines: they fight on"),
            }),
        }
    }
}

/// Why a battle plan's submarine withdrawal cannot be kept: where
/// submarines do not withdraw, or a zone `to` that no attacking submarine
/// of the plan's battle (`None`: of any battle) could ever withdraw to.
pub(crate) fn check_plan(
    ctx: &Ctx,
    state: &GameState,
    space: Option<SpaceId>,
    to: Option<SpaceId>,
) -> Result<(), String> {
    let game = ctx.game;
    if !ctx.rules.submarines_withdraw {
        return Err(format!(
            "in this game ({}) submarines do not withdraw from a battle to another sea zone: \
             submarines is fight, submerge or submerge_after_first_round",
            game.files().game.name
        ));
    }
    let Some(to) = to else { return Ok(()) };
    let battles: Vec<SpaceId> = match space {
        Some(s) => vec![s],
        None => ctx.battles.clone(),
    };
    if battles
        .iter()
        .any(|&b| game.is_sea(b) && attacker_zones(ctx, state, b).contains(&to))
    {
        return Ok(());
    }
    Err(format!(
        "attacking submarines withdraw only to an adjacent sea zone, empty or friendly, from \
         which some attacker of the battle came (DAAK-C §4.2(c)), and {} is not one",
        game.space_name(to)
    ))
}

/// The withdrawals still to come in the sea battle in `space` after round
/// `round`, in rounds from then (attacker, defender), for the odds of
/// fighting on (`when_odds_below`): the battle plan's, and the defenders'
/// standing orders when every power with submarines there says the same
/// round (several powers' different rounds are left out: the odds model
/// one defending side).
pub(crate) fn still_to_come(
    ctx: &Ctx,
    state: &GameState,
    space: SpaceId,
    round: u32,
) -> (Option<u32>, Option<u32>) {
    if !ctx.rules.submarines_withdraw || !ctx.game.is_sea(space) {
        return (None, None);
    }
    let later = |r: u32| (r > round).then(|| r - round);
    let attacker = match ctx.attacker_subs(space) {
        SubmarinePolicy::WithdrawAfterRound { after_round, .. } => later(after_round),
        _ => None,
    };
    let mut rounds = subs(ctx, state, &defenders(ctx, state, space))
        .into_iter()
        .filter_map(|id| state.unit(id))
        .map(
            |u| match state.standing.get(u.owner).map(|s| s.submarines) {
                Some(SubmarinePolicy::WithdrawAfterRound { after_round, .. }) => Some(after_round),
                _ => None,
            },
        );
    let first = rounds.next().flatten();
    let defender = if rounds.all(|r| r == first) {
        first.and_then(later)
    } else {
        None
    };
    (attacker, defender)
}
