//! The guide in the reply to `command: help`: what a player writes, section
//! by section, with examples in the reader's own power and on the match's
//! board, so that the mail is all a player needs (players do not have the
//! repository's `docs/`).

use serde::Serialize;

use crate::rules::GameDef;
use crate::rules::game::SpaceId;
use crate::rules::model::UnitKind;
use crate::rules::vocab::PowerId;

/// One section of the guide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GuideSection {
    /// Its heading (`Stage 1: purchase, combat moves, battle plans`).
    pub title: String,
    /// What to know, in a few sentences.
    pub about: String,
    /// A YAML example for the reader's power on this board; empty for none.
    pub example: String,
}

/// The spaces and units the examples name: real ones of `power`.
struct Places {
    /// A territory of the power at the start with a land neighbour.
    home: SpaceId,
    /// That land neighbour.
    next: SpaceId,
    /// A territory of the power beside a sea zone, the zone, and another
    /// territory beside that zone: a transport's load and landing.
    coast: Option<(SpaceId, SpaceId, SpaceId)>,
    infantry: String,
    armor: String,
}

fn places(game: &GameDef, power: PowerId) -> Option<Places> {
    let own: Vec<SpaceId> = (0..game.space_count())
        .map(SpaceId)
        .filter(|&s| !game.is_sea(s) && game.starting_owner(s) == Some(power))
        .collect();
    let capital = game.powers()[power]
        .capital
        .as_deref()
        .and_then(|c| game.space(c));
    let land_next = |s: SpaceId| {
        game.neighbours(s)
            .iter()
            .copied()
            .find(|&n| !game.is_sea(n))
    };
    let home = capital
        .filter(|&c| land_next(c).is_some())
        .or_else(|| own.iter().copied().find(|&s| land_next(s).is_some()))?;
    let next = land_next(home)?;
    // The capital first (an island's capital has sea but no land nearby).
    let coast = capital
        .into_iter()
        .chain(own.iter().copied())
        .find_map(|from| {
            game.neighbours(from)
                .iter()
                .copied()
                .filter(|&z| game.is_sea(z))
                .find_map(|z| {
                    let shore = game
                        .neighbours(z)
                        .iter()
                        .copied()
                        .find(|&t| t != from && !game.is_sea(t))?;
                    Some((from, z, shore))
                })
        });
    let land: Vec<&str> = game
        .unit_types()
        .iter()
        .filter(|u| u.kind == Some(UnitKind::Land) && u.cost.is_some())
        .map(|u| u.name.as_str())
        .collect();
    let pick = |want: &str, fallback: usize| {
        game.unit_type(want)
            .map(|u| u.name.clone())
            .or_else(|| land.get(fallback).map(|s| (*s).to_owned()))
    };
    Some(Places {
        home,
        next,
        coast,
        infantry: pick("infantry", 0)?,
        armor: pick("armor", 1)?,
    })
}

