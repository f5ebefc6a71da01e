//! Validation of a game's four files against each other and against the
//! rule set: every name resolves, boards are symmetric, setups and research
//! data are consistent; then the checks that only hold under the rule set.

use std::collections::{HashMap, HashSet};

use super::{GameDef, GameFiles, SpaceId};
use crate::rules::model::{Ability, UnitKind, UnitsFile};
use crate::rules::names::{NameKey, did_you_mean};
use crate::rules::problem::{Problem, files};
use crate::rules::variants::{self, RuleSetHooks};
use crate::rules::vocab::Technology;
/// Collects problems while resolving names.
#[derive(Default)]
pub(super) struct Validator {
    pub(super) problems: Vec<Problem>,
    pub(super) rule_set: Option<&'static dyn RuleSetHooks>,
    pub(super) spaces: HashMap<NameKey, SpaceId>,
    pub(super) space_names: Vec<String>,
    pub(super) powers: HashMap<NameKey, usize>,
    pub(super) power_names: Vec<String>,
    pub(super) units: HashMap<NameKey, usize>,
    pub(super) unit_names: Vec<String>,
}

/// Registers `name` under `id`, reporting a clash with an earlier name.
fn register<T: Copy>(
    map: &mut HashMap<NameKey, T>,
    shown: &[String],
    show: impl Fn(T) -> usize,
    name: &str,
    id: T,
    what: &str,
) -> Result<(), String> {
    let key = NameKey::new(name);
    if key.as_str().is_empty() {
        return Err(format!("{what} name is empty"));
    }
    match map.get(&key) {
        Some(&other) => Err(format!(
            "\"{name}\" is already the name or alias of {what} \"{}\" (names are matched \
             without regard to case)",
            shown[show(other)]
        )),
        None => {
            map.insert(key, id);
            Ok(())
        }
    }
}

impl Validator {
    pub(super) fn problem(
        &mut self,
        file: &str,
        path: impl Into<String>,
        reason: impl Into<String>,
    ) {
        self.problems.push(Problem::at(file, path, reason));
    }

    pub(super) fn unknown(what: &str, name: &str, known: &[String]) -> String {
        let mut reason = format!("there is no {what} called \"{name}\"");
        if let Some(s) = did_you_mean(name, known.iter().map(String::as_str)) {
            reason.push_str(&format!("; did you mean \"{s}\"?"));
        }
        reason
    }

    pub(super) fn find_space(&mut self, file: &str, path: String, name: &str) -> Option<SpaceId> {
        let found = self.spaces.get(&NameKey::new(name)).copied();
        if found.is_none() {
            let reason = Self::unknown("territory or sea zone", name, &self.space_names);
            self.problem(file, path, reason);
        }
        found
    }

    pub(super) fn find_power(&mut self, file: &str, path: String, name: &str) -> Option<usize> {
        let found = self.powers.get(&NameKey::new(name)).copied();
        if found.is_none() {
            let reason = Self::unknown("power", name, &self.power_names);
            self.problem(file, path, reason);
        }
        found
    }

    pub(super) fn find_unit(&mut self, file: &str, path: String, name: &str) -> Option<usize> {
        let found = self.units.get(&NameKey::new(name)).copied();
        if found.is_none() {
            let reason = Self::unknown("unit type", name, &self.unit_names);
            self.problem(file, path, reason);
        }
        found
    }

    pub(super) fn territory_count(files: &GameFiles) -> usize {
        files.board.territories.len()
    }

