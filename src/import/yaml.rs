//! Writing game definitions as hand-editable YAML.
//!
//! The output is meant to be corrected by hand, so it is written field by
//! field (flow lists for neighbours, one line per unit count, defaults left
//! out) rather than by a generic serializer. Every string that YAML could
//! read as something else is double-quoted; tests parse the output back.

use std::fmt::Write as _;

use crate::rules::GameFiles;
use crate::rules::model::{Ability, OptionValue, UnitType};

/// A scalar string as YAML: plain when unambiguous, else double-quoted.
pub fn scalar(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars().next().is_some_and(|c| c.is_alphabetic())
        && s.chars()
            .all(|c| c.is_alphanumeric() || " .'()-_/&".contains(c))
        && !s.ends_with(' ')
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "y" | "n" | "yes" | "no" | "on" | "off" | "true" | "false" | "null" | "nan" | "inf"
        );
    if plain {
        return s.to_owned();
    }
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn flow(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| scalar(s)).collect();
    format!("[{}]", inner.join(", "))
}

/// A block of `# ` comment lines.
pub fn comment(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                "#\n".to_owned()
            } else {
                format!("# {l}\n")
            }
        })
        .collect()
}

/// `game.yaml`.
pub fn game_yaml(files: &GameFiles) -> String {
    let g = &files.game;
    let mut out = String::new();
    let _ = writeln!(out, "id: {}", scalar(&g.id));
    let _ = writeln!(out, "name: {}", scalar(&g.name));
    let _ = writeln!(out, "rule_set: {}", scalar(&g.rule_set));
    if let Some(notes) = &g.notes {
        let _ = writeln!(out, "notes: {}", scalar(notes));
    }
    out.push_str("\npowers:\n");
    for p in &g.powers {
        let _ = writeln!(out, "  - name: {}", scalar(&p.name));
        if !p.aliases.is_empty() {
            let _ = writeln!(out, "    aliases: {}", flow(&p.aliases));
        }
        if let Some(c) = &p.capital {
            let _ = writeln!(out, "    capital: {}", scalar(c));
        }
        if !p.plays {
            out.push_str("    plays: false\n");
        }
        if !p.collects_income {
            out.push_str("    collects_income: false\n");
        }
    }
    out.push_str("\nsides:\n");
    for s in &g.sides {
        let _ = writeln!(
            out,
            "  - name: {}\n    powers: {}",
            scalar(&s.name),
            flow(&s.powers)
        );
    }
    let _ = writeln!(out, "\nturn_order: {}", flow(&g.turn_order));
    if !g.options.is_empty() {
        out.push_str("\noptions:\n");
        for (k, v) in g.options.iter() {
            let v = match v {
                OptionValue::Text(t) => scalar(t),
                other => other.to_string(),
            };
            let _ = writeln!(out, "  {}: {v}", scalar(k));
        }
    }
    out
}

/// `board.yaml`.
pub fn board_yaml(files: &GameFiles) -> String {
    let b = &files.board;
    let mut out = String::from("territories:\n");
    for t in &b.territories {
        let _ = writeln!(out, "  - name: {}", scalar(&t.name));
        if !t.aliases.is_empty() {
            let _ = writeln!(out, "    aliases: {}", flow(&t.aliases));
        }
        let _ = writeln!(out, "    ipc: {}", t.ipc.unwrap_or(0));
        if let Some(o) = &t.original_owner {
            let _ = writeln!(out, "    original_owner: {}", scalar(o));
        }
        if t.impassable {
            out.push_str("    impassable: true\n");
        }
        if t.victory_city {
            out.push_str("    victory_city: true\n");
        }
        if let Some(c) = &t.city {
            let _ = writeln!(out, "    city: {}", scalar(c));
        }
        let _ = writeln!(out, "    neighbours: {}", flow(&t.neighbours));
    }
    out.push_str("\nsea_zones:\n");
    for z in &b.sea_zones {
        let _ = writeln!(out, "  - name: {}", scalar(&z.name));
        if !z.aliases.is_empty() {
            let _ = writeln!(out, "    aliases: {}", flow(&z.aliases));
        }
        if let Some(c) = &z.convoy {
            let _ = write!(
                out,
                "    convoy: {{value: {}, power: {}",
                c.value,
                scalar(&c.power)
            );
            if !c.requires.is_empty() {
                let _ = write!(out, ", requires: {}", flow(&c.requires));
            }
            out.push_str("}\n");
        }
        let _ = writeln!(out, "    neighbours: {}", flow(&z.neighbours));
    }
    if !b.canals.is_empty() {
        out.push_str("\ncanals:\n");
        for c in &b.canals {
            let _ = writeln!(
                out,
                "  - name: {}\n    sea_zones: {}\n    controlled_by: {}",
                scalar(&c.name),
                flow(&c.sea_zones),
                flow(&c.controlled_by)
            );
        }
    }
    out
}

