//! The Maildir inbox: delivery order, reading, and the durable move to the
//! processed folder.

use std::fs;
use std::path::PathBuf;

use adjutant::mail::maildir::{Maildir, PROCESSED};

fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "adjutant-mail-maildir-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[test]
fn delivered_mail_is_listed_in_order_read_and_moved_when_processed() {
    let root = tempdir();
    let maildir = Maildir::open(&root).unwrap();
    for sub in [
        "new",
        "cur",
        "tmp",
        ".processed/cur",
        ".processed/new",
        ".processed/tmp",
    ] {
        assert!(root.join(sub).is_dir(), "{sub}");
    }
    let a = maildir.deliver(b"Subject: a\r\n\r\na\r\n").unwrap();
    let b = maildir.deliver(b"Subject: b\r\n\r\nb\r\n").unwrap();
    assert!(a.path.starts_with(root.join("new")));
    assert_eq!(
        fs::read_dir(root.join("tmp")).unwrap().count(),
        0,
        "tmp is emptied"
    );

    // Messages delivered by others: one older, already seen by a mail
    // program (in cur/ with flags), and one much newer.
    fs::write(root.join("cur").join("1000000000.M5P1.host:2,S"), b"old").unwrap();
    fs::write(root.join("new").join("9999999999.M1P1.host"), b"newest").unwrap();
    // Not messages.
    fs::write(root.join("new").join(".lock"), b"").unwrap();

    let pending = maildir.pending().unwrap();
    let bodies = pending
        .iter()
        .map(|e| maildir.read(e).unwrap())
        .collect::<Vec<_>>();
    assert_eq!(
        bodies,
        vec![
            b"old".to_vec(),
            b"Subject: a\r\n\r\na\r\n".to_vec(),
            b"Subject: b\r\n\r\nb\r\n".to_vec(),
            b"newest".to_vec(),
        ]
    );
    assert_eq!(pending[0].unique, "1000000000.M5P1.host");

    let moved = maildir.mark_processed(&pending[1]).unwrap();
    assert_eq!(
        moved,
        root.join(PROCESSED)
            .join("cur")
            .join(format!("{}:2,S", a.unique))
    );
    assert_eq!(fs::read(&moved).unwrap(), b"Subject: a\r\n\r\na\r\n");
    assert!(!a.path.exists());
    // Again (a replay after a crash): not an error, same place.
    assert_eq!(maildir.mark_processed(&pending[1]).unwrap(), moved);
    // Flags already present are kept, with S added once.
    let old = maildir.mark_processed(&pending[0]).unwrap();
    assert!(
        old.ends_with("1000000000.M5P1.host:2,S"),
        "{}",
        old.display()
    );

    let left = maildir.pending().unwrap();
    assert_eq!(left.len(), 2);
    assert_eq!(left[0].unique, b.unique);
    // A reopened Maildir sees the same state.
    assert_eq!(Maildir::open(&root).unwrap().pending().unwrap(), left);
}

#[test]
fn a_missing_message_is_an_error() {
    let root = tempdir();
    let maildir = Maildir::open(&root).unwrap();
    let entry = maildir.deliver(b"x").unwrap();
    fs::remove_file(&entry.path).unwrap();
    let err = maildir.mark_processed(&entry).unwrap_err();
    assert!(err.to_string().contains("maildir"), "{err}");
    assert!(maildir.read(&entry).is_err());
}
