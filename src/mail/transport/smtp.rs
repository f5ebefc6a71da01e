//! The SMTP transport, over lettre's blocking client.

use std::net::IpAddr;
use std::time::Duration;

use lettre::Transport as _;
use lettre::address::{Address, Envelope as LettreEnvelope};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;

use super::{Envelope, SendError, Transport, check_envelope};

/// How the connection to the SMTP server is protected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// Plain connection upgraded with `STARTTLS`, which the server must offer
    /// (usually port 587). A server that does not offer it is an error, never
    /// a silent downgrade.
    StartTls,
    /// TLS from the first byte (usually port 465).
    ImplicitTls,
    /// No encryption. Only allowed to a loopback address (a local relay, or
    /// a test server), so a password can never cross a network in clear.
    Plain,
}

/// Everything needed to reach one SMTP server.
#[derive(Debug, Clone)]
pub struct SmtpConfig {
    /// Server host name (also the name its certificate must carry) or IP.
    pub host: String,
    /// Server port.
    pub port: u16,
    /// Transport security.
    pub security: SmtpSecurity,
    /// User name and password for `AUTH`, if the server needs them.
    pub credentials: Option<(String, String)>,
    /// Timeout for connecting and for each SMTP command.
    pub timeout: Duration,
    /// The name sent in `EHLO` (our mail domain); `localhost` when `None`.
    pub hello_name: Option<String>,
    /// An extra trusted root certificate (PEM) besides the system's, for a
    /// server with a private CA or a self-signed certificate.
    pub extra_root_pem: Option<Vec<u8>>,
}

/// Sends over SMTP. One connection per message: the daemon sends in small
/// bursts, and a fresh connection cannot be a stale one.
pub struct SmtpTransport {
    inner: lettre::SmtpTransport,
}

impl std::fmt::Debug for SmtpTransport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpTransport").finish_non_exhaustive()
    }
}

/// Why an [`SmtpConfig`] cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum SmtpConfigError {
    /// Plain SMTP to a host that is not a loopback address.
    #[error(
        "plain (unencrypted) SMTP is only allowed to a loopback address, not {0:?}; use starttls or tls"
    )]
    PlainNotLoopback(String),
    /// The extra root certificate does not parse.
    #[error("the extra root certificate is not a valid PEM certificate: {0}")]
    BadCertificate(String),
    /// The TLS settings were refused by the TLS library.
    #[error("TLS settings for {host}: {reason}")]
    Tls {
        /// The server.
        host: String,
        /// The library's reason.
        reason: String,
    },
    /// The EHLO name is not a usable domain.
    #[error("the EHLO name {0:?} is not a domain name")]
    BadHelloName(String),
}

fn is_loopback(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

impl SmtpTransport {
    /// Checks `config` and builds the transport; no connection is made yet.
    pub fn new(config: &SmtpConfig) -> Result<Self, SmtpConfigError> {
        let mut builder = lettre::SmtpTransport::builder_dangerous(config.host.clone())
            .port(config.port)
            .timeout(Some(config.timeout));
        let tls_parameters = || -> Result<TlsParameters, SmtpConfigError> {
            let mut params = TlsParameters::builder(config.host.clone());
            if let Some(pem) = &config.extra_root_pem {
                let cert = Certificate::from_pem(pem)
                    .map_err(|e| SmtpConfigError::BadCertificate(e.to_string()))?;
                params = params.add_root_certificate(cert);
            }
            params.build_rustls().map_err(|e| SmtpConfigError::Tls {
                host: config.host.clone(),
                reason: e.to_string(),
            })
        };
        builder = match config.security {
            SmtpSecurity::StartTls => builder.tls(Tls::Required(tls_parameters()?)),
            SmtpSecurity::ImplicitTls => builder.tls(Tls::Wrapper(tls_parameters()?)),
            SmtpSecurity::Plain => {
                if !is_loopback(&config.host) {
                    return Err(SmtpConfigError::PlainNotLoopback(config.host.clone()));
                }
                builder.tls(Tls::None)
            }
        };
        if let Some(name) = &config.hello_name {
            if name.is_empty() || name.chars().any(|c| c.is_whitespace() || c.is_control()) {
                return Err(SmtpConfigError::BadHelloName(name.clone()));
            }
            builder = builder.hello_name(ClientId::Domain(name.clone()));
        }
        if let Some((user, password)) = &config.credentials {
            builder = builder.credentials(Credentials::new(user.clone(), password.clone()));
        }
        Ok(SmtpTransport {
            inner: builder.build(),
        })
    }
}

fn address(text: &str, role: &str) -> Result<Address, SendError> {
    text.parse::<Address>()
        .map_err(|e| SendError::permanent(format!("invalid {role} address {text:?}: {e}")))
}

impl Transport for SmtpTransport {
    fn send(&self, envelope: &Envelope, message: &[u8]) -> Result<(), SendError> {
        check_envelope(envelope)?;
        let from = if envelope.from.is_empty() {
            None
        } else {
            Some(address(&envelope.from, "envelope sender")?)
        };
        let to = envelope
            .to
            .iter()
            .map(|a| address(a, "envelope recipient"))
            .collect::<Result<Vec<_>, _>>()?;
        let envelope = LettreEnvelope::new(from, to)
            .map_err(|e| SendError::permanent(format!("invalid envelope: {e}")))?;
        // lettre ends DATA with "\r\n.\r\n" whatever the message ends
        // with; per RFC 5321 the first CRLF of that is the message's last
        // line end, so one trailing line end is dropped here to deliver the
        // bytes unchanged rather than with an extra empty line.
        let message = message
            .strip_suffix(b"\r\n")
            .or_else(|| message.strip_suffix(b"\n"))
            .unwrap_or(message);
        self.inner
            .send_raw(&envelope, message)
            .map(|_| ())
            .map_err(|e| {
                // Only a 5xx reply is permanent; connection, TLS and timeout
                // failures may well be gone on the next attempt.
                let message = match e.status() {
                    Some(code) => format!("SMTP {code}: {e}"),
                    None => format!("SMTP: {e}"),
                };
                SendError {
                    permanent: e.is_permanent(),
                    message,
                }
            })
    }
}
