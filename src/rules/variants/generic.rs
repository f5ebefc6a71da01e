//! Plain data with no special rules: what an imported TripleA map starts as.

use super::{OptionSpec, RuleSetHooks};
use crate::rules::GameDef;
use crate::rules::problem::Problem;

/// The generic rule set: no options, no extra checks.
#[derive(Debug, Clone, Copy)]
pub struct Generic;

impl RuleSetHooks for Generic {
    fn id(&self) -> &'static str {
        "generic"
    }

    fn options(&self) -> &'static [OptionSpec] {
        &[]
    }

    fn check(&self, _game: &GameDef) -> Vec<Problem> {
        Vec::new()
    }
}
