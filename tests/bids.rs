//! Sealed bids in a match log (`docs/log.md`, "Bids"): a match that starts
//! with a bid for sides, or with setup money, is played through its bid
//! placement, and both verifiers (`adjutant verify`, which also replays the
//! placement through the engine, and `tools/verify_dice.py`) check it; a
//! forged reveal fails both.

mod common;

use common::verify as verifiers;

use std::path::{Path, PathBuf};
use std::process::Command;

use adjutant::log::Body;
use adjutant::matches::{Match, Submitted};
use verifiers::{adjutant_verify as verify, both_accept, python_verify as python};

fn dir(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bids-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d.join("m")
}

fn games() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games")
}

const TWO_PLAYERS: &str = "players:
  Germany: {name: Gerd, email: gerd@example.org}
  Soviet Union: {name: Alice, email: alice@example.org}
  United Kingdom: {name: Alice, email: alice@example.org}
  United States: {name: Alice, email: alice@example.org}
";

fn bid(m: &mut Match, power: &str, ipcs: u32) -> adjutant::matches::BidReceipt {
    match m.submit_any(power, &format!("bid: {ipcs}\n")).unwrap() {
        Ok(Submitted::Bid(b)) => b,
        other => panic!("{power}'s bid: {other:?}"),
    }
}

fn orders(m: &mut Match, power: &str, yaml: &str) {
    match m.submit_any(power, yaml).unwrap() {
        Ok(Submitted::Orders(_)) => {}
        other => panic!("{power}'s orders: {other:?}"),
    }
}

/// The reveal entry of a log.
fn reveal_of(m: &Match) -> adjutant::log::BidEntry {
    m.log()
        .entries()
        .iter()
        .find_map(|e| match &e.body {
            Body::Bid(b) if b.step == adjutant::log::BidStep::Reveal => Some(b.clone()),
            _ => None,
        })
        .expect("a reveal")
}

#[test]
fn a_bid_for_sides_is_sealed_revealed_placed_and_verified_by_both_verifiers() {
    let d = dir("sides");
    let players = format!("match: bids-sides\n{TWO_PLAYERS}bid: {{kind: sides, side: Axis}}\n");
    let mut m = Match::create(&d, &games(), "aae", &players).unwrap();

    // No orders while the bids are sealed, and a bid is final.
    let refused = m.submit_any("Germany", "purchase: 1 infantry\n").unwrap();
    assert!(
        format!("{:?}", refused.unwrap_err())
            .contains("waits for the sealed bids of Axis and Allies"),
    );
    let axis = bid(&mut m, "Germany", 12);
    assert_eq!((axis.bidder.as_str(), axis.revealed), ("Axis", None));
    // The receipt's salt opens the logged commitment (what a bidder checks).
    assert_eq!(
        adjutant::dice::bid::sealed("bids-sides", "Axis", 12, &axis.salt),
        axis.commitment
    );
    assert!(m.submit_any("Germany", "bid: 3\n").unwrap().is_err());
    let allies = bid(&mut m, "United Kingdom", 8);
    assert!(allies.revealed.is_some());
    let r = reveal_of(&m);
    assert_eq!((r.winner.as_deref(), r.tie), (Some("Allies"), None));

    // The Allies' player bid lower: they take the Axis, and the seats change.
    let roster = adjutant::matches::Roster::load(&d, m.game()).unwrap();
    assert_eq!(roster.seat("Germany").unwrap().name, "Alice");
    assert_eq!(roster.seat("United States").unwrap().name, "Gerd");
    assert_eq!(m.state().phase.name(), "bid placement");

    // A placement beyond the bid changes nothing; then Germany places 8.
    let before = m.log().entries().len();
    assert!(
        m.submit_any("Germany", "place:\n  Germany: 3 infantry\n")
            .unwrap()
            .is_err()
    );
    assert_eq!(m.log().entries().len(), before);
    orders(
        &mut m,
        "Germany",
        "place:\n  Germany: 1 infantry, 1 armor\n",
    );
    assert_eq!(m.state().phase.name(), "purchase");
    orders(&mut m, "Germany", "purchase: 1 infantry\n");
    drop(m);
    // The league's standings follow the seats the bid gave.
    let result = adjutant::matches::league::result_of(&d).unwrap();
    let alice = result.players.iter().find(|p| p.name == "Alice").unwrap();
    assert_eq!(alice.side, "Axis");

    let log = d.join("log.jsonl");
    let out = verify(&log);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("engine replay: 2 accepted messages re-adjudicated"),
        "{text}"
    );
    let out = python(&log);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // A forged reveal (the Axis said to have bid 7, the winner changed to
    // match) is caught by both: 7 does not open the Axis' sealed bid.
    let data = std::fs::read(&log).unwrap();
    let forged = common::rechain(&data, |e| {
        if let Body::Bid(b) = &mut e.body
            && b.step == adjutant::log::BidStep::Reveal
        {
            b.bids.as_mut().unwrap()[0].ipcs = 7;
            b.winner = Some("Axis".into());
        }
    });
    let bad = d.with_file_name("forged.jsonl");
    std::fs::write(&bad, forged).unwrap();
    let out = verify(&bad);
    assert!(!out.status.success());
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        said.contains("Axis revealed 7 IPCs, which seal to"),
        "{said}"
    );
    let out = python(&bad);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("do not open its sealed bid"));

    // A reveal naming the wrong winner fails both as well.
    let forged = common::rechain(&data, |e| {
        if let Body::Bid(b) = &mut e.body
            && b.step == adjutant::log::BidStep::Reveal
        {
            b.winner = Some("Axis".into());
        }
    });
    std::fs::write(&bad, forged).unwrap();
    assert!(!verify(&bad).status.success());
    let out = python(&bad);
    assert!(String::from_utf8_lossy(&out.stderr).contains("but the bids make it 'Allies'"));
}

