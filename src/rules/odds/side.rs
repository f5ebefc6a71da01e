//! One side of a battle as the calculator sees it: its units in the order
//! they are lost, ranked by the adjudicator's own casualty code
//! ([`rank`]), so that the calculator and the adjudicator can never
//! disagree on who dies first.
//!
//! With a fixed order of loss a side's state is one number, the hits it has
//! taken: units with hit points to spare absorb the first hits (the
//! allocation rule), then units die from the front of the order.

use crate::rules::GameDef;
use crate::rules::combat::casualties::{Candidate, Chooser, HitClass, rank};
use crate::rules::model::{Ability, UnitKind};
use crate::rules::state::GameState;
use crate::rules::vocab::UnitTypeId;

/// One unit in its side's order of loss.
#[derive(Debug, Clone)]
pub(crate) struct Slot {
    pub unit: UnitTypeId,
    /// Attack (attacking side) or defence (defending side) value.
    pub strength: u8,
    /// Infantry it supports as attacking artillery: 0, 1, or 2 with the
    /// owner's Improved Artillery Support.
    pub support: u8,
    /// Can be raised by artillery support.
    pub supportable: bool,
    pub air: bool,
    /// Aircraft cannot hit it without a destroyer of their side.
    pub hidden: bool,
    /// Its hits cannot land on aircraft.
    pub cannot_hit_air: bool,
    /// Fires first while the enemy has no destroyer: attacking, and
    /// defending where the rule set says so (Anniversary).
    pub first_strike: bool,
    /// Cancels first strike and reveals hidden units.
    pub anti_sub: bool,
    /// A submarine (first strike, attacking or not): what withdraws under
    /// DAAK-C §4.2 (`combat::withdrawal` picks them the same way).
    pub sub: bool,
    /// Dice it rolls, hitting if any die does: 2 for an attacking bomber
    /// of a power with Heavy Bombers, else 1 (one die under Low Luck, as
    /// `combat::fire` does it).
    pub dice_each: u8,
    /// Dice it rolls that each count (Classic's Heavy Bombers: 3 for an
    /// attacking bomber; Advanced AAE's attacking submarines: 2, AAAE-46),
    /// else 1: each is a shot of its own.
    pub shots: u8,
    /// What its hits may land on whatever the destroyers in play: a
    /// defender at sea where only destroyers and fighters may hit attacking
    /// submarines (Advanced AAE AAAE-47, as `combat::battle::class_of`
    /// decides it); `None`: by the rule above.
    pub fixed_class: Option<HitClass>,
    /// It does not fire in the first round (Advanced AAE's German surprise
    /// attack, AAAE-11), though it may be lost in it.
    pub silent_first_round: bool,
    /// A defending fortification (Advanced AAE AAAE-29): it never fires,
    /// may be lost, raises one infantry while it stands, and does not keep
    /// its side in the battle.
    pub fortification: bool,
    /// What it defends at when a standing fortification raises it
    /// (defending infantry: 3); `None`: never raised.
    pub fortified: Option<u8>,
    /// The adjudicator's casualty candidate (hits it can still take, ...).
    pub candidate: Candidate,
}

impl Slot {
    /// Its strength when it fires, raised by one when one of the `support`
    /// artillery supports still free can go to it (which it then takes),
    /// or to its fortified value when one of the `forts` still free can
    /// (AAAE-29), and whether it was raised.
    pub(crate) fn fire_strength(&self, support: &mut usize, forts: &mut usize) -> (u8, bool) {
        if *support > 0 && self.supportable {
            *support -= 1;
            (self.strength + 1, true)
        } else if let (true, Some(v)) = (*forts > 0, self.fortified) {
            *forts -= 1;
            (self.strength.max(v), true)
        } else {
            (self.strength, false)
        }
    }

    /// Hits it can still take.
    pub fn cap(&self) -> usize {
        usize::from(self.candidate.cap)
    }

    /// What its hits may land on when its side has (`spots`) or has not a
    /// destroyer in play, as `combat::battle::class_of` decides it.
    pub fn class(&self, spots: bool) -> HitClass {
        if let Some(c) = self.fixed_class {
            c
        } else if self.cannot_hit_air {
            HitClass::NotAir
        } else if self.air && !spots {
            HitClass::NotHidden
        } else {
            HitClass::Any
        }
    }
}

