//! Players of a match by mail: who plays which power at which address, and
//! the per-match secret that authenticates their orders.
//!
//! Each player gets a random secret (from the OS CSPRNG through `getrandom`)
//! written as five pronounceable groups, e.g. `bokat-firum-zadol-mipes-hunav`
//! (80 bits). The secret is shown once, in the welcome mail (or the reply to
//! a `rotate` command); the match directory keeps only
//! `SHA-256("adjutant/v1/player-secret" || salt || power || secret)` with a
//! per-match random salt, in `player-secrets.json` (mode 0600). The log never
//! sees a secret or its hash.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::dice::Digest32;
use crate::rules::GameDef;

use super::{MatchDeadlines, Observer, PlayersFile};

/// The file in a match directory that holds the secrets' hashes.
pub const SECRETS_FILE: &str = "player-secrets.json";

/// Consonants and vowels of a secret's groups: 16 and 4, so that a group
/// `CVCVC` carries exactly 16 bits and reads aloud without ambiguity.
const CONSONANTS: &[u8; 16] = b"bdfghjklmnprstvz";
const VOWELS: &[u8; 4] = b"aiou";
const GROUPS: usize = 5;

/// Why player data could not be read, written or generated.
#[derive(Debug, thiserror::Error)]
pub enum PlayersError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file does not parse or names an unknown power.
    #[error("{}: {reason}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The operating system gave no randomness.
    #[error("no randomness from the operating system: {0}")]
    Random(getrandom::Error),
}

/// A player of a match, resolved against the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seat {
    /// The power, in the game's spelling.
    pub power: String,
    /// The player's display name.
    pub name: String,
    /// The address of record.
    pub email: String,
    /// The player's time zone (IANA name), if set.
    pub time_zone: Option<String>,
}

/// Who plays which power in a match (`players.yaml`).
#[derive(Debug, Clone)]
pub struct Roster {
    seats: Vec<Seat>,
    deadlines: Option<MatchDeadlines>,
    observers: Vec<Observer>,
    organisers: Vec<Observer>,
}

impl Roster {
    /// Reads `players.yaml` of the match in `dir`, resolving power names
    /// against `game`.
    pub fn load(dir: &Path, game: &GameDef) -> Result<Roster, PlayersError> {
        let path = dir.join("players.yaml");
        let text = fs::read_to_string(&path).map_err(|source| PlayersError::Io {
            path: path.clone(),
            source,
        })?;
        let file: PlayersFile =
            serde_saphyr::from_str(&text).map_err(|e| PlayersError::Invalid {
                path: path.clone(),
                reason: e.to_string(),
            })?;
        let mut seats = Vec::new();
        for (power, player) in file.players.iter() {
            let Some(p) = game.power(power) else {
                return Err(PlayersError::Invalid {
                    path,
                    reason: format!("{power:?} is not a power of {}", game.id()),
                });
            };
            seats.push(Seat {
                power: game.powers()[p].name.clone(),
                name: player.name.clone(),
                email: player.email.trim().to_owned(),
                time_zone: player.time_zone.clone(),
            });
        }
        Ok(Roster {
            seats,
            deadlines: file.deadlines,
            observers: file.observers,
            organisers: file.organisers,
        })
    }

    /// The match's own deadline settings, if its players file has any.
    pub fn deadlines(&self) -> Option<&MatchDeadlines> {
        self.deadlines.as_ref()
    }

    /// The match's observers.
    pub fn observers(&self) -> &[Observer] {
        &self.observers
    }

    /// The match's organisers.
    pub fn organisers(&self) -> &[Observer] {
        &self.organisers
    }

    /// The organiser called `name` (case does not matter).
    pub fn organiser(&self, name: &str) -> Option<&Observer> {
        self.organisers
            .iter()
            .find(|o| o.name.trim().eq_ignore_ascii_case(name.trim()))
    }

    /// Who gets the organisers' notices: every player, observer and
    /// organiser, each address once, with its time zone.
    pub fn notice_recipients(&self) -> Vec<(&str, Option<&str>)> {
        let mut out = self.report_recipients();
        for o in &self.organisers {
            if !out
                .iter()
                .any(|(a, _)| address_key(a) == address_key(&o.email))
            {
                out.push((o.email.as_str(), o.time_zone.as_deref()));
            }
        }
        out
    }

    /// Every seat, in the players file's order.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// The seat of `power` (the game's spelling).
    pub fn seat(&self, power: &str) -> Option<&Seat> {
        self.seats.iter().find(|s| s.power == power)
    }

    /// The powers played from `address` (one person may play several).
    pub fn powers_of(&self, address: &str) -> Vec<&Seat> {
        let key = address_key(address);
        self.seats
            .iter()
            .filter(|s| address_key(&s.email) == key)
            .collect()
    }

