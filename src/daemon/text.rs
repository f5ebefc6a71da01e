//! The words of every mail the daemon sends. Plain text, one function per
//! kind of mail; the turn report is [`report_text`] alone, so the templates
//! of the reports issue can replace it in one place.

use std::fmt::Write as _;

/// One accepted orders message, as the log records it.
#[derive(Debug, Clone)]
pub struct StageRecord {
    /// The power.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 or 2.
    pub stage: u8,
    /// The orders as understood (canonical form).
    pub canonical: String,
    /// The digest they contributed to the dice (hex).
    pub digest: String,
    /// What happened.
    pub events: Vec<String>,
}

fn indent(out: &mut String, text: &str) {
    for line in text.lines() {
        let _ = writeln!(out, "    {line}");
    }
}

/// The receipt of an accepted message.
pub fn receipt_text(r: &StageRecord, head: &str, next: &str) -> String {
    let mut s = format!(
        "Received and applied: stage {} of {}'s round {}.\n\nYour orders as understood:\n",
        r.stage, r.power, r.round
    );
    indent(&mut s, &r.canonical);
    s.push_str("\nWhat happened:\n");
    for e in &r.events {
        let _ = writeln!(s, "    {e}");
    }
    if r.events.is_empty() {
        s.push_str("    nothing to report\n");
    }
    let _ = write!(
        s,
        "\nDigest these orders contributed to the dice: {}\nLog head: {head}\n(`adjutant verify LOG --head {head}` checks that a log holds this history.)\n\nNow: {next}\n",
        r.digest
    );
    s
}

/// The turn report sent to every player after an accepted stage: the
/// events and the board.
pub fn report_text(match_id: &str, r: &StageRecord, board: &str, next: &str, head: &str) -> String {
    let mut s = format!(
        "Match {match_id}: {} played stage {} of round {}.\n\nWhat happened:\n",
        r.power, r.stage, r.round
    );
    for e in &r.events {
        let _ = writeln!(s, "    {e}");
    }
    if r.events.is_empty() {
        s.push_str("    nothing to report\n");
    }
    let _ = write!(
        s,
        "\nThe board:\n\n{board}\nNow: {next}\nLog head: {head}\n"
    );
    s
}

/// The reply to a rejected message: every error at once.
pub fn rejection_text(errors: &[String], deadline: &str) -> String {
    let mut s = String::from("Your message was rejected. Nothing was applied.\n\n");
    let _ = writeln!(
        s,
        "{} problem{}:",
        errors.len(),
        if errors.len() == 1 { "" } else { "s" }
    );
    for e in errors {
        let _ = writeln!(s, "  - {e}");
    }
    let _ = write!(
        s,
        "\nCorrect them and send the whole message again.\nDeadline: {deadline}\n"
    );
    s
}

/// The reply to a message that could not be authenticated.
pub fn refused_text(errors: &[String]) -> String {
    let mut s = String::from("Your message was refused. Nothing was applied.\n\n");
    for e in errors {
        let _ = writeln!(s, "  - {e}");
    }
    s
}

/// The welcome mail of one seat, with its secret.
pub fn welcome_text(
    match_id: &str,
    game: &str,
    power: &str,
    name: &str,
    secret: &str,
    orders_address: &str,
    seats: &[(String, String)],
) -> String {
    let mut s = format!(
        "Welcome, {name}: you play {power} in match {match_id} of {game}.\n\n\
         Your secret for this match (keep it; it is shown only this once):\n\n    {secret}\n\n\
         Send your orders as YAML in the body of a mail (or a .yaml attachment) to\n\n    {orders_address}\n\n\
         and start every message with:\n\n    match: {match_id}\n    power: {power}\n    secret: {secret}\n\n\
         Commands: put `command: help` (or status, standing, resend, rotate) in a message with\n\
         your match, power and secret. `rotate` mails you a new secret.\n\nThe players:\n"
    );
    for (p, n) in seats {
        let _ = writeln!(s, "    {p}: {n}");
    }
    s
}

/// The alert to a player's address of record when their secret was used
/// from another address.
pub fn alert_text(power: &str, match_id: &str, other: &str) -> String {
    format!(
        "A message for {power} in match {match_id} came with your secret from another address:\n\n    {other}\n\n\
         It was accepted as yours. If that was not you, send `command: rotate` from this address\n\
         with your secret to get a new one, and tell the organiser.\n"
    )
}

/// The reply to `help`.
pub fn help_text(match_id: &str, orders_address: &str) -> String {
    format!(
        "Adjutant, match {match_id}. Write to {orders_address}.\n\n\
         Every message starts with your match, power and secret:\n\n    match: {match_id}\n    power: Germany\n    secret: ...\n\n\
         then either orders (purchase, combat, battles, noncombat, take_over, place; see docs/orders.md)\n\
         or one command:\n\n\
         \x20   command: help      this text\n\
         \x20   command: status    the board as it stands\n\
         \x20   command: standing  your standing orders (send a standing: section to change them)\n\
         \x20   command: resend    the last turn report again\n\
         \x20   command: rotate    a new secret, mailed to your address of record\n"
    )
}

/// The reply to `rotate`: the new secret.
pub fn rotated_text(power: &str, match_id: &str, secret: &str) -> String {
    format!(
        "Your new secret for {power} in match {match_id}:\n\n    {secret}\n\nThe old one no longer works.\n"
    )
}

/// The notice to an address that wrote to a match it is not in.
pub fn unrouted_text(orders_address_example: &str) -> String {
    format!(
        "Adjutant could not tell which match your message is for. Nothing was applied.\n\n\
         Write to the match's own address ({orders_address_example}) or put the match's tag,\n\
         e.g. [MATCH], in the subject. You will get at most one such notice a day.\n"
    )
}
