//! [`Dice`]: the only way the rules engine obtains randomness.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Label, LabelStream, TurnKey};

/// Which kind of dice a match uses; the log's genesis entry records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceKind {
    /// Commit-reveal dice that anyone holding the log can re-derive.
    Verifiable,
    /// Scripted dice for rules tests. They prove nothing, and only a build
    /// with the `fixed-dice` feature can create them.
    Fixed,
}

/// Consecutive dice of one label with the same number of sides, as the log
/// records them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RollGroup {
    /// What the dice were for.
    pub label: Label,
    /// Faces per die.
    pub sides: u32,
    /// The values, in the order drawn.
    pub values: Vec<u32>,
}

/// The dice of one adjudication, handed to the rules engine.
///
/// A real match can only build verifiable dice from a [`TurnKey`]; the fixed
/// kind exists only in builds with the `fixed-dice` feature, which the test
/// suite enables and a release build does not. Every die drawn is recorded
/// and goes to the log through [`Dice::take_rolls`].
pub struct Dice {
    source: Source,
    rolls: Vec<RollGroup>,
}

enum Source {
    Verifiable {
        key: TurnKey,
        streams: HashMap<Label, LabelStream>,
    },
    #[cfg(feature = "fixed-dice")]
    Fixed(FixedDice),
}

impl Dice {
    /// The dice of a turn whose key is known (its secret revealed).
    pub fn verifiable(key: TurnKey) -> Self {
        Dice {
            source: Source::Verifiable {
                key,
                streams: HashMap::new(),
            },
            rolls: Vec::new(),
        }
    }

    /// Scripted dice for a rules test.
    #[cfg(feature = "fixed-dice")]
    pub fn fixed(script: FixedDice) -> Self {
        Dice {
            source: Source::Fixed(script),
            rolls: Vec::new(),
        }
    }

    /// Which kind these are.
    pub fn kind(&self) -> DiceKind {
        match self.source {
            Source::Verifiable { .. } => DiceKind::Verifiable,
            #[cfg(feature = "fixed-dice")]
            Source::Fixed(_) => DiceKind::Fixed,
        }
    }

    /// Rolls one die with `sides` faces for `label`.
    pub fn roll(&mut self, label: &Label, sides: u32) -> u32 {
        self.roll_many(label, 1, sides)[0]
    }

    /// Rolls `count` dice with `sides` faces for `label`.
    pub fn roll_many(&mut self, label: &Label, count: usize, sides: u32) -> Vec<u32> {
        if count == 0 {
            // The log has no empty roll groups.
            return Vec::new();
        }
        let values: Vec<u32> = match &mut self.source {
            Source::Verifiable { key, streams } => {
                let stream = streams
                    .entry(label.clone())
                    .or_insert_with(|| LabelStream::new(key, label));
                (0..count).map(|_| stream.roll(sides)).collect()
            }
            #[cfg(feature = "fixed-dice")]
            Source::Fixed(script) => (0..count).map(|_| script.next(label, sides)).collect(),
        };
        match self.rolls.last_mut() {
            Some(g) if g.label == *label && g.sides == sides => g.values.extend(&values),
            _ => self.rolls.push(RollGroup {
                label: label.clone(),
                sides,
                values: values.clone(),
            }),
        }
        values
    }

    /// Every die drawn so far, grouped as the log records them.
    pub fn rolls(&self) -> &[RollGroup] {
        &self.rolls
    }

    /// Hands over the dice drawn since the last call, for the log. The
    /// streams go on where they were: a label's next die continues its
    /// stream, as the verifier expects across `dice` entries of a turn.
    pub fn take_rolls(&mut self) -> Vec<RollGroup> {
        std::mem::take(&mut self.rolls)
    }
}

/// A script of die values for rules tests: per label, then a common queue.
#[cfg(feature = "fixed-dice")]
#[derive(Clone, Debug, Default)]
pub struct FixedDice {
    by_label: HashMap<Label, std::collections::VecDeque<u32>>,
    rest: std::collections::VecDeque<u32>,
}

