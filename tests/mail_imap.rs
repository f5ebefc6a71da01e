//! Our IMAP client against a real Dovecot on 127.0.0.1: implicit TLS and
//! STARTTLS with a private CA, literal passwords, refusals, fetch, move,
//! and IDLE woken by a delivery.

mod mail_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use adjutant::mail::imap::{Idle, ImapClient, ImapConfig, ImapError, ImapSecurity};
use adjutant::mail::inbox::{ImapInbox, Inbox};
use mail_support::{Dovecot, dovecot, openssl};

fn root(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("imap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn start(name: &str) -> Option<Dovecot> {
    let bin = dovecot()?;
    let openssl = openssl()?;
    Some(Dovecot::start(
        &bin,
        &openssl,
        &root(name),
        &[("orders", "pw-orders"), ("literal", "pässwörd \"q\"")],
    ))
}

fn config(d: &Dovecot, security: ImapSecurity, user: &str, password: &str) -> ImapConfig {
    ImapConfig {
        host: "127.0.0.1".into(),
        port: match security {
            ImapSecurity::ImplicitTls => d.imaps_port,
            _ => d.imap_port,
        },
        security,
        user: user.into(),
        password: password.into(),
        timeout: Duration::from_secs(10),
        extra_root_pem: Some(std::fs::read(&d.certs.ca).unwrap()),
    }
}

fn message(n: usize) -> Vec<u8> {
    format!(
        "From: p{n}@players.test\r\nTo: orders@adjutant.test\r\nSubject: m{n}\r\nMessage-ID: <m{n}@players.test>\r\n\r\nbody {n}\r\n{{3}}\r\nnot a literal\r\n"
    )
    .into_bytes()
}

#[test]
fn tls_and_starttls_fetch_and_move_with_a_private_ca() {
    let Some(d) = start("fetch") else {
        return;
    };
    for n in 0..3 {
        d.deliver("orders", &message(n));
    }
    for security in [ImapSecurity::ImplicitTls, ImapSecurity::StartTls] {
        let mut c = ImapClient::connect(&config(&d, security, "orders", "pw-orders"))
            .unwrap_or_else(|e| panic!("{security:?}: {e}\n{}", d.log()));
        c.ensure_folder("processed").unwrap();
        c.ensure_folder("processed").unwrap();
        c.select("INBOX").unwrap();
        let uids = c.waiting().unwrap();
        if security == ImapSecurity::ImplicitTls {
            assert_eq!(uids.len(), 3, "{uids:?}");
            let first = c.fetch(uids[0]).unwrap().expect("message 0");
            assert_eq!(first, message(0), "bytes intact, literal-looking text too");
            assert_eq!(
                c.fetch(uids[0]).unwrap().unwrap(),
                message(0),
                "PEEK: still there"
            );
            c.move_to(uids[0], "processed").unwrap();
            assert_eq!(c.waiting().unwrap(), uids[1..].to_vec());
            assert_eq!(c.fetch(uids[0]).unwrap(), None, "gone from the INBOX");
        } else {
            assert_eq!(uids.len(), 2, "the move is seen by a new session");
            for uid in uids {
                c.move_to(uid, "processed").unwrap();
            }
            assert!(c.waiting().unwrap().is_empty());
            c.select("processed").unwrap();
            assert_eq!(c.waiting().unwrap().len(), 3);
        }
        c.logout();
    }
}

#[test]
fn refusals_are_errors_with_reasons() {
    let Some(d) = start("refuse") else {
        return;
    };
    let err =
        ImapClient::connect(&config(&d, ImapSecurity::ImplicitTls, "orders", "wrong")).unwrap_err();
    assert!(
        matches!(err, ImapError::Refused { .. }) && !err.to_string().contains("wrong"),
        "a bad password is a refusal that never echoes it: {err}"
    );
    // A non-ASCII password goes as a literal (Dovecot itself allows only
    // ASCII user names by default).
    let mut c = ImapClient::connect(&config(
        &d,
        ImapSecurity::ImplicitTls,
        "literal",
        "pässwörd \"q\"",
    ))
    .unwrap_or_else(|e| panic!("{e}\n{}", d.log()));
    c.select("INBOX").unwrap();
    let err = c.select("No Such Folder").unwrap_err();
    assert!(
        !err.is_connection(),
        "a refusal keeps the connection: {err}"
    );
    c.noop().unwrap();
    c.logout();

    // Without trusting the private CA the server is refused before login.
    let mut untrusted = config(&d, ImapSecurity::ImplicitTls, "orders", "pw-orders");
    untrusted.extra_root_pem = None;
    let err = ImapClient::connect(&untrusted).unwrap_err();
    assert!(err.is_connection(), "{err}");

    // Plain IMAP off loopback is refused without connecting.
    let mut far = config(&d, ImapSecurity::Plain, "orders", "pw-orders");
    far.host = "imap.example.org".into();
    let err = ImapClient::connect(&far).unwrap_err();
    assert!(err.to_string().contains("loopback"), "{err}");

    // Plain IMAP to loopback is allowed (a server on the same machine;
    // Dovecot, too, counts loopback as secure).
    let plain = config(&d, ImapSecurity::Plain, "orders", "pw-orders");
    ImapClient::connect(&plain).unwrap().logout();
}

#[test]
fn idle_wakes_on_delivery_times_out_and_stops() {
    let Some(d) = start("idle") else {
        return;
    };
    let mut c = ImapClient::connect(&config(
        &d,
        ImapSecurity::ImplicitTls,
        "orders",
        "pw-orders",
    ))
    .unwrap_or_else(|e| panic!("{e}\n{}", d.log()));
    c.select("INBOX").unwrap();
    let stop = Arc::new(AtomicBool::new(false));

    let t = Instant::now();
    assert_eq!(
        c.idle(Duration::from_millis(1200), &stop).unwrap(),
        Idle::Timeout
    );
    assert!(t.elapsed() >= Duration::from_millis(1200));

    let md = d.maildir("orders");
    let deliverer = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(700));
        mail_support::deliver_into(&md, &message(9));
    });
    let t = Instant::now();
    let outcome = c.idle(Duration::from_secs(60), &stop).unwrap();
    deliverer.join().unwrap();
    assert_eq!(outcome, Idle::Changed);
    assert!(
        t.elapsed() < Duration::from_secs(30),
        "woken by the delivery, not the time limit"
    );
    assert_eq!(
        c.waiting().unwrap().len(),
        1,
        "the session is usable after IDLE"
    );

    let s = stop.clone();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(500));
        s.store(true, Ordering::Relaxed);
    });
    assert_eq!(
        c.idle(Duration::from_secs(60), &stop).unwrap(),
        Idle::Stopped
    );
    stopper.join().unwrap();
    c.noop().unwrap();
    c.logout();
}

#[test]
fn the_inbox_reconnects_after_the_server_restarts() {
    let Some(mut d) = start("restart") else {
        return;
    };
    d.deliver("orders", &message(1));
    let mut inbox = Inbox::Imap(Box::new(ImapInbox::new(
        config(&d, ImapSecurity::ImplicitTls, "orders", "pw-orders"),
        "INBOX",
        "processed",
    )));
    let waiting = inbox.pending().unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(inbox.read(&waiting[0]).unwrap().unwrap(), message(1));

    // Every connection drops; the next call fails, the one after that
    // connects again and finds the message still waiting.
    d.restart();
    d.deliver("orders", &message(2));
    let first = inbox.pending();
    let waiting = match first {
        Ok(w) => w,
        Err(e) => {
            assert!(e.to_string().contains("127.0.0.1"), "{e}");
            inbox
                .pending()
                .unwrap_or_else(|e| panic!("no reconnect: {e}\n{}", d.log()))
        }
    };
    assert_eq!(waiting.len(), 2, "{waiting:?}");
    for w in &waiting {
        inbox.mark_processed(w).unwrap();
    }
    assert!(inbox.pending().unwrap().is_empty());
}
