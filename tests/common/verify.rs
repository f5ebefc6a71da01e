//! Runs the real `adjutant verify` on a match log, as an auditor would.

use std::path::Path;
use std::process::Command;

/// Runs `adjutant verify LOG`, asserts that it succeeds and re-adjudicates
/// exactly `messages` accepted messages, and returns its report. `what`
/// names the game in failure messages.
pub fn verify_replays(log: &Path, messages: usize, what: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .arg("verify")
        .arg(log)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{what}: verify failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains(&format!(
            "engine replay: {messages} accepted messages re-adjudicated"
        )),
        "{what}: {stdout}"
    );
    stdout
}
