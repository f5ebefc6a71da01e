//! J Boulton special force teams' missions in an odds question (issue 18
//! item 10; `docs/odds.md`): Supply Strike halves every defender (JB-32),
//! each Booby Trap silences the weakest attacker not yet silenced in round
//! 1 (JB-33), and each unit named for Disruption fires its attack before
//! round 1, unanswered, and not again in round 1 (JB-29), as the
//! adjudicator plays them (`combat::special_force_teams`).

use super::dist::FireGroup;
use super::side::Side;
use crate::rules::GameDef;
use crate::rules::vocab::UnitList;

/// The missions a question names.
#[derive(Debug, Default)]
pub(crate) struct Missions {
    supply_strike: bool,
    booby_traps: u32,
    disruption: UnitList,
}

/// Reads the question's missions, recording every problem in `errors`:
/// only where the game plays them, only in a land battle, and Disruption
/// only by attackers of the battle.
pub(crate) fn read(
    game: &GameDef,
    (supply_strike, booby_traps, disruption): (bool, Option<u32>, UnitList),
    attackers: &UnitList,
    sea: bool,
    errors: &mut Vec<String>,
) -> Missions {
    let m = Missions {
        supply_strike,
        booby_traps: booby_traps.unwrap_or(0),
        disruption,
    };
    let named = m.supply_strike || m.booby_traps > 0 || !m.disruption.is_empty();
    if !named {
        return m;
    }
    if game.combat_rules().special_force_teams.is_none() {
        errors.push(
            "supply_strike, booby_traps, disruption: this game plays no special force teams' \
             missions (J Boulton); leave them out"
                .to_owned(),
        );
        return Missions::default();
    }
    if sea {
        errors.push(
            "supply_strike, booby_traps, disruption: special force teams carry out missions \
             only in land battles (JB-22)"
                .to_owned(),
        );
    }
    let types = game.unit_types();
    for c in &m.disruption {
        let there = attackers
            .iter()
            .find(|a| a.unit == c.unit)
            .map_or(0, |a| a.count);
        if c.count > there {
            errors.push(format!(
                "disruption: {} {} named, but the attackers have {there}",
                c.count, types[c.unit].name
            ));
        }
    }
    m
}

/// Supply Strike (JB-32) on the defending side `def`: every defender at
/// half its value, rounded up, as `combat::special_force_teams::supply_struck`
/// halves the defenders' firing groups (a fortified value too, since the
/// battle halves the group after raising it). Used by an odds question that
/// names the mission and by the odds of a battle plan's `when_odds_below`
/// in a battle where a team carried it out.
pub(crate) fn supply_strike(def: &mut Side) {
    for s in &mut def.slots {
        s.strength = crate::rules::combat::out_of_supply(s.strength);
        s.fortified = s.fortified.map(crate::rules::combat::out_of_supply);
    }
}

/// Applies the missions to the ranked sides and returns the Disruption
/// strike, noting each in `notes`.
pub(crate) fn apply(
    game: &GameDef,
    m: &Missions,
    att: &mut Side,
    def: &mut Side,
    low_luck: bool,
    notes: &mut Vec<String>,
) -> Vec<FireGroup> {
    let types = game.unit_types();
    if m.supply_strike {
        supply_strike(def);
        notes.push(
            "Supply Strike: every defender defends at half, rounded up, the whole battle \
             (JB-32)"
                .to_owned(),
        );
    }
    let mut strike: Vec<FireGroup> = Vec::new();
    for c in &m.disruption {
        let strength = types[c.unit].attack.unwrap_or(0);
        let mut left = c.count;
        // The strikers' round-1 shot is the strike (JB-29 PROPOSAL); of
        // equal units, those lost last strike.
        for s in att.slots.iter_mut().rev() {
            if left > 0 && s.unit == c.unit && !s.silent_first_round {
                s.silent_first_round = true;
                left -= 1;
            }
        }
        strike.push(FireGroup {
            unit: c.unit,
            supported: false,
            strength,
            count: c.count,
            dice_each: 1,
        });
        notes.push(format!(
            "Disruption: {} {} fire{} at {strength} before round 1, unanswered, and not in \
             round 1 (JB-29){}",
            c.count,
            types[c.unit].name,
            if c.count == 1 { "s" } else { "" },
            if low_luck { ", by Low Luck" } else { "" }
        ));
    }
    for _ in 0..m.booby_traps {
        // The attacker's choice by default: its weakest unit that fires.
        let weakest = att
            .slots
            .iter_mut()
            .filter(|s| s.strength > 0 && !s.silent_first_round)
            .min_by_key(|s| s.strength);
        match weakest {
            Some(s) => s.silent_first_round = true,
            None => break,
        }
    }
    if m.booby_traps > 0 {
        notes.push(format!(
            "Booby Trap: the {} weakest attacking unit{} do{} not roll in round 1 (JB-33)",
            m.booby_traps,
            if m.booby_traps == 1 { "" } else { "s" },
            if m.booby_traps == 1 { "es" } else { "" }
        ));
    }
    strike
}

