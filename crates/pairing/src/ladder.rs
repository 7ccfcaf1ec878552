//! The pairing engine fed from a ladder: the players present with their places and ratings,
//! the forecast of the ladder's own system (the code `rungs predict` and Enter match use),
//! and what the log says about recent meetings and sides.

use super::model::{Constraints, Entrant, Forecast, PairError, Seat};
use chrono::NaiveDate;
use rungs_ladder::event::{Event, Home, MatchResult, PlayerId};
use rungs_ladder::predict::{predict_skills, with_draws};
use rungs_ladder::replay::Ladder;
use rungs_ladder::standings::standings;
use rungs_ladder::state::Skill;
use rungs_rating::Prediction;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

/// The ladder's forecast for the players present, each rated as they would go into a match
/// on the pairing's date (idle time counted), side A at home or moving first.
pub struct LadderForecast<'a> {
    /// The ladder as the pairing's date finds it: the season calendar's resets due by then
    /// applied, as they are before the games are rated.
    ladder: Cow<'a, Ladder>,
    skills: Vec<Skill>,
    advantage: f64,
}

impl Forecast for LadderForecast<'_> {
    fn predict(&self, a: usize, b: usize) -> Prediction {
        predict_skills(&self.ladder, self.skills[a], self.skills[b], self.advantage)
            .map(|p| with_draws(&self.ladder, p))
            .filter(|p| p.win_a.is_finite() && p.draw.is_finite() && p.win_b.is_finite())
            // Every present player's skill is of the ladder's system (checked in `present`).
            .unwrap_or(Prediction::decisive(0.5))
    }

    fn symmetric(&self) -> bool {
        self.advantage == 0.0
    }
}

/// The entrants for `ids` (in that order) on `date`, and the ladder's forecast for them.
/// `history` supplies the byes and last sides. Places, strengths and chances are those of
/// the ladder on `date`, after the season calendar's resets due by then.
pub fn present<'a>(
    ladder: &'a Ladder,
    ids: &[PlayerId],
    date: NaiveDate,
    history: &History,
) -> Result<(Vec<Entrant>, LadderForecast<'a>), PairError> {
    let at = rungs_ladder::seasons::as_of(ladder, date);
    let ladder: &Ladder = &at;
    let places: BTreeMap<PlayerId, usize> = standings(ladder)
        .iter()
        .map(|s| (s.id, s.position))
        .collect();
    let centre = ladder.centre();
    let mut entrants = Vec::with_capacity(ids.len());
    let mut skills = Vec::with_capacity(ids.len());
    for &id in ids {
        let p = ladder
            .player(id)
            .filter(|p| p.joined)
            .ok_or_else(|| PairError::Invalid(format!("player #{id} is not on the ladder")))?;
        let skill = ladder.skill_going_in(id, date);
        if predict_skills(ladder, skill, skill, 0.0).is_none() {
            return Err(PairError::Invalid(format!(
                "{} has no rating under the ladder's system",
                p.name
            )));
        }
        entrants.push(Entrant {
            id,
            name: p.name.clone(),
            place: places.get(&id).copied().unwrap_or(usize::MAX),
            strength: p.figures_at(centre).rating,
            byes: history.byes.get(&id).copied().unwrap_or(0),
            last_seat: history.last_seat.get(&id).copied(),
        });
        skills.push(skill);
    }
    Ok((
        entrants,
        LadderForecast {
            advantage: ladder.rules.advantage_native(),
            ladder: at,
            skills,
        },
    ))
}

/// What the log says that pairing needs: the date of each pair's latest game, each
/// player's latest side, and the club nights (dates with a game).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct History {
    last_met: BTreeMap<(PlayerId, PlayerId), NaiveDate>,
    pub last_seat: BTreeMap<PlayerId, Seat>,
    /// Byes had, from the rounds saved in the log.
    pub byes: BTreeMap<PlayerId, u32>,
    nights: BTreeSet<NaiveDate>,
}

impl History {
    /// Reads one event; events come in replay order. Cancelled matches did not happen;
    /// team matches count for sides but not as meetings of two players. A saved round's
    /// boards are meetings on its date (its results may not be in yet), its side A sat at
    /// home or moved first, and its bye is one more bye.
    pub fn read(&mut self, date: NaiveDate, event: &Event) {
        if let Event::Round { round } = event {
            self.nights.insert(date);
            for &[a, b] in &round.boards {
                let key = (a.min(b), a.max(b));
                let e = self.last_met.entry(key).or_insert(date);
                *e = (*e).max(date);
                self.last_seat.insert(a, Seat::A);
                self.last_seat.insert(b, Seat::B);
            }
            if let Some(bye) = round.bye {
                let n = self.byes.entry(bye).or_insert(0);
                *n = n.saturating_add(1);
            }
            return;
        }
        let Event::Match(m) = event else {
            return;
        };
        if m.result == MatchResult::Cancelled {
            return;
        }
        self.nights.insert(date);
        if let ([a], [b]) = (&m.a[..], &m.b[..]) {
            let e = self.last_met.entry((*a.min(b), *a.max(b))).or_insert(date);
            *e = (*e).max(date);
        }
        let seat_a = match m.home {
            Some(Home::A) => Some(Seat::A),
            Some(Home::B) => Some(Seat::B),
            _ => None,
        };
        if let Some(sa) = seat_a {
            let sb = if sa == Seat::A { Seat::B } else { Seat::A };
            for &p in m.a.iter() {
                self.last_seat.insert(p, sa);
            }
            for &p in m.b.iter() {
                self.last_seat.insert(p, sb);
            }
        }
    }

    /// Club nights from `then` to `date`: 0 on the same day, 1 for the last night before.
    pub fn nights_between(&self, then: NaiveDate, date: NaiveDate) -> u32 {
        if then >= date {
            return 0;
        }
        let between = self.nights.range(then..date).count();
        // `range` counts `then` itself (a night with a game): that is the 1 for "last night".
        between.max(1).min(u32::MAX as usize) as u32
    }

    /// The meetings among `entrants` as constraints by index, with nights since, as of
    /// `date`; meetings after `date` are left out.
    pub fn constraints(&self, entrants: &[Entrant], date: NaiveDate) -> Constraints {
        let index: BTreeMap<PlayerId, usize> = entrants
            .iter()
            .enumerate()
            .map(|(i, e)| (e.id, i))
            .collect();
        let mut c = Constraints::default();
        for (&(a, b), &then) in &self.last_met {
            if let (Some(&i), Some(&j)) = (index.get(&a), index.get(&b))
                && then <= date
            {
                c.meet(i, j, self.nights_between(then, date));
            }
        }
        c
    }
}
