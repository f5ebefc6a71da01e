//! Reading TripleA's game XML into plain Rust values, with TripleA's own
//! loading semantics applied (see `../shared/triplea-xml/FORMAT-NOTES.md`):
//! byte-order mark and DOCTYPE tolerated, `foreach` attachments expanded,
//! option names decapitalised and legacy names mapped, and a later attachment
//! with the same (type, attachTo, name) replacing an earlier one.

use std::collections::HashMap;

use roxmltree::{Document, Node, ParsingOptions};

use super::ImportError;

/// An attachment after expansion and replacement: its options in file order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// `territory`, `unitType`, `player`, ... (TripleA's `type`).
    pub kind: String,
    /// The short class name (`TerritoryAttachment`).
    pub class: String,
    /// The attachment's name (`territoryAttachment`).
    pub name: String,
    /// The territory, unit type or player it is attached to.
    pub attach_to: String,
    /// Options, names already normalised: (name, value).
    pub options: Vec<(String, String)>,
}

impl Attachment {
    /// The value of an option, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// True when a boolean option is set to `true`.
    pub fn flag(&self, name: &str) -> bool {
        self.get(name)
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
    }

    /// A numeric option.
    pub fn number(&self, name: &str) -> Option<i64> {
        self.get(name).and_then(|v| v.trim().parse().ok())
    }
}

/// A production rule: what it costs in PUs and which unit it yields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductionRule {
    /// PUs per purchase.
    pub cost: u32,
    /// The unit bought, if the result is a unit (not a resource).
    pub unit: String,
    /// How many units one purchase yields.
    pub quantity: u32,
}

/// A step of the game sequence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The step name (`germansCombatMove`).
    pub name: String,
    /// The delegate's Java class (short name).
    pub delegate_class: String,
    /// The player whose step it is.
    pub player: Option<String>,
}

/// A unit placed at the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    /// Unit type.
    pub unit: String,
    /// Territory or sea zone.
    pub territory: String,
    /// Number of units.
    pub quantity: u32,
    /// Owning player (absent = neutral).
    pub owner: Option<String>,
    /// Damage already taken.
    pub hits_taken: u32,
}

/// Everything the importer uses from a TripleA game file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TripleaXml {
    /// `info name`.
    pub name: String,
    /// `info version`.
    pub version: String,
    /// Territories: (name, is water), in file order.
    pub territories: Vec<(String, bool)>,
    /// Undirected connections, in file order.
    pub connections: Vec<(String, String)>,
    /// Players, in `playerList` order.
    pub players: Vec<String>,
    /// (player, alliance) pairs.
    pub alliances: Vec<(String, String)>,
    /// Unit type names.
    pub units: Vec<String>,
    /// The game sequence.
    pub steps: Vec<Step>,
    /// Production rules by name.
    pub production_rules: HashMap<String, ProductionRule>,
    /// Frontiers: name -> rule names.
    pub frontiers: HashMap<String, Vec<String>>,
    /// player -> frontier name.
    pub player_frontier: Vec<(String, String)>,
    /// Attachments after `foreach` expansion and replacement, in first-seen order.
    pub attachments: Vec<Attachment>,
    /// How many attachments replaced an earlier one: (type, attachTo, name).
    pub replaced: Vec<(String, String, String)>,
    /// Legacy option names that were mapped: (old, new).
    pub legacy_options: Vec<(String, String)>,
    /// Initial owners: (territory, player).
    pub owners: Vec<(String, String)>,
    /// Initial units.
    pub placements: Vec<Placement>,
    /// Starting resources: (player, resource, quantity).
    pub resources: Vec<(String, String, i64)>,
    /// Game properties: name -> value.
    pub properties: HashMap<String, String>,
}

/// The last segment of a dotted Java class name.
fn short_class(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

/// TripleA lower-cases the first letter of option names and maps legacy
/// names before using them (FORMAT-NOTES gotcha 2).
fn normalise_option(name: &str, value: &str) -> (String, String, bool) {
    let mut chars = name.chars();
    let decapitalised: String = match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    };
    let (mapped, mut value) = match decapitalised.as_str() {
        "isParatroop" => ("isAirTransportable", value.to_owned()),
        "isInfantry" | "isMechanized" => ("isLandTransportable", value.to_owned()),
        "occupiedTerrOf" => ("originalOwner", value.to_owned()),
        "isImpassible" => ("isImpassable", value.to_owned()),
        "turns" => ("rounds", value.to_owned()),
        other => (other, value.to_owned()),
    };
    let legacy = mapped != decapitalised;
    if mapped == "victoryCity" {
        // Old files write true/false; TripleA now counts victory cities.
        value = match value.as_str() {
            "true" => "1".to_owned(),
            "false" => "0".to_owned(),
            _ => value,
        };
    }
    (mapped.to_owned(), value, legacy)
}

