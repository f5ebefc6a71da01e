//! Errors the rules find after parsing carry the line of their order and,
//! where there are few, what would be valid (`adjutant submit`, the same
//! path as mail).

use std::path::{Path, PathBuf};
use std::process::Command;

fn fresh_match(name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("rules-errors-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    std::fs::create_dir_all(&root).unwrap();
    let players = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/aae-players.yaml");
    let dir = root.join("m");
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["new", "--game", "aae", "--players"])
        .arg(&players)
        .arg("--dir")
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir
}

/// Submits `orders` as Germany; returns what was said and whether it was
/// accepted.
fn submit(dir: &Path, orders: &str) -> (String, bool) {
    let file = dir.with_extension(format!("{}.yaml", orders.len()));
    std::fs::write(&file, orders).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["submit", "--match"])
        .arg(dir)
        .args(["--as", "Germany"])
        .arg(&file)
        .output()
        .unwrap();
    (
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        out.status.success(),
    )
}

#[test]
fn a_space_that_does_not_border_names_the_ones_that_do() {
    let dir = fresh_match("border");
    let (said, ok) = submit(
        &dir,
        "purchase: 1 infantry\nnoncombat:\n  - 1 infantry: Norway -> Karelia\nplace:\n  Germany: 1 infantry\n",
    );
    assert!(!ok);
    assert!(
        said.contains("Line 3, noncombat order 1 (1 infantry: Norway -> Karelia), path: Norway does not border Karelia; from Norway, the next space may be Sweden, Finland"),
        "{said}"
    );
}

#[test]
fn an_aircraft_left_without_a_landing_gets_its_line_and_its_landings() {
    // Stages 1 and 2 in one message: the error points at the combat order
    // that brought the fighter, and lists where it could still land.
    let dir = fresh_match("landing");
    let stage1 =
        "purchase: 1 infantry\ncombat:\n  - 1 fighter: Germany -> Baltic Sea, land Germany\n";
    let (said, ok) = submit(&dir, &format!("{stage1}place:\n  Germany: 1 infantry\n"));
    assert!(!ok);
    assert!(
        said.contains("Line 3, combat order 1 (1 fighter: Germany -> Baltic Sea, land Germany), path: not enough carrier space in Baltic Sea")
            && said.contains("it has no non-combat move: give it one, e.g. - 1 fighter: Baltic Sea -> ")
            && said.contains("it may land in ")
            && said.contains("Germany"),
        "{said}"
    );
    // Stage 2 on its own: no line in this message holds the fighter, but
    // the error still says what to write.
    let (said, ok) = submit(&dir, stage1);
    assert!(ok, "{said}");
    let (said, ok) = submit(&dir, "place:\n  Germany: 1 infantry\n");
    assert!(!ok);
    assert!(
        said.contains("give it one, e.g. - 1 fighter: Baltic Sea -> ")
            && said.contains("remaining spaces it may land in "),
        "{said}"
    );
}

#[test]
fn section_errors_carry_the_line_and_unplaced_units_where_they_may_go() {
    let dir = fresh_match("sections");
    let (said, ok) = submit(&dir, "purchase: 2 infantry\n");
    assert!(ok, "{said}");
    // Stage 2 with a combat move: its line is named.
    let (said, ok) = submit(
        &dir,
        "combat:\n  - 1 infantry: Germany -> Poland\nplace:\n  Germany: 2 infantry\n",
    );
    assert!(!ok);
    assert!(
        said.contains("Line 2, combat: combat moves belong to stage 1"),
        "{said}"
    );
    // One of the two infantry placed: the place section's line, and where
    // the other may go.
    let (said, ok) = submit(
        &dir,
        "noncombat:\n  - 1 armor: Germany -> Poland\nplace:\n  Germany: 1 infantry\n",
    );
    assert!(!ok);
    assert!(
        said.contains("Line 4, place: 1 infantry bought this turn and not placed: every unit bought must be placed (where Germany may place now: ")
            && said.contains("Germany"),
        "{said}"
    );
}
