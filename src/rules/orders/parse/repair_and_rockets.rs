//! The `repair:` and `rockets:` sections (Anniversary), and J Boulton's
//! `industrial_strike:`, a mapping like `repair:`.

use super::*;

impl Parser<'_, '_> {
    // ----- repair and rockets ----------------------------------------------

    /// `repair:`, a mapping of territories to the damage repaired there.
    pub(super) fn repair(&mut self, value: &Node) {
        self.orders.repair = self.territory_numbers(
            "repair",
            value,
            "repair maps each territory to the damage repaired on its industrial complex \
             (Germany: 3)",
            ("points", "the damage repaired", "Germany: 3"),
        );
    }

    /// `industrial_strike:` (J Boulton JB-31), a mapping of territories to
    /// the number of special force teams there that strike its complex.
    pub(super) fn industrial_strike(&mut self, value: &Node) {
        self.orders.industrial_strike = self.territory_numbers(
            "industrial_strike",
            value,
            "industrial_strike maps each territory to the number of your special force teams \
             there that strike its industrial complex (United Kingdom: 2)",
            ("teams", "the number of teams", "United Kingdom: 2"),
        );
    }

    /// A section mapping territories to whole numbers from 1, each
    /// territory once; `(field, what, example)` name the number in errors.
    fn territory_numbers(
        &mut self,
        section: &'static str,
        value: &Node,
        expected: &str,
        (field, what, example): (&str, &str, &str),
    ) -> Vec<Located<(SpaceId, u32)>> {
        let mut out = Vec::new();
        let Some(entries) = self.section_map(section, value, expected) else {
            return out;
        };
        let mut seen: Vec<(SpaceId, usize)> = Vec::new();
        for (i, (key, number)) in entries.iter().enumerate() {
            let origin = self.origin(section, i + 1, key);
            let Some(space) = self.space(&origin, key, "space") else {
                continue;
            };
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "{} is given twice (first at line {line}); write its {} once",
                    self.names.game().space_name(space),
                    section.replace('_', " ")
                );
                self.error(&origin, key, Some("space"), reason);
                continue;
            }
            seen.push((space, key.line));
            match number.kind {
                Kind::Int(n) if n >= 1 && u32::try_from(n).is_ok() => {
                    out.push(Located {
                        item: (space, u32::try_from(n).unwrap_or(0)),
                        origin,
                    });
                }
                _ => self.error(
                    &origin,
                    number,
                    Some(field),
                    format!(
                        "{what} is a whole number from 1 ({example}), not \"{}\"",
                        number.text().unwrap_or(number.describe())
                    ),
                ),
            }
        }
        out
    }

    /// `rockets:`, a list of `FROM -> TARGET`.
    pub(super) fn rockets(&mut self, value: &Node) {
        let Some(items) = self.section_list(
            "rockets",
            value,
            "rockets is a list, each rocket on its own line starting with \"- \" \
                         (- Germany -> United Kingdom)",
        ) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let origin = self.origin("rockets", i + 1, item);
            let form = "a rocket is written FROM -> TARGET: the territory of the AA gun, then \
                        the territory of the industrial complex it strikes (Germany -> United \
                        Kingdom)";
            let Some(text) = item.text().filter(|t| !t.trim().is_empty()) else {
                self.error(
                    &origin,
                    item,
                    None,
                    format!("{form}, but this is {}", item.describe()),
                );
                continue;
            };
            let parts: Vec<&str> = text.split(['→']).flat_map(|p| p.split("->")).collect();
            if parts.len() != 2 {
                self.error(
                    &origin,
                    item,
                    None,
                    format!("{form}, not \"{}\"", text.trim()),
                );
                continue;
            }
            let from = self.names.space(parts[0].trim());
            let to = self.names.space(parts[1].trim());
            match (from, to) {
                (Ok(from), Ok(to)) => self.orders.rockets.push(Located {
                    item: (from, to),
                    origin,
                }),
                (from, to) => {
                    if let Err(reason) = from {
                        self.error(&origin, item, Some("from"), reason);
                    }
                    if let Err(reason) = to {
                        self.error(&origin, item, Some("target"), reason);
                    }
                }
            }
        }
    }
}
