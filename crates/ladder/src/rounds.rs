//! Rounds and pairing rules as the log holds them: a pure reading of the events in
//! replay order. Rounds rate nobody (`replay` passes them by); what they say — the boards of
//! each round, the results linked to its boards, the byes had, the pairs never paired or
//! avoided — is read here for the pairing engine, the gate and `rungs round`.

use crate::event::{
    BoardRef, ByeScore, Event, Format, MatchResult, PairRule, PlayerId, RoundRecord,
};
use chrono::NaiveDate;
use rungs_rating::Outcome;
use std::collections::BTreeMap;

/// A result entered for a board: the match's log row, date and result from the board's side
/// A view.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoardResult {
    pub seq: u64,
    pub date: NaiveDate,
    pub result: MatchResult,
}

/// A round in the log, with the results entered for its boards (by board, from 0).
#[derive(Debug, Clone, PartialEq)]
pub struct SavedRound {
    pub seq: u64,
    pub date: NaiveDate,
    pub round: RoundRecord,
    pub results: Vec<Option<BoardResult>>,
}

impl SavedRound {
    /// The Swiss event the round belongs to (the number of its first round).
    pub fn event(&self) -> Option<u32> {
        (self.round.format == Format::Swiss).then(|| self.round.event.unwrap_or(self.round.number))
    }
}

/// What the log says about pairings so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Book {
    pub rounds: BTreeMap<u32, SavedRound>,
    /// Pairs with a rule in force (forbidden or avoided), lower id first.
    pub rules: BTreeMap<(PlayerId, PlayerId), PairRule>,
    /// Byes had, by player.
    pub byes: BTreeMap<PlayerId, u32>,
    /// The highest round number any event names (a round, or a result linked to one since
    /// deleted): a new round never takes a number an old result points to.
    pub highest: u32,
}

/// The pair `(a, b)` with the lower id first.
pub fn pair_key(a: PlayerId, b: PlayerId) -> (PlayerId, PlayerId) {
    (a.min(b), a.max(b))
}

impl Book {
    /// Reads one event; events come in replay order.
    pub fn read(&mut self, date: NaiveDate, seq: u64, event: &Event) {
        match event {
            Event::Round { round } => {
                self.highest = self.highest.max(round.number);
                if let Some(bye) = round.bye {
                    let n = self.byes.entry(bye).or_insert(0);
                    *n = n.saturating_add(1);
                }
                self.rounds.insert(
                    round.number,
                    SavedRound {
                        seq,
                        date,
                        results: vec![None; round.boards.len()],
                        round: (**round).clone(),
                    },
                );
            }
            Event::PairRule { a, b, rule } => {
                let key = pair_key(*a, *b);
                match rule {
                    PairRule::Free => self.rules.remove(&key),
                    rule => self.rules.insert(key, *rule),
                };
            }
            Event::Match(m) => {
                let Some(at) = m.board else { return };
                self.highest = self.highest.max(at.round);
                let (Some(board), [a], [b]) = (self.board(at), &m.a[..], &m.b[..]) else {
                    return;
                };
                // A result the wrong way round (only a hand-made log holds one) is turned
                // to the board's side A.
                let result = if board == [*a, *b] {
                    m.result
                } else if board == [*b, *a] {
                    m.result.flipped()
                } else {
                    return;
                };
                if let Some(r) = self.rounds.get_mut(&at.round)
                    && let Some(slot) = r.results.get_mut(at.board as usize - 1)
                {
                    *slot = Some(BoardResult { seq, date, result });
                }
            }
            _ => {}
        }
    }

    /// The players of board `at`, if the log holds it.
    pub fn board(&self, at: BoardRef) -> Option<[PlayerId; 2]> {
        let i = (at.board as usize).checked_sub(1)?;
        self.rounds.get(&at.round)?.round.boards.get(i).copied()
    }

    /// The rule between `a` and `b` in force.
    pub fn rule(&self, a: PlayerId, b: PlayerId) -> PairRule {
        self.rules
            .get(&pair_key(a, b))
            .copied()
            .unwrap_or(PairRule::Free)
    }

