//! The daemon's configuration: one YAML file (`docs/daemon.md`), every key
//! optional, every default the embedded one, checked at start with every
//! problem reported at once (YAML path and reason).
//!
//! The file is read in two steps: [`ConfigFile`] is the YAML as written
//! (unknown keys are errors), [`ConfigFile::validate`] turns it into a
//! [`Config`] with paths resolved, durations parsed and addresses checked.

use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

pub use crate::mail::imap::ImapSecurity;
use crate::mail::message::Mailbox;
use crate::mail::route::is_match_id;
use crate::mail::transport::SmtpSecurity;
pub use crate::matches::deadlines::{DeadlineSettings, NoOrders, parse_duration};

/// The data directory of the embedded default.
pub const DEFAULT_DATA_DIR: &str = "adjutant-data";
/// The mail domain of the embedded default (a name that never leaves the
/// machine: `.localhost` is reserved for loopback, RFC 6761).
pub const DEFAULT_DOMAIN: &str = "adjutant.localhost";

/// The configuration file as written.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigFile {
    /// Where everything lives (default `./adjutant-data`, relative to the
    /// current directory).
    #[serde(default)]
    pub data_dir: Option<PathBuf>,
    /// Where mail comes in (default: the Maildir `DATA/inbox`).
    #[serde(default)]
    pub inbound: Option<InboundFile>,
    /// How mail goes out (default: `.eml` files in `DATA/sent-mail`).
    #[serde(default)]
    pub transport: Option<TransportFile>,
    /// Domain and addresses.
    #[serde(default)]
    pub mail: MailFile,
    /// Size and rate limits.
    #[serde(default)]
    pub limits: LimitsFile,
    /// Deadlines of the stages.
    #[serde(default)]
    pub deadlines: DeadlinesFile,
    /// How often the inbox is looked at when idle (default `5s`).
    #[serde(default)]
    pub poll_interval: Option<String>,
    /// A directory of mail templates overriding the built-in ones by file
    /// name (`docs/reports.md`; relative paths are under the data
    /// directory). Default: the built-in templates only.
    #[serde(default)]
    pub templates_dir: Option<PathBuf>,
    /// The static match archive the daemon refreshes after each stage
    /// (`docs/daemon.md`, "The match archive"). Default: none.
    #[serde(default)]
    pub archive: Option<ArchiveFile>,
    /// The directory of league files (`docs/league.md`): every `*.yaml`
    /// in it is a `league.yaml` whose matches are the daemon's; `command:
    /// standings` answers from them. Default `DATA/leagues` (relative
    /// paths are under the data directory; a missing directory holds no
    /// league).
    #[serde(default)]
    pub leagues_dir: Option<PathBuf>,
}

/// `archive:`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveFile {
    /// The site's directory (relative paths are under the data directory).
    pub dir: PathBuf,
}

/// `inbound:`, one of its two forms.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InboundFile {
    /// `maildir: {path: DIR}`.
    Maildir(MaildirFile),
    /// `imap: {host, port, tls, user, password_file}`.
    Imap(ImapFile),
}

/// `inbound: {maildir: ...}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaildirFile {
    /// The Maildir (relative paths are under the data directory).
    pub path: PathBuf,
}

/// `inbound: {imap: ...}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImapFile {
    /// Server host.
    pub host: String,
    /// Server port (default 993 for tls, 143 for starttls and plain).
    #[serde(default)]
    pub port: Option<u16>,
    /// `tls` (default), `starttls` or `plain` (loopback only).
    #[serde(default)]
    pub security: Option<String>,
    /// Login.
    pub user: String,
    /// A file holding the password (first line).
    pub password_file: PathBuf,
    /// The folder to read (default `INBOX`).
    #[serde(default)]
    pub folder: Option<String>,
    /// Where handled messages are moved (default `processed`, created if
    /// missing).
    #[serde(default)]
    pub processed_folder: Option<String>,
    /// An extra trusted CA certificate (PEM), for a server with a private
    /// CA or a self-signed certificate.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
    /// Timeout per IMAP command (default `60s`).
    #[serde(default)]
    pub timeout: Option<String>,
}

