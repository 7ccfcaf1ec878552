//! The rating systems, as pure math: state in, state out. No I/O, no SQL, no UI.
//!
//! Every 1v1 update takes the result from side A's point of view ([`Outcome`]) and returns
//! both sides' new ratings. Each system also predicts a pairing before it is played.

pub mod elo;
pub mod glicko;
pub mod goals;
pub mod glicko2;
pub mod memoir44;
pub mod normal;
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
    pub win_a: f64,
    pub draw: f64,
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