#[cfg(test)]
mod tests {
    use super::super::{Method, OddsQuery, answer};
    use crate::rules::GameDef;
    use std::path::Path;

    fn jb() -> GameDef {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap()
    }

    /// The attacker's exact chance of winning.
    fn wins(q: &OddsQuery) -> f64 {
        let r = answer(&jb(), q).unwrap();
        assert_eq!(r.method, Method::Exact, "{q:?}");
        r.attacker_wins
    }

    #[test]
    fn supply_strike_halves_the_defenders_worked_by_hand() {
        // 1 infantry (1) against 1 infantry at 2: each round the attacker
        // alone hits (1/6 * 4/6) or nothing happens (5/6 * 4/6), so it wins
        // (4/36) / (1 - 20/36) = 1/4.
        let q = OddsQuery::new("1 infantry", "1 infantry");
        assert!((wins(&q) - 0.25).abs() < 1e-12);
        // Supply Strike: the defender at 1; the attacker wins
        // (5/36) / (1 - 25/36) = 5/11.
        let q = OddsQuery {
            supply_strike: true,
            ..q
        };
        assert!((wins(&q) - 5.0 / 11.0).abs() < 1e-12);
    }

    #[test]
    fn a_booby_trap_silences_the_weakest_attacker_in_round_1_worked_by_hand() {
        // Round 1: the infantry does not roll, the defender hits on 2 (1/3);
        // from round 2 the battle of the test above (1/4): 2/3 * 1/4 = 1/6.
        let q = OddsQuery {
            booby_traps: Some(1),
            ..OddsQuery::new("1 infantry", "1 infantry")
        };
        assert!((wins(&q) - 1.0 / 6.0).abs() < 1e-12);
    }

    #[test]
    fn disruption_strikes_before_round_1_unanswered_worked_by_hand() {
        // 1 armor (3) against 1 infantry (2): without Disruption each round
        // the armor alone hits (1/2 * 2/3) or nothing happens (1/2 * 2/3):
        // it wins (1/3) / (2/3) = 1/2. With it, the strike hits on 3 (1/2
        // wins at once); else in round 1 only the infantry rolls (2/3 it
        // misses) and then the battle as before (1/2):
        // 1/2 + 1/2 * 2/3 * 1/2 = 2/3.
        let q = OddsQuery::new("1 armor", "1 infantry");
        assert!((wins(&q) - 0.5).abs() < 1e-12);
        let q = OddsQuery {
            disruption: Some("1 armor".into()),
            ..q
        };
        assert!((wins(&q) - 2.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn the_simulation_plays_the_missions_as_the_exact_odds_do() {
        let q = OddsQuery {
            supply_strike: true,
            booby_traps: Some(1),
            disruption: Some("1 armor".into()),
            ..OddsQuery::new("1 armor, 1 infantry", "2 infantry")
        };
        let exact = wins(&q);
        let simulated = answer(
            &jb(),
            &OddsQuery {
                monte_carlo: true,
                battles: Some(200_000),
                ..q
            },
        )
        .unwrap();
        assert!(matches!(simulated.method, Method::MonteCarlo { .. }));
        assert!(
            (simulated.attacker_wins - exact).abs() < 0.006,
            "{} against {exact}",
            simulated.attacker_wins
        );
    }

    #[test]
    fn missions_are_refused_where_no_team_can_carry_them_out() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let aae = crate::rules::load_dir(&root.join("games/aae")).unwrap();
        let q = OddsQuery {
            supply_strike: true,
            ..OddsQuery::new("1 infantry", "1 infantry")
        };
        let e = answer(&aae, &q).unwrap_err().to_string();
        assert!(e.contains("plays no special force teams' missions"), "{e}");
        let q = OddsQuery {
            booby_traps: Some(1),
            ..OddsQuery::new("1 destroyer", "1 destroyer")
        };
        let e = answer(&jb(), &q).unwrap_err().to_string();
        assert!(e.contains("only in land battles"), "{e}");
        let q = OddsQuery {
            disruption: Some("2 armor".into()),
            ..OddsQuery::new("1 armor", "1 infantry")
        };
        let e = answer(&jb(), &q).unwrap_err().to_string();
        assert!(
            e.contains("disruption: 2 armor named, but the attackers have 1"),
            "{e}"
        );
    }
}
