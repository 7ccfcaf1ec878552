//! One entrant's update, shared by the full replay (`replay`) and the prediction-only one
//! (`quick`): the same rating functions under the same margin and class rules, so the two
//! give the same bits.

use crate::event::{EventClass, Match, PlayerId};
use crate::rules::{Params, Rules};
use crate::state::Skill;
use rungs_rating::trace::Trace;
use rungs_rating::{Outcome, elo, glicko, glicko2, goals, memoir44, trueskill};

/// A player about to be rated: their skill going in, and who they face.
pub(crate) struct Entrant {
    pub id: PlayerId,
    pub skill: Skill,
    pub opponent: Skill,
    pub outcome: Outcome,
    /// Whether the player is on side A.
    pub on_a: bool,
    /// The side advantage the player's side gets (negative: the opponent's), in the system's
    /// own units.
    pub advantage: f64,
}

impl Entrant {
    pub(crate) fn new(
        id: PlayerId,
        skill: Skill,
        opponent: Skill,
        outcome: Outcome,
        on_a: bool,
        advantage: f64,
    ) -> Entrant {
        Entrant {
            id,
            skill,
            opponent,
            outcome,
            on_a,
            advantage,
        }
    }
}

/// Each player of `m` with the opponent they are rated against: in 1v1 the other player; in
/// a team match a virtual opponent (`virtual_opponent`). `advantage` is side A's (in the
/// system's units), `skill` each player's skill going into the match.
pub(crate) fn entrants(
    rules: &Rules,
    m: &Match,
    outcome: Outcome,
    advantage: f64,
    skill: impl Fn(PlayerId) -> Skill,
) -> Vec<Entrant> {
    let mut out = Vec::with_capacity(m.a.len() + m.b.len());
    for (own, other, o, on_a, advantage) in [
        (&m.a, &m.b, outcome, true, advantage),
        (&m.b, &m.a, outcome.flipped(), false, -advantage),
    ] {
        let own_skills: Vec<Skill> = own.iter().map(|&id| skill(id)).collect();
        let other_skills: Vec<Skill> = other.iter().map(|&id| skill(id)).collect();
        for (&id, &mine) in own.iter().zip(&own_skills) {
            let opponent = if own.len() == 1 && other.len() == 1 {
                other_skills[0]
            } else {
                virtual_opponent(rules, mine, &own_skills, &other_skills)
            };
            out.push(Entrant::new(id, mine, opponent, o, on_a, advantage));
        }
    }
    out
}

/// `skill` going into a match after `days` idle days (0 or more): INVERSUS's inactivity as a
/// partial rating period (the INVERSUS ranking notes), Skyweaver's RD growth by eq. 1 with days
/// for periods under a `c_per_day`, the goals model's drift; any other skill as it is. Both
/// replays ask here, so a match is rated from the same skills in each.
pub(crate) fn after_idle(params: &Params, skill: Skill, days: f64) -> Skill {
    after_idle_explained(params, skill, days, &mut ())
}

/// [`after_idle`], handing `trace` the idle days and what they did.
pub(crate) fn after_idle_explained<T: Trace + ?Sized>(
    params: &Params,
    skill: Skill,
    days: f64,
    trace: &mut T,
) -> Skill {
    match (params, skill) {
        (Params::Inversus(p), Skill::Glicko2(r)) => {
            trace.step("days", "days since the last match", "days", days);
            trace.step(
                "days/period",
                "days of real time per rating period",
                "days_per_period",
                p.days_per_period,
            );
            let periods = days / p.days_per_period.max(f64::MIN_POSITIVE);
            Skill::Glicko2(glicko2::apply_inactivity_explained(
                &r, periods, &p.glicko2, trace,
            ))
        }
        (Params::Skyweaver(p), Skill::Glicko(r)) if p.c_per_day > 0.0 => {
            let daily = glicko::Config {
                c: p.c_per_day,
                ..p.glicko()
            };
            Skill::Glicko(glicko::grow_deviation_explained(&r, days, &daily, trace))
        }
        (Params::Goals(p), Skill::Goals(r)) => {
            trace.step("days", "days since the last match", "days", days);
            Skill::Goals(goals::grow_explained(&r, days, &p.goals, trace))
        }
        _ => skill,
    }
}

