//! The `battles:` section: battle plans (order of loss, retreat, submarines, raiders).

use super::*;

impl Parser<'_, '_> {
    // ----- battles ---------------------------------------------------------

    pub(super) fn battles(&mut self, value: &Node) {
        let Some(entries) = self.section_map(
            "battles",
            value,
            "battles maps each battle's territory or sea zone (or default) to its \
                         plan",
        ) else {
            return;
        };
        let mut seen: Vec<(Option<SpaceId>, usize)> = Vec::new();
        for (i, (key, plan)) in entries.iter().enumerate() {
            let origin = self.origin("battles", i + 1, key);
            let Some(written) =
                self.text(&origin, key, "battle", "a territory, sea zone or default")
            else {
                continue;
            };
            let space = if key_matches(written, keys::DEFAULT_PLAN) {
                None
            } else {
                match self.names.space(written) {
                    Ok(id) => Some(id),
                    Err(reason) => {
                        self.error(&origin, key, Some("battle"), reason);
                        continue;
                    }
                }
            };
            if let Some((_, line)) = seen.iter().find(|(s, _)| *s == space) {
                let reason = format!(
                    "there is already a plan for {} (line {line}); give one plan per battle",
                    space.map_or("default", |s| self.names.game().space_name(s))
                );
                self.error(&origin, key, None, reason);
                continue;
            }
            seen.push((space, key.line));
            if let Some(plan) = self.plan(&origin, space, plan) {
                self.orders.battles.push(Located { item: plan, origin });
            }
        }
    }

