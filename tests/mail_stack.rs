//! End to end on a real mail stack: Dovecot (IMAP) and an SMTP server
//! (aiosmtpd) on 127.0.0.1 deliver into the same Maildirs. Players send
//! their orders with a real SMTP client (Python's smtplib); the daemon
//! reads its mailbox over IMAP with IDLE and sends over SMTP with STARTTLS
//! and a login; the players read welcome mails, receipts and reports back
//! out of their own mailboxes over IMAP (Python's imaplib).

mod daemon_support;
mod mail_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use daemon_support::{Env, TURN_ORDER, burst_orders, player_address, text};
use mail_support::{Client, Dovecot, Process, SmtpServer, dovecot, openssl, python_with_aiosmtpd};

const ID: &str = "e2e";

fn user_of(address: &str) -> String {
    address.split('@').next().unwrap().to_owned()
}

fn password_of(user: &str) -> String {
    format!("pw-{user}")
}

#[test]
fn a_turn_by_smtp_and_imap_against_dovecot() {
    let (Some(bin), Some(openssl), Some(python)) = (dovecot(), openssl(), python_with_aiosmtpd())
    else {
        return;
    };
    let players: Vec<(String, String)> = TURN_ORDER
        .iter()
        .map(|(p, _)| (p.to_string(), user_of(&player_address(ID, p))))
        .collect();
    let mut users = vec![("orders".to_owned(), password_of("orders"))];
    users.extend(players.iter().map(|(_, u)| (u.clone(), password_of(u))));
    let user_refs: Vec<(&str, &str)> = users
        .iter()
        .map(|(u, p)| (u.as_str(), p.as_str()))
        .collect();

    let stack_root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mailstack-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&stack_root);
    let dove = Dovecot::start(&bin, &openssl, &stack_root, &user_refs);
    let smtp = SmtpServer::start(&python, &dove, ("adjutant", "smtp-secret"));
    let client = Client::new(&python, &dove);

    let secrets = stack_root.join("secrets");
    std::fs::create_dir_all(&secrets).unwrap();
    std::fs::write(secrets.join("imap.pw"), "pw-orders\n").unwrap();
    std::fs::write(secrets.join("smtp.pw"), "smtp-secret\n").unwrap();
    let ca = dove.certs.ca.display().to_string();
    // A long poll interval: new mail must wake the daemon through IDLE.
    let config = format!(
        "mail: {{domain: adjutant.test}}\n\
         poll_interval: 10m\n\
         inbound:\n  imap: {{host: 127.0.0.1, port: {}, security: tls, user: orders, password_file: {}, ca_file: {ca}}}\n\
         transport:\n  smtp: {{host: 127.0.0.1, port: {}, security: starttls, user: adjutant, password_file: {}, ca_file: {ca}}}\n",
        dove.imaps_port,
        secrets.join("imap.pw").display(),
        smtp.port,
        secrets.join("smtp.pw").display(),
    );
    let env = Env::new("stack", Some(&config));
    env.new_match(ID);

    let log_path = env.root.join("daemon.log");
    let log_file = std::fs::File::create(&log_path).unwrap();
    let daemon = Process(
        env.command(&[
            "run",
            "--config",
            env.config.as_ref().unwrap().to_str().unwrap(),
        ])
        .env("RUST_LOG", "info")
        .stdout(Stdio::null())
        .stderr(log_file)
        .spawn()
        .unwrap(),
    );
    let daemon_log = || mail_support::read_lossy(&log_path);

    // Every player gets a welcome mail with a secret, over SMTP into Dovecot.
    let mut secret = std::collections::HashMap::new();
    for (power, user) in &players {
        let got = client.wait_for(
            &dove,
            user,
            &password_of(user),
            60,
            "the welcome mail",
            |m| m.iter().any(|f| f.subject.contains("Welcome")),
        );
        let w = got.iter().find(|f| f.subject.contains("Welcome")).unwrap();
        assert_eq!(w.subject, format!("[{ID}] Welcome: you play {power}"));
        assert_eq!(w.auto_submitted, "auto-generated");
        let s = w
            .text
            .lines()
            .find_map(|l| l.trim().strip_prefix("secret: "))
            .unwrap_or_else(|| panic!("no secret in {}", w.text))
            .trim()
            .to_owned();
        secret.insert(power.clone(), s);
    }

    // Germany sends stage 1 and, after its receipt, stage 2 by SMTP.
    let germany = player_address(ID, "Germany");
    let guser = user_of(&germany);
    let orders_to = format!("orders+{ID}@adjutant.test");
    for k in 0..2 {
        let (_, body) = burst_orders(ID, k, &|p| secret[p].clone());
        let mail = daemon_support::mail(
            &germany,
            &orders_to,
            &format!("stack{k}@players.test"),
            "my orders",
            &body,
        );
        let sent_at = Instant::now();
        client.send(&smtp, &germany, &orders_to, &mail);
        let want = format!("stage {}", k + 1);
        let got = client.wait_for(
            &dove,
            &guser,
            &password_of(&guser),
            60,
            "the receipt",
            |m| {
                m.iter()
                    .any(|f| f.subject.contains("Accepted") && f.subject.contains(&want))
            },
        );
        assert!(
            sent_at.elapsed() < Duration::from_secs(300),
            "answered long before the 10-minute poll: IDLE woke the daemon"
        );
        let receipt = got
            .iter()
            .find(|f| f.subject.contains("Accepted") && f.subject.contains(&want))
            .unwrap();
        assert_eq!(receipt.in_reply_to, format!("<stack{k}@players.test>"));
        assert!(
            receipt
                .subject
                .starts_with(&format!("[{ID} round 1 Germany]"))
        );
        assert!(
            receipt.text.contains("Your orders as understood:"),
            "{}",
            receipt.text
        );
    }

    // Every player has both stage reports in their own mailbox.
    for (power, user) in &players {
        let got = client.wait_for(&dove, user, &password_of(user), 60, "both reports", |m| {
            m.iter().filter(|f| f.subject.contains("Report")).count() == 2
        });
        let stage2 = got
            .iter()
            .find(|f| f.subject.contains("Report") && f.subject.contains("stage 2"))
            .unwrap_or_else(|| panic!("{power}: {got:#?}"));
        assert!(
            stage2.text.contains("Germany placed 1 infantry in Germany"),
            "{power}: {}",
            stage2.text
        );
        assert!(
            stage2.html.contains("<!DOCTYPE html>"),
            "{power}: an HTML part"
        );
    }

    // The daemon's mailbox: nothing left in the INBOX, both orders moved to
    // the processed folder (only after their log entries were durable).
    let inbox = client.fetch(&dove, "orders", "pw-orders", "INBOX");
    assert!(inbox.is_empty(), "{inbox:#?}");
    let processed = client.fetch(&dove, "orders", "pw-orders", "processed");
    assert_eq!(processed.len(), 2, "{processed:#?}");

    // SIGTERM: the daemon finishes and exits cleanly.
    let pid = daemon.0.id().to_string();
    let mut daemon = daemon;
    let killed = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
    assert!(killed.success());
    let until = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = daemon.0.try_wait().unwrap() {
            break s;
        }
        assert!(
            Instant::now() < until,
            "no exit 30 s after SIGTERM:\n{}",
            daemon_log()
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "{status}:\n{}", daemon_log());
    assert!(
        daemon_log().contains("IMAP inbox connected"),
        "{}",
        daemon_log()
    );

    env.verify(ID);
    let out = env.adjutant(&["verify", env.log(ID).to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
}
