//! The canonical form of a message's orders: what the receipt echoes, what
//! the log records and what the dice digest covers.
//!
//! Deterministic: the sections in a fixed order (entropy, then
//! [`keys::SECTIONS`]), orders in the order written, every name in the game
//! data's own spelling, units singular with their count (`1 transport`),
//! block style with two-space indentation, and nothing else: no secret, no
//! match, power or round (the log records those separately), no comments.
//! Parsing the canonical text again gives equal orders.

use std::fmt::Write;

use super::grammar::Names;
use super::special_force_teams::{Evasion, Mission, TeamPlan, TeamStanding};
use super::{
    Averted, BattlePlan, BystanderLosses, DropOff, MiddleEastPayment, MoveOrder, NeutralDefenders,
    Orders, Retreat, StandingOrders, SubmarinePolicy, keys,
};
use crate::rules::GameDef;

/// Renders `orders` (and `entropy`, if any) canonically.
pub fn render(game: &GameDef, orders: &Orders, entropy: Option<&str>) -> String {
    let names = Names::new(game);
    let mut out = String::new();
    if let Some(e) = entropy {
        // Always quoted: entropy is free text and must come back unchanged.
        let _ = writeln!(out, "entropy: {}", quoted(e));
    }
    for section in keys::SECTIONS {
        match *section {
            "research" => {
                if let Some(r) = &orders.research {
                    let _ = writeln!(out, "research:\n  buy: {}", r.item.buy);
                    let chart = r
                        .item
                        .chart
                        .and_then(|c| game.files().game.research.as_ref()?.charts.get(c));
                    if let Some(c) = chart {
                        let _ = writeln!(out, "  chart: {}", scalar(&c.name));
                    }
                    if !r.item.developments.is_empty() {
                        let wanted: Vec<&str> =
                            r.item.developments.iter().map(|t| t.name()).collect();
                        let _ = writeln!(out, "  developments: [{}]", wanted.join(", "));
                    }
                }
            }
            "bid" => {
                if let Some(b) = &orders.bid {
                    let _ = writeln!(out, "bid: {}", b.item);
                }
            }
            "lend_lease" => {
                if let Some(p) = &orders.lend_lease {
                    let _ = writeln!(out, "lend_lease: {}", p.item);
                }
            }
            "oil_convoy" => {
                if let Some(p) = &orders.oil_convoy {
                    let _ = writeln!(out, "oil_convoy: {}", p.item);
                }
            }
            "purchase" => {
                if let Some(p) = &orders.purchase {
                    let _ = writeln!(out, "purchase: {}", scalar(&names.show_units(&p.item)));
                }
            }
            // A number by territory: repair points, or striking teams.
            "repair" | "industrial_strike" => {
                let list = if *section == "repair" {
                    &orders.repair
                } else {
                    &orders.industrial_strike
                };
                if !list.is_empty() {
                    let _ = writeln!(out, "{section}:");
                    for r in list {
                        let (space, n) = r.item;
                        let _ = writeln!(out, "  {}: {n}", scalar(game.space_name(space)));
                    }
                }
            }
            "rockets" => {
                if !orders.rockets.is_empty() {
                    out.push_str("rockets:\n");
                    for r in &orders.rockets {
                        let (from, to) = r.item;
                        let text = format!("{} -> {}", game.space_name(from), game.space_name(to));
                        let _ = writeln!(out, "  - {}", scalar(&text));
                    }
                }
            }
            "averted" => {
                if let Some(a) = &orders.averted {
                    let _ = writeln!(out, "averted: {}", a.item.word());
                }
            }
            "combat" | "noncombat" => {
                let list = if *section == "combat" {
                    &orders.combat
                } else {
                    &orders.noncombat
                };
                if !list.is_empty() {
                    let _ = writeln!(out, "{section}:");
                    for order in list {
                        move_order(&mut out, &names, &order.item);
                    }
                }
            }
            "battles" => {
                if !orders.battles.is_empty() {
                    out.push_str("battles:\n");
                    for plan in &orders.battles {
                        battle_plan(&mut out, &names, &plan.item);
                    }
                }
            }
            "take_over" => {
                if !orders.take_over.is_empty() {
                    out.push_str("take_over:\n");
                    for t in &orders.take_over {
                        let t = &t.item;
                        let text = format!(
                            "{} of {} in {}",
                            names.show_units(&t.units),
                            game.powers()[t.from].name,
                            game.space_name(t.space)
                        );
                        let _ = writeln!(out, "  - {}", scalar(&text));
                    }
                }
            }
            "place" => {
                if !orders.place.is_empty() {
                    out.push_str("place:\n");
                    for p in &orders.place {
                        let (space, units) = &p.item;
                        let _ = writeln!(
                            out,
                            "  {}: {}",
                            scalar(game.space_name(*space)),
                            scalar(&names.show_units(units))
                        );
                    }
                }
            }
            "standing" => {
                if let Some(s) = &orders.standing {
                    standing(&mut out, &names, &s.item);
                }
            }
            other => unreachable!("section {other} has no canonical form"),
        }
    }
    if out.is_empty() {
        // No orders and no entropy (a command, say): an empty mapping, so that
        // the canonical form is still a message that parses.
        out.push_str("{}\n");
    }
    out
}

