//! The daemon's front for one raw inbound message, in its order: parse
//! (`mail::message::parse`), hygiene (no reply to machines, bounces), route
//! (plus-address or subject tag), the header scan and authentication
//! (`rules::orders::header::scan_header`, `daemon::process::authenticate`)
//! against a match whose players are the senders of `tests/fixtures/mail`,
//! and the orders parser that `Match::submit` runs next. No file is touched per input.
//!
//! Properties: nothing panics; the recorded size and SHA-256 are the raw
//! bytes'; a routed match id is a valid one; a sender authenticated as a
//! power gave that power's secret.
#![no_main]

use std::sync::LazyLock;

use adjutant::daemon::process::{Auth, authenticate};
use adjutant::dice::Digest32;
use adjutant::mail::hygiene;
use adjutant::mail::message::{ParseLimits, parse, sha256_hex};
use adjutant::mail::route::{Address, is_match_id, route};
use adjutant::matches::{PlayerSecrets, Roster};
use adjutant::rules::orders::header::scan_header;
use adjutant::rules::orders::parse::parse_message;
use adjutant::rules::{GameDef, load_dir};
use libfuzzer_sys::fuzz_target;

struct Front {
    game: GameDef,
    ours: Address,
    roster: Roster,
    secrets: PlayerSecrets,
}

/// Players and secrets of the match: the fixtures' senders and the secrets
/// their mails carry, so seeds reach the authenticated path.
const PLAYERS: [(&str, &str, &str); 4] = [
    ("Germany", "alice@example.org", "r4nd0m"),
    ("Soviet Union", "ivan@example.org", "1v4n"),
    ("United Kingdom", "grace@example.org", "gr4c3"),
    ("United States", "dave@example.org", "d4v3"),
];

static FRONT: LazyLock<Front> = LazyLock::new(|| {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let game = load_dir(&root.join("games/aae")).expect("games/aae loads");
    // Roster and secrets are read from a match directory; this one lives
    // only until both are in memory.
    let dir = std::env::temp_dir().join(format!("adjutant-fuzz-mail-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut yaml = String::from("match: m1\nplayers:\n");
    for (power, email, _) in PLAYERS {
        yaml.push_str(&format!("  {power}: {{name: P, email: {email}}}\n"));
    }
    std::fs::write(dir.join("players.yaml"), yaml).unwrap();
    // The secrets file as `PlayerSecrets::save` writes it, with a fixed salt
    // and the hash of `players.rs` (a change there fails the check below).
    let salt = Digest32([7; 32]);
    let hashes: Vec<String> = PLAYERS
        .iter()
        .map(|(power, _, secret)| {
            let mut m = b"adjutant/v1/player-secret\0".to_vec();
            m.extend_from_slice(&salt.0);
            m.extend_from_slice(power.as_bytes());
            m.push(0);
            m.extend_from_slice(secret.as_bytes());
            format!("\"{power}\":\"{}\"", Digest32::sha256(&m).to_hex())
        })
        .collect();
    let file = format!(
        "{{\"salt\":\"{}\",\"players\":{{{}}}}}",
        salt.to_hex(),
        hashes.join(",")
    );
    std::fs::write(dir.join("player-secrets.json"), file).unwrap();
    let roster = Roster::load(&dir, &game).expect("the players file loads");
    let secrets = PlayerSecrets::load(&dir).expect("the secrets file loads");
    std::fs::remove_dir_all(&dir).unwrap();
    for (power, _, secret) in PLAYERS {
        assert!(
            secrets.verify(power, secret),
            "the secret hash format changed"
        );
    }
    Front {
        game,
        ours: Address::new("orders", "adjutant.test"),
        roster,
        secrets,
    }
});

fuzz_target!(|raw: &[u8]| {
    let f = &*FRONT;
    // Small, so that the corpus also reaches the too-large path.
    let limits = ParseLimits {
        max_bytes: 16 * 1024,
    };
    let Ok(mail) = parse(raw, limits) else {
        return;
    };
    assert_eq!(mail.size, raw.len());
    assert_eq!(mail.sha256, sha256_hex(raw));
    if hygiene::auto_generated(&mail).is_some() {
        hygiene::bounce(&mail, raw);
        return;
    }
    let Some(from) = mail.from.as_ref().map(|m| m.address.clone()) else {
        return;
    };
    let Some(r) = route(&f.ours, &mail) else {
        return;
    };
    assert!(is_match_id(&r.match_id), "routed to {:?}", r.match_id);
    let known = !f.roster.powers_of(&from).is_empty();
    let Ok(orders) = &mail.orders else {
        return;
    };
    let header = scan_header(&orders.text);
    let auth = authenticate(&f.game, &header, known, &f.secrets);
    if let Auth::Player { power } = &auth {
        let secret = header.secret.as_deref().unwrap_or_default();
        assert!(
            f.secrets.verify(power, secret),
            "{power} without its secret"
        );
    }
    if matches!(auth, Auth::Player { .. }) {
        let _ = parse_message(&f.game, &orders.text);
    }
});
