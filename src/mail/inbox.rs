//! The daemon's inbox: a Maildir or an IMAP folder, behind one interface.
//!
//! Both keep the same promise: a message stays where it is until
//! [`Inbox::mark_processed`] moves it to the processed folder, which the
//! daemon calls only after everything the message caused is durable; a
//! crash before the move means the message is read again, and the match
//! log's duplicate check absorbs it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::imap::{Idle, ImapClient, ImapConfig, ImapError};
use super::maildir::{Entry as MaildirEntry, Maildir, MaildirError};

/// One message waiting in the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Waiting {
    /// A file in the Maildir.
    File(MaildirEntry),
    /// A message in the IMAP folder, by UID.
    Uid(u32),
}

impl Waiting {
    /// A name for the logs.
    pub fn name(&self) -> String {
        match self {
            Waiting::File(e) => e.unique.clone(),
            Waiting::Uid(u) => format!("imap uid {u}"),
        }
    }
}

/// An inbox failure.
#[derive(Debug, thiserror::Error)]
pub enum InboxError {
    /// The Maildir failed.
    #[error(transparent)]
    Maildir(#[from] MaildirError),
    /// The IMAP server failed.
    #[error(transparent)]
    Imap(#[from] ImapError),
}

/// The IMAP side: settings and the current connection, made on first use
/// and made again after any connection failure.
#[derive(Debug)]
pub struct ImapInbox {
    config: ImapConfig,
    folder: String,
    processed: String,
    client: Option<ImapClient>,
    /// When a failed connection may be tried again.
    retry_at: Option<Instant>,
}

impl ImapInbox {
    /// An IMAP inbox reading `folder` and moving handled mail to
    /// `processed`; connects lazily.
    pub fn new(config: ImapConfig, folder: &str, processed: &str) -> ImapInbox {
        ImapInbox {
            config,
            folder: folder.to_owned(),
            processed: processed.to_owned(),
            client: None,
            retry_at: None,
        }
    }

    /// Connects now (the daemon does this at start, so a wrong password or
    /// host is reported at once rather than on the first poll).
    pub fn connect(&mut self) -> Result<(), ImapError> {
        self.client().map(drop)
    }

    fn client(&mut self) -> Result<&mut ImapClient, ImapError> {
        if self.client.is_none() {
            let mut c = ImapClient::connect(&self.config)?;
            c.ensure_folder(&self.processed)?;
            c.select(&self.folder)?;
            tracing::info!(host = %self.config.host, folder = %self.folder, "IMAP inbox connected");
            self.client = Some(c);
        }
        Ok(self.client.as_mut().expect("connected above"))
    }

    /// Runs `f` on the connection; a connection failure drops it so the
    /// next call reconnects.
    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut ImapClient) -> Result<T, ImapError>,
    ) -> Result<T, ImapError> {
        let result = self.client().and_then(f);
        if let Err(e) = &result
            && e.is_connection()
        {
            self.client = None;
            self.retry_at = Some(Instant::now() + Duration::from_secs(5));
        }
        result
    }
}

/// Where the daemon's mail comes from.
#[derive(Debug)]
pub enum Inbox {
    /// A Maildir on this machine.
    Maildir(Maildir),
    /// An IMAP folder.
    Imap(Box<ImapInbox>),
}

impl Inbox {
    /// Messages waiting, oldest first.
    pub fn pending(&mut self) -> Result<Vec<Waiting>, InboxError> {
        Ok(match self {
            Inbox::Maildir(m) => m.pending()?.into_iter().map(Waiting::File).collect(),
            Inbox::Imap(i) => i
                .with(ImapClient::waiting)?
                .into_iter()
                .map(Waiting::Uid)
                .collect(),
        })
    }

    /// The raw bytes of a waiting message; `None` if it vanished (another
    /// client moved it), which is not an error.
    pub fn read(&mut self, w: &Waiting) -> Result<Option<Vec<u8>>, InboxError> {
        Ok(match (self, w) {
            (Inbox::Maildir(m), Waiting::File(e)) => Some(m.read(e)?),
            (Inbox::Imap(i), Waiting::Uid(uid)) => i.with(|c| c.fetch(*uid))?,
            _ => None,
        })
    }

    /// Moves a handled message to the processed folder.
    pub fn mark_processed(&mut self, w: &Waiting) -> Result<(), InboxError> {
        match (self, w) {
            (Inbox::Maildir(m), Waiting::File(e)) => {
                m.mark_processed(e)?;
            }
            (Inbox::Imap(i), Waiting::Uid(uid)) => {
                let to = i.processed.clone();
                i.with(|c| c.move_to(*uid, &to))?;
            }
            _ => {}
        }
        Ok(())
    }

    /// Waits up to `max` for new mail or `stop`: IMAP IDLE on a server, a
    /// sleep for a Maildir (polled by the caller).
    pub fn wait(&mut self, max: Duration, stop: &AtomicBool) -> Result<(), InboxError> {
        let until = Instant::now() + max;
        match self {
            Inbox::Maildir(_) => {}
            Inbox::Imap(i) => {
                let backing_off = i.retry_at.is_some_and(|t| Instant::now() < t);
                if !backing_off {
                    // Servers may drop a client idle for 30 minutes.
                    let max = max.min(Duration::from_secs(25 * 60));
                    match i.with(|c| c.idle(max, stop))? {
                        Idle::Changed | Idle::Stopped => return Ok(()),
                        Idle::Timeout => {}
                    }
                }
            }
        }
        while Instant::now() < until && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(())
    }
}