    /// Builds the name indexes, reporting duplicates (including names that
    /// differ only by case, and aliases that clash with names).
    pub(super) fn index(&mut self, files: &GameFiles) {
        let board = &files.board;
        let land = board
            .territories
            .iter()
            .map(|t| (t.name.as_str(), &t.aliases, "territories"));
        let sea = board
            .sea_zones
            .iter()
            .map(|z| (z.name.as_str(), &z.aliases, "sea_zones"));
        let all: Vec<_> = land.chain(sea).collect();
        let n_land = board.territories.len();
        self.space_names = all.iter().map(|(n, _, _)| (*n).to_owned()).collect();
        for (id, (name, _, list)) in all.iter().enumerate() {
            let i = if id < n_land { id } else { id - n_land };
            if let Err(e) = register(
                &mut self.spaces,
                &self.space_names,
                |s: SpaceId| s.0,
                name,
                SpaceId(id),
                "space",
            ) {
                self.problem(files::BOARD, format!("{list}[{i}].name"), e);
            }
        }
        for (id, (_, aliases, list)) in all.iter().enumerate() {
            let i = if id < n_land { id } else { id - n_land };
            for (a, alias) in aliases.iter().enumerate() {
                if let Err(e) = register(
                    &mut self.spaces,
                    &self.space_names,
                    |s: SpaceId| s.0,
                    alias,
                    SpaceId(id),
                    "space",
                ) {
                    self.problem(files::BOARD, format!("{list}[{i}].aliases[{a}]"), e);
                }
            }
        }

        let powers = &files.game.powers;
        self.power_names = powers.iter().map(|p| p.name.clone()).collect();
        for (i, p) in powers.iter().enumerate() {
            if let Err(e) = register(
                &mut self.powers,
                &self.power_names,
                |x| x,
                &p.name,
                i,
                "power",
            ) {
                self.problem(files::GAME, format!("powers[{i}].name"), e);
            }
        }
        for (i, p) in powers.iter().enumerate() {
            for (a, alias) in p.aliases.iter().enumerate() {
                if let Err(e) = register(
                    &mut self.powers,
                    &self.power_names,
                    |x| x,
                    alias,
                    i,
                    "power",
                ) {
                    self.problem(files::GAME, format!("powers[{i}].aliases[{a}]"), e);
                }
            }
        }

        let units = &files.units.units;
        self.unit_names = units.iter().map(|u| u.name.clone()).collect();
        for (i, u) in units.iter().enumerate() {
            if let Err(e) = register(
                &mut self.units,
                &self.unit_names,
                |x| x,
                &u.name,
                i,
                "unit type",
            ) {
                self.problem(files::UNITS, format!("units[{i}].name"), e);
            }
        }
        for (i, u) in units.iter().enumerate() {
            for (a, alias) in u.aliases.iter().enumerate() {
                if let Err(e) = register(
                    &mut self.units,
                    &self.unit_names,
                    |x| x,
                    alias,
                    i,
                    "unit type",
                ) {
                    self.problem(files::UNITS, format!("units[{i}].aliases[{a}]"), e);
                }
            }
        }
    }

    /// `regions:`: every space named exists.
    pub(super) fn check_regions(&mut self, files: &GameFiles) {
        for (name, spaces) in files.game.regions.iter() {
            for (j, s) in spaces.iter().enumerate() {
                self.find_space(files::GAME, format!("regions.{name}[{j}]"), s);
            }
        }
    }

    pub(super) fn check_objectives(&mut self, files: &GameFiles) {
        for (i, o) in files.game.national_objectives.iter().enumerate() {
            let at = |f: &str| format!("national_objectives[{i}].{f}");
            self.find_power(files::GAME, at("power"), &o.power);
            for (j, s) in o.side_controls.iter().enumerate() {
                self.find_space(files::GAME, format!("{}[{j}]", at("side_controls")), s);
            }
            for (j, s) in o.no_enemy_surface_warships_in.iter().enumerate() {
                let path = format!("{}[{j}]", at("no_enemy_surface_warships_in"));
                if let Some(id) = self.find_space(files::GAME, path.clone(), s)
                    && id.0 < Self::territory_count(files)
                {
                    self.problem(files::GAME, path, format!("\"{s}\" is not a sea zone"));
                }
            }
            if o.at_least
                .is_some_and(|n| n as usize > o.side_controls.len())
            {
                self.problem(
                    files::GAME,
                    at("at_least"),
                    "more territories than the objective lists",
                );
            }
        }
    }

