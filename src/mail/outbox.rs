//! The persisted outbox: nothing is sent that was not first on disk, nothing
//! on disk is lost, and nothing is enqueued twice.
//!
//! Layout under the outbox directory:
//!
//! ```text
//! .lock              held (exclusive) by the one process using the outbox
//! tmp/ID/            a message being written; removed on open and on retry
//! queue/ID/          waiting: message.eml and meta.json
//! sent/ID/           sent (the rename into sent/ is the commit)
//! failed/ID/         refused permanently, or given up; meta.json says why
//! ```
//!
//! `ID` is the SHA-256 of the caller's idempotency key, so the same key
//! always lands in the same directory and a second enqueue finds the first.
//! Every step is a write to a private name, an fsync, a rename, and an fsync
//! of the directories involved.
//!
//! Delivery is at least once across crashes: a crash after the transport
//! accepted a message but before its rename into `sent/` sends it again on
//! restart (SMTP has no way to ask whether a message arrived). The stable
//! Message-ID from [`super::compose::message_id_for`] lets mail programs
//! recognise that rare duplicate.

use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::fsutil::{create_dir_synced, rename_synced, sync_dir, write_new_synced};
use super::transport::{Envelope, SendError, Transport};

/// How failed sends are retried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Delay after the first failure; doubled after each further failure.
    pub initial: Duration,
    /// The longest delay between two attempts.
    pub max: Duration,
    /// Give up (move to `failed/`) when a temporary failure happens this long
    /// after the message was enqueued; `None` retries for ever.
    pub give_up_after: Option<Duration>,
}

impl Default for RetryPolicy {
    /// One minute, doubling, at most six hours apart, for five days: what
    /// mail servers do, so a player is not told "lost" sooner than they
    /// would be by their own provider.
    fn default() -> Self {
        RetryPolicy {
            initial: Duration::from_secs(60),
            max: Duration::from_secs(6 * 3600),
            give_up_after: Some(Duration::from_secs(5 * 24 * 3600)),
        }
    }
}

impl RetryPolicy {
    /// The delay after the `attempts`-th failed attempt (1-based).
    pub fn delay(&self, attempts: u32) -> Duration {
        let shift = attempts.saturating_sub(1).min(31);
        self.initial
            .checked_mul(1u32 << shift)
            .unwrap_or(self.max)
            .min(self.max)
    }
}

/// One failed attempt, as recorded in `meta.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// When.
    pub at: DateTime<Utc>,
    /// The transport's error.
    pub error: String,
    /// Whether it was permanent.
    pub permanent: bool,
}

/// The record kept beside each message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The caller's idempotency key.
    pub key: String,
    /// Where the message goes.
    pub envelope: Envelope,
    /// When it was enqueued.
    pub created: DateTime<Utc>,
    /// Enqueue order among messages created at the same instant.
    pub seq: u64,
    /// When the next attempt is due.
    pub next_attempt: DateTime<Utc>,
    /// Failed attempts so far.
    pub attempts: Vec<Attempt>,
    /// When it was sent (in `sent/`).
    pub sent_at: Option<DateTime<Utc>>,
    /// Why it was given up (in `failed/`).
    pub failed_reason: Option<String>,
}

/// Where a key's message is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Waiting for its first or next attempt.
    Queued(Meta),
    /// Sent.
    Sent(Meta),
    /// Given up; `failed_reason` says why.
    Failed(Meta),
}

/// What [`Outbox::enqueue`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enqueued {
    /// The message is now durably queued.
    New,
    /// The key was already known; nothing was written.
    AlreadyKnown,
}

/// What one [`Outbox::deliver_due`] pass did, by key.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliveryReport {
    /// Sent and moved to `sent/`.
    pub sent: Vec<String>,
    /// Failed temporarily; retry scheduled at the given time.
    pub deferred: Vec<(String, DateTime<Utc>, String)>,
    /// Moved to `failed/`, with the reason.
    pub failed: Vec<(String, String)>,
}

/// An outbox failure (the outbox's own files, not a transport's).
#[derive(Debug, thiserror::Error)]
pub enum OutboxError {
    /// A file operation failed.
    #[error("outbox {path}: {source}")]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: io::Error,
    },
    /// Another process holds the outbox.
    #[error("outbox {0} is in use by another process")]
    Locked(PathBuf),
    /// A record does not parse.
    #[error("outbox record {path} is corrupt: {reason}")]
    Corrupt {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> OutboxError + '_ {
    move |source| OutboxError::Io {
        path: path.to_path_buf(),
        source,
    }
}

