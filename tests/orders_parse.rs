//! The orders parser against the AAE board: the design sketch's messages,
//! every kind of error with its line, "did you mean", mail hygiene, and the
//! canonical form's round trip.

use std::path::Path;
use std::sync::OnceLock;

use adjutant::rules::orders::parse::{Message, parse_message};
use adjutant::rules::orders::{
    AversionOrder, Averted, BattlePlan, BystanderLosses, DropOff, LandingAllotment, Load,
    MiddleEastPayment, MoveOrder, NeutralDefenders, OrderError, Orders, Retreat, StandingOrders,
    SubmarinePolicy, TakeOverOrder, UnitCount,
};
use adjutant::rules::{GameDef, SpaceId, load_dir};

fn aae() -> &'static GameDef {
    static GAME: OnceLock<GameDef> = OnceLock::new();
    GAME.get_or_init(|| {
        load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).expect("games/aae")
    })
}

fn space(name: &str) -> SpaceId {
    aae()
        .space(name)
        .unwrap_or_else(|| panic!("{name} is on the board"))
}

fn unit(name: &str) -> usize {
    let wanted = aae().unit_type(name).expect("a unit type");
    aae()
        .unit_types()
        .iter()
        .position(|u| std::ptr::eq(u, wanted))
        .expect("in the list")
}

fn units(list: &[(u32, &str)]) -> Vec<UnitCount> {
    list.iter()
        .map(|&(count, name)| UnitCount {
            unit: unit(name),
            count,
        })
        .collect()
}

fn ok(yaml: &str) -> Message {
    parse_message(aae(), yaml).unwrap_or_else(|errors| {
        let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
        panic!("rejected:\n{}", shown.join("\n"))
    })
}

fn errors(yaml: &str) -> Vec<OrderError> {
    match parse_message(aae(), yaml) {
        Ok(m) => panic!("accepted: {:?}", m.orders),
        Err(errors) => errors,
    }
}

/// The design sketch's stage-1 message (../shared/design/orders-sketch.md),
/// adapted to the real board: AAE's territory is "Ukraine S.S.R.".
const SKETCH_STAGE_1: &str = r#"match: league7-aae-03
power: Germany
round: 2
secret: kite-harbor-7f3a-91      # from the welcome mail; never echoed back
entropy: "for the Fatherland"    # optional; mixed into this turn's dice

purchase: 6 infantry, 2 armor, 1 submarine

combat:
  - 3 infantry, 1 artillery, 2 armor: Poland -> Belorussia
  - 1 armor: Poland -> Ukraine S.S.R. -> Rumania        # a path; blitz through empty Ukraine
  - 2 fighter: Germany -> Baltic Sea, land Poland  # intended landing is checked now
  - transport: Baltic Sea
    load: 2 infantry from Germany
    unload: Finland                                # amphibious assault on Finland
  - 1 submarine: North Sea -> British Convoy 3   # convoy raid

battles:
  Belorussia: {retreat: {when_attackers_below: 3, to: Poland}, losses: infantry, artillery, armor}
  default:    {retreat: never}

# stage 2 may come in the same mail; it is applied after combat if it is still legal
noncombat:
  - 2 infantry: Germany -> Poland
place:
  Germany: 6 infantry, 2 armor
  Baltic Sea: 1 submarine
"#;

