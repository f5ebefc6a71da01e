//! Real mail servers for the tests: a private CA made by the openssl
//! command, Dovecot serving Maildirs over IMAP on 127.0.0.1, and an SMTP
//! server (Python's aiosmtpd) that delivers into the same Maildirs, so a
//! message sent by SMTP can be read back over IMAP.
//!
//! Missing tools are a loud skip on a developer's machine and a failure
//! under `CI=true`, where `.ci/run` must have installed them (Debian's
//! dovecot-imapd, python3-aiosmtpd, openssl).

#![allow(dead_code)]

use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::net::{TcpListener, TcpStream};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Says loudly that `what` is missing and returns `None`; under `CI=true`
/// panics instead.
pub fn missing<T>(what: &str) -> Option<T> {
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("{what} is missing under CI=true; .ci/run must install it");
    }
    eprintln!("\n*** SKIPPING MAIL SERVER TEST: {what} is not installed ***\n");
    None
}

/// A Python interpreter with aiosmtpd.
pub fn python_with_aiosmtpd() -> Option<String> {
    for python in ["python3", "/usr/bin/python3"] {
        let ok = Command::new(python)
            .args(["-c", "import aiosmtpd"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        if ok {
            return Some(python.to_string());
        }
    }
    missing("Python's aiosmtpd (apt-get install python3-aiosmtpd)")
}

/// The openssl command.
pub fn openssl() -> Option<String> {
    let ok = Command::new("openssl")
        .arg("version")
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if ok {
        Some("openssl".into())
    } else {
        missing("the openssl command")
    }
}

/// Dovecot's master binary, and root (Dovecot must start as root to
/// switch to the mail user).
pub fn dovecot() -> Option<PathBuf> {
    let bin = PathBuf::from("/usr/sbin/dovecot");
    if !bin.exists() {
        return missing("Dovecot (apt-get install dovecot-imapd)");
    }
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_default();
    if uid != "0" {
        return missing("root (Dovecot is started by the test as root)");
    }
    Some(bin)
}

/// A free TCP port on 127.0.0.1.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A private CA and a server certificate for 127.0.0.1 signed by it.
pub struct Certs {
    pub ca: PathBuf,
    pub leaf: PathBuf,
    pub leaf_key: PathBuf,
}

/// Makes [`Certs`] in `dir` with the openssl command.
pub fn make_certs(openssl: &str, dir: &Path) -> Certs {
    let run = |args: &[&str]| {
        let out = Command::new(openssl)
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "openssl {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let ec = [
        "-newkey",
        "ec",
        "-pkeyopt",
        "ec_paramgen_curve:P-256",
        "-nodes",
    ];
    let mut ca = vec!["req", "-x509"];
    ca.extend(ec);
    ca.extend([
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=Adjutant Test CA",
    ]);
    run(&ca);
    let mut leaf = vec!["req"];
    leaf.extend(ec);
    leaf.extend([
        "-keyout",
        "leaf.key",
        "-out",
        "leaf.csr",
        "-subj",
        "/CN=127.0.0.1",
    ]);
    run(&leaf);
    fs::write(
        dir.join("leaf.ext"),
        "subjectAltName=IP:127.0.0.1\nbasicConstraints=critical,CA:FALSE\nextendedKeyUsage=serverAuth\nkeyUsage=critical,digitalSignature\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "leaf.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "leaf.pem",
        "-days",
        "2",
        "-extfile",
        "leaf.ext",
    ]);
    Certs {
        ca: dir.join("ca.pem"),
        leaf: dir.join("leaf.pem"),
        leaf_key: dir.join("leaf.key"),
    }
}

/// A child process killed (and reaped) when dropped.
pub struct Process(pub Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The mail user every mailbox belongs to (Dovecot refuses uid 0).
pub const MAIL_UID: u32 = 65534;
pub const MAIL_GID: u32 = 65534;

fn chown(path: &Path) {
    std::os::unix::fs::chown(path, Some(MAIL_UID), Some(MAIL_GID)).unwrap();
}

/// Dovecot on 127.0.0.1 with an IMAPS port and a STARTTLS port, serving
/// `ROOT/mail/USER/Maildir` for the users given.
pub struct Dovecot {
    pub root: PathBuf,
    pub imaps_port: u16,
    pub imap_port: u16,
    pub certs: Certs,
    process: Process,
    bin: PathBuf,
}

fn spawn_dovecot(bin: &Path, conf: &Path, root: &Path) -> Process {
    // Dovecot keeps the caller's stdout open: give it files instead.
    let out = fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(root.join("dovecot.stdout"))
        .unwrap();
    let err = out.try_clone().unwrap();
    Process(
        Command::new(bin)
            .arg("-F")
            .arg("-c")
            .arg(conf)
            .stdin(Stdio::null())
            .stdout(out)
            .stderr(err)
            .spawn()
            .expect("start dovecot"),
    )
}

impl Dovecot {
    /// Starts Dovecot with `users` (name, password), waiting until it
    /// greets on both ports.
    pub fn start(bin: &Path, openssl: &str, root: &Path, users: &[(&str, &str)]) -> Dovecot {
        fs::create_dir_all(root).unwrap();
        // Dovecot's unprivileged processes must reach the base directory.
        fs::set_permissions(root, fs::Permissions::from_mode(0o755)).unwrap();
        let certs = make_certs(openssl, root);
        let mail = root.join("mail");
        fs::create_dir_all(&mail).unwrap();
        chown(&mail);
        let mut passwd = String::new();
        for (user, pw) in users {
            passwd.push_str(&format!("{user}:{{PLAIN}}{pw}\n"));
            maildir_for(root, user);
        }
        fs::write(root.join("passwd"), passwd).unwrap();
        let imaps_port = free_port();
        let imap_port = free_port();
        let r = root.display();
        let conf = format!(
            r#"base_dir = {r}/run
state_dir = {r}/state
log_path = {r}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = yes
ssl_cert = <{cert}
ssl_key = <{key}
ssl_min_protocol = TLSv1.2
disable_plaintext_auth = yes
auth_mechanisms = plain login
default_login_user = dovenull
default_internal_user = dovecot
first_valid_uid = 1
mail_location = maildir:{r}/mail/%u/Maildir
passdb {{
  driver = passwd-file
  args = scheme=PLAIN username_format=%u {r}/passwd
}}
userdb {{
  driver = static
  args = uid={MAIL_UID} gid={MAIL_GID} home={r}/mail/%u
}}
service imap-login {{
  inet_listener imap {{
    port = {imap_port}
  }}
  inet_listener imaps {{
    port = {imaps_port}
    ssl = yes
  }}
}}
protocol imap {{
  imap_idle_notify_interval = 1 mins
}}
"#,
            cert = certs.leaf.display(),
            key = certs.leaf_key.display(),
        );
        let conf_path = root.join("dovecot.conf");
        fs::write(&conf_path, conf).unwrap();
        let d = Dovecot {
            root: root.to_owned(),
            imaps_port,
            imap_port,
            certs,
            process: spawn_dovecot(bin, &conf_path, root),
            bin: bin.to_owned(),
        };
        for port in [imap_port, imaps_port] {
            d.wait_for(port);
        }
        d
    }

    /// Stops Dovecot (every connection drops) and starts it again on the
    /// same ports with the same mailboxes.
    pub fn restart(&mut self) {
        // SIGTERM, as a service manager stops it: the master takes its
        // children (every IMAP session) down with it.
        let pid = self.process.0.id().to_string();
        let children = Command::new("pgrep")
            .args(["-P", &pid])
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        let _ = self.process.0.wait();
        // Children notice the master's end on their own time; a session
        // left over would keep serving its stale view, so they must go.
        let until = Instant::now() + Duration::from_secs(2);
        for child in children.split_whitespace() {
            let proc_dir = PathBuf::from(format!("/proc/{child}"));
            while proc_dir.exists() && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(50));
            }
            if proc_dir.exists() {
                let _ = Command::new("kill").args(["-KILL", child]).status();
            }
        }
        let until = Instant::now() + Duration::from_secs(30);
        while TcpStream::connect(("127.0.0.1", self.imaps_port)).is_ok() {
            assert!(Instant::now() < until, "Dovecot did not stop");
            std::thread::sleep(Duration::from_millis(100));
        }
        self.process = spawn_dovecot(&self.bin, &self.root.join("dovecot.conf"), &self.root);
        for port in [self.imap_port, self.imaps_port] {
            self.wait_for(port);
        }
    }

    fn wait_for(&self, port: u16) {
        let until = Instant::now() + Duration::from_secs(30);
        while Instant::now() < until {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let log = fs::read_to_string(self.root.join("dovecot.log")).unwrap_or_default();
        let out = fs::read_to_string(self.root.join("dovecot.stdout")).unwrap_or_default();
        panic!("Dovecot did not listen on {port} within 30 s:\n{out}\n{log}");
    }

    /// The Maildir of `user`.
    pub fn maildir(&self, user: &str) -> PathBuf {
        self.root.join("mail").join(user).join("Maildir")
    }

    /// Delivers `message` straight into `user`'s Maildir, as a local
    /// delivery agent would.
    pub fn deliver(&self, user: &str, message: &[u8]) {
        deliver_into(&self.maildir(user), message);
    }

    /// Dovecot's log, for failure messages.
    pub fn log(&self) -> String {
        fs::read_to_string(self.root.join("dovecot.log")).unwrap_or_default()
    }
}

fn maildir_for(root: &Path, user: &str) -> PathBuf {
    let home = root.join("mail").join(user);
    let md = home.join("Maildir");
    for sub in ["", "new", "cur", "tmp"] {
        let d = md.join(sub);
        fs::create_dir_all(&d).unwrap();
        chown(&d);
    }
    chown(&home);
    md
}

/// Writes `message` into a Maildir the Maildir way (tmp, then new), owned
/// by the mail user.
pub fn deliver_into(md: &Path, message: &[u8]) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap();
    let name = format!(
        "{}.M{}P{}Q{}.test",
        now.as_secs(),
        now.subsec_micros(),
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let tmp = md.join("tmp").join(&name);
    fs::write(&tmp, message).unwrap();
    chown(&tmp);
    fs::rename(&tmp, md.join("new").join(&name)).unwrap();
}

const SMTP_SERVER: &str = r#"
import asyncio, os, ssl, sys, time
from aiosmtpd.smtp import SMTP, AuthResult

mail_root, port, cert, key, uid, gid, login, password = sys.argv[1:9]
port, uid, gid = int(port), int(uid), int(gid)
counter = [0]

def mailbox(address):
    local = address.split("@")[0].split("+")[0].lower()
    md = os.path.join(mail_root, local, "Maildir")
    return md if os.path.isdir(md) else None

class Handler:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if mailbox(address) is None:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        for rcpt in envelope.rcpt_tos:
            md = mailbox(rcpt)
            counter[0] += 1
            now = time.time()
            name = "%d.M%dP%dQ%d.smtp" % (int(now), int(now % 1 * 1e6), os.getpid(), counter[0])
            tmp = os.path.join(md, "tmp", name)
            with open(tmp, "wb") as f:
                f.write(b"Return-Path: <" + envelope.mail_from.encode() + b">\r\n")
                f.write(b"Delivered-To: " + rcpt.encode() + b"\r\n")
                f.write(envelope.original_content)
                f.flush()
                os.fsync(f.fileno())
            os.chown(tmp, uid, gid)
            os.rename(tmp, os.path.join(md, "new", name))
        return "250 OK delivered"

def authenticator(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == login.encode() and auth_data.password == password.encode()
    return AuthResult(success=ok, handled=ok, auth_data=auth_data)

ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
ctx.load_cert_chain(cert, key)

def factory():
    # Submission-like: STARTTLS offered and required; AUTH optional, so
    # players' clients may relay without it and the daemon logs in.
    return SMTP(Handler(), hostname="mx.test", tls_context=ctx,
                require_starttls=True, authenticator=authenticator,
                auth_required=False, auth_require_tls=True)

async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(factory, "127.0.0.1", port)
    print("READY", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"#;

/// An SMTP server (aiosmtpd, STARTTLS required, AUTH for `login`) that
/// delivers to the Dovecot users' Maildirs by the recipient's local part
/// (before any `+`); unknown mailboxes get 550.
pub struct SmtpServer {
    pub port: u16,
    process: Process,
}

impl SmtpServer {
    pub fn start(python: &str, dovecot: &Dovecot, login: (&str, &str)) -> SmtpServer {
        let script = dovecot.root.join("smtp_server.py");
        fs::write(&script, SMTP_SERVER).unwrap();
        let port = free_port();
        let mut child = Command::new(python)
            .args(["-W", "ignore"])
            .arg(&script)
            .arg(dovecot.root.join("mail"))
            .arg(port.to_string())
            .arg(&dovecot.certs.leaf)
            .arg(&dovecot.certs.leaf_key)
            .arg(MAIL_UID.to_string())
            .arg(MAIL_GID.to_string())
            .arg(login.0)
            .arg(login.1)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start aiosmtpd");
        wait_ready(&mut child);
        SmtpServer {
            port,
            process: Process(child),
        }
    }
}

/// Waits until a server started with piped stdout prints `READY` (20 s).
pub fn wait_ready(child: &mut Child) {
    let stdout = child.stdout.take().expect("stdout piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(stdout).read_line(&mut line);
        let _ = tx.send(line);
    });
    let line = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the server did not start within 20 s");
    assert_eq!(line.trim(), "READY", "the server failed to start");
}

const CLIENT: &str = r#"
import email, email.policy, imaplib, json, smtplib, ssl, sys

def tls(ca):
    ctx = ssl.create_default_context(cafile=ca)
    return ctx

cmd = sys.argv[1]
if cmd == "send":
    # send PORT CA FROM TO FILE
    port, ca, sender, rcpt, path = sys.argv[2:7]
    with open(path, "rb") as f:
        data = f.read()
    with smtplib.SMTP("127.0.0.1", int(port), timeout=30) as s:
        s.starttls(context=tls(ca))
        s.sendmail(sender, [rcpt], data)
elif cmd == "fetch":
    # fetch PORT CA USER PASSWORD FOLDER: every message as JSON
    port, ca, user, password, folder = sys.argv[2:7]
    m = imaplib.IMAP4_SSL("127.0.0.1", int(port), ssl_context=tls(ca), timeout=30)
    m.login(user, password)
    typ, _ = m.select('"%s"' % folder, readonly=True)
    out = []
    if typ == "OK":
        typ, data = m.uid("SEARCH", None, "ALL")
        for uid in data[0].split():
            typ, msg = m.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = msg[0][1]
            parsed = email.message_from_bytes(raw, policy=email.policy.default)
            text = parsed.get_body(preferencelist=("plain",))
            html = parsed.get_body(preferencelist=("html",))
            out.append({
                "subject": str(parsed["Subject"] or ""),
                "from": str(parsed["From"] or ""),
                "to": str(parsed["To"] or ""),
                "in_reply_to": str(parsed["In-Reply-To"] or ""),
                "auto_submitted": str(parsed["Auto-Submitted"] or ""),
                "text": text.get_content() if text is not None else "",
                "html": html.get_content() if html is not None and html is not text else "",
            })
    m.logout()
    print(json.dumps(out))
"#;

/// A message read back over IMAP by Python's imaplib.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct Fetched {
    pub subject: String,
    pub from: String,
    pub to: String,
    pub in_reply_to: String,
    pub auto_submitted: String,
    pub text: String,
    pub html: String,
}

/// A mail client: Python's smtplib and imaplib, independent of ours.
pub struct Client {
    python: String,
    script: PathBuf,
    ca: PathBuf,
}

impl Client {
    pub fn new(python: &str, dovecot: &Dovecot) -> Client {
        let script = dovecot.root.join("client.py");
        fs::write(&script, CLIENT).unwrap();
        Client {
            python: python.to_owned(),
            script,
            ca: dovecot.certs.ca.clone(),
        }
    }

    /// Sends `message` by SMTP (STARTTLS, no login) from `from` to `to`.
    pub fn send(&self, smtp: &SmtpServer, from: &str, to: &str, message: &[u8]) {
        let file = self.script.with_file_name(format!(
            "outgoing-{}.eml",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_nanos()
        ));
        fs::write(&file, message).unwrap();
        let out = Command::new(&self.python)
            .arg(&self.script)
            .arg("send")
            .arg(smtp.port.to_string())
            .arg(&self.ca)
            .arg(from)
            .arg(to)
            .arg(&file)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "smtplib send failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Every message in `user`'s `folder`, read over IMAPS.
    pub fn fetch(
        &self,
        dovecot: &Dovecot,
        user: &str,
        password: &str,
        folder: &str,
    ) -> Vec<Fetched> {
        let out = Command::new(&self.python)
            .arg(&self.script)
            .arg("fetch")
            .arg(dovecot.imaps_port.to_string())
            .arg(&self.ca)
            .arg(user)
            .arg(password)
            .arg(folder)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "imaplib fetch failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            dovecot.log()
        );
        serde_json::from_slice(&out.stdout).unwrap()
    }

    /// Waits until `pred` holds for `user`'s INBOX, or panics after `secs`.
    pub fn wait_for(
        &self,
        dovecot: &Dovecot,
        user: &str,
        password: &str,
        secs: u64,
        what: &str,
        pred: impl Fn(&[Fetched]) -> bool,
    ) -> Vec<Fetched> {
        let until = Instant::now() + Duration::from_secs(secs);
        loop {
            let got = self.fetch(dovecot, user, password, "INBOX");
            if pred(&got) {
                return got;
            }
            if Instant::now() > until {
                panic!(
                    "{user}: {what} did not arrive within {secs} s; the mailbox holds {:#?}",
                    got.iter().map(|f| &f.subject).collect::<Vec<_>>()
                );
            }
            std::thread::sleep(Duration::from_millis(300));
        }
    }
}

/// Reads a file to a string (empty if missing), for failure messages.
pub fn read_lossy(path: &Path) -> String {
    let mut s = Vec::new();
    if let Ok(mut f) = fs::File::open(path) {
        let _ = f.read_to_end(&mut s);
    }
    String::from_utf8_lossy(&s).into_owned()
}
