//! Every command ends quietly when the reader of its output goes away
//! (`adjutant verify LOG | head`): no panic, no error message.

use std::os::unix::process::ExitStatusExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fresh_dir(name: &str) -> PathBuf {
    let d =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("pipes-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs `adjutant ARGS` in `dir` with standard output a pipe whose reader
/// is already closed, so the first write fails with EPIPE.
fn into_closed_pipe(dir: &Path, args: &[&str]) {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.is_empty() || !(stderr.contains("panicked") || stderr.contains("Broken pipe")),
        "adjutant {args:?} into a closed pipe: {stderr}"
    );
    assert!(
        out.status.success() || out.status.signal() == Some(libc_sigpipe()),
        "adjutant {args:?} into a closed pipe ended with {:?}: {stderr}",
        out.status
    );
}

fn libc_sigpipe() -> i32 {
    13
}

#[test]
fn every_command_exits_quietly_on_a_broken_pipe() {
    let dir = fresh_dir("all");
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let demo = Command::new(env!("CARGO_BIN_EXE_adjutant"))
        .current_dir(&dir)
        .args(["demo", "--dir", "d", "--games", games.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        demo.status.success(),
        "{}",
        String::from_utf8_lossy(&demo.stderr)
    );
    let log = "d/demo-1/log.jsonl";
    for args in [
        &["verify", log][..],
        &["log", "show", log],
        &["show", "--match", "d/demo-1"],
        &["show", "--match", "d/demo-1", "--position"],
        &["report", "--match", "d/demo-1"],
        &["schema", "orders"],
        &[
            "odds",
            "aae",
            "3 infantry, 1 armor",
            "2 infantry",
            "--games",
            games.to_str().unwrap(),
        ],
        &["demo", "--dir", "d", "--games", games.to_str().unwrap()],
        &["run", "--check"],
        &["run", "--demo", "--games", games.to_str().unwrap()],
        &["--help"],
    ] {
        into_closed_pipe(&dir, args);
    }
}
