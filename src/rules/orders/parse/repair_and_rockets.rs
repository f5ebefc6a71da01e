//! The `repair:` and `rockets:` sections (Anniversary).

use super::*;

impl Parser<'_, '_> {
    // ----- repair and rockets ----------------------------------------------

    /// `repair:`, a mapping of territories to the damage repaired there.
    pub(super) fn repair(&mut self, value: &Node) {
        let Some(entries) = self.section_map(
            "repair",
            value,
            "repair maps each territory to the damage repaired on its industrial \
                         complex (Germany: 3)",
        ) else {
            return;
        };
        let mut seen: Vec<(SpaceId, usize)> = Vec::new();
        for (i, (key, points)) in entries.iter().enumerate() {
            let origin = self.origin("repair", i + 1, key);
            let Some(space) = self.space(&origin, key, "space") else {
                continue;
            };
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "{} is given twice (first at line {line}); write its repair once",
                    self.names.game().space_name(space)
                );
                self.error(&origin, key, Some("space"), reason);
                continue;
            }
            seen.push((space, key.line));
            match points.kind {
                Kind::Int(n) if n >= 1 && u32::try_from(n).is_ok() => {
                    self.orders.repair.push(Located {
                        item: (space, u32::try_from(n).unwrap_or(0)),
                        origin,
                    });
                }
                _ => self.error(
                    &origin,
                    points,
                    Some("points"),
                    format!(
                        "the damage repaired is a whole number from 1 (Germany: 3), not \"{}\"",
                        points.text().unwrap_or(points.describe())
                    ),
                ),
            }
        }
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
