//! A log's text (match id, powers, names, orders, events, labels, errors)
//! holding line breaks, escape sequences and bidirectional overrides must
//! not reach a terminal as it is: `adjutant verify`, `adjutant log show` and
//! `tools/verify_dice.py` print it escaped, so a log cannot print a fake
//! `ok:` line.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use adjutant::dice::{DiceKind, Digest32, Label};
use adjutant::log::{
    Adjudication, Body, Deadline, DeadlineEvent, MatchLog, Outcome, PlayerEntry, Received, Welcome,
};
use adjutant::matches::DiceTurn;

/// Rewrites the screen's line and prints a verdict of its own.
const FAKE: &str = "\r\u{1b}[2Kok: match forged: 99 entries\n";

fn dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("control-chars-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A valid log, every string of which holds control or format characters.
fn hostile_log(path: &Path) {
    let mut genesis = common::genesis(&format!("m{FAKE}"), DiceKind::Verifiable);
    genesis.engine = format!("adjutant{FAKE}");
    genesis.players = vec![PlayerEntry {
        power: "Germany\u{202e}ynamreG".into(),
        name: "\u{1b}]0;pwned\u{7}Alice".into(),
    }];
    let (mut log, _) = MatchLog::create(path, genesis).unwrap();
    let (turn, _) = DiceTurn::open(&mut log).unwrap();
    let t = turn.turn();
    let power = format!("Germany{FAKE}");
    turn.record_order(&mut log, &power, &format!("purchase: 1 infantry{FAKE}"))
        .unwrap();
    let mut dice = turn.reveal(&mut log).unwrap();
    // Labels cannot hold Cc characters, but can hold format characters.
    let label = Label::new("battle/\u{202e}ynamreG/round/1\u{2028}ok: fake").unwrap();
    dice.roll(&label, 6);
    DiceTurn::record_dice(&mut log, t, &mut dice).unwrap();
    for body in [
        Body::Adjudication(Adjudication {
            turn: t,
            power: power.clone(),
            round: 1,
            stage: 1,
            events: vec![format!("Germany bought 1 infantry{FAKE}")],
            state: Digest32::default(),
        }),
        Body::Received(Received {
            message_id: Some(format!("<x@y>{FAKE}")),
            mail_sha256: Digest32::default(),
            from_hash: Digest32::default(),
            power: Some(power.clone()),
            outcome: Outcome::Rejected,
            command: Some(format!("help{FAKE}")),
            errors: vec![format!("\u{1b}[1A{FAKE}"), "\u{2066}x\u{2069}\u{85}".into()],
        }),
        Body::Welcome(Welcome {
            powers: vec![power.clone(), "\u{200f}\u{61c}\u{200e}".into()],
        }),
        Body::Deadline(Deadline {
            round: 1,
            power,
            stage: 1,
            due: "2026-11-24T10:00:00Z".into(),
            event: DeadlineEvent::Set,
        }),
    ] {
        log.append(body).unwrap();
    }
}

/// A genesis line, hash-valid, whose dice kind and one extra key hold
/// escape sequences: the errors about them quote them.
fn malformed_log(path: &Path) {
    let p = format!(
        "{{\"seq\":1,\"prev\":\"{}\",\"time\":\"2026-11-21T07:19:14.123Z\",\"kind\":\"genesis\",\
         \"body\":{{\"format\":\"adjutant-log/1\",\"match\":\"m\",\"dice\":\"verifiable\\u001b[2J\\rok: x\",\"engine\":\"e\"}},\
         \"\\u001b[1A\\rok: fake\":1",
        "0".repeat(64)
    );
    let line = format!("{p},\"hash\":\"{}\"}}\n", Digest32::sha256(p.as_bytes()));
    std::fs::write(path, line).unwrap();
}

fn adjutant(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(args)
        .output()
        .unwrap()
}

fn python(args: &[&std::ffi::OsStr]) -> Output {
    Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py"))
        .args(args)
        .output()
        .expect("python3 must be installed to run the independent verifier")
}

/// The characters of `text` that act on a terminal rather than show:
/// controls other than the line ends and tabs the program writes itself,
/// bidirectional controls, line and paragraph separators.
fn raw_controls(text: &str) -> Vec<char> {
    text.chars()
        .filter(|&c| {
            (c.is_control() && c != '\n' && c != '\t')
                || matches!(
                    c,
                    '\u{61c}'
                        | '\u{200e}'
                        | '\u{200f}'
                        | '\u{202a}'..='\u{202e}'
                        | '\u{2066}'..='\u{2069}'
                        | '\u{2028}'
                        | '\u{2029}'
                )
        })
        .collect()
}

/// Both streams of `out` hold no raw control character; returns them.
fn shown(what: &str, out: &Output) -> (String, String) {
    let stdout = String::from_utf8(out.stdout.clone()).unwrap();
    let stderr = String::from_utf8(out.stderr.clone()).unwrap();
    for (name, s) in [("stdout", &stdout), ("stderr", &stderr)] {
        let raw = raw_controls(s);
        assert!(
            raw.is_empty(),
            "{what}: raw {raw:?} on {name}:\n{}",
            s.escape_debug()
        );
    }
    (stdout, stderr)
}

#[test]
fn a_valid_log_cannot_print_a_line_of_its_own() {
    let d = dir("valid");
    let log = d.join("hostile.log");
    hostile_log(&log);

    let out = adjutant(&["verify".as_ref(), log.as_os_str()]);
    let (stdout, _) = shown("adjutant verify", &out);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.starts_with("ok: match m<U+000D><U+001B>[2Kok: match forged"),
        "{stdout}"
    );
    assert_eq!(stdout.matches("ok: ").count(), 2, "{stdout}");
    assert_eq!(
        stdout.lines().filter(|l| l.starts_with("ok:")).count(),
        1,
        "{stdout}"
    );

    let out = adjutant(&["log".as_ref(), "show".as_ref(), log.as_os_str()]);
    let (stdout, _) = shown("adjutant log show", &out);
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout
            .lines()
            .all(|l| l.starts_with('#') || l.starts_with(&" ".repeat(46))),
        "every line is an entry or indented under one:\n{stdout}"
    );
    for visible in ["<U+202E>", "<U+2066>x<U+2069><U+0085>", "<U+2028>ok: fake"] {
        assert!(stdout.contains(visible), "{visible} missing:\n{stdout}");
    }

    let out = python(&[log.as_os_str()]);
    let (stdout, stderr) = shown("verify_dice.py", &out);
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(
        stdout.contains("match:   m<U+000D><U+001B>[2Kok: match forged"),
        "{stdout}"
    );
    assert!(!stdout.lines().any(|l| l.starts_with("ok:")), "{stdout}");

    let out = python(&[log.as_os_str(), "--dump".as_ref()]);
    let (stdout, stderr) = shown("verify_dice.py --dump", &out);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout.lines().count(), 1, "one die:\n{stdout}");
    assert!(
        stdout.starts_with("1\tbattle/<U+202E>ynamreG/round/1<U+2028>ok: fake\t0\t6\t"),
        "{stdout}"
    );
}

