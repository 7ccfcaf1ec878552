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
//! each player's `neighbours` nearest by rating, doubled until a perfect matching exists, then
//! (up to `PRICED_UP_TO` players) widened by pricing: a pair outside the graph whose weight breaks the matching's vertex
//! duals might improve the matching, so every such pair is added and the matching made again
//! (at most `PRICING_ROUNDS` times) until none is left — the matching is then optimal over
//! every pair, far ones included (the adversarial pool in tests/pairing.rs needs two of its
//! extremes to meet). The search for such pairs looks outward by rating from each player and
//! stops where the distance from an even game alone keeps the duals.

use super::blossom::{self, Edge};
use super::model::{
    Board, Constraints, Entrant, Forecast, PairError, Round, Weights, bye_order, check_distinct,
    mix, order_boards,
};
use rungs_rating::Prediction;

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
        let mut pairs = if all {
            all_pairs(m)
        } else {
            nearest(night.entrants, &sorted, k)
        };
        // A sparse graph is widened where the matching needs it: every pair outside it
        // whose weight beats the matching's vertex duals (it might improve the matching) is
        // added and the matching made again, until none does — then the matching is the
        // optimum over every pair — or the rounds or the edge budget run out.
        let mut rounds = if all || m > PRICED_UP_TO {
            0
        } else {
            PRICING_ROUNDS
        };
        while let Some((boards, duals)) = solve(night, &sorted, &pairs)? {
            let extra = match rounds {
                0 => Vec::new(),
                _ => priced_out(night, &sorted, &pairs, &duals),
            };
            if extra.is_empty() || pairs.len() + extra.len() > MAX_EDGES {
                return Ok(Some(boards));
            }
            rounds -= 1;
            pairs.extend(extra);
            pairs.sort_unstable();
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

/// A matching's boards and its vertex duals.
type BoardsAndDuals = (Vec<Board>, Vec<i64>);

/// How many times a sparse graph is widened by pricing before its matching is taken.
const PRICING_ROUNDS: usize = 6;
/// Pools up to this size are widened by pricing. The search for pairs to add looks at up
/// to every pair once a round (an expensive board gives every player room), which a club,
/// or a pool of 1,000, affords; 10,000 (38 s) does not, and keeps the nearest-neighbour
/// graph alone.
const PRICED_UP_TO: usize = 2_000;

/// Above every jitter a whole matching of `m` can add, so the jitter only orders equal
/// prices.
fn unit(m: usize) -> i64 {
    (JITTER * (m as u64 / 2) + 1) as i64
}

/// The matching's weight of pairing entrants `i` and `j` (the negated price in millionths
/// times [`unit`], with the seeded jitter), or `None` for a forbidden pair.
fn weight<F: Forecast + ?Sized>(
    night: &Night<'_, F>,
    i: usize,
    j: usize,
    unit: i64,
) -> Option<(i64, Price)> {
    let price = night.price(i, j)?;
    let (lo, hi) = ids(night.entrants, i, j);
    let jitter = (mix(night.seed, lo, hi) % JITTER) as i64;
    Some((
        price.micros.saturating_mul(unit).saturating_add(jitter),
        price,
    ))
}

/// The pairs outside `pairs` that break the duals `u` (`u[x] + u[y] < 4 · weight`): those
/// that might improve the matching. Each position looks outward by strength and stops, on
/// each side, at the first opponent whose distance from an even game alone already keeps
/// the duals (forecasts grow more lopsided with the rating gap).
fn priced_out<F: Forecast + ?Sized>(
    night: &Night<'_, F>,
    sorted: &[usize],
    pairs: &[(usize, usize)],
    u: &[i64],
) -> Vec<(usize, usize)> {
    let m = sorted.len();
    let unit = unit(m);
    let lowest = u.iter().copied().min().unwrap_or(0);
    let mut out = Vec::new();
    for x in 0..m {
        // A pair with x breaks the duals only if its price is below this many millionths.
        let room = (-(u[x] + lowest)) as f64 / (4.0 * unit as f64);
        for dir in [-1isize, 1] {
            let mut y = x as isize + dir;
            while y >= 0 && (y as usize) < m {
                let yy = y as usize;
                y += dir;
                let (i, j) = (sorted[x], sorted[yy]);
                let distance = imbalance(&night.forecast.predict(i, j))
                    .min(imbalance(&night.forecast.predict(j, i)));
                if distance * SCALE - 1.0 >= room {
                    break;
                }
                let (a, b) = (x.min(yy), x.max(yy));
                if a != x || pairs.binary_search(&(a, b)).is_ok() {
                    // Each pair once (from its lower position), and only if new.
                    continue;
                }
                if let Some((w, _)) = weight(night, i, j, unit)
                    && u[a] + u[b] < -4 * w
                {
                    out.push((a, b));
                }
            }
        }
    }
    out
}

/// The matching over candidate position pairs (sorted, without repeats); boards ordered
/// best placed first, and the matching's vertex duals.
fn solve<F: Forecast + ?Sized>(
    night: &Night<'_, F>,
    sorted: &[usize],
    pairs: &[(usize, usize)],
) -> Result<Option<BoardsAndDuals>, PairError> {
    let m = sorted.len();
    let unit = unit(m);
    let mut edges: Vec<Edge> = Vec::with_capacity(pairs.len());
    let mut prices = Vec::with_capacity(pairs.len());
    for &(x, y) in pairs {
        let (i, j) = (sorted[x], sorted[y]);
        let Some((weight, price)) = weight(night, i, j, unit) else {
            continue;
        };
        if weight > blossom::MAX_WEIGHT {
            return Err(PairError::Invalid(format!(
                "{} players are more than one balanced pairing can weigh",
                m
            )));
        }
        edges.push((x, y, -weight));
        prices.push(price);
    }
    let found = blossom::max_weight_perfect_matching_with_duals(m, &edges)
        .map_err(|e| PairError::Invalid(format!("the matching refused its graph: {e:?}")))?;
    let Some((mates, duals)) = found else {
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
    Ok(Some((boards, duals)))
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
