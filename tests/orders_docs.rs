//! docs/orders.md is the players' contract: every example in it is parsed
//! here against the AAE board, so the page cannot rot.
//!
//! - a ```` ```yaml ```` block must parse without a problem;
//! - a ```` ```yaml canonical ```` block must be exactly the canonical form
//!   of the ```` ```yaml ```` block before it;
//! - a ```` ```yaml rejected ```` block must be rejected, and the
//!   ```` ```text ```` block after it must be exactly the errors printed.

use std::path::Path;

use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::{GameDef, load_dir};

fn aae() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).expect("games/aae loads")
}

/// Examples marked `anniversary` (research) are checked against this game.
fn anniversary() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/anniversary-1941"))
        .expect("games/anniversary-1941 loads")
}

/// Examples marked `jboulton` (air transports, paratroopers) are checked
/// against the J Boulton game.
fn jboulton() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae-jboulton"))
        .expect("games/aae-jboulton loads")
}

/// Examples marked `advanced-aae` (strategic rail) are checked against the
/// Advanced AAE game.
fn advanced_aae() -> GameDef {
    load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/advanced-aae"))
        .expect("games/advanced-aae loads")
}

/// A fenced block: its info string, its text and the line it starts on.
struct Block {
    info: String,
    text: String,
    line: usize,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut current: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => {
                current = Some(Block {
                    info: info.trim().to_owned(),
                    text: String::new(),
                    line: i + 1,
                })
            }
            (Some(_), Some("")) => out.push(current.take().expect("open block")),
            (Some(block), _) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            (None, None) => {}
        }
    }
    assert!(
        current.is_none(),
        "an unclosed code block in docs/orders.md"
    );
    out
}

fn orders_md() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/orders.md"))
        .expect("docs/orders.md")
}

#[test]
fn every_example_in_docs_orders_md_holds() {
    let aae = aae();
    let anniversary = anniversary();
    let jboulton = jboulton();
    let advanced = advanced_aae();
    let blocks = blocks(&orders_md());
    let mut counts = [0usize; 3];
    let mut previous_yaml: Option<&Block> = None;
    for (i, block) in blocks.iter().enumerate() {
        let (info, game) = match (
            block.info.strip_suffix(" anniversary"),
            block.info.strip_suffix(" jboulton"),
            block.info.strip_suffix(" advanced-aae"),
        ) {
            (Some(info), _, _) => (info, &anniversary),
            (_, Some(info), _) => (info, &jboulton),
            (_, _, Some(info)) => (info, &advanced),
            _ => (block.info.as_str(), &aae),
        };
        match info {
            "yaml" => {
                counts[0] += 1;
                if let Err(errors) = parse_message(game, &block.text) {
                    let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
                    panic!(
                        "docs/orders.md line {}: the example is rejected:\n{}",
                        block.line,
                        shown.join("\n")
                    );
                }
                previous_yaml = Some(block);
            }
            "yaml canonical" => {
                counts[1] += 1;
                let source = previous_yaml.expect("a yaml block before the canonical one");
                let message = parse_message(game, &source.text).expect("parsed above");
                assert_eq!(
                    message.canonical, block.text,
                    "docs/orders.md line {}: the canonical form differs",
                    block.line
                );
                // And the canonical form is itself a valid message.
                parse_message(game, &block.text).expect("the canonical form parses");
            }
            "yaml rejected" => {
                counts[2] += 1;
                let expected = blocks
                    .get(i + 1)
                    .filter(|b| b.info == "text")
                    .unwrap_or_else(|| {
                        panic!("docs/orders.md line {}: no text block after", block.line)
                    });
                let errors = match parse_message(game, &block.text) {
                    Ok(_) => panic!("docs/orders.md line {}: accepted", block.line),
                    Err(errors) => errors,
                };
                let shown: String = errors.iter().map(|e| format!("{e}\n")).collect();
                assert_eq!(
                    shown, expected.text,
                    "docs/orders.md line {}: the errors differ",
                    block.line
                );
            }
            _ => {}
        }
    }
    // The page has examples of every kind; a reshuffle that lost them fails.
    assert!(counts[0] >= 10, "yaml examples: {}", counts[0]);
    assert_eq!(counts[1], 1, "canonical examples");
    assert!(counts[2] >= 4, "rejected examples: {}", counts[2]);
}

#[test]
fn docs_show_every_section_and_order_kind() {
    let page = orders_md();
    for needle in [
        "research:",
        "purchase:",
        "repair:",
        "rockets:",
        "combat:",
        "noncombat:",
        "take_over:",
        " of United Kingdom in Moscow",
        "battles:",
        "place:",
        "standing:",
        "command:",
        "transport:",
        "load:",
        "unload:",
        ", land ",
        "after_round",
        "when_attackers_below",
        "retreat: never",
        "keep_one_land_unit",
        "submerge_after_first_round",
        "ignore: true",
        "intercept: ",
        " at Danish Sea",
    ] {
        assert!(page.contains(needle), "docs/orders.md never shows {needle}");
    }
}