    /// Who gets the turn reports: every distinct player address, then the
    /// observers not already among them; each with its time zone.
    pub fn report_recipients(&self) -> Vec<(&str, Option<&str>)> {
        let mut out: Vec<(&str, Option<&str>)> = Vec::new();
        let seats = self.seats.iter().map(|s| (&s.email, &s.time_zone));
        let observers = self.observers.iter().map(|o| (&o.email, &o.time_zone));
        for (email, tz) in seats.chain(observers) {
            if !out
                .iter()
                .any(|(a, _)| address_key(a) == address_key(email))
            {
                out.push((email.as_str(), tz.as_deref()));
            }
        }
        out
    }

    /// The distinct addresses of record, in order.
    pub fn addresses(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for s in &self.seats {
            if !out.iter().any(|a| address_key(a) == address_key(&s.email)) {
                out.push(&s.email);
            }
        }
        out
    }
}

/// An address compared the way mail systems do in practice: trimmed and
/// without regard to case.
pub fn address_key(address: &str) -> String {
    address.trim().to_ascii_lowercase()
}

/// SHA-256 of an address as the log records it (`received.from_hash`).
pub fn address_hash(address: &str) -> Digest32 {
    let mut m = b"adjutant/v1/address\0".to_vec();
    m.extend_from_slice(address_key(address).as_bytes());
    Digest32::sha256(&m)
}

/// An organiser's name as their secret is filed: trimmed, lowercased.
fn organiser_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// A fresh secret: five `CVCVC` groups joined by `-` (80 bits).
pub fn generate_secret() -> Result<String, PlayersError> {
    let mut bytes = [0u8; 2 * GROUPS];
    getrandom::fill(&mut bytes).map_err(PlayersError::Random)?;
    let groups: Vec<String> = bytes
        .chunks(2)
        .map(|c| {
            let v = u16::from_be_bytes([c[0], c[1]]);
            let parts = [
                CONSONANTS[(v >> 12) as usize & 15],
                VOWELS[(v >> 10) as usize & 3],
                CONSONANTS[(v >> 6) as usize & 15],
                VOWELS[(v >> 4) as usize & 3],
                CONSONANTS[v as usize & 15],
            ];
            String::from_utf8(parts.to_vec()).expect("ASCII")
        })
        .collect();
    Ok(groups.join("-"))
}

