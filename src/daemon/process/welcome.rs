//! New matches: the daemon finds every match directory under
//! `DATA/matches/` and, the first time it sees one, logs its `welcome` entry
//! and mails each player a welcome with a fresh secret.
//!
//! Not a step of a message, but the same rule holds: the entry is logged
//! before the mail is enqueued, under a key made of it, so a crash in
//! between sends every welcome once. A welcome's secret exists in clear
//! only in its mail, so one not yet queued gets a new secret.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Context;

use crate::log::{Body, Welcome};
use crate::mail::compose::Kind;
use crate::mail::route::format_subject_tag;
use crate::matches::history::genesis_of;
use crate::matches::{Match, PlayerSecrets, Roster};
use crate::report::mail::{RuleOption, Seat, Welcome as WelcomeMail};

use super::super::ledger::Ledger;
use super::super::text;
use super::Daemon;

impl Daemon {
    /// Finds every match directory under `DATA/matches/` and sends the
    /// welcome mails of matches not yet welcomed. Returns the secrets
    /// issued in this call, by match id (the demo needs them).
    pub fn discover(&mut self) -> anyhow::Result<Vec<(String, String, String)>> {
        let dir = &self.config.matches_dir;
        let mut found: BTreeMap<String, PathBuf> = BTreeMap::new();
        for entry in
            std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?
        {
            let path = entry?.path();
            // Only the genesis line is read: this runs on every pass.
            let Some(g) = genesis_of(&path) else {
                continue;
            };
            if let Some(other) = found.get(&g.match_id) {
                tracing::warn!(match_id = %g.match_id, first = %other.display(), second = %path.display(), "two directories hold the same match id; using the first");
                continue;
            }
            found.insert(g.match_id, path);
        }
        self.matches = found;
        let mut issued = Vec::new();
        let todo: Vec<(String, PathBuf)> = self
            .matches
            .iter()
            .filter(|(id, _)| !self.welcomed.contains(*id))
            .map(|(id, d)| (id.clone(), d.clone()))
            .collect();
        for (id, d) in todo {
            match self.ensure_welcome(&id, &d) {
                Ok(secrets) => {
                    self.welcomed.insert(id.clone());
                    issued.extend(secrets.into_iter().map(|(p, s)| (id.clone(), p, s)));
                }
                Err(e) => {
                    tracing::warn!(match_id = %id, error = %format!("{e:#}"), "cannot welcome the match yet")
                }
            }
        }
        Ok(issued)
    }

    /// Logs the welcome (once) and makes sure every player's welcome mail,
    /// with a fresh secret, is in the outbox. Returns the secrets issued.
    fn ensure_welcome(&mut self, id: &str, dir: &Path) -> anyhow::Result<Vec<(String, String)>> {
        let mut m = Match::open(dir)?;
        let roster = Roster::load(dir, m.game())?;
        let game_name = m.game().files().game.name.clone();
        let options: Vec<RuleOption> = crate::rules::variants::all_options(m.game().rule_set())
            .into_iter()
            // An option whose rule is not played yet is no setting of the match.
            .filter(|spec| spec.pending.is_none())
            .filter_map(|spec| {
                Some(RuleOption {
                    name: spec.name.to_owned(),
                    value: spec.value(m.game())?.to_string(),
                    about: spec.about.to_owned(),
                })
            })
            .collect();
        let deadlines = match crate::matches::deadlines::DeadlineSettings::with_match(
            self.config.deadlines,
            roster.deadlines(),
        ) {
            Ok(d) => d.describe(),
            Err(_) => "see the organiser (the match's deadline settings have a problem)".into(),
        };
        if Ledger::of(&m).welcome().is_none() {
            m.record(Body::Welcome(Welcome {
                powers: roster.seats().iter().map(|s| s.power.clone()).collect(),
            }))?;
            tracing::info!(match_id = %id, "new match: welcome logged");
        }
        let ledger = Ledger::of(&m);
        let seq = ledger.welcome().expect("just logged");
        let mut secrets = PlayerSecrets::load(dir)?;
        let seats: Vec<Seat> = roster
            .seats()
            .iter()
            .map(|s| Seat {
                power: s.power.clone(),
                name: s.name.clone(),
            })
            .collect();
        let mut issued = Vec::new();
        for seat in roster.seats() {
            let key = format!("{id}/{seq}/welcome/{}", seat.power);
            if self.outbox.status(&key)?.is_some() {
                continue;
            }
            // A secret exists in clear only in this mail: a new one is
            // issued (and its hash saved) for every welcome not yet queued.
            let secret = secrets.issue(&seat.power)?;
            secrets.save()?;
            let body = text::welcome_text(
                &self.templates,
                &WelcomeMail {
                    match_id: id.to_owned(),
                    game: game_name.clone(),
                    power: seat.power.clone(),
                    name: seat.name.clone(),
                    secret: secret.clone(),
                    orders_address: self.ours.for_match(id),
                    seats: seats.clone(),
                    options: options.clone(),
                    deadlines: deadlines.clone(),
                },
            );
            let out = self.outgoing(
                id,
                &seat.email,
                Kind::Report,
                Some(format_subject_tag(id, None, Some(&seat.power))),
                format!("Welcome: you play {}", seat.power),
                body,
                None,
                &key,
                Some(ledger.entries()[(seq - 1) as usize].hash),
            );
            self.enqueue(&key, &out)?;
            issued.push((seat.power.clone(), secret));
        }
        Ok(issued)
    }
}
