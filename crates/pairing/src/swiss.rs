//! A Swiss round, Dutch-style, as one minimum-cost perfect matching whose prices rank the
//! Dutch rules strictly, most important first (the way weighted-matching Swiss pairers such
//! as bbpPairings do it):
//!
//! 1. no rematch within the event — a rematch costs more than every other price of any whole
//!    round together, so it is taken only when no pairing avoids it;
//! 2. floaters: players are paired within their score group, and the squared score gap of a
//!    pair across groups costs more than all the prices below together;
//! 3. Dutch order within a group: the group's top half meets its bottom half, 1st against
//!    the first of the lower half and so on (a pair k places apart costs |k − s/2|, s the
//!    group's size); a downfloater meets the top of the group below;
//! 4. sides: each player who would repeat the side of their last game.
//!
//! The bye goes to a player without one (fewest byes), then the lowest score, then the
//! lowest placed. Forbidden pairs are never paired.

use super::blossom::{self, Edge};
use super::model::{
    Board, Constraints, Entrant, Forecast, PairError, Pairs, Round, Seat, bye_order,
    check_distinct, mix, order_boards,
};
use std::cmp::Ordering;

/// An event in progress: each entrant's points so far and who has met whom in it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Event {
    /// Points by entrant index (1 a win, ½ a draw).
    pub scores: Vec<f64>,
    pub met: Pairs,
}

/// The next round of the event. `constraints.forbidden` is kept; the night's other
/// constraints are the balanced pairing's and play no part here.
pub fn pair<F: Forecast + ?Sized>(
    entrants: &[Entrant],
    forecast: &F,
    event: &Event,
    constraints: &Constraints,
    seed: u64,
) -> Result<Round, PairError> {
    check_distinct(entrants)?;
    let n = entrants.len();
    if event.scores.len() != n || event.scores.iter().any(|s| !s.is_finite() || *s < 0.0) {
        return Err(PairError::Invalid(
            "every player of a Swiss event needs a score of 0 or more".into(),
        ));
    }
    let halves: Vec<i64> = event
        .scores
        .iter()
        .map(|s| (s * 2.0).round() as i64)
        .collect();
    let lower = |x: usize, y: usize| -> Ordering {
        halves[x]
            .cmp(&halves[y])
            .then(entrants[y].place.cmp(&entrants[x].place))
    };
    let candidates: Vec<Option<usize>> = if n % 2 == 1 {
        bye_order(entrants, lower).into_iter().map(Some).collect()
    } else {
        vec![None]
    };
    for bye in candidates {
        let players: Vec<usize> = (0..n).filter(|&i| Some(i) != bye).collect();
        if let Some(mut boards) = pair_players(
            entrants,
            forecast,
            event,
            constraints,
            &halves,
            &players,
            seed,
        )? {
            order_boards(entrants, &mut boards);
            return Ok(Round { boards, bye });
        }
    }
    Err(PairError::NoPairing(Vec::new()))
}

fn pair_players<F: Forecast + ?Sized>(
    entrants: &[Entrant],
    forecast: &F,
    event: &Event,
    constraints: &Constraints,
    halves: &[i64],
    players: &[usize],
    seed: u64,
) -> Result<Option<Vec<Board>>, PairError> {
    let m = players.len();
    // Rank: score, then standings.
    let mut rank = players.to_vec();
    rank.sort_by(|&x, &y| {
        halves[y]
            .cmp(&halves[x])
            .then(entrants[x].place.cmp(&entrants[y].place))
            .then(entrants[x].id.cmp(&entrants[y].id))
    });
    // Each ranked player's position in their score group and the group's size.
    let mut pos = vec![0usize; m];
    let mut size = vec![0usize; m];
    let mut start = 0;
    while start < m {
        let mut end = start;
        while end < m && halves[rank[end]] == halves[rank[start]] {
            end += 1;
        }
        for r in start..end {
            pos[r] = r - start;
            size[r] = end - start;
        }
        start = end;
    }
    let spread =
        halves.iter().max().copied().unwrap_or(0) - halves.iter().min().copied().unwrap_or(0);
    let mm = m as i64;
    // Strict priorities: each unit exceeds everything below it over a whole round.
    let dutch_max = mm + 2;
    let float_unit = (mm / 2 + 1) * (2 * dutch_max + 2);
    let rematch_unit = (mm / 2 + 1) * (float_unit * (spread * spread + 1));
    if rematch_unit
        .checked_mul(4)
        .is_none_or(|x| x > blossom::MAX_WEIGHT)
    {
        return Err(PairError::Invalid(format!(
            "{m} players with scores {} points apart are more than a Swiss round can weigh",
            spread as f64 / 2.0
        )));
    }
    let mut edges: Vec<Edge> = Vec::new();
    let mut seats: Vec<(usize, usize)> = Vec::new();
    for x in 0..m {
        for y in x + 1..m {
            let (i, j) = (rank[x], rank[y]);
            if constraints.forbidden.contains(i, j) {
                continue;
            }
            let gap = halves[i] - halves[j];
            let order = if gap == 0 {
                (y - x) as i64 - (size[x] / 2) as i64
            } else {
                // A downfloater (x) meets the top of the group below.
                pos[y] as i64
            };
            let (a, b, sides) = seating(entrants, i, j, seed);
            let mut cost = sides + 2 * order.abs() + float_unit * gap * gap;
            if event.met.contains(i, j) {
                cost += rematch_unit;
            }
            edges.push((x, y, -cost));
            seats.push((a, b));
        }
    }
    let Ok(Some(mates)) = blossom::max_weight_perfect_matching(m, &edges) else {
        return Ok(None);
    };
    Ok(Some(
        edges
            .iter()
            .zip(&seats)
            .filter(|((x, y, _), _)| mates[*x] == *y)
            .map(|(_, &(a, b))| Board {
                a,
                b,
                prediction: forecast.predict(a, b),
                cost: 0.0,
            })
            .collect(),
    ))
}

/// Who takes side A, and how many players then repeat their last side. Side A goes to the
/// player due it (last on B, or the other last on A); with no preference, the seed decides.
fn seating(entrants: &[Entrant], i: usize, j: usize, seed: u64) -> (usize, usize, i64) {
    let repeats = |a: usize, b: usize| {
        i64::from(entrants[a].last_seat == Some(Seat::A))
            + i64::from(entrants[b].last_seat == Some(Seat::B))
    };
    let (ij, ji) = (repeats(i, j), repeats(j, i));
    let i_first = match ij.cmp(&ji) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => {
            let (x, y) = (u64::from(entrants[i].id), u64::from(entrants[j].id));
            mix(seed, x.min(y), x.max(y)) & 1 == 0
        }
    };
    if i_first { (i, j, ij) } else { (j, i, ji) }
}
