//! Battle odds: the probability of every outcome of a battle, computed
//! exactly by dynamic programming over survivor states from the same unit
//! definitions, order of loss ([`crate::rules::combat`]'s casualty ranking
//! and allocation) and round sequence the adjudicator uses: over the hits
//! each side has taken where a fixed order of loss decides every casualty
//! ([`exact`]), over the hits each unit can still take where it does not
//! (sea battles of submarines and aircraft, [`mixed`]); a labelled Monte
//! Carlo estimate ([`monte_carlo`]) past the state bounds.
//!
//! The public face is [`answer`]: an [`OddsQuery`] (units written as in
//! orders) in, an [`OddsReport`] out. `docs/odds.md` says what is computed
//! and what is assumed. The adjudicator itself calls
//! [`attacker_win_now_with`] for the `when_odds_below` retreat policy.

mod dist;
mod evasive;
mod exact;
mod missions;
mod mixed;
mod monte_carlo;
mod query;
mod report;
mod side;
mod withdrawal;

use std::collections::BTreeMap;

pub(crate) use evasive::Leaving;
pub use exact::End;
pub use query::{
    BattleType, OddsError, OddsQuery, PreparedQuery, RetreatRule, SubmarineWithdrawal, UnitsText,
    answer, prepare,
};
pub use report::{Method, OddsReport, Outcome, SideReport, Survivors, TEXT_WIDTH};

use crate::rules::GameDef;
use crate::rules::combat::casualties::Chooser;
use crate::rules::state::GameState;
use dist::{FireGroup, Pmf, hits};
use exact::{Policy, solve};
use side::Side;
use withdrawal::Withdrawals;

/// Above this many survivor states the exact calculator is not tried and a
/// Monte Carlo estimate is given instead (memory: 8 bytes a state, a few
/// arrays).
pub const MAX_EXACT_STATES: usize = 4_000_000;

/// Above this many states (pairs of the two sides' states: which units are
/// left, with the hits each can still take) a battle with restricted hits
/// gets a Monte Carlo estimate instead of exact odds. A state costs far
/// more than one of a fixed order of loss: a round from it has every pair
/// of the two sides' outcomes.
pub const MAX_MIXED_STATES: usize = 100_000;

/// Battles simulated for a Monte Carlo estimate unless the query says.
pub const DEFAULT_BATTLES: u64 = 20_000;

/// Above this many states a battle with submarine withdrawals gets a Monte
/// Carlo estimate: each state still in play at a withdrawal starts a
/// battle of its own.
pub const MAX_WITHDRAWAL_STATES: usize = 2_500;

/// A battle ready to be computed.
#[derive(Debug, Clone)]
pub(crate) struct Battle {
    pub att: Side,
    pub def: Side,
    pub low_luck: bool,
    /// The best AA gun among the defenders (land battles only).
    pub aa: Option<u8>,
    /// Bombarding ships, firing in the first round only.
    pub bombard: Vec<FireGroup>,
    pub policy: Policy,
    /// The attacking submarines strike first in round 1 only
    /// (`CombatRules::first_strike_first_round_only`).
    pub first_strike_once: bool,
    /// When each side's submarines withdraw (Classic, DAAK-C §4.2).
    pub withdrawals: Withdrawals,
    /// Fire at the defenders before round 1 that they never answer (J
    /// Boulton's Disruption, JB-29); the strikers are silent in round 1.
    pub pre_strike: Vec<FireGroup>,
}

/// Every final state of a battle with its probability, by how it ended and
/// the survivors (counts by unit type) of each side.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tally {
    pub ends: BTreeMap<(End, Vec<u32>, Vec<u32>), f64>,
    pub rounds: f64,
    /// `Some(n)`: a Monte Carlo estimate from `n` battles.
    pub battles: Option<u64>,
}

/// True when no hit of either side is restricted in where it may land
/// (submarine hits on aircraft, aircraft hits on unseen submarines) and no
/// defender strikes first (Anniversary's submarines), so that a fixed order
/// of loss decides every casualty and one side's fire never depends on the
/// other's within a round ([`exact`]); otherwise [`mixed`] applies.
pub(crate) fn fixed_order(att: &Side, def: &Side) -> bool {
    let binds = |from: &Side, to: &Side| {
        let sub_fire = from
            .slots
            .iter()
            .any(|s| s.cannot_hit_air && s.strength > 0);
        let air_fire = from.slots.iter().any(|s| s.air && s.strength > 0);
        // AAAE-47: defenders other than destroyers and fighters.
        let blind_fire = from.slots.iter().any(|s| {
            s.strength > 0
                && s.fixed_class == Some(crate::rules::combat::casualties::HitClass::NotHidden)
        });
        (sub_fire && to.slots.iter().any(|s| s.air))
            || ((air_fire || blind_fire) && to.slots.iter().any(|s| s.hidden))
    };
    !binds(att, def) && !binds(def, att) && !def.slots.iter().any(|s| s.first_strike)
}

