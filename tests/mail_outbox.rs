//! The persisted outbox: written before sending, never sent twice for one
//! key, retried with backoff on a controlled clock, never lost.

use std::cell::RefCell;
use std::path::Path;
use std::time::Duration;

use adjutant::mail::outbox::{Enqueued, Outbox, OutboxError, RetryPolicy, Status};
use adjutant::mail::transport::{Envelope, SendError, Transport};
use chrono::{DateTime, TimeZone, Utc};

/// A transport that records what it sent and fails as scripted.
struct Scripted {
    /// Results to return, first first; `Ok` once exhausted.
    script: RefCell<Vec<Result<(), SendError>>>,
    sent: RefCell<Vec<(Envelope, Vec<u8>)>>,
    calls: RefCell<usize>,
}

impl Scripted {
    fn new(script: Vec<Result<(), SendError>>) -> Self {
        Scripted {
            script: RefCell::new(script),
            sent: RefCell::new(Vec::new()),
            calls: RefCell::new(0),
        }
    }
}

impl Transport for Scripted {
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError> {
        *self.calls.borrow_mut() += 1;
        let mut script = self.script.borrow_mut();
        let result = if script.is_empty() {
            Ok(())
        } else {
            script.remove(0)
        };
        if result.is_ok() {
            self.sent
                .borrow_mut()
                .push((envelope.clone(), message.to_vec()));
        }
        result
    }
}

fn envelope(to: &str) -> Envelope {
    Envelope {
        from: "orders@adjutant.test".into(),
        to: vec![to.into()],
    }
}

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2025, 11, 4, 9, 0, 0).unwrap()
}

fn policy() -> RetryPolicy {
    RetryPolicy {
        initial: Duration::from_secs(60),
        max: Duration::from_secs(600),
        give_up_after: Some(Duration::from_secs(24 * 3600)),
    }
}

fn entries(dir: &Path) -> usize {
    std::fs::read_dir(dir).unwrap().count()
}

#[test]
fn a_message_enqueued_before_a_crash_is_sent_once_after_restart() {
    let dir = tempdir();
    {
        let mut outbox = Outbox::open(&dir, policy()).unwrap();
        let r = outbox
            .enqueue(
                b"Subject: one\r\n\r\nhi\r\n",
                &envelope("a@example.org"),
                "m1/7/a",
                t0(),
            )
            .unwrap();
        assert_eq!(r, Enqueued::New);
        // "Crash": the outbox is dropped without any send.
    }
    // It is on disk, in queue/.
    assert_eq!(entries(&dir.join("queue")), 1);

    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    // The daemon's replay enqueues the same key again: no second copy.
    let r = outbox
        .enqueue(
            b"Subject: one\r\n\r\nhi\r\n",
            &envelope("a@example.org"),
            "m1/7/a",
            t0(),
        )
        .unwrap();
    assert_eq!(r, Enqueued::AlreadyKnown);
    let transport = Scripted::new(Vec::new());
    let report = outbox.deliver_due(&transport, t0()).unwrap();
    assert_eq!(report.sent, vec!["m1/7/a"]);
    assert_eq!(transport.sent.borrow().len(), 1);
    assert_eq!(transport.sent.borrow()[0].1, b"Subject: one\r\n\r\nhi\r\n");

    // Another pass, and another restart with a replayed enqueue: nothing more.
    let report = outbox.deliver_due(&transport, t0()).unwrap();
    assert!(report.sent.is_empty());
    drop(outbox);
    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    assert_eq!(
        outbox
            .enqueue(
                b"Subject: one\r\n\r\nhi\r\n",
                &envelope("a@example.org"),
                "m1/7/a",
                t0()
            )
            .unwrap(),
        Enqueued::AlreadyKnown
    );
    outbox.deliver_due(&transport, t0()).unwrap();
    assert_eq!(*transport.calls.borrow(), 1, "sent exactly once");
    assert!(
        matches!(outbox.status("m1/7/a").unwrap(), Some(Status::Sent(m)) if m.sent_at == Some(t0()))
    );
    assert_eq!(entries(&dir.join("queue")), 0);
    assert_eq!(entries(&dir.join("sent")), 1);
}

#[test]
fn the_same_key_twice_is_one_message() {
    let dir = tempdir();
    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    assert_eq!(
        outbox
            .enqueue(b"first", &envelope("a@example.org"), "k", t0())
            .unwrap(),
        Enqueued::New
    );
    assert_eq!(
        outbox
            .enqueue(b"second", &envelope("b@example.org"), "k", t0())
            .unwrap(),
        Enqueued::AlreadyKnown
    );
    assert_eq!(
        outbox
            .enqueue(b"other", &envelope("a@example.org"), "k2", t0())
            .unwrap(),
        Enqueued::New
    );
    let transport = Scripted::new(Vec::new());
    outbox.deliver_due(&transport, t0()).unwrap();
    let sent = transport.sent.borrow();
    assert_eq!(sent.len(), 2);
    assert_eq!(
        sent[0].1, b"first",
        "the first enqueue is the one kept, and order is kept"
    );
    assert_eq!(sent[1].1, b"other");
}

