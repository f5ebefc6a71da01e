//! [`DiceSource`]: the only way the rules engine obtains randomness, and
//! [`Dice`], the verifiable source of a match.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Label, LabelStream, TurnKey};

/// Which kind of dice a match log says it uses; the genesis entry records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceKind {
    /// Commit-reveal dice that anyone holding the log can re-derive. The only
    /// kind a match is created with or opened with.
    Verifiable,
    /// Scripted test dice. They prove nothing: `verify` refuses such a log
    /// unless told otherwise, and [`crate::matches::Match`] never opens one.
    /// Nothing in Adjutant writes this kind any more; the log format keeps
    /// the value so that such a log is named, not misread.
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

/// Where the rules engine gets its dice: the verifiable [`Dice`] of a match,
/// or the [`ScriptedDice`](super::ScriptedDice) of a scenario or rules test.
///
/// The engine is pure and takes either; a match and its log take only
/// [`Dice`], which has no scripted source, so scripted values cannot reach
/// a real match by construction.
pub trait DiceSource {
    /// Rolls `count` dice with `sides` faces for `label`.
    fn roll_many(&mut self, label: &Label, count: usize, sides: u32) -> Vec<u32>;

    /// Rolls one die with `sides` faces for `label`.
    fn roll(&mut self, label: &Label, sides: u32) -> u32 {
        self.roll_many(label, 1, sides)[0]
    }

    /// How many dice have been drawn so far.
    fn drawn(&self) -> u64;
}

/// The verifiable dice of one adjudication, keyed by a revealed turn.
///
/// Its only constructor takes a [`TurnKey`]: there is no scripted kind, so
/// every die it gives (and hands to the log through [`Dice::take_rolls`]) is
/// one that anyone holding the log can re-derive.
pub struct Dice {
    key: TurnKey,
    streams: HashMap<Label, LabelStream>,
    rolls: Vec<RollGroup>,
    drawn: u64,
}

impl Dice {
    /// The dice of a turn whose key is known (its secret revealed).
    pub fn verifiable(key: TurnKey) -> Self {
        Dice {
            key,
            streams: HashMap::new(),
            rolls: Vec::new(),
            drawn: 0,
        }
    }

    /// Rolls one die with `sides` faces for `label`.
    pub fn roll(&mut self, label: &Label, sides: u32) -> u32 {
        DiceSource::roll(self, label, sides)
    }

    /// Rolls `count` dice with `sides` faces for `label`.
    pub fn roll_many(&mut self, label: &Label, count: usize, sides: u32) -> Vec<u32> {
        DiceSource::roll_many(self, label, count, sides)
    }

    /// Every die drawn since the last [`Dice::take_rolls`], grouped as the
    /// log records them.
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

impl DiceSource for Dice {
    fn roll_many(&mut self, label: &Label, count: usize, sides: u32) -> Vec<u32> {
        if count == 0 {
            // The log has no empty roll groups.
            return Vec::new();
        }
        let key = &self.key;
        let stream = self
            .streams
            .entry(label.clone())
            .or_insert_with(|| LabelStream::new(key, label));
        let values: Vec<u32> = (0..count).map(|_| stream.roll(sides)).collect();
        self.drawn += count as u64;
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

    fn drawn(&self) -> u64 {
        self.drawn
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
        assert_eq!(d.drawn(), 6);
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
