//! The rules of `bid` entries (`docs/log.md`, "Bids"), applied by
//! [`super::Chain`] entry by entry: a bid opens (or setup money is given)
//! right after the genesis, each bidder seals one bid, and the reveal opens
//! the server's commitment, every sealed bid and the result, which anyone
//! recomputes here.

use crate::dice::Digest32;
use crate::dice::bid;

use super::entry::{BidEntry, BidStep};

/// A match's bid so far.
#[derive(Clone, Debug, Default)]
pub struct BidState {
    /// The `open` entry's bidders, side and commitment.
    open: Option<(Vec<String>, String, Digest32)>,
    /// Sealed bids: bidder and commitment, in log order.
    sealed: Vec<(String, Digest32)>,
    /// The reveal's entry, once revealed.
    revealed: Option<u64>,
}

impl BidState {
    /// Whether bids are open and not yet revealed (no orders meanwhile).
    pub fn waiting(&self) -> bool {
        self.open.is_some() && self.revealed.is_none()
    }

    /// The bidders who sealed a bid so far.
    pub fn sealed_by(&self) -> Vec<&str> {
        self.sealed.iter().map(|(b, _)| b.as_str()).collect()
    }

    /// The sealed bids' commitments, in log order.
    pub fn sealed_commitments(&self) -> Vec<Digest32> {
        self.sealed.iter().map(|(_, c)| *c).collect()
    }

    /// The open bid's bidders and the side the lower bid takes.
    pub fn bidders(&self) -> Option<(&[String], &str)> {
        self.open
            .as_ref()
            .map(|(b, s, _)| (b.as_slice(), s.as_str()))
    }

