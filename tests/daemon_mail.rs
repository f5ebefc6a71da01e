//! The mail daemon end to end on the file transport: `.eml` files in the
//! inbox, the real binary, replies read back from sent-mail/.

mod daemon_support;

use daemon_support::*;

fn kinds(env: &Env, id: &str) -> Vec<(String, String)> {
    env.entries(id)
        .iter()
        .map(|e| {
            let kind = e["kind"].as_str().unwrap().to_owned();
            let outcome = e["body"]["outcome"].as_str().unwrap_or("").to_owned();
            (kind, outcome)
        })
        .collect()
}

fn count(env: &Env, id: &str, kind: &str, outcome: &str) -> usize {
    kinds(env, id)
        .iter()
        .filter(|(k, o)| k == kind && o == outcome)
        .count()
}

#[test]
fn a_whole_turn_by_eml_files_on_the_embedded_default() {
    let env = Env::new("turn", None);
    env.new_match("t1");
    env.run_once();
    let welcomes = env.sent();
    assert_eq!(welcomes.len(), 4, "{welcomes:#?}");
    let secret = env.secret("t1", "Germany");
    let from = player_address("t1", "Germany");
    for k in 0..2 {
        let (_, body) = burst_orders("t1", k, &|_| secret.clone());
        env.drop_mail(
            k as u64,
            &mail(
                &from,
                &orders_to("t1"),
                &format!("g{k}@players.test"),
                "orders",
                &body,
            ),
        );
    }
    env.run_once();
    assert_eq!(env.pending(), 0);
    let sent = env.sent();
    let receipts: Vec<_> = sent
        .iter()
        .filter(|s| s.subject.contains("Accepted"))
        .collect();
    let reports: Vec<_> = sent
        .iter()
        .filter(|s| s.subject.contains("Report"))
        .collect();
    assert_eq!(receipts.len(), 2, "{sent:#?}");
    assert_eq!(reports.len(), 8, "{sent:#?}");
    assert_eq!(sent.len(), 14);
    let r1 = receipts
        .iter()
        .find(|s| s.subject.contains("stage 1"))
        .unwrap();
    assert_eq!(r1.to, from);
    assert!(
        r1.subject.starts_with("[t1 round 1 Germany]"),
        "{}",
        r1.subject
    );
    assert_eq!(r1.in_reply_to.as_deref(), Some("<g0@players.test>"));
    assert!(r1.headers.contains("Auto-Submitted: auto-replied"));
    assert!(r1.headers.contains("X-Adjutant-Loop: adjutant.localhost"));
    assert!(
        r1.body
            .contains("Your orders as understood:\n    purchase: 1 infantry"),
        "{}",
        r1.body
    );
    assert!(
        r1.body
            .contains("Digest these orders contributed to the dice of dice turn 1:\n    ")
    );
    assert!(
        !r1.body.contains(&secret),
        "a receipt never echoes the secret"
    );
    let head = r1
        .body
        .lines()
        .skip_while(|l| *l != "Log head:")
        .nth(1)
        .unwrap()
        .trim()
        .to_owned();
    let log = env.log("t1");
    let out = env.adjutant(&["verify", log.to_str().unwrap(), "--head", &head]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let rep = reports
        .iter()
        .find(|s| s.subject.contains("stage 2") && s.to == player_address("t1", "Soviet Union"))
        .unwrap();
    assert!(
        rep.body.contains("Germany placed 1 infantry in Germany"),
        "{}",
        rep.body
    );
    assert!(rep.body.contains("Soviet Union to move"), "{}", rep.body);
    assert!(
        // multipart/related when it carries the map, the alternatives inside
        (rep.headers.contains("multipart/alternative")
            || rep.body.contains("multipart/alternative"))
            && rep.body.contains("<!DOCTYPE html>"),
        "a report has a text and an HTML part: {}",
        rep.headers
    );
    assert_eq!(count(&env, "t1", "order", ""), 2);
    assert_eq!(count(&env, "t1", "received", "accepted"), 2);
    env.verify("t1");
    // Nothing new on a second pass.
    env.run_once();
    assert_eq!(env.sent().len(), 14);
}

#[test]
fn rejections_duplicates_secrets_commands_and_machines() {
    let env = Env::new("cases", Some(""));
    env.new_match("c1");
    env.run_once();
    let secret = env.secret("c1", "Germany");
    let germany = player_address("c1", "Germany");
    let to = orders_to("c1");
    let head = format!("match: c1\npower: Germany\nround: 1\nsecret: {secret}\n");

    // 1. Rejected: every error in one reply, nothing applied.
    env.drop_mail(
        1,
        &mail(
            &germany,
            &to,
            "bad@p",
            "orders",
            &format!("{head}purchase: 2 infantrie\ncombat:\n  - 1 armor: Germany -> Atlantis\n"),
        ),
    );
    // 2. The same stage-1 orders three times: twice the same bytes, once
    //    another text under the same Message-ID.
    let good = mail(
        &germany,
        &to,
        "dup@p",
        "orders",
        &format!("{head}purchase: 1 infantry\n"),
    );
    env.drop_mail(2, &good);
    env.drop_mail(3, &good);
    env.drop_mail(
        4,
        &mail(
            &germany,
            &to,
            "dup@p",
            "orders",
            &format!("{head}purchase: 2 infantry\n"),
        ),
    );
    // 3. Wrong secret from the player's own address: refused with a reply.
    env.drop_mail(5, &mail(&germany, &to, "wrong@p", "orders",
        "match: c1\npower: Germany\nsecret: bokat-firum-zadol-mipes-hunav\nplace:\n  Germany: 1 infantry\n"));
    // 4. A stranger, twice, without a valid secret: one notice only.
    for n in [6, 7] {
        env.drop_mail(
            n,
            &mail(
                "eve@elsewhere.test",
                &to,
                &format!("eve{n}@e"),
                "orders",
                "match: c1\npower: Germany\nsecret: guess\npurchase: 9 infantry\n",
            ),
        );
    }
    // 5. Machines: no reply at all.
    let auto = format!(
        "From: {germany}\r\nTo: {to}\r\nSubject: Out of office\r\nMessage-ID: <ooo@p>\r\n\
         Auto-Submitted: auto-replied\r\n\r\nI am away.\r\n"
    );
    env.drop_mail(8, auto.as_bytes());
    let bulk = format!(
        "From: news@list.test\r\nTo: {to}\r\nSubject: news\r\nMessage-ID: <bulk@p>\r\n\
         Precedence: bulk\r\n\r\nBuy now.\r\n"
    );
    env.drop_mail(9, bulk.as_bytes());
    // 6. A command, and the right secret from a new address.
    env.drop_mail(
        10,
        &mail(
            &germany,
            &to,
            "status@p",
            "status",
            &format!("{head}command: status\n"),
        ),
    );
    env.drop_mail(
        11,
        &mail(
            "gerda@laptop.test",
            &to,
            "new-address@p",
            "orders",
            &format!("{head}place:\n  Germany: 1 infantry\n"),
        ),
    );

    let before = env.sent().len();
    env.run_once();
    assert_eq!(env.pending(), 0);
    let sent: Vec<Sent> = env.sent();
    let new: Vec<&Sent> = sent
        .iter()
        .filter(|s| !s.subject.contains("Welcome"))
        .collect();
    assert_eq!(before, 4);

    let rejected: Vec<_> = new
        .iter()
        .filter(|s| s.in_reply_to.as_deref() == Some("<bad@p>"))
        .collect();
    assert_eq!(rejected.len(), 1, "{new:#?}");
    let body = &rejected[0].body;
    assert!(body.contains("Nothing was applied."), "{body}");
    assert!(body.contains("2 problems:"), "{body}");
    assert!(
        body.contains("infantrie") && body.contains("Atlantis"),
        "{body}"
    );
    assert!(body.contains("Deadline: "), "{body}");

    let dup: Vec<_> = new
        .iter()
        .filter(|s| s.in_reply_to.as_deref() == Some("<dup@p>"))
        .collect();
    assert_eq!(
        dup.len(),
        1,
        "one receipt for the duplicated message: {dup:#?}"
    );
    assert!(dup[0].body.contains("purchase: 1 infantry"));

    let wrong: Vec<_> = new
        .iter()
        .filter(|s| s.in_reply_to.as_deref() == Some("<wrong@p>"))
        .collect();
    assert_eq!(wrong.len(), 1);
    assert!(wrong[0].subject.contains("Refused"), "{}", wrong[0].subject);
    assert!(
        wrong[0].body.contains("the secret is wrong"),
        "{}",
        wrong[0].body
    );

    let eve: Vec<_> = new
        .iter()
        .filter(|s| s.to == "eve@elsewhere.test")
        .collect();
    assert_eq!(eve.len(), 1, "one rate-limited notice: {eve:#?}");
    assert!(eve[0].body.contains("not a player of match c1"));

    assert!(
        !new.iter()
            .any(|s| matches!(s.in_reply_to.as_deref(), Some("<ooo@p>" | "<bulk@p>")))
    );
    assert!(!new.iter().any(|s| s.to == "news@list.test"));

    let status: Vec<_> = new
        .iter()
        .filter(|s| s.in_reply_to.as_deref() == Some("<status@p>"))
        .collect();
    assert_eq!(status.len(), 1);
    assert!(status[0].body.contains("Germany"), "{}", status[0].body);

    let laptop: Vec<_> = new.iter().filter(|s| s.to == "gerda@laptop.test").collect();
    assert_eq!(laptop.len(), 1, "{laptop:#?}");
    assert!(
        laptop[0].subject.contains("Accepted: stage 2"),
        "{}",
        laptop[0].subject
    );
    let alert: Vec<_> = new
        .iter()
        .filter(|s| s.subject.contains("another address"))
        .collect();
    assert_eq!(alert.len(), 1);
    assert_eq!(alert[0].to, germany);
    assert!(alert[0].body.contains("gerda@laptop.test"));

    // The log: two stages applied (the duplicate once), one rejection, one
    // refusal, one notice, one command; machines unlogged.
    assert_eq!(count(&env, "c1", "order", ""), 2);
    assert_eq!(count(&env, "c1", "received", "accepted"), 2);
    assert_eq!(count(&env, "c1", "received", "rejected"), 1);
    assert_eq!(count(&env, "c1", "received", "refused"), 2);
    assert_eq!(count(&env, "c1", "received", "command"), 1);
    env.verify("c1");

    // Sending the duplicate again later changes nothing.
    env.drop_mail(12, &good);
    let n = env.sent().len();
    env.run_once();
    assert_eq!(env.sent().len(), n);
    assert_eq!(count(&env, "c1", "order", ""), 2);

    // `log show` knows the new kinds.
    let out = env.adjutant(&["log", "show", env.log("c1").to_str().unwrap()]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("received   accepted (Germany)"),
        "{}",
        text(&out.stdout)
    );
    assert!(text(&out.stdout).contains("welcome mails sent to Germany"));
}

#[test]
fn bidi_and_control_characters_in_orders_are_neutralised_in_replies_not_in_the_log() {
    let env = Env::new("bidi", Some(""));
    env.new_match("rl1");
    env.run_once();
    let secret = env.secret("rl1", "Germany");
    let germany = player_address("rl1", "Germany");
    let to = orders_to("rl1");
    let head = format!("match: rl1\npower: Germany\nround: 1\nsecret: {secret}\n");
    // A right-to-left override in a unit name (quoted by the rejection) and
    // in the entropy (quoted by the receipt as part of the orders).
    env.drop_mail(
        1,
        &mail(
            &germany,
            &to,
            "rlo-bad@p",
            "orders",
            &format!("{head}purchase: 2 infan\u{202e}try\n"),
        ),
    );
    env.drop_mail(
        2,
        &mail(
            &germany,
            &to,
            "rlo-good@p",
            "orders",
            &format!(
                "{head}entropy: \"for the \u{202e}dnalrehtaF\u{2066}\"\npurchase: 1 infantry\n"
            ),
        ),
    );
    env.run_once();
    let sent = env.sent();
    let reply = |id: &str| {
        sent.iter()
            .find(|s| s.in_reply_to.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no reply to {id}: {sent:#?}"))
    };
    let rejection = reply("<rlo-bad@p>");
    assert!(
        rejection
            .body
            .contains("\"infan<U+202E>try\" is not a unit"),
        "{}",
        rejection.body
    );
    assert!(
        rejection.body.contains("infan&lt;U+202E&gt;try"),
        "the HTML part too: {}",
        rejection.body
    );
    let receipt = reply("<rlo-good@p>");
    assert!(
        receipt
            .body
            .contains("entropy: \"for the <U+202E>dnalrehtaF<U+2066>\""),
        "{}",
        receipt.body
    );
    for s in &sent {
        let raw: Vec<char> = s
            .body
            .chars()
            .chain(s.subject.chars())
            .filter(|&c| {
                (c.is_control() && c != '\n' && c != '\t')
                    || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
            })
            .collect();
        assert!(raw.is_empty(), "{raw:?} in {}: {}", s.subject, s.body);
    }
    // The log keeps the exact text: the digest is over it.
    let entries = env.entries("rl1");
    let order = entries.iter().find(|e| e["kind"] == "order").unwrap();
    assert!(
        order["body"]["canonical"]
            .as_str()
            .unwrap()
            .contains("for the \u{202e}dnalrehtaF\u{2066}"),
        "{order}"
    );
    let rejected = entries
        .iter()
        .find(|e| e["body"]["outcome"] == "rejected")
        .unwrap();
    assert!(rejected.to_string().contains('\u{202e}'), "{rejected}");
    env.verify("rl1");
}

#[test]
fn odds_questions_by_mail_are_answered_exactly() {
    let env = Env::new("odds", Some(""));
    env.new_match("o1");
    env.run_once();
    let secret = env.secret("o1", "Soviet Union");
    let soviet = player_address("o1", "Soviet Union");
    let to = orders_to("o1");
    // Any player may ask at any time (it is not the Soviet turn).
    let body = format!(
        "match: o1\npower: Soviet Union\nsecret: {secret}\nodds:\n  - {{attackers: 1 infantry, defenders: 1 infantry}}\n  - {{attackers: 2 infantri, defenders: 1 infantry}}\n  - {{attackers: 3 infantry, defenders: 2 infantry, retreat: {{after_round: 1}}, battles: 99999999}}\n  - {{attackers: 1 fighter, defenders: [1 submarine, 1 destroyer], battles: 500000, monte_carlo: true}}\n  - {{attackers: 1 bomber, defenders: 1 infantry, attacker_developments: [heavy bombers]}}\n"
    );
    env.drop_mail(1, &mail(&soviet, &to, "odds@p", "chances?", &body));
    // Odds and orders together are refused.
    env.drop_mail(
        2,
        &mail(
            &soviet,
            &to,
            "mixed@p",
            "orders and odds",
            &format!("{body}purchase: 1 infantry\n"),
        ),
    );
    env.run_once();
    let sent = env.sent();
    let reply = sent
        .iter()
        .find(|s| s.in_reply_to.as_deref() == Some("<odds@p>"))
        .unwrap_or_else(|| panic!("no answer: {sent:#?}"));
    assert_eq!(reply.to, soviet);
    let b = &reply.body;
    assert!(b.contains("QUESTION 1") && b.contains("QUESTION 3"), "{b}");
    assert!(b.contains("Attacker wins     25.00%"), "{b}");
    assert!(b.contains("Both destroyed    12.50%"), "{b}");
    assert!(b.contains("infantri"), "the bad unit is named: {b}");
    // The simulation cap is mentioned only where a battle was simulated
    // (question 4, asked as a simulation: a labelled estimate).
    // (Counted in the plain-text part: the HTML part says it again.)
    let text_part = b.split("Content-Type: text/html").next().unwrap();
    assert_eq!(
        text_part.matches("battles lowered to 100000").count(),
        1,
        "{b}"
    );
    let q4 = &b[b.find("QUESTION 4").unwrap()..];
    assert!(
        q4.contains("battles lowered") && q4.contains("Monte Carlo"),
        "{q4}"
    );
    assert!(
        b.contains("Did you mean infantry?") || b.contains("did you mean infantry"),
        "{b}"
    );
    // Developments are read, and refused in a game without research.
    let q5 = &b[b.find("QUESTION 5").unwrap()..];
    assert!(
        q5.contains("attacker_developments:") && q5.contains("has no research and development"),
        "{q5}"
    );
    let mixed = sent
        .iter()
        .find(|s| s.in_reply_to.as_deref() == Some("<mixed@p>"))
        .unwrap();
    assert!(mixed.body.contains("separate messages"), "{}", mixed.body);
    // Logged as the command `odds`; nothing applied.
    assert_eq!(count(&env, "o1", "received", "command"), 1);
    assert_eq!(count(&env, "o1", "order", ""), 0);
    env.verify("o1");
}

#[test]
fn mail_for_no_match_gets_one_notice_a_day_across_restarts() {
    let env = Env::new("unrouted", Some(""));
    env.new_match("u1");
    env.run_once();
    for n in 0..3 {
        // A separate daemon process each time: the limit is on disk.
        env.drop_mail(
            n,
            &mail(
                "lost@elsewhere.test",
                "orders@adjutant.localhost",
                &format!("lost{n}@e"),
                "hello",
                "purchase: 1 infantry\n",
            ),
        );
        env.run_once();
    }
    let notices: Vec<_> = env
        .sent()
        .into_iter()
        .filter(|s| s.to == "lost@elsewhere.test")
        .collect();
    assert_eq!(notices.len(), 1, "{notices:#?}");
    assert_eq!(notices[0].subject, "Which match?");
    assert!(
        notices[0].body.contains("orders+MATCH@adjutant.localhost"),
        "{}",
        notices[0].body
    );
    let store = std::fs::read_to_string(env.data.join("unrouted-notices.json")).unwrap();
    assert!(!store.contains("lost@"), "hashes, not addresses: {store}");
    assert_eq!(env.pending(), 0);
}

#[test]
fn secret_rotation_and_bounces_are_recorded() {
    let env = Env::new("rotate", Some(""));
    env.new_match("r1");
    env.run_once();
    let old = env.secret("r1", "Germany");
    let germany = player_address("r1", "Germany");
    let to = orders_to("r1");
    let orders = |secret: &str| {
        format!("match: r1\npower: Germany\nround: 1\nsecret: {secret}\npurchase: 1 infantry\n")
    };
    // `rotate` from a new address: the new secret goes to the address of
    // record only.
    env.drop_mail(
        1,
        &mail(
            "gerda@laptop.test",
            &to,
            "rot@p",
            "rotate",
            &format!("match: r1\npower: Germany\nsecret: {old}\ncommand: rotate\n"),
        ),
    );
    env.run_once();
    let sent = env.sent();
    let rotated: Vec<_> = sent
        .iter()
        .filter(|s| s.body.contains("Your new secret for Germany"))
        .collect();
    assert_eq!(rotated.len(), 1, "{sent:#?}");
    assert_eq!(rotated[0].to, germany, "never to the asking address");
    let new = rotated[0]
        .body
        .lines()
        .map(str::trim)
        .find(|l| l.split('-').count() == 5 && !l.contains(' '))
        .expect("the new secret on its own line")
        .to_owned();
    assert_ne!(new, old);
    assert!(
        !sent
            .iter()
            .any(|s| s.to == "gerda@laptop.test" && s.body.contains(&new))
    );

    // The old secret is refused, the new one accepted.
    env.drop_mail(2, &mail(&germany, &to, "old@p", "orders", &orders(&old)));
    env.drop_mail(3, &mail(&germany, &to, "new@p", "orders", &orders(&new)));
    env.run_once();
    let sent = env.sent();
    let reply = |id: &str| {
        sent.iter()
            .find(|s| s.in_reply_to.as_deref() == Some(id))
            .unwrap_or_else(|| panic!("no reply to {id}: {sent:#?}"))
    };
    assert!(
        reply("<old@p>").subject.contains("Refused"),
        "{}",
        reply("<old@p>").subject
    );
    assert!(reply("<new@p>").subject.contains("Accepted: stage 1"));

    // A delivery status notification for mail to Germany's address: logged
    // against the player, never answered.
    let dsn = String::from_utf8(
        std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/fixtures/mail/dsn_bounce.eml"),
        )
        .unwrap(),
    )
    .unwrap()
    .replace("To: orders@adjutant.test", &format!("To: {to}"))
    .replace("frank@example.com", &germany);
    let before = env.sent().len();
    env.drop_mail(4, dsn.as_bytes());
    env.run_once();
    assert_eq!(env.sent().len(), before, "no reply to a bounce");
    let bounces: Vec<_> = env
        .entries("r1")
        .into_iter()
        .filter(|e| e["kind"] == "received" && e["body"]["outcome"] == "bounce")
        .collect();
    assert_eq!(bounces.len(), 1, "the bounce is in the log");
    assert_eq!(bounces[0]["body"]["power"], "Germany");
    let errors = bounces[0]["body"]["errors"].to_string();
    assert!(errors.contains("5.1.1"), "{errors}");
    assert!(
        !errors.contains(&germany),
        "addresses stay out of the log: {errors}"
    );
    env.verify("r1");
}

/// `adjutant run VERB --config` on `yaml` exits 2 naming every problem.
fn refused_config(name: &str, yaml: &str, verb: &str, wants: &[&str]) {
    let env = Env::new(name, Some(yaml));
    let out = env.adjutant(&[
        "run",
        verb,
        "--config",
        env.config.as_ref().unwrap().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    for want in wants {
        assert!(err.contains(want), "{want}: {err}");
    }
}

#[test]
fn a_bad_configuration_is_refused_with_every_problem() {
    refused_config(
        "badcfg",
        "mail: {domain: 'no domain'}\nlimits: {per_match_per_hour: 0}\ndeadlines: {stage: soon}\n",
        "--once",
        &[
            "3 problem(s)",
            "mail.domain",
            "limits.per_match_per_hour",
            "deadlines.stage",
        ],
    );
    // IMAP settings: every problem at once, before any connection.
    refused_config(
        "badimap",
        "inbound:\n  imap: {host: imap.example.org, security: plain, user: '', password_file: /nonexistent/pw, processed_folder: INBOX, timeout: 0s}\n",
        "--check",
        &[
            "5 problem(s)",
            "inbound.imap.security",
            "loopback",
            "inbound.imap.user",
            "inbound.imap.password_file",
            "inbound.imap.processed_folder",
            "inbound.imap.timeout",
        ],
    );
    refused_config("unknownkey", "inbox: x\n", "--check", &["inbox"]);
    let env = Env::new("badimap-pw", Some(""));
    // A server that is not there stops the daemon at start, with the reason.
    let pw = env.root.join("pw");
    std::fs::write(&pw, "x\n").unwrap();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = Env::new(
        "noimap",
        Some(&format!(
            "inbound:\n  imap: {{host: 127.0.0.1, port: {port}, security: plain, user: orders, password_file: {}, timeout: 5s}}\n",
            pw.display()
        )),
    );
    let out = env.adjutant(&[
        "run",
        "--once",
        "--config",
        env.config.as_ref().unwrap().to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(
        err.contains("cannot open the IMAP inbox orders@127.0.0.1"),
        "{err}"
    );
}

#[test]
fn ingest_delivers_and_processes_one_message() {
    let env = Env::new("ingest", Some(""));
    env.new_match("i1");
    env.run_once();
    let secret = env.secret("i1", "Germany");
    let (_, body) = burst_orders("i1", 0, &|_| secret.clone());
    let raw = mail(
        &player_address("i1", "Germany"),
        &orders_to("i1"),
        "ing@p",
        "orders",
        &body,
    );
    let mut child = env
        .command(&[
            "ingest",
            "--config",
            env.config.as_ref().unwrap().to_str().unwrap(),
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child.stdin.take().unwrap().write_all(&raw).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(env.pending(), 0);
    assert!(
        env.sent()
            .iter()
            .any(|s| s.subject.contains("Accepted: stage 1"))
    );
    env.verify("i1");
}

#[test]
fn ingest_refuses_an_empty_message_for_good() {
    let env = Env::new("ingest-empty", Some(""));
    let out = env
        .command(&[
            "ingest",
            "--config",
            env.config.as_ref().unwrap().to_str().unwrap(),
        ])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    // EX_DATAERR: the MTA returns the message instead of retrying it for ever.
    assert_eq!(out.status.code(), Some(65), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("empty message"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(env.pending(), 0, "nothing is delivered");
}
