//! The rating systems, as pure math: state in, state out. No I/O, no SQL, no UI.
//!
//! Every 1v1 update takes the result from side A's point of view ([`Outcome`]) and returns
//! both sides' new ratings. Each system also predicts a pairing before it is played.
//!
//! ```
//! use rungs_rating::{Outcome, elo};
//!
//! // Two new players at 1500 with K = 32: each expects half a point, so a win moves 16.
//! let config = elo::Config::default();
//! let (a, b) = (elo::Rating::new(&config), elo::Rating::new(&config));
//! let (a, b) = elo::rate(&a, &b, Outcome::Win, &config);
//! assert_eq!((a.rating, b.rating), (1516.0, 1484.0));
//! ```

#![deny(missing_docs)]

pub mod elo;
pub mod glicko;
pub mod glicko2;
pub mod goals;
pub mod margin;
pub mod memoir44;
pub mod normal;
pub mod trace;
pub mod trueskill;

use serde::{Deserialize, Serialize};

/// A decided or drawn result, from side A's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// Side A won (score 1).
    Win,
    /// A draw (score 0.5).
    Draw,
    /// Side A lost (score 0).
    Loss,
}

impl Outcome {
    /// The score of side A: 1, 0.5 or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same result seen from side B.
    pub fn flipped(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// The outcome whose score is exactly `s` (1, 0.5 or 0), if any.
    pub fn from_score(s: f64) -> Option<Outcome> {
        if s == 1.0 {
            Some(Outcome::Win)
        } else if s == 0.5 {
            Some(Outcome::Draw)
        } else if s == 0.0 {
            Some(Outcome::Loss)
        } else {
            None
        }
    }
}

/// What a system predicts for a pairing, from side A's view. The three sum to 1.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Prediction {
    /// The chance that side A wins.
    pub win_a: f64,
    /// The chance of a draw (0 for a system that models none).
    pub draw: f64,
    /// The chance that side B wins.
    pub win_b: f64,
}

impl Prediction {
    /// A prediction for a system without a draw model.
    pub fn decisive(win_a: f64) -> Prediction {
        Prediction {
            win_a,
            draw: 0.0,
            win_b: 1.0 - win_a,
        }
    }

    /// The expected score of side A (win = 1, draw = 0.5).
    pub fn expected_score(&self) -> f64 {
        self.win_a + 0.5 * self.draw
    }
}

/// Draws for a system without a draw model: an ordered logit on the system's own
/// expected score. With x = ln(E/(1 − E)) (the rating gap and side advantage in logit units),
/// P(A wins) = σ(x − θ), P(B wins) = σ(−x − θ) and the draw takes the rest, so θ ≥ 0 sets
/// how wide the band of draws is (θ = 0: none). The system's expected score itself is left
/// as it is; this is the three-outcome forecast beside it.
pub fn ordered_logit(expected: f64, theta: f64) -> Prediction {
    let e = if expected.is_finite() {
        expected.clamp(1e-12, 1.0 - 1e-12)
    } else {
        0.5
    };
    let x = (e / (1.0 - e)).ln();
    let theta = if theta.is_finite() {
        theta.max(0.0)
    } else {
        0.0
    };
    let sigmoid = |z: f64| 1.0 / (1.0 + (-z).exp());
    let (win, loss) = (sigmoid(x - theta), sigmoid(-x - theta));
    Prediction {
        win_a: win,
        draw: (1.0 - win - loss).max(0.0),
        win_b: loss,
    }
}

