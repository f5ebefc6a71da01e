//! The small grammars inside YAML strings: unit lists (`3 infantry, 1
//! armor`), paths (`Poland -> Ukraine S.S.R. -> Rumania`) and names, resolved
//! against the game with a "did you mean" for every typo.

use std::collections::HashMap;

use super::{UnitCount, UnitList, UnitTypeId};
use crate::rules::names::{NameKey, did_you_mean};
use crate::rules::{GameDef, SpaceId};

/// The arrows accepted between the spaces of a path: `->`, and the arrow
/// that phone keyboards substitute for it.
pub const ARROWS: &[&str] = &["->", "\u{2192}"];

/// Name lookups for one game: unit types by name, alias or plural, spaces
/// and powers through the game's own indexes.
pub struct Names<'g> {
    game: &'g GameDef,
    units: &'g HashMap<NameKey, UnitTypeId>,
    /// The plurals accepted as unit spellings (after the names and aliases),
    /// for suggestions.
    plurals: &'g [String],
}

/// Every spelling of a unit type that orders may use (name, alias, plural),
/// indexed once per game ([`GameDef`] keeps it).
#[derive(Debug, Clone)]
pub struct UnitSpellings {
    units: HashMap<NameKey, UnitTypeId>,
    plurals: Vec<String>,
}

impl UnitSpellings {
    /// Indexes the game's unit spellings. Names and aliases win over
    /// plurals, so a plural never hides another unit's real name.
    pub(crate) fn index(game: &GameDef) -> Self {
        let mut units = HashMap::new();
        let mut plurals = Vec::new();
        for (i, name) in unit_names(game) {
            units.entry(NameKey::new(name)).or_insert(i);
        }
        for (i, name) in unit_names(game) {
            let p = plural(name);
            if let std::collections::hash_map::Entry::Vacant(slot) = units.entry(NameKey::new(&p)) {
                slot.insert(i);
                plurals.push(p);
            }
        }
        UnitSpellings { units, plurals }
    }
}

/// Simple English plurals of a name: the last word takes `s`, or `es` after
/// s, x, z, ch and sh, or `ies` for a consonant and y (`AA guns`, `industrial
/// complexes`, `infantries`).
pub fn plural(name: &str) -> String {
    let lower = name.to_lowercase();
    let consonant_y = lower.ends_with('y')
        && !lower
            .chars()
            .rev()
            .nth(1)
            .is_some_and(|c| "aeiou".contains(c));
    if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| lower.ends_with(e))
    {
        format!("{name}es")
    } else if consonant_y {
        format!("{}ies", &name[..name.len() - 1])
    } else {
        format!("{name}s")
    }
}

/// Every unit type's name and aliases, in the game's order, with its type.
fn unit_names(game: &GameDef) -> impl Iterator<Item = (UnitTypeId, &String)> {
    game.unit_types().iter().enumerate().flat_map(|(i, u)| {
        std::iter::once(&u.name)
            .chain(&u.aliases)
            .map(move |n| (i, n))
    })
}

/// Every space's name and aliases: territories, then sea zones.
fn space_spellings(game: &GameDef) -> impl Iterator<Item = &str> {
    let board = &game.files().board;
    board
        .territories
        .iter()
        .flat_map(|t| std::iter::once(&t.name).chain(&t.aliases))
        .chain(
            board
                .sea_zones
                .iter()
                .flat_map(|z| std::iter::once(&z.name).chain(&z.aliases)),
        )
        .map(String::as_str)
}

impl<'g> Names<'g> {
    /// The game's names: its unit spellings, indexed at the first call for
    /// the game and kept with it ([`UnitSpellings`]). The spellings of
    /// spaces are gathered only for a suggestion: a replay parses every
    /// logged message (docs/performance.md).
    pub fn new(game: &'g GameDef) -> Self {
        let spellings = game.unit_spellings();
        Names {
            game,
            units: &spellings.units,
            plurals: &spellings.plurals,
        }
    }

