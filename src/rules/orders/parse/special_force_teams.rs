//! `special_force_teams:` in a battle plan (the attacker's missions) and in
//! standing orders (the defender's), J Boulton JB-27..34.

use super::*;
use crate::rules::orders::special_force_teams::{Evasion, Mission, TeamPlan, TeamStanding};

impl Parser<'_, '_> {
    /// The attacker's `special_force_teams:` of a battle plan.
    pub(super) fn team_plan(&mut self, origin: &Origin, node: &Node) -> Option<TeamPlan> {
        let entries = self.team_entries(origin, node, "{missions: [...], disruption: ...}")?;
        let errors_before = self.errors.len();
        let mut plan = TeamPlan::default();
        let mut i = 0;
        while i < entries.len() {
            let key = &entries[i].0;
            i += 1;
            match key.text().and_then(|k| find_key(k, keys::TEAM_PLAN)) {
                Some("missions") => {
                    let pieces = split_pieces(entries, &mut i, is_mission);
                    plan.missions = self.missions(origin, &pieces, true);
                }
                Some(_) => {
                    let pieces = split_pieces(entries, &mut i, |t| self.is_units(t));
                    plan.disruption = self.type_order(origin, &pieces, "disruption");
                }
                None => self.unknown_key(
                    origin,
                    key,
                    "of a battle plan's special_force_teams",
                    keys::TEAM_PLAN,
                ),
            }
        }
        (self.errors.len() == errors_before).then_some(plan)
    }

    /// The defender's `special_force_teams:` of standing orders.
    pub(super) fn team_standing(&mut self, origin: &Origin, node: &Node) -> Option<TeamStanding> {
        let entries = self.team_entries(
            origin,
            node,
            "{missions: [...], evasive: ..., save: ..., to: ..., round: N}",
        )?;
        let errors_before = self.errors.len();
        let mut standing = TeamStanding::default();
        let mut i = 0;
        while i < entries.len() {
            let (key, value) = &entries[i];
            i += 1;
            match key.text().and_then(|k| find_key(k, keys::TEAM_STANDING)) {
                Some("missions") => {
                    let pieces = split_pieces(entries, &mut i, is_mission);
                    standing.missions = self.missions(origin, &pieces, false);
                }
                Some("evasive") => {
                    let text = value.text().unwrap_or("");
                    match find_key(text, keys::EVASIONS) {
                        Some("sacrifice") => standing.evasive = Evasion::Sacrifice,
                        Some(_) => standing.evasive = Evasion::SlipOut,
                        None => {
                            let shown = value.text().unwrap_or(value.describe());
                            let mut reason = format!(
                                "\"{shown}\" is not what an Evasive mission does: slip_out (the \
                                 team leaves the battle for an adjacent friendly land territory, \
                                 the default) or sacrifice (the team is removed and one of your \
                                 land units there retreats instead, JB-34)."
                            );
                            if let Some(s) = did_you_mean(text, keys::EVASIONS.iter().copied()) {
                                reason.push_str(&format!(" Did you mean {s}?"));
                            }
                            self.error(origin, value, Some("evasive"), reason);
                        }
                    }
                }
                Some("save") => {
                    let pieces = split_pieces(entries, &mut i, |t| self.is_units(t));
                    standing.save = self.type_order(origin, &pieces, "save");
                }
                Some("to") => {
                    let texts =
                        self.list_texts(origin, value, "to", "territories such as Poland, Germany");
                    for t in texts.iter().flat_map(|t| t.split(',')) {
                        match self.names.space(t.trim()) {
                            Ok(s) if self.names.game().is_sea(s) => self.error(
                                origin,
                                value,
                                Some("to"),
                                format!(
                                    "{} is a sea zone: an Evasive mission goes only into an \
                                     adjacent friendly land territory (JB-34)",
                                    self.names.game().space_name(s)
                                ),
                            ),
                            Ok(s) if standing.to.contains(&s) => self.error(
                                origin,
                                value,
                                Some("to"),
                                format!("{} is listed twice", self.names.game().space_name(s)),
                            ),
                            Ok(s) => standing.to.push(s),
                            Err(reason) => self.error(origin, value, Some("to"), reason),
                        }
                    }
                }
                Some(_) => match value.kind {
                    Kind::Int(n) if n >= 1 => standing.round = u32::try_from(n).ok(),
                    _ => self.error(
                        origin,
                        value,
                        Some("round"),
                        format!(
                            "round is the battle round at whose start an Evasive mission is \
                             carried out, a whole number from 1 (round: 2), not \"{}\"",
                            value.text().unwrap_or(value.describe())
                        ),
                    ),
                },
                None => self.unknown_key(
                    origin,
                    key,
                    "of the standing orders' special_force_teams",
                    keys::TEAM_STANDING,
                ),
            }
        }
        (self.errors.len() == errors_before).then_some(standing)
    }

