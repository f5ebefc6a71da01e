//! A Maildir inbox (what Postfix, Dovecot and most delivery agents write).
//!
//! Unprocessed mail is everything in `new/` and `cur/` (a mail program may
//! have moved a message to `cur/` when it showed it). Processed mail is
//! moved to the Maildir++ subfolder `.processed/cur/`, which IMAP clients
//! show as a folder named "processed", so nothing is ever deleted.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::fsutil::{create_dir_synced, rename_synced, sync_dir, write_new_synced};

/// The folder processed messages are moved to, relative to the Maildir.
pub const PROCESSED: &str = ".processed";

/// A Maildir failure.
#[derive(Debug, thiserror::Error)]
#[error("maildir {path}: {source}")]
pub struct MaildirError {
    /// The file or directory.
    pub path: PathBuf,
    /// The cause.
    pub source: io::Error,
}

fn io_at(path: &Path) -> impl FnOnce(io::Error) -> MaildirError + '_ {
    move |source| MaildirError {
        path: path.to_path_buf(),
        source,
    }
}

/// One message waiting in the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its current path (in `new/` or `cur/`).
    pub path: PathBuf,
    /// Its unique name, without the `:2,FLAGS` info suffix.
    pub unique: String,
}

/// A Maildir at a directory.
#[derive(Debug, Clone)]
pub struct Maildir {
    root: PathBuf,
}

static DELIVERIES: AtomicU64 = AtomicU64::new(0);

impl Maildir {
    /// Opens the Maildir at `root`, creating `new/`, `cur/`, `tmp/` and the
    /// processed folder if missing.
    pub fn open(root: impl Into<PathBuf>) -> Result<Maildir, MaildirError> {
        let root = root.into();
        for sub in ["new", "cur", "tmp"] {
            for base in [root.clone(), root.join(PROCESSED)] {
                let dir = base.join(sub);
                create_dir_synced(&dir).map_err(io_at(&dir))?;
            }
        }
        Ok(Maildir { root })
    }

    /// The Maildir's directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Unprocessed messages, oldest delivery first: by the delivery time in
    /// the name (`SECONDS.M<usec>...`), falling back to the file's modified
    /// time for names that do not start with one, then by name.
    pub fn pending(&self) -> Result<Vec<Entry>, MaildirError> {
        let mut found = Vec::new();
        for sub in ["new", "cur"] {
            let dir = self.root.join(sub);
            for entry in fs::read_dir(&dir).map_err(io_at(&dir))? {
                let entry = entry.map_err(io_at(&dir))?;
                let name = entry.file_name().to_string_lossy().into_owned();
                // Dot files are not messages (some tools leave locks there).
                if name.starts_with('.') || !entry.file_type().map_err(io_at(&dir))?.is_file() {
                    continue;
                }
                let unique = name.split(':').next().unwrap_or(&name).to_string();
                let (secs, usec) = match delivery_time(&unique) {
                    Some(t) => t,
                    None => {
                        let modified = entry
                            .metadata()
                            .and_then(|m| m.modified())
                            .unwrap_or(UNIX_EPOCH);
                        let d = modified.duration_since(UNIX_EPOCH).unwrap_or_default();
                        (d.as_secs(), u64::from(d.subsec_micros()))
                    }
                };
                found.push((
                    (secs, usec, unique.clone()),
                    Entry {
                        path: entry.path(),
                        unique,
                    },
                ));
            }
        }
        found.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(found.into_iter().map(|(_, e)| e).collect())
    }

    /// The raw bytes of `entry`.
    pub fn read(&self, entry: &Entry) -> Result<Vec<u8>, MaildirError> {
        fs::read(&entry.path).map_err(io_at(&entry.path))
    }

    /// Moves `entry` to the processed folder (`.processed/cur/NAME:2,S`) and
    /// fsyncs both directories. Call it only after everything the message
    /// caused is durable: a crash before the move means the message is
    /// read again, which the caller's duplicate check (Message-ID, hash)
    /// absorbs. Calling it again for an entry already moved is not an error.
    pub fn mark_processed(&self, entry: &Entry) -> Result<PathBuf, MaildirError> {
        let name = entry
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_else(|| entry.unique.clone());
        let info = match name.split_once(":2,") {
            Some((_, flags)) if flags.contains('S') => flags.to_string(),
            Some((_, flags)) => {
                let mut f = flags.chars().chain(['S']).collect::<Vec<_>>();
                f.sort_unstable();
                f.into_iter().collect()
            }
            None => "S".to_string(),
        };
        let dest = self
            .root
            .join(PROCESSED)
            .join("cur")
            .join(format!("{}:2,{info}", entry.unique));
        match rename_synced(&entry.path, &dest) {
            Ok(()) => Ok(dest),
            Err(e) if e.kind() == io::ErrorKind::NotFound && dest.exists() => {
                // Moved before a crash; make sure the move is durable.
                let parent = dest.parent().expect("dest has a parent");
                sync_dir(parent).map_err(io_at(parent))?;
                Ok(dest)
            }
            Err(e) => Err(io_at(&entry.path)(e)),
        }
    }

    /// Delivers `message` the Maildir way: written and fsync'd in `tmp/`,
    /// then renamed into `new/`, so a reader never sees half a message.
    pub fn deliver(&self, message: &[u8]) -> Result<Entry, MaildirError> {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let unique = format!(
            "{}.M{}P{}Q{}.{}",
            now.as_secs(),
            now.subsec_micros(),
            std::process::id(),
            DELIVERIES.fetch_add(1, Ordering::Relaxed),
            hostname()
        );
        let tmp = self.root.join("tmp").join(&unique);
        write_new_synced(&tmp, message).map_err(io_at(&tmp))?;
        let dest = self.root.join("new").join(&unique);
        rename_synced(&tmp, &dest).map_err(io_at(&dest))?;
        Ok(Entry { path: dest, unique })
    }
}

/// `(seconds, microseconds)` from a name like `1700000000.M123456P42.host`.
fn delivery_time(unique: &str) -> Option<(u64, u64)> {
    let (secs, rest) = unique.split_once('.')?;
    let secs = secs.parse().ok()?;
    let usec = rest
        .strip_prefix('M')
        .map(|r| {
            r.chars()
                .take_while(char::is_ascii_digit)
                .collect::<String>()
        })
        .and_then(|d| d.parse().ok())
        .unwrap_or(0);
    Some((secs, usec))
}

/// The host name for unique names, with `/` and `:` replaced as the Maildir
/// specification asks.
fn hostname() -> String {
    let name = fs::read_to_string("/proc/sys/kernel/hostname")
        .or_else(|_| fs::read_to_string("/etc/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let name = if name.is_empty() {
        "localhost".into()
    } else {
        name
    };
    name.replace('/', "\\057").replace(':', "\\072")
}