fn move_order(out: &mut String, names: &Names<'_>, order: &MoveOrder) {
    match order {
        MoveOrder::Move {
            units,
            path,
            land,
            rail,
            drops,
        } => {
            let mut target = names.show_path(path);
            if let Some(l) = land {
                target.push_str(&format!(", land {}", names.game().space_name(*l)));
            }
            if *rail {
                target.push_str(", rail");
            }
            let _ = writeln!(
                out,
                "  - {}: {}",
                scalar(&names.show_units(units)),
                scalar(&target)
            );
            drop_offs(out, names, drops);
        }
        MoveOrder::Transport {
            path,
            load,
            unload,
            unload_units,
            drops,
        } => {
            let _ = writeln!(out, "  - transport: {}", scalar(&names.show_path(path)));
            if !load.is_empty() {
                out.push_str("    load:\n");
                for l in load {
                    let mut cargo = format!(
                        "{} from {}",
                        names.show_units(&l.units),
                        names.game().space_name(l.from)
                    );
                    if let Some(at) = l.at {
                        cargo.push_str(&format!(" at {}", names.game().space_name(at)));
                    }
                    let _ = writeln!(out, "      - {}", scalar(&cargo));
                }
            }
            if let Some(u) = unload {
                let to = names.game().space_name(*u);
                let text = match unload_units {
                    Some(units) => format!("{} to {to}", names.show_units(units)),
                    None => to.to_owned(),
                };
                let _ = writeln!(out, "    unload: {}", scalar(&text));
            }
            drop_offs(out, names, drops);
        }
    }
}

/// A move's `drop:` list, written only when given, so moves without it
/// keep their digest.
fn drop_offs(out: &mut String, names: &Names<'_>, drops: &[DropOff]) {
    if drops.is_empty() {
        return;
    }
    out.push_str("    drop:\n");
    for d in drops {
        let text = format!(
            "{} to {}",
            names.show_units(&d.units),
            names.game().space_name(d.to)
        );
        let _ = writeln!(out, "      - {}", scalar(&text));
    }
}