    /// The mapping's entries, or an error: not a mapping, or a game without
    /// special force teams.
    fn team_entries<'n>(
        &mut self,
        origin: &Origin,
        node: &'n Node,
        form: &str,
    ) -> Option<&'n [(Node, Node)]> {
        let game = self.names.game();
        if game.combat_rules().special_force_teams.is_none() {
            self.error(
                origin,
                node,
                Some("special_force_teams"),
                format!(
                    "this game ({}) plays no special force teams' missions (J Boulton, option \
                     special_force_teams): leave out special_force_teams",
                    game.files().game.name
                ),
            );
            return None;
        }
        match &node.kind {
            Kind::Map(entries) => Some(entries),
            _ => {
                self.error(
                    origin,
                    node,
                    Some("special_force_teams"),
                    format!(
                        "special_force_teams is written {form}, but here it is {}",
                        node.describe()
                    ),
                );
                None
            }
        }
    }

    /// `missions:`: `none`, or mission words of one side, most wanted first
    /// (one string, a list, or pieces YAML split off inside `{...}`).
    fn missions(
        &mut self,
        origin: &Origin,
        pieces: &[&Node],
        attacking: bool,
    ) -> Option<Vec<Mission>> {
        let first = pieces.first()?;
        let mut words: Vec<String> = Vec::new();
        for node in pieces {
            let texts = self.list_texts(origin, node, "missions", "missions such as disruption");
            words.extend(
                texts
                    .iter()
                    .flat_map(|t| t.split(','))
                    .map(|w| w.trim().to_owned()),
            );
        }
        if words.len() == 1 && key_matches(&words[0], keys::NO_MISSION) {
            return Some(Vec::new());
        }
        let (side, place) = if attacking {
            ("an attacker's", "in a battle plan")
        } else {
            ("a defender's", "in standing orders")
        };
        let valid: Vec<&str> = Mission::ALL
            .iter()
            .filter(|m| m.attacking() == attacking)
            .map(|m| m.word())
            .collect();
        let mut out = Vec::new();
        for w in words {
            let Some(m) = find_key(&w, keys::MISSIONS)
                .and_then(|k| Mission::ALL.into_iter().find(|m| m.word() == k))
            else {
                let mut reason = format!("\"{w}\" is not a mission of {side} teams.");
                if let Some(s) = did_you_mean(&w, valid.iter().copied()) {
                    reason.push_str(&format!(" Did you mean {s}?"));
                }
                reason.push_str(&format!(
                    " The missions {place} are: {} (or none).",
                    valid.join(", ")
                ));
                self.error(origin, first, Some("missions"), reason);
                continue;
            };
            if m.attacking() != attacking {
                let reason = if attacking {
                    format!(
                        "{} is a mission of defending teams: it goes in your standing orders \
                         (standing: special_force_teams: missions); a battle plan's missions are: \
                         {}",
                        m.word(),
                        valid.join(", ")
                    )
                } else {
                    format!(
                        "{} is a mission of attacking teams: it goes in a battle plan \
                         (battles: TERRITORY: special_force_teams: missions); standing orders' \
                         missions are: {}",
                        m.word(),
                        valid.join(", ")
                    )
                };
                self.error(origin, first, Some("missions"), reason);
                continue;
            }
            if out.contains(&m) {
                self.error(
                    origin,
                    first,
                    Some("missions"),
                    format!("{} is listed twice", m.word()),
                );
                continue;
            }
            out.push(m);
        }
        Some(out)
    }
}

/// The value of entry `*i - 1` with the keys YAML split off it inside
/// `{...}` that `is_piece` reads ([`Parser::rejoined`]); `*i` moves past
/// them.
fn split_pieces<'n>(
    entries: &'n [(Node, Node)],
    i: &mut usize,
    is_piece: impl Fn(&str) -> bool,
) -> Vec<&'n Node> {
    let extra = Parser::rejoined(entries, *i - 1, is_piece);
    let mut pieces = vec![&entries[*i - 1].1];
    pieces.extend(entries[*i..*i + extra].iter().map(|(k, _)| k));
    *i += extra;
    pieces
}

/// A mission's word (for putting a list split inside `{...}` back together).
fn is_mission(text: &str) -> bool {
    find_key(text, keys::MISSIONS).is_some()
}

#[cfg(test)]
mod tests {
    use crate::rules::orders::parse::parse_message;
    use crate::rules::orders::special_force_teams::{Evasion, Mission};
    use std::path::Path;

    #[test]
    fn the_teams_orders_read_back_from_their_canonical_form() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR"));
        let game = crate::rules::load_dir(&root.join("games/aae-jboulton")).unwrap();
        // Inside braces YAML splits `aa suppression, supply strike` at the
        // comma; the parser puts the list back together.
        let yaml = "battles:\n  East Poland: {special_force_teams: {missions: [aa suppression, \
                    disruption], disruption: armor}}\n  Poland: {special_force_teams: \
                    {missions: aa suppression, supply strike}}\n  default: \
                    {special_force_teams: {missions: none}}\nstanding:\n  \
                    special_force_teams:\n    missions: [evasive]\n    evasive: Sacrifice\n    \
                    save: [armor, infantry]\n    to: Belorussia, Ukraine S.S.R.\n    round: 2\n";
        let m = parse_message(&game, yaml).unwrap();
        let plan = &m.orders.battles[0].item.teams;
        assert_eq!(
            plan.missions,
            Some(vec![Mission::AaSuppression, Mission::Disruption])
        );
        assert_eq!(plan.disruption.len(), 1);
        assert_eq!(
            m.orders.battles[1].item.teams.missions,
            Some(vec![Mission::AaSuppression, Mission::SupplyStrike])
        );
        assert_eq!(m.orders.battles[2].item.teams.missions, Some(Vec::new()));
        let standing = &m.orders.standing.as_ref().unwrap().item.teams;
        assert_eq!(standing.evasive, Evasion::Sacrifice);
        assert_eq!((standing.save.len(), standing.to.len()), (2, 2));
        assert_eq!(standing.evasive_round(), 2);
        let again = parse_message(&game, &m.canonical).unwrap();
        let items = |o: &crate::rules::orders::Orders| {
            let plans: Vec<_> = o.battles.iter().map(|p| p.item.clone()).collect();
            (plans, o.standing.as_ref().map(|s| s.item.clone()))
        };
        assert_eq!(items(&again.orders), items(&m.orders), "{}", m.canonical);
        assert_eq!(again.canonical, m.canonical);
    }
}