fn attr<'a>(node: Node<'a, '_>, name: &str) -> Option<&'a str> {
    node.attribute(name)
}

fn required<'a>(node: Node<'a, '_>, name: &str) -> Result<&'a str, ImportError> {
    node.attribute(name).ok_or_else(|| ImportError::Format {
        element: node.tag_name().name().to_owned(),
        reason: format!("missing attribute `{name}`"),
    })
}

fn number(node: Node<'_, '_>, name: &str, default: i64) -> Result<i64, ImportError> {
    match node.attribute(name) {
        None => Ok(default),
        Some(v) => v.trim().parse().map_err(|_| ImportError::Format {
            element: node.tag_name().name().to_owned(),
            reason: format!("attribute `{name}` is not a number: \"{v}\""),
        }),
    }
}

fn children<'a, 'i>(node: Node<'a, 'i>, tag: &'a str) -> impl Iterator<Item = Node<'a, 'i>> + 'a {
    node.children()
        .filter(move |c| c.is_element() && c.tag_name().name() == tag)
}

/// Parses a TripleA game file.
pub fn parse(text: &str) -> Result<TripleaXml, ImportError> {
    // Several europe files start with a UTF-8 byte-order mark (gotcha 7).
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // The DOCTYPE names game.dtd, which maps do not ship; roxmltree does not
    // fetch external DTDs, it only needs permission to see the declaration.
    let options = ParsingOptions {
        allow_dtd: true,
        nodes_limit: 2_000_000,
        ..ParsingOptions::default()
    };
    let doc =
        Document::parse_with_options(text, options).map_err(|e| ImportError::Xml(e.to_string()))?;
    let root = doc.root_element();
    if root.tag_name().name() != "game" {
        return Err(ImportError::Format {
            element: root.tag_name().name().to_owned(),
            reason: "the root element of a TripleA game file is <game>".to_owned(),
        });
    }
    let mut out = TripleaXml::default();
    let mut variables: HashMap<String, Vec<String>> = HashMap::new();

    for section in root.children().filter(Node::is_element) {
        match section.tag_name().name() {
            "info" => {
                out.name = attr(section, "name").unwrap_or_default().to_owned();
                out.version = attr(section, "version").unwrap_or_default().to_owned();
            }
            "variableList" => {
                for var in children(section, "variable") {
                    let elements = children(var, "element")
                        .filter_map(|e| attr(e, "name"))
                        .map(str::to_owned)
                        .collect();
                    variables.insert(required(var, "name")?.to_owned(), elements);
                }
            }
            "map" => {
                for t in children(section, "territory") {
                    let water = attr(t, "water").is_some_and(|w| w.eq_ignore_ascii_case("true"));
                    out.territories
                        .push((required(t, "name")?.to_owned(), water));
                }
                for c in children(section, "connection") {
                    out.connections
                        .push((required(c, "t1")?.to_owned(), required(c, "t2")?.to_owned()));
                }
            }
            "playerList" => {
                for p in children(section, "player") {
                    out.players.push(required(p, "name")?.to_owned());
                }
                for a in children(section, "alliance") {
                    out.alliances.push((
                        required(a, "player")?.to_owned(),
                        required(a, "alliance")?.to_owned(),
                    ));
                }
            }
            "unitList" => {
                for u in children(section, "unit") {
                    out.units.push(required(u, "name")?.to_owned());
                }
            }
            "gamePlay" => {
                let delegates: HashMap<&str, &str> = children(section, "delegate")
                    .filter_map(|d| Some((attr(d, "name")?, short_class(attr(d, "javaClass")?))))
                    .collect();
                for seq in children(section, "sequence") {
                    for s in children(seq, "step") {
                        let delegate = required(s, "delegate")?;
                        out.steps.push(Step {
                            name: required(s, "name")?.to_owned(),
                            delegate_class: delegates
                                .get(delegate)
                                .copied()
                                .unwrap_or(delegate)
                                .to_owned(),
                            player: attr(s, "player").map(str::to_owned),
                        });
                    }
                }
            }
            "production" => parse_production(section, &mut out)?,
            "attachmentList" => parse_attachments(section, &variables, &mut out)?,
            "initialize" => parse_initialize(section, &mut out)?,
            "propertyList" => {
                for p in children(section, "property") {
                    let value = match attr(p, "value") {
                        Some(v) => v.to_owned(),
                        None => children(p, "value")
                            .next()
                            .and_then(|v| v.text())
                            .unwrap_or_default()
                            .to_owned(),
                    };
                    out.properties
                        .insert(required(p, "name")?.to_owned(), value);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

fn parse_production(section: Node<'_, '_>, out: &mut TripleaXml) -> Result<(), ImportError> {
    for rule in children(section, "productionRule") {
        let cost = children(rule, "cost")
            .filter(|c| attr(*c, "resource") == Some("PUs"))
            .map(|c| number(c, "quantity", 0))
            .sum::<Result<i64, _>>()?;
        // Rules that yield a resource (e.g. tech tokens) have no unit result.
        if let Some(result) = children(rule, "result").next() {
            out.production_rules.insert(
                required(rule, "name")?.to_owned(),
                ProductionRule {
                    cost: u32::try_from(cost).unwrap_or(0),
                    unit: required(result, "resourceOrUnit")?.to_owned(),
                    quantity: u32::try_from(number(result, "quantity", 1)?).unwrap_or(1),
                },
            );
        }
    }
    for frontier in children(section, "productionFrontier") {
        let rules = children(frontier, "frontierRules")
            .filter_map(|r| attr(r, "name"))
            .map(str::to_owned)
            .collect();
        out.frontiers
            .insert(required(frontier, "name")?.to_owned(), rules);
    }
    for pp in children(section, "playerProduction") {
        out.player_frontier.push((
            required(pp, "player")?.to_owned(),
            required(pp, "frontier")?.to_owned(),
        ));
    }
    Ok(())
}

fn parse_attachments(
    section: Node<'_, '_>,
    variables: &HashMap<String, Vec<String>>,
    out: &mut TripleaXml,
) -> Result<(), ImportError> {
    let mut index: HashMap<(String, String, String), usize> = HashMap::new();
    for a in children(section, "attachment") {
        let kind = attr(a, "type").unwrap_or("unitType").to_owned();
        let class = short_class(required(a, "javaClass")?).to_owned();
        let name = required(a, "name")?;
        let attach_to = required(a, "attachTo")?;
        let raw_options: Vec<(String, String)> = children(a, "option")
            .map(|o| {
                Ok((
                    required(o, "name")?.to_owned(),
                    attr(o, "value").unwrap_or_default().to_owned(),
                ))
            })
            .collect::<Result<_, ImportError>>()?;

        // `foreach="$var$"` expands the attachment once per element, with
        // `@var@` substituted in the name, attachTo and option values
        // (gotcha 3). Several variables joined by ':' iterate in lockstep.
        let expansions: Vec<Vec<(String, String)>> = match attr(a, "foreach") {
            None => vec![Vec::new()],
            Some(spec) => {
                let names: Vec<&str> = spec.split(':').map(|v| v.trim_matches('$')).collect();
                let lists: Vec<&Vec<String>> = names
                    .iter()
                    .map(|v| {
                        variables.get(*v).ok_or_else(|| ImportError::Format {
                            element: "attachment".to_owned(),
                            reason: format!("foreach names an unknown variable ${v}$"),
                        })
                    })
                    .collect::<Result<_, _>>()?;
                let len = lists.iter().map(|l| l.len()).min().unwrap_or(0);
                (0..len)
                    .map(|i| {
                        names
                            .iter()
                            .zip(&lists)
                            .map(|(n, l)| ((*n).to_owned(), l[i].clone()))
                            .collect()
                    })
                    .collect()
            }
        };
        for bindings in expansions {
            let subst = |s: &str| {
                bindings.iter().fold(s.to_owned(), |acc, (var, value)| {
                    acc.replace(&format!("@{var}@"), value)
                })
            };
            let mut options = Vec::with_capacity(raw_options.len());
            for (n, v) in &raw_options {
                let (mapped, value, legacy) = normalise_option(n, &subst(v));
                if legacy {
                    out.legacy_options.push((n.clone(), mapped.clone()));
                }
                options.push((mapped, value));
            }
            let attachment = Attachment {
                kind: kind.clone(),
                class: class.clone(),
                name: subst(name).replace("ttatchment", "ttachment"),
                attach_to: subst(attach_to),
                options,
            };
            let key = (
                attachment.kind.clone(),
                attachment.attach_to.clone(),
                attachment.name.clone(),
            );
            // A repeated (type, attachTo, name) replaces the earlier
            // attachment wholesale, as TripleA's map put does (gotcha 1).
            match index.get(&key) {
                Some(&i) => {
                    out.attachments[i] = attachment;
                    out.replaced.push(key);
                }
                None => {
                    index.insert(key, out.attachments.len());
                    out.attachments.push(attachment);
                }
            }
        }
    }
    Ok(())
}

fn parse_initialize(section: Node<'_, '_>, out: &mut TripleaXml) -> Result<(), ImportError> {
    for oi in children(section, "ownerInitialize") {
        for t in children(oi, "territoryOwner") {
            out.owners.push((
                required(t, "territory")?.to_owned(),
                required(t, "owner")?.to_owned(),
            ));
        }
    }
    for ui in children(section, "unitInitialize") {
        for p in children(ui, "unitPlacement") {
            out.placements.push(Placement {
                unit: required(p, "unitType")?.to_owned(),
                territory: required(p, "territory")?.to_owned(),
                quantity: u32::try_from(number(p, "quantity", 1)?).unwrap_or(0),
                owner: attr(p, "owner").map(str::to_owned),
                hits_taken: u32::try_from(number(p, "hitsTaken", 0)?).unwrap_or(0),
            });
        }
    }
    for ri in children(section, "resourceInitialize") {
        for r in children(ri, "resourceGiven") {
            out.resources.push((
                required(r, "player")?.to_owned(),
                required(r, "resource")?.to_owned(),
                number(r, "quantity", 0)?,
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = "\u{feff}<?xml version=\"1.0\"?>\n<!DOCTYPE game SYSTEM \"game.dtd\">\n<game>\n\
        <info name=\"T\" version=\"1\"/>\n\
        <variableList><variable name=\"v\"><element name=\"1\"/><element name=\"2\"/></variable></variableList>\n\
        <map><territory name=\"A\"/><territory name=\"B Sea Zone\" water=\"true\"/><connection t1=\"A\" t2=\"B Sea Zone\"/></map>\n\
        <attachmentList>\n\
          <attachment name=\"territoryAttachment\" attachTo=\"A\" javaClass=\"games.strategy.triplea.attachments.TerritoryAttachment\" type=\"territory\">\
            <option name=\"production\" value=\"30\"/><option name=\"occupiedTerrOf\" value=\"P\"/></attachment>\n\
          <attachment name=\"territoryAttachment\" attachTo=\"A\" javaClass=\"TerritoryAttachment\" type=\"territory\">\
            <option name=\"Production\" value=\"30\"/><option name=\"victoryCity\" value=\"true\"/></attachment>\n\
          <attachment foreach=\"$v$\" name=\"trig@v@\" attachTo=\"P\" javaClass=\"TriggerAttachment\" type=\"player\">\
            <option name=\"resourceCount\" value=\"-@v@\"/></attachment>\n\
        </attachmentList>\n</game>";

    #[test]
    fn bom_doctype_replacement_legacy_names_and_foreach() {
        let xml = parse(SMALL).unwrap();
        assert_eq!(
            xml.territories,
            vec![("A".into(), false), ("B Sea Zone".into(), true)]
        );
        let a: Vec<_> = xml
            .attachments
            .iter()
            .filter(|a| a.attach_to == "A")
            .collect();
        // The second attachment replaced the first: 30, not 60, and the
        // first one's originalOwner is gone with it.
        assert_eq!(a.len(), 1);
        assert_eq!(a[0].number("production"), Some(30));
        assert_eq!(a[0].get("originalOwner"), None);
        assert_eq!(a[0].get("victoryCity"), Some("1"));
        assert_eq!(xml.replaced.len(), 1);
        assert!(
            xml.legacy_options
                .contains(&("occupiedTerrOf".into(), "originalOwner".into()))
        );
        let triggers: Vec<_> = xml
            .attachments
            .iter()
            .filter(|a| a.attach_to == "P")
            .map(|a| (a.name.as_str(), a.get("resourceCount")))
            .collect();
        assert_eq!(triggers, vec![("trig1", Some("-1")), ("trig2", Some("-2"))]);
    }

    #[test]
    fn rejects_non_game_documents() {
        assert!(matches!(
            parse("<notgame/>"),
            Err(ImportError::Format { .. })
        ));
        assert!(matches!(parse("<game>"), Err(ImportError::Xml(_))));
    }

    #[test]
    fn legacy_option_names_map_as_triplea_does() {
        assert_eq!(normalise_option("isImpassible", "true").0, "isImpassable");
        assert_eq!(
            normalise_option("isInfantry", "true").0,
            "isLandTransportable"
        );
        assert_eq!(
            normalise_option("IsSub", "true"),
            ("isSub".into(), "true".into(), false)
        );
    }
}
