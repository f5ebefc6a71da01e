//! A small IMAP4rev1 client (RFC 3501, with IDLE from RFC 2177 and MOVE
//! from RFC 6851): just what the daemon needs to treat a hosted mailbox as
//! its inbox. Log in, list the messages waiting in a folder, fetch one,
//! move it to the processed folder, and wait for new mail with IDLE.
//!
//! Written here rather than taken from a crate because the maintained IMAP
//! crates are async or pull in a second TLS stack; the subset is small and
//! the end-to-end test runs it against a real Dovecot.

use std::io::{self, Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName};

/// How the connection to the IMAP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImapSecurity {
    /// TLS from the first byte (usually port 993).
    ImplicitTls,
    /// Plain connection upgraded with `STARTTLS`, which the server must offer
    /// (usually port 143); never a silent downgrade.
    StartTls,
    /// No encryption: only to a loopback address.
    Plain,
}

/// Everything needed to reach one IMAP mailbox.
#[derive(Debug, Clone)]
pub struct ImapConfig {
    /// Server host name (also the name its certificate must carry) or IP.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Transport security.
    pub security: ImapSecurity,
    /// Login name.
    pub user: String,
    /// Password.
    pub password: String,
    /// Timeout for connecting and for each command's answer.
    pub timeout: Duration,
    /// An extra trusted root certificate (PEM) besides the system's.
    pub extra_root_pem: Option<Vec<u8>>,
}

/// An IMAP failure.
#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    /// The network or TLS layer failed.
    #[error("IMAP connection to {host}: {source}")]
    Io {
        /// The server.
        host: String,
        /// The cause.
        source: io::Error,
    },
    /// The server answered NO or BAD, or something we cannot read.
    #[error("IMAP server {host} refused {command}: {answer}")]
    Refused {
        /// The server.
        host: String,
        /// The command, with any password blanked.
        command: String,
        /// The server's answer.
        answer: String,
    },
    /// The configuration cannot be used.
    #[error("IMAP settings: {0}")]
    Config(String),
}

impl ImapError {
    /// True when the connection is no longer usable (reconnect), false when
    /// the server merely refused a command.
    pub fn is_connection(&self) -> bool {
        matches!(self, ImapError::Io { .. })
    }
}

enum Stream {
    Plain(TcpStream),
    Tls(Box<rustls::StreamOwned<rustls::ClientConnection, TcpStream>>),
}

impl Stream {
    fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(s) => s,
            Stream::Tls(s) => &s.sock,
        }
    }
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.read(buf),
            Stream::Tls(s) => s.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(s) => s.write(buf),
            Stream::Tls(s) => s.write(buf),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(s) => s.flush(),
            Stream::Tls(s) => s.flush(),
        }
    }
}

/// One piece of a server response line: text, or a literal's bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Part {
    /// Text up to (not including) a literal or the line end.
    Text(String),
    /// The bytes of a `{N}` literal.
    Literal(Vec<u8>),
}

/// One response line from the server, with its literals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line(pub Vec<Part>);

impl Line {
    /// The first text part.
    fn head(&self) -> &str {
        match self.0.first() {
            Some(Part::Text(t)) => t,
            _ => "",
        }
    }
}

/// What an IDLE wait ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Idle {
    /// The server announced new or changed mail.
    Changed,
    /// The time ran out.
    Timeout,
    /// The stop flag was raised.
    Stopped,
}

/// A logged-in IMAP session.
pub struct ImapClient {
    host: String,
    stream: Stream,
    /// Bytes read but not yet consumed.
    buf: Vec<u8>,
    next_tag: u32,
    capabilities: Vec<String>,
    timeout: Duration,
}

impl std::fmt::Debug for ImapClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ImapClient")
            .field("host", &self.host)
            .finish_non_exhaustive()
    }
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn tls_config(extra_root_pem: Option<&[u8]>) -> Result<Arc<rustls::ClientConfig>, ImapError> {
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        // A broken system certificate is skipped, as every TLS client does.
        let _ = roots.add(cert);
    }
    if let Some(pem) = extra_root_pem {
        let mut any = false;
        for cert in CertificateDer::pem_slice_iter(pem) {
            let cert = cert.map_err(|e| ImapError::Config(format!("CA certificate: {e}")))?;
            roots
                .add(cert)
                .map_err(|e| ImapError::Config(format!("CA certificate: {e}")))?;
            any = true;
        }
        if !any {
            return Err(ImapError::Config(
                "the CA file holds no PEM certificate".into(),
            ));
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| ImapError::Config(e.to_string()))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(Arc::new(config))
}

