//! Shared by the daemon tests: a data directory, the real binary, mail
//! written the way a player's mail program writes it, and the sent mail read
//! back from the file transport.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const TURN_ORDER: [(&str, &str); 4] = [
    ("Germany", "Germany"),
    ("Soviet Union", "Moscow"),
    ("United Kingdom", "United Kingdom"),
    ("United States", "United States"),
];

pub struct Env {
    pub root: PathBuf,
    pub data: PathBuf,
    pub config: Option<PathBuf>,
}

pub fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Env {
    /// A fresh directory; with `config`, a configuration file whose
    /// `data_dir` is `ROOT/data` and the YAML given appended; without, the
    /// embedded default (`ROOT/adjutant-data`, the binary run in ROOT).
    pub fn new(name: &str, config: Option<&str>) -> Env {
        let root = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("daemon-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        match config {
            Some(extra) => {
                let data = root.join("data");
                let cfg = root.join("adjutant.yaml");
                std::fs::write(&cfg, format!("data_dir: {}\n{extra}", data.display())).unwrap();
                Env {
                    root,
                    data,
                    config: Some(cfg),
                }
            }
            None => Env {
                data: root.join("adjutant-data"),
                root,
                config: None,
            },
        }
    }

    pub fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_adjutant"));
        c.current_dir(&self.root).args(args);
        c
    }

    pub fn adjutant(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// `adjutant run --once [--config FILE]`, which must succeed.
    pub fn run_once(&self) -> Output {
        let mut args = vec!["run", "--once"];
        if let Some(c) = &self.config {
            args.push("--config");
            args.push(c.to_str().unwrap());
        }
        let out = self.adjutant(&args);
        assert!(
            out.status.success(),
            "run --once failed: {}",
            text(&out.stderr)
        );
        out
    }

    /// Mail `n` from `from` to match `id`'s orders address, with
    /// Message-ID `message_id` (no angle brackets), handled by one
    /// [`Env::run_once`]; the daemon's reply to it.
    pub fn send(
        &self,
        n: u64,
        from: &str,
        id: &str,
        message_id: &str,
        subject: &str,
        body: &str,
    ) -> Sent {
        self.drop_mail(n, &mail(from, &orders_to(id), message_id, subject, body));
        self.run_once();
        self.reply_to(message_id)
    }

    /// The daemon's reply to the message `message_id` (no angle
    /// brackets); fails the test, listing what was sent, if there is none.
    pub fn reply_to(&self, message_id: &str) -> Sent {
        let want = format!("<{message_id}>");
        let sent = self.sent();
        match sent
            .iter()
            .position(|s| s.in_reply_to.as_deref() == Some(want.as_str()))
        {
            Some(i) => sent[i].clone(),
            None => panic!("no reply to {want}: {sent:#?}"),
        }
    }

    /// Creates AAE match `id` with four players at [`player_address`].
    pub fn new_match(&self, id: &str) -> PathBuf {
        let powers = TURN_ORDER.map(|(p, _)| p);
        self.new_match_of(id, "aae", &powers)
    }

    /// Creates match `id` of `game` with a player at [`player_address`]
    /// for each of `powers`.
    pub fn new_match_of(&self, id: &str, game: &str, powers: &[&str]) -> PathBuf {
        let mut yaml = format!("match: {id}\nplayers:\n");
        for p in powers {
            yaml.push_str(&format!(
                "  {p}: {{name: {p} player, email: {}}}\n",
                player_address(id, p)
            ));
        }
        let out = self.try_new_match_of(id, game, &yaml);
        assert!(out.status.success(), "{}", text(&out.stderr));
        self.data.join("matches").join(id)
    }

    /// `adjutant new` of AAE match `id` from a players file's text.
    pub fn try_new_match(&self, id: &str, yaml: &str) -> Output {
        self.try_new_match_of(id, "aae", yaml)
    }

    /// `adjutant new` of match `id` of `game` from a players file's text.
    pub fn try_new_match_of(&self, id: &str, game: &str, yaml: &str) -> Output {
        let players = self.root.join(format!("{id}-players.yaml"));
        std::fs::write(&players, yaml).unwrap();
        let dir = self.data.join("matches").join(id);
        std::fs::create_dir_all(dir.parent().unwrap()).unwrap();
        let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        self.adjutant(&[
            "new",
            "--game",
            game,
            "--players",
            players.to_str().unwrap(),
            "--dir",
            dir.to_str().unwrap(),
            "--games",
            games.to_str().unwrap(),
        ])
    }

    /// Drops a message into the inbox under a name that sorts by `n`.
    pub fn drop_mail(&self, n: u64, bytes: &[u8]) {
        let new = self.data.join("inbox").join("new");
        std::fs::create_dir_all(&new).unwrap();
        let name = format!("{}.M000000P1Q{n}.test", 1_700_000_000 + n);
        let tmp = self.data.join("inbox").join("tmp");
        std::fs::create_dir_all(&tmp).unwrap();
        std::fs::write(tmp.join(&name), bytes).unwrap();
        std::fs::rename(tmp.join(&name), new.join(&name)).unwrap();
    }

    pub fn pending(&self) -> usize {
        ["new", "cur"]
            .iter()
            .map(|d| {
                std::fs::read_dir(self.data.join("inbox").join(d))
                    .map(|r| r.count())
                    .unwrap_or(0)
            })
            .sum()
    }

    /// Every `.eml` in sent-mail.
    pub fn sent(&self) -> Vec<Sent> {
        let dir = self.data.join("sent-mail");
        let Ok(rd) = std::fs::read_dir(&dir) else {
            return Vec::new();
        };
        let mut out: Vec<Sent> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "eml"))
            .map(|p| Sent::read(&p))
            .collect();
        out.sort_by(|a, b| a.file.cmp(&b.file));
        out
    }

    /// The secret of `power` in `id`, from its welcome mail.
    pub fn secret(&self, id: &str, power: &str) -> String {
        let want = format!("[{id}] Welcome: you play {power}");
        let w = self
            .sent()
            .into_iter()
            .find(|s| s.subject == want)
            .unwrap_or_else(|| panic!("no welcome mail {want:?}"));
        w.body
            .lines()
            .find_map(|l| l.trim().strip_prefix("secret: "))
            .expect("a secret line")
            .trim()
            .to_owned()
    }

    pub fn log(&self, id: &str) -> PathBuf {
        self.data.join("matches").join(id).join("log.jsonl")
    }

    /// `adjutant verify LOG` and the Python verifier both accept the log;
    /// what `verify` printed.
    pub fn verify(&self, id: &str) -> String {
        let log = self.log(id);
        let out = self.adjutant(&["verify", log.to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        let said = text(&out.stdout);
        let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/verify_dice.py");
        let out = Command::new("python3")
            .arg(script)
            .arg(&log)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
        said
    }

    /// The log's entries as JSON values.
    pub fn entries(&self, id: &str) -> Vec<serde_json::Value> {
        std::fs::read_to_string(self.log(id))
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    }
}

pub fn player_address(id: &str, power: &str) -> String {
    format!(
        "{}.{id}@players.test",
        power.to_lowercase().replace(' ', "-")
    )
}

/// A mail as a player's program writes it.
pub fn mail(from: &str, to: &str, message_id: &str, subject: &str, body: &str) -> Vec<u8> {
    format!(
        "From: {from}\r\nTo: {to}\r\nSubject: {subject}\r\nDate: Mon, 02 Mar 2026 10:00:00 +0000\r\n\
         Message-ID: <{message_id}>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n{}",
        body.replace('\n', "\r\n")
    )
    .into_bytes()
}

/// The orders address of a match on the default domain.
pub fn orders_to(id: &str) -> String {
    format!("orders+{id}@adjutant.localhost")
}

/// One sent message.
#[derive(Debug, Clone)]
pub struct Sent {
    pub file: String,
    pub to: String,
    pub subject: String,
    pub in_reply_to: Option<String>,
    pub headers: String,
    pub body: String,
}

impl Sent {
    /// Fails the test unless this is an acceptance; `context` (the
    /// orders sent) is printed with the reply.
    pub fn assert_accepted(&self, context: &str) {
        assert!(
            self.subject.contains("Accepted"),
            "{context}\n{}\n{}",
            self.subject,
            self.body
        );
    }

    fn read(p: &Path) -> Sent {
        let raw = text(&std::fs::read(p).unwrap());
        let (headers, body) = raw.split_once("\r\n\r\n").unwrap();
        let unfolded = headers.replace("\r\n ", " ");
        let header = |name: &str| {
            unfolded.lines().find_map(|l| {
                let (k, v) = l.split_once(':')?;
                k.eq_ignore_ascii_case(name).then(|| v.trim().to_owned())
            })
        };
        Sent {
            file: p.file_name().unwrap().to_string_lossy().into_owned(),
            to: header("To").unwrap_or_default(),
            subject: header("Subject").unwrap_or_default(),
            in_reply_to: header("In-Reply-To"),
            headers: unfolded.clone(),
            body: decode_qp(body),
        }
    }
}

/// Quoted-printable, enough for our own mail.
fn decode_qp(s: &str) -> String {
    let s = s.replace("=\r\n", "");
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'='
            && i + 2 < b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 3], 16)
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).replace("\r\n", "\n")
}

/// The orders of message `k` of a match's burst: every power in turn,
/// stage 1 buys an infantry, stage 2 places it in the capital.
pub fn burst_orders(id: &str, k: usize, secret_of: &dyn Fn(&str) -> String) -> (String, String) {
    let (power, capital) = TURN_ORDER[(k / 2) % 4];
    let round = k / 8 + 1;
    let orders = if k.is_multiple_of(2) {
        "purchase: 1 infantry\n".to_string()
    } else {
        format!("place:\n  {capital}: 1 infantry\n")
    };
    (
        power.to_owned(),
        format!(
            "match: {id}\npower: {power}\nround: {round}\nsecret: {}\n{orders}",
            secret_of(power)
        ),
    )
}
