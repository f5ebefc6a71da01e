//! Turning a parsed TripleA file into our game-definition types.

use std::collections::{HashMap, HashSet};

use crate::rules::GameFiles;
use crate::rules::entries::Entries;
use crate::rules::model::{
    Ability, BoardFile, Canal, Convoy, GameFile, Power, SeaZone, SetupFile, Side, Territory,
    UnitKind, UnitType, UnitsFile,
};
use crate::rules::names::NameKey;

use super::xml::{Attachment, TripleaXml};

/// TripleA player names that have a usual board-game name.
const POWER_NAMES: &[(&str, &str)] = &[
    ("Germans", "Germany"),
    ("Russians", "Soviet Union"),
    ("British", "United Kingdom"),
    ("Americans", "United States"),
    ("Japanese", "Japan"),
    ("Italians", "Italy"),
    ("Chinese", "China"),
];

/// TripleA unit names and the names players write, with extra aliases.
const UNIT_NAMES: &[(&str, &str, &[&str])] = &[
    ("infantry", "infantry", &["inf"]),
    ("artillery", "artillery", &["art"]),
    ("armour", "armor", &["armour", "tank", "arm"]),
    ("fighter", "fighter", &["ftr"]),
    ("bomber", "bomber", &["bmb"]),
    ("transport", "transport", &["trn"]),
    ("submarine", "submarine", &["sub"]),
    ("destroyer", "destroyer", &["dd"]),
    ("cruiser", "cruiser", &["ca"]),
    ("carrier", "carrier", &["aircraft carrier", "cv"]),
    ("battleship", "battleship", &["bb"]),
    ("aaGun", "AA gun", &["aa", "aaGun", "antiaircraft gun"]),
    ("factory", "industrial complex", &["factory", "ic"]),
];

/// One-word names that form a sea's name with "Sea" ("Red Sea Zone" is the
/// Red Sea, whereas "Mid-Atlantic Sea Zone" is the Mid-Atlantic).
const SEA_ADJECTIVES: &[&str] = &[
    "Adriatic",
    "Aegean",
    "Arabian",
    "Baltic",
    "Barents",
    "Black",
    "Caribbean",
    "Carribean",
    "Caspian",
    "Celtic",
    "Coral",
    "Java",
    "Irish",
    "North",
    "Norwegian",
    "Red",
    "Tasman",
    "White",
    "Yellow",
];

/// A player-friendly power name for a TripleA player name.
fn power_name(triplea: &str) -> String {
    POWER_NAMES
        .iter()
        .find(|(t, _)| *t == triplea)
        .map_or_else(|| triplea.replace('_', " "), |(_, n)| (*n).to_owned())
}

/// A player-friendly unit name: the table, else camelCase split into words.
fn unit_name(triplea: &str) -> (String, Vec<String>) {
    if let Some((_, name, aliases)) = UNIT_NAMES.iter().find(|(t, _, _)| *t == triplea) {
        return (
            (*name).to_owned(),
            aliases.iter().map(|a| (*a).to_owned()).collect(),
        );
    }
    let mut words = String::new();
    for c in triplea.chars() {
        if c.is_uppercase() && !words.is_empty() {
            words.push(' ');
        }
        words.extend(c.to_lowercase());
    }
    let aliases = if words == triplea {
        Vec::new()
    } else {
        vec![triplea.to_owned()]
    };
    (words, aliases)
}

/// A player-friendly sea-zone name: TripleA appends " Sea Zone" to every
/// water territory, giving "Baltic Sea Sea Zone".
fn sea_zone_name(triplea: &str, land: &HashSet<NameKey>) -> String {
    let Some(stem) = triplea.strip_suffix(" Sea Zone") else {
        return triplea.to_owned();
    };
    if stem.ends_with(" Sea") {
        return stem.to_owned();
    }
    if !stem.is_empty() && stem.chars().all(|c| c.is_ascii_digit()) {
        return format!("Sea Zone {stem}");
    }
    if SEA_ADJECTIVES.contains(&stem) {
        return format!("{stem} Sea");
    }
    if land.contains(&NameKey::new(stem)) || stem.is_empty() {
        // "Alaska Sea Zone" next to the land territory Alaska keeps its suffix.
        return triplea.to_owned();
    }
    stem.to_owned()
}

