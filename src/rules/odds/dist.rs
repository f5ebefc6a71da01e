//! Hit distributions: how many hits a set of firing units scores, with dice
//! or with Low Luck, grouped exactly as the adjudicator groups them
//! (`combat::fire`: one group per unit type, `supported infantry` apart).

use super::side::Slot;
use crate::rules::vocab::UnitTypeId;

/// Probabilities below this are dropped from the ends of a distribution:
/// with at most a few thousand entries the mass lost is below 1e-25.
const NEGLIGIBLE: f64 = 1e-30;

/// A distribution over a number of hits: `p[i]` is the probability of
/// `lo + i` hits; `tail[i]` the probability of at least `lo + i`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pmf {
    pub lo: usize,
    pub p: Vec<f64>,
    pub tail: Vec<f64>,
}

impl Pmf {
    /// Exactly `n` hits.
    pub fn point(n: usize) -> Pmf {
        Pmf::from_dense(n, vec![1.0])
    }

    /// The distribution `p[i]` = P(lo + i), negligible ends trimmed.
    pub fn from_dense(lo: usize, mut p: Vec<f64>) -> Pmf {
        let first = p.iter().position(|x| *x > NEGLIGIBLE).unwrap_or(0);
        let last = p.iter().rposition(|x| *x > NEGLIGIBLE).unwrap_or(0);
        p.truncate(last + 1);
        p.drain(..first);
        let mut tail = p.clone();
        for i in (0..tail.len().saturating_sub(1)).rev() {
            tail[i] += tail[i + 1];
        }
        Pmf {
            lo: lo + first,
            p,
            tail,
        }
    }

    /// P(exactly `k` hits).
    pub fn at(&self, k: usize) -> f64 {
        k.checked_sub(self.lo)
            .and_then(|i| self.p.get(i))
            .copied()
            .unwrap_or(0.0)
    }

    /// True when no hit is possible.
    pub fn is_zero(&self) -> bool {
        self.lo == 0 && self.p.len() == 1
    }

    /// The distribution of the sum of two independent counts.
    pub fn convolve(&self, other: &Pmf) -> Pmf {
        let mut out = vec![0.0; self.p.len() + other.p.len() - 1];
        for (i, a) in self.p.iter().enumerate() {
            for (j, b) in other.p.iter().enumerate() {
                out[i + j] += a * b;
            }
        }
        Pmf::from_dense(self.lo + other.lo, out)
    }
}

/// Units firing together: same type, same support, same strength.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FireGroup {
    pub unit: UnitTypeId,
    pub supported: bool,
    pub strength: u8,
    pub count: u32,
    /// Dice each unit rolls, hitting if any die does (Heavy Bombers: 2);
    /// ignored under Low Luck, as the adjudicator ignores it.
    pub dice_each: u8,
}

impl FireGroup {
    /// The chance that one unit of the group hits with dice.
    pub fn hit_chance(&self) -> f64 {
        hit_chance(self.strength, self.dice_each)
    }
}

/// The chance that a unit firing at `strength` hits with dice, rolling
/// `dice_each` dice and hitting if any die does: 1 - (1 - s/6)^n.
pub(crate) fn hit_chance(strength: u8, dice_each: u8) -> f64 {
    let miss = 1.0 - f64::from(strength.min(6)) / 6.0;
    1.0 - miss.powi(i32::from(dice_each.max(1)))
}

/// The firing groups of `alive` units picked by `pick`: attacking artillery
/// raises one supportable unit each by one (counted among the picked units,
/// as the adjudicator counts among the units that fire together).
pub(crate) fn groups(
    alive: &[Slot],
    attacking: bool,
    pick: impl Fn(&Slot) -> bool,
) -> Vec<FireGroup> {
    let mut support = if attacking {
        alive
            .iter()
            .filter(|s| pick(s))
            .map(|s| usize::from(s.support))
            .sum()
    } else {
        0
    };
    let mut forts = fortifications(alive.iter().filter(|s| pick(s)));
    let mut out: Vec<FireGroup> = Vec::new();
    for s in alive.iter().filter(|s| pick(s)) {
        if s.strength == 0 {
            continue;
        }
        let (strength, supported) = s.fire_strength(&mut support, &mut forts);
        add(
            &mut out,
            s.unit,
            supported,
            strength,
            s.dice_each,
            u32::from(s.shots),
        );
    }
    out
}

/// How many defending fortifications stand among `slots` (AAAE-29), each
/// raising one infantry that fires with them.
pub(crate) fn fortifications<'a>(slots: impl Iterator<Item = &'a Slot>) -> usize {
    slots.filter(|s| s.fortification).count()
}