/// The two entrants of a 1v1 match between `a` and `b` going in with `skills`: each the other's
/// opponent, B with the flipped outcome and the advantage mirrored.
pub(crate) fn duel(
    [a, b]: [PlayerId; 2],
    [skill_a, skill_b]: [Skill; 2],
    outcome: Outcome,
    advantage: f64,
) -> [Entrant; 2] {
    [
        Entrant::new(a, skill_a, skill_b, outcome, true, advantage),
        Entrant::new(b, skill_b, skill_a, outcome.flipped(), false, -advantage),
    ]
}

/// Both entrants of a [`duel`] rated (where `rated` says), each skill the one [`rate`] gives
/// it, to the bit: INVERSUS's two volatility searches step together, and a decisive
/// AllegSkill match is worked out once (B's own view of it has the same winner, loser and
/// lead, so the same v and w; a draw's views differ and each is worked out).
pub(crate) fn rate_duel(
    rules: &Rules,
    [ea, eb]: &[Entrant; 2],
    rated: [bool; 2],
    m: &Match,
    scenario: Option<&memoir44::Scenario>,
    trueskill: &trueskill::Config,
    goals_level: Option<(f64, f64)>,
) -> [Option<Skill>; 2] {
    if rated == [true, true] {
        match (&rules.params, ea.skill, eb.skill) {
            (Params::Inversus(p), Skill::Glicko2(a), Skill::Glicko2(b)) => {
                let (new_a, new_b) = glicko2::rate_pair(
                    (&a, &b, ea.outcome, ea.advantage),
                    (&b, &a, eb.outcome, eb.advantage),
                    &p.glicko2,
                );
                return [
                    Some(inversus_after(rules, ea, m, a, new_a)),
                    Some(inversus_after(rules, eb, m, b, new_b)),
                ];
            }
            (Params::Skyweaver(p), Skill::Glicko(a), Skill::Glicko(b)) => {
                let config = p.glicko();
                let (a, b) = glicko::entered_pair(&a, &b, &config);
                let (new_a, new_b) = glicko::rate_pair(
                    (&a, &b, ea.outcome, ea.advantage),
                    (&b, &a, eb.outcome, eb.advantage),
                    &config,
                );
                return [
                    Some(skyweaver_after(rules, ea, m, a, b, new_a)),
                    Some(skyweaver_after(rules, eb, m, b, a, new_b)),
                ];
            }
            (Params::Allegskill(_), Skill::TrueSkill(a), Skill::TrueSkill(b))
                if ea.outcome != Outcome::Draw =>
            {
                let (new_a, new_b) =
                    trueskill::rate_with_advantage(&a, &b, ea.outcome, ea.advantage, trueskill);
                return [Some(Skill::TrueSkill(new_a)), Some(Skill::TrueSkill(new_b))];
            }
            _ => {}
        }
    }
    [ea, eb].map(|e| {
        let i = usize::from(!e.on_a);
        rated[i].then(|| rate(rules, e, m, scenario, trueskill, goals_level))
    })
}

/// The margin and class factor on the entrant's step: 1 exactly for a match
/// without score and class, or under the default rules, so that those move as before to the
/// bit.
fn factor(rules: &Rules, e: &Entrant, m: &Match) -> f64 {
    factor_with(rules, m, || winner_lead(rules, e))
}

/// [`factor`] with the winner's lead worked out only where the rules weigh it.
fn factor_with(rules: &Rules, m: &Match, lead: impl FnOnce() -> f64) -> f64 {
    // Under the default margin rules only a class given as a number weighs (the rules'
    // factor is then 1 to the bit): no lead to work out, nothing to look up.
    if !matches!(m.class, Some(EventClass::Weight(_))) && rules.margin.is_default() {
        return 1.0;
    }
    rules.margin.factor(m.class, m.goals, lead())
}

/// A factor other than 1, handed to `trace` as the margin and class step.
fn trace_factor<T: Trace + ?Sized>(factor: f64, trace: &mut T) {
    if factor != 1.0 {
        trace.section("Margin of victory and event class");
        trace.step(
            "m",
            "margin and class multiplier",
            "class weight × margin factor^γ",
            factor,
        );
    }
}

