//! Classic's submarine withdrawal (DAAK-C §4.2) in the exact calculator:
//! after round N every submarine of a side leaves the battle, the
//! attacker's first, then the defender's while attackers are left; the rest
//! fight on. The battle is solved in phases: up to the first withdrawal
//! (the exact calculator stopping there as it stops for a retreat after a
//! round), then, from each state still in play, the battle of the units
//! that stay, solved the same way. Withdrawn submarines count among their
//! side's survivors. As in `combat::battle`, a battle whose attackers all
//! withdrew ends with the defender holding (`End::Retreated`), and one whose
//! defenders all withdrew with the attacker holding the zone
//! (`End::AttackerWins`).

use super::Tally;
use super::exact::{End, Policy, solve};
use super::side::{Side, Slot};

/// When each side's submarines withdraw: after round N (from 1), counted
/// from the start of the battle being solved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Withdrawals {
    /// The attacker's battle plan, `submarines: {withdraw_after_round: N}`.
    pub attacker: Option<u32>,
    /// The defender's standing orders, the same words.
    pub defender: Option<u32>,
}

impl Withdrawals {
    /// The withdrawals that can happen in a battle of these sides: a side
    /// with no submarine has nothing to withdraw.
    pub fn of(self, att: &Side, def: &Side) -> Withdrawals {
        let subs = |s: &Side| s.slots.iter().any(|x| x.sub);
        Withdrawals {
            attacker: self.attacker.filter(|_| subs(att)),
            defender: self.defender.filter(|_| subs(def)),
        }
    }

    /// True when no withdrawal is asked.
    pub fn none(self) -> bool {
        self.attacker.is_none() && self.defender.is_none()
    }

    /// The round of the first withdrawal.
    fn first(self) -> Option<u32> {
        match (self.attacker, self.defender) {
            (Some(a), Some(d)) => Some(a.min(d)),
            (a, d) => a.or(d),
        }
    }

    /// The withdrawals still to come `k` rounds later.
    fn after(self, k: u32) -> Withdrawals {
        Withdrawals {
            attacker: self.attacker.filter(|&r| r > k).map(|r| r - k),
            defender: self.defender.filter(|&r| r > k).map(|r| r - k),
        }
    }
}

/// True when the phased calculation applies: retreat never or after a
/// round (the others depend on the state in ways a phase boundary would
/// cut), and every unit with one hit (so the units left after `h` hits are
/// known without knowing who absorbed a hit).
pub(crate) fn exact_applies(att: &Side, def: &Side, policy: Policy) -> bool {
    matches!(policy, Policy::Never | Policy::AfterRound(_))
        && att.one_hit_each()
        && def.one_hit_each()
}

fn add(to: &mut [u32], from: &[u32]) {
    for (t, f) in to.iter_mut().zip(from) {
        *t += f;
    }
}

fn counts(slots: &[Slot], types: usize) -> Vec<u32> {
    let mut out = vec![0u32; types];
    for s in slots {
        out[s.unit] += 1;
    }
    out
}

/// Adds to `tally` (each probability times `weight`) the ends of the battle
/// of `att` against `def` with these withdrawals; `gone` holds the
/// submarines of each side withdrawn before (counts by type), added to the
/// survivors. Sides must suit the exact calculator ([`exact_applies`] and
/// `super::fixed_order`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn solve_phased(
    att: &Side,
    def: &Side,
    low_luck: bool,
    policy: Policy,
    withdrawals: Withdrawals,
    types: usize,
    weight: f64,
    gone: (&[u32], &[u32]),
    tally: &mut Tally,
) {
    let w = withdrawals.of(att, def);
    let k = match (w.first(), policy) {
        // A retreat before the first withdrawal ends the battle first.
        (Some(k), Policy::AfterRound(r)) if r < k => None,
        (k, _) => k,
    };
    let Some(k) = k else {
        let solved = solve(att, def, low_luck, (None, None), policy);
        tally.rounds += weight * solved.rounds;
        for (a, d, e, p) in solved.ends {
            let mut sa = att.survivors(a, types);
            let mut sd = def.survivors(d, types);
            add(&mut sa, gone.0);
            add(&mut sd, gone.1);
            *tally.ends.entry((e, sa, sd)).or_insert(0.0) += weight * p;
        }
        return;
    };
    // Up to the end of round k: the states still in play then are those
    // the calculator ends as "retreated" after round k.
    let solved = solve(att, def, low_luck, (None, None), Policy::AfterRound(k));
    tally.rounds += weight * solved.rounds;
    for (a, d, e, p) in solved.ends {
        let (alive_a, alive_d) = (att.alive(a), def.alive(d));
        let (mut ga, mut gd) = (gone.0.to_vec(), gone.1.to_vec());
        if e != End::Retreated {
            let mut sa = counts(alive_a, types);
            let mut sd = counts(alive_d, types);
            add(&mut sa, &ga);
            add(&mut sd, &gd);
            *tally.ends.entry((e, sa, sd)).or_insert(0.0) += weight * p;
            continue;
        }
        // DAAK-C §4.2(b): the attacker's submarines, then the defender's
        // while attackers are left.
        let split = |alive: &[Slot], now: bool| -> (Vec<Slot>, Vec<Slot>) {
            if now {
                alive.iter().cloned().partition(|s| !s.sub)
            } else {
                (alive.to_vec(), Vec::new())
            }
        };
        let (stay_a, left_a) = split(alive_a, w.attacker == Some(k));
        add(&mut ga, &counts(&left_a, types));
        let (stay_d, left_d) = split(alive_d, w.defender == Some(k) && !stay_a.is_empty());
        add(&mut gd, &counts(&left_d, types));
        let end = if stay_a.is_empty() {
            Some(End::Retreated)
        } else if stay_d.is_empty() {
            Some(End::AttackerWins)
        } else if policy == Policy::AfterRound(k) {
            // The attacker's retreat comes after the withdrawals.
            Some(End::Retreated)
        } else {
            None
        };
        if let Some(end) = end {
            let mut sa = counts(&stay_a, types);
            let mut sd = counts(&stay_d, types);
            add(&mut sa, &ga);
            add(&mut sd, &gd);
            *tally.ends.entry((end, sa, sd)).or_insert(0.0) += weight * p;
            continue;
        }
        let next_policy = match policy {
            Policy::AfterRound(r) => Policy::AfterRound(r - k),
            p => p,
        };
        solve_phased(
            &Side::new(stay_a, att.attacking),
            &Side::new(stay_d, def.attacking),
            low_luck,
            next_policy,
            w.after(k),
            types,
            weight * p,
            (&ga, &gd),
            tally,
        );
    }
}
