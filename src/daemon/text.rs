//! The words of every mail the daemon sends, rendered from the templates
//! (`docs/reports.md`), plain text and HTML. Only the contents of answers
//! (the board for `status`, odds, standing orders) are built here as text.

use std::fmt::Write as _;

use serde::Serialize;

use super::commands::Command;
use crate::matches::Match;
use crate::report::mail::{
    Alert, Answer, Command as CommandLine, DeadlineNotice, Help, Receipt, Refused, Rejection,
    Rotated, Unrouted, Welcome,
};
use crate::report::templates::{Rendered, Templates};
use crate::report::turn::{TurnReport, turn_report_from};
/// One accepted orders message, as the log records it.
#[derive(Debug, Clone)]
pub struct StageRecord {
    /// The power.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 or 2 (1 also when stage 2 came in the same message), 0 for
    /// standing orders.
    pub stage: u8,
    /// The power's turn ended with this message (so a stage 1 carried
    /// stage 2 as well).
    pub turn_ended: bool,
    /// The orders as understood (canonical form).
    pub canonical: String,
    /// The digest they contributed to the dice (hex).
    pub digest: String,
    /// What happened.
    pub events: Vec<String>,
    /// The match id, which the digest binds.
    pub match_id: String,
    /// The dice turn, which the digest binds.
    pub turn: u32,
}

impl StageRecord {
    /// What the message played, in words (`stages 1 and 2`, ...).
    pub fn stages(&self) -> String {
        crate::report::turn::stages_played(self.stage, self.turn_ended)
    }
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
        stages: r.stages(),
        canonical: r.canonical.clone(),
        digest: r.digest.clone(),
        events: r.events.clone(),
        match_id: r.match_id.clone(),
        turn: r.turn,
        head: head.to_owned(),
        next: next.to_owned(),
    };
    render(templates, "receipt", &ctx)
}

/// The turn report of adjudication entry `seq`, derived from the log of
/// the open match alone (so a resend or `adjutant report` gives the same
/// words).
pub fn turn_report_of(m: &Match, seq: u64) -> anyhow::Result<TurnReport> {
    Ok(turn_report_from(m.game(), m.log().entries(), seq)?)
}

/// A turn report rendered for a reader in time zone `zone`. A stage 1
/// report uses the battle-stage template (`battle`), which asks for stage 2.
pub fn report_text(templates: &Templates, report: &TurnReport, zone: Option<&str>) -> Rendered {
    let report = report.clone().for_reader(zone);
    render(templates, report_template(&report), &report)
}

/// The template of a turn report: `battle` after a stage 1 that leaves
/// stage 2 to come, `report` else.
pub fn report_template(report: &TurnReport) -> &'static str {
    // The battle template asks the same power for its stage 2; after a
    // stage 1 that hands a shared turn to the partner (Anniversary, KQ-1)
    // the partner moves next, and the general report says so.
    if report.stage == 1 && report.stages == "stage 1" && report.next_power == report.power {
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
pub fn refused_text(templates: &Templates, errors: &[String]) -> Rendered {
    let ctx = Refused {
        errors: errors.to_vec(),
    };
    render(templates, "refused", &ctx)
}

/// The welcome mail of one seat, with its secret.
pub fn welcome_text(templates: &Templates, ctx: &Welcome) -> Rendered {
    render(templates, "welcome", ctx)
}

/// The alert to a player's address of record when their secret was used
/// from another address.
pub fn alert_text(templates: &Templates, power: &str, match_id: &str, other: &str) -> Rendered {
    let ctx = Alert {
        power: power.to_owned(),
        match_id: match_id.to_owned(),
        other: other.to_owned(),
    };
    render(templates, "alert", &ctx)
}

/// Who the help reply is for and where the match stands.
pub struct HelpFor<'a> {
    /// The match id.
    pub match_id: &'a str,
    /// Where orders go.
    pub orders_address: &'a str,
    /// The match's game.
    pub game: &'a crate::rules::GameDef,
    /// The reader's power.
    pub power: crate::rules::vocab::PowerId,
    /// The round now played.
    pub round: u32,
    /// Who is to move now, and what they must send.
    pub now: &'a str,
    /// The organiser's page for players, if configured.
    pub help_url: Option<&'a str>,
}

/// The reply to `help`: a guide for the reader's power on the match's
/// board, section by section with examples, and the commands; complete in
/// itself (players do not have the repository's docs).
pub fn help_text(templates: &Templates, h: &HelpFor<'_>) -> Rendered {
    let width = Command::IN_HELP
        .iter()
        .map(|c| c.word().len())
        .max()
        .unwrap_or(0);
    let ctx = Help {
        match_id: h.match_id.to_owned(),
        orders_address: h.orders_address.to_owned(),
        example_power: h.game.powers()[h.power].name.clone(),
        game: h.game.files().game.name.clone(),
        round: h.round,
        now: h.now.to_owned(),
        guide: crate::report::help::guide(h.game, h.power, h.match_id, h.round),
        help_url: h.help_url.map(str::to_owned),
        sections: crate::rules::orders::keys::SECTIONS
            .iter()
            // Neither is part of a turn: standing orders come alone, and a
            // sealed bid alone before round 1.
            .filter(|s| **s != "standing" && **s != "bid")
            .map(|s| (*s).to_owned())
            .collect(),
        commands: Command::IN_HELP
            .iter()
            .map(|c| CommandLine {
                name: c.word().to_owned(),
                padded: format!("{:<width$}", c.word()),
                about: c.about().to_owned(),
            })
            .collect(),
    };
    render(templates, "help", &ctx)
}

/// A preformatted answer (`status`, `standing`, `odds`, an empty `resend`).
pub fn answer_text(templates: &Templates, title: &str, text: &str) -> Rendered {
    let ctx = Answer {
        title: title.to_owned(),
        text: text.to_owned(),
    };
    render(templates, "answer", &ctx)
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
        return "Your message has an empty `odds:` section: nothing to answer (command: help shows a question).\n"
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
pub fn rotated_text(templates: &Templates, power: &str, match_id: &str, secret: &str) -> Rendered {
    let ctx = Rotated {
        power: power.to_owned(),
        match_id: match_id.to_owned(),
        secret: secret.to_owned(),
    };
    render(templates, "rotated", &ctx)
}

/// The notice to an address that wrote to a match it is not in.
pub fn unrouted_text(templates: &Templates, orders_address_example: &str) -> Rendered {
    let ctx = Unrouted {
        orders_address_example: orders_address_example.to_owned(),
    };
    render(templates, "unrouted", &ctx)
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