/// A side's units in order of loss, the first lost first.
#[derive(Debug, Clone)]
pub(crate) struct Side {
    pub slots: Vec<Slot>,
    pub attacking: bool,
    /// Hits absorbed before any unit dies.
    spare: usize,
    /// Hits that destroy the whole side.
    hp: usize,
}

impl Side {
    /// The side made of `ids` (units in `state`), ranked by `chooser`.
    pub fn ranked(
        game: &GameDef,
        state: &GameState,
        ids: &[u32],
        chooser: &Chooser,
        attacking: bool,
    ) -> Side {
        let types = game.unit_types();
        let rules = game.combat_rules();
        // Anniversary: defending submarines strike first too; where
        // submarines fight one round (AAAE-46) none does.
        let strikes = (attacking || rules.defending_subs_strike_first)
            && rules.one_round_submarines.is_none();
        let slots = rank(game, state, ids, chooser)
            .into_iter()
            .filter_map(|c| {
                let u = state.unit(c.id)?;
                let t = &types[u.unit];
                // The owner's developments (Super Submarines, Jet Fighters).
                let strength = if attacking {
                    crate::rules::research::attack(game, state, u.owner, t)
                } else {
                    crate::rules::research::defense(game, state, u.owner, t)
                }
                .unwrap_or(0);
                let mut supportable = crate::rules::combat::supportable(&rules, t);
                // Advanced AAE's national abilities, as the battle fights them.
                let national = crate::rules::combat::national_abilities::value(
                    game,
                    &rules,
                    state,
                    u,
                    attacking,
                    supportable,
                );
                let strength = match national {
                    Some(v) => {
                        supportable = v.supportable;
                        v.strength
                    }
                    None => strength,
                };
                // Advanced AAE AAAE-35: attacking fighters at their
                // land-based values (a question has no carriers' past).
                let strength = match rules.fighter_basing {
                    Some(b)
                        if attacking
                            && t.kind == Some(UnitKind::Air)
                            && !t.has(&Ability::StrategicBomber) =>
                    {
                        if game.is_sea(u.at) {
                            b.land_based_at_sea
                        } else {
                            b.land_based_on_land
                        }
                    }
                    _ => strength,
                };
                // Out of supply (J Boulton JB-40): half the attack, rounded
                // up, artillery support included (it still adds a point
                // where the half of the raised value is higher).
                let isolated = attacking && state.isolated.contains(&u.id);
                // J Boulton paratroopers dropped into this battle attack at
                // 2 (JB-18).
                let strength = match rules.air_transports {
                    Some(air) if attacking && state.paradropped.contains(&u.id) => {
                        air.dropped_attack
                    }
                    _ => strength,
                };
                let (strength, _) =
                    crate::rules::combat::ship_damage::strength(state, u.id, strength);
                let strength = if isolated {
                    supportable = supportable
                        && crate::rules::combat::out_of_supply(strength + 1)
                            > crate::rules::combat::out_of_supply(strength);
                    crate::rules::combat::out_of_supply(strength)
                } else {
                    strength
                };
                // Averted by a special force team (J Boulton JB-35), it rolls
                // in no combat this turn but may be lost, and takes no
                // artillery support, as `combat::battle` leaves it out of the
                // firing groups (an averted artillery still supports there:
                // it rolls nothing for it).
                let averted = state.averted.contains(&u.id);
                if averted {
                    supportable = false;
                }
                let strength = if averted { 0 } else { strength };
                // As `combat::battle` decides it: attacking units only.
                let dice = if attacking {
                    crate::rules::research::attack_dice(game, state, u.owner, t)
                } else {
                    None
                };
                // AAAE-47: at sea only the defenders' destroyers and fighters
                // may hit attacking submarines.
                let fixed_class = (!attacking
                    && rules.only_destroyers_and_fighters_hit_attacking_subs
                    && game.is_sea(u.at))
                .then(|| {
                    if t.has(&Ability::AntiSubmarine)
                        || (t.kind == Some(UnitKind::Air) && !t.has(&Ability::StrategicBomber))
                    {
                        HitClass::Any
                    } else if t.has(&Ability::CannotHitAir) {
                        HitClass::NotAir
                    } else {
                        HitClass::NotHidden
                    }
                });
                // AAAE-29: defending fortifications and the infantry they
                // raise (the question's defenders are one power's).
                let forts = rules.fortifications.filter(|_| !attacking);
                let fortification = forts.is_some()
                    && crate::rules::combat::fortifications::is_fortification(game, &rules, t);
                let fortified = forts
                    .filter(|f| game.unit_type(f.raises).is_some_and(|r| r.name == t.name))
                    .map(|f| f.defence);
                // AAAE-46: each attacking submarine rolls two dice.
                let sub_shots = match rules.one_round_submarines {
                    Some(n) if attacking && t.has(&Ability::Submerge) => n,
                    _ => 1,
                };
                Some(Slot {
                    unit: u.unit,
                    strength,
                    support: if attacking && t.has(&Ability::ArtillerySupport) {
                        crate::rules::combat::national_abilities::supported_per_artillery(
                            game, &rules, state, u.owner,
                        ) as u8
                    } else {
                        0
                    },
                    supportable,
                    air: t.kind == Some(UnitKind::Air),
                    hidden: t.has(&Ability::HiddenFromAir),
                    cannot_hit_air: t.has(&Ability::CannotHitAir),
                    first_strike: strikes && !averted && t.has(&Ability::FirstStrike),
                    anti_sub: t.has(&Ability::AntiSubmarine),
                    sub: t.has(&Ability::FirstStrike),
                    dice_each: match dice {
                        Some((n, true)) => n,
                        _ => 1,
                    },
                    shots: match dice {
                        Some((n, false)) => n,
                        _ => sub_shots,
                    },
                    fixed_class,
                    silent_first_round: false,
                    fortification,
                    fortified,
                    candidate: c,
                })
            })
            .collect();
        Side::new(slots, attacking)
    }

