//! The `research:` section: researcher tokens to buy and the breakthrough chart.

use super::*;

impl Parser<'_, '_> {
    // ----- research --------------------------------------------------------

    /// `research: {buy: 2, chart: air and naval}`; `buy` defaults to 0 (roll
    /// the tokens held), the chart by name or number.
    pub(super) fn research(&mut self, value: &Node) {
        let origin = self.origin("research", 0, value);
        let Some(entries) = self.section_map(
            "research",
            value,
            "research is key: value lines (buy: researcher tokens to buy, chart: \
                         the breakthrough chart)",
        ) else {
            return;
        };
        let errors_before = self.errors.len();
        let mut order = ResearchOrder::default();
        for (key, value) in entries {
            match key.text().and_then(|k| find_key(k, keys::RESEARCH)) {
                Some("buy") => match value.kind {
                    Kind::Int(n) if n >= 0 && u32::try_from(n).is_ok() => {
                        order.buy = u32::try_from(n).unwrap_or(0);
                    }
                    _ => self.error(
                        &origin,
                        value,
                        Some("buy"),
                        format!(
                            "buy is how many researcher tokens to buy, a whole number, not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    ),
                },
                Some(_) => {
                    let text = match value.kind {
                        Kind::Int(n) => Some(n.to_string()),
                        _ => self
                            .text(&origin, value, "chart", "a research chart")
                            .map(str::to_owned),
                    };
                    if let Some(text) = text {
                        match crate::rules::research::chart_named(self.names.game(), &text) {
                            Ok(c) => order.chart = Some(c),
                            Err(reason) => self.error(&origin, value, Some("chart"), reason),
                        }
                    }
                }
                None => self.unknown_key(&origin, key, "of research", keys::RESEARCH),
            }
        }
        if self.errors.len() == errors_before {
            self.orders.research = Some(Located {
                item: order,
                origin,
            });
        }
    }
}