/// The guide for `power` in `game`, with its orders address and match id in
/// the header example.
pub fn guide(game: &GameDef, power: PowerId, match_id: &str, round: u32) -> Vec<GuideSection> {
    let name = &game.powers()[power].name;
    let mut out = vec![GuideSection {
        title: "Every message".into(),
        about: "Put the YAML in the body of a plain-text mail (mail with only an HTML body is refused), or attach it as a .yaml file. Start with the match, your power, the round and your secret from the welcome mail; keys and names are read without regard to case, and every problem is reported at once, with nothing applied.".into(),
        example: format!("match: {match_id}\npower: {name}\nround: {round}\nsecret: YOUR-SECRET\n"),
    }];
    let Some(p) = places(game, power) else {
        return out;
    };
    let (home, next) = (game.space_name(p.home), game.space_name(p.next));
    let (inf, arm) = (&p.infantry, &p.armor);
    let research = match game.research().and_then(|r| r.charts.first()) {
        Some(chart) => format!("research: {{buy: 1, chart: {}}}\n", chart.name),
        None => String::new(),
    };
    out.push(GuideSection {
        title: format!(
            "Stage 1: {}purchase, combat moves, battle plans",
            if research.is_empty() { "" } else { "research, " }
        ),
        about: format!(
            "A unit list is counts and unit types separated by commas (3 {inf}, 1 {arm}). A move is UNITS: FROM -> TO, naming every space entered in order; aircraft add where they will land (, land SPACE). The battle plan of a space says when your attackers retreat (never, {{after_round: N}}, {{when_attackers_below: N}} or {{when_odds_below: P}}, each with an optional to: SPACE) and the order of loss; default: holds the plan of every other battle. The names below are real spaces of this board; whether a move is legal depends on the position."
        ),
        example: format!(
            "{research}purchase: 3 {inf}, 1 {arm}\ncombat:\n  - 2 {inf}, 1 {arm}: {home} -> {next}\nbattles:\n  {next}:\n    retreat: {{when_attackers_below: 2, to: {home}}}\n    losses: {inf}, {arm}\n  default: {{retreat: never}}\n"
        ),
    });
    out.push(GuideSection {
        title: "Stage 2: non-combat moves and placement".into(),
        about: "After the report of your battles, send your non-combat moves and where the units you bought are placed. Stage 2 may also go in the same message as stage 1: it is applied after combat if it is still legal. Aircraft that can reach no landing are lost; units bought and not placed are lost.".into(),
        example: format!(
            "noncombat:\n  - 1 {arm}: {next} -> {home}\nplace:\n  {home}: 3 {inf}, 1 {arm}\n"
        ),
    });
    if let Some((from, zone, shore)) = p.coast {
        let (from, zone, shore) = (
            game.space_name(from),
            game.space_name(zone),
            game.space_name(shore),
        );
        out.push(GuideSection {
            title: "Transports".into(),
            about: "One order per transport: transport: names its sea zone and every zone it enters; load: UNITS from TERRITORY; unload: the territory the cargo goes ashore in (into enemy land during combat: an amphibious assault).".into(),
            example: format!(
                "combat:\n  - transport: {zone}\n    load: 1 {inf}, 1 {arm} from {from}\n    unload: {shore}\n"
            ),
        });
    }
    out.push(GuideSection {
        title: "Standing orders".into(),
        about: "How you defend when you cannot be asked: the order of loss, whether to keep one land unit alive so that aircraft alone cannot take a territory, and what your defending submarines do (fight, submerge or submerge_after_first_round). Send them at any time, in a message of their own; they hold until you send new ones. command: standing shows yours.".into(),
        example: format!(
            "standing:\n  losses: {inf}, {arm}\n  keep_one_land_unit: true\n  submarines: fight\n"
        ),
    });
    out.push(GuideSection {
        title: "Battle odds".into(),
        about: "Ask for the exact odds of a battle in a message of its own (no orders): attackers and defenders as unit lists. You may ask several questions at once.".into(),
        example: format!(
            "odds:\n  - {{attackers: [3 {inf}, 1 {arm}], defenders: 2 {inf}}}\n"
        ),
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::builtin::{GAMES, GameSource};
    use crate::rules::orders::parse::parse_message;

    /// Every example of every power of every built-in game is orders the
    /// parser accepts: a player may copy any of them.
    #[test]
    fn every_example_parses_for_every_power_of_every_game() {
        for g in GAMES {
            let game = GameSource::Builtin.load(g.id).unwrap().def;
            for (p, power) in game.powers().iter().enumerate() {
                if !power.plays {
                    continue;
                }
                let sections = guide(&game, p, "league-1", 1);
                assert!(
                    sections.len() >= 5,
                    "{} {}: {sections:#?}",
                    g.id,
                    power.name
                );
                for s in &sections[1..] {
                    let yaml = format!("{}{}", sections[0].example, s.example);
                    if s.example.starts_with("odds:") {
                        let v: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
                        for q in v["odds"].as_array().unwrap() {
                            let q: crate::rules::odds::OddsQuery =
                                serde_json::from_value(q.clone()).unwrap();
                            crate::rules::odds::answer(&game, &q).unwrap();
                        }
                        continue;
                    }
                    if let Err(errors) = parse_message(&game, &yaml) {
                        panic!(
                            "{} {} {}: {}\n{yaml}",
                            g.id,
                            power.name,
                            s.title,
                            errors
                                .iter()
                                .map(ToString::to_string)
                                .collect::<Vec<_>>()
                                .join("\n")
                        );
                    }
                }
            }
        }
    }
}
