//! Choosing casualties: who takes each hit, and why.
//!
//! Each side's units are ranked once per allocation by whoever chooses for
//! them (the attacker's battle plan, the defenders' standing orders, else the
//! default: cheapest first), with the rules on top: where the rule set says
//! so (`CombatRules::transports_last`), transports are lost only when
//! nothing else can take the hit; a unit with hit points to spare (the
//! battleship) takes a hit before anything is lost, and "if there is a way to
//! apportion hits so they result in losses, the losses must be taken" (FAQ),
//! which is what the matching below guarantees when some hits may not go
//! everywhere (submarine hits only on ships, aircraft hits never on unseen
//! submarines).

use crate::rules::GameDef;
use crate::rules::model::{Ability, UnitKind};
use crate::rules::orders::{BystanderLosses, StandingOrders};
use crate::rules::state::GameState;
use crate::rules::vocab::{PowerId, UnitTypeId};

/// What a hit may land on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HitClass {
    /// Scored by a unit that cannot hit aircraft (submarine): ships and land
    /// units only (FAQ: "all the hits caused by defending subs must be placed
    /// on ships").
    NotAir,
    /// Scored by aircraft whose side has no destroyer in the zone: never on a
    /// submarine (FAQ: without a destroyer "the subs play no part").
    NotHidden,
    /// Any unit of the other side.
    Any,
}

/// Hits scored by one side in one volley, kept apart by class.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Hits {
    /// Hits that may not go on aircraft.
    pub not_air: u32,
    /// Hits that may not go on hidden submarines.
    pub not_hidden: u32,
    /// Hits that may go anywhere.
    pub any: u32,
}

impl Hits {
    /// Adds `n` hits of `class`.
    pub fn add(&mut self, class: HitClass, n: u32) {
        match class {
            HitClass::NotAir => self.not_air += n,
            HitClass::NotHidden => self.not_hidden += n,
            HitClass::Any => self.any += n,
        }
    }

    /// All hits.
    pub fn total(&self) -> u32 {
        self.not_air + self.not_hidden + self.any
    }
}

/// Who chooses the casualties of one side, and how.
pub(crate) enum Chooser<'a> {
    /// The attacker: its battle plan's order of loss (with where it was
    /// written, for the log), and the allies whose ships stand by in the zone.
    Attacker {
        /// The plan's `losses`.
        losses: &'a [UnitTypeId],
        /// "battle plan for Karelia", "default battle plan".
        source: String,
        /// The attacker, so that bystanders (its allies) rank after it.
        power: PowerId,
        /// Standing orders by power: a bystander whose owner's say
        /// `bystander_losses: allies_choose` is ranked by `losses` too.
        standing: &'a [StandingOrders],
    },
    /// The defenders: each unit by its owner's standing orders.
    Defender {
        /// Standing orders by power.
        standing: &'a [StandingOrders],
        /// A land battle (keep-one-land-unit applies there only).
        land: bool,
    },
}

/// One unit that may take hits, in the order its side gives them.
#[derive(Debug, Clone)]
pub(crate) struct Candidate {
    pub id: u32,
    pub(crate) air: bool,
    pub(crate) hidden: bool,
    /// A hidden unit whose owner may give it hits that could not otherwise
    /// land on it, never being forced to (Advanced AAE AAAE-45: submarines
    /// in round 1): it takes such a hit only where its order of loss puts it
    /// before every other unit that could, and never a hit that would
    /// otherwise be lost.
    pub(crate) volunteer: bool,
    /// Hits it can still take.
    pub(crate) cap: u8,
    /// Why it stands where it does in the order of loss.
    reason: String,
}

/// A unit chosen to take a hit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Taken {
    pub id: u32,
    /// The hit destroys it (false: damaged, still in the battle).
    pub destroyed: bool,
    pub reason: String,
}

fn default_reason() -> String {
    "default order of loss: cheapest unit first".into()
}

/// Sort key of the order of loss: transport (last), bystander spared by its
/// owner's standing orders (after every unit of the attacker), position in
/// the chooser's list, bystander (after the attacker's own of that rank),
/// position in the rule set's standard order of loss, cost, strength, id.
type RankKey = (u8, u8, usize, u8, usize, u32, u8, u32);