/// `transport:`, one of its three forms.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportFile {
    /// `file: {dir: DIR}`.
    File(FileTransportFile),
    /// `sendmail: {path: /usr/sbin/sendmail}`.
    Sendmail(SendmailFile),
    /// `smtp: {host, port, security, user, password_file}`.
    Smtp(SmtpFile),
}

/// `transport: {file: ...}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileTransportFile {
    /// The directory (relative paths are under the data directory).
    pub dir: PathBuf,
}

/// `transport: {sendmail: ...}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SendmailFile {
    /// The sendmail binary (default `/usr/sbin/sendmail`).
    #[serde(default)]
    pub path: Option<PathBuf>,
}

/// `transport: {smtp: ...}`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmtpFile {
    /// Server host.
    pub host: String,
    /// Server port (default 587 for starttls, 465 for tls, 25 for plain).
    #[serde(default)]
    pub port: Option<u16>,
    /// `starttls` (default), `tls` or `plain` (loopback only).
    #[serde(default)]
    pub security: Option<String>,
    /// Login, if the server wants one.
    #[serde(default)]
    pub user: Option<String>,
    /// A file holding the password (first line); required with `user`.
    #[serde(default)]
    pub password_file: Option<PathBuf>,
    /// Timeout per SMTP command (default `30s`).
    #[serde(default)]
    pub timeout: Option<String>,
    /// An extra trusted CA certificate (PEM), for a server with a private
    /// CA or a self-signed certificate.
    #[serde(default)]
    pub ca_file: Option<PathBuf>,
}

/// `mail:`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MailFile {
    /// Our mail domain (default `adjutant.localhost`).
    #[serde(default)]
    pub domain: Option<String>,
    /// The local part of the orders address (default `orders`): players
    /// write to `orders+MATCH@domain`.
    #[serde(default)]
    pub orders_local_part: Option<String>,
    /// The `From` of everything sent (default `Adjutant <orders@domain>`).
    #[serde(default)]
    pub from: Option<String>,
    /// A page the organiser publishes for players (the league's rules and
    /// orders guide), linked from the help reply. Default: none; the help
    /// reply is complete without it.
    #[serde(default)]
    pub help_url: Option<String>,
    /// Whether each turn report carries the map of the board, inline and as
    /// `map.png` (default `true`; games without map data send none).
    #[serde(default)]
    pub map_in_reports: Option<bool>,
}

/// `limits:`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LimitsFile {
    /// Largest message read, in bytes (default 262144).
    #[serde(default)]
    pub max_message_bytes: Option<usize>,
    /// Messages per sender per match and hour before further ones are
    /// dropped unanswered (default 30).
    #[serde(default)]
    pub per_sender_per_hour: Option<u32>,
    /// Messages per match and hour (default 300).
    #[serde(default)]
    pub per_match_per_hour: Option<u32>,
    /// Notices to unknown senders per match and hour (default 10); one
    /// sender gets at most one a day.
    #[serde(default)]
    pub unknown_sender_notices_per_hour: Option<u32>,
}

/// `deadlines:`: the same keys as a players file's (`stage`, e.g. `72h`,
/// default none; `reminder_before`, default `24h`; `no_orders`, `wait` or
/// `pass`).
pub type DeadlinesFile = crate::matches::MatchDeadlines;

/// Where mail comes in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Inbound {
    /// A Maildir.
    Maildir(PathBuf),
    /// An IMAP mailbox.
    Imap(ImapSource),
}

/// A checked `inbound: {imap: ...}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImapSource {
    /// Host.
    pub host: String,
    /// Port.
    pub port: u16,
    /// Transport security.
    pub security: ImapSecurity,
    /// Login.
    pub user: String,
    /// Password file (read at start).
    pub password_file: PathBuf,
    /// Folder read.
    pub folder: String,
    /// Folder handled mail is moved to.
    pub processed_folder: String,
    /// Extra trusted CA (PEM file).
    pub ca_file: Option<PathBuf>,
    /// Timeout per command.
    pub timeout: Duration,
}

