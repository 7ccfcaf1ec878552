//! FIDE's Tournament Report File, TRF-16 (FIDE Handbook C.04 Annex 2, "FIDE Data Exchange
//! Format"), the file Swiss-Manager, Vega, bbpPairings and chess-results read and write:
//! a Swiss event's players and every round's opponent, colour and result, with the common
//! extensions `XXR` (rounds the event will have) and `XXC` (`white1`/`black1`: the colour
//! drawn for player 1 in round 1).
//!
//! A player line (`001`) has fixed columns (1-based): starting rank 5–8, sex 10, title
//! 11–13, name 15–47, rating 49–52, federation 54–56, FIDE id 58–68, birth date 70–79,
//! points 81–84, rank 86–89; then one block of ten columns per round from column 90:
//! opponent's starting rank in 92–95 (`0000` none), colour in 97 (`w`, `b`, `-`) and result
//! in 99 (`1` `=` `0` a game, `+` `-` a forfeit, `U` the pairing-allocated bye, `H`, `F`, `Z`
//! a half, full or zero-point bye, blank not paired).
//!
//! Blocks after the last round in which anyone was paired say who will not play the round
//! still to be paired (as bbpPairings and JaVaFo read them).
//!
//! Players are written by starting rank = pairing number (FIDE C.04.2), so another program
//! pairs them the same; reading gives player index = starting rank − 1. Bad lines are refused
//! with their line and column, and nothing is returned.

use rungs_pairing::dutch::{Availability, Colour, Outcome, Player, Tournament, pairing_numbers};
use std::fmt;

/// An event as a TRF holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfEvent {
    /// The tournament's name (line `012`).
    pub name: String,
    pub tournament: Tournament,
    /// By player: byes already asked for in the round still to be paired (a block after
    /// the last round with a game: `H`, `F`, `Z`; a withdrawal is written as `Z`).
    pub next_round: Vec<Availability>,
}

/// Why a TRF was refused: where, and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrfError {
    /// 1-based, as an editor shows them; line 0 for the file as a whole.
    pub line: usize,
    pub column: usize,
    pub message: String,
}

impl fmt::Display for TrfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "TRF line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

impl std::error::Error for TrfError {}

const NAME_WIDTH: usize = 33;
/// The 0-based offset of the first round's block.
const ROUNDS_AT: usize = 89;

/// The event as TRF-16 text. Refuses names longer than the format's 33 characters and
/// ratings above 9999 (they would not read back the same).
pub fn write(event: &TrfEvent) -> Result<String, TrfError> {
    let t = &event.tournament;
    let numbers = pairing_numbers(&t.players);
    let mut by_number = vec![0; t.players.len()];
    for (i, &n) in numbers.iter().enumerate() {
        by_number[n - 1] = i;
    }
    let mut out = String::new();
    out.push_str(&format!("012 {}\n", event.name));
    out.push_str(&format!("062 {}\n", t.players.len()));
    out.push_str(&format!("XXR {}\n", t.total_rounds));
    let drawn = match t.initial {
        Colour::White => "white1",
        Colour::Black => "black1",
    };
    out.push_str(&format!("XXC {drawn}\n"));
    for (k, &i) in by_number.iter().enumerate() {
        let p = &t.players[i];
        if p.name.chars().count() > NAME_WIDTH || p.name.trim() != p.name || p.name.is_empty() {
            return Err(TrfError {
                line: 0,
                column: 15,
                message: format!(
                    "the name {:?} does not fit TRF's 33 columns without spaces at its ends",
                    p.name
                ),
            });
        }
        if p.rating > 9999 {
            return Err(TrfError {
                line: 0,
                column: 49,
                message: format!("{}'s rating {} has more than 4 digits", p.name, p.rating),
            });
        }
        let points: u32 = p.rounds.iter().map(|o| o.score()).sum();
        let rating = if p.rating == 0 {
            String::new()
        } else {
            p.rating.to_string()
        };
        let name = format!("{:<width$}", p.name, width = NAME_WIDTH);
        let points = format!("{}.{}", points / 2, if points % 2 == 1 { 5 } else { 0 });
        out.push_str(&format!(
            "001 {:>4}      {} {:>4} {:>3} {:>11} {:>10} {:>4} {:>4}",
            k + 1,
            name,
            rating,
            "",
            "",
            "",
            points,
            k + 1
        ));
        for o in &p.rounds {
            out.push_str(&block(*o, &numbers));
        }
        match event.next_round.get(i).copied() {
            Some(Availability::RequestedBye(h)) => {
                out.push_str(&block(Outcome::Absent { score: h }, &numbers))
            }
            Some(Availability::Out) => out.push_str(&block(Outcome::Absent { score: 0 }, &numbers)),
            _ => {}
        }
        out.push('\n');
    }
    Ok(out)
}