#[test]
fn the_sketch_stage_1_message_parses_to_the_orders_it_means() {
    let m = ok(SKETCH_STAGE_1);
    let h = &m.header;
    assert_eq!(h.match_id.as_deref(), Some("league7-aae-03"));
    assert_eq!(h.power.as_deref(), Some("Germany"));
    assert_eq!(h.round, Some(2));
    assert_eq!(h.secret.as_deref(), Some("kite-harbor-7f3a-91"));
    assert_eq!(h.entropy.as_deref(), Some("for the Fatherland"));

    let o = &m.orders;
    let purchase = o.purchase.as_ref().expect("a purchase");
    assert_eq!(
        purchase.item,
        units(&[(6, "infantry"), (2, "armor"), (1, "submarine")])
    );
    assert_eq!(
        (purchase.origin.section, purchase.origin.line),
        ("purchase", Some(7))
    );

    assert_eq!(o.combat.len(), 5);
    assert_eq!(
        o.combat[1].item,
        MoveOrder::Move {
            units: units(&[(1, "armor")]),
            path: vec![space("Poland"), space("Ukraine S.S.R."), space("Rumania")],
            land: None,
            rail: false,
            drops: Vec::new(),
        }
    );
    assert_eq!(o.combat[1].origin.index, 2);
    assert_eq!(o.combat[1].origin.line, Some(11));
    assert_eq!(
        o.combat[1].origin.text,
        "1 armor: Poland -> Ukraine S.S.R. -> Rumania"
    );
    assert_eq!(
        o.combat[2].item,
        MoveOrder::Move {
            units: units(&[(2, "fighter")]),
            path: vec![space("Germany"), space("Baltic Sea")],
            land: Some(space("Poland")),
            rail: false,
            drops: Vec::new(),
        }
    );
    assert_eq!(
        o.combat[3].item,
        MoveOrder::Transport {
            path: vec![space("Baltic Sea")],
            load: vec![Load {
                units: units(&[(2, "infantry")]),
                from: space("Germany"),
                at: None,
            }],
            unload: Some(space("Finland")),
            unload_units: None,
            drops: Vec::new(),
        }
    );
    assert_eq!(o.combat[3].origin.text, "transport: Baltic Sea");

    // `losses: infantry, artillery, armor` inside braces is split by YAML
    // at the commas; the parser puts the list back together.
    assert_eq!(
        o.battles.iter().map(|b| b.item.clone()).collect::<Vec<_>>(),
        vec![
            BattlePlan {
                space: Some(space("Belorussia")),
                retreat: Retreat::WhenAttackersBelow(3),
                retreat_to: Some(space("Poland")),
                losses: vec![unit("infantry"), unit("artillery"), unit("armor")],
                bombing_raid: false,
                raiders: Vec::new(),
                ignore: false,
                submarines: None,
                screen: 0,
                landing: None,
                teams: Default::default(),
            },
            BattlePlan {
                space: None,
                retreat: Retreat::Never,
                retreat_to: None,
                losses: vec![],
                bombing_raid: false,
                raiders: Vec::new(),
                ignore: false,
                submarines: None,
                screen: 0,
                landing: None,
                teams: Default::default(),
            },
        ]
    );
    assert_eq!(o.noncombat.len(), 1);
    assert_eq!(
        o.place.iter().map(|p| p.item.clone()).collect::<Vec<_>>(),
        vec![
            (space("Germany"), units(&[(6, "infantry"), (2, "armor")])),
            (space("Baltic Sea"), units(&[(1, "submarine")])),
        ]
    );
    assert!(o.standing.is_none());

    // The canonical form never carries the secret or the header.
    for hidden in [
        "kite-harbor",
        "league7",
        "power",
        "round",
        "secret",
        "match",
    ] {
        assert!(
            !m.canonical.contains(hidden),
            "{hidden} in\n{}",
            m.canonical
        );
    }
    assert!(m.canonical.starts_with("entropy: \"for the Fatherland\"\n"));
}

#[test]
fn the_sketch_standing_orders_and_command_parse() {
    let m = ok(
        "match: league7-aae-03\npower: Soviet Union\nsecret: x\nstanding:\n  \
                losses: infantry, artillery, armor, fighter, bomber   # order of loss\n  \
                keep_one_land_unit: true\n  submarines: submerge_after_first_round\n",
    );
    assert_eq!(
        m.orders.standing.expect("standing").item,
        StandingOrders {
            losses: ["infantry", "artillery", "armor", "fighter", "bomber"]
                .map(unit)
                .to_vec(),
            keep_one_land_unit: true,
            submarines: SubmarinePolicy::SubmergeAfterFirstRound,
            intercept: None,
            ..StandingOrders::default()
        }
    );
    let m = ok("match: m\npower: USSR\nsecret: x\ncommand: Status\n");
    assert_eq!(m.header.command.as_deref(), Some("status"));
    assert_eq!(m.orders, Orders::default());
    assert_eq!(m.canonical, "{}\n");
}

/// `stage:` and `entry:` say which earlier report `command: history` asks
/// for; with anything else they are an error, never silently ignored.
#[test]
fn history_reads_its_stage_and_entry_and_nothing_else_does() {
    let m = ok("secret: x\ncommand: history\nround: 2\nstage: 1\n");
    assert_eq!(m.header.command.as_deref(), Some("history"));
    assert_eq!((m.header.round, m.header.stage), (Some(2), Some(1)));
    let m = ok("secret: x\ncommand: history\nentry: 57\n");
    assert_eq!(m.header.entry, Some(57));
    let e = errors("secret: x\ncommand: history\nstage: 3\n");
    assert!(e[0].reason.contains("the stage is 1 or 2"), "{e:?}");
    let e = errors("secret: x\npurchase: 1 infantry\nstage: 1\n");
    assert!(
        e[0].reason
            .contains("stage: and entry: go only with command: history"),
        "{e:?}"
    );
}

