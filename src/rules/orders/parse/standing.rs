//! The `standing:` section: how a power defends when it cannot be asked, and the Allies' choices (bystander losses, the Middle East payment).

use super::*;

impl Parser<'_, '_> {
    // ----- standing orders -------------------------------------------------

    pub(super) fn standing(&mut self, value: &Node) {
        let origin = Origin {
            section: "standing",
            index: 0,
            line: Some(value.line),
            text: String::new(),
        };
        let entries = match &value.kind {
            Kind::Null => return,
            Kind::Map(entries) => entries,
            _ => {
                self.error(
                    &origin,
                    value,
                    None,
                    format!(
                        "standing orders are key: value lines (losses:, keep_one_land_unit:, \
                         submarines:, intercept:, bystander_losses:, middle_east_payment:, \
                         neutral_defenders:, aversion:, averted:, special_force_teams:), but here \
                         they are {}",
                        value.describe()
                    ),
                );
                return;
            }
        };
        let errors_before = self.errors.len();
        let mut standing = StandingOrders::default();
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            i += 1;
            match key.text().and_then(|k| find_key(k, keys::STANDING)) {
                Some("losses") => {
                    let extra = Self::rejoined(entries, i - 1, |t| self.is_units(t));
                    let mut pieces = vec![value];
                    pieces.extend(entries[i..i + extra].iter().map(|(k, _)| k));
                    i += extra;
                    standing.losses = self.loss_order(&origin, &pieces);
                }
                Some("keep_one_land_unit") => {
                    if let Some(b) = self.flag(&origin, value, "keep_one_land_unit") {
                        standing.keep_one_land_unit = b;
                    }
                }
                Some("bystander_losses") => {
                    if let Some(b) = self.bystander_losses(&origin, value) {
                        standing.bystander_losses = b;
                    }
                }
                Some("middle_east_payment") => {
                    if let Some(m) = self.middle_east_payment(&origin, value) {
                        standing.middle_east_payment = m;
                    }
                }
                Some("special_force_teams") => {
                    if let Some(t) = self.team_standing(&origin, value) {
                        standing.teams = t;
                    }
                }
                Some("neutral_defenders") => {
                    if let Some(n) = self.neutral_defenders(&origin, value) {
                        standing.neutral_defenders = n;
                    }
                }
                Some("aversion") => standing.aversion = self.aversion(&origin, value),
                Some("averted") => {
                    if let Some(a) = self.averted(&origin, value) {
                        standing.averted = a;
                    }
                }
                Some("intercept") => match value.kind {
                    Kind::Int(n) if u32::try_from(n).is_ok() => {
                        standing.intercept = u32::try_from(n).ok();
                    }
                    _ => self.error(
                        &origin,
                        value,
                        Some("intercept"),
                        format!(
                            "intercept is how many fighters at most rise against a raid, a whole \
                             number from 0, not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    ),
                },
                Some(_) => {
                    if let Some(p) = self.submarine_policy(&origin, value) {
                        standing.submarines = p;
                    }
                }
                None => self.unknown_key(&origin, key, "of standing orders", keys::STANDING),
            }
        }
        if self.errors.len() == errors_before {
            self.orders.standing = Some(Located {
                item: standing,
                origin,
            });
        }
    }

    /// One of [`keys::SUBMARINE_POLICIES`], or an error on `submarines`.
    pub(super) fn submarine_policy(
        &mut self,
        origin: &Origin,
        value: &Node,
    ) -> Option<SubmarinePolicy> {
        if let Kind::Map(entries) = &value.kind {
            return self.submarine_withdrawal(origin, value, entries);
        }
        let text = value.text().unwrap_or("");
        match find_key(text, keys::SUBMARINE_POLICIES) {
            Some("fight") => Some(SubmarinePolicy::Fight),
            Some("submerge") => Some(SubmarinePolicy::Submerge),
            Some(_) => Some(SubmarinePolicy::SubmergeAfterFirstRound),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!("\"{shown}\" is not a submarine policy.");
                if let Some(s) = did_you_mean(text, keys::SUBMARINE_POLICIES.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                reason.push_str(&format!(
                    " The policies are: {}.",
                    keys::SUBMARINE_POLICIES.join(", ")
                ));
                self.error(origin, value, Some("submarines"), reason);
                None
            }
        }
    }

    /// `{withdraw_after_round: N, to: ZONE}` (`to` optional).
    fn submarine_withdrawal(
        &mut self,
        origin: &Origin,
        value: &Node,
        entries: &[(Node, Node)],
    ) -> Option<SubmarinePolicy> {
        let mut after_round = None;
        let mut to = None;
        let mut ok = true;
        for (key, v) in entries {
            match key
                .text()
                .and_then(|k| find_key(k, keys::SUBMARINE_WITHDRAWAL))
            {
                Some("to") => {
                    to = self.space(origin, v, "to");
                    ok &= to.is_some();
                }
                Some(word) => match v.kind {
                    Kind::Int(n) if n >= 1 => after_round = u32::try_from(n).ok(),
                    _ => {
                        self.error(
                            origin,
                            v,
                            Some(word),
                            format!(
                                "{word} takes a whole number from 1, not \"{}\"",
                                v.text().unwrap_or(v.describe())
                            ),
                        );
                        ok = false;
                    }
                },
                None => {
                    self.unknown_key(
                        origin,
                        key,
                        "of a submarine withdrawal",
                        keys::SUBMARINE_WITHDRAWAL,
                    );
                    ok = false;
                }
            }
        }
        match after_round {
            Some(after_round) if ok => {
                Some(SubmarinePolicy::WithdrawAfterRound { after_round, to })
            }
            Some(_) => None,
            None => {
                if ok {
                    self.error(
                        origin,
                        value,
                        Some("submarines"),
                        "a submarine withdrawal is written {withdraw_after_round: N, to: SEA ZONE} \
                         (to may be left out)"
                            .to_owned(),
                    );
                }
                None
            }
        }
    }

    pub(super) fn bystander_losses(
        &mut self,
        origin: &Origin,
        value: &Node,
    ) -> Option<BystanderLosses> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::BYSTANDER_LOSSES) {
            Some("last") => Some(BystanderLosses::Last),
            Some(_) => Some(BystanderLosses::AlliesChoose),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!(
                    "\"{shown}\" is not a choice of bystander losses: last (your ships standing \
                     by in an ally's sea battle are lost only after the ally's units) or \
                     allies_choose (the attacking ally's battle plan may name them first)."
                );
                if let Some(s) = did_you_mean(text, keys::BYSTANDER_LOSSES.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                self.error(origin, value, Some("bystander_losses"), reason);
                None
            }
        }
    }

    pub(super) fn neutral_defenders(
        &mut self,
        origin: &Origin,
        value: &Node,
    ) -> Option<NeutralDefenders> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::NEUTRAL_DEFENDERS) {
            Some("receive") => Some(NeutralDefenders::Receive),
            Some(_) => Some(NeutralDefenders::InTurn),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!(
                    "\"{shown}\" is not a word on neutral defenders: receive (your power takes \
                     the neutral defenders your side gains, before the powers that did not ask) \
                     or in_turn (the first power of your side in turn order after the violator \
                     takes them, the default)."
                );
                if let Some(s) = did_you_mean(text, keys::NEUTRAL_DEFENDERS.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                self.error(origin, value, Some("neutral_defenders"), reason);
                None
            }
        }
    }

    pub(super) fn middle_east_payment(
        &mut self,
        origin: &Origin,
        value: &Node,
    ) -> Option<MiddleEastPayment> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::MIDDLE_EAST_PAYMENT) {
            Some("first") => Some(MiddleEastPayment::First),
            Some("last") => Some(MiddleEastPayment::Last),
            Some(_) => Some(MiddleEastPayment::RichestFirst),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!(
                    "\"{shown}\" is not a place in the Middle East payment: first (your power \
                     pays Germany before the other Allies), richest_first (the Allies pay in \
                     the order of their treasuries, the default) or last (your power pays only \
                     what the others cannot)."
                );
                if let Some(s) = did_you_mean(text, keys::MIDDLE_EAST_PAYMENT.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                self.error(origin, value, Some("middle_east_payment"), reason);
                None
            }
        }
    }

    /// `aversion:` (J Boulton JB-35): a mapping of territories to the unit
    /// type the teams there name, `France: armor` (just before the enemy's
    /// combat move) or `France: {unit: armor, when: after}`.
    fn aversion(&mut self, origin: &Origin, value: &Node) -> Vec<AversionOrder> {
        let form = "aversion maps each territory where your special force teams stand to the \
                    enemy unit type they name: France: armor, or France: {unit: armor, when: \
                    after} (when: before, the default, or after the enemy's combat move)";
        let mut out: Vec<AversionOrder> = Vec::new();
        let Kind::Map(entries) = &value.kind else {
            if value.kind != Kind::Null {
                let reason = format!("{form}, but here it is {}", value.describe());
                self.error(origin, value, Some("aversion"), reason);
            }
            return out;
        };
        for (key, entry) in entries {
            let Some(space) = self.space(origin, key, "aversion") else {
                continue;
            };
            if out.iter().any(|a| a.space == space) {
                let reason = format!(
                    "{} is given twice; name one unit type for the teams there",
                    self.names.game().space_name(space)
                );
                self.error(origin, key, Some("aversion"), reason);
                continue;
            }
            let mut after = false;
            let mut unit_node = Some(entry);
            if let Kind::Map(fields) = &entry.kind {
                unit_node = None;
                for (k, v) in fields {
                    match k.text().and_then(|t| find_key(t, keys::AVERSION)) {
                        Some("unit") => unit_node = Some(v),
                        Some(_) => match v.text().and_then(|t| find_key(t, keys::AVERSION_WHEN)) {
                            Some(w) => after = w == "after",
                            None => {
                                let reason = format!(
                                    "when is before or after (the enemy's combat move), not \
                                     \"{}\"",
                                    v.text().unwrap_or(v.describe())
                                );
                                self.error(origin, v, Some("aversion"), reason);
                            }
                        },
                        None => self.unknown_key(origin, k, "of an Aversion", keys::AVERSION),
                    }
                }
            }
            let Some(unit_node) = unit_node else {
                self.error(
                    origin,
                    entry,
                    Some("aversion"),
                    format!("{form}: unit is missing"),
                );
                continue;
            };
            let Some(text) = self.text(origin, unit_node, "aversion", "a unit type") else {
                continue;
            };
            match self.names.type_list(text) {
                Ok(list) if list.len() == 1 => out.push(AversionOrder {
                    space,
                    unit: list[0],
                    after,
                }),
                Ok(_) => {
                    let reason = format!("{form}: one unit type a territory, not \"{text}\"");
                    self.error(origin, unit_node, Some("aversion"), reason);
                }
                Err(reasons) => self.errors_at(origin, unit_node, "aversion", reasons),
            }
        }
        out
    }

    /// One of [`keys::AVERTED`], or an error on `averted`.
    pub(super) fn averted(&mut self, origin: &Origin, value: &Node) -> Option<Averted> {
        let text = value.text().unwrap_or("");
        match find_key(text, keys::AVERTED) {
            Some("stay") => Some(Averted::Stay),
            Some(_) => Some(Averted::Withdraw),
            None => {
                let shown = value.text().unwrap_or(value.describe());
                let mut reason = format!(
                    "\"{shown}\" is not a choice for a unit an enemy special force team \
                     averts: stay (it stays and rolls in no combat this turn, the default) or \
                     withdraw (it pulls back into an adjacent friendly territory nearer your \
                     capital)."
                );
                if let Some(s) = did_you_mean(text, keys::AVERTED.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                self.error(origin, value, Some("averted"), reason);
                None
            }
        }
    }
}
