//! Statistical checks of the dice, strong enough to fail a biased sampler.
//!
//! The key is fixed so the test is reproducible: it asks whether this
//! sampler over ChaCha20 is uniform, not whether one run was lucky.

use adjutant::dice::{Digest32, Label, LabelStream, TurnKey};

/// Chi-square critical values at p = 0.001.
const CRIT_5_DF: f64 = 20.515;
const CRIT_35_DF: f64 = 66.619;

fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// 1,000,000 d6 over 1,000 labels of 1,000 dice: face counts and the counts
/// of consecutive pairs within each label.
fn draw() -> ([u64; 6], [u64; 36]) {
    let key = TurnKey(Digest32([0x5a; 32]));
    let mut faces = [0u64; 6];
    let mut pairs = [0u64; 36];
    for l in 0..1_000 {
        let label = Label::new(format!("battle/Territory {l}/round/1/attacker/infantry")).unwrap();
        let mut s = LabelStream::new(&key, &label);
        let mut prev = None;
        for i in 0..1_000 {
            let v = s.roll(6) as usize;
            faces[v - 1] += 1;
            // Non-overlapping pairs keep the cells independent.
            if i % 2 == 1 {
                pairs[(prev.unwrap() - 1) * 6 + (v - 1)] += 1;
            }
            prev = Some(v);
        }
    }
    (faces, pairs)
}

#[test]
fn a_million_d6_are_uniform_and_pairs_independent() {
    let (faces, pairs) = draw();
    assert_eq!(faces.iter().sum::<u64>(), 1_000_000);
    let x2 = chi_square(&faces);
    assert!(
        x2 < CRIT_5_DF,
        "faces {faces:?}: chi-square {x2:.2} >= {CRIT_5_DF}"
    );
    let x2 = chi_square(&pairs);
    assert!(x2 < CRIT_35_DF, "pairs: chi-square {x2:.2} >= {CRIT_35_DF}");
}

/// The same statistic rejects a sampler with modulo bias (a byte mod 6), so
/// the test above is able to fail.
#[test]
fn the_test_catches_modulo_bias() {
    let key = TurnKey(Digest32([0x5a; 32]));
    let label = Label::new("biased").unwrap();
    // Take the stream's raw words through a d(2^16) and keep one byte of each.
    let mut s = LabelStream::new(&key, &label);
    let mut faces = [0u64; 6];
    for _ in 0..1_000_000 {
        let byte = (s.roll(1 << 16) - 1) as usize & 0xff;
        faces[byte % 6] += 1;
    }
    let x2 = chi_square(&faces);
    assert!(
        x2 > CRIT_5_DF,
        "a biased sampler passed: chi-square {x2:.2}"
    );
}