    /// The game.
    pub fn game(&self) -> &'g GameDef {
        self.game
    }

    /// The unit type called `name` (singular, plural or alias).
    pub fn unit(&self, name: &str) -> Result<UnitTypeId, String> {
        if let Some(&u) = self.units.get(&NameKey::new(name)) {
            return Ok(u);
        }
        let mut reason = format!("\"{name}\" is not a unit type in this game.");
        let suggestion = did_you_mean(
            name,
            unit_names(self.game)
                .map(|(_, n)| n.as_str())
                .chain(self.plurals.iter().map(String::as_str)),
        )
        .and_then(|s| self.units.get(&NameKey::new(s)));
        match suggestion {
            Some(&u) => reason.push_str(&format!(
                " Did you mean {}?",
                self.game.unit_types()[u].name
            )),
            None => {
                let all: Vec<&str> = self
                    .game
                    .unit_types()
                    .iter()
                    .map(|u| u.name.as_str())
                    .collect();
                reason.push_str(&format!(" The unit types are: {}.", all.join(", ")));
            }
        }
        Err(reason)
    }

    /// The territory or sea zone called `name` (or an alias).
    pub fn space(&self, name: &str) -> Result<SpaceId, String> {
        if name.trim().is_empty() {
            return Err("a territory or sea zone name is missing".to_owned());
        }
        if let Some(id) = self.game.space(name) {
            return Ok(id);
        }
        let mut reason = format!(
            "\"{}\" is not a territory or sea zone on this board.",
            name.trim()
        );
        if let Some(id) =
            did_you_mean(name, space_spellings(self.game)).and_then(|s| self.game.space(s))
        {
            reason.push_str(&format!(" Did you mean {}?", self.game.space_name(id)));
        }
        Err(reason)
    }

    /// The power called `name` (or an alias).
    pub fn power(&self, name: &str) -> Result<usize, String> {
        if let Some(p) = self.game.power(name) {
            return Ok(p);
        }
        let powers = self.game.powers();
        let spellings = powers
            .iter()
            .flat_map(|p| std::iter::once(&p.name).chain(&p.aliases))
            .map(String::as_str);
        let mut reason = format!("\"{name}\" is not a power in this game.");
        match did_you_mean(name, spellings).and_then(|s| self.game.power(s)) {
            Some(p) => reason.push_str(&format!(" Did you mean {}?", powers[p].name)),
            None => {
                let all: Vec<&str> = powers.iter().map(|p| p.name.as_str()).collect();
                reason.push_str(&format!(" The powers are: {}.", all.join(", ")));
            }
        }
        Err(reason)
    }

    /// A unit list: `3 infantry, 1 artillery, 2 armor`; a bare name counts 1.
    /// A type written twice is an error (naming the total to write), so that
    /// a slip such as `2 infantry, 3 inf` is caught rather than guessed at.
    pub fn unit_list(&self, text: &str) -> Result<UnitList, Vec<String>> {
        let mut list: UnitList = Vec::new();
        let mut errors = Vec::new();
        let items: Vec<&str> = text.split(',').collect();
        for (i, item) in items.iter().enumerate() {
            let item = item.trim();
            if item.is_empty() {
                // A trailing comma is harmless; an empty entry inside is a slip.
                if i + 1 < items.len() || items.len() == 1 {
                    errors.push(
                        "an entry of the unit list is empty (two commas in a row?)".to_owned(),
                    );
                }
                continue;
            }
            match self.unit_count(item) {
                Ok(uc) => match list.iter_mut().find(|c| c.unit == uc.unit) {
                    Some(previous) => {
                        let name = &self.game.unit_types()[uc.unit].name;
                        errors.push(format!(
                            "{name} is listed twice; write the total once ({} {name})",
                            u64::from(previous.count) + u64::from(uc.count)
                        ));
                    }
                    None => list.push(uc),
                },
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(list)
        } else {
            Err(errors)
        }
    }

    /// One `3 infantry` entry.
    fn unit_count(&self, item: &str) -> Result<UnitCount, String> {
        let (first, rest) = item
            .split_once(char::is_whitespace)
            .map_or((item, ""), |(a, b)| (a, b.trim()));
        let numeric = first.trim_start_matches(['-', '+']);
        if !numeric.is_empty() && numeric.chars().all(|c| c.is_ascii_digit()) {
            if rest.is_empty() {
                return Err(format!("\"{item}\" gives a count but no unit type"));
            }
            let count: u32 = match first.parse::<i64>() {
                Ok(n) if n >= 1 => {
                    u32::try_from(n).map_err(|_| format!("{n} is far too many units"))?
                }
                Ok(_) => {
                    return Err(format!(
                        "\"{item}\": a count must be at least 1; leave the unit out instead"
                    ));
                }
                Err(_) => return Err(format!("{first} is far too many units")),
            };
            let unit = self.unit(rest)?;
            Ok(UnitCount { unit, count })
        } else {
            Ok(UnitCount {
                unit: self.unit(item)?,
                count: 1,
            })
        }
    }

    /// A list of unit types without counts (order of loss): `infantry,
    /// artillery, armor`. A type written twice is an error.
    pub fn type_list(&self, text: &str) -> Result<Vec<UnitTypeId>, Vec<String>> {
        let mut list = Vec::new();
        let mut errors = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            match self.unit(item) {
                Ok(u) if list.contains(&u) => errors.push(format!(
                    "{} is listed twice",
                    self.game.unit_types()[u].name
                )),
                Ok(u) => list.push(u),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(list)
        } else {
            Err(errors)
        }
    }

    /// A path: `Poland -> Ukraine S.S.R. -> Rumania` (or a single space).
    pub fn path(&self, text: &str) -> Result<Vec<SpaceId>, Vec<String>> {
        let mut normalised = text.to_owned();
        for arrow in &ARROWS[1..] {
            normalised = normalised.replace(arrow, ARROWS[0]);
        }
        let mut path = Vec::new();
        let mut errors = Vec::new();
        for part in normalised.split(ARROWS[0]).map(str::trim) {
            if part.is_empty() {
                errors.push(format!(
                    "the path \"{}\" has an empty step; write it as FROM -> TO, with a name \
                     on each side of every ->",
                    text.trim()
                ));
                continue;
            }
            match self.space(part) {
                Ok(id) => path.push(id),
                Err(e) => errors.push(e),
            }
        }
        if errors.is_empty() {
            Ok(path)
        } else {
            Err(errors)
        }
    }

    /// The canonical spelling of a unit list.
    pub fn show_units(&self, list: &[UnitCount]) -> String {
        let types = self.game.unit_types();
        list.iter()
            .map(|uc| format!("{} {}", uc.count, types[uc.unit].name))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The canonical spelling of a list of unit types.
    pub fn show_types(&self, list: &[UnitTypeId]) -> String {
        let types = self.game.unit_types();
        list.iter()
            .map(|&u| types[u].name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The canonical spelling of a path.
    pub fn show_path(&self, path: &[SpaceId]) -> String {
        path.iter()
            .map(|&s| self.game.space_name(s))
            .collect::<Vec<_>>()
            .join(" -> ")
    }
}

#[cfg(test)]
mod tests {
    use super::plural;

    #[test]
    fn plurals_follow_english_spelling() {
        assert_eq!(plural("fighter"), "fighters");
        assert_eq!(plural("AA gun"), "AA guns");
        assert_eq!(plural("industrial complex"), "industrial complexes");
        assert_eq!(plural("battleship"), "battleships");
        assert_eq!(plural("infantry"), "infantries");
        assert_eq!(plural("day"), "days");
    }
}
