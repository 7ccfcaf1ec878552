//! Rating periods as Glickman's papers run them ("The Glicko system"; "Example of the
//! Glicko-2 system"), an option of the Glicko family (`rules::RATING_PERIOD_DAYS`): every game
//! of a period is scored against the ratings its players had when the period began, and the
//! update is one period update over all of them (`glicko::rate_period`,
//! `glicko2::rate_period`). The ladder shows a rating after each game, so after each game a
//! player's rating is the period update over the period's games so far; after the period's
//! last game it is Glickman's.

use crate::calendar::default_anchor;
use crate::rules::{Params, Rules};
use crate::state::{RatingPeriod, Skill};
use chrono::NaiveDate;
use rungs_rating::trace::Trace;
use rungs_rating::{glicko, glicko2};

/// The period `date` falls in, for periods `days` long counted from Monday 2001-01-01.
pub fn period_index(date: NaiveDate, days: u32) -> i64 {
    (date - default_anchor())
        .num_days()
        .div_euclid(i64::from(days.max(1)))
}

/// The period a player with `period` and skill `now` is in on day `index`, if it is still
/// going (the same period, their skill as its last game left it).
fn current(period: Option<&RatingPeriod>, now: Skill, index: i64) -> Option<&RatingPeriod> {
    period.filter(|p| p.index == index && p.left == now)
}

/// A player's skill at the start of period `index`: where the period began for one who has
/// played in it, else their skill going into this match (`going_in`: after idle time).
pub fn start_of(period: Option<&RatingPeriod>, now: Skill, going_in: Skill, index: i64) -> Skill {
    current(period, now, index).map_or(going_in, |p| p.start)
}

/// A player's update at one more game of period `index`: the period update from their start
/// over the period's games so far and this one (against `opponent_start`, scoring `score`),
/// with the period as it then stands. `None` under rules without rating periods, or a skill
/// of another system.
#[allow(clippy::too_many_arguments)]
pub fn rate_game<T: Trace + ?Sized>(
    rules: &Rules,
    period: Option<&RatingPeriod>,
    now: Skill,
    going_in: Skill,
    opponent_start: Skill,
    score: f64,
    index: i64,
    trace: &mut T,
) -> Option<(Skill, RatingPeriod)> {
    let going = current(period, now, index);
    let start = going.map_or(going_in, |p| p.start);
    let mut games = going.map_or_else(Vec::new, |p| p.games.clone());
    games.push((opponent_start, score));
    let after = match (&rules.params, start) {
        (Params::Skyweaver(p), Skill::Glicko(r)) => {
            let results: Vec<(glicko::Rating, f64)> = games
                .iter()
                .filter_map(|(o, s)| match o {
                    Skill::Glicko(o) => Some((*o, *s)),
                    _ => None,
                })
                .collect();
            Skill::Glicko(glicko::rate_period_explained(
                &r,
                &results,
                &p.glicko(),
                trace,
            ))
        }
        (Params::Inversus(p), Skill::Glicko2(r)) => {
            let results: Vec<(glicko2::Rating, f64)> = games
                .iter()
                .filter_map(|(o, s)| match o {
                    Skill::Glicko2(o) => Some((*o, *s)),
                    _ => None,
                })
                .collect();
            Skill::Glicko2(glicko2::rate_period_explained(
                &r, &results, &p.glicko2, trace,
            ))
        }
        _ => return None,
    };
    Some((
        after,
        RatingPeriod {
            index,
            start,
            games,
            left: after,
        },
    ))
}
