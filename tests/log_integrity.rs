//! Tampering, crashes and misuse: every one must be caught and named.

mod common;

use adjutant::dice::{DiceKind, Digest32, Label, RollGroup, TurnSecret};
use adjutant::log::{Body, DiceEntry, MatchLog, Reveal, VerifyOptions, WriteError, verify_bytes};
use adjutant::matches::DiceTurn;
use common::{Shape, write_log};

fn small_log() -> Vec<u8> {
    log_with(3)
}

/// A two-turn log (entries: 1 genesis, 2 turn_open, 3 standing orders, 4
/// their adjudication, 5 stage-1 orders, 6 reveal, 7-8 dice, 9 adjudication,
/// 10 late order, 11 adjudication, 12 turn_open, ...) with two labels per
/// turn.
fn log_with(dice_per_label: usize) -> Vec<u8> {
    let dir = tempdir();
    let path = dir.join("m.log");
    write_log(
        &path,
        Shape {
            turns: 2,
            labels_per_turn: 2,
            dice_per_label,
        },
    );
    std::fs::read(&path).unwrap()
}

/// A fresh directory under the target dir (no extra dependency needed).
fn tempdir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "log_integrity-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn verify(data: &[u8]) -> Result<adjutant::log::Summary, adjutant::log::VerifyError> {
    verify_bytes(data, &VerifyOptions::default())
}

fn lines(data: &[u8]) -> Vec<Vec<u8>> {
    data.split_inclusive(|&b| b == b'\n')
        .map(<[u8]>::to_vec)
        .collect()
}

#[test]
fn the_untouched_log_verifies() {
    let s = verify(&small_log()).unwrap();
    assert_eq!((s.turns, s.orders, s.dice), (2, 6, 12));
}

#[test]
fn flipping_any_bit_pattern_of_any_byte_is_caught() {
    let data = small_log();
    let line_of = |pos: usize| 1 + data[..pos].iter().filter(|&&b| b == b'\n').count() as u64;
    // 0x01 turns hex digits into neighbours, 0x20 changes case, 0x80 breaks UTF-8.
    for mask in [0x01u8, 0x20, 0x80] {
        for pos in 0..data.len() {
            let mut t = data.clone();
            t[pos] ^= mask;
            let err = verify(&t)
                .err()
                .unwrap_or_else(|| panic!("flipping byte {pos} with {mask:#04x} was not detected"));
            // The failure points at the flipped line or the one after it
            // (a flipped newline merges two lines; a flipped hash breaks the next prev).
            let line = line_of(pos);
            assert!(
                err.seq == line || err.seq == line + 1 || err.seq == line.saturating_sub(1),
                "byte {pos} (line {line}) flipped, but the error names entry {}: {err}",
                err.seq
            );
        }
    }
}

#[test]
fn a_missing_line_is_caught_and_named() {
    let l = lines(&small_log());
    for drop in 0..l.len() {
        let t: Vec<u8> = l
            .iter()
            .enumerate()
            .filter(|(i, _)| *i != drop)
            .flat_map(|(_, x)| x.clone())
            .collect();
        if drop == l.len() - 1 {
            // Dropping the last entry leaves a shorter valid log; only the head
            // from a player's mail can reveal it.
            let head = verify(&l.concat()).unwrap().head;
            let opts = VerifyOptions {
                head: Some(head),
                ..Default::default()
            };
            let err = verify_bytes(&t, &opts).unwrap_err();
            assert!(err.reason.contains("no entry has the hash"), "{err}");
            continue;
        }
        let err = verify(&t).unwrap_err();
        assert_eq!(err.seq, drop as u64 + 1, "dropped line {}: {err}", drop + 1);
    }
}

#[test]
fn a_reordered_line_is_caught() {
    let l = lines(&small_log());
    for i in 0..l.len() - 1 {
        let mut t = l.clone();
        t.swap(i, i + 1);
        let err = verify(&t.concat()).unwrap_err();
        assert_eq!(
            err.seq,
            i as u64 + 1,
            "swapped {} and {}: {err}",
            i + 1,
            i + 2
        );
        assert!(err.reason.contains("sequence number"), "{err}");
    }
}

