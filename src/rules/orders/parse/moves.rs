//! The `combat:` and `noncombat:` sections: unit lists, paths, loads and landings.

use super::*;

impl Parser<'_, '_> {
    // ----- moves -----------------------------------------------------------

    pub(super) fn moves(&mut self, section: &'static str, value: &Node) -> Vec<Located<MoveOrder>> {
        let items = match &value.kind {
            Kind::Null => return Vec::new(),
            Kind::Seq(items) => items,
            _ => {
                let origin = self.origin(section, 0, value);
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "{section} is a list of orders, each on its own line starting with \"- \" \
                         (- 3 infantry: Poland -> Belorussia), but here it is {}",
                        value.describe()
                    ),
                );
                return Vec::new();
            }
        };
        let mut orders = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let origin = self.origin(section, i + 1, item);
            let order = match &item.kind {
                Kind::Map(entries)
                    if entries
                        .iter()
                        .any(|(k, _)| k.text().is_some_and(|t| key_matches(t, "transport"))) =>
                {
                    self.transport(&origin, entries)
                }
                Kind::Map(entries) => self.move_entries(&origin, entries),
                Kind::Str(s) if s.contains(':') => {
                    // `3 infantry:Poland -> X` (no space after the colon) is
                    // one string to YAML; the player meant a move.
                    let (units, path) = s.split_once(':').expect("contains a colon");
                    self.plain_move(&origin, item, units, item, Some(path), None)
                }
                _ => {
                    let found = match item.text() {
                        Some(t) => format!("\"{t}\" has no colon after the units"),
                        None => format!("this is {}", item.describe()),
                    };
                    self.error(
                        &origin,
                        item,
                        None,
                        format!(
                            "a move is written UNITS: FROM -> TO (for example 3 infantry: Poland \
                             -> Belorussia), or as a transport with transport:, load: and \
                             unload:; {found}"
                        ),
                    );
                    None
                }
            };
            if let Some(order) = order {
                orders.push(Located {
                    item: order,
                    origin,
                });
            }
        }
        orders
    }

    /// `3 infantry, 1 artillery: Poland -> Belorussia` (a mapping of one
    /// entry), optionally with a `land: SPACE` entry.
    pub(super) fn move_entries(
        &mut self,
        origin: &Origin,
        entries: &[(Node, Node)],
    ) -> Option<MoveOrder> {
        let mut units: Option<(&Node, &Node)> = None;
        let mut land: Option<&Node> = None;
        let mut drops = Vec::new();
        let mut ok = true;
        for (key, value) in entries {
            let written = key.text().unwrap_or("");
            if find_key(written, keys::MOVE_EXTRA) == Some("drop") {
                ok &= self.drop_offs(origin, value, &mut drops);
            } else if find_key(written, keys::MOVE_EXTRA).is_some() {
                land = Some(value);
            } else if find_key(written, keys::TRANSPORT).is_some() {
                self.error(
                    origin,
                    key,
                    None,
                    format!(
                        "{written} belongs to a transport's move, which starts with \
                         transport: SEA ZONE"
                    ),
                );
                ok = false;
            } else if units.is_none() {
                units = Some((key, value));
            } else {
                // Only the plain move's own keys are suggested: transport
                // keys are answered above, and `load` is one letter from `lnad`.
                let mut reason = format!("\"{written}\" cannot follow the move's units here.");
                if let Some(s) = suggest(written, keys::MOVE_EXTRA) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                reason.push_str(
                    " Write one move per order (UNITS: PATH), optionally with land: SPACE \
                     for aircraft and drop: UNITS to TERRITORY for air transports.",
                );
                self.error(origin, key, None, reason);
                ok = false;
            }
        }
        let Some((key, value)) = units else {
            let at = entries.first().map(|(k, _)| k);
            if let Some(at) = at {
                self.error(
                    origin,
                    at,
                    None,
                    "the move has no units; write UNITS: FROM -> TO".to_owned(),
                );
            }
            return None;
        };
        let units_text = key.text().unwrap_or("");
        let order = self
            .plain_move(origin, key, units_text, value, value.text(), land)
            .map(|mut order| {
                if let MoveOrder::Move { drops: d, .. } = &mut order {
                    *d = drops;
                }
                order
            });
        if ok { order } else { None }
    }

    /// A move from its parts: the units, the path text (with an optional
    /// `, land SPACE`), and an optional `land:` entry.
    pub(super) fn plain_move(
        &mut self,
        origin: &Origin,
        units_at: &Node,
        units_text: &str,
        path_at: &Node,
        path_text: Option<&str>,
        land_node: Option<&Node>,
    ) -> Option<MoveOrder> {
        let units = match self.names.unit_list(units_text) {
            Ok(list) if list.is_empty() => {
                let reason = "the move has no units; write UNITS: FROM -> TO".to_owned();
                self.error(origin, units_at, Some("units"), reason);
                None
            }
            Ok(list) => Some(list),
            Err(reasons) => {
                self.errors_at(origin, units_at, "units", reasons);
                None
            }
        };
        let Some(path_text) = path_text.filter(|p| !p.trim().is_empty()) else {
            self.error(
                origin,
                path_at,
                Some("path"),
                "the path is missing; write UNITS: FROM -> TO".to_owned(),
            );
            return None;
        };
        let mut parts = path_text.split(',');
        let path_part = parts.next().unwrap_or("");
        let mut land = None;
        let mut land_count = 0;
        let mut rail = false;
        for extra in parts {
            let extra = extra.trim();
            let word_end = extra.find(char::is_whitespace).unwrap_or(extra.len());
            if key_matches(extra, "rail") {
                if rail {
                    self.error(
                        origin,
                        path_at,
                        Some("path"),
                        "\", rail\" is given more than once".to_owned(),
                    );
                }
                rail = true;
            } else if key_matches(&extra[..word_end], "land") {
                land_count += 1;
                match self.names.space(extra[word_end..].trim()) {
                    Ok(id) => land = Some(id),
                    Err(reason) => self.error(origin, path_at, Some("land"), reason),
                }
            } else {
                let hint = match suggest(&extra[..word_end], &["land", "rail"]) {
                    Some(s) => format!(" Did you mean {s}?"),
                    None => String::new(),
                };
                self.error(
                    origin,
                    path_at,
                    Some("path"),
                    format!(
                        "after the path only \", land SPACE\" (where aircraft will land) or \
                         \", rail\" (a strategic rail move) may follow, not \"{extra}\".{hint}"
                    ),
                );
            }
        }
        if let Some(node) = land_node {
            land_count += 1;
            land = self.space(origin, node, "land");
        }
        if land_count > 1 {
            self.error(
                origin,
                path_at,
                Some("land"),
                "the landing space is given more than once".to_owned(),
            );
        }
        let path = match self.names.path(path_part) {
            Ok(path) if path.len() < 2 => {
                self.error(
                    origin,
                    path_at,
                    Some("path"),
                    format!(
                        "a move needs where the units are and where they go: FROM -> TO (only \
                         \"{}\" is given)",
                        path_part.trim()
                    ),
                );
                None
            }
            Ok(path) => Some(path),
            Err(reasons) => {
                self.errors_at(origin, path_at, "path", reasons);
                None
            }
        };
        Some(MoveOrder::Move {
            units: units?,
            path: path?,
            land,
            rail,
            drops: Vec::new(),
        })
    }

    /// `{transport: SEA [-> SEA...], load: UNITS from LAND [at SEA], unload: LAND}`.
    pub(super) fn transport(
        &mut self,
        origin: &Origin,
        entries: &[(Node, Node)],
    ) -> Option<MoveOrder> {
        let mut path = None;
        let mut load = Vec::new();
        let mut unload = None;
        let mut unload_units = None;
        let mut drops = Vec::new();
        let mut ok = true;
        for (key, value) in entries {
            let Some(word) = key.text().and_then(|k| find_key(k, keys::TRANSPORT)) else {
                self.unknown_key(origin, key, "of a transport's move", keys::TRANSPORT);
                ok = false;
                continue;
            };
            match word {
                "transport" => {
                    let Some(text) =
                        self.text(origin, value, "transport", "the transport's sea zone")
                    else {
                        ok = false;
                        continue;
                    };
                    match self.names.path(text) {
                        Ok(p) => path = Some(p),
                        Err(reasons) => {
                            self.errors_at(origin, value, "transport", reasons);
                            ok = false;
                        }
                    }
                }
                "drop" => ok &= self.drop_offs(origin, value, &mut drops),
                "load" => {
                    let expected = "cargo such as 2 infantry from Germany";
                    for (text, at) in self.texts_with_nodes(origin, value, "load", expected) {
                        match self.load(text) {
                            Ok(l) => load.push(l),
                            Err(reasons) => {
                                self.errors_at(origin, at, "load", reasons);
                                ok = false;
                            }
                        }
                    }
                }
                _ => {
                    // `unload: Finland`, or a part of the cargo:
                    // `unload: 1 infantry to Finland`.
                    let part = value
                        .text()
                        .and_then(|t| rfind_word(t, "to").map(|at| (t, at)));
                    match part {
                        Some((text, at)) => match self.unload_part(text, at) {
                            Ok((units, to)) => {
                                unload = Some(to);
                                unload_units = Some(units);
                            }
                            Err(reasons) => {
                                self.errors_at(origin, value, "unload", reasons);
                                ok = false;
                            }
                        },
                        None => match self.space(origin, value, "unload") {
                            Some(id) => unload = Some(id),
                            None => ok = false,
                        },
                    }
                }
            }
        }
        if ok {
            Some(MoveOrder::Transport {
                path: path?,
                load,
                unload,
                unload_units,
                drops,
            })
        } else {
            None
        }
    }

    /// `drop: UNITS to TERRITORY`, one or a list (J Boulton JB-12, JB-23),
    /// appended to `drops`; `false` when some entry is wrong (reported).
    fn drop_offs(&mut self, origin: &Origin, value: &Node, drops: &mut Vec<DropOff>) -> bool {
        let mut ok = true;
        let expected = "the units set down and where, such as 1 special force team to Norway";
        for (text, at) in self.texts_with_nodes(origin, value, "drop", expected) {
            match rfind_word(text, "to").map(|to| self.unload_part(text, to)) {
                Some(Ok((units, to))) => drops.push(DropOff { units, to }),
                Some(Err(reasons)) => {
                    self.errors_at(origin, at, "drop", reasons);
                    ok = false;
                }
                None => {
                    self.error(
                        origin,
                        at,
                        Some("drop"),
                        format!(
                            "\"{}\" does not say where the units are set down; write UNITS to \
                             TERRITORY (1 special force team to Norway)",
                            text.trim()
                        ),
                    );
                    ok = false;
                }
            }
        }
        ok
    }

    /// Like [`Self::list_texts`], with the node of each text for its line.
    pub(super) fn texts_with_nodes<'n>(
        &mut self,
        origin: &Origin,
        node: &'n Node,
        field: &str,
        expected: &str,
    ) -> Vec<(&'n str, &'n Node)> {
        let nodes: Vec<&Node> = match &node.kind {
            Kind::Seq(items) => items.iter().collect(),
            _ => vec![node],
        };
        nodes
            .into_iter()
            .filter_map(|n| self.text(origin, n, field, expected).map(|t| (t, n)))
            .collect()
    }

    /// `2 infantry, 1 armor from Germany [at Baltic Sea]`.
    /// `1 infantry to Finland` (`at` is where ` to ` starts): the units
    /// unloaded and where.
    pub(super) fn unload_part(
        &self,
        text: &str,
        at: usize,
    ) -> Result<(UnitList, SpaceId), Vec<String>> {
        let form = "write the unloading as TERRITORY, or UNITS to TERRITORY to unload part of the \
                    cargo (1 infantry to Finland)";
        let mut errors = Vec::new();
        let units = self
            .names
            .unit_list(&text[..at])
            .map_err(|e| errors.extend(e))
            .ok();
        if units.as_ref().is_some_and(Vec::is_empty) {
            errors.push(format!("\"{}\" unloads no units; {form}", text.trim()));
        }
        let to = self
            .names
            .space(&text[at + " to ".len()..])
            .map_err(|e| errors.push(e))
            .ok();
        match (units, to) {
            (Some(units), Some(to)) if errors.is_empty() => Ok((units, to)),
            _ => Err(errors),
        }
    }

    pub(super) fn load(&self, text: &str) -> Result<Load, Vec<String>> {
        let form = "write cargo as UNITS from TERRITORY, optionally followed by at SEA ZONE \
                    (2 infantry from Germany)";
        let Some(from) = rfind_word(text, "from") else {
            return Err(vec![format!("\"{}\": {form}", text.trim())]);
        };
        let units_text = &text[..from];
        let rest = &text[from + " from ".len()..];
        let (from_text, at_text) = match rfind_word(rest, "at") {
            Some(at) => (&rest[..at], Some(&rest[at + " at ".len()..])),
            None => (rest, None),
        };
        let mut errors = Vec::new();
        let units = self
            .names
            .unit_list(units_text)
            .map_err(|e| errors.extend(e))
            .ok();
        if units.as_ref().is_some_and(Vec::is_empty) {
            errors.push(format!("\"{}\" loads no units; {form}", text.trim()));
        }
        let from = self.names.space(from_text).map_err(|e| errors.push(e)).ok();
        let at = match at_text {
            Some(t) => self.names.space(t).map_err(|e| errors.push(e)).ok(),
            None => None,
        };
        match (units, from) {
            (Some(units), Some(from)) if errors.is_empty() => Ok(Load { units, from, at }),
            _ => Err(errors),
        }
    }
}