/// Quotes `s` as an IMAP string: a quoted string when it is plain ASCII
/// without CR/LF, otherwise `None` (the caller sends a literal).
fn quoted(s: &str) -> Option<String> {
    if s.bytes()
        .any(|b| b == b'\r' || b == b'\n' || b == 0 || b >= 0x80)
    {
        return None;
    }
    Some(format!(
        "\"{}\"",
        s.replace('\\', "\\\\").replace('"', "\\\"")
    ))
}

impl ImapClient {
    /// Connects, upgrades or wraps with TLS as configured and logs in.
    pub fn connect(config: &ImapConfig) -> Result<ImapClient, ImapError> {
        let host = config.host.clone();
        let io_err = |source| ImapError::Io {
            host: host.clone(),
            source,
        };
        if config.security == ImapSecurity::Plain && !is_loopback(&config.host) {
            return Err(ImapError::Config(format!(
                "plain (unencrypted) IMAP is only allowed to a loopback address, not {:?}; use tls or starttls",
                config.host
            )));
        }
        let tls = match config.security {
            ImapSecurity::Plain => None,
            _ => Some(tls_config(config.extra_root_pem.as_deref())?),
        };
        let addr = (config.host.as_str(), config.port)
            .to_socket_addrs()
            .map_err(io_err)?
            .next()
            .ok_or_else(|| {
                io_err(io::Error::new(
                    io::ErrorKind::NotFound,
                    "host name has no address",
                ))
            })?;
        let tcp = TcpStream::connect_timeout(&addr, config.timeout).map_err(io_err)?;
        tcp.set_read_timeout(Some(config.timeout)).map_err(io_err)?;
        tcp.set_write_timeout(Some(config.timeout))
            .map_err(io_err)?;
        let wrap = |tcp: TcpStream| -> Result<Stream, ImapError> {
            let name = ServerName::try_from(config.host.trim_matches(['[', ']']).to_owned())
                .map_err(|e| ImapError::Config(format!("server name {:?}: {e}", config.host)))?;
            let conn = rustls::ClientConnection::new(tls.clone().expect("TLS configured"), name)
                .map_err(|e| ImapError::Config(e.to_string()))?;
            Ok(Stream::Tls(Box::new(rustls::StreamOwned::new(conn, tcp))))
        };
        let stream = match config.security {
            ImapSecurity::ImplicitTls => wrap(tcp)?,
            _ => Stream::Plain(tcp),
        };
        let mut client = ImapClient {
            host: config.host.clone(),
            stream,
            buf: Vec::new(),
            next_tag: 1,
            capabilities: Vec::new(),
            timeout: config.timeout,
        };
        let greeting = client.read_line()?;
        if !greeting.head().starts_with("* OK") && !greeting.head().starts_with("* PREAUTH") {
            return Err(client.refused("the connection", &greeting));
        }
        if config.security == ImapSecurity::StartTls {
            client.refresh_capabilities()?;
            if !client.has("STARTTLS") {
                return Err(ImapError::Config(format!(
                    "{} does not offer STARTTLS; refusing to log in unencrypted",
                    config.host
                )));
            }
            client.command("STARTTLS")?;
            let Stream::Plain(tcp) = client.stream else {
                unreachable!("STARTTLS on a plain stream")
            };
            // Nothing may follow the OK in clear: a server that pipelined
            // bytes after it is attempting an injection.
            if !client.buf.is_empty() {
                return Err(ImapError::Config(
                    "the server sent data after its STARTTLS answer".into(),
                ));
            }
            client.stream = wrap(tcp)?;
        }
        client.login(&config.user, &config.password)?;
        client.refresh_capabilities()?;
        Ok(client)
    }

    fn io(&self, source: io::Error) -> ImapError {
        ImapError::Io {
            host: self.host.clone(),
            source,
        }
    }

    fn refused(&self, command: &str, line: &Line) -> ImapError {
        ImapError::Refused {
            host: self.host.clone(),
            command: command.to_owned(),
            answer: line.head().trim().to_owned(),
        }
    }

