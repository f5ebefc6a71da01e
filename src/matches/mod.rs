//! Match lifecycle: a match on disk ([`Match`]) and its dice turns
//! ([`DiceTurn`]), from commitment to recorded dice.
//!
//! This layer ties dice and log together; it will grow players, stages,
//! deadlines and GM actions. It does not speak SMTP or IMAP.

pub mod beacon;
pub mod bids;
pub mod deadlines;
mod dice_turn;
mod game_match;
pub mod history;
pub mod league;
pub mod match_id;
pub mod organise;
pub mod players;
mod replay_memo;

pub use dice_turn::{DiceTurn, DiceTurnError};
pub use game_match::{
    BidReceipt, Match, MatchDeadlines, MatchError, Observer, Player, PlayersFile, Receipt,
    Replayed, Submitted, game_hash, replay_match, replay_verified, stage_of, state_digest,
    state_text_as,
};
pub use match_id::{MatchIdError, check_match_id};
pub use players::{PlayerSecrets, PlayersError, Roster, Seat};
