//! The exact calculator for sea battles whose hits may not all land
//! everywhere: submarine hits only on ships, aircraft hits never on
//! submarines while their side has no destroyer, and (Anniversary) the
//! defending submarines' surprise strike before the attacker fires.
//!
//! A fixed order of loss no longer decides every casualty there ([`super::exact`]
//! needs one), so a side's state is the hits each of its units can still
//! take, and a volley's casualties are chosen by the adjudicator's own
//! allocation ([`allocate`]) from the volley's hits by kind. A volley's hits
//! are three independent counts (hits only on ships, hits never on unseen
//! submarines, hits anywhere), each the convolution of its firing groups, so
//! their joint distribution is the product of the three; the casualties of
//! every combination are computed once per side state and remembered.
//!
//! Each side's states are found first, apart from the other side: from
//! its starting state, every volley the enemy could fire (up to one hit per
//! enemy unit of each kind), until no new state turns up. The states of the
//! dynamic programming are the pairs of side states; there are at most
//! [`super::MAX_MIXED_STATES`] of them, or the calculator gives up (then a
//! Monte Carlo estimate is given). A round never gives a hit back: it leaves
//! a state for one with fewer hit points left, or changes nothing. So with
//! each side's states numbered by decreasing hit points left, the pairs in
//! lexicographic order are a topological order, and the round that changes
//! nothing is folded in as in [`super::exact`]. The first round is played
//! on its own (no retreat before it), and so are the first N rounds of a
//! retreat after round N.

use std::collections::HashMap;

use super::dist::{FireGroup, Pmf, add, hits};
use super::exact::{End, Policy};
use super::side::{Side, Slot};
use crate::rules::combat::casualties::{Candidate, HitClass, Hits, allocate};

/// The index of a kind of hit: the order of [`Hits`]' fields.
fn kind(c: HitClass) -> usize {
    match c {
        HitClass::NotAir => 0,
        HitClass::NotHidden => 1,
        HitClass::Any => 2,
    }
}

/// Not yet computed, in [`SideStates::after`].
const UNKNOWN: u32 = u32::MAX;

/// A volley's hits by kind: three independent distributions.
type Volley = [Pmf; 3];

/// What the calculator needs of one side state.
struct Info {
    /// Hits the side can still take: in all, on units other than
    /// aircraft, on units other than submarines.
    hp: usize,
    not_air: usize,
    not_hidden: usize,
    /// Units still in the battle.
    units: usize,
    /// A destroyer is in play: no enemy first strike, its aircraft see
    /// submarines.
    spots: bool,
    /// Some first-strike unit that can hit is in play.
    strikes: bool,
    /// Kinds of hits some unit of the side may take.
    takes: [bool; 3],
    /// Kinds of hits some unit of the side may score.
    scores: [bool; 3],
    /// Every unit's fire; the first strikers' alone; the others'.
    all: Volley,
    strike: Volley,
    rest: Volley,
}

/// The hits of the picked units of a side state, by kind, grouped as
/// `combat::fire` groups them (artillery support counted among them).
fn volley(
    alive: &[&Slot],
    attacking: bool,
    spots: bool,
    low_luck: bool,
    pick: impl Fn(&Slot) -> bool,
) -> Volley {
    let picked = || alive.iter().copied().filter(|s| pick(s));
    let mut support: usize = if attacking {
        picked().map(|s| usize::from(s.support)).sum()
    } else {
        0
    };
    let mut forts = super::dist::fortifications(picked());
    let mut groups: [Vec<FireGroup>; 3] = Default::default();
    for s in picked() {
        if s.strength == 0 {
            continue;
        }
        let (strength, supported) = s.fire_strength(&mut support, &mut forts);
        let k = kind(s.class(spots));
        add(
            &mut groups[k],
            s.unit,
            supported,
            strength,
            s.dice_each,
            u32::from(s.shots),
        );
    }
    groups.map(|g| hits(&g, low_luck))
}

