//! Bids before round 1 (`docs/league.md`, "Bids"; `docs/log.md`, "Bids"):
//! the match setting, the sealed bids for sides and their reveal, the setup
//! money a match gives without bidding, and the seats that change hands
//! when the lower bidder takes the other side.
//!
//! A bid for sides is sealed by the server: when the match is created it
//! draws a bid secret `s` and logs its commitment; each bid is logged as a
//! commitment to the amount under a salt derived from `s` (so the server
//! has no choice in it) and the bidder's receipt carries that salt; when
//! every bidder has bid (or an organiser reveals at the deadline) the log
//! reveals `s` and every amount, and anyone recomputes the winner. The
//! setup money then starts the engine's bid placement stage
//! ([`crate::rules::bid_placement`]).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::dice::{Digest32, bid};
use crate::log::bid::BidState;
use crate::log::{BidAmount, BidEntry, BidStep, SideMoney};
use crate::rules::GameDef;
use crate::rules::entries::Entries;

use super::game_match::PlayersFile;

/// `bid:` of a players file: whether the match starts with a bid, and
/// which kind.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BidSetting {
    /// `sides` or `setup`.
    pub kind: BidKind,
    /// `sides`: the side the lower bid takes, with its bid as setup money
    /// (DAAK: `Axis`).
    #[serde(default)]
    pub side: Option<String>,
    /// `setup`: each side's setup money (side -> IPCs), agreed outside the
    /// match (DAAK's bids by mail, AAE's special cash advance).
    #[serde(default)]
    pub money: Entries<u32>,
}

/// The kinds of bid.
#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum BidKind {
    /// Sealed bids for sides: each side's player bids the setup money they
    /// would accept to play `side`; the lower bid takes it (a tie: a
    /// verifiable die).
    Sides,
    /// Setup money given to each side as the setting says, no bidding.
    Setup,
}

/// The problems of a players file's `bid:` for `game`.
pub fn check(game: &GameDef, players: &PlayersFile) -> Vec<String> {
    let Some(b) = &players.bid else {
        return Vec::new();
    };
    let sides = &game.files().game.sides;
    let side_names: Vec<&str> = sides.iter().map(|s| s.name.as_str()).collect();
    let find = |name: &str| side_names.iter().position(|s| s.eq_ignore_ascii_case(name));
    let mut problems = Vec::new();
    match b.kind {
        BidKind::Sides => {
            if !b.money.is_empty() {
                problems.push(
                    "bid: money is for kind setup; a bid for sides gives the winner its own bid"
                        .into(),
                );
            }
            match &b.side {
                None => problems.push(format!(
                    "bid: a bid for sides names the side the lower bid takes (side: one of {})",
                    side_names.join(", ")
                )),
                Some(s) if find(s).is_none() => problems.push(format!(
                    "bid: side {s:?} is not a side of {}; the sides are {}",
                    game.id(),
                    side_names.join(", ")
                )),
                Some(_) => {}
            }
            // Each side is one bidder: one player holds all its powers.
            for side in sides {
                let mut who: Vec<(&str, &str)> = players
                    .players
                    .iter()
                    .filter(|(p, _)| {
                        game.power(p)
                            .is_some_and(|id| side.powers.iter().any(|q| game.power(q) == Some(id)))
                    })
                    .map(|(_, pl)| (pl.name.as_str(), pl.email.as_str()))
                    .collect();
                who.dedup();
                if who.len() > 1 {
                    problems.push(format!(
                        "bid: a bid for sides is between two players, one a side, but the {} have {} players",
                        side.name,
                        who.len()
                    ));
                }
            }
        }
        BidKind::Setup => {
            if b.side.is_some() {
                problems.push(
                    "bid: side is for kind sides; setup money names its sides under money:".into(),
                );
            }
            if b.money.is_empty() {
                problems.push(
                    "bid: setup money names each side's IPCs (money: {Axis: 12, Allies: 12})"
                        .into(),
                );
            }
            for (s, _) in b.money.iter() {
                if find(s).is_none() {
                    problems.push(format!(
                        "bid: money: {s:?} is not a side of {}; the sides are {}",
                        game.id(),
                        side_names.join(", ")
                    ));
                }
            }
        }
    }
    problems
}

