//! The three transports against real things: a directory, a script standing
//! in for sendmail, and a real SMTP server (aiosmtpd) on 127.0.0.1 in plain,
//! STARTTLS and implicit-TLS modes with authentication.
//!
//! The SMTP tests need Python's aiosmtpd and the openssl command; `.ci/run`
//! installs both. Without them the tests say so loudly and skip, except
//! under `CI=true`, where a missing tool is a failure.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

mod mail_support;

use adjutant::mail::outbox::{Outbox, RetryPolicy};
use adjutant::mail::transport::{
    Envelope, FileTransport, SendmailTransport, SmtpConfig, SmtpSecurity, SmtpTransport, Transport,
};
use mail_support::{Certs, free_port, make_certs, openssl, python_with_aiosmtpd};

fn tempdir() -> PathBuf {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "adjutant-mail-transport-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

const MESSAGE: &[u8] = b"From: orders@adjutant.test\r\nTo: alice@example.org\r\nSubject: [m1 round 2 Germany] report\r\nMessage-ID: <r1@adjutant.test>\r\n\r\nThe board.\r\n.leading dot line\r\n";

fn envelope(to: &[&str]) -> Envelope {
    Envelope {
        from: "bounces@adjutant.test".into(),
        to: to.iter().map(|s| s.to_string()).collect(),
    }
}

// ---------------------------------------------------------------- file

#[test]
fn file_transport_writes_one_eml_per_message_and_is_idempotent() {
    let dir = tempdir().join("sent-mail");
    let t = FileTransport::new(&dir);
    t.send(&envelope(&["alice@example.org"]), MESSAGE).unwrap();
    t.send(&envelope(&["alice@example.org"]), MESSAGE).unwrap();
    t.send(&envelope(&["bob@example.org"]), MESSAGE).unwrap();
    let mut emls = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "eml"))
        .collect::<Vec<_>>();
    emls.sort();
    assert_eq!(emls.len(), 2, "same envelope and bytes: one file");
    for eml in &emls {
        assert_eq!(fs::read(eml).unwrap(), MESSAGE);
        let json = eml.with_extension("envelope.json");
        let env: Envelope = serde_json::from_slice(&fs::read(json).unwrap()).unwrap();
        assert_eq!(env.from, "bounces@adjutant.test");
    }
    let err = t.send(&envelope(&[]), MESSAGE).unwrap_err();
    assert!(err.permanent, "{err}");
    let err = t.send(&envelope(&["-oQ/tmp@x"]), MESSAGE).unwrap_err();
    assert!(err.permanent, "{err}");
}

#[test]
fn outbox_over_the_file_transport_delivers() {
    let root = tempdir();
    let mut outbox = Outbox::open(root.join("outbox"), RetryPolicy::default()).unwrap();
    let now = chrono::Utc::now();
    outbox
        .enqueue(
            MESSAGE,
            &envelope(&["alice@example.org"]),
            "m1/3/alice",
            now,
        )
        .unwrap();
    let t = FileTransport::new(root.join("files"));
    let report = outbox.deliver_due(&t, now).unwrap();
    assert_eq!(report.sent, vec!["m1/3/alice"]);
    assert_eq!(fs::read_dir(root.join("files")).unwrap().count(), 2);
}

// ---------------------------------------------------------------- sendmail

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

#[test]
fn sendmail_gets_the_envelope_as_arguments_and_the_message_on_stdin() {
    let dir = tempdir();
    let fake = script(
        &dir,
        "sendmail",
        &format!(
            "for a in \"$@\"; do printf '%s\\n' \"$a\"; done > {0}/args\ncat > {0}/stdin",
            dir.display()
        ),
    );
    let t = SendmailTransport::new(&fake);
    t.send(
        &envelope(&["alice@example.org", "bob@example.org"]),
        MESSAGE,
    )
    .unwrap();
    assert_eq!(
        fs::read_to_string(dir.join("args")).unwrap(),
        "-i\n-f\nbounces@adjutant.test\n--\nalice@example.org\nbob@example.org\n"
    );
    assert_eq!(fs::read(dir.join("stdin")).unwrap(), MESSAGE);

    // The null sender is passed as <>.
    let mut null = envelope(&["alice@example.org"]);
    null.from.clear();
    t.send(&null, MESSAGE).unwrap();
    assert!(
        fs::read_to_string(dir.join("args"))
            .unwrap()
            .starts_with("-i\n-f\n<>\n--\n")
    );
}