fn winner_lead(rules: &Rules, e: &Entrant) -> f64 {
    let lead =
        e.skill.rating_1500() - e.opponent.rating_1500() + rules.advantage * e.advantage.signum();
    match e.outcome {
        Outcome::Win => lead,
        Outcome::Loss => -lead,
        Outcome::Draw => 0.0,
    }
}

/// `before` moved by `factor` of its step to `after`.
fn scaled(factor: f64, before: f64, after: f64) -> f64 {
    if factor == 1.0 {
        after
    } else {
        before + factor * (after - before)
    }
}

/// A Skyweaver entrant's skill after the update `new` of `a`, where a newcomer starts where
/// `entry` says (`a` against `b`, each as it entered the match): the margin scales the match's
/// change from there, its lead counted from there too.
fn skyweaver_after(
    rules: &Rules,
    e: &Entrant,
    m: &Match,
    a: glicko::Rating,
    b: glicko::Rating,
    new: glicko::Rating,
) -> Skill {
    skyweaver_after_explained(rules, e, m, a, b, new, &mut ())
}

/// [`skyweaver_after`], handing `trace` the margin and class factor and the scaled rating.
fn skyweaver_after_explained<T: Trace + ?Sized>(
    rules: &Rules,
    e: &Entrant,
    m: &Match,
    a: glicko::Rating,
    b: glicko::Rating,
    new: glicko::Rating,
    trace: &mut T,
) -> Skill {
    let factor = factor_with(rules, m, || {
        let entered = Entrant {
            skill: Skill::Glicko(a),
            opponent: Skill::Glicko(b),
            ..*e
        };
        winner_lead(rules, &entered)
    });
    trace_factor(factor, trace);
    let rating = scaled(factor, a.rating, new.rating);
    if factor != 1.0 {
        trace.step(
            "r'",
            "new rating, the change scaled",
            "r' = r + m·Δr",
            rating,
        );
    }
    Skill::Glicko(glicko::Rating { rating, ..new })
}

/// An INVERSUS entrant's skill after the update `new` of its skill going in, `before`: the
/// step on μ scaled by the margin and class factor, then held within the bounds.
fn inversus_after(
    rules: &Rules,
    e: &Entrant,
    m: &Match,
    before: glicko2::Rating,
    new: glicko2::Rating,
) -> Skill {
    inversus_after_explained(rules, e, m, before, new, &mut ())
}

/// [`inversus_after`], handing `trace` the margin and class factor and the scaled μ.
fn inversus_after_explained<T: Trace + ?Sized>(
    rules: &Rules,
    e: &Entrant,
    m: &Match,
    before: glicko2::Rating,
    new: glicko2::Rating,
    trace: &mut T,
) -> Skill {
    let Params::Inversus(p) = &rules.params else {
        return e.skill;
    };
    let factor = factor(rules, e, m);
    trace_factor(factor, trace);
    let mu = scaled(factor, before.mu, new.mu).clamp(p.glicko2.min_mu, p.glicko2.max_mu);
    if factor != 1.0 {
        trace.step(
            "μ'",
            "new rating, the change scaled and bounded",
            "μ' = min(max(μ + m·Δμ, μ_min), μ_max)",
            mu,
        );
    }
    Skill::Glicko2(glicko2::Rating { mu, ..new })
}

/// The entrant's new skill from one 1v1 update against their opponent, with their side's
/// advantage. `trueskill` is AllegSkill's constants for this match (`Ladder::trueskill`), a
/// goals newcomer's pool part `goals_level` (`Ladder::goals_level`).
pub(crate) fn rate(
    rules: &Rules,
    e: &Entrant,
    m: &Match,
    scenario: Option<&memoir44::Scenario>,
    trueskill: &trueskill::Config,
    goals_level: Option<(f64, f64)>,
) -> Skill {
    rate_explained(rules, e, m, scenario, trueskill, goals_level, &mut ())
}