fn block(o: Outcome, numbers: &[usize]) -> String {
    let c = |c: Colour| if c == Colour::White { 'w' } else { 'b' };
    let (opponent, colour, result) = match o {
        Outcome::Played {
            opponent,
            colour,
            score,
        } => (
            numbers[opponent],
            c(colour),
            match score {
                2 => '1',
                1 => '=',
                _ => '0',
            },
        ),
        Outcome::Forfeit {
            opponent,
            colour,
            won,
        } => (numbers[opponent], c(colour), if won { '+' } else { '-' }),
        Outcome::PairingBye { .. } => (0, '-', 'U'),
        Outcome::Absent { score } => (
            0,
            '-',
            match score {
                2 => 'F',
                1 => 'H',
                _ => 'Z',
            },
        ),
    };
    format!("  {opponent:04} {colour} {result}")
}

/// Reads TRF-16 text. Lines other than `001`, `012`, `XXR` and `XXC` are skipped.
pub fn read(text: &str) -> Result<TrfEvent, TrfError> {
    let mut name = String::new();
    let mut total_rounds = None;
    let mut initial = Colour::White;
    // (line number, starting rank, name, rating, blocks)
    let mut rows: Vec<Row> = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let chars: Vec<char> = raw.trim_end_matches('\r').chars().collect();
        let at = |from: usize, to: usize| -> String {
            chars
                .iter()
                .skip(from)
                .take(to.saturating_sub(from))
                .collect()
        };
        let bad = |column: usize, message: String| TrfError {
            line,
            column,
            message,
        };
        match at(0, 3).as_str() {
            "012" => name = at(4, chars.len()).trim().to_string(),
            "XXR" => {
                let v = at(4, chars.len());
                total_rounds = Some(v.trim().parse::<u32>().map_err(|_| {
                    bad(
                        5,
                        format!("XXR needs a number of rounds, not {:?}", v.trim()),
                    )
                })?);
            }
            "XXC" => {
                let v = at(4, chars.len());
                initial = match v.split_whitespace().next() {
                    Some("white1") => Colour::White,
                    Some("black1") => Colour::Black,
                    other => {
                        return Err(bad(
                            5,
                            format!("XXC needs white1 or black1, not {:?}", other.unwrap_or("")),
                        ));
                    }
                }
            }
            "001" => rows.push(read_row(&chars, line)?),
            _ => {}
        }
    }
    build(name, total_rounds, initial, rows)
}

struct Row {
    line: usize,
    rank: usize,
    name: String,
    rating: u32,
    /// (column of the block's opponent, opponent rank or 0, colour char, result char)
    blocks: Vec<(usize, usize, char, char)>,
}

fn read_row(chars: &[char], line: usize) -> Result<Row, TrfError> {
    let at = |from: usize, to: usize| -> String {
        chars
            .iter()
            .skip(from)
            .take(to.saturating_sub(from))
            .collect()
    };
    let bad = |column: usize, message: String| TrfError {
        line,
        column,
        message,
    };
    let rank_text = at(4, 8);
    let rank: usize = rank_text
        .trim()
        .parse()
        .ok()
        .filter(|&r| r > 0)
        .ok_or_else(|| bad(5, format!("a starting rank, not {:?}", rank_text.trim())))?;
    let name = at(14, 47).trim().to_string();
    if name.is_empty() {
        return Err(bad(15, "the player's name is missing".into()));
    }
    let rating_text = at(48, 52);
    let rating = if rating_text.trim().is_empty() {
        0
    } else {
        rating_text
            .trim()
            .parse()
            .map_err(|_| bad(49, format!("a rating, not {:?}", rating_text.trim())))?
    };
    let mut blocks = Vec::new();
    let mut start = ROUNDS_AT;
    while start + 2 < chars.len() {
        let opp_text = at(start + 2, start + 6);
        let colour = chars.get(start + 7).copied().unwrap_or(' ');
        let result = chars.get(start + 9).copied().unwrap_or(' ');
        let opponent = if opp_text.trim().is_empty() {
            0
        } else {
            opp_text.trim().parse().map_err(|_| {
                bad(
                    start + 3,
                    format!("an opponent's starting rank, not {:?}", opp_text.trim()),
                )
            })?
        };
        if !matches!(colour, 'w' | 'b' | '-' | ' ') {
            return Err(bad(
                start + 8,
                format!("a colour w, b or -, not {colour:?}"),
            ));
        }
        if !"10=+-WDLUHFZ ".contains(result) {
            return Err(bad(start + 10, format!("a result code, not {result:?}")));
        }
        blocks.push((start + 3, opponent, colour, result));
        start += 10;
    }
    Ok(Row {
        line,
        rank,
        name,
        rating,
        blocks,
    })
}

