//! Fetching a beacon round from a relay, for a match that mixes a public
//! randomness beacon into its turn keys (`docs/dice.md` §3, "Beacon").
//!
//! The match waits until the round is due, asks each relay in turn for
//! `<relay>/<chain hash>/public/<round>`, checks the round's signature
//! against the network's key, and retries with growing pauses while no
//! relay has it. A round that cannot be had leaves the stage-1 orders logged
//! and waiting: the next attempt (the daemon's next pass, or opening the
//! match) fetches it again, so nothing is lost and no other round is used.

use std::time::{Duration, Instant};

use serde::Deserialize;

use crate::dice::{BeaconNetwork, BeaconRound};

/// `beacon:` of a players file: which network, and where to fetch rounds.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct BeaconSetting {
    /// `quicknet`, or the full parameters of another network.
    pub network: NetworkChoice,
    /// Relay base addresses (`https://api.drand.sh`); the public quicknet
    /// relays when empty.
    #[serde(default)]
    pub relays: Vec<String>,
    /// How long one attempt waits for a round once it is due, in seconds
    /// (default 30).
    #[serde(default)]
    pub wait: Option<u64>,
}

/// A named network or its parameters.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum NetworkChoice {
    /// A network by name: `quicknet`.
    Named(String),
    /// Any other network of the supported scheme.
    Custom(BeaconNetwork),
}

/// Public relays of quicknet, used when a match names none.
pub const QUICKNET_RELAYS: [&str; 2] = ["https://api.drand.sh", "https://drand.cloudflare.com"];

impl BeaconSetting {
    /// The network's parameters, checked.
    pub fn network(&self) -> Result<BeaconNetwork, String> {
        let net = match &self.network {
            NetworkChoice::Named(n) if n == "quicknet" => BeaconNetwork::quicknet(),
            NetworkChoice::Named(n) => {
                return Err(format!(
                    "beacon network {n:?} is not known; name quicknet, or give the network's name, chain_hash, public_key, genesis_time, period and scheme"
                ));
            }
            NetworkChoice::Custom(net) => net.clone(),
        };
        net.check()?;
        for r in &self.relays {
            if !(r.starts_with("http://") || r.starts_with("https://")) {
                return Err(format!(
                    "beacon relay {r:?} is not an http:// or https:// address"
                ));
            }
        }
        Ok(net)
    }

    /// The relays to ask, in order.
    pub fn relays(&self) -> Vec<String> {
        if self.relays.is_empty() {
            QUICKNET_RELAYS.iter().map(|s| (*s).to_owned()).collect()
        } else {
            self.relays.clone()
        }
    }

    fn wait(&self) -> Duration {
        Duration::from_secs(self.wait.unwrap_or(30))
    }
}

/// The relay's answer (`/public/<round>`); other fields are ignored.
#[derive(Deserialize)]
struct RelayRound {
    round: u64,
    signature: String,
}

/// Waits until `round` is due and fetches it from the relays, retrying with
/// growing pauses (0.25 s doubling to 4 s) until the setting's wait runs
/// out after the round is due. Every answer is checked against the
/// network's key; an answer that does not verify counts as no answer.
pub fn fetch_round(
    setting: &BeaconSetting,
    net: &BeaconNetwork,
    round: u64,
) -> Result<BeaconRound, String> {
    let due_ms = i64::try_from(net.due(round))
        .unwrap_or(i64::MAX)
        .saturating_mul(1000);
    let now_ms = chrono::Utc::now().timestamp_millis();
    if due_ms > now_ms {
        std::thread::sleep(Duration::from_millis((due_ms - now_ms) as u64));
    }
    let deadline = Instant::now() + setting.wait();
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(10)))
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut pause = Duration::from_millis(250);
    let mut last = String::from("no relay was asked");
    loop {
        for relay in setting.relays() {
            let url = format!(
                "{}/{}/public/{round}",
                relay.trim_end_matches('/'),
                net.chain_hash
            );
            match ask(&agent, &url, round).and_then(|b| net.verify(&b).map(|()| b)) {
                Ok(b) => return Ok(b),
                Err(e) => last = format!("{url}: {e}"),
            }
        }
        if Instant::now() + pause > deadline {
            return Err(format!(
                "beacon round {round} of {} could not be had within {} s of being due (last answer: {last}); the orders stay logged and the round is fetched again on the next attempt",
                net.name,
                setting.wait().as_secs()
            ));
        }
        tracing::warn!(round, error = %last, "beacon round not had yet; retrying");
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_secs(4));
    }
}

fn ask(agent: &ureq::Agent, url: &str, round: u64) -> Result<BeaconRound, String> {
    let mut resp = agent.get(url).call().map_err(|e| e.to_string())?;
    if !resp.status().is_success() {
        return Err(format!("HTTP status {}", resp.status()));
    }
    let body = resp
        .body_mut()
        .with_config()
        .limit(64 * 1024)
        .read_to_string()
        .map_err(|e| e.to_string())?;
    let r: RelayRound =
        serde_json::from_str(&body).map_err(|e| format!("not a beacon round: {e}"))?;
    if r.round != round {
        return Err(format!("the relay answered round {} for {round}", r.round));
    }
    Ok(BeaconRound {
        round: r.round,
        signature: r.signature,
    })
}