/// The states of one side, with the casualties of every volley computed on
/// them.
struct SideStates<'a> {
    side: &'a Side,
    low_luck: bool,
    /// Hits each unit (slot of the side) can still take, per state.
    caps: Vec<Box<[u8]>>,
    index: HashMap<Box<[u8]>, u32>,
    info: Vec<Info>,
    /// Per state, the state after each number of hits, filled as needed
    /// (`UNKNOWN` until then): restricted hits `(x, y)` (only on ships,
    /// not on submarines) at `x * (not_hidden + 1) + y`, then `z` hits
    /// anywhere (none restricted) at `(not_air + 1) * (not_hidden + 1) + z`.
    after: Vec<Vec<u32>>,
    /// The side's casualty candidates, reused for every allocation (only
    /// the hits each can take change).
    scratch: Vec<Candidate>,
    /// Numbered by decreasing hit points left ([`SideStates::sort`]): no
    /// new state may turn up.
    sorted: bool,
}

impl<'a> SideStates<'a> {
    fn new(side: &'a Side, low_luck: bool) -> SideStates<'a> {
        let mut s = SideStates {
            side,
            low_luck,
            caps: Vec::new(),
            index: HashMap::new(),
            info: Vec::new(),
            after: Vec::new(),
            sorted: false,
            scratch: side.slots.iter().map(|x| x.candidate.clone()).collect(),
        };
        let start: Box<[u8]> = side.slots.iter().map(|x| x.candidate.cap).collect();
        s.intern(start);
        s
    }

    fn intern(&mut self, caps: Box<[u8]>) -> u32 {
        if let Some(&i) = self.index.get(&caps) {
            return i;
        }
        debug_assert!(!self.sorted, "a state the exploration did not find");
        let alive: Vec<&Slot> = self
            .side
            .slots
            .iter()
            .zip(caps.iter())
            .filter(|(_, c)| **c > 0)
            .map(|(s, _)| s)
            .collect();
        let spots = alive.iter().any(|s| s.anti_sub);
        let mut scores = [false; 3];
        for s in alive.iter().filter(|s| s.strength > 0) {
            scores[kind(s.class(spots))] = true;
        }
        let (attacking, ll) = (self.side.attacking, self.low_luck);
        let room = |f: fn(&Slot) -> bool| -> usize {
            self.side
                .slots
                .iter()
                .zip(caps.iter())
                .filter(|(s, _)| f(s))
                .map(|(_, c)| usize::from(*c))
                .sum()
        };
        let info = Info {
            hp: caps.iter().map(|c| usize::from(*c)).sum(),
            not_air: room(|s| !s.air),
            not_hidden: room(|s| !s.hidden),
            units: alive.len(),
            spots,
            strikes: alive.iter().any(|s| s.first_strike && s.strength > 0),
            takes: [
                alive.iter().any(|s| !s.air),
                alive.iter().any(|s| !s.hidden),
                !alive.is_empty(),
            ],
            scores,
            all: volley(&alive, attacking, spots, ll, |_| true),
            strike: volley(&alive, attacking, spots, ll, |s| s.first_strike),
            rest: volley(&alive, attacking, spots, ll, |s| !s.first_strike),
        };
        let i = self.caps.len() as u32;
        self.index.insert(caps.clone(), i);
        self.caps.push(caps);
        self.info.push(info);
        self.after.push(Vec::new());
        i
    }

    /// The state after the adjudicator gives out `hits` (by kind: only on
    /// ships, not on submarines, anywhere) in state `s`, either restricted
    /// hits or hits anywhere. Each kind's count is first capped at the hit
    /// points of the units that may take it: with at least that many, the
    /// allocation's matching is saturated before and after every hit, so
    /// each hit of that kind goes to the first unit in order that may take
    /// it until none is left, and more hits change nothing.
    fn take(&mut self, s: u32, hits: [u32; 3]) -> u32 {
        let i = &self.info[s as usize];
        let (na, nh, hp) = (i.not_air, i.not_hidden, i.hp);
        let hits = [
            hits[0].min(na as u32),
            hits[1].min(nh as u32),
            hits[2].min(hp as u32),
        ];
        if hits == [0; 3] {
            return s;
        }
        debug_assert!(hits[2] == 0 || hits[..2] == [0, 0]);
        let at = if hits[2] > 0 {
            (na + 1) * (nh + 1) + hits[2] as usize
        } else {
            hits[0] as usize * (nh + 1) + hits[1] as usize
        };
        let table = &mut self.after[s as usize];
        if table.is_empty() {
            *table = vec![UNKNOWN; (na + 1) * (nh + 1) + hp + 1];
        }
        if table[at] != UNKNOWN {
            return table[at];
        }
        let mut cands = std::mem::take(&mut self.scratch);
        for (c, cap) in cands.iter_mut().zip(self.caps[s as usize].iter()) {
            c.cap = *cap;
        }
        allocate(
            &mut cands,
            Hits {
                not_air: hits[0],
                not_hidden: hits[1],
                any: hits[2],
            },
        );
        let t = self.intern(cands.iter().map(|c| c.cap).collect());
        self.scratch = cands;
        self.after[s as usize][at] = t;
        t
    }

    /// The distribution of the state after `fire` lands on state `s`: the
    /// restricted hits first, then the hits anywhere on what they leave.
    /// The two steps give what one allocation of all the hits gives: hits
    /// that may go anywhere never change which unit a restricted hit takes
    /// (with `M` restricted hits takeable and `z` others, the allocation
    /// keeps `min(M + z, hp)` takeable; below `hp` that is "keep M", and at
    /// `hp` every unit is lost whatever the choice).
    fn hit(&mut self, s: u32, fire: &Volley) -> Vec<(u32, f64)> {
        let i = &self.info[s as usize];
        let caps = [i.not_air, i.not_hidden, i.hp];
        let capped: Vec<Vec<(u32, f64)>> = fire
            .iter()
            .zip(caps)
            .map(|(pmf, cap)| {
                let mut out: Vec<(u32, f64)> = Vec::new();
                for (i, p) in pmf.p.iter().enumerate() {
                    let k = (pmf.lo + i).min(cap) as u32;
                    match out.last_mut() {
                        Some(last) if last.0 == k => last.1 += p,
                        _ => out.push((k, *p)),
                    }
                }
                out
            })
            .collect();
        let mut mid: Vec<(u32, f64)> = Vec::new();
        for &(x, px) in &capped[0] {
            for &(y, py) in &capped[1] {
                merge(&mut mid, self.take(s, [x, y, 0]), px * py);
            }
        }
        let mut out: Vec<(u32, f64)> = Vec::new();
        for (t, w) in mid {
            for &(z, pz) in &capped[2] {
                merge(&mut out, self.take(t, [0, 0, z]), w * pz);
            }
        }
        out
    }

    /// Counts by unit type of the units in play in state `s`.
    fn survivors(&self, s: u32, types: usize) -> Vec<u32> {
        let mut out = vec![0u32; types];
        for (slot, cap) in self.side.slots.iter().zip(self.caps[s as usize].iter()) {
            if *cap > 0 {
                out[slot.unit] += 1;
            }
        }
        out
    }

    /// Looks at state number `next` (then moves `next` on): every state
    /// that volleys of at most `most` hits of each kind lead to from it
    /// (restricted hits and hits anywhere apart, as [`SideStates::hit`]
    /// gives them out) is found. True when every state found has been
    /// looked at.
    fn explore(&mut self, next: &mut usize, most: [u32; 3]) -> bool {
        let Some(info) = self.info.get(*next) else {
            return true;
        };
        let s = *next as u32;
        let (na, nh, hp) = (
            (info.not_air as u32).min(most[0]),
            (info.not_hidden as u32).min(most[1]),
            (info.hp as u32).min(most[2]),
        );
        for x in 0..=na {
            for y in 0..=nh {
                self.take(s, [x, y, 0]);
            }
        }
        for z in 1..=hp {
            self.take(s, [0, 0, z]);
        }
        *next += 1;
        *next >= self.info.len()
    }

    /// Numbers the states by decreasing hit points left (the start first),
    /// so that every volley leads to the same state or a later one.
    fn sort(&mut self) {
        let n = self.caps.len();
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(self.info[i].hp), i));
        let mut new_of = vec![0u32; n];
        for (new, &old) in order.iter().enumerate() {
            new_of[old] = new as u32;
        }
        let mut caps: Vec<Option<Box<[u8]>>> = self.caps.drain(..).map(Some).collect();
        let mut info: Vec<Option<Info>> = self.info.drain(..).map(Some).collect();
        let mut after: Vec<Vec<u32>> = std::mem::take(&mut self.after);
        for &old in &order {
            self.caps.extend(caps[old].take());
            self.info.extend(info[old].take());
            let table = std::mem::take(&mut after[old])
                .into_iter()
                .map(|t| if t == UNKNOWN { t } else { new_of[t as usize] })
                .collect();
            self.after.push(table);
        }
        self.index = self
            .caps
            .iter()
            .enumerate()
            .map(|(i, c)| (c.clone(), i as u32))
            .collect();
        self.sorted = true;
    }
}

