//! Routing by plus-address and subject tag, and building replies that the
//! router and the loop guard recognise.

use std::time::{Duration, UNIX_EPOCH};

use adjutant::mail::compose::{self, Kind, Outgoing, Thread};
use adjutant::mail::hygiene::{self, AutoReason};
use adjutant::mail::message::{self, Mailbox, ParseLimits};
use adjutant::mail::route::{self, Address, RouteSource, SubjectTag};

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/fixtures/mail/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn ours() -> Address {
    Address::new("orders", "Adjutant.Test")
}

#[test]
fn plus_address_is_matched_case_insensitively_on_the_domain() {
    let a = ours();
    assert_eq!(a.match_of("orders+m1@adjutant.test").as_deref(), Some("m1"));
    assert_eq!(
        a.match_of("<Orders+m1@ADJUTANT.TEST>").as_deref(),
        Some("m1")
    );
    assert_eq!(a.match_of("orders@adjutant.test"), None, "no detail");
    assert_eq!(a.match_of("orders+m1@adjutant.test.evil"), None);
    assert_eq!(a.match_of("other+m1@adjutant.test"), None);
    assert_eq!(a.match_of("orders+m 1@adjutant.test"), None);
    assert_eq!(a.for_match("m7"), "orders+m7@Adjutant.Test");
}

#[test]
fn subject_tags_parse_with_prefixes_and_without_round() {
    let tag = route::parse_subject_tag;
    assert_eq!(
        tag("Re: Fwd: [m1 round 3 Soviet Union] your turn"),
        Some(SubjectTag {
            match_id: "m1".into(),
            round: Some(3),
            power: Some("Soviet Union".into())
        })
    );
    assert_eq!(
        tag("AW: [m2]"),
        Some(SubjectTag {
            match_id: "m2".into(),
            round: None,
            power: None
        })
    );
    assert_eq!(
        tag("[1/2] [EXTERNAL mail] [m3 ROUND 4]").map(|t| (t.match_id, t.round)),
        Some(("m3".into(), Some(4)))
    );
    assert_eq!(tag("no tag here"), None);
    assert_eq!(tag("[m1 round x Germany]"), None);
    assert_eq!(tag("[m1 round"), None);
    for (round, power) in [(None, None), (Some(2), None), (Some(2), Some("Germany"))] {
        let formatted = route::format_subject_tag("league-4.a", round, power);
        let parsed = tag(&formatted).unwrap();
        assert_eq!(
            (
                parsed.match_id.as_str(),
                parsed.round,
                parsed.power.as_deref()
            ),
            ("league-4.a", round, power),
            "{formatted}"
        );
    }
    assert_eq!(
        route::format_subject_tag("m1", Some(2), Some("Germany")),
        "[m1 round 2 Germany]"
    );
}

#[test]
fn route_prefers_the_address_and_falls_back_to_the_tag() {
    let mail = message::parse(&fixture("plain_orders.eml"), ParseLimits::default()).unwrap();
    let r = route::route(&ours(), &mail).unwrap();
    assert_eq!(r.match_id, "m1");
    assert_eq!(
        r.source,
        RouteSource::PlusAddress("orders+m1@adjutant.test".into())
    );
    assert_eq!(r.tag.as_ref().unwrap().power.as_deref(), Some("Germany"));
    assert!(!r.tag_disagrees());

    // Written to the bare address: the subject decides.
    let raw = String::from_utf8(fixture("plain_orders.eml"))
        .unwrap()
        .replace("orders+m1@", "orders@")
        .replace("[m1 round 2", "[m9 round 2");
    let mail = message::parse(raw.as_bytes(), ParseLimits::default()).unwrap();
    let r = route::route(&ours(), &mail).unwrap();
    assert_eq!(
        (r.match_id.as_str(), r.source),
        ("m9", RouteSource::SubjectTag)
    );

    // Address and tag disagree: the address wins, and it is flagged.
    let raw = String::from_utf8(fixture("plain_orders.eml"))
        .unwrap()
        .replace("[m1 round 2", "[m9 round 2");
    let mail = message::parse(raw.as_bytes(), ParseLimits::default()).unwrap();
    let r = route::route(&ours(), &mail).unwrap();
    assert_eq!(r.match_id, "m1");
    assert!(r.tag_disagrees());

    // A bare bracket word is a candidate match id; whether such a match
    // exists is for the caller to check.
    let mail = message::parse(&fixture("mailing_list.eml"), ParseLimits::default()).unwrap();
    assert_eq!(route::route(&ours(), &mail).unwrap().match_id, "league");

    // Neither a plus-address nor a tag: no route.
    let raw = String::from_utf8(fixture("yaml_attachment.eml"))
        .unwrap()
        .replace("orders+m1@", "orders@");
    let mail = message::parse(raw.as_bytes(), ParseLimits::default()).unwrap();
    assert_eq!(route::route(&ours(), &mail), None);
}

