//! The canonical text of a position: what a log's `state` digest is taken
//! over (`docs/log.md`).
//!
//! The text names everything in the game's words (powers, spaces, unit
//! types, phases), one fact per line in a fixed order, and starts with its
//! version. It does not depend on how Rust prints values, so a later engine
//! reproduces the digests of an old log as long as the rules give the same
//! position. Every field of [`GameState`] and [`Unit`] is destructured
//! below without `..`: a field added to the state does not compile until
//! it is written here (and the version raised when that changes old texts).
//!
//! Two texts: version 1 (`adjutant-state/1`), which wrote the facts added
//! after it (ships that fought at sea, a shared turn, isolated units,
//! paratroopers, ship damage, bid money, two standing orders) only when
//! they held, so that older positions kept their digests; and version 2
//! (`adjutant-state/2`, rules version 2), which writes every fact of every
//! position, `-` for none. A reader of a version 2 text never has to ask
//! whether a missing line means "none" or "not known to the engine that
//! wrote it", and one grammar reads every position.

use std::fmt::Write;

use super::GameDef;
use super::SpaceId;
use super::orders::{
    Averted, BystanderLosses, MiddleEastPayment, NeutralDefenders, StandingOrders, SubmarinePolicy,
};
use super::state::{GameState, Hold, SharedTurn, ShipDamage, Unit};
use crate::rules::vocab::{PowerId, UnitList};

/// The first line of every text of this version.
pub const VERSION: &str = "adjutant-state/2";

/// The first line of a version 1 text (rules version 1).
pub const VERSION_1: &str = "adjutant-state/1";

/// The canonical text of `state` in `game`, this version's.
pub fn encode(game: &GameDef, state: &GameState) -> String {
    encode_as(game, state, Text::V2)
}

/// The canonical text as version 1 wrote it (the digests of logs written by
/// rules version 1).
pub fn encode_v1(game: &GameDef, state: &GameState) -> String {
    encode_as(game, state, Text::V1)
}

/// Which text: version 1 leaves out facts that do not hold, version 2
/// writes them all.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Text {
    V1,
    V2,
}

