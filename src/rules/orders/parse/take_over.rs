//! The `take_over:` section: units taken over from an ally (AAE's Patriotic War).

use super::*;

impl Parser<'_, '_> {
    // ----- take_over -------------------------------------------------------

    /// `take_over:`, a list of `UNITS of POWER in SPACE`.
    pub(super) fn take_over(&mut self, value: &Node) {
        let Some(items) = self.section_list(
            "take_over",
            value,
            "take_over is a list, each take-over on its own line starting with \"- \" \
                         (- 2 infantry of United Kingdom in Moscow)",
        ) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            let origin = self.origin("take_over", i + 1, item);
            let Some(text) = item.text().filter(|t| !t.trim().is_empty()) else {
                let found = match &item.kind {
                    // `- 2 infantry: United Kingdom in Moscow`, by analogy with a move.
                    Kind::Map(_) => "without a colon".to_owned(),
                    _ => format!("but this is {}", item.describe()),
                };
                self.error(&origin, item, None, format!("{TAKE_OVER_FORM}, {found}"));
                continue;
            };
            match self.take_over_text(text) {
                Ok(order) => self.orders.take_over.push(Located {
                    item: order,
                    origin,
                }),
                Err(errors) => {
                    for (field, reason) in errors {
                        self.error(&origin, item, Some(field), reason);
                    }
                }
            }
        }
    }

    /// `2 infantry, 1 fighter of United Kingdom in Moscow`. A name may itself
    /// hold ` of ` or ` in ` (`Strait of Gibraltar`), so every way of
    /// splitting the text at an `of` followed by an `in` is tried, and the one
    /// under which the most parts are names of the game wins (the first of
    /// equals); its problems are the ones reported, each with its field.
    pub(super) fn take_over_text(
        &self,
        text: &str,
    ) -> Result<TakeOverOrder, Vec<(&'static str, String)>> {
        let written = text.trim();
        // Padded, so that a missing part still leaves its word findable
        // (`of United Kingdom in Moscow`).
        let padded = format!(" {written} ");
        let ofs = find_words(&padded, "of");
        if ofs.is_empty() {
            return Err(vec![(
                "power",
                format!(
                    "\"{written}\" does not say whose units they are (of POWER); {TAKE_OVER_FORM}"
                ),
            )]);
        }
        let ins = find_words(&padded, "in");
        // Every pair is resolved against the game's names: a line of many
        // "of"s and "in"s (found by fuzzing: 900 bytes took seconds) would
        // otherwise cost time quadratic in its length. Real names hold one
        // "of" at most.
        if ofs.len() * ins.len() > MAX_TAKE_OVER_SPLITS {
            return Err(vec![(
                "units",
                format!(
                    "this take-over has {} \"of\" and {} \"in\": too many to tell the names \
                     apart; {TAKE_OVER_FORM}",
                    ofs.len(),
                    ins.len()
                ),
            )]);
        }
        let splits: Vec<(usize, usize)> = ofs
            .iter()
            .flat_map(|&o| {
                ins.iter()
                    .copied()
                    .filter(move |&n| n >= o + " of".len())
                    .map(move |n| (o, n))
            })
            .collect();
        if splits.is_empty() {
            return Err(vec![(
                "space",
                format!(
                    "\"{written}\" does not say where the units are (in TERRITORY); \
                     {TAKE_OVER_FORM}"
                ),
            )]);
        }
        let mut best: Option<(usize, TakeOverParts)> = None;
        for (o, n) in splits {
            let units = padded[..o].trim();
            let power = padded.get(o + " of ".len()..n).unwrap_or("").trim();
            let space = padded[n + " in ".len()..].trim();
            let parts = self.take_over_parts(units, power, space);
            let score = [
                parts.units.is_ok(),
                parts.power.is_ok(),
                parts.space.is_ok(),
            ]
            .iter()
            .filter(|ok| **ok)
            .count();
            if best.as_ref().is_none_or(|(s, _)| score > *s) {
                best = Some((score, parts));
            }
        }
        let (_, parts) = best.expect("at least one split");
        match parts {
            TakeOverParts {
                units: Ok(units),
                power: Ok(from),
                space: Ok(space),
            } => Ok(TakeOverOrder { space, from, units }),
            TakeOverParts {
                units,
                power,
                space,
            } => {
                let mut errors: Vec<(&'static str, String)> = Vec::new();
                errors.extend(units.err().into_iter().flatten().map(|e| ("units", e)));
                errors.extend(power.err().map(|e| ("power", e)));
                errors.extend(space.err().map(|e| ("space", e)));
                Err(errors)
            }
        }
    }

    /// The three parts of a take-over, each resolved or with its problems.
    pub(super) fn take_over_parts(&self, units: &str, power: &str, space: &str) -> TakeOverParts {
        let units = match self.names.unit_list(units) {
            _ if units.is_empty() => Err(vec![format!(
                "the take-over names no units before of; {TAKE_OVER_FORM}"
            )]),
            Ok(list) if list.is_empty() => Err(vec![format!(
                "the take-over names no units before of; {TAKE_OVER_FORM}"
            )]),
            other => other,
        };
        let power = if power.is_empty() {
            Err(format!(
                "the take-over names no power between of and in; {TAKE_OVER_FORM}"
            ))
        } else {
            self.names.power(power)
        };
        let space = if space.is_empty() {
            Err(format!(
                "the take-over names no territory after in; {TAKE_OVER_FORM}"
            ))
        } else {
            self.names.space(space)
        };
        TakeOverParts {
            units,
            power,
            space,
        }
    }
}
