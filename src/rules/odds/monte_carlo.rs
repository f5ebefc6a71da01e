//! The Monte Carlo fallback, for battles the exact calculator does not
//! cover (hits that may not go everywhere: submarines against aircraft) or
//! whose state space would be too large. Each battle is played round by
//! round as `combat::battle` plays it, casualties chosen by the
//! adjudicator's own allocation code ([`allocate`]), with a pseudo-random
//! generator seeded from the query: the same question always gets the same
//! estimate. These are not adjudication dice and never touch a match.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};

use super::Battle;
use super::dist::FireGroup;
use super::exact::{End, Policy};
use super::side::Slot;
use crate::rules::combat::casualties::{Candidate, HitClass, Hits, allocate};

/// One side's units in play: the adjudicator's candidates (with the hits
/// each can still take) and their slots.
struct Live<'a> {
    cands: Vec<Candidate>,
    slots: Vec<&'a Slot>,
}

impl<'a> Live<'a> {
    fn of(slots: &'a [Slot]) -> Live<'a> {
        Live {
            cands: slots.iter().map(|s| s.candidate.clone()).collect(),
            slots: slots.iter().collect(),
        }
    }

    /// Units that keep the side in the battle: fortifications alone do
    /// not (AAAE-29 PROPOSAL).
    fn len(&self) -> usize {
        self.slots.iter().filter(|s| !s.fortification).count()
    }

    /// No unit keeps the side in the battle ([`Live::len`] is 0), found at
    /// the first one that does: asked several times a simulated round.
    fn beaten(&self) -> bool {
        self.slots.iter().all(|s| s.fortification)
    }

    /// Drops the destroyed (no hit left).
    fn bury(&mut self) {
        let keep: Vec<bool> = self.cands.iter().map(|c| c.cap > 0).collect();
        let mut k = keep.iter();
        self.slots.retain(|_| *k.next().unwrap_or(&false));
        self.cands.retain(|c| c.cap > 0);
    }

    fn spots(&self) -> bool {
        self.slots.iter().any(|s| s.anti_sub)
    }

    /// Takes the submarines out (DAAK-C §4.2 withdrawal), adding them to
    /// `gone` by type.
    fn withdraw_subs(&mut self, gone: &mut [u32]) {
        let keep: Vec<bool> = self.slots.iter().map(|s| !s.sub).collect();
        for s in self.slots.iter().filter(|s| s.sub) {
            gone[s.unit] += 1;
        }
        let mut k = keep.iter();
        self.cands.retain(|_| *k.next().unwrap_or(&true));
        self.slots.retain(|s| !s.sub);
    }

    /// Survivors by type; none when the side is beaten (fortifications
    /// left standing then pass to the conqueror).
    fn survivors(&self, types: usize) -> Vec<u32> {
        let mut out = vec![0; types];
        if self.beaten() {
            return out;
        }
        for s in &self.slots {
            out[s.unit] += 1;
        }
        out
    }
}

/// A six-sided die from the generator (rejection keeps it unbiased).
fn d6(rng: &mut ChaCha8Rng) -> u32 {
    loop {
        let x = rng.next_u32();
        if x < u32::MAX - u32::MAX % 6 {
            return x % 6 + 1;
        }
    }
}

fn has_target(class: HitClass, targets: &Live) -> bool {
    targets.slots.iter().any(|t| match class {
        HitClass::NotAir => !t.air,
        HitClass::NotHidden => !t.hidden,
        HitClass::Any => true,
    })
}

fn can_hit(from: &Live, to: &Live, spots: bool) -> bool {
    from.slots
        .iter()
        .any(|s| s.strength > 0 && has_target(s.class(spots), to))
}

/// Rolls for the picked units of `from` firing at `to`.
fn fire(
    rng: &mut ChaCha8Rng,
    from: &Live,
    pick: impl Fn(&Slot) -> bool,
    to: &Live,
    attacking: bool,
    spots: bool,
    low_luck: bool,
) -> Hits {
    let picked: Vec<&Slot> = from.slots.iter().copied().filter(|s| pick(s)).collect();
    let mut support = if attacking {
        picked.iter().map(|s| usize::from(s.support)).sum()
    } else {
        0
    };
    let mut forts = super::dist::fortifications(picked.iter().copied());
    let mut groups: Vec<(FireGroup, HitClass)> = Vec::new();
    for s in picked {
        if s.strength == 0 {
            continue;
        }
        let (strength, supported) = s.fire_strength(&mut support, &mut forts);
        let c = s.class(spots);
        if !has_target(c, to) {
            continue;
        }
        match groups.iter_mut().find(|(g, gc)| {
            g.unit == s.unit
                && g.supported == supported
                && g.strength == strength
                && g.dice_each == s.dice_each
                && *gc == c
        }) {
            Some((g, _)) => g.count += u32::from(s.shots),
            None => groups.push((
                FireGroup {
                    unit: s.unit,
                    supported,
                    strength,
                    count: u32::from(s.shots),
                    dice_each: s.dice_each,
                },
                c,
            )),
        }
    }
    let mut hits = Hits::default();
    for (g, c) in groups {
        hits.add(c, roll(rng, &g, low_luck));
    }
    hits
}

/// The hits of one group.
fn roll(rng: &mut ChaCha8Rng, g: &FireGroup, low_luck: bool) -> u32 {
    let s = u32::from(g.strength.min(6));
    if low_luck {
        let total = g.count * s;
        total / 6 + u32::from(d6(rng) <= total % 6)
    } else {
        // Each unit rolls its dice and hits if any die does (Heavy Bombers).
        let each = g.dice_each.max(1);
        (0..g.count)
            .filter(|_| (0..each).map(|_| d6(rng)).any(|v| v <= s))
            .count() as u32
    }
}

/// The tally of `n` simulated battles: outcome counts by how the battle
/// ended and who survived, and the rounds fought in all.
pub(crate) struct Sampled {
    pub counts: Vec<(End, Vec<u32>, Vec<u32>, u64)>,
    pub rounds: u64,
    pub battles: u64,
}

/// Plays `n` battles. `OddsBelow` is not supported here (the caller checks).
pub(crate) fn simulate(battle: &Battle, types: usize, n: u64, seed: u64) -> Sampled {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts: std::collections::HashMap<(End, Vec<u32>, Vec<u32>), u64> =
        std::collections::HashMap::new();
    let mut rounds = 0u64;
    for _ in 0..n {
        let (end, a, d, r) = one(battle, types, &mut rng);
        rounds += u64::from(r);
        *counts.entry((end, a, d)).or_insert(0) += 1;
    }
    let mut counts: Vec<_> = counts
        .into_iter()
        .map(|((e, a, d), c)| (e, a, d, c))
        .collect();
    counts.sort_by(|x, y| (x.0, &x.1, &x.2).cmp(&(y.0, &y.1, &y.2)));
    Sampled {
        counts,
        rounds,
        battles: n,
    }
}

/// One battle: how it ended, the survivors of each side, the rounds.
fn one(battle: &Battle, types: usize, rng: &mut ChaCha8Rng) -> (End, Vec<u32>, Vec<u32>, u32) {
    let mut att = Live::of(&battle.att.slots);
    let mut def = Live::of(&battle.def.slots);
    if let Some(v) = battle.aa {
        // One die per plane, rolled per type; a hit plane never fires.
        let mut kinds: Vec<usize> = att.slots.iter().filter(|s| s.air).map(|s| s.unit).collect();
        kinds.sort_unstable();
        kinds.dedup();
        for t in kinds {
            let n = att.slots.iter().filter(|s| s.unit == t).count() as u32;
            let g = FireGroup {
                unit: t,
                supported: false,
                strength: v,
                count: n,
                dice_each: 1,
            };
            let mut down = roll(rng, &g, battle.low_luck).min(n);
            for (c, s) in att.cands.iter_mut().zip(&att.slots) {
                if down > 0 && s.unit == t {
                    c.cap = 0;
                    down -= 1;
                }
            }
            att.bury();
        }
    }
    // J Boulton Disruption (JB-29): the strikers' shots before round 1,
    // never answered.
    let mut pre = Hits::default();
    for g in &battle.pre_strike {
        pre.add(HitClass::Any, roll(rng, g, battle.low_luck));
    }
    if pre.total() > 0 && !def.beaten() {
        allocate(&mut def.cands, pre);
        def.bury();
    }
    let mut round = 0u32;
    let (mut gone_att, mut gone_def) = (vec![0u32; types], vec![0u32; types]);
    let end = loop {
        if att.beaten() || def.beaten() {
            break None;
        }
        let (a_spots, d_spots) = (att.spots(), def.spots());
        let bombard = round == 0 && !battle.bombard.is_empty();
        if !bombard && !can_hit(&att, &def, a_spots) && !can_hit(&def, &att, d_spots) {
            break Some(End::Stalemate);
        }
        round += 1;
        // First strikes (attacking submarines without a defending
        // destroyer; in Anniversary also defending ones without an attacking
        // destroyer), both from the sides as they stand, their victims
        // removed before the others fire.
        let first = !d_spots
            && (round == 1 || !battle.first_strike_once)
            && att.slots.iter().any(|s| s.first_strike);
        let def_first = !a_spots && def.slots.iter().any(|s| s.first_strike);
        if first || def_first {
            let on_def = if first {
                fire(
                    rng,
                    &att,
                    |s| s.first_strike,
                    &def,
                    true,
                    a_spots,
                    battle.low_luck,
                )
            } else {
                Hits::default()
            };
            let on_att = if def_first {
                fire(
                    rng,
                    &def,
                    |s| s.first_strike,
                    &att,
                    false,
                    d_spots,
                    battle.low_luck,
                )
            } else {
                Hits::default()
            };
            if on_def.total() > 0 {
                allocate(&mut def.cands, on_def);
            }
            if on_att.total() > 0 {
                allocate(&mut att.cands, on_att);
            }
            def.bury();
            att.bury();
        }
        let mut hits = fire(
            rng,
            &att,
            |s| !((first && s.first_strike) || (round == 1 && s.silent_first_round)),
            &def,
            true,
            a_spots,
            battle.low_luck,
        );
        if round == 1 {
            for g in &battle.bombard {
                hits.add(HitClass::Any, roll(rng, g, battle.low_luck));
            }
        }
        let mut marked = def.cands.clone();
        if hits.total() > 0 && !def.beaten() {
            allocate(&mut marked, hits);
        }
        let back = fire(
            rng,
            &def,
            |s| !((def_first && s.first_strike) || (round == 1 && s.silent_first_round)),
            &att,
            false,
            d_spots,
            battle.low_luck,
        );
        if back.total() > 0 {
            allocate(&mut att.cands, back);
        }
        att.bury();
        def.cands = marked;
        def.bury();
        if att.beaten() || def.beaten() {
            break None;
        }
        // DAAK-C §4.2(b): the attacker's submarines withdraw, then the
        // defender's while attackers are left, then the retreat.
        if battle.withdrawals.attacker == Some(round) {
            att.withdraw_subs(&mut gone_att);
            if att.beaten() {
                break Some(End::Retreated);
            }
        }
        if battle.withdrawals.defender == Some(round) {
            def.withdraw_subs(&mut gone_def);
            if def.beaten() {
                break Some(End::AttackerWins);
            }
        }
        let retreat = match battle.policy {
            Policy::Never | Policy::OddsBelow(_) => false,
            Policy::AfterRound(n) => round >= n,
            Policy::AttackersBelow(n) => (att.len() as u64) < u64::from(n),
        };
        if retreat {
            break Some(End::Retreated);
        }
    };
    let end = end.unwrap_or(match (att.len(), def.len()) {
        (0, 0) => End::BothDestroyed,
        (0, _) => End::DefenderWins,
        _ => End::AttackerWins,
    });
    let (mut sa, mut sd) = (att.survivors(types), def.survivors(types));
    for (s, g) in sa.iter_mut().zip(&gone_att) {
        *s += g;
    }
    for (s, g) in sd.iter_mut().zip(&gone_def) {
        *s += g;
    }
    (end, sa, sd, round)
}
