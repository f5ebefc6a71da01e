//! A Classic match played by mail (issue 17, item 10): the daemon's real
//! path (`adjutant run --once` over a Maildir, file transport for sent
//! mail). Five players get their welcome; the Soviet player writes in DAAK's
//! abbreviations; the test bot writes every other message of two rounds from
//! the position the match holds; a player asks Classic odds by mail; every
//! message is accepted, and both verifiers accept the log.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod daemon_support;

use adjutant::matches::Match;
use daemon_support::{Env, player_address, text};

const ID: &str = "cl1";
const ROUNDS: u32 = 2;
const POWERS: [&str; 5] = [
    "Soviet Union",
    "Germany",
    "United Kingdom",
    "Japan",
    "United States",
];

#[test]
fn a_classic_match_is_played_by_mail() {
    let env = Env::new("classic", Some("mail: {map_in_reports: false}\n"));
    let dir = env.new_match_of(ID, "classic", &POWERS);
    env.run_once();
    let welcomes = env.sent();
    assert_eq!(welcomes.len(), 5, "{welcomes:#?}");
    let secret = |p: &str| env.secret(ID, p);

    // DAAK's unit abbreviations in a player's own words.
    let mut n = 0u64;
    let soviet = player_address(ID, "Soviet Union");
    let body = format!(
        "match: {ID}\npower: Soviet Union\nround: 1\nsecret: {}\npurchase: 2 inf, 1 arm\n",
        secret("Soviet Union")
    );
    let receipt = env.send(n, &soviet, ID, "m0@players.test", "orders", &body);
    receipt.assert_accepted(&body);
    assert!(
        receipt.body.contains("purchase: 2 infantry, 1 armor"),
        "{}",
        receipt.body
    );

    // The bot writes the rest of two rounds, each message from the
    // position the match holds after the one before.
    let mut accepted = 1;
    loop {
        let m = Match::open(&dir).unwrap();
        if m.state().round > ROUNDS || m.state().winner.is_some() {
            break;
        }
        let o = aae_bot::orders(m.game(), m.state(), aae_bot::BotConfig::default());
        drop(m);
        n += 1;
        let body = format!("match: {ID}\nsecret: {}\n{}", secret(&o.power), o.yaml);
        let id = format!("m{n}@players.test");
        let from = player_address(ID, &o.power);
        env.send(n, &from, ID, &id, "orders", &body)
            .assert_accepted(&o.yaml);
        accepted += 1;
    }
    assert_eq!(env.pending(), 0);
    let m = Match::open(&dir).unwrap();
    if m.state().winner.is_none() {
        assert_eq!(accepted, 2 * 5 * ROUNDS as usize);
        assert_eq!(m.state().round, ROUNDS + 1);
    }
    drop(m);

    // Classic's odds by mail: a submarine strikes first and one hit sinks
    // a battleship (3/7), and a withdrawal after round 1 (1/3), both
    // worked by hand in tests/classic_combat.rs.
    let german = player_address(ID, "Germany");
    let body = format!(
        "match: {ID}\npower: Germany\nsecret: {}\nodds:\n  - {{attackers: 1 sub, defenders: 1 bb}}\n  - {{attackers: 1 sub, defenders: 1 tra, submarines: {{withdraw_after_round: 1}}}}\n",
        secret("Germany")
    );
    let answer = env.send(n + 1, &german, ID, "odds@players.test", "odds", &body);
    assert!(
        answer.body.contains("Attacker wins     42.86%"),
        "{}",
        answer.body
    );
    // The sub withdraws after round 1: it wins only by its first strike.
    let q2 = &answer.body[answer.body.find("QUESTION 2").expect("two answers")..];
    assert!(
        q2.contains("Attacker wins     33.33%") && q2.contains("withdraw after round 1"),
        "{q2}"
    );

    env.verify(ID);
    let out = env.adjutant(&["verify", env.log(ID).to_str().unwrap()]);
    assert!(
        text(&out.stdout).contains(&format!(
            "engine replay: {accepted} accepted messages re-adjudicated"
        )),
        "{}",
        text(&out.stdout)
    );
}
