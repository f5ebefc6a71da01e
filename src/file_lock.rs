//! Exclusive file locks that tell a real holder from a passing one.

use std::fs::{File, TryLockError};
use std::time::Duration;

/// Takes `file`'s exclusive lock: `Ok(true)` when taken, `Ok(false)` when
/// another holder keeps it.
///
/// The lock belongs to the open file, and a child process that any thread
/// of this program forks holds a copy of every open file until it execs:
/// for that moment a file this process has just closed still reads as
/// locked. So a refusal is retried for a fifth of a second; a real holder
/// (another daemon, another writer of a log) holds it far longer.
pub fn try_lock_exclusive(file: &File) -> std::io::Result<bool> {
    const TRIES: u32 = 20;
    let mut tries = 0;
    loop {
        tries += 1;
        match file.try_lock() {
            Ok(()) => return Ok(true),
            Err(TryLockError::WouldBlock) if tries < TRIES => {
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(TryLockError::WouldBlock) => return Ok(false),
            Err(TryLockError::Error(e)) => return Err(e),
        }
    }
}
