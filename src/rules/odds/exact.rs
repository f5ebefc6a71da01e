//! The exact calculator: dynamic programming over survivor states.
//!
//! A state is `(a, d)`, the hits each side has taken (see [`Side`]). A round
//! from `(a, d)` moves to `(a + x, d + y)` with `x` and `y` drawn from the
//! two sides' hit distributions (independent; attacking submarines' first
//! strike makes the defender's fire depend on its survivors of it). Hits
//! only accumulate, so the states in lexicographic order are a topological
//! order, and the round that changes nothing (probability `p0`) is folded in
//! exactly: from a state the battle leaves to each other state with
//! probability `P / (1 - p0)` after `1 / (1 - p0)` rounds on average.
//!
//! The first round is played explicitly (bombardment fires in it only), and
//! so are the first N rounds of a retreat after round N.

use super::dist::{Pmf, groups, hit_chance, hits};
use super::side::{Side, Slot};

/// When the attacker retreats, as the calculator applies it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Policy {
    /// Fight to the end.
    Never,
    /// Retreat at the end of round N if the battle goes on.
    AfterRound(u32),
    /// Retreat at the end of a round that leaves fewer attacking units.
    AttackersBelow(u32),
    /// Retreat at the end of a round when the attacker's chance of winning
    /// by fighting on to the end is below this.
    OddsBelow(f64),
}

/// How a battle ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum End {
    /// The defenders are gone and some attacker is left.
    AttackerWins,
    /// The attackers are gone and some defender is left.
    DefenderWins,
    /// Both sides are gone.
    BothDestroyed,
    /// The attacker retreated; the defender holds.
    Retreated,
    /// Neither side can hit the other; both stay.
    Stalemate,
}

/// The final states of one battle and their probabilities.
#[derive(Debug, Clone)]
pub(crate) struct Solved {
    /// `(a, d, how, probability)` for every final state with some mass.
    pub ends: Vec<(usize, usize, End, f64)>,
    /// Expected number of rounds fought.
    pub rounds: f64,
}

/// What the round from a state looks like, precomputed per side state.
struct Tables {
    ha: usize,
    hd: usize,
    /// The attacker's fire when no first strike happens.
    att_all: Vec<Pmf>,
    /// With first strike: the submarines' first strike, and the rest.
    att_first: Vec<Pmf>,
    att_rest: Vec<Pmf>,
    /// The attacker has first-strike units that fire in state `a`.
    att_strikes: Vec<bool>,
    def_fire: Vec<Pmf>,
    /// The defender has a destroyer (cancels first strike) in state `d`.
    def_spots: Vec<bool>,
    att_units: Vec<usize>,
    zero: Pmf,
}

impl Tables {
    fn new(att: &Side, def: &Side, low_luck: bool) -> Tables {
        let (ha, hd) = (att.hp(), def.hp());
        let any_first = att.slots.iter().any(|s| s.first_strike && s.strength > 0);
        let mut t = Tables {
            ha,
            hd,
            att_all: Vec::with_capacity(ha + 1),
            att_first: Vec::new(),
            att_rest: Vec::new(),
            att_strikes: Vec::with_capacity(ha + 1),
            def_fire: Vec::with_capacity(hd + 1),
            def_spots: Vec::with_capacity(hd + 1),
            att_units: Vec::with_capacity(ha + 1),
            zero: Pmf::point(0),
        };
        for a in 0..=ha {
            let alive = if a == ha { &[][..] } else { att.alive(a) };
            t.att_units.push(alive.len());
            let strikes = alive.iter().any(|s| s.first_strike && s.strength > 0);
            t.att_strikes.push(strikes);
        }
        t.att_all = fire_table(att, low_luck, |_| true);
        if any_first {
            t.att_first = fire_table(att, low_luck, |s| s.first_strike);
            t.att_rest = fire_table(att, low_luck, |s| !s.first_strike);
        }
        t.def_fire = fire_table(def, low_luck, |_| true);
        for d in 0..=hd {
            let alive = if d == hd { &[][..] } else { def.alive(d) };
            t.def_spots.push(alive.iter().any(|s| s.anti_sub));
        }
        t
    }

    fn idx(&self, a: usize, d: usize) -> usize {
        a * (self.hd + 1) + d
    }

    /// Neither side can hit the other in state `(a, d)`.
    fn stalled(&self, a: usize, d: usize) -> bool {
        self.att_all[a].is_zero() && self.def_fire[d].is_zero()
    }

