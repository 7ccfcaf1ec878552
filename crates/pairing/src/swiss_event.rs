//! A Swiss event of a ladder as FIDE's Dutch System reads it: the event's rounds in the log
//! ([`Book`]: boards with white on side A, results, the pairing-allocated bye, requested
//! byes, withdrawals, entries with their rating) turned into a [`dutch::Tournament`], and
//! its next round paired from the players present. Pure: the caller reads the log and
//! says each player's name and rating.
//!
//! Results count as FIDE's General Handling Rules (C.04.2) say: a forfeit is no meeting
//! and gives no colour, a cancelled board is a double forfeit. A board whose result is not
//! entered yet counts as played (its meeting and colours stand) with no points, and the
//! next round is not paired until it has one.

use crate::dutch::{self, Availability, Colour, Half, Outcome, Player, Tournament};
use crate::model::PairError;
use rungs_ladder::event::{ByeScore, MatchResult, PlayerId, RequestedBye, SwissEntry, SwissRecord};
use rungs_ladder::rounds::Book;
use rungs_rating::Outcome as Played;
use std::collections::{BTreeMap, BTreeSet};

/// The event so far.
#[derive(Debug, Clone, PartialEq)]
pub struct SwissEvent {
    /// The event's number: that of its first round.
    pub number: u32,
    /// Player index (as in `tournament.players`) to ladder id.
    pub ids: Vec<PlayerId>,
    pub tournament: Tournament,
    /// The ladder's number of each round of the event, in order.
    pub rounds: Vec<u32>,
    /// Boards without a result: (round, board from 1, white, black).
    pub missing: Vec<(u32, u32, PlayerId, PlayerId)>,
    /// Players withdrawn and not back on a board since.
    pub withdrawn: BTreeSet<PlayerId>,
    /// The name its first round records, if any.
    pub name: Option<String>,
}

/// The half-points a bye of `score` gives.
pub fn bye_halves(score: ByeScore) -> Half {
    match score {
        ByeScore::Nothing => 0,
        ByeScore::Win => 2,
    }
}

/// The rating that orders pairing numbers (FIDE C.04.2: rating at the start, then name),
/// from a ladder's rating: whole, 0 to 9999 (TRF's four digits); NaN reads as 0.
pub fn pairing_rating(rating: f64) -> u32 {
    if rating.is_finite() {
        rating.round().clamp(0.0, 9999.0) as u32
    } else {
        0
    }
}

impl SwissEvent {
    /// The index of ladder player `id`, if entered.
    pub fn index(&self, id: PlayerId) -> Option<usize> {
        self.ids.iter().position(|&x| x == id)
    }

    /// The event up to its first round with a result missing: what standings and
    /// crosstables show.
    pub fn complete(&self) -> Tournament {
        let mut t = self.tournament.clone();
        if let Some(first) = self.missing.first() {
            let keep = self.rounds.iter().position(|&r| r == first.0).unwrap_or(0);
            for p in &mut t.players {
                p.rounds.truncate(keep);
            }
        }
        t
    }

    /// Rounds with every result in.
    pub fn complete_rounds(&self) -> Vec<u32> {
        let keep = self.complete().rounds();
        self.rounds[..keep].to_vec()
    }
}

