//! The orders format as a JSON Schema (`adjutant schema orders`), for
//! editors with a YAML language server.
//!
//! The schema is generated from the raw input types below: the YAML as a
//! player types it, with unit lists and paths as strings (their grammar is
//! given as a `pattern` and a description). These types are not what the
//! parser uses (it walks the YAML by hand to collect every error and resolve
//! names); a test checks that their keys are exactly the parser's lists in
//! [`super::keys`], so the schema and the parser cannot drift apart. Where
//! the parser is more lenient than the schema (keys in any case, a split
//! `{losses: a, b}`), the schema shows the canonical spelling.

use std::borrow::Cow;
use std::collections::BTreeMap;

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;

use super::keys;

/// Unit-list grammar: `3 infantry, 1 artillery, 2 armor`; a bare name is one.
const UNIT_LIST_PATTERN: &str = r"^\s*(\d+\s+)?[^\s,\d][^,]*(,\s*(\d+\s+)?[^\s,\d][^,]*)*,?\s*$";
/// Path grammar: `Poland -> Ukraine S.S.R. -> Rumania`.
const PATH_PATTERN: &str = r"^\s*[^,>]+?(\s*(->|→)\s*[^,>]+?)*\s*$";
/// A move's target: a path, then optionally `, land SPACE` for aircraft
/// and `, rail` for a strategic rail move (Advanced AAE).
const MOVE_TARGET_PATTERN: &str = r"^\s*[^,>]+?(\s*(->|→)\s*[^,>]+?)+\s*(,\s*[Ll][Aa][Nn][Dd]\s+[^,]+)?(,\s*[Rr][Aa][Ii][Ll]\s*)?$";
/// Cargo grammar: `2 infantry from Germany [at Baltic Sea]`.
const LOAD_PATTERN: &str = r"^.+\s[Ff][Rr][Oo][Mm]\s.+$";
/// Air drop grammar: `1 special force team to Morocco`.
const DROP_PATTERN: &str = r"^.+\s[Tt][Oo]\s.+$";
/// Take-over grammar: `2 infantry, 1 fighter of United Kingdom in Moscow`.
const TAKE_OVER_PATTERN: &str = r"^.+\s[Oo][Ff]\s.+\s[Ii][Nn]\s.+$";

/// Rocket grammar: `Germany -> United Kingdom`.
const ROCKET_PATTERN: &str = r"^\s*[^,>]+?\s*(->|→)\s*[^,>]+?\s*$";

