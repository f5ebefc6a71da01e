//! Match lifecycle. For now: one dice turn, from commitment to recorded dice.
//!
//! This layer ties dice and log together; it will grow players, stages,
//! deadlines and GM actions. It does not speak SMTP or IMAP.

mod dice_turn;

pub use dice_turn::{DiceTurn, DiceTurnError};
