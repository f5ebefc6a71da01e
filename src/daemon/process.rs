//! The daemon: one pass over the inbox, message by message, and the welcome
//! mails of new matches.
//!
//! Each message goes through, in this order: read, parse, hygiene (no reply
//! to machines; bounces recorded), route, dedupe against the match log,
//! authenticate, apply or answer, log, enqueue the replies in the outbox,
//! move the message to `.processed`. See `docs/daemon.md` for why this
//! order applies every message exactly once across crashes.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::SystemTime;

use anyhow::Context;
use chrono::{DateTime, Duration as ChronoDuration, Utc};

use crate::dice::Digest32;
use crate::log::{Body, MatchLog, Outcome, Received, Welcome, parse_line};
use crate::mail::compose::{Kind, Outgoing, Thread, compose, message_id_for};
use crate::mail::hygiene;
use crate::mail::imap::ImapConfig;
use crate::mail::inbox::{ImapInbox, Inbox, Waiting};
use crate::mail::maildir::Maildir;
use crate::mail::message::{Inbound, Mailbox, ParseLimits, parse};
use crate::mail::outbox::{DeliveryReport, Outbox, OutboxError, RetryPolicy};
use crate::mail::route::{Address, format_subject_tag, route};
use crate::mail::transport::{
    FileTransport, SendmailTransport, SmtpConfig, SmtpTransport, Transport as MailTransport,
};
use crate::matches::players::{address_hash, address_key};
use crate::matches::{Match, PlayerSecrets, Roster};
use crate::report::board;
use crate::report::mail::{RuleOption, Seat, Welcome as WelcomeMail};
use crate::report::templates::Templates;
use crate::rules::GameDef;
use crate::rules::orders::header::{HeaderLines, scan_header};

use super::config::{Config, Inbound as InboundConfig, Transport as TransportConfig};

mod deadlines;
use super::ledger::Ledger;
use super::text::{self, MailBody};

/// A running daemon: its configuration, inbox, outbox and transport.
pub struct Daemon {
    config: Config,
    ours: Address,
    inbox: Inbox,
    outbox: Outbox,
    transport: Box<dyn MailTransport>,
    /// Match id -> directory.
    matches: BTreeMap<String, PathBuf>,
    /// Matches whose welcome was checked in this process.
    welcomed: HashSet<String>,
    /// Unrouted-mail notices of the last day, by the sender's address hash
    /// (persisted in `DATA/unrouted-notices.json`, so a restart does not
    /// reset the limit).
    unrouted_notices: HashMap<String, DateTime<Utc>>,
    stop: Arc<AtomicBool>,
    /// The mail templates (built-in, overridden by `templates_dir`).
    templates: Templates,
    /// Per match: when its deadlines were last looked at.
    clocks: HashMap<String, deadlines::Clock>,
}

/// Why the daemon could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Another process holds the outbox: a daemon is running.
    #[error("another adjutant process is running on {0} (its outbox is locked)")]
    Running(PathBuf),
    /// Anything else.
    #[error(transparent)]
    Other(#[from] anyhow::Error),
}

/// What one pass did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Pass {
    /// Messages taken out of the inbox.
    pub processed: usize,
    /// Messages left in the inbox because handling them failed.
    pub failed: usize,
}

/// What the authentication of a message decided.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Auth {
    /// The sender is the player of this power (by secret).
    Player {
        /// The power, as the game names it.
        power: String,
    },
    /// A valid secret, of `power`, in a message whose `power:` names
    /// another power (`claimed`): nothing is applied.
    Mismatch {
        /// The power whose secret it is.
        power: String,
        /// The power the message names.
        claimed: String,
    },
    /// A known player's address with a missing or wrong secret.
    Refused {
        /// What the sender is told.
        reason: String,
    },
    /// An address that is not a player of the match, without a valid secret.
    Unknown,
}

/// Decides who sent a message from its scanned header: `known` says whether
/// the sender's address is a player's of the match. A valid secret names the
/// power (the claimed one if the secret is its own); a known address
/// without one is refused; anyone else is unknown.
pub fn authenticate(
    game: &GameDef,
    header: &HeaderLines,
    known: bool,
    secrets: &PlayerSecrets,
) -> Auth {
    let claimed = header
        .power
        .as_deref()
        .and_then(|p| game.power(p))
        .map(|p| game.powers()[p].name.clone());
    match header.secret.as_deref().filter(|s| !s.is_empty()) {
            None if known => Auth::Refused {
                reason: "the message has no secret: line; every message needs `secret:` with the secret from your welcome mail".into(),
            },
            None => Auth::Unknown,
            Some(secret) => {
                let owners = secrets.powers_with(secret);
                match claimed {
                    Some(c) if owners.contains(&c) => Auth::Player { power: c },
                    Some(c) if !owners.is_empty() => Auth::Mismatch {
                        power: owners[0].clone(),
                        claimed: c,
                    },
                    _ if !owners.is_empty() => Auth::Player {
                        power: owners[0].clone(),
                    },
                    _ if known => Auth::Refused {
                        reason: "the secret is wrong; nothing was applied (`command: rotate` with the right secret, or the organiser, gives a new one)".into(),
                    },
                    _ => Auth::Unknown,
                }
            }
        }
}