/// How mail goes out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Transport {
    /// `.eml` files in a directory.
    File(PathBuf),
    /// The sendmail binary.
    Sendmail(PathBuf),
    /// SMTP.
    Smtp {
        /// Host.
        host: String,
        /// Port.
        port: u16,
        /// Security.
        security: SmtpSecurity,
        /// Login and password file.
        login: Option<(String, PathBuf)>,
        /// Timeout per command.
        timeout: Duration,
        /// Extra trusted CA (PEM file).
        ca_file: Option<PathBuf>,
    },
}

/// Size and rate limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest message read, in bytes.
    pub max_message_bytes: usize,
    /// Messages per sender per match and hour.
    pub per_sender_per_hour: u32,
    /// Messages per match and hour.
    pub per_match_per_hour: u32,
    /// Notices to unknown senders per match and hour.
    pub unknown_sender_notices_per_hour: u32,
}

/// The daemon's deadlines (a match's players file may override them).
pub type Deadlines = DeadlineSettings;

/// A checked configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The data directory.
    pub data_dir: PathBuf,
    /// Inbound source.
    pub inbound: Inbound,
    /// The persisted outbox (`DATA/outbox`).
    pub outbox_dir: PathBuf,
    /// Match directories live here (`DATA/matches`).
    pub matches_dir: PathBuf,
    /// Outbound transport.
    pub transport: Transport,
    /// Our mail domain.
    pub domain: String,
    /// The local part of the orders address.
    pub orders_local_part: String,
    /// `From` of everything sent.
    pub from: Mailbox,
    /// The organiser's page for players, linked from the help reply.
    pub help_url: Option<String>,
    /// Turn reports carry the map of the board (`mail.map_in_reports`).
    pub map_in_reports: bool,
    /// Limits.
    pub limits: Limits,
    /// Deadlines.
    pub deadlines: Deadlines,
    /// Idle poll interval.
    pub poll_interval: Duration,
    /// The template directory overriding the built-in templates, if any.
    pub templates_dir: Option<PathBuf>,
    /// The static match archive refreshed after each stage, if any
    /// (`archive.dir`).
    pub archive_dir: Option<PathBuf>,
    /// The league files (`leagues_dir`, default `DATA/leagues`).
    pub leagues_dir: PathBuf,
}

/// One thing wrong with a configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Where: a YAML path such as `transport.smtp.port`.
    pub path: String,
    /// Why.
    pub reason: String,
}

/// A configuration that cannot be used, with every problem found.
#[derive(Debug, thiserror::Error)]
#[error("{}: {} problem(s):{}", source_name, problems.len(), problems.iter().map(|p| format!("\n  {}: {}", p.path, p.reason)).collect::<String>())]
pub struct ConfigError {
    /// The file, or "the embedded default".
    pub source_name: String,
    /// Every problem.
    pub problems: Vec<Problem>,
}