fn battle_plan(out: &mut String, names: &Names<'_>, plan: &BattlePlan) {
    let key = plan.space.map_or(keys::DEFAULT_PLAN.to_owned(), |s| {
        scalar(names.game().space_name(s))
    });
    let _ = writeln!(out, "  {key}:");
    match plan.retreat {
        // `never` has no mapping form, so a `retreat_to` with it (which the
        // parser never produces) has nowhere to go and is left out.
        Retreat::Never => out.push_str("    retreat: never\n"),
        Retreat::AfterRound(n) | Retreat::WhenAttackersBelow(n) => {
            let word = if matches!(plan.retreat, Retreat::AfterRound(_)) {
                "after_round"
            } else {
                "when_attackers_below"
            };
            let _ = writeln!(out, "    retreat:\n      {word}: {n}");
            if let Some(to) = plan.retreat_to {
                let _ = writeln!(out, "      to: {}", scalar(names.game().space_name(to)));
            }
        }
        // `{:?}` prints the shortest text that reads back as the same number.
        Retreat::WhenOddsBelow(p) => {
            let _ = writeln!(out, "    retreat:\n      when_odds_below: {p:?}");
            if let Some(to) = plan.retreat_to {
                let _ = writeln!(out, "      to: {}", scalar(names.game().space_name(to)));
            }
        }
    }
    if !plan.losses.is_empty() {
        let _ = writeln!(
            out,
            "    losses: {}",
            scalar(&names.show_types(&plan.losses))
        );
    }
    if plan.bombing_raid {
        out.push_str("    bombing_raid: true\n");
    }
    // Written only when given, so plans without it keep their digest.
    if !plan.raiders.is_empty() {
        let _ = writeln!(
            out,
            "    raiders: {}",
            scalar(&names.show_units(&plan.raiders))
        );
    }
    if plan.ignore {
        out.push_str("    ignore: true\n");
    }
    if let Some(p) = plan.submarines {
        let _ = writeln!(out, "    submarines: {}", policy(names, p, "      "));
    }
    // Written only when given, so plans without it keep their digest.
    if plan.screen > 0 {
        let _ = writeln!(out, "    screen: {}", plan.screen);
    }
    // Written only when given, so plans without it keep their digest.
    if let Some(l) = &plan.landing {
        out.push_str("    landing:\n");
        for (key, types) in [("surprise", &l.surprise), ("lost", &l.lost)] {
            if !types.is_empty() {
                let _ = writeln!(out, "      {key}: {}", scalar(&names.show_types(types)));
            }
        }
    }
    if plan.teams != TeamPlan::default() {
        out.push_str("    special_force_teams:\n");
        if let Some(m) = &plan.teams.missions {
            let _ = writeln!(out, "      missions: {}", missions(m));
        }
        if !plan.teams.disruption.is_empty() {
            let _ = writeln!(
                out,
                "      disruption: {}",
                scalar(&names.show_types(&plan.teams.disruption))
            );
        }
    }
}

/// A list of missions, or `none`.
fn missions(list: &[Mission]) -> String {
    if list.is_empty() {
        return keys::NO_MISSION.to_owned();
    }
    let words: Vec<&str> = list.iter().map(|m| m.word()).collect();
    words.join(", ")
}

fn standing(out: &mut String, names: &Names<'_>, s: &StandingOrders) {
    out.push_str("standing:\n");
    if !s.losses.is_empty() {
        let _ = writeln!(out, "  losses: {}", scalar(&names.show_types(&s.losses)));
    }
    let _ = writeln!(out, "  keep_one_land_unit: {}", s.keep_one_land_unit);
    let _ = writeln!(out, "  submarines: {}", policy(names, s.submarines, "    "));
    // Written only when set, so that standing orders without it keep their
    // canonical form (and digest).
    if let Some(n) = s.intercept {
        let _ = writeln!(out, "  intercept: {n}");
    }
    if s.bystander_losses == BystanderLosses::AlliesChoose {
        out.push_str("  bystander_losses: allies_choose\n");
    }
    if s.middle_east_payment != MiddleEastPayment::default() {
        let _ = writeln!(
            out,
            "  middle_east_payment: {}",
            s.middle_east_payment.word()
        );
    }
    if s.neutral_defenders != NeutralDefenders::default() {
        let _ = writeln!(out, "  neutral_defenders: {}", s.neutral_defenders.word());
    }
    if !s.aversion.is_empty() {
        out.push_str("  aversion:\n");
        for a in &s.aversion {
            let _ = writeln!(
                out,
                "    {}: {{unit: {}, when: {}}}",
                scalar(names.game().space_name(a.space)),
                scalar(&names.game().unit_types()[a.unit].name),
                if a.after { "after" } else { "before" }
            );
        }
    }
    if s.averted != Averted::default() {
        let _ = writeln!(out, "  averted: {}", s.averted.word());
    }
    // Written only when set, as above.
    let t = &s.teams;
    if *t != TeamStanding::default() {
        out.push_str("  special_force_teams:\n");
        if let Some(m) = &t.missions {
            let _ = writeln!(out, "    missions: {}", missions(m));
        }
        if t.evasive != Evasion::default() {
            let _ = writeln!(out, "    evasive: {}", t.evasive.word());
        }
        if !t.save.is_empty() {
            let _ = writeln!(out, "    save: {}", scalar(&names.show_types(&t.save)));
        }
        if !t.to.is_empty() {
            let to: Vec<&str> = t.to.iter().map(|s| names.game().space_name(*s)).collect();
            let _ = writeln!(out, "    to: {}", scalar(&to.join(", ")));
        }
        if let Some(r) = t.round {
            let _ = writeln!(out, "    round: {r}");
        }
    }
}