/// The position of `t` in `list`, a short list, added if missing.
fn slot(list: &mut Vec<u32>, t: u32) -> usize {
    match list.iter().position(|x| *x == t) {
        Some(i) => i,
        None => {
            list.push(t);
            list.len() - 1
        }
    }
}

/// Adds `p` to the entry of `t` in `out`, a short list.
fn merge(out: &mut Vec<(u32, f64)>, t: u32, p: f64) {
    match out.iter_mut().find(|o| o.0 == t) {
        Some(o) => o.1 += p,
        None => out.push((t, p)),
    }
}

/// A pair of side states: the attacker's, the defender's.
type State = (u32, u32);

/// The most hits of each kind (only on ships, not on submarines, anywhere)
/// one volley of `enemy` can score: one per shot of a unit that may score
/// them (an aircraft's hits are restricted or not as its side has a
/// destroyer).
fn most_hits(enemy: &Side) -> [u32; 3] {
    let mut most = [0u32; 3];
    for s in enemy.slots.iter().filter(|s| s.strength > 0) {
        // A unit whose dice each count scores as many hits as it rolls.
        let n = u32::from(s.shots.max(1));
        match s.fixed_class {
            Some(c) => most[kind(c)] += n,
            None if s.cannot_hit_air => most[0] += n,
            None => {
                most[2] += n;
                if s.air {
                    most[1] += n;
                }
            }
        }
    }
    most
}