fn transport_of(config: &Config) -> anyhow::Result<Box<dyn MailTransport>> {
    Ok(match &config.transport {
        TransportConfig::File(dir) => Box::new(FileTransport::new(dir.clone())),
        TransportConfig::Sendmail(path) => Box::new(SendmailTransport::new(path.clone())),
        TransportConfig::Smtp {
            host,
            port,
            security,
            login,
            timeout,
            ca_file,
        } => {
            let credentials = match login {
                Some((user, file)) => {
                    let pw = std::fs::read_to_string(file)
                        .with_context(|| format!("cannot read {}", file.display()))?;
                    Some((
                        user.clone(),
                        pw.lines().next().unwrap_or_default().to_owned(),
                    ))
                }
                None => None,
            };
            Box::new(SmtpTransport::new(&SmtpConfig {
                host: host.clone(),
                port: *port,
                security: *security,
                credentials,
                timeout: *timeout,
                hello_name: Some(config.domain.clone()),
                extra_root_pem: match ca_file {
                    Some(f) => Some(
                        std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?,
                    ),
                    None => None,
                },
            })?)
        }
    })
}

impl Daemon {
    /// Opens the inbox, takes the outbox (one daemon per data directory)
    /// and builds the transport.
    pub fn open(config: Config, stop: Arc<AtomicBool>) -> Result<Daemon, StartError> {
        std::fs::create_dir_all(&config.matches_dir)
            .with_context(|| format!("cannot create {}", config.matches_dir.display()))?;
        let inbox = match &config.inbound {
            InboundConfig::Maildir(dir) => {
                Inbox::Maildir(Maildir::open(dir).context("cannot open the inbox")?)
            }
            InboundConfig::Imap(i) => {
                let password = std::fs::read_to_string(&i.password_file)
                    .with_context(|| format!("cannot read {}", i.password_file.display()))?;
                let extra_root_pem = match &i.ca_file {
                    Some(f) => Some(
                        std::fs::read(f).with_context(|| format!("cannot read {}", f.display()))?,
                    ),
                    None => None,
                };
                let mut imap = ImapInbox::new(
                    ImapConfig {
                        host: i.host.clone(),
                        port: i.port,
                        security: i.security,
                        user: i.user.clone(),
                        password: password.lines().next().unwrap_or_default().to_owned(),
                        timeout: i.timeout,
                        extra_root_pem,
                    },
                    &i.folder,
                    &i.processed_folder,
                );
                // A wrong host or password is reported at start.
                imap.connect()
                    .with_context(|| format!("cannot open the IMAP inbox {}@{}", i.user, i.host))?;
                Inbox::Imap(Box::new(imap))
            }
        };
        let outbox = match Outbox::open(&config.outbox_dir, RetryPolicy::default()) {
            Ok(o) => o,
            Err(OutboxError::Locked(p)) => return Err(StartError::Running(p)),
            Err(e) => {
                return Err(anyhow::Error::from(e)
                    .context("cannot open the outbox")
                    .into());
            }
        };
        let transport = transport_of(&config)?;
        let templates = Templates::load(config.templates_dir.as_deref())
            .context("cannot load the mail templates")?;
        let unrouted_notices = load_notices(&config.data_dir);
        Ok(Daemon {
            templates,
            ours: config.orders_address(),
            config,
            inbox,
            outbox,
            transport,
            matches: BTreeMap::new(),
            welcomed: HashSet::new(),
            unrouted_notices,
            stop,
            clocks: HashMap::new(),
        })
    }

    /// The configuration.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The inbox.
    pub fn maildir(&self) -> Option<&Maildir> {
        match &self.inbox {
            Inbox::Maildir(m) => Some(m),
            Inbox::Imap(_) => None,
        }
    }

    fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

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
            // Only the genesis line is read: a league's logs are long and
            // this runs on every pass.
            let Ok(file) = std::fs::File::open(path.join("log.jsonl")) else {
                continue;
            };
            let mut first = Vec::new();
            if std::io::BufRead::read_until(&mut std::io::BufReader::new(file), b'\n', &mut first)
                .is_err()
            {
                continue;
            }
            let first = first.strip_suffix(b"\n").unwrap_or(&first);
            let Ok(e) = parse_line(first) else {
                continue;
            };
            if let Body::Genesis(g) = e.body {
                if let Some(other) = found.get(&g.match_id) {
                    tracing::warn!(match_id = %g.match_id, first = %other.display(), second = %path.display(), "two directories hold the same match id; using the first");
                    continue;
                }
                found.insert(g.match_id, path);
            }
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
        let m = Match::open(dir)?;
        let roster = Roster::load(dir, m.game())?;
        let game_name = m.game().files().game.name.clone();
        let options: Vec<RuleOption> = crate::rules::variants::all_options(m.game().rule_set())
            .into_iter()
            .filter_map(|spec| {
                Some(RuleOption {
                    name: spec.name.to_owned(),
                    value: m.game().option(spec.name)?.to_string(),
                    about: spec.about.to_owned(),
                })
            })
            .collect();
        drop(m);
        let deadlines = match crate::matches::deadlines::DeadlineSettings::with_match(
            self.config.deadlines,
            roster.deadlines(),
        ) {
            Ok(d) => d.describe(),
            Err(_) => "see the organiser (the match's deadline settings have a problem)".into(),
        };
        let mut ledger = Ledger::read(dir)?;
        if ledger.welcome().is_none() {
            let mut log = MatchLog::open(&dir.join("log.jsonl"))?;
            log.append(Body::Welcome(Welcome {
                powers: roster.seats().iter().map(|s| s.power.clone()).collect(),
            }))?;
            drop(log);
            ledger = Ledger::read(dir)?;
            tracing::info!(match_id = %id, "new match: welcome logged");
        }
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

