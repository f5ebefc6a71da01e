//! Reports: what players read. Rendered from the game's data and a state,
//! or from a match log; this layer never changes state. `board` is the
//! plain-text board, `turn` the turn report derived from the log, `help`
//! the guide of the help reply, `templates` the mail templates
//! (`docs/reports.md`).

pub mod archive;
pub mod board;
pub mod help;
pub mod mail;
pub mod map;
pub mod templates;
pub mod turn;
