//! The contexts of the mail templates other than the turn report
//! (`docs/reports.md` lists every variable).

use serde::Serialize;

/// `receipt.txt` / `receipt.html`: an accepted message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Receipt {
    /// The power.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 or 2 (1 also when stage 2 came in the same message), 0 for
    /// standing orders.
    pub stage: u8,
    /// What the message played, in words: `stage 1`, `stage 2`, `stages 1
    /// and 2` or `standing orders`.
    pub stages: String,
    /// The orders as understood (canonical form).
    pub canonical: String,
    /// The digest they contributed to the dice (hex).
    pub digest: String,
    /// What happened, in order.
    pub events: Vec<String>,
    /// The match id, which the digest binds.
    pub match_id: String,
    /// The dice turn, which the digest binds.
    pub turn: u32,
    /// The log head after the message (hex).
    pub head: String,
    /// Who is to move now, and what they must send.
    pub next: String,
}

/// `rejection.txt` / `rejection.html`: a rejected message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    /// Every problem found.
    pub errors: Vec<String>,
    /// The stage's deadline, as text.
    pub deadline: String,
}

/// `welcome.txt` / `welcome.html`: one seat's welcome, with its secret.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Welcome {
    /// The match id.
    pub match_id: String,
    /// The game's name.
    pub game: String,
    /// The seat's power.
    pub power: String,
    /// The player's name.
    pub name: String,
    /// The player's secret.
    pub secret: String,
    /// Where orders go.
    pub orders_address: String,
    /// Every seat of the match.
    pub seats: Vec<Seat>,
    /// The rule options in force (the match's game data over the rule
    /// set's defaults).
    pub options: Vec<RuleOption>,
    /// The match's deadlines in words (`72h per stage, ...`, or none).
    pub deadlines: String,
}

/// A rule option in [`Welcome`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleOption {
    /// Its key in `game.yaml`.
    pub name: String,
    /// Its value.
    pub value: String,
    /// What it changes.
    pub about: String,
}

/// A seat in [`Welcome`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Seat {
    /// The power.
    pub power: String,
    /// The player's name.
    pub name: String,
}

/// `reminder.txt` / `reminder.html` and `late.txt` / `late.html`: a stage's
/// deadline is near, or passed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DeadlineNotice {
    /// The match id.
    pub match_id: String,
    /// The power whose orders are due.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 or 2.
    pub stage: u8,
    /// The deadline in UTC (`2026-11-24 10:00 UTC`).
    pub due_utc: String,
    /// The deadline in the reader's time zone, if one is set.
    pub due_local: Option<String>,
    /// The no-orders policy: `wait` or `pass`.
    pub policy: String,
    /// True for the player who owes the orders, false for the others.
    pub to_player: bool,
    /// Where orders go.
    pub orders_address: String,
    /// The header of an orders message (match, power, round, secret line).
    pub skeleton: String,
}

/// `help.txt` / `help.html`: the reply to `command: help`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Help {
    /// The match id.
    pub match_id: String,
    /// Where orders go.
    pub orders_address: String,
    /// The reader's power (the help is written for it).
    pub example_power: String,
    /// The game's name.
    pub game: String,
    /// The round now played.
    pub round: u32,
    /// Who is to move now, and what they must send.
    pub now: String,
    /// The order sections a message may carry, in canonical order.
    pub sections: Vec<String>,
    /// The guide: each section with what to know and an example for the
    /// reader's power on this board.
    pub guide: Vec<crate::report::help::GuideSection>,
    /// The commands.
    pub commands: Vec<Command>,
    /// The organiser's page for players (`mail.help_url`), if configured.
    pub help_url: Option<String>,
}

/// A command in [`Help`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Command {
    /// Its word (`status`).
    pub name: String,
    /// The word padded with spaces to the longest one, for aligned text.
    pub padded: String,
    /// What it does.
    pub about: String,
}

/// `refused.txt` / `refused.html`: a message that could not be
/// authenticated or read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Refused {
    /// Why.
    pub errors: Vec<String>,
}

/// `alert.txt` / `alert.html`: to a player's address of record, when their
/// secret was used from another address.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Alert {
    /// The power.
    pub power: String,
    /// The match id.
    pub match_id: String,
    /// The other address.
    pub other: String,
}

/// `rotated.txt` / `rotated.html`: the reply to `command: rotate`, sent to
/// the address of record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rotated {
    /// The power.
    pub power: String,
    /// The match id.
    pub match_id: String,
    /// The new secret.
    pub secret: String,
}

/// `unrouted.txt` / `unrouted.html`: to an address that wrote to no match
/// it could be routed to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Unrouted {
    /// An example of a match's own orders address.
    pub orders_address_example: String,
}

/// `answer.txt` / `answer.html`: the reply to `status`, `standing`, `odds`
/// and `resend` when there is nothing to resend: a title and preformatted
/// text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answer {
    /// What was asked (`Status of league7-aae-03`).
    pub title: String,
    /// The answer, preformatted.
    pub text: String,
}
