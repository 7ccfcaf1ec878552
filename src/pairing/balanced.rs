//! The balanced pairing: of all ways to pair the players present, the one whose games are
//! closest under the ladder's own forecast — one minimum-cost perfect matching.
//!
//! A board's price, in units of expected score (`Weights`):
//!   |E − ½|, E = P(A wins) + ½·P(draw), A at home or moving first,
//! + the rematch penalty `rematch · 2^(−nights / half_life)` for a pair who met `nights`
//!   club nights ago (0: earlier tonight),
//! + `side` for each player who would sit on the same side as in their latest game,
//! + `avoid` for a pair the organiser asked to avoid.
//!
//! A forbidden pair is no edge at all. Each board takes the seating that costs less.
//!
//! Prices are rounded to millionths and the matching is exact over them (blossom, see
//! `blossom.rs`). A seeded jitter below one millionth in total breaks ties, so that equal
//! pairings follow the seed and not the order of the list. Pools up to
//! `Weights::all_pairs_up_to` consider every pair; larger pools (an online queue) consider
//! each player's `neighbours` nearest by rating, doubled until a perfect matching exists —
//! exact over that graph, and the far pairs it leaves out are the lopsided games.

use super::blossom::{self, Edge};
use super::model::{
    Board, Constraints, Entrant, Forecast, PairError, Round, Weights, bye_order, check_distinct,
    mix, order_boards,
};
use crate::rating::Prediction;

/// Millionths: prices are compared as whole numbers.
const SCALE: f64 = 1e6;
/// Tie-break jitter per board, below `JITTER` (all boards' jitter stays under one unit).
const JITTER: u64 = 8;
/// The largest candidate graph a widening may build (bounded memory for any pool).
const MAX_EDGES: usize = 4_000_000;

/// One candidate board: its price in millionths and its seating.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Price {
    pub micros: i64,
    /// Entrant on side A, entrant on side B.
    pub a: usize,
    pub b: usize,
    pub prediction: Prediction,
}

/// Everything a price depends on.
pub struct Night<'a, F: Forecast + ?Sized> {
    pub entrants: &'a [Entrant],
    pub forecast: &'a F,
    pub constraints: &'a Constraints,
    pub weights: &'a Weights,
    pub seed: u64,
}

impl<F: Forecast + ?Sized> Night<'_, F> {
    /// The price of pairing `i` with `j`, or `None` for a forbidden pair.
    pub fn price(&self, i: usize, j: usize) -> Option<Price> {
        if i == j || self.constraints.forbidden.contains(i, j) {
            return None;
        }
        let w = self.weights;
        let seat_cost = |a: usize, b: usize| {
            let repeats = usize::from(self.entrants[a].last_seat == Some(super::model::Seat::A))
                + usize::from(self.entrants[b].last_seat == Some(super::model::Seat::B));
            w.side * repeats as f64
        };
        let p_ij = self.forecast.predict(i, j);
        let p_ji = if self.forecast.symmetric() {
            Prediction {
                win_a: p_ij.win_b,
                draw: p_ij.draw,
                win_b: p_ij.win_a,
            }
        } else {
            self.forecast.predict(j, i)
        };
        let total = |p: &Prediction, a, b| imbalance(p) + seat_cost(a, b);
        let (t_ij, t_ji) = (total(&p_ij, i, j), total(&p_ji, j, i));
        let (ids_lo, ids_hi) = ids(self.entrants, i, j);
        let i_first = if t_ij == t_ji {
            mix(self.seed, ids_lo, ids_hi) & 1 == 0
        } else {
            t_ij < t_ji
        };
        let (a, b, p, mut cost) = if i_first {
            (i, j, p_ij, t_ij)
        } else {
            (j, i, p_ji, t_ji)
        };
        if let Some(nights) = self.constraints.nights_since(i, j) {
            cost += w.rematch_after(nights);
        }
        if self.constraints.avoid.contains(i, j) {
            cost += w.avoid;
        }
        Some(Price {
            micros: (cost * SCALE).round() as i64,
            a,
            b,
            prediction: p,
        })
    }
}

fn ids(entrants: &[Entrant], i: usize, j: usize) -> (u64, u64) {
    let (x, y) = (u64::from(entrants[i].id), u64::from(entrants[j].id));
    (x.min(y), x.max(y))
}

/// How far a board is from an even game: |E − ½|, 0 for a non-finite forecast's NaN
/// never reaching here (forecasts are finite by contract; clamped all the same).
pub fn imbalance(p: &Prediction) -> f64 {
    let e = p.win_a + 0.5 * p.draw;
    if e.is_finite() {
        (e - 0.5).abs().min(0.5)
    } else {
        0.5
    }
}

/// The balanced round for the entrants present.
pub fn pair<F: Forecast + ?Sized>(night: &Night<'_, F>) -> Result<Round, PairError> {
    let entrants = night.entrants;
    check_distinct(entrants)?;
    night.weights.check()?;
    let n = entrants.len();
    if n.is_multiple_of(2) {
        let all: Vec<usize> = (0..n).collect();
        return match match_all(night, &all)? {
            Some(boards) => Ok(Round { boards, bye: None }),
            None => Err(leftovers(night, &all)),
        };
    }
    // The bye: fewest byes, then the lowest placed; the next in that order when the rest
    // cannot be paired (forbidden pairs).
    let order = bye_order(entrants, |x, y| entrants[y].place.cmp(&entrants[x].place));
    let tries = if n <= night.weights.all_pairs_up_to {
        n
    } else {
        3
    };
    for &bye in order.iter().take(tries) {
        let rest: Vec<usize> = (0..n).filter(|&i| i != bye).collect();
        if let Some(boards) = match_all(night, &rest)? {
            return Ok(Round {
                boards,
                bye: Some(bye),
            });
        }
    }
    let rest: Vec<usize> = (0..n).filter(|&i| i != order[0]).collect();
    Err(leftovers(night, &rest))
}