fn encode_as(game: &GameDef, state: &GameState, text: Text) -> String {
    // Version 2 writes a line that version 1 writes only when it holds.
    let all = text == Text::V2;
    let GameState {
        round,
        turn,
        phase,
        owner,
        ipcs,
        units,
        next_unit,
        purchased,
        held,
        captured_this_turn,
        battles,
        taken_in_passing,
        holds,
        winner,
        standing,
        technologies,
        research_tokens,
        factory_damage,
        war_bonds,
        fought_at_sea,
        shared_turn,
        isolated,
        ship_damage,
        paradropped,
        averted,
        bid_money,
    } = state;
    let power = |p: PowerId| game.powers()[p].name.as_str();
    let space = |s: SpaceId| game.space_name(s);
    let opt_space = |s: Option<SpaceId>| s.map_or("-", space);
    // The text is written straight into one buffer, the unit lines (most of
    // it) piece by piece: it is taken for every stage a match replays, so
    // its cost is most of a log's verify (docs/performance.md).
    let mut out = String::with_capacity(UNIT_LINE * units.len() + OTHER_LINES * owner.len());
    macro_rules! line {
        ($($arg:tt)*) => {{
            let _ = writeln!(out, $($arg)*);
        }};
    }
    out.push_str(match text {
        Text::V1 => VERSION_1,
        Text::V2 => VERSION,
    });
    out.push('\n');
    line!("round {round}");
    line!("turn {}", power(game.turn_order()[*turn]));
    line!("phase {}", phase.name());
    line!(
        "winner {}",
        winner.map_or("-", |s| game.files().game.sides[s].name.as_str())
    );
    for (s, o) in owner.iter().enumerate() {
        if let Some(o) = o {
            out.push_str("owner ");
            out.push_str(space(SpaceId(s)));
            out.push_str(" = ");
            out.push_str(power(*o));
            out.push('\n');
        }
    }
    for (p, n) in ipcs.iter().enumerate() {
        line!("ipcs {} = {n}", power(p));
    }
    for u in units {
        let Unit {
            id,
            unit,
            owner,
            at,
            moved,
            combat_moved,
            hits,
            cargo_of,
            submerged,
            unloaded_from,
            unloaded_by,
            unloaded_to,
        } = u;
        // unit {id} {type} of {owner} at {space}; moved {moved}, combat
        // {0|1}, hits {hits}, cargo of {id|-}, submerged {0|1}, unloaded
        // from {space|-} by {id|-} to {space|-}
        out.push_str("unit ");
        push_number(&mut out, *id);
        out.push(' ');
        out.push_str(&game.unit_types()[*unit].name);
        out.push_str(" of ");
        out.push_str(power(*owner));
        out.push_str(" at ");
        out.push_str(space(*at));
        out.push_str("; moved ");
        push_number(&mut out, u32::from(*moved));
        out.push_str(", combat ");
        out.push_str(flag(*combat_moved));
        out.push_str(", hits ");
        push_number(&mut out, u32::from(*hits));
        out.push_str(", cargo of ");
        push_opt_number(&mut out, *cargo_of);
        out.push_str(", submerged ");
        out.push_str(flag(*submerged));
        out.push_str(", unloaded from ");
        out.push_str(opt_space(*unloaded_from));
        out.push_str(" by ");
        push_opt_number(&mut out, *unloaded_by);
        out.push_str(" to ");
        out.push_str(opt_space(*unloaded_to));
        out.push('\n');
    }
    line!("next unit {next_unit}");
    line!("purchased {}", units_text(game, purchased));
    for (p, list) in held.iter().enumerate() {
        if all || !list.is_empty() {
            line!("held {} = {}", power(p), units_text(game, list));
        }
    }
    line!("captured {}", spaces_text(game, captured_this_turn));
    line!("battles {}", spaces_text(game, battles));
    line!("taken in passing {}", spaces_text(game, taken_in_passing));
    // Version 2 says when none holds (per-space facts: one line each that
    // holds, or one `-` line).
    if all && holds.is_empty() {
        line!("hold -");
    }
    for Hold {
        power: p,
        capital,
        since,
    } in holds
    {
        line!(
            "hold {} capital {} since {since}",
            power(*p),
            opt_space(*capital)
        );
    }
    for (p, s) in standing.iter().enumerate() {
        if all || *s != StandingOrders::default() {
            line!("standing {} = {}", power(p), standing_text(game, s, text));
        }
    }
    for (p, techs) in technologies.iter().enumerate() {
        if all || !techs.is_empty() {
            let names: Vec<&str> = techs.iter().map(|t| t.name()).collect();
            line!(
                "developments {} = {}",
                power(p),
                if names.is_empty() {
                    "-".to_owned()
                } else {
                    names.join(", ")
                }
            );
        }
    }
    for (p, n) in research_tokens.iter().enumerate() {
        if all || *n > 0 {
            line!("research tokens {} = {n}", power(p));
        }
    }
    if all && factory_damage.iter().all(|n| *n == 0) {
        line!("damage -");
    }
    for (sp, n) in factory_damage.iter().enumerate() {
        if *n > 0 {
            line!("damage {} = {n}", space(SpaceId(sp)));
        }
    }
    line!("war bonds {war_bonds}");
    // Version 1: written only when some ship fought (Anniversary), so the
    // texts of every other position stayed as before.
    if all || !fought_at_sea.is_empty() {
        line!("fought at sea {}", ids_text(fought_at_sea));
    }
    // Version 1: written only inside an interleaved shared turn
    // (Anniversary, KQ-1).
    match shared_turn {
        Some(SharedTurn {
            waiting,
            purchased,
            war_bonds,
        }) => line!(
            "waiting {}; purchased {}; war bonds {war_bonds}",
            power(*waiting),
            units_text(game, purchased)
        ),
        None if all => line!("waiting -"),
        None => {}
    }
    // Version 1: written only while units are out of supply (J Boulton,
    // JB-40).
    if all || !isolated.is_empty() {
        line!("isolated {}", ids_text(isolated));
    }
    // Version 1: written only while paratroopers dropped this turn (J
    // Boulton, JB-16).
    if all || !paradropped.is_empty() {
        line!("paradropped {}", ids_text(paradropped));
    }
    // Written only while units are averted (J Boulton, JB-35), in either
    // version: the list lives within one stage's combat phase, so no
    // position a log records holds one, and texts of version 2 written
    // before it stay as they were.
    if !averted.is_empty() {
        line!("averted {}", ids_text(averted));
    }
    // Written for damaged battleships only (J Boulton, JB-41..44); version
    // 2 then says there are none.
    if all && ship_damage.is_empty() {
        line!("ship damage -");
    }
    for ShipDamage {
        unit,
        heavy,
        docked_at,
        repair_cost,
        repair_paid,
    } in ship_damage
    {
        line!(
            "ship damage {unit} {}; docked at {}; repair cost {}; paid {}",
            if *heavy { "heavy" } else { "light" },
            opt_space(*docked_at),
            repair_cost.map_or("-".to_owned(), |c| c.to_string()),
            u8::from(*repair_paid)
        );
    }
    // Written in the bid placement stage before round 1 only; version 2
    // then says there is none.
    if all && bid_money.iter().all(|n| *n == 0) {
        line!("bid money -");
    }
    for (side, n) in bid_money.iter().enumerate() {
        if *n > 0 {
            line!("bid money {} = {n}", game.files().game.sides[side].name);
        }
    }
    out
}