/// [`rate`], handing `trace` each figure of the system's update, in sections (the plain
/// function is this one with no trace, so the figures are the update's own).
pub(crate) fn rate_explained<T: Trace + ?Sized>(
    rules: &Rules,
    e: &Entrant,
    m: &Match,
    scenario: Option<&memoir44::Scenario>,
    trueskill: &trueskill::Config,
    goals_level: Option<(f64, f64)>,
    trace: &mut T,
) -> Skill {
    let h = e.advantage;
    match (&rules.params, e.skill, e.opponent) {
        (Params::Skyweaver(p), Skill::Glicko(a0), Skill::Glicko(b0)) => {
            let config = p.glicko();
            let (a, b) = glicko::entered_pair(&a0, &b0, &config);
            if a != a0 || b != b0 {
                trace.section("Newcomer's start");
                trace.step(
                    "r_entry",
                    "where this side starts",
                    "r_init + entry·(r_j − r_init) + entry_offset",
                    a.rating,
                );
                trace.step(
                    "r_j entry",
                    "where the opponent starts",
                    "r_init + entry·(r − r_init) + entry_offset",
                    b.rating,
                );
            }
            trace.section("Glicko-1 update");
            let new = glicko::rate_one_explained(&a, &b, e.outcome, h, &config, trace);
            skyweaver_after_explained(rules, e, m, a, b, new, trace)
        }
        (Params::Inversus(p), Skill::Glicko2(a), Skill::Glicko2(b)) => {
            trace.section("Glicko-2 expected score");
            let new = glicko2::rate_one_explained(&a, &b, e.outcome, h, &p.glicko2, trace);
            inversus_after_explained(rules, e, m, a, new, trace)
        }
        (Params::Allegskill(_), Skill::TrueSkill(a), Skill::TrueSkill(b)) => {
            trace.section("TrueSkill update");
            Skill::TrueSkill(trueskill::rate_explained(&a, &b, e.outcome, h, trueskill, trace).0)
        }
        (Params::Memoir44(p), Skill::Elo(a), Skill::Elo(b)) => {
            // Medals are the margin already: with them only the class weighs.
            let weight = if m.medals.is_some() {
                crate::rules::MarginRules {
                    margin: rungs_rating::margin::Margin::None,
                    ..rules.margin
                }
                .factor(m.class, m.goals, winner_lead(rules, e))
            } else {
                factor(rules, e, m)
            };
            let p = &memoir44::Config {
                points: p.points * weight,
                ..*p
            };
            // The scenario and medals are A's view; B's entrants see them mirrored.
            let sc = scenario.map(|s| if e.on_a { *s } else { s.mirrored() });
            let medals = m.medals.map(crate::values::Medals::get).map(|[x, y]| {
                if e.on_a {
                    memoir44::Medals { a: x, b: y }
                } else {
                    memoir44::Medals { a: y, b: x }
                }
            });
            if weight != 1.0 {
                trace.section("Event class");
                trace.step("m", "class multiplier on the stake", "class weight", weight);
                trace.step("64·m", "the stake's base", "64·m", p.points);
            }
            trace.section("Memoir '44 update");
            Skill::Elo(
                memoir44::rate_explained(
                    &a,
                    &b,
                    e.outcome,
                    sc.as_ref(),
                    medals.as_ref(),
                    h,
                    p,
                    trace,
                )
                .0,
            )
        }
        (Params::Elo(p), Skill::Elo(a), Skill::Elo(b)) => {
            let factor = factor(rules, e, m);
            trace_factor(factor, trace);
            let config = elo::Config {
                k: p.k * factor,
                ..p.elo
            };
            trace.section("Elo update");
            Skill::Elo(elo::rate_explained(&a, &b, e.outcome, h, &config, trace).0)
        }
        (Params::Goals(p), Skill::Goals(a), Skill::Goals(b)) => {
            // The score is A's view; B's entrants see it mirrored.
            let score = m.goals.map(|[x, y]| if e.on_a { (x, y) } else { (y, x) });
            let weight = p.weight(m.class);
            trace.section("Goals model update");
            Skill::Goals(goals::rate_explained(
                &a,
                &b,
                score,
                e.outcome,
                h,
                weight,
                goals_level,
                &p.goals,
                trace,
            ))
        }
        // Skills always match the rules: a rules change converts every player.
        _ => e.skill,
    }
}

