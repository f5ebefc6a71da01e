//! Organisers through the real binary and the real daemon path: their
//! secrets by mail, every action by mail and by `adjutant organise`, each an
//! `organiser` entry that both verifiers accept, the notices to the players,
//! the effect on deadlines (pause, resume, extend, absence), a replacement
//! player's new secret (the old one refused), the end of a match, and the
//! escalation after missed deadlines.

mod daemon_support;

use chrono::{DateTime, Utc};
use daemon_support::{Env, TURN_ORDER, mail, orders_to, player_address, text};

const OLGA: &str = "olga@league.test";

/// Creates match `id` with four players, the organiser Olga and `extra`
/// lines (deadlines).
fn new_match(env: &Env, id: &str, extra: &str) -> std::path::PathBuf {
    let mut yaml =
        format!("match: {id}\n{extra}organisers:\n  - {{name: Olga, email: {OLGA}}}\nplayers:\n");
    for (p, _) in TURN_ORDER {
        yaml.push_str(&format!(
            "  {p}: {{name: {p} player, email: {}}}\n",
            player_address(id, p)
        ));
    }
    let out = env.try_new_match(id, &yaml);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.data.join("matches").join(id)
}

/// Olga's secret, from her organiser's mail.
fn olga_secret(env: &Env, id: &str) -> String {
    let m = env
        .sent()
        .into_iter()
        .find(|s| s.to == OLGA && s.subject.contains("your secret"))
        .unwrap_or_else(|| panic!("no organiser's mail for {id}"));
    m.body
        .lines()
        .find_map(|l| l.trim().strip_prefix("Your organiser's secret: "))
        .expect("a secret line")
        .trim()
        .to_owned()
}

/// The entries of `kind`.
fn of_kind(env: &Env, id: &str, kind: &str) -> Vec<serde_json::Value> {
    env.entries(id)
        .into_iter()
        .filter(|e| e["kind"] == kind)
        .collect()
}

/// The due of the last `set` deadline entry.
fn last_due(env: &Env, id: &str) -> DateTime<Utc> {
    let set = of_kind(env, id, "deadline")
        .into_iter()
        .rev()
        .find(|e| e["body"]["event"] == "set")
        .expect("a set entry");
    DateTime::parse_from_rfc3339(set["body"]["due"].as_str().unwrap())
        .unwrap()
        .with_timezone(&Utc)
}

fn organise(env: &Env, dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["organise", "--match", dir.to_str().unwrap(), "--as", "olga"];
    all.extend_from_slice(args);
    env.adjutant(&all)
}

/// Mail from Olga with her secret and `body` after it.
fn olga_mail(env: &Env, n: u64, id: &str, secret: &str, body: &str) {
    env.drop_mail(
        n,
        &mail(
            OLGA,
            &orders_to(id),
            &format!("olga-{n}@league.test"),
            "organiser",
            &format!("match: {id}\norganiser: Olga\nsecret: {secret}\n{body}"),
        ),
    );
}

/// The mail to `to` whose subject contains `what` and whose body contains
/// `saying` (the sent mail is named by its content, so not in time order).
fn mail_to(env: &Env, to: &str, what: &str, saying: &str) -> daemon_support::Sent {
    env.sent()
        .into_iter()
        .find(|s| s.to == to && s.subject.contains(what) && s.body.contains(saying))
        .unwrap_or_else(|| {
            let to_them: Vec<(String, String)> = env
                .sent()
                .into_iter()
                .filter(|s| s.to == to)
                .map(|s| (s.subject, s.body))
                .collect();
            panic!("no mail to {to} about {what:?} saying {saying:?}: {to_them:#?}")
        })
}

/// No Rust debug output in a mail: errors are in words.
fn in_words(body: &str) {
    for debug in ["Some(", "None", "Err(", "Ok(", "{ ", "\\\""] {
        assert!(!body.contains(debug), "debug output {debug:?} in {body}");
    }
}