/// Ranks `ids` (units of one side) for taking hits.
pub(crate) fn rank(
    game: &GameDef,
    state: &GameState,
    ids: &[u32],
    chooser: &Chooser,
) -> Vec<Candidate> {
    let types = game.unit_types();
    let rules = game.combat_rules();
    let transports_last = rules.transports_last;
    let mut keyed: Vec<(RankKey, Candidate)> = Vec::new();
    let any_non_transport = ids.iter().any(|id| {
        state
            .unit(*id)
            .is_some_and(|u| types[u.unit].transport_capacity.is_none())
    });
    for &id in ids {
        let Some(u) = state.unit(id) else { continue };
        let t = &types[u.unit];
        let transport = transports_last && t.transport_capacity.is_some();
        let (bystander, lent, list, source) = match chooser {
            Chooser::Attacker {
                losses,
                source,
                power,
                standing,
            } => {
                let bystander = u.owner != *power;
                let lent = bystander
                    && standing
                        .get(u.owner)
                        .is_some_and(|s| s.bystander_losses == BystanderLosses::AlliesChoose);
                (bystander, lent, *losses, source.clone())
            }
            Chooser::Defender { standing, .. } => (
                false,
                false,
                standing
                    .get(u.owner)
                    .map(|s| s.losses.as_slice())
                    .unwrap_or(&[]),
                format!("standing orders of {}", game.powers()[u.owner].name),
            ),
        };
        let spared = bystander && !lent;
        let listed = if spared {
            None
        } else {
            list.iter().position(|x| *x == u.unit)
        };
        // The rule set's standard order of loss (DAAK), for types the
        // chooser did not list.
        let standard = rules.default_losses.and_then(|d| {
            let order = if game.is_sea(u.at) { d.sea } else { d.land };
            order
                .iter()
                .position(|n| n.eq_ignore_ascii_case(&t.name))
                .map(|i| (i, d.rule))
        });
        let strength = match chooser {
            Chooser::Attacker { .. } => t.attack.unwrap_or(0),
            Chooser::Defender { .. } => t.defense.unwrap_or(0),
        };
        // A bystander is named by the bystander rule even when it is a
        // transport: it is lost because its ally could not take the hit.
        let reason = if let (true, Some(i)) = (lent, listed) {
            format!(
                "{source}, losses entry {} ({}); standing orders of {}: bystander_losses \
                 allies_choose",
                i + 1,
                t.name,
                game.powers()[u.owner].name
            )
        } else if bystander {
            "rule: hits the attackers cannot take fall on their allies' ships in the zone \
             (FAQ: if there is a way to take the losses, they must be taken)"
                .to_owned()
        } else if transport && any_non_transport {
            "rule: transports are lost only when nothing else can take the hit".to_owned()
        } else if let Some(i) = listed {
            format!("{source}, losses entry {} ({})", i + 1, t.name)
        } else if let Some((_, rule)) = standard {
            format!("{rule} ({source}: no {} in its losses)", t.name)
        } else {
            default_reason()
        };
        keyed.push((
            (
                u8::from(transport),
                u8::from(spared),
                listed.unwrap_or(usize::MAX),
                u8::from(bystander),
                standard.map_or(usize::MAX, |(i, _)| i),
                t.cost.unwrap_or(0),
                strength,
                id,
            ),
            Candidate {
                id,
                air: t.kind == Some(UnitKind::Air),
                hidden: t.has(&Ability::HiddenFromAir),
                volunteer: false,
                cap: t.hit_points.max(1).saturating_sub(u.hits).max(1),
                reason,
            },
        ));
    }
    keyed.sort_by_key(|a| a.0);
    let mut ranked: Vec<Candidate> = keyed.into_iter().map(|(_, c)| c).collect();
    if let Chooser::Defender {
        standing,
        land: true,
    } = chooser
    {
        keep_one_land_unit(game, state, standing, &mut ranked);
    }
    ranked
}