    fn has(&self, capability: &str) -> bool {
        self.capabilities
            .iter()
            .any(|c| c.eq_ignore_ascii_case(capability))
    }

    fn refresh_capabilities(&mut self) -> Result<(), ImapError> {
        let lines = self.command("CAPABILITY")?;
        for l in lines {
            if let Some(rest) = l.head().strip_prefix("* CAPABILITY ") {
                self.capabilities = rest.split_whitespace().map(str::to_owned).collect();
            }
        }
        Ok(())
    }

    /// Reads more bytes into the buffer; `Ok(false)` on a read timeout.
    fn fill(&mut self) -> Result<bool, ImapError> {
        let mut chunk = [0u8; 16 * 1024];
        match self.stream.read(&mut chunk) {
            Ok(0) => Err(self.io(io::Error::new(
                io::ErrorKind::UnexpectedEof,
                "the server closed the connection",
            ))),
            Ok(n) => {
                self.buf.extend_from_slice(&chunk[..n]);
                Ok(true)
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                Ok(false)
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(true),
            Err(e) => Err(self.io(e)),
        }
    }

    /// Reads one response line with its literals. A read timeout is an
    /// error here (the server owes us an answer).
    fn read_line(&mut self) -> Result<Line, ImapError> {
        match self.try_read_line(None)? {
            Some(line) => Ok(line),
            None => Err(self.io(io::Error::new(
                io::ErrorKind::TimedOut,
                "no answer from the server in time",
            ))),
        }
    }

    /// Reads one response line; `None` if the socket's read timeout passes
    /// before a whole line arrived (the partial line stays buffered). With
    /// `stop`, a timeout between reads also ends the wait when it is set.
    fn try_read_line(&mut self, stop: Option<&AtomicBool>) -> Result<Option<Line>, ImapError> {
        let mut parts = Vec::new();
        // Where parsing of the buffer starts: the buffer is consumed only
        // when the whole line (literals included) is in, so a timeout can
        // leave it as it was.
        let mut pos = 0;
        loop {
            let Some(nl) = self.buf[pos..].windows(2).position(|w| w == b"\r\n") else {
                if !self.fill()? {
                    return Ok(None);
                }
                continue;
            };
            let end = pos + nl;
            let text = String::from_utf8_lossy(&self.buf[pos..end]).into_owned();
            // A literal announcement ends the text: `{N}` or `{N+}`.
            if let Some(n) = literal_len(&text) {
                let start = end + 2;
                while self.buf.len() < start + n {
                    if !self.fill()? {
                        if stop.is_some_and(|s| s.load(Ordering::Relaxed)) {
                            return Ok(None);
                        }
                        continue;
                    }
                }
                let brace = text.rfind('{').expect("literal_len found it");
                parts.push(Part::Text(text[..brace].to_owned()));
                parts.push(Part::Literal(self.buf[start..start + n].to_vec()));
                pos = start + n;
                continue;
            }
            parts.push(Part::Text(text));
            self.buf.drain(..end + 2);
            return Ok(Some(Line(parts)));
        }
    }

    fn send_raw(&mut self, bytes: &[u8]) -> Result<(), ImapError> {
        self.stream
            .write_all(bytes)
            .and_then(|()| self.stream.flush())
            .map_err(|e| self.io(e))
    }

    /// Sends a tagged command and reads to its tagged answer; returns the
    /// untagged lines. NO or BAD is an error.
    fn command(&mut self, command: &str) -> Result<Vec<Line>, ImapError> {
        self.command_parts(&[command.as_bytes()], command)
    }

    /// A command in parts separated by synchronising literals (each part
    /// but the last ends with `{N}` and the next part is sent after the
    /// server's continuation).
    fn command_parts(&mut self, parts: &[&[u8]], shown: &str) -> Result<Vec<Line>, ImapError> {
        let tag = format!("a{}", self.next_tag);
        self.next_tag += 1;
        let mut untagged = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let mut out = Vec::new();
            if i == 0 {
                out.extend_from_slice(tag.as_bytes());
                out.push(b' ');
            }
            out.extend_from_slice(part);
            out.extend_from_slice(b"\r\n");
            self.send_raw(&out)?;
            if i + 1 < parts.len() {
                loop {
                    let line = self.read_line()?;
                    if line.head().starts_with('+') {
                        break;
                    }
                    if line.head().starts_with(&format!("{tag} ")) {
                        return Err(self.refused(shown, &line));
                    }
                    untagged.push(line);
                }
            }
        }
        loop {
            let line = self.read_line()?;
            let head = line.head();
            if let Some(rest) = head.strip_prefix(&format!("{tag} ")) {
                if rest.starts_with("OK") {
                    return Ok(untagged);
                }
                return Err(self.refused(shown, &line));
            }
            untagged.push(line);
        }
    }