    /// Handles every message waiting in the inbox, oldest first, until the
    /// inbox is empty or a stop was asked for (checked between messages, so
    /// the message in hand is always finished).
    pub fn process_pending(&mut self) -> anyhow::Result<Pass> {
        let mut pass = Pass::default();
        for entry in self.inbox.pending()? {
            if self.stopping() {
                break;
            }
            match self.handle(&entry) {
                Ok(()) => {
                    self.inbox.mark_processed(&entry)?;
                    pass.processed += 1;
                }
                Err(e) => {
                    pass.failed += 1;
                    tracing::error!(message = %entry.name(), error = %format!("{e:#}"), "message left in the inbox; it will be tried again");
                }
            }
        }
        Ok(pass)
    }

    /// Tries every reply that is due.
    pub fn deliver(&mut self) -> anyhow::Result<DeliveryReport> {
        let report = self.outbox.deliver_due(&*self.transport, Utc::now())?;
        for k in &report.sent {
            tracing::debug!(key = %k, "sent");
        }
        for (k, at, why) in &report.deferred {
            tracing::warn!(key = %k, retry = %at, error = %why, "send deferred");
        }
        for (k, why) in &report.failed {
            tracing::error!(key = %k, error = %why, "send failed for good");
        }
        Ok(report)
    }

    /// Runs until stopped: discover matches, handle the inbox, send what is
    /// due, sleep. With `until_idle`, returns as soon as the inbox is empty
    /// and nothing due is left in the outbox.
    pub fn run(&mut self, until_idle: bool) -> anyhow::Result<()> {
        tracing::info!(data = %self.config.data_dir.display(), "adjutant daemon running");
        loop {
            self.discover()?;
            let pass = match self.process_pending() {
                Ok(p) => p,
                // A mail server that is down is waited for, not fatal.
                Err(e)
                    if !until_idle
                        && e.downcast_ref::<crate::mail::inbox::InboxError>().is_some() =>
                {
                    tracing::warn!(error = %format!("{e:#}"), "inbox unavailable; trying again");
                    Pass::default()
                }
                Err(e) => return Err(e),
            };
            let next_deadline = self.check_deadlines(Utc::now())?;
            self.deliver()?;
            if self.stopping() {
                tracing::info!("stop requested: exiting cleanly");
                return Ok(());
            }
            if until_idle {
                let due = self.outbox.next_due()?.is_some_and(|t| t <= Utc::now());
                if self.inbox.pending()?.is_empty() && !due {
                    return Ok(());
                }
                if pass.processed == 0 && pass.failed > 0 && !due {
                    anyhow::bail!("{} message(s) could not be handled", pass.failed);
                }
                continue;
            }
            // Wake for new mail (IMAP IDLE), a stop, or the next due send.
            let mut wait = self.config.poll_interval;
            for t in [self.outbox.next_due()?, next_deadline]
                .into_iter()
                .flatten()
            {
                let left = (t - Utc::now()).to_std().unwrap_or_default();
                wait = wait.min(left.max(std::time::Duration::from_millis(50)));
            }
            if let Err(e) = self.inbox.wait(wait, &self.stop) {
                tracing::warn!(error = %e, "inbox unavailable; trying again");
                std::thread::sleep(std::time::Duration::from_secs(1));
            }
            if self.stopping() {
                tracing::info!("stop requested: exiting cleanly");
                return Ok(());
            }
        }
    }