#[test]
fn sendmail_failures_are_classified() {
    let dir = tempdir();
    let unknown_user = script(
        &dir,
        "nouser",
        "cat >/dev/null\necho 'no such user' >&2\nexit 67",
    );
    let err = SendmailTransport::new(unknown_user)
        .send(&envelope(&["x@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(err.permanent, "{err}");
    assert!(
        err.message.contains("67") && err.message.contains("no such user"),
        "{err}"
    );

    let tempfail = script(&dir, "tempfail", "cat >/dev/null\nexit 75");
    let err = SendmailTransport::new(tempfail)
        .send(&envelope(&["x@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(!err.permanent, "{err}");

    let err = SendmailTransport::new(dir.join("does-not-exist"))
        .send(&envelope(&["x@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(
        !err.permanent,
        "a missing binary is the server's problem: {err}"
    );

    let slow = script(&dir, "slow", "sleep 10");
    let started = std::time::Instant::now();
    let err = SendmailTransport::new(slow)
        .with_timeout(Duration::from_millis(300))
        .send(&envelope(&["x@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(!err.permanent && err.message.contains("killed"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

// ---------------------------------------------------------------- SMTP

const SERVER: &str = r#"
import asyncio, json, os, ssl, sys
from aiosmtpd.smtp import SMTP, AuthResult

out, port, mode, cert, key = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5]

class Handler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.startswith("reject"):
            return "550 5.1.1 no such user"
        if address.startswith("later"):
            return "451 4.3.0 try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        n = len([f for f in os.listdir(out) if f.endswith(".json")])
        base = os.path.join(out, "%03d" % n)
        with open(base + ".eml.tmp", "wb") as f:
            f.write(envelope.content)
        os.rename(base + ".eml.tmp", base + ".eml")
        meta = {"from": envelope.mail_from, "to": envelope.rcpt_tos,
                "login": (session.auth_data.login.decode()
                          if session.authenticated else None),
                "tls": server.transport.get_extra_info("ssl_object") is not None}
        with open(base + ".json.tmp", "w") as f:
            json.dump(meta, f)
        os.rename(base + ".json.tmp", base + ".json")
        return "250 OK queued"

def authenticator(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == b"adjutant" and auth_data.password == b"s3cret"
    # handled=False lets aiosmtpd 1.4 answer a failure with 535 (with the
    # default it leaves the client waiting).
    return AuthResult(success=ok, handled=ok, auth_data=auth_data)

ctx = None
if mode != "plain":
    ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ctx.load_cert_chain(cert, key)

def factory():
    return SMTP(Handler(), hostname="mx.test",
                tls_context=ctx if mode == "starttls" else None,
                require_starttls=(mode == "starttls"),
                authenticator=authenticator, auth_required=True,
                auth_require_tls=False)

async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(factory, "127.0.0.1", port,
                                      ssl=ctx if mode == "tls" else None)
    print("READY", flush=True)
    await asyncio.sleep(60)
    server.close()

asyncio.run(main())
"#;

/// A running aiosmtpd, killed when dropped.
struct Server {
    child: Child,
    port: u16,
    out: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(python: &str, dir: &Path, mode: &str, certs: Option<&Certs>) -> Server {
    let out = dir.join(format!("received-{mode}"));
    fs::create_dir_all(&out).unwrap();
    let script = dir.join("server.py");
    fs::write(&script, SERVER).unwrap();
    let port = free_port();
    let (cert, key) = certs
        .map(|c| {
            (
                c.leaf.display().to_string(),
                c.leaf_key.display().to_string(),
            )
        })
        .unwrap_or_default();
    let mut child = Command::new(python)
        // aiosmtpd warns about AUTH without TLS, which the plain mode is.
        .args(["-W", "ignore"])
        .arg(&script)
        .arg(&out)
        .arg(port.to_string())
        .arg(mode)
        .arg(cert)
        .arg(key)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start aiosmtpd");
    mail_support::wait_ready(&mut child);
    Server { child, port, out }
}

fn config(port: u16, security: SmtpSecurity, ca: Option<&Path>) -> SmtpConfig {
    SmtpConfig {
        host: "127.0.0.1".into(),
        port,
        security,
        credentials: Some(("adjutant".into(), "s3cret".into())),
        timeout: Duration::from_secs(10),
        hello_name: Some("adjutant.test".into()),
        extra_root_pem: ca.map(|p| fs::read(p).unwrap()),
    }
}

/// What the server received: (message bytes, envelope JSON), in order.
fn received(server: &Server) -> Vec<(Vec<u8>, serde_json::Value)> {
    let mut jsons = fs::read_dir(&server.out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect::<Vec<_>>();
    jsons.sort();
    jsons
        .into_iter()
        .map(|j| {
            let meta = serde_json::from_slice(&fs::read(&j).unwrap()).unwrap();
            (fs::read(j.with_extension("eml")).unwrap(), meta)
        })
        .collect()
}

fn normalised(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).replace("\r\n", "\n")
}

#[test]
fn smtp_plain_on_loopback_with_auth_and_error_classes() {
    let Some(python) = python_with_aiosmtpd() else {
        return;
    };
    let dir = tempdir();
    let server = start_server(&python, &dir, "plain", None);
    let t = SmtpTransport::new(&config(server.port, SmtpSecurity::Plain, None)).unwrap();
    t.send(
        &envelope(&["alice@example.org", "bob@example.org"]),
        MESSAGE,
    )
    .unwrap();
    let got = received(&server);
    assert_eq!(got.len(), 1);
    assert_eq!(
        normalised(&got[0].0),
        normalised(MESSAGE),
        "dot-stuffing undone, bytes intact"
    );
    assert_eq!(got[0].1["from"], "bounces@adjutant.test");
    assert_eq!(
        got[0].1["to"],
        serde_json::json!(["alice@example.org", "bob@example.org"])
    );
    assert_eq!(got[0].1["login"], "adjutant");
    assert_eq!(got[0].1["tls"], false);

    let err = t
        .send(&envelope(&["reject@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(err.permanent, "550 is permanent: {err}");
    let err = t
        .send(&envelope(&["later@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(!err.permanent, "451 is temporary: {err}");

    let mut wrong = config(server.port, SmtpSecurity::Plain, None);
    wrong.credentials = Some(("adjutant".into(), "wrong".into()));
    let err = SmtpTransport::new(&wrong)
        .unwrap()
        .send(&envelope(&["alice@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(err.permanent, "535 bad credentials is a 5xx: {err}");
    assert_eq!(received(&server).len(), 1, "nothing more was accepted");

    // Nobody listening: temporary, so the outbox retries.
    drop(server);
    let closed = free_port();
    let err = SmtpTransport::new(&config(closed, SmtpSecurity::Plain, None))
        .unwrap()
        .send(&envelope(&["alice@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(!err.permanent, "{err}");
}

#[test]
fn smtp_plain_is_refused_off_loopback() {
    let mut c = config(25, SmtpSecurity::Plain, None);
    c.host = "mail.example.org".into();
    let err = SmtpTransport::new(&c).unwrap_err();
    assert!(err.to_string().contains("loopback"), "{err}");
}

#[test]
fn smtp_starttls_and_implicit_tls_with_a_private_ca() {
    let Some(python) = python_with_aiosmtpd() else {
        return;
    };
    let Some(openssl) = openssl() else {
        return;
    };
    let dir = tempdir();
    let certs = make_certs(&openssl, &dir);
    for (mode, security) in [
        ("starttls", SmtpSecurity::StartTls),
        ("tls", SmtpSecurity::ImplicitTls),
    ] {
        let server = start_server(&python, &dir, mode, Some(&certs));
        // Without trusting the private CA the certificate is refused, and
        // nothing is sent in clear.
        let err = SmtpTransport::new(&config(server.port, security, None))
            .unwrap()
            .send(&envelope(&["alice@example.org"]), MESSAGE)
            .unwrap_err();
        assert!(!err.permanent, "{mode}: {err}");
        assert!(received(&server).is_empty(), "{mode}");

        let t = SmtpTransport::new(&config(server.port, security, Some(&certs.ca))).unwrap();
        t.send(&envelope(&["alice@example.org"]), MESSAGE)
            .unwrap_or_else(|e| panic!("{mode}: {e}"));
        let got = received(&server);
        assert_eq!(got.len(), 1, "{mode}");
        assert_eq!(normalised(&got[0].0), normalised(MESSAGE), "{mode}");
        assert_eq!(got[0].1["login"], "adjutant", "{mode}");
        assert_eq!(got[0].1["tls"], true, "{mode}: the session was encrypted");
    }
}

#[test]
fn smtp_starttls_refuses_a_server_without_starttls() {
    let Some(python) = python_with_aiosmtpd() else {
        return;
    };
    let dir = tempdir();
    let server = start_server(&python, &dir, "plain", None);
    let err = SmtpTransport::new(&config(server.port, SmtpSecurity::StartTls, None))
        .unwrap()
        .send(&envelope(&["alice@example.org"]), MESSAGE)
        .unwrap_err();
    assert!(!err.permanent, "{err}");
    assert!(
        received(&server).is_empty(),
        "no silent downgrade to plain text"
    );
}