#[test]
fn unit_lists_accept_plurals_aliases_and_bare_names() {
    let m = ok("purchase: 2 fighters, transport, 3 inf, 1 tank, 2 AA guns, 2 subs\n");
    assert_eq!(
        m.orders.purchase.expect("purchase").item,
        units(&[
            (2, "fighter"),
            (1, "transport"),
            (3, "infantry"),
            (1, "armor"),
            (2, "AA gun"),
            (2, "submarine"),
        ])
    );
    let m = ok("purchase: [6 infantry, 2 armor]\nplace: {Germany: 6 infantry, 2 armor}\n");
    assert_eq!(
        m.orders.place[0].item,
        (space("Germany"), units(&[(6, "infantry"), (2, "armor")]))
    );
}

#[test]
fn keys_and_names_ignore_case_and_phone_habits() {
    // Capitalised keys, lower-case names, a no-break space, a typographic arrow.
    let m = ok(
        "Combat:\n  - 1 Armor: poland\u{a0}\u{2192} east poland\nKeep:\n"
            .replace("Keep:\n", "")
            .as_str(),
    );
    assert_eq!(
        m.orders.combat[0].item,
        MoveOrder::Move {
            units: units(&[(1, "armor")]),
            path: vec![space("Poland"), space("East Poland")],
            land: None,
            rail: false,
            drops: Vec::new(),
        }
    );
    let m = ok("standing:\n  Keep one land unit: yes\n  Submarines: Submerge\n");
    let s = m.orders.standing.expect("standing").item;
    assert!(s.keep_one_land_unit);
    assert_eq!(s.submarines, SubmarinePolicy::Submerge);
}

#[test]
fn transports_load_at_points_of_their_path() {
    let m = ok(
        "combat:\n  - transport: Baltic Sea -> Danish Sea\n    load:\n      \
                - 1 infantry from Germany\n      - 1 armor from Denmark at Danish Sea\n    \
                unload: Norway\n",
    );
    assert_eq!(
        m.orders.combat[0].item,
        MoveOrder::Transport {
            path: vec![space("Baltic Sea"), space("Danish Sea")],
            load: vec![
                Load {
                    units: units(&[(1, "infantry")]),
                    from: space("Germany"),
                    at: None
                },
                Load {
                    units: units(&[(1, "armor")]),
                    from: space("Denmark"),
                    at: Some(space("Danish Sea"))
                },
            ],
            unload: Some(space("Norway")),
            unload_units: None,
            drops: Vec::new(),
        }
    );
}

#[test]
fn a_transport_may_unload_part_of_its_cargo() {
    let m =
        ok("combat:\n  - transport: Baltic Sea\n    unload: 1 infantry, 1 artillery to Finland\n");
    assert_eq!(
        m.orders.combat[0].item,
        MoveOrder::Transport {
            path: vec![space("Baltic Sea")],
            load: vec![],
            unload: Some(space("Finland")),
            unload_units: Some(units(&[(1, "infantry"), (1, "artillery")])),
            drops: Vec::new(),
        }
    );
    let e = errors("combat:\n  - transport: Baltic Sea\n    unload: 1 infantri to Finland\n");
    assert_eq!(e[0].field.as_deref(), Some("unload"), "{e:?}");
    assert!(e[0].reason.contains("infantri"), "{e:?}");
}

