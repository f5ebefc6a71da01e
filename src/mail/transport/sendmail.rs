//! The sendmail transport: pipes each message to a sendmail-compatible
//! binary (Postfix, Exim, OpenSMTPD, msmtp all provide one).

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use super::{Envelope, SendError, Transport, check_envelope};

/// Runs `PROGRAM -i -f FROM -- RCPT...` with the message on standard input.
///
/// Exit status 0 is success. The `sysexits.h` codes that mean the message or
/// an address is at fault (65 data error, 67 unknown user, 68 unknown host)
/// are permanent; every other failure, a missing binary included, is
/// temporary, because it is the server's configuration that needs fixing and
/// the message should wait for that rather than be given up.
#[derive(Debug, Clone)]
pub struct SendmailTransport {
    program: PathBuf,
    timeout: Duration,
}

impl SendmailTransport {
    /// A transport running `program` (typically `/usr/sbin/sendmail`), killed
    /// if it runs longer than 60 seconds.
    pub fn new(program: impl Into<PathBuf>) -> Self {
        SendmailTransport {
            program: program.into(),
            timeout: Duration::from_secs(60),
        }
    }

    /// Sets how long one run may take before it is killed and counted as a
    /// temporary failure.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

/// `sysexits.h` codes that blame the message or its addresses.
const PERMANENT_EXITS: [i32; 3] = [65, 67, 68];

impl Transport for SendmailTransport {
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError> {
        check_envelope(envelope)?;
        let from = if envelope.from.is_empty() {
            "<>"
        } else {
            &envelope.from
        };
        let program = self.program.display().to_string();
        let mut child = Command::new(&self.program)
            .arg("-i")
            .arg("-f")
            .arg(from)
            .arg("--")
            .args(&envelope.to)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| SendError::temporary(format!("cannot run {program}: {e}")))?;

        // Feed stdin and drain stderr on their own threads so that a child
        // that writes a lot of diagnostics before reading cannot deadlock us.
        let mut stdin = child.stdin.take().expect("stdin was piped");
        let body = message.to_vec();
        let writer = thread::spawn(move || {
            let result = stdin.write_all(&body);
            drop(stdin);
            result
        });
        let mut stderr = child.stderr.take().expect("stderr was piped");
        let reader = thread::spawn(move || {
            let mut text = Vec::new();
            // Only the first 4 KiB are kept; the rest is read and dropped.
            let mut buf = [0u8; 4096];
            while let Ok(n) = stderr.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if text.len() < 4096 {
                    text.extend_from_slice(&buf[..n.min(4096 - text.len())]);
                }
            }
            String::from_utf8_lossy(&text).trim().to_string()
        });

        let deadline = Instant::now() + self.timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() >= deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(SendError::temporary(format!(
                        "{program} did not finish within {:?}; killed",
                        self.timeout
                    )));
                }
                Ok(None) => thread::sleep(Duration::from_millis(10)),
                Err(e) => {
                    let _ = child.kill();
                    return Err(SendError::temporary(format!("waiting for {program}: {e}")));
                }
            }
        };
        let write_result = writer.join();
        let diagnostics = reader.join().unwrap_or_default();
        let detail = if diagnostics.is_empty() {
            String::new()
        } else {
            format!(": {diagnostics}")
        };
        match status.code() {
            Some(0) => match write_result {
                Ok(Ok(())) => Ok(()),
                // Exit 0 without having read the whole message: the message
                // may be truncated, so do not count it as sent.
                _ => Err(SendError::temporary(format!(
                    "{program} exited 0 before reading the whole message"
                ))),
            },
            Some(code) if PERMANENT_EXITS.contains(&code) => Err(SendError::permanent(format!(
                "{program} exited with status {code}{detail}"
            ))),
            Some(code) => Err(SendError::temporary(format!(
                "{program} exited with status {code}{detail}"
            ))),
            None => Err(SendError::temporary(format!(
                "{program} was killed by a signal{detail}"
            ))),
        }
    }
}
