//! Deadlines through the real binary: the reminder, the late notices and
//! the no-orders policy, each logged once and mailed once, with short
//! deadlines (seconds) so the test runs in real time.

mod daemon_support;

use chrono::{DateTime, Utc};
use daemon_support::{Env, TURN_ORDER, player_address, text};

/// The `deadline` entries of a match: (event, power, stage).
fn deadline_events(env: &Env, id: &str) -> Vec<(String, String, u64)> {
    env.entries(id)
        .into_iter()
        .filter(|e| e["kind"] == "deadline")
        .map(|e| {
            (
                e["body"]["event"].as_str().unwrap().to_owned(),
                e["body"]["power"].as_str().unwrap().to_owned(),
                e["body"]["stage"].as_u64().unwrap(),
            )
        })
        .collect()
}

fn ev(list: &[(&str, &str, u64)]) -> Vec<(String, String, u64)> {
    list.iter()
        .map(|(e, p, s)| (e.to_string(), p.to_string(), *s))
        .collect()
}

/// The time of the first entry of `kind`.
fn time_of(env: &Env, id: &str, kind: &str) -> DateTime<Utc> {
    let e = env
        .entries(id)
        .into_iter()
        .find(|e| e["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} entry"));
    DateTime::parse_from_rfc3339(e["time"].as_str().unwrap())
        .unwrap()
        .with_timezone(&Utc)
}

/// Sleeps until `at` (no-op if it passed).
fn sleep_until(at: DateTime<Utc>) {
    if let Ok(d) = (at - Utc::now()).to_std() {
        std::thread::sleep(d);
    }
}

#[test]
fn reminder_then_late_notices_and_the_match_waits() {
    let env = Env::new(
        "deadline-wait",
        Some("deadlines: {stage: 10s, reminder_before: 5s}\n"),
    );
    env.new_match("dw");
    env.run_once();
    let start = time_of(&env, "dw", "welcome");
    // The stage's deadline is set when it starts, from the welcome.
    assert_eq!(deadline_events(&env, "dw"), ev(&[("set", "Germany", 1)]));

    sleep_until(start + chrono::Duration::milliseconds(5_500));
    env.run_once();
    assert_eq!(
        deadline_events(&env, "dw"),
        ev(&[("set", "Germany", 1), ("reminder", "Germany", 1)])
    );
    let germany = player_address("dw", "Germany");
    let reminders: Vec<_> = env
        .sent()
        .into_iter()
        .filter(|s| s.subject.contains("Reminder"))
        .collect();
    assert_eq!(reminders.len(), 1, "{reminders:#?}");
    assert_eq!(reminders[0].to, germany);
    assert!(
        reminders[0]
            .subject
            .starts_with("[dw round 1 Germany] Reminder: your stage 1 orders are due by "),
        "{}",
        reminders[0].subject
    );
    assert!(
        reminders[0].body.contains("the match waits for you"),
        "{}",
        reminders[0].body
    );

    sleep_until(start + chrono::Duration::milliseconds(10_500));
    env.run_once();
    env.run_once();
    assert_eq!(
        deadline_events(&env, "dw"),
        ev(&[
            ("set", "Germany", 1),
            ("reminder", "Germany", 1),
            ("late", "Germany", 1)
        ]),
        "each event once, however often the daemon looks"
    );
    let late: Vec<_> = env
        .sent()
        .into_iter()
        .filter(|s| s.subject.contains("Late") || s.subject.contains("is late"))
        .collect();
    assert_eq!(late.len(), 4, "the player and the three others: {late:#?}");
    let to_player = late.iter().find(|s| s.to == germany).unwrap();
    assert!(
        to_player
            .subject
            .contains("Late: your stage 1 orders were due by")
    );
    assert!(
        to_player.body.contains("The match waits"),
        "{}",
        to_player.body
    );
    for (power, _) in &TURN_ORDER[1..] {
        let other = late
            .iter()
            .find(|s| s.to == player_address("dw", power))
            .unwrap_or_else(|| panic!("no late notice to {power}"));
        assert!(
            other.subject.ends_with("Germany is late with stage 1"),
            "{}",
            other.subject
        );
    }
    // The match waited: still Germany's stage 1, no orders in the log.
    assert!(!env.entries("dw").iter().any(|e| e["kind"] == "order"));

    // Late orders are still accepted; the next stage's deadline is logged
    // before the reports, which quote it.
    let secret = env.secret("dw", "Germany");
    let (_, body) = daemon_support::burst_orders("dw", 0, &|_| secret.clone());
    env.drop_mail(
        1,
        &daemon_support::mail(
            &germany,
            &daemon_support::orders_to("dw"),
            "late-orders@p",
            "orders",
            &body,
        ),
    );
    env.run_once();
    let events = deadline_events(&env, "dw");
    assert_eq!(
        events.last().unwrap(),
        &("set".to_owned(), "Germany".to_owned(), 2)
    );
    let report = env
        .sent()
        .into_iter()
        .find(|s| s.subject.contains("Report") && s.to == germany)
        .expect("a report");
    assert!(report.body.contains("Deadline: "), "{}", report.body);
    assert!(
        report.body.contains("now sends stage 2"),
        "the battle-stage report asks for stage 2: {}",
        report.body
    );
    env.verify("dw");
}