    /// The number the next round takes (one more than the highest in force), if any is left.
    pub fn next_number(&self) -> Option<u32> {
        self.highest.checked_add(1)
    }

    /// "rounds 1–4", "round 1", "no rounds": what the log holds, for messages.
    pub fn held(&self) -> String {
        match (self.rounds.keys().next(), self.rounds.keys().next_back()) {
            (Some(a), Some(b)) if a == b => format!("round {a}"),
            (Some(a), Some(b)) if self.rounds.len() as u64 == u64::from(b - a) + 1 => {
                format!("rounds {a}–{b}")
            }
            (Some(_), Some(_)) => format!(
                "rounds {}",
                self.rounds
                    .keys()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            _ => "no rounds".into(),
        }
    }

    /// The latest Swiss event (by its latest round), and that round's date.
    pub fn latest_swiss(&self) -> Option<(u32, NaiveDate)> {
        self.rounds
            .values()
            .filter_map(|r| r.event().map(|e| (r.date, r.seq, e)))
            .max()
            .map(|(date, _, e)| (e, date))
    }

    /// A Swiss event's standing so far: each player's points (a win or a win by forfeit 1,
    /// a draw ½, a bye what its round says) and the pairs who have had a board in it.
    pub fn swiss_event(&self, event: u32) -> SwissSoFar {
        let mut out = SwissSoFar::default();
        for r in self.rounds.values().filter(|r| r.event() == Some(event)) {
            out.rounds += 1;
            if let Some(bye) = r.round.bye {
                *out.points.entry(bye).or_insert(0.0) += r.round.bye_scores.points();
            }
            for (board, result) in r.round.boards.iter().zip(&r.results) {
                out.met.push(pair_key(board[0], board[1]));
                let (pa, pb) = match result.map(|x| x.result) {
                    Some(MatchResult::Played(Outcome::Win)) | Some(MatchResult::ForfeitB) => {
                        (1.0, 0.0)
                    }
                    Some(MatchResult::Played(Outcome::Draw)) => (0.5, 0.5),
                    Some(MatchResult::Played(Outcome::Loss)) | Some(MatchResult::ForfeitA) => {
                        (0.0, 1.0)
                    }
                    Some(MatchResult::Cancelled) | None => (0.0, 0.0),
                };
                *out.points.entry(board[0]).or_insert(0.0) += pa;
                *out.points.entry(board[1]).or_insert(0.0) += pb;
            }
        }
        out
    }
}

/// A Swiss event so far.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SwissSoFar {
    pub rounds: usize,
    pub points: BTreeMap<PlayerId, f64>,
    pub met: Vec<(PlayerId, PlayerId)>,
}

/// What is wrong with a round or a pairing rule as data, whoever made it. Players are named
/// as the caller names them.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundError {
    #[error("round numbers start at 1")]
    NumberZero,
    #[error("a round has at least one board")]
    NoBoard,
    #[error("only a Swiss round belongs to an event; this one is {}", .0.as_text())]
    EventNotSwiss(Format),
    #[error("round {0} cannot continue an event that begins at a later round")]
    EventStartsLater(u32),
    #[error("{name} is on both sides of {place}")]
    BothSides { name: String, place: String },
    #[error("{name} is on {first} and on {place}")]
    TwoPlaces {
        name: String,
        first: String,
        place: String,
    },
    #[error("{name}'s requested bye scores {halves} half-points; a bye scores 0, 1 or 2")]
    ByeHalves { name: String, halves: u8 },
    #[error("only a Swiss round records entries, requested byes and withdrawals")]
    SwissRecordNotSwiss,
    #[error(
        "{a} and {b}: a pairing rule is between two players, and nobody is paired with \
         themselves"
    )]
    PairedWithSelf { a: String, b: String },
}

