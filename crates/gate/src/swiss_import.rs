//! A Swiss event from a TRF-16 file (another program's, or rungs' own export) brought into a
//! ladder as one undoable action: its players matched by name (a new name joins), its
//! rounds saved as a Swiss event numbered after the ladder's rounds, each board's result as
//! a match linked to it, all on one date (a TRF holds no dates).
//!
//! TRF names are often "Surname, Given" (chess-results, Swiss-Manager); a ladder's names
//! hold no comma, so such a name is read as "Given Surname".

use super::{Action, ActionError, Context, Kind};
use chrono::NaiveDate;
use rungs_interchange::trf::TrfEvent;
use rungs_ladder::event::{
    BoardRef, ByeScore, Entry, Event, Format, Home, Match, MatchResult, PlayerId, RequestedBye,
    RoundRecord, SwissEntry, SwissRecord,
};
use rungs_ladder::rounds::{Book, check_round};
use rungs_pairing::dutch::{Colour, Outcome};
use rungs_rating::Outcome as Played;
use std::collections::BTreeMap;

/// The most characters an event's name keeps.
const MAX_EVENT_NAME: usize = 200;

/// What an event import brings in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventSummary {
    pub name: String,
    pub players: usize,
    pub new_players: usize,
    pub rounds: usize,
    pub results: usize,
    /// The ladder's number of the event's first round (the event's number).
    pub first_round: u32,
}

/// A TRF name as the ladder writes names: "Surname, Given" turned to "Given Surname".
pub fn ladder_name(trf: &str) -> String {
    match trf.split_once(',') {
        Some((surname, given)) if !given.trim().is_empty() => {
            format!("{} {}", given.trim(), surname.trim())
        }
        Some((surname, _)) => surname.trim().to_string(),
        None => trf.trim().to_string(),
    }
}

impl Action {
    /// The event `trf` as rounds of this ladder dated `date`; a name the ladder does not
    /// know joins, unless `allow_new` is false (then it is refused).
    pub fn import_event(
        ctx: &mut Context<'_>,
        book: &Book,
        trf: &TrfEvent,
        date: NaiveDate,
        allow_new: bool,
    ) -> Result<(Action, EventSummary), ActionError> {
        let at = ctx.at.clone();
        let date = ctx.not_ahead(date)?;
        let name = trf.name.trim().to_string();
        if name.chars().count() > MAX_EVENT_NAME || name.chars().any(char::is_control) {
            return Err(ActionError::invalid(
                &at,
                "event name",
                &name.chars().take(60).collect::<String>(),
                format!(
                    "is not an event name (at most {MAX_EVENT_NAME} characters, no control characters)"
                ),
            ));
        }
        let t = &trf.tournament;
        if t.players.is_empty() || t.rounds() == 0 {
            return Err(ActionError::refused(
                &at,
                "the TRF holds no round played: nothing to import",
            ));
        }
        let mut rows: Vec<(NaiveDate, Entry)> = Vec::new();
        let mut ids: Vec<PlayerId> = Vec::with_capacity(t.players.len());
        let mut taken: BTreeMap<PlayerId, String> = BTreeMap::new();
        let mut new_players = 0;
        for p in &t.players {
            let wanted = ladder_name(&p.name);
            let id = match ctx.roster.find(&wanted) {
                Some(id) => id,
                None if !allow_new => {
                    return Err(ActionError::refused(
                        &at,
                        format!(
                            "{wanted} is not a player of this ladder (new players are refused)"
                        ),
                    ));
                }
                None => {
                    let field = format!("player {:?}", p.name);
                    let valid = ctx.roster.new_name(&at, &field, &wanted, None)?;
                    let id = ctx.roster.next_id(&at, &field, &wanted)?;
                    ctx.roster.claim(&valid, id);
                    rows.push((
                        date,
                        Entry::Add {
                            event: Event::Player {
                                id,
                                name: valid,
                                undated: true,
                            },
                        },
                    ));
                    new_players += 1;
                    id
                }
            };
            if let Some(first) = taken.insert(id, p.name.clone()) {
                return Err(ActionError::refused(
                    &at,
                    format!(
                        "{first} and {} are one player of this ladder ({wanted}); a player enters \
                         an event once",
                        p.name
                    ),
                ));
            }
            if let Some(joined) = ctx
                .ladder()
                .player(id)
                .filter(|p| !p.undated)
                .and_then(|p| p.joined_on)
                .filter(|j| *j > date)
            {
                return Err(ActionError::NotYetJoined {
                    at: at.clone(),
                    name: wanted,
                    joined,
                    date,
                });
            }
            ids.push(id);
        }
        let Some(first) = book.next_number() else {
            return Err(ActionError::refused(
                &at,
                "the ladder has used every round number (4,294,967,295)",
            ));
        };
        let rounds = t.rounds();
        if u32::try_from(rounds)
            .ok()
            .and_then(|r| first.checked_add(r))
            .is_none()
        {
            return Err(ActionError::refused(
                &at,
                "more rounds than numbers are left",
            ));
        }
        let mut results = 0;
        for r in 0..rounds {
            let number = first + r as u32;
            let round = round_record(ctx, trf, &ids, r, number, first)?;
            let boards = round.boards.clone();
            rows.push((
                date,
                Entry::Add {
                    event: Event::Round {
                        round: Box::new(round),
                    },
                },
            ));
            for (k, [w, b]) in boards.iter().enumerate() {
                let iw = ids.iter().position(|x| x == w).unwrap_or_default();
                let result = match t.players[iw].rounds[r] {
                    Outcome::Played { score: 2, .. } => MatchResult::Played(Played::Win),
                    Outcome::Played { score: 1, .. } => MatchResult::Played(Played::Draw),
                    Outcome::Played { .. } => MatchResult::Played(Played::Loss),
                    Outcome::Forfeit { won: true, .. } => MatchResult::ForfeitB,
                    Outcome::Forfeit { opponent, .. } => match t.players[opponent].rounds[r] {
                        Outcome::Forfeit { won: true, .. } => MatchResult::ForfeitA,
                        _ => MatchResult::Cancelled,
                    },
                    _ => MatchResult::Cancelled,
                };
                let mut m = Match::new(*w, *b, result);
                m.home = Some(Home::A);
                m.board = Some(BoardRef {
                    round: number,
                    board: k as u32 + 1,
                });
                ctx.check_match(&|| at.clone(), date, &m)?;
                rows.push((
                    date,
                    Entry::Add {
                        event: Event::Match(m),
                    },
                ));
                results += 1;
            }
        }
        let shown = if name.is_empty() {
            "a Swiss event".to_string()
        } else {
            name.clone()
        };
        let label = format!(
            "imported {shown} ({} players, {rounds} rounds)",
            t.players.len()
        );
        let summary = EventSummary {
            name: shown,
            players: t.players.len(),
            new_players,
            rounds,
            results,
            first_round: first,
        };
        Ok((Action::new(Kind::ImportMatches, label, rows)?, summary))
    }
}