impl Config {
    /// The checked configuration in the configuration file's own words
    /// (what `adjutant run --check` prints): every key with the value in
    /// force, defaults included, so an organiser reads what the daemon will
    /// do. Password files are named, never read.
    pub fn describe(&self) -> String {
        let path = |p: &Path| p.display().to_string();
        let secs = |d: Duration| format!("{}s", d.as_secs());
        let mut out = format!("data_dir: {}\n", path(&self.data_dir));
        match &self.inbound {
            Inbound::Maildir(dir) => {
                out.push_str(&format!("inbound:\n  maildir: {{path: {}}}\n", path(dir)))
            }
            Inbound::Imap(i) => {
                out.push_str(&format!(
                    "inbound:\n  imap:\n    host: {}\n    port: {}\n    security: {}\n    user: {}\n    password_file: {}\n    folder: {}\n    processed_folder: {}\n    timeout: {}\n",
                    i.host,
                    i.port,
                    imap_security_word(i.security),
                    i.user,
                    path(&i.password_file),
                    i.folder,
                    i.processed_folder,
                    secs(i.timeout),
                ));
                if let Some(ca) = &i.ca_file {
                    out.push_str(&format!("    ca_file: {}\n", path(ca)));
                }
            }
        }
        out.push_str(&format!("outbox: {}\n", path(&self.outbox_dir)));
        out.push_str(&format!("matches: {}\n", path(&self.matches_dir)));
        match &self.transport {
            Transport::File(dir) => {
                out.push_str(&format!("transport:\n  file: {{dir: {}}}\n", path(dir)))
            }
            Transport::Sendmail(p) => {
                out.push_str(&format!("transport:\n  sendmail: {{path: {}}}\n", path(p)))
            }
            Transport::Smtp {
                host,
                port,
                security,
                login,
                timeout,
                ca_file,
            } => {
                out.push_str(&format!(
                    "transport:\n  smtp:\n    host: {host}\n    port: {port}\n    security: {}\n    timeout: {}\n",
                    smtp_security_word(*security),
                    secs(*timeout),
                ));
                match login {
                    Some((user, file)) => out.push_str(&format!(
                        "    user: {user}\n    password_file: {}\n",
                        path(file)
                    )),
                    None => out.push_str("    user: none (no login)\n"),
                }
                if let Some(ca) = ca_file {
                    out.push_str(&format!("    ca_file: {}\n", path(ca)));
                }
            }
        }
        let from = match &self.from.name {
            Some(name) => format!("{name} <{}>", self.from.address),
            None => self.from.address.clone(),
        };
        out.push_str(&format!(
            "mail:\n  domain: {}\n  orders_local_part: {}\n  from: {from}\n  orders address: {}\n  help_url: {}\n",
            self.domain,
            self.orders_local_part,
            self.orders_address().for_match("MATCH"),
            self.help_url.as_deref().unwrap_or("none"),
        ));
        let l = &self.limits;
        out.push_str(&format!(
            "limits:\n  max_message_bytes: {}\n  per_sender_per_hour: {}\n  per_match_per_hour: {}\n  unknown_sender_notices_per_hour: {}\n",
            l.max_message_bytes,
            l.per_sender_per_hour,
            l.per_match_per_hour,
            l.unknown_sender_notices_per_hour,
        ));
        out.push_str(&format!("deadlines: {}\n", self.deadlines.describe()));
        out.push_str(&format!("poll_interval: {}\n", secs(self.poll_interval)));
        out.push_str(&format!(
            "templates_dir: {}\n",
            match &self.templates_dir {
                Some(d) => path(d),
                None => "none (the built-in templates)".into(),
            }
        ));
        out.push_str(&format!(
            "archive: {}\n",
            match &self.archive_dir {
                Some(d) => path(d),
                None => "none".into(),
            }
        ));
        out.push_str(&format!("leagues_dir: {}\n", path(&self.leagues_dir)));
        out
    }

    /// The embedded default, everything under `data_dir`: the Maildir
    /// `inbox/`, the outbox `outbox/`, the file transport `sent-mail/`, the
    /// matches `matches/<id>/`.
    pub fn embedded(data_dir: &Path) -> Config {
        ConfigFile {
            data_dir: Some(data_dir.to_owned()),
            ..ConfigFile::default()
        }
        .validate()
        .expect("the embedded default is valid")
    }

    /// Reads and checks a configuration file.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let name = path.display().to_string();
        let fail = |path: &str, reason: String| ConfigError {
            source_name: name.clone(),
            problems: vec![Problem {
                path: path.into(),
                reason,
            }],
        };
        let text = std::fs::read_to_string(path).map_err(|e| fail("(file)", e.to_string()))?;
        let file: ConfigFile = if text.trim().is_empty() {
            ConfigFile::default()
        } else {
            serde_saphyr::from_str(&text).map_err(|e| fail("(yaml)", e.to_string()))?
        };
        file.validate().map_err(|mut e| {
            e.source_name = name;
            e
        })
    }

    /// The address players send orders for `match_id` to.
    pub fn orders_address(&self) -> crate::mail::route::Address {
        crate::mail::route::Address::new(&self.orders_local_part, &self.domain)
    }
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

