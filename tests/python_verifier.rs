//! The independent Python verifier (`tools/verify_dice.py`) and the Rust code
//! must agree on every die of a log.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{Shape, write_log};

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py")
}

fn python(args: &[&std::ffi::OsStr]) -> std::process::Output {
    Command::new("python3")
        .arg(script())
        .args(args)
        .output()
        .expect("python3 must be installed to run the independent verifier")
}

fn out_dir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("pyverify-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn python_and_rust_agree_on_every_die() {
    let dir = out_dir("agree");
    let path = dir.join("cross.log");
    // 2 turns x 60 labels = 120 label streams, 12,000 dice, six sizes of die
    // (one of which rejects words), each label split over two entries.
    let shape = Shape {
        turns: 2,
        labels_per_turn: 60,
        dice_per_label: 100,
    };
    let rust = write_log(&path, shape);
    assert_eq!(rust.len(), 12_000);

    let out = python(&[path.as_os_str(), "--dump".as_ref()]);
    assert!(
        out.status.success(),
        "python verifier failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let py: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect();
    assert_eq!(py.len(), rust.len(), "different number of dice");
    let labels: std::collections::HashSet<(&str, &str)> = rust
        .iter()
        .map(|l| {
            let mut f = l.split('\t');
            (f.next().unwrap(), f.next().unwrap())
        })
        .collect();
    assert!(labels.len() >= 100, "only {} label streams", labels.len());
    for (i, (r, p)) in rust.iter().zip(&py).enumerate() {
        assert_eq!(r, p, "die {i} differs");
    }
}

#[test]
fn python_rejects_a_changed_die_and_names_the_entry() {
    let dir = out_dir("tamper");
    let path = dir.join("t.log");
    write_log(
        &path,
        Shape {
            turns: 1,
            labels_per_turn: 3,
            dice_per_label: 4,
        },
    );
    let ok = python(&[path.as_os_str()]);
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );

    // A forger changes one die of the first dice entry (entry 7) and
    // recomputes every hash: only re-deriving the dice can catch it.
    let data = std::fs::read(&path).unwrap();
    let forged = common::rechain(&data, |e| {
        if let adjutant::log::Body::Dice(d) = &mut e.body
            && e.seq == 7
        {
            let g = &mut d.rolls[1];
            g.values[1] = g.values[1] % g.sides + 1;
        }
    });
    std::fs::write(&path, &forged).unwrap();
    let bad = python(&[path.as_os_str()]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("entry 7 (line 7, byte"), "{err}");
    let rust = adjutant::log::verify_bytes(&forged, &Default::default()).unwrap_err();
    assert_eq!(rust.seq, 7, "{rust}");
    assert!(rust.reason.contains("die 2"), "{rust}");
}

#[test]
fn python_self_test_checks_the_documented_vectors() {
    let out = python(&["--self-test".as_ref()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("docs/dice.md rejection_d65175_x4"), "{text}");
}

#[test]
fn python_and_rust_refuse_the_same_impossible_dates() {
    let dir = out_dir("dates");
    let path = dir.join("dates.log");
    let shape = Shape {
        turns: 1,
        labels_per_turn: 1,
        dice_per_label: 2,
    };
    write_log(&path, shape);
    let good = std::fs::read(&path).unwrap();
    let entries: Vec<adjutant::log::Entry> = good
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| adjutant::log::parse_line(l).unwrap())
        .collect();
    let last = entries.last().unwrap();
    // An entry dated 31 November, and a deadline due on it.
    for (time, due) in [
        ("2026-11-31T10:00:00.000Z", "2026-12-01T10:00:00Z"),
        ("2099-12-01T10:00:00.000Z", "2026-11-31T10:00:00Z"),
        ("2099-12-01T10:00:00.000Z", "next tuesday"),
    ] {
        let body = adjutant::log::Body::Deadline(adjutant::log::Deadline {
            round: 1,
            power: "Germany".into(),
            stage: 1,
            due: due.into(),
            event: adjutant::log::DeadlineEvent::Set,
        });
        let (line, _) = adjutant::log::encode_line(last.seq + 1, &last.hash, time, &body);
        let mut data = good.clone();
        data.extend_from_slice(line.as_bytes());
        data.push(b'\n');
        std::fs::write(&path, &data).unwrap();
        let py = python(&[path.as_os_str()]);
        assert_eq!(py.status.code(), Some(1), "python accepted {time} / {due}");
        let err = String::from_utf8_lossy(&py.stderr);
        assert!(err.contains(&format!("entry {}", last.seq + 1)), "{err}");
        let rust = adjutant::log::verify_bytes(&data, &Default::default());
        assert_eq!(rust.unwrap_err().seq, last.seq + 1, "{time} / {due}");
    }
}
