//! What the ladder's system expects of a pairing before it is played.

use crate::ladder::event::{Match, PlayerId};
use crate::ladder::replay::Ladder;
use crate::ladder::rules::Params;
use crate::ladder::state::Skill;
use crate::rating::{Prediction, elo, glicko, glicko2, goals, trueskill};
use chrono::NaiveDate;

/// Side A's win, draw and loss probabilities against side B under the ladder's rules (teams
/// by their mean ratings), on neutral ground, or `None` if a player is unknown.
pub fn predict(ladder: &Ladder, a: &[PlayerId], b: &[PlayerId]) -> Option<Prediction> {
    let side = |ids: &[PlayerId]| -> Option<Skill> {
        let skills: Vec<Skill> = ids
            .iter()
            .map(|&i| ladder.player(i).filter(|p| p.joined).map(|p| p.skill))
            .collect::<Option<_>>()?;
        Skill::mean(&skills)
    };
    predict_skills(ladder, side(a)?, side(b)?, 0.0)
}

/// The prediction for match `m` played on `date`, from the skills that would rate it: each
/// player's skill going into the match (INVERSUS's idle periods, Skyweaver's RD growth per
/// idle day) and the match's side advantage (SPEC §2.6). What prediction quality and fitting
/// score. `None` if a player is unknown.
pub fn predict_match(ladder: &Ladder, m: &Match, date: NaiveDate) -> Option<Prediction> {
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
pub(crate) fn predict_skills(
    ladder: &Ladder,
    sa: Skill,
    sb: Skill,
    advantage: f64,
) -> Option<Prediction> {
    predict_under(
        &ladder.rules.params,
        || ladder.trueskill(),
        sa,
        sb,
        advantage,
    )
}

/// [`predict_skills`] under `params`, AllegSkill's constants from `trueskill` (read only
/// under AllegSkill): what the prediction-only replay (`ladder::quick`) calls.
pub(crate) fn predict_under(
    params: &Params,
    trueskill: impl FnOnce() -> Option<trueskill::Config>,
    sa: Skill,
    sb: Skill,
    advantage: f64,
) -> Option<Prediction> {
    let h = advantage;
    Some(match (params, sa, sb) {
        (_, Skill::Glicko(x), Skill::Glicko(y)) => glicko::predict_with_advantage(&x, &y, h),
        (_, Skill::Glicko2(x), Skill::Glicko2(y)) => glicko2::predict_with_advantage(&x, &y, h),
        (Params::Allegskill(_), Skill::TrueSkill(x), Skill::TrueSkill(y)) => {
            trueskill::predict_with_advantage(&x, &y, h, &trueskill()?)
        }
        (_, Skill::Elo(x), Skill::Elo(y)) => elo::predict_with_advantage(&x, &y, h),
        (Params::Goals(p), Skill::Goals(x), Skill::Goals(y)) => {
            goals::predict_with_advantage(&x, &y, h, &p.goals)
        }
        _ => return None,
    })
}
