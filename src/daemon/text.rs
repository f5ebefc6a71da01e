//! The words of every mail the daemon sends. The receipt, rejection, turn
//! report and welcome are rendered from the templates (`docs/reports.md`),
//! plain text and HTML; the short notices are plain text built here.

use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::report::mail::{DeadlineNotice, Receipt, Rejection, Welcome};
use crate::report::templates::{Rendered, Templates};
use crate::report::turn::{TurnReport, turn_report};
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

/// Renders `kind` with the configured templates; if an organiser's template
/// fails on this context, the failure is logged and the built-in template
/// is used, so a player is never left without an answer.
fn render<S: Serialize>(templates: &Templates, kind: &str, ctx: &S) -> Rendered {
    match templates.render_mail(kind, ctx) {
        Ok(r) => r,
        Err(e) => {
            tracing::error!(error = %e, "template failed; the built-in one is used");
            Templates::shared_builtin()
                .render_mail(kind, ctx)
                .expect("the built-in templates render every context")
        }
    }
}

/// The receipt of an accepted message.
pub fn receipt_text(templates: &Templates, r: &StageRecord, head: &str, next: &str) -> Rendered {
    let ctx = Receipt {
        power: r.power.clone(),
        round: r.round,
        stage: r.stage,
        canonical: r.canonical.clone(),
        digest: r.digest.clone(),
        events: r.events.clone(),
        head: head.to_owned(),
        next: next.to_owned(),
    };
    render(templates, "receipt", &ctx)
}

/// The turn report of adjudication entry `seq`, derived from the match log
/// alone (so a resend or `adjutant report` gives the same words).
pub fn turn_report_of(dir: &Path, seq: u64) -> anyhow::Result<TurnReport> {
    Ok(turn_report(dir, seq)?)
}

/// A turn report rendered for a reader in time zone `zone`. A stage 1
/// report uses the battle-stage template (`battle`), which asks for stage 2.
pub fn report_text(templates: &Templates, report: &TurnReport, zone: Option<&str>) -> Rendered {
    let report = report.clone().for_reader(zone);
    render(templates, report_template(&report), &report)
}

/// The template of a turn report: `battle` after stage 1, `report` else.
pub fn report_template(report: &TurnReport) -> &'static str {
    if report.stage == 1 {
        "battle"
    } else {
        "report"
    }
}

/// A deadline notice (`reminder` or `late`).
pub fn notice_text(templates: &Templates, kind: &str, ctx: &DeadlineNotice) -> Rendered {
    render(templates, kind, ctx)
}

/// The reply to a rejected message: every error at once.
pub fn rejection_text(templates: &Templates, errors: &[String], deadline: &str) -> Rendered {
    let ctx = Rejection {
        errors: errors.to_vec(),
        deadline: deadline.to_owned(),
    };
    render(templates, "rejection", &ctx)
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
pub fn welcome_text(templates: &Templates, ctx: &Welcome) -> Rendered {
    render(templates, "welcome", ctx)
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
         then either orders (purchase, repair, combat, rockets, battles, noncombat, take_over, place; see docs/orders.md)\n\
         or one command:\n\n\
         \x20   command: help      this text\n\
         \x20   command: status    the board as it stands\n\
         \x20   command: standing  your standing orders (send a standing: section to change them)\n\
         \x20   command: resend    the last turn report again\n\
         \x20   command: rotate    a new secret, mailed to your address of record\n\n\
         or questions about battles, answered exactly (docs/odds.md):\n\n\
         \x20   odds:\n\
         \x20     - {{attackers: [3 infantry, 1 armor], defenders: 2 infantry}}\n"
    )
}

/// Most questions answered from one message.
const MAX_ODDS_QUESTIONS: usize = 5;
/// Most battles simulated for one question by mail (the calculator is
/// exact for most battles; this bounds the labelled estimates).
const MAX_ODDS_BATTLES: u64 = 100_000;

/// The reply to an `odds:` section: each question's answer, or what is
/// wrong with it. Deterministic, so a duplicate gets the same words.
pub fn odds_text(game: &crate::rules::GameDef, text: &str) -> String {
    use crate::rules::odds::{OddsQuery, answer};
    let value: serde_json::Value = match serde_saphyr::from_str(text) {
        Ok(v) => v,
        Err(e) => return format!("Your odds questions could not be read:\n\n  {e}\n"),
    };
    let questions = match value.get("odds") {
        Some(serde_json::Value::Array(list)) => list.clone(),
        Some(one) => vec![one.clone()],
        None => Vec::new(),
    };
    if questions.is_empty() {
        return "Your message has an empty `odds:` section: nothing to answer (docs/odds.md).\n"
            .into();
    }
    let mut out = String::new();
    if questions.len() > MAX_ODDS_QUESTIONS {
        let _ = writeln!(
            out,
            "Only the first {MAX_ODDS_QUESTIONS} of your {} questions are answered.\n",
            questions.len()
        );
    }
    for (n, q) in questions.into_iter().take(MAX_ODDS_QUESTIONS).enumerate() {
        let _ = writeln!(out, "QUESTION {}", n + 1);
        match serde_json::from_value::<OddsQuery>(q) {
            Err(e) => {
                let _ = writeln!(out, "  cannot be read: {e}\n");
            }
            Ok(mut query) => {
                let capped = query.battles.is_some_and(|b| b > MAX_ODDS_BATTLES);
                if capped {
                    query.battles = Some(MAX_ODDS_BATTLES);
                }
                match answer(game, &query) {
                    Ok(report) => {
                        // The cap matters only where battles were simulated.
                        if capped && report.method != crate::rules::odds::Method::Exact {
                            let _ = writeln!(
                                out,
                                "  (battles lowered to {MAX_ODDS_BATTLES}, the most by mail)"
                            );
                        }
                        let _ = writeln!(out, "{}", report.to_text());
                    }
                    Err(e) => {
                        for line in e.to_string().lines() {
                            let _ = writeln!(out, "  - {line}");
                        }
                        let _ = writeln!(out);
                    }
                }
            }
        }
    }
    out
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

/// A mail's body: plain text, with an HTML alternative when the mail comes
/// from the templates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MailBody {
    /// The plain-text part.
    pub text: String,
    /// The HTML part.
    pub html: Option<String>,
}

impl From<String> for MailBody {
    fn from(text: String) -> MailBody {
        MailBody { text, html: None }
    }
}

impl From<Rendered> for MailBody {
    fn from(r: Rendered) -> MailBody {
        MailBody {
            text: r.text,
            html: Some(r.html),
        }
    }
}