const MESSAGE: &str = "message.eml";
const META: &str = "meta.json";

/// A persisted outbox in one directory, held exclusively while open.
#[derive(Debug)]
pub struct Outbox {
    root: PathBuf,
    policy: RetryPolicy,
    next_seq: u64,
    // Held for the outbox's lifetime: the OS releases the lock when the file
    // is closed, including when the process dies.
    _lock: File,
}

impl Outbox {
    /// Opens (creating if needed) the outbox at `root`, takes its lock, and
    /// removes half-written entries left in `tmp/` by a crash (their
    /// `enqueue` never returned, so the caller will enqueue them again).
    pub fn open(root: impl Into<PathBuf>, policy: RetryPolicy) -> Result<Outbox, OutboxError> {
        let root = root.into();
        for sub in ["tmp", "queue", "sent", "failed"] {
            let dir = root.join(sub);
            create_dir_synced(&dir).map_err(io_at(&dir))?;
        }
        let lock_path = root.join(".lock");
        let lock = fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .map_err(io_at(&lock_path))?;
        if !crate::file_lock::try_lock_exclusive(&lock).map_err(io_at(&lock_path))? {
            return Err(OutboxError::Locked(root));
        }
        let tmp = root.join("tmp");
        for entry in fs::read_dir(&tmp).map_err(io_at(&tmp))? {
            let path = entry.map_err(io_at(&tmp))?.path();
            fs::remove_dir_all(&path).map_err(io_at(&path))?;
        }
        sync_dir(&tmp).map_err(io_at(&tmp))?;
        let mut outbox = Outbox {
            root,
            policy,
            next_seq: 0,
            _lock: lock,
        };
        outbox.next_seq = outbox
            .queued()?
            .iter()
            .map(|(_, m)| m.seq + 1)
            .max()
            .unwrap_or(0);
        Ok(outbox)
    }

    /// The outbox directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The directory name of `key`.
    pub fn id_of(key: &str) -> String {
        hex::encode(Sha256::digest(key.as_bytes()))
    }

    /// Where `key`'s message is, if anywhere.
    pub fn status(&self, key: &str) -> Result<Option<Status>, OutboxError> {
        let id = Self::id_of(key);
        for (sub, make) in [
            ("queue", Status::Queued as fn(Meta) -> Status),
            ("sent", Status::Sent),
            ("failed", Status::Failed),
        ] {
            let dir = self.root.join(sub).join(&id);
            if dir.is_dir() {
                return Ok(Some(make(read_meta(&dir)?)));
            }
        }
        Ok(None)
    }

    /// Durably queues `message` for `envelope` under the idempotency `key`
    /// (e.g. `"match/entry-seq/recipient"`), due at `now`. When `key` is
    /// already queued, sent or failed, does nothing and says so: replaying
    /// a log after a crash can enqueue everything again without sending
    /// anything twice. Returns only once the message is on disk.
    pub fn enqueue(
        &mut self,
        message: &[u8],
        envelope: &Envelope,
        key: &str,
        now: DateTime<Utc>,
    ) -> Result<Enqueued, OutboxError> {
        if self.status(key)?.is_some() {
            return Ok(Enqueued::AlreadyKnown);
        }
        let id = Self::id_of(key);
        let tmp = self.root.join("tmp").join(&id);
        if tmp.exists() {
            fs::remove_dir_all(&tmp).map_err(io_at(&tmp))?;
        }
        fs::create_dir(&tmp).map_err(io_at(&tmp))?;
        let meta = Meta {
            key: key.to_string(),
            envelope: envelope.clone(),
            created: now,
            seq: self.next_seq,
            next_attempt: now,
            attempts: Vec::new(),
            sent_at: None,
            failed_reason: None,
        };
        let eml = tmp.join(MESSAGE);
        write_new_synced(&eml, message).map_err(io_at(&eml))?;
        let meta_path = tmp.join(META);
        write_new_synced(&meta_path, &meta_bytes(&meta)).map_err(io_at(&meta_path))?;
        sync_dir(&tmp).map_err(io_at(&tmp))?;
        let dest = self.root.join("queue").join(&id);
        rename_synced(&tmp, &dest).map_err(io_at(&dest))?;
        self.next_seq += 1;
        Ok(Enqueued::New)
    }