/// (message, line, field, words the reason must contain): one row per kind
/// of error the parser reports.
const ERROR_KINDS: &[(&str, usize, Option<&str>, &str)] = &[
    (
        "purchase: 3 infantry\nfoo: 1\n",
        2,
        None,
        "\"foo\" is not a key of an orders message",
    ),
    (
        "combatt:\n  - 1 armor: Poland -> Germany\n",
        1,
        None,
        "Did you mean combat?",
    ),
    (
        "purchase: 3 infantyr\n",
        1,
        Some("units"),
        "Did you mean infantry?",
    ),
    (
        "purchase: 3 dragons\n",
        1,
        Some("units"),
        "The unit types are: infantry, armor",
    ),
    ("purchase: 0 infantry\n", 1, Some("units"), "at least 1"),
    ("purchase: -2 infantry\n", 1, Some("units"), "at least 1"),
    (
        "purchase: 2 infantry, 3 inf\n",
        1,
        Some("units"),
        "write the total once (5 infantry)",
    ),
    (
        "purchase: 3\n",
        1,
        Some("units"),
        "gives a count but no unit type",
    ),
    (
        "purchase: 2 infantry,, 1 armor\n",
        1,
        Some("units"),
        "empty",
    ),
    (
        "purchase: {infantry: 3}\n",
        1,
        Some("units"),
        "found a mapping",
    ),
    (
        "\ncombat:\n  - 1 armor: Poland -> Germny\n",
        3,
        Some("path"),
        "Did you mean Germany?",
    ),
    (
        "combat:\n  - 1 armor: Poland ->  -> Germany\n",
        2,
        Some("path"),
        "empty step",
    ),
    (
        "combat:\n  - 1 armor: Poland\n",
        2,
        Some("path"),
        "FROM -> TO",
    ),
    (
        "combat:\n  - 1 armor:\n",
        2,
        Some("path"),
        "the path is missing",
    ),
    (
        "combat:\n  - 2 fighter: Germany -> Poland, land Polnd\n",
        2,
        Some("land"),
        "Did you mean Poland?",
    ),
    (
        "combat:\n  - 2 fighter: Germany -> Poland, land Poland, land Germany\n",
        2,
        Some("land"),
        "more than once",
    ),
    (
        "combat:\n  - 2 fighter: Germany -> Poland\n    lnad: Poland\n",
        3,
        None,
        "Did you mean land?",
    ),
    (
        "combat:\n  - 2 fighter: Germany -> Poland\n    unload: Poland\n",
        3,
        None,
        "belongs to a transport",
    ),
    (
        "combat:\n  1 armor: Poland -> Germany\n",
        2,
        None,
        "each on its own line starting with \"- \"",
    ),
    (
        "combat:\n  - 1 armor Poland -> Germany\n",
        2,
        None,
        "has no colon",
    ),
    (
        "combat:\n  - transport: Baltic Sea\n    load: 2 infantry of Germany\n",
        3,
        Some("load"),
        "UNITS from TERRITORY",
    ),
    (
        "combat:\n  - transport: Baltic Sea\n    load: 2 infantry from Germany at Baltc Sea\n",
        3,
        Some("load"),
        "Did you mean Baltic Sea?",
    ),
    (
        "combat:\n  - transport: Baltic Sea\n    unload: Finlnd\n",
        3,
        Some("unload"),
        "Did you mean Finland?",
    ),
    (
        "combat:\n  - transport: Baltic Sea\n    cargo: x\n",
        3,
        None,
        "The keys here are: transport, load, unload",
    ),
    (
        "battles:\n  Polnd: {retreat: never}\n",
        2,
        Some("battle"),
        "Did you mean Poland?",
    ),
    (
        "battles:\n  Poland: {retreat: never}\n  poland: {retreat: never}\n",
        3,
        None,
        "already a plan for Poland (line 2)",
    ),
    (
        "battles:\n  default: {retreat: {after_round: 0}}\n",
        2,
        Some("after_round"),
        "from 1",
    ),
    (
        "battles:\n  default: {retreat: {after_round: 1, when_attackers_below: 2}}\n",
        2,
        Some("when_attackers_below"),
        "one condition",
    ),
    (
        "battles:\n  default: {retreat: {to: Poland}}\n",
        2,
        Some("retreat"),
        "no condition",
    ),
    (
        "battles:\n  default: {retreat: aftr_round}\n",
        2,
        Some("retreat"),
        "did you mean {after_round: N}?",
    ),
    (
        "battles:\n  default:\n    retreat: never\n    losses: infantry, infantry\n",
        4,
        Some("losses"),
        "listed twice",
    ),
    (
        "battles:\n  default: {retreat: never, to: Poland}\n",
        2,
        Some("to"),
        "to goes inside retreat",
    ),
    (
        "battles:\n  default: {retreet: never}\n",
        2,
        None,
        "Did you mean retreat?",
    ),
    ("battles:\n  - default\n", 2, None, "but here it is a list"),
    (
        "place:\n  Germany: 2 armor\n  GERMANY: 1 infantry\n",
        3,
        Some("space"),
        "given twice (first at line 2)",
    ),
    (
        "place:\n  Germny: 2 armor\n",
        2,
        Some("space"),
        "Did you mean Germany?",
    ),
    ("place:\n  Germany:\n", 2, Some("units"), "found nothing"),
    (
        "standing:\n  submarines: dive\n",
        2,
        Some("submarines"),
        "The policies are: fight",
    ),
    (
        "standing:\n  keep_one_land_unit: maybe\n",
        2,
        Some("keep_one_land_unit"),
        "true or false",
    ),
    (
        "standing:\n  loses: infantry\n",
        2,
        None,
        "Did you mean losses?",
    ),
    ("power: Germny\n", 1, Some("power"), "Did you mean Germany?"),
    (
        "power: Atlantis\n",
        1,
        Some("power"),
        "The powers are: Germany",
    ),
    ("round: two\n", 1, Some("round"), "whole number from 1"),
    (
        "command: stauts\n",
        1,
        Some("command"),
        "Did you mean status?",
    ),
    (
        "odds:\n  attack: 3 infantry\n",
        1,
        None,
        "odds questions are answered in a message of their own",
    ),
    (
        "purchase: 1 armor\nPurchase: 1 armor\n",
        2,
        None,
        "written twice (first at line 1)",
    ),
    (
        "purchase: 1 armor\npurchase: 1 armor\n",
        2,
        None,
        "\"purchase\" is written twice",
    ),
    (
        "combat:\n\t- 1 armor: Poland -> Germany\n",
        2,
        None,
        "a tab at column 1",
    ),
    (
        "combat:\n  - 1 armor: Poland -> Germany\n   - x\n",
        3,
        None,
        "not valid YAML at column 4",
    ),
    (
        "combat: [1 armor: Poland\n",
        1,
        None,
        "not valid YAML at column 9 (unclosed bracket",
    ),
    ("a: 1\n---\nb: 2\n", 2, None, "more than one YAML document"),
    (
        "- 1 armor: Poland -> Germany\n",
        1,
        None,
        "key: value lines",
    ),
];