/// An orders message as a player writes it (docs/orders.md). Header keys
/// first, then the order sections; every key is optional.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "Adjutant orders message")]
pub struct RawMessage {
    /// The match's id, from the welcome mail (league7-aae-03).
    #[serde(rename = "match")]
    pub match_id: Option<String>,
    /// The power these orders are for (Germany).
    pub power: Option<String>,
    /// The round the orders are for.
    #[schemars(range(min = 1))]
    pub round: Option<u32>,
    /// Your secret from the welcome mail; never echoed back.
    pub secret: Option<Text>,
    /// Optional free text mixed into this turn's dice.
    pub entropy: Option<Text>,
    /// A command instead of (or besides) orders.
    pub command: Option<RawCommand>,
    /// With `command: history`: the stage (1 or 2) of the round asked for.
    #[schemars(range(min = 1, max = 2))]
    pub stage: Option<u8>,
    /// With `command: history`: the log entry whose report is asked for.
    #[schemars(range(min = 1))]
    pub entry: Option<u64>,
    /// Lend-lease (Advanced AAE): IPCs the USA pays Russia at the start of
    /// its turn, 4 per US transport in the Russian convoy zone (8).
    #[schemars(range(min = 1))]
    pub lend_lease: Option<u32>,
    /// Oil convoy (Advanced AAE): IPCs British MidEast ships to Britain, up
    /// to 6; the enemy rolls a die for each (6).
    #[schemars(range(min = 1))]
    pub oil_convoy: Option<u32>,
    /// A sealed bid before round 1 (a match that starts with a bid): the
    /// setup money, in IPCs, you would accept; sent alone.
    #[schemars(range(max = 10000))]
    pub bid: Option<u32>,
    /// Research (Anniversary): researcher tokens to buy and the chart for a
    /// breakthrough.
    pub research: Option<RawResearch>,
    /// Units to buy: 6 infantry, 2 armor.
    pub purchase: Option<RawUnitList>,
    /// Damage to repair on industrial complexes (Anniversary): a territory
    /// to the points repaired (Germany: 3).
    pub repair: Option<BTreeMap<String, u32>>,
    /// Combat moves, one per list entry.
    pub combat: Option<Vec<RawMove>>,
    /// Rocket strikes (Anniversary, Rockets), one per list entry: the
    /// territory of the AA guns, then the target (Germany -> United Kingdom).
    pub rockets: Option<Vec<RawRocket>>,
    /// Industrial Strikes (J Boulton JB-31): a territory to the number of
    /// your special force teams there that strike its industrial complex
    /// (United Kingdom: 2), counting teams dropped alone into it this turn,
    /// which strike if they roll 6 on landing (JB-16).
    pub industrial_strike: Option<BTreeMap<String, u32>>,
    /// J Boulton (JB-35): what your units named by an enemy special force
    /// team's Aversion this turn do, instead of your standing orders' word.
    pub averted: Option<RawAverted>,
    /// Battle plans: a territory or sea zone (or `default`) to its plan.
    pub battles: Option<BTreeMap<String, RawBattlePlan>>,
    /// Non-combat moves, one per list entry.
    pub noncombat: Option<Vec<RawMove>>,
    /// Take-overs of an ally's units (AAE: the Soviet Patriotic War), one per
    /// list entry: `2 infantry, 1 fighter of United Kingdom in Moscow`.
    pub take_over: Option<Vec<RawTakeOver>>,
    /// Placement: a territory or sea zone to the units placed there.
    pub place: Option<BTreeMap<String, RawUnitList>>,
    /// Standing orders: how this power defends.
    pub standing: Option<RawStanding>,
    /// Odds questions (`docs/odds.md`): answered in a message of their
    /// own, so a message with orders and odds is rejected.
    pub odds: Option<serde_json::Value>,
}

/// Free text; a number is accepted and kept exactly as written.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Text {
    /// Text.
    Text(String),
    /// A number, kept as written.
    Number(i64),
}

/// A command.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawCommand {
    /// Explain the orders format.
    Help,
    /// Report the match's state.
    Status,
    /// Send the last report again.
    Resend,
    /// Report this power's standing orders.
    Standing,
    /// Odds of the battles in the message's `odds:` section.
    Odds,
    /// A new secret, mailed to the player's address of record.
    Rotate,
    /// The standings of the leagues the match belongs to.
    Standings,
    /// Your matches, each with its state and deadline.
    List,
    /// An earlier turn report: `round:` (and `stage:`) or `entry:`.
    History,
}

