//! An Advanced AAE match played by mail (issue 19, item 6): the daemon's
//! real path (the daemon's pass over a Maildir, file transport for sent
//! mail). Six powers, four players: Alice holds Germany and Italy, Clem
//! Britain and British Middle East (AAAE-03: one player may hold several
//! powers). The project mails a welcome, with its own secret, per power
//! (so Alice gets two), a receipt to the sender of each message, and each
//! turn report once per player address (so Alice gets one report per
//! message, not one per power). The test bot writes every message of two
//! rounds from the position the match holds; a player asks odds by mail
//! with Advanced values (German armor defends at 3); both verifiers accept
//! the log.
//!
//! The match is made by `adjutant new` and every pass is `adjutant run
//! --once`, as an organiser runs them.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod daemon_support;

use adjutant::matches::Match;
use daemon_support::Env;

const ID: &str = "aa1";
const ROUNDS: u32 = 2;
const POWERS: usize = 6;

/// The player address of each power: two players hold two powers each.
fn address(power: &str) -> &'static str {
    match power {
        "Germany" | "Italy" => "alice.aa1@players.test",
        "Russia" => "boris.aa1@players.test",
        "Britain" | "British Middle East" => "clem.aa1@players.test",
        "USA" => "dora.aa1@players.test",
        other => panic!("no player for {other}"),
    }
}

const PLAYERS: &str = "match: aa1
players:
  Germany: {name: Alice, email: alice.aa1@players.test}
  Italy: {name: Alice, email: alice.aa1@players.test}
  Russia: {name: Boris, email: boris.aa1@players.test}
  Britain: {name: Clem, email: clem.aa1@players.test}
  British Middle East: {name: Clem, email: clem.aa1@players.test}
  USA: {name: Dora, email: dora.aa1@players.test}
";

#[test]
fn an_advanced_aae_match_is_played_by_mail_with_a_player_holding_two_powers() {
    let env = Env::new("advanced-aae", Some("mail: {map_in_reports: false}\n"));
    let out = env.try_new_match_of(ID, "advanced-aae", PLAYERS);
    assert!(
        out.status.success(),
        "{}",
        daemon_support::text(&out.stderr)
    );
    let dir = env.data.join("matches").join(ID);
    env.run_once();

    // A welcome per power, each with its own secret: Alice has two.
    let welcomes = env.sent();
    assert_eq!(welcomes.len(), POWERS, "{welcomes:#?}");
    let mut to_alice: Vec<&str> = welcomes
        .iter()
        .filter(|w| w.to.contains("alice.aa1@"))
        .map(|w| w.subject.as_str())
        .collect();
    to_alice.sort();
    assert_eq!(
        to_alice,
        [
            "[aa1] Welcome: you play Germany",
            "[aa1] Welcome: you play Italy"
        ],
        "{to_alice:?}"
    );
    let secret = |p: &str| env.secret(ID, p);
    assert_ne!(secret("Germany"), secret("Italy"));

    // The bot writes every message of two rounds, each from the position
    // the match holds after the one before; Alice sends Germany's and
    // Italy's orders from one address, each with its power's secret.
    let mut n = 0u64;
    let mut accepted = 0;
    let mut from_alice = Vec::new();
    loop {
        let m = Match::open(&dir).unwrap();
        if m.state().round > ROUNDS || m.state().winner.is_some() {
            break;
        }
        let o = aae_bot::orders(
            m.game(),
            m.state(),
            aae_bot::BotConfig {
                oil_convoy: true,
                lend_lease: true,
                ..aae_bot::BotConfig::default()
            },
        );
        drop(m);
        n += 1;
        let before: Vec<String> = env.sent().into_iter().map(|s| s.file).collect();
        let body = format!("match: {ID}\nsecret: {}\n{}", secret(&o.power), o.yaml);
        let id = format!("m{n}@players.test");
        let from = address(&o.power);
        if from.starts_with("alice.") {
            from_alice.push(o.power.clone());
        }
        let reply = env.send(n, from, ID, &id, "orders", &body);
        reply.assert_accepted(&o.yaml);
        let sent = env.sent();
        assert!(reply.to.contains(from), "{}", reply.to);
        accepted += 1;
        // The turn report goes once to each of the four players.
        let reports: Vec<&str> = sent
            .iter()
            .filter(|s| !before.contains(&s.file) && s.subject.contains("Report: "))
            .map(|s| s.to.as_str())
            .collect();
        assert_eq!(reports.len(), 4, "{reports:?}");
        for player in ["alice", "boris", "clem", "dora"] {
            let got = reports
                .iter()
                .filter(|t| t.contains(&format!("{player}.aa1@")))
                .count();
            assert_eq!(got, 1, "{player} got {got} reports: {reports:?}");
        }
    }
    assert_eq!(env.pending(), 0);
    let m = Match::open(&dir).unwrap();
    if m.state().winner.is_none() {
        assert_eq!(accepted, 2 * POWERS * ROUNDS as usize);
        assert_eq!(m.state().round, ROUNDS + 1);
        assert_eq!(
            from_alice,
            ["Germany", "Germany", "Italy", "Italy"].repeat(ROUNDS as usize)
        );
    }
    drop(m);

    // Odds by mail with Advanced values: German armor defends at 3, so an
    // infantry attacking it wins 1/7 (worked by hand in
    // tests/odds_advanced_aae.rs); Italian armor at 2, 1/4.
    let boris = address("Russia");
    let body = format!(
        "match: {ID}\npower: Russia\nsecret: {}\nodds:\n  - {{attackers: 1 inf, defenders: 1 arm, attacker_power: Russia, defender_power: Germany}}\n  - {{attackers: 1 inf, defenders: 1 arm, attacker_power: Russia, defender_power: Italy}}\n",
        secret("Russia")
    );
    let answer = env.send(n + 1, boris, ID, "odds@players.test", "odds", &body);
    let q2 = answer.body.find("QUESTION 2").expect("two answers");
    assert!(
        answer.body[..q2].contains("Attacker wins     14.29%"),
        "{}",
        answer.body
    );
    assert!(
        answer.body[q2..].contains("Attacker wins     25.00%"),
        "{}",
        answer.body
    );

    // The real binary replays the match, and the independent verifier
    // checks its dice.
    let said = env.verify(ID);
    assert!(
        said.contains(&format!(
            "engine replay: {accepted} accepted messages re-adjudicated"
        )),
        "{said}"
    );
}
