//! The battle plan's `retreat: {when_odds_below: P}`: parsed, written back
//! in canonical form (which parses to the same orders), and refused with a
//! reason when P is not a probability.

use std::path::Path;
use std::sync::OnceLock;

use adjutant::rules::orders::Retreat;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::{GameDef, load_dir};

fn aae() -> &'static GameDef {
    static GAME: OnceLock<GameDef> = OnceLock::new();
    GAME.get_or_init(|| load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap())
}

fn message(retreat: &str) -> String {
    format!(
        "combat:\n  - 3 infantry: Poland -> Belorussia\nbattles:\n  Belorussia: {{retreat: {retreat}}}\n"
    )
}

#[test]
fn when_odds_below_parses_and_round_trips() {
    for (text, p) in [
        ("{when_odds_below: 0.3, to: Poland}", 0.3),
        ("{when_odds_below: 1}", 1.0),
        ("{when_odds_below: 0.125}", 0.125),
    ] {
        let m = parse_message(aae(), &message(text)).unwrap();
        let plan = &m.orders.battles[0].item;
        assert_eq!(plan.retreat, Retreat::WhenOddsBelow(p), "{text}");
        assert!(m.canonical.contains("when_odds_below: "), "{}", m.canonical);
        let again = parse_message(aae(), &m.canonical).unwrap();
        // The same plan (where it was written differs, so not the origins).
        assert_eq!(again.orders.battles[0].item, *plan, "{}", m.canonical);
        assert_eq!(again.canonical, m.canonical);
    }
}

#[test]
fn when_odds_below_takes_a_probability_and_one_condition() {
    for (text, reason) in [
        ("{when_odds_below: 0}", "above 0 and at most 1"),
        ("{when_odds_below: 30}", "above 0 and at most 1"),
        ("{when_odds_below: often}", "above 0 and at most 1"),
        ("{when_odds_below: 0.3, after_round: 2}", "one condition"),
        ("{when_odds_belov: 0.3}", "when_odds_below"),
    ] {
        let errors = parse_message(aae(), &message(text)).unwrap_err();
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        assert!(
            shown.iter().any(|e| e.contains(reason)),
            "{text}: {shown:?}"
        );
    }
}