#[test]
fn every_organiser_action_by_mail_and_command_line_is_logged_mailed_and_verified() {
    let env = Env::new("organisers", None);
    let dir = new_match(
        &env,
        "org",
        "deadlines: {stage: 72h, reminder_before: 0s}\n",
    );
    env.run_once();
    let secret = olga_secret(&env, "org");
    env.verify("org");

    // A wrong secret: refused, nothing done.
    olga_mail(
        &env,
        1,
        "org",
        "bokat-firum-zadol-mipes-hunav",
        "action: pause\n",
    );
    env.run_once();
    assert!(of_kind(&env, "org", "organiser").is_empty());
    let refused = mail_to(&env, OLGA, "Refused", "secret is missing or wrong");
    assert!(
        refused.body.contains("secret is missing or wrong"),
        "{}",
        refused.body
    );

    // A player's secret is no organiser's.
    let germany_secret = env.secret("org", "Germany");
    olga_mail(&env, 2, "org", &germany_secret, "action: pause\n");
    env.run_once();
    assert!(of_kind(&env, "org", "organiser").is_empty());

    // An action that does not exist: every action listed, in words.
    olga_mail(&env, 3, "org", &secret, "action: freeze\n");
    env.run_once();
    let rejected = mail_to(&env, OLGA, "Rejected", "freeze");
    assert!(
        rejected
            .body
            .contains("\"freeze\" is not an organiser's action")
            && rejected.body.contains("extend (power, by, until, reason)"),
        "{}",
        rejected.body
    );
    in_words(&rejected.body);

    // Pause by mail: the entry, the reply, a notice to everyone.
    let due_before = last_due(&env, "org");
    olga_mail(
        &env,
        4,
        "org",
        &secret,
        "action: pause\nreason: server move\n",
    );
    env.run_once();
    let org = of_kind(&env, "org", "organiser");
    assert_eq!(org.len(), 1);
    assert_eq!(org[0]["body"]["action"], "pause");
    assert_eq!(org[0]["body"]["via"], "mail");
    assert_eq!(org[0]["body"]["organiser"], "Olga");
    assert_eq!(org[0]["body"]["text"], "server move");
    assert!(org[0]["body"]["mail_sha256"].is_string());
    let done = mail_to(&env, OLGA, "Organiser: done", "paused");
    assert!(
        done.body.contains("Olga (organiser) paused the match"),
        "{}",
        done.body
    );
    assert!(done.body.contains("Reason: server move"), "{}", done.body);
    for (p, _) in TURN_ORDER {
        let n = mail_to(
            &env,
            &player_address("org", p),
            "Organiser: pause (Olga)",
            "",
        );
        assert!(n.body.contains("paused the match"), "{}", n.body);
    }
    // The same mail again (a duplicate) changes nothing.
    olga_mail(
        &env,
        4,
        "org",
        &secret,
        "action: pause\nreason: server move\n",
    );
    env.run_once();
    assert_eq!(of_kind(&env, "org", "organiser").len(), 1);
    // Status while paused says so.
    let g = player_address("org", "Germany");
    env.drop_mail(
        5,
        &mail(
            &g,
            &orders_to("org"),
            "g-5@x",
            "status",
            &format!("secret: {germany_secret}\ncommand: status\n"),
        ),
    );
    env.run_once();
    let status = mail_to(&env, &g, "status", "paused");
    assert!(
        status.body.contains("none while the match is paused"),
        "{}",
        status.body
    );

    // A second pause is refused in words; resume moves the deadline on.
    let out = organise(&env, &dir, &["pause"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("already paused"),
        "{}",
        text(&out.stderr)
    );
    std::thread::sleep(std::time::Duration::from_millis(1100));
    let out = organise(&env, &dir, &["resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("resumed the match"));
    let due_resumed = last_due(&env, "org");
    assert!(due_resumed > due_before, "{due_resumed} after {due_before}");

    // Extend on the command line, by 48 hours.
    let out = organise(
        &env,
        &dir,
        &["extend", "--by", "48h", "--reason", "holiday"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        last_due(&env, "org"),
        due_resumed + chrono::Duration::hours(48)
    );
    let ext = of_kind(&env, "org", "organiser").pop().unwrap();
    assert_eq!(ext["body"]["via"], "server");
    assert_eq!(ext["body"]["power"], "Germany");
    // Only the current stage's power, and never into the past.
    let out = organise(
        &env,
        &dir,
        &["extend", "--power", "Soviet Union", "--by", "1h"],
    );
    assert!(
        text(&out.stderr).contains("only the current stage's deadline"),
        "{}",
        text(&out.stderr)
    );
    let out = organise(&env, &dir, &["extend", "--until", "2001-01-01"]);
    assert!(
        text(&out.stderr).contains("not in the future"),
        "{}",
        text(&out.stderr)
    );
    env.run_once();
    let n = mail_to(&env, &g, "Organiser: extend (Olga)", "");
    assert!(
        n.body.contains("extended the deadline of Germany's stage"),
        "{}",
        n.body
    );

    // Replace the Soviet player: new address and secret, the old refused.
    let old_address = player_address("org", "Soviet Union");
    let old_secret = env.secret("org", "Soviet Union");
    let out = organise(
        &env,
        &dir,
        &[
            "replace",
            "--power",
            "soviet union",
            "--name",
            "Nina",
            "--email",
            "nina@league.test",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let players = std::fs::read_to_string(dir.join("players.yaml")).unwrap();
    assert!(
        players.contains("nina@league.test") && !players.contains(&old_address),
        "{players}"
    );
    assert!(
        players.contains("organisers:"),
        "the rest of the file stays: {players}"
    );
    env.run_once();
    let welcome = mail_to(
        &env,
        "nina@league.test",
        "Welcome: you play Soviet Union",
        "",
    );
    let nina_secret = welcome
        .body
        .lines()
        .find_map(|l| l.trim().strip_prefix("Your secret: "))
        .expect("the new secret")
        .trim()
        .to_owned();
    assert_ne!(nina_secret, old_secret);
    let notice = mail_to(&env, &g, "Organiser: replace (Olga)", "");
    assert!(
        notice.body.contains("Nina plays it from now on"),
        "{}",
        notice.body
    );
    // The player who left is told too.
    mail_to(
        &env,
        &old_address,
        "Organiser: replace (Olga)",
        "Nina plays it from now on",
    );
    env.drop_mail(
        6,
        &mail(
            &old_address,
            &orders_to("org"),
            "old-6@x",
            "status",
            &format!("secret: {old_secret}\ncommand: status\n"),
        ),
    );
    env.drop_mail(
        7,
        &mail(
            "nina@league.test",
            &orders_to("org"),
            "nina-7@x",
            "status",
            &format!("secret: {nina_secret}\ncommand: status\n"),
        ),
    );
    env.run_once();
    assert!(
        env.sent()
            .iter()
            .all(|s| !(s.to == old_address && s.subject.ends_with("status")))
    );
    let status = mail_to(&env, "nina@league.test", "status", "");
    assert!(status.body.contains("Deadline:"), "{}", status.body);

    // Olga's secret from another address: done, and Olga is told.
    env.drop_mail(
        11,
        &mail(
            "someone@elsewhere.test",
            &orders_to("org"),
            "else-11@x",
            "organiser",
            &format!("organiser: Olga\nsecret: {secret}\naction: extend\nby: 1h\n"),
        ),
    );
    env.run_once();
    mail_to(
        &env,
        OLGA,
        "Your organiser's secret was used from another address",
        "someone@elsewhere.test",
    );

    // A ruling by mail, about entry 1, mailed to everyone with its text.
    olga_mail(
        &env,
        8,
        "org",
        &secret,
        "action: ruling\nentry: 1\ntext: \"The Soviet player was replaced for inactivity.\"\n",
    );
    env.run_once();
    let ruling = mail_to(&env, "nina@league.test", "Organiser: ruling (Olga)", "");
    assert!(
        ruling
            .body
            .contains("The Soviet player was replaced for inactivity."),
        "{}",
        ruling.body
    );
    // A ruling about an entry not in the log: in words.
    olga_mail(
        &env,
        9,
        "org",
        &secret,
        "action: ruling\nentry: 999\ntext: x\n",
    );
    env.run_once();
    let r = mail_to(&env, OLGA, "Rejected", "999");
    assert!(r.body.contains("entry 999 is not in the log"), "{}", r.body);

    // Absence on the command line (extend by default).
    let out = organise(
        &env,
        &dir,
        &[
            "absent",
            "--power",
            "Germany",
            "--from",
            "2099-01-01",
            "--until",
            "2099-01-14",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let abs = of_kind(&env, "org", "organiser").pop().unwrap();
    assert_eq!(abs["body"]["until"], "2099-01-15T00:00:00Z");
    assert_eq!(abs["body"]["absence"], "extend");

    // A power forfeits, then the Axis resigns: the match ends.
    let out = organise(
        &env,
        &dir,
        &["forfeit", "--power", "United States", "--side", "Allies"],
    );
    assert!(
        text(&out.stderr).contains("one of them"),
        "{}",
        text(&out.stderr)
    );
    let out = organise(
        &env,
        &dir,
        &["resign", "--side", "axis", "--reason", "conceded"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Axis resigns the match"),
        "{}",
        text(&out.stdout)
    );
    let out = organise(&env, &dir, &["pause"]);
    assert!(
        text(&out.stderr).contains("only a ruling can follow"),
        "{}",
        text(&out.stderr)
    );
    let (_, orders) = daemon_support::burst_orders("org", 0, &|_| germany_secret.clone());
    env.drop_mail(
        10,
        &mail(&g, &orders_to("org"), "g-10@x", "orders", &orders),
    );
    env.run_once();
    let r = mail_to(&env, &g, "Rejected", "ended");
    assert!(
        r.body.contains("the match ended at log entry"),
        "{}",
        r.body
    );
    assert!(of_kind(&env, "org", "order").is_empty());

    env.verify("org");
    let shown = env.adjutant(&["log", "show", env.log("org").to_str().unwrap()]);
    assert!(
        text(&shown.stdout)
            .contains("organiser Olga (server): Olga (organiser) recorded that Axis resigns")
    );
}

#[test]
fn pause_stops_deadlines_and_absence_play_and_forfeit_play_with_no_orders() {
    let env = Env::new("organisers-clock", None);
    let dir = new_match(
        &env,
        "clk",
        "deadlines: {stage: 2s, reminder_before: 0s, absence: play}\n",
    );
    env.run_once();
    let out = organise(&env, &dir, &["pause"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    std::thread::sleep(std::time::Duration::from_millis(2500));
    env.run_once();
    let events: Vec<String> = of_kind(&env, "clk", "deadline")
        .iter()
        .map(|e| e["body"]["event"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(events, ["set"], "no late notice while paused");

    // Germany's player is away (the match plays for them): resumed, the
    // stage is played with no orders at once, both stages.
    let out = organise(
        &env,
        &dir,
        &["absent", "--power", "Germany", "--until", "2099-01-01"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    organise(&env, &dir, &["resume"]);
    env.run_once();
    let adj: Vec<(String, u64)> = of_kind(&env, "clk", "adjudication")
        .iter()
        .map(|e| {
            (
                e["body"]["power"].as_str().unwrap().to_owned(),
                e["body"]["stage"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(adj, [("Germany".to_owned(), 1), ("Germany".to_owned(), 2)]);

    // The Soviet Union forfeits: played with no orders too.
    let out = organise(&env, &dir, &["forfeit", "--power", "Soviet Union"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    env.run_once();
    let powers: Vec<String> = of_kind(&env, "clk", "adjudication")
        .iter()
        .map(|e| e["body"]["power"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(
        powers,
        ["Germany", "Germany", "Soviet Union", "Soviet Union"]
    );
    env.verify("clk");
}

#[test]
fn missed_deadlines_alert_the_organisers_and_the_policy_applies() {
    let env = Env::new("organisers-escalation", None);
    new_match(
        &env,
        "esc",
        "deadlines: {stage: 2s, reminder_before: 0s, escalate_after: 1, escalation: standing}\n",
    );
    new_match(
        &env,
        "fft",
        "deadlines: {stage: 2s, reminder_before: 0s, escalate_after: 1, escalation: forfeit}\n",
    );
    env.run_once();
    std::thread::sleep(std::time::Duration::from_millis(2500));
    env.run_once();
    for (id, policy) in [("esc", "standing"), ("fft", "forfeit")] {
        let esc = of_kind(&env, id, "escalation");
        assert_eq!(esc.len(), 1, "{id}");
        assert_eq!(esc[0]["body"]["power"], "Germany");
        assert_eq!(esc[0]["body"]["missed"], 1);
        assert_eq!(esc[0]["body"]["policy"], policy);
        // Germany's stage 1 was played with no orders right away.
        let adj = of_kind(&env, id, "adjudication");
        assert_eq!(adj[0]["body"]["power"], "Germany", "{id}");
        let alert = env
            .sent()
            .into_iter()
            .find(|s| {
                s.to == OLGA
                    && s.subject
                        .contains(&format!("[{id}] Germany missed 1 deadlines"))
            })
            .unwrap_or_else(|| panic!("no alert to the organiser of {id}"));
        assert!(
            alert.body.contains("Germany has missed 1 deadlines"),
            "{}",
            alert.body
        );
        env.verify(id);
    }
    // Forfeit: stage 2 too, at once; standing: stage 2 waits for its deadline.
    assert_eq!(of_kind(&env, "fft", "adjudication").len(), 2);
    assert_eq!(of_kind(&env, "esc", "adjudication").len(), 1);
    // Forfeit revokes the power's secret: its player's status is refused.
    let fft_germany = env.secret("fft", "Germany");
    let g = player_address("fft", "Germany");
    env.drop_mail(
        1,
        &mail(
            &g,
            &orders_to("fft"),
            "fft-g-1@x",
            "status",
            &format!("secret: {fft_germany}\ncommand: status\n"),
        ),
    );
    env.run_once();
    mail_to(&env, &g, "Refused", "the secret is wrong");
}

#[test]
fn a_rollback_by_mail_replays_a_stage_with_a_new_dice_turn() {
    let env = Env::new("organisers-rollback", None);
    new_match(&env, "rb", "");
    env.run_once();
    let secret = olga_secret(&env, "rb");
    let germany_secret = env.secret("rb", "Germany");
    let g = player_address("rb", "Germany");
    let (_, orders) = daemon_support::burst_orders("rb", 0, &|_| germany_secret.clone());
    env.drop_mail(1, &mail(&g, &orders_to("rb"), "g-1@x", "orders", &orders));
    env.run_once();
    assert_eq!(of_kind(&env, "rb", "adjudication").len(), 1);

    // Back to the start: the stage is played again in a new dice turn.
    olga_mail(
        &env,
        2,
        "rb",
        &secret,
        "action: rollback\nentry: 1\nreason: wrong setup\n",
    );
    env.run_once();
    let done = mail_to(&env, OLGA, "Organiser: done", "rolled the match back");
    assert!(done.body.contains("Reason: wrong setup"), "{}", done.body);
    let notice = mail_to(&env, &g, "Organiser: rollback (Olga)", "");
    assert!(
        notice
            .body
            .contains("every die already shown stays as it was"),
        "{}",
        notice.body
    );
    let opens: Vec<u64> = of_kind(&env, "rb", "turn_open")
        .iter()
        .map(|e| e["body"]["turn"].as_u64().unwrap())
        .collect();
    assert_eq!(opens, [1, 2], "a new commitment for the stage played again");

    // The same orders again: a new turn, so a new digest, accepted.
    env.drop_mail(
        3,
        &mail(&g, &orders_to("rb"), "g-3@x", "orders again", &orders),
    );
    env.run_once();
    let adj = of_kind(&env, "rb", "adjudication");
    assert_eq!(adj.len(), 2);
    assert_eq!(adj[1]["body"]["turn"], 2);
    env.verify("rb");
}