/// The entry that starts a match's bid, with the bid secret to keep until
/// the reveal (bids for sides).
pub fn opening(
    game: &GameDef,
    setting: &BidSetting,
    match_id: &str,
) -> Result<(BidEntry, Option<Digest32>), String> {
    let sides = &game.files().game.sides;
    let canonical = |name: &str| {
        sides
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
            .map(|s| s.name.clone())
            .ok_or_else(|| format!("bid: {name:?} is not a side"))
    };
    let empty = BidEntry {
        step: BidStep::Setup,
        bidders: None,
        side: None,
        bidder: None,
        commitment: None,
        secret: None,
        bids: None,
        tie: None,
        winner: None,
        money: None,
    };
    match setting.kind {
        BidKind::Setup => {
            let mut money = Vec::new();
            for (s, &n) in setting.money.iter() {
                money.push(SideMoney {
                    side: canonical(s)?,
                    ipcs: n,
                });
            }
            Ok((
                BidEntry {
                    money: Some(money),
                    ..empty
                },
                None,
            ))
        }
        BidKind::Sides => {
            let mut s = [0u8; 32];
            getrandom::fill(&mut s).map_err(|e| format!("no random bid secret: {e}"))?;
            let secret = Digest32(s);
            let side = canonical(setting.side.as_deref().unwrap_or_default())?;
            Ok((
                BidEntry {
                    step: BidStep::Open,
                    bidders: Some(sides.iter().map(|s| s.name.clone()).collect()),
                    side: Some(side),
                    commitment: Some(bid::commitment(match_id, &secret)),
                    ..empty
                },
                Some(secret),
            ))
        }
    }
}

/// The sealed entry of `bidder`'s bid of `ipcs`, and its salt (for the
/// bidder's receipt).
pub fn sealed(match_id: &str, secret: &Digest32, bidder: &str, ipcs: u32) -> (BidEntry, Digest32) {
    let salt = bid::salt(match_id, secret, bidder);
    let entry = BidEntry {
        step: BidStep::Sealed,
        bidders: None,
        side: None,
        bidder: Some(bidder.to_owned()),
        commitment: Some(bid::sealed(match_id, bidder, ipcs, &salt)),
        secret: None,
        bids: None,
        tie: None,
        winner: None,
        money: None,
    };
    (entry, salt)
}

/// The reveal of the bids so far: `amounts` holds each sealed bid's amount
/// by bidder (kept by the server with the secret until now).
pub fn reveal(
    match_id: &str,
    state: &BidState,
    secret: &Digest32,
    amounts: &[(String, u32)],
) -> BidEntry {
    let (bidders, _) = state.bidders().expect("a bid is open");
    let sealed = state.sealed_by();
    let bids: Vec<BidAmount> = bidders
        .iter()
        .filter(|b| sealed.contains(&b.as_str()))
        .map(|b| BidAmount {
            bidder: b.clone(),
            ipcs: amounts
                .iter()
                .find(|(x, _)| x == b)
                .map(|(_, n)| *n)
                .expect("every sealed bid's amount is kept"),
        })
        .collect();
    let commitments: Vec<Digest32> = state.sealed_commitments();
    let (winner, tie) = crate::log::bid::result(match_id, secret, &bids, &commitments);
    BidEntry {
        step: BidStep::Reveal,
        bidders: None,
        side: None,
        bidder: None,
        commitment: None,
        secret: Some(*secret),
        bids: Some(bids),
        tie,
        winner,
        money: None,
    }
}

/// The setup money (by side index) that entry `e` gives, now that the log
/// holds it (`state` is the bid after it): a `setup` entry's money, or the
/// winner's bid for the side it takes at a `reveal`; `None` for the other
/// steps.
pub fn money_after(
    game: &GameDef,
    state: &BidState,
    e: &BidEntry,
) -> Result<Option<Vec<u32>>, String> {
    let sides = &game.files().game.sides;
    let index = |name: &str| {
        sides
            .iter()
            .position(|s| s.name == name)
            .ok_or_else(|| format!("{name:?} is not a side of {}", game.id()))
    };
    let mut money = vec![0; sides.len()];
    match e.step {
        BidStep::Setup => {
            for m in e.money.as_deref().unwrap_or_default() {
                money[index(&m.side)?] += m.ipcs;
            }
        }
        BidStep::Reveal => {
            let (_, side) = state.bidders().expect("a reveal follows an open bid");
            if let Some(w) = &e.winner {
                let bid = e
                    .bids
                    .as_deref()
                    .unwrap_or_default()
                    .iter()
                    .find(|b| &b.bidder == w)
                    .map_or(0, |b| b.ipcs);
                money[index(side)?] = bid;
            }
        }
        BidStep::Open | BidStep::Sealed => return Ok(None),
    }
    Ok(Some(money))
}