/// Standing orders `keep_one_land_unit`: the last land unit in the order of
/// loss goes after the aircraft, so that the territory is not lost to
/// aircraft alone while something else can take the hits.
fn keep_one_land_unit(
    game: &GameDef,
    state: &GameState,
    standing: &[StandingOrders],
    ranked: &mut Vec<Candidate>,
) {
    let land = |c: &Candidate| {
        state
            .unit(c.id)
            .is_some_and(|u| game.unit_types()[u.unit].kind == Some(UnitKind::Land))
    };
    let Some(pos) = ranked.iter().rposition(land) else {
        return;
    };
    let owner = state.unit(ranked[pos].id).map(|u| u.owner).unwrap_or(0);
    if !standing.get(owner).is_some_and(|s| s.keep_one_land_unit) {
        return;
    }
    if ranked[pos + 1..].iter().any(|c| c.air) {
        let mut c = ranked.remove(pos);
        c.reason = format!(
            "standing orders of {}: keep one land unit (aircraft are lost before the last \
             land unit)",
            game.powers()[owner].name
        );
        ranked.push(c);
    }
}

fn eligible(c: &Candidate, class: HitClass) -> bool {
    c.cap > 0
        && match class {
            HitClass::NotAir => !c.air,
            HitClass::NotHidden => !c.hidden || c.volunteer,
            HitClass::Any => true,
        }
}

/// AAAE-45: in round 1 the hidden units of a side (its submarines) may
/// take hits that could not otherwise land on them; [`most_taken`] still
/// counts them as hidden, so they are never forced to.
pub(crate) fn volunteer_hidden(cands: &mut [Candidate]) {
    for c in cands {
        c.volunteer = c.hidden;
    }
}

/// The most hits that can be taken by `cands` from `hits` (volunteers, as
/// the rules never force them, counted as hidden). Submarine-class
/// hits go first to hidden units (they can take nothing else), aircraft
/// hits to aircraft, then both compete for the rest; unrestricted hits take
/// whatever is left. The exchange argument makes this greedy count exact.
fn most_taken(cands: &[Candidate], hits: Hits) -> u32 {
    let (mut air, mut hidden, mut other) = (0u32, 0u32, 0u32);
    for c in cands {
        let cap = u32::from(c.cap);
        if c.air {
            air += cap;
        } else if c.hidden {
            hidden += cap;
        } else {
            other += cap;
        }
    }
    let x = hits.not_air.min(hidden);
    let y = hits.not_hidden.min(air);
    let rest = (hits.not_air - x) + (hits.not_hidden - y);
    let z = rest.min(other);
    let matched = x + y + z;
    let left = air + hidden + other - matched;
    matched + hits.any.min(left)
}

