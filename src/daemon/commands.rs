//! The commands a mail may carry instead of orders (`command: status`):
//! what the daemon answers, so they are the daemon's. The orders parser
//! knows only their words ([`crate::rules::orders::keys::COMMANDS`]), to
//! read a `command:` line with a "did you mean"; a test keeps the two lists
//! the same.

/// A command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Command {
    /// A guide to the orders for the sender's power, and the commands.
    Help,
    /// The board as it stands.
    Status,
    /// The last turn report again.
    Resend,
    /// The sender's standing orders.
    Standing,
    /// The odds of the battles of the message's `odds:` section.
    Odds,
    /// A new secret, mailed to the address of record.
    Rotate,
    /// The standings of the leagues the match belongs to.
    Standings,
    /// The sender's matches on this server, each with its state and
    /// deadline.
    List,
    /// An earlier turn report: by `round:` (and `stage:`) or `entry:`.
    History,
}

impl Command {
    /// Every command, in the order a rejection lists them.
    pub const ALL: [Command; 9] = [
        Command::Help,
        Command::Status,
        Command::Resend,
        Command::Standing,
        Command::Odds,
        Command::Rotate,
        Command::Standings,
        Command::List,
        Command::History,
    ];

    /// The commands the help lists, in its order (odds questions have a
    /// section of their own there).
    pub const IN_HELP: [Command; 8] = [
        Command::Help,
        Command::Status,
        Command::Standing,
        Command::Resend,
        Command::History,
        Command::List,
        Command::Standings,
        Command::Rotate,
    ];

    /// The word a player writes, which is also what the log records.
    pub fn word(self) -> &'static str {
        match self {
            Command::Help => "help",
            Command::Status => "status",
            Command::Resend => "resend",
            Command::Standing => "standing",
            Command::Odds => "odds",
            Command::Rotate => "rotate",
            Command::Standings => "standings",
            Command::List => "list",
            Command::History => "history",
        }
    }

    /// The command of a lowercased word, if it is one.
    pub fn from_word(word: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.word() == word)
    }

    /// What it does, in the help's words.
    pub fn about(self) -> &'static str {
        match self {
            Command::Help => "this text",
            Command::Status => "the board as it stands",
            Command::Resend => "the last turn report again",
            Command::Standing => "your standing orders (send a standing: section to change them)",
            Command::Odds => "the odds of the battles of an odds: section",
            Command::Rotate => "a new secret, mailed to your address of record",
            Command::Standings => "the standings of the league this match belongs to",
            Command::List => "your matches on this server, each with its state and deadline",
            Command::History => {
                "an earlier turn report: add round: 2 (and stage: 1), or entry: 57 (its log entry)"
            }
        }
    }

    /// Every command's word, as a rejection lists them.
    pub fn words() -> String {
        Command::ALL.map(Command::word).join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::orders::keys;

    #[test]
    fn the_parser_reads_the_words_of_the_daemons_commands() {
        assert_eq!(Command::ALL.map(Command::word).as_slice(), keys::COMMANDS);
        for c in Command::ALL {
            assert_eq!(Command::from_word(c.word()), Some(c));
        }
    }
}
