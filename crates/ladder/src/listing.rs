//! The log's matches as a list to search: which matches a search keeps (by player, date
//! range, result, scenario), newest first, with the ladder's resets, rules changes and
//! migrations between them as separator rows where they happened. Pure: the log and its
//! marks in, row indices out — a front end draws only the rows in view.

use crate::event::{Event, Match, MatchResult, PlayerId};
use crate::log::Effective;
use chrono::NaiveDate;
use rungs_rating::Outcome;

/// A result to search for; with a player searched for, won and lost are from their side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ResultFilter {
    #[default]
    Any,
    /// Won (by the player searched for, else by side A), a forfeit by the other side included.
    Won,
    Drawn,
    /// Lost (by the player searched for, else by side A), by forfeit included.
    Lost,
    Forfeit,
    Cancelled,
}

impl ResultFilter {
    pub const ALL: [ResultFilter; 6] = [
        ResultFilter::Any,
        ResultFilter::Won,
        ResultFilter::Drawn,
        ResultFilter::Lost,
        ResultFilter::Forfeit,
        ResultFilter::Cancelled,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ResultFilter::Any => "any result",
            ResultFilter::Won => "won",
            ResultFilter::Drawn => "drawn",
            ResultFilter::Lost => "lost",
            ResultFilter::Forfeit => "forfeit",
            ResultFilter::Cancelled => "cancelled",
        }
    }
}

/// What a search keeps. `players` is who the player field names (every player whose name
/// holds the text); `None` searches no player.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Search {
    pub players: Option<Vec<PlayerId>>,
    pub from: Option<NaiveDate>,
    pub to: Option<NaiveDate>,
    pub result: ResultFilter,
    /// Part of a scenario's name, any case; empty searches none.
    pub scenario: String,
}

impl Search {
    /// Whether it keeps every match (then every separator shows too).
    pub fn is_everything(&self) -> bool {
        *self == Search::default()
    }

    fn keeps(&self, date: NaiveDate, m: &Match) -> bool {
        if self.from.is_some_and(|f| date < f) || self.to.is_some_and(|t| date > t) {
            return false;
        }
        // Which side the searched player is on: A (true), B (false).
        let side_a = match &self.players {
            None => true,
            Some(ids) => {
                if m.a.iter().any(|p| ids.contains(p)) {
                    true
                } else if m.b.iter().any(|p| ids.contains(p)) {
                    false
                } else {
                    return false;
                }
            }
        };
        if !self.scenario.trim().is_empty() {
            let want = self.scenario.trim().to_lowercase();
            if !m
                .scenario
                .as_deref()
                .is_some_and(|s| s.to_lowercase().contains(&want))
            {
                return false;
            }
        }
        let (won, lost) = match m.result {
            MatchResult::Played(Outcome::Win) | MatchResult::ForfeitB => (side_a, !side_a),
            MatchResult::Played(Outcome::Loss) | MatchResult::ForfeitA => (!side_a, side_a),
            _ => (false, false),
        };
        match self.result {
            ResultFilter::Any => true,
            ResultFilter::Won => won,
            ResultFilter::Lost => lost,
            ResultFilter::Drawn => m.result == MatchResult::Played(Outcome::Draw),
            ResultFilter::Forfeit => {
                matches!(m.result, MatchResult::ForfeitA | MatchResult::ForfeitB)
            }
            ResultFilter::Cancelled => m.result == MatchResult::Cancelled,
        }
    }
}

/// A row of the list: a match (its index in the log as read), or a separator (the index of
/// a mark).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Row {
    Match(u32),
    Mark(u32),
}

/// The rows `search` keeps, newest first. `marks` are (index of the event they come before,
/// in `events`; mark index) in log order — a reset due before event i sits between event i-1
/// and event i. A narrowed search keeps, before each kept match, only the separators of the
/// last gap between two events of the log before it (a day's soft and hard reset together),
/// so a player's list is not a fence of the weeks they sat out.
pub fn list(events: &[Effective], marks: &[(usize, u32)], search: &Search) -> Vec<Row> {
    let everything = search.is_everything();
    let mut rows = Vec::new();
    let mut marks = marks.iter().peekable();
    // Separators waiting for a kept match after them, with the event they come before.
    let mut waiting: Vec<(usize, u32)> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        while let Some(&(before, m)) = marks.next_if(|(before, _)| *before <= i) {
            if !everything && waiting.last().is_some_and(|(b, _)| *b != before) {
                waiting.clear();
            }
            waiting.push((before, m));
        }
        if let Event::Match(m) = &e.event
            && search.keeps(e.date, m)
        {
            rows.extend(waiting.drain(..).map(|(_, m)| Row::Mark(m)));
            rows.push(Row::Match(i as u32));
        } else if everything {
            rows.extend(waiting.drain(..).map(|(_, m)| Row::Mark(m)));
        }
    }
    if everything {
        rows.extend(marks.map(|(_, m)| Row::Mark(*m)));
    }
    rows.reverse();
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 3, d).unwrap()
    }

    fn game(d: u32, seq: u64, a: PlayerId, b: PlayerId, r: MatchResult) -> Effective {
        Effective {
            date: day(d),
            seq,
            event: Event::Match(Match::new(a, b, r)),
        }
    }

    #[test]
    fn a_search_keeps_a_players_wins_newest_first_with_the_resets_before_them() {
        let win = MatchResult::Played(Outcome::Win);
        let loss = MatchResult::Played(Outcome::Loss);
        let events = vec![
            game(1, 1, 0, 1, win),  // 0 beats 1
            game(2, 2, 1, 2, win),  // 1 beats 2
            game(9, 3, 2, 0, loss), // 0 beats 2 (as B)
            game(10, 4, 0, 2, loss),
        ];
        // A reset before event 2 (the week ends between day 2 and day 9), another before 3.
        let marks = [(2, 0), (3, 1)];
        let all = list(&events, &marks, &Search::default());
        assert_eq!(
            all,
            vec![
                Row::Match(3),
                Row::Mark(1),
                Row::Match(2),
                Row::Mark(0),
                Row::Match(1),
                Row::Match(0)
            ]
        );
        let wins_of_0 = Search {
            players: Some(vec![0]),
            result: ResultFilter::Won,
            ..Search::default()
        };
        // Player 0 won events 0 and 2 (as B, A lost); event 3 was a loss; mark 1 has no
        // kept match after it, so it goes.
        assert_eq!(
            list(&events, &marks, &wins_of_0),
            vec![Row::Match(2), Row::Mark(0), Row::Match(0)]
        );
        // Three resets while player 1 sat out (before events 2 and 3): only the last gap's
        // show before their next match.
        let sat_out = [(2, 0), (3, 1), (3, 2)];
        let events_1 = vec![
            game(1, 1, 1, 0, win),
            game(2, 2, 0, 2, win),
            game(9, 3, 0, 2, win),
            game(10, 4, 1, 2, win),
        ];
        let of_1 = Search {
            players: Some(vec![1]),
            ..Search::default()
        };
        assert_eq!(
            list(&events_1, &sat_out, &of_1),
            vec![Row::Match(3), Row::Mark(2), Row::Mark(1), Row::Match(0)]
        );
        let from_the_2nd = Search {
            from: Some(day(2)),
            to: Some(day(9)),
            ..Search::default()
        };
        assert_eq!(
            list(&events, &marks, &from_the_2nd),
            vec![Row::Match(2), Row::Mark(0), Row::Match(1)]
        );
    }
}
