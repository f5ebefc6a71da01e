//! The `lend_lease:` and `oil_convoy:` sections (Advanced AAE): IPCs a
//! power sends an ally at the start of its turn, a whole number.

use super::*;

impl Parser<'_, '_> {
    // ----- lend-lease and oil convoy ---------------------------------------

    /// `lend_lease: 8` or `oil_convoy: 6`: the IPCs sent.
    pub(super) fn payment(&mut self, section: &'static str, value: &Node) {
        if value.kind == Kind::Null {
            return;
        }
        let origin = self.origin(section, 0, value);
        match value.kind {
            Kind::Int(n) if n >= 1 && u32::try_from(n).is_ok() => {
                let item = Located {
                    item: u32::try_from(n).unwrap_or(0),
                    origin,
                };
                if section == "lend_lease" {
                    self.orders.lend_lease = Some(item);
                } else {
                    self.orders.oil_convoy = Some(item);
                }
            }
            _ => self.error(
                &origin,
                value,
                Some("ipcs"),
                format!(
                    "{section} is the IPCs sent, a whole number from 1 ({section}: 4), not \"{}\"",
                    value.text().unwrap_or(value.describe())
                ),
            ),
        }
    }
}