/// Reads event `number` (the number of its first round) from `book`. `who` gives a player's
/// name and the rating to enter them at where the log records none (a round saved before
/// rounds kept ratings).
pub fn read(book: &Book, number: u32, who: &dyn Fn(PlayerId) -> (String, u32)) -> SwissEvent {
    let mut event = SwissEvent {
        number,
        ids: Vec::new(),
        tournament: Tournament::new(0, Colour::White),
        rounds: Vec::new(),
        missing: Vec::new(),
        withdrawn: BTreeSet::new(),
        name: None,
    };
    let mut index: BTreeMap<PlayerId, usize> = BTreeMap::new();
    for saved in book.rounds.values().filter(|r| r.event() == Some(number)) {
        let r = &saved.round;
        if event.rounds.is_empty() {
            event.name = r.swiss.name.clone();
            event.tournament.total_rounds = r.swiss.rounds.unwrap_or(0);
            event.tournament.initial = if r.swiss.first_black {
                Colour::Black
            } else {
                Colour::White
            };
        }
        event.tournament.bye_score = bye_halves(r.bye_scores);
        let rated: BTreeMap<PlayerId, u32> = r
            .swiss
            .entries
            .iter()
            .map(|e| (e.player, e.rating))
            .collect();
        for id in r.named() {
            if let std::collections::btree_map::Entry::Vacant(slot) = index.entry(id) {
                let (name, fallback) = who(id);
                let rating = rated.get(&id).copied().unwrap_or(fallback);
                slot.insert(event.tournament.enter(&name, rating));
                event.ids.push(id);
            }
        }
        event.withdrawn.extend(r.swiss.withdrawn.iter().copied());
        let mut round = vec![Outcome::Absent { score: 0 }; event.ids.len()];
        for q in &r.swiss.requested {
            round[index[&q.player]] = Outcome::Absent {
                score: Half::from(q.halves.min(2)),
            };
        }
        if let Some(bye) = r.bye {
            round[index[&bye]] = Outcome::PairingBye {
                score: bye_halves(r.bye_scores),
            };
        }
        for (k, (board, result)) in r.boards.iter().zip(&saved.results).enumerate() {
            let [w, b] = *board;
            let (iw, ib) = (index[&w], index[&b]);
            event.withdrawn.remove(&w);
            event.withdrawn.remove(&b);
            let played = |opponent, colour, score| Outcome::Played {
                opponent,
                colour,
                score,
            };
            let forfeit = |opponent, colour, won| Outcome::Forfeit {
                opponent,
                colour,
                won,
            };
            let (ow, ob) = match result.map(|x| x.result) {
                Some(MatchResult::Played(o)) => {
                    let sw = match o {
                        Played::Win => 2,
                        Played::Draw => 1,
                        Played::Loss => 0,
                    };
                    (
                        played(ib, Colour::White, sw),
                        played(iw, Colour::Black, 2 - sw),
                    )
                }
                // Side A (white) forfeits: black wins without a game.
                Some(MatchResult::ForfeitA) => (
                    forfeit(ib, Colour::White, false),
                    forfeit(iw, Colour::Black, true),
                ),
                Some(MatchResult::ForfeitB) => (
                    forfeit(ib, Colour::White, true),
                    forfeit(iw, Colour::Black, false),
                ),
                Some(MatchResult::Cancelled) => (
                    forfeit(ib, Colour::White, false),
                    forfeit(iw, Colour::Black, false),
                ),
                None => {
                    event.missing.push((r.number, k as u32 + 1, w, b));
                    (played(ib, Colour::White, 0), played(iw, Colour::Black, 0))
                }
            };
            round[iw] = ow;
            round[ib] = ob;
        }
        for (p, o) in event.tournament.players.iter_mut().zip(round) {
            p.rounds.push(o);
        }
        event.rounds.push(r.number);
    }
    event
}

/// What the next round is paired from.
pub struct Next<'a> {
    /// The players who play (late entries among them).
    pub present: &'a [PlayerId],
    /// Byes asked for: not paired, with their points.
    pub requested: &'a [RequestedBye],
    /// Players withdrawing before this round.
    pub withdrawn: &'a [PlayerId],
    /// Pairs never to be paired.
    pub forbidden: &'a [(PlayerId, PlayerId)],
    /// A new event: the rounds it will have (none: not declared).
    pub rounds: Option<u32>,
    /// A new event: black drawn for pairing number 1.
    pub first_black: bool,
    /// What the pairing-allocated bye scores in this round.
    pub bye_scores: ByeScore,
}

/// The next round: boards white first in published order, the bye, and what the round's
/// record keeps for the Dutch System.
#[derive(Debug, Clone, PartialEq)]
pub struct NextRound {
    pub boards: Vec<[PlayerId; 2]>,
    pub bye: Option<PlayerId>,
    pub record: SwissRecord,
}

