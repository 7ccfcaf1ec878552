//! What every pairing format reads and returns: the players present, the forecast, the
//! constraints of the night, and the boards.

use rungs_ladder::event::PlayerId;
use rungs_rating::Prediction;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The side of a board: A is at home or moves first (the side advantage's side), B is the
/// other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    A,
    B,
}

/// One player present.
#[derive(Debug, Clone, PartialEq)]
pub struct Entrant {
    pub id: PlayerId,
    pub name: String,
    /// Position in the standings, 1 at the top: the bye goes to the lowest placed.
    pub place: usize,
    /// The rating on the system's own scale, only to find each player's nearest opponents
    /// in a large pool; what a pairing costs comes from the forecast.
    pub strength: f64,
    /// Byes had so far (the ladder's, or the event's for Swiss).
    pub byes: u32,
    /// The seat of the player's latest game that had one.
    pub last_seat: Option<Seat>,
}

/// Chances of a board under the ladder's system.
pub trait Forecast {
    /// Entrant `a` on side A (at home or moving first) against entrant `b`; indices into
    /// the entrants as given to the pairing. Finite probabilities summing to 1.
    fn predict(&self, a: usize, b: usize) -> Prediction;

    /// Whether swapping the sides only swaps the chances (no side advantage), so that one
    /// forecast serves both seatings.
    fn symmetric(&self) -> bool {
        false
    }
}

/// A set of unordered pairs of entrant indices.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Pairs(BTreeSet<(usize, usize)>);

impl Pairs {
    pub fn new() -> Pairs {
        Pairs::default()
    }

    pub fn insert(&mut self, a: usize, b: usize) {
        self.0.insert(key(a, b));
    }

    pub fn contains(&self, a: usize, b: usize) -> bool {
        self.0.contains(&key(a, b))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.0.iter().copied()
    }
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// What the night must and should respect, by entrant index.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    /// Never paired (siblings, team mates).
    pub forbidden: Pairs,
    /// Paired only when it makes the night better by more than [`Weights::avoid`].
    pub avoid: Pairs,
    /// For pairs who have met: the club nights since (0: earlier tonight, 1: the last night).
    pub met: BTreeMap<(usize, usize), u32>,
}

impl Constraints {
    pub fn nights_since(&self, a: usize, b: usize) -> Option<u32> {
        self.met.get(&key(a, b)).copied()
    }

    /// Records a meeting `nights` ago, keeping the most recent.
    pub fn meet(&mut self, a: usize, b: usize, nights: u32) {
        let e = self.met.entry(key(a, b)).or_insert(nights);
        *e = (*e).min(nights);
    }
}

/// The prices of the balanced pairing, in units of expected score: a board whose favourite
/// expects 0.75 costs 0.25 before the penalties below.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Weights {
    /// A rematch from earlier tonight; halved every `half_life` nights since.
    pub rematch: f64,
    pub half_life: f64,
    /// Each player who sits on the same side as in their latest game.
    pub side: f64,
    /// A pair the organiser asked to avoid.
    pub avoid: f64,
    /// Opponents considered per player in a large pool, by nearest rating.
    pub neighbours: usize,
    /// Pools up to this size consider every pair.
    pub all_pairs_up_to: usize,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights {
            // As bad as a game one side wins for sure: a rematch from tonight is taken only
            // when every other pairing is worse.
            rematch: 0.5,
            half_life: 1.0,
            // A tie-breaker between equally close games, not a reason for a lopsided one.
            side: 0.02,
            avoid: 0.25,
            neighbours: 12,
            all_pairs_up_to: 300,
        }
    }
}

impl Weights {
    /// The penalty for a rematch `nights` nights after the last meeting.
    pub fn rematch_after(&self, nights: u32) -> f64 {
        self.rematch * (-(nights as f64) / self.half_life).exp2()
    }

    pub(crate) fn check(&self) -> Result<(), PairError> {
        let fine = |x: f64| x.is_finite() && (0.0..=10.0).contains(&x);
        let half_life =
            self.half_life.is_finite() && self.half_life > 0.0 && self.half_life <= 1000.0;
        if !(fine(self.rematch) && fine(self.side) && fine(self.avoid) && half_life)
            || self.neighbours == 0
        {
            return Err(PairError::Weights);
        }
        Ok(())
    }
}

/// One board: entrant indices and the forecast with A at home or moving first.
#[derive(Debug, Clone, PartialEq)]
pub struct Board {
    pub a: usize,
    pub b: usize,
    pub prediction: Prediction,
    /// What the board costs (balanced: [`Weights`]' units; other formats: 0).
    pub cost: f64,
}

/// A round: boards in order (board 1 first) and at most one bye.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Round {
    pub boards: Vec<Board>,
    pub bye: Option<usize>,
}

impl Round {
    pub fn cost(&self) -> f64 {
        self.boards.iter().map(|b| b.cost).sum()
    }
}

/// Why no pairing was made.
#[derive(Debug, Clone, PartialEq)]
pub enum PairError {
    /// The same player twice in the list.
    Twice(String),
    /// No pairing keeps the forbidden pairs apart; the players left over are named.
    NoPairing(Vec<String>),
    /// A weight outside its range.
    Weights,
    /// More players or rounds than the format can weigh exactly.
    Invalid(String),
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairError::Twice(name) => write!(f, "{name} is in the list twice"),
            PairError::NoPairing(names) => write!(
                f,
                "no pairing keeps every forbidden pair apart; it fails for {}",
                names.join(", ")
            ),
            PairError::Weights => f.write_str(
                "pairing weights must be finite, from 0 to 10, with a half-life above 0 \
                 and at least one neighbour",
            ),
            PairError::Invalid(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for PairError {}

/// Rejects a list naming a player twice.
pub(crate) fn check_distinct(entrants: &[Entrant]) -> Result<(), PairError> {
    let mut seen = BTreeSet::new();
    for e in entrants {
        if !seen.insert(e.id) {
            return Err(PairError::Twice(e.name.clone()));
        }
    }
    Ok(())
}

/// The order in which players take the bye: fewest byes, then `lower` first (lowest
/// placed, or lowest score then placed for Swiss), then the higher id.
pub(crate) fn bye_order(
    entrants: &[Entrant],
    mut lower: impl FnMut(usize, usize) -> std::cmp::Ordering,
) -> Vec<usize> {
    let mut order: Vec<usize> = (0..entrants.len()).collect();
    order.sort_by(|&x, &y| {
        entrants[x]
            .byes
            .cmp(&entrants[y].byes)
            .then_with(|| lower(x, y))
            .then(entrants[y].id.cmp(&entrants[x].id))
    });
    order
}

/// A seeded 64-bit mix (splitmix64): tie-breaks that follow the seed, not the list order.
pub(crate) fn mix(seed: u64, a: u64, b: u64) -> u64 {
    let mut z =
        seed ^ a.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ b.wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Board 1 holds the best placed player, and so on down.
pub(crate) fn order_boards(entrants: &[Entrant], boards: &mut [Board]) {
    let key = |b: &Board| {
        let (pa, pb) = (entrants[b.a].place, entrants[b.b].place);
        (pa.min(pb), pa.max(pb), entrants[b.a].id)
    };
    boards.sort_by_key(key);
}