    /// Every queued message with its record, in delivery order.
    pub fn queued(&self) -> Result<Vec<(PathBuf, Meta)>, OutboxError> {
        let queue = self.root.join("queue");
        let mut out = Vec::new();
        for entry in fs::read_dir(&queue).map_err(io_at(&queue))? {
            let dir = entry.map_err(io_at(&queue))?.path();
            if dir.is_dir() {
                let meta = read_meta(&dir)?;
                out.push((dir, meta));
            }
        }
        out.sort_by_key(|(_, m)| (m.created, m.seq));
        Ok(out)
    }

    /// The earliest time a queued message is due, if any is queued: the
    /// daemon sleeps until then (or until new work).
    pub fn next_due(&self) -> Result<Option<DateTime<Utc>>, OutboxError> {
        Ok(self.queued()?.iter().map(|(_, m)| m.next_attempt).min())
    }

    /// Tries every message due at `now` once, in enqueue order. A sent
    /// message is renamed into `sent/` (the durable mark); a temporary
    /// failure is recorded and retried after the policy's backoff; a
    /// permanent one, or one past `give_up_after`, moves to `failed/`.
    /// An error means the outbox's own files failed; messages already
    /// handled in this pass stay handled.
    pub fn deliver_due(
        &mut self,
        transport: &dyn Transport,
        now: DateTime<Utc>,
    ) -> Result<DeliveryReport, OutboxError> {
        let mut report = DeliveryReport::default();
        for (dir, mut meta) in self.queued()? {
            if meta.next_attempt > now {
                continue;
            }
            let eml = dir.join(MESSAGE);
            let bytes = fs::read(&eml).map_err(io_at(&eml))?;
            match transport.send(&meta.envelope, &bytes) {
                Ok(()) => {
                    let dest = self.move_to(&dir, "sent")?;
                    meta.sent_at = Some(now);
                    rewrite_meta(&dest, &meta)?;
                    report.sent.push(meta.key);
                }
                Err(SendError { permanent, message }) => {
                    meta.attempts.push(Attempt {
                        at: now,
                        error: message.clone(),
                        permanent,
                    });
                    let expired = self.policy.give_up_after.is_some_and(|limit| {
                        (now - meta.created).to_std().unwrap_or_default() >= limit
                    });
                    if permanent || expired {
                        let reason = if permanent {
                            message
                        } else {
                            format!(
                                "gave up after {} attempts since {}: {message}",
                                meta.attempts.len(),
                                meta.created.to_rfc3339()
                            )
                        };
                        meta.failed_reason = Some(reason.clone());
                        // Record first, then move: a crash in between leaves
                        // the message queued with its history, to be tried
                        // once more, never lost.
                        rewrite_meta(&dir, &meta)?;
                        self.move_to(&dir, "failed")?;
                        report.failed.push((meta.key, reason));
                    } else {
                        let delay = self.policy.delay(meta.attempts.len() as u32);
                        meta.next_attempt = now
                            + chrono::Duration::from_std(delay).unwrap_or(chrono::Duration::MAX);
                        rewrite_meta(&dir, &meta)?;
                        report.deferred.push((meta.key, meta.next_attempt, message));
                    }
                }
            }
        }
        Ok(report)
    }

    fn move_to(&self, dir: &Path, sub: &str) -> Result<PathBuf, OutboxError> {
        let name = dir.file_name().expect("queue entries have names");
        let dest = self.root.join(sub).join(name);
        rename_synced(dir, &dest).map_err(io_at(&dest))?;
        Ok(dest)
    }
}

fn meta_bytes(meta: &Meta) -> Vec<u8> {
    let mut bytes = serde_json::to_vec_pretty(meta).expect("Meta serialises");
    bytes.push(b'\n');
    bytes
}

fn read_meta(dir: &Path) -> Result<Meta, OutboxError> {
    let path = dir.join(META);
    let bytes = fs::read(&path).map_err(io_at(&path))?;
    serde_json::from_slice(&bytes).map_err(|e| OutboxError::Corrupt {
        path,
        reason: e.to_string(),
    })
}

/// Replaces `dir/meta.json` atomically.
fn rewrite_meta(dir: &Path, meta: &Meta) -> Result<(), OutboxError> {
    let tmp = dir.join("meta.json.tmp");
    let _ = fs::remove_file(&tmp);
    write_new_synced(&tmp, &meta_bytes(meta)).map_err(io_at(&tmp))?;
    let path = dir.join(META);
    rename_synced(&tmp, &path).map_err(io_at(&path))
}
