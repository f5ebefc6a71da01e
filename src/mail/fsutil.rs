//! Durable file-system steps shared by the outbox, the Maildir and the file
//! transport: a rename is only durable once the directories on both sides
//! have been fsync'd, and a file's contents only once the file has.

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

/// Fsyncs a directory, so that entries created, renamed or removed in it
/// survive a power loss.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    File::open(dir)?.sync_all()
}

/// Writes `bytes` to a new file at `path` and fsyncs it. Fails if the file
/// exists: callers write into private temporary names.
pub(crate) fn write_new_synced(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

/// Renames `from` to `to` and fsyncs both parent directories (once if they
/// are the same).
pub(crate) fn rename_synced(from: &Path, to: &Path) -> io::Result<()> {
    fs::rename(from, to)?;
    let to_parent = to.parent().unwrap_or(Path::new("."));
    sync_dir(to_parent)?;
    let from_parent = from.parent().unwrap_or(Path::new("."));
    if from_parent != to_parent {
        sync_dir(from_parent)?;
    }
    Ok(())
}

/// Creates `dir` and its parents if missing, fsyncing the parent of each
/// directory it creates so that the new directory entry is durable.
pub(crate) fn create_dir_synced(dir: &Path) -> io::Result<()> {
    if dir.is_dir() {
        return Ok(());
    }
    if let Some(parent) = dir.parent()
        && !parent.as_os_str().is_empty()
    {
        create_dir_synced(parent)?;
    }
    match fs::create_dir(dir) {
        Ok(()) => {}
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => return Ok(()),
        Err(e) => return Err(e),
    }
    if let Some(parent) = dir.parent()
        && !parent.as_os_str().is_empty()
    {
        sync_dir(parent)?;
    }
    Ok(())
}