/// What is wrong with a round as data, whoever made it: no board, a player twice, a number
/// of 0. `name` calls players by name.
pub fn check_round(
    round: &RoundRecord,
    name: &dyn Fn(PlayerId) -> String,
) -> Result<(), RoundError> {
    if round.number == 0 {
        return Err(RoundError::NumberZero);
    }
    if round.boards.is_empty() {
        return Err(RoundError::NoBoard);
    }
    if round.event.is_some() && round.format != Format::Swiss {
        return Err(RoundError::EventNotSwiss(round.format));
    }
    if round.event.is_some_and(|e| e == 0 || e > round.number) {
        return Err(RoundError::EventStartsLater(round.number));
    }
    if round.format != Format::Swiss && !round.swiss.is_empty() {
        return Err(RoundError::SwissRecordNotSwiss);
    }
    if let Some(r) = round.swiss.requested.iter().find(|r| r.halves > 2) {
        return Err(RoundError::ByeHalves {
            name: name(r.player),
            halves: r.halves,
        });
    }
    let mut seen: BTreeMap<PlayerId, String> = BTreeMap::new();
    let places = round
        .boards
        .iter()
        .enumerate()
        .flat_map(|(i, b)| b.iter().map(move |&p| (p, format!("board {}", i + 1))))
        .chain(round.bye.map(|p| (p, "the bye".to_string())))
        .chain(
            round
                .swiss
                .requested
                .iter()
                .map(|r| (r.player, "a requested bye".to_string())),
        )
        .chain(
            round
                .swiss
                .withdrawn
                .iter()
                .map(|&p| (p, "the withdrawn".to_string())),
        );
    for (p, place) in places {
        if let Some(first) = seen.insert(p, place.clone()) {
            return Err(if first == place {
                RoundError::BothSides {
                    name: name(p),
                    place,
                }
            } else {
                RoundError::TwoPlaces {
                    name: name(p),
                    first,
                    place,
                }
            });
        }
    }
    Ok(())
}

/// What is wrong with a pairing rule as data: a player paired with themselves.
pub fn check_pair_rule(
    a: PlayerId,
    b: PlayerId,
    name: &dyn Fn(PlayerId) -> String,
) -> Result<(), RoundError> {
    if a == b {
        return Err(RoundError::PairedWithSelf {
            a: name(a),
            b: name(b),
        });
    }
    Ok(())
}