/// A secret as typed, reduced to its letters: case, spaces, dashes and
/// underscores do not matter.
fn normalise(secret: &str) -> String {
    secret
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct SecretsFile {
    salt: Digest32,
    players: BTreeMap<String, Digest32>,
    /// Organisers' secrets by name (absent in files written before there
    /// were organisers).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    organisers: BTreeMap<String, Digest32>,
}

/// The hashes of a match's player secrets.
#[derive(Debug, Clone)]
pub struct PlayerSecrets {
    path: PathBuf,
    salt: Digest32,
    hashes: BTreeMap<String, Digest32>,
    organisers: BTreeMap<String, Digest32>,
}

impl PlayerSecrets {
    /// Reads the match's secrets file, or starts an empty one (with a fresh
    /// salt) if there is none yet. Nothing is written until [`Self::save`].
    pub fn load(dir: &Path) -> Result<PlayerSecrets, PlayersError> {
        let path = dir.join(SECRETS_FILE);
        match fs::read(&path) {
            Ok(bytes) => {
                let f: SecretsFile =
                    serde_json::from_slice(&bytes).map_err(|e| PlayersError::Invalid {
                        path: path.clone(),
                        reason: e.to_string(),
                    })?;
                Ok(PlayerSecrets {
                    path,
                    salt: f.salt,
                    hashes: f.players,
                    organisers: f.organisers,
                })
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                let mut salt = [0u8; 32];
                getrandom::fill(&mut salt).map_err(PlayersError::Random)?;
                Ok(PlayerSecrets {
                    path,
                    salt: Digest32(salt),
                    hashes: BTreeMap::new(),
                    organisers: BTreeMap::new(),
                })
            }
            Err(source) => Err(PlayersError::Io { path, source }),
        }
    }

    fn hash(&self, power: &str, secret: &str) -> Digest32 {
        let mut m = b"adjutant/v1/player-secret\0".to_vec();
        m.extend_from_slice(&self.salt.0);
        m.extend_from_slice(power.as_bytes());
        m.push(0);
        m.extend_from_slice(normalise(secret).as_bytes());
        Digest32::sha256(&m)
    }

    /// Gives `power` a new secret (replacing any old one) and returns it in
    /// clear, the only time it exists outside the player's mail. Call
    /// [`Self::save`] before sending it.
    pub fn issue(&mut self, power: &str) -> Result<String, PlayersError> {
        let secret = generate_secret()?;
        let h = self.hash(power, &secret);
        self.hashes.insert(power.to_owned(), h);
        Ok(secret)
    }

    /// Revokes the secret of `power`: no secret works for it until a new
    /// one is issued. Call [`Self::save`].
    pub fn revoke(&mut self, power: &str) {
        self.hashes.remove(power);
    }

    fn organiser_hash(&self, name: &str, secret: &str) -> Digest32 {
        let mut m = b"adjutant/v1/organiser-secret\0".to_vec();
        m.extend_from_slice(&self.salt.0);
        m.extend_from_slice(organiser_key(name).as_bytes());
        m.push(0);
        m.extend_from_slice(normalise(secret).as_bytes());
        Digest32::sha256(&m)
    }

    /// Gives the organiser `name` a new secret, returned in clear (the only
    /// time it exists outside their mail). Call [`Self::save`].
    pub fn issue_organiser(&mut self, name: &str) -> Result<String, PlayersError> {
        let secret = generate_secret()?;
        let h = self.organiser_hash(name, &secret);
        self.organisers.insert(organiser_key(name), h);
        Ok(secret)
    }

    /// Is `secret` the secret of the organiser `name`? (Constant time.)
    pub fn verify_organiser(&self, name: &str, secret: &str) -> bool {
        let Some(stored) = self.organisers.get(&organiser_key(name)) else {
            return false;
        };
        let h = self.organiser_hash(name, secret);
        stored
            .0
            .iter()
            .zip(h.0.iter())
            .fold(0u8, |a, (x, y)| a | (x ^ y))
            == 0
    }

    /// Does `power` have a secret?
    pub fn has(&self, power: &str) -> bool {
        self.hashes.contains_key(power)
    }

    /// Is `secret` the secret of `power`? (Compared in constant time.)
    pub fn verify(&self, power: &str, secret: &str) -> bool {
        let Some(stored) = self.hashes.get(power) else {
            return false;
        };
        let h = self.hash(power, secret);
        stored
            .0
            .iter()
            .zip(h.0.iter())
            .fold(0u8, |a, (x, y)| a | (x ^ y))
            == 0
    }

    /// The powers whose secret `secret` is.
    pub fn powers_with(&self, secret: &str) -> Vec<String> {
        self.hashes
            .keys()
            .filter(|p| self.verify(p, secret))
            .cloned()
            .collect()
    }

    /// Writes the file atomically (temporary file, fsync, rename, fsync of
    /// the directory), readable by its owner only.
    pub fn save(&self) -> Result<(), PlayersError> {
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| PlayersError::Io { path, source }
        };
        let file = SecretsFile {
            salt: self.salt,
            players: self.hashes.clone(),
            organisers: self.organisers.clone(),
        };
        let bytes = serde_json::to_vec_pretty(&file).expect("secrets serialize");
        let tmp = self.path.with_extension("json.tmp");
        let _ = fs::remove_file(&tmp);
        let mut opts = OpenOptions::new();
        opts.write(true).create_new(true);
        #[cfg(unix)]
        {
            use std::os::unix::fs::OpenOptionsExt;
            opts.mode(0o600);
        }
        let mut f = opts.open(&tmp).map_err(io(&tmp))?;
        f.write_all(&bytes)
            .and_then(|()| f.sync_all())
            .map_err(io(&tmp))?;
        fs::rename(&tmp, &self.path).map_err(io(&self.path))?;
        let dir = self.path.parent().unwrap_or(Path::new("."));
        File::open(dir).and_then(|d| d.sync_all()).map_err(io(dir))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_word_groups_and_verify_only_for_their_power() {
        let dir = std::env::temp_dir().join(format!("adjutant-secrets-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let mut s = PlayerSecrets::load(&dir).unwrap();
        let g = s.issue("Germany").unwrap();
        let r = s.issue("Soviet Union").unwrap();
        assert_eq!(g.len(), 5 * 5 + 4, "{g}");
        assert!(g.split('-').all(|p| p.len() == 5), "{g}");
        assert_ne!(g, r);
        s.save().unwrap();
        let s = PlayerSecrets::load(&dir).unwrap();
        assert!(s.verify("Germany", &g));
        assert!(s.verify("Germany", &g.to_uppercase().replace('-', " ")));
        assert!(!s.verify("Soviet Union", &g));
        assert!(!s.verify("Germany", "bokat-firum-zadol-mipes-hunav"));
        assert_eq!(s.powers_with(&r), vec!["Soviet Union".to_string()]);
        let text = fs::read_to_string(dir.join(SECRETS_FILE)).unwrap();
        assert!(!text.contains(&g) && !text.contains(&normalise(&g)));
        // Organisers' secrets are their own: a player's secret is no
        // organiser's, and revoking a power's secret leaves no way in.
        let mut s = PlayerSecrets::load(&dir).unwrap();
        let o = s.issue_organiser("Olga").unwrap();
        assert!(s.verify_organiser("olga ", &o));
        assert!(!s.verify_organiser("Olga", &g));
        assert!(s.powers_with(&o).is_empty());
        s.revoke("Germany");
        s.save().unwrap();
        let s = PlayerSecrets::load(&dir).unwrap();
        assert!(!s.verify("Germany", &g));
        assert!(s.verify_organiser("Olga", &o));
        let _ = fs::remove_dir_all(&dir);
    }
}
