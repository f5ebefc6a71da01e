//! Turn reports and the mail templates (issue 6): snapshots of every
//! template over fixed contexts, reports of a bot-played AAE game derived
//! from its log (every die in them, well-formed HTML, 72 columns), and
//! `adjutant report` re-rendering them exactly.
//!
//! `UPDATE_SNAPSHOTS=1 cargo test --test reports` rewrites the snapshots in
//! `tests/snapshots/`; review the diff before committing it.

#[path = "common/aae_bot.rs"]
mod aae_bot;
#[path = "common/browser.rs"]
mod browser;

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::daemon::text::{self, report_template};
use adjutant::log::Body;
use adjutant::matches::Match;
use adjutant::matches::history::read_log;
use adjutant::report::board::BoardRow;
use adjutant::report::mail::{DeadlineNotice, Receipt, Rejection, RuleOption, Seat, Welcome};
use adjutant::report::templates::{Rendered, TEXT_WIDTH, Templates};
use adjutant::report::turn::{
    BeaconView, DiceGroup, DueView, FedDigest, ResearchRow, Treasury, Trust, TurnReport,
    VERIFY_HINT, report_entries, turn_report,
};

fn snapshot(name: &str, actual: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/snapshots")
        .join(name);
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (UPDATE_SNAPSHOTS=1 writes it)", path.display()));
    assert!(
        expected == actual,
        "{name} differs from its snapshot; UPDATE_SNAPSHOTS=1 rewrites it.\n--- actual ---\n{actual}"
    );
}

/// Every line of a plain-text part fits in 72 columns, unless it is one
/// word too long to break.
fn assert_fits(name: &str, text: &str) {
    for line in text.lines() {
        assert!(
            line.chars().count() <= TEXT_WIDTH || !line.trim().contains(' '),
            "{name}: a line is longer than {TEXT_WIDTH} columns:\n{line}"
        );
    }
}

/// A small HTML checker: every element that is not void is closed, in
/// order; attributes are quoted; no script, no remote resource.
fn assert_well_formed(name: &str, html: &str) {
    const VOID: &[&str] = &["br", "meta", "hr", "img", "link", "input"];
    assert!(html.starts_with("<!DOCTYPE html>"), "{name}: no doctype");
    for bad in ["<script", "http://", "https://", "src=", "<link", "url("] {
        assert!(!html.contains(bad), "{name}: contains {bad}");
    }
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let after = &rest[start + 1..];
        let end = after
            .find('>')
            .unwrap_or_else(|| panic!("{name}: unclosed '<'"));
        let tag = &after[..end];
        rest = &after[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        assert_eq!(tag.matches('"').count() % 2, 0, "{name}: <{tag}>");
        if let Some(closing) = tag.strip_prefix('/') {
            let open = stack.pop();
            assert_eq!(
                open.as_deref(),
                Some(closing.trim()),
                "{name}: </{closing}> closes the wrong element"
            );
        } else {
            let element = tag
                .split_whitespace()
                .next()
                .unwrap_or_else(|| panic!("{name}: empty tag"))
                .to_ascii_lowercase();
            if !VOID.contains(&element.as_str()) {
                stack.push(element);
            }
        }
        // Text between tags must not hold a bare '<' or '>' (escaped).
        let text_end = rest.find('<').unwrap_or(rest.len());
        assert!(
            !rest[..text_end].contains('>'),
            "{name}: unescaped '>' in {:?}",
            &rest[..text_end]
        );
    }
    assert!(stack.is_empty(), "{name}: unclosed {stack:?}");
}

fn check(name: &str, r: &Rendered) {
    assert_fits(name, &r.text);
    assert_well_formed(name, &r.html);
}