/// Gives out `hits` to `cands` (ranked by [`rank`]). Returns who took each
/// hit and how many hits no unit could take.
pub(crate) fn allocate(cands: &mut [Candidate], mut hits: Hits) -> (Vec<Taken>, u32) {
    let mut taken = Vec::new();
    let mut wasted = 0;
    for class in [HitClass::NotAir, HitClass::NotHidden, HitClass::Any] {
        loop {
            let pending = match class {
                HitClass::NotAir => hits.not_air,
                HitClass::NotHidden => hits.not_hidden,
                HitClass::Any => hits.any,
            };
            if pending == 0 {
                break;
            }
            let before = most_taken(cands, hits);
            let mut after = hits;
            match class {
                HitClass::NotAir => after.not_air -= 1,
                HitClass::NotHidden => after.not_hidden -= 1,
                HitClass::Any => after.any -= 1,
            }
            // Units with hit points to spare first, then the order of loss.
            let order: Vec<usize> = (0..cands.len())
                .filter(|&i| cands[i].cap > 1)
                .chain((0..cands.len()).filter(|&i| cands[i].cap == 1))
                .collect();
            let first = order.first().copied();
            let mut chosen = None;
            for &i in &order {
                if !eligible(&cands[i], class) {
                    continue;
                }
                cands[i].cap -= 1;
                let ok = most_taken(cands, after) + 1 == before;
                cands[i].cap += 1;
                if ok {
                    chosen = Some(i);
                    break;
                }
            }
            hits = after;
            let Some(i) = chosen else {
                wasted += 1;
                continue;
            };
            let c = &mut cands[i];
            c.cap -= 1;
            let destroyed = c.cap == 0;
            let volunteered = class == HitClass::NotHidden && c.hidden;
            let mut reason = if !destroyed {
                "rule: a unit with hit points to spare takes the hit and stays in the battle \
                 (repaired at the end of its owner's turn)"
                    .to_owned()
            } else {
                c.reason.clone()
            };
            if volunteered {
                reason = format!(
                    "AAAE-45: in round 1 a submarine may take a hit its enemy could not \
                     otherwise score on it (never forced: only where its side's order of loss \
                     puts it first); {reason}"
                );
            } else if Some(i) != first && destroyed {
                let forced = match class {
                    HitClass::NotAir => "submarine hits go to ships only (FAQ)",
                    HitClass::NotHidden => {
                        "aircraft cannot hit submarines without a destroyer of their side \
                         in the zone (FAQ)"
                    }
                    HitClass::Any => "every hit that can be taken must be taken (FAQ)",
                };
                if first.is_some_and(|f| !eligible(&cands[f], class)) || class != HitClass::Any {
                    reason = format!("rule: {forced}; then {reason}");
                }
            }
            taken.push(Taken {
                id: cands[i].id,
                destroyed,
                reason,
            });
        }
    }
    (taken, wasted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(id: u32, air: bool, hidden: bool, cap: u8) -> Candidate {
        Candidate {
            id,
            air,
            hidden,
            volunteer: false,
            cap,
            reason: String::new(),
        }
    }

    #[test]
    fn restricted_hits_are_matched_so_that_all_can_be_taken() {
        // A destroyer ranked before a sub; one sub hit and one air hit. The
        // sub hit must go on the sub so that the air hit can sink the
        // destroyer.
        let mut cands = vec![c(1, false, false, 1), c(2, false, true, 1)];
        let hits = Hits {
            not_air: 1,
            not_hidden: 1,
            any: 0,
        };
        let (taken, wasted) = allocate(&mut cands, hits);
        assert_eq!(wasted, 0);
        let ids: Vec<u32> = taken.iter().map(|t| t.id).collect();
        assert_eq!(ids, vec![2, 1]);
    }

    #[test]
    fn a_battleship_absorbs_first_and_excess_hits_are_wasted() {
        let mut cands = vec![c(1, false, false, 1), c(2, false, false, 2)];
        let (taken, wasted) = allocate(
            &mut cands,
            Hits {
                any: 4,
                ..Hits::default()
            },
        );
        assert_eq!(wasted, 1);
        assert_eq!(taken[0].id, 2);
        assert!(!taken[0].destroyed);
        assert_eq!(taken.iter().filter(|t| t.destroyed).count(), 2);
    }

    #[test]
    fn a_volunteer_submarine_takes_an_aircraft_hit_only_by_its_rank_and_never_a_lost_one() {
        // AAAE-45: the sub ranked first takes the aircraft's hit...
        let mut cands = vec![c(1, false, true, 1), c(2, false, false, 1)];
        volunteer_hidden(&mut cands);
        let one = Hits {
            not_hidden: 1,
            ..Hits::default()
        };
        let (taken, wasted) = allocate(&mut cands, one);
        assert_eq!((taken[0].id, wasted), (1, 0));
        assert!(taken[0].reason.starts_with("AAAE-45"));
        // ...ranked after the destroyer it does not...
        let mut cands = vec![c(2, false, false, 1), c(1, false, true, 1)];
        volunteer_hidden(&mut cands);
        let (taken, _) = allocate(&mut cands, one);
        assert_eq!(taken[0].id, 2);
        // ...and alone it is never forced to: the hit is lost.
        let mut cands = vec![c(1, false, true, 1)];
        volunteer_hidden(&mut cands);
        let (taken, wasted) = allocate(&mut cands, one);
        assert!(taken.is_empty());
        assert_eq!(wasted, 1);
    }

    #[test]
    fn aircraft_hits_cannot_find_hidden_submarines() {
        let mut cands = vec![c(1, false, true, 1)];
        let (taken, wasted) = allocate(
            &mut cands,
            Hits {
                not_hidden: 2,
                ..Hits::default()
            },
        );
        assert!(taken.is_empty());
        assert_eq!(wasted, 2);
    }
}
