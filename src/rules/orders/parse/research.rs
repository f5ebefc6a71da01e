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
            "research is key: value lines (buy: researcher tokens or research dice to \
             buy, chart: the breakthrough chart, developments: the ones wanted where the \
             player chooses)",
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
                Some("developments") => self.developments(&origin, value, &mut order),
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

    /// `developments: [jet power, heavy bombers]` (or one line, commas
    /// between): each a development the game knows.
    fn developments(&mut self, origin: &Origin, value: &Node, order: &mut ResearchOrder) {
        let names: Vec<(String, &Node)> = match &value.kind {
            Kind::Seq(items) => items
                .iter()
                .filter_map(|n| n.text().map(|t| (t.to_owned(), n)))
                .collect(),
            _ => match value.text() {
                Some(t) => t
                    .split(',')
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
                    .map(|t| (t.to_owned(), value))
                    .collect(),
                None => Vec::new(),
            },
        };
        if names.is_empty() {
            self.error(
                origin,
                value,
                Some("developments"),
                "developments lists the developments wanted, most wanted first \
                 (developments: [jet power, heavy bombers])"
                    .to_owned(),
            );
            return;
        }
        for (name, node) in names {
            match crate::rules::vocab::Technology::from_name(&name) {
                Some(t) if !order.developments.contains(&t) => order.developments.push(t),
                Some(t) => self.error(
                    origin,
                    node,
                    Some("developments"),
                    format!("{t} is listed twice"),
                ),
                None => {
                    let known: Vec<&str> = crate::rules::vocab::Technology::ALL
                        .iter()
                        .map(|t| t.name())
                        .collect();
                    self.error(
                        origin,
                        node,
                        Some("developments"),
                        format!(
                            "there is no development called \"{name}\"; the developments are: {}",
                            known.join(", ")
                        ),
                    );
                }
            }
        }
    }
}