    /// `research:`: a token price, charts of six known developments each
    /// (none on two charts), shipyard prices of known units; and a rule set
    /// that has research at all.
    pub(super) fn check_research(&mut self, files: &GameFiles) {
        let Some(r) = &files.game.research else {
            return;
        };
        if let Some(rs) = self.rule_set
            && variants::find_option(rs, crate::rules::options::RESEARCH.name).is_none()
        {
            self.problem(
                files::GAME,
                "research",
                format!(
                    "rule set {} has no research and development; remove research:",
                    rs.id()
                ),
            );
        }
        if r.token_cost == 0 {
            self.problem(
                files::GAME,
                "research.token_cost",
                "a researcher token costs at least 1 IPC",
            );
        }
        if r.charts.is_empty() {
            self.problem(files::GAME, "research.charts", "no breakthrough chart");
        }
        let mut names: Vec<NameKey> = Vec::new();
        let mut seen: Vec<(Technology, String)> = Vec::new();
        for (i, chart) in r.charts.iter().enumerate() {
            let at = format!("research.charts[{i}]");
            let key = NameKey::new(&chart.name);
            if key.as_str().is_empty() {
                self.problem(files::GAME, format!("{at}.name"), "the chart has no name");
            } else if names.contains(&key) {
                self.problem(
                    files::GAME,
                    format!("{at}.name"),
                    format!("two charts are called \"{}\"", chart.name),
                );
            }
            names.push(key);
            if chart.developments.len() != 6 {
                self.problem(
                    files::GAME,
                    format!("{at}.developments"),
                    format!(
                        "a chart lists six developments, one per die face; this one lists {}",
                        chart.developments.len()
                    ),
                );
            }
            for (j, d) in chart.developments.iter().enumerate() {
                let path = format!("{at}.developments[{j}]");
                match Technology::from_name(d) {
                    None => {
                        let known: Vec<&str> = Technology::ALL.iter().map(|t| t.name()).collect();
                        let mut reason = format!("there is no development called \"{d}\"");
                        if let Some(s) = did_you_mean(d, known.iter().copied()) {
                            reason.push_str(&format!("; did you mean \"{s}\"?"));
                        }
                        reason.push_str(&format!("; the developments are: {}", known.join(", ")));
                        self.problem(files::GAME, path, reason);
                    }
                    Some(t) => {
                        if let Some((_, first)) = seen.iter().find(|(s, _)| *s == t) {
                            self.problem(
                                files::GAME,
                                path,
                                format!("{t} is already on the charts at {first}"),
                            );
                        }
                        seen.push((t, format!("research.charts[{i}].developments[{j}]")));
                    }
                }
            }
        }
        for (name, values) in r.effects.iter().flat_map(|e| e.iter()) {
            let path = format!("research.effects.{name}");
            match Technology::from_name(name) {
                None => {
                    let known: Vec<&str> = Technology::ALL.iter().map(|t| t.name()).collect();
                    self.problem(
                        files::GAME,
                        path,
                        format!(
                            "there is no development called \"{name}\"; the developments are: {}",
                            known.join(", ")
                        ),
                    );
                }
                Some(t) if !seen.iter().any(|(s, _)| *s == t) => self.problem(
                    files::GAME,
                    path,
                    format!("{t} is on no breakthrough chart, so no power can gain it"),
                ),
                Some(_) => {}
            }
            if values.dice == Some(0) {
                self.problem(
                    files::GAME,
                    format!("research.effects.{name}.dice"),
                    "a unit rolls at least one die",
                );
            }
            if values.best_die_only && values.dice.is_none() {
                self.problem(
                    files::GAME,
                    format!("research.effects.{name}.best_die_only"),
                    "best_die_only needs dice: the number of dice each unit rolls",
                );
            }
        }
        for (name, cost) in r.shipyard_costs.iter() {
            let path = format!("research.shipyard_costs.{name}");
            self.find_unit(files::GAME, path.clone(), name);
            if *cost == 0 {
                self.problem(files::GAME, path, "a unit costs at least 1 IPC");
            }
        }
    }

