//! The bounds of single fields that the chain checks: adjudication and
//! deadline stages, a deadline's time, an entry's time, roll groups and fixed
//! dice. Each test offers the values just outside a bound and just inside it,
//! so that a check that is loosened, tightened or dropped fails here.
//!
//! Every log is built through the public writer; every order is followed by
//! its adjudication (turn_open, order, reveal, dice, adjudication).

mod common;

use adjutant::dice::{Dice, DiceKind, Digest32, Label, RollGroup};
use adjutant::log::{
    Adjudication, Body, Deadline, DeadlineEvent, DiceEntry, MatchLog, VerifyOptions, WriteError,
    encode_line, parse_line, verify_bytes,
};
use adjutant::matches::DiceTurn;

/// A fresh log file under the target dir.
fn new_log(name: &str, dice: DiceKind) -> (MatchLog, std::path::PathBuf) {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("log_fields-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("m.log");
    let genesis = common::genesis(name, dice);
    let (log, _) = MatchLog::create(&path, genesis).unwrap();
    (log, path)
}

/// Opens turn 1, logs Germany's orders and reveals: the next entries are
/// the dice and the adjudication of those orders.
fn turn_with_orders(log: &mut MatchLog) -> Dice {
    let (turn, _) = DiceTurn::open(log).unwrap();
    turn.record_order(log, "Germany", "purchase: 1 infantry\n")
        .unwrap();
    turn.reveal(log).unwrap()
}

fn adjudication(power: &str, stage: u8) -> Body {
    Body::Adjudication(Adjudication {
        turn: 1,
        power: power.into(),
        round: 1,
        stage,
        events: vec![],
        state: Digest32([7; 32]),
    })
}

/// The reason the writer refused `body`, which must be of `kind`.
fn refused(log: &mut MatchLog, body: Body, kind: &str) -> String {
    match log.append(body) {
        Err(WriteError::Rejected { kind: k, reason }) if k == kind => reason,
        other => panic!("expected the {kind} entry to be refused, got {other:?}"),
    }
}

fn verify(path: &std::path::Path) -> adjutant::log::Summary {
    verify_bytes(&std::fs::read(path).unwrap(), &VerifyOptions::default()).unwrap()
}

#[test]
fn an_adjudication_is_of_stage_0_1_or_2() {
    let (mut log, path) = new_log("stages", DiceKind::Verifiable);
    let mut dice = turn_with_orders(&mut log);
    dice.roll_many(&Label::new("battle/Karelia").unwrap(), 2, 6);
    DiceTurn::record_dice(&mut log, 1, &mut dice).unwrap();
    for stage in [3, u8::MAX] {
        let reason = refused(&mut log, adjudication("Germany", stage), "adjudication");
        assert!(
            reason.contains(&format!("stage {stage} is not")),
            "{reason}"
        );
    }
    log.append(adjudication("Germany", 1)).unwrap();
    // Stage 2 comes after the reveal; standing orders (stage 0) at any time.
    for (power, stage, orders) in [
        (
            "Germany",
            2,
            "noncombat:\n  - 1 infantry: Germany -> Poland\n",
        ),
        ("Soviet Union", 0, "standing:\n  losses: infantry\n"),
    ] {
        DiceTurn::record_order_in(&mut log, 1, power, orders).unwrap();
        refused(&mut log, adjudication(power, 3), "adjudication");
        log.append(adjudication(power, stage)).unwrap();
    }
    assert_eq!(verify(&path).orders, 3);
}

fn deadline(stage: u8, due: &str) -> Body {
    Body::Deadline(Deadline {
        round: 1,
        power: "Germany".into(),
        stage,
        due: due.into(),
        event: DeadlineEvent::Set,
    })
}

#[test]
fn a_deadline_is_of_stage_1_or_2_and_due_at_an_rfc_3339_time() {
    let (mut log, path) = new_log("deadlines", DiceKind::Verifiable);
    let due = "2026-11-21T18:00:00Z";
    for stage in [0, 3] {
        let reason = refused(&mut log, deadline(stage, due), "deadline");
        assert!(
            reason.contains(&format!("stage {stage}, not 1 or 2")),
            "{reason}"
        );
    }
    for bad in ["", "tomorrow", "2026-11-21", "2026-11-21T18:00:00"] {
        let reason = refused(&mut log, deadline(1, bad), "deadline");
        assert!(
            reason.contains("is not an RFC 3339 time"),
            "{bad}: {reason}"
        );
    }
    log.append(deadline(1, due)).unwrap();
    log.append(deadline(2, "2026-11-22T18:00:00.000+01:00"))
        .unwrap();
    assert_eq!(verify(&path).entries, 3);
}

#[test]
fn verify_names_an_entry_whose_time_is_not_in_the_written_form() {
    let (mut log, path) = new_log("time", DiceKind::Verifiable);
    log.append(deadline(1, "2026-11-21T18:00:00Z")).unwrap();
    drop(log);
    let good = std::fs::read(&path).unwrap();
    // Entry 2 re-written with another form of its time and every hash
    // recomputed: only the time check can refuse it.
    let mut lines = good.split(|&b| b == b'\n');
    let first = lines.next().unwrap();
    let genesis = parse_line(first).unwrap();
    let second = parse_line(lines.next().unwrap()).unwrap();
    let time = second.time.replacen('T', " ", 1);
    let (forged, _) = encode_line(2, &genesis.hash, &time, &second.body);
    let data = [first, b"\n", forged.as_bytes(), b"\n"].concat();
    let err = verify_bytes(&data, &VerifyOptions::default()).unwrap_err();
    assert_eq!((err.seq, err.offset), (2, first.len() as u64 + 1), "{err}");
    assert!(err.reason.contains("is not UTC in the form"), "{err}");
    // The same entry with its own time verifies.
    let (same, _) = encode_line(2, &genesis.hash, &second.time, &second.body);
    assert_eq!([first, b"\n", same.as_bytes(), b"\n"].concat(), good);
}

#[test]
fn a_roll_group_without_dice_is_refused() {
    let (mut log, path) = new_log("empty-group", DiceKind::Verifiable);
    let mut dice = turn_with_orders(&mut log);
    let label = Label::new("battle/Karelia").unwrap();
    dice.roll_many(&label, 2, 6);
    let genuine = dice.take_rolls();
    let mut rolls = genuine.clone();
    rolls.push(RollGroup {
        label: label.clone(),
        sides: 6,
        values: vec![],
    });
    let reason = refused(&mut log, Body::Dice(DiceEntry { turn: 1, rolls }), "dice");
    assert!(
        reason.contains("roll group 2 (battle/Karelia) has no dice"),
        "{reason}"
    );
    log.append(Body::Dice(DiceEntry {
        turn: 1,
        rolls: genuine,
    }))
    .unwrap();
    log.append(adjudication("Germany", 1)).unwrap();
    assert_eq!(verify(&path).dice, 2);
}

#[test]
fn fixed_dice_show_a_face_of_their_die() {
    let (mut log, path) = new_log("fixed-faces", DiceKind::Fixed);
    turn_with_orders(&mut log);
    let group = |sides: u32, values: Vec<u32>| {
        Body::Dice(DiceEntry {
            turn: 1,
            rolls: vec![RollGroup {
                label: Label::new("battle/Karelia").unwrap(),
                sides,
                values,
            }],
        })
    };
    for (sides, v) in [(6, 0), (6, 7), (2, 3), (65536, 65537)] {
        let reason = refused(&mut log, group(sides, vec![1, v]), "dice");
        assert!(reason.contains(&format!("die 2: {v} is not")), "{reason}");
    }
    for sides in [1, 65537] {
        let reason = refused(&mut log, group(sides, vec![1]), "dice");
        assert!(reason.contains(&format!("not {sides}")), "{reason}");
    }
    log.append(group(6, vec![1, 6])).unwrap();
    log.append(group(2, vec![2, 1])).unwrap();
    log.append(group(65536, vec![65536])).unwrap();
    log.append(adjudication("Germany", 1)).unwrap();
    let data = std::fs::read(&path).unwrap();
    let s = verify_bytes(
        &data,
        &VerifyOptions {
            allow_fixed_dice: true,
            head: None,
        },
    )
    .unwrap();
    assert_eq!(s.dice, 5);
}