    fn login(&mut self, user: &str, password: &str) -> Result<(), ImapError> {
        if self.has("LOGINDISABLED") {
            return Err(ImapError::Config(format!(
                "{} does not allow LOGIN on this connection",
                self.host
            )));
        }
        // Names and passwords with characters a quoted string cannot hold
        // go as synchronising literals: the part before ends with `{N}` and
        // the literal's bytes start the next part.
        let mut parts: Vec<Vec<u8>> = vec![b"LOGIN".to_vec()];
        let mut shown = "LOGIN".to_owned();
        for (i, s) in [user, password].into_iter().enumerate() {
            let last = parts.last_mut().expect("one part");
            last.push(b' ');
            match quoted(s) {
                Some(q) => {
                    last.extend_from_slice(q.as_bytes());
                    shown.push_str(&if i == 0 {
                        format!(" {q}")
                    } else {
                        " ***".into()
                    });
                }
                None => {
                    last.extend_from_slice(format!("{{{}}}", s.len()).as_bytes());
                    parts.push(s.as_bytes().to_vec());
                    shown.push_str(if i == 0 { " {user}" } else { " ***" });
                }
            }
        }
        let refs: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        self.command_parts(&refs, &shown).map(drop)
    }

    fn mailbox_arg(name: &str) -> Result<String, ImapError> {
        quoted(name).ok_or_else(|| {
            ImapError::Config(format!(
                "folder name {name:?}: only ASCII folder names are supported"
            ))
        })
    }

    /// Selects `folder` (read-write).
    pub fn select(&mut self, folder: &str) -> Result<(), ImapError> {
        let arg = Self::mailbox_arg(folder)?;
        self.command(&format!("SELECT {arg}")).map(drop)
    }

    /// Creates `folder` unless it exists.
    pub fn ensure_folder(&mut self, folder: &str) -> Result<(), ImapError> {
        let arg = Self::mailbox_arg(folder)?;
        let lines = self.command(&format!("LIST \"\" {arg}"))?;
        if lines.iter().any(|l| l.head().starts_with("* LIST")) {
            return Ok(());
        }
        self.command(&format!("CREATE {arg}")).map(drop)
    }

    /// The UIDs of the messages in the selected folder not marked deleted,
    /// in ascending order (the order of arrival).
    pub fn waiting(&mut self) -> Result<Vec<u32>, ImapError> {
        let lines = self.command("UID SEARCH UNDELETED")?;
        let mut uids = Vec::new();
        for l in lines {
            if let Some(rest) = l.head().strip_prefix("* SEARCH") {
                uids.extend(
                    rest.split_whitespace()
                        .filter_map(|n| n.parse::<u32>().ok()),
                );
            }
        }
        uids.sort_unstable();
        Ok(uids)
    }

    /// The whole message with UID `uid`, without setting `\Seen`; `None`
    /// if it is gone.
    pub fn fetch(&mut self, uid: u32) -> Result<Option<Vec<u8>>, ImapError> {
        let lines = self.command(&format!("UID FETCH {uid} (UID BODY.PEEK[])"))?;
        for l in lines {
            if !l.head().starts_with("* ") || !l.head().contains("FETCH") {
                continue;
            }
            let mut after_body = false;
            for part in &l.0 {
                match part {
                    Part::Text(t) => after_body = t.trim_end().ends_with("BODY[]"),
                    Part::Literal(bytes) if after_body => return Ok(Some(bytes.clone())),
                    Part::Literal(_) => after_body = false,
                }
            }
        }
        Ok(None)
    }