/// `UNITS of POWER in TERRITORY`: an ally's units that this power takes
/// over where they stand (2 infantry, 1 fighter of United Kingdom in
/// Moscow).
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RawTakeOver(#[schemars(regex(pattern = TAKE_OVER_PATTERN))] pub String);

/// `FROM -> TARGET`: the territory whose AA guns launch a rocket and the
/// territory whose industrial complex it strikes.
#[derive(Debug, Deserialize, JsonSchema)]
pub struct RawRocket(#[schemars(regex(pattern = ROCKET_PATTERN))] pub String);

/// A unit list: one string (`3 infantry, 1 artillery`) or a list of them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawUnitList {
    /// `3 infantry, 1 artillery, 2 armor`: counts and unit names (singular,
    /// plural or alias), separated by commas; a bare name means one.
    Text(#[schemars(regex(pattern = UNIT_LIST_PATTERN))] String),
    /// The same as a list: `[3 infantry, 1 artillery]`.
    List(#[schemars(inner(regex(pattern = UNIT_LIST_PATTERN)))] Vec<String>),
}

/// One move: `UNITS: PATH` or a transport's move.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawMove {
    /// A transport's move with its cargo.
    Transport(RawTransport),
    /// `3 infantry, 1 artillery: Poland -> Belorussia`.
    Move(RawPlainMove),
}

/// A transport's move: where it goes, what it loads, where it unloads.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTransport {
    /// The sea zone where the transport is, then each zone it enters:
    /// `Baltic Sea` or `Baltic Sea -> Danish Sea`.
    #[schemars(regex(pattern = PATH_PATTERN))]
    pub transport: String,
    /// Cargo: `2 infantry from Germany`, optionally `at SEA ZONE` (where on
    /// the path it boards); one string or a list.
    pub load: Option<RawLoad>,
    /// The territory the cargo goes ashore in (an amphibious assault when
    /// enemy-held in a combat move), or part of the cargo and where:
    /// `1 infantry to Finland`.
    pub unload: Option<String>,
    /// J Boulton (JB-23): a special force team put ashore on the way, the
    /// transport sailing on: `1 special force team to Norway`; one string or
    /// a list.
    pub drop: Option<RawDrop>,
}

/// Units set down on the way: one `UNITS to TERRITORY` or a list of them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawDrop {
    /// One.
    One(#[schemars(regex(pattern = DROP_PATTERN))] String),
    /// Several.
    Many(#[schemars(inner(regex(pattern = DROP_PATTERN)))] Vec<String>),
}

/// Cargo: one `UNITS from TERRITORY [at SEA ZONE]` or a list of them.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawLoad {
    /// One cargo.
    One(#[schemars(regex(pattern = LOAD_PATTERN))] String),
    /// Several cargoes.
    Many(#[schemars(inner(regex(pattern = LOAD_PATTERN)))] Vec<String>),
}

/// `UNITS: PATH[, land SPACE][, rail]`, optionally with `land: SPACE` and
/// `drop: UNITS to TERRITORY` (one or a list). Its schema is
/// written by hand (a mapping whose one free key is the unit list), from
/// [`keys::MOVE_EXTRA`].
#[derive(Debug, Deserialize)]
pub struct RawPlainMove(pub BTreeMap<String, serde_json::Value>);

impl JsonSchema for RawPlainMove {
    fn schema_name() -> Cow<'static, str> {
        "RawPlainMove".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let drop = "UNITS to TERRITORY: cargo an air transport drops into a territory on its \
                    path in the combat move (J Boulton: 1 special force team to Morocco); one \
                    string or a list. The rest is dropped where the path ends, or carried on \
                    when some drop is named.";
        let extras: serde_json::Map<String, serde_json::Value> = keys::MOVE_EXTRA
            .iter()
            .map(|&k| {
                let schema = if k == "drop" {
                    let one = serde_json::json!({"type": "string", "pattern": DROP_PATTERN});
                    serde_json::json!({
                        "description": drop,
                        "oneOf": [one, {"type": "array", "items": one, "minItems": 1}]
                    })
                } else {
                    let description = "Where the aircraft of a combat move will land: a \
                                       territory or sea zone (a carrier's).";
                    serde_json::json!({"type": "string", "description": description})
                };
                (k.to_owned(), schema)
            })
            .collect();
        json_schema!({
            "type": "object",
            "description": "A move: UNITS: PATH, such as `3 infantry, 1 artillery: Poland -> \
                            Belorussia`; aircraft may add `, land SPACE`; a strategic rail \
                            move (Advanced AAE, non-combat move) adds `, rail`.",
            "minProperties": 1,
            "maxProperties": 1 + keys::MOVE_EXTRA.len(),
            "properties": extras,
            "propertyNames": {"pattern": UNIT_LIST_PATTERN},
            "additionalProperties": {
                "type": "string",
                "pattern": MOVE_TARGET_PATTERN,
                "description": "The path: where the units are, then each space entered \
                                (`Poland -> Ukraine S.S.R. -> Rumania`), optionally followed \
                                by `, land SPACE` and by `, rail`."
            }
        })
    }
}

/// The attacker's plan for one battle.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawBattlePlan {
    /// When to retreat: `never` (the default), `{after_round: N}`,
    /// `{when_attackers_below: N}` or `{when_odds_below: P}`, each with an
    /// optional `to: SPACE`.
    pub retreat: Option<RawRetreat>,
    /// Order of loss: unit types, first taken first (`infantry, artillery,
    /// armor`). Inside `{...}` write it as a list: `[infantry, armor]`.
    pub losses: Option<RawTypeList>,
    /// The bombers arriving here make a strategic bombing raid on the
    /// industrial complex instead of fighting (declared on arrival).
    pub bombing_raid: Option<bool>,
    /// The units that make the raid when others attack the same territory
    /// in the same turn (`2 bomber, 1 fighter`; inside `{...}` write a list);
    /// the rest fight the battle there. Naming them declares the raid.
    pub raiders: Option<RawUnitList>,
    /// `true`: your units ending their combat move in this sea zone ignore
    /// the enemy submarines and transports there instead of attacking them
    /// (where the game's rules allow it, and only when no enemy surface
    /// warship is there).
    pub ignore: Option<bool>,
    /// What the attacking submarines do; `submerge` before the first round
    /// is substalling; in Classic, `{withdraw_after_round: N, to: ZONE}`.
    pub submarines: Option<RawSubmarinePolicy>,
    /// Advanced AAE (AAAE-48): how many of your attacking submarines in this
    /// sea zone try to get through the escort screen at the defenders'
    /// capital ships before the battle.
    pub screen: Option<u32>,
    /// J Boulton (JB-16): how you allot the defender's landing roll to the
    /// units you drop here: who takes the 6s (surprise) first and who the 1s
    /// (lost); unit types, first listed first.
    pub landing: Option<RawLanding>,
    /// J Boulton: the missions your special force teams in this battle try
    /// (JB-27..32).
    pub special_force_teams: Option<RawTeamPlan>,
}

/// The attacker's allotment of the landing roll (J Boulton JB-16).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawLanding {
    /// Who takes the 6s first (`[paratrooper]`); types not listed after.
    pub surprise: Option<RawTypeList>,
    /// Among the rest, who takes the 1s first (`[special force team]`).
    pub lost: Option<RawTypeList>,
}

