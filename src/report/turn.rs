//! The turn report, derived from the match log alone: the adjudication
//! entry's events, the dice of its message, the board replayed to that
//! entry, and the trust block. The same entry always gives the same report,
//! so `adjutant report` re-renders exactly what the daemon mailed.

use std::path::Path;

use serde::Serialize;

use crate::log::DeadlineEvent;
use crate::log::{Body, Entry};
use crate::matches::MatchError;
use crate::matches::deadlines::format_due;
use crate::matches::history::{game_of, read_log, state_at};
use crate::rules::GameDef;
use crate::rules::income::income;
use crate::rules::state::GameState;

use super::board::{self, BoardRow};

/// How a reader checks a report's history and dice.
pub const VERIFY_HINT: &str = "Check this history and every die with `adjutant verify log.jsonl --head HEAD` or `python3 tools/verify_dice.py log.jsonl`.";

/// Everything a turn report shows (the templates' context; `docs/reports.md`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TurnReport {
    /// The match id.
    pub match_id: String,
    /// The game's id.
    pub game_id: String,
    /// The game's name.
    pub game: String,
    /// The round played.
    pub round: u32,
    /// The stage played: 1, 2, or 0 for standing orders (as the log
    /// records it: 1 also when stage 2 came in the same message).
    pub stage: u8,
    /// What the message played, in words: `stage 1`, `stage 2`, `stages 1
    /// and 2` (stage 2 sent with stage 1 and applied) or `standing orders`.
    pub stages: String,
    /// The power whose message it was.
    pub power: String,
    /// The power to move next.
    pub next_power: String,
    /// What the power to move next must send.
    pub next_stage: String,
    /// What happened, in order, in the game's words (dice, labels, hits and
    /// casualties with what chose them included).
    pub events: Vec<String>,
    /// What happened, short (the plain-text part): `events` without the
    /// dice and casualty lines, each battle summed up in one line with its
    /// result and every side's losses.
    pub summary: Vec<String>,
    /// What changed from the position before the message: every space that
    /// changed hands and every treasury that moved.
    pub changes: Vec<String>,
    /// The board after the turn.
    pub board: Vec<BoardRow>,
    /// Each power's treasury after the turn, in turn order.
    pub ipcs: Vec<Treasury>,
    /// Each researching power's developments and researcher tokens, in turn
    /// order; empty when the game plays no research.
    pub research: Vec<ResearchRow>,
    /// The side that has won, once one has.
    pub winner: Option<String>,
    /// The victory conditions being held, and what each still needs.
    pub victory: Vec<String>,
    /// The deadline of the stage now waited for, when the match has one
    /// (from its `set` entry in the log).
    pub deadline: Option<DueView>,
    /// For the power to move next: an orders message to fill in (the
    /// header, then the sections of its stage as comments).
    pub skeleton: String,
    /// The audit trail.
    pub trust: Trust,
    /// The Content-ID of the map this mail carries (`src/report/map/`),
    /// which the HTML shows as `cid:`; none for a mail without it.
    pub map: Option<String>,
}

/// One power's IPCs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Treasury {
    /// The power.
    pub power: String,
    /// Its IPCs.
    pub ipcs: u32,
    /// What it would collect at the end of its turn as the board stands.
    pub income: u32,
    /// How many units its industrial complexes can place: `no limit (2
    /// complexes)`, `3 units (1 complex)`, `none`.
    pub capacity: String,
}

/// One power's research: what it has gained and what it holds.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ResearchRow {
    /// The power.
    pub power: String,
    /// Its developments, in the rulebook's words (`jet fighters`).
    pub developments: Vec<String>,
    /// Its researcher tokens.
    pub tokens: u32,
}

/// The research rows of a game that plays research: every power that
/// collects IPCs (China cannot research), in turn order.
fn research_rows(game: &GameDef, state: &GameState) -> Vec<ResearchRow> {
    if game.research().is_none() {
        return Vec::new();
    }
    game.turn_order()
        .into_iter()
        .filter(|&p| game.powers()[p].collects_income)
        .map(|p| ResearchRow {
            power: game.powers()[p].name.clone(),
            developments: state.technologies[p]
                .iter()
                .map(|t| t.name().to_owned())
                .collect(),
            tokens: state.research_tokens[p],
        })
        .collect()
}

