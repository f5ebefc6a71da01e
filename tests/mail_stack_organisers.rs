//! Organisers on a real mail stack: Dovecot (IMAP) and an SMTP server
//! (aiosmtpd) on 127.0.0.1, the daemon running on IMAP with IDLE and
//! sending over SMTP. The organiser reads their secret out of their own
//! mailbox, pauses the match by SMTP and gets the reply; a ruling made with
//! `adjutant organise` while the daemon runs reaches every player's
//! mailbox; both verifiers accept the log.

mod daemon_support;
mod mail_support;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use daemon_support::{Env, TURN_ORDER, player_address, text};
use mail_support::{Client, Dovecot, Process, SmtpServer, dovecot, openssl, python_with_aiosmtpd};

const ID: &str = "orgstack";
const OLGA: &str = "olga@players.test";

fn user_of(address: &str) -> String {
    address.split('@').next().unwrap().to_owned()
}

fn password_of(user: &str) -> String {
    format!("pw-{user}")
}

#[test]
fn an_organiser_acts_by_smtp_and_on_the_command_line_with_the_daemon_running() {
    let (Some(bin), Some(openssl), Some(python)) = (dovecot(), openssl(), python_with_aiosmtpd())
    else {
        return;
    };
    let players: Vec<String> = TURN_ORDER
        .iter()
        .map(|(p, _)| user_of(&player_address(ID, p)))
        .collect();
    let mut users = vec![
        ("orders".to_owned(), password_of("orders")),
        ("olga".to_owned(), password_of("olga")),
    ];
    users.extend(players.iter().map(|u| (u.clone(), password_of(u))));
    let user_refs: Vec<(&str, &str)> = users
        .iter()
        .map(|(u, p)| (u.as_str(), p.as_str()))
        .collect();
    let stack_root = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("mailstack-org-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&stack_root);
    let dove = Dovecot::start(&bin, &openssl, &stack_root, &user_refs);
    let smtp = SmtpServer::start(&python, &dove, ("adjutant", "smtp-secret"));
    let client = Client::new(&python, &dove);
    let secrets = stack_root.join("secrets");
    std::fs::create_dir_all(&secrets).unwrap();
    std::fs::write(secrets.join("imap.pw"), "pw-orders\n").unwrap();
    std::fs::write(secrets.join("smtp.pw"), "smtp-secret\n").unwrap();
    let ca = dove.certs.ca.display().to_string();
    // A short poll: an action taken on the command line is mailed at the
    // daemon's next look.
    let config = format!(
        "mail: {{domain: adjutant.test}}\n\
         poll_interval: 1s\n\
         inbound:\n  imap: {{host: 127.0.0.1, port: {}, security: tls, user: orders, password_file: {}, ca_file: {ca}}}\n\
         transport:\n  smtp: {{host: 127.0.0.1, port: {}, security: starttls, user: adjutant, password_file: {}, ca_file: {ca}}}\n",
        dove.imaps_port,
        secrets.join("imap.pw").display(),
        smtp.port,
        secrets.join("smtp.pw").display(),
    );
    let env = Env::new("org-stack", Some(&config));
    let mut yaml = format!(
        "match: {ID}\ndeadlines: {{stage: 72h, reminder_before: 0s}}\norganisers:\n  - {{name: Olga, email: {OLGA}}}\nplayers:\n"
    );
    for (p, _) in TURN_ORDER {
        yaml.push_str(&format!(
            "  {p}: {{name: {p} player, email: {}}}\n",
            player_address(ID, p)
        ));
    }
    let out = env.try_new_match(ID, &yaml);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let dir = env.data.join("matches").join(ID);

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

    // Olga's secret, out of her own mailbox.
    let got = client.wait_for(
        &dove,
        "olga",
        "pw-olga",
        60,
        "the organiser's secret",
        |m| m.iter().any(|f| f.subject.contains("your secret")),
    );
    let mine = got
        .iter()
        .find(|f| f.subject.contains("your secret"))
        .unwrap();
    let secret = mine
        .text
        .lines()
        .find_map(|l| l.trim().strip_prefix("Your organiser's secret: "))
        .unwrap_or_else(|| panic!("no secret in {}", mine.text))
        .trim()
        .to_owned();

    // Pause by SMTP: the reply in her mailbox, the notice in every player's.
    let orders_to = format!("orders+{ID}@adjutant.test");
    let mail = daemon_support::mail(
        OLGA,
        &orders_to,
        "olga-pause@players.test",
        "pause",
        &format!(
            "organiser: Olga\nsecret: {secret}\naction: pause\nreason: the league's summer break\n"
        ),
    );
    client.send(&smtp, OLGA, &orders_to, &mail);
    let got = client.wait_for(&dove, "olga", "pw-olga", 60, "the reply", |m| {
        m.iter().any(|f| f.subject.contains("Organiser: done"))
    });
    let reply = got
        .iter()
        .find(|f| f.subject.contains("Organiser: done"))
        .unwrap();
    assert_eq!(reply.in_reply_to, "<olga-pause@players.test>");
    assert!(reply.text.contains("paused the match"), "{}", reply.text);
    for user in &players {
        client.wait_for(
            &dove,
            user,
            &password_of(user),
            60,
            "the pause notice",
            |m| {
                m.iter()
                    .any(|f| f.subject.contains("Organiser: pause (Olga)"))
            },
        );
    }

    // A ruling on the command line while the daemon runs.
    let out = env.adjutant(&[
        "organise",
        "--match",
        dir.to_str().unwrap(),
        "--as",
        "Olga",
        "ruling",
        "--entry",
        "1",
        "--text",
        "Summer break until the 1st.",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for user in &players {
        let got = client.wait_for(&dove, user, &password_of(user), 60, "the ruling", |m| {
            m.iter()
                .any(|f| f.subject.contains("Organiser: ruling (Olga)"))
        });
        let r = got
            .iter()
            .find(|f| f.subject.contains("Organiser: ruling (Olga)"))
            .unwrap();
        assert!(r.text.contains("Summer break until the 1st."), "{}", r.text);
    }

    let pid = daemon.0.id().to_string();
    let mut daemon = daemon;
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
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
    env.verify(ID);
}