const HEX_A: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
const HEX_B: &str = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";
const HEX_C: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// A fixed-dice turn report: Germany's first stage, one battle.
fn fixed_report() -> TurnReport {
    let row = |space: &str, holder: &str, ipc: u32, changed: bool, units: &[&str]| {
        let units: Vec<String> = units.iter().map(|u| u.to_string()).collect();
        let mut text = format!(
            "{space} ({holder}, {ipc} IPC{})",
            if changed { ", changed hands" } else { "" }
        );
        if !units.is_empty() {
            text.push_str(&format!(": {}", units.join("; ")));
        }
        BoardRow {
            space: space.into(),
            holder: Some(holder.into()),
            ipc: Some(ipc),
            changed,
            units,
            damage: 0,
            text,
        }
    };
    TurnReport {
        match_id: "league7-aae-03".into(),
        game_id: "aae".into(),
        game: "Axis & Allies Europe".into(),
        round: 1,
        stage: 1,
        stages: "stage 1".into(),
        power: "Germany".into(),
        next_power: "Germany".into(),
        next_stage: "stage 2 (non-combat moves, take-overs, placement)".into(),
        events: vec![
            "Germany bought 3 infantry, 1 armor for 14 IPCs".into(),
            "Germany moved 2 infantry, 1 armor from Poland to Eastern Poland".into(),
            "Eastern Poland: attacker infantry fire: dice [1 hit, 4] needing 1 or less: 1 hit(s) (combat/t1/Eastern Poland/r1/attacker/infantry)".into(),
            "Eastern Poland: attacker armor fire: dice [3 hit] needing 3 or less: 1 hit(s) (combat/t1/Eastern Poland/r1/attacker/armor)".into(),
            "Eastern Poland: defender infantry fire: dice [5, 2 hit] needing 2 or less: 1 hit(s) (combat/t1/Eastern Poland/r1/defender/infantry)".into(),
            "Eastern Poland: Germany infantry lost (battle plan: losses infantry, armor)".into(),
            "Eastern Poland: Soviet Union infantry lost (standing order: losses infantry first)".into(),
            "Eastern Poland: Soviet Union infantry lost (rules default: cheapest first)".into(),
            "Germany captured Eastern Poland <from Soviet Union> & took 2 IPCs".into(),
        ],
        summary: vec![
            "Germany bought 3 infantry, 1 armor for 14 IPCs".into(),
            "Germany moved 2 infantry, 1 armor from Poland to Eastern Poland".into(),
            "Battle in Eastern Poland (1 round(s)): attacker wins; Germany lost 1 infantry; Soviet Union lost 2 infantry".into(),
            "Germany captured Eastern Poland <from Soviet Union> & took 2 IPCs".into(),
        ],
        changes: vec![
            "Eastern Poland: from Soviet Union to Germany".into(),
            "Germany: 40 -> 26 IPCs".into(),
        ],
        board: vec![
            row("Germany", "Germany", 10, false, &["Germany 6 infantry, 2 armor, 1 fighter"]),
            row("Eastern Poland", "Germany", 2, true, &["Germany 1 infantry, 1 armor"]),
            row("Karelia S.S.R.", "Soviet Union", 2, false, &["Soviet Union 4 infantry, 1 artillery, 1 armor, 1 fighter, 1 antiaircraft gun"]),
        ],
        ipcs: vec![
            Treasury { power: "Germany".into(), ipcs: 26, income: 42, capacity: "no limit (2 complexes)".into() },
            Treasury { power: "Soviet Union".into(), ipcs: 24, income: 22, capacity: "no limit (2 complexes)".into() },
        ],
        research: Vec::new(),
        winner: None,
        victory: vec!["No victory condition is held: nobody is one round from winning.".into()],
        deadline: Some(DueView {
            at: "2026-11-24T10:00:00Z".into(),
            utc: "2026-11-24 10:00 UTC".into(),
            local: None,
        }),
        skeleton: "match: league7-aae-03\npower: Germany\nround: 1\nsecret: YOUR-SECRET\n# noncombat:\n#   - 1 armor: FROM -> TO\n# place:\n#   TERRITORY: 3 infantry\n".into(),
        trust: Trust {
            turn: 1,
            commitment: HEX_A.into(),
            secret: Some(HEX_B.into()),
            beacon: Some(BeaconView { network: "quicknet".into(), round: 123, randomness: HEX_A.into() }),
            digests: vec![FedDigest { power: "Germany".into(), seq: 5, digest: HEX_C.into() }],
            dice: vec![
                DiceGroup { label: "combat/t1/Eastern Poland/r1/attacker/infantry".into(), sides: 6, values: vec![1, 4] },
                DiceGroup { label: "combat/t1/Eastern Poland/r1/attacker/armor".into(), sides: 6, values: vec![3] },
                DiceGroup { label: "combat/t1/Eastern Poland/r1/defender/infantry".into(), sides: 6, values: vec![5, 2] },
            ],
            next_commitment: None,
            seq: 8,
            head: HEX_A.into(),
            verify: VERIFY_HINT.replace("HEAD", HEX_A),
        },
        map: None,
    }
}

/// A report of a game that plays research (Anniversary): each power's
/// developments and researcher tokens.
fn with_research(mut report: TurnReport) -> TurnReport {
    report.research = vec![
        ResearchRow {
            power: "Germany".into(),
            developments: vec!["jet fighters".into(), "war bonds".into()],
            tokens: 1,
        },
        ResearchRow {
            power: "Soviet Union".into(),
            developments: Vec::new(),
            tokens: 3,
        },
    ];
    report
}

