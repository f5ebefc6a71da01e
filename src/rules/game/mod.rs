//! A validated game definition and its lookups; how the files are checked
//! against each other and the rule set is [`validate`].

use std::collections::HashMap;
use std::sync::OnceLock;

use super::model::{
    BoardFile, DevelopmentValues, GameFile, OptionValue, Power, Research, SeaZone, SetupFile,
    Territory, UnitType, UnitsFile,
};
use super::names::NameKey;
use super::orders::grammar::UnitSpellings;
use super::problem::Problems;
use super::vocab::Technology;
mod validate;

use validate::Validator;

use super::variants::{self, CombatRules, RuleSetHooks};

pub use crate::rules::vocab::SpaceId;

/// The four files of a game, parsed but not yet checked against each other.
#[derive(Debug, Clone, PartialEq)]
pub struct GameFiles {
    /// `game.yaml`.
    pub game: GameFile,
    /// `board.yaml`.
    pub board: BoardFile,
    /// `units.yaml`.
    pub units: UnitsFile,
    /// `setup.yaml`.
    pub setup: SetupFile,
}

/// A game definition whose every cross-reference has been checked. Build it
/// with [`GameDef::new`] (from memory) or [`crate::rules::load_dir`].
#[derive(Clone)]
pub struct GameDef {
    files: GameFiles,
    rule_set: &'static dyn RuleSetHooks,
    spaces: HashMap<NameKey, SpaceId>,
    powers: HashMap<NameKey, usize>,
    units: HashMap<NameKey, usize>,
    neighbours: Vec<Vec<SpaceId>>,
    start_owner: Vec<Option<usize>>,
    side_of: Vec<usize>,
    /// `research.effects` resolved to developments (read in every battle).
    development_values: Vec<(Technology, DevelopmentValues)>,
    /// The rule set's combat rules for this game's options, asked once when
    /// the game is built (read at every choice of casualties).
    combat_rules: Option<CombatRules>,
    /// The unit spellings the order grammar accepts (names, aliases,
    /// plurals), built at the first message parsed and kept: a replay parses
    /// every logged message (docs/performance.md).
    unit_spellings: OnceLock<UnitSpellings>,
}

impl std::fmt::Debug for GameDef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameDef")
            .field("id", &self.files.game.id)
            .field("rule_set", &self.rule_set.id())
            .finish_non_exhaustive()
    }
}

impl GameDef {
    /// Checks the files against each other and against the rule set, and
    /// returns every problem found, or the validated game.
    pub fn new(files: GameFiles) -> Result<GameDef, Problems> {
        Self::build_with(files, None)
    }

    /// [`GameDef::new`] with the rule set handed in rather than looked up
    /// by `game.yaml`'s `rule_set:` word, which must name it or one of the
    /// rule sets it builds on (a rule set derived from AAE plays AAE's
    /// games).
    pub fn with_rule_set(
        files: GameFiles,
        rule_set: &'static dyn RuleSetHooks,
    ) -> Result<GameDef, Problems> {
        Self::build_with(files, Some(rule_set))
    }

    /// This game with other rule options (a match setting, a scenario's
    /// `options:`), checked again under the same rule set.
    pub fn with_options(
        &self,
        set: &crate::rules::entries::Entries<OptionValue>,
    ) -> Result<GameDef, Problems> {
        let mut files = self.files.clone();
        for (name, value) in set.iter() {
            files.game.options.0.retain(|(k, _)| k != name);
            files.game.options.0.push((name.to_owned(), value.clone()));
        }
        Self::build_with(files, Some(self.rule_set))
    }

    fn build_with(
        files: GameFiles,
        rule_set: Option<&'static dyn RuleSetHooks>,
    ) -> Result<GameDef, Problems> {
        let mut v = Validator {
            rule_set,
            ..Validator::default()
        };
        v.index(&files);
        v.check_game(&files);
        v.check_board(&files);
        v.check_units(&files.units);
        v.check_setup(&files);
        v.check_research(&files);
        let Some(rule_set) = v.rule_set else {
            // Reported by check_game; no game can be built without one.
            return Err(Problems(v.problems));
        };
        if !v.problems.is_empty() {
            return Err(Problems(v.problems));
        }
        let mut game = v.build(files, rule_set);
        game.combat_rules = Some(rule_set.combat_rules(&game));
        let problems = rule_set.check(&game);
        if problems.is_empty() {
            Ok(game)
        } else {
            Err(Problems(problems))
        }
    }