impl Battle {
    /// True when exact odds are computed: within the state bound of the
    /// calculator that applies (the mixed one only at sea: no AA fire, no
    /// bombardment).
    pub fn exact(&self) -> bool {
        if self.round_dependent() {
            false
        } else if !self.withdrawals.of(&self.att, &self.def).none() {
            self.phased()
        } else if fixed_order(&self.att, &self.def) {
            exact::states(&self.att, &self.def) <= MAX_EXACT_STATES
        } else {
            self.aa.is_none()
                && self.bombard.is_empty()
                && mixed::within(&self.att, &self.def, self.low_luck, MAX_MIXED_STATES)
        }
    }

    /// True when a round's fire depends on its number beyond round 1's
    /// bombardment and AA fire, which the exact calculators do not model:
    /// attacking submarines that strike first in round 1 only.
    /// Units silent in round 1 (the defenders of AAAE-11, the landed
    /// attackers of AAAE-41) are modelled by the exact
    /// calculator of a fixed order of loss and by the simulation only.
    fn round_dependent(&self) -> bool {
        let silent = |side: &Side| side.slots.iter().any(|s| s.silent_first_round);
        (self.first_strike_once && self.att.slots.iter().any(|s| s.first_strike))
            || ((silent(&self.def) || silent(&self.att) || !self.pre_strike.is_empty())
                && !fixed_order(&self.att, &self.def))
    }

    /// True when the submarines' withdrawals are computed exactly, in
    /// phases ([`withdrawal`]): a sea battle (no AA fire, no bombardment)
    /// with a fixed order of loss, one hit each, within
    /// [`MAX_WITHDRAWAL_STATES`].
    fn phased(&self) -> bool {
        self.aa.is_none()
            && self.bombard.is_empty()
            && fixed_order(&self.att, &self.def)
            && withdrawal::exact_applies(&self.att, &self.def, self.policy)
            && exact::states(&self.att, &self.def) <= MAX_WITHDRAWAL_STATES
    }

    /// Computes the battle: exactly when possible (and not `simulate`), else
    /// `battles` Monte Carlo battles seeded by `seed`.
    pub fn compute(&self, types: usize, battles: u64, seed: u64, simulate: bool) -> Tally {
        let withdrawals = self.withdrawals.of(&self.att, &self.def);
        if !withdrawals.none() && !simulate && self.phased() {
            let mut tally = Tally::default();
            let none = vec![0u32; types];
            withdrawal::solve_phased(
                &self.att,
                &self.def,
                self.low_luck,
                self.policy,
                withdrawals,
                types,
                1.0,
                (&none, &none),
                &mut tally,
            );
            return tally;
        }
        let simulate = simulate || self.round_dependent() || !withdrawals.none();
        let fixed = fixed_order(&self.att, &self.def);
        let mixed = if simulate || fixed || self.aa.is_some() || !self.bombard.is_empty() {
            None
        } else {
            mixed::solve(
                &self.att,
                &self.def,
                self.low_luck,
                self.policy,
                types,
                MAX_MIXED_STATES,
            )
        };
        if let Some(solved) = mixed {
            let mut tally = Tally {
                rounds: solved.rounds,
                ..Tally::default()
            };
            for (e, a, d, p) in solved.ends {
                *tally.ends.entry((e, a, d)).or_insert(0.0) += p;
            }
            return tally;
        }
        if simulate || !fixed || exact::states(&self.att, &self.def) > MAX_EXACT_STATES {
            let s = monte_carlo::simulate(self, types, battles, seed);
            let n = s.battles as f64;
            let mut tally = Tally {
                rounds: s.rounds as f64 / n,
                battles: Some(s.battles),
                ..Tally::default()
            };
            for (e, a, d, c) in s.counts {
                *tally.ends.entry((e, a, d)).or_insert(0.0) += c as f64 / n;
            }
            return tally;
        }
        let bombard = (!self.bombard.is_empty()).then(|| hits(&self.bombard, self.low_luck));
        let pre_strike =
            (!self.pre_strike.is_empty()).then(|| hits(&self.pre_strike, self.low_luck));
        let mut tally = Tally::default();
        // Without AA fire the one attacking side is used as it is (a clone
        // would copy every casualty candidate).
        let sides = match self.aa {
            None => vec![(std::borrow::Cow::Borrowed(&self.att), 1.0)],
            Some(v) => self
                .after_aa(v)
                .into_iter()
                .map(|(s, w)| (std::borrow::Cow::Owned(s), w))
                .collect(),
        };
        for (att, weight) in sides {
            let solved = solve(
                &att,
                &self.def,
                self.low_luck,
                (bombard.as_ref(), pre_strike.as_ref()),
                self.policy,
            );
            tally.rounds += weight * solved.rounds;
            for (a, d, e, p) in solved.ends {
                let key = (e, att.survivors(a, types), self.def.survivors(d, types));
                *tally.ends.entry(key).or_insert(0.0) += weight * p;
            }
        }
        tally
    }