fn build(
    name: String,
    total_rounds: Option<u32>,
    initial: Colour,
    mut rows: Vec<Row>,
) -> Result<TrfEvent, TrfError> {
    rows.sort_by_key(|r| r.rank);
    for (k, r) in rows.iter().enumerate() {
        if r.rank != k + 1 {
            return Err(TrfError {
                line: r.line,
                column: 5,
                message: format!(
                    "starting ranks must run 1 to {} once each; {} is out of place",
                    rows.len(),
                    r.rank
                ),
            });
        }
    }
    let n = rows.len();
    for r in &rows {
        if let Some(&(column, opp, _, _)) = r.blocks.iter().find(|b| b.1 > n || b.1 == r.rank) {
            return Err(TrfError {
                line: r.line,
                column,
                message: format!("no opponent with starting rank {opp} for {}", r.name),
            });
        }
    }
    // Rounds paired: up to the last with a game or a pairing-allocated bye; a block after
    // them notes a bye for the next round.
    let rounds = rows
        .iter()
        .filter_map(|r| {
            r.blocks
                .iter()
                .rposition(|b| b.1 != 0 || b.3 == 'U')
                .map(|k| k + 1)
        })
        .max()
        .unwrap_or(0);
    let next_round: Vec<Availability> = rows
        .iter()
        .map(|r| match r.blocks.get(rounds).map(|b| b.3) {
            Some('H' | '=') => Availability::RequestedBye(1),
            Some('F' | '+') => Availability::RequestedBye(2),
            Some('Z' | '-' | '0') => Availability::RequestedBye(0),
            _ => Availability::Plays,
        })
        .collect();
    let mut players: Vec<Player> = Vec::with_capacity(n);
    for r in &rows {
        let mut outcomes = Vec::with_capacity(rounds);
        for k in 0..rounds {
            let (column, opp, colour, result) =
                r.blocks.get(k).copied().unwrap_or((0, 0, ' ', ' '));
            let bad = |message: String| TrfError {
                line: r.line,
                column,
                message,
            };
            let side = match colour {
                'w' => Some(Colour::White),
                'b' => Some(Colour::Black),
                _ => None,
            };
            let outcome = if opp == 0 {
                match result {
                    'U' => Outcome::PairingBye { score: 2 },
                    'F' | '+' => Outcome::Absent { score: 2 },
                    'H' | '=' => Outcome::Absent { score: 1 },
                    'Z' | '-' | ' ' | '0' => Outcome::Absent { score: 0 },
                    other => return Err(bad(format!("result {other:?} without an opponent"))),
                }
            } else {
                if opp > n || opp == r.rank {
                    return Err(bad(format!("no opponent with starting rank {opp}")));
                }
                let Some(colour) = side else {
                    return Err(bad("a game needs the colour w or b".into()));
                };
                let back = rows[opp - 1].blocks.get(k).copied();
                let other = match colour {
                    Colour::White => 'b',
                    Colour::Black => 'w',
                };
                if !back.is_some_and(|(_, o, c, _)| o == r.rank && c == other) {
                    return Err(bad(format!(
                        "round {}: {} does not have {} as opponent with the other colour",
                        k + 1,
                        rows[opp - 1].name,
                        r.name
                    )));
                }
                let opponent = opp - 1;
                match result {
                    '1' | 'W' => Outcome::Played {
                        opponent,
                        colour,
                        score: 2,
                    },
                    '=' | 'D' => Outcome::Played {
                        opponent,
                        colour,
                        score: 1,
                    },
                    '0' | 'L' => Outcome::Played {
                        opponent,
                        colour,
                        score: 0,
                    },
                    '+' => Outcome::Forfeit {
                        opponent,
                        colour,
                        won: true,
                    },
                    '-' => Outcome::Forfeit {
                        opponent,
                        colour,
                        won: false,
                    },
                    other => {
                        return Err(bad(format!(
                            "result {other:?} for a paired game (expected 1, =, 0, + or -)"
                        )));
                    }
                }
            };
            outcomes.push(outcome);
        }
        players.push(Player {
            name: r.name.clone(),
            rating: r.rating,
            rounds: outcomes,
        });
    }
    // Both sides of a board must tell the same result.
    for (i, p) in players.iter().enumerate() {
        for (k, o) in p.rounds.iter().enumerate() {
            let (opponent, agrees) = match *o {
                Outcome::Played {
                    opponent, score, ..
                } => (
                    opponent,
                    matches!(players[opponent].rounds[k], Outcome::Played { score: s, .. } if s + score == 2),
                ),
                Outcome::Forfeit { opponent, won, .. } => (
                    opponent,
                    matches!(players[opponent].rounds[k], Outcome::Forfeit { won: w, .. } if !(w && won)),
                ),
                _ => continue,
            };
            if !agrees {
                return Err(TrfError {
                    line: rows[i].line,
                    column: rows[i].blocks[k].0 + 7,
                    message: format!(
                        "round {}: the result does not match {}'s",
                        k + 1,
                        players[opponent].name
                    ),
                });
            }
        }
    }
    let mut tournament = Tournament::new(total_rounds.unwrap_or(rounds as u32), initial);
    tournament.players = players;
    Ok(TrfEvent {
        name,
        tournament,
        next_round,
    })
}