fn render_all(t: &Templates) -> Vec<(&'static str, Rendered)> {
    let aae = adjutant::rules::builtin::GameSource::Builtin
        .load("aae")
        .unwrap()
        .def;
    let receipt = Receipt {
        power: "Germany".into(),
        round: 1,
        stage: 1,
        stages: "stage 1".into(),
        canonical: "purchase: 3 infantry, 1 armor\ncombat:\n  - 2 infantry, 1 armor: Poland -> Eastern Poland\n".into(),
        digest: HEX_C.into(),
        events: fixed_report().events,
        match_id: "league7-aae-03".into(),
        turn: 1,
        head: HEX_A.into(),
        next: "Germany to move, stage 2 (non-combat moves, take-overs, placement)".into(),
    };
    let rejection = Rejection {
        errors: vec![
            "line 2: \"infantrie\" is not a unit type; did you mean infantry?".into(),
            "line 4: armor cannot reach Atlantis from Germany: there is no such territory <or sea zone> in this game & its map".into(),
        ],
        deadline: "none".into(),
    };
    let welcome = Welcome {
        match_id: "league7-aae-03".into(),
        game: "Axis & Allies Europe".into(),
        power: "Germany".into(),
        name: "Gerda".into(),
        secret: "bokat-firum-lesot-mavin".into(),
        orders_address: "orders+league7-aae-03@adjutant.localhost".into(),
        seats: vec![
            Seat {
                power: "Germany".into(),
                name: "Gerda".into(),
            },
            Seat {
                power: "Soviet Union".into(),
                name: "Sasha".into(),
            },
        ],
        options: vec![RuleOption {
            name: "low_luck".into(),
            value: "false".into(),
            about: "Low Luck: each firing group scores one hit per six points of strength, and rolls one die for the rest (a common league option).".into(),
        }],
        deadlines: "72h per stage, a reminder 24h before; then the match waits for the late orders".into(),
    };
    // Stage 2 of the same turn, for a reader in Berlin, with a victory
    // condition held: the turn report proper.
    let mut stage2 = fixed_report().for_reader(Some("Europe/Berlin"));
    stage2.stage = 2;
    stage2.stages = "stage 2".into();
    stage2.next_power = "Soviet Union".into();
    stage2.next_stage = "stage 1 (purchase, combat moves, battle plans)".into();
    stage2.skeleton = "match: league7-aae-03\npower: Soviet Union\nround: 1\nsecret: YOUR-SECRET\n# purchase: 3 infantry, 1 armor\n".into();
    stage2.victory = vec!["Germany has held Moscow together with its own capital since the end of its turn in round 1; its side wins if it still does at the end of Germany's next turn.".into()];
    let notice = |to_player: bool, policy: &str| DeadlineNotice {
        match_id: "league7-aae-03".into(),
        power: "Germany".into(),
        round: 1,
        stage: 2,
        due_utc: "2026-11-24 10:00 UTC".into(),
        due_local: Some("2026-11-24 11:00 CET (Europe/Berlin)".into()),
        policy: policy.into(),
        to_player,
        orders_address: "orders+league7-aae-03@adjutant.localhost".into(),
        skeleton: "match: league7-aae-03\npower: Germany\nround: 1\nsecret: YOUR-SECRET\n".into(),
    };
    vec![
        ("receipt", t.render_mail("receipt", &receipt).unwrap()),
        ("rejection", t.render_mail("rejection", &rejection).unwrap()),
        ("welcome", t.render_mail("welcome", &welcome).unwrap()),
        ("battle", t.render_mail("battle", &fixed_report()).unwrap()),
        ("report", t.render_mail("report", &stage2).unwrap()),
        (
            "report-research",
            t.render_mail("report", &with_research(stage2.clone()))
                .unwrap(),
        ),
        (
            "reminder",
            t.render_mail("reminder", &notice(true, "wait")).unwrap(),
        ),
        (
            "late-player",
            t.render_mail("late", &notice(true, "wait")).unwrap(),
        ),
        (
            "late-others-pass",
            t.render_mail("late", &notice(false, "pass")).unwrap(),
        ),
        (
            "help",
            text::help_text(
                t,
                &text::HelpFor {
                    match_id: "league7-aae-03",
                    orders_address: "orders+league7-aae-03@adjutant.localhost",
                    game: &aae,
                    power: aae.power("Soviet Union").unwrap(),
                    round: 2,
                    now: "Soviet Union to move, stage 1 (purchase, combat moves, battle plans)",
                    help_url: Some("https://league.example.org/adjutant"),
                },
            ),
        ),
        (
            "refused",
            text::refused_text(
                t,
                &[
                    "the secret does not match Germany's: check the welcome mail <and> retype it"
                        .into(),
                ],
            ),
        ),
        (
            "alert",
            text::alert_text(t, "Germany", "league7-aae-03", "someone.else@example.org"),
        ),
        (
            "rotated",
            text::rotated_text(t, "Germany", "league7-aae-03", "bokat-firum-lesot-mavin"),
        ),
        (
            "unrouted",
            text::unrouted_text(t, "orders+MATCH@adjutant.localhost"),
        ),
        (
            "answer",
            text::answer_text(
                t,
                "Standing orders of Germany",
                "Standing orders of Germany:\n    losses: infantry, artillery, armor\n    keep_one_land_unit: true\n",
            ),
        ),
    ]
}

