//! The rules engine's foundation: game definitions.
//!
//! A game is data (`games/<id>/*.yaml`, see `docs/games.md`) plus the
//! behaviour of its rule set ([`variants`]). The games of `games/` are also
//! compiled in ([`builtin`]). This module does no I/O except [`load_dir`]
//! and [`builtin::GameSource`], which read a game directory; everything else
//! works on values in memory.

pub mod bid_placement;
pub mod builtin;
pub mod combat;
pub mod conquest;
pub mod entries;
pub mod events;
pub mod game;
pub mod income;
pub mod load;
pub mod model;
pub mod movement;
pub mod names;
pub mod neutrals;
pub mod odds;
pub mod options;
pub mod orders;
pub mod problem;
pub mod production;
pub mod research;
pub mod scenario;
pub mod state;
pub mod state_text;
pub mod turn;
pub mod variants;
pub mod version;
pub mod victory;
pub mod vocab;

pub use game::{GameDef, GameFiles};
pub use load::{GameSources, LoadError, load_dir, load_sources};
pub use problem::{Problem, Problems};
pub use vocab::SpaceId;
