//! Firing groups and their dice: one label per group, with dice or Low Luck.
//!
//! A firing group is the units of one side that fire together with the same
//! strength and the same restriction on what they may hit (one unit type,
//! "supported infantry", "first-strike submarine", ...). Every die goes
//! through [`Dice::roll_many`] under the group's label, so a group's dice
//! depend only on the turn key and its label.

use super::casualties::{HitClass, Hits};
use super::label;
use crate::dice::DiceSource;
use crate::rules::SpaceId;
use crate::rules::events::Event;

/// Units firing together.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Group {
    /// The group in the game's words, also its last label segment(s)
    /// (`first-strike/submarine` has two).
    pub name: String,
    /// A die hits at or below this.
    pub strength: u8,
    /// How many dice (units) fire.
    pub count: u32,
    /// What its hits may land on.
    pub class: HitClass,
    /// Sorting key so that groups fire in a fixed order.
    pub order: (usize, u8),
    /// Dice each unit rolls, the best one counting (Heavy Bombers: 2); 1
    /// for everything else. Without effect under Low Luck.
    pub dice_each: u8,
}

/// Adds one unit to `groups` (same name, strength and class = same group).
pub(crate) fn join(
    groups: &mut Vec<Group>,
    name: String,
    strength: u8,
    class: HitClass,
    order: usize,
) {
    if strength == 0 {
        return;
    }
    match groups
        .iter_mut()
        .find(|g| g.name == name && g.strength == strength && g.class == class)
    {
        Some(g) => g.count += 1,
        None => groups.push(Group {
            name,
            strength,
            count: 1,
            class,
            order: (order, strength),
            dice_each: 1,
        }),
    }
}

/// Fires every group under `prefix` (label segments before the group's
/// name), logs each, and returns the hits by class.
pub(crate) fn volley(
    dice: &mut dyn DiceSource,
    low_luck: bool,
    space: SpaceId,
    prefix: &[String],
    side: &str,
    mut groups: Vec<Group>,
    events: &mut Vec<Event>,
) -> Hits {
    groups.sort_by(|a, b| a.order.cmp(&b.order).then(a.name.cmp(&b.name)));
    let mut hits = Hits::default();
    for g in groups {
        let mut segments: Vec<String> = prefix.to_vec();
        segments.extend(g.name.split('/').map(str::to_owned));
        let l = label(&segments);
        let (sure, threshold, count) = if low_luck {
            // Low Luck: one hit per 6 points of the group's total strength,
            // one die for what is left over (hits at or below it).
            let total = g.count * u32::from(g.strength.min(6));
            let rest = (total % 6) as u8;
            (total / 6, rest, usize::from(rest > 0))
        } else {
            (0, g.strength, g.count as usize)
        };
        // Each unit's dice are consecutive; its best (lowest) die counts.
        let each = if low_luck {
            1
        } else {
            usize::from(g.dice_each.max(1))
        };
        let values = dice.roll_many(&l, count * each, 6);
        let rolled = values
            .chunks(each)
            .filter(|c| c.iter().any(|v| *v <= u32::from(threshold)))
            .count() as u32;
        hits.add(g.class, sure + rolled);
        events.push(Event::Fire {
            space,
            label: l.as_str().to_owned(),
            side: side.to_owned(),
            group: g.name.replace('/', " "),
            hits_at: threshold,
            dice: values,
            sure_hits: sure,
            hits: sure + rolled,
        });
    }
    hits
}