#[test]
fn every_error_kind_names_its_line_and_field() {
    for &(yaml, line, field, words) in ERROR_KINDS {
        let errors = errors(yaml);
        let found = errors
            .iter()
            .find(|e| e.reason.contains(words))
            .unwrap_or_else(|| {
                let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
                panic!(
                    "{yaml:?}: no error says {words:?}; got:\n{}",
                    shown.join("\n")
                )
            });
        assert_eq!(found.origin.line, Some(line), "{yaml:?}: {found}");
        assert_eq!(found.field.as_deref(), field, "{yaml:?}: {found}");
    }
}

#[test]
fn the_empty_message_and_limits_are_errors() {
    let e = errors("");
    assert!(e[0].reason.contains("the message is empty"), "{}", e[0]);
    let e = errors("# just a comment\n");
    assert!(e[0].reason.contains("the message is empty"), "{}", e[0]);
    let big = format!("entropy: \"{}\"\n", "x".repeat(70_000));
    assert!(errors(&big)[0].reason.contains("at most 65536 bytes"));
    let deep = format!("odds: {}x{}\n", "[".repeat(20), "]".repeat(20));
    assert!(
        errors(&deep)[0]
            .reason
            .contains("nested more than 12 levels")
    );
}

#[test]
fn all_errors_are_collected_not_just_the_first() {
    let e = errors(
        "purchase: 2 infantyr\ncombat:\n  - 1 armor: Polnd -> Germny\n  - 1 tank: x -> y\n\
         place:\n  Germny: 1 armor\n",
    );
    let lines: Vec<Option<usize>> = e.iter().map(|e| e.origin.line).collect();
    assert_eq!(lines, [1, 3, 3, 4, 4, 6].map(Some).to_vec(), "{e:#?}");
}

#[test]
fn error_messages_read_as_the_sketch_promises() {
    let e = errors(
        "combat:\n  - transport: Baltic Sea\n    load: 2 infantry from Germany\n    \
                    unload: Finlnd\n",
    );
    assert_eq!(
        e[0].to_string(),
        "Line 4, combat order 1 (transport: Baltic Sea), unload: \"Finlnd\" is not a territory \
         or sea zone on this board. Did you mean Finland?"
    );
    let e = errors("round: 0\n");
    assert_eq!(
        e[0].to_string(),
        "Line 1, round: the round is a whole number from 1, not \"0\""
    );
}

#[test]
fn header_scalars_keep_their_spelling() {
    let m = ok("secret: 0123\nentropy: 1e3\nmatch: 7\n");
    assert_eq!(m.header.secret.as_deref(), Some("0123"));
    assert_eq!(m.header.entropy.as_deref(), Some("1e3"));
    assert_eq!(m.header.match_id.as_deref(), Some("7"));
    assert_eq!(m.canonical, "entropy: \"1e3\"\n");
}

// ----- take_over: the Patriotic War ----------------------------------------

fn power(name: &str) -> usize {
    aae().power(name).expect("a power")
}

#[test]
fn a_take_over_names_units_power_and_territory() {
    let m = ok(
        "power: USSR\ntake_over:\n  - 2 infantry, 1 fighter of United Kingdom in Moscow\n  \
                - 1 Tank OF usa IN  archangel   # aliases, any case\n",
    );
    let t: Vec<TakeOverOrder> = m.orders.take_over.iter().map(|t| t.item.clone()).collect();
    assert_eq!(
        t,
        [
            TakeOverOrder {
                space: space("Moscow"),
                from: power("United Kingdom"),
                units: units(&[(2, "infantry"), (1, "fighter")]),
            },
            TakeOverOrder {
                space: space("Archangel"),
                from: power("United States"),
                units: units(&[(1, "armor")]),
            },
        ]
    );
    let origin = &m.orders.take_over[1].origin;
    assert_eq!(
        (origin.section, origin.index, origin.line),
        ("take_over", 2, Some(4))
    );
    assert_eq!(
        origin.text,
        "- 1 Tank OF usa IN  archangel".trim_start_matches("- ")
    );
    assert_eq!(
        m.canonical,
        "take_over:\n  - 2 infantry, 1 fighter of United Kingdom in Moscow\n  \
         - 1 armor of United States in Archangel\n"
    );
    // The key, like every key, ignores case and takes a space for the underscore.
    let again = ok("Take over:\n  - 1 fighter of UK in Moscow\n");
    assert_eq!(again.orders.take_over.len(), 1);
}

