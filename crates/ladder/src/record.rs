//! A player's record from the log: wins, draws and losses against each opponent, and their
//! matches newest first (the player page's head-to-head and recent matches).

use crate::event::{Event, MatchResult, PlayerId};
use crate::log::Effective;
use crate::replay::rated_sides;
use chrono::NaiveDate;
use rungs_rating::Outcome;
use std::collections::BTreeMap;

/// One match seen from the player's side.
#[derive(Debug, Clone, PartialEq)]
pub struct Played {
    pub date: NaiveDate,
    pub opponents: Vec<PlayerId>,
    /// The result from the player's side ("beat", "lost to": see [`MatchResult::verb`]).
    pub result: MatchResult,
}

/// What the log says of one player.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Record {
    /// Each opponent with [wins, draws, losses] against them, most games first (ties by id).
    pub head_to_head: Vec<(PlayerId, [u32; 3])>,
    /// Rated matches, newest first.
    pub matches: Vec<Played>,
}

/// `player`'s record over `events` (in replay order), counted as the ratings count it
/// ([`rated_sides`]): cancelled matches do not count; a forfeit is a loss for the side that
/// abandoned it and does not count at all for the side left behind (the INVERSUS ranking
/// notes: for them the match is cancelled), so it is not among their matches either.
///
/// `events` may be any run of the log in replay order: the whole log, or only the events
/// that name the player (the published site gathers those once for every player).
pub fn record<'a>(events: impl IntoIterator<Item = &'a Effective>, player: PlayerId) -> Record {
    let mut h2h: BTreeMap<PlayerId, [u32; 3]> = BTreeMap::new();
    let mut matches = Vec::new();
    for e in events {
        let Event::Match(m) = &e.event else { continue };
        let Some((outcome, [rated_a, rated_b])) = rated_sides(m.result) else {
            continue;
        };
        let (theirs, outcome, result) = if m.a.contains(&player) && rated_a {
            (&m.b, outcome, m.result)
        } else if m.b.contains(&player) && rated_b {
            (&m.a, outcome.flipped(), m.result.flipped())
        } else {
            continue;
        };
        let slot = match outcome {
            Outcome::Win => 0,
            Outcome::Draw => 1,
            Outcome::Loss => 2,
        };
        for opp in theirs.iter() {
            h2h.entry(*opp).or_default()[slot] += 1;
        }
        matches.push(Played {
            date: e.date,
            opponents: theirs.to_vec(),
            result,
        });
    }
    let mut head_to_head: Vec<(PlayerId, [u32; 3])> = h2h.into_iter().collect();
    head_to_head.sort_by_key(|(id, wdl)| (std::cmp::Reverse(wdl.iter().sum::<u32>()), *id));
    matches.reverse();
    Record {
        head_to_head,
        matches,
    }
}

impl Record {
    /// The most wins in a row, draws and losses ending a run (forfeits count as the ratings
    /// count them: a loss for the side that quit, nothing for the side left behind).
    pub fn longest_win_streak(&self) -> u32 {
        let (mut best, mut run) = (0, 0);
        for m in self.matches.iter().rev() {
            run = match m.result {
                MatchResult::Played(Outcome::Win) => run + 1,
                _ => 0,
            };
            best = best.max(run);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Match;

    fn game(seq: u64, a: PlayerId, b: PlayerId, result: MatchResult) -> Effective {
        Effective {
            date: NaiveDate::from_ymd_opt(2026, 1, seq as u32).unwrap(),
            seq,
            event: Event::Match(Match::new(a, b, result)),
        }
    }

    /// Ann (0) beats Bo twice, draws Cy, abandons a match against Bo (a loss); Cy abandons
    /// one against her, which does not count for her (the INVERSUS ranking notes: "you do not
    /// get an automatic win"); a cancelled match and a match without her do not count.
    #[test]
    fn head_to_head_and_matches_from_her_side() {
        let events = vec![
            game(1, 0, 1, MatchResult::Played(Outcome::Win)),
            game(2, 2, 0, MatchResult::Played(Outcome::Draw)),
            game(3, 1, 0, MatchResult::Played(Outcome::Loss)),
            game(4, 0, 1, MatchResult::ForfeitA),
            game(5, 0, 2, MatchResult::Cancelled),
            game(6, 1, 2, MatchResult::Played(Outcome::Win)),
            game(7, 0, 2, MatchResult::ForfeitB),
        ];
        let r = record(&events, 0);
        assert_eq!(r.head_to_head, vec![(1, [2, 0, 1]), (2, [0, 1, 0])]);
        let results: Vec<&str> = r.matches.iter().map(|m| m.result.verb()).collect();
        assert_eq!(results, vec!["forfeited to", "beat", "drew with", "beat"]);
        assert_eq!(r.matches[1].opponents, vec![1]);
        // Bo, left behind in match 4, has only the played ones against Ann; Cy, who quit
        // match 7, has it as a loss against Ann.
        let bo = record(&events, 1);
        assert_eq!(bo.head_to_head, vec![(0, [0, 0, 2]), (2, [1, 0, 0])]);
        let cy = record(&events, 2);
        assert_eq!(cy.head_to_head, vec![(0, [0, 1, 1]), (1, [0, 0, 1])]);
        assert_eq!(cy.matches[0].result.verb(), "forfeited to");
        // Only the events that name Ann give her the same record.
        let hers = events
            .iter()
            .filter(|e| [1, 2, 3, 4, 5, 7].contains(&e.seq));
        assert_eq!(record(hers, 0), r);
    }

    /// Ann: W W (Cy quits: nothing for her) W D W W W L. Her longest run is the last three
    /// wins before the loss; the forfeit left behind neither counts nor breaks the first run
    /// (W W W), and the draw breaks it.
    #[test]
    fn longest_win_streak_counts_wins_in_a_row() {
        let win = MatchResult::Played(Outcome::Win);
        let events = vec![
            game(1, 0, 1, win),
            game(2, 0, 1, win),
            game(3, 0, 2, MatchResult::ForfeitB),
            game(4, 0, 1, win),
            game(5, 0, 1, MatchResult::Played(Outcome::Draw)),
            game(6, 0, 1, win),
            game(7, 1, 0, MatchResult::Played(Outcome::Loss)),
            game(8, 0, 1, win),
            game(9, 0, 1, MatchResult::Played(Outcome::Loss)),
        ];
        assert_eq!(record(&events, 0).longest_win_streak(), 3);
        assert_eq!(record(&events, 1).longest_win_streak(), 1);
        assert_eq!(record(&events, 2).longest_win_streak(), 0);
    }
}
