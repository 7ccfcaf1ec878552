//! A pairing forecast: each side's chances and the exact change every player of the match
//! would get for each result, computed by previews through the store (nothing is written).

use super::{Result, Store};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult, PlayerId};
use rungs_ladder::predict::predict_match;
use rungs_ladder::preview::{self, Change};
use rungs_ladder::seasons::{self, DueFirst};
use rungs_rating::{Outcome, Prediction};
use serde::Serialize;

/// What a match would do before it is played.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Forecast {
    /// Side A's chances under the ladder's system as it stands now; `None` if the system
    /// cannot predict the pairing.
    pub prediction: Option<Prediction>,
    /// For A wins, a draw and B wins (in that order): the change of each player of the match,
    /// in the standings order of the ladder after it. The match's own change: from the
    /// ladder as the match finds it, after the resets in `due`.
    pub outcomes: Vec<(MatchResult, Vec<Change>)>,
    /// The season calendar's resets the match would apply first, and what they do to its
    /// players; `None` when none is due.
    #[serde(skip)]
    pub due: Option<DueFirst>,
}

impl Store {
    /// The forecast for `m` (its result is ignored) played on `date`. Each result is a
    /// [`Store::preview`] of the match added on that date, so a date before the latest event
    /// replays the log with the match in its place, exactly as committing it would.
    pub fn forecast(&self, date: NaiveDate, m: &Match) -> Result<Forecast> {
        let ids: Vec<PlayerId> = m.a.iter().chain(m.b.iter()).copied().collect();
        let mut prediction = None;
        let mut due = None;
        let mut outcomes = Vec::with_capacity(3);
        for (i, outcome) in [Outcome::Win, Outcome::Draw, Outcome::Loss]
            .into_iter()
            .enumerate()
        {
            let result = MatchResult::Played(outcome);
            let event = Event::Match(Match {
                result,
                ..m.clone()
            });
            let (before, after) = self.preview(&[(date, Entry::Add { event })])?;
            if i == 0 {
                // `before` is the ladder as it stands, the same for each result; the chances
                // are those the match would be rated by (the resets due first, side
                // advantage, idle time).
                prediction = predict_match(&before, m, date);
                due = seasons::due_first(&before, date, &ids);
            }
            // The resets due first are said apart (`due`): each result's change is the
            // match's own, from the ladder they leave.
            let at = seasons::as_of(&before, date);
            let changes = preview::changes(&at, &after)
                .into_iter()
                .filter(|c| ids.contains(&c.player))
                .collect();
            outcomes.push((result, changes));
        }
        Ok(Forecast {
            prediction,
            outcomes,
            due,
        })
    }
}