/// A deadline as one reader sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DueView {
    /// The deadline (RFC 3339, UTC), as logged.
    pub at: String,
    /// In UTC: `2026-11-24 10:00 UTC`.
    pub utc: String,
    /// In the reader's time zone, when one is set.
    pub local: Option<String>,
}

impl TurnReport {
    /// The report for a mail that carries the map as image `content_id`.
    pub fn with_map(mut self, content_id: &str) -> TurnReport {
        self.map = Some(content_id.to_owned());
        self
    }

    /// The report as a reader in time zone `zone` sees it (the deadline in
    /// their zone too).
    pub fn for_reader(mut self, zone: Option<&str>) -> TurnReport {
        if let Some(d) = self.deadline.as_mut()
            && let Ok(at) = chrono::DateTime::parse_from_rfc3339(&d.at)
        {
            let (utc, local) = format_due(at.with_timezone(&chrono::Utc), zone);
            d.utc = utc;
            d.local = local;
        }
        self
    }
}

/// The trust block: what lets a reader check the dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trust {
    /// The dice turn.
    pub turn: u32,
    /// Its commitment (hex).
    pub commitment: String,
    /// Its secret, once revealed at or before this entry (hex).
    pub secret: Option<String>,
    /// The beacon round that joined the turn key, for a match with a
    /// beacon: `round R of NETWORK`, and its randomness (hex).
    pub beacon: Option<BeaconView>,
    /// The order digests that fed (or, before the reveal, will feed) the
    /// turn key, in the order the key takes them.
    pub digests: Vec<FedDigest>,
    /// The dice drawn for this message, in the order drawn.
    pub dice: Vec<DiceGroup>,
    /// The next dice turn's commitment, when it was opened right after.
    pub next_commitment: Option<String>,
    /// The adjudication entry's sequence number.
    pub seq: u64,
    /// Its hash: the log head as of this report.
    pub head: String,
    /// One line on how to verify.
    pub verify: String,
}

/// A beacon round as a report shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct BeaconView {
    /// The network's name.
    pub network: String,
    /// The round.
    pub round: u64,
    /// Its randomness, SHA-256 of its signature (hex).
    pub randomness: String,
}

/// One order digest of the turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FedDigest {
    /// Whose orders.
    pub power: String,
    /// The log entry.
    pub seq: u64,
    /// The digest (hex).
    pub digest: String,
}

/// One label's dice.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DiceGroup {
    /// The label.
    pub label: String,
    /// Faces per die.
    pub sides: u32,
    /// The values.
    pub values: Vec<u32>,
}

/// What one accepted message played, in words: `standing orders`, `stage
/// 1`, `stage 2`, or `stages 1 and 2` when stage 2 came with stage 1 and the
/// power's turn ended with it (the log records such a message as stage 1).
pub fn stages_played(stage: u8, turn_ended: bool) -> String {
    match (stage, turn_ended) {
        (0, _) => "standing orders".into(),
        (1, true) => "stages 1 and 2".into(),
        (s, _) => format!("stage {s}"),
    }
}

/// The report of adjudication entry `seq` of the match in `dir`.
pub fn turn_report(dir: &Path, seq: u64) -> Result<TurnReport, MatchError> {
    let entries = read_log(dir)?;
    let genesis = match entries.first().map(|e| &e.body) {
        Some(Body::Genesis(g)) => g.clone(),
        _ => return Err(MatchError::Invalid("the log has no genesis".into())),
    };
    let game = game_of(dir, &genesis)?;
    turn_report_from(&game, &entries, seq)
}

