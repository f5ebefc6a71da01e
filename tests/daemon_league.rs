//! The league's commands on the real daemon path (issue 21, item 5):
//! `command: standings` (the standings of the league the match belongs to,
//! from the daemon's `leagues_dir`), `command: list` (the sender's
//! matches), `command: history` (an earlier turn report by round and stage
//! or by log entry), and an organiser's `draw` by mail, which the standings
//! count and both verifiers accept.

mod common;
mod daemon_support;

use daemon_support::{Env, TURN_ORDER, burst_orders, mail, orders_to, text};

const OLGA: &str = "olga@league.test";
const ALICE: &str = "alice@league.test";

/// Match `id`: Alice plays Germany, the others have addresses of their
/// own; Olga organises.
fn new_match(env: &Env, id: &str) {
    let mut yaml =
        format!("match: {id}\norganisers:\n  - {{name: Olga, email: {OLGA}}}\nplayers:\n");
    for (p, _) in TURN_ORDER {
        let email = if p == "Germany" {
            ALICE.to_owned()
        } else {
            daemon_support::player_address(id, p)
        };
        yaml.push_str(&format!("  {p}: {{name: {p} player, email: {email}}}\n"));
    }
    let out = env.try_new_match(id, &yaml);
    assert!(out.status.success(), "{}", text(&out.stderr));
}

fn olga_secret(env: &Env, id: &str) -> String {
    env.sent()
        .into_iter()
        .find(|s| s.to == OLGA && s.subject.contains(&format!("You organise {id}")))
        .unwrap_or_else(|| panic!("no organiser's mail for {id}"))
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("Your organiser's secret: "))
        .expect("a secret line")
        .trim()
        .to_owned()
}

/// Every mail to `to` whose subject contains `what`.
fn mails(env: &Env, to: &str, what: &str) -> Vec<daemon_support::Sent> {
    env.sent()
        .into_iter()
        .filter(|s| s.to == to && s.subject.contains(what))
        .collect()
}

fn one_mail(env: &Env, to: &str, what: &str) -> daemon_support::Sent {
    let found = mails(env, to, what);
    assert_eq!(
        found.len(),
        1,
        "mail to {to} about {what:?}: {:#?}",
        env.sent()
            .iter()
            .filter(|s| s.to == to)
            .map(|s| &s.subject)
            .collect::<Vec<_>>()
    );
    found.into_iter().next().unwrap()
}

/// A command from Alice (Germany) to match `id`.
fn alice(env: &Env, n: u64, id: &str, body: &str) {
    let secret = env.secret(id, "Germany");
    env.drop_mail(
        n,
        &mail(
            ALICE,
            &orders_to(id),
            &format!("alice-{n}@league.test"),
            "command",
            &format!("secret: {secret}\n{body}"),
        ),
    );
    env.run_once();
}