/// Unit counts of one space: power -> [(unit, count)], in file order.
type UnitsByPower = Vec<(String, Vec<(String, u32)>)>;

/// The conversion result before it is written out.
pub struct Converted {
    /// The game definition.
    pub files: GameFiles,
    /// What the importer did, for the header comments and the command output.
    pub notes: Vec<String>,
}

/// Converts a parsed TripleA file into game files with the given id.
pub fn convert(xml: &TripleaXml, id: &str, source: &str) -> Converted {
    let mut notes = Vec::new();
    let attachment = |kind: &str, class: &str, to: &str| -> Option<&Attachment> {
        xml.attachments
            .iter()
            .find(|a| a.kind == kind && a.class == class && a.attach_to == to)
    };
    let powers_by_triplea: HashMap<&str, String> = xml
        .players
        .iter()
        .map(|p| (p.as_str(), power_name(p)))
        .collect();
    let power = |p: &str| {
        powers_by_triplea
            .get(p)
            .cloned()
            .unwrap_or_else(|| power_name(p))
    };
    for (t, n) in &powers_by_triplea {
        if *t != n {
            notes.push(format!(
                "power \"{t}\" renamed \"{n}\" (the TripleA name is kept as an alias)"
            ));
        }
    }
    notes.sort();

    // Spaces and their names.
    let land: HashSet<NameKey> = xml
        .territories
        .iter()
        .filter(|(_, w)| !w)
        .map(|(n, _)| NameKey::new(n))
        .collect();
    let mut names: HashMap<&str, String> = HashMap::new();
    let mut taken: HashMap<NameKey, &str> = HashMap::new();
    for (t, water) in &xml.territories {
        let mut friendly = if *water {
            sea_zone_name(t, &land)
        } else {
            t.clone()
        };
        if taken.contains_key(&NameKey::new(&friendly)) {
            friendly = t.clone();
        }
        taken.insert(NameKey::new(&friendly), t);
        names.insert(t.as_str(), friendly);
    }
    let space = |t: &str| names.get(t).cloned().unwrap_or_else(|| t.to_owned());
    let renamed = xml
        .territories
        .iter()
        .filter(|(t, _)| names[t.as_str()] != *t)
        .count();
    if renamed > 0 {
        notes.push(format!(
            "{renamed} sea zones renamed without TripleA's \" Sea Zone\" suffix (\"Baltic Sea Sea Zone\" -> \"Baltic Sea\", \
             \"7 Sea Zone\" -> \"Sea Zone 7\"); a suffix is kept where the short name is also a land territory; \
             every TripleA name is kept as an alias"
        ));
    }

    let mut neighbours: HashMap<&str, Vec<String>> = HashMap::new();
    let mut repeated = 0;
    for (a, b) in &xml.connections {
        if neighbours
            .get(a.as_str())
            .is_some_and(|l| l.contains(&space(b)))
        {
            repeated += 1;
        }
        // TripleA connections are undirected: list each on both sides.
        for (from, to) in [(a, b), (b, a)] {
            let list = neighbours.entry(from.as_str()).or_default();
            let to = space(to);
            if !list.contains(&to) {
                list.push(to);
            }
        }
    }

    if repeated > 0 {
        notes.push(format!(
            "{repeated} <connection> elements repeat an earlier border; each border is listed once"
        ));
    }

    let initial_owner: HashMap<&str, &str> = xml
        .owners
        .iter()
        .map(|(t, p)| (t.as_str(), p.as_str()))
        .collect();
    let neutrals_impassable = xml
        .properties
        .get("Neutrals Are Impassable")
        .is_some_and(|v| v == "true");
    let mut capitals: HashMap<String, String> = HashMap::new();
    let mut territories = Vec::new();
    let mut sea_zones = Vec::new();
    for (t, water) in &xml.territories {
        let ta = attachment("territory", "TerritoryAttachment", t);
        let production = ta.and_then(|a| a.number("production")).unwrap_or(0);
        let original = ta
            .and_then(|a| a.get("originalOwner"))
            .or_else(|| initial_owner.get(t.as_str()).copied())
            .filter(|o| !o.is_empty() && *o != "Neutral");
        let aliases = if names[t.as_str()] == *t {
            Vec::new()
        } else {
            vec![t.clone()]
        };
        let list = neighbours.remove(t.as_str()).unwrap_or_default();
        if *water {
            let convoy = (production > 0).then(|| {
                original.map(|o| Convoy {
                    value: u32::try_from(production).unwrap_or(0),
                    power: power(o),
                    requires: Vec::new(),
                })
            });
            let convoy = match convoy {
                Some(None) => {
                    notes.push(format!("sea zone {t} produces {production} but has no owner; not made a convoy zone"));
                    None
                }
                Some(Some(c)) => Some(c),
                None => None,
            };
            sea_zones.push(SeaZone {
                name: names[t.as_str()].clone(),
                aliases,
                neighbours: list,
                convoy,
            });
        } else {
            if let Some(p) = ta.and_then(|a| a.get("capital")) {
                let p = power(p);
                if let Some(earlier) = capitals.get(&p) {
                    notes.push(format!(
                        "{p} has two capitals in TripleA ({earlier}, {t}); the first is kept"
                    ));
                } else {
                    capitals.insert(p, t.clone());
                }
            }
            let impassable = ta.is_some_and(|a| a.flag("isImpassable"))
                || (neutrals_impassable && original.is_none());
            territories.push(Territory {
                name: t.clone(),
                aliases,
                ipc: Some(u32::try_from(production).unwrap_or(0)),
                original_owner: original.map(power),
                neighbours: list,
                impassable,
                victory_city: ta.and_then(|a| a.number("victoryCity")).unwrap_or(0) > 0,
                city: None,
            });
        }
    }
    if neutrals_impassable {
        notes.push("\"Neutrals Are Impassable\" is on: every territory without an owner is marked impassable".to_owned());
    }

    // Canals: TripleA attaches one canalAttachment per sea zone, grouped by name.
    let mut canals: Vec<Canal> = Vec::new();
    for a in xml
        .attachments
        .iter()
        .filter(|a| a.class == "CanalAttachment")
    {
        let Some(raw_name) = a.get("canalName") else {
            continue;
        };
        let name = raw_name.strip_prefix("The ").unwrap_or(raw_name).to_owned();
        let lands: Vec<String> = a
            .get("landTerritories")
            .unwrap_or_default()
            .split(':')
            .filter(|s| !s.is_empty())
            .map(space)
            .collect();
        match canals.iter_mut().find(|c| c.name == name) {
            Some(c) => c.sea_zones.push(space(&a.attach_to)),
            None => canals.push(Canal {
                name,
                sea_zones: vec![space(&a.attach_to)],
                controlled_by: lands,
            }),
        }
    }
    canals.retain(|c| {
        let ok = c.sea_zones.len() == 2;
        if !ok {
            notes.push(format!(
                "canal {} joins {} sea zones; only two-zone canals are imported",
                c.name,
                c.sea_zones.len()
            ));
        }
        ok
    });

    // Unit costs from the players' starting frontiers (gotcha 6: technology
    // and options can change frontiers later; those are not imported).
    let mut costs: HashMap<&str, u32> = HashMap::new();
    for (_, frontier) in &xml.player_frontier {
        for rule in xml.frontiers.get(frontier).into_iter().flatten() {
            if let Some(r) = xml.production_rules.get(rule) {
                costs
                    .entry(r.unit.as_str())
                    .or_insert(r.cost / r.quantity.max(1));
            }
        }
    }
    let mut units = Vec::new();
    let mut unit_names: HashMap<&str, String> = HashMap::new();
    let mut ignored: HashSet<String> = HashSet::new();
    // The legacy `isSub` means what the map's properties say (TripleA's
    // UnitAttachment.setIsSub): subs submerge only with "Submersible Subs",
    // and aircraft need a destroyer to hit them only with "Air Attack Sub
    // Restricted"; both default to false, as in TripleA.
    let property = |name: &str| xml.properties.get(name).is_some_and(|v| v == "true");
    let legacy_sub = LegacySub {
        submerges: property("Submersible Subs"),
        hidden_from_air: property("Air Attack Sub Restricted"),
    };
    let mut legacy_subs = Vec::new();
    for u in &xml.units {
        let (name, aliases) = unit_name(u);
        unit_names.insert(u.as_str(), name.clone());
        let ua = attachment("unitType", "UnitAttachment", u);
        if ua.is_some_and(|a| a.flag("isSub")) {
            legacy_subs.push(name.clone());
        }
        units.push(unit_type(
            name,
            aliases,
            ua,
            costs.get(u.as_str()).copied(),
            legacy_sub,
            &mut ignored,
        ));
    }
    let mut without = Vec::new();
    if !legacy_sub.submerges {
        without.push("submerge (\"Submersible Subs\" is off)");
    }
    if !legacy_sub.hidden_from_air {
        without.push("hidden_from_air (\"Air Attack Sub Restricted\" is off)");
    }
    if !legacy_subs.is_empty() && !without.is_empty() {
        notes.push(format!(
            "legacy isSub read with the map's properties: {} without {}",
            legacy_subs.join(", "),
            without.join(" or ")
        ));
    }
    if units.iter().any(|u| u.cost.is_none()) {
        let list: Vec<&str> = units
            .iter()
            .filter(|u| u.cost.is_none())
            .map(|u| u.name.as_str())
            .collect();
        notes.push(format!(
            "not in any player's starting production frontier, so without a cost: {}",
            list.join(", ")
        ));
    }
    if !ignored.is_empty() {
        let mut list: Vec<_> = ignored.into_iter().collect();
        list.sort();
        notes.push(format!(
            "unit options with no equivalent in the format, ignored: {}",
            list.join(", ")
        ));
    }

    // Powers, sides, turn order.
    let is_bid = |s: &super::xml::Step| {
        s.delegate_class.contains("Bid") || s.name.ends_with("Bid") || s.name.ends_with("BidPlace")
    };
    let mut turn_order: Vec<String> = Vec::new();
    for s in xml.steps.iter().filter(|s| !is_bid(s)) {
        if let Some(p) = &s.player {
            let p = power(p);
            if !turn_order.contains(&p) {
                turn_order.push(p);
            }
        }
    }
    let collects: HashSet<&str> = xml
        .steps
        .iter()
        .filter(|s| s.delegate_class.contains("EndTurn"))
        .filter_map(|s| s.player.as_deref())
        .collect();
    let powers: Vec<Power> = xml
        .players
        .iter()
        .map(|p| {
            let name = power(p);
            let plays = turn_order.contains(&name);
            Power {
                aliases: if name == *p {
                    Vec::new()
                } else {
                    vec![p.clone()]
                },
                capital: capitals.get(&name).map(|c| space(c)),
                plays,
                collects_income: plays && collects.contains(p.as_str()),
                confined_to: Vec::new(),
                shares_turn_with: None,
                name,
            }
        })
        .collect();
    let mut sides: Vec<Side> = Vec::new();
    let mut sided: HashSet<String> = HashSet::new();
    for (p, alliance) in &xml.alliances {
        let p = power(p);
        if !sided.insert(p.clone()) {
            notes.push(format!(
                "{p} is in more than one TripleA alliance; the first ({}) is kept",
                alliance
            ));
            continue;
        }
        match sides.iter_mut().find(|s| s.name == *alliance) {
            Some(s) => s.powers.push(p),
            None => sides.push(Side {
                name: alliance.clone(),
                powers: vec![p],
            }),
        }
    }
    for p in &powers {
        if !sided.contains(&p.name) {
            notes.push(format!(
                "{} is in no alliance; given a side of its own",
                p.name
            ));
            sides.push(Side {
                name: p.name.clone(),
                powers: vec![p.name.clone()],
            });
        }
    }

    // Setup.
    let mut ipcs: Vec<(String, u32)> = Vec::new();
    for p in powers.iter().filter(|p| p.plays) {
        let t = xml
            .players
            .iter()
            .find(|t| power(t) == p.name)
            .map(String::as_str)
            .unwrap_or_default();
        let given: i64 = xml
            .resources
            .iter()
            .filter(|(pl, r, _)| pl == t && r == "PUs")
            .map(|(_, _, q)| *q)
            .sum();
        ipcs.push((p.name.clone(), u32::try_from(given).unwrap_or(0)));
    }
    let original_of: HashMap<String, Option<String>> = territories
        .iter()
        .map(|t| (t.name.clone(), t.original_owner.clone()))
        .chain(
            sea_zones
                .iter()
                .map(|z| (z.name.clone(), z.convoy.as_ref().map(|c| c.power.clone()))),
        )
        .collect();
    let mut owners = Vec::new();
    for (t, p) in &xml.owners {
        let name = space(t);
        let owner = power(p);
        let is_plain_sea = sea_zones
            .iter()
            .any(|z| z.name == name && z.convoy.is_none());
        if is_plain_sea {
            continue; // TripleA may own ordinary sea zones; control of sea is by ships.
        }
        if original_of.get(&name).cloned().flatten().as_deref() != Some(owner.as_str()) {
            owners.push((name, owner));
        }
    }
    let mut units_at: Vec<(String, UnitsByPower)> = Vec::new();
    let mut damaged = 0;
    let mut neutral_units = 0;
    for pl in &xml.placements {
        let Some(owner) = pl.owner.as_deref() else {
            neutral_units += pl.quantity;
            continue;
        };
        damaged += u32::from(pl.hits_taken > 0);
        let at = space(&pl.territory);
        let owner = power(owner);
        let unit = unit_names
            .get(pl.unit.as_str())
            .cloned()
            .unwrap_or_else(|| pl.unit.clone());
        let by_power = match units_at.iter_mut().position(|(s, _)| *s == at) {
            Some(i) => &mut units_at[i].1,
            None => {
                units_at.push((at, Vec::new()));
                &mut units_at.last_mut().expect("just pushed").1
            }
        };
        let list = match by_power.iter_mut().position(|(p, _)| *p == owner) {
            Some(i) => &mut by_power[i].1,
            None => {
                by_power.push((owner, Vec::new()));
                &mut by_power.last_mut().expect("just pushed").1
            }
        };
        match list.iter_mut().find(|(u, _)| *u == unit) {
            Some((_, n)) => *n += pl.quantity,
            None => list.push((unit, pl.quantity)),
        }
    }
    if damaged > 0 {
        notes.push(format!(
            "{damaged} unit placements start damaged in TripleA; damage is not imported"
        ));
    }
    if neutral_units > 0 {
        notes.push(format!(
            "{neutral_units} neutral units (no owner) are not imported"
        ));
    }
    if !xml.replaced.is_empty() {
        let list: Vec<String> = xml
            .replaced
            .iter()
            .map(|(k, t, n)| format!("{n} on {k} {t}"))
            .collect();
        notes.push(format!(
            "{} attachment(s) repeated with the same name replace the earlier one, as in TripleA: {}",
            xml.replaced.len(),
            list.join("; ")
        ));
    }
    if !xml.legacy_options.is_empty() {
        let mut list: Vec<String> = xml
            .legacy_options
            .iter()
            .map(|(o, n)| format!("{o} -> {n}"))
            .collect();
        list.sort();
        list.dedup();
        notes.push(format!(
            "legacy TripleA option names mapped: {}",
            list.join(", ")
        ));
    }
    let behaviour = xml
        .attachments
        .iter()
        .filter(|a| {
            matches!(
                a.class.as_str(),
                "RulesAttachment"
                    | "TriggerAttachment"
                    | "UserActionAttachment"
                    | "PoliticalActionAttachment"
                    | "TechAttachment"
                    | "PlayerAttachment"
            )
        })
        .count();
    if behaviour > 0 {
        notes.push(format!(
            "{behaviour} rules/trigger/user-action/player attachments (national objectives, victory \
             conditions, scripted payments) are behaviour, not data: not imported; choose a rule set in game.yaml"
        ));
    }

    let game = GameFile {
        id: id.to_owned(),
        name: if xml.version.is_empty() {
            xml.name.clone()
        } else {
            format!("{} {}", xml.name, xml.version)
        },
        rule_set: "generic".to_owned(),
        notes: Some(format!(
            "Imported from TripleA file {source} by `adjutant import-triplea`."
        )),
        powers,
        sides,
        turn_order,
        options: Entries::default(),
        national_objectives: Vec::new(),
        research: None,
        regions: Entries::default(),
    };
    let setup = SetupFile {
        ipcs: ipcs.into_iter().collect(),
        owners: owners.into_iter().collect(),
        units: units_at
            .into_iter()
            .map(|(s, by)| {
                (
                    s,
                    by.into_iter()
                        .map(|(p, us)| (p, us.into_iter().collect()))
                        .collect(),
                )
            })
            .collect(),
    };
    Converted {
        files: GameFiles {
            game,
            board: BoardFile {
                territories,
                sea_zones,
                canals,
                landings: Vec::new(),
            },
            units: UnitsFile { units },
            setup,
        },
        notes,
    }
}