    pub(super) fn plan(
        &mut self,
        origin: &Origin,
        space: Option<SpaceId>,
        node: &Node,
    ) -> Option<BattlePlan> {
        let mut plan = BattlePlan {
            space,
            retreat: Retreat::Never,
            retreat_to: None,
            losses: Vec::new(),
            bombing_raid: false,
            raiders: Vec::new(),
            ignore: false,
            submarines: None,
            screen: 0,
            landing: None,
            teams: Default::default(),
        };
        let entries = match &node.kind {
            Kind::Map(entries) => entries,
            Kind::Null => return Some(plan),
            _ => {
                self.error(
                    origin,
                    node,
                    None,
                    format!(
                        "a battle plan is written {{retreat: ..., losses: ...}}, but here it is {}",
                        node.describe()
                    ),
                );
                return None;
            }
        };
        let errors_before = self.errors.len();
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            i += 1;
            match key.text().and_then(|k| find_key(k, keys::BATTLE_PLAN)) {
                Some("retreat") => {
                    if let Some((retreat, to)) = self.retreat(origin, value) {
                        plan.retreat = retreat;
                        plan.retreat_to = to;
                    }
                }
                Some("bombing_raid") => {
                    if let Some(b) = self.flag(origin, value, "bombing_raid") {
                        plan.bombing_raid = b;
                    }
                }
                Some("raiders") => {
                    if let Some(list) = self.unit_list(origin, value, "raiders") {
                        plan.raiders = list;
                    }
                }
                Some("ignore") => {
                    if let Some(b) = self.flag(origin, value, "ignore") {
                        plan.ignore = b;
                    }
                }
                Some("submarines") => plan.submarines = self.submarine_policy(origin, value),
                Some("landing") => plan.landing = self.landing(origin, value),
                Some("special_force_teams") => {
                    if let Some(t) = self.team_plan(origin, value) {
                        plan.teams = t;
                    }
                }
                Some("screen") => match value.kind {
                    Kind::Int(n) if n >= 0 => plan.screen = u32::try_from(n).unwrap_or(u32::MAX),
                    _ => self.error(
                        origin,
                        value,
                        Some("screen"),
                        format!(
                            "screen takes how many of your attacking submarines try the escort \
                             screen, a whole number from 0 (screen: 2), not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    ),
                },
                Some(_) => {
                    let extra = Self::rejoined(entries, i - 1, |t| self.is_units(t));
                    let mut pieces = vec![value];
                    pieces.extend(entries[i..i + extra].iter().map(|(k, _)| k));
                    i += extra;
                    plan.losses = self.loss_order(origin, &pieces);
                }
                None if key.text().is_some_and(|k| key_matches(k, "to")) => self.error(
                    origin,
                    key,
                    Some("to"),
                    "to goes inside retreat: retreat: {when_attackers_below: 3, to: Poland}"
                        .to_owned(),
                ),
                None => self.unknown_key(origin, key, "of a battle plan", keys::BATTLE_PLAN),
            }
        }
        (self.errors.len() == errors_before).then_some(plan)
    }

    /// `{surprise: TYPES, lost: TYPES}`: the attacker's allotment of the
    /// landing roll (J Boulton JB-16).
    pub(super) fn landing(&mut self, origin: &Origin, node: &Node) -> Option<LandingAllotment> {
        let Kind::Map(entries) = &node.kind else {
            self.error(
                origin,
                node,
                Some("landing"),
                format!(
                    "landing is written {{surprise: [paratrooper], lost: [special force team]}}: \
                     who takes the landing roll's 6s first and who its 1s, but here it is {}",
                    node.describe()
                ),
            );
            return None;
        };
        let before = self.errors.len();
        let mut allotment = LandingAllotment::default();
        for (key, value) in entries {
            match key.text().and_then(|k| find_key(k, keys::LANDING)) {
                Some("surprise") => {
                    allotment.surprise = self.type_order(origin, &[value], "surprise");
                }
                Some(_) => allotment.lost = self.type_order(origin, &[value], "lost"),
                None => self.unknown_key(origin, key, "of landing", keys::LANDING),
            }
        }
        if self.errors.len() == before && allotment.surprise.is_empty() && allotment.lost.is_empty()
        {
            self.error(
                origin,
                node,
                Some("landing"),
                "landing names no unit type: write {surprise: [paratrooper]}, {lost: [special \
                 force team]} or both"
                    .to_owned(),
            );
        }
        (self.errors.len() == before).then_some(allotment)
    }

    /// `never`, `{after_round: N}`, `{when_attackers_below: N}` or
    /// `{when_odds_below: P}`, each mapping with an optional `to: SPACE`.
    pub(super) fn retreat(
        &mut self,
        origin: &Origin,
        node: &Node,
    ) -> Option<(Retreat, Option<SpaceId>)> {
        let forms = "retreat is never, {after_round: N}, {when_attackers_below: N} or \
                     {when_odds_below: P}, optionally with to: SPACE inside the braces";
        if let Some(text) = node.text() {
            if key_matches(text, keys::RETREAT_NEVER) {
                return Some((Retreat::Never, None));
            }
            let mut reason = format!("\"{text}\" is not a retreat; {forms}.");
            if let Some(s) = did_you_mean(text, keys::RETREAT.iter().copied()) {
                reason = format!("\"{text}\" is not a retreat; did you mean {{{s}: N}}? {forms}.");
            }
            self.error(origin, node, Some("retreat"), reason);
            return None;
        }
        let Kind::Map(entries) = &node.kind else {
            self.error(
                origin,
                node,
                Some("retreat"),
                format!("{forms}; here it is {}", node.describe()),
            );
            return None;
        };
        let mut condition: Option<Retreat> = None;
        let mut to = None;
        let mut ok = true;
        for (key, value) in entries {
            let Some(word) = key.text().and_then(|k| find_key(k, keys::RETREAT)) else {
                self.unknown_key(origin, key, "of a retreat", keys::RETREAT);
                ok = false;
                continue;
            };
            if word == "to" {
                to = self.space(origin, value, "to");
                ok &= to.is_some();
                continue;
            }
            // The value: a probability for when_odds_below, else a whole
            // number from 1.
            let parsed = if word == "when_odds_below" {
                match value.kind {
                    Kind::Int(_) | Kind::Float => value.raw.trim().parse::<f64>().ok(),
                    _ => None,
                }
                .filter(|p| p.is_finite() && *p > 0.0 && *p <= 1.0)
                .map(Retreat::WhenOddsBelow)
                .ok_or("a probability above 0 and at most 1 (0.3 for 30%)")
            } else {
                match value.kind {
                    Kind::Int(n) if n >= 1 => u32::try_from(n).ok(),
                    _ => None,
                }
                .map(|n| {
                    if word == "after_round" {
                        Retreat::AfterRound(n)
                    } else {
                        Retreat::WhenAttackersBelow(n)
                    }
                })
                .ok_or("a whole number from 1")
            };
            let parsed = match parsed {
                Ok(r) => r,
                Err(wanted) => {
                    self.error(
                        origin,
                        value,
                        Some(word),
                        format!(
                            "{word} takes {wanted}, not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    );
                    ok = false;
                    continue;
                }
            };
            if condition.is_some() {
                self.error(
                    origin,
                    key,
                    Some(word),
                    "a retreat has one condition: after_round, when_attackers_below or \
                     when_odds_below, not two"
                        .to_owned(),
                );
                ok = false;
                continue;
            }
            condition = Some(parsed);
        }
        let Some(condition) = condition else {
            if ok {
                self.error(
                    origin,
                    node,
                    Some("retreat"),
                    format!("the retreat has no condition; {forms}"),
                );
            }
            return None;
        };
        ok.then_some((condition, to))
    }
}
