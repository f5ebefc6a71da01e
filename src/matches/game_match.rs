//! A match of a game on disk: its copy of the game data, its log, the secret
//! of its open dice turn, and the state replayed from the log.
//!
//! `adjutant new`, `submit` and `show` use this, and so will the mail
//! daemon: an accepted message is logged (fsync'd) before it is
//! acknowledged, and the state is always what the log replays to.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::dice::{
    BeaconNetwork, Dice, DiceKind, Digest32, OrderDigest, RollGroup, TurnKey, TurnSecret,
};
use crate::log::{
    Adjudication, Body, DiceEntry, Genesis, LOG_FORMAT, MatchLog, PlayerEntry, Verified, Written,
};
use crate::rules::builtin::{GameSource, LoadedGame};
use crate::rules::entries::Entries;
use crate::rules::orders::parse::{parse_message, parse_orders};
use crate::rules::orders::{OrderError, Orders};
use crate::rules::state::{GameState, Phase};
use crate::rules::turn::{apply_orders, apply_orders_with_dice, check_orders, is_standing_only};
use crate::rules::vocab::PowerId;
use crate::rules::{GameDef, load_dir, state_text};

use super::beacon::{BeaconSetting, NetworkChoice};
use super::match_id::{MatchIdError, check_match_id};
use super::{DiceTurn, DiceTurnError, replay_memo};

/// The players file given to `adjutant new`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayersFile {
    /// The match id (default: the match directory's name).
    #[serde(rename = "match", default)]
    pub match_id: Option<String>,
    /// Power -> player.
    pub players: Entries<Player>,
    /// This match's deadlines, overriding the daemon's (`docs/daemon.md`).
    #[serde(default)]
    pub deadlines: Option<MatchDeadlines>,
    /// Addresses that get every turn report but send no orders.
    #[serde(default)]
    pub observers: Vec<Observer>,
    /// The match's organisers: each gets every report and notice, and acts
    /// on the match with their own secret (`docs/daemon.md`, "Organisers").
    #[serde(default)]
    pub organisers: Vec<Observer>,
    /// A public randomness beacon mixed into every turn key, and where to
    /// fetch its rounds (`docs/dice.md` §3, "Beacon"); none by default.
    #[serde(default)]
    pub beacon: Option<BeaconSetting>,
    /// Whether the match starts with a bid, and which kind
    /// (`matches::bids`, `docs/league.md`); none by default.
    #[serde(default)]
    pub bid: Option<super::bids::BidSetting>,
}

/// `deadlines:` of a players file: each key overrides the daemon's. The
/// texts are checked by `adjutant new` and read by the daemon.
#[derive(Debug, Clone, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct MatchDeadlines {
    /// Time allowed per stage (`72h`), or `none`.
    #[serde(default)]
    pub stage: Option<String>,
    /// Reminder lead time (`24h`).
    #[serde(default)]
    pub reminder_before: Option<String>,
    /// `wait` or `pass`.
    #[serde(default)]
    pub no_orders: Option<String>,
    /// What an organiser's `absent` does: `extend` (the absent player's
    /// deadlines move past the absence, the default) or `play` (their
    /// stages are played with no orders meanwhile).
    #[serde(default)]
    pub absence: Option<String>,
    /// After how many missed deadlines of one power the organisers are
    /// alerted and `escalation` applies; none by default.
    #[serde(default)]
    pub escalate_after: Option<u32>,
    /// `standing` (the power is played with no orders at each deadline
    /// from then on, the default) or `forfeit`.
    #[serde(default)]
    pub escalation: Option<String>,
}

/// An observer of a match.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Observer {
    /// Display name.
    pub name: String,
    /// Address.
    pub email: String,
    /// The observer's time zone for deadlines (IANA name), default UTC.
    #[serde(default)]
    pub time_zone: Option<String>,
}

/// A player of a power.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Player {
    /// Display name (public: it goes into the log).
    pub name: String,
    /// Address of record (private: it stays in `players.yaml`).
    pub email: String,
    /// The player's time zone for deadlines (IANA name, e.g.
    /// `Europe/Berlin`), default UTC.
    #[serde(default)]
    pub time_zone: Option<String>,
}