#[test]
fn standings_list_and_history_by_mail_and_a_draw_by_mail() {
    let env = Env::new("league", None);
    new_match(&env, "lg-1");
    new_match(&env, "lg-2");
    let leagues = env.data.join("leagues");
    std::fs::create_dir_all(&leagues).unwrap();
    std::fs::write(
        leagues.join("autumn.yaml"),
        "name: Autumn League\norganisers: [Olga]\nmatches: [lg-1, lg-2]\n",
    )
    .unwrap();
    // lg-1's log recorded no rules version, as logs from before versions
    // were: its organiser upgrades it by mail before play.
    let log = env.log("lg-1");
    let data = common::rechain(&std::fs::read(&log).unwrap(), |e| {
        if let adjutant::log::Body::Genesis(g) = &mut e.body {
            g.rules_version = None;
        }
    });
    std::fs::write(&log, data).unwrap();
    env.run_once();
    let olga1 = olga_secret(&env, "lg-1");
    env.drop_mail(
        5,
        &mail(
            OLGA,
            &orders_to("lg-1"),
            "olga-5@league.test",
            "organiser",
            &format!("match: lg-1\norganiser: Olga\nsecret: {olga1}\naction: upgrade\n"),
        ),
    );
    env.run_once();
    let up = env
        .entries("lg-1")
        .into_iter()
        .rfind(|e| e["kind"] == "organiser")
        .expect("the upgrade's entry");
    assert_eq!(up["body"]["action"], "upgrade");
    assert_eq!(
        up["body"]["to_version"],
        adjutant::rules::version::RULES_VERSION
    );
    one_mail(&env, ALICE, "Organiser: upgrade (Olga)");
    // A second one is refused in words: the match is at this version.
    env.drop_mail(
        6,
        &mail(
            OLGA,
            &orders_to("lg-1"),
            "olga-6@league.test",
            "organiser",
            &format!("match: lg-1\norganiser: Olga\nsecret: {olga1}\naction: upgrade\n"),
        ),
    );
    env.run_once();
    let r = one_mail(&env, OLGA, "Rejected");
    assert!(r.body.contains("already, this program's"), "{}", r.body);

    // Germany plays both stages of round 1 in lg-1.
    let secret = env.secret("lg-1", "Germany");
    for k in 0..2 {
        let (_, orders) = burst_orders("lg-1", k, &|_| secret.clone());
        env.drop_mail(
            10 + k as u64,
            &mail(
                ALICE,
                &orders_to("lg-1"),
                &format!("g-{k}@x"),
                "orders",
                &orders,
            ),
        );
        env.run_once();
    }
    let adjudications: Vec<u64> = env
        .entries("lg-1")
        .iter()
        .filter(|e| e["kind"] == "adjudication")
        .map(|e| e["seq"].as_u64().unwrap())
        .collect();
    assert_eq!(adjudications.len(), 2);

    // Olga adjudicates lg-2 a draw, by mail.
    let olga = olga_secret(&env, "lg-2");
    env.drop_mail(
        20,
        &mail(
            OLGA,
            &orders_to("lg-2"),
            "olga-20@league.test",
            "organiser",
            &format!(
                "match: lg-2\norganiser: Olga\nsecret: {olga}\naction: draw\nreason: agreed by both sides\n"
            ),
        ),
    );
    env.run_once();
    let draw = env
        .entries("lg-2")
        .into_iter()
        .rfind(|e| e["kind"] == "organiser")
        .expect("the draw's entry");
    assert_eq!(draw["body"]["action"], "draw");
    assert_eq!(draw["body"]["via"], "mail");
    let done = mails(&env, OLGA, "Organiser: done")
        .into_iter()
        .find(|m| m.body.contains("draw"))
        .expect("the draw's reply");
    assert!(
        done.body.contains("adjudicated the match a draw"),
        "{}",
        done.body
    );
    one_mail(&env, ALICE, "Organiser: draw (Olga)");
    env.verify("lg-2");

    // Standings by mail: the league's table, the draw counted.
    alice(&env, 30, "lg-1", "command: standings\n");
    let s = one_mail(&env, ALICE, "standings");
    assert!(s.body.contains("Standings of Autumn League"), "{}", s.body);
    assert!(
        s.body.contains(
            "lg-2 (aae): drawn (adjudicated by the organisers: agreed by both sides; log entry"
        ),
        "{}",
        s.body
    );
    assert!(s.body.contains("lg-1 (aae): being played"), "{}", s.body);
    let alice_row = s
        .body
        .lines()
        .find(|l| l.starts_with("Germany player"))
        .unwrap_or_else(|| panic!("{}", s.body))
        .split_whitespace()
        .skip(2)
        .take(5)
        .collect::<Vec<_>>()
        .join(" ");
    // won, lost, drawn, now, points.
    assert_eq!(alice_row, "0 0 1 1 0.5", "{}", s.body);

    // List: both of Alice's matches, their state and deadline.
    alice(&env, 31, "lg-2", "command: list\n");
    let l = one_mail(&env, ALICE, "] list");
    assert!(l.body.contains("lg-1: you play Germany"), "{}", l.body);
    assert!(
        l.body
            .contains("round 1, Soviet Union to move (stage 1); deadline none set"),
        "{}",
        l.body
    );
    assert!(l.body.contains("lg-2: you play Germany"), "{}", l.body);
    assert!(l.body.contains("drawn (adjudicated"), "{}", l.body);

    // History by round and stage, then by entry.
    alice(&env, 32, "lg-1", "command: history\nround: 1\nstage: 1\n");
    let h = one_mail(&env, ALICE, "History: Germany stage 1 of round 1");
    assert!(
        h.subject
            .contains(&format!("(log entry {})", adjudications[0])),
        "{}",
        h.subject
    );
    assert!(h.body.contains("Germany"), "{}", h.body);
    alice(
        &env,
        33,
        "lg-1",
        &format!("command: history\nentry: {}\n", adjudications[1]),
    );
    let h2 = one_mail(&env, ALICE, "History: Germany stage 2 of round 1");
    assert_ne!(h.body, h2.body);
    // The whole round: both reports, again (each its own mail).
    alice(&env, 34, "lg-1", "command: history\nround: 1\n");
    assert_eq!(mails(&env, ALICE, "History: Germany").len(), 4);

    // Asking for what is not there: rejected in words, with what is.
    alice(&env, 35, "lg-1", "command: history\nentry: 1\n");
    let r = one_mail(&env, ALICE, "Rejected");
    assert!(
        r.body
            .contains("entry 1 is not the adjudication of a played stage")
            && r.body.contains(&format!(
                "the latest reports are entries {}, {}",
                adjudications[0], adjudications[1]
            )),
        "{}",
        r.body
    );
    alice(&env, 36, "lg-1", "command: history\nround: 9\n");
    let r = mails(&env, ALICE, "Rejected");
    assert!(
        r.iter().any(|m| m
            .body
            .contains("round 9 has no report; the reports so far are of rounds 1 to 1")),
        "{r:#?}"
    );
    alice(&env, 37, "lg-1", "command: history\n");
    assert!(
        mails(&env, ALICE, "Rejected")
            .iter()
            .any(|m| m.body.contains("history needs round:")),
    );
    // stage: with another command, or with orders, is refused.
    alice(&env, 38, "lg-1", "command: status\nstage: 1\n");
    assert!(mails(&env, ALICE, "Rejected").iter().any(|m| {
        m.body
            .contains("stage: and entry: go only with command: history")
    }),);

    // A match in no league says so.
    let lone = env.data.join("leagues").join("autumn.yaml");
    std::fs::write(&lone, "name: Autumn League\nmatches: [lg-2]\n").unwrap();
    alice(&env, 39, "lg-1", "command: standings\n");
    assert!(mails(&env, ALICE, "standings").iter().any(|m| {
        m.body
            .contains("Match lg-1 belongs to no league on this server")
    }),);

    env.verify("lg-1");
    env.verify("lg-2");
}
