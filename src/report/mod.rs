//! Reports: what players read. Rendered from the game's data and a state;
//! this layer never changes state. Mail templates arrive with the turn
//! reports issue; today it renders the plain-text board.

pub mod board;
