//! What the ladder's system expects of a pairing before it is played.

use crate::ladder::event::PlayerId;
use crate::ladder::replay::Ladder;
use crate::ladder::rules::Rules;
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
        mean(&skills)
    };
    let (sa, sb) = (side(a)?, side(b)?);
    Some(match (&ladder.rules, sa, sb) {
        (_, Skill::Glicko(x), Skill::Glicko(y)) => glicko::predict(&x, &y),
        (_, Skill::Glicko2(x), Skill::Glicko2(y)) => glicko2::predict(&x, &y),
        (Rules::Allegskill(p), Skill::TrueSkill(x), Skill::TrueSkill(y)) => {
            trueskill::predict(&x, &y, &p.trueskill)
        }
        (_, Skill::Elo(x), Skill::Elo(y)) => elo::predict(&x, &y),
        _ => return None,
    })
}

/// The mean skill of a side (one player: that player).
fn mean(skills: &[Skill]) -> Option<Skill> {
    let first = *skills.first()?;
    if skills.len() == 1 {
        return Some(first);
    }
    let n = skills.len() as f64;
    let avg = |f: &dyn Fn(&Skill) -> f64| skills.iter().map(f).sum::<f64>() / n;
    Some(match first {
        Skill::Glicko(_) => Skill::Glicko(glicko::Rating {
            rating: avg(&|s| {
                if let Skill::Glicko(r) = s {
                    r.rating
                } else {
                    0.0
                }
            }),
            deviation: avg(&|s| {
                if let Skill::Glicko(r) = s {
                    r.deviation
                } else {
                    0.0
                }
            }),
        }),
        Skill::Glicko2(g) => Skill::Glicko2(glicko2::Rating {
            mu: avg(&|s| if let Skill::Glicko2(r) = s { r.mu } else { 0.0 }),
            phi: avg(&|s| {
                if let Skill::Glicko2(r) = s {
                    r.phi
                } else {
                    0.0
                }
            }),
            sigma: g.sigma,
        }),
        Skill::TrueSkill(_) => Skill::TrueSkill(trueskill::Rating {
            mu: avg(&|s| {
                if let Skill::TrueSkill(r) = s {
                    r.mu
                } else {
                    0.0
                }
            }),
            sigma: avg(&|s| {
                if let Skill::TrueSkill(r) = s {
                    r.sigma
                } else {
                    0.0
                }
            }),
        }),
        Skill::Elo(_) => Skill::Elo(elo::Rating {
            rating: avg(&|s| if let Skill::Elo(r) = s { r.rating } else { 0.0 }),
        }),
    })
}