#[test]
fn a_take_over_splits_at_the_of_and_in_that_make_names() {
    // "Strait of Gibraltar" holds an "of": the split that resolves every part wins.
    let m = ok("take_over:\n  - 1 fighter of United Kingdom in Strait of Gibraltar\n");
    assert_eq!(
        m.orders.take_over[0].item.space,
        space("Strait of Gibraltar")
    );
    assert_eq!(m.orders.take_over[0].item.from, power("United Kingdom"));
}

/// Found by the `orders` fuzz target: every "of" was tried with every "in",
/// each split resolved against the game's names, so a line of many took
/// seconds. Past a few, the take-over is refused with a reason.
#[test]
fn a_take_over_with_many_ofs_and_ins_is_refused_not_searched() {
    let line = "1 fighter of UK in Moscow ".repeat(40);
    let errors = parse_message(aae(), &format!("take_over:\n  - {line}\n")).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0]
            .reason
            .contains("has 40 \"of\" and 40 \"in\": too many"),
        "{}",
        errors[0].reason
    );
    // Names that hold an "of" are still read (one more split to try).
    ok("take_over:\n  - 1 fighter of United Kingdom in Strait of Gibraltar\n");
}

#[test]
fn take_over_errors_name_line_order_and_field() {
    let cases: &[(&str, usize, usize, &str, &str)] = &[
        (
            "take_over:\n  - 2 infantry of United Kingdon in Moscow\n",
            2,
            1,
            "power",
            "\"United Kingdon\" is not a power in this game. Did you mean United Kingdom?",
        ),
        (
            "take_over:\n  - 1 fighter of UK in Moscow\n  - 2 infantry United Kingdom in Moscow\n",
            3,
            2,
            "power",
            "\"2 infantry United Kingdom in Moscow\" does not say whose units they are (of \
             POWER); a take-over is written UNITS of POWER in TERRITORY",
        ),
        (
            "take_over:\n  - 2 infantry of United Kingdom at Moscow\n",
            2,
            1,
            "space",
            "\"2 infantry of United Kingdom at Moscow\" does not say where the units are (in \
             TERRITORY)",
        ),
        (
            "take_over:\n  - 2 infantyr of United Kingdom in Moscow\n",
            2,
            1,
            "units",
            "\"infantyr\" is not a unit type in this game. Did you mean infantry?",
        ),
        (
            "take_over:\n  - 2 infantry of United Kingdom in Moskow\n",
            2,
            1,
            "space",
            "\"Moskow\" is not a territory or sea zone on this board. Did you mean Moscow?",
        ),
        (
            "take_over:\n  - of United Kingdom in Moscow\n",
            2,
            1,
            "units",
            "the take-over names no units before of",
        ),
        (
            "take_over:\n  - 2 infantry of in Moscow\n",
            2,
            1,
            "power",
            "the take-over names no power between of and in",
        ),
    ];
    for &(yaml, line, index, field, words) in cases {
        let errors = errors(yaml);
        let found = errors
            .iter()
            .find(|e| e.reason.contains(words))
            .unwrap_or_else(|| {
                let shown: Vec<String> = errors.iter().map(ToString::to_string).collect();
                panic!(
                    "{yaml:?}: no error says {words:?}; got:\n{}",
                    shown.join("\n")
                )
            });
        assert_eq!(found.origin.section, "take_over", "{yaml:?}: {found}");
        assert_eq!(found.origin.line, Some(line), "{yaml:?}: {found}");
        assert_eq!(found.origin.index, index, "{yaml:?}: {found}");
        assert_eq!(found.field.as_deref(), Some(field), "{yaml:?}: {found}");
    }
    // A move's colon, a mapping, or no list at all: the form is explained.
    let e = errors("take_over:\n  - 2 infantry: United Kingdom in Moscow\n");
    assert!(e[0].reason.contains("without a colon"), "{}", e[0]);
    assert_eq!(e[0].origin.line, Some(2));
    let e = errors("take_over: 2 infantry of United Kingdom in Moscow\n");
    assert!(e[0].reason.contains("take_over is a list"), "{}", e[0]);
    // The whole error, as a player reads it.
    let e = errors("take_over:\n  - 2 infantry of United Kingdon in Moscow\n");
    assert_eq!(
        e[0].to_string(),
        "Line 2, take_over order 1 (2 infantry of United Kingdon in Moscow), power: \"United \
         Kingdon\" is not a power in this game. Did you mean United Kingdom?"
    );
}

