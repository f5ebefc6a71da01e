//! Importers that turn other programs' game files into game definitions.
//!
//! Importers produce [`crate::rules`] types and write them as YAML; they are
//! the only layer that knows a foreign format.

pub mod triplea;
pub mod yaml;