    pub(super) fn check_game(&mut self, files: &GameFiles) {
        self.check_objectives(files);
        self.check_regions(files);
        let game = &files.game;
        let id_ok = !game.id.is_empty()
            && game
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
        if !id_ok {
            self.problem(files::GAME, "id", format!(
                "game id \"{}\" must be non-empty lower-case letters, digits, '-' or '_' (it names the directory)",
                game.id
            ));
        }
        match self.rule_set {
            Some(handed) => {
                let mut r = Some(handed);
                let mut names = false;
                while let Some(set) = r {
                    names |= set.id() == game.rule_set;
                    r = set.base();
                }
                if !names {
                    self.problem(
                        files::GAME,
                        "rule_set",
                        format!(
                            "the game's rule set is \"{}\", which the rule set {} does not \
                             build on",
                            game.rule_set,
                            handed.id()
                        ),
                    );
                }
            }
            None => self.rule_set = variants::rule_set(&game.rule_set),
        }
        if self.rule_set.is_none() {
            let known: Vec<String> = variants::RULE_SETS
                .iter()
                .map(|r| r.id().to_owned())
                .collect();
            let mut reason = format!(
                "unknown rule set \"{}\"; known: {}",
                game.rule_set,
                known.join(", ")
            );
            if let Some(s) = did_you_mean(&game.rule_set, known.iter().map(String::as_str)) {
                reason.push_str(&format!("; did you mean \"{s}\"?"));
            }
            self.problem(files::GAME, "rule_set", reason);
        }
        if game.powers.is_empty() {
            self.problem(files::GAME, "powers", "a game needs at least one power");
        }
        for (i, power) in game.powers.iter().enumerate() {
            if let Some(other) = &power.shares_turn_with {
                self.find_power(files::GAME, format!("powers[{i}].shares_turn_with"), other);
            }
            for (j, space) in power.confined_to.iter().enumerate() {
                self.find_space(files::GAME, format!("powers[{i}].confined_to[{j}]"), space);
            }
            if let Some(capital) = &power.capital {
                let path = format!("powers[{i}].capital");
                if let Some(id) = self.find_space(files::GAME, path.clone(), capital)
                    && id.0 >= Self::territory_count(files)
                {
                    self.problem(
                        files::GAME,
                        path,
                        format!("capital \"{capital}\" is a sea zone"),
                    );
                }
            }
        }

        let mut side_of: Vec<Vec<String>> = vec![Vec::new(); game.powers.len()];
        let mut side_names = HashSet::new();
        for (s, side) in game.sides.iter().enumerate() {
            if !side_names.insert(NameKey::new(&side.name)) {
                self.problem(
                    files::GAME,
                    format!("sides[{s}].name"),
                    format!("side \"{}\" is listed twice", side.name),
                );
            }
            for (j, p) in side.powers.iter().enumerate() {
                if let Some(i) = self.find_power(files::GAME, format!("sides[{s}].powers[{j}]"), p)
                {
                    side_of[i].push(side.name.clone());
                }
            }
        }
        for (i, sides) in side_of.iter().enumerate() {
            let name = &game.powers[i].name;
            match sides.len() {
                1 => {}
                0 => self.problem(files::GAME, "sides", format!("{name} is on no side")),
                _ => self.problem(
                    files::GAME,
                    "sides",
                    format!("{name} is on more than one side: {}", sides.join(", ")),
                ),
            }
        }

        let mut seen = HashSet::new();
        for (t, p) in game.turn_order.iter().enumerate() {
            let path = format!("turn_order[{t}]");
            if let Some(i) = self.find_power(files::GAME, path.clone(), p) {
                if !seen.insert(i) {
                    self.problem(
                        files::GAME,
                        path,
                        format!("{} takes more than one turn per round", game.powers[i].name),
                    );
                } else if !game.powers[i].plays {
                    self.problem(
                        files::GAME,
                        path,
                        format!(
                            "{} is marked `plays: false` but is in the turn order",
                            game.powers[i].name
                        ),
                    );
                }
            }
        }
        for (i, power) in game.powers.iter().enumerate() {
            if power.plays && !seen.contains(&i) {
                self.problem(
                    files::GAME,
                    "turn_order",
                    format!("{} plays but is missing from the turn order", power.name),
                );
            }
        }

        if let Some(rule_set) = self.rule_set {
            let mut seen = HashSet::new();
            let options = variants::all_options(rule_set);
            for (key, value) in game.options.iter() {
                let path = format!("options.{key}");
                if !seen.insert(key) {
                    self.problem(files::GAME, path, format!("option {key} is set twice"));
                    continue;
                }
                match options.iter().find(|s| s.name == key) {
                    Some(spec) => {
                        if let Err(e) = spec.check(value) {
                            self.problem(files::GAME, path, e);
                        } else if let Some(why) = spec.pending
                            && *value != spec.default_value()
                        {
                            self.problem(
                                files::GAME,
                                path,
                                format!(
                                    "option {key}: {why}; leave it out (or at its default, {})",
                                    spec.default_value()
                                ),
                            );
                        }
                    }
                    None => {
                        let known: Vec<String> =
                            options.iter().map(|s| s.name.to_owned()).collect();
                        let mut reason =
                            format!("rule set {} has no option \"{key}\"", rule_set.id());
                        if let Some(s) = did_you_mean(key, known.iter().map(String::as_str)) {
                            reason.push_str(&format!("; did you mean \"{s}\"?"));
                        } else if !known.is_empty() {
                            reason.push_str(&format!("; its options are {}", known.join(", ")));
                        }
                        self.problem(files::GAME, path, reason);
                    }
                }
            }
        }
    }