/// Why a match could not be created, opened or advanced.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Bad input from the organiser (players file, directory, game).
    #[error("{0}")]
    Invalid(String),
    /// The new match's id is not one that mail and file names can carry.
    #[error("{origin}: {source}")]
    Id {
        /// Where the id came from.
        origin: &'static str,
        /// What is wrong with it.
        source: MatchIdError,
    },
    /// The log refused or failed an entry, or is damaged.
    #[error(transparent)]
    Log(#[from] crate::log::WriteError),
    /// A dice turn could not advance.
    #[error(transparent)]
    Dice(#[from] DiceTurnError),
    /// The beacon round a stage-1 message waits for could not be had yet;
    /// the orders stay logged and the next attempt fetches it again.
    #[error("{0}")]
    Beacon(String),
    /// Replaying the log does not give what it recorded.
    #[error("replaying the log fails at entry {seq}: {reason}")]
    Replay {
        /// The entry.
        seq: u64,
        /// What went wrong.
        reason: String,
    },
}

/// What [`Match::submit_any`] applied.
#[derive(Debug, Clone)]
pub enum Submitted {
    /// Orders.
    Orders(Receipt),
    /// A sealed bid.
    Bid(BidReceipt),
}

/// What a sealed bid did: the bidder's receipt.
#[derive(Debug, Clone)]
pub struct BidReceipt {
    /// The bidder: the side as seated.
    pub bidder: String,
    /// The bid.
    pub ipcs: u32,
    /// The salt of its commitment, so the bidder can check it.
    pub salt: Digest32,
    /// The sealed bid's commitment, as logged.
    pub commitment: Digest32,
    /// The reveal's entry, when this bid was the last.
    pub revealed: Option<u64>,
    /// The log head afterwards.
    pub head: Digest32,
}

/// What an accepted message did: the receipt's content.
#[derive(Debug, Clone)]
pub struct Receipt {
    /// The power whose orders they were.
    pub power: String,
    /// The round.
    pub round: u32,
    /// 1 or 2.
    pub stage: u8,
    /// The orders as understood.
    pub canonical: String,
    /// The digest they contributed (stage 1) or recorded (stage 2).
    pub digest: OrderDigest,
    /// What happened.
    pub events: Vec<String>,
    /// The log head afterwards.
    pub head: Digest32,
}

/// A match, open for reading and for accepting orders.
pub struct Match {
    dir: PathBuf,
    game: GameDef,
    log: MatchLog,
    state: GameState,
    /// The open, unrevealed dice turn and its secret.
    open: Option<DiceTurn>,
    /// The match's beacon and relays, when it mixes a beacon into its keys.
    beacon: Option<(BeaconNetwork, BeaconSetting)>,
}

const LOG_FILE: &str = "log.jsonl";
const GAMES_DIR: &str = "games";
const PLAYERS_FILE: &str = "players.yaml";
const SECRETS_DIR: &str = "secrets";

impl Match {
    /// Creates a match of `game_id` (from `games_dir`) in the new directory
    /// `dir`, and opens its first dice turn. The match id (the players
    /// file's `match:`, else the directory's name) must pass
    /// [`check_match_id`].
    pub fn create(
        dir: &Path,
        games_dir: &Path,
        game_id: &str,
        players_yaml: &str,
    ) -> Result<Match, MatchError> {
        Match::create_from(
            dir,
            &GameSource::Dir(games_dir.to_owned()),
            game_id,
            players_yaml,
        )
    }

    /// [`Match::create`] with the game from `source`: the built-in games or
    /// a directory of games.
    pub fn create_from(
        dir: &Path,
        source: &GameSource,
        game_id: &str,
        players_yaml: &str,
    ) -> Result<Match, MatchError> {
        let players: PlayersFile = serde_saphyr::from_str(players_yaml)
            .map_err(|e| MatchError::Invalid(format!("players file: {e}")))?;
        let (match_id, origin) = match &players.match_id {
            Some(id) => (id.clone(), "players file: match"),
            None => (
                dir.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                "the match directory's name (the players file has no match:)",
            ),
        };
        // Checked before anything is written: the daemon could never send
        // the welcome mails of a match whose id mail cannot carry.
        check_match_id(&match_id).map_err(|source| MatchError::Id { origin, source })?;
        if dir.exists() && fs::read_dir(dir).map_err(io(dir))?.next().is_some() {
            return Err(MatchError::Invalid(format!(
                "{} exists and is not empty; a new match needs a new directory",
                dir.display()
            )));
        }
        let LoadedGame { def: game, files } = source.load(game_id).map_err(MatchError::Invalid)?;
        let entries = check_players(&game, &players)?;
        let beacon = match &players.beacon {
            Some(setting) => Some((
                setting
                    .network()
                    .map_err(|e| MatchError::Invalid(format!("players file: beacon: {e}")))?,
                setting.clone(),
            )),
            None => None,
        };

        // The match keeps its own copy of the game, under its id (the loader
        // checks that a game's directory is named after it).
        let game_dir = dir.join(GAMES_DIR).join(game_id);
        fs::create_dir_all(&game_dir).map_err(io(&game_dir))?;
        for (name, bytes) in &files {
            write_synced(&game_dir.join(name), bytes)?;
        }
        write_synced(&dir.join(PLAYERS_FILE), players_yaml.as_bytes())?;
        let game_hash = game_hash(&game_files(&game_dir)?);
        let genesis = Genesis {
            format: LOG_FORMAT.into(),
            match_id,
            dice: DiceKind::Verifiable,
            engine: format!("adjutant {}", env!("CARGO_PKG_VERSION")),
            game: Some(game_id.to_owned()),
            game_hash: Some(game_hash),
            players: entries,
            beacon: beacon.as_ref().map(|(net, _)| net.clone()),
            rules_version: Some(crate::rules::version::RULES_VERSION),
        };
        let opening = match &players.bid {
            Some(setting) => Some(
                super::bids::opening(&game, setting, &genesis.match_id)
                    .map_err(MatchError::Invalid)?,
            ),
            None => None,
        };
        let (log, _) = MatchLog::create(&dir.join(LOG_FILE), genesis)?;
        let state = GameState::initial(&game);
        let mut m = Match {
            dir: dir.to_owned(),
            game,
            log,
            state,
            open: None,
            beacon,
        };
        // A bid starts the match, right after the genesis; its secret is
        // kept before its commitment is logged.
        if let Some((entry, secret)) = opening {
            if let Some(s) = &secret {
                super::bids::store_secret(dir, s).map_err(MatchError::Invalid)?;
            }
            m.append_bid(entry)?;
        }
        m.open_dice_turn()?;
        Ok(m)
    }

    /// Opens an existing match: checks its game data against the log and
    /// replays every accepted message.
    pub fn open(dir: &Path) -> Result<Match, MatchError> {
        let log = MatchLog::open(&dir.join(LOG_FILE))?;
        let genesis = log
            .chain()
            .genesis()
            .expect("an open log has a genesis")
            .clone();
        if genesis.dice != DiceKind::Verifiable {
            // Scripted dice prove nothing; a match is only ever played with
            // dice that its log lets anyone re-derive.
            return Err(MatchError::Invalid(
                "the log's genesis says its dice are scripted test dice; a match plays only with verifiable dice".into(),
            ));
        }
        let game = match_game(dir, &genesis)?;
        // The entries the log read when it was opened: the file is read once.
        let (state, pending, _) = replay_entries(&game, log.entries(), u64::MAX, Memo::Use)?;
        let open = match log.chain().open_turn() {
            Some((turn, None)) => Some(DiceTurn::resume(turn, load_secret(dir, turn)?)),
            _ => None,
        };
        let beacon = match &genesis.beacon {
            Some(net) => Some((net.clone(), beacon_setting(dir, net)?)),
            None => None,
        };
        let mut m = Match {
            dir: dir.to_owned(),
            game,
            log,
            state,
            open,
            beacon,
        };
        // A crash between the last sealed bid (or an organiser's
        // reveal_bids) and the reveal: reveal them now, as the bid that
        // completed them (or the organiser) would have.
        let reveal_asked = matches!(m.log.entries().last().map(|e| &e.body),
            Some(Body::Organiser(o)) if o.action == crate::log::OrganiserAction::RevealBids);
        if m.log.chain().bid().waiting() && (m.waiting_bidders().is_empty() || reveal_asked) {
            m.reveal_bids()?;
        }
        if let Some(p) = pending {
            // A crash after the orders were logged and before their result
            // was: the orders were accepted, so finish exactly what submit
            // would have done. Nothing was acknowledged yet.
            m.state = p.before;
            let power = m
                .game
                .power(&p.power)
                .expect("replayed orders name a power");
            m.complete(power, p.stage, &p.orders, Some(p.logged_rolls))?;
        } else if m.open.is_none()
            && m.log.chain().open_turn().is_some_and(|(_, k)| k.is_some())
            && m.turn_over()
        {
            // A crash between a turn's end and the next commitment.
            m.open_dice_turn()?;
        }
        Ok(m)
    }

    /// The game.
    pub fn game(&self) -> &GameDef {
        &self.game
    }

    /// The current state.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// The match's directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The log.
    pub fn log(&self) -> &MatchLog {
        &self.log
    }

    /// Appends an entry about the match's mail or deadlines (`received`,
    /// `welcome`, `deadline`), fsync'd before this returns. Entries that
    /// move the game (orders, reveals, dice, adjudications) are written by
    /// [`Match::submit`] alone, so they are refused here.
    pub fn record(&mut self, body: Body) -> Result<Written, MatchError> {
        let rollback = matches!(&body, Body::Organiser(o)
            if o.action == crate::log::OrganiserAction::Rollback);
        if rollback
            || !matches!(
                body,
                Body::Received(_)
                    | Body::Welcome(_)
                    | Body::Deadline(_)
                    | Body::Organiser(_)
                    | Body::Escalation(_)
            )
        {
            return Err(MatchError::Invalid(format!(
                "a {} entry is written by the match itself, not recorded",
                body.kind()
            )));
        }
        Ok(self.log.append(body)?)
    }

    /// Rolls the match back (an organiser's `rollback`, `body`): the open
    /// dice turn, if unrevealed, is revealed in the entry itself (its
    /// secret is known to the server, so it must not stay usable), the
    /// position becomes the one after entry `body.entry`, and a stage 1 to
    /// play gets a new dice turn with a new commitment.
    pub fn rollback(&mut self, mut body: crate::log::Organiser) -> Result<Written, MatchError> {
        if let Some(dt) = &self.open {
            body.turn = Some(dt.turn());
            body.secret = Some(dt.secret_revealed());
        }
        let written = self.log.append(Body::Organiser(body))?;
        if let Some(dt) = self.open.take() {
            remove_secret(&self.dir, dt.turn());
        }
        let (state, _, _) = replay_entries(&self.game, self.log.entries(), u64::MAX, Memo::Ignore)?;
        self.state = state;
        if self.turn_over() {
            self.open_dice_turn()?;
        }
        Ok(written)
    }

    /// Appends a `bid` entry and, when it gives setup money (a reveal or
    /// the setup step), starts the bid placement stage.
    fn append_bid(&mut self, b: crate::log::BidEntry) -> Result<Written, MatchError> {
        let written = self.log.append(Body::Bid(b.clone()))?;
        if let Some(money) = super::bids::money_after(&self.game, self.log.chain().bid(), &b)
            .map_err(MatchError::Invalid)?
        {
            self.state = crate::rules::bid_placement::start(&self.game, &self.state, &money).0;
        }
        Ok(written)
    }

    /// Takes `power`'s sealed bid of `ipcs` for its side (a bid for sides):
    /// logs its commitment, and reveals every bid when this was the last.
    /// Returns the bidder (the side), the salt for the receipt and whether
    /// the bids were revealed.
    pub fn bid(
        &mut self,
        power: &str,
        ipcs: u32,
    ) -> Result<Result<BidReceipt, Vec<OrderError>>, MatchError> {
        let state = self.log.chain().bid().clone();
        let Some((bidders, _)) = state.bidders() else {
            return Ok(Err(vec![general(
                "this match does not start with a bid for sides: a bid: section has nothing to do here".into(),
            )]));
        };
        if !state.waiting() {
            return Ok(Err(vec![general(
                "the bids were already revealed; the match is under way".into(),
            )]));
        }
        let Some(p) = self.game.power(power) else {
            return Ok(Err(vec![general(format!(
                "{power:?} is not a power of this game"
            ))]));
        };
        let side = self.game.files().game.sides[self.game.side_of(p)]
            .name
            .clone();
        if !bidders.contains(&side) {
            return Ok(Err(vec![general(format!("the {side} do not bid"))]));
        }
        if state.sealed_by().contains(&side.as_str()) {
            return Ok(Err(vec![general(format!(
                "the {side} already sealed their bid; a sealed bid is final"
            ))]));
        }
        let match_id = self
            .log
            .chain()
            .genesis()
            .expect("genesis")
            .match_id
            .clone();
        let secret = super::bids::load_secret(&self.dir).map_err(MatchError::Invalid)?;
        let mut amounts = super::bids::load_amounts(&self.dir).map_err(MatchError::Invalid)?;
        amounts.retain(|(b, _)| *b != side);
        amounts.push((side.clone(), ipcs));
        // The amount is kept before its commitment is logged, so the reveal
        // can always open what was sealed.
        super::bids::store_amounts(&self.dir, &amounts).map_err(MatchError::Invalid)?;
        let (entry, salt) = super::bids::sealed(&match_id, &secret, &side, ipcs);
        let commitment = entry.commitment.expect("a sealed entry has one");
        self.append_bid(entry)?;
        let all_in = bidders
            .iter()
            .all(|b| self.log.chain().bid().sealed_by().contains(&b.as_str()));
        let revealed = if all_in {
            Some(self.reveal_bids()?)
        } else {
            None
        };
        Ok(Ok(BidReceipt {
            bidder: side,
            ipcs,
            salt,
            commitment,
            revealed,
            head: self.log.head(),
        }))
    }

    /// Reveals the sealed bids (every bidder has bid, or an organiser
    /// reveals at the deadline: a bidder who did not bid has no bid), and
    /// starts the bid placement with the winner's bid; when the winner is
    /// not seated on the side it takes, the two players change seats
    /// ([`super::bids::swap_seats`]). Returns the reveal's entry number.
    pub fn reveal_bids(&mut self) -> Result<u64, MatchError> {
        let state = self.log.chain().bid().clone();
        if !state.waiting() {
            return Err(MatchError::Invalid(
                "no sealed bids wait for their reveal".into(),
            ));
        }
        let match_id = self
            .log
            .chain()
            .genesis()
            .expect("genesis")
            .match_id
            .clone();
        let secret = super::bids::load_secret(&self.dir).map_err(MatchError::Invalid)?;
        let amounts = super::bids::load_amounts(&self.dir).map_err(MatchError::Invalid)?;
        let entry = super::bids::reveal(&match_id, &state, &secret, &amounts);
        let (_, side) = state.bidders().expect("waiting");
        let swap = entry
            .winner
            .as_ref()
            .filter(|w| w.as_str() != side)
            .map(|w| (w.clone(), side.to_owned()));
        let written = self.append_bid(entry)?;
        super::bids::remove_secret(&self.dir);
        if let Some((winner, side)) = swap {
            super::bids::swap_seats(self, &winner, &side)?;
        }
        Ok(written.seq)
    }

    /// The bidders whose sealed bids are still to come.
    pub fn waiting_bidders(&self) -> Vec<String> {
        let state = self.log.chain().bid();
        let sealed = state.sealed_by();
        state
            .bidders()
            .map(|(b, _)| {
                b.iter()
                    .filter(|x| !sealed.contains(&x.as_str()))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Applies a message of `power`: a sealed bid when it carries `bid:`
    /// (alone, besides its header), else orders ([`Match::submit`]).
    pub fn submit_any(
        &mut self,
        power: &str,
        yaml: &str,
    ) -> Result<Result<Submitted, Vec<OrderError>>, MatchError> {
        let bid = match parse_message(&self.game, yaml) {
            Ok(m) => m.orders.bid.as_ref().map(|b| (b.item, m.clone())),
            Err(_) => None,
        };
        let Some((ipcs, message)) = bid else {
            return Ok(self.submit(power, yaml)?.map(Submitted::Orders));
        };
        let mut errors = Vec::new();
        let alone = crate::rules::orders::Orders {
            bid: message.orders.bid.clone(),
            ..Default::default()
        };
        if message.orders != alone {
            errors.push(general(
                "a bid is sent alone: a message with bid: carries no other section".into(),
            ));
        }
        let match_id = &self.log.chain().genesis().expect("genesis").match_id;
        if let Some(m) = &message.header.match_id
            && m != match_id
        {
            errors.push(general(format!(
                "the message is for match {m}, this is {match_id}"
            )));
        }
        if let Some(p) = &message.header.power
            && self.game.power(p) != self.game.power(power)
        {
            errors.push(general(format!(
                "power: {p} does not match the power this bid is sent as, {power}"
            )));
        }
        if !errors.is_empty() {
            return Ok(Err(errors));
        }
        Ok(self.bid(power, ipcs)?.map(Submitted::Bid))
    }

    /// Applies one orders message of `power`. A rejected message changes
    /// nothing and returns every error; an accepted one is logged (order,
    /// reveal after stage 1, adjudication) before this returns.
    pub fn submit(
        &mut self,
        power: &str,
        yaml: &str,
    ) -> Result<Result<Receipt, Vec<OrderError>>, MatchError> {
        let game = &self.game;
        let Some(power_id) = game.power(power) else {
            let names: Vec<&str> = game.powers().iter().map(|p| p.name.as_str()).collect();
            return Ok(Err(vec![general(format!(
                "{power:?} is not a power of this game; the powers are {}",
                names.join(", ")
            ))]));
        };
        let to_move = self.state.current_power(game);
        let power_name = game.powers()[power_id].name.clone();
        if let Some(end) = self.log.chain().ended() {
            return Ok(Err(vec![general(format!(
                "the match ended at log entry {end} (a side forfeited or resigned, or the organisers adjudicated a draw); it takes no more orders"
            ))]));
        }
        // A match of an older rules version that this program still
        // replays is played on only once an organiser upgrades it.
        let version = crate::rules::version::of_log(self.log.chain().rules_version());
        if version != crate::rules::version::RULES_VERSION {
            return Ok(Err(vec![general(format!(
                "the match is at rules version {version}; this program plays version {}: an organiser's upgrade re-bases the match on it first",
                crate::rules::version::RULES_VERSION
            ))]));
        }
        let message = match parse_message(game, yaml) {
            Ok(m) => m,
            Err(errors) => return Ok(Err(errors)),
        };
        if let Some(b) = &message.orders.bid {
            return Ok(Err(vec![OrderError::new(
                &b.origin,
                "a bid is sealed, never logged as orders: it is sent by mail or `adjutant submit`, which take it as a bid".to_owned(),
            )]));
        }
        if self.log.chain().bid().waiting() {
            return Ok(Err(vec![general(format!(
                "the match waits for the sealed bids of {}; orders come after their reveal",
                self.waiting_bidders().join(" and ")
            ))]));
        }
        // A `power:` naming another power is the first thing to say: the
        // turn check below would otherwise blame the wrong power.
        if let Some(p) = &message.header.power
            && game.power(p) != Some(power_id)
        {
            return Ok(Err(vec![general(format!(
                "power: {p} does not match the power these orders are applied as, {power_name}"
            ))]));
        }
        // Standing orders may come from any power at any time; turn orders
        // only from the power to move.
        let standing_only = is_standing_only(&message.orders);
        if !standing_only && power_id != to_move {
            return Ok(Err(vec![general(format!(
                "it is not {power_name}'s turn: {} is to move ({})",
                game.powers()[to_move].name,
                self.state.phase.stage_name()
            ))]));
        }
        let mut header_errors = Vec::new();
        let match_id = &self.log.chain().genesis().expect("genesis").match_id;
        if let Some(m) = &message.header.match_id
            && m != match_id
        {
            header_errors.push(general(format!(
                "the message is for match {m}, this is {match_id}"
            )));
        }
        if let Some(r) = message.header.round
            && r != self.state.round
            && !standing_only
        {
            header_errors.push(general(format!(
                "the message is for round {r}; the round is {}",
                self.state.round
            )));
        }
        if !header_errors.is_empty() {
            return Ok(Err(header_errors));
        }
        // The whole message is checked before anything is logged; no die is
        // drawn until it is logged and the turn's secret revealed.
        if let Err(errors) = check_orders(game, &self.state, power_id, &message.orders) {
            return Ok(Err(errors));
        }
        let stage = if standing_only {
            0
        } else {
            stage_of(&self.state)
        };

        // Accepted: log it before anything else happens.
        let turn = self
            .log
            .chain()
            .open_turn()
            .map(|(t, _)| t)
            .expect("a match always has a dice turn open or revealed");
        // Before the reveal each digest feeds the turn key once: the same
        // text sent again would be the same message twice.
        let digest = OrderDigest::of_orders(match_id, turn, &power_name, &message.canonical);
        if let Some(first) = self.log.chain().key_digest_entry(&digest) {
            return Ok(Err(vec![general(format!(
                "these orders are the same, word for word, as {power_name}'s orders already applied this turn (log entry {first}), so they change nothing; to send them again, add or change an `entropy:` line"
            ))]));
        }
        let (digest, _) =
            DiceTurn::record_order_in(&mut self.log, turn, &power_name, &message.canonical)?;
        let round = self.state.round;
        let events = self.complete(power_id, stage, &message.orders, None)?;
        Ok(Ok(Receipt {
            power: power_name,
            round,
            stage,
            canonical: message.canonical,
            digest,
            events,
            head: self.log.head(),
        }))
    }

    /// After the orders entry: the reveal (stage 1), the battles with the
    /// turn's dice, the dice entry, the adjudication, and the next dice turn
    /// when the power's turn ended. `logged` holds the dice already in the
    /// log when completing a message after a crash (they are checked, not
    /// written again).
    fn complete(
        &mut self,
        power: PowerId,
        stage: u8,
        orders: &Orders,
        logged: Option<Vec<RollGroup>>,
    ) -> Result<Vec<String>, MatchError> {
        let (turn, _) = self.log.chain().open_turn().expect("a dice turn is open");
        let key = if stage == 1 {
            if self.open.is_some() {
                // Fetched before the secret is taken out: a round that cannot
                // be had leaves the turn as it was, to be completed later.
                let round = match &self.beacon {
                    Some((net, setting)) => {
                        let logged = self
                            .log
                            .chain()
                            .unadjudicated_time_ms()
                            .expect("the stage-1 orders are logged");
                        let round = net.round_after(logged);
                        Some(
                            super::beacon::fetch_round(setting, net, round)
                                .map_err(MatchError::Beacon)?,
                        )
                    }
                    None => None,
                };
                let open = self.open.take().expect("checked above");
                open.reveal_with_beacon(&mut self.log, round)?;
                remove_secret(&self.dir, turn);
            }
            self.log.chain().open_turn().and_then(|(_, k)| k)
        } else {
            None
        };
        let seq = self.log.chain().seq();
        let (next, events, rolls) = resolve(&self.game, &self.state, power, stage, orders, key)
            .map_err(|errors| MatchError::Replay {
                seq,
                reason: format!(
                    "orders that passed their check failed when applied: {}",
                    joined(&errors)
                ),
            })?;
        match logged {
            Some(l) if !l.is_empty() && l != rolls => {
                return Err(MatchError::Replay {
                    seq,
                    reason: "the logged dice are not the ones the engine draws".into(),
                });
            }
            Some(l) if !l.is_empty() => {}
            _ if !rolls.is_empty() => {
                self.log.append(Body::Dice(DiceEntry { turn, rolls }))?;
            }
            _ => {}
        }
        let written = self.log.append(Body::Adjudication(Adjudication {
            turn,
            power: self.game.powers()[power].name.clone(),
            round: self.state.round,
            stage,
            events: events.clone(),
            state: state_digest(&self.game, &next),
        }))?;
        replay_memo::remember(written.hash, &next);
        let turn_ended = next.turn != self.state.turn || next.round != self.state.round;
        self.state = next;
        // A dice turn opens for each stage 1: in an interleaved shared turn
        // (Anniversary, KQ-1) the turn also passes to a partner's stage 2,
        // which has no dice and stays in the revealed dice turn.
        // The bid placement ends in turn 1's purchase, whose dice turn is
        // the one opened at the start and still unrevealed.
        if turn_ended && self.state.phase == Phase::Purchase && self.open.is_none() {
            self.open_dice_turn()?;
        }
        Ok(events)
    }

    /// True when the last adjudication ended a power's turn, so the dice
    /// turn that follows should be open but is not.
    fn turn_over(&self) -> bool {
        self.state.phase == Phase::Purchase
    }

    /// Draws the next turn's secret, stores it (fsync'd) and then logs its
    /// commitment, so a restart can always reveal what was committed.
    fn open_dice_turn(&mut self) -> Result<(), MatchError> {
        let secret = TurnSecret::generate().map_err(DiceTurnError::Random)?;
        let turn = DiceTurn::next_turn(&self.log);
        store_secret(&self.dir, turn, &secret)?;
        let (dt, _) = DiceTurn::open_with(&mut self.log, secret)?;
        self.open = Some(dt);
        Ok(())
    }
}

/// The beacon setting of a match's players file; for a match whose file
/// names none (written by hand), the genesis network and its public relays.
fn beacon_setting(dir: &Path, net: &BeaconNetwork) -> Result<BeaconSetting, MatchError> {
    let path = dir.join(PLAYERS_FILE);
    let text = fs::read_to_string(&path).map_err(io(&path))?;
    let players: PlayersFile = serde_saphyr::from_str(&text)
        .map_err(|e| MatchError::Invalid(format!("{}: {e}", path.display())))?;
    Ok(players.beacon.unwrap_or(BeaconSetting {
        network: NetworkChoice::Custom(net.clone()),
        relays: Vec::new(),
        wait: None,
    }))
}

/// Every error of a refused message on one line, for a replay failure.
fn joined(errors: &[OrderError]) -> String {
    errors
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

fn general(reason: String) -> OrderError {
    OrderError {
        origin: Default::default(),
        field: None,
        reason,
    }
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> MatchError + '_ {
    move |source| MatchError::Io {
        path: path.to_owned(),
        source,
    }
}

fn check_players(game: &GameDef, players: &PlayersFile) -> Result<Vec<PlayerEntry>, MatchError> {
    let mut problems = Vec::new();
    let mut entries = Vec::new();
    let mut seen = Vec::new();
    for (power, player) in players.players.iter() {
        match game.power(power) {
            Some(p) if seen.contains(&p) => problems.push(format!("{power} is listed twice")),
            Some(p) => {
                seen.push(p);
                if player.name.trim().is_empty() {
                    problems.push(format!("{power}: the player needs a name"));
                }
                if !player.email.contains('@') {
                    problems.push(format!(
                        "{power}: {:?} is not an email address",
                        player.email
                    ));
                }
                if let Some(tz) = &player.time_zone
                    && let Err(e) = super::deadlines::parse_time_zone(tz)
                {
                    problems.push(format!("{power}: time_zone: {e}"));
                }
                entries.push(PlayerEntry {
                    power: game.powers()[p].name.clone(),
                    name: player.name.clone(),
                });
            }
            None => problems.push(format!("{power:?} is not a power of {}", game.id())),
        }
    }
    for p in game.turn_order() {
        if !seen.contains(&p) {
            problems.push(format!(
                "{} takes turns but has no player",
                game.powers()[p].name
            ));
        }
    }
    for (i, o) in players.organisers.iter().enumerate() {
        if o.name.trim().is_empty() {
            problems.push(format!("organiser {}: needs a name", i + 1));
        } else if players.organisers[..i]
            .iter()
            .any(|x| x.name.trim().eq_ignore_ascii_case(o.name.trim()))
        {
            problems.push(format!("organiser {} is listed twice", o.name));
        }
        if !o.email.contains('@') {
            problems.push(format!(
                "organiser {}: {:?} is not an email address",
                o.name, o.email
            ));
        }
        if let Some(tz) = &o.time_zone
            && let Err(e) = super::deadlines::parse_time_zone(tz)
        {
            problems.push(format!("organiser {}: time_zone: {e}", o.name));
        }
    }
    problems.extend(super::bids::check(game, players));
    if let Err(errs) = super::organise::LeagueSettings::of(players.deadlines.as_ref()) {
        problems.extend(errs.into_iter().map(|(k, e)| format!("{k}: {e}")));
    }
    for o in &players.observers {
        if !o.email.contains('@') {
            problems.push(format!(
                "observer {}: {:?} is not an email address",
                o.name, o.email
            ));
        }
        if let Some(tz) = &o.time_zone
            && let Err(e) = super::deadlines::parse_time_zone(tz)
        {
            problems.push(format!("observer {}: time_zone: {e}", o.name));
        }
    }
    // The daemon's defaults do not matter here: only the match's own keys
    // are checked.
    let any = super::deadlines::DeadlineSettings {
        stage: None,
        reminder_before: std::time::Duration::ZERO,
        no_orders: super::deadlines::NoOrders::Wait,
    };
    if let Err(errs) =
        super::deadlines::DeadlineSettings::with_match(any, players.deadlines.as_ref())
    {
        problems.extend(errs.into_iter().map(|(k, e)| format!("{k}: {e}")));
    }
    if problems.is_empty() {
        Ok(entries)
    } else {
        Err(MatchError::Invalid(format!(
            "players file: {}",
            problems.join("; ")
        )))
    }
}

/// The regular files of a game directory, sorted by name.
fn game_files(dir: &Path) -> Result<Vec<(String, Vec<u8>)>, MatchError> {
    let mut files = Vec::new();
    for entry in fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let path = entry.path();
        if path.is_file() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.push((name, fs::read(&path).map_err(io(&path))?));
        }
    }
    files.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    Ok(files)
}

/// `docs/log.md`, "Game hash".
pub fn game_hash(files: &[(String, Vec<u8>)]) -> Digest32 {
    fn put(buf: &mut Vec<u8>, b: &[u8]) {
        buf.extend_from_slice(&(b.len() as u32).to_be_bytes());
        buf.extend_from_slice(b);
    }
    let mut m = Vec::new();
    put(&mut m, b"adjutant/v1/game");
    m.extend_from_slice(&(files.len() as u32).to_be_bytes());
    for (name, bytes) in files {
        put(&mut m, name.as_bytes());
        put(&mut m, bytes);
    }
    Digest32::sha256(&m)
}

/// A fingerprint of the position: SHA-256 of its canonical text
/// ([`state_text::encode`]), which names everything in the game's words and
/// carries its version, so any engine that reaches the same position
/// reproduces it.
pub fn state_digest(game: &GameDef, state: &GameState) -> Digest32 {
    Digest32::sha256(state_text::encode(game, state).as_bytes())
}

/// The position's canonical text as rules version `version` writes it, for
/// every version this engine replays ([`crate::rules::version`]): version
/// 1's ([`state_text::encode_v1`]) and this version's.
pub fn state_text_as(version: u32, game: &GameDef, state: &GameState) -> Result<String, String> {
    match crate::rules::version::cannot_replay(version) {
        Some(why) => Err(why),
        None if version == 1 => Ok(state_text::encode_v1(game, state)),
        None => Ok(state_text::encode(game, state)),
    }
}

/// The position's digest as rules version `version` writes it
/// ([`state_text_as`]).
pub fn state_digest_as(
    version: u32,
    game: &GameDef,
    state: &GameState,
) -> Result<Digest32, String> {
    state_text_as(version, game, state).map(|t| Digest32::sha256(t.as_bytes()))
}

/// Loads the match's copy of its game and checks it against the genesis
/// entry's `game_hash`.
pub(crate) fn match_game(dir: &Path, genesis: &Genesis) -> Result<GameDef, MatchError> {
    let version = crate::rules::version::of_log(genesis.rules_version);
    if let Some(why) = crate::rules::version::cannot_replay(version) {
        return Err(MatchError::Invalid(why));
    }
    let game_id = genesis
        .game
        .as_deref()
        .ok_or_else(|| MatchError::Invalid("the log's genesis names no game".into()))?;
    let game_dir = dir.join(GAMES_DIR).join(game_id);
    let game = load_dir(&game_dir)
        .map_err(|e| MatchError::Invalid(format!("{}: {e}", game_dir.display())))?;
    let hash = game_hash(&game_files(&game_dir)?);
    if genesis.game_hash != Some(hash) {
        return Err(MatchError::Invalid(format!(
            "{}: the game data is not what the match was created with (hash {hash}, the log says {})",
            game_dir.display(),
            genesis.game_hash.map_or("none".into(), |h| h.to_string())
        )));
    }
    Ok(game)
}

/// What replaying a match log through the engine found.
#[derive(Debug, Clone)]
pub struct Replayed {
    /// Accepted messages re-adjudicated, each giving the recorded dice and
    /// state.
    pub messages: usize,
    /// The last message's result is missing (a crash before it was logged);
    /// opening the match for writing completes it.
    pub unfinished: bool,
    /// The state the log replays to.
    pub state: GameState,
}

/// Replays a match log read-only, for `adjutant verify`: the game data must
/// be the match's own copy (`games/<id>/` beside the log, matching
/// `game_hash`), and every accepted message must re-adjudicate, with the dice
/// of its turn, to the dice and state its entries recorded.
pub fn replay_match(log_path: &Path, genesis: &Genesis) -> Result<Replayed, MatchError> {
    let dir = log_path.parent().unwrap_or(Path::new("."));
    let game = match_game(dir, genesis)?;
    let entries = super::history::read_entries(log_path)?;
    replay_all(&game, &entries)
}

/// [`replay_match`] of a log that [`crate::log::verify_entries`] has just
/// read and checked (what `adjutant verify` does): its entries are not read
/// or parsed again. The replay still applies the chain to them, as it does
/// to every log it replays (for each turn's key).
pub fn replay_verified(log_path: &Path, verified: &Verified) -> Result<Replayed, MatchError> {
    let Some(Body::Genesis(genesis)) = verified.entries.first().map(|e| &e.body) else {
        return Err(MatchError::Invalid(
            "the log does not start with its genesis entry".into(),
        ));
    };
    let dir = log_path.parent().unwrap_or(Path::new("."));
    let game = match_game(dir, genesis)?;
    replay_all(&game, &verified.entries)
}

/// Every message of `entries` re-adjudicated, nothing remembered used.
fn replay_all(game: &GameDef, entries: &[crate::log::Entry]) -> Result<Replayed, MatchError> {
    let (state, pending, messages) = replay_entries(game, entries, u64::MAX, Memo::Ignore)?;
    Ok(Replayed {
        messages,
        unfinished: pending.is_some(),
        state,
    })
}

/// Orders that were logged but whose adjudication was not (a crash between
/// the two appends).
pub(crate) struct Pending {
    power: String,
    stage: u8,
    orders: Orders,
    before: GameState,
    /// Dice entries logged after the orders (a crash after them).
    logged_rolls: Vec<RollGroup>,
}

/// Applies an accepted message: stage 1 with the turn's dice (keyed by the
/// revealed secret and the digests), stage 2 and standing orders without.
/// Returns the new state, what happened (described) and every die drawn.
fn resolve(
    game: &GameDef,
    state: &GameState,
    power: PowerId,
    stage: u8,
    orders: &Orders,
    key: Option<TurnKey>,
) -> Result<(GameState, Vec<String>, Vec<RollGroup>), Vec<OrderError>> {
    let (next, events, rolls) = match key {
        Some(key) if stage == 1 => {
            let mut dice = Dice::verifiable(key);
            let (next, events) = apply_orders_with_dice(game, state, power, orders, &mut dice)?;
            (next, events, dice.take_rolls())
        }
        _ => {
            let (next, events) = apply_orders(game, state, power, orders)?;
            (next, events, Vec::new())
        }
    };
    let events = events.iter().map(|e| e.describe(game)).collect();
    Ok((next, events, rolls))
}

/// Whether a replay may start from a position remembered in this process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Memo {
    /// Start after the last remembered adjudication, and remember the end.
    Use,
    /// Re-adjudicate every message (what `adjutant verify` does).
    Ignore,
}

/// Replays every accepted message of a match log's entries, up to and
/// including entry `until`, through the engine, with the dice its revealed
/// secrets give, checking every recorded die and state. Returns the state,
/// an unfinished message if any, and how many messages re-adjudicated to
/// their recorded state.
///
/// With `Memo::Use`, the replay starts from the last position remembered in
/// this process ([`replay_memo`]) and the count covers only the messages
/// re-adjudicated after it; `Memo::Ignore` re-derives everything (verify).
pub(crate) fn replay_entries(
    game: &GameDef,
    entries: &[crate::log::Entry],
    until: u64,
    memo: Memo,
) -> Result<(GameState, Option<Pending>, usize), MatchError> {
    let entries: Vec<&crate::log::Entry> = entries.iter().take_while(|e| e.seq <= until).collect();
    // A rollback goes back to an earlier position: the positions of the
    // current line are kept, and no remembered position is used or stored
    // (the state after the last adjudication may not be the match's).
    let rollbacks = entries.iter().any(|e| {
        matches!(&e.body, Body::Organiser(o) if o.action == crate::log::OrganiserAction::Rollback)
    });
    let memo = if rollbacks { Memo::Ignore } else { memo };
    let mut positions: Vec<(u64, GameState)> = Vec::new();
    if rollbacks {
        positions.push((1, GameState::initial(game)));
    }
    let mut state = GameState::initial(game);
    // The rules version the entries are replayed by: the genesis's, then
    // each upgrade's (docs/log.md, "Rules version").
    let mut version = match entries.first().map(|e| &e.body) {
        Some(Body::Genesis(g)) => crate::rules::version::of_log(g.rules_version),
        _ => crate::rules::version::RULES_VERSION,
    };
    let mut chain = crate::log::Chain::new();
    let mut pending: Option<Pending> = None;
    let mut matched = 0usize;
    // The last adjudication whose position this process remembers: every
    // entry up to it only extends the chain.
    let resume = match memo {
        Memo::Use => entries.iter().enumerate().rev().find_map(|(i, e)| {
            matches!(e.body, Body::Adjudication(_))
                .then(|| replay_memo::recall(&e.hash))
                .flatten()
                .map(|s| (i, s))
        }),
        Memo::Ignore => None,
    };
    let (skip_to, resumed) = match resume {
        Some((i, s)) => (Some(i), Some(s)),
        None => (None, None),
    };
    let mut resumed = resumed;
    let mut last_adjudication = None;
    for (i, entry) in entries.iter().enumerate() {
        let seq = entry.seq;
        let fail = |reason: String| MatchError::Replay { seq, reason };
        chain.apply(entry).map_err(fail)?;
        if let Some(k) = skip_to
            && i <= k
        {
            if i == k {
                state = resumed.take().expect("recalled once");
                last_adjudication = Some(entry.hash);
            }
            // The version still follows the upgrades of the skipped part
            // (their digests were checked when the position was).
            if let Body::Organiser(o) = &entry.body
                && o.action == crate::log::OrganiserAction::Upgrade
                && let Some(to) = o.to_version
            {
                version = to;
            }
            continue;
        }
        match &entry.body {
            // A dice turn is one power's turn: it opens when the last one
            // ended (or at the start), never between its stages.
            Body::TurnOpen(t) if stage_of(&state) != 1 && state.phase != Phase::BidPlacement => {
                return Err(fail(format!(
                    "dice turn {} opens in the middle of {}'s turn (stage 2 is still to come)",
                    t.turn,
                    game.powers()[state.current_power(game)].name
                )));
            }
            Body::Order(o) => {
                if let Some(p) = &pending {
                    return Err(fail(format!(
                        "{}'s orders before it were never adjudicated",
                        p.power
                    )));
                }
                game.power(&o.power)
                    .ok_or_else(|| fail(format!("unknown power {}", o.power)))?;
                let orders = parse_orders(game, &o.canonical).map_err(|errors| {
                    fail(format!(
                        "the logged orders do not parse: {}",
                        joined(&errors)
                    ))
                })?;
                let stage = if is_standing_only(&orders) {
                    0
                } else {
                    stage_of(&state)
                };
                pending = Some(Pending {
                    power: o.power.clone(),
                    stage,
                    orders,
                    before: state.clone(),
                    logged_rolls: Vec::new(),
                });
            }
            Body::Dice(d) => pending
                .as_mut()
                .ok_or_else(|| fail("dice without the orders they belong to".into()))?
                .logged_rolls
                .extend(d.rolls.iter().cloned()),
            Body::Adjudication(a) => {
                let p = pending
                    .take()
                    .ok_or_else(|| fail("an adjudication without its orders".into()))?;
                let power = game.power(&p.power).expect("checked at the order");
                let key = chain.open_turn().and_then(|(_, k)| k);
                // Every field a turn report shows is re-derived here, so a
                // report can only show what the engine says happened.
                if a.power != p.power || a.round != state.round || a.stage != p.stage {
                    return Err(fail(format!(
                        "the adjudication records {} round {} stage {}, but the orders are {}'s, round {}, stage {}",
                        a.power, a.round, a.stage, p.power, state.round, p.stage
                    )));
                }
                let (next, events, rolls) = resolve(game, &state, power, p.stage, &p.orders, key)
                    .map_err(|errors| {
                    fail(format!(
                        "the logged orders are rejected: {}",
                        joined(&errors)
                    ))
                })?;
                if rolls != p.logged_rolls {
                    return Err(fail(format!(
                        "the engine draws {} dice for these orders, but the log holds {} that differ",
                        rolls.iter().map(|g| g.values.len()).sum::<usize>(),
                        p.logged_rolls.iter().map(|g| g.values.len()).sum::<usize>()
                    )));
                }
                if events != a.events {
                    let differ = events
                        .iter()
                        .zip(&a.events)
                        .position(|(x, y)| x != y)
                        .unwrap_or(events.len().min(a.events.len()));
                    return Err(fail(format!(
                        "the recorded events differ from what the orders give (event {}: the log says {:?}, the engine says {:?})",
                        differ + 1,
                        a.events.get(differ).map_or("nothing", |e| e.as_str()),
                        events.get(differ).map_or("nothing", |e| e.as_str()),
                    )));
                }
                if state_digest_as(version, game, &next).map_err(fail)? != a.state {
                    return Err(fail(
                        "the orders before it give a different state than recorded".into(),
                    ));
                }
                state = next;
                matched += 1;
                last_adjudication = Some(entry.hash);
                if rollbacks {
                    positions.push((seq, state.clone()));
                }
            }
            Body::Organiser(o) if o.action == crate::log::OrganiserAction::Upgrade => {
                let from = crate::rules::version::of_log(o.from_version);
                let to = o.to_version.unwrap_or_default();
                let before = state_digest_as(from, game, &state).map_err(&fail)?;
                if o.from_state != Some(before) {
                    return Err(fail(format!(
                        "the upgrade's from_state is not the position's digest under rules version {from} ({before})"
                    )));
                }
                let after = state_digest_as(to, game, &state).map_err(&fail)?;
                if o.to_state != Some(after) {
                    return Err(fail(format!(
                        "the upgrade's to_state is not the position's digest under rules version {to} ({after})"
                    )));
                }
                version = to;
            }
            Body::Bid(b) => {
                if let Some(money) = super::bids::money_after(game, chain.bid(), b).map_err(fail)? {
                    state = crate::rules::bid_placement::start(game, &state, &money).0;
                    // A rollback to the start goes back to the bid placement.
                    if let Some(start) = positions.first_mut() {
                        start.1 = state.clone();
                    }
                }
            }
            Body::Organiser(o) if o.action == crate::log::OrganiserAction::Rollback => {
                if let Some(p) = &pending {
                    return Err(fail(format!(
                        "a rollback while {}'s orders wait for their adjudication",
                        p.power
                    )));
                }
                let to = o.entry.unwrap_or(1);
                let Some((_, at)) = positions.iter().find(|(s, _)| *s == to) else {
                    return Err(fail(format!(
                        "a rollback to entry {to}, which is no position of the current line"
                    )));
                };
                state = at.clone();
                positions.retain(|(s, _)| *s <= to);
            }
            _ => {}
        }
    }
    if memo == Memo::Use
        && let Some(hash) = last_adjudication
    {
        // The position right after the last adjudication: before any
        // orders still waiting for their result.
        replay_memo::remember(hash, pending.as_ref().map_or(&state, |p| &p.before));
    }
    Ok((state, pending, matched))
}

/// The stage of the turn by mail that `state` waits for: 1 (purchase and
/// combat) or 2 (non-combat and placement).
pub fn stage_of(state: &GameState) -> u8 {
    if state.phase == Phase::Purchase { 1 } else { 2 }
}

fn secret_path(dir: &Path, turn: u32) -> PathBuf {
    dir.join(SECRETS_DIR).join(format!("turn-{turn}.secret"))
}

fn store_secret(dir: &Path, turn: u32, secret: &TurnSecret) -> Result<(), MatchError> {
    let sdir = dir.join(SECRETS_DIR);
    fs::create_dir_all(&sdir).map_err(io(&sdir))?;
    let path = secret_path(dir, turn);
    // A file already there is a secret whose commitment never reached the
    // log (a crash between the two): nobody has seen it, so it is replaced.
    let mut opts = OpenOptions::new();
    opts.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts.open(&path).map_err(io(&path))?;
    f.write_all(secret.reveal().to_hex().as_bytes())
        .and_then(|()| f.sync_all())
        .map_err(io(&path))?;
    File::open(&sdir)
        .and_then(|d| d.sync_all())
        .map_err(io(&sdir))
}

fn load_secret(dir: &Path, turn: u32) -> Result<TurnSecret, MatchError> {
    let path = secret_path(dir, turn);
    let text = fs::read_to_string(&path).map_err(io(&path))?;
    let d = Digest32::from_hex(text.trim())
        .map_err(|e| MatchError::Invalid(format!("{}: {e}", path.display())))?;
    Ok(TurnSecret::from_bytes(d.0))
}

/// Once revealed in the log, the secret file is no longer needed.
fn remove_secret(dir: &Path, turn: u32) {
    let _ = fs::remove_file(secret_path(dir, turn));
}

fn write_synced(path: &Path, bytes: &[u8]) -> Result<(), MatchError> {
    let mut f = File::create(path).map_err(io(path))?;
    f.write_all(bytes)
        .and_then(|()| f.sync_all())
        .map_err(io(path))
}
