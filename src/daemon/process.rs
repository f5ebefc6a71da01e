//! The daemon: one pass over the inbox, message by message, and the welcome
//! mails of new matches.
//!
//! A message goes through the steps of `docs/daemon.md` ("What happens to
//! one message, in order"), one module per step, and `Daemon::handle`
//! calls them in that order:
//!
//! * `inbound`: read, parse, hygiene (no reply to machines; bounces
//!   recorded), route, dedupe against the match log (steps 1 to 5);
//! * `authenticate`: who sent it, and the rate limits (step 6);
//! * `apply`: the command or the orders, between the write-ahead and the
//!   final `received` entry (step 7);
//! * `replies`: every reply the final entry calls for, into the outbox
//!   (step 8).
//!
//! Then the message is moved to `.processed` (step 9) and what is due is
//! sent (step 10). The match a message is for is opened once, after it is
//! routed: every later step reads the log and appends to it through that
//! one [`Match`]. `welcome` welcomes new matches and `deadlines` acts on
//! stage deadlines. See `docs/daemon.md` for why this order applies every
//! message exactly once across crashes.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use anyhow::Context;
use chrono::{DateTime, Utc};

use crate::log::{Body, Received};
use crate::mail::imap::ImapConfig;
use crate::mail::inbox::{ImapInbox, Inbox, Waiting};
use crate::mail::maildir::Maildir;
use crate::mail::outbox::{DeliveryReport, Outbox, OutboxError, RetryPolicy};
use crate::mail::route::Address;
use crate::mail::transport::{
    FileTransport, SendmailTransport, SmtpConfig, SmtpTransport, Transport as MailTransport,
};
use crate::matches::{Match, Roster};
use crate::report::templates::Templates;

use super::config::{Config, Inbound as InboundConfig, Transport as TransportConfig};

mod apply;
mod authenticate;
mod bid_replies;
mod deadlines;
mod inbound;
mod league;
mod organiser;
mod replies;
mod welcome;

pub use authenticate::{Auth, authenticate};

use authenticate::Verdict;
use inbound::Dedupe;

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
        let unrouted_notices = inbound::load_notices(&config.data_dir);
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

    /// One message, up to and including its replies in the outbox: the
    /// steps of `docs/daemon.md` in their order.
    fn handle(&mut self, entry: &Waiting) -> anyhow::Result<()> {
        // 1-4: read, parse, hygiene, route.
        let Some(msg) = self.inbound(entry)? else {
            return Ok(());
        };
        // Opened once: every step after this one reads the log, and writes
        // to it, through this match.
        let mut m = Match::open(&msg.dir)?;
        let roster = Roster::load(&msg.dir, m.game())?;
        // 5: dedupe.
        let i = match self.dedupe(&mut m, &msg)? {
            Dedupe::Handled(i) => i,
            // 6: authenticate; 7: apply or answer.
            // 6 and 7 for an organiser's action (`organiser:`).
            Dedupe::New { retry } => match self.organiser_message(&mut m, &roster, &msg)? {
                Some(Some(i)) => i,
                Some(None) => return Ok(()),
                // 6: authenticate; 7: apply or answer.
                None => match self.authenticate(&m, &roster, &msg, retry)? {
                    Verdict::Drop => return Ok(()),
                    Verdict::Answer(r) => log_received(&mut m, r)?,
                    Verdict::Sender(sender) => self.apply(&mut m, &msg.id, sender)?,
                },
            },
        };
        // 8: the replies.
        self.ensure_replies(&mut m, &roster, i, &msg)
    }
}

/// Appends a `received` entry through the open match; returns its index.
fn log_received(m: &mut Match, r: Received) -> anyhow::Result<usize> {
    m.record(Body::Received(r))?;
    Ok(m.log().entries().len() - 1)
}