/// The report of adjudication entry `seq`, from the log's entries.
pub fn turn_report_from(
    game: &GameDef,
    entries: &[Entry],
    seq: u64,
) -> Result<TurnReport, MatchError> {
    let not = |why: &str| MatchError::Invalid(format!("entry {seq} {why}"));
    let entry = seq
        .checked_sub(1)
        .and_then(|i| entries.get(i as usize))
        .ok_or_else(|| not("is not in the log"))?;
    let Body::Adjudication(a) = &entry.body else {
        return Err(not("is not an adjudication (see `adjutant log show`)"));
    };
    let (match_id, format) = match &entries[0].body {
        Body::Genesis(g) => (g.match_id.clone(), g.format.clone()),
        _ => return Err(MatchError::Invalid("the log has no genesis".into())),
    };
    let before = &entries[..(seq - 1) as usize];
    // The position before the message: after the previous adjudication
    // (replayed first, so the replay of `seq` continues from it).
    let previous = match before
        .iter()
        .rev()
        .find(|e| matches!(e.body, Body::Adjudication(_)))
    {
        Some(p) => state_at(game, entries, p.seq)?,
        None => GameState::initial(game),
    };
    let state = state_at(game, entries, seq)?;
    let turn = a.turn;
    let commitment = before.iter().find_map(|e| match &e.body {
        Body::TurnOpen(t) if t.turn == turn => Some(t.commitment.to_string()),
        _ => None,
    });
    let reveal = before.iter().find_map(|e| match &e.body {
        Body::Reveal(r) if r.turn == turn => Some((e.seq, r.secret.to_hex())),
        _ => None,
    });
    let fed_until = reveal.as_ref().map_or(seq, |(s, _)| *s);
    let beacon = before
        .iter()
        .find_map(|e| match (&e.body, &entries[0].body) {
            (Body::Reveal(r), Body::Genesis(g)) if r.turn == turn => {
                let (net, b) = (g.beacon.as_ref()?, r.beacon.as_ref()?);
                Some(BeaconView {
                    network: net.name.clone(),
                    round: b.round,
                    randomness: b.randomness().ok()?.to_hex(),
                })
            }
            _ => None,
        });
    let digests = before
        .iter()
        .filter(|e| e.seq < fed_until)
        .filter_map(|e| match &e.body {
            Body::Order(o) if o.turn == turn => Some(FedDigest {
                power: o.power.clone(),
                seq: e.seq,
                digest: o.digest.to_string(),
            }),
            _ => None,
        })
        .collect();
    // In the order the turn key takes them (sorted, but for format 1 logs),
    // so a reader can recompute the key from the list as shown.
    let mut digests: Vec<FedDigest> = digests;
    if format != crate::log::LOG_FORMAT_V1 {
        digests.sort_by(|a, b| a.digest.cmp(&b.digest));
    }
    let own_order = before
        .iter()
        .rposition(|e| matches!(e.body, Body::Order(_)))
        .unwrap_or(0);
    let dice = before[own_order..]
        .iter()
        .filter_map(|e| match &e.body {
            Body::Dice(d) => Some(d.rolls.iter().map(|g| DiceGroup {
                label: g.label.to_string(),
                sides: g.sides,
                values: g.values.clone(),
            })),
            _ => None,
        })
        .flatten()
        .collect();
    let next_commitment = entries.get(seq as usize).and_then(|e| match &e.body {
        Body::TurnOpen(t) => Some(t.commitment.to_string()),
        _ => None,
    });
    let head = entry.hash.to_hex();
    let next_power = game.powers()[state.current_power(game)].name.clone();
    let research = match game.research().and_then(|r| r.charts.first()) {
        Some(chart) => format!("# research: {{buy: 1, chart: {}}}\n", chart.name),
        None => String::new(),
    };
    let sections = if state.phase == crate::rules::state::Phase::Purchase {
        format!(
            "{research}# purchase: 3 infantry, 1 armor\n# combat:\n#   - 2 infantry: FROM -> TO\n# battles:\n#   default: {{retreat: never}}\n"
        )
    } else {
        "# noncombat:\n#   - 1 armor: FROM -> TO\n# place:\n#   TERRITORY: 3 infantry\n".to_owned()
    };
    let skeleton = format!(
        "match: {match_id}\npower: {next_power}\nround: {}\nsecret: YOUR-SECRET\n{sections}",
        state.round
    );
    Ok(TurnReport {
        match_id,
        game_id: game.id().to_owned(),
        game: game.files().game.name.clone(),
        round: a.round,
        stage: a.stage,
        // A stage-1 message whose turn ended carried stage 2 as well.
        // A stage 1 that hands an interleaved shared turn over (KQ-1) leaves
        // a partner's stage 1 next too, but the power's stage 2 is to come.
        stages: stages_played(
            a.stage,
            state.phase == crate::rules::state::Phase::Purchase && state.shared_turn.is_none(),
        ),
        power: a.power.clone(),
        next_power,
        next_stage: state.phase.stage_name().to_owned(),
        events: a.events.clone(),
        summary: summarise(game, &a.events),
        changes: changes(game, &previous, &state),
        board: board::rows(game, &state),
        ipcs: game
            .turn_order()
            .into_iter()
            .map(|p| Treasury {
                power: game.powers()[p].name.clone(),
                ipcs: state.ipcs[p],
                income: income(game, &state, p).total(),
                capacity: capacity(game, &state, p),
            })
            .collect(),
        research: research_rows(game, &state),
        winner: state
            .winner
            .map(|w| game.files().game.sides[w].name.clone()),
        victory: victory_status(game, &state),
        deadline: deadline_after(entries, seq),
        skeleton,
        trust: Trust {
            turn,
            commitment: commitment.unwrap_or_default(),
            secret: reveal.map(|(_, s)| s),
            beacon,
            digests,
            dice,
            next_commitment,
            seq,
            head: head.clone(),
            verify: VERIFY_HINT.replace("HEAD", &head),
        },
        map: None,
    })
}

