//! One player's change at one match worked out by the replay's own functions, each figure
//! handed to a [`Trace`] on the way (`rungs explain`, the app's explanation panel). The
//! functions are those `Ladder::apply` calls, with a trace where it passes none, so the
//! figures are the very arithmetic that rated the match.

use crate::entrant;
use crate::event::{Match, PlayerId};
use crate::inversus;
use crate::replay::rated_sides;
use crate::rules::Params;
use crate::skyweaver;
use crate::state::{Ladder, Skill};
use chrono::NaiveDate;
use rungs_rating::trace::Trace;
use rungs_rating::{Outcome, glicko};

/// What a match made of one player's skill and Rank Points.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MatchChange {
    pub skill: Skill,
    /// Rank Points after the match (the systems without them: as they were).
    pub rp: f64,
}

/// `player`'s change at match `m` dated `date`, on `ladder` as the match finds it (the season
/// calendar's due resets applied: [`crate::seasons::catch_up`]), every figure handed to
/// `trace`. `None` when the match rates nobody (cancelled), or not this player (not in it, or
/// left behind by a forfeit).
pub fn match_explained<T: Trace + ?Sized>(
    ladder: &Ladder,
    date: NaiveDate,
    m: &Match,
    player: PlayerId,
    trace: &mut T,
) -> Option<MatchChange> {
    let (outcome, rated) = rated_sides(m.result)?;
    let on_a = m.a.contains(&player);
    if !on_a && !m.b.contains(&player) || !rated[usize::from(!on_a)] {
        return None;
    }
    let state = ladder.players.get(player as usize).filter(|p| p.joined)?;
    for id in m.a.iter().chain(m.b.iter()) {
        ladder.players.get(*id as usize).filter(|p| p.joined)?;
    }
    // The idle time first, as `Ladder::skill_going_in` applies it.
    if let Some(last) = state.last_played {
        let days = (date - last).num_days().max(0) as f64;
        trace.section("Idle time before the match");
        let idle = entrant::after_idle_explained(&ladder.rules.params, state.skill, days, trace);
        debug_assert_eq!(
            format!("{idle:?}"),
            format!("{:?}", ladder.skill_going_in(player, date))
        );
    }
    let advantage = ladder.rules.advantage_native() * m.advantage_sign();
    let entrants = match (&*m.a, &*m.b) {
        ([a], [b]) => entrant::duel(
            [*a, *b],
            [
                ladder.skill_going_in(*a, date),
                ladder.skill_going_in(*b, date),
            ],
            outcome,
            advantage,
        )
        .into(),
        _ => entrant::entrants(&ladder.rules, m, outcome, advantage, |id| {
            ladder.skill_going_in(id, date)
        }),
    };
    let e = entrants.iter().find(|e| e.id == player)?;
    if m.a.len() + m.b.len() > 2 {
        trace.section("Team match");
        trace.step(
            "virtual opponent",
            "rated against the other side's mean",
            "INVERSUS: own + (mean opposing − mean own team); else the opposing means",
            e.opponent.rating_1500(),
        );
    }
    let scenario = ladder.scenarios.lookup(m);
    let trueskill = ladder.trueskill().unwrap_or_default();
    let opponent = match (&*m.a, &*m.b) {
        ([a], [b]) => Some(if *a == player { *b } else { *a }),
        _ => None,
    };
    let after = if let Some(days) = ladder.rules.rating_period_days() {
        trace.section("Rating period (Glickman): every game of the period so far");
        trace.step(
            "period days",
            "length of a rating period",
            "rating_period_days",
            f64::from(days),
        );
        ladder.period_update(e, opponent, date, trace)?.0
    } else {
        entrant::rate_explained(
            &ladder.rules,
            e,
            m,
            scenario.as_ref(),
            &trueskill,
            ladder.goals_level(),
            trace,
        )
    };
    // Rank Points, as `Ladder::settle` moves them.
    let rp = match (&ladder.rules.params, e.skill, after) {
        (Params::Skyweaver(params), Skill::Glicko(b), Skill::Glicko(a)) => {
            let b = match e.opponent {
                Skill::Glicko(o) => glicko::entered(&b, &o, &params.glicko()),
                _ => b,
            };
            let bonus = e.outcome == Outcome::Win && state.streak >= 2;
            trace.section("Rank Points (equation 4)");
            let rp = skyweaver::next_rp_explained(
                state.rp,
                a.rating - b.rating,
                e.outcome.score(),
                bonus,
                state.floor,
                params,
                trace,
            );
            trace.section("Floor and tier");
            let floor = state.floor.max(params.tier_minimums.floor_reached(rp));
            trace.step(
                "floor'",
                "the season's hard floor after the match",
                "the highest hard floor (Table 1's floor tiers, at the ladder's minimums) at or below RP' this season",
                floor,
            );
            let tier = params.tier_minimums.of_rp(rp);
            trace.step(
                "tier",
                tier.name(),
                "the tier whose minimum is the highest at or below RP' (Grandweaver: the top Masters)",
                params.tier_minimums.min_rp(tier),
            );
            rp
        }
        (Params::Inversus(params), Skill::Glicko2(b), Skill::Glicko2(a)) => {
            let opp_mu = match e.opponent {
                Skill::Glicko2(o) => o.mu,
                _ => b.mu,
            };
            trace.section("Rank Points");
            inversus::next_rp_explained(state.rp, b.mu, &a, opp_mu, e.outcome, params, trace)
        }
        _ => state.rp,
    };
    Some(MatchChange { skill: after, rp })
}
