//! A Swiss event's crosstable: the standings (`tiebreaks`) with, for each player and round,
//! the opponent (by place in the standings, as printed crosstables show it), the colour and
//! the result. Pure data; the app, the CLI and the site draw it.

use crate::dutch::{Colour, Half, Outcome, Player};
use crate::tiebreaks::{TieBreak, standings};

/// One round of one player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cell {
    /// Paired: the opponent (index, and place in the standings), the colour, the points, and
    /// whether the game was forfeited (not played).
    Game {
        opponent: usize,
        place: usize,
        colour: Colour,
        points: Half,
        forfeit: bool,
    },
    /// The pairing-allocated bye.
    PairingBye { points: Half },
    /// Not paired: a requested bye, absence, or before a late entry.
    Absent { points: Half },
}

impl Cell {
    /// As printed: `4w1`, `2b½`, `5w+` (forfeit won), `3b−` (forfeit lost), `bye` for the
    /// pairing-allocated bye, `½`, `1` or `–` for a round not paired.
    pub fn text(&self) -> String {
        let half = |p: Half| match p {
            2 => "1",
            1 => "½",
            _ => "0",
        };
        match *self {
            Cell::Game {
                place,
                colour,
                points,
                forfeit,
                ..
            } => {
                let c = if colour == Colour::White { 'w' } else { 'b' };
                let r = match (forfeit, points) {
                    (true, 2) => "+",
                    (true, _) => "−",
                    (false, p) => half(p),
                };
                format!("{place}{c}{r}")
            }
            Cell::PairingBye { .. } => "bye".into(),
            Cell::Absent { points: 0 } => "–".into(),
            Cell::Absent { points } => half(points).into(),
        }
    }
}

/// One line: the player, their place, rounds, points and tie-breaks.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub player: usize,
    pub place: usize,
    pub name: String,
    pub rating: u32,
    pub cells: Vec<Cell>,
    pub points: f64,
    pub tiebreaks: Vec<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Crosstable {
    pub tiebreaks: Vec<TieBreak>,
    /// In standings order.
    pub rows: Vec<Row>,
}

pub fn crosstable(players: &[Player], order: &[TieBreak]) -> Crosstable {
    let lines = standings(players, order);
    let mut place = vec![0; players.len()];
    for l in &lines {
        place[l.player] = l.rank;
    }
    let rows = lines
        .iter()
        .map(|l| {
            let p = &players[l.player];
            let cells = p
                .rounds
                .iter()
                .map(|o| match *o {
                    Outcome::Played {
                        opponent,
                        colour,
                        score,
                    } => Cell::Game {
                        opponent,
                        place: place[opponent],
                        colour,
                        points: score,
                        forfeit: false,
                    },
                    Outcome::Forfeit {
                        opponent,
                        colour,
                        won,
                    } => Cell::Game {
                        opponent,
                        place: place[opponent],
                        colour,
                        points: 2 * Half::from(won),
                        forfeit: true,
                    },
                    Outcome::PairingBye { score } => Cell::PairingBye { points: score },
                    Outcome::Absent { score } => Cell::Absent { points: score },
                })
                .collect();
            Row {
                player: l.player,
                place: l.rank,
                name: p.name.clone(),
                rating: p.rating,
                cells,
                points: l.points,
                tiebreaks: l.values.clone(),
            }
        })
        .collect();
    Crosstable {
        tiebreaks: order.to_vec(),
        rows,
    }
}
