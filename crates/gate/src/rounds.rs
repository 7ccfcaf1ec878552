//! Rounds and pairing rules through the gate: a round saved, a result entered for
//! one of its boards, two players forbidden, avoided or freed. Each is one undoable action;
//! what the log already says about rounds comes in as a [`Book`] ([`book`] reads it).

use super::{Action, ActionError, Context, Kind, Place};
use chrono::NaiveDate;
use rungs_ladder::event::{
    BoardRef, ByeScore, Entry, Event, Format, Home, Match, PairRule, PlayerId, RoundRecord,
};
use rungs_ladder::rounds::{Book, check_pair_rule, check_round, pair_key};
use rungs_store::Store;

/// The rounds and pairing rules of the ladder in `store`, as its log holds them now.
pub fn book(store: &Store) -> Result<Book, ActionError> {
    let mut book = Book::default();
    store
        .for_each_event(|date, seq, event| {
            book.read(date, seq, event);
            Ok::<(), ()>(())
        })
        .map_err(ActionError::Store)?
        .ok();
    Ok(book)
}

/// A round as the pairing made it, by player id.
#[derive(Debug, Clone, PartialEq)]
pub struct RoundInput {
    pub date: NaiveDate,
    pub format: Format,
    pub boards: Vec<[PlayerId; 2]>,
    pub bye: Option<PlayerId>,
    pub bye_scores: ByeScore,
    /// A Swiss round continuing the event begun by this round; `None` begins one.
    pub event: Option<u32>,
    /// A Swiss round: entries, requested byes and withdrawals as the pairing made them.
    pub swiss: rungs_ladder::event::SwissRecord,
}

/// The match a result for board `at` records: the board's side A as side A, at home or
/// moving first as the pairing seated them, linked to the board. Its result is `result`.
pub fn board_match(
    book: &Book,
    at: BoardRef,
    result: rungs_ladder::event::MatchResult,
) -> Option<Match> {
    let [a, b] = book.board(at)?;
    let mut m = Match::new(a, b, result);
    m.home = Some(Home::A);
    m.board = Some(at);
    Some(m)
}

impl Context<'_> {
    fn who(&self, id: PlayerId) -> String {
        self.roster.name(id).unwrap_or("?").to_string()
    }

    /// A round number typed into `field`, of a round the log holds.
    pub fn round_number(&self, book: &Book, field: &str, text: &str) -> Result<u32, ActionError> {
        let held = book.held();
        let n: u64 = text.trim().parse().map_err(|_| {
            ActionError::invalid(
                &self.at,
                field,
                text,
                format!("is not a round number (a whole number from 1; the ladder holds {held})"),
            )
        })?;
        u32::try_from(n)
            .ok()
            .filter(|n| book.rounds.contains_key(n))
            .ok_or_else(|| {
                ActionError::invalid(
                    &self.at,
                    field,
                    text,
                    format!("is no round of this ladder; it holds {held}"),
                )
            })
    }
}

impl Action {
    /// Rounds saved as paired (one, or every round of a round robin), as one undoable
    /// step: numbered after the ladder's rounds, every player joined by the date and named
    /// once a round, no forbidden pair on a board, a Swiss round continuing only a Swiss
    /// event the log holds. Not dated ahead: a round is recorded once it is paired.
    pub fn save_rounds(
        ctx: &Context<'_>,
        book: &Book,
        inputs: &[RoundInput],
    ) -> Result<Action, ActionError> {
        let at = &ctx.at;
        let Some(first) = book.next_number() else {
            return Err(ActionError::refused(
                at,
                "the ladder has used every round number (4,294,967,295)",
            ));
        };
        let mut rows = Vec::with_capacity(inputs.len());
        let mut words = Vec::with_capacity(inputs.len());
        for (k, input) in inputs.iter().enumerate() {
            let number = u32::try_from(k)
                .ok()
                .and_then(|k| first.checked_add(k))
                .ok_or_else(|| ActionError::refused(at, "more rounds than numbers are left"))?;
            let round = Self::round_record(ctx, book, input, number)?;
            let event = Event::Round {
                round: Box::new(round),
            };
            words.push(ctx.words(&event));
            rows.push((input.date, Entry::Add { event }));
        }
        let label = match &words[..] {
            [] => return Err(ActionError::refused(at, "no round to save")),
            [one] => format!("saved {one}"),
            [one, .., last] => format!("saved {one} to {last}"),
        };
        Action::new(Kind::SaveRound, label, rows)
    }

    fn round_record(
        ctx: &Context<'_>,
        book: &Book,
        input: &RoundInput,
        number: u32,
    ) -> Result<RoundRecord, ActionError> {
        let at = &ctx.at;
        let date = ctx.not_ahead(input.date)?;
        if let Some(e) = input.event {
            let first = book.rounds.get(&e);
            if first.and_then(|r| r.event()) != Some(e) {
                return Err(ActionError::invalid(
                    at,
                    "event",
                    &e.to_string(),
                    format!(
                        "is not the first round of a Swiss event this ladder holds ({})",
                        book.held()
                    ),
                ));
            }
        }
        let round = RoundRecord {
            number,
            format: input.format,
            boards: input.boards.clone(),
            bye: input.bye,
            bye_scores: input.bye_scores,
            event: match input.format {
                Format::Swiss => Some(input.event.unwrap_or(number)),
                _ => None,
            },
            swiss: input.swiss.clone(),
        };
        let name = |id| ctx.who(id);
        check_round(&round, &name).map_err(|e| ActionError::refused(at, e.to_string()))?;
        for id in round.named() {
            let Some(p) = ctx.ladder().player(id).filter(|p| p.joined) else {
                return Err(ActionError::refused(
                    at,
                    format!("player #{id} is not on the ladder"),
                ));
            };
            if !p.undated
                && let Some(joined) = p.joined_on.filter(|j| *j > date)
            {
                return Err(ActionError::NotYetJoined {
                    at: at.clone(),
                    name: p.name.clone(),
                    joined,
                    date,
                });
            }
        }
        for (i, [a, b]) in round.boards.iter().enumerate() {
            if book.rule(*a, *b) == PairRule::Forbid {
                return Err(ActionError::refused(
                    at,
                    format!(
                        "board {}: {} and {} are never paired (rungs unforbid FILE \"{}\" \
                         \"{}\" lifts it)",
                        i + 1,
                        ctx.who(*a),
                        ctx.who(*b),
                        ctx.who(*a),
                        ctx.who(*b)
                    ),
                ));
            }
        }
        Ok(round)
    }