// ----- the canonical form's round trip --------------------------------------

/// A small deterministic generator (xorshift64*), so that the property test
/// needs no extra crate and every failure is reproducible from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self) -> bool {
        self.next() & 1 == 1
    }
}

fn random_units(rng: &mut Rng) -> Vec<UnitCount> {
    let n = aae().unit_types().len();
    let mut list: Vec<UnitCount> = Vec::new();
    for _ in 0..1 + rng.below(4) {
        let unit = rng.below(n);
        if list.iter().all(|c| c.unit != unit) {
            list.push(UnitCount {
                unit,
                count: 1 + rng.below(12) as u32,
            });
        }
    }
    list
}

fn random_space(rng: &mut Rng) -> SpaceId {
    SpaceId(rng.below(aae().space_count()))
}

fn random_path(rng: &mut Rng, min: usize) -> Vec<SpaceId> {
    (0..min + rng.below(3)).map(|_| random_space(rng)).collect()
}

fn random_averted(rng: &mut Rng) -> Averted {
    if rng.chance() {
        Averted::Withdraw
    } else {
        Averted::Stay
    }
}

fn random_types(rng: &mut Rng) -> Vec<usize> {
    let mut list = Vec::new();
    for _ in 0..rng.below(5) {
        let u = rng.below(aae().unit_types().len());
        if !list.contains(&u) {
            list.push(u);
        }
    }
    list
}

fn random_move(rng: &mut Rng) -> MoveOrder {
    if rng.below(3) == 0 {
        let path = random_path(rng, 1);
        let load = (0..rng.below(3))
            .map(|_| Load {
                units: random_units(rng),
                from: random_space(rng),
                at: rng.chance().then(|| random_space(rng)),
            })
            .collect();
        let unload = rng.chance().then(|| random_space(rng));
        // Part of the cargo only where there is an unloading.
        let unload_units = unload.and_then(|_| rng.chance().then(|| random_units(rng)));
        MoveOrder::Transport {
            path,
            load,
            unload,
            unload_units,
            drops: (0..rng.below(2))
                .map(|_| DropOff {
                    units: random_units(rng),
                    to: random_space(rng),
                })
                .collect(),
        }
    } else {
        MoveOrder::Move {
            units: random_units(rng),
            path: random_path(rng, 2),
            land: rng.chance().then(|| random_space(rng)),
            rail: false,
            drops: (0..rng.below(3))
                .map(|_| DropOff {
                    units: random_units(rng),
                    to: random_space(rng),
                })
                .collect(),
        }
    }
}

fn located<T>(item: T) -> adjutant::rules::orders::Located<T> {
    adjutant::rules::orders::Located {
        item,
        origin: Default::default(),
    }
}