    /// Moves message `uid` from the selected folder to `folder`: `UID MOVE`
    /// where the server has it, else copy, flag deleted and expunge (with
    /// `UID EXPUNGE` where available, so other deleted mail is untouched).
    pub fn move_to(&mut self, uid: u32, folder: &str) -> Result<(), ImapError> {
        let arg = Self::mailbox_arg(folder)?;
        if self.has("MOVE") {
            return self.command(&format!("UID MOVE {uid} {arg}")).map(drop);
        }
        self.command(&format!("UID COPY {uid} {arg}"))?;
        self.command(&format!("UID STORE {uid} +FLAGS.SILENT (\\Deleted)"))?;
        if self.has("UIDPLUS") {
            self.command(&format!("UID EXPUNGE {uid}")).map(drop)
        } else {
            self.command("EXPUNGE").map(drop)
        }
    }

    /// Waits for the server to announce a change to the selected folder,
    /// up to `max` (servers drop idle clients after 30 minutes, so callers
    /// keep `max` well under that), checking `stop` every half second.
    pub fn idle(&mut self, max: Duration, stop: &AtomicBool) -> Result<Idle, ImapError> {
        if !self.has("IDLE") {
            // Without IDLE: a plain wait; the caller polls.
            let until = Instant::now() + max;
            while Instant::now() < until {
                if stop.load(Ordering::Relaxed) {
                    return Ok(Idle::Stopped);
                }
                std::thread::sleep(Duration::from_millis(200));
            }
            return Ok(Idle::Timeout);
        }
        let tag = format!("a{}", self.next_tag);
        self.next_tag += 1;
        self.send_raw(format!("{tag} IDLE\r\n").as_bytes())?;
        let first = self.read_line()?;
        if !first.head().starts_with('+') {
            return Err(self.refused("IDLE", &first));
        }
        let tick = Duration::from_millis(500);
        self.stream
            .tcp()
            .set_read_timeout(Some(tick))
            .map_err(|e| self.io(e))?;
        let until = Instant::now() + max;
        let outcome = loop {
            if stop.load(Ordering::Relaxed) {
                break Ok(Idle::Stopped);
            }
            if Instant::now() >= until {
                break Ok(Idle::Timeout);
            }
            match self.try_read_line(Some(stop)) {
                Ok(Some(line)) => {
                    let h = line.head();
                    if h.ends_with("EXISTS") || h.ends_with("RECENT") {
                        break Ok(Idle::Changed);
                    }
                }
                Ok(None) => {}
                Err(e) => break Err(e),
            }
        };
        let restore = self
            .stream
            .tcp()
            .set_read_timeout(Some(self.timeout))
            .map_err(|e| self.io(e));
        let outcome = outcome?;
        restore?;
        self.send_raw(b"DONE\r\n")?;
        loop {
            let line = self.read_line()?;
            if let Some(rest) = line.head().strip_prefix(&format!("{tag} ")) {
                if rest.starts_with("OK") {
                    return Ok(outcome);
                }
                return Err(self.refused("IDLE", &line));
            }
        }
    }

    /// Checks the connection is alive.
    pub fn noop(&mut self) -> Result<(), ImapError> {
        self.command("NOOP").map(drop)
    }

    /// Logs out politely (errors ignored: the connection is going anyway).
    pub fn logout(mut self) {
        let _ = self.command("LOGOUT");
    }
}

/// The length of the literal a response line ends with (`{N}` or `{N+}`).
fn literal_len(text: &str) -> Option<usize> {
    let t = text.strip_suffix('}')?;
    let open = t.rfind('{')?;
    t[open + 1..].trim_end_matches('+').parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_lengths() {
        assert_eq!(literal_len("* 1 FETCH (UID 7 BODY[] {12}"), Some(12));
        assert_eq!(literal_len("a1 LOGIN {3+}"), Some(3));
        assert_eq!(literal_len("* OK [ALERT] {x}"), None);
        assert_eq!(literal_len("* OK done"), None);
    }

    #[test]
    fn quoting() {
        assert_eq!(quoted("plain").as_deref(), Some("\"plain\""));
        assert_eq!(quoted("a\"b\\c").as_deref(), Some("\"a\\\"b\\\\c\""));
        assert_eq!(quoted("naïve"), None);
        assert_eq!(quoted("a\r\nb"), None);
    }
}
