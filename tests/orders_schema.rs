//! `adjutant schema orders`: valid JSON, and a schema that accepts what
//! docs/orders.md documents (its keys are checked against the parser's own
//! lists by the unit tests in src/rules/orders/schema.rs).

use std::path::Path;
use std::process::Command;

use adjutant::rules::orders::keys;
use adjutant::rules::orders::schema::RawMessage;
use serde_json::Value;

fn schema_from_the_command() -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["schema", "orders"])
        .output()
        .expect("adjutant runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("the schema is JSON")
}

#[test]
fn the_command_prints_a_json_schema_of_every_key() {
    let schema = schema_from_the_command();
    assert_eq!(
        schema["$schema"],
        "https://json-schema.org/draft/2020-12/schema"
    );
    assert_eq!(schema["type"], "object");
    let mut properties: Vec<&str> = schema["properties"]
        .as_object()
        .expect("properties")
        .keys()
        .map(String::as_str)
        .collect();
    properties.sort_unstable();
    let mut expected = keys::top_level();
    expected.sort_unstable();
    assert_eq!(properties, expected);
    // Every $ref points at a definition that exists.
    let text = schema.to_string();
    for (i, _) in text.match_indices("\"$ref\":\"#/$defs/") {
        let rest = &text[i + "\"$ref\":\"#/$defs/".len()..];
        let name = &rest[..rest.find('"').expect("closing quote")];
        assert!(schema["$defs"].get(name).is_some(), "dangling $ref {name}");
    }
}

#[test]
fn unknown_schema_formats_are_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["schema", "ordres"])
        .output()
        .expect("adjutant runs");
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("orders"));
}

/// The documented examples fit the schema's types (`deny_unknown_fields`
/// everywhere, as `additionalProperties: false` in the schema). The one
/// example written on purpose in a player's sloppy spelling (capitalised
/// keys, a list split by YAML inside braces), shown before its canonical
/// form, is what the parser tolerates and the schema does not.
#[test]
fn the_documented_examples_fit_the_schema_types() {
    let page =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/orders.md"))
            .expect("docs/orders.md");
    let mut checked = 0;
    let mut block: Option<(String, String)> = None;
    let mut blocks = Vec::new();
    for line in page.lines() {
        match (&mut block, line.strip_prefix("```")) {
            (None, Some(info)) => block = Some((info.trim().to_owned(), String::new())),
            (Some(_), Some("")) => blocks.push(block.take().expect("open")),
            (Some((_, text)), _) => {
                text.push_str(line);
                text.push('\n');
            }
            _ => {}
        }
    }
    for (i, (info, text)) in blocks.iter().enumerate() {
        let sloppy = blocks
            .get(i + 1)
            .is_some_and(|(next, _)| next == "yaml canonical");
        if !info.starts_with("yaml") || info.contains("rejected") || sloppy {
            continue;
        }
        let parsed: Result<RawMessage, _> = serde_saphyr::from_str(text);
        if let Err(e) = parsed {
            panic!("docs/orders.md example does not fit the schema:\n{text}\n{e}");
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} examples checked");
    // And a wrong key is refused by the same types.
    let wrong: Result<RawMessage, _> = serde_saphyr::from_str("batles: {}\n");
    assert!(wrong.is_err());
}