#[test]
fn every_template_matches_its_snapshot_fits_72_columns_and_is_well_formed_html() {
    for (kind, r) in render_all(&Templates::builtin()) {
        check(kind, &r);
        snapshot(&format!("{kind}.txt"), &r.text);
        snapshot(&format!("{kind}.html"), &r.html);
    }
}

#[test]
fn html_escapes_what_players_wrote() {
    let all = render_all(&Templates::builtin());
    let (_, report) = all.iter().find(|(k, _)| *k == "report").unwrap();
    assert!(report.html.contains("&lt;from Soviet Union&gt; &amp; took"));
    assert!(report.text.contains("<from Soviet Union> & took"));
}

#[test]
fn a_damaged_industrial_complex_shows_in_the_board_and_the_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let game = adjutant::rules::load_dir(&root.join("games/anniversary-1941")).unwrap();
    let mut state = adjutant::rules::state::GameState::initial(&game);
    let germany = game.space("Germany").unwrap();
    state.factory_damage[germany.0] = 3;
    let rows = adjutant::report::board::rows(&game, &state);
    let row = rows.iter().find(|r| r.space == "Germany").unwrap();
    assert_eq!(row.damage, 3);
    assert!(
        row.text.ends_with(" [industrial complex damaged: 3]"),
        "{}",
        row.text
    );
    let undamaged = rows.iter().find(|r| r.space == "Italy").unwrap();
    assert_eq!(undamaged.damage, 0);
    assert!(!undamaged.text.contains("damaged"));
    // The HTML part of the turn report carries it; the short text part
    // leaves the board to the HTML, the map and `command: status`.
    let mut report = fixed_report();
    report.board.push(row.clone());
    let r = Templates::builtin().render_mail("report", &report).unwrap();
    assert!(
        !unwrapped(&r.text).contains("[industrial complex damaged: 3]"),
        "{}",
        r.text
    );
    assert!(r.text.contains("command: status"), "{}", r.text);
    assert!(r.html.contains("industrial complex damaged: 3"));
}

fn fresh_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.join("league7-aae-03")
}

/// One round of bot play: real dice, battles, captures.
fn played_match(name: &str) -> PathBuf {
    let dir = fresh_dir(name);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let players = std::fs::read_to_string(root.join("tests/fixtures/aae-players.yaml")).unwrap();
    let mut m = Match::create(&dir, &root.join("games"), "aae", &players).unwrap();
    let standing =
        "power: Soviet Union\nstanding:\n  losses: infantry, artillery, armor, fighter, bomber\n";
    m.submit("Soviet Union", standing).unwrap().unwrap();
    let played = aae_bot::play(&mut m, 1, aae_bot::BotConfig::default());
    assert!(played.battles > 0, "the test game needs battles");
    dir
}