#[test]
fn equal_bids_are_broken_by_the_verifiable_die_and_both_verifiers_agree() {
    let d = dir("tie");
    let players = format!("match: bids-tie\n{TWO_PLAYERS}bid: {{kind: sides, side: Axis}}\n");
    let mut m = Match::create(&d, &games(), "aae", &players).unwrap();
    bid(&mut m, "Soviet Union", 6);
    bid(&mut m, "Germany", 6);
    let r = reveal_of(&m);
    let tie = r.tie.expect("a tie-break die");
    assert!(tie == 1 || tie == 2);
    let winner = ["Axis", "Allies"][tie as usize - 1];
    assert_eq!(r.winner.as_deref(), Some(winner));
    let log = d.join("log.jsonl");
    both_accept(&log);
    // Another die value is refused by both.
    let data = std::fs::read(&log).unwrap();
    let forged = common::rechain(&data, |e| {
        if let Body::Bid(b) = &mut e.body
            && b.step == adjutant::log::BidStep::Reveal
        {
            b.tie = Some(3 - tie);
            b.winner = Some(["Axis", "Allies"][(2 - tie) as usize].into());
        }
    });
    let bad = d.with_file_name("forged.jsonl");
    std::fs::write(&bad, forged).unwrap();
    assert!(!verify(&bad).status.success());
    assert!(!python(&bad).status.success());
}