    /// Checks `e` (entry `seq`) against the bid so far and returns the
    /// state after it; on error nothing changes.
    pub fn apply(&self, match_id: &str, seq: u64, e: &BidEntry) -> Result<BidState, String> {
        let present = |name: &str, v: bool| -> Result<(), String> {
            if v {
                Ok(())
            } else {
                Err(format!("a bid {} entry needs {name}", step_word(e.step)))
            }
        };
        let only = |allowed: &[&str]| -> Result<(), String> {
            let fields = [
                ("bidders", e.bidders.is_some()),
                ("side", e.side.is_some()),
                ("bidder", e.bidder.is_some()),
                ("commitment", e.commitment.is_some()),
                ("secret", e.secret.is_some()),
                ("bids", e.bids.is_some()),
                ("tie", e.tie.is_some()),
                ("winner", e.winner.is_some()),
                ("money", e.money.is_some()),
            ];
            match fields
                .iter()
                .find(|(name, set)| *set && !allowed.contains(name))
            {
                Some((name, _)) => Err(format!("a bid {} entry has no {name}", step_word(e.step))),
                None => Ok(()),
            }
        };
        let mut next = self.clone();
        match e.step {
            BidStep::Open | BidStep::Setup => {
                if seq != 2 {
                    return Err(format!(
                        "a bid {} entry comes right after the genesis (entry 2), not at entry {seq}",
                        step_word(e.step)
                    ));
                }
                if e.step == BidStep::Setup {
                    only(&["money"])?;
                    let money = e.money.as_deref().unwrap_or_default();
                    present("money", !money.is_empty())?;
                    for (i, m) in money.iter().enumerate() {
                        if m.side.trim().is_empty() {
                            return Err("setup money for a side with no name".into());
                        }
                        if money[..i].iter().any(|x| x.side == m.side) {
                            return Err(format!("setup money for {} twice", m.side));
                        }
                    }
                    return Ok(next);
                }
                only(&["bidders", "side", "commitment"])?;
                let bidders = e.bidders.clone().unwrap_or_default();
                if bidders.len() < 2 {
                    return Err("a bid needs at least two bidders".into());
                }
                for (i, b) in bidders.iter().enumerate() {
                    if b.trim().is_empty() || bidders[..i].contains(b) {
                        return Err(format!("bidder {b:?} is empty or listed twice"));
                    }
                }
                let side = e.side.clone().ok_or("a bid open entry needs side")?;
                if !bidders.contains(&side) {
                    return Err(format!(
                        "the side the lower bid takes, {side}, is none of the bidders {}",
                        bidders.join(", ")
                    ));
                }
                let c = e.commitment.ok_or("a bid open entry needs commitment")?;
                next.open = Some((bidders, side, c));
            }
            BidStep::Sealed => {
                only(&["bidder", "commitment"])?;
                let Some((bidders, _, _)) = &self.open else {
                    return Err("a sealed bid, but no bid is open".into());
                };
                if let Some(r) = self.revealed {
                    return Err(format!(
                        "a sealed bid after the bids were revealed at entry {r}"
                    ));
                }
                let bidder = e.bidder.clone().ok_or("a sealed bid needs bidder")?;
                if !bidders.contains(&bidder) {
                    return Err(format!(
                        "{bidder} is not a bidder (the bidders are {})",
                        bidders.join(", ")
                    ));
                }
                if self.sealed.iter().any(|(b, _)| *b == bidder) {
                    return Err(format!("{bidder} already sealed a bid"));
                }
                let c = e.commitment.ok_or("a sealed bid needs commitment")?;
                next.sealed.push((bidder, c));
            }
            BidStep::Reveal => {
                only(&["secret", "bids", "tie", "winner"])?;
                let Some((bidders, _, commitment)) = &self.open else {
                    return Err("a bid reveal, but no bid is open".into());
                };
                if let Some(r) = self.revealed {
                    return Err(format!("the bids were already revealed at entry {r}"));
                }
                let secret = e.secret.ok_or("a bid reveal needs secret")?;
                let c = bid::commitment(match_id, &secret);
                if c != *commitment {
                    return Err(format!(
                        "the bid secret gives commitment {c}, but the bid opened with {commitment}"
                    ));
                }
                let bids = e.bids.clone().ok_or("a bid reveal needs bids")?;
                // Every sealed bid, in the bidders' order, and no other.
                let expected: Vec<&String> = bidders
                    .iter()
                    .filter(|b| self.sealed.iter().any(|(s, _)| s == *b))
                    .collect();
                let listed: Vec<&String> = bids.iter().map(|b| &b.bidder).collect();
                if listed != expected {
                    return Err(format!(
                        "the reveal lists the bids of [{}], but [{}] sealed bids (in the bidders' order)",
                        join(&listed),
                        join(&expected)
                    ));
                }
                for b in &bids {
                    let salt = bid::salt(match_id, &secret, &b.bidder);
                    let sealed = bid::sealed(match_id, &b.bidder, b.ipcs, &salt);
                    let (_, logged) = self
                        .sealed
                        .iter()
                        .find(|(s, _)| *s == b.bidder)
                        .expect("listed bidders sealed");
                    if sealed != *logged {
                        return Err(format!(
                            "{} revealed {} IPCs, which seal to {sealed}, but the sealed bid was {logged}",
                            b.bidder, b.ipcs
                        ));
                    }
                }
                let commitments: Vec<Digest32> = self.sealed.iter().map(|(_, c)| *c).collect();
                let (winner, tie) = result(match_id, &secret, &bids, &commitments);
                if e.tie != tie {
                    return Err(match tie {
                        Some(v) => format!(
                            "the lowest bids tie and the tie-break die is {v}, but the reveal says {:?}",
                            e.tie
                        ),
                        None => "a tie-break die where the lowest bid is alone".into(),
                    });
                }
                if e.winner != winner {
                    return Err(format!(
                        "the reveal names {} as the winner, but the bids make it {}",
                        e.winner.as_deref().unwrap_or("nobody"),
                        winner.as_deref().unwrap_or("nobody")
                    ));
                }
                next.revealed = Some(seq);
            }
        }
        Ok(next)
    }
}

fn join(v: &[&String]) -> String {
    v.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

fn step_word(s: BidStep) -> &'static str {
    match s {
        BidStep::Open => "open",
        BidStep::Sealed => "sealed",
        BidStep::Reveal => "reveal",
        BidStep::Setup => "setup",
    }
}

/// The winner of revealed `bids` (in the bidders' order) and the tie-break
/// die when the lowest bids tie: the lowest bid wins; among equal lowest
/// bids the die (as many faces as tied bidders) picks, the first tied
/// bidder on a 1. `None` when nobody bid.
pub fn result(
    match_id: &str,
    secret: &Digest32,
    bids: &[super::entry::BidAmount],
    commitments: &[Digest32],
) -> (Option<String>, Option<u32>) {
    let Some(low) = bids.iter().map(|b| b.ipcs).min() else {
        return (None, None);
    };
    let tied: Vec<&str> = bids
        .iter()
        .filter(|b| b.ipcs == low)
        .map(|b| b.bidder.as_str())
        .collect();
    if tied.len() == 1 {
        return (Some(tied[0].to_owned()), None);
    }
    let n = u32::try_from(tied.len()).expect("few bidders");
    let die = bid::tie_die(match_id, secret, commitments, n);
    (Some(tied[die as usize - 1].to_owned()), Some(die))
}