/// J Boulton: the attacker's orders for its special force teams in a battle.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTeamPlan {
    /// The missions wanted, most wanted first (`[aa_suppression,
    /// disruption]`): each team carries out the first its mission roll
    /// allows and that has something to act on, else calls it off and
    /// stays (JB-28); `none`: no team tries. Default: disruption.
    pub missions: Option<RawMissions>,
    /// The unit types a Disruption names, first first (`armor, artillery`);
    /// default: the strongest attacking unit not yet named.
    pub disruption: Option<RawTypeList>,
}

/// J Boulton: a power's standing orders for its defending special force
/// teams.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawTeamStanding {
    /// The missions wanted, most wanted first (`[evasive, booby_trap]`);
    /// `none`: no team tries. Default: booby_trap.
    pub missions: Option<RawMissions>,
    /// What an Evasive mission does: `slip_out` (the default) or
    /// `sacrifice`.
    pub evasive: Option<RawEvasion>,
    /// For `evasive: sacrifice`, the unit types to save, first first
    /// (default: the land unit of highest defence).
    pub save: Option<RawTypeList>,
    /// Where an Evasive mission goes, first first: adjacent friendly land
    /// territories (default: the first in board order).
    pub to: Option<RawTypeList>,
    /// The battle round at whose start Evasive is carried out (default 1).
    #[schemars(range(min = 1))]
    pub round: Option<u32>,
}

/// Missions, most wanted first: a list, or one string (`aa_suppression,
/// disruption`, or `none`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawMissions {
    /// `[aa_suppression, disruption]`.
    List(Vec<RawMission>),
    /// `aa_suppression, disruption`, or `none`.
    Text(String),
}

