//! One infantry attacking one infantry, fought 100,000 times by the engine
//! with real verifiable dice: the attacker wins 1/4, the defender 5/8, both
//! die 1/8 (each round the attacker hits on 1, the defender on 1-2; a round
//! ends the battle with probability 8/18, of which 2/18 attacker only, 5/18
//! defender only, 1/18 both). The keys are fixed, so the run is reproducible;
//! the test asks whether the engine's battles follow the rules' odds.

mod movement_common;

use adjutant::dice::{Dice, Digest32, TurnKey};
use adjutant::rules::combat;
use adjutant::rules::orders::{Located, Origin};
use movement_common::Board;

#[test]
fn one_infantry_against_one_infantry() {
    let mut b = Board::new();
    b.put("East Poland", "Germany", "infantry", 1);
    b.put("Belorussia", "Soviet Union", "infantry", 1);
    let mv = vec![b.mv("1 infantry", "East Poland -> Belorussia", None)];
    b.combat("Germany", mv.clone()).unwrap();
    let orders: Vec<Located<_>> = mv
        .into_iter()
        .map(|item| Located {
            item,
            origin: Origin::default(),
        })
        .collect();
    let (ger, ussr, bel) = (b.p("Germany"), b.p("Soviet Union"), b.s("Belorussia"));
    const N: u64 = 100_000;
    let (mut attacker, mut defender, mut both) = (0u64, 0u64, 0u64);
    for i in 0..N {
        let mut key = [0x3c; 32];
        key[..8].copy_from_slice(&i.to_be_bytes());
        let mut dice = Dice::verifiable(TurnKey(Digest32(key)));
        let mut state = b.state.clone();
        let mut events = Vec::new();
        combat::fight_battles(
            &b.game,
            &mut state,
            ger,
            &orders,
            &[],
            Some(&mut dice),
            &mut events,
        )
        .unwrap();
        let a = state.units_at(bel).any(|u| u.owner == ger);
        let d = state.units_at(bel).any(|u| u.owner == ussr);
        match (a, d) {
            (true, false) => attacker += 1,
            (false, true) => defender += 1,
            (false, false) => both += 1,
            (true, true) => panic!("battle {i} did not end"),
        }
    }
    for (name, count, p) in [
        ("attacker wins", attacker, 0.25),
        ("defender wins", defender, 0.625),
        ("both die", both, 0.125),
    ] {
        let mean = N as f64 * p;
        let sd = (N as f64 * p * (1.0 - p)).sqrt();
        let z = (count as f64 - mean) / sd;
        assert!(
            z.abs() < 4.0,
            "{name}: {count} of {N}, expected {mean:.0} ± {sd:.0} (z = {z:.2})"
        );
    }
}
