//! One round of a club night from a ladder and its log, as the Tonight screen asks for it:
//! the players present, the format, the boards the organiser locked, the ladder's forbidden
//! and avoided pairs, byes and Swiss events ([`Book`]), and recent meetings ([`History`]).
//! Pure: the caller reads the log.

use super::balanced::{self, Night};
use super::ladder::{History, present};
use super::model::{Constraints, Entrant, PairError, Weights};
use super::round_robin;
use super::swiss_event::{self, Next, pairing_rating};
use chrono::NaiveDate;
use rungs_ladder::event::{ByeScore, Format, PairRule, PlayerId, RequestedBye, SwissRecord};
use rungs_ladder::replay::Ladder;
use rungs_ladder::rounds::Book;
use rungs_rating::Prediction;

/// What to pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Request<'a> {
    /// Everyone present, locked boards' players included.
    pub present: &'a [PlayerId],
    pub format: Format,
    pub date: NaiveDate,
    pub seed: u64,
    /// Boards kept as they are; their players are not paired again.
    pub locked: &'a [[PlayerId; 2]],
    /// Swiss: the event to continue (the number of its first round); `None` begins one.
    pub event: Option<u32>,
    /// Swiss: byes asked for this round (those players are not in `present`).
    pub requested: &'a [RequestedBye],
    /// Swiss: players withdrawing before this round.
    pub withdrawn: &'a [PlayerId],
    /// Swiss, a new event: the rounds it will have.
    pub rounds: Option<u32>,
    /// What the pairing-allocated bye scores.
    pub bye_scores: ByeScore,
}

/// The boards made for the players not locked, side A first, board order as the format
/// gives it, each with its forecast; and the bye.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub boards: Vec<([PlayerId; 2], Prediction)>,
    pub bye: Option<PlayerId>,
    /// Swiss: what the round records for FIDE's Dutch System.
    pub swiss: SwissRecord,
}

/// What a bye scores when the organiser does not say: a win by forfeit in a Swiss event,
/// where the points decide the next round's score groups; nothing otherwise. `rungs pair
/// --save` and the Tonight screen both start from this.
pub fn default_bye(format: Format) -> ByeScore {
    match format {
        Format::Swiss => ByeScore::Win,
        _ => ByeScore::Nothing,
    }
}

/// The ladder's own rules among `entrants` (forbidden, avoided) added to `constraints`.
pub fn add_rules(book: &Book, entrants: &[Entrant], constraints: &mut Constraints) {
    for (i, x) in entrants.iter().enumerate() {
        for (j, y) in entrants.iter().enumerate().skip(i + 1) {
            match book.rule(x.id, y.id) {
                PairRule::Forbid => constraints.forbidden.insert(i, j),
                PairRule::Avoid => constraints.avoid.insert(i, j),
                PairRule::Free => {}
            }
        }
    }
}

/// A player's name and the rating that orders their pairing number in a Swiss event, from
/// the ladder as it stands on `date`.
pub fn swiss_who(ladder: &Ladder, date: NaiveDate) -> impl Fn(PlayerId) -> (String, u32) + '_ {
    let at = rungs_ladder::seasons::as_of(ladder, date);
    move |id| {
        let at: &Ladder = &at;
        at.player(id).map_or_else(
            || (format!("player #{id}"), 0),
            |p| (p.name.clone(), pairing_rating(at.figures(p).rating)),
        )
    }
}

/// The next round of a Swiss event by FIDE's Dutch System: boards (white on side A) and
/// bye by id, with the round's record. Locked boards have no place in it: the Dutch System
/// pairs the whole round.
pub fn swiss_round(
    ladder: &Ladder,
    book: &Book,
    request: &Request<'_>,
    forbidden: &[(PlayerId, PlayerId)],
) -> Result<swiss_event::NextRound, PairError> {
    if !request.locked.is_empty() {
        return Err(PairError::Invalid(
            "a Swiss round is paired whole by FIDE's rules: unlock the boards to pair it".into(),
        ));
    }
    let who = swiss_who(ladder, request.date);
    let event = request.event.map(|e| swiss_event::read(book, e, &who));
    swiss_event::pair_next(
        event.as_ref(),
        &Next {
            present: request.present,
            requested: request.requested,
            withdrawn: request.withdrawn,
            forbidden,
            rounds: request.rounds,
            first_black: false,
            bye_scores: request.bye_scores,
        },
        &who,
    )
}