/// A special force team's mission inside a battle (J Boulton JB-27), or
/// `none`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawMission {
    /// Attacking, any roll: one unit strikes first (JB-29).
    Disruption,
    /// Attacking, 1-3: the AA guns do not fire (JB-30).
    AaSuppression,
    /// Attacking, 1: the defenders defend at half (JB-32).
    SupplyStrike,
    /// Defending, any roll: one attacker holds its fire in round 1 (JB-33).
    BoobyTrap,
    /// Defending, 1-2: slip out, or save a unit (JB-34).
    Evasive,
    /// No mission.
    None,
}

/// What an Evasive mission does (JB-34).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawEvasion {
    /// The team leaves the battle.
    SlipOut,
    /// The team is removed and one of your land units leaves instead.
    Sacrifice,
}

/// When to retreat.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawRetreat {
    /// `never`.
    Never(RawNever),
    /// `{after_round: N, to: SPACE}`.
    AfterRound(RawAfterRound),
    /// `{when_attackers_below: N, to: SPACE}`.
    WhenAttackersBelow(RawWhenAttackersBelow),
    /// `{when_odds_below: P, to: SPACE}`.
    WhenOddsBelow(RawWhenOddsBelow),
}

/// Fight until one side is gone.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawNever {
    /// Never retreat.
    Never,
}

/// Retreat after round N if the battle goes on.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAfterRound {
    /// The last round to fight.
    #[schemars(range(min = 1))]
    pub after_round: u32,
    /// Where to retreat (a space the attackers came from).
    pub to: Option<String>,
}

/// Retreat at the end of a round that leaves fewer attackers than N.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWhenAttackersBelow {
    /// The threshold.
    #[schemars(range(min = 1))]
    pub when_attackers_below: u32,
    /// Where to retreat (a space the attackers came from).
    pub to: Option<String>,
}

/// Retreat at the end of a round when the chance of winning by fighting on
/// is below P (computed exactly, `docs/odds.md`).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawWhenOddsBelow {
    /// The probability, above 0 and at most 1 (0.3 for 30%).
    #[schemars(range(max = 1))]
    pub when_odds_below: f64,
    /// Where to retreat (a space the attackers came from).
    pub to: Option<String>,
}

/// Unit types without counts: `infantry, artillery, armor` or a list.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawTypeList {
    /// `infantry, artillery, armor`.
    Text(String),
    /// `[infantry, artillery, armor]`.
    List(Vec<String>),
}

/// Research and development: `{buy: 2, chart: air and naval}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawResearch {
    /// Researcher tokens to buy this turn (0 or absent: roll only those held).
    pub buy: Option<u32>,
    /// The breakthrough chart to roll on if a researcher die shows 6: its
    /// name (land and production, air and naval) or number (1, 2).
    pub chart: Option<Text>,
    /// Classic with `weapons_development_selection: choice`: the
    /// developments wanted, most wanted first (jet power, heavy bombers).
    pub developments: Option<RawTypeList>,
}

/// Standing orders.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawStanding {
    /// Order of loss when defending.
    pub losses: Option<RawTypeList>,
    /// Keep one land unit as long as possible, so that a territory is not
    /// lost to aircraft alone.
    pub keep_one_land_unit: Option<bool>,
    /// What defending submarines do (in Classic, `{withdraw_after_round:
    /// N, to: ZONE}`).
    pub submarines: Option<RawSubmarinePolicy>,
    /// How many fighters at most intercept a strategic bombing raid on one
    /// territory, under Anniversary's optional rule (default: all).
    pub intercept: Option<u32>,
    /// How this power's ships standing by in an ally's sea battle take
    /// hits: `last` (after the ally's units, the default) or
    /// `allies_choose` (the attacking ally's battle plan `losses` may name
    /// them first). AAE only.
    pub bystander_losses: Option<RawBystanderLosses>,
    /// When this power pays its share of the Middle East payment among the
    /// Allies (AAE, option `middle_east_payer: allies_choose`): `first`,
    /// `richest_first` (the default) or `last`.
    pub middle_east_payment: Option<RawMiddleEastPayment>,
    /// Advanced AAE: whether this power asks to receive the neutral
    /// defenders its side gains when the enemy violates a neutral:
    /// `receive`, or `in_turn` (the default: the first power of the side in
    /// turn order after the violator).
    pub neutral_defenders: Option<RawNeutralDefenders>,
    /// J Boulton (JB-35): where your special force teams carry out
    /// Aversion in the enemy's turn, a territory to the enemy unit type
    /// they name (France: armor), or to `{unit: armor, when: after}`.
    pub aversion: Option<BTreeMap<String, RawAversion>>,
    /// J Boulton (JB-35): what your units named by an enemy team's
    /// Aversion do: `stay` (the default) or `withdraw`.
    pub averted: Option<RawAverted>,
    /// J Boulton: the missions of your defending special force teams
    /// (JB-27, JB-33, JB-34).
    pub special_force_teams: Option<RawTeamStanding>,
}