/// The space whose name `text` starts with (the longest such name, so
/// "Sea Zone 1" never wins over "Sea Zone 12").
pub(crate) fn space_prefix<'a>(game: &'a GameDef, text: &str) -> Option<&'a str> {
    (0..game.space_count())
        .map(|s| game.space_name(crate::rules::SpaceId(s)))
        .filter(|n| text.starts_with(n))
        .max_by_key(|n| n.len())
}

/// One battle's losses, in the order first seen: (power, [(unit, count)]).
type Losses = Vec<(String, Vec<(String, u32)>)>;

fn add_loss(losses: &mut Losses, power: &str, unit: &str) {
    let i = match losses.iter().position(|(p, _)| p == power) {
        Some(i) => i,
        None => {
            losses.push((power.to_owned(), Vec::new()));
            losses.len() - 1
        }
    };
    let units = &mut losses[i].1;
    match units.iter_mut().find(|(u, _)| u == unit) {
        Some((_, n)) => *n += 1,
        None => units.push((unit.to_owned(), 1)),
    }
}

fn losses_text(losses: &Losses) -> String {
    if losses.is_empty() {
        return "no losses".to_owned();
    }
    let sides: Vec<String> = losses
        .iter()
        .map(|(p, units)| {
            let list: Vec<String> = units.iter().map(|(u, n)| format!("{n} {u}")).collect();
            format!("{p} lost {}", list.join(", "))
        })
        .collect();
    sides.join("; ")
}

