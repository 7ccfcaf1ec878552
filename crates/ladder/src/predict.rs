//! What the ladder's system expects of a pairing before it is played.

use crate::event::{Match, PlayerId};
use crate::replay::Ladder;
use crate::rules::DRAW_PRIOR_MATCHES;
use crate::rules::Params;
use crate::seasons;
use crate::state::Skill;
use chrono::NaiveDate;
use rungs_rating::{
    DrawThreshold, Prediction, draw_threshold_for_rate, elo, glicko, glicko2, goals, keep_expected,
    trueskill,
};

/// Side A's win, draw and loss probabilities against side B under the ladder's rules (teams
/// by their mean ratings), on neutral ground, or `None` if a player is unknown; with a draw
/// probability for every system ([`with_draws`]).
pub fn predict(ladder: &Ladder, a: &[PlayerId], b: &[PlayerId]) -> Option<Prediction> {
    let side = |ids: &[PlayerId]| -> Option<Skill> {
        let skills: Vec<Skill> = ids
            .iter()
            .map(|&i| ladder.player(i).filter(|p| p.joined).map(|p| p.skill))
            .collect::<Option<_>>()?;
        Skill::mean(&skills)
    };
    predict_skills(ladder, side(a)?, side(b)?, 0.0).map(|p| with_draws(ladder, p))
}

/// The three-outcome forecast of match `m` on `date`: [`predict_match`] with a draw
/// probability for every system ([`with_draws`]). What predict, the forecast and pairings
/// show; prediction quality scores [`predict_match`] and evaluate's own learnt threshold.
pub fn forecast_match(ladder: &Ladder, m: &Match, date: NaiveDate) -> Option<Prediction> {
    predict_match(ladder, m, date).map(|p| with_draws(ladder, p))
}

/// A system's prediction with a draw probability: as it is for a system with a draw model
/// of its own (goals, AllegSkill); for the others the draws split around the system's own
/// expected score, which they keep ([`keep_expected`]: P(win) + ½·P(draw) is the figure the
/// system rates the match with), at the ladder's even-game draw rate ([`draw_rate`]).
pub fn with_draws(ladder: &Ladder, p: Prediction) -> Prediction {
    if ladder.rules.facts().draws {
        p
    } else {
        keep_expected(p.expected_score(), draw_rate(ladder))
    }
}

/// The rate at which two equal sides are forecast to draw on this ladder:
/// p = (drawn + n·p₀)/(played + n), with n = [`DRAW_PRIOR_MATCHES`] and p₀ = 1 − 2σ(−θ₀) the
/// rate of the threshold evaluate starts from (θ₀ = 0.5: 24.5 %). So a new ladder forecasts
/// about a quarter of even games drawn, one whose games are never drawn comes to forecast
/// none, and no parameter needs setting: the ladder's own results set it, as AllegSkill's
/// `draw_rate=observed` sets ε.
pub fn draw_rate(ladder: &Ladder) -> f64 {
    let theta0 = DrawThreshold::default().theta;
    let p0 = 1.0 - 2.0 / (1.0 + theta0.exp());
    let r = ladder.results.unwrap_or_default();
    (r.drawn as f64 + DRAW_PRIOR_MATCHES * p0) / (r.played as f64 + DRAW_PRIOR_MATCHES)
}

/// The ordered logit's threshold θ at the ladder's [`draw_rate`]: the θ at which two equal
/// sides draw as often.
pub fn draw_threshold(ladder: &Ladder) -> f64 {
    draw_threshold_for_rate(draw_rate(ladder))
}

/// The prediction for match `m` played on `date`, from the skills that would rate it: the
/// season calendar's resets due by then applied first ([`seasons::as_of`]), each player's
/// skill going into the match (INVERSUS's idle periods, Skyweaver's RD growth per idle day)
/// and the match's side advantage. What prediction quality and fitting score. `None` if a
/// player is unknown.
pub fn predict_match(ladder: &Ladder, m: &Match, date: NaiveDate) -> Option<Prediction> {
    let at = seasons::as_of(ladder, date);
    let ladder: &Ladder = &at;
    let side = |ids: &[PlayerId]| -> Option<Skill> {
        let skills: Vec<Skill> = ids
            .iter()
            .map(|&i| {
                ladder
                    .player(i)
                    .filter(|p| p.joined)
                    .map(|_| ladder.skill_going_in(i, date))
            })
            .collect::<Option<_>>()?;
        Skill::mean(&skills)
    };
    let advantage = ladder.rules.advantage_native() * m.advantage_sign();
    predict_skills(ladder, side(&m.a)?, side(&m.b)?, advantage)
}

/// Side A (`sa`) against side B under the ladder's rules, A's rating raised by `advantage`
/// in the system's own units.
pub fn predict_skills(ladder: &Ladder, sa: Skill, sb: Skill, advantage: f64) -> Option<Prediction> {
    predict_under(
        &ladder.rules.params,
        || ladder.trueskill(),
        ladder.goals_level(),
        sa,
        sb,
        advantage,
    )
}

/// [`predict_skills`] under `params`, AllegSkill's constants from `trueskill` (read only
/// under AllegSkill), a goals newcomer's level from the pool's `goals_level`: what the
/// prediction-only replay (`ladder::quick`) calls.
pub(crate) fn predict_under(
    params: &Params,
    trueskill: impl FnOnce() -> Option<trueskill::Config>,
    goals_level: Option<(f64, f64)>,
    sa: Skill,
    sb: Skill,
    advantage: f64,
) -> Option<Prediction> {
    let h = advantage;
    Some(match (params, sa, sb) {
        (Params::Skyweaver(p), Skill::Glicko(x), Skill::Glicko(y)) => {
            glicko::predict_entered(&x, &y, h, &p.glicko())
        }
        (_, Skill::Glicko(x), Skill::Glicko(y)) => glicko::predict_with_advantage(&x, &y, h),
        (_, Skill::Glicko2(x), Skill::Glicko2(y)) => glicko2::predict_with_advantage(&x, &y, h),
        (Params::Allegskill(_), Skill::TrueSkill(x), Skill::TrueSkill(y)) => {
            trueskill::predict_with_advantage(&x, &y, h, &trueskill()?)
        }
        (_, Skill::Elo(x), Skill::Elo(y)) => elo::predict_with_advantage(&x, &y, h),
        (Params::Goals(p), Skill::Goals(x), Skill::Goals(y)) => {
            goals::predict_at(&x, &y, h, goals_level, &p.goals)
        }
        _ => return None,
    })
}