/// An Aversion standing order: the enemy unit type named, or a mapping
/// with when the teams act.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawAversion {
    /// The unit type; the teams act just before the enemy's combat move.
    Unit(String),
    /// The unit type and when.
    Full(RawAversionFull),
}

/// `{unit: armor, when: after}`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawAversionFull {
    /// The enemy unit type the teams name.
    pub unit: String,
    /// Just before (the default) or just after the enemy's combat move.
    pub when: Option<RawAversionWhen>,
}

/// Values of an Aversion's `when:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawAversionWhen {
    /// Just before the enemy's combat move.
    Before,
    /// Just after it.
    After,
}

/// Values of `averted:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawAverted {
    /// It stays and rolls in no combat this turn.
    Stay,
    /// It pulls back into an adjacent friendly land territory nearer its
    /// capital.
    Withdraw,
}

/// Values of `standing: neutral_defenders:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawNeutralDefenders {
    /// Receives them before the powers of its side that did not ask.
    Receive,
    /// Receives them by its place in turn order.
    InTurn,
}

/// Values of `standing: middle_east_payment:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawMiddleEastPayment {
    /// Pays before the Allies that did not ask to.
    First,
    /// The Allies pay in the order of their treasuries.
    RichestFirst,
    /// Pays only what the other Allies cannot.
    Last,
}

/// Values of `standing: bystander_losses:`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawBystanderLosses {
    /// Lost only to hits the ally's own units cannot take.
    Last,
    /// The attacking ally's battle plan may name them first.
    AlliesChoose,
}

/// What submarines do when they may submerge (defending: standing orders;
/// attacking: a battle plan).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RawSubmarines {
    /// Stay and fight.
    Fight,
    /// Submerge at the first chance.
    Submerge,
    /// Fight one round, then submerge.
    SubmergeAfterFirstRound,
}

/// What submarines do: a word, or a withdrawal (Classic).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum RawSubmarinePolicy {
    /// A word: fight, submerge, submerge_after_first_round.
    Word(RawSubmarines),
    /// Withdraw to another sea zone (Classic, DAAK-C §4.2).
    Withdraw(RawSubmarineWithdrawal),
}

/// Every submarine of the side still in the battle withdraws at the end
/// of a round (Classic, DAAK-C §4.2).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RawSubmarineWithdrawal {
    /// The round after which they withdraw (from 1).
    pub withdraw_after_round: u32,
    /// The sea zone wanted; left out, the first one they may go to.
    pub to: Option<String>,
}