    /// One message, up to and including its replies in the outbox.
    fn handle(&mut self, entry: &Waiting) -> anyhow::Result<()> {
        let Some(raw) = self.inbox.read(entry)? else {
            tracing::info!(message = %entry.name(), "message gone from the inbox before it was read");
            return Ok(());
        };
        let limits = ParseLimits {
            max_bytes: self.config.limits.max_message_bytes,
        };
        let mail = match parse(&raw, limits) {
            Ok(m) => m,
            Err(e) => {
                tracing::warn!(message = %entry.name(), error = %e, "not a mail message; set aside");
                return Ok(());
            }
        };
        if let Some(reason) = hygiene::auto_generated(&mail) {
            tracing::info!(message = %entry.name(), reason = ?reason, "machine-generated mail: no reply");
            if let Some(b) = hygiene::bounce(&mail, &raw) {
                self.record_bounce(&mail, &b)?;
            }
            return Ok(());
        }
        let Some(from) = mail.from.as_ref().map(|m| m.address.clone()) else {
            tracing::info!(message = %entry.name(), "no From address: no reply");
            return Ok(());
        };
        let routed = route(&self.ours, &mail);
        let dir = routed
            .as_ref()
            .and_then(|r| self.matches.get(&r.match_id).cloned());
        let (Some(r), Some(dir)) = (routed, dir) else {
            return self.unrouted(&mail, &from);
        };
        self.handle_routed(&r.match_id, &dir, &mail, &from)
    }