fn is_domain(d: &str) -> bool {
    !d.is_empty()
        && d.len() <= 253
        && d.split('.').all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                && !l.starts_with('-')
                && !l.ends_with('-')
        })
}

impl ConfigFile {
    /// Checks everything and resolves defaults; every problem is reported.
    pub fn validate(self) -> Result<Config, ConfigError> {
        let mut problems = Vec::new();
        let mut problem = |path: &str, reason: String| {
            problems.push(Problem {
                path: path.into(),
                reason,
            })
        };
        let data_dir = self
            .data_dir
            .clone()
            .unwrap_or_else(|| PathBuf::from(DEFAULT_DATA_DIR));
        if data_dir.as_os_str().is_empty() {
            problem("data_dir", "is empty".into());
        }
        let under = |p: &Path| {
            if p.is_absolute() {
                p.to_owned()
            } else {
                data_dir.join(p)
            }
        };
        let readable = |path: &str, file: &Path, problem: &mut dyn FnMut(&str, String)| {
            if let Err(e) = std::fs::read_to_string(file) {
                problem(path, format!("cannot read {}: {e}", file.display()));
            }
        };

        // mail
        let domain = self
            .mail
            .domain
            .clone()
            .unwrap_or_else(|| DEFAULT_DOMAIN.into())
            .trim()
            .to_ascii_lowercase();
        if !is_domain(&domain) {
            problem(
                "mail.domain",
                format!("{domain:?} is not a domain name (letters, digits, '-', dots)"),
            );
        }
        let local = self
            .mail
            .orders_local_part
            .clone()
            .unwrap_or_else(|| "orders".into());
        if local.is_empty() || local.contains('+') || !is_match_id(&local) {
            problem(
                "mail.orders_local_part",
                format!(
                    "{local:?} is not usable: letters, digits, '.', '_' and '-' only (no '+', which separates the match id)"
                ),
            );
        }
        let from_text = self
            .mail
            .from
            .clone()
            .unwrap_or_else(|| format!("Adjutant <{local}@{domain}>"));
        let from = match from_text.parse::<lettre::message::Mailbox>() {
            Ok(m) => Mailbox {
                address: m.email.to_string(),
                name: m.name,
            },
            // A default built from a bad domain is that domain's problem.
            Err(_) if self.mail.from.is_none() => Mailbox {
                address: String::new(),
                name: None,
            },
            Err(e) => {
                problem("mail.from", format!("{from_text:?} is not an address: {e}"));
                Mailbox {
                    address: String::new(),
                    name: None,
                }
            }
        };

        let help_url = self.mail.help_url.clone();
        if let Some(url) = &help_url {
            let web = url.starts_with("https://") || url.starts_with("http://");
            if !web || url.chars().any(|c| c.is_whitespace() || c.is_control()) {
                problem(
                    "mail.help_url",
                    format!(
                        "\"{url}\" is not a web address: write it as https://... without spaces"
                    ),
                );
            }
        }

        // inbound
        let inbound = match self.inbound {
            None => Inbound::Maildir(data_dir.join("inbox")),
            Some(InboundFile::Maildir(m)) => Inbound::Maildir(under(&m.path)),
            Some(InboundFile::Imap(i)) => {
                if i.host.trim().is_empty() {
                    problem("inbound.imap.host", "is empty".into());
                }
                if i.user.trim().is_empty() {
                    problem("inbound.imap.user", "is empty".into());
                }
                readable("inbound.imap.password_file", &i.password_file, &mut problem);
                if let Some(ca) = &i.ca_file {
                    readable("inbound.imap.ca_file", ca, &mut problem);
                }
                let security = match i.security.as_deref().unwrap_or("tls") {
                    "tls" => ImapSecurity::ImplicitTls,
                    "starttls" => ImapSecurity::StartTls,
                    "plain" => ImapSecurity::Plain,
                    other => {
                        problem(
                            "inbound.imap.security",
                            format!("{other:?} is not one of tls, starttls, plain"),
                        );
                        ImapSecurity::ImplicitTls
                    }
                };
                if security == ImapSecurity::Plain && !is_loopback(&i.host) {
                    problem(
                        "inbound.imap.security",
                        format!(
                            "plain is only allowed to a loopback address, not {:?}: a password must not cross a network in clear",
                            i.host
                        ),
                    );
                }
                let folder = i.folder.unwrap_or_else(|| "INBOX".into());
                let processed_folder = i.processed_folder.unwrap_or_else(|| "processed".into());
                for (path, name) in [
                    ("inbound.imap.folder", &folder),
                    ("inbound.imap.processed_folder", &processed_folder),
                ] {
                    if name.is_empty() || !name.is_ascii() || name.chars().any(|c| c.is_control()) {
                        problem(
                            path,
                            format!("{name:?} must be a non-empty ASCII folder name"),
                        );
                    }
                }
                if folder.eq_ignore_ascii_case(&processed_folder) {
                    problem(
                        "inbound.imap.processed_folder",
                        "must differ from the folder read".into(),
                    );
                }
                let timeout = match i.timeout.as_deref().map(parse_duration) {
                    None => Duration::from_secs(60),
                    Some(Ok(d)) if !d.is_zero() => d,
                    Some(Ok(_)) => {
                        problem("inbound.imap.timeout", "must be more than 0s".into());
                        Duration::from_secs(60)
                    }
                    Some(Err(e)) => {
                        problem("inbound.imap.timeout", e);
                        Duration::from_secs(60)
                    }
                };
                Inbound::Imap(ImapSource {
                    port: i.port.unwrap_or(match security {
                        ImapSecurity::ImplicitTls => 993,
                        _ => 143,
                    }),
                    host: i.host,
                    security,
                    user: i.user,
                    password_file: i.password_file,
                    folder,
                    processed_folder,
                    ca_file: i.ca_file,
                    timeout,
                })
            }
        };

        // transport
        let transport = match self.transport {
            None => Transport::File(data_dir.join("sent-mail")),
            Some(TransportFile::File(f)) => Transport::File(under(&f.dir)),
            Some(TransportFile::Sendmail(s)) => {
                let path = s
                    .path
                    .unwrap_or_else(|| PathBuf::from("/usr/sbin/sendmail"));
                if !path.is_absolute() {
                    problem(
                        "transport.sendmail.path",
                        format!("{} must be an absolute path", path.display()),
                    );
                }
                Transport::Sendmail(path)
            }
            Some(TransportFile::Smtp(s)) => {
                let security = match s.security.as_deref().unwrap_or("starttls") {
                    "starttls" => SmtpSecurity::StartTls,
                    "tls" => SmtpSecurity::ImplicitTls,
                    "plain" => SmtpSecurity::Plain,
                    other => {
                        problem(
                            "transport.smtp.security",
                            format!("{other:?} is not one of starttls, tls, plain"),
                        );
                        SmtpSecurity::StartTls
                    }
                };
                if s.host.trim().is_empty() {
                    problem("transport.smtp.host", "is empty".into());
                }
                if security == SmtpSecurity::Plain && !is_loopback(&s.host) {
                    problem(
                        "transport.smtp.security",
                        format!(
                            "plain is only allowed to a loopback address, not {:?}; use starttls or tls",
                            s.host
                        ),
                    );
                }
                let port = s.port.unwrap_or(match security {
                    SmtpSecurity::StartTls => 587,
                    SmtpSecurity::ImplicitTls => 465,
                    SmtpSecurity::Plain => 25,
                });
                if port == 0 {
                    problem("transport.smtp.port", "0 is not a port".into());
                }
                let login = match (s.user, s.password_file) {
                    (Some(u), Some(p)) => {
                        readable("transport.smtp.password_file", &p, &mut problem);
                        Some((u, p))
                    }
                    (None, None) => None,
                    (Some(_), None) => {
                        problem("transport.smtp.password_file", "is needed with user".into());
                        None
                    }
                    (None, Some(_)) => {
                        problem("transport.smtp.user", "is needed with password_file".into());
                        None
                    }
                };
                let timeout = match s.timeout.as_deref().map(parse_duration) {
                    None => Duration::from_secs(30),
                    Some(Ok(d)) if !d.is_zero() => d,
                    Some(Ok(_)) => {
                        problem("transport.smtp.timeout", "must be more than 0s".into());
                        Duration::from_secs(30)
                    }
                    Some(Err(e)) => {
                        problem("transport.smtp.timeout", e);
                        Duration::from_secs(30)
                    }
                };
                if let Some(ca) = &s.ca_file {
                    readable("transport.smtp.ca_file", ca, &mut problem);
                }
                Transport::Smtp {
                    host: s.host,
                    port,
                    security,
                    login,
                    timeout,
                    ca_file: s.ca_file,
                }
            }
        };

        // limits
        let positive =
            |path: &str, v: Option<u32>, default: u32, problem: &mut dyn FnMut(&str, String)| {
                let v = v.unwrap_or(default);
                if v == 0 {
                    problem(path, "must be at least 1".into());
                }
                v
            };
        let limits = Limits {
            max_message_bytes: match self.limits.max_message_bytes {
                Some(n) if n < 1024 => {
                    problem(
                        "limits.max_message_bytes",
                        format!("{n} is too small: a message's headers alone take more"),
                    );
                    n
                }
                Some(n) => n,
                None => 256 * 1024,
            },
            per_sender_per_hour: positive(
                "limits.per_sender_per_hour",
                self.limits.per_sender_per_hour,
                30,
                &mut problem,
            ),
            per_match_per_hour: positive(
                "limits.per_match_per_hour",
                self.limits.per_match_per_hour,
                300,
                &mut problem,
            ),
            unknown_sender_notices_per_hour: positive(
                "limits.unknown_sender_notices_per_hour",
                self.limits.unknown_sender_notices_per_hour,
                10,
                &mut problem,
            ),
        };

        // deadlines
        let mut duration = |path: &str, text: Option<&str>| -> Option<Duration> {
            match text.map(parse_duration)? {
                Ok(d) if d.is_zero() => {
                    problem(path, "must be more than 0s".into());
                    None
                }
                Ok(d) => Some(d),
                Err(e) => {
                    problem(path, e);
                    None
                }
            }
        };
        let stage = duration("deadlines.stage", self.deadlines.stage.as_deref());
        let reminder_before = duration(
            "deadlines.reminder_before",
            self.deadlines.reminder_before.as_deref(),
        )
        .unwrap_or(Duration::from_secs(86_400));
        let poll_interval = duration("poll_interval", self.poll_interval.as_deref())
            .unwrap_or(Duration::from_secs(5));
        if let Some(s) = stage
            && self.deadlines.reminder_before.is_some()
            && reminder_before >= s
        {
            problem(
                "deadlines.reminder_before",
                "must be shorter than deadlines.stage".into(),
            );
        }
        let archive_dir = self.archive.as_ref().map(|a| under(&a.dir));
        let leagues_dir = self
            .leagues_dir
            .as_deref()
            .map_or_else(|| data_dir.join("leagues"), under);
        // templates: every override must parse now, not at the first mail.
        let templates_dir = self.templates_dir.as_deref().map(under);
        if let Some(dir) = &templates_dir {
            if !dir.is_dir() {
                problem(
                    "templates_dir",
                    format!("{} is not a directory", dir.display()),
                );
            } else if let Err(e) = crate::report::templates::Templates::load(Some(dir)) {
                problem("templates_dir", e.to_string());
            }
        }
        let no_orders = match NoOrders::parse(self.deadlines.no_orders.as_deref().unwrap_or("wait"))
        {
            Ok(p) => p,
            Err(e) => {
                problem("deadlines.no_orders", e);
                NoOrders::Wait
            }
        };

        if !problems.is_empty() {
            return Err(ConfigError {
                source_name: "the configuration".into(),
                problems,
            });
        }
        Ok(Config {
            outbox_dir: data_dir.join("outbox"),
            matches_dir: data_dir.join("matches"),
            data_dir,
            inbound,
            transport,
            domain,
            orders_local_part: local,
            from,
            help_url,
            map_in_reports: self.mail.map_in_reports.unwrap_or(true),
            limits,
            deadlines: Deadlines {
                stage,
                reminder_before,
                no_orders,
            },
            poll_interval,
            templates_dir,
            archive_dir,
            leagues_dir,
        })
    }
}

