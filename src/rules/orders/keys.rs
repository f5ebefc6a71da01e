//! The words of the orders format: every key and keyword the parser accepts.
//!
//! One list per mapping, used by the parser (to recognise keys and to suggest
//! one for a typo) and checked against the JSON Schema by a test, so that the
//! two cannot drift apart.

/// Header keys: who sends the message and for what. Not orders. `stage`
/// and `entry` go only with `command: history` (which report is asked for).
pub const HEADER: &[&str] = &[
    "match", "power", "round", "secret", "entropy", "command", "stage", "entry",
];

/// Order sections, in the fixed order of the canonical form.
pub const SECTIONS: &[&str] = &[
    "bid",
    "lend_lease",
    "oil_convoy",
    "research",
    "purchase",
    "repair",
    "combat",
    "rockets",
    "industrial_strike",
    "averted",
    "battles",
    "noncombat",
    "take_over",
    "place",
    "standing",
];

/// Recognised but not orders: odds questions, answered by the mail daemon
/// in a message of their own (`docs/odds.md`). Written among orders, it is
/// an error rather than silently ignored.
pub const RESERVED: &[&str] = &["odds"];

/// Every top-level key: header, sections and reserved keys.
pub fn top_level() -> Vec<&'static str> {
    HEADER
        .iter()
        .chain(SECTIONS)
        .chain(RESERVED)
        .copied()
        .collect()
}

/// Keys of a transport's move (`- transport: Baltic Sea`).
pub const TRANSPORT: &[&str] = &["transport", "load", "unload", "drop"];

/// Keys a plain move may carry besides its `UNITS: PATH` entry.
pub const MOVE_EXTRA: &[&str] = &["land", "drop"];

/// Keys of a battle plan.
pub const BATTLE_PLAN: &[&str] = &[
    "retreat",
    "losses",
    "bombing_raid",
    "raiders",
    "submarines",
    "ignore",
    "screen",
    "landing",
    "special_force_teams",
];

/// Keys of a battle plan's `landing:` (J Boulton JB-16): who takes the
/// pooled landing roll's 6s and 1s first.
pub const LANDING: &[&str] = &["surprise", "lost"];

/// The key of `battles` that holds the plan for every battle without its own.
pub const DEFAULT_PLAN: &str = "default";

/// Keys of a retreat written as a mapping: one condition, and optionally `to`.
pub const RETREAT: &[&str] = &[
    "after_round",
    "when_attackers_below",
    "when_odds_below",
    "to",
];

/// The retreat written as a single word.
pub const RETREAT_NEVER: &str = "never";

/// Keys of the research section.
pub const RESEARCH: &[&str] = &["buy", "chart", "developments"];

/// Keys of standing orders.
pub const STANDING: &[&str] = &[
    "losses",
    "keep_one_land_unit",
    "submarines",
    "intercept",
    "bystander_losses",
    "middle_east_payment",
    "neutral_defenders",
    "aversion",
    "averted",
    "special_force_teams",
];

/// Keys of an Aversion standing order written as a mapping (`France:
/// {unit: armor, when: after}`).
pub const AVERSION: &[&str] = &["unit", "when"];

/// Values of an Aversion's `when:` (just before or just after the enemy's
/// combat move).
pub const AVERSION_WHEN: &[&str] = &["before", "after"];

/// Values of `averted:` (J Boulton JB-35: the averted unit's owner's
/// choice).
pub const AVERTED: &[&str] = &["stay", "withdraw"];

/// Keys of a battle plan's `special_force_teams:` (J Boulton).
pub const TEAM_PLAN: &[&str] = &["missions", "disruption"];

/// Keys of the standing orders' `special_force_teams:` (J Boulton).
pub const TEAM_STANDING: &[&str] = &["missions", "evasive", "save", "to", "round"];

/// The special force teams' missions inside a battle (J Boulton JB-27),
/// as `Mission::word` writes them.
pub const MISSIONS: &[&str] = &[
    "disruption",
    "aa_suppression",
    "supply_strike",
    "booby_trap",
    "evasive",
];

/// `missions: none`: the teams try no mission.
pub const NO_MISSION: &str = "none";

/// Values of `special_force_teams: evasive:`.
pub const EVASIONS: &[&str] = &["slip_out", "sacrifice"];

/// Values of `standing: neutral_defenders:`.
pub const NEUTRAL_DEFENDERS: &[&str] = &["receive", "in_turn"];

/// Values of `standing: middle_east_payment:`.
pub const MIDDLE_EAST_PAYMENT: &[&str] = &["first", "richest_first", "last"];

/// Values of `standing: bystander_losses:`.
pub const BYSTANDER_LOSSES: &[&str] = &["last", "allies_choose"];

/// Values of `standing: submarines:`.
pub const SUBMARINE_POLICIES: &[&str] = &["fight", "submerge", "submerge_after_first_round"];

/// Keys of `submarines:` written as a mapping: a withdrawal (Classic,
/// DAAK-C §4.2), `{withdraw_after_round: N, to: ZONE}`.
pub const SUBMARINE_WITHDRAWAL: &[&str] = &["withdraw_after_round", "to"];

/// Values of `command:`.
pub const COMMANDS: &[&str] = &[
    "help",
    "status",
    "resend",
    "standing",
    "odds",
    "rotate",
    "standings",
    "list",
    "history",
];
