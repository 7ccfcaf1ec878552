//! What the ladder's system expects of a pairing before it is played.

use crate::ladder::event::PlayerId;
use crate::ladder::replay::Ladder;
use crate::ladder::rules::Params;
use crate::ladder::state::Skill;
use crate::rating::{Prediction, elo, glicko, glicko2, trueskill};

/// Side A's win, draw and loss probabilities against side B under the ladder's rules (teams
/// by their mean ratings), or `None` if a player is unknown.
pub fn predict(ladder: &Ladder, a: &[PlayerId], b: &[PlayerId]) -> Option<Prediction> {
    let side = |ids: &[PlayerId]| -> Option<Skill> {
        let skills: Vec<Skill> = ids
            .iter()
            .map(|&i| ladder.player(i).filter(|p| p.joined).map(|p| p.skill))
            .collect::<Option<_>>()?;
        Skill::mean(&skills)
    };
    let (sa, sb) = (side(a)?, side(b)?);
    Some(match (&ladder.rules.params, sa, sb) {
        (_, Skill::Glicko(x), Skill::Glicko(y)) => glicko::predict(&x, &y),
        (_, Skill::Glicko2(x), Skill::Glicko2(y)) => glicko2::predict(&x, &y),
        (Params::Allegskill(p), Skill::TrueSkill(x), Skill::TrueSkill(y)) => {
            trueskill::predict(&x, &y, &p.effective_trueskill())
        }
        (_, Skill::Elo(x), Skill::Elo(y)) => elo::predict(&x, &y),
        _ => return None,
    })
}