/// What happened, short: the adjudication's event lines (as the log records
/// them, `Event::describe`) without the lines of a battle's dice, decisions
/// and single casualties; each battle becomes one line, `Battle in SPACE
/// (N round(s)): RESULT; POWER lost 2 infantry; ...` (and its `battle
/// pending` line goes). Purchases, moves,
/// retreats, captures, placements, income and special rules stay as they
/// are. Every die stays in the full list (`events`, the HTML part).
pub fn summarise(game: &GameDef, events: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut open: Vec<(String, Losses)> = Vec::new();
    // A battle fought in the same message needs no "pending" line.
    let fought: Vec<&str> = events
        .iter()
        .filter_map(|e| e.strip_prefix("battle in "))
        .filter_map(|rest| space_prefix(game, rest))
        .collect();
    for e in events {
        if let Some(rest) = e.strip_prefix("battle pending in ")
            && space_prefix(game, rest).is_some_and(|s| fought.contains(&s))
        {
            continue;
        }
        if let Some(rest) = e.strip_prefix("battle in ")
            && let Some(space) = space_prefix(game, rest)
            && let Some(tail) = rest[space.len()..].strip_prefix(" over after ")
        {
            let (rounds, result) = tail.split_once(": ").unwrap_or((tail, ""));
            let losses = open
                .iter()
                .position(|(s, _)| s == space)
                .map(|i| open.remove(i).1)
                .unwrap_or_default();
            out.push(format!(
                "Battle in {space} ({rounds}): {result}; {}",
                losses_text(&losses)
            ));
            continue;
        }
        if let Some(space) = space_prefix(game, e)
            && let Some(rest) = e[space.len()..].strip_prefix(": ")
        {
            if rest.contains(" retreated ") {
                out.push(e.clone());
                continue;
            }
            // `POWER UNIT lost (why)`: counted for the battle's line.
            let casualty = rest.split_once(" lost (").and_then(|(who, _)| {
                (0..game.powers().len())
                    .map(|p| game.powers()[p].name.as_str())
                    .filter(|p| who.starts_with(&format!("{p} ")))
                    .max_by_key(|p| p.len())
                    .map(|p| (p, &who[p.len() + 1..]))
            });
            if let Some((power, unit)) = casualty {
                let i = match open.iter().position(|(s, _)| s == space) {
                    Some(i) => i,
                    None => {
                        open.push((space.to_owned(), Vec::new()));
                        open.len() - 1
                    }
                };
                add_loss(&mut open[i].1, power, unit);
            }
            // Dice, decisions and damage: in the full list only.
            continue;
        }
        out.push(e.clone());
    }
    // Losses outside a fought battle (AA fire at aircraft flying over).
    for (space, losses) in open {
        out.push(format!("{space}: {}", losses_text(&losses)));
    }
    out
}

/// What a message changed, from the position before it to the one after:
/// `SPACE: from OLD to NEW` for every space that changed hands, then
/// `POWER: A -> B IPCs` for every treasury that moved, in turn order.
pub fn changes(game: &GameDef, before: &GameState, after: &GameState) -> Vec<String> {
    let holder = |o: Option<crate::rules::vocab::PowerId>, s: usize| match o {
        Some(p) => game.powers()[p].name.clone(),
        None if game.territory(crate::rules::SpaceId(s)).is_some() => "neutral".to_owned(),
        None => "nobody".to_owned(),
    };
    let mut out = Vec::new();
    for s in 0..game.space_count() {
        if before.owner[s] != after.owner[s] {
            out.push(format!(
                "{}: from {} to {}",
                game.space_name(crate::rules::SpaceId(s)),
                holder(before.owner[s], s),
                holder(after.owner[s], s)
            ));
        }
    }
    for p in game.turn_order() {
        if before.ipcs[p] != after.ipcs[p] {
            out.push(format!(
                "{}: {} -> {} IPCs",
                game.powers()[p].name,
                before.ipcs[p],
                after.ipcs[p]
            ));
        }
    }
    out
}

/// The `set` deadline of the stage that follows adjudication `seq`: the
/// first one logged after it and before the next stage's adjudication.
fn deadline_after(entries: &[Entry], seq: u64) -> Option<DueView> {
    for e in entries.iter().skip(seq as usize) {
        match &e.body {
            Body::Adjudication(a) if a.stage != 0 => return None,
            Body::Deadline(d) if d.event == DeadlineEvent::Set => {
                let at = chrono::DateTime::parse_from_rfc3339(&d.due).ok()?;
                let (utc, local) = format_due(at.with_timezone(&chrono::Utc), None);
                return Some(DueView {
                    at: d.due.clone(),
                    utc,
                    local,
                });
            }
            _ => {}
        }
    }
    None
}

/// A power's production capacity in words, as its rule set counts it (so
/// an Anniversary complex's damage lowers it).
fn capacity(game: &GameDef, state: &GameState, power: usize) -> String {
    let complexes = crate::rules::production::sites(game, state, power);
    if complexes.is_empty() {
        return "none".into();
    }
    let n = complexes.len();
    // A power that places without complexes (Anniversary's China).
    if game.rule_set().placement_rule(game, power).is_some() {
        return format!(
            "by its own rule ({n} territor{})",
            if n == 1 { "y" } else { "ies" }
        );
    }
    let noun = if n == 1 { "complex" } else { "complexes" };
    if complexes.iter().any(|c| c.limit.is_none()) {
        return format!("no limit ({n} {noun})");
    }
    let units: u32 = complexes.iter().filter_map(|c| c.limit).sum();
    format!(
        "{units} unit{} ({n} {noun})",
        if units == 1 { "" } else { "s" }
    )
}