#[test]
fn the_pass_policy_of_a_match_plays_the_stage_with_no_orders() {
    // No deadline in the daemon's configuration: the match's own settings
    // apply, with a player's time zone and an observer.
    let env = Env::new("deadline-pass", Some(""));
    let mut yaml = String::from(
        "match: dp\ndeadlines: {stage: 4s, reminder_before: 0s, no_orders: pass}\nobservers:\n  - {name: Umpire, email: umpire@league.test, time_zone: America/New_York}\nplayers:\n",
    );
    for (p, _) in TURN_ORDER {
        let tz = if p == "Germany" {
            ", time_zone: Europe/Berlin"
        } else {
            ""
        };
        yaml.push_str(&format!(
            "  {p}: {{name: {p} player, email: {}{tz}}}\n",
            player_address("dp", p)
        ));
    }
    let out = env.try_new_match("dp", &yaml);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.run_once();
    let start = time_of(&env, "dp", "welcome");
    sleep_until(start + chrono::Duration::milliseconds(4_500));
    env.run_once();
    let events = deadline_events(&env, "dp");
    assert_eq!(
        events,
        ev(&[
            ("set", "Germany", 1),
            ("late", "Germany", 1),
            ("passed", "Germany", 1),
            ("set", "Germany", 2)
        ]),
        "the next stage's deadline is set as it starts"
    );
    // The stage was played, as an order entry with no orders.
    let entries = env.entries("dp");
    let passed = entries
        .iter()
        .position(|e| e["kind"] == "deadline" && e["body"]["event"] == "passed")
        .unwrap();
    assert_eq!(
        entries[passed + 1]["kind"],
        "order",
        "the pass is logged before the stage"
    );
    assert!(
        entries[passed..]
            .iter()
            .any(|e| e["kind"] == "adjudication")
    );

    let sent = env.sent();
    let germany = player_address("dp", "Germany");
    let late = sent
        .iter()
        .find(|s| s.to == germany && s.subject.contains("Late"))
        .unwrap();
    assert!(
        late.body.contains("CET (Europe/Berlin)") || late.body.contains("CEST (Europe/Berlin)"),
        "the player's own time zone: {}",
        late.body
    );
    assert!(late.body.contains("played with no orders"), "{}", late.body);
    let umpire_late = sent
        .iter()
        .find(|s| s.to == "umpire@league.test" && s.subject.contains("is late"))
        .expect("observers hear of it too");
    assert!(
        umpire_late.body.contains("(America/New_York)"),
        "{}",
        umpire_late.body
    );
    let reports: Vec<_> = sent
        .iter()
        .filter(|s| s.subject.contains("(no orders by the deadline)"))
        .collect();
    assert_eq!(
        reports.len(),
        5,
        "four players and the observer: {reports:#?}"
    );
    assert!(reports.iter().any(|r| r.to == "umpire@league.test"));
    // Each report quotes the next stage's deadline in its reader's zone.
    let report_to = |to: &str| reports.iter().find(|r| r.to == to).unwrap();
    let g = report_to(&germany);
    assert!(g.body.contains("Deadline: "), "{}", g.body);
    assert!(g.body.contains("(Europe/Berlin))"), "{}", g.body);
    let u = report_to("umpire@league.test");
    assert!(u.body.contains("(America/New_York))"), "{}", u.body);
    let s = report_to(&player_address("dp", "Soviet Union"));
    assert!(
        s.body.contains("Deadline: ") && !s.body.contains("Europe/Berlin"),
        "{}",
        s.body
    );
    // `adjutant report` re-renders Germany's copy from the log alone.
    let adjudication = env
        .entries("dp")
        .into_iter()
        .find(|e| e["kind"] == "adjudication")
        .unwrap()["seq"]
        .as_u64()
        .unwrap();
    let out = env.adjutant(&[
        "report",
        "--match",
        env.data.join("matches/dp").to_str().unwrap(),
        "--entry",
        &adjudication.to_string(),
        "--time-zone",
        "Europe/Berlin",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rerendered = text(&out.stdout);
    assert!(rerendered.contains("(Europe/Berlin))"), "{rerendered}");
    assert!(
        g.body.contains(rerendered.trim_end()),
        "the mailed text part is the re-rendered report:\n{rerendered}\n---\n{}",
        g.body
    );

    // The next stage has its own clock: Germany's stage 2 passes too.
    let stage2_start = time_of(&env, "dp", "adjudication");
    sleep_until(stage2_start + chrono::Duration::milliseconds(4_500));
    env.run_once();
    let events = deadline_events(&env, "dp");
    assert_eq!(events.len(), 7, "{events:?}");
    assert_eq!(
        events[4..].to_vec(),
        ev(&[
            ("late", "Germany", 2),
            ("passed", "Germany", 2),
            ("set", "Soviet Union", 1)
        ])
    );
    assert_eq!(
        env.sent()
            .iter()
            .filter(|s| s.subject.contains("(no orders by the deadline)"))
            .count(),
        10
    );
    env.verify("dp");
    // Nothing is sent twice on another look.
    let before = env.sent().len();
    env.run_once();
    assert_eq!(env.sent().len(), before);
}

#[test]
fn bad_match_settings_are_refused_by_adjutant_new() {
    let env = Env::new("deadline-bad", Some(""));
    let mut yaml = String::from(
        "match: db\ndeadlines: {stage: soon, no_orders: skip}\nobservers:\n  - {name: U, email: nobody, time_zone: Mars/Olympus}\nplayers:\n",
    );
    for (p, _) in TURN_ORDER {
        yaml.push_str(&format!(
            "  {p}: {{name: {p} player, email: {}, time_zone: Europe/Berlinn}}\n",
            player_address("db", p)
        ));
    }
    let out = env.try_new_match("db", &yaml);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    for want in [
        "Germany: time_zone: \"Europe/Berlinn\" is not a time zone name",
        "observer U: \"nobody\" is not an email address",
        "observer U: time_zone",
        "deadlines.stage",
        "deadlines.no_orders",
    ] {
        assert!(err.contains(want), "{want}: {err}");
    }
}