/// The opponent a team member is rated against. INVERSUS (its ranking notes' composite
/// opponent): own rating + (mean opposing − mean own team), deviation the opposing mean. Other
/// systems: the opposing means.
fn virtual_opponent(rules: &Rules, own: Skill, team: &[Skill], opponents: &[Skill]) -> Skill {
    let opposing = Skill::mean(opponents).unwrap_or(own);
    match (&rules.params, own, opposing, Skill::mean(team)) {
        (
            Params::Inversus(_),
            Skill::Glicko2(me),
            Skill::Glicko2(opp),
            Some(Skill::Glicko2(mine)),
        ) => Skill::Glicko2(glicko2::Rating {
            mu: me.mu + (opp.mu - mine.mu),
            ..opp
        }),
        _ => opposing,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::MatchResult;
    use crate::rules::System;

    /// A 1v1 match's two updates at once (`rate_duel`) are, to the bit, each entrant's own
    /// (`rate`), under every system, for each result, with an advantage either way and none,
    /// with and without a score, a class, margin rules and Skyweaver's newcomer entry:
    /// INVERSUS's paired searches, AllegSkill's one decisive update and Skyweaver's paired
    /// updates change nothing.
    #[test]
    fn a_duel_rates_each_side_as_alone() {
        let bits = |s: [Option<Skill>; 2]| format!("{s:?}");
        for system in System::ALL {
            let mut plain = Rules::defaults(system);
            plain.advantage = 60.0;
            let mut scored = plain.clone();
            scored.margin.margin = rungs_rating::margin::Margin::Log;
            scored.margin.margin_power = 0.5;
            scored.margin.k_cup = 0.6;
            if let Params::Skyweaver(p) = &mut scored.params {
                p.entry = 0.4;
                p.entry_offset = -230.0;
            }
            for rules in [&plain, &scored] {
                let ts = trueskill::Config::default();
                // Players apart after a few matches of their own.
                let played = |x: Skill, y: Skill, o: Outcome, h: f64| {
                    let m = Match::new(0, 1, MatchResult::Played(o));
                    rate(rules, &duel([0, 1], [x, y], o, h)[0], &m, None, &ts, None)
                };
                let s0 = Skill::initial(rules);
                let s1 = played(s0, s0, Outcome::Win, 0.0);
                let s2 = played(s1, s0, Outcome::Loss, rules.advantage_native());
                let s3 = played(s0, s2, Outcome::Draw, -rules.advantage_native());
                let pairs = [(s1, s0), (s0, s2), (s2, s3), (s3, s1), (s1, s2)];
                for (k, (x, y)) in pairs.into_iter().enumerate() {
                    for outcome in [Outcome::Win, Outcome::Draw, Outcome::Loss] {
                        for sign in [1.0, 0.0, -1.0] {
                            let mut m = Match::new(0, 1, MatchResult::Played(outcome));
                            if rules == &scored {
                                m.goals = Some(match outcome {
                                    Outcome::Win => [4, 1],
                                    Outcome::Draw => [2, 2],
                                    Outcome::Loss => [0, 1],
                                });
                                m.class = Some(if k % 2 == 0 {
                                    EventClass::Cup
                                } else {
                                    EventClass::Weight(2.5)
                                });
                            }
                            let h = rules.advantage_native() * sign;
                            let pair = duel([0, 1], [x, y], outcome, h);
                            let alone = pair
                                .each_ref()
                                .map(|e| Some(rate(rules, e, &m, None, &ts, None)));
                            let both = rate_duel(rules, &pair, [true, true], &m, None, &ts, None);
                            let at = format!("{system:?} {k} {outcome:?} {sign} {m:?}");
                            assert_eq!(bits(both), bits(alone), "{at}");
                            // One side rated (a forfeit): that side alone.
                            let one = rate_duel(rules, &pair, [false, true], &m, None, &ts, None);
                            assert_eq!(bits(one), bits([None, alone[1]]), "{at}");
                        }
                    }
                }
            }
        }
    }
}