/// Adds `count` units to their group in `groups`.
pub(crate) fn add(
    groups: &mut Vec<FireGroup>,
    unit: UnitTypeId,
    supported: bool,
    strength: u8,
    dice_each: u8,
    count: u32,
) {
    if strength == 0 || count == 0 {
        return;
    }
    match groups.iter_mut().find(|g| {
        g.unit == unit
            && g.supported == supported
            && g.strength == strength
            && g.dice_each == dice_each
    }) {
        Some(g) => g.count += count,
        None => groups.push(FireGroup {
            unit,
            supported,
            strength,
            count,
            dice_each,
        }),
    }
}

/// The hits of `groups`: one d6 per unit hitting at or below its strength
/// (or `dice_each` dice, any of them hitting), or Low Luck (per group,
/// `count * strength / 6` sure hits and one die for the remainder).
pub(crate) fn hits(groups: &[FireGroup], low_luck: bool) -> Pmf {
    // One dense buffer, each group convolved into it in place.
    let mut lo = 0;
    let mut out = vec![1.0];
    for g in groups {
        let s = u32::from(g.strength.min(6));
        if low_luck {
            let total = g.count * s;
            let rest = f64::from(total % 6) / 6.0;
            lo += (total / 6) as usize;
            if rest > 0.0 {
                out.push(0.0);
                for i in (0..out.len()).rev() {
                    let up = if i > 0 { out[i - 1] * rest } else { 0.0 };
                    out[i] = out[i] * (1.0 - rest) + up;
                }
            }
        } else {
            let b = binomial_dense(g.count as usize, g.hit_chance());
            let mut next = vec![0.0; out.len() + b.len() - 1];
            for (i, x) in out.iter().enumerate() {
                for (j, y) in b.iter().enumerate() {
                    next[i + j] += x * y;
                }
            }
            out = next;
        }
    }
    Pmf::from_dense(lo, out)
}

/// Binomial(n, p) as `out[k]` = P(k), untrimmed: by the ratio recurrence
/// when (1-p)^n is comfortably representable, else by adding one trial at a
/// time.
fn binomial_dense(n: usize, p: f64) -> Vec<f64> {
    if p >= 1.0 {
        let mut out = vec![0.0; n + 1];
        out[n] = 1.0;
        return out;
    }
    if p <= 0.0 || n == 0 {
        return vec![1.0];
    }
    let q = 1.0 - p;
    let start = q.powi(n as i32);
    let mut out = vec![0.0; n + 1];
    if start > 1e-250 {
        out[0] = start;
        let r = p / q;
        for k in 0..n {
            out[k + 1] = out[k] * (n - k) as f64 / (k + 1) as f64 * r;
        }
    } else {
        out[0] = 1.0;
        for k in 0..n {
            for i in (0..=k + 1).rev() {
                let stay = if i <= k { out[i] * q } else { 0.0 };
                let up = if i > 0 { out[i - 1] * p } else { 0.0 };
                out[i] = stay + up;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binomial(n: usize, p: f64) -> Pmf {
        Pmf::from_dense(0, binomial_dense(n, p))
    }

    #[test]
    fn binomial_matches_the_formula_and_sums_to_one() {
        let b = binomial(3, 1.0 / 6.0);
        assert!((b.at(0) - 125.0 / 216.0).abs() < 1e-15);
        assert!((b.at(1) - 75.0 / 216.0).abs() < 1e-15);
        assert!((b.at(3) - 1.0 / 216.0).abs() < 1e-15);
        assert!((b.tail[0] - 1.0).abs() < 1e-15);
        // The fallback path for many dice agrees with the recurrence.
        let big = binomial(2000, 0.5);
        assert!((big.p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        assert!((big.at(1000) - 0.017_839_0).abs() < 1e-6);
    }

    #[test]
    fn heavy_bombers_hit_if_either_die_does_and_only_with_dice() {
        // Two bombers at 4, two dice each: each hits with 1 - (1/3)^2 = 8/9.
        let g = [FireGroup {
            unit: 0,
            supported: false,
            strength: 4,
            count: 2,
            dice_each: 2,
        }];
        let h = hits(&g, false);
        assert!((h.at(0) - 1.0 / 81.0).abs() < 1e-15);
        assert!((h.at(1) - 16.0 / 81.0).abs() < 1e-15);
        assert!((h.at(2) - 64.0 / 81.0).abs() < 1e-15);
        // Low Luck: 8 points, one sure hit and a die hitting on 2.
        let ll = hits(&g, true);
        assert_eq!(ll.lo, 1);
        assert!((ll.at(2) - 2.0 / 6.0).abs() < 1e-15);
    }

    #[test]
    fn low_luck_rolls_one_die_per_group_for_the_remainder() {
        let g = [FireGroup {
            unit: 0,
            supported: false,
            strength: 1,
            count: 8,
            dice_each: 1,
        }];
        let h = hits(&g, true);
        assert_eq!(h.lo, 1);
        assert!((h.at(1) - 4.0 / 6.0).abs() < 1e-15);
        assert!((h.at(2) - 2.0 / 6.0).abs() < 1e-15);
    }
}