/// A minimum-cost perfect matching of `players`, or `None` if none exists.
fn match_all<F: Forecast + ?Sized>(
    night: &Night<'_, F>,
    players: &[usize],
) -> Result<Option<Vec<Board>>, PairError> {
    let m = players.len();
    if m == 0 {
        return Ok(Some(Vec::new()));
    }
    let sorted = by_strength(night.entrants, players);
    let mut k = night.weights.neighbours;
    loop {
        let all = m <= night.weights.all_pairs_up_to || k >= m - 1;
        if !all && m.saturating_mul(k) > MAX_EDGES {
            return Ok(None);
        }
        let pairs = if all {
            all_pairs(m)
        } else {
            nearest(night.entrants, &sorted, k)
        };
        if let Some(boards) = solve(night, &sorted, &pairs)? {
            return Ok(Some(boards));
        }
        if all {
            return Ok(None);
        }
        k = k.saturating_mul(2);
    }
}

/// `players` by strength (then id), so that neighbours in the list are near in rating.
fn by_strength(entrants: &[Entrant], players: &[usize]) -> Vec<usize> {
    let mut sorted = players.to_vec();
    sorted.sort_by(|&x, &y| {
        entrants[x]
            .strength
            .total_cmp(&entrants[y].strength)
            .then(entrants[x].id.cmp(&entrants[y].id))
    });
    sorted
}

fn all_pairs(m: usize) -> Vec<(usize, usize)> {
    (0..m)
        .flat_map(|i| (i + 1..m).map(move |j| (i, j)))
        .collect()
}

/// Each position's `k` nearest positions by strength (a window growing outward), as
/// unordered position pairs without repeats.
fn nearest(entrants: &[Entrant], sorted: &[usize], k: usize) -> Vec<(usize, usize)> {
    let s = |p: usize| entrants[sorted[p]].strength;
    let m = sorted.len();
    let mut pairs = Vec::with_capacity(m * k);
    for p in 0..m {
        let (mut lo, mut hi) = (p, p + 1);
        for _ in 0..k.min(m - 1) {
            let left = (lo > 0).then(|| (s(p) - s(lo - 1)).abs());
            let right = (hi < m).then(|| (s(hi) - s(p)).abs());
            let take_left = match (left, right) {
                (Some(l), Some(r)) => l <= r,
                (l, _) => l.is_some(),
            };
            if take_left {
                lo -= 1;
                pairs.push((lo, p));
            } else {
                pairs.push((p, hi));
                hi += 1;
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// The matching over candidate position pairs; boards ordered best placed first.
fn solve<F: Forecast + ?Sized>(
    night: &Night<'_, F>,
    sorted: &[usize],
    pairs: &[(usize, usize)],
) -> Result<Option<Vec<Board>>, PairError> {
    let m = sorted.len();
    // Above every jitter a whole matching can add, so the jitter only orders equal prices.
    let unit = (JITTER * (m as u64 / 2) + 1) as i64;
    let mut edges: Vec<Edge> = Vec::with_capacity(pairs.len());
    let mut prices = Vec::with_capacity(pairs.len());
    for &(x, y) in pairs {
        let (i, j) = (sorted[x], sorted[y]);
        let Some(price) = night.price(i, j) else {
            continue;
        };
        let (lo, hi) = ids(night.entrants, i, j);
        let jitter = (mix(night.seed, lo, hi) % JITTER) as i64;
        let weight = price.micros.saturating_mul(unit).saturating_add(jitter);
        if weight > blossom::MAX_WEIGHT {
            return Err(PairError::Invalid(format!(
                "{} players are more than one balanced pairing can weigh",
                m
            )));
        }
        edges.push((x, y, -weight));
        prices.push(price);
    }
    let mates = blossom::max_weight_perfect_matching(m, &edges)
        .map_err(|e| PairError::Invalid(format!("the matching refused its graph: {e:?}")))?;
    let Some(mates) = mates else {
        return Ok(None);
    };
    let mut boards: Vec<Board> = edges
        .iter()
        .zip(&prices)
        .filter(|((x, y, _), _)| mates[*x] == *y)
        .map(|(_, p)| Board {
            a: p.a,
            b: p.b,
            prediction: p.prediction,
            cost: p.micros as f64 / SCALE,
        })
        .collect();
    order_boards(night.entrants, &mut boards);
    Ok(Some(boards))
}

/// The players a largest possible pairing of `players` leaves out, for the message.
fn leftovers<F: Forecast + ?Sized>(night: &Night<'_, F>, players: &[usize]) -> PairError {
    let m = players.len();
    let players = by_strength(night.entrants, players);
    let edges: Vec<Edge> = if m <= night.weights.all_pairs_up_to {
        all_pairs(m)
    } else {
        nearest(night.entrants, &players, night.weights.neighbours)
    }
    .into_iter()
    .filter(|&(x, y)| !night.constraints.forbidden.contains(players[x], players[y]))
    .map(|(x, y)| (x, y, 1))
    .collect();
    let names = match blossom::max_weight_matching(m, &edges, true) {
        Ok(mates) => mates
            .iter()
            .enumerate()
            .filter(|(_, mate)| mate.is_none())
            .map(|(x, _)| night.entrants[players[x]].name.clone())
            .collect(),
        Err(_) => Vec::new(),
    };
    PairError::NoPairing(names)
}