/// Pairs the next round of `event` (`None`: its first round) by FIDE's Dutch System.
/// `who` names a player and gives their rating now, for players entering.
pub fn pair_next(
    event: Option<&SwissEvent>,
    next: &Next<'_>,
    who: &dyn Fn(PlayerId) -> (String, u32),
) -> Result<NextRound, PairError> {
    let name = |id: PlayerId| who(id).0;
    if let Some(&(round, board, w, b)) = event.and_then(|e| e.missing.first()) {
        return Err(PairError::Invalid(format!(
            "round {round}, board {board} ({} – {}) has no result yet; enter it before \
             pairing the next round",
            name(w),
            name(b)
        )));
    }
    let mut seen = BTreeSet::new();
    for &id in next
        .present
        .iter()
        .chain(next.requested.iter().map(|r| &r.player))
        .chain(next.withdrawn)
    {
        if !seen.insert(id) {
            return Err(PairError::Invalid(format!(
                "{} is named twice among those who play, ask for a bye and withdraw",
                name(id)
            )));
        }
    }
    if let Some(r) = next.requested.iter().find(|r| r.halves > 2) {
        return Err(PairError::Invalid(format!(
            "{}'s bye scores {} half-points; a bye scores 0, ½ or 1 point",
            name(r.player),
            r.halves
        )));
    }
    let (mut tournament, mut ids) = match event {
        Some(e) => (e.tournament.clone(), e.ids.clone()),
        None => {
            let initial = if next.first_black {
                Colour::Black
            } else {
                Colour::White
            };
            (
                Tournament::new(next.rounds.unwrap_or(0), initial),
                Vec::new(),
            )
        }
    };
    tournament.bye_score = bye_halves(next.bye_scores);
    let mut record = SwissRecord {
        rounds: if event.is_none() { next.rounds } else { None },
        first_black: event.is_none() && next.first_black,
        ..SwissRecord::default()
    };
    for &id in next
        .present
        .iter()
        .chain(next.requested.iter().map(|r| &r.player))
    {
        if !ids.contains(&id) {
            let (name, rating) = who(id);
            tournament.enter(&name, rating);
            ids.push(id);
            record.entries.push(SwissEntry { player: id, rating });
        }
    }
    let index = |id: PlayerId| ids.iter().position(|&x| x == id);
    let mut available = vec![Availability::Out; ids.len()];
    for &id in next.present {
        if let Some(i) = index(id) {
            available[i] = Availability::Plays;
        }
    }
    for r in next.requested {
        if let Some(i) = index(r.player) {
            available[i] = Availability::RequestedBye(Half::from(r.halves));
        }
    }
    tournament.forbidden = next
        .forbidden
        .iter()
        .filter_map(|&(a, b)| Some((index(a)?, index(b)?)))
        .collect();
    let pairing = tournament.pair(&available).map_err(|e| match e {
        dutch::DutchError::NoPairing => PairError::Invalid(format!(
            "{e}: no round {} can be paired among these {} players",
            tournament.rounds() + 1,
            next.present.len()
        )),
        dutch::DutchError::Invalid(why) => PairError::Invalid(why),
    })?;
    record.requested = next.requested.to_vec();
    record.withdrawn = next
        .withdrawn
        .iter()
        .copied()
        .filter(|id| event.is_some_and(|e| e.index(*id).is_some()))
        .collect();
    Ok(NextRound {
        boards: pairing
            .boards
            .iter()
            .map(|&(w, b)| [ids[w], ids[b]])
            .collect(),
        bye: pairing.bye.map(|i| ids[i]),
        record,
    })
}

/// The players of `players` in order of their pairing numbers.
pub fn by_pairing_number(players: &[Player]) -> Vec<usize> {
    let numbers = dutch::pairing_numbers(players);
    let mut order: Vec<usize> = (0..players.len()).collect();
    order.sort_by_key(|&i| numbers[i]);
    order
}

#[cfg(test)]
mod tests;