/// The battle's states: both sides' states, numbered by decreasing hit
/// points left; a pair `(a, d)` is state `a * width + d`.
struct Graph<'a> {
    att: SideStates<'a>,
    def: SideStates<'a>,
    width: usize,
    /// The attacker's chance of winning by fighting on, per state (NaN
    /// until computed).
    wins: Vec<f64>,
}

impl<'a> Graph<'a> {
    /// Both sides' states, or `None` when there would be more than `limit`
    /// pairs. The two explorations take turns, one state each, so that a
    /// battle past the bound is given up early.
    fn new(att: &'a Side, def: &'a Side, low_luck: bool, limit: usize) -> Option<Graph<'a>> {
        let mut a = SideStates::new(att, low_luck);
        let mut d = SideStates::new(def, low_luck);
        let (on_att, on_def) = (most_hits(def), most_hits(att));
        let (mut next_a, mut next_d) = (0, 0);
        loop {
            let done_a = a.explore(&mut next_a, on_att);
            let done_d = d.explore(&mut next_d, on_def);
            if a.caps.len().saturating_mul(d.caps.len()) > limit {
                return None;
            }
            if done_a && done_d {
                break;
            }
        }
        a.sort();
        d.sort();
        let width = d.caps.len();
        Some(Graph {
            wins: Vec::new(),
            width,
            att: a,
            def: d,
        })
    }

    fn at(&self, (a, d): State) -> usize {
        a as usize * self.width + d as usize
    }

    fn len(&self) -> usize {
        self.att.caps.len() * self.width
    }

    fn state(&self, i: usize) -> State {
        ((i / self.width) as u32, (i % self.width) as u32)
    }

    /// Neither side has a unit that may hit some unit of the other.
    fn stalled(&self, (a, d): State) -> bool {
        let (ai, di) = (&self.att.info[a as usize], &self.def.info[d as usize]);
        let can = |from: &Info, to: &Info| (0..3).any(|k| from.scores[k] && to.takes[k]);
        !can(ai, di) && !can(di, ai)
    }

    /// Every state a round from `(a, d)` may end in, once each, with its
    /// probability (the state itself included), in a fixed order. As
    /// `combat::battle` plays a round: the attacker's first strike (no
    /// defending destroyer) and, in Anniversary, the defender's (no
    /// attacking destroyer), both from the state before them, their victims
    /// removed; then the others of each side fire from what is left, the
    /// defender's casualties of the attacker's fire firing back.
    fn round(&mut self, (a, d): State) -> Vec<(State, f64)> {
        let (ai, di) = (&self.att.info[a as usize], &self.def.info[d as usize]);
        let att_strike = ai.strikes && !di.spots;
        let def_strike = di.strikes && !ai.spots;
        let d1s = if att_strike {
            self.def.hit(d, &self.att.info[a as usize].strike)
        } else {
            vec![(d, 1.0)]
        };
        let a1s = if def_strike {
            self.att.hit(a, &self.def.info[d as usize].strike)
        } else {
            vec![(a, 1.0)]
        };
        // Each (a1, d1) gives every pair of its two distributions once; the
        // pairs are summed in a dense matrix over the states met.
        let mut parts = Vec::with_capacity(a1s.len() * d1s.len());
        let (mut a_list, mut d_list): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        for &(a1, p) in &a1s {
            for &(d1, q) in &d1s {
                let f = &self.att.info[a1 as usize];
                let d2s = self.def.hit(d1, if att_strike { &f.rest } else { &f.all });
                let f = &self.def.info[d1 as usize];
                let a2s = self.att.hit(a1, if def_strike { &f.rest } else { &f.all });
                let a_at: Vec<usize> = a2s.iter().map(|x| slot(&mut a_list, x.0)).collect();
                let d_at: Vec<usize> = d2s.iter().map(|x| slot(&mut d_list, x.0)).collect();
                parts.push((p * q, a2s, a_at, d2s, d_at));
            }
        }
        let width = d_list.len();
        let mut sum = vec![0.0; a_list.len() * width];
        for (pq, a2s, a_at, d2s, d_at) in &parts {
            for (&(_, r), &i) in a2s.iter().zip(a_at) {
                let row = &mut sum[i * width..(i + 1) * width];
                for (&(_, s), &j) in d2s.iter().zip(d_at) {
                    row[j] += pq * r * s;
                }
            }
        }
        let mut out = Vec::with_capacity(sum.len());
        for (i, &a2) in a_list.iter().enumerate() {
            for (j, &d2) in d_list.iter().enumerate() {
                let p = sum[i * width + j];
                if p > 0.0 {
                    out.push(((a2, d2), p));
                }
            }
        }
        out
    }

    /// How the battle ends at the end of round `r` in state `s`, if it
    /// does: a side destroyed, or the attacker's retreat (a stalemate is
    /// found before the next round).
    fn end_of_round(&mut self, s: State, r: u32, policy: Policy) -> Option<End> {
        let (ah, dh) = (
            self.att.info[s.0 as usize].hp,
            self.def.info[s.1 as usize].hp,
        );
        match (ah == 0, dh == 0) {
            (true, true) => return Some(End::BothDestroyed),
            (true, false) => return Some(End::DefenderWins),
            (false, true) => return Some(End::AttackerWins),
            (false, false) => {}
        }
        let retreat = match policy {
            Policy::Never => false,
            Policy::AfterRound(n) => r >= n,
            Policy::AttackersBelow(n) => (self.att.info[s.0 as usize].units as u64) < u64::from(n),
            Policy::OddsBelow(p) => self.win(s) < p,
        };
        retreat.then_some(End::Retreated)
    }

    /// The attacker's chance of winning from `s` by fighting on to the end.
    /// Recursive: each level has fewer hit points left, so the depth is at
    /// most the two sides' hit points.
    fn win(&mut self, s: State) -> f64 {
        let (ah, dh) = (
            self.att.info[s.0 as usize].hp,
            self.def.info[s.1 as usize].hp,
        );
        if ah == 0 || dh == 0 {
            return if ah > 0 { 1.0 } else { 0.0 };
        }
        if self.wins.is_empty() {
            self.wins = vec![f64::NAN; self.len()];
        }
        let i = self.at(s);
        if !self.wins[i].is_nan() {
            return self.wins[i];
        }
        let w = if self.stalled(s) {
            0.0
        } else {
            let mut stay = 0.0;
            let mut acc = 0.0;
            for (t, p) in self.round(s) {
                if t == s {
                    stay += p;
                } else {
                    acc += p * self.win(t);
                }
            }
            acc / (1.0 - stay)
        };
        self.wins[i] = w;
        w
    }
}