    pub(super) fn check_board(&mut self, files: &GameFiles) {
        let board = &files.board;
        let n_land = board.territories.len();
        // Resolved neighbour lists, to check symmetry afterwards.
        let mut resolved: Vec<Vec<SpaceId>> = Vec::with_capacity(n_land + board.sea_zones.len());
        let lists = board
            .territories
            .iter()
            .enumerate()
            .map(|(i, t)| (format!("territories[{i}]"), &t.name, &t.neighbours))
            .chain(
                board
                    .sea_zones
                    .iter()
                    .enumerate()
                    .map(|(i, z)| (format!("sea_zones[{i}]"), &z.name, &z.neighbours)),
            );
        for (id, (base, name, neighbours)) in lists.enumerate() {
            let mut mine = Vec::new();
            if neighbours.is_empty() {
                self.problem(
                    files::BOARD,
                    format!("{base}.neighbours"),
                    format!("{name} has no neighbours"),
                );
            }
            for (j, n) in neighbours.iter().enumerate() {
                let path = format!("{base}.neighbours[{j}]");
                if let Some(other) = self.find_space(files::BOARD, path.clone(), n) {
                    if other.0 == id {
                        self.problem(
                            files::BOARD,
                            path,
                            format!("{name} lists itself as a neighbour"),
                        );
                    } else if mine.contains(&other) {
                        self.problem(files::BOARD, path, format!("{name} lists {n} twice"));
                    } else {
                        mine.push(other);
                    }
                }
            }
            resolved.push(mine);
        }
        for (id, mine) in resolved.iter().enumerate() {
            for (j, other) in mine.iter().enumerate() {
                if !resolved[other.0].contains(&SpaceId(id)) {
                    let (base, name) = self.space_path(files, SpaceId(id));
                    let (_, other_name) = self.space_path(files, *other);
                    self.problem(files::BOARD, format!("{base}.neighbours[{j}]"), format!(
                        "one-way adjacency: {name} lists {other_name} as a neighbour, but {other_name} does not list {name}"
                    ));
                }
            }
        }
        for (i, t) in board.territories.iter().enumerate() {
            if t.ipc.is_none() {
                self.problem(
                    files::BOARD,
                    format!("territories[{i}]"),
                    format!("{} has no ipc value (write `ipc: 0` for none)", t.name),
                );
            }
            if let Some(owner) = &t.original_owner {
                self.find_power(
                    files::BOARD,
                    format!("territories[{i}].original_owner"),
                    owner,
                );
            }
        }
        for (i, z) in board.sea_zones.iter().enumerate() {
            let Some(convoy) = &z.convoy else { continue };
            let base = format!("sea_zones[{i}].convoy");
            if convoy.value == 0 {
                self.problem(
                    files::BOARD,
                    format!("{base}.value"),
                    format!("convoy zone {} is worth 0 IPCs", z.name),
                );
            }
            self.find_power(files::BOARD, format!("{base}.power"), &convoy.power);
            for (j, r) in convoy.requires.iter().enumerate() {
                let path = format!("{base}.requires[{j}]");
                if let Some(id) = self.find_space(files::BOARD, path.clone(), r)
                    && id.0 >= n_land
                {
                    self.problem(
                        files::BOARD,
                        path,
                        format!("{r} is a sea zone; a convoy can only require land"),
                    );
                }
            }
        }
        for (i, landing) in board.landings.iter().enumerate() {
            let base = format!("landings[{i}]");
            let from = self.find_space(files::BOARD, format!("{base}.from"), &landing.from);
            let to = self.find_space(files::BOARD, format!("{base}.to"), &landing.to);
            if let Some(f) = from
                && f.0 < n_land
            {
                self.problem(
                    files::BOARD,
                    format!("{base}.from"),
                    format!(
                        "{} is land; a landing is made from a sea zone",
                        landing.from
                    ),
                );
            }
            if let Some(t) = to
                && t.0 >= n_land
            {
                self.problem(
                    files::BOARD,
                    format!("{base}.to"),
                    format!("{} is a sea zone; a landing is made onto land", landing.to),
                );
            }
            if let (Some(f), Some(t)) = (from, to)
                && !resolved[f.0].contains(&t)
            {
                self.problem(
                    files::BOARD,
                    format!("{base}.to"),
                    format!("{} does not border {}", landing.to, landing.from),
                );
            }
            if landing.controlled_by.is_empty() {
                self.problem(
                    files::BOARD,
                    format!("{base}.controlled_by"),
                    "a landing names the territories that open it".to_owned(),
                );
            }
            for (j, t) in landing.controlled_by.iter().enumerate() {
                let path = format!("{base}.controlled_by[{j}]");
                if let Some(id) = self.find_space(files::BOARD, path.clone(), t)
                    && id.0 >= n_land
                {
                    self.problem(
                        files::BOARD,
                        path,
                        format!("{t} is a sea zone; a landing is opened through land"),
                    );
                }
            }
        }
        let mut canal_names = HashSet::new();
        for (i, canal) in board.canals.iter().enumerate() {
            let base = format!("canals[{i}]");
            if !canal_names.insert(NameKey::new(&canal.name)) {
                self.problem(
                    files::BOARD,
                    format!("{base}.name"),
                    format!("canal {} is listed twice", canal.name),
                );
            }
            if canal.sea_zones.len() != 2 {
                self.problem(
                    files::BOARD,
                    format!("{base}.sea_zones"),
                    format!(
                        "{} must join exactly two sea zones, found {}",
                        canal.name,
                        canal.sea_zones.len()
                    ),
                );
            }
            let mut ends = Vec::new();
            for (j, s) in canal.sea_zones.iter().enumerate() {
                let path = format!("{base}.sea_zones[{j}]");
                if let Some(id) = self.find_space(files::BOARD, path.clone(), s) {
                    if id.0 < n_land {
                        self.problem(files::BOARD, path, format!("{s} is land, not a sea zone"));
                    } else {
                        ends.push(id);
                    }
                }
            }
            if let [a, b] = ends[..]
                && !resolved[a.0].contains(&b)
            {
                self.problem(
                    files::BOARD,
                    format!("{base}.sea_zones"),
                    format!(
                        "{} joins {} and {}, which are not neighbours on the board",
                        canal.name, canal.sea_zones[0], canal.sea_zones[1]
                    ),
                );
            }
            if canal.controlled_by.is_empty() {
                self.problem(
                    files::BOARD,
                    format!("{base}.controlled_by"),
                    format!("{} names no controlling territory", canal.name),
                );
            }
            for (j, t) in canal.controlled_by.iter().enumerate() {
                let path = format!("{base}.controlled_by[{j}]");
                if let Some(id) = self.find_space(files::BOARD, path.clone(), t)
                    && id.0 >= n_land
                {
                    self.problem(
                        files::BOARD,
                        path,
                        format!("{t} is a sea zone; canals are controlled through land"),
                    );
                }
            }
        }
    }

