//! Round robin by the Berger tables (FIDE Handbook C.05, Annex 1): everyone meets everyone
//! over n − 1 rounds (n even; an odd group adds a dummy whose opponent has the bye).
//!
//! In round r (1-based) of an even table of n, with m = n − 1: player n meets the x with
//! 2x ≡ r + 1 (mod m), at home in even rounds; every other pair sums to r + 1 (mod m), and
//! the player a with (a − b) mod m even takes side A. Boards are listed from player n's,
//! then with side A going x + 1, x + 2, … round the circle — which is the published layout
//! (1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / …).
//!
//! Double round robin: the second cycle repeats the first with the sides swapped, and, as the
//! Annex recommends, the first cycle's last two rounds are exchanged so that nobody takes
//! the same side three times running across the turn.

use super::model::{Board, Entrant, Forecast, PairError, Round};

/// A round of a table: (side A, side B) by draw number from 1, and the number with the bye.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRound {
    pub boards: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// The most players a table is made for (a club group; the rounds grow as n²).
pub const MAX_PLAYERS: usize = 1000;

/// The single round robin table for `players` players (numbers 1..=players).
pub fn berger(players: usize) -> Vec<TableRound> {
    if players < 2 {
        return Vec::new();
    }
    let n = players + players % 2;
    let m = n - 1;
    let wrap = |x: usize| (x + m - 1) % m + 1; // into 1..=m
    (1..=m)
        .map(|r| {
            // 2x ≡ r + 1 (mod m); m is odd, so x = (r + 1)·(m + 1)/2 mod m.
            let x = wrap((r + 1) * (m + 1) / 2 % m);
            let mut boards = Vec::with_capacity(n / 2);
            boards.push(if r % 2 == 1 { (x, n) } else { (n, x) });
            for i in 1..n / 2 {
                let a = wrap(x + i);
                let b = wrap((r + 1 + m * 2 - a % m) % m);
                boards.push((a, b));
            }
            let bye = (players % 2 == 1).then_some(x);
            if bye.is_some() {
                boards.remove(0);
            }
            TableRound { boards, bye }
        })
        .collect()
}

/// The double round robin: the first cycle with its last two rounds exchanged, then the
/// same rounds with the sides swapped.
pub fn berger_double(players: usize) -> Vec<TableRound> {
    let mut first = berger(players);
    let len = first.len();
    if len >= 2 {
        first.swap(len - 2, len - 1);
    }
    let second: Vec<TableRound> = first
        .iter()
        .map(|t| TableRound {
            boards: t.boards.iter().map(|&(a, b)| (b, a)).collect(),
            bye: t.bye,
        })
        .collect();
    first.extend(second);
    first
}

/// The first `rounds` rounds of the group's round robin (single, continuing into the double
/// past n − 1 rounds), draw numbers by standings (the best placed is 1), boards in the
/// table's order.
pub fn pair<F: Forecast + ?Sized>(
    entrants: &[Entrant],
    forecast: &F,
    rounds: usize,
) -> Result<Vec<Round>, PairError> {
    super::model::check_distinct(entrants)?;
    let n = entrants.len();
    if n > MAX_PLAYERS {
        return Err(PairError::Invalid(format!(
            "a round robin is made for at most {MAX_PLAYERS} players, not {n}"
        )));
    }
    let table = if rounds <= berger(n).len() {
        berger(n)
    } else {
        berger_double(n)
    };
    if rounds > table.len() {
        return Err(PairError::Invalid(format!(
            "a double round robin of {n} players has {} rounds, not {rounds}",
            table.len()
        )));
    }
    let mut by_place: Vec<usize> = (0..n).collect();
    by_place.sort_by_key(|&i| (entrants[i].place, entrants[i].id));
    let who = |number: usize| by_place[number - 1];
    Ok(table
        .iter()
        .take(rounds)
        .map(|t| {
            let boards: Vec<Board> = t
                .boards
                .iter()
                .map(|&(a, b)| Board {
                    a: who(a),
                    b: who(b),
                    prediction: forecast.predict(who(a), who(b)),
                    cost: 0.0,
                })
                .collect();
            Round {
                boards,
                bye: t.bye.map(who),
            }
        })
        .collect())
}
