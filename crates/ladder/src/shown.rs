//! A player's figures as text: the one way every door (the app, the command line, the
//! published site and its share image) writes a system's score and rating.
//!
//! Scores and ratings on the 1500 scale are whole points: the updates move them by
//! fractions, but a tenth of a point means nothing to a player comparing places, and a
//! column of "1516.0" reads as more precise than any rating is. TrueSkill's μ ± σ, near 25,
//! keeps one decimal, where a whole number would hide every change.

use crate::state::{Figures, Skill};

/// The system's score: Rank Points (Skyweaver, INVERSUS), the shown rank (AllegSkill), the
/// rating (Memoir '44, Elo, goals): "1516".
pub fn score(f: &Figures) -> String {
    format!("{:.0}", f.score)
}

/// The rating, with its deviation where the system has one: "1634 ± 30" (Glicko, Glicko-2,
/// goals), "25.3 ± 4.1" (TrueSkill's μ ± σ), "1516" (Elo).
pub fn rating(skill: &Skill, f: &Figures) -> String {
    match skill {
        Skill::Glicko(_) | Skill::Glicko2(_) | Skill::Goals(_) => {
            format!("{:.0} ± {:.0}", f.rating, f.deviation)
        }
        Skill::TrueSkill(_) => format!("{:.1} ± {:.1}", f.rating, f.deviation),
        Skill::Elo(_) => format!("{:.0}", f.rating),
    }
}

/// The score as a standings column shows it: with its uncertainty where the score is a
/// rating that has one (goals: "1516 ± 30"), else [`score`].
pub fn score_column(skill: &Skill, f: &Figures) -> String {
    match skill {
        Skill::Goals(_) => rating(skill, f),
        _ => score(f),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rungs_rating::{elo, glicko, goals, trueskill};

    fn figures(rating: f64, deviation: f64, score: f64) -> Figures {
        Figures {
            rating,
            deviation,
            extra: 0.0,
            score,
        }
    }

    /// Each system's text by hand: whole points on the 1500 scale (1516.0 is "1516", RP
    /// 1215.5 is "1216", 1634.4 ± 29.6 is "1634 ± 30"), TrueSkill's μ ± σ to a tenth (25.34 ±
    /// 4.06 is "25.3 ± 4.1").
    #[test]
    fn each_system_writes_its_figures_one_way() {
        let elo = Skill::Elo(elo::Rating { rating: 1516.0 });
        let f = figures(1516.0, 0.0, 1516.0);
        assert_eq!(score(&f), "1516");
        assert_eq!(rating(&elo, &f), "1516");
        assert_eq!(score_column(&elo, &f), "1516");
        let glicko = Skill::Glicko(glicko::Rating {
            rating: 1634.4,
            deviation: 29.6,
        });
        let f = figures(1634.4, 29.6, 1215.5);
        assert_eq!(score(&f), "1216");
        assert_eq!(rating(&glicko, &f), "1634 ± 30");
        assert_eq!(score_column(&glicko, &f), "1216");
        let ts = Skill::TrueSkill(trueskill::Rating {
            mu: 25.34,
            sigma: 4.06,
        });
        let f = figures(25.34, 4.06, 12.0);
        assert_eq!(rating(&ts, &f), "25.3 ± 4.1");
        assert_eq!(score_column(&ts, &f), "12");
        let goals = Skill::Goals(goals::Rating {
            attack: 0.1,
            defence: -0.1,
            variance: 0.05,
        });
        let f = figures(1516.2, 30.4, 1516.2);
        assert_eq!(score_column(&goals, &f), "1516 ± 30");
    }
}