    pub(super) fn space_path(&self, files: &GameFiles, id: SpaceId) -> (String, String) {
        let n_land = files.board.territories.len();
        if id.0 < n_land {
            (
                format!("territories[{}]", id.0),
                files.board.territories[id.0].name.clone(),
            )
        } else {
            (
                format!("sea_zones[{}]", id.0 - n_land),
                files.board.sea_zones[id.0 - n_land].name.clone(),
            )
        }
    }

    pub(super) fn check_units(&mut self, units: &UnitsFile) {
        if units.units.is_empty() {
            self.problem(files::UNITS, "units", "a game needs at least one unit type");
        }
        for (i, u) in units.units.iter().enumerate() {
            let base = format!("units[{i}]");
            let Some(kind) = u.kind else {
                self.problem(
                    files::UNITS,
                    format!("{base}.kind"),
                    format!("{} has no kind (land, sea, air or building)", u.name),
                );
                continue;
            };
            let needs_stats = kind != UnitKind::Building;
            for (field, value) in [
                ("attack", u.attack),
                ("defense", u.defense),
                ("movement", u.movement),
            ] {
                match value {
                    None if needs_stats => self.problem(
                        files::UNITS,
                        format!("{base}.{field}"),
                        format!("{} has no {field} value", u.name),
                    ),
                    Some(v) if v > 6 && field != "movement" => self.problem(
                        files::UNITS,
                        format!("{base}.{field}"),
                        format!(
                            "{} has {field} {v}, more than a six-sided die can roll",
                            u.name
                        ),
                    ),
                    _ => {}
                }
            }
            if needs_stats && u.movement == Some(0) {
                self.problem(
                    files::UNITS,
                    format!("{base}.movement"),
                    format!("{} is a {} unit with movement 0", u.name, kind.as_str()),
                );
            }
            if u.hit_points == 0 {
                self.problem(
                    files::UNITS,
                    format!("{base}.hit_points"),
                    format!("{} must take at least one hit", u.name),
                );
            }
            if u.transport_capacity.is_some() && !matches!(kind, UnitKind::Sea | UnitKind::Air) {
                self.problem(
                    files::UNITS,
                    format!("{base}.transport_capacity"),
                    format!(
                        "{} is a {} unit and cannot carry cargo",
                        u.name,
                        kind.as_str()
                    ),
                );
            }
            if u.transport_cost.is_some() && kind != UnitKind::Land {
                self.problem(
                    files::UNITS,
                    format!("{base}.transport_cost"),
                    format!(
                        "only land units ride transports; {} is {}",
                        u.name,
                        kind.as_str()
                    ),
                );
            }
            if u.carrier_cost.is_some() && kind != UnitKind::Air {
                self.problem(
                    files::UNITS,
                    format!("{base}.carrier_cost"),
                    format!(
                        "only aircraft land on carriers; {} is {}",
                        u.name,
                        kind.as_str()
                    ),
                );
            }
            if u.carrier_capacity.is_some() && kind != UnitKind::Sea {
                self.problem(
                    files::UNITS,
                    format!("{base}.carrier_capacity"),
                    format!("only ships carry aircraft; {} is {}", u.name, kind.as_str()),
                );
            }
            let mut seen = Vec::new();
            for (j, a) in u.abilities.iter().enumerate() {
                let path = format!("{base}.abilities[{j}]");
                if seen
                    .iter()
                    .any(|s| std::mem::discriminant(s) == std::mem::discriminant(a))
                {
                    self.problem(
                        files::UNITS,
                        path.clone(),
                        format!("{} lists {a:?} twice", u.name),
                    );
                }
                seen.push(*a);
                if let Ability::Bombard(n)
                | Ability::Escort(n)
                | Ability::Interceptor(n)
                | Ability::AntiAircraft(n) = a
                    && !(1..=6).contains(n)
                {
                    self.problem(
                        files::UNITS,
                        path,
                        format!(
                            "{} hits on {n}, which is not a face of a six-sided die",
                            u.name
                        ),
                    );
                }
            }
        }
    }

