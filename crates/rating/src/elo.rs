//! Plain Elo: the baseline every player knows, and the usual source of a migration.
//!
//! ```
//! use rungs_rating::{Outcome, elo};
//!
//! // 1900 v 1500: A expects 1/(1 + 10^(−400/400)) = 10/11 of a point.
//! assert!((elo::expected(1900.0, 1500.0) - 10.0 / 11.0).abs() < 1e-15);
//! // A draw gives A 32·(0.5 − 10/11) = −13.09 and B as much.
//! let config = elo::Config::default();
//! let (a, b) = elo::rate(
//!     &elo::Rating { rating: 1900.0 },
//!     &elo::Rating { rating: 1500.0 },
//!     Outcome::Draw,
//!     &config,
//! );
//! assert!((a.rating - (1900.0 - 32.0 * (10.0 / 11.0 - 0.5))).abs() < 1e-9);
//! assert!((b.rating - (1500.0 + 32.0 * (10.0 / 11.0 - 0.5))).abs() < 1e-9);
//! ```

use super::trace::Trace;
use super::{Outcome, Prediction};
use serde::{Deserialize, Serialize};

const LN10_OVER_400: f64 = std::f64::consts::LN_10 / 400.0;

/// System constants.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A new player's rating (1500).
    pub initial_rating: f64,
    /// The K-factor: the most a single game can move a rating (32).
    pub k: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            initial_rating: 1500.0,
            k: 32.0,
        }
    }
}

/// An Elo rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating on Elo's scale (400 points: ten to one odds).
    pub rating: f64,
}

impl Rating {
    /// A new player's rating: the configured initial rating.
    pub fn new(config: &Config) -> Rating {
        Rating {
            rating: config.initial_rating,
        }
    }
}

/// A's expected score against B, 1/(1 + 10^((r_B − r_A)/400)).
pub fn expected(a: f64, b: f64) -> f64 {
    1.0 / (1.0 + ((b - a) * LN10_OVER_400).exp())
}

/// Zero-sum update: A gains K·(s − E), B loses the same. Returns (A', B').
pub fn rate(a: &Rating, b: &Rating, outcome: Outcome, config: &Config) -> (Rating, Rating) {
    rate_with_advantage(a, b, outcome, 0.0, config)
}

/// [`rate`] with side A's rating raised by `advantage` points in the expected score
/// (the side advantage of the design notes): E = 1/(1 + 10^((r_B − r_A − h)/400)). The change
/// K·(s − E) still moves the ratings themselves; a negative `advantage` favours B.
pub fn rate_with_advantage(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
) -> (Rating, Rating) {
    rate_explained(a, b, outcome, advantage, config, &mut ())
}

/// [`rate_with_advantage`], handing A's figures to `trace` on the way: E, s, K and the
/// change K·(s − E) (the update itself: the plain function is this one with no trace).
pub fn rate_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
    trace: &mut T,
) -> (Rating, Rating) {
    let e = expected(a.rating + advantage, b.rating);
    let s = outcome.score();
    trace.step("r", "rating going in", "r", a.rating);
    trace.step("r_opp", "opponent's rating", "r_opp", b.rating);
    if advantage != 0.0 {
        trace.step("h", "side advantage", "h", advantage);
    }
    trace.step(
        "E",
        "expected score",
        "E = 1/(1 + 10^((r_opp − r − h)/400))",
        e,
    );
    trace.step("s", "score", "win 1, draw ½, loss 0", s);
    trace.step("K", "K-factor", "K", config.k);
    let delta = config.k * (s - e);
    trace.step("Δ", "change", "Δ = K·(s − E)", delta);
    trace.step("r'", "new rating", "r' = r + Δ", a.rating + delta);
    (
        Rating {
            rating: a.rating + delta,
        },
        Rating {
            rating: b.rating - delta,
        },
    )
}

/// The probability that A beats B (Elo has no draw model: E is the expected score).
pub fn predict(a: &Rating, b: &Rating) -> Prediction {
    predict_with_advantage(a, b, 0.0)
}

/// [`predict`] with side A's rating raised by `advantage` points.
pub fn predict_with_advantage(a: &Rating, b: &Rating, advantage: f64) -> Prediction {
    Prediction::decisive(expected(a.rating + advantage, b.rating))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_players_move_half_k() {
        let cfg = Config::default();
        let p = Rating::new(&cfg);
        let (a, b) = rate(&p, &p, Outcome::Win, &cfg);
        assert_eq!((a.rating, b.rating), (1516.0, 1484.0));
        let (a, b) = rate(&p, &p, Outcome::Draw, &cfg);
        assert_eq!((a.rating, b.rating), (1500.0, 1500.0));
    }

    /// Side advantage by hand, A at home with h = 100, K = 32:
    ///   A 1500 v B 1500: E = 1/(1 + 10^((1500 − 1500 − 100)/400)) = 1/(1 + 10^−0.25)
    ///     = 1/(1 + 0.5623413) = 0.6400650; A wins: +32·(1 − 0.6400650) = +11.51792, B −11.51792;
    ///     a draw: 32·(½ − 0.6400650) = −4.48208 for A.
    ///   A 1500 v B 1600: E = 1/(1 + 10^((1600 − 1500 − 100)/400)) = ½: an even match, ±16.
    #[test]
    fn side_advantage_by_hand() {
        let cfg = Config::default();
        let (a, b) = (Rating { rating: 1500.0 }, Rating { rating: 1500.0 });
        assert!((expected(1500.0 + 100.0, 1500.0) - 0.640_065_0).abs() < 1e-7);
        let (a2, b2) = rate_with_advantage(&a, &b, Outcome::Win, 100.0, &cfg);
        assert!((a2.rating - 1_511.517_92).abs() < 1e-5, "{a2:?}");
        assert!((b2.rating - 1_488.482_08).abs() < 1e-5, "{b2:?}");
        let (a3, _) = rate_with_advantage(&a, &b, Outcome::Draw, 100.0, &cfg);
        assert!((a3.rating - (1500.0 - 4.482_08)).abs() < 1e-5, "{a3:?}");
        assert!((predict_with_advantage(&a, &b, 100.0).win_a - 0.640_065_0).abs() < 1e-7);
        let strong_b = Rating { rating: 1600.0 };
        let (a4, b4) = rate_with_advantage(&a, &strong_b, Outcome::Win, 100.0, &cfg);
        assert_eq!((a4.rating, b4.rating), (1516.0, 1584.0));
        assert_eq!(predict_with_advantage(&a, &strong_b, 100.0).win_a, 0.5);
        // No advantage is the plain update; a negative one favours B.
        assert_eq!(
            rate_with_advantage(&a, &b, Outcome::Win, 0.0, &cfg),
            rate(&a, &b, Outcome::Win, &cfg)
        );
        let (a5, _) = rate_with_advantage(&a, &b, Outcome::Loss, -100.0, &cfg);
        assert!((a5.rating - (1500.0 - 32.0 * (1.0 - 0.640_065_0))).abs() < 1e-5);
    }

    /// 400 points apart the stronger is ten times as likely to win: E = 10/11.
    #[test]
    fn four_hundred_points_is_ten_to_one() {
        assert!((expected(1900.0, 1500.0) - 10.0 / 11.0).abs() < 1e-15);
        let cfg = Config {
            k: 20.0,
            ..Config::default()
        };
        let (a, _) = rate(
            &Rating { rating: 1900.0 },
            &Rating { rating: 1500.0 },
            Outcome::Loss,
            &cfg,
        );
        assert!((a.rating - (1900.0 - 20.0 * 10.0 / 11.0)).abs() < 1e-12);
    }
}