fn reply_to(incoming: &message::Inbound, html: Option<&str>) -> compose::Composed {
    let out = Outgoing {
        from: Mailbox {
            address: "orders@adjutant.test".into(),
            name: Some("Adjutant".into()),
        },
        to: vec![incoming.from.clone().unwrap()],
        reply_to: Some(Mailbox {
            address: ours().for_match("m1"),
            name: None,
        }),
        tag: Some(route::format_subject_tag("m1", Some(2), Some("Germany"))),
        subject: "orders accepted".into(),
        text: "Your orders:\n  infantry: 3\n".into(),
        html: html.map(str::to_string),
        kind: Kind::Reply,
        thread: Thread::replying_to(incoming),
        message_id: compose::message_id_for("m1/7/alice@example.org", "adjutant.test"),
        date: UNIX_EPOCH + Duration::from_secs(1_762_300_000),
        domain: "adjutant.test".into(),
        envelope_from: Some("bounces@adjutant.test".into()),
        extra_headers: vec![("X-Adjutant-Log-Head".into(), "ab".repeat(32))],
    };
    compose::compose(&out).unwrap()
}

#[test]
fn a_reply_threads_routes_and_is_recognised_as_ours() {
    let incoming = message::parse(&fixture("plain_orders.eml"), ParseLimits::default()).unwrap();
    let composed = reply_to(&incoming, None);
    assert_eq!(
        composed.message_id,
        compose::message_id_for("m1/7/alice@example.org", "adjutant.test")
    );
    assert_eq!(composed.envelope.from, "bounces@adjutant.test");
    assert_eq!(composed.envelope.to, vec!["alice@example.org"]);
    let text = String::from_utf8(composed.bytes.clone()).unwrap();
    assert!(text.contains("\r\n"), "CRLF line ends");
    assert!(text.contains("Auto-Submitted: auto-replied\r\n"), "{text}");
    assert!(
        text.contains("X-Adjutant-Loop: adjutant.test\r\n"),
        "{text}"
    );
    assert!(text.contains("Content-Type: text/plain"), "{text}");

    let back = message::parse(&composed.bytes, ParseLimits::default()).unwrap();
    assert_eq!(
        back.message_id.as_deref(),
        Some(composed.message_id.as_str())
    );
    assert_eq!(back.subject, "[m1 round 2 Germany] orders accepted");
    assert_eq!(back.in_reply_to, vec!["CAF1234.alice@mail.example.org"]);
    assert_eq!(
        back.references,
        vec![
            "adjutant.turn1@adjutant.test",
            "adjutant.report1@adjutant.test",
            "CAF1234.alice@mail.example.org"
        ]
    );
    assert_eq!(
        back.header("X-Adjutant-Log-Head"),
        Some("ab".repeat(32).as_str())
    );
    assert_eq!(
        back.orders.as_ref().unwrap().text,
        "Your orders:\n  infantry: 3\n"
    );
    // Our own mail coming back in is never answered.
    assert_eq!(hygiene::auto_generated(&back), Some(AutoReason::OwnMail));
    // And a player's reply to it routes to the match by its Reply-To.
    let r = route::route(&ours(), &back).unwrap();
    assert_eq!(r.match_id, "m1");
}

#[test]
fn an_html_body_makes_a_multipart_alternative() {
    let incoming = message::parse(&fixture("plain_orders.eml"), ParseLimits::default()).unwrap();
    let composed = reply_to(&incoming, Some("<p>Your orders</p>"));
    let text = String::from_utf8(composed.bytes).unwrap();
    assert!(text.contains("multipart/alternative"), "{text}");
    assert!(text.contains("Content-Type: text/html"), "{text}");
    assert!(text.contains("Content-Type: text/plain"), "{text}");
}

#[test]
fn reports_are_auto_generated_and_bad_input_is_refused() {
    let base = Outgoing {
        from: Mailbox {
            address: "orders@adjutant.test".into(),
            name: None,
        },
        to: vec![Mailbox {
            address: "alice@example.org".into(),
            name: None,
        }],
        reply_to: None,
        tag: None,
        subject: "Turn 3 opens".into(),
        text: "Board...\n".into(),
        html: None,
        kind: Kind::Report,
        thread: None,
        message_id: "r1@adjutant.test".into(),
        date: UNIX_EPOCH,
        domain: "adjutant.test".into(),
        envelope_from: None,
        extra_headers: Vec::new(),
    };
    let ok = compose::compose(&base).unwrap();
    let text = String::from_utf8(ok.bytes).unwrap();
    assert!(
        text.contains("Auto-Submitted: auto-generated\r\n"),
        "{text}"
    );
    assert_eq!(ok.envelope.from, "orders@adjutant.test");

    let mut bad = base.clone();
    bad.subject = "x\r\nBcc: victim@example.org".into();
    assert!(compose::compose(&bad).is_err(), "header injection");
    let mut bad = base.clone();
    bad.to.clear();
    assert_eq!(
        compose::compose(&bad),
        Err(compose::ComposeError::NoRecipients)
    );
    let mut bad = base.clone();
    bad.extra_headers = vec![("Subject".into(), "x".into())];
    assert!(compose::compose(&bad).is_err(), "only X- headers");
    let mut bad = base;
    bad.to[0].address = "not an address".into();
    assert!(matches!(
        compose::compose(&bad),
        Err(compose::ComposeError::Address { .. })
    ));
}
