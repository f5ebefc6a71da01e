//! Parsing real, hand-written messages (tests/fixtures/mail/) into
//! `Inbound` values: headers, hash, and the orders text from each kind of
//! body.

use adjutant::mail::message::{self, Orders, OrdersSource, ParseLimits, Refusal};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/mail/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn parse(name: &str) -> message::Inbound {
    message::parse(&fixture(name), ParseLimits::default()).expect(name)
}

fn orders(name: &str) -> Orders {
    parse(name)
        .orders
        .unwrap_or_else(|r| panic!("{name}: refused: {r}"))
}

#[test]
fn plain_orders_headers_and_text() {
    let raw = fixture("plain_orders.eml");
    let mail = message::parse(&raw, ParseLimits::default()).unwrap();
    assert_eq!(
        mail.message_id.as_deref(),
        Some("CAF1234.alice@mail.example.org")
    );
    let from = mail.from.as_ref().unwrap();
    assert_eq!(from.address, "alice@example.org");
    assert_eq!(from.name.as_deref(), Some("Alice Example"));
    assert_eq!(mail.to.len(), 1);
    assert_eq!(mail.to[0].address, "orders+m1@adjutant.test");
    assert_eq!(mail.envelope_to, vec!["orders+m1@adjutant.test"]);
    assert_eq!(mail.subject, "Re: [m1 round 2 Germany] orders");
    assert_eq!(mail.in_reply_to, vec!["adjutant.report1@adjutant.test"]);
    assert_eq!(
        mail.references,
        vec![
            "adjutant.turn1@adjutant.test",
            "adjutant.report1@adjutant.test"
        ]
    );
    assert_eq!(
        mail.date.unwrap().to_rfc3339(),
        "2025-11-04T09:15:00+00:00",
        "Date converted to UTC"
    );
    assert_eq!(mail.size, raw.len());
    // The hash is of the exact bytes, computed independently here.
    use sha2::Digest;
    assert_eq!(mail.sha256, hex::encode(sha2::Sha256::digest(&raw)));
    assert_eq!(
        mail.header("received").map(|r| r.contains("\r")),
        Some(false)
    );

    let orders = mail.orders.unwrap();
    assert_eq!(orders.source, OrdersSource::PlainText);
    assert_eq!(
        orders.text,
        "secret: r4nd0m\npurchase:\n  infantry: 3\n  armour: 1\ncombat:\n  - move: [Germany, Poland]\n",
        "CRLF and non-breaking spaces normalised"
    );
}

#[test]
fn a_yaml_attachment_wins_over_the_body() {
    let orders = orders("yaml_attachment.eml");
    assert_eq!(
        orders.source,
        OrdersSource::Attachment {
            filename: "orders.yaml".into()
        }
    );
    assert_eq!(orders.text, "secret: b0b\npurchase:\n  fighter: 1\n");
}