fn small(a: Option<&Attachment>, option: &str) -> Option<u8> {
    a.and_then(|a| a.number(option))
        .and_then(|n| u8::try_from(n).ok())
}

/// What TripleA's legacy `isSub` flag brings besides the first strike and
/// not hitting aircraft, by the map's game properties.
#[derive(Debug, Clone, Copy)]
struct LegacySub {
    /// "Submersible Subs": the sub may submerge.
    submerges: bool,
    /// "Air Attack Sub Restricted": aircraft hit it only with a destroyer.
    hidden_from_air: bool,
}

/// A unit type from its TripleA unit attachment.
fn unit_type(
    name: String,
    aliases: Vec<String>,
    ua: Option<&Attachment>,
    cost: Option<u32>,
    legacy_sub: LegacySub,
    ignored: &mut HashSet<String>,
) -> UnitType {
    let flag = |o: &str| ua.is_some_and(|a| a.flag(o));
    let kind = if flag("isFactory") || (flag("isInfrastructure") && !flag("isAA")) {
        UnitKind::Building
    } else if flag("isSea") {
        UnitKind::Sea
    } else if flag("isAir") {
        UnitKind::Air
    } else {
        UnitKind::Land
    };
    let attack = small(ua, "attack").unwrap_or(0);
    let defense = small(ua, "defense").unwrap_or(0);
    let mut abilities = Vec::new();
    let mut add = |a: Ability| {
        if !abilities
            .iter()
            .any(|b| std::mem::discriminant(b) == std::mem::discriminant(&a))
        {
            abilities.push(a);
        }
    };
    if flag("canBlitz") {
        add(Ability::Blitz);
    }
    if flag("artillery") {
        add(Ability::ArtillerySupport);
    }
    if flag("artillerySupportable") {
        add(Ability::ArtillerySupportable);
    }
    if flag("isSub") {
        // The legacy isSub bundles TripleA's submarine rules, some of them
        // by the map's properties.
        add(Ability::FirstStrike);
        if legacy_sub.submerges {
            add(Ability::Submerge);
        }
        add(Ability::CannotHitAir);
        if legacy_sub.hidden_from_air {
            add(Ability::HiddenFromAir);
        }
    }
    if flag("isFirstStrike") {
        add(Ability::FirstStrike);
    }
    if flag("canEvade") {
        add(Ability::Submerge);
    }
    if ua
        .and_then(|a| a.get("canNotTarget"))
        .is_some_and(|v| v.contains("fighter") || v.contains("bomber"))
    {
        add(Ability::CannotHitAir);
    }
    if ua
        .and_then(|a| a.get("canNotBeTargetedBy"))
        .is_some_and(|v| v.contains("fighter") || v.contains("bomber"))
    {
        add(Ability::HiddenFromAir);
    }
    if flag("isDestroyer") {
        add(Ability::AntiSubmarine);
    }
    if flag("canBombard") {
        add(Ability::Bombard(
            small(ua, "bombard")
                .filter(|b| *b > 0)
                .unwrap_or(attack)
                .clamp(1, 6),
        ));
    }
    if flag("isStrategicBomber") {
        add(Ability::StrategicBomber);
    }
    if flag("canEscort") {
        add(Ability::Escort(
            small(ua, "airAttack")
                .filter(|b| *b > 0)
                .unwrap_or(attack)
                .clamp(1, 6),
        ));
    }
    if flag("canIntercept") {
        add(Ability::Interceptor(
            small(ua, "airDefense")
                .filter(|b| *b > 0)
                .unwrap_or(defense)
                .clamp(1, 6),
        ));
    }
    if flag("isAA") || flag("isAAforCombatOnly") {
        add(Ability::AntiAircraft(
            small(ua, "attackAA")
                .filter(|b| *b > 0)
                .unwrap_or(1)
                .clamp(1, 6),
        ));
        add(Ability::CapturedWithTerritory);
    }
    if flag("isFactory") {
        add(Ability::Production);
        add(Ability::CapturedWithTerritory);
    }
    if flag("isAirTransportable") {
        add(Ability::Paradrop);
    }
    for (option, _) in ua.map(|a| a.options.as_slice()).unwrap_or_default() {
        let known = matches!(
            option.as_str(),
            "movement"
                | "attack"
                | "defense"
                | "hitPoints"
                | "isTwoHit"
                | "transportCost"
                | "transportCapacity"
                | "carrierCost"
                | "carrierCapacity"
                | "isSea"
                | "isAir"
                | "isFactory"
                | "isInfrastructure"
                | "canBlitz"
                | "artillery"
                | "artillerySupportable"
                | "isSub"
                | "isFirstStrike"
                | "canEvade"
                | "canNotTarget"
                | "canNotBeTargetedBy"
                | "isDestroyer"
                | "canBombard"
                | "bombard"
                | "isStrategicBomber"
                | "canEscort"
                | "airAttack"
                | "canIntercept"
                | "airDefense"
                | "isAA"
                | "isAAforCombatOnly"
                | "attackAA"
                | "isAirTransportable"
        );
        if !known {
            ignored.insert(option.clone());
        }
    }
    let hit_points = if flag("isTwoHit") {
        2
    } else {
        small(ua, "hitPoints").filter(|h| *h > 0).unwrap_or(1)
    };
    let movement = small(ua, "movement");
    UnitType {
        name,
        aliases,
        kind: Some(kind),
        cost,
        attack: (kind != UnitKind::Building).then_some(attack),
        defense: (kind != UnitKind::Building).then_some(defense),
        movement: if kind == UnitKind::Building {
            movement.filter(|m| *m > 0)
        } else {
            Some(movement.unwrap_or(0))
        },
        hit_points,
        transport_cost: small(ua, "transportCost").filter(|c| *c > 0 && kind == UnitKind::Land),
        transport_capacity: small(ua, "transportCapacity")
            .filter(|c| *c > 0 && matches!(kind, UnitKind::Sea | UnitKind::Air)),
        carrier_cost: small(ua, "carrierCost").filter(|c| *c > 0 && kind == UnitKind::Air),
        carrier_capacity: small(ua, "carrierCapacity").filter(|c| *c > 0 && kind == UnitKind::Sea),
        abilities,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sea_zone_names_lose_the_triplea_suffix() {
        let land: HashSet<NameKey> = ["Alaska", "East Canada"]
            .iter()
            .map(|n| NameKey::new(n))
            .collect();
        assert_eq!(sea_zone_name("Baltic Sea Sea Zone", &land), "Baltic Sea");
        assert_eq!(sea_zone_name("Red Sea Zone", &land), "Red Sea");
        assert_eq!(
            sea_zone_name("British Convoy 1 Sea Zone", &land),
            "British Convoy 1"
        );
        assert_eq!(sea_zone_name("12 Sea Zone", &land), "Sea Zone 12");
        assert_eq!(sea_zone_name("Alaska Sea Zone", &land), "Alaska Sea Zone");
        assert_eq!(
            sea_zone_name("Mid-Atlantic Sea Zone", &land),
            "Mid-Atlantic"
        );
        assert_eq!(sea_zone_name("Open Water", &land), "Open Water");
    }

    #[test]
    fn power_and_unit_names_read_like_the_board_game() {
        assert_eq!(power_name("Russians"), "Soviet Union");
        assert_eq!(power_name("Middle_East"), "Middle East");
        assert_eq!(unit_name("armour").0, "armor");
        assert_eq!(unit_name("aaGun").0, "AA gun");
        assert_eq!(
            unit_name("heavyArmour"),
            ("heavy armour".to_owned(), vec!["heavyArmour".to_owned()])
        );
    }
}