/// The configuration file's word for an IMAP security mode.
fn imap_security_word(s: ImapSecurity) -> &'static str {
    match s {
        ImapSecurity::ImplicitTls => "tls",
        ImapSecurity::StartTls => "starttls",
        ImapSecurity::Plain => "plain",
    }
}

/// The configuration file's word for an SMTP security mode.
fn smtp_security_word(s: SmtpSecurity) -> &'static str {
    match s {
        SmtpSecurity::ImplicitTls => "tls",
        SmtpSecurity::StartTls => "starttls",
        SmtpSecurity::Plain => "plain",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_default_keeps_everything_under_one_directory() {
        let c = Config::embedded(Path::new("d"));
        assert_eq!(c.inbound, Inbound::Maildir(PathBuf::from("d/inbox")));
        assert_eq!(c.transport, Transport::File(PathBuf::from("d/sent-mail")));
        assert_eq!(c.outbox_dir, PathBuf::from("d/outbox"));
        assert_eq!(c.matches_dir, PathBuf::from("d/matches"));
        assert_eq!(c.from.address, "orders@adjutant.localhost");
        assert_eq!(c.deadlines.no_orders, NoOrders::Wait);
    }

    #[test]
    fn every_problem_is_reported_with_its_path() {
        let yaml = "mail: {domain: 'bad domain', orders_local_part: 'a+b'}\n\
                    transport: {smtp: {host: mail.example.org, security: plain, user: u}}\n\
                    limits: {per_sender_per_hour: 0}\n\
                    deadlines: {stage: 3 weeks, no_orders: skip}\n";
        let file: ConfigFile = serde_saphyr::from_str(yaml).unwrap();
        let err = file.validate().unwrap_err();
        let paths: Vec<&str> = err.problems.iter().map(|p| p.path.as_str()).collect();
        for want in [
            "mail.domain",
            "mail.orders_local_part",
            "transport.smtp.security",
            "transport.smtp.password_file",
            "limits.per_sender_per_hour",
            "deadlines.stage",
            "deadlines.no_orders",
        ] {
            assert!(paths.contains(&want), "{want} missing from {paths:?}");
        }
    }

    #[test]
    fn unknown_keys_are_refused() {
        let r: Result<ConfigFile, _> = serde_saphyr::from_str("mail: {domian: x.org}\n");
        assert!(r.is_err());
        let r: Result<ConfigFile, _> =
            serde_saphyr::from_str("inbound: {maildir: {path: x, extra: 1}}\n");
        assert!(r.is_err());
    }

    #[test]
    fn a_broken_template_override_is_a_problem_with_its_name_and_line() {
        let dir = std::env::temp_dir().join(format!("adjutant-cfg-tpl-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("report.txt"), "ok\n{% for %}\n").unwrap();
        let yaml = format!("templates_dir: {}\n", dir.display());
        let file: ConfigFile = serde_saphyr::from_str(&yaml).unwrap();
        let err = file.validate().unwrap_err();
        assert_eq!(err.problems[0].path, "templates_dir");
        assert!(
            err.problems[0].reason.contains("report.txt, line 2"),
            "{}",
            err.problems[0].reason
        );
        std::fs::write(dir.join("report.txt"), "ok\n").unwrap();
        let file: ConfigFile = serde_saphyr::from_str(&yaml).unwrap();
        assert_eq!(file.validate().unwrap().templates_dir, Some(dir.clone()));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn durations() {
        assert_eq!(parse_duration("72h"), Ok(Duration::from_secs(72 * 3600)));
        assert_eq!(parse_duration("3d"), Ok(Duration::from_secs(3 * 86_400)));
        assert!(parse_duration("3").is_err());
        assert!(parse_duration("3w").is_err());
    }
}