#[test]
fn the_errors_about_a_bad_log_cannot_print_a_line_of_their_own() {
    let d = dir("bad");
    // A forged die: the error names its label.
    let log = d.join("forged.log");
    hostile_log(&log);
    let forged = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let Body::Dice(d) = &mut e.body {
            let g = &mut d.rolls[0];
            g.values[0] = g.values[0] % g.sides + 1;
        }
    });
    std::fs::write(&log, forged).unwrap();
    let out = adjutant(&["verify".as_ref(), log.as_os_str()]);
    let (_, stderr) = shown("adjutant verify (forged die)", &out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("battle/<U+202E>ynamreG"), "{stderr}");
    let out = python(&[log.as_os_str()]);
    let (_, stderr) = shown("verify_dice.py (forged die)", &out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");

    // A malformed genesis: the errors quote what they could not read.
    let log = d.join("malformed.log");
    malformed_log(&log);
    let out = adjutant(&["verify".as_ref(), log.as_os_str()]);
    let (_, stderr) = shown("adjutant verify (malformed)", &out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("verifiable<U+001B>[2J<U+000D>ok: x"),
        "{stderr}"
    );
    let out = adjutant(&["log".as_ref(), "show".as_ref(), log.as_os_str()]);
    let (stdout, _) = shown("adjutant log show (malformed)", &out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("UNREADABLE"), "{stdout}");
    let out = python(&[log.as_os_str()]);
    let (_, stderr) = shown("verify_dice.py (malformed)", &out);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("<U+001B>[1A<U+000D>ok: fake"), "{stderr}");
}