/// A `bid` entry in words, for `adjutant log show`, replies and notices.
pub fn describe(e: &BidEntry) -> String {
    match e.step {
        BidStep::Open => format!(
            "sealed bids for sides open: {} bid the setup money they would accept to play the {}; the lower bid takes it (commitment {})",
            e.bidders.as_deref().unwrap_or_default().join(" and "),
            e.side.as_deref().unwrap_or("?"),
            e.commitment.map(|c| c.to_hex()).unwrap_or_default()
        ),
        BidStep::Sealed => format!(
            "the {} sealed a bid (commitment {})",
            e.bidder.as_deref().unwrap_or("?"),
            e.commitment.map(|c| c.to_hex()).unwrap_or_default()
        ),
        BidStep::Reveal => {
            let bids: Vec<String> = e
                .bids
                .as_deref()
                .unwrap_or_default()
                .iter()
                .map(|b| format!("the {} {} IPCs", b.bidder, b.ipcs))
                .collect();
            let tie = e
                .tie
                .map(|t| format!(", tied: the tie-break die shows {t}"))
                .unwrap_or_default();
            match &e.winner {
                Some(w) => format!(
                    "bids revealed (secret {}): {}{tie}; the {w} bid lower",
                    e.secret.map(|c| c.to_hex()).unwrap_or_default(),
                    bids.join(", ")
                ),
                None => format!(
                    "bids revealed (secret {}): nobody bid; no setup money",
                    e.secret.map(|c| c.to_hex()).unwrap_or_default()
                ),
            }
        }
        BidStep::Setup => {
            let money: Vec<String> = e
                .money
                .as_deref()
                .unwrap_or_default()
                .iter()
                .map(|m| format!("the {} {} IPCs", m.side, m.ipcs))
                .collect();
            format!("setup money before round 1: {}", money.join(", "))
        }
    }
}

/// The lower bidder `winner` takes `side`, where the other bidder sits: the
/// two players change seats in `players.yaml` (every power of each side
/// gets the other side's player), and the secrets of all those powers are
/// revoked, so that each player gets new ones for the powers they now play
/// (the daemon mails them, `docs/league.md`).
pub(crate) fn swap_seats(
    m: &super::Match,
    winner: &str,
    side: &str,
) -> Result<(), super::MatchError> {
    use super::MatchError;
    let game = m.game();
    let roster = super::Roster::load(m.dir(), game)
        .map_err(|e| MatchError::Invalid(format!("the seats after the bid: {e}")))?;
    let sides = &game.files().game.sides;
    let powers_of = |name: &str| -> Vec<String> {
        sides
            .iter()
            .find(|s| s.name == name)
            .map(|s| {
                s.powers
                    .iter()
                    .filter_map(|p| game.power(p).map(|i| game.powers()[i].name.clone()))
                    .collect()
            })
            .unwrap_or_default()
    };
    let (a, b) = (powers_of(winner), powers_of(side));
    let player_of = |powers: &[String]| {
        powers
            .iter()
            .find_map(|p| roster.seat(p))
            .map(|s| (s.name.clone(), s.email.clone(), s.time_zone.clone()))
    };
    let (Some(pa), Some(pb)) = (player_of(&a), player_of(&b)) else {
        return Err(MatchError::Invalid(
            "the seats after the bid: a side has no player".into(),
        ));
    };
    let mut secrets = super::PlayerSecrets::load(m.dir())
        .map_err(|e| MatchError::Invalid(format!("the seats after the bid: {e}")))?;
    for (powers, (name, email, time_zone)) in [(&b, &pa), (&a, &pb)] {
        for power in powers.iter().filter(|p| roster.seat(p).is_some()) {
            super::organise::replace_seat(
                m,
                &super::organise::NewSeat {
                    power: power.clone(),
                    name: name.clone(),
                    email: email.clone(),
                    time_zone: time_zone.clone(),
                },
            )?;
            secrets.revoke(power);
        }
    }
    secrets
        .save()
        .map_err(|e| MatchError::Invalid(format!("the seats after the bid: {e}")))
}