/// A submarine policy: its word, as `keys::SUBMARINE_POLICIES` lists it,
/// or a withdrawal as a block mapping indented by `indent`.
fn policy(names: &Names<'_>, p: SubmarinePolicy, indent: &str) -> String {
    match p {
        SubmarinePolicy::WithdrawAfterRound { after_round, to } => {
            let mut text = format!("\n{indent}withdraw_after_round: {after_round}");
            if let Some(to) = to {
                text.push_str(&format!(
                    "\n{indent}to: {}",
                    scalar(names.game().space_name(to))
                ));
            }
            text
        }
        _ => p.word().to_owned(),
    }
}

/// A double-quoted YAML scalar. JSON's string escapes are a subset of
/// YAML's double-quoted escapes, so serde_json writes it exactly.
fn quoted(text: &str) -> String {
    serde_json::to_string(text).expect("a string serialises")
}

/// `text` as a plain scalar when YAML reads it back as the same string in
/// block context, else double-quoted. Board names are plain in practice;
/// quoting covers names a game's data might hold, such as `Sea Zone: 12` or
/// a territory called `Yes`.
fn scalar(text: &str) -> String {
    let first = text.chars().next();
    let plain = first.is_some_and(|c| !"-?:,[]{}#&*!|>'\"%@`".contains(c) && !c.is_whitespace())
        && !text.ends_with(char::is_whitespace)
        && !text.ends_with(':')
        && !text.contains(": ")
        && !text.contains(" #")
        && !text.chars().any(char::is_control)
        && !looks_typed(text);
    if plain { text.to_owned() } else { quoted(text) }
}

/// True for plain scalars YAML would read as something other than a string
/// (null, a boolean, a number).
fn looks_typed(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    matches!(
        lower.as_str(),
        "~" | "null" | "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n"
    ) || lower.starts_with(|c: char| c.is_ascii_digit() || c == '.' || c == '+')
        && lower.parse::<f64>().is_ok()
        || lower.starts_with("0x")
        || lower.starts_with("0o")
        || [".inf", "-.inf", "+.inf", ".nan"].contains(&lower.as_str())
}

impl Orders {
    /// The same orders with every [`Origin`](super::Origin) cleared, to
    /// compare orders regardless of where they were written (a message and
    /// its canonical form, for instance).
    pub fn without_origins(&self) -> Orders {
        let mut o = self.clone();
        let clear = |origin: &mut super::Origin| *origin = super::Origin::default();
        if let Some(p) = &mut o.purchase {
            clear(&mut p.origin);
        }
        if let Some(r) = &mut o.research {
            clear(&mut r.origin);
        }
        for p in [&mut o.bid, &mut o.lend_lease, &mut o.oil_convoy]
            .into_iter()
            .flatten()
        {
            clear(&mut p.origin);
        }
        o.combat.iter_mut().for_each(|x| clear(&mut x.origin));
        o.repair.iter_mut().for_each(|x| clear(&mut x.origin));
        o.rockets.iter_mut().for_each(|x| clear(&mut x.origin));
        o.industrial_strike
            .iter_mut()
            .for_each(|x| clear(&mut x.origin));
        if let Some(a) = &mut o.averted {
            clear(&mut a.origin);
        }
        o.noncombat.iter_mut().for_each(|x| clear(&mut x.origin));
        o.take_over.iter_mut().for_each(|x| clear(&mut x.origin));
        o.battles.iter_mut().for_each(|x| clear(&mut x.origin));
        o.place.iter_mut().for_each(|x| clear(&mut x.origin));
        if let Some(s) = &mut o.standing {
            clear(&mut s.origin);
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_are_quoted_only_when_needed() {
        assert_eq!(scalar("Ukraine S.S.R."), "Ukraine S.S.R.");
        assert_eq!(scalar("3 infantry, 1 armor"), "3 infantry, 1 armor");
        assert_eq!(
            scalar("Poland -> Germany, land Poland"),
            "Poland -> Germany, land Poland"
        );
        assert_eq!(scalar("Yes"), "\"Yes\"");
        assert_eq!(scalar("12"), "\"12\"");
        assert_eq!(scalar("Zone: 12"), "\"Zone: 12\"");
        assert_eq!(scalar("- x"), "\"- x\"");
        assert_eq!(quoted("a \"b\"\n"), "\"a \\\"b\\\"\\n\"");
    }
}