/// Draws for a system without a draw model that keep the system's own expected score:
/// Davidson's tie model, P(A) : P(draw) : P(B) = π_A : ν·√(π_A·π_B) : π_B, with the strength
/// ratio solved so that P(A wins) + ½·P(draw) is exactly `expected` (the figure the system
/// rates with: Elo's 10/11 for 1900 against 1500 stays 10/11) and ν = 2p/(1 − p), so that
/// two equal sides draw at rate `even_draw_rate` p. With ρ = √(π_A/π_B) the expectation is
/// (ρ² + ½νρ)/(ρ² + νρ + 1) = E, a quadratic in ρ: (1 − E)ρ² − ν(E − ½)ρ − E = 0, whose
/// positive root gives P(draw) = νρ/(ρ² + νρ + 1). Solved on the favourite's side (E ≥ ½),
/// where the root has no cancellation, and mirrored. p = 0 leaves no draws and P(A) = E.
pub fn keep_expected(expected: f64, even_draw_rate: f64) -> Prediction {
    let e = if expected.is_finite() {
        expected.clamp(0.0, 1.0)
    } else {
        0.5
    };
    let p = if even_draw_rate.is_finite() {
        even_draw_rate.clamp(0.0, 0.999)
    } else {
        0.0
    };
    let nu = 2.0 * p / (1.0 - p);
    let fav = e.max(1.0 - e);
    let draw = if fav >= 1.0 || nu == 0.0 {
        0.0
    } else {
        let half = fav - 0.5;
        let rho = (nu * half + (nu * nu * half * half + 4.0 * fav * (1.0 - fav)).sqrt())
            / (2.0 * (1.0 - fav));
        let d = nu / (rho + nu + 1.0 / rho);
        // Never more than the expectation leaves room for (P(win), P(loss) ≥ 0).
        if d.is_finite() {
            d.clamp(0.0, 2.0 * e.min(1.0 - e))
        } else {
            0.0
        }
    };
    let win = e - 0.5 * draw;
    Prediction {
        win_a: win,
        draw,
        win_b: (1.0 - win - draw).max(0.0),
    }
}

/// The ordered logit's θ at which two equal sides draw at rate `p` (0 ≤ p < 1): at x = 0
/// the draw takes 1 − 2σ(−θ) = p, so σ(−θ) = (1 − p)/2 and θ = ln((1 + p)/(1 − p)).
/// A rate outside [0, 1) (or not finite) is held at its nearest edge, 0.999 at most.
pub fn draw_threshold_for_rate(p: f64) -> f64 {
    let p = if p.is_finite() {
        p.clamp(0.0, 0.999)
    } else {
        0.0
    };
    ((1.0 + p) / (1.0 - p)).ln()
}

/// The ordered logit's threshold θ learnt online: after each played match, one gradient step
/// on −ln P(what happened) with respect to θ, from θ = 0.5 (about 24 % draws between equals).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DrawThreshold {
    /// θ, the half-width of the draw band on the logit scale.
    pub theta: f64,
}

impl Default for DrawThreshold {
    fn default() -> Self {
        DrawThreshold { theta: 0.5 }
    }
}

/// The step of [`DrawThreshold::learn`]: small enough that θ settles (a few thousand matches
/// move it about 0.1 at most), large enough that a log's first few hundred set it.
const DRAW_STEP: f64 = 0.01;

impl DrawThreshold {
    /// The forecast for expected score `expected` at the current θ.
    pub fn predict(&self, expected: f64) -> Prediction {
        ordered_logit(expected, self.theta)
    }

    /// One step toward the θ that makes `outcome` likelier. With a = σ(x − θ), b = σ(−x − θ):
    /// ∂ln P(win)/∂θ = −(1 − a), ∂ln P(loss)/∂θ = −(1 − b), ∂ln P(draw)/∂θ = (a(1 − a) +
    /// b(1 − b))/P(draw).
    pub fn learn(&mut self, expected: f64, outcome: Outcome) {
        self.learn_from(&self.predict(expected), outcome);
    }

    /// [`Self::learn`] from `p`, the forecast [`Self::predict`] gave for this match at the
    /// current θ (a scorer has it already: the same step, to the bit, without working it out
    /// again).
    pub fn learn_from(&mut self, p: &Prediction, outcome: Outcome) {
        let (a, b) = (p.win_a, p.win_b);
        let grad = match outcome {
            Outcome::Win => -(1.0 - a),
            Outcome::Loss => -(1.0 - b),
            Outcome::Draw => (a * (1.0 - a) + b * (1.0 - b)) / p.draw.max(1e-12),
        };
        let next = self.theta + DRAW_STEP * grad.clamp(-10.0, 10.0);
        if next.is_finite() {
            self.theta = next.clamp(0.0, 10.0);
        }
    }
}
