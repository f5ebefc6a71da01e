//! What players read in the daemon's replies: readable words (never a Rust
//! Debug spelling), the stages a message applied, the power of a secret,
//! help for the reader's own power, and mail the daemon cannot show as it
//! was written.

mod daemon_support;

use daemon_support::*;

/// The Debug spellings that must never reach a person: `Some(..)`,
/// `None`, enum variants in CamelCase (`SubmergeAfterFirstRound`,
/// `ImplicitTls`), capitalised policy words, struct braces
/// (`Config {`), escaped strings and vectors of numbers (`[3, 5]`).
fn debug_spellings(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for needle in [
        "Some(",
        "None",
        "Ok(",
        "Err(",
        "\\u{",
        "\\\"",
        ": Fight",
        ": Submerge",
        " { ",
        "PathBuf",
        "Duration {",
    ] {
        if text.contains(needle) {
            found.push(needle.to_owned());
        }
    }
    for word in text.split(|c: char| !c.is_ascii_alphanumeric()) {
        // Humps: an upper-case letter followed by a lower-case one
        // (`SubmergeAfterFirstRound`), not an abbreviation like `IPCs`.
        let c: Vec<char> = word.chars().collect();
        let humps = c
            .windows(2)
            .filter(|w| w[0].is_ascii_uppercase() && w[1].is_ascii_lowercase())
            .count();
        if humps >= 2 && c[0].is_ascii_uppercase() {
            found.push(word.to_owned());
        }
    }
    let b = text.as_bytes();
    for (i, _) in text.match_indices('[') {
        let rest = &text[i + 1..];
        let end = rest.find(']').unwrap_or(0);
        let inner = &rest[..end];
        if end > 0
            && inner.contains(", ")
            && inner.split(", ").all(|n| n.parse::<u32>().is_ok())
            && b.get(i + 1).is_some_and(u8::is_ascii_digit)
        {
            found.push(format!("[{inner}]"));
        }
    }
    found
}

/// The plain-text part of a sent mail, without the MIME structure (the
/// HTML part carries CSS braces, boundaries are random letters).
fn plain(s: &Sent) -> &str {
    let body = s.body.as_str();
    let Some(at) = body.find("Content-Type: text/plain") else {
        return body;
    };
    let start = body[at..].find("\n\n").map_or(body.len(), |i| at + i + 2);
    let end = body[start..].find("\n--").map_or(body.len(), |i| start + i);
    &body[start..end]
}

/// `text` with every run of white space one space, so that assertions do
/// not depend on where the templates wrap.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[test]
fn the_debug_detector_sees_what_it_must() {
    assert!(!debug_spellings("submarines: Fight").is_empty());
    assert!(!debug_spellings("rolled [3, 5], best").is_empty());
    assert!(!debug_spellings("Config { data_dir: \"x\" }").is_empty());
    assert!(!debug_spellings("security: ImplicitTls").is_empty());
    assert!(
        debug_spellings("submarines: submerge_after_first_round, United Kingdom, 3 infantry")
            .is_empty()
    );
}