    /// A side of these slots, already in order of loss. Fortifications
    /// ranked after every other unit never have to be hit: the side is
    /// beaten when the units before them are gone (AAAE-29 PROPOSAL).
    pub fn new(slots: Vec<Slot>, attacking: bool) -> Side {
        let all: usize = slots.iter().map(Slot::cap).sum();
        let spare = all - slots.len();
        let trailing: usize = slots
            .iter()
            .rev()
            .take_while(|s| s.fortification)
            .map(Slot::cap)
            .sum();
        let hp = all - trailing;
        Side {
            slots,
            attacking,
            spare,
            hp,
        }
    }

    /// Hits that destroy the side (the last state).
    pub fn hp(&self) -> usize {
        self.hp
    }

    /// The units still in the battle after `h` hits (none once the side is
    /// beaten, though fortifications may stand).
    pub fn alive(&self, h: usize) -> &[Slot] {
        if h >= self.hp {
            &[]
        } else if h <= self.spare {
            &self.slots
        } else {
            &self.slots[(h - self.spare).min(self.slots.len())..]
        }
    }

    /// The same side without `k` units of type `unit` (shot down by AA
    /// fire before the battle): identical units, so which ones is immaterial.
    pub fn without(&self, unit: UnitTypeId, k: usize) -> Side {
        let mut left = k;
        let slots = self
            .slots
            .iter()
            .filter(|s| {
                if left > 0 && s.unit == unit {
                    left -= 1;
                    false
                } else {
                    true
                }
            })
            .cloned()
            .collect();
        Side::new(slots, self.attacking)
    }

    /// True when no unit has hits to spare, so that the units left after
    /// `h` hits are exactly [`Side::alive`]`(h)`, each with its one hit.
    pub fn one_hit_each(&self) -> bool {
        self.spare == 0
    }

    /// Counts by unit type of the units left after `h` hits.
    pub fn survivors(&self, h: usize, types: usize) -> Vec<u32> {
        let mut out = vec![0u32; types];
        for s in self.alive(h) {
            out[s.unit] += 1;
        }
        out
    }
}