    fn handle_routed(
        &mut self,
        id: &str,
        dir: &Path,
        mail: &Inbound,
        from: &str,
    ) -> anyhow::Result<()> {
        let sha = Digest32::from_hex(&mail.sha256).map_err(anyhow::Error::msg)?;
        let ledger = Ledger::read(dir)?;
        let mut retry = false;
        if let Some(i) = ledger.find(mail.message_id.as_deref(), &sha) {
            let r = ledger.received(i).expect("found").clone();
            if r.outcome != Outcome::Processing {
                tracing::info!(match_id = %id, seq = ledger.entries()[i].seq, "already handled: replies checked, not applied again");
                return self.ensure_replies(id, dir, &ledger, i, mail, from);
            }
            if ledger.order_after(i) {
                // Accepted before a crash cut the record short: opening the
                // match finishes its adjudication; then the final entry.
                drop(Match::open(dir)?);
                let (ledger, i) = self.append_received(
                    dir,
                    Received {
                        outcome: Outcome::Accepted,
                        errors: Vec::new(),
                        command: None,
                        ..r
                    },
                )?;
                tracing::info!(match_id = %id, "recovered orders accepted before a crash");
                return self.ensure_replies(id, dir, &ledger, i, mail, from);
            }
            // Logged as in progress but nothing applied: do it again.
            retry = true;
        }
        let from_hash = address_hash(from);
        if !retry {
            let hour_ago = Utc::now() - ChronoDuration::hours(1);
            if ledger.count_since(hour_ago, Some(&from_hash), None)
                >= self.config.limits.per_sender_per_hour as usize
                || ledger.count_since(hour_ago, None, None)
                    >= self.config.limits.per_match_per_hour as usize
            {
                tracing::warn!(match_id = %id, "rate limit reached: message dropped without reply");
                return Ok(());
            }
        }
        let base = Received {
            message_id: mail.message_id.clone(),
            mail_sha256: sha,
            from_hash,
            power: None,
            outcome: Outcome::Refused,
            command: None,
            errors: Vec::new(),
        };

        let m = Match::open(dir)?;
        let roster = Roster::load(dir, m.game())?;
        let secrets = PlayerSecrets::load(dir)?;
        let known = !roster.powers_of(from).is_empty();
        let orders = match &mail.orders {
            Ok(o) => o.text.clone(),
            Err(refusal) => {
                drop(m);
                if !known {
                    return self.unknown_sender(id, dir, &ledger, base, mail, from);
                }
                let (ledger, i) = self.append_received(
                    dir,
                    Received {
                        outcome: Outcome::Rejected,
                        errors: vec![refusal.to_string()],
                        ..base
                    },
                )?;
                return self.ensure_replies(id, dir, &ledger, i, mail, from);
            }
        };
        let header = scan_header(&orders);
        let auth = authenticate(m.game(), &header, known, &secrets);
        drop(m);
        let power = match auth {
            Auth::Unknown => return self.unknown_sender(id, dir, &ledger, base, mail, from),
            Auth::Refused { reason } => {
                let (ledger, i) = self.append_received(
                    dir,
                    Received {
                        errors: vec![reason],
                        ..base
                    },
                )?;
                return self.ensure_replies(id, dir, &ledger, i, mail, from);
            }
            Auth::Mismatch { power, claimed } => {
                let (ledger, i) = self.append_received(
                    dir,
                    Received {
                        outcome: Outcome::Rejected,
                        power: Some(power.clone()),
                        errors: vec![format!(
                            "power: {claimed} does not match the power of the secret, which is {power}'s; \
                             the secret decides whose orders these are: write power: {power}, or send {claimed}'s own secret"
                        )],
                        ..base
                    },
                )?;
                return self.ensure_replies(id, dir, &ledger, i, mail, from);
            }
            Auth::Player { power } => power,
        };
        let base = Received {
            power: Some(power.clone()),
            ..base
        };

        // A command (except setting standing orders, which are orders); an
        // `odds:` section is the command `odds`.
        let command = header
            .command
            .clone()
            .or_else(|| header.has_odds.then(|| "odds".to_owned()));
        if let Some(cmd) = command
            && !(cmd == "standing" && header.has_standing)
        {
            let known_cmd = crate::rules::orders::keys::COMMANDS;
            let errors = if header.has_orders || header.has_standing {
                vec![
                    "send orders and commands (or odds questions) in separate messages".to_string(),
                ]
            } else if cmd == "odds" && !header.has_odds {
                vec!["ask in an `odds:` section, e.g. `odds: {attackers: [3 infantry, 1 armor], defenders: 2 infantry}` (command: help shows more)".to_string()]
            } else if header.has_odds && cmd != "odds" {
                vec![format!(
                    "send the command \"{cmd}\" and odds questions in separate messages"
                )]
            } else if !known_cmd.contains(&cmd.as_str()) {
                vec![format!(
                    "\"{cmd}\" is not a command; the commands are {}",
                    known_cmd.join(", ")
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
            let (ledger, i) = self.append_received(dir, received)?;
            return self.ensure_replies(id, dir, &ledger, i, mail, from);
        }

        // Orders: write-ahead record, apply, final record.
        self.append_received(
            dir,
            Received {
                outcome: Outcome::Processing,
                ..base.clone()
            },
        )?;
        let mut m = Match::open(dir)?;
        let result = m.submit(&power, &orders)?;
        drop(m);
        let received = match result {
            Ok(receipt) => {
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
        let (ledger, i) = self.append_received(dir, received)?;
        self.ensure_replies(id, dir, &ledger, i, mail, from)
    }

    /// A sender who is not a player and gave no valid secret: a notice at
    /// most once a day per sender and a few an hour per match, else silence.
    fn unknown_sender(
        &mut self,
        id: &str,
        dir: &Path,
        ledger: &Ledger,
        base: Received,
        mail: &Inbound,
        from: &str,
    ) -> anyhow::Result<()> {
        let now = Utc::now();
        let sender_recent = ledger.count_since(
            now - ChronoDuration::days(1),
            Some(&base.from_hash),
            Some(Outcome::Refused),
        );
        let match_recent =
            ledger.count_since(now - ChronoDuration::hours(1), None, Some(Outcome::Refused));
        if sender_recent > 0
            || match_recent >= self.config.limits.unknown_sender_notices_per_hour as usize
        {
            tracing::info!(match_id = %id, "unknown sender: no notice (rate limit)");
            return Ok(());
        }
        let (ledger, i) = self.append_received(dir, Received {
            outcome: Outcome::Refused,
            errors: vec![format!(
                "this address is not a player of match {id}, and the message has no valid secret; you will get at most one such notice a day"
            )],
            ..base
        })?;
        self.ensure_replies(id, dir, &ledger, i, mail, from)
    }

    fn unrouted(&mut self, mail: &Inbound, from: &str) -> anyhow::Result<()> {
        let now = Utc::now();
        let k = address_key(from);
        let h = address_hash(from).to_hex();
        if self
            .unrouted_notices
            .get(&h)
            .is_some_and(|t| now - *t < ChronoDuration::days(1))
        {
            tracing::info!("mail for no known match: no notice (rate limit)");
            return Ok(());
        }
        // Recorded before the notice is queued: after a crash in between,
        // a stranger gets one notice too few, never one too many.
        self.unrouted_notices
            .retain(|_, t| now - *t < ChronoDuration::days(1));
        self.unrouted_notices.insert(h, now);
        save_notices(&self.config.data_dir, &self.unrouted_notices)?;
        let key = format!("unrouted/{}/{k}", mail.sha256);
        let body = text::unrouted_text(&self.templates, &self.ours.for_match("MATCH"));
        let mut out = self.outgoing_plain(
            from,
            Kind::Reply,
            None,
            "Which match?".into(),
            body.text,
            Thread::replying_to(mail),
            &key,
        );
        out.html = Some(body.html);
        self.enqueue(&key, &out)
    }

    fn record_bounce(&mut self, mail: &Inbound, b: &hygiene::Bounce) -> anyhow::Result<()> {
        let Some(r) = route(&self.ours, mail) else {
            tracing::warn!(failed = ?b.failed_recipients, "bounce for no known match");
            return Ok(());
        };
        let Some(dir) = self.matches.get(&r.match_id).cloned() else {
            return Ok(());
        };
        let sha = Digest32::from_hex(&mail.sha256).map_err(anyhow::Error::msg)?;
        let ledger = Ledger::read(&dir)?;
        if ledger.find(mail.message_id.as_deref(), &sha).is_some() {
            return Ok(());
        }
        let m = Match::open(&dir)?;
        let roster = Roster::load(&dir, m.game())?;
        drop(m);
        let seat = b
            .failed_recipients
            .iter()
            .find_map(|f| roster.powers_of(f).into_iter().next().cloned());
        if let Some(seat) = seat {
            let mut errors = vec![format!("mail to the player of {} bounced", seat.power)];
            errors.extend(b.status.iter().map(|s| format!("status {s}")));
            // The log is public to the players: the diagnostic loses every
            // address it quotes (docs/log.md: addresses stay out).
            errors.extend(b.diagnostic.as_deref().map(redact_addresses));
            let from = mail.from.as_ref().map(|m| m.address.as_str()).unwrap_or("");
            self.append_received(
                &dir,
                Received {
                    message_id: mail.message_id.clone(),
                    mail_sha256: sha,
                    from_hash: address_hash(from),
                    power: Some(seat.power.clone()),
                    outcome: Outcome::Bounce,
                    command: None,
                    errors,
                },
            )?;
            tracing::warn!(match_id = %r.match_id, power = %seat.power, "bounce recorded against the player");
        }
        Ok(())
    }

    /// Appends a `received` entry and returns the ledger read back with the
    /// index of the new entry.
    fn append_received(&self, dir: &Path, r: Received) -> anyhow::Result<(Ledger, usize)> {
        let mut log = MatchLog::open(&dir.join("log.jsonl"))?;
        log.append(Body::Received(r))?;
        drop(log);
        let ledger = Ledger::read(dir)?;
        let i = ledger.entries().len() - 1;
        Ok((ledger, i))
    }

    /// The current stage's deadline as `reader` sees it (UTC, and their
    /// own zone when set).
    fn deadline_text(&self, ledger: &Ledger, roster: &Roster, reader: &str) -> String {
        let settings = crate::matches::deadlines::DeadlineSettings::with_match(
            self.config.deadlines,
            roster.deadlines(),
        )
        .unwrap_or(self.config.deadlines);
        let due = ledger
            .stage_clock_start()
            .and_then(|(_, start)| settings.due(start));
        match due {
            Some(due) => {
                let tz = roster
                    .report_recipients()
                    .into_iter()
                    .find(|(a, _)| address_key(a) == address_key(reader))
                    .and_then(|(_, tz)| tz);
                match crate::matches::deadlines::format_due(due, tz) {
                    (utc, Some(local)) => format!("{utc} ({local})"),
                    (utc, None) => utc,
                }
            }
            None => "none set: the match waits for your orders".into(),
        }
    }

    /// Enqueues every reply that the `received` entry `i` calls for, under
    /// keys derived from the entry (`MATCH/SEQ/what/recipient`): called
    /// after the entry is durable, and again for a message seen after a
    /// crash, where the outbox's once-per-key rule keeps each reply single.
    fn ensure_replies(
        &mut self,
        id: &str,
        dir: &Path,
        ledger: &Ledger,
        i: usize,
        mail: &Inbound,
        from: &str,
    ) -> anyhow::Result<()> {
        let entry = &ledger.entries()[i];
        let seq = entry.seq;
        let head = entry.hash;
        let r = ledger.received(i).expect("a received entry").clone();
        let thread = Thread::replying_to(mail);
        let sender = address_key(from);
        if r.outcome == Outcome::Accepted {
            // The next stage's deadline goes into the log before the
            // report that quotes it is rendered.
            self.set_deadline_of_next_stage(dir)?;
        }
        let m = Match::open(dir)?;
        let roster = Roster::load(dir, m.game())?;
        let round = m.state().round;
        let next = format!(
            "{} to move, {}",
            m.game().powers()[m.state().current_power(m.game())].name,
            board::stage_name(m.state())
        );
        let tag = format_subject_tag(id, Some(round), r.power.as_deref());
        // Authenticated from an address that is not the player's of record.
        if let Some(power) = &r.power
            && matches!(
                r.outcome,
                Outcome::Accepted | Outcome::Rejected | Outcome::Command
            )
            && let Some(seat) = roster.seat(power)
            && address_key(&seat.email) != sender
        {
            let key = format!("{id}/{seq}/alert/{}", address_key(&seat.email));
            let out = self.outgoing(
                id,
                &seat.email,
                Kind::Report,
                Some(tag.clone()),
                "Your secret was used from another address".into(),
                text::alert_text(&self.templates, power, id, from),
                None,
                &key,
                Some(head),
            );
            self.enqueue(&key, &out)?;
        }
        match r.outcome {
            Outcome::Processing | Outcome::Bounce => {}
            Outcome::Accepted => {
                let Some(rec) = ledger.stage_of(i) else {
                    anyhow::bail!("entry {seq}: accepted, but its orders are not in the log");
                };
                let key = format!("{id}/{seq}/receipt/{sender}");
                let tag = format_subject_tag(id, Some(rec.round), Some(&rec.power));
                let subject = if rec.stage == 0 {
                    format!("Accepted: standing orders of {}", rec.power)
                } else {
                    format!("Accepted: {} of round {}", rec.stages(), rec.round)
                };
                let out = self.outgoing(
                    id,
                    from,
                    Kind::Reply,
                    Some(tag.clone()),
                    subject,
                    text::receipt_text(&self.templates, &rec, &head.to_hex(), &next),
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
                // Standing orders change no position: the receipt is all.
                if rec.stage == 0 {
                    return Ok(());
                }
                let Some(adjudication) = adjudication_before(ledger, i) else {
                    anyhow::bail!("entry {seq}: accepted, but its adjudication is not in the log");
                };
                // The report is replayed from the log once, and only if some
                // copy is not queued yet (a duplicate message finds them all).
                let mut turn = None;
                for (addr, zone) in roster.report_recipients() {
                    let key = format!("{id}/{seq}/report/{}", address_key(addr));
                    if self.outbox.status(&key)?.is_some() {
                        continue;
                    }
                    if turn.is_none() {
                        turn = Some(text::turn_report_of(dir, adjudication)?);
                    }
                    let turn = turn.as_ref().expect("just built");
                    let report: MailBody = text::report_text(&self.templates, turn, zone).into();
                    let out = self.outgoing(
                        id,
                        addr,
                        Kind::Report,
                        Some(tag.clone()),
                        format!(
                            "Report: {} {} of round {}",
                            rec.power,
                            rec.stages(),
                            rec.round
                        ),
                        report.clone(),
                        None,
                        &key,
                        Some(head),
                    );
                    self.enqueue(&key, &out)?;
                }
            }
            Outcome::Rejected => {
                let key = format!("{id}/{seq}/rejected/{sender}");
                let out = self.outgoing(
                    id,
                    from,
                    Kind::Reply,
                    Some(tag),
                    "Rejected: nothing was applied".into(),
                    text::rejection_text(
                        &self.templates,
                        &r.errors,
                        &self.deadline_text(ledger, &roster, from),
                    ),
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
            }
            Outcome::Refused => {
                let key = format!("{id}/{seq}/refused/{sender}");
                let out = self.outgoing(
                    id,
                    from,
                    Kind::Reply,
                    Some(format_subject_tag(id, None, None)),
                    "Refused: nothing was applied".into(),
                    text::refused_text(&self.templates, &r.errors),
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
            }
            Outcome::Command => {
                let cmd = r.command.clone().unwrap_or_default();
                let power = r.power.clone().unwrap_or_default();
                let key = format!("{id}/{seq}/{cmd}/{sender}");
                if self.outbox.status(&key)?.is_some() {
                    return Ok(());
                }
                let (to, body) = match cmd.as_str() {
                    "help" => {
                        let orders_address = self.ours.for_match(id);
                        let reader = m.game().power(&power).unwrap_or(0);
                        let help = text::HelpFor {
                            match_id: id,
                            orders_address: &orders_address,
                            game: m.game(),
                            power: reader,
                            round,
                            now: &next,
                            help_url: self.config.help_url.as_deref(),
                        };
                        (
                            from.to_owned(),
                            text::help_text(&self.templates, &help).into(),
                        )
                    }
                    "status" => (
                        from.to_owned(),
                        text::answer_text(
                            &self.templates,
                            &format!("Status of {id}"),
                            &format!(
                                "{}\nNow: {next}\nDeadline: {}\nLog head: {head}\n",
                                board::render(m.game(), m.state()),
                                self.deadline_text(ledger, &roster, from)
                            ),
                        )
                        .into(),
                    ),
                    "standing" => (
                        from.to_owned(),
                        text::answer_text(
                            &self.templates,
                            &format!("Standing orders of {power}"),
                            &standing_text(&m, &power),
                        )
                        .into(),
                    ),
                    "resend" => {
                        let body: MailBody = match ledger
                            .last_accepted()
                            .and_then(|j| adjudication_before(ledger, j))
                        {
                            Some(a) => {
                                let zone = roster
                                    .report_recipients()
                                    .into_iter()
                                    .find(|(x, _)| address_key(x) == sender)
                                    .and_then(|(_, z)| z);
                                let turn = text::turn_report_of(dir, a)?;
                                text::report_text(&self.templates, &turn, zone).into()
                            }
                            None => text::answer_text(
                                &self.templates,
                                "Nothing to resend",
                                "No stage has been played yet: there is no report to resend.\n",
                            )
                            .into(),
                        };
                        (from.to_owned(), body)
                    }
                    "odds" => {
                        let text = mail.orders.as_ref().map(|o| o.text.as_str()).unwrap_or("");
                        (
                            from.to_owned(),
                            text::answer_text(
                                &self.templates,
                                "Odds",
                                &text::odds_text(m.game(), text),
                            )
                            .into(),
                        )
                    }
                    "rotate" => {
                        // The new secret goes to the address of record only.
                        let Some(seat) = roster.seat(&power) else {
                            anyhow::bail!("{power} has no seat in the players file");
                        };
                        let mut secrets = PlayerSecrets::load(dir)?;
                        let secret = secrets.issue(&power)?;
                        secrets.save()?;
                        (
                            seat.email.clone(),
                            text::rotated_text(&self.templates, &power, id, &secret).into(),
                        )
                    }
                    other => anyhow::bail!("entry {seq}: unknown command {other:?}"),
                };
                let out = self.outgoing(
                    id,
                    &to,
                    Kind::Reply,
                    Some(tag),
                    cmd.clone(),
                    body,
                    thread,
                    &key,
                    Some(head),
                );
                self.enqueue(&key, &out)?;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn outgoing(
        &self,
        id: &str,
        to: &str,
        kind: Kind,
        tag: Option<String>,
        subject: String,
        body: impl Into<MailBody>,
        thread: Option<Thread>,
        key: &str,
        head: Option<Digest32>,
    ) -> Outgoing {
        let body = body.into();
        let mut out = self.outgoing_plain(to, kind, tag, subject, body.text, thread, key);
        out.html = body.html;
        let plus = self.ours.for_match(id);
        out.reply_to = Some(Mailbox {
            address: plus.clone(),
            name: None,
        });
        out.envelope_from = Some(plus);
        if let Some(h) = head {
            out.extra_headers
                .push(("X-Adjutant-Log-Head".into(), h.to_hex()));
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn outgoing_plain(
        &self,
        to: &str,
        kind: Kind,
        tag: Option<String>,
        subject: String,
        text: String,
        thread: Option<Thread>,
        key: &str,
    ) -> Outgoing {
        Outgoing {
            from: self.config.from.clone(),
            to: vec![Mailbox {
                address: to.to_owned(),
                name: None,
            }],
            reply_to: None,
            tag,
            subject,
            text,
            html: None,
            kind,
            thread,
            message_id: message_id_for(key, &self.config.domain),
            date: SystemTime::now(),
            domain: self.config.domain.clone(),
            envelope_from: None,
            extra_headers: Vec::new(),
        }
    }

    /// Composes and enqueues under `key`, unless the key is already known.
    fn enqueue(&mut self, key: &str, out: &Outgoing) -> anyhow::Result<()> {
        if self.outbox.status(key)?.is_some() {
            return Ok(());
        }
        match compose(out) {
            Ok(c) => {
                self.outbox
                    .enqueue(&c.bytes, &c.envelope, key, Utc::now())?;
            }
            // A recipient address that cannot be written (a player's typo):
            // nothing can be sent, which must not stop the daemon.
            Err(e) => tracing::error!(key = %key, error = %e, "reply cannot be built; not sent"),
        }
        Ok(())
    }
}

/// The adjudication entry (its sequence number) of the accepted message
/// whose final `received` entry is at index `i`: the last one before it.
fn adjudication_before(ledger: &Ledger, i: usize) -> Option<u64> {
    ledger.entries()[..i]
        .iter()
        .rev()
        .find(|e| matches!(e.body, Body::Adjudication(_)))
        .map(|e| e.seq)
}

const NOTICES_FILE: &str = "unrouted-notices.json";

fn load_notices(data_dir: &Path) -> HashMap<String, DateTime<Utc>> {
    std::fs::read(data_dir.join(NOTICES_FILE))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or_default()
}

fn save_notices(data_dir: &Path, notices: &HashMap<String, DateTime<Utc>>) -> anyhow::Result<()> {
    let path = data_dir.join(NOTICES_FILE);
    let tmp = data_dir.join(format!("{NOTICES_FILE}.tmp"));
    let _ = std::fs::remove_file(&tmp);
    crate::mail::fsutil::write_new_synced(&tmp, &serde_json::to_vec(notices)?)
        .with_context(|| format!("cannot write {}", tmp.display()))?;
    crate::mail::fsutil::rename_synced(&tmp, &path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// `text` with every word that holds an address (`<a@b>`, `a@b`) replaced
/// by `<address>`.
fn redact_addresses(text: &str) -> String {
    text.split(' ')
        .map(|w| {
            if w.contains('@') {
                let tail: String = w
                    .chars()
                    .rev()
                    .take_while(|c| matches!(c, ':' | ',' | ';' | '.'))
                    .collect();
                format!("<address>{tail}")
            } else {
                w.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn standing_text(m: &Match, power: &str) -> String {
    let game = m.game();
    let Some(p) = game.power(power) else {
        return format!("{power} is not a power of this game.\n");
    };
    let Some(s) = m.state().standing.get(p) else {
        return format!("{power} has no standing orders.\n");
    };
    let losses: Vec<&str> = s
        .losses
        .iter()
        .map(|&u| game.unit_types()[u].name.as_str())
        .collect();
    format!(
        "Standing orders of {power}:\n    losses: {}\n    keep_one_land_unit: {}\n    submarines: {}\n    bystander_losses: {}\n{}{}\n\
         To change them, send a message with a standing: section (command: help shows one).\n",
        if losses.is_empty() {
            "the rules' default order".to_string()
        } else {
            losses.join(", ")
        },
        s.keep_one_land_unit,
        s.submarines.word(),
        s.bystander_losses.word(),
        s.intercept
            .map(|n| format!("    intercept: {n}\n"))
            .unwrap_or_default(),
        if s.middle_east_payment != crate::rules::orders::MiddleEastPayment::default() {
            format!(
                "    middle_east_payment: {}\n",
                s.middle_east_payment.word()
            )
        } else {
            String::new()
        }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounce_diagnostics_lose_their_addresses() {
        assert_eq!(
            redact_addresses("550 5.1.1 <g.r1@players.test>: Recipient rejected, to x@y.z."),
            "550 5.1.1 <address>: Recipient rejected, to <address>."
        );
    }
}