#[test]
fn temporary_failures_back_off_then_deliver_once() {
    let dir = tempdir();
    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    outbox
        .enqueue(b"msg", &envelope("a@example.org"), "k", t0())
        .unwrap();
    let transport = Scripted::new(vec![
        Err(SendError::temporary("421 try later")),
        Err(SendError::temporary("connection refused")),
    ]);
    let s = chrono::Duration::seconds;

    let r = outbox.deliver_due(&transport, t0()).unwrap();
    assert_eq!(r.deferred.len(), 1);
    assert_eq!(r.deferred[0].1, t0() + s(60), "first retry after 60 s");
    // Not due yet: no attempt.
    outbox.deliver_due(&transport, t0() + s(59)).unwrap();
    assert_eq!(*transport.calls.borrow(), 1);
    assert_eq!(outbox.next_due().unwrap(), Some(t0() + s(60)));

    // A restart in between keeps the schedule and the history.
    drop(outbox);
    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    let r = outbox.deliver_due(&transport, t0() + s(60)).unwrap();
    assert_eq!(r.deferred[0].1, t0() + s(60) + s(120), "then doubled");
    outbox.deliver_due(&transport, t0() + s(179)).unwrap();
    assert_eq!(*transport.calls.borrow(), 2);

    let r = outbox.deliver_due(&transport, t0() + s(180)).unwrap();
    assert_eq!(r.sent, vec!["k"]);
    assert_eq!(*transport.calls.borrow(), 3);
    assert_eq!(transport.sent.borrow().len(), 1, "delivered once");
    match outbox.status("k").unwrap() {
        Some(Status::Sent(meta)) => {
            assert_eq!(meta.attempts.len(), 2);
            assert_eq!(meta.attempts[0].error, "421 try later");
        }
        other => panic!("{other:?}"),
    }
    outbox.deliver_due(&transport, t0() + s(10_000)).unwrap();
    assert_eq!(*transport.calls.borrow(), 3);
}

#[test]
fn backoff_is_capped() {
    let p = policy();
    assert_eq!(p.delay(1), Duration::from_secs(60));
    assert_eq!(p.delay(2), Duration::from_secs(120));
    assert_eq!(p.delay(4), Duration::from_secs(480));
    assert_eq!(p.delay(5), Duration::from_secs(600));
    assert_eq!(p.delay(500), Duration::from_secs(600));
}

#[test]
fn permanent_failures_and_expired_messages_move_to_failed() {
    let dir = tempdir();
    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    outbox
        .enqueue(b"a", &envelope("a@example.org"), "perm", t0())
        .unwrap();
    let transport = Scripted::new(vec![Err(SendError::permanent("550 no such user"))]);
    let r = outbox.deliver_due(&transport, t0()).unwrap();
    assert_eq!(
        r.failed,
        vec![("perm".to_string(), "550 no such user".to_string())]
    );
    assert!(
        matches!(outbox.status("perm").unwrap(), Some(Status::Failed(m)) if m.failed_reason.as_deref() == Some("550 no such user"))
    );
    assert_eq!(
        std::fs::read(
            dir.join("failed")
                .join(Outbox::id_of("perm"))
                .join("message.eml")
        )
        .unwrap(),
        b"a"
    );

    outbox
        .enqueue(b"b", &envelope("b@example.org"), "slow", t0())
        .unwrap();
    let always = Scripted::new(vec![Err(SendError::temporary("down")); 1000]);
    let mut now = t0();
    let mut passes = 0;
    while outbox
        .status("slow")
        .unwrap()
        .is_some_and(|s| matches!(s, Status::Queued(_)))
    {
        passes += 1;
        assert!(passes < 1000, "bounded");
        now = outbox.next_due().unwrap().unwrap().max(now);
        outbox.deliver_due(&always, now).unwrap();
    }
    match outbox.status("slow").unwrap() {
        Some(Status::Failed(meta)) => {
            assert!(meta.failed_reason.unwrap().starts_with("gave up after"));
            assert!(now - t0() >= chrono::Duration::hours(24));
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn one_process_at_a_time_and_half_written_entries_are_cleared() {
    let dir = tempdir();
    let outbox = Outbox::open(&dir, policy()).unwrap();
    assert!(matches!(
        Outbox::open(&dir, policy()),
        Err(OutboxError::Locked(_))
    ));
    drop(outbox);
    // A crash mid-enqueue leaves tmp/ID: cleared on open, never sent.
    std::fs::create_dir(dir.join("tmp").join("deadbeef")).unwrap();
    std::fs::write(
        dir.join("tmp").join("deadbeef").join("message.eml"),
        b"half",
    )
    .unwrap();
    let mut outbox = Outbox::open(&dir, policy()).unwrap();
    assert_eq!(entries(&dir.join("tmp")), 0);
    let transport = Scripted::new(Vec::new());
    outbox.deliver_due(&transport, t0()).unwrap();
    assert_eq!(*transport.calls.borrow(), 0);
}

fn tempdir() -> std::path::PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "adjutant-mail-outbox-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