    /// The result of board `board` of round `round` (both from 1), from the board's side A
    /// view, on `date` (none: the round's date). One result a board (a second is an edit of
    /// the first); not before the round, not ahead of today.
    pub fn board_result(
        ctx: &Context<'_>,
        book: &Book,
        round: u32,
        board: u32,
        result: &str,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let at = &ctx.at;
        let Some(saved) = book.rounds.get(&round) else {
            return Err(ActionError::invalid(
                at,
                "round",
                &round.to_string(),
                format!("is no round of this ladder; it holds {}", book.held()),
            ));
        };
        let result = super::matches::parse_result(at, result)?;
        let there = BoardRef { round, board };
        let Some(m) = board_match(book, there, result) else {
            return Err(ActionError::invalid(
                at,
                "board",
                &board.to_string(),
                format!(
                    "is no board of round {round}, which has boards 1–{}",
                    saved.round.boards.len()
                ),
            ));
        };
        if let Some(done) = saved.results[board as usize - 1] {
            return Err(ActionError::refused(
                at,
                format!(
                    "board {board} of round {round} has its result already ({}, event {}); \
                     correct that event instead (rungs edit-match)",
                    done.result.sentence(&ctx.who(m.a[0]), &ctx.who(m.b[0])),
                    done.seq
                ),
            ));
        }
        let date = match date.map(str::trim).filter(|t| !t.is_empty()) {
            None => saved.date,
            Some(t) => super::parse_day(at, "date", t)?,
        };
        if date < saved.date {
            return Err(ActionError::invalid(
                at,
                "date",
                &date.to_string(),
                format!("is before round {round}, paired on {}", saved.date),
            ));
        }
        ctx.check_match(&|| ctx.at.clone(), date, &m)?;
        let label = format!(
            "added {} (round {round}, board {board})",
            ctx.words(&Event::Match(m.clone()))
        );
        Action::new(
            Kind::AddMatch,
            label,
            vec![(
                date,
                Entry::Add {
                    event: Event::Match(m),
                },
            )],
        )
    }

    /// Lifts the rule `which` (forbidden or avoided) between `a` and `b`; refused, naming
    /// them, when that is not their rule.
    pub fn lift_pair_rule(
        ctx: &Context<'_>,
        book: &Book,
        a: &str,
        b: &str,
        which: PairRule,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let at = &ctx.at;
        let ia = ctx.roster.player(at, "player_a", a)?;
        let ib = ctx.roster.player(at, "player_b", b)?;
        if ia != ib && book.rule(ia, ib) != which {
            let what = match which {
                PairRule::Avoid => "avoided",
                _ => "forbidden",
            };
            return Err(ActionError::refused(
                at,
                format!(
                    "{} and {} are not {what}; nothing to lift",
                    ctx.who(ia),
                    ctx.who(ib)
                ),
            ));
        }
        Self::pair_rule(ctx, book, a, b, PairRule::Free, date)
    }

    /// Players `a` and `b` (names as typed) never paired, avoided, or free again, from today.
    /// A rule already in force is refused: nothing would change.
    pub fn pair_rule(
        ctx: &Context<'_>,
        book: &Book,
        a: &str,
        b: &str,
        rule: PairRule,
        date: Option<&str>,
    ) -> Result<Action, ActionError> {
        let at: &Place = &ctx.at;
        let ia = ctx.roster.player(at, "player_a", a)?;
        let ib = ctx.roster.player(at, "player_b", b)?;
        let name = |id| ctx.who(id);
        check_pair_rule(ia, ib, &name).map_err(|e| ActionError::refused(at, e.to_string()))?;
        let date = ctx.past_date("date", date)?;
        let (na, nb) = (ctx.who(ia), ctx.who(ib));
        if book.rule(ia, ib) == rule {
            return Err(ActionError::refused(
                at,
                match rule {
                    PairRule::Forbid => format!("{na} and {nb} are never paired already"),
                    PairRule::Avoid => format!("{na} and {nb} are avoided already"),
                    PairRule::Free => format!(
                        "{na} and {nb} have no pairing rule to lift (neither forbidden nor \
                         avoided)"
                    ),
                },
            ));
        }
        let (x, y) = pair_key(ia, ib);
        let label = rungs_ladder::words::pair_rule(&na, &nb, rule);
        Action::new(
            Kind::PairRule,
            label,
            vec![(
                date,
                Entry::Add {
                    event: Event::PairRule { a: x, b: y, rule },
                },
            )],
        )
    }
}