#[cfg(feature = "fixed-dice")]
impl FixedDice {
    /// Dice drawn in order from `values`, whatever their label.
    pub fn sequence(values: impl IntoIterator<Item = u32>) -> Self {
        FixedDice {
            by_label: HashMap::new(),
            rest: values.into_iter().collect(),
        }
    }

    /// Dice for one label, used before the common queue.
    pub fn with_label(mut self, label: Label, values: impl IntoIterator<Item = u32>) -> Self {
        self.by_label.entry(label).or_default().extend(values);
        self
    }

    fn next(&mut self, label: &Label, sides: u32) -> u32 {
        let v = self
            .by_label
            .get_mut(label)
            .and_then(|q| q.pop_front())
            .or_else(|| self.rest.pop_front())
            .unwrap_or_else(|| panic!("fixed dice exhausted at label {label}"));
        assert!(
            (1..=sides).contains(&v),
            "fixed die {v} for {label} is not a d{sides}"
        );
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Digest32;

    #[test]
    fn records_groups_per_label_and_sides() {
        let mut d = Dice::verifiable(TurnKey(Digest32([3; 32])));
        let a = Label::new("a").unwrap();
        let b = Label::new("b").unwrap();
        d.roll_many(&a, 3, 6);
        d.roll(&b, 6);
        d.roll(&a, 6);
        d.roll(&a, 12);
        let g: Vec<(&str, u32, usize)> = d
            .rolls()
            .iter()
            .map(|g| (g.label.as_str(), g.sides, g.values.len()))
            .collect();
        assert_eq!(g, [("a", 6, 3), ("b", 6, 1), ("a", 6, 1), ("a", 12, 1)]);
        assert_eq!(d.kind(), DiceKind::Verifiable);
    }

    #[test]
    fn no_dice_make_no_roll_group() {
        let mut d = Dice::verifiable(TurnKey(Digest32([3; 32])));
        let a = Label::new("a").unwrap();
        assert!(d.roll_many(&a, 0, 6).is_empty());
        // The chain refuses an empty group, so none may reach the log.
        assert!(d.take_rolls().is_empty());
        // Nor may a zero-dice call end the group it follows.
        d.roll(&a, 6);
        d.roll_many(&a, 0, 6);
        d.roll(&a, 6);
        let sizes: Vec<usize> = d.rolls().iter().map(|g| g.values.len()).collect();
        assert_eq!(sizes, [2]);
    }

    #[cfg(feature = "fixed-dice")]
    #[test]
    fn fixed_dice_follow_their_script_label_first() {
        let a = Label::new("a").unwrap();
        let script = FixedDice::sequence([1, 2]).with_label(a.clone(), [6]);
        let mut d = Dice::fixed(script);
        assert_eq!(d.kind(), DiceKind::Fixed);
        assert_eq!(d.roll_many(&a, 3, 6), [6, 1, 2]);
    }

    #[cfg(feature = "fixed-dice")]
    #[test]
    #[should_panic(expected = "fixed die 7 for a is not a d6")]
    fn a_scripted_die_must_fit_the_die() {
        let mut d = Dice::fixed(FixedDice::sequence([7]));
        d.roll(&Label::new("a").unwrap(), 6);
    }

    #[cfg(feature = "fixed-dice")]
    #[test]
    #[should_panic(expected = "fixed die 0 for a is not a d6")]
    fn a_scripted_die_is_never_zero() {
        let mut d = Dice::fixed(FixedDice::sequence([0]));
        d.roll(&Label::new("a").unwrap(), 6);
    }

    #[test]
    fn a_label_continues_its_stream_across_interleaving() {
        let key = TurnKey(Digest32([5; 32]));
        let a = Label::new("a").unwrap();
        let b = Label::new("b").unwrap();
        let mut straight = Dice::verifiable(key);
        let only_a = straight.roll_many(&a, 10, 6);
        let mut mixed = Dice::verifiable(key);
        let mut a_vals = Vec::new();
        for _ in 0..10 {
            a_vals.push(mixed.roll(&a, 6));
            mixed.roll(&b, 6);
        }
        assert_eq!(
            only_a, a_vals,
            "resolution order must not change a label's dice"
        );
    }
}
