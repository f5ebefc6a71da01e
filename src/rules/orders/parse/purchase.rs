//! The `purchase:` and `place:` sections: units bought, and where they are mobilized.

use super::*;

impl Parser<'_, '_> {
    // ----- bid -------------------------------------------------------------

    pub(super) fn bid(&mut self, value: &Node) {
        let origin = self.origin("bid", 0, value);
        match value.kind {
            Kind::Int(n) if u32::try_from(n).is_ok_and(|n| n <= 10_000) => {
                self.orders.bid = Some(Located {
                    item: u32::try_from(n).expect("checked"),
                    origin,
                });
            }
            _ => self.error(
                &origin,
                value,
                None,
                format!(
                    "a bid is a whole number of IPCs from 0 to 10000 (bid: 9), not \"{}\"",
                    value.text().unwrap_or(value.describe())
                ),
            ),
        }
    }

    // ----- purchase --------------------------------------------------------

    pub(super) fn purchase(&mut self, value: &Node) {
        if value.kind == Kind::Null {
            return;
        }
        let origin = self.origin("purchase", 0, value);
        if let Some(list) = self.unit_list(&origin, value, "units") {
            self.orders.purchase = Some(Located { item: list, origin });
        }
    }

    // ----- place -----------------------------------------------------------

    pub(super) fn place(&mut self, value: &Node) {
        let Some(entries) = self.section_map(
            "place",
            value,
            "place maps each territory or sea zone to the units placed there \
                         (Germany: 6 infantry)",
        ) else {
            return;
        };
        let mut seen: Vec<(SpaceId, usize)> = Vec::new();
        let mut index = 0;
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            let extra = Self::rejoined(entries, i, |t| {
                self.names.space(t).is_err() && self.is_units(t)
            });
            i += 1 + extra;
            index += 1;
            let origin = self.origin("place", index, key);
            let Some(space) = self.space(&origin, key, "space") else {
                continue;
            };
            let mut texts =
                self.list_texts(&origin, value, "units", "a unit list such as 6 infantry");
            texts.extend(entries[i - extra..i].iter().filter_map(|(k, _)| k.text()));
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "{} is given twice (first at line {line}); put all its units in one entry",
                    self.names.game().space_name(space)
                );
                self.error(&origin, key, Some("space"), reason);
                continue;
            }
            seen.push((space, key.line));
            if texts.is_empty() {
                continue;
            }
            match self.names.unit_list(&texts.join(", ")) {
                Ok(units) => self.orders.place.push(Located {
                    item: (space, units),
                    origin,
                }),
                Err(reasons) => self.errors_at(&origin, value, "units", reasons),
            }
        }
    }
}
