//! What players read in the daemon's replies: readable words (never a Rust
//! Debug spelling), the stages a message applied, the power of a secret,
//! help for the reader's own power, and mail the daemon cannot show as it
//! was written.

mod daemon_support;

use daemon_support::*;

/// The plain-text part of a sent mail (the HTML part carries CSS braces).
fn plain(s: &Sent) -> &str {
    s.body.split("<!DOCTYPE").next().unwrap_or(&s.body)
}

#[test]
fn standing_orders_by_mail_get_a_receipt_and_no_report() {
    let env = Env::new("standing", None);
    env.new_match("s1");
    env.run_once();
    let su = env.secret("s1", "Soviet Union");
    let soviet = player_address("s1", "Soviet Union");
    env.drop_mail(
        1,
        &mail(
            &soviet,
            &orders_to("s1"),
            "st@p",
            "standing",
            &format!(
                "match: s1\npower: Soviet Union\nsecret: {su}\nstanding:\n  losses: infantry, armor\n"
            ),
        ),
    );
    env.run_once();
    assert_eq!(env.pending(), 0, "the message is handled, not left behind");
    let sent = env.sent();
    let receipt: Vec<_> = sent
        .iter()
        .filter(|s| s.in_reply_to.as_deref() == Some("<st@p>"))
        .collect();
    assert_eq!(receipt.len(), 1, "{sent:#?}");
    assert!(
        receipt[0]
            .subject
            .contains("Accepted: standing orders of Soviet Union"),
        "{}",
        receipt[0].subject
    );
    assert!(
        plain(receipt[0]).contains("Soviet Union's standing orders")
            && plain(receipt[0]).contains("losses: infantry, armor"),
        "{}",
        receipt[0].body
    );
    assert!(
        !sent.iter().any(|s| s.subject.contains("Report")),
        "standing orders send no turn report: {sent:#?}"
    );
    env.verify("s1");
}