/// Swiss event `number` (the number of its first round) of the ladder, its players named as
/// the ladder names them now.
pub fn read_event(ladder: &Ladder, book: &Book, number: u32) -> swiss_event::SwissEvent {
    let date = book.rounds.get(&number).map_or(NaiveDate::MIN, |r| r.date);
    swiss_event::read(book, number, &swiss_who(ladder, date))
}

/// The ladder's forbidden pairs among `ids`.
pub fn forbidden_among(book: &Book, ids: &[PlayerId]) -> Vec<(PlayerId, PlayerId)> {
    book.rules
        .iter()
        .filter(|(k, r)| **r == PairRule::Forbid && ids.contains(&k.0) && ids.contains(&k.1))
        .map(|(k, _)| *k)
        .collect()
}

/// The chances of `a` (side A) against `b` on `date`.
pub fn chances(
    ladder: &Ladder,
    history: &History,
    a: PlayerId,
    b: PlayerId,
    date: NaiveDate,
) -> Result<Prediction, PairError> {
    let (_, forecast) = present(ladder, &[a, b], date, history)?;
    Ok(super::model::Forecast::predict(&forecast, 0, 1))
}

fn swiss_planned(
    ladder: &Ladder,
    history: &History,
    book: &Book,
    request: &Request<'_>,
) -> Result<Planned, PairError> {
    let forbidden = forbidden_among(book, request.present);
    let next = swiss_round(ladder, book, request, &forbidden)?;
    let boards = next
        .boards
        .iter()
        .map(|&[a, b]| Ok(([a, b], chances(ladder, history, a, b, request.date)?)))
        .collect::<Result<Vec<_>, PairError>>()?;
    Ok(Planned {
        boards,
        bye: next.bye,
        swiss: next.record,
    })
}

/// Pairs the players of `request` not on a locked board.
pub fn plan(
    ladder: &Ladder,
    history: &History,
    book: &Book,
    request: &Request<'_>,
) -> Result<Planned, PairError> {
    let locked: Vec<PlayerId> = request.locked.iter().flatten().copied().collect();
    let pool: Vec<PlayerId> = request
        .present
        .iter()
        .copied()
        .filter(|id| !locked.contains(id))
        .collect();
    let (entrants, forecast) = present(ladder, &pool, request.date, history)?;
    let mut constraints = history.constraints(&entrants, request.date);
    add_rules(book, &entrants, &mut constraints);
    let round = match request.format {
        Format::Balanced => balanced::pair(&Night {
            entrants: &entrants,
            forecast: &forecast,
            constraints: &constraints,
            weights: &Weights::default(),
            seed: request.seed,
        })?,
        Format::Swiss => return swiss_planned(ladder, history, book, request),
        Format::RoundRobin => {
            // The next round of the table: one more than the round robin's rounds saved
            // tonight.
            let played = book
                .rounds
                .values()
                .filter(|r| r.date == request.date && r.round.format == Format::RoundRobin)
                .count();
            let n = entrants.len().max(2) - 1 + entrants.len() % 2;
            let rounds = round_robin::pair(&entrants, &forecast, n)?;
            rounds.into_iter().nth(played).ok_or_else(|| {
                PairError::Invalid(format!(
                    "the round robin of these {} players has {n} rounds, and {played} are \
                     saved tonight",
                    entrants.len()
                ))
            })?
        }
    };
    Ok(Planned {
        boards: round
            .boards
            .iter()
            .map(|b| ([entrants[b.a].id, entrants[b.b].id], b.prediction))
            .collect(),
        bye: round.bye.map(|i| entrants[i].id),
        swiss: SwissRecord::default(),
    })
}