/// The victory conditions held now, each with what it still needs.
fn victory_status(game: &GameDef, state: &GameState) -> Vec<String> {
    if let Some(w) = state.winner {
        return vec![format!("{} has won.", game.files().game.sides[w].name)];
    }
    let mut out: Vec<String> = state
        .holds
        .iter()
        .map(|h| {
            let name = &game.powers()[h.power].name;
            let what = match h.capital {
                Some(c) => format!("{} together with its own capital", game.space_name(c)),
                None => "every capital for its side".to_owned(),
            };
            format!(
                "{name} has held {what} since the end of its turn in round {}; \
                 its side wins if it still does at the end of {name}'s next turn.",
                h.since
            )
        })
        .collect();
    if out.is_empty() {
        out.push("No victory condition is held: nobody is one round from winning.".into());
    }
    out
}

/// The sequence numbers of every adjudication entry of played stages
/// (1 and 2), in log order: the entries that have a turn report.
pub fn report_entries(entries: &[Entry]) -> Vec<u64> {
    entries
        .iter()
        .filter(|e| matches!(&e.body, Body::Adjudication(a) if a.stage != 0))
        .map(|e| e.seq)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn anniversary() -> GameDef {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/anniversary-1941");
        crate::rules::load_dir(&dir).expect("the Anniversary 1941 game loads")
    }

    #[test]
    fn capacity_follows_the_rule_set_and_damage() {
        let game = anniversary();
        let mut state = GameState::initial(&game);
        let germany = game.power("Germany").unwrap();
        assert_eq!(capacity(&game, &state, germany), "10 units (1 complex)");
        state.factory_damage[game.space("Germany").unwrap().0] = 3;
        assert_eq!(capacity(&game, &state, germany), "7 units (1 complex)");
        let china = game.power("China").unwrap();
        assert!(
            capacity(&game, &state, china).starts_with("by its own rule ("),
            "{}",
            capacity(&game, &state, china)
        );
    }

    #[test]
    fn the_summary_sums_each_battle_up_and_keeps_the_rest() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae");
        let game = crate::rules::load_dir(&dir).expect("AAE loads");
        let events: Vec<String> = [
            "Germany bought 3 infantry for 9 IPCs",
            "Germany moved 2 infantry from Poland to East Poland",
            "battle pending in East Poland",
            "East Poland: attacker infantry fire: dice [1 hit, 4] needing 1 or less: 1 hit(s) (combat/t1/East Poland/r1/attacker/infantry)",
            "East Poland: Soviet Union infantry lost (rules default: cheapest first)",
            "East Poland: Soviet Union infantry lost (rules default: cheapest first)",
            "East Poland: Germany infantry lost (battle plan: losses infantry)",
            "battle in East Poland over after 2 round(s): attacker wins",
            "Germany captured East Poland from Soviet Union",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            summarise(&game, &events),
            [
                "Germany bought 3 infantry for 9 IPCs",
                "Germany moved 2 infantry from Poland to East Poland",
                "Battle in East Poland (2 round(s)): attacker wins; Soviet Union lost 2 infantry; Germany lost 1 infantry",
                "Germany captured East Poland from Soviet Union",
            ]
        );
        let before = GameState::initial(&game);
        let mut after = before.clone();
        let (east, germany) = (
            game.space("East Poland").unwrap(),
            game.power("Germany").unwrap(),
        );
        after.owner[east.0] = Some(germany);
        after.ipcs[germany] -= 9;
        let c = changes(&game, &before, &after);
        assert_eq!(c.len(), 2, "{c:?}");
        assert_eq!(c[0], "East Poland: from Soviet Union to Germany");
        assert!(
            c[1].starts_with("Germany: ") && c[1].ends_with(" IPCs"),
            "{c:?}"
        );
    }
}