#[test]
fn an_organiser_reveals_at_the_deadline_and_a_missing_bidder_has_no_bid() {
    let d = dir("deadline");
    let players = format!(
        "match: bids-deadline\n{TWO_PLAYERS}organisers: [{{name: Olga, email: olga@example.org}}]\nbid: {{kind: sides, side: Axis}}\n"
    );
    let mut m = Match::create(&d, &games(), "aae", &players).unwrap();
    bid(&mut m, "Germany", 10);
    drop(m);
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["organise", "--match"])
        .arg(&d)
        .args(["--as", "Olga", "reveal-bids"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("the Axis 10 IPCs; the Axis bid lower"),
        "{text}"
    );
    let m = Match::open(&d).unwrap();
    assert_eq!(m.state().phase.name(), "bid placement");
    // The organiser's action is in the log, the reveal right after it.
    let entries = m.log().entries();
    let at = entries
        .iter()
        .position(|e| {
            matches!(&e.body, Body::Organiser(o)
                if o.action == adjutant::log::OrganiserAction::RevealBids && o.organiser == "Olga")
        })
        .expect("an organiser's reveal_bids entry");
    assert!(
        matches!(&entries[at + 1].body, Body::Bid(b) if b.step == adjutant::log::BidStep::Reveal)
    );
    assert!(
        matches!(&entries[at - 1].body, Body::Bid(b) if b.step == adjutant::log::BidStep::Sealed)
    );
    drop(m);
    let log = d.join("log.jsonl");
    both_accept(&log);
    // Once revealed, there is nothing to reveal.
    let again = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .args(["organise", "--match"])
        .arg(&d)
        .args(["--as", "Olga", "reveal-bids"])
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(1));
    assert!(
        verifiers::said(&again).contains("no sealed bids wait for their reveal"),
        "{}",
        verifiers::said(&again)
    );
    // A log in which the organiser's reveal_bids comes before the last
    // sealed bid, not right before the reveal, is refused by both
    // verifiers.
    let text = std::fs::read_to_string(&log).unwrap();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.swap(at - 1, at);
    let mut seq = 0;
    let mut latest = String::new();
    let forged = common::rechain(format!("{}\n", lines.join("\n")).as_bytes(), |e| {
        seq += 1;
        e.seq = seq;
        // Times never go backwards: the swap's only fault is its order.
        if e.time < latest {
            e.time = latest.clone();
        }
        latest = e.time.clone();
    });
    let bad = d.with_file_name("reveal-early.jsonl");
    std::fs::write(&bad, forged).unwrap();
    verifiers::both_refuse(&bad, "the bids' reveal comes next");
}

#[test]
fn setup_money_starts_the_placement_without_bids() {
    let d = dir("setup");
    let players = format!(
        "match: bids-setup\n{TWO_PLAYERS}bid: {{kind: setup, money: {{Axis: 12, Allies: 12}}}}\n"
    );
    let mut m = Match::create(&d, &games(), "aae", &players).unwrap();
    assert_eq!(m.state().phase.name(), "bid placement");
    assert!(m.submit_any("Germany", "bid: 3\n").unwrap().is_err());
    orders(&mut m, "Germany", "place:\n  Germany: 4 infantry\n");
    orders(&mut m, "Soviet Union", "place:\n  Russia: 4 infantry\n");
    // The Allies' money is spent: the United Kingdom and the United States
    // have nothing left to place, so round 1 begins.
    assert_eq!(m.state().phase.name(), "purchase");
    assert_eq!(
        m.state().current_power(m.game()),
        m.game().power("Germany").unwrap()
    );
    drop(m);
    let log = d.join("log.jsonl");
    let out = verify(&log);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(python(&log).status.success());
    // A bid that names a side the game does not have is refused at creation.
    let bad = format!("{TWO_PLAYERS}bid: {{kind: setup, money: {{Axes: 12}}}}\n");
    let err = Match::create(&dir("setup-bad"), &games(), "aae", &bad)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("\"Axes\" is not a side of aae"), "{err}");
}

#[test]
fn a_crash_between_the_last_sealed_bid_and_the_reveal_is_revealed_on_opening() {
    let d = dir("crash");
    let players = format!("match: bids-crash\n{TWO_PLAYERS}bid: {{kind: sides, side: Axis}}\n");
    let mut m = Match::create(&d, &games(), "aae", &players).unwrap();
    bid(&mut m, "Germany", 5);
    drop(m);
    // The Allies' bid as the match writes it, its amount kept first, then
    // its sealed entry, and then the server stops before the reveal.
    let secret = std::fs::read_to_string(d.join("secrets/bid.secret")).unwrap();
    let secret = adjutant::dice::Digest32::from_hex(secret.trim()).unwrap();
    std::fs::write(d.join("secrets/bids.json"), r#"[["Axis",5],["Allies",5]]"#).unwrap();
    let (entry, _) = adjutant::matches::bids::sealed("bids-crash", &secret, "Allies", 5);
    let mut log = adjutant::log::MatchLog::open(&d.join("log.jsonl")).unwrap();
    log.append(Body::Bid(entry)).unwrap();
    drop(log);
    let m = Match::open(&d).unwrap();
    let r = reveal_of(&m);
    assert!(r.tie.is_some(), "equal bids of 5: {r:?}");
    assert!(!d.join("secrets/bid.secret").exists());
    both_accept(&d.join("log.jsonl"));
}
