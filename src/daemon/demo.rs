//! `adjutant run --demo`: a whole turn by mail on the embedded default.
//!
//! Creates a demonstration match under `DATA/matches/`, lets the daemon
//! welcome its players (generating their secrets), drops Germany's stage 1
//! and stage 2 orders as `.eml` files into the inbox, written with the real
//! secret just issued, and lets the daemon handle them: receipts, turn
//! reports and welcome mails end up as `.eml` files in `DATA/sent-mail/`.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::Context;

use crate::log::{VerifyOptions, verify_file};
use crate::matches::Match;
use crate::rules::builtin::GameSource;

use super::Daemon;

/// The demonstration match's players (addresses that never leave the
/// machine: `.localhost` is reserved).
pub fn players_yaml(id: &str) -> String {
    format!(
        "match: {id}\nplayers:\n  Germany: {{name: Gerda, email: gerda@players.localhost}}\n  \
         Soviet Union: {{name: Sasha, email: sasha@players.localhost}}\n  \
         United Kingdom: {{name: Una, email: una@players.localhost}}\n  \
         United States: {{name: Sam, email: sam@players.localhost}}\n"
    )
}

/// Germany's orders for round 1: stage 1 and stage 2.
pub const STAGE_ORDERS: [&str; 2] = [
    "purchase: 2 infantry, 1 armor\nentropy: the demo's own entropy\n",
    "noncombat:\n  - 1 infantry: Germany -> Poland\nplace:\n  Germany: 2 infantry, 1 armor\n",
];

/// An orders mail as a player's mail program would write it.
pub fn orders_mail(
    from: &str,
    to: &str,
    match_id: &str,
    power: &str,
    secret: &str,
    n: usize,
    orders: &str,
) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: orders, stage {n}\r\nDate: Mon, 02 Mar 2026 10:0{n}:00 +0000\r\n\
         Message-ID: <demo-{match_id}-{n}@players.localhost>\r\nMIME-Version: 1.0\r\n\
         Content-Type: text/plain; charset=utf-8\r\n\r\nmatch: {match_id}\r\npower: {power}\r\nround: 1\r\nsecret: {secret}\r\n{}",
        orders.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// Plays the demo and returns what to print.
pub fn run(daemon: &mut Daemon, games: &GameSource) -> anyhow::Result<String> {
    let mut out = String::new();
    let config = daemon.config().clone();
    let mut n = 1;
    let (id, dir) = loop {
        let id = format!("demo-{n}");
        let dir = config.matches_dir.join(&id);
        if !dir.exists() {
            break (id, dir);
        }
        n += 1;
    };
    drop(
        Match::create_from(&dir, games, "aae", &players_yaml(&id))
            .with_context(|| format!("cannot create the demo match in {}", dir.display()))?,
    );
    let _ = writeln!(out, "1. created match {id} of aae in {}", dir.display());
    let issued = daemon.discover()?;
    let secret = issued
        .iter()
        .find(|(m, p, _)| *m == id && p == "Germany")
        .map(|(_, _, s)| s.clone())
        .context("the daemon issued no secret for Germany")?;
    let _ = writeln!(
        out,
        "2. welcome mails queued for 4 players; Germany's secret is {secret}"
    );
    let to = config.orders_address().for_match(&id);
    for (i, orders) in STAGE_ORDERS.iter().enumerate() {
        let mail = orders_mail(
            "Gerda <gerda@players.localhost>",
            &to,
            &id,
            "Germany",
            &secret,
            i + 1,
            orders,
        );
        let delivered = daemon
            .maildir()
            .context("the demo needs a Maildir inbox")?
            .deliver(&mail)?;
        let pass = daemon.process_pending()?;
        daemon.deliver()?;
        let _ = writeln!(
            out,
            "{}. Germany's stage {} orders delivered to {} and handled ({} message(s))",
            i + 3,
            i + 1,
            delivered.path.display(),
            pass.processed
        );
    }
    daemon.deliver()?;
    let log = dir.join("log.jsonl");
    let summary = verify_file(&log, &VerifyOptions::default())?
        .map_err(|e| anyhow::anyhow!("the demo log does not verify: {e}"))?;
    let _ = writeln!(
        out,
        "5. {} verifies: {} entries, {} order messages, head {}",
        log.display(),
        summary.entries,
        summary.orders,
        summary.head
    );
    if let super::config::Transport::File(sent) = &config.transport {
        let mut files: Vec<PathBuf> = std::fs::read_dir(sent)
            .with_context(|| format!("cannot list {}", sent.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .collect();
        files.sort();
        let _ = writeln!(out, "6. the mail sent, as files in {}:", sent.display());
        let mut lines = Vec::new();
        for f in &files {
            let bytes = std::fs::read(f)?;
            let text = String::from_utf8_lossy(&bytes);
            let header = |name: &str| {
                text.lines()
                    .find(|l| l.to_ascii_lowercase().starts_with(&format!("{name}:")))
                    .map(|l| l[name.len() + 1..].trim().to_owned())
                    .unwrap_or_default()
            };
            if header("subject").contains(&format!("[{id}")) {
                lines.push(format!(
                    "   {:<28} {}  ({})",
                    header("to"),
                    header("subject"),
                    f.file_name().unwrap_or_default().to_string_lossy()
                ));
            }
        }
        lines.sort();
        for l in lines {
            let _ = writeln!(out, "{l}");
        }
    }
    let _ = writeln!(
        out,
        "\nRead a receipt or a report in the files above; `adjutant show --match {}` shows the board,\n\
         `adjutant log show {}` the log.",
        dir.display(),
        log.display()
    );
    Ok(out)
}