    fn first_strike(&self, a: usize, d: usize) -> bool {
        self.att_strikes[a] && !self.def_spots[d]
    }

    /// The probability that a round from `(a, d)` changes nothing.
    fn p0(&self, a: usize, d: usize, bombard: Option<&Pmf>) -> f64 {
        let b = bombard.map_or(1.0, |b| b.at(0));
        if self.first_strike(a, d) {
            self.att_first[a].at(0) * self.att_rest[a].at(0) * self.def_fire[d].at(0) * b
        } else {
            self.att_all[a].at(0) * self.def_fire[d].at(0) * b
        }
    }

    /// Calls `f(a2, d1, coef, rest)` for the round from `(a, d)`: the
    /// attacker ends at `a2` with probability `coef`, and the defender at
    /// `d1 + y` with probability `rest[y]` (capped at `hd`).
    fn round(
        &self,
        a: usize,
        d: usize,
        bombard: Option<&Pmf>,
        (att_silenced, def_silenced): (Option<&Pmf>, Option<&Pmf>),
        mut f: impl FnMut(usize, usize, f64, &Pmf),
    ) {
        let strike = self.first_strike(a, d);
        // Attackers silent in round 1 (AAAE-41's landed units; J Boulton's
        // booby-trapped ones and those whose shot a Disruption fired
        // already, JB-29, JB-33) fire from `att_silenced`, which leaves the
        // first strikers out when they strike.
        let owned;
        let fire = match (att_silenced, strike) {
            (Some(s), _) => s,
            (None, true) => &self.att_rest[a],
            (None, false) => &self.att_all[a],
        };
        let rest: &Pmf = match bombard {
            None => fire,
            Some(b) => {
                owned = fire.convolve(b);
                &owned
            }
        };
        let first = if strike {
            &self.att_first[a]
        } else {
            &self.zero
        };
        for (i, &p1) in first.p.iter().enumerate() {
            let d1 = (d + first.lo + i).min(self.hd);
            let fire = def_silenced.unwrap_or(&self.def_fire[d1]);
            for (j, &px) in fire.p.iter().enumerate() {
                let x = fire.lo + j;
                if a + x >= self.ha {
                    f(self.ha, d1, p1 * fire.tail[j], rest);
                    break;
                }
                f(a + x, d1, p1 * px, rest);
            }
        }
    }

    fn class(&self, a: usize, d: usize, policy: Policy, wins: &[f64]) -> Class {
        match (a == self.ha, d == self.hd) {
            (true, true) => Class::End(End::BothDestroyed),
            (true, false) => Class::End(End::DefenderWins),
            (false, true) => Class::End(End::AttackerWins),
            (false, false) => {
                let retreat = match policy {
                    Policy::Never | Policy::AfterRound(_) => false,
                    Policy::AttackersBelow(n) => (self.att_units[a] as u64) < u64::from(n),
                    Policy::OddsBelow(p) => wins[self.idx(a, d)] < p,
                };
                if retreat {
                    Class::End(End::Retreated)
                } else if self.stalled(a, d) {
                    Class::End(End::Stalemate)
                } else {
                    Class::Live
                }
            }
        }
    }
}

