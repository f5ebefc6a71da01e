//! SIGTERM and SIGINT set a flag; the daemon checks it between messages, so
//! the message in hand is finished (logged, answered, moved) before it exits.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Registers SIGTERM and SIGINT to set the returned flag.
pub fn stop_flag() -> std::io::Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(sig, Arc::clone(&flag))?;
    }
    Ok(flag)
}