fn ability(a: &Ability) -> String {
    match a {
        Ability::Blitz => "blitz".into(),
        Ability::ArtillerySupport => "artillery_support".into(),
        Ability::ArtillerySupportable => "artillery_supportable".into(),
        Ability::FirstStrike => "first_strike".into(),
        Ability::Submerge => "submerge".into(),
        Ability::CannotHitAir => "cannot_hit_air".into(),
        Ability::HiddenFromAir => "hidden_from_air".into(),
        Ability::AntiSubmarine => "anti_submarine".into(),
        Ability::Bombard(n) => format!("{{bombard: {n}}}"),
        Ability::StrategicBomber => "strategic_bomber".into(),
        Ability::Escort(n) => format!("{{escort: {n}}}"),
        Ability::Interceptor(n) => format!("{{interceptor: {n}}}"),
        Ability::AntiAircraft(n) => format!("{{anti_aircraft: {n}}}"),
        Ability::Production => "production".into(),
        Ability::CapturedWithTerritory => "captured_with_territory".into(),
        Ability::Paradrop => "paradrop".into(),
        Ability::NoCombat => "no_combat".into(),
        Ability::Mechanized => "mechanized".into(),
        Ability::AirTransportable => "air_transportable".into(),
    }
}

fn unit_yaml(out: &mut String, u: &UnitType) {
    let _ = writeln!(out, "  - name: {}", scalar(&u.name));
    if !u.aliases.is_empty() {
        let _ = writeln!(out, "    aliases: {}", flow(&u.aliases));
    }
    if let Some(k) = u.kind {
        let _ = writeln!(out, "    kind: {}", k.as_str());
    }
    let fields = [
        ("cost", u.cost.map(|c| c.to_string())),
        ("attack", u.attack.map(|v| v.to_string())),
        ("defense", u.defense.map(|v| v.to_string())),
        ("movement", u.movement.map(|v| v.to_string())),
        (
            "hit_points",
            (u.hit_points != 1).then(|| u.hit_points.to_string()),
        ),
        ("transport_cost", u.transport_cost.map(|v| v.to_string())),
        (
            "transport_capacity",
            u.transport_capacity.map(|v| v.to_string()),
        ),
        ("carrier_cost", u.carrier_cost.map(|v| v.to_string())),
        (
            "carrier_capacity",
            u.carrier_capacity.map(|v| v.to_string()),
        ),
    ];
    for (k, v) in fields {
        if let Some(v) = v {
            let _ = writeln!(out, "    {k}: {v}");
        }
    }
    if !u.abilities.is_empty() {
        let list: Vec<String> = u.abilities.iter().map(ability).collect();
        let _ = writeln!(out, "    abilities: [{}]", list.join(", "));
    }
}

/// `units.yaml`.
pub fn units_yaml(files: &GameFiles) -> String {
    let mut out = String::from("units:\n");
    for u in &files.units.units {
        unit_yaml(&mut out, u);
    }
    out
}

/// `setup.yaml`.
pub fn setup_yaml(files: &GameFiles) -> String {
    let s = &files.setup;
    let mut out = String::from("ipcs:\n");
    for (p, v) in s.ipcs.iter() {
        let _ = writeln!(out, "  {}: {v}", scalar(p));
    }
    if s.owners.is_empty() {
        out.push_str("\nowners: {}\n");
    } else {
        out.push_str("\nowners:\n");
        for (t, p) in s.owners.iter() {
            let _ = writeln!(out, "  {}: {}", scalar(t), scalar(p));
        }
    }
    out.push_str("\nunits:\n");
    for (space, by_power) in s.units.iter() {
        let _ = writeln!(out, "  {}:", scalar(space));
        for (power, units) in by_power.iter() {
            let list: Vec<String> = units
                .iter()
                .map(|(u, n)| format!("{}: {n}", scalar(u)))
                .collect();
            let _ = writeln!(out, "    {}: {{{}}}", scalar(power), list.join(", "));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalars_are_quoted_when_yaml_would_misread_them() {
        assert_eq!(scalar("Baltic Sea"), "Baltic Sea");
        assert_eq!(scalar("U.S. Convoy 1"), "U.S. Convoy 1");
        assert_eq!(scalar("No"), "\"No\"");
        assert_eq!(scalar("12"), "\"12\"");
        assert_eq!(scalar("a: b"), "\"a: b\"");
        assert_eq!(scalar("say \"hi\""), "\"say \\\"hi\\\"\"");
        assert_eq!(scalar(""), "\"\"");
    }
}