    /// The unit spellings of the order grammar, indexed once per game.
    pub(crate) fn unit_spellings(&self) -> &UnitSpellings {
        self.unit_spellings
            .get_or_init(|| UnitSpellings::index(self))
    }

    /// The files the game was built from.
    pub fn files(&self) -> &GameFiles {
        &self.files
    }

    /// The game id (`aae`).
    pub fn id(&self) -> &str {
        &self.files.game.id
    }

    /// The rule set's hooks.
    pub fn rule_set(&self) -> &'static dyn RuleSetHooks {
        self.rule_set
    }

    /// All powers, in `game.yaml` order (their index is their id).
    pub fn powers(&self) -> &[Power] {
        &self.files.game.powers
    }

    /// The power called `name` (or one of its aliases), case-insensitively.
    pub fn power(&self, name: &str) -> Option<usize> {
        self.powers.get(&NameKey::new(name)).copied()
    }

    /// The index of the side (in `game.yaml` order) the power belongs to.
    pub fn side_of(&self, power: usize) -> usize {
        self.side_of[power]
    }

    /// Whether `power`'s units may enter `space`: false only outside the
    /// power's `confined_to` list, when it has one.
    pub fn may_enter(&self, power: usize, space: SpaceId) -> bool {
        let list = &self.files.game.powers[power].confined_to;
        list.is_empty() || list.iter().any(|s| self.space(s) == Some(space))
    }

    /// Whether two powers play in one turn (`shares_turn_with`, either way).
    pub fn share_turn(&self, a: usize, b: usize) -> bool {
        let with = |x: usize, y: usize| {
            self.files.game.powers[x]
                .shares_turn_with
                .as_deref()
                .is_some_and(|n| self.power(n) == Some(y))
        };
        with(a, b) || with(b, a)
    }

    /// The spaces of `game.yaml`'s region `name` (`regions:`), in file
    /// order; `None` when the game has no such region.
    pub fn region(&self, name: &str) -> Option<Vec<SpaceId>> {
        self.files
            .game
            .regions
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, spaces)| spaces.iter().filter_map(|s| self.space(s)).collect())
    }

    /// The powers in turn order.
    pub fn turn_order(&self) -> Vec<usize> {
        self.files
            .game
            .turn_order
            .iter()
            .filter_map(|p| self.power(p))
            .collect()
    }

    /// All unit types, in `units.yaml` order.
    pub fn unit_types(&self) -> &[UnitType] {
        &self.files.units.units
    }

    /// The unit type called `name` (or an alias), case-insensitively.
    pub fn unit_type(&self, name: &str) -> Option<&UnitType> {
        self.units
            .get(&NameKey::new(name))
            .map(|&i| &self.files.units.units[i])
    }

    /// Number of territories plus sea zones.
    pub fn space_count(&self) -> usize {
        self.neighbours.len()
    }

    /// The space called `name` (or an alias), case-insensitively.
    pub fn space(&self, name: &str) -> Option<SpaceId> {
        self.spaces.get(&NameKey::new(name)).copied()
    }

    /// The land territory behind `id`, if it is one.
    pub fn territory(&self, id: SpaceId) -> Option<&Territory> {
        self.files.board.territories.get(id.0)
    }

    /// The sea zone behind `id`, if it is one.
    pub fn sea_zone(&self, id: SpaceId) -> Option<&SeaZone> {
        id.0.checked_sub(self.files.board.territories.len())
            .and_then(|i| self.files.board.sea_zones.get(i))
    }

    /// The board name of a space.
    pub fn space_name(&self, id: SpaceId) -> &str {
        match self.territory(id) {
            Some(t) => &t.name,
            None => &self.sea_zone(id).expect("SpaceId from this game").name,
        }
    }

    /// True for sea zones.
    pub fn is_sea(&self, id: SpaceId) -> bool {
        id.0 >= self.files.board.territories.len()
    }

    /// The spaces adjacent to `id`.
    pub fn neighbours(&self, id: SpaceId) -> &[SpaceId] {
        &self.neighbours[id.0]
    }

    /// True when `a` and `b` share a border.
    pub fn adjacent(&self, a: SpaceId, b: SpaceId) -> bool {
        self.neighbours[a.0].contains(&b)
    }

    /// Who controls the space at the start: the setup's `owners` entry, else
    /// the territory's original owner or the convoy's power; `None` for
    /// neutrals and ordinary sea zones.
    pub fn starting_owner(&self, id: SpaceId) -> Option<usize> {
        self.start_owner[id.0]
    }

    /// IPCs in the power's treasury at the start.
    pub fn starting_ipcs(&self, power: usize) -> u32 {
        let name = &self.files.game.powers[power].name;
        self.files
            .setup
            .ipcs
            .iter()
            .find(|(p, _)| self.power(p) == Some(power) || NameKey::new(p) == NameKey::new(name))
            .map_or(0, |(_, &v)| v)
    }

    /// The power's income from the starting position: the IPC values of the
    /// land it controls plus the convoys it controls whose required land it
    /// also controls. Zero for a power that does not collect income.
    pub fn starting_income(&self, power: usize) -> u32 {
        self.income_breakdown(power).0 + self.income_breakdown(power).1
    }

    /// The power's starting income split into (land, convoys).
    pub fn income_breakdown(&self, power: usize) -> (u32, u32) {
        if !self.files.game.powers[power].collects_income {
            return (0, 0);
        }
        let owns =
            |name: &str| self.space(name).and_then(|id| self.starting_owner(id)) == Some(power);
        let land = self
            .files
            .board
            .territories
            .iter()
            .filter(|t| owns(&t.name))
            .map(|t| t.ipc.unwrap_or(0))
            .sum();
        let convoys = self
            .files
            .board
            .sea_zones
            .iter()
            .filter_map(|z| z.convoy.as_ref().map(|c| (z, c)))
            .filter(|(z, c)| {
                self.power(&c.power) == Some(power)
                    && owns(&z.name)
                    && c.requires.iter().all(|r| owns(r))
            })
            .map(|(_, c)| c.value)
            .sum();
        (land, convoys)
    }

    /// The value of a rule option: `game.yaml`'s, else the rule set's default.
    /// `None` when the rule set has no such option.
    pub fn option(&self, name: &str) -> Option<OptionValue> {
        let spec = variants::find_option(self.rule_set, name)?;
        let set = self.files.game.options.iter().find(|(k, _)| *k == name);
        Some(set.map_or_else(|| spec.default_value(), |(_, v)| v.clone()))
    }

    /// The research rules when this game plays them: `research:` in
    /// `game.yaml` and the rule option `research` on.
    pub fn research(&self) -> Option<&Research> {
        let on = crate::rules::options::RESEARCH.on(self);
        self.files.game.research.as_ref().filter(|_| on)
    }

    /// The unit values each development changes: `research.effects`, or
    /// the values built in before they were data
    /// ([`crate::rules::research::BUILT_IN_VALUES`]) for a game file without
    /// them. Empty in a game without research.
    pub fn development_values(&self) -> &[(Technology, DevelopmentValues)] {
        &self.development_values
    }

    /// The rule set's combat rules with this game's options
    /// ([`RuleSetHooks::combat_rules`]), asked once when the game was built.
    pub fn combat_rules(&self) -> CombatRules {
        self.combat_rules
            .unwrap_or_else(|| self.rule_set.combat_rules(self))
    }

    /// Units on the board at the start: (space, power, unit type, count).
    pub fn starting_units(&self) -> impl Iterator<Item = (SpaceId, usize, &UnitType, u32)> + '_ {
        self.files
            .setup
            .units
            .iter()
            .flat_map(move |(space, by_power)| {
                let space = self.space(space).expect("validated");
                by_power.iter().flat_map(move |(power, units)| {
                    let power = self.power(power).expect("validated");
                    units.iter().map(move |(unit, &count)| {
                        (
                            space,
                            power,
                            self.unit_type(unit).expect("validated"),
                            count,
                        )
                    })
                })
            })
    }
}