    /// The attacking sides after AA fire, with their probabilities: one die
    /// per plane of each type (Low Luck per type), each hit removing a plane
    /// of that type.
    fn after_aa(&self, v: u8) -> Vec<(Side, f64)> {
        let mut kinds: Vec<(usize, u32)> = Vec::new();
        for s in self.att.slots.iter().filter(|s| s.air) {
            match kinds.iter_mut().find(|k| k.0 == s.unit) {
                Some(k) => k.1 += 1,
                None => kinds.push((s.unit, 1)),
            }
        }
        let mut out = vec![(self.att.clone(), 1.0)];
        for (unit, n) in kinds {
            let g = FireGroup {
                unit,
                supported: false,
                strength: v,
                count: n,
                dice_each: 1,
            };
            let pmf: Pmf = hits(&[g], self.low_luck);
            let mut next = Vec::new();
            for (side, w) in &out {
                for (i, p) in pmf.p.iter().enumerate() {
                    let k = (pmf.lo + i).min(n as usize);
                    next.push((side.without(unit, k), w * p));
                }
            }
            out = next;
        }
        out
    }
}

/// What the rounds still to come of a battle hold beyond its units, for
/// [`attacker_win_now_with`].
#[derive(Debug, Clone, Default)]
pub(crate) struct ToCome {
    /// When each side's submarines withdraw (attacker, defender), in rounds
    /// from now (Classic, DAAK-C §4.2).
    pub withdrawals: (Option<u32>, Option<u32>),
    /// A special force team carried out Supply Strike in this battle (J
    /// Boulton JB-32): every defender at half for the whole battle, as an
    /// odds question's `supply_strike` counts it.
    pub supply_struck: bool,
    /// Defending units that Evasive sacrifices take out of the battle at
    /// the start of a later round (J Boulton JB-34).
    pub leaving: Vec<Leaving>,
}

/// The attacker's chance of winning the battle from its current state if
/// it fights on to the end, and whether it is exact: the `when_odds_below`
/// retreat policy, evaluated by the adjudicator at the end of each round.
/// Exact within the state bounds (`MAX_EXACT_STATES`, `MAX_MIXED_STATES`);
/// past them a Monte Carlo estimate from a fixed seed, so that a replay
/// decides the same way. What the position holds counts as the battle
/// fights it (damaged battleships, dropped paratroopers, isolated and
/// averted units: `Side::ranked`), and what `to_come` says. A defender
/// leaving before the next round is left out (every one leaving: the
/// attacker wins); one leaving later is counted where the exact calculator
/// of a fixed order of loss, one hit each, applies ([`evasive`]) and there
/// are no submarine withdrawals, else not.
pub(crate) fn attacker_win_now_with(
    game: &GameDef,
    state: &GameState,
    (attackers, defenders): (&[u32], &[u32]),
    (attacker_chooser, defender_chooser): (&Chooser, &Chooser),
    low_luck: bool,
    to_come: &ToCome,
) -> (f64, bool) {
    let mut att = Side::ranked(game, state, attackers, attacker_chooser, true);
    // After round 1 a first strike of round 1 only is over.
    if game.combat_rules().first_strike_first_round_only {
        for s in &mut att.slots {
            s.first_strike = false;
        }
    }
    let mut def = Side::ranked(game, state, defenders, defender_chooser, false);
    if to_come.supply_struck {
        missions::supply_strike(&mut def);
    }
    let (attacker_withdraws, defender_withdraws) = to_come.withdrawals;
    if !to_come.leaving.is_empty() {
        let (now, later) = evasive::leave_now(&def, &to_come.leaving);
        if now.slots.is_empty() {
            return (1.0, true);
        }
        def = now;
        let staying = |l: &Leaving| def.slots.iter().any(|s| s.candidate.id == l.unit);
        if later.iter().any(staying)
            && to_come.withdrawals == (None, None)
            && evasive::exact_applies(&att, &def)
        {
            return (evasive::attacker_wins(&att, &def, low_luck, &later), true);
        }
    }
    let battle = Battle {
        att,
        def,
        low_luck,
        aa: None,
        bombard: Vec::new(),
        policy: Policy::Never,
        first_strike_once: false,
        withdrawals: Withdrawals {
            attacker: attacker_withdraws,
            defender: defender_withdraws,
        },
        pre_strike: Vec::new(),
    };
    let types = game.unit_types().len();
    let tally = battle.compute(types, DEFAULT_BATTLES, 0x0dd5, false);
    let p = tally
        .ends
        .iter()
        .filter(|((e, _, _), _)| *e == End::AttackerWins)
        .map(|(_, p)| p)
        .sum();
    (p, tally.battles.is_none())
}