/// The genesis seats (power, player name) as a bid for sides left them:
/// when the winner sat on another side than the one it took, the two
/// players exchanged seats ([`swap_seats`]), which the log's reveal says.
pub fn seats_after_bid(
    game: &GameDef,
    seats: &[crate::log::PlayerEntry],
    entries: &[crate::log::Entry],
) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = seats
        .iter()
        .map(|s| (s.power.clone(), s.name.clone()))
        .collect();
    let open = entries.iter().find_map(|e| match &e.body {
        crate::log::Body::Bid(b) if b.step == BidStep::Open => b.side.clone(),
        _ => None,
    });
    let winner = entries.iter().find_map(|e| match &e.body {
        crate::log::Body::Bid(b) if b.step == BidStep::Reveal => b.winner.clone(),
        _ => None,
    });
    let (Some(side), Some(winner)) = (open, winner) else {
        return out;
    };
    if side == winner {
        return out;
    }
    let side_of = |power: &str| {
        game.power(power)
            .map(|p| game.files().game.sides[game.side_of(p)].name.clone())
    };
    let name_on = |s: &str| {
        seats
            .iter()
            .find(|x| side_of(&x.power).as_deref() == Some(s))
            .map(|x| x.name.clone())
    };
    let (on_side, on_winner) = (name_on(&side), name_on(&winner));
    for (power, name) in &mut out {
        match side_of(power) {
            Some(s) if s == side => {
                if let Some(n) = &on_winner {
                    *name = n.clone();
                }
            }
            Some(s) if s == winner => {
                if let Some(n) = &on_side {
                    *name = n.clone();
                }
            }
            _ => {}
        }
    }
    out
}

const BID_SECRET: &str = "bid.secret";
const BIDS_FILE: &str = "bids.json";

fn secrets_dir(dir: &Path) -> PathBuf {
    dir.join("secrets")
}

/// Keeps the bid secret (fsync'd) before its commitment is logged.
pub(crate) fn store_secret(dir: &Path, secret: &Digest32) -> Result<(), String> {
    write_private(
        &secrets_dir(dir).join(BID_SECRET),
        secret.to_hex().as_bytes(),
    )
}

/// The bid secret, while the bids are sealed.
pub(crate) fn load_secret(dir: &Path) -> Result<Digest32, String> {
    let path = secrets_dir(dir).join(BID_SECRET);
    let text = fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Digest32::from_hex(text.trim()).map_err(|e| format!("{}: {e}", path.display()))
}

/// The sealed amounts, by bidder, kept beside the secret until the reveal.
pub(crate) fn load_amounts(dir: &Path) -> Result<Vec<(String, u32)>, String> {
    let path = secrets_dir(dir).join(BIDS_FILE);
    match fs::read(&path) {
        Ok(b) => serde_json::from_slice(&b).map_err(|e| format!("{}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(format!("{}: {e}", path.display())),
    }
}

/// Keeps `amounts` (fsync'd) before the sealed entry of the last is logged.
pub(crate) fn store_amounts(dir: &Path, amounts: &[(String, u32)]) -> Result<(), String> {
    let bytes = serde_json::to_vec(amounts).expect("amounts serialize");
    write_private(&secrets_dir(dir).join(BIDS_FILE), &bytes)
}

/// Once revealed in the log, the bid secret and amounts are public.
pub(crate) fn remove_secret(dir: &Path) {
    let _ = fs::remove_file(secrets_dir(dir).join(BID_SECRET));
    let _ = fs::remove_file(secrets_dir(dir).join(BIDS_FILE));
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<(), String> {
    use std::io::Write;
    let err = |e: std::io::Error| format!("{}: {e}", path.display());
    let dir = path.parent().expect("a file in a directory");
    fs::create_dir_all(dir).map_err(err)?;
    let tmp = path.with_extension("tmp");
    let mut opts = fs::OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(&tmp).map_err(err)?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(err)?;
    fs::rename(&tmp, path).map_err(err)?;
    fs::File::open(dir).and_then(|d| d.sync_all()).map_err(err)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn amount(b: &str, n: u32) -> BidAmount {
        BidAmount {
            bidder: b.into(),
            ipcs: n,
        }
    }

    #[test]
    fn the_lower_bid_wins_and_a_tie_goes_to_the_die() {
        let s = Digest32([7u8; 32]);
        let m = "league7-classic-01";
        let (win, tie) =
            crate::log::bid::result(m, &s, &[amount("Axis", 12), amount("Allies", 9)], &[]);
        assert_eq!((win.as_deref(), tie), (Some("Allies"), None));
        let c: Vec<Digest32> = ["Axis", "Allies"]
            .iter()
            .map(|b| bid::sealed(m, b, 9, &bid::salt(m, &s, b)))
            .collect();
        // The die of docs/log.md's vector: 2, the second tied bidder.
        let (win, tie) =
            crate::log::bid::result(m, &s, &[amount("Axis", 9), amount("Allies", 9)], &c);
        assert_eq!((win.as_deref(), tie), (Some("Allies"), Some(2)));
        assert_eq!(crate::log::bid::result(m, &s, &[], &[]), (None, None));
    }
}
