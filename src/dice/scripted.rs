//! [`ScriptedDice`]: the dice of scenarios and rules tests.

use std::collections::{HashMap, VecDeque};

use super::{DiceSource, Label};

/// Scripted die values for a scenario or a rules test: per label first,
/// then a common queue.
///
/// Available in every build, so `adjutant scenario` runs the whole corpus
/// with the released binary. It is its own type, not a kind of [`Dice`]:
/// the rules engine takes any [`DiceSource`], but a match and its log take
/// only [`Dice`], so scripted values can never reach a real match. This
/// does not compile:
///
/// ```compile_fail
/// use adjutant::dice::{Dice, ScriptedDice};
/// let mut scripted = ScriptedDice::sequence([6, 6]);
/// let as_match_dice: &mut Dice = &mut scripted;
/// ```
///
/// nor does handing it to the log:
///
/// ```compile_fail
/// # fn f(log: &mut adjutant::log::MatchLog) {
/// use adjutant::dice::ScriptedDice;
/// use adjutant::matches::DiceTurn;
/// let mut scripted = ScriptedDice::sequence([6, 6]);
/// DiceTurn::record_dice(log, 1, &mut scripted).unwrap();
/// # }
/// ```
///
/// while the verifiable dice of a turn are logged that way:
///
/// ```
/// # fn f(log: &mut adjutant::log::MatchLog, key: adjutant::dice::TurnKey) {
/// use adjutant::dice::Dice;
/// use adjutant::matches::DiceTurn;
/// let mut dice = Dice::verifiable(key);
/// DiceTurn::record_dice(log, 1, &mut dice).unwrap();
/// # }
/// ```
///
/// [`Dice`]: super::Dice
#[derive(Clone, Debug, Default)]
pub struct ScriptedDice {
    by_label: HashMap<Label, VecDeque<u32>>,
    rest: VecDeque<u32>,
    drawn: u64,
}

impl ScriptedDice {
    /// Dice drawn in order from `values`, whatever their label.
    pub fn sequence(values: impl IntoIterator<Item = u32>) -> Self {
        ScriptedDice {
            rest: values.into_iter().collect(),
            ..ScriptedDice::default()
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
            .unwrap_or_else(|| panic!("scripted dice exhausted at label {label}"));
        assert!(
            (1..=sides).contains(&v),
            "scripted die {v} for {label} is not a d{sides}"
        );
        v
    }
}

impl DiceSource for ScriptedDice {
    fn roll_many(&mut self, label: &Label, count: usize, sides: u32) -> Vec<u32> {
        self.drawn += count as u64;
        (0..count).map(|_| self.next(label, sides)).collect()
    }

    fn drawn(&self) -> u64 {
        self.drawn
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripted_dice_follow_their_script_label_first() {
        let a = Label::new("a").unwrap();
        let mut d = ScriptedDice::sequence([1, 2]).with_label(a.clone(), [6]);
        assert_eq!(d.roll_many(&a, 3, 6), [6, 1, 2]);
        assert_eq!(d.drawn(), 3);
    }

    #[test]
    #[should_panic(expected = "scripted die 7 for a is not a d6")]
    fn a_scripted_die_must_fit_the_die() {
        ScriptedDice::sequence([7]).roll_many(&Label::new("a").unwrap(), 1, 6);
    }

    #[test]
    #[should_panic(expected = "scripted die 0 for a is not a d6")]
    fn a_scripted_die_is_never_zero() {
        ScriptedDice::sequence([0]).roll_many(&Label::new("a").unwrap(), 1, 6);
    }
}
