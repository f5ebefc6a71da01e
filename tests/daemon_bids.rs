//! Sealed bids through the real binary and the real daemon path: each
//! player mails `bid:`, gets a receipt whose commitment the Python tool
//! recomputes from the salt, the reveal is mailed to everyone, the seats
//! change hands with new secrets, the bid placement is played by mail, and
//! both verifiers accept the log.

mod daemon_support;

use std::path::Path;
use std::process::Command;

use daemon_support::{Env, mail, orders_to, text};

const GERD: &str = "gerd@players.test";
const ALICE: &str = "alice@players.test";

fn send(env: &Env, n: u64, from: &str, id: &str, power: &str, secret: &str, body: &str) {
    env.drop_mail(
        n,
        &mail(
            from,
            &orders_to(id),
            &format!("m{n}@players.test"),
            "orders",
            &format!("match: {id}\npower: {power}\nsecret: {secret}\n{body}"),
        ),
    );
    env.run_once();
}

/// The last mail to `to` whose subject contains `what`.
fn last_to(env: &Env, to: &str, what: &str) -> daemon_support::Sent {
    env.sent()
        .into_iter()
        .rfind(|s| s.to == to && s.subject.contains(what))
        .unwrap_or_else(|| panic!("no mail to {to} about {what:?}"))
}

fn line_after<'a>(body: &'a str, prefix: &str) -> &'a str {
    body.lines()
        .find_map(|l| l.trim().strip_prefix(prefix))
        .unwrap_or_else(|| panic!("no {prefix:?} line in {body}"))
        .trim()
}

#[test]
fn a_bid_for_sides_by_mail_is_sealed_revealed_and_placed() {
    let env = Env::new("bids", None);
    let id = "bid1";
    let yaml = format!(
        "match: {id}\nbid: {{kind: sides, side: Axis}}\nplayers:\n  Germany: {{name: Gerd, email: {GERD}}}\n  Soviet Union: {{name: Alice, email: {ALICE}}}\n  United Kingdom: {{name: Alice, email: {ALICE}}}\n  United States: {{name: Alice, email: {ALICE}}}\n"
    );
    let out = env.try_new_match(id, &yaml);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.run_once();
    let gerd = env.secret(id, "Germany");
    let alice = env.secret(id, "United Kingdom");

    // Orders before the reveal are refused, in words.
    send(
        &env,
        1,
        GERD,
        id,
        "Germany",
        &gerd,
        "purchase: 1 infantry\n",
    );
    let refused = last_to(&env, GERD, "Rejected");
    assert!(
        refused.body.contains("waits for the sealed bids"),
        "{}",
        refused.body
    );

    // Gerd bids 11: a receipt with the commitment and its salt, which the
    // independent tool turns back into the commitment.
    send(&env, 2, GERD, id, "Germany", &gerd, "bid: 11\n");
    let receipt = last_to(&env, GERD, "Sealed");
    let commitment = line_after(&receipt.body, "Commitment:");
    let salt = line_after(&receipt.body, "Salt:");
    let out = Command::new("python3")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py"))
        .args(["bid", id, "Axis", "11", salt])
        .output()
        .unwrap();
    assert_eq!(text(&out.stdout).trim(), commitment);
    // Nobody else learns the amount before the reveal.
    assert!(
        env.sent()
            .iter()
            .filter(|s| s.to == ALICE)
            .all(|s| !s.body.contains("11 IPCs"))
    );

    // Alice bids 6: the bids are revealed to both, Alice takes the Axis.
    send(&env, 3, ALICE, id, "United Kingdom", &alice, "bid: 6\n");
    for to in [GERD, ALICE] {
        let notice = last_to(&env, to, "Bids revealed");
        assert!(
            notice
                .body
                .contains("the Axis 11 IPCs, the Allies 6 IPCs; the Allies bid lower")
                && notice.body.contains("Germany: Alice"),
            "{}",
            notice.body
        );
    }
    // New secrets for the seats that changed hands; the old ones fail.
    let alice_germany = line_after(
        &last_to(&env, ALICE, "Welcome: you play Germany").body,
        "Your secret:",
    )
    .to_owned();
    send(
        &env,
        4,
        GERD,
        id,
        "Germany",
        &gerd,
        "place:\n  Germany: 2 infantry\n",
    );
    assert!(
        !env.entries(id).iter().any(|e| e["kind"] == "order"),
        "an old secret placed units"
    );
    send(
        &env,
        5,
        ALICE,
        id,
        "Germany",
        &alice_germany,
        "place:\n  Germany: 2 infantry\n",
    );
    let accepted = last_to(&env, ALICE, "Accepted");
    assert!(
        accepted
            .body
            .contains("Germany places 2 infantry in Germany"),
        "{}",
        accepted.body
    );
    env.verify(id);
}

const OLGA: &str = "olga@players.test";

/// A bid for sides between Gerd (the Axis) and Alice (the Allies), with
/// Olga organising; `extra` is more of the players file.
fn bid_match(env: &Env, id: &str, extra: &str) {
    let yaml = format!(
        "match: {id}\nbid: {{kind: sides, side: Axis}}\norganisers:\n  - {{name: Olga, email: {OLGA}}}\n{extra}players:\n  Germany: {{name: Gerd, email: {GERD}}}\n  Soviet Union: {{name: Alice, email: {ALICE}}}\n  United Kingdom: {{name: Alice, email: {ALICE}}}\n  United States: {{name: Alice, email: {ALICE}}}\n"
    );
    let out = env.try_new_match(id, &yaml);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.run_once();
}

