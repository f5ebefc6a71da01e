//! J Boulton's Evasive sacrifices still to come (JB-34) in the odds a
//! battle plan's `when_odds_below` weighs: at the start of a later round a
//! defending land unit leaves the battle, if it is still in it, before any
//! die of that round (`combat::special_force_teams::evade`). Solved in
//! phases, as the submarines' withdrawals are ([`super::withdrawal`]): up to
//! the round before the departure (the exact calculator stopping there as
//! it stops for a retreat after a round), then, from each state still in
//! play, the battle without the unit. A battle whose defenders all left is
//! the attacker's, as the adjudicator ends it.

use super::exact::{End, Policy, solve};
use super::side::{Side, Slot};

/// A defending unit that leaves the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Leaving {
    /// Rounds still to be fought before it leaves (0: before the next).
    pub rounds: u32,
    /// The unit.
    pub unit: u32,
}

/// True when the phases are computed exactly: a fixed order of loss and
/// one hit each (so that the units left after `h` hits are known), within
/// [`super::MAX_EXACT_STATES`].
pub(crate) fn exact_applies(att: &Side, def: &Side) -> bool {
    super::fixed_order(att, def)
        && att.one_hit_each()
        && def.one_hit_each()
        && super::exact::states(att, def) <= super::MAX_EXACT_STATES
}

/// The defenders without those leaving now (`rounds == 0`), and the
/// departures still to come.
pub(crate) fn leave_now(def: &Side, leaving: &[Leaving]) -> (Side, Vec<Leaving>) {
    let gone = |s: &Slot| {
        leaving
            .iter()
            .any(|l| l.rounds == 0 && l.unit == s.candidate.id)
    };
    let stay: Vec<Slot> = def.slots.iter().filter(|s| !gone(s)).cloned().collect();
    let later = leaving.iter().filter(|l| l.rounds > 0).copied().collect();
    (Side::new(stay, def.attacking), later)
}

/// The attacker's exact chance of winning by fighting on to the end while
/// the units of `leaving` leave the defenders as said; the sides must suit
/// [`exact_applies`], and the attackers must not be gone.
pub(crate) fn attacker_wins(att: &Side, def: &Side, low_luck: bool, leaving: &[Leaving]) -> f64 {
    let (def, leaving) = leave_now(def, leaving);
    if def.slots.is_empty() {
        return 1.0;
    }
    let k = leaving.iter().map(|l| l.rounds).min();
    let policy = k.map_or(Policy::Never, Policy::AfterRound);
    let solved = solve(att, &def, low_luck, (None, None), policy);
    let later: Vec<Leaving> = leaving
        .iter()
        .map(|l| Leaving {
            rounds: l.rounds - k.unwrap_or(0),
            unit: l.unit,
        })
        .collect();
    solved
        .ends
        .iter()
        .map(|&(a, d, end, p)| match end {
            End::AttackerWins => p,
            // Still in play after round k: the departures come next.
            End::Retreated if k.is_some() => {
                let att = Side::new(att.alive(a).to_vec(), att.attacking);
                let def = Side::new(def.alive(d).to_vec(), def.attacking);
                p * attacker_wins(&att, &def, low_luck, &later)
            }
            _ => 0.0,
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::GameDef;
    use crate::rules::combat::casualties::Chooser;
    use crate::rules::state::GameState;

    fn sides(units: (&[&str], &[&str])) -> (GameDef, Side, Side, Vec<u32>) {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let jb = crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap();
        let mut state = GameState::initial(&jb);
        state.units.clear();
        let at = jb.space("East Poland").unwrap();
        let mut place = |name: &str, power: &str| {
            let t = jb.unit_types().iter().position(|t| t.name == name).unwrap();
            state.add_unit(t, jb.power(power).unwrap(), at)
        };
        let a: Vec<u32> = units.0.iter().map(|n| place(n, "Germany")).collect();
        let d: Vec<u32> = units.1.iter().map(|n| place(n, "Soviet Union")).collect();
        let standing = state.standing.clone();
        let ac = Chooser::Attacker {
            losses: &[],
            source: "default battle plan".into(),
            power: jb.power("Germany").unwrap(),
            standing: &standing,
        };
        let dc = Chooser::Defender {
            standing: &standing,
            land: true,
        };
        let att = Side::ranked(&jb, &state, &a, &ac, true);
        let def = Side::ranked(&jb, &state, &d, &dc, false);
        (jb, att, def, d)
    }

    /// One infantry (1) against one infantry and one armor (both defend at
    /// 2), the infantry lost first, the armor leaving before round 2 (after
    /// one more round). Round 1: the attacker hits 1/6, the defenders
    /// 1 - 4/6 * 4/6 = 5/9, and any hit of theirs ends the attacker. It
    /// wins when it hits and they miss (1/6 * 4/9 = 2/27: the armor then
    /// leaves and no defender is left), and when nobody hits
    /// (5/6 * 4/9 = 10/27) it fights the battle without the armor, one
    /// infantry against one, 1/4 (`rules::variants::jboulton`'s tests):
    /// 2/27 + 10/27 * 1/4 = 1/6. Without the departure it must beat both:
    /// less.
    #[test]
    fn a_defender_leaving_before_the_next_round_but_one_worked_by_hand() {
        let (_, att, def, d) = sides((&["infantry"], &["infantry", "armor"]));
        assert!(exact_applies(&att, &def));
        let armor = d[1];
        let leaving = [Leaving {
            rounds: 1,
            unit: armor,
        }];
        let p = attacker_wins(&att, &def, false, &leaving);
        assert!((p - 1.0 / 6.0).abs() < 1e-12, "{p}");
        let stays = attacker_wins(&att, &def, false, &[]);
        assert!(stays < p, "{stays} {p}");
        // Leaving before the next round: one infantry against one.
        let now = [Leaving {
            rounds: 0,
            unit: armor,
        }];
        let p = attacker_wins(&att, &def, false, &now);
        assert!((p - 0.25).abs() < 1e-12, "{p}");
    }

    /// The last defender leaving before the next round: the attacker wins.
    #[test]
    fn every_defender_leaving_gives_the_attacker_the_battle() {
        let (_, att, def, d) = sides((&["infantry"], &["armor"]));
        let leaving = [Leaving {
            rounds: 0,
            unit: d[0],
        }];
        assert_eq!(attacker_wins(&att, &def, false, &leaving), 1.0);
    }
}
