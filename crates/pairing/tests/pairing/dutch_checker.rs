//! A checker of a Swiss round against FIDE's absolute rules, written from the Handbook and
//! not from the pairing code (it reads only the raw rounds, never the engine's states):
//!
//! - everyone available is paired once, or is the one bye of an odd count; nobody else is;
//! - C.04.1 b: two players never meet over the board twice (a forfeited pairing is not a
//!   meeting, C.04.2);
//! - C.04.1 d: the pairing-allocated bye never goes to a player who had it or won by forfeit;
//! - C.04.1 f, g: after the round every colour difference is within ±2 and nobody has the
//!   same colour three games running (games played only, C.04.2) — in the last round only a
//!   topscorer's board may break this (C.04.3 C3 lets topscorers with the same absolute
//!   colour preference meet, article 1.7 defines them);
//! - C.04.3 C3: two non-topscorers with the same absolute colour preference never meet.

use rungs_pairing::dutch::{Availability, Colour, Outcome, Pairing, Player};

/// The colours a player has played, oldest first.
fn played_colours(p: &Player) -> Vec<Colour> {
    p.rounds
        .iter()
        .filter_map(|o| match o {
            Outcome::Played { colour, .. } => Some(*colour),
            _ => None,
        })
        .collect()
}

fn difference(colours: &[Colour]) -> i32 {
    colours
        .iter()
        .map(|c| if *c == Colour::White { 1 } else { -1 })
        .sum()
}

/// The colour a player must have, if any: beyond ±1, or after two the same in a row.
fn absolute(colours: &[Colour]) -> Option<Colour> {
    let d = difference(colours);
    let n = colours.len();
    if d < -1 {
        Some(Colour::White)
    } else if d > 1 {
        Some(Colour::Black)
    } else if n >= 2 && colours[n - 1] == colours[n - 2] {
        Some(if colours[n - 1] == Colour::White {
            Colour::Black
        } else {
            Colour::White
        })
    } else {
        None
    }
}

fn points(p: &Player) -> u32 {
    p.rounds
        .iter()
        .map(|o| match o {
            Outcome::Played { score, .. } => *score,
            Outcome::Forfeit { won, .. } => 2 * u32::from(*won),
            Outcome::PairingBye { score } | Outcome::Absent { score } => *score,
        })
        .sum()
}

/// `Ok` when `pairing` keeps every rule above; otherwise what it breaks.
pub fn check(
    players: &[Player],
    total_rounds: u32,
    available: &[Availability],
    pairing: &Pairing,
) -> Result<(), String> {
    let n = players.len();
    let round = players.first().map_or(0, |p| p.rounds.len()) as u32;
    let last = round + 1 == total_rounds;
    let topscorer = |i: usize| last && points(&players[i]) > round;
    let plays = |i: usize| {
        matches!(
            available.get(i).copied().unwrap_or(Availability::Plays),
            Availability::Plays
        )
    };
    let mut seen = vec![0u32; n];
    for &(w, b) in &pairing.boards {
        if w >= n || b >= n || w == b {
            return Err(format!("board {w}–{b} is not two players"));
        }
        seen[w] += 1;
        seen[b] += 1;
    }
    if let Some(p) = pairing.bye {
        seen[p] += 1;
    }
    for i in 0..n {
        let want = u32::from(plays(i));
        if seen[i] != want {
            return Err(format!(
                "{} is paired {} times, should be {want}",
                players[i].name, seen[i]
            ));
        }
    }
    let count = (0..n).filter(|&i| plays(i)).count();
    if pairing.bye.is_some() != (count % 2 == 1) {
        return Err(format!("{count} players and bye {:?}", pairing.bye));
    }
    if let Some(p) = pairing.bye {
        let had = players[p].rounds.iter().any(|o| {
            matches!(
                o,
                Outcome::PairingBye { .. } | Outcome::Forfeit { won: true, .. }
            )
        });
        if had {
            return Err(format!(
                "{} gets the bye after a bye or forfeit win",
                players[p].name
            ));
        }
    }
    for &(w, b) in &pairing.boards {
        let met = players[w]
            .rounds
            .iter()
            .any(|o| matches!(o, Outcome::Played { opponent, .. } if *opponent == b));
        if met {
            return Err(format!(
                "{} and {} meet again",
                players[w].name, players[b].name
            ));
        }
        let (cw, cb) = (played_colours(&players[w]), played_colours(&players[b]));
        let top_board = topscorer(w) || topscorer(b);
        if let (Some(x), Some(y)) = (absolute(&cw), absolute(&cb))
            && x == y
            && !top_board
        {
            return Err(format!(
                "{} and {} both must have {x:?}",
                players[w].name, players[b].name
            ));
        }
        for (p, mut colours, c) in [(w, cw, Colour::White), (b, cb, Colour::Black)] {
            colours.push(c);
            let k = colours.len();
            let run = k >= 3 && colours[k - 3..].iter().all(|&x| x == c);
            let d = difference(&colours);
            if (run || d.abs() > 2) && !top_board {
                return Err(format!(
                    "{} would have colours {colours:?} (difference {d})",
                    players[p].name
                ));
            }
        }
    }
    Ok(())
}
