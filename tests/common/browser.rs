//! Headless Chromium for the browser tests (tests/archive.rs, tests/reports.rs).

use std::path::{Path, PathBuf};
use std::process::Command;

/// Debian's Chromium, or `None` (loudly; a failure under `CI=true`, where
/// `.ci/run` installs it).
pub fn chromium() -> Option<PathBuf> {
    for p in ["/usr/bin/chromium", "/usr/bin/chromium-browser"] {
        if Path::new(p).exists() {
            return Some(PathBuf::from(p));
        }
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("chromium is missing under CI=true; .ci/run must install it");
    }
    eprintln!("\n*** SKIPPING THE SCREENSHOT TEST: chromium is not installed ***\n");
    None
}

/// Screenshots `page` at `width` x `height` into `png` with a profile of its
/// own beside it, and returns the PNG's bytes.
pub fn screenshot(chromium: &Path, page: &Path, png: &Path, width: u32, height: u32) -> Vec<u8> {
    let _ = std::fs::remove_file(png);
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
        ])
        .arg(format!(
            "--user-data-dir={}",
            png.with_extension("profile").display()
        ))
        .arg(format!("--window-size={width},{height}"))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(status.success(), "chromium failed on {}", page.display());
    std::fs::read(png).unwrap()
}