#[test]
fn two_yaml_attachments_are_refused() {
    let raw = String::from_utf8(fixture("yaml_attachment.eml")).unwrap();
    let attachment_start = raw
        .find("--XyZ\r\nContent-Type: application/x-yaml")
        .unwrap();
    let attachment_end = raw.find("--XyZ--").unwrap();
    let second = raw[attachment_start..attachment_end].replace("orders.yaml", "more.yml");
    let doubled = format!(
        "{}{}{}",
        &raw[..attachment_end],
        second,
        &raw[attachment_end..]
    );
    let mail = message::parse(doubled.as_bytes(), ParseLimits::default()).unwrap();
    match mail.orders {
        Err(Refusal::SeveralAttachments(names)) => {
            assert!(
                names.contains("orders.yaml") && names.contains("more.yml"),
                "{names}"
            )
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn html_only_mail_is_refused_with_how_to_send_plain_text() {
    // A simple letter and one with a script: neither is converted, since
    // only a browser knows which of their text a reader sees.
    for name in ["html_only.eml", "html_script.eml"] {
        let refusal = parse(name).orders.unwrap_err();
        assert_eq!(refusal, Refusal::HtmlOnly, "{name}");
        let reason = refusal.to_string();
        for needle in [
            "only an HTML (rich text) body",
            "does not show",
            "Gmail",
            "Plain text mode",
            "Outlook",
            "Apple Mail",
            "Make Plain Text",
            "Thunderbird",
            ".yaml file",
        ] {
            assert!(reason.contains(needle), "{needle} missing: {reason}");
        }
    }
}

/// Found by the `mail` fuzz target when HTML bodies were still converted:
/// an `&` followed by accented text panicked the daemon. HTML-only mail is
/// now refused whole; the same body must still be read without a panic.
#[test]
fn an_ampersand_before_accented_text_in_html_is_refused_not_a_panic() {
    let raw = "From: a@example.org\r\nTo: b@example.org\r\nSubject: x\r\nMIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>Fish & \u{e7}h\u{ef}ps &\u{e9}\u{e9}; ok</p>\r\n";
    let mail = message::parse(raw.as_bytes(), ParseLimits::default()).unwrap();
    assert_eq!(mail.orders.unwrap_err(), Refusal::HtmlOnly);
}

#[test]
fn quoted_reply_and_signature_are_stripped() {
    let mail = parse("quoted_reply.eml");
    assert_eq!(mail.subject, "Re: Fwd: [m1 round 3 Soviet Union] your turn");
    let orders = mail.orders.unwrap();
    assert_eq!(orders.text, "secret: d4v3\npurchase:\n  infantry: 4\n");
}

#[test]
fn strip_reply_keeps_text_that_only_looks_like_an_attribution() {
    let text = "On Monday I wrote:\n  attack: yes\n";
    assert_eq!(message::strip_reply(text), text);
    let outlook = "buy: 1\n\n-----Original Message-----\nFrom: Adjutant\nold: 2\n";
    assert_eq!(message::strip_reply(outlook), "buy: 1\n");
    let german = "kaufen: 1\nAm 5. Nov. 2025 schrieb Adjutant <a@b.c>:\n> alt\n";
    assert_eq!(message::strip_reply(german), "kaufen: 1\n");
}

#[test]
fn oversized_mail_keeps_its_headers_but_is_refused() {
    let raw = fixture("oversized.eml");
    let limits = ParseLimits {
        max_bytes: 16 * 1024,
    };
    let mail = message::parse(&raw, limits).unwrap();
    assert_eq!(mail.message_id.as_deref(), Some("grace.big@example.org"));
    assert_eq!(mail.from.unwrap().address, "grace@example.org");
    assert_eq!(
        mail.orders,
        Err(Refusal::TooLarge {
            size: raw.len(),
            limit: 16 * 1024
        })
    );
    // Under a limit it fits in, the same message is read.
    let mail = message::parse(
        &raw,
        ParseLimits {
            max_bytes: raw.len(),
        },
    )
    .unwrap();
    assert!(mail.orders.unwrap().text.starts_with("secret: gr4c3\n"));
}

#[test]
fn iso_8859_1_is_decoded() {
    let mail = parse("latin1.eml");
    assert_eq!(
        mail.from.as_ref().unwrap().name.as_deref(),
        Some("Jürgen Müller")
    );
    assert_eq!(mail.subject, "[m1 round 2 Germany] Befehle für Deutschland");
    assert_eq!(
        mail.orders.unwrap().text,
        "secret: jürgen\nnote: \"Schöne Grüße\"\npurchase:\n  infantry: 1\n"
    );
}

#[test]
fn base64_and_quoted_printable_bodies_are_decoded() {
    assert_eq!(
        orders("base64_body.eml").text,
        "secret: h31d1\npurchase:\n  destroyer: 1 # été\n"
    );
    assert_eq!(
        orders("qp_body.eml").text,
        "secret: 1v4n\npurchase:\n  infantry: 6\nnote: a very long line that the sending mail program wrapped with a soft break in the middle of a word\n"
    );
}

#[test]
fn not_a_message_is_an_error() {
    assert!(message::parse(b"", ParseLimits::default()).is_err());
}

#[test]
fn normalise_handles_line_ends_bom_and_spaces() {
    assert_eq!(
        message::normalise("\u{feff}a\r\nb\rc\u{a0}d\u{202f}e\tf"),
        "a\nb\nc d e\tf"
    );
}
