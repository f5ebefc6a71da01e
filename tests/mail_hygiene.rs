//! Loop guards and bounce reading on real fixtures.

use adjutant::mail::hygiene::{self, AutoReason};
use adjutant::mail::message::{self, Inbound, ParseLimits};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/mail/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn parse(raw: &[u8]) -> Inbound {
    message::parse(raw, ParseLimits::default()).unwrap()
}

/// A plain person-written message with `extra` headers added on top.
fn with_headers(extra: &str) -> Inbound {
    let raw = fixture("plain_orders.eml");
    let mut bytes = extra.replace('\n', "\r\n").into_bytes();
    bytes.extend_from_slice(&raw);
    parse(&bytes)
}

#[test]
fn person_written_mail_is_answered() {
    for name in [
        "plain_orders.eml",
        "yaml_attachment.eml",
        "html_only.eml",
        "quoted_reply.eml",
        "latin1.eml",
        "base64_body.eml",
        "qp_body.eml",
    ] {
        let raw = fixture(name);
        let mail = parse(&raw);
        assert_eq!(hygiene::auto_generated(&mail), None, "{name}");
        assert_eq!(hygiene::bounce(&mail, &raw), None, "{name}");
    }
    // Auto-Submitted: no is explicitly a person.
    assert_eq!(
        hygiene::auto_generated(&with_headers("Auto-Submitted: no\n")),
        None
    );
}

#[test]
fn auto_replies_lists_and_own_mail_are_not_answered() {
    let auto = parse(&fixture("auto_reply.eml"));
    assert!(matches!(
        hygiene::auto_generated(&auto),
        Some(AutoReason::AutoSubmitted(v)) if v.starts_with("auto-replied")
    ));
    let list = parse(&fixture("mailing_list.eml"));
    assert_eq!(
        hygiene::auto_generated(&list),
        Some(AutoReason::Precedence("list".into()))
    );
    let cases = [
        ("Precedence: bulk\n", AutoReason::Precedence("bulk".into())),
        ("Precedence: JUNK\n", AutoReason::Precedence("JUNK".into())),
        (
            "Auto-Submitted: auto-generated\n",
            AutoReason::AutoSubmitted("auto-generated".into()),
        ),
        (
            "X-Autoreply: yes\n",
            AutoReason::Autoresponder("X-Autoreply".into()),
        ),
        (
            "List-Id: <x.example>\n",
            AutoReason::MailingList("List-Id".into()),
        ),
        (
            "List-Unsubscribe: <mailto:x@example>\n",
            AutoReason::MailingList("List-Unsubscribe".into()),
        ),
        ("X-Adjutant-Loop: adjutant.test\n", AutoReason::OwnMail),
    ];
    for (header, reason) in cases {
        assert_eq!(
            hygiene::auto_generated(&with_headers(header)),
            Some(reason),
            "{header}"
        );
    }
    // The fixture's own Return-Path is a person's; replacing it with <>
    // marks the message as a bounce or auto-reply.
    let raw = String::from_utf8(fixture("plain_orders.eml"))
        .unwrap()
        .replace("Return-Path: <alice@example.org>", "Return-Path: <>");
    assert_eq!(
        hygiene::auto_generated(&parse(raw.as_bytes())),
        Some(AutoReason::NullReturnPath)
    );
    let raw = String::from_utf8(fixture("plain_orders.eml"))
        .unwrap()
        .replace("Return-Path: <alice@example.org>\r\n", "")
        .replace(
            "From: \"Alice Example\" <alice@example.org>",
            "From: postmaster@example.org",
        );
    assert_eq!(
        hygiene::auto_generated(&parse(raw.as_bytes())),
        Some(AutoReason::SystemSender("postmaster@example.org".into()))
    );
}

#[test]
fn a_dsn_is_recognised_and_names_the_failed_recipient() {
    let raw = fixture("dsn_bounce.eml");
    let mail = parse(&raw);
    assert_eq!(
        hygiene::auto_generated(&mail),
        Some(AutoReason::DeliveryReport)
    );
    let bounce = hygiene::bounce(&mail, &raw).expect("a bounce");
    assert_eq!(bounce.failed_recipients, vec!["frank@example.com"]);
    assert_eq!(bounce.status.as_deref(), Some("5.1.1"));
    assert_eq!(
        bounce.diagnostic.as_deref(),
        Some("550 5.1.1 <frank@example.com>: Recipient address rejected: User unknown")
    );
    assert_eq!(
        bounce.original_message_id.as_deref(),
        Some("adjutant.0123abcd@adjutant.test")
    );
}

#[test]
fn a_delay_notice_is_not_a_bounce() {
    let raw = String::from_utf8(fixture("dsn_bounce.eml"))
        .unwrap()
        .replace("Action: failed", "Action: delayed")
        .replace("Status: 5.1.1", "Status: 4.4.1");
    let mail = parse(raw.as_bytes());
    // Still never answered...
    assert_eq!(
        hygiene::auto_generated(&mail),
        Some(AutoReason::DeliveryReport)
    );
    // ...but nothing failed.
    assert_eq!(hygiene::bounce(&mail, raw.as_bytes()), None);
}

#[test]
fn an_exim_style_bounce_names_its_recipient_from_the_header() {
    let raw = "From: Mail Delivery System <Mailer-Daemon@mx.example.net>\r\n\
To: orders@adjutant.test\r\n\
Subject: Mail delivery failed\r\n\
X-Failed-Recipients: gina@example.net\r\n\
Message-ID: <exim.1@mx.example.net>\r\n\
\r\n\
This message was created automatically by mail delivery software.\r\n";
    let mail = parse(raw.as_bytes());
    assert_eq!(
        hygiene::auto_generated(&mail),
        Some(AutoReason::SystemSender(
            "Mailer-Daemon@mx.example.net".into()
        ))
    );
    let bounce = hygiene::bounce(&mail, raw.as_bytes()).unwrap();
    assert_eq!(bounce.failed_recipients, vec!["gina@example.net"]);
}
