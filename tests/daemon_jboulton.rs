//! A J Boulton match played by mail (issue 18, item 11): the daemon's code
//! path over a Maildir, file transport for sent mail, as
//! tests/daemon_classic.rs plays Classic. Germany's player buys the new
//! units in the house rules' words (a special force team among them) and
//! moves them (or the bot sends them into battle); the test bot
//! writes every other message of two rounds from the position the match
//! holds; a player asks the odds of heavy armor and mechanized infantry by
//! mail; every message is accepted, the reports are mailed, and both
//! verifiers accept the log. The match is made by `adjutant new` and every
//! pass is `adjutant run --once`, as an organiser runs them.

#[path = "common/aae_bot.rs"]
mod aae_bot;
mod daemon_support;
#[path = "common/verify.rs"]
mod verify;

use adjutant::matches::Match;
use daemon_support::{Env, player_address};

const ID: &str = "jb1";
const ROUNDS: u32 = 2;
const POWERS: [&str; 4] = ["Germany", "Soviet Union", "United Kingdom", "United States"];

#[test]
fn a_jboulton_match_is_played_by_mail() {
    let env = Env::new("jboulton", Some("mail: {map_in_reports: false}\n"));
    let dir = env.new_match_of(ID, "aae-jboulton", &POWERS);
    env.run_once();
    let welcomes = env.sent();
    assert_eq!(welcomes.len(), 4, "{welcomes:#?}");
    let secret = |p: &str| env.secret(ID, p);
    let germany = player_address(ID, "Germany");

    // The new units bought in a player's own words (their aliases).
    let mut n = 0u64;
    let body = format!(
        "match: {ID}\npower: Germany\nround: 1\nsecret: {}\npurchase: 1 ha, 1 mech inf, 1 air trn, 2 para, 1 sft\n",
        secret("Germany")
    );
    let receipt = env.send(n, &germany, ID, "m0@players.test", "orders", &body);
    receipt.assert_accepted(&body);
    assert!(
        receipt.body.contains(
            "purchase: 1 heavy armor, 1 mechanized infantry, 1 air transport, 2 paratrooper, 1 special force team"
        ),
        "{}",
        receipt.body
    );

    // The bot writes the rest of two rounds, each message from the
    // position the match holds after the one before; in Germany's second
    // non-combat move its player also moves the heavy armor and the
    // special force team it placed.
    let mut accepted = 1;
    // Moves of the new units, as the receipts echo them.
    let mut new_unit_moves: Vec<String> = Vec::new();
    loop {
        let m = Match::open(&dir).unwrap();
        if m.state().round > ROUNDS || m.state().winner.is_some() {
            break;
        }
        let game = m.game().clone();
        let state = m.state().clone();
        drop(m);
        let mut extra = Vec::new();
        let germany = game.power("Germany").unwrap();
        let germany_stage_two = state.current_power(&game) == germany
            && state.phase != adjutant::rules::state::Phase::Purchase;
        // The heavy armor or mechanized infantry bought in round 1, unless
        // the bot sent it into battle already, moves one space, and so does
        // the special force team.
        let ty = |name: &str| {
            game.unit_types()
                .iter()
                .position(|t| t.name == name)
                .unwrap()
        };
        let new_units = [ty("heavy armor"), ty("mechanized infantry")];
        let fresh = |types: &[usize]| {
            state
                .units
                .iter()
                .find(|u| u.owner == germany && types.contains(&u.unit) && u.moved == 0)
        };
        for u in [fresh(&new_units), fresh(&[ty("special force team")])]
            .into_iter()
            .flatten()
            .filter(|_| germany_stage_two && state.round == 2)
        {
            let to = game.neighbours(u.at).iter().copied().find(|&s| {
                !game.is_sea(s)
                    && state.owner[s.0] == Some(germany)
                    && game.territory(s).is_some_and(|t| !t.impassable)
            });
            if let Some(to) = to {
                extra.push(format!(
                    "1 {}: {} -> {}",
                    game.unit_types()[u.unit].name,
                    game.space_name(u.at),
                    game.space_name(to)
                ));
            }
        }
        let extra_refs: Vec<&str> = extra.iter().map(String::as_str).collect();
        let o = aae_bot::orders_with(&game, &state, aae_bot::BotConfig::default(), &extra_refs);
        n += 1;
        let body = format!("match: {ID}\nsecret: {}\n{}", secret(&o.power), o.yaml);
        let id = format!("m{n}@players.test");
        let from = player_address(ID, &o.power);
        let reply = env.send(n, &from, ID, &id, "orders", &body);
        reply.assert_accepted(&o.yaml);
        for e in &extra {
            assert!(reply.body.contains(e.as_str()), "{}", reply.body);
        }
        new_unit_moves.extend(
            reply
                .body
                .lines()
                .filter(|l| l.contains("->"))
                .filter(|l| {
                    ["heavy armor", "mechanized infantry", "special force team"]
                        .iter()
                        .any(|n| l.contains(n))
                })
                .map(str::to_owned),
        );
        accepted += 1;
    }
    assert!(
        !new_unit_moves.is_empty(),
        "no accepted message moved the new units"
    );
    assert!(
        new_unit_moves
            .iter()
            .any(|l| l.contains("special force team")),
        "no accepted message moved the special force team: {new_unit_moves:?}"
    );
    assert_eq!(env.pending(), 0);
    let m = Match::open(&dir).unwrap();
    if m.state().winner.is_none() {
        assert_eq!(accepted, 2 * 4 * ROUNDS as usize);
        assert_eq!(m.state().round, ROUNDS + 1);
    }
    drop(m);

    // The turn reports went out by mail, to Germany's player too, and name
    // the new units on the board.
    let sent = env.sent();
    let reports: Vec<_> = sent
        .iter()
        .filter(|s| s.subject.contains("Report") && s.to == germany)
        .collect();
    assert!(reports.len() >= 2 * 4 * ROUNDS as usize - 1, "{sent:#?}");
    assert!(
        reports.iter().any(|r| r.body.contains("heavy armor")),
        "{:#?}",
        reports.last()
    );

    // The odds of the new units by mail, worked by hand: heavy armor (4)
    // against an infantry (2) wins when it hits and the infantry misses,
    // (2/3)(2/3), of the rounds that decide anything, 1 - (1/3)(2/3):
    // 4/7; mechanized infantry attacks at 2: (1/3)(2/3) / (1 - (2/3)(2/3))
    // = 2/5.
    let body = format!(
        "match: {ID}\npower: Germany\nsecret: {}\nodds:\n  - {{attackers: 1 heavy armor, defenders: 1 infantry}}\n  - {{attackers: 1 mech inf, defenders: 1 inf}}\n",
        secret("Germany")
    );
    let answer = env.send(n + 1, &germany, ID, "odds@players.test", "odds", &body);
    let q2 = answer
        .body
        .find("QUESTION 2")
        .unwrap_or_else(|| panic!("two answers: {}", answer.body));
    assert!(
        answer.body[..q2].contains("Attacker wins     57.14%"),
        "{}",
        answer.body
    );
    assert!(
        answer.body[q2..].contains("Attacker wins     40.00%"),
        "{}",
        answer.body
    );

    // The real binary replays the match, and the independent verifier
    // checks its dice.
    let log = env.log(ID);
    verify::verify_replays(&log, accepted, "jboulton by mail");
    verify::assert_python_accepts(&log, "jboulton by mail");
}