/// The hits of the units picked by `pick` in every state of `side`, the
/// last state (nobody left) included. With dice and no artillery support
/// or fortifications (which change with who is left) each state adds one unit's die to the
/// next: one pass, from the last state back to the first. Otherwise each
/// state's firing groups are formed as `combat::fire` forms them.
fn fire_table(side: &Side, low_luck: bool, pick: impl Fn(&Slot) -> bool) -> Vec<Pmf> {
    let hp = side.hp();
    let support = side.attacking && side.slots.iter().any(|s| s.support > 0 && pick(s));
    // Fortifications (AAAE-29) raise infantry while they stand, and those
    // left last are no part of the side's hit points.
    let forts = side.slots.iter().any(|s| s.fortification);
    if low_luck || support || forts {
        return (0..=hp)
            .map(|h| {
                let alive = if h == hp { &[][..] } else { side.alive(h) };
                hits(&groups(alive, side.attacking, &pick), low_luck)
            })
            .collect();
    }
    let spare = hp - side.slots.len();
    let mut out = vec![Pmf::point(0); hp + 1];
    let mut dense = vec![1.0];
    for h in (0..hp).rev() {
        // From `h` on (and below `spare`, everyone) the units are those of
        // state `h + 1` and the one lost at `h + 1`.
        if h >= spare {
            let s = &side.slots[h - spare];
            if pick(s) && s.strength > 0 {
                let p = hit_chance(s.strength, s.dice_each);
                for _ in 0..s.shots.max(1) {
                    dense.push(0.0);
                    for i in (1..dense.len()).rev() {
                        dense[i] = dense[i] * (1.0 - p) + dense[i - 1] * p;
                    }
                    dense[0] *= 1.0 - p;
                }
            }
        }
        out[h] = Pmf::from_dense(0, dense.clone());
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Class {
    Live,
    End(End),
}

/// Adds `coef * rest[y]` to `row[d1 + y]`, the overflow to the last entry.
#[inline]
fn add_row(row: &mut [f64], d1: usize, coef: f64, rest: &Pmf) {
    let last = row.len() - 1;
    let start = d1 + rest.lo;
    if start >= last {
        row[last] += coef * rest.tail.first().copied().unwrap_or(0.0);
        return;
    }
    let room = last - start;
    if rest.p.len() <= room {
        for (r, p) in row[start..start + rest.p.len()].iter_mut().zip(&rest.p) {
            *r += coef * p;
        }
    } else {
        for (r, p) in row[start..last].iter_mut().zip(&rest.p) {
            *r += coef * p;
        }
        row[last] += coef * rest.tail[room];
    }
}

/// `sum_y rest[y] * row[min(d1 + y, last)]`.
#[inline]
fn dot_row(row: &[f64], d1: usize, rest: &Pmf) -> f64 {
    let last = row.len() - 1;
    let start = d1 + rest.lo;
    if start >= last {
        return row[last] * rest.tail.first().copied().unwrap_or(0.0);
    }
    let room = last - start;
    let n = rest.p.len().min(room);
    let mut s: f64 = row[start..start + n]
        .iter()
        .zip(&rest.p)
        .map(|(r, p)| r * p)
        .sum();
    if rest.p.len() > room {
        s += row[last] * rest.tail[room];
    }
    s
}

/// The number of states of a battle between these sides.
pub(crate) fn states(att: &Side, def: &Side) -> usize {
    (att.hp() + 1).saturating_mul(def.hp() + 1)
}

/// Solves the battle exactly. `bombard` is the distribution of bombardment
/// hits in the first round (none: `None`); `pre_strike` that of the hits
/// the defender takes before round 1 without firing back (J Boulton's
/// Disruption, JB-29). Sides must not need restricted hits or defenders
/// striking first (see `super::fixed_order`).
pub(crate) fn solve(
    att: &Side,
    def: &Side,
    low_luck: bool,
    (bombard, pre_strike): (Option<&Pmf>, Option<&Pmf>),
    policy: Policy,
) -> Solved {
    let t = Tables::new(att, def, low_luck);
    let (ha, hd) = (t.ha, t.hd);
    let width = hd + 1;
    let n = (ha + 1) * width;
    let wins = match policy {
        Policy::OddsBelow(_) => win_probabilities(&t),
        _ => Vec::new(),
    };
    let classes: Vec<Class> = (0..n)
        .map(|i| t.class(i / width, i % width, policy, &wins))
        .collect();
    let bombard = bombard.filter(|b| !b.is_zero());
    // Defenders caught by a surprise attack (AAAE-11) hold their fire in
    // round 1, which starts with every defender alive.
    let def_silenced = def
        .slots
        .iter()
        .any(|s| s.silent_first_round)
        .then(|| fire_table(def, low_luck, |s| !s.silent_first_round).swap_remove(0));
    // Attackers that landed from transports (AAAE-41) likewise, and J
    // Boulton's booby-trapped attackers and Disruption strikers; first
    // strikers, if any strike in round 1, fire apart as ever.
    let strikes = t.first_strike(0, 0);
    let att_silenced = att.slots.iter().any(|s| s.silent_first_round).then(|| {
        fire_table(att, low_luck, |s| {
            !(s.silent_first_round || (strikes && s.first_strike))
        })
        .swap_remove(0)
    });
    let mut mass = vec![0.0; n];
    let mut ends = vec![0.0; n];
    let mut rounds = 0.0;
    // Before the first round only the dead and the stalled are final.
    let start_class = match t.class(0, 0, Policy::Never, &wins) {
        Class::End(End::Stalemate) if bombard.is_some() => Class::Live,
        c => c,
    };
    if let Class::End(e) = start_class {
        return Solved {
            ends: vec![(0, 0, e, 1.0)],
            rounds: 0.0,
        };
    }
    let mut end_of: Vec<Option<End>> = vec![None; n];
    match pre_strike.filter(|p| !p.is_zero()) {
        None => mass[0] = 1.0,
        // The defender starts the battle with the strike's hits taken; a
        // strike that destroys it ends the battle before round 1.
        Some(p) => {
            for (i, &pi) in p.p.iter().enumerate() {
                let d = (p.lo + i).min(hd);
                if d == hd {
                    ends[t.idx(0, hd)] += pi;
                    end_of[t.idx(0, hd)] = Some(End::AttackerWins);
                } else {
                    mass[t.idx(0, d)] += pi;
                }
            }
        }
    }
    let explicit = match policy {
        Policy::AfterRound(r) => r.max(1),
        _ => 1,
    };
    for r in 1..=explicit {
        let mut next = vec![0.0; n];
        let b = if r == 1 { bombard } else { None };
        let silenced = if r == 1 {
            (att_silenced.as_ref(), def_silenced.as_ref())
        } else {
            (None, None)
        };
        for a in 0..ha {
            for d in 0..hd {
                let m = mass[t.idx(a, d)];
                if m == 0.0 {
                    continue;
                }
                if r > 1 && t.stalled(a, d) {
                    ends[t.idx(a, d)] += m;
                    end_of[t.idx(a, d)] = Some(End::Stalemate);
                    continue;
                }
                rounds += m;
                t.round(a, d, b, silenced, |a2, d1, c, rest| {
                    add_row(&mut next[a2 * width..(a2 + 1) * width], d1, m * c, rest);
                });
            }
        }
        for (i, m) in next.iter_mut().enumerate() {
            if *m == 0.0 {
                continue;
            }
            // The retreat at the end of the round comes before the next
            // round's check that someone can still hit.
            let after = matches!(policy, Policy::AfterRound(k) if r >= k);
            let how = match classes[i] {
                Class::Live | Class::End(End::Stalemate) if after => Some(End::Retreated),
                Class::End(e) => Some(e),
                Class::Live => None,
            };
            if let Some(e) = how {
                ends[i] += *m;
                end_of[i] = Some(e);
                *m = 0.0;
            }
        }
        mass = next;
    }
    // From round 2 on, every round is the same: fold the self-loop.
    for a in 0..ha {
        for d in 0..hd {
            let i = t.idx(a, d);
            let m = mass[i];
            if m < 1e-300 || classes[i] != Class::Live {
                continue;
            }
            let p0 = t.p0(a, d, None);
            let c = m / (1.0 - p0);
            rounds += c;
            t.round(a, d, None, (None, None), |a2, d1, coef, rest| {
                add_row(&mut mass[a2 * width..(a2 + 1) * width], d1, c * coef, rest);
            });
            mass[i] = 0.0;
        }
    }
    let mut out = Vec::new();
    for i in 0..n {
        let m = mass[i] + ends[i];
        if m <= 0.0 {
            continue;
        }
        let how = match (end_of[i], classes[i]) {
            (Some(e), _) if mass[i] == 0.0 => e,
            (_, Class::End(e)) => e,
            (Some(e), Class::Live) => e,
            (None, Class::Live) => continue,
        };
        out.push((i / width, i % width, how, m));
    }
    Solved { ends: out, rounds }
}

/// The attacker's chance of winning from every state, fighting on to the
/// end (no bombardment: it fires in the first round only).
fn win_probabilities(t: &Tables) -> Vec<f64> {
    let (ha, hd) = (t.ha, t.hd);
    let width = hd + 1;
    let mut w = vec![0.0; (ha + 1) * width];
    for d in 0..hd {
        w[t.idx(ha, d)] = 0.0;
    }
    for a in 0..ha {
        w[t.idx(a, hd)] = 1.0;
    }
    for a in (0..ha).rev() {
        for d in (0..hd).rev() {
            if t.stalled(a, d) {
                continue;
            }
            let p0 = t.p0(a, d, None);
            let mut acc = 0.0;
            t.round(a, d, None, (None, None), |a2, d1, coef, rest| {
                acc += coef * dot_row(&w[a2 * width..(a2 + 1) * width], d1, rest);
            });
            // `w[a][d]` was 0 while summing, so the self-loop added nothing.
            w[t.idx(a, d)] = acc / (1.0 - p0);
        }
    }
    w
}