/// Room for one unit's line (most are 110 to 150 bytes), and for each of
/// the other lines, counted by spaces: the buffer is sized once.
const UNIT_LINE: usize = 160;
const OTHER_LINES: usize = 48;

/// `1` or `0`.
fn flag(b: bool) -> &'static str {
    if b { "1" } else { "0" }
}

/// A number in decimal, as `Display` writes it, without the formatting
/// machinery (the unit lines hold four each).
fn push_number(out: &mut String, n: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    let mut n = n;
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[i..].iter().map(|&d| char::from(d)));
}

/// A number, or `-` for none.
fn push_opt_number(out: &mut String, n: Option<u32>) {
    match n {
        Some(n) => push_number(out, n),
        None => out.push('-'),
    }
}

fn ids_text(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "-".into();
    }
    let ids: Vec<String> = ids.iter().map(ToString::to_string).collect();
    ids.join(", ")
}

fn units_text(game: &GameDef, list: &UnitList) -> String {
    let parts: Vec<String> = list
        .iter()
        .map(|c| format!("{} {}", c.count, game.unit_types()[c.unit].name))
        .collect();
    if parts.is_empty() {
        "-".into()
    } else {
        parts.join(", ")
    }
}

fn spaces_text(game: &GameDef, spaces: &[SpaceId]) -> String {
    if spaces.is_empty() {
        return "-".into();
    }
    let names: Vec<&str> = spaces.iter().map(|s| game.space_name(*s)).collect();
    names.join(", ")
}