#[test]
fn no_mail_and_no_check_output_shows_a_debug_spelling() {
    let env = Env::new("words", None);
    env.new_match("w1");
    env.run_once();
    let to = orders_to("w1");
    let ge = env.secret("w1", "Germany");
    let su = env.secret("w1", "Soviet Union");
    let germany = player_address("w1", "Germany");
    let soviet = player_address("w1", "Soviet Union");
    let g = format!("match: w1\npower: Germany\nround: 1\nsecret: {ge}\n");
    let s = format!("match: w1\npower: Soviet Union\nsecret: {su}\n");
    let messages: Vec<(&str, String)> = vec![
        (
            &soviet,
            format!(
                "{s}standing:\n  losses: infantry, armor\n  keep_one_land_unit: true\n  submarines: submerge_after_first_round\n  intercept: 1\n"
            ),
        ),
        (&soviet, format!("{s}command: standing\n")),
        (&soviet, format!("{s}command: help\n")),
        (&soviet, format!("{s}command: resend\n")),
        (&soviet, format!("{s}command: sing\n")),
        (&germany, format!("{g}purchase: 2 infantrie\n")),
        (&germany, format!("{g}purchase: 1 infantry\n")),
        (&germany, format!("{g}command: status\n")),
        (
            &germany,
            format!("{g}odds:\n  - {{attackers: [3 infantry, 1 armor], defenders: 2 infantry}}\n"),
        ),
        (&germany, format!("{g}place:\n  Germany: 1 infantry\n")),
        (&germany, format!("{g}command: resend\n")),
        (
            &germany,
            "match: w1\npower: Germany\nsecret: wrong-wrong\npurchase: 1 infantry\n".into(),
        ),
        ("eve@elsewhere.test", "match: w1\nsecret: guess\n".into()),
    ];
    for (n, (from, body)) in messages.iter().enumerate() {
        env.drop_mail(
            n as u64,
            &mail(from, &to, &format!("m{n}@p"), "orders", body),
        );
    }
    env.drop_mail(
        99,
        &mail(
            &germany,
            "orders@adjutant.localhost",
            "nowhere@p",
            "hello",
            "hi",
        ),
    );
    env.run_once();
    let sent = env.sent();
    assert!(sent.len() > 15, "{sent:#?}");
    let standing = sent
        .iter()
        .find(|m| m.subject.contains("standing") && m.to == soviet)
        .expect("a standing-orders reply");
    assert!(
        plain(standing).contains("submarines: submerge_after_first_round"),
        "{}",
        standing.body
    );
    for m in &sent {
        let bad = debug_spellings(plain(m));
        assert!(
            bad.is_empty(),
            "{:?} in the mail {:?} to {}:\n{}",
            bad,
            m.subject,
            m.to,
            plain(m)
        );
        assert!(debug_spellings(&m.subject).is_empty(), "{}", m.subject);
    }

    // `run --check` prints the configuration in the file's own words.
    let out = env.adjutant(&["run", "--check"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let check = text(&out.stdout);
    assert!(debug_spellings(&check).is_empty(), "{check}");
    assert!(
        check.contains("transport:\n  file: {dir: ") && check.contains("poll_interval: 5s"),
        "{check}"
    );
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

#[test]
fn a_power_line_that_is_not_the_secrets_power_is_named_as_such() {
    let env = Env::new("mismatch", None);
    let dir = env.new_match("p1");
    env.run_once();
    let su = env.secret("p1", "Soviet Union");
    let soviet = player_address("p1", "Soviet Union");
    // Germany is to move; the Soviet player writes Germany's orders with
    // their own secret.
    env.drop_mail(
        1,
        &mail(
            &soviet,
            &orders_to("p1"),
            "mis@p",
            "orders",
            &format!("match: p1\npower: Germany\nround: 1\nsecret: {su}\npurchase: 1 infantry\n"),
        ),
    );
    env.run_once();
    let sent = env.sent();
    let reply: Vec<_> = sent
        .iter()
        .filter(|s| s.in_reply_to.as_deref() == Some("<mis@p>"))
        .collect();
    assert_eq!(reply.len(), 1, "{sent:#?}");
    let body = flat(plain(reply[0]));
    assert!(
        body.contains(
            "power: Germany does not match the power of the secret, which is Soviet Union's"
        ),
        "{body}"
    );
    assert!(!body.contains("not Soviet Union's turn"), "{body}");

    // `adjutant submit --as` says the same in its own terms.
    let orders = env.root.join("orders.yaml");
    std::fs::write(&orders, "power: Germany\nround: 1\npurchase: 1 infantry\n").unwrap();
    let out = env.adjutant(&[
        "submit",
        "--match",
        dir.to_str().unwrap(),
        "--as",
        "Soviet Union",
        orders.to_str().unwrap(),
    ]);
    let said = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(
        said.contains(
            "power: Germany does not match the power these orders are applied as, Soviet Union"
        ),
        "{said}"
    );
}

#[test]
fn stages_1_and_2_in_one_message_are_labelled_as_both() {
    let env = Env::new("both", None);
    let dir = env.new_match("b1");
    env.run_once();
    let ge = env.secret("b1", "Germany");
    let germany = player_address("b1", "Germany");
    env.drop_mail(
        1,
        &mail(
            &germany,
            &orders_to("b1"),
            "both@p",
            "orders",
            &format!(
                "match: b1\npower: Germany\nround: 1\nsecret: {ge}\npurchase: 1 infantry\nplace:\n  Germany: 1 infantry\n"
            ),
        ),
    );
    env.run_once();
    let sent = env.sent();
    let receipt = sent
        .iter()
        .find(|s| s.in_reply_to.as_deref() == Some("<both@p>"))
        .expect("a receipt");
    assert!(
        receipt
            .subject
            .ends_with("Accepted: stages 1 and 2 of round 1"),
        "{}",
        receipt.subject
    );
    assert!(
        flat(plain(receipt)).contains("Received and applied: stages 1 and 2 of Germany's round 1"),
        "{}",
        receipt.body
    );
    let report = sent
        .iter()
        .find(|s| s.subject.contains("Report") && s.to == player_address("b1", "Soviet Union"))
        .expect("a report");
    assert!(
        report
            .subject
            .ends_with("Report: Germany stages 1 and 2 of round 1"),
        "{}",
        report.subject
    );
    let body = flat(plain(report));
    assert!(body.contains("Germany played stages 1 and 2."), "{body}");
    assert!(
        body.contains("Germany placed 1 infantry in Germany"),
        "{body}"
    );
    assert!(!body.contains("now sends stage 2"), "{body}");
    assert!(body.contains("Soviet Union to move"), "{body}");
    // The report carries the map once: inline in the HTML part under its
    // Content-ID, and offered as map.png; the whole mail under 400 KB.
    assert!(
        report.body.contains("Content-Type: image/png"),
        "no map part"
    );
    assert!(report.body.contains("map.png"), "the map's file name");
    assert!(
        report.body.contains("cid:map."),
        "the HTML part shows the map"
    );
    assert_eq!(report.body.matches("Content-Type: image/png").count(), 1);
    let size = report.headers.len() + report.body.len();
    assert!(
        size > 50_000 && size < 400_000,
        "report mail of {size} bytes"
    );

    // `adjutant report` re-renders the same words.
    let seq = env
        .entries("b1")
        .iter()
        .filter(|e| e["kind"] == "adjudication")
        .map(|e| e["seq"].as_u64().unwrap())
        .next_back()
        .unwrap();
    let out = env.adjutant(&[
        "report",
        "--match",
        dir.to_str().unwrap(),
        "--entry",
        &seq.to_string(),
    ]);
    assert!(
        flat(&text(&out.stdout)).contains("Germany played stages 1 and 2."),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}

#[test]
fn html_only_orders_are_refused_never_applied() {
    let env = Env::new("html", None);
    env.new_match("h1");
    env.run_once();
    let ge = env.secret("h1", "Germany");
    let germany = player_address("h1", "Germany");
    // What the player sees is a purchase of 1 infantry; hidden text buys
    // 2 armor more. A tag stripper would apply both.
    let raw = format!(
        "From: {germany}\r\nTo: {}\r\nSubject: orders\r\nMessage-ID: <html@p>\r\n\
         MIME-Version: 1.0\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
         <html><body><div>match: h1</div><div>power: Germany</div><div>round: 1</div>\
         <div>secret: {ge}</div><div>purchase: 1 infantry<span style=\"display:none\">, 2 armor</span></div>\
         </body></html>\r\n",
        orders_to("h1")
    );
    env.drop_mail(1, raw.as_bytes());
    env.run_once();
    let entries = env.entries("h1");
    assert!(
        !entries.iter().any(|e| e["kind"] == "order"),
        "nothing applied: {entries:#?}"
    );
    let sent = env.sent();
    let reply = sent
        .iter()
        .find(|s| s.in_reply_to.as_deref() == Some("<html@p>"))
        .expect("a reply");
    let body = flat(plain(reply));
    assert!(reply.subject.contains("Rejected"), "{}", reply.subject);
    assert!(
        body.contains("orders are read only from plain text")
            && body.contains("Gmail: the three-dot menu of the draft, then Plain text mode"),
        "{body}"
    );
}

#[test]
fn help_is_written_for_the_readers_power_and_needs_no_docs() {
    let env = Env::new(
        "help",
        Some("mail: {help_url: 'https://league.example.org/guide'}\n"),
    );
    env.new_match("x1");
    env.run_once();
    let uk = env.secret("x1", "United Kingdom");
    let britain = player_address("x1", "United Kingdom");
    env.drop_mail(
        1,
        &mail(
            &britain,
            &orders_to("x1"),
            "help@p",
            "help",
            &format!("match: x1\npower: UK\nsecret: {uk}\ncommand: help\n"),
        ),
    );
    env.run_once();
    let sent = env.sent();
    let help = sent
        .iter()
        .find(|s| s.in_reply_to.as_deref() == Some("<help@p>"))
        .expect("a help reply");
    let body = plain(help);
    assert!(body.contains("help for United Kingdom"), "{body}");
    assert!(body.contains("power: United Kingdom"), "{body}");
    assert!(!body.contains("power: Germany"), "{body}");
    for section in [
        "STAGE 1",
        "STAGE 2",
        "TRANSPORTS",
        "STANDING ORDERS",
        "BATTLE ODDS",
        "COMMANDS",
    ] {
        assert!(body.contains(section), "{section} missing:\n{body}");
    }
    assert!(body.contains("    purchase: 3 infantry, 1 armor"), "{body}");
    assert!(!body.contains("docs/"), "players have no docs/: {body}");
    assert!(
        body.contains("The league's own guide: https://league.example.org/guide"),
        "{body}"
    );
    // Every reply a player reads is free of docs/ references.
    for m in &sent {
        assert!(!plain(m).contains("docs/"), "{}:\n{}", m.subject, plain(m));
    }
}

#[test]
fn the_daemon_refreshes_the_archive_after_each_stage() {
    // `archive: {dir: site}`: under the data directory.
    let env = Env::new("archive", Some("archive:\n  dir: site\n"));
    let _dir = env.new_match("a1");
    env.run_once();
    let site = env.data.join("site");
    assert!(!site.exists(), "nothing to archive before a stage");
    let ge = env.secret("a1", "Germany");
    env.drop_mail(
        1,
        &mail(
            &player_address("a1", "Germany"),
            &orders_to("a1"),
            "arch@p",
            "orders",
            &format!(
                "match: a1\npower: Germany\nround: 1\nsecret: {ge}\npurchase: 1 infantry\nplace:\n  Germany: 1 infantry\n"
            ),
        ),
    );
    env.run_once();
    let seq = env
        .entries("a1")
        .iter()
        .filter(|e| e["kind"] == "adjudication")
        .map(|e| e["seq"].as_u64().unwrap())
        .next_back()
        .expect("an adjudication");
    let index = std::fs::read_to_string(site.join("index.html")).unwrap();
    assert!(index.contains("href=\"a1/index.html\""), "{index}");
    let turn = std::fs::read_to_string(site.join(format!("a1/turn-{seq}.html"))).unwrap();
    assert!(turn.contains("Germany placed 1 infantry in Germany"));
    assert!(site.join(format!("a1/map-{seq}.svg")).is_file());
    assert_eq!(
        std::fs::read(site.join("a1/log.jsonl")).unwrap(),
        std::fs::read(env.log("a1")).unwrap()
    );
}

/// A match whose `map.yaml` cannot be read: its archive pages are written
/// without the map, and the daemon's log says why.
#[test]
fn the_daemon_logs_a_bad_map_yaml_when_it_refreshes_the_archive() {
    let env = Env::new("archive-bad-map", Some("archive:\n  dir: site\n"));
    let dir = env.new_match("a2");
    std::fs::write(dir.join("map.yaml"), "geometri: ../board.svg\n").unwrap();
    env.run_once();
    let ge = env.secret("a2", "Germany");
    env.drop_mail(
        1,
        &mail(
            &player_address("a2", "Germany"),
            &orders_to("a2"),
            "arch2@p",
            "orders",
            &format!(
                "match: a2\npower: Germany\nround: 1\nsecret: {ge}\npurchase: 1 infantry\nplace:\n  Germany: 1 infantry\n"
            ),
        ),
    );
    let out = env.run_once();
    let log = String::from_utf8_lossy(&out.stderr);
    assert!(
        log.contains("WARN") && log.contains("map.yaml") && log.contains("have no map"),
        "{log}"
    );
    let site = env.data.join("site");
    assert!(site.join("a2/index.html").is_file());
}