impl ByeScore {
    /// Reads `nothing` or `win`.
    pub fn parse(text: &str) -> Option<ByeScore> {
        match text.trim().to_ascii_lowercase().as_str() {
            "nothing" | "none" | "0" => Some(ByeScore::Nothing),
            "win" | "1" => Some(ByeScore::Win),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Match;

    fn day(d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2026, 11, d).unwrap()
    }

    fn round(number: u32, boards: Vec<[PlayerId; 2]>, bye: Option<PlayerId>) -> Event {
        Event::Round {
            round: Box::new(RoundRecord {
                number,
                format: Format::Swiss,
                boards,
                bye,
                bye_scores: ByeScore::Win,
                event: Some(1),
                swiss: Default::default(),
            }),
        }
    }

    fn result(round: u32, board: u32, a: PlayerId, b: PlayerId, r: MatchResult) -> Event {
        let mut m = Match::new(a, b, r);
        m.board = Some(BoardRef { round, board });
        Event::Match(m)
    }

    /// Two Swiss rounds of five players: round 1 0–1 (0 wins), 2–3 drawn, 4 a bye (a win);
    /// round 2 0–4 (4 forfeits: 0 scores), 1–2 entered the wrong way round (2 beat 1 from
    /// 2's side, so 1 loses), 3 a bye. Points: 0: 1 + 1 = 2; 1: 0 + 0 = 0; 2: ½ + 1 = 1½;
    /// 3: ½ + 1 = 1½; 4: 1 + 0 = 1.
    #[test]
    fn a_swiss_event_scores_wins_draws_forfeits_and_byes() {
        let mut book = Book::default();
        let win = MatchResult::Played(Outcome::Win);
        let draw = MatchResult::Played(Outcome::Draw);
        let events = [
            round(1, vec![[0, 1], [2, 3]], Some(4)),
            result(1, 1, 0, 1, win),
            result(1, 2, 2, 3, draw),
            round(2, vec![[0, 4], [1, 2]], Some(3)),
            result(2, 1, 0, 4, MatchResult::ForfeitB),
            result(2, 2, 2, 1, win),
        ];
        for (i, e) in events.iter().enumerate() {
            book.read(day(20), i as u64 + 1, e);
        }
        let so_far = book.swiss_event(1);
        let points: Vec<f64> = (0..5).map(|p| so_far.points[&p]).collect();
        assert_eq!(points, [2.0, 0.0, 1.5, 1.5, 1.0]);
        assert_eq!(so_far.met, [(0, 1), (2, 3), (0, 4), (1, 2)]);
        assert_eq!(book.byes, BTreeMap::from([(3, 1), (4, 1)]));
        assert_eq!(book.next_number(), Some(3));
        assert_eq!(book.held(), "rounds 1–2");
        assert_eq!(book.latest_swiss(), Some((1, day(20))));
    }

    /// A match that is no board's result is written exactly as before rounds existed (no
    /// `board` key), and a match from an older file, which has none, reads as no board's.
    #[test]
    fn a_match_without_a_board_reads_and_writes_as_before() {
        let mut m = Match::new(0, 1, MatchResult::Played(Outcome::Win));
        m.home = Some(crate::event::Home::A);
        let older = r#"{"kind":"match","a":[0],"b":[1],"result":{"played":"Win"},"home":"a"}"#;
        assert_eq!(
            serde_json::to_string(&Event::Match(m.clone())).unwrap(),
            older
        );
        assert_eq!(
            serde_json::from_str::<Event>(older).unwrap(),
            Event::Match(m.clone())
        );
        m.board = Some(BoardRef { round: 2, board: 3 });
        let linked = serde_json::to_string(&Event::Match(m.clone())).unwrap();
        assert!(
            linked.ends_with(r#""home":"a","board":{"round":2,"board":3}}"#),
            "{linked}"
        );
        assert_eq!(
            serde_json::from_str::<Event>(&linked).unwrap(),
            Event::Match(m)
        );
    }

    #[test]
    fn a_rule_is_the_latest_and_free_lifts_it() {
        let mut book = Book::default();
        let rule = |a, b, rule| Event::PairRule { a, b, rule };
        book.read(day(1), 1, &rule(3, 1, PairRule::Forbid));
        assert_eq!(book.rule(1, 3), PairRule::Forbid);
        book.read(day(1), 2, &rule(1, 3, PairRule::Avoid));
        assert_eq!(book.rule(3, 1), PairRule::Avoid);
        book.read(day(1), 3, &rule(1, 3, PairRule::Free));
        assert_eq!(book.rule(3, 1), PairRule::Free);
        assert!(book.rules.is_empty());
    }

    #[test]
    fn a_round_naming_a_player_twice_or_none_is_refused_by_name() {
        let name = |id: PlayerId| ["Ann", "Bo", "Cy"][id as usize].to_string();
        let mut r = RoundRecord {
            number: 1,
            format: Format::Balanced,
            boards: vec![[0, 1], [2, 0]],
            bye: None,
            bye_scores: ByeScore::Nothing,
            event: None,
            swiss: Default::default(),
        };
        let text = |r: &RoundRecord| check_round(r, &name).map_err(|e| e.to_string());
        assert_eq!(text(&r), Err("Ann is on board 1 and on board 2".into()));
        r.boards = vec![[2, 2]];
        assert_eq!(text(&r), Err("Cy is on both sides of board 1".into()));
        r.boards = vec![[0, 1]];
        r.bye = Some(1);
        assert_eq!(text(&r), Err("Bo is on board 1 and on the bye".into()));
        r.bye = Some(2);
        assert_eq!(check_round(&r, &name), Ok(()));
        r.number = 0;
        assert_eq!(check_round(&r, &name), Err(RoundError::NumberZero));
        assert!(
            check_pair_rule(1, 1, &name)
                .unwrap_err()
                .to_string()
                .starts_with("Bo and Bo")
        );
    }
}