/// Round `r` of the TRF as the ladder's round `number`: boards white first, ordered by the
/// better pairing number on them; the pairing-allocated bye; requested byes; in the first
/// round, every player's entry with their rating, the rounds declared and the colour drawn.
fn round_record(
    ctx: &Context<'_>,
    trf: &TrfEvent,
    ids: &[PlayerId],
    r: usize,
    number: u32,
    first: u32,
) -> Result<RoundRecord, ActionError> {
    let t = &trf.tournament;
    let at = &ctx.at;
    let numbers = rungs_pairing::dutch::pairing_numbers(&t.players);
    let mut boards: Vec<(usize, [PlayerId; 2])> = Vec::new();
    let mut bye: Option<(usize, ByeScore)> = None;
    let mut requested = Vec::new();
    for (i, p) in t.players.iter().enumerate() {
        match p.rounds[r] {
            Outcome::Played {
                opponent,
                colour: Colour::White,
                ..
            }
            | Outcome::Forfeit {
                opponent,
                colour: Colour::White,
                ..
            } => boards.push((numbers[i].min(numbers[opponent]), [ids[i], ids[opponent]])),
            Outcome::PairingBye { score } => {
                let scores = match score {
                    0 => ByeScore::Nothing,
                    2 => ByeScore::Win,
                    _ => {
                        return Err(ActionError::refused(
                            at,
                            format!(
                                "round {}: {}'s pairing-allocated bye scores ½; a round's bye \
                                 scores 1 or 0 here (a half-point bye is one the player asks \
                                 for: H)",
                                r + 1,
                                p.name
                            ),
                        ));
                    }
                };
                if let Some((other, _)) = bye {
                    return Err(ActionError::refused(
                        at,
                        format!(
                            "round {}: {} and {} both have the pairing-allocated bye; a round \
                             has one",
                            r + 1,
                            t.players[other].name,
                            p.name
                        ),
                    ));
                }
                bye = Some((i, scores));
            }
            Outcome::Absent { score } if score > 0 => requested.push(RequestedBye {
                player: ids[i],
                halves: score.min(2) as u8,
            }),
            _ => {}
        }
    }
    if boards.is_empty() {
        return Err(ActionError::refused(
            at,
            format!(
                "round {} of the TRF has no board; a round has at least one",
                r + 1
            ),
        ));
    }
    boards.sort_by_key(|(n, _)| *n);
    let swiss = SwissRecord {
        rounds: (r == 0 && t.total_rounds > 0).then_some(t.total_rounds),
        first_black: r == 0 && t.initial == Colour::Black,
        entries: if r == 0 {
            t.players
                .iter()
                .zip(ids)
                .map(|(p, &player)| SwissEntry {
                    player,
                    rating: p.rating,
                })
                .collect()
        } else {
            Vec::new()
        },
        requested,
        withdrawn: Vec::new(),
        name: (r == 0 && !trf.name.trim().is_empty()).then(|| trf.name.trim().to_string()),
    };
    let round = RoundRecord {
        number,
        format: Format::Swiss,
        boards: boards.into_iter().map(|(_, b)| b).collect(),
        bye: bye.map(|(i, _)| ids[i]),
        bye_scores: bye.map_or(ByeScore::Win, |(_, s)| s),
        event: Some(first),
        swiss,
    };
    let name = |id: PlayerId| {
        ids.iter()
            .position(|&x| x == id)
            .map_or("?".to_string(), |i| t.players[i].name.clone())
    };
    check_round(&round, &name).map_err(|e| ActionError::refused(at, e.to_string()))?;
    Ok(round)
}