/// Wrapped lines joined back, so that an event can be searched whole.
fn unwrapped(text: &str) -> String {
    text.split('\n')
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn every_die_of_a_played_game_is_in_its_reports_which_rerender_exactly() {
    let dir = played_match("reports-game");
    let entries = read_log(&dir).unwrap();
    let seqs = report_entries(&entries);
    assert!(seqs.len() >= 8, "{seqs:?}");
    let t = Templates::builtin();
    let mut dice_seen = 0usize;
    let mut pending_dice: Vec<(String, Vec<u32>)> = Vec::new();
    for e in &entries {
        match &e.body {
            Body::Dice(d) => pending_dice.extend(
                d.rolls
                    .iter()
                    .map(|g| (g.label.to_string(), g.values.clone())),
            ),
            Body::Adjudication(a) if a.stage != 0 => {
                let report = turn_report(&dir, e.seq).unwrap();
                let r = t.render_mail(report_template(&report), &report).unwrap();
                check(&format!("report of entry {}", e.seq), &r);
                // Every die with its label: in the HTML part's full list of
                // events ("dice [v, v] ... (label)") and in the trust block
                // of both parts; the short text part sums each battle up.
                let text = unwrapped(&r.text);
                let html = unwrapped(&r.html)
                    .replace("&#x2f;", "/")
                    .replace("&#x27;", "'")
                    .replace("&quot;", "\"")
                    .replace("&lt;", "<")
                    .replace("&gt;", ">")
                    .replace("&amp;", "&")
                    .replace(" hit", "");
                for (label, values) in pending_dice.drain(..) {
                    let values: Vec<String> = values.iter().map(u32::to_string).collect();
                    let list = values.join(", ");
                    let at = html
                        .find(&format!("({label})"))
                        .unwrap_or_else(|| panic!("entry {}: {label} missing:\n{}", e.seq, r.html));
                    let open = html[..at].rfind('[').unwrap();
                    let close = open + html[open..].find(']').unwrap();
                    assert_eq!(&html[open + 1..close], list, "entry {}: {label}", e.seq);
                    // And in the trust block of both parts.
                    assert!(
                        text.contains(&format!("{label}, d6: {list}"))
                            || text.contains(&format!("{label}, d")),
                        "entry {}: {label} not in the text's trust block",
                        e.seq
                    );
                    assert!(
                        html.contains(&format!("{label}</code>, d")),
                        "entry {}: {label} not in the HTML's trust block",
                        e.seq
                    );
                    assert!(
                        !text.contains(&format!("({label})")),
                        "entry {}: the text part is the short one",
                        e.seq
                    );
                    dice_seen += values.len();
                }
                assert_eq!(report.trust.head, e.hash.to_hex());
                assert_eq!(report.power, a.power);
                // `adjutant report` re-renders it byte for byte.
                for (flag, part) in [(None, &r.text), (Some("--html"), &r.html)] {
                    let mut cmd = Command::new(env!("CARGO_BIN_EXE_adjutant"));
                    cmd.args(["report", "--match", dir.to_str().unwrap(), "--entry"])
                        .arg(e.seq.to_string());
                    if let Some(f) = flag {
                        cmd.arg(f);
                    }
                    let out = cmd.output().unwrap();
                    assert!(
                        out.status.success(),
                        "{}",
                        String::from_utf8_lossy(&out.stderr)
                    );
                    assert_eq!(&String::from_utf8(out.stdout).unwrap(), part);
                }
            }
            _ => {}
        }
    }
    assert!(dice_seen > 0);
    assert!(pending_dice.is_empty());
}

#[test]
fn a_report_needs_an_adjudication_entry() {
    let dir = played_match("reports-errors");
    let err = turn_report(&dir, 1).unwrap_err().to_string();
    assert!(err.contains("entry 1 is not an adjudication"), "{err}");
    let err = turn_report(&dir, 1_000_000).unwrap_err().to_string();
    assert!(err.contains("not in the log"), "{err}");
}

/// Width and height from a PNG's IHDR chunk.
fn png_size(png: &[u8]) -> (u32, u32) {
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n", "not a PNG");
    assert_eq!(&png[12..16], b"IHDR");
    let be = |b: &[u8]| u32::from_be_bytes([b[0], b[1], b[2], b[3]]);
    (be(&png[16..20]), be(&png[20..24]))
}

#[test]
fn the_html_report_renders_in_headless_chromium_on_a_phone_and_a_desktop() {
    let Some(chromium) = browser::chromium() else {
        return;
    };
    let dir = played_match("reports-chromium");
    let entries = read_log(&dir).unwrap();
    // The report with the most events: battles, captures, placements.
    let seq = report_entries(&entries)
        .into_iter()
        .max_by_key(|s| turn_report(&dir, *s).unwrap().events.len())
        .unwrap();
    let report = turn_report(&dir, seq).unwrap();
    let html = Templates::builtin()
        .render_mail(report_template(&report), &report)
        .unwrap()
        .html;
    let out = dir.parent().unwrap().join("png");
    std::fs::create_dir_all(&out).unwrap();
    let page = out.join("report.html");
    std::fs::write(&page, &html).unwrap();
    for (name, width, height) in [("phone", 412u32, 2400u32), ("desktop", 1280, 2400)] {
        let png = out.join(format!("report-{name}.png"));
        let bytes = browser::screenshot(&chromium, &page, &png, width, height);
        assert_eq!(png_size(&bytes), (width, height), "{name}");
        // A blank page compresses to a few hundred bytes; text, tables and
        // the highlighted rows do not.
        assert!(
            bytes.len() > 30_000,
            "{name}: {} bytes: the page looks empty ({})",
            bytes.len(),
            png.display()
        );
    }
}