    pub(super) fn check_setup(&mut self, files: &GameFiles) {
        let setup = &files.setup;
        let n_land = files.board.territories.len();
        let mut seen = HashSet::new();
        for (power, _) in setup.ipcs.iter() {
            let path = format!("ipcs.{power}");
            if let Some(p) = self.find_power(files::SETUP, path.clone(), power)
                && !seen.insert(p)
            {
                self.problem(
                    files::SETUP,
                    path,
                    format!("{power}'s IPCs are given twice"),
                );
            }
        }
        for (i, p) in files.game.powers.iter().enumerate() {
            if p.plays && !seen.contains(&i) {
                self.problem(
                    files::SETUP,
                    "ipcs",
                    format!("no starting IPCs for {} (write 0 if none)", p.name),
                );
            }
        }

        // Starting control, to check that units stand on friendly ground.
        let mut owner: Vec<Option<usize>> = Vec::new();
        for t in &files.board.territories {
            owner.push(
                t.original_owner
                    .as_deref()
                    .and_then(|o| self.powers.get(&NameKey::new(o)).copied()),
            );
        }
        for z in &files.board.sea_zones {
            owner.push(
                z.convoy
                    .as_ref()
                    .and_then(|c| self.powers.get(&NameKey::new(&c.power)).copied()),
            );
        }
        let mut seen = HashSet::new();
        for (space, power) in setup.owners.iter() {
            let path = format!("owners.{space}");
            let Some(id) = self.find_space(files::SETUP, path.clone(), space) else {
                continue;
            };
            if !seen.insert(id) {
                self.problem(
                    files::SETUP,
                    path.clone(),
                    format!("{space}'s starting owner is given twice"),
                );
            }
            if id.0 >= n_land && files.board.sea_zones[id.0 - n_land].convoy.is_none() {
                self.problem(
                    files::SETUP,
                    path.clone(),
                    format!(
                        "{space} is a sea zone without a convoy; only convoy zones are controlled"
                    ),
                );
            }
            if id.0 < n_land && files.board.territories[id.0].impassable {
                self.problem(
                    files::SETUP,
                    path.clone(),
                    format!("{space} is impassable and cannot be controlled"),
                );
            }
            if let Some(p) = self.find_power(files::SETUP, path, power) {
                owner[id.0] = Some(p);
            }
        }

        let side = |v: &Validator, p: usize| -> Option<NameKey> {
            files
                .game
                .sides
                .iter()
                .find(|s| {
                    s.powers
                        .iter()
                        .any(|q| v.powers.get(&NameKey::new(q)) == Some(&p))
                })
                .map(|s| NameKey::new(&s.name))
        };
        let mut seen_space = HashSet::new();
        for (space, by_power) in setup.units.iter() {
            let base = format!("units.{space}");
            let Some(id) = self.find_space(files::SETUP, base.clone(), space) else {
                continue;
            };
            if !seen_space.insert(id) {
                self.problem(
                    files::SETUP,
                    base.clone(),
                    format!("{space} is listed twice (names are matched without regard to case)"),
                );
            }
            let at_sea = id.0 >= n_land;
            if !at_sea && files.board.territories[id.0].impassable {
                self.problem(
                    files::SETUP,
                    base.clone(),
                    format!("{space} is impassable; no units may stand there"),
                );
            }
            let mut seen_power = HashSet::new();
            for (power, units) in by_power.iter() {
                let pbase = format!("{base}.{power}");
                let Some(p) = self.find_power(files::SETUP, pbase.clone(), power) else {
                    continue;
                };
                if !seen_power.insert(p) {
                    self.problem(
                        files::SETUP,
                        pbase.clone(),
                        format!("{power} is listed twice in {space}"),
                    );
                }
                if !at_sea {
                    match owner[id.0] {
                        None => self.problem(files::SETUP, pbase.clone(), format!("{power} has units in {space}, which nobody controls at the start")),
                        Some(o) if side(self, o) != side(self, p) => self.problem(files::SETUP, pbase.clone(), format!(
                            "{power} has units in {space}, which an enemy ({}) controls at the start", files.game.powers[o].name
                        )),
                        _ => {}
                    }
                }
                let (mut cargo, mut holds, mut planes, mut decks) = (0u32, 0u32, 0u32, 0u32);
                let mut seen_unit = HashSet::new();
                for (unit, &count) in units.iter() {
                    let path = format!("{pbase}.{unit}");
                    let Some(u) = self.find_unit(files::SETUP, path.clone(), unit) else {
                        continue;
                    };
                    if !seen_unit.insert(u) {
                        self.problem(
                            files::SETUP,
                            path.clone(),
                            format!("{unit} is listed twice for {power} in {space}"),
                        );
                    }
                    if count == 0 {
                        self.problem(
                            files::SETUP,
                            path.clone(),
                            "a count of 0; leave the line out instead",
                        );
                    }
                    let ut = &files.units.units[u];
                    let kind = ut.kind;
                    match (at_sea, kind) {
                        (false, Some(UnitKind::Sea)) => self.problem(
                            files::SETUP,
                            path,
                            format!("{unit} is a ship but {space} is land"),
                        ),
                        (true, Some(UnitKind::Building)) => self.problem(
                            files::SETUP,
                            path,
                            format!("{unit} cannot stand in sea zone {space}"),
                        ),
                        (true, Some(UnitKind::Land)) => {
                            cargo += count * u32::from(ut.transport_cost.unwrap_or(u8::MAX))
                        }
                        (true, Some(UnitKind::Air)) => {
                            planes += count * u32::from(ut.carrier_cost.unwrap_or(u8::MAX))
                        }
                        _ => {}
                    }
                    holds += count
                        * u32::from(
                            ut.transport_capacity
                                .filter(|_| kind == Some(UnitKind::Sea))
                                .unwrap_or(0),
                        );
                    decks += count * u32::from(ut.carrier_capacity.unwrap_or(0));
                }
                if cargo > holds {
                    self.problem(files::SETUP, pbase.clone(), format!("{power}'s land units in {space} need more transport space than its transports there have"));
                }
                if planes > decks {
                    self.problem(files::SETUP, pbase, format!("{power}'s aircraft in {space} need more carrier space than its carriers there have"));
                }
            }
        }
    }

