//! The crash-safe appender.

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use crate::dice::Digest32;

use super::chain::{Chain, VerifyError, for_each_line};
use super::entry::{Body, Entry, Genesis, encode_line, format_time, parse_line};

/// An entry that is on disk (written and fsync'd).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    /// Its sequence number.
    pub seq: u64,
    /// Its hash, the log's new head.
    pub hash: Digest32,
}

/// Why the log could not be opened or appended to.
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The file system refused.
    #[error("{}: {source}", path.display())]
    Io {
        /// The log file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// `create` found a file already there.
    #[error("{}: a match log already exists there", .0.display())]
    Exists(PathBuf),
    /// Another process holds the log.
    #[error("{}: another process is writing this log", .0.display())]
    Locked(PathBuf),
    /// The existing log is invalid (for example a torn tail after a crash).
    #[error("{}: {err}; the log was left as it is", .0.display(), err = .1)]
    Corrupt(PathBuf, VerifyError),
    /// The entry would break the log's rules; nothing was written.
    #[error("refused to append {kind} entry: {reason}")]
    Rejected {
        /// The entry's kind.
        kind: &'static str,
        /// The rule it breaks.
        reason: String,
    },
    /// An earlier append failed part-way; the tail may be torn, so the
    /// writer refuses to append after it.
    #[error("{}: an earlier append failed; reopen the log to check its tail", .0.display())]
    Poisoned(PathBuf),
}

/// An open match log, held exclusively by this process, with every entry
/// it holds: the file is read once, when it is opened, and whoever holds
/// the log reads its entries from here.
pub struct MatchLog {
    path: PathBuf,
    file: File,
    chain: Chain,
    entries: Vec<Entry>,
    poisoned: bool,
}

impl MatchLog {
    /// Creates a new log at `path` holding only its genesis entry.
    pub fn create(path: &Path, genesis: Genesis) -> Result<(MatchLog, Written), WriteError> {
        let io = |source| WriteError::Io {
            path: path.to_owned(),
            source,
        };
        let file = match OpenOptions::new().append(true).create_new(true).open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(WriteError::Exists(path.to_owned()));
            }
            Err(e) => return Err(io(e)),
        };
        lock(&file, path)?;
        // The new name must survive a crash too.
        sync_parent(path).map_err(io)?;
        let mut log = MatchLog {
            path: path.to_owned(),
            file,
            chain: Chain::new(),
            entries: Vec::new(),
            poisoned: false,
        };
        let written = log.append(Body::Genesis(genesis))?;
        Ok((log, written))
    }

    /// Opens an existing log for appending, after checking all of it.
    ///
    /// A torn or corrupt tail is reported with its position and left alone.
    pub fn open(path: &Path) -> Result<MatchLog, WriteError> {
        let io = |source| WriteError::Io {
            path: path.to_owned(),
            source,
        };
        let file = OpenOptions::new()
            .read(true)
            .append(true)
            .open(path)
            .map_err(io)?;
        lock(&file, path)?;
        let data = std::fs::read(path).map_err(io)?;
        let mut chain = Chain::new();
        let mut entries = Vec::new();
        for_each_line(&data, |seq, offset, line| {
            let err = |reason: String| VerifyError {
                seq,
                offset,
                reason,
            };
            let entry = parse_line(line).map_err(|e| err(e.to_string()))?;
            chain.apply(&entry).map_err(err)?;
            entries.push(entry);
            Ok(())
        })
        .map_err(|e| WriteError::Corrupt(path.to_owned(), e))?;
        if chain.genesis().is_none() {
            let e = VerifyError {
                seq: 1,
                offset: 0,
                reason: "the log is empty: it has no genesis entry".into(),
            };
            return Err(WriteError::Corrupt(path.to_owned(), e));
        }
        Ok(MatchLog {
            path: path.to_owned(),
            file,
            chain,
            entries,
            poisoned: false,
        })
    }

    /// Appends an entry, fsyncs it, and only then returns.
    ///
    /// The entry is checked against the log's rules first (a reveal must
    /// match its commitment, dice must come from their streams, ...); a
    /// rejected entry writes nothing.
    pub fn append(&mut self, body: Body) -> Result<Written, WriteError> {
        if self.poisoned {
            return Err(WriteError::Poisoned(self.path.clone()));
        }
        let seq = self.chain.seq() + 1;
        // Times never go backwards in a log: if the clock was set back, the
        // entry takes the previous entry's time.
        let now = chrono::Utc::now();
        let time = format_time(self.chain.last_time().map_or(now, |last| now.max(last)));
        let (mut line, hash) = encode_line(seq, &self.chain.head(), &time, &body);
        let entry = Entry {
            seq,
            prev: self.chain.head(),
            time,
            body,
            hash,
        };
        let kind = entry.body.kind();
        // Chain::apply changes nothing when it refuses; when it accepts and
        // the write then fails, the writer is poisoned, so the chain never
        // runs ahead of a file that is still appended to.
        self.chain
            .apply(&entry)
            .map_err(|reason| WriteError::Rejected { kind, reason })?;
        line.push('\n');
        // One write of the whole line, then fsync: until both succeed the
        // entry does not exist as far as any caller is concerned.
        let result = self
            .file
            .write_all(line.as_bytes())
            .and_then(|()| self.file.sync_data());
        if let Err(source) = result {
            self.poisoned = true;
            return Err(WriteError::Io {
                path: self.path.clone(),
                source,
            });
        }
        self.entries.push(entry);
        Ok(Written { seq, hash })
    }

    /// The log's state after its last entry.
    pub fn chain(&self) -> &Chain {
        &self.chain
    }

    /// Every entry, the last one appended included.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The head hash.
    pub fn head(&self) -> Digest32 {
        self.chain.head()
    }

    /// Where the log lives.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

fn lock(file: &File, path: &Path) -> Result<(), WriteError> {
    match crate::file_lock::try_lock_exclusive(file) {
        Ok(true) => Ok(()),
        Ok(false) => Err(WriteError::Locked(path.to_owned())),
        Err(source) => Err(WriteError::Io {
            path: path.to_owned(),
            source,
        }),
    }
}

fn sync_parent(path: &Path) -> std::io::Result<()> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    File::open(parent)?.sync_all()
}