/// The JSON Schema of an orders message.
pub fn orders_schema() -> serde_json::Value {
    let mut schema = schemars::schema_for!(RawMessage);
    schema.insert(
        "description".to_owned(),
        "Orders for Adjutant, the play-by-email Axis & Allies adjudicator (docs/orders.md). \
         Names of territories, sea zones, powers and units are checked by the server against \
         the match's game."
            .into(),
    );
    schema.to_value()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    /// The property names of the object schema at `pointer` (following one
    /// `$ref`), sorted.
    fn properties(schema: &Value, pointer: &str) -> Vec<String> {
        let mut node = schema.pointer(pointer).expect(pointer);
        if let Some(r) = node.get("$ref").and_then(Value::as_str) {
            node = schema.pointer(&r[1..]).expect(r);
        }
        let mut keys: Vec<String> = node["properties"]
            .as_object()
            .expect("an object schema")
            .keys()
            .cloned()
            .collect();
        keys.sort();
        keys
    }

    fn sorted(words: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = words.iter().map(|s| (*s).to_owned()).collect();
        v.sort();
        v
    }

    fn enum_values(schema: &Value, def: &str) -> Vec<String> {
        let node = &schema["$defs"][def];
        let mut values: Vec<String> = node["oneOf"]
            .as_array()
            .map(|alts| {
                alts.iter()
                    .flat_map(|a| {
                        a.get("const").into_iter().chain(
                            a.get("enum")
                                .into_iter()
                                .flat_map(|e| e.as_array().unwrap()),
                        )
                    })
                    .map(|v| v.as_str().unwrap().to_owned())
                    .collect()
            })
            .or_else(|| {
                node["enum"]
                    .as_array()
                    .map(|e| e.iter().map(|v| v.as_str().unwrap().to_owned()).collect())
            })
            .unwrap_or_default();
        values.sort();
        values
    }

    #[test]
    fn schema_keys_are_the_parsers_keys() {
        let schema = orders_schema();
        assert_eq!(properties(&schema, ""), sorted(&keys::top_level()));
        assert_eq!(
            properties(&schema, "/$defs/RawTransport"),
            sorted(keys::TRANSPORT)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawBattlePlan"),
            sorted(keys::BATTLE_PLAN)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawStanding"),
            sorted(keys::STANDING)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawResearch"),
            sorted(keys::RESEARCH)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawPlainMove"),
            sorted(keys::MOVE_EXTRA)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawLanding"),
            sorted(keys::LANDING)
        );
        let mut retreat = properties(&schema, "/$defs/RawAfterRound");
        retreat.extend(properties(&schema, "/$defs/RawWhenAttackersBelow"));
        retreat.extend(properties(&schema, "/$defs/RawWhenOddsBelow"));
        retreat.sort();
        retreat.dedup();
        assert_eq!(retreat, sorted(keys::RETREAT));
        assert_eq!(enum_values(&schema, "RawCommand"), sorted(keys::COMMANDS));
        assert_eq!(
            enum_values(&schema, "RawSubmarines"),
            sorted(keys::SUBMARINE_POLICIES)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawSubmarineWithdrawal"),
            sorted(keys::SUBMARINE_WITHDRAWAL)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawAversionFull"),
            sorted(keys::AVERSION)
        );
        assert_eq!(
            enum_values(&schema, "RawAversionWhen"),
            sorted(keys::AVERSION_WHEN)
        );
        assert_eq!(enum_values(&schema, "RawAverted"), sorted(keys::AVERTED));
        assert_eq!(
            enum_values(&schema, "RawNever"),
            sorted(&[keys::RETREAT_NEVER])
        );
        assert_eq!(
            properties(&schema, "/$defs/RawTeamPlan"),
            sorted(keys::TEAM_PLAN)
        );
        assert_eq!(
            properties(&schema, "/$defs/RawTeamStanding"),
            sorted(keys::TEAM_STANDING)
        );
        let mut missions = keys::MISSIONS.to_vec();
        missions.push(keys::NO_MISSION);
        assert_eq!(enum_values(&schema, "RawMission"), sorted(&missions));
        assert_eq!(enum_values(&schema, "RawEvasion"), sorted(keys::EVASIONS));
    }

    #[test]
    fn objects_refuse_unknown_keys() {
        let schema = orders_schema();
        assert_eq!(schema["additionalProperties"], Value::Bool(false));
        for def in [
            "RawTransport",
            "RawBattlePlan",
            "RawLanding",
            "RawStanding",
            "RawResearch",
            "RawAfterRound",
            "RawSubmarineWithdrawal",
            "RawAversionFull",
            "RawTeamPlan",
            "RawTeamStanding",
        ] {
            assert_eq!(
                schema["$defs"][def]["additionalProperties"],
                Value::Bool(false),
                "{def}"
            );
        }
    }
}