fn olga_secret(env: &Env, id: &str) -> String {
    line_after(
        &last_to(env, OLGA, &format!("You organise {id}")).body,
        "Your organiser's secret:",
    )
    .to_owned()
}

/// An organiser's message to match `id`.
fn organiser(env: &Env, n: u64, id: &str, secret: &str, body: &str) {
    env.drop_mail(
        n,
        &mail(
            OLGA,
            &orders_to(id),
            &format!("olga-{n}@players.test"),
            "organiser",
            &format!("match: {id}\norganiser: Olga\nsecret: {secret}\n{body}"),
        ),
    );
    env.run_once();
}

/// The organiser reveals the bids by mail at their deadline: the action is
/// logged (an organiser entry, the reveal right after it), the organiser
/// is answered, every player gets the reveal as a last bid would bring it,
/// a second reveal is refused in words, and both verifiers accept the log.
#[test]
fn an_organiser_reveals_the_bids_by_mail() {
    let env = Env::new("bids-organiser", None);
    let id = "bid2";
    bid_match(&env, id, "");
    let gerd = env.secret(id, "Germany");
    let olga = olga_secret(&env, id);
    send(&env, 1, GERD, id, "Germany", &gerd, "bid: 8\n");
    organiser(
        &env,
        2,
        id,
        &olga,
        "action: reveal-bids\nreason: the bid deadline\n",
    );
    let done = last_to(&env, OLGA, "Organiser: done");
    assert!(
        done.body
            .contains("Olga (organiser) revealed the sealed bids at their deadline"),
        "{}",
        done.body
    );
    let entries = env.entries(id);
    let at = entries
        .iter()
        .position(|e| e["kind"] == "organiser" && e["body"]["action"] == "reveal_bids")
        .expect("the organiser's entry");
    assert_eq!(entries[at]["body"]["via"], "mail");
    assert_eq!(entries[at + 1]["kind"], "bid");
    assert_eq!(entries[at + 1]["body"]["step"], "reveal");
    for to in [GERD, ALICE, OLGA] {
        let notice = last_to(&env, to, "Bids revealed");
        assert!(
            notice.body.contains("the Axis 8 IPCs; the Axis bid lower"),
            "{}",
            notice.body
        );
    }
    assert!(
        last_to(&env, ALICE, "Organiser: reveal_bids (Olga)")
            .body
            .contains("Reason: the bid deadline")
    );
    organiser(&env, 3, id, &olga, "action: reveal-bids\n");
    let refused = last_to(&env, OLGA, "Rejected");
    assert!(
        refused
            .body
            .contains("no sealed bids wait for their reveal"),
        "{}",
        refused.body
    );
    env.verify(id);
}

/// With a stage deadline, the sealed bids wait a stage's time from the
/// welcome; then the daemon reveals the bids that are in (Alice did not
/// bid: she has no bid, and Gerd's bid takes the Axis), mails the reveal
/// to everyone, and the bid placement starts with its own deadline.
#[test]
fn the_daemon_reveals_the_bids_when_their_deadline_passes() {
    let env = Env::new("bids-deadline", Some(""));
    let id = "bid3";
    bid_match(&env, id, "deadlines: {stage: 3s, reminder_before: 0s}\n");
    let gerd = env.secret(id, "Germany");
    send(&env, 1, GERD, id, "Germany", &gerd, "bid: 5\n");
    // The players' help says what is awaited, and until when.
    let alice = env.secret(id, "Soviet Union");
    send(
        &env,
        2,
        ALICE,
        id,
        "Soviet Union",
        &alice,
        "command: help\n",
    );
    let help = last_to(&env, ALICE, "] help");
    let flat = help.body.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(
            "the match waits for the sealed bids of the Allies (a message with bid: N alone"
        ) && flat.contains("or at the bid deadline, "),
        "{}",
        help.body
    );
    // Before the deadline nothing is revealed.
    assert!(
        !env.entries(id)
            .iter()
            .any(|e| e["body"]["step"] == "reveal")
    );
    std::thread::sleep(std::time::Duration::from_millis(3_500));
    env.run_once();
    let entries = env.entries(id);
    let reveal = entries
        .iter()
        .find(|e| e["kind"] == "bid" && e["body"]["step"] == "reveal")
        .expect("the reveal at the deadline");
    assert_eq!(reveal["body"]["winner"], "Axis");
    assert!(!entries.iter().any(|e| e["kind"] == "organiser"));
    for to in [GERD, ALICE, OLGA] {
        let notice = last_to(&env, to, "Bids revealed");
        assert!(
            notice.body.contains("the Axis 5 IPCs; the Axis bid lower"),
            "{}",
            notice.body
        );
    }
    // The bid placement's own deadline runs from the reveal.
    assert!(
        entries
            .iter()
            .any(|e| e["kind"] == "deadline" && e["body"]["event"] == "set"),
        "{entries:#?}"
    );
    env.verify(id);
}
