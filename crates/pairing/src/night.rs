//! One round of a club night from a ladder and its log, as the Tonight screen asks for it:
//! the players present, the format, the boards the organiser locked, the ladder's forbidden
//! and avoided pairs, byes and Swiss events ([`Book`]), and recent meetings ([`History`]).
//! Pure: the caller reads the log.

use super::balanced::{self, Night};
use super::ladder::{History, present};
use super::model::{Constraints, Entrant, PairError, Pairs, Weights};
use super::{round_robin, swiss};
use chrono::NaiveDate;
use rungs_ladder::event::{ByeScore, Format, PairRule, PlayerId};
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
}

/// The boards made for the players not locked, side A first, board order as the format
/// gives it, each with its forecast; and the bye.
#[derive(Debug, Clone, PartialEq)]
pub struct Planned {
    pub boards: Vec<([PlayerId; 2], Prediction)>,
    pub bye: Option<PlayerId>,
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

/// A Swiss event's points and meetings so far for `entrants`.
pub fn swiss_state(book: &Book, event: Option<u32>, entrants: &[Entrant]) -> swiss::Event {
    let so_far = event.map(|e| book.swiss_event(e)).unwrap_or_default();
    let index = |id: PlayerId| entrants.iter().position(|e| e.id == id);
    let mut met = Pairs::new();
    for &(a, b) in &so_far.met {
        if let (Some(i), Some(j)) = (index(a), index(b)) {
            met.insert(i, j);
        }
    }
    swiss::Event {
        scores: entrants
            .iter()
            .map(|e| so_far.points.get(&e.id).copied().unwrap_or(0.0))
            .collect(),
        met,
    }
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
        Format::Swiss => {
            let state = swiss_state(book, request.event, &entrants);
            swiss::pair(&entrants, &forecast, &state, &constraints, request.seed)?
        }
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
    })
}