fn standing_text(game: &GameDef, s: &StandingOrders, text: Text) -> String {
    let StandingOrders {
        losses,
        keep_one_land_unit,
        submarines,
        intercept,
        bystander_losses,
        middle_east_payment,
        neutral_defenders,
        aversion,
        averted,
        teams,
    } = s;
    let mut out = String::new();
    let losses: Vec<&str> = losses
        .iter()
        .map(|u| game.unit_types()[*u].name.as_str())
        .collect();
    let _ = write!(
        out,
        "losses {}; keep one land unit {}; submarines {}; intercept {}",
        if losses.is_empty() {
            "-".to_owned()
        } else {
            losses.join(", ")
        },
        u8::from(*keep_one_land_unit),
        match submarines {
            SubmarinePolicy::Fight => "fight".to_owned(),
            SubmarinePolicy::Submerge => "submerge".to_owned(),
            SubmarinePolicy::SubmergeAfterFirstRound => "submerge after first round".to_owned(),
            SubmarinePolicy::WithdrawAfterRound { after_round, to } => format!(
                "withdraw after round {after_round} to {}",
                to.map_or("-", |s| game.space_name(s))
            ),
        },
        intercept.map_or("all".to_owned(), |n| n.to_string())
    );
    // Version 1: written only when set, so that positions without it kept
    // the text (and state digest) that existing logs recorded.
    if text == Text::V2 || *bystander_losses == BystanderLosses::AlliesChoose {
        let _ = write!(
            out,
            "; bystander losses {}",
            bystander_losses.word().replace('_', " ")
        );
    }
    if text == Text::V2 || *middle_east_payment != MiddleEastPayment::default() {
        let _ = write!(
            out,
            "; middle east payment {}",
            middle_east_payment.word().replace('_', " ")
        );
    }
    if *neutral_defenders != NeutralDefenders::default() {
        let _ = write!(
            out,
            "; neutral defenders {}",
            neutral_defenders.word().replace('_', " ")
        );
    }
    // J Boulton (JB-35), in either version only when set, so that the
    // texts written before them stay as they were.
    for a in aversion {
        let _ = write!(
            out,
            "; aversion {} {} {}",
            game.space_name(a.space),
            game.unit_types()[a.unit].name,
            if a.after { "after" } else { "before" }
        );
    }
    if *averted != Averted::default() {
        let _ = write!(out, "; averted {}", averted.word());
    }
    // Written only when set, as above (J Boulton special force teams).
    if *teams != Default::default() {
        let words = |m: &[crate::rules::orders::special_force_teams::Mission]| -> String {
            if m.is_empty() {
                return "none".to_owned();
            }
            let w: Vec<&str> = m.iter().map(|m| m.word()).collect();
            w.join(", ").replace('_', " ")
        };
        let types: Vec<&str> = teams
            .save
            .iter()
            .map(|u| game.unit_types()[*u].name.as_str())
            .collect();
        let _ = write!(
            out,
            "; special force teams missions {}; evasive {} save {} to {} round {}",
            teams.missions.as_deref().map_or("-".to_owned(), words),
            teams.evasive.word().replace('_', " "),
            if types.is_empty() {
                "-".to_owned()
            } else {
                types.join(", ")
            },
            spaces_text(game, &teams.to),
            teams.round.map_or("-".to_owned(), |r| r.to_string())
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::vocab::Technology;
    use std::path::Path;

    fn aae() -> GameDef {
        crate::rules::load_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("games/aae")).unwrap()
    }

    #[test]
    fn the_text_names_everything_in_the_games_words() {
        let game = aae();
        let state = GameState::initial(&game);
        let text = encode(&game, &state);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[..5],
            [
                VERSION,
                "round 1",
                "turn Germany",
                "phase purchase",
                "winner -"
            ]
        );
        assert!(text.contains("\nowner Germany = Germany\n"), "{text}");
        let unit_lines = lines.iter().filter(|l| l.starts_with("unit ")).count();
        assert_eq!(unit_lines, state.units.len());
        assert!(
            text.contains("infantry of Germany at Germany; moved 0, combat 0, hits 0"),
            "{text}"
        );
    }

    #[test]
    fn a_unit_line_writes_every_field_as_display_does() {
        let game = aae();
        let mut state = GameState::initial(&game);
        let u = &mut state.units[0];
        u.id = u32::MAX;
        u.moved = 2;
        u.combat_moved = true;
        u.hits = 10;
        u.cargo_of = Some(0);
        u.submerged = true;
        u.unloaded_from = Some(u.at);
        u.unloaded_by = Some(1_234_567_890);
        u.unloaded_to = Some(SpaceId(0));
        let u = state.units[0].clone();
        let want = format!(
            "unit 4294967295 {} of {} at {}; moved 2, combat 1, hits 10, cargo of 0, \
             submerged 1, unloaded from {} by 1234567890 to {}",
            game.unit_types()[u.unit].name,
            game.powers()[u.owner].name,
            game.space_name(u.at),
            game.space_name(u.at),
            game.space_name(SpaceId(0)),
        );
        for text in [encode(&game, &state), encode_v1(&game, &state)] {
            assert!(text.lines().any(|l| l == want), "{want:?} not in {text}");
        }
        let other = &state.units[1];
        let none = format!(
            "unit {} {} of {} at {}; moved 0, combat 0, hits 0, cargo of -, submerged 0, \
             unloaded from - by - to -",
            other.id,
            game.unit_types()[other.unit].name,
            game.powers()[other.owner].name,
            game.space_name(other.at),
        );
        assert!(encode(&game, &state).lines().any(|l| l == none), "{none:?}");
    }

    #[test]
    fn version_2_writes_every_fact_and_version_1_only_those_that_hold() {
        let game = aae();
        let state = GameState::initial(&game);
        let v1 = encode_v1(&game, &state);
        let v2 = encode(&game, &state);
        assert!(v1.starts_with("adjutant-state/1\n"), "{v1}");
        assert!(v2.starts_with("adjutant-state/2\n"), "{v2}");
        for l in [
            "isolated -",
            "paradropped -",
            "fought at sea -",
            "waiting -",
            "ship damage -",
            "hold -",
            "damage -",
            "bid money -",
            "developments Germany = -",
            "research tokens Germany = 0",
            "held Germany = -",
        ] {
            assert!(v2.lines().any(|x| x == l), "v2 lacks {l:?}: {v2}");
            assert!(!v1.lines().any(|x| x == l), "v1 has {l:?}: {v1}");
        }
        assert!(
            v2.contains(
                "\nstanding Germany = losses -; keep one land unit 0; submarines fight; intercept all; bystander losses last; middle east payment "
            ),
            "{v2}"
        );
        assert!(!v1.contains("\nstanding Germany"), "{v1}");
        // Past the first line, every line of version 1 is in version 2,
        // in the same order.
        let mut rest = v2.lines().skip(1);
        for l in v1.lines().skip(1) {
            assert!(rest.any(|x| x == l), "{l:?} is not in v2 in order");
        }
    }

    #[test]
    fn every_change_of_position_changes_the_text() {
        let game = aae();
        let base = GameState::initial(&game);
        let changes: Vec<fn(&mut GameState)> = vec![
            |s| s.ipcs[1] += 1,
            |s| s.units[0].moved = 1,
            |s| s.units[3].submerged = true,
            |s| s.research_tokens[0] = 1,
            |s| s.technologies[2].push(Technology::Radar),
            |s| s.standing[0].keep_one_land_unit = true,
            |s| s.captured_this_turn.push(SpaceId(0)),
            |s| s.round = 2,
            |s| s.factory_damage[5] = 2,
            |s| s.war_bonds = 4,
            |s| s.standing[1].intercept = Some(0),
            |s| s.fought_at_sea.push(1),
            |s| s.isolated.push(1),
            |s| s.paradropped.push(1),
            |s| s.averted.push(1),
            |s| s.standing[2].averted = Averted::Withdraw,
            |s| {
                s.standing[3]
                    .aversion
                    .push(crate::rules::orders::AversionOrder {
                        space: SpaceId(0),
                        unit: 0,
                        after: true,
                    })
            },
            |s| {
                s.ship_damage.push(ShipDamage {
                    unit: 1,
                    heavy: false,
                    docked_at: None,
                    repair_cost: None,
                    repair_paid: false,
                })
            },
            |s| {
                s.shared_turn = Some(SharedTurn {
                    waiting: 0,
                    purchased: Vec::new(),
                    war_bonds: 0,
                })
            },
        ];
        for encode in [encode, encode_v1] {
            let before = encode(&game, &base);
            for (i, change) in changes.iter().enumerate() {
                let mut s = base.clone();
                change(&mut s);
                assert_ne!(
                    encode(&game, &s),
                    before,
                    "change {i} left the text as it was"
                );
            }
        }
    }
}
