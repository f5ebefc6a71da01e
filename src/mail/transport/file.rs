//! The file transport: each message becomes an `.eml` file in a directory
//! (the embedded default, so a newcomer can read what would have been sent).

use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{Envelope, SendError, Transport, check_envelope};
use crate::mail::fsutil::{create_dir_synced, rename_synced, write_new_synced};

/// Writes each message as `<hash>.eml`, with its envelope beside it as
/// `<hash>.envelope.json`.
///
/// The name is the SHA-256 of the envelope and the bytes, so sending the same
/// message twice (a retry after a crash between sending and recording it as
/// sent) leaves one file, not two.
#[derive(Debug, Clone)]
pub struct FileTransport {
    dir: PathBuf,
}

impl FileTransport {
    /// A transport writing into `dir`, created on first send if missing.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        FileTransport { dir: dir.into() }
    }

    /// The directory messages are written to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn write(&self, envelope: &Envelope, message: &[u8]) -> std::io::Result<()> {
        create_dir_synced(&self.dir)?;
        let envelope_json = serde_json::to_vec_pretty(envelope)?;
        let mut hasher = Sha256::new();
        hasher.update((envelope_json.len() as u64).to_be_bytes());
        hasher.update(&envelope_json);
        hasher.update(message);
        let name = hex::encode(&hasher.finalize()[..16]);
        let eml = self.dir.join(format!("{name}.eml"));
        if eml.exists() {
            return Ok(());
        }
        // The envelope goes first: an `.eml` without its envelope would be
        // a message nobody can tell the recipients of.
        for (suffix, bytes) in [(".envelope.json", &envelope_json[..]), (".eml", message)] {
            let tmp = self.dir.join(format!(".{name}{suffix}.tmp"));
            let _ = fs::remove_file(&tmp);
            write_new_synced(&tmp, bytes)?;
            rename_synced(&tmp, &self.dir.join(format!("{name}{suffix}")))?;
        }
        Ok(())
    }
}

impl Transport for FileTransport {
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError> {
        check_envelope(envelope)?;
        self.write(envelope, message)
            .map_err(|e| SendError::temporary(format!("writing to {}: {e}", self.dir.display())))
    }
}
