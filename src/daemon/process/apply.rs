//! Step 7 of a message (`docs/daemon.md`): apply it, or answer it.
//!
//! Only an authenticated message gets here. A command is checked and logged
//! as one `received` entry (its answer is a reply, step 8). Orders are
//! written ahead as a `processing` entry, applied by `Match::submit` (which
//! logs the orders, the reveal and the adjudication), and closed by the
//! final `accepted` or `rejected` entry: a crash between the two is found
//! by the dedupe of the next attempt (`inbound`), which tells from the log
//! whether the orders were applied.

use crate::log::{Outcome, Received};
use crate::matches::{Match, Submitted};

use super::super::commands::Command;
use super::authenticate::Sender;
use super::{Daemon, log_received};

impl Daemon {
    /// Applies or answers the message of `sender` in the open match; returns
    /// the index of its final `received` entry.
    pub(super) fn apply(
        &mut self,
        m: &mut Match,
        id: &str,
        sender: Sender,
    ) -> anyhow::Result<usize> {
        let Sender {
            power,
            header,
            orders,
            base,
        } = sender;
        // A command (except setting standing orders, which are orders); an
        // `odds:` section is the command `odds`.
        let command = header
            .command
            .clone()
            .or_else(|| header.has_odds.then(|| Command::Odds.word().to_owned()));
        if let Some(cmd) = command
            && !(Command::from_word(&cmd) == Some(Command::Standing) && header.has_standing)
        {
            let known = Command::from_word(&cmd);
            let errors = if header.has_orders || header.has_standing {
                vec![
                    "send orders and commands (or odds questions) in separate messages".to_string(),
                ]
            } else if known == Some(Command::Odds) && !header.has_odds {
                vec!["ask in an `odds:` section, e.g. `odds: {attackers: [3 infantry, 1 armor], defenders: 2 infantry}` (command: help shows more)".to_string()]
            } else if header.has_odds && known != Some(Command::Odds) {
                vec![format!(
                    "send the command \"{cmd}\" and odds questions in separate messages"
                )]
            } else if known.is_none() {
                vec![format!(
                    "\"{cmd}\" is not a command; the commands are {}",
                    Command::words()
                )]
            } else if known == Some(Command::History) {
                // Which reports: checked now, so a wrong one is rejected
                // with what would be valid.
                super::league::history_entries(m.log().entries(), &header)
                    .err()
                    .into_iter()
                    .collect()
            } else if header.stage.is_some() || header.entry.is_some() {
                vec![format!(
                    "stage: and entry: go only with command: history; command: {cmd} takes neither"
                )]
            } else {
                Vec::new()
            };
            let received = if errors.is_empty() {
                Received {
                    outcome: Outcome::Command,
                    command: Some(cmd),
                    ..base
                }
            } else {
                Received {
                    outcome: Outcome::Rejected,
                    errors,
                    ..base
                }
            };
            return log_received(m, received);
        }

        // Orders: write-ahead record, apply, final record.
        log_received(
            m,
            Received {
                outcome: Outcome::Processing,
                ..base.clone()
            },
        )?;
        let received = match m.submit_any(&power, &orders)? {
            Ok(Submitted::Bid(b)) => {
                tracing::info!(match_id = %id, power = %power, bidder = %b.bidder, "bid sealed");
                Received {
                    outcome: Outcome::Accepted,
                    ..base
                }
            }
            Ok(Submitted::Orders(receipt)) => {
                tracing::info!(match_id = %id, power = %power, round = receipt.round, stage = receipt.stage, "orders accepted");
                Received {
                    outcome: Outcome::Accepted,
                    ..base
                }
            }
            Err(errors) => {
                tracing::info!(match_id = %id, power = %power, errors = errors.len(), "orders rejected");
                Received {
                    outcome: Outcome::Rejected,
                    errors: errors.iter().map(ToString::to_string).collect(),
                    ..base
                }
            }
        };
        log_received(m, received)
    }
}