#[test]
fn a_torn_tail_is_reported_with_its_position_and_left_alone() {
    let data = small_log();
    let dir = tempdir();
    let path = dir.join("torn.log");
    let cut = data.len() - 10;
    std::fs::write(&path, &data[..cut]).unwrap();
    let err = verify(&data[..cut]).unwrap_err();
    let last_start = data[..cut].iter().rposition(|&b| b == b'\n').unwrap() + 1;
    assert_eq!(err.offset, last_start as u64);
    assert!(err.reason.starts_with("torn tail"), "{err}");

    match MatchLog::open(&path) {
        Err(WriteError::Corrupt(_, e)) => assert_eq!(e.offset, last_start as u64),
        Err(e) => panic!("wrong error: {e}"),
        Ok(_) => panic!("a torn log was opened for writing"),
    }
    assert_eq!(
        std::fs::read(&path).unwrap(),
        &data[..cut],
        "the file was changed"
    );
}

#[test]
fn the_writer_refuses_entries_that_break_the_rules_and_writes_nothing() {
    let dir = tempdir();
    let path = dir.join("w.log");
    let (mut log, _) = MatchLog::create(&path, common::genesis("w", DiceKind::Verifiable)).unwrap();
    let (turn, _) = DiceTurn::open(&mut log).unwrap();
    // The stage-1 message whose dice the reveal keys.
    turn.record_order(&mut log, "Germany", "purchase: 1 infantry\n")
        .unwrap();
    let before = std::fs::read(&path).unwrap();

    // A reveal of some other secret.
    let wrong = Body::Reveal(Reveal {
        turn: 1,
        secret: TurnSecret::from_bytes([9; 32]).reveal(),
        beacon: None,
    });
    assert!(matches!(
        log.append(wrong),
        Err(WriteError::Rejected { kind: "reveal", .. })
    ));
    // Dice before the reveal.
    let early = Body::Dice(DiceEntry {
        turn: 1,
        rolls: vec![],
    });
    assert!(matches!(
        log.append(early),
        Err(WriteError::Rejected { kind: "dice", .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), before);

    // After the real reveal, a die that is not the stream's is refused too.
    let mut dice = turn.reveal(&mut log).unwrap();
    let label = Label::new("battle/Karelia/round/1/attacker/infantry").unwrap();
    let v = dice.roll(&label, 6);
    let genuine = dice.take_rolls();
    let mut rolls = genuine.clone();
    rolls[0].values[0] = v % 6 + 1;
    let forged = Body::Dice(DiceEntry { turn: 1, rolls });
    let before = std::fs::read(&path).unwrap();
    assert!(matches!(
        log.append(forged),
        Err(WriteError::Rejected { .. })
    ));
    assert_eq!(std::fs::read(&path).unwrap(), before);
    // The rejected entry changed nothing: the genuine dice still go in.
    log.append(Body::Dice(DiceEntry {
        turn: 1,
        rolls: genuine,
    }))
    .unwrap();
    // Same for a label whose stream already advanced, met twice in one entry.
    // The second group takes the stream's next two dice with the second one
    // changed, so it is wrong whatever the stream gives (a copy of the first
    // group was right by chance 1 run in 36).
    dice.roll_many(&label, 2, 6);
    let genuine = dice.take_rolls();
    let next = dice.roll_many(&label, 2, 6);
    let mut rolls = genuine.clone();
    rolls.push(RollGroup {
        label: label.clone(),
        sides: 6,
        values: vec![next[0], next[1] % 6 + 1],
    });
    assert!(matches!(
        log.append(Body::Dice(DiceEntry { turn: 1, rolls })),
        Err(WriteError::Rejected { .. })
    ));
    log.append(Body::Dice(DiceEntry {
        turn: 1,
        rolls: genuine,
    }))
    .unwrap();
    let s = verify(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(s.dice, 3);
}

#[test]
fn only_one_writer_at_a_time_and_create_never_overwrites() {
    let dir = tempdir();
    let path = dir.join("x.log");
    let (log, _) = MatchLog::create(&path, common::genesis("x", DiceKind::Verifiable)).unwrap();
    assert!(matches!(MatchLog::open(&path), Err(WriteError::Locked(_))));
    drop(log);
    assert!(MatchLog::open(&path).is_ok());
    assert!(matches!(
        MatchLog::create(&path, common::genesis("x", DiceKind::Verifiable)),
        Err(WriteError::Exists(_))
    ));
}

#[test]
fn a_reopened_log_continues_the_chain() {
    let dir = tempdir();
    let path = dir.join("r.log");
    write_log(
        &path,
        Shape {
            turns: 1,
            labels_per_turn: 3,
            dice_per_label: 4,
        },
    );
    let mut log = MatchLog::open(&path).unwrap();
    let (turn, w) = DiceTurn::open(&mut log).unwrap();
    assert_eq!(turn.turn(), 2);
    turn.record_order(&mut log, "Germany", "purchase: 2 infantry\n")
        .unwrap();
    let mut dice = turn.reveal(&mut log).unwrap();
    dice.roll_many(&Label::new("a").unwrap(), 5, 6);
    DiceTurn::record_dice(&mut log, 2, &mut dice).unwrap();
    drop(log);
    let s = verify(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!((s.turns, s.dice), (2, 17));
    assert!(w.seq > 1);
}

#[test]
fn fixed_dice_logs_say_so_and_fail_unless_allowed() {
    let dir = tempdir();
    let path = dir.join("f.log");
    let (mut log, _) = MatchLog::create(&path, common::genesis("f", DiceKind::Fixed)).unwrap();
    let (turn, _) = DiceTurn::open(&mut log).unwrap();
    turn.record_order(&mut log, "Germany", "purchase: 1 infantry\n")
        .unwrap();
    turn.reveal(&mut log).unwrap();
    // No `Dice` is scripted, so such a log can only be written by hand.
    log.append(Body::Dice(DiceEntry {
        turn: 1,
        rolls: vec![RollGroup {
            label: Label::new("battle/x").unwrap(),
            sides: 6,
            values: vec![6, 6, 1],
        }],
    }))
    .unwrap();
    drop(log);
    let data = std::fs::read(&path).unwrap();
    let err = verify(&data).unwrap_err();
    assert!(err.reason.contains("fixed"), "{err}");
    let s = verify_bytes(
        &data,
        &VerifyOptions {
            allow_fixed_dice: true,
            head: None,
        },
    )
    .unwrap();
    assert_eq!((s.dice_kind, s.dice), (DiceKind::Fixed, 3));
}

#[test]
fn a_head_from_a_mail_must_be_in_the_log() {
    let data = small_log();
    let heads: Vec<Digest32> = lines(&data)
        .iter()
        .map(|l| {
            let l = std::str::from_utf8(l).unwrap();
            Digest32::from_hex(&l[l.len() - 67..l.len() - 3]).unwrap()
        })
        .collect();
    let opts = |h| VerifyOptions {
        head: Some(h),
        allow_fixed_dice: false,
    };
    assert_eq!(
        verify_bytes(&data, &opts(heads[3])).unwrap().head_entry,
        Some(4)
    );
    assert!(verify_bytes(&data, &opts(Digest32([7; 32]))).is_err());
}

/// Forgeries with every hash recomputed: only the semantic checks remain.
#[test]
fn forged_but_rechained_logs_are_caught_by_their_meaning() {
    // Enough dice in entry 7 (20 per label) that a changed turn key cannot
    // leave them all unchanged by chance (with 1 die per label it did, 1 run
    // in 36).
    let data = log_with(40);
    // Entries as in `log_with`: 3 standing orders, 5 stage-1 orders, 6 reveal,
    // 7-8 dice, 12 turn_open ...
    type Edit = Box<dyn Fn(&mut adjutant::log::Entry)>;
    let cases: Vec<(&str, u64, Edit)> = vec![
        (
            "reveal does not match",
            6,
            Box::new(|e| {
                if let Body::Reveal(r) = &mut e.body {
                    r.secret.0[0] ^= 1;
                }
            }),
        ),
        (
            "order digest",
            3,
            Box::new(|e| {
                if let Body::Order(o) = &mut e.body {
                    o.canonical.push(' ');
                }
            }),
        ),
        (
            "order digest recomputed: the key changes, so the dice no longer match",
            7,
            Box::new(|e| {
                if let Body::Order(o) = &mut e.body {
                    o.canonical.push(' ');
                    o.digest = adjutant::dice::OrderDigest::of_orders(
                        "synthetic",
                        o.turn,
                        &o.power,
                        &o.canonical,
                    );
                }
            }),
        ),
        (
            "dice moved to another turn",
            7,
            Box::new(|e| {
                if let Body::Dice(d) = &mut e.body {
                    d.turn = 2;
                }
            }),
        ),
        (
            "a turn number skipped",
            12,
            Box::new(|e| {
                if let Body::TurnOpen(t) = &mut e.body
                    && e.seq == 12
                {
                    t.turn += 1;
                }
            }),
        ),
        (
            "genesis turned into fixed dice",
            1,
            Box::new(|e| {
                if let Body::Genesis(g) = &mut e.body {
                    g.dice = DiceKind::Fixed;
                }
            }),
        ),
    ];
    for (what, seq, edit) in cases {
        let forged = common::rechain(&data, |e| {
            // Order edits apply to the first order only.
            if !matches!(e.body, Body::Order(_)) || e.seq == 3 {
                edit(e)
            }
        });
        let err = verify(&forged)
            .err()
            .unwrap_or_else(|| panic!("{what}: not detected"));
        assert_eq!(err.seq, seq, "{what}: {err}");
    }
}

#[test]
fn a_writer_whose_clock_went_back_writes_the_previous_entrys_time() {
    let dir = tempdir();
    let path = dir.join("clock.log");
    let (log, _) = MatchLog::create(&path, common::genesis("clock", DiceKind::Verifiable)).unwrap();
    drop(log);
    // The last entry says 2099: to this writer, its clock went back.
    let later = "2099-01-01T00:00:00.000Z";
    let data = common::rechain(&std::fs::read(&path).unwrap(), |e| e.time = later.into());
    std::fs::write(&path, data).unwrap();
    let mut log = MatchLog::open(&path).unwrap();
    DiceTurn::open(&mut log).unwrap();
    drop(log);
    let data = std::fs::read(&path).unwrap();
    let s = verify(&data).unwrap();
    assert_eq!(s.entries, 2);
    let last = lines(&data).pop().unwrap();
    let last = adjutant::log::parse_line(&last[..last.len() - 1]).unwrap();
    assert_eq!(last.time, later);
}

/// `verify` notes a log of the first format, whose rules cannot rule out
/// extra order entries feeding a turn key, and only such a log.
#[test]
fn a_log_of_the_first_format_is_reported_as_legacy_and_only_it() {
    let dir = std::env::temp_dir().join(format!("adjutant-legacy-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("log.jsonl");
    write_log(
        &path,
        Shape {
            turns: 1,
            labels_per_turn: 1,
            dice_per_label: 2,
        },
    );
    let data = std::fs::read(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    let now = verify_bytes(&data, &VerifyOptions::default()).unwrap();
    assert!(!now.legacy_format, "a log of format 2 reported as legacy");
    // The genesis alone, as format 1.
    let first_line = &data[..=data.iter().position(|&b| b == b'\n').unwrap()];
    let old = common::rechain(first_line, |e| {
        if let Body::Genesis(g) = &mut e.body {
            g.format = adjutant::log::entry::LOG_FORMAT_V1.into();
        }
    });
    let old = verify_bytes(&old, &VerifyOptions::default()).unwrap();
    assert!(
        old.legacy_format,
        "a log of format 1 not reported as legacy"
    );
}