/// The final states of one battle: how it ended, the survivors by unit
/// type of each side, and the probability; and the expected rounds.
#[derive(Debug, Clone)]
pub(crate) struct Solved {
    pub ends: Vec<(End, Vec<u32>, Vec<u32>, f64)>,
    pub rounds: f64,
}

/// True when the battle has at most `limit` states (pairs of side states):
/// [`solve`] gives its exact odds.
pub(crate) fn within(att: &Side, def: &Side, low_luck: bool, limit: usize) -> bool {
    Graph::new(att, def, low_luck, limit).is_some()
}

/// Solves a sea battle exactly (no AA fire, no bombardment), with the
/// adjudicator's allocation for every volley; `None` when it has more than
/// `limit` states.
pub(crate) fn solve(
    att: &Side,
    def: &Side,
    low_luck: bool,
    policy: Policy,
    types: usize,
    limit: usize,
) -> Option<Solved> {
    let mut g = Graph::new(att, def, low_luck, limit)?;
    let n = g.len();
    let start: State = (0, 0);
    // Final mass by state and how the battle ended there.
    let mut ends: Vec<[f64; 5]> = vec![[0.0; 5]; n];
    let mut rounds = 0.0;
    if g.stalled(start) {
        ends[0][End::Stalemate as usize] = 1.0;
    } else {
        // The first round, or the first N of a retreat after round N, one
        // by one.
        let explicit = match policy {
            Policy::AfterRound(k) => k.max(1),
            _ => 1,
        };
        let mut mass = vec![0.0; n];
        mass[0] = 1.0;
        for r in 1..=explicit {
            let mut next = vec![0.0; n];
            for i in 0..n {
                let m = mass[i];
                if m == 0.0 {
                    continue;
                }
                let s = g.state(i);
                if r > 1 && g.stalled(s) {
                    ends[i][End::Stalemate as usize] += m;
                    continue;
                }
                rounds += m;
                for (t, p) in g.round(s) {
                    next[g.at(t)] += m * p;
                }
            }
            for i in 0..n {
                if next[i] == 0.0 {
                    continue;
                }
                if let Some(e) = g.end_of_round(g.state(i), r, policy) {
                    ends[i][e as usize] += next[i];
                    next[i] = 0.0;
                }
            }
            mass = next;
        }
        // Then every round is the same: the states in order, the round
        // that changes nothing folded in.
        for i in 0..n {
            let m = mass[i];
            if m == 0.0 {
                continue;
            }
            let s = g.state(i);
            if g.stalled(s) {
                ends[i][End::Stalemate as usize] += m;
                continue;
            }
            let next = g.round(s);
            let stay: f64 = next.iter().filter(|(t, _)| *t == s).map(|(_, p)| p).sum();
            let c = m / (1.0 - stay);
            rounds += c;
            for (t, p) in next {
                if t == s {
                    continue;
                }
                let j = g.at(t);
                match g.end_of_round(t, u32::MAX, policy) {
                    Some(e) => ends[j][e as usize] += c * p,
                    None => mass[j] += c * p,
                }
            }
        }
    }
    let hows = [
        End::AttackerWins,
        End::DefenderWins,
        End::BothDestroyed,
        End::Retreated,
        End::Stalemate,
    ];
    let mut out = Vec::new();
    for (i, by) in ends.iter().enumerate() {
        for (e, &p) in hows.iter().zip(by) {
            if p > 0.0 {
                let (a, d) = g.state(i);
                out.push((*e, g.att.survivors(a, types), g.def.survivors(d, types), p));
            }
        }
    }
    Some(Solved { ends: out, rounds })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::rules::GameDef;
    use crate::rules::SpaceId;
    use crate::rules::combat::casualties::{Chooser, rank};
    use crate::rules::orders::StandingOrders;
    use crate::rules::state::GameState;

    fn aae() -> GameDef {
        crate::rules::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap()
    }

    /// A defending side of these units (names and counts), as the
    /// adjudicator ranks it, and its casualty candidates.
    fn side(game: &GameDef, units: &[(&str, u32)]) -> (Side, Vec<Candidate>) {
        let mut state = GameState::initial(game);
        state.units.clear();
        let mut ids = Vec::new();
        for (name, n) in units {
            let t = game
                .unit_types()
                .iter()
                .position(|u| u.name == *name)
                .unwrap();
            for _ in 0..*n {
                ids.push(state.add_unit(t, 0, SpaceId(0)));
            }
        }
        let standing = vec![StandingOrders::default(); game.powers().len()];
        let chooser = Chooser::Defender {
            standing: &standing,
            land: false,
        };
        (
            Side::ranked(game, &state, &ids, &chooser, false),
            rank(game, &state, &ids, &chooser),
        )
    }

    #[test]
    fn restricted_hits_then_hits_anywhere_is_one_allocation() {
        // `SideStates::hit` gives out restricted hits first and hits
        // anywhere on what they leave: the same as the adjudicator giving
        // out all of them at once, for every volley on these sides.
        let g = aae();
        for units in [
            &[("submarine", 2), ("fighter", 2), ("destroyer", 1)][..],
            &[("battleship", 1), ("submarine", 1), ("fighter", 1)],
            &[
                ("carrier", 1),
                ("fighter", 2),
                ("transport", 1),
                ("submarine", 2),
            ],
        ] {
            let (s, cands) = side(&g, units);
            let mut states = SideStates::new(&s, false);
            for x in 0..5u32 {
                for y in 0..5u32 {
                    for z in 0..5u32 {
                        let mut all = cands.clone();
                        allocate(
                            &mut all,
                            Hits {
                                not_air: x,
                                not_hidden: y,
                                any: z,
                            },
                        );
                        let mid = states.take(0, [x, y, 0]);
                        let two = states.take(mid, [0, 0, z]);
                        let caps: Vec<u8> = all.iter().map(|c| c.cap).collect();
                        assert_eq!(
                            &states.caps[two as usize][..],
                            &caps[..],
                            "{units:?}: {x} {y} {z}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn the_exploration_finds_every_state_a_battle_reaches() {
        // Solving asserts (in debug builds) that no state turns up that the
        // exploration did not find; the start is state 0 and states are
        // numbered by decreasing hit points left.
        let g = aae();
        let (a, _) = side(&g, &[("submarine", 3), ("battleship", 1), ("fighter", 1)]);
        let (d, _) = side(
            &g,
            &[
                ("destroyer", 2),
                ("carrier", 1),
                ("fighter", 2),
                ("submarine", 1),
            ],
        );
        let graph = Graph::new(&a, &d, false, usize::MAX).unwrap();
        for states in [&graph.att, &graph.def] {
            assert_eq!(
                states.caps[0].iter().sum::<u8>() as usize,
                states.info[0].hp
            );
            assert!(states.info.windows(2).all(|w| w[0].hp >= w[1].hp));
        }
        for policy in [Policy::Never, Policy::AfterRound(2), Policy::OddsBelow(0.4)] {
            let solved = solve(&a, &d, false, policy, g.unit_types().len(), usize::MAX).unwrap();
            let total: f64 = solved.ends.iter().map(|e| e.3).sum();
            assert!((total - 1.0).abs() < 1e-12, "{policy:?}: {total}");
        }
        // Past the bound: nothing.
        assert!(solve(&a, &d, false, Policy::Never, 1, 10).is_none());
    }
}