fn random_orders(rng: &mut Rng) -> Orders {
    let mut o = Orders::default();
    if rng.chance() {
        o.purchase = Some(located(random_units(rng)));
    }
    o.combat = (0..rng.below(4))
        .map(|_| located(random_move(rng)))
        .collect();
    o.noncombat = (0..rng.below(3))
        .map(|_| located(random_move(rng)))
        .collect();
    let mut repaired: Vec<SpaceId> = Vec::new();
    for _ in 0..rng.below(3) {
        let space = random_space(rng);
        if !repaired.contains(&space) {
            repaired.push(space);
            o.repair.push(located((space, 1 + rng.below(9) as u32)));
        }
    }
    o.rockets = (0..rng.below(3))
        .map(|_| located((random_space(rng), random_space(rng))))
        .collect();
    let mut struck: Vec<SpaceId> = Vec::new();
    for _ in 0..rng.below(3) {
        let space = random_space(rng);
        if !struck.contains(&space) {
            struck.push(space);
            o.industrial_strike
                .push(located((space, 1 + rng.below(5) as u32)));
        }
    }
    if rng.chance() {
        o.averted = Some(located(random_averted(rng)));
    }
    let mut battle_spaces: Vec<Option<SpaceId>> = Vec::new();
    for _ in 0..rng.below(4) {
        let space = if rng.below(4) == 0 {
            None
        } else {
            Some(random_space(rng))
        };
        if battle_spaces.contains(&space) {
            continue;
        }
        battle_spaces.push(space);
        let (retreat, retreat_to) = match rng.below(3) {
            0 => (Retreat::Never, None),
            1 => (
                Retreat::AfterRound(1 + rng.below(5) as u32),
                rng.chance().then(|| random_space(rng)),
            ),
            _ => (
                Retreat::WhenAttackersBelow(1 + rng.below(9) as u32),
                rng.chance().then(|| random_space(rng)),
            ),
        };
        let submarines = match rng.below(4) {
            0 => Some(SubmarinePolicy::Fight),
            1 => Some(SubmarinePolicy::Submerge),
            2 => Some(SubmarinePolicy::SubmergeAfterFirstRound),
            _ => None,
        };
        o.battles.push(located(BattlePlan {
            space,
            retreat,
            retreat_to,
            losses: random_types(rng),
            bombing_raid: space.is_some() && rng.chance(),
            raiders: Vec::new(),
            ignore: space.is_some() && rng.chance(),
            submarines,
            screen: 0,
            landing: rng
                .chance()
                .then(|| LandingAllotment {
                    surprise: random_types(rng),
                    lost: random_types(rng),
                })
                .filter(|l| !l.surprise.is_empty() || !l.lost.is_empty()),
            teams: Default::default(),
        }));
    }
    o.take_over = (0..rng.below(3))
        .map(|_| {
            located(TakeOverOrder {
                space: random_space(rng),
                from: rng.below(aae().powers().len()),
                units: random_units(rng),
            })
        })
        .collect();
    let mut placed = Vec::new();
    for _ in 0..rng.below(4) {
        let s = random_space(rng);
        if !placed.contains(&s) {
            placed.push(s);
            o.place.push(located((s, random_units(rng))));
        }
    }
    if rng.chance() {
        o.standing = Some(located(StandingOrders {
            losses: random_types(rng),
            keep_one_land_unit: rng.chance(),
            submarines: [
                SubmarinePolicy::Fight,
                SubmarinePolicy::Submerge,
                SubmarinePolicy::SubmergeAfterFirstRound,
            ][rng.below(3)],
            intercept: rng.chance().then(|| rng.below(4) as u32),
            bystander_losses: if rng.chance() {
                BystanderLosses::AlliesChoose
            } else {
                BystanderLosses::Last
            },
            middle_east_payment: [
                MiddleEastPayment::First,
                MiddleEastPayment::RichestFirst,
                MiddleEastPayment::Last,
            ][rng.below(3)],
            neutral_defenders: if rng.chance() {
                NeutralDefenders::Receive
            } else {
                NeutralDefenders::InTurn
            },
            aversion: {
                let mut list: Vec<AversionOrder> = Vec::new();
                for unit in random_types(rng) {
                    let space = random_space(rng);
                    if !list.iter().any(|a| a.space == space) {
                        let after = rng.chance();
                        list.push(AversionOrder { space, unit, after });
                    }
                }
                list
            },
            averted: random_averted(rng),
            teams: Default::default(),
        }));
    }
    o
}

const ENTROPIES: &[&str] = &[
    "",
    "for the Fatherland",
    "\"quoted\" # not a comment",
    "a\nb\tc",
    "1e3",
    "ünïcødé ☂",
];

#[test]
fn canonical_text_parses_back_to_the_same_orders() {
    use adjutant::rules::orders::canonical::render;
    for seed in 1..=600u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let orders = random_orders(&mut rng);
        let entropy = rng.chance().then(|| ENTROPIES[rng.below(ENTROPIES.len())]);
        let text = render(aae(), &orders, entropy);
        let m = parse_message(aae(), &text).unwrap_or_else(|e| {
            panic!("seed {seed}: the canonical form is rejected:\n{text}\n{e:#?}")
        });
        assert_eq!(m.orders.without_origins(), orders, "seed {seed}:\n{text}");
        assert_eq!(m.header.entropy.as_deref(), entropy, "seed {seed}");
        assert_eq!(
            m.canonical, text,
            "seed {seed}: canonical form is not a fixed point"
        );
    }
}

#[test]
fn the_sketch_round_trips_through_its_canonical_form() {
    let first = ok(SKETCH_STAGE_1);
    let again = ok(&first.canonical);
    assert_eq!(
        again.orders.without_origins(),
        first.orders.without_origins()
    );
    assert_eq!(again.canonical, first.canonical);
}

/// A sealed bid read again from its canonical form is the same bid, wherever
/// it was written (the orders fuzzer found `without_origins` keeping the
/// bid's line).
#[test]
fn a_bid_round_trips_through_its_canonical_form() {
    let first = ok("match: m\npower: Germany\n\n\nbid: 12\n");
    let again = ok(&first.canonical);
    assert_ne!(
        first.orders.bid.as_ref().unwrap().origin.line,
        again.orders.bid.as_ref().unwrap().origin.line
    );
    assert_eq!(
        again.orders.without_origins(),
        first.orders.without_origins()
    );
    assert_eq!(again.canonical, first.canonical);
}