    pub(super) fn build(self, files: GameFiles, rule_set: &'static dyn RuleSetHooks) -> GameDef {
        let lists = files
            .board
            .territories
            .iter()
            .map(|t| &t.neighbours)
            .chain(files.board.sea_zones.iter().map(|z| &z.neighbours));
        let neighbours = lists
            .map(|list| list.iter().map(|n| self.spaces[&NameKey::new(n)]).collect())
            .collect();
        let mut start_owner: Vec<Option<usize>> = files
            .board
            .territories
            .iter()
            .map(|t| {
                t.original_owner
                    .as_ref()
                    .map(|o| self.powers[&NameKey::new(o)])
            })
            .chain(files.board.sea_zones.iter().map(|z| {
                z.convoy
                    .as_ref()
                    .map(|c| self.powers[&NameKey::new(&c.power)])
            }))
            .collect();
        for (space, power) in files.setup.owners.iter() {
            start_owner[self.spaces[&NameKey::new(space)].0] =
                Some(self.powers[&NameKey::new(power)]);
        }
        let side_of = (0..files.game.powers.len())
            .map(|p| {
                files
                    .game
                    .sides
                    .iter()
                    .position(|s| s.powers.iter().any(|q| self.powers[&NameKey::new(q)] == p))
                    .expect("validated: one side each")
            })
            .collect();
        GameDef {
            rule_set,
            spaces: self.spaces,
            powers: self.powers,
            units: self.units,
            neighbours,
            start_owner,
            side_of,
            development_values: crate::rules::research::resolve_values(
                files.game.research.as_ref(),
            ),
            combat_rules: None,
            unit_spellings: std::sync::OnceLock::new(),
            files,
        }
    }
}
