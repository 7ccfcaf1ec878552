//! Glicko-1, as the Skyweaver white paper uses it for matchmaking rating: Glickman's equations
//! with the rating deviation floored at RD_min, and RD growth between rating periods.
//!
//! ```
//! use rungs_rating::glicko;
//!
//! // g(RD) = 1/√(1 + 3q²RD²/π²), q = ln 10/400: Glickman's g(30) = 0.9955.
//! assert!((glicko::g(30.0) - 0.9955).abs() < 1e-4);
//! // A 1500 ± 200 player's expected score against 1400 ± 30 is 0.639.
//! let opponent = glicko::Rating { rating: 1400.0, deviation: 30.0 };
//! assert!((glicko::expected(1500.0, &opponent) - 0.639).abs() < 1e-3);
//! ```

use super::trace::Trace;
use super::{Outcome, Prediction};
use serde::{Deserialize, Serialize};

/// q = ln(10)/400: a 400-point gap means ten-to-one odds.
pub const Q: f64 = std::f64::consts::LN_10 / 400.0;
const THREE_Q2_OVER_PI2: f64 = 3.0 * Q * Q / (std::f64::consts::PI * std::f64::consts::PI);

/// System constants. The defaults are the Skyweaver white paper's, with c = 34.6 from the
/// design notes (docs/design-notes.md), as the paper gives none.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A new player's rating (1500).
    pub initial_rating: f64,
    /// A new player's RD, and the ceiling RD grows back to when idle (350).
    pub initial_deviation: f64,
    /// The floor under RD after a match (30).
    pub min_deviation: f64,
    /// RD growth per idle rating period, c (34.6: from 50 back to 350 in about 100 periods).
    pub c: f64,
    /// How far a newcomer starts at the rating of the first rated player it meets: at
    /// initial + `entry`·(that rating − initial) + `entry_offset` (0 and 0: at the initial
    /// rating, as before the parameters). A club's newcomers are seldom average: on the
    /// international results before 2000 a new side was about half its first opponent's lead
    /// and 200 points below.
    pub entry: f64,
    /// Rating points added to a newcomer's first rating (see `entry`).
    pub entry_offset: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            initial_rating: 1500.0,
            initial_deviation: 350.0,
            min_deviation: 30.0,
            c: 34.6,
            entry: 0.0,
            entry_offset: 0.0,
        }
    }
}

/// A rating r and its deviation RD.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating r (1500 for a new player).
    pub rating: f64,
    /// The rating deviation RD: how uncertain r is (350 for a new player).
    pub deviation: f64,
}

impl Rating {
    /// A new player.
    pub fn new(config: &Config) -> Rating {
        Rating {
            rating: config.initial_rating,
            deviation: config.initial_deviation,
        }
    }
}

/// Whether `r` is a newcomer's: the initial rating and RD exactly (a player a hard reset put
/// back there counts as one too).
fn is_new(r: &Rating, config: &Config) -> bool {
    r.rating == config.initial_rating && r.deviation >= config.initial_deviation
}

/// `a` as it enters a match against `b`: a newcomer against a rated player starts where
/// [`Config::entry`] says; anyone else as they are. Prediction and update both look through
/// here, so a first match is predicted from where the newcomer starts.
pub fn entered(a: &Rating, b: &Rating, config: &Config) -> Rating {
    if (config.entry == 0.0 && config.entry_offset == 0.0)
        || !is_new(a, config)
        || is_new(b, config)
    {
        return *a;
    }
    let rating = config.initial_rating
        + config.entry * (b.rating - config.initial_rating)
        + config.entry_offset;
    Rating {
        rating: if rating.is_finite() { rating } else { a.rating },
        ..*a
    }
}

/// g(RD) = 1/√(1 + 3q²RD²/π²): how much an opponent's uncertainty damps the update.
pub fn g(deviation: f64) -> f64 {
    1.0 / (1.0 + THREE_Q2_OVER_PI2 * deviation * deviation).sqrt()
}

/// E(s | r, r_opp, RD_opp): the expected score against `opponent`, as the update uses it.
pub fn expected(rating: f64, opponent: &Rating) -> f64 {
    expected_with_g(rating, opponent.rating, g(opponent.deviation))
}

fn expected_with_g(rating: f64, opponent_rating: f64, g_opp: f64) -> f64 {
    // 10^(−g·Δ/400) = e^(−q·g·Δ)
    1.0 / (1.0 + (-Q * g_opp * (rating - opponent_rating)).exp())
}

/// Eq. 1 of the Skyweaver white paper: RD after `periods` idle rating periods (any t ≥ 0,
/// fractions too).
pub fn grow_deviation(player: &Rating, periods: f64, config: &Config) -> Rating {
    let t = if periods.is_finite() {
        periods.max(0.0)
    } else {
        0.0
    };
    let grown = (player.deviation * player.deviation + config.c * config.c * t).sqrt();
    Rating {
        rating: player.rating,
        deviation: grown.min(config.initial_deviation),
    }
}

/// One player's update after one match (equations 2 and 3).
fn update_one(player: &Rating, g_opp: f64, e: f64, score: f64, config: &Config) -> Rating {
    update_one_explained(player, g_opp, e, score, config, &mut ())
}

/// [`update_one`], handing its figures to `trace`: 1/d², 1/RD² + 1/d², Δr, r', RD'.
fn update_one_explained<T: Trace + ?Sized>(
    player: &Rating,
    g_opp: f64,
    e: f64,
    score: f64,
    config: &Config,
    trace: &mut T,
) -> Rating {
    let inv_d2 = Q * Q * g_opp * g_opp * e * (1.0 - e);
    trace.step("s", "score", "win 1, draw ½, loss 0", score);
    trace.step(
        "d²",
        "variance of the match's evidence",
        "d² = 1/(q²·g(RD_j)²·E·(1 − E))",
        1.0 / inv_d2,
    );
    let inv_rd2 = 1.0 / (player.deviation * player.deviation);
    let precision = inv_rd2 + inv_d2;
    trace.step(
        "1/RD'²",
        "precision after the match",
        "1/RD² + 1/d²",
        precision,
    );
    let delta = Q / precision * g_opp * (score - e);
    trace.step(
        "Δr",
        "rating change",
        "Δr = q/(1/RD² + 1/d²)·g(RD_j)·(s − E)",
        delta,
    );
    let rating = player.rating + delta;
    trace.step("r'", "new rating", "r' = r + Δr", rating);
    let unfloored = (1.0 / precision).sqrt();
    trace.step(
        "√(1/(1/RD² + 1/d²))",
        "new RD before its floor",
        "√(1/(1/RD² + 1/d²))",
        unfloored,
    );
    trace.step("RD_min", "floor under RD", "RD_min", config.min_deviation);
    let deviation = unfloored.max(config.min_deviation);
    trace.step(
        "RD'",
        "new RD",
        "RD' = max(√(1/(1/RD² + 1/d²)), RD_min)",
        deviation,
    );
    Rating { rating, deviation }
}

/// The per-match update of both players (each match its own rating period, as Skyweaver
/// rates). Returns (A', B').
pub fn rate(a: &Rating, b: &Rating, outcome: Outcome, config: &Config) -> (Rating, Rating) {
    rate_with_advantage(a, b, outcome, 0.0, config)
}

/// [`rate`] with side A's rating raised by `advantage` points in both expected scores
/// (the side advantage of the design notes): E_A = 1/(1 + 10^(−g(RD_B)·(r_A + h − r_B)/400)),
/// E_B likewise against r_A + h. The updates move the ratings themselves.
pub fn rate_with_advantage(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
) -> (Rating, Rating) {
    let s = outcome.score();
    let g_a = g(a.deviation);
    let g_b = g(b.deviation);
    let e_a = expected_with_g(a.rating + advantage, b.rating, g_b);
    let e_b = expected_with_g(b.rating, a.rating + advantage, g_a);
    (
        update_one(a, g_b, e_a, s, config),
        update_one(b, g_a, e_b, 1.0 - s, config),
    )
}

/// A's side of [`rate_with_advantage`]: its `.0`, to the bit, without B's update.
pub fn rate_one(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
) -> Rating {
    rate_one_explained(a, b, outcome, advantage, config, &mut ())
}

/// [`rate_one`], handing its figures to `trace`: r and RD going in, the opponent's, g(RD_j),
/// E, then the update's (the plain function is this one with no trace).
pub fn rate_one_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
    trace: &mut T,
) -> Rating {
    trace.step("r", "rating going in", "r", a.rating);
    trace.step("RD", "RD going in", "RD", a.deviation);
    trace.step("r_j", "opponent's rating", "r_j", b.rating);
    trace.step("RD_j", "opponent's RD", "RD_j", b.deviation);
    if advantage != 0.0 {
        trace.step("h", "side advantage", "h", advantage);
    }
    let g_b = g(b.deviation);
    trace.step(
        "g(RD_j)",
        "weight of the opponent's RD",
        "g(RD_j) = 1/√(1 + 3q²RD_j²/π²)",
        g_b,
    );
    let e_a = expected_with_g(a.rating + advantage, b.rating, g_b);
    trace.step(
        "E",
        "expected score",
        "E = 1/(1 + 10^(−g(RD_j)(r + h − r_j)/400))",
        e_a,
    );
    update_one_explained(a, g_b, e_a, outcome.score(), config, trace)
}

/// [`grow_deviation`], handing its figures to `trace`: t, c and RD after t periods.
pub fn grow_deviation_explained<T: Trace + ?Sized>(
    player: &Rating,
    periods: f64,
    config: &Config,
    trace: &mut T,
) -> Rating {
    let grown = grow_deviation(player, periods, config);
    trace.step("RD", "RD at the last match", "RD", player.deviation);
    trace.step("t", "idle periods", "t", periods);
    trace.step("c", "RD growth per period", "c", config.c);
    trace.step(
        "RD_t",
        "RD after the idle time",
        "RD_t = min(√(RD² + c²t), RD_init)",
        grown.deviation,
    );
    grown
}

/// Two players' own updates at once, each `x` = (player, opponent, outcome, advantage) as
/// [`rate_one`] rates it (a 1v1 match from each side's view), to the bit, worked out side by
/// side so that neither waits on the other's square roots and `exp`: as `glicko2::rate_pair`.
pub fn rate_pair(
    (a, a_opp, outcome_a, advantage_a): (&Rating, &Rating, Outcome, f64),
    (b, b_opp, outcome_b, advantage_b): (&Rating, &Rating, Outcome, f64),
    config: &Config,
) -> (Rating, Rating) {
    let (g_a, g_b) = (g(a_opp.deviation), g(b_opp.deviation));
    let e_a = expected_with_g(a.rating + advantage_a, a_opp.rating, g_a);
    let e_b = expected_with_g(b.rating + advantage_b, b_opp.rating, g_b);
    (
        update_one(a, g_a, e_a, outcome_a.score(), config),
        update_one(b, g_b, e_b, outcome_b.score(), config),
    )
}

/// Glickman's rating-period update: all of `results` (opponent, score) count at once.
/// With no results the player is unchanged (RD growth is [`grow_deviation`]'s job).
pub fn rate_period(player: &Rating, results: &[(Rating, f64)], config: &Config) -> Rating {
    rate_period_explained(player, results, config, &mut ())
}

/// [`rate_period`], handing `trace` each game's g(RD_j), E and s, the sums, d², Δr, r' and
/// RD' (the plain function is this one with no trace).
pub fn rate_period_explained<T: Trace + ?Sized>(
    player: &Rating,
    results: &[(Rating, f64)],
    config: &Config,
    trace: &mut T,
) -> Rating {
    if results.is_empty() {
        return *player;
    }
    trace.step("r", "rating at the period's start", "r", player.rating);
    trace.step("RD", "RD at the period's start", "RD", player.deviation);
    let mut inv_d2 = 0.0;
    let mut sum = 0.0;
    for (opponent, score) in results {
        let g_opp = g(opponent.deviation);
        let e = expected_with_g(player.rating, opponent.rating, g_opp);
        trace.step(
            "r_j",
            "opponent's rating at the period's start",
            "r_j",
            opponent.rating,
        );
        trace.step(
            "RD_j",
            "opponent's RD at the period's start",
            "RD_j",
            opponent.deviation,
        );
        trace.step(
            "g(RD_j)",
            "weight of the opponent's RD",
            "g(RD_j) = 1/√(1 + 3q²RD_j²/π²)",
            g_opp,
        );
        trace.step(
            "E",
            "expected score",
            "E = 1/(1 + 10^(−g(RD_j)(r − r_j)/400))",
            e,
        );
        trace.step("s", "score", "win 1, draw ½, loss 0", *score);
        inv_d2 += g_opp * g_opp * e * (1.0 - e);
        sum += g_opp * (score - e);
    }
    trace.step(
        "Σg(s − E)",
        "the period's surprise",
        "Σ g(RD_j)·(s_j − E_j)",
        sum,
    );
    trace.step(
        "d²",
        "variance of the period's evidence",
        "d² = 1/(q²·Σ g(RD_j)²·E_j·(1 − E_j))",
        1.0 / (Q * Q * inv_d2),
    );
    let precision = 1.0 / (player.deviation * player.deviation) + Q * Q * inv_d2;
    trace.step(
        "1/RD'²",
        "precision after the period",
        "1/RD² + 1/d²",
        precision,
    );
    let delta = Q / precision * sum;
    trace.step(
        "Δr",
        "rating change",
        "Δr = q/(1/RD² + 1/d²)·Σ g(RD_j)(s_j − E_j)",
        delta,
    );
    let rating = player.rating + delta;
    trace.step("r'", "new rating", "r' = r + Δr", rating);
    let deviation = (1.0 / precision).sqrt().max(config.min_deviation);
    trace.step(
        "RD'",
        "new RD",
        "RD' = max(√(1/(1/RD² + 1/d²)), RD_min)",
        deviation,
    );
    Rating { rating, deviation }
}

/// Both sides of a match between `a` and `b` as they enter it ([`entered`]), A first.
pub fn entered_pair(a: &Rating, b: &Rating, config: &Config) -> (Rating, Rating) {
    (entered(a, b, config), entered(b, a, config))
}

/// [`predict_with_advantage`] with each side as it enters the match ([`entered_pair`]).
pub fn predict_entered(a: &Rating, b: &Rating, advantage: f64, config: &Config) -> Prediction {
    let (a, b) = entered_pair(a, b, config);
    predict_with_advantage(&a, &b, advantage)
}

/// The probability that A beats B, from both uncertainties (Glickman: g(√(RD_A² + RD_B²))).
pub fn predict(a: &Rating, b: &Rating) -> Prediction {
    predict_with_advantage(a, b, 0.0)
}

/// [`predict`] with side A's rating raised by `advantage` points.
pub fn predict_with_advantage(a: &Rating, b: &Rating, advantage: f64) -> Prediction {
    let combined = (a.deviation * a.deviation + b.deviation * b.deviation).sqrt();
    Prediction::decisive(expected_with_g(a.rating + advantage, b.rating, g(combined)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's example in "The Glicko system": 1500/200 beats 1400/30, loses to 1550/100
    /// and to 1700/300 in one rating period → 1464 and 151.4 (he prints r' = 1464).
    #[test]
    fn glickman_worked_example() {
        let cfg = Config::default();
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
        };
        let results = [
            (
                Rating {
                    rating: 1400.0,
                    deviation: 30.0,
                },
                1.0,
            ),
            (
                Rating {
                    rating: 1550.0,
                    deviation: 100.0,
                },
                0.0,
            ),
            (
                Rating {
                    rating: 1700.0,
                    deviation: 300.0,
                },
                0.0,
            ),
        ];
        let new = rate_period(&player, &results, &cfg);
        assert!((new.rating - 1464.1).abs() <= 0.05, "r' = {}", new.rating);
        assert!(
            (new.deviation - 151.4).abs() <= 0.05,
            "RD' = {}",
            new.deviation
        );
        // Glickman's intermediate values: g(30) = 0.9955, g(100) = 0.9531, g(300) = 0.7242.
        assert!((g(30.0) - 0.9955).abs() < 5e-5);
        assert!((g(100.0) - 0.9531).abs() < 5e-5);
        assert!((g(300.0) - 0.7242).abs() < 5e-5);
    }

    /// Equation 1: from 50, 100 idle periods give √(50² + 34.6²·100) = 349.6 and the 101st
    /// reaches the cap of 350; one period gives √(50² + 34.6²) = 60.8.
    #[test]
    fn deviation_growth_is_equation_one() {
        let cfg = Config::default();
        let p = Rating {
            rating: 1600.0,
            deviation: 50.0,
        };
        let one = grow_deviation(&p, 1.0, &cfg);
        assert!((one.deviation - (2500.0f64 + 1197.16).sqrt()).abs() < 1e-12);
        assert!((grow_deviation(&p, 100.0, &cfg).deviation - 349.594_050_292_621_5).abs() < 1e-9);
        assert_eq!(grow_deviation(&p, 101.0, &cfg).deviation, 350.0);
        let three = grow_deviation(&p, 3.0, &cfg);
        let stepwise = grow_deviation(
            &grow_deviation(&grow_deviation(&p, 1.0, &cfg), 1.0, &cfg),
            1.0,
            &cfg,
        );
        assert!((three.deviation - stepwise.deviation).abs() < 1e-9);
        assert_eq!(three.rating, 1600.0);
    }

    #[test]
    fn deviation_never_falls_below_the_floor() {
        let cfg = Config::default();
        // From RD 30, one more game would give √(1/(1/30² + 1/d²)) = 29.89.
        let a = Rating {
            rating: 1500.0,
            deviation: 30.0,
        };
        let (a2, _) = rate(&a, &a, Outcome::Win, &cfg);
        assert_eq!(a2.deviation, 30.0);
    }

    /// Side advantage by hand: A 1500 ± 100 at home (h = 100) against B 1600 ± 100, which
    /// the advantage makes an even match.
    ///   g(100) = 1/√(1 + 3q²·100²/π²) = 1/√1.100723 = 0.9531490;
    ///   E_A = 1/(1 + 10^(−g·(1500 + 100 − 1600)/400)) = ½, and E_B likewise;
    ///   1/d² = q²g²·E(1 − E) = 3.313735e-5·0.908493·¼ = 7.52615e-6;
    ///   precision = 1/100² + 7.52615e-6 = 1.0752615e-4;
    ///   A wins: r'_A = 1500 + q/precision·g·(1 − ½) = 1500 + 25.51364, RD' = √(1/precision)
    ///   = 96.43683; B loses the same 25.51364 with the same RD'.
    /// The prediction is ½ whatever the deviations.
    #[test]
    fn side_advantage_by_hand() {
        let cfg = Config::default();
        let a = Rating {
            rating: 1500.0,
            deviation: 100.0,
        };
        let b = Rating {
            rating: 1600.0,
            deviation: 100.0,
        };
        assert!((g(100.0) - 0.953_149_0).abs() < 1e-7);
        let (a2, b2) = rate_with_advantage(&a, &b, Outcome::Win, 100.0, &cfg);
        assert!((a2.rating - 1_525.513_64).abs() < 1e-5, "{a2:?}");
        assert!((b2.rating - 1_574.486_36).abs() < 1e-5, "{b2:?}");
        assert!((a2.deviation - 96.436_83).abs() < 1e-5);
        assert!((b2.deviation - 96.436_83).abs() < 1e-5);
        assert_eq!(predict_with_advantage(&a, &b, 100.0).win_a, 0.5);
        assert_eq!(
            rate_with_advantage(&a, &b, Outcome::Draw, 0.0, &cfg),
            rate(&a, &b, Outcome::Draw, &cfg)
        );
    }

    #[test]
    fn prediction_is_symmetric() {
        let a = Rating {
            rating: 1700.0,
            deviation: 80.0,
        };
        let b = Rating {
            rating: 1500.0,
            deviation: 200.0,
        };
        let (p, q) = (predict(&a, &b), predict(&b, &a));
        assert!((p.win_a - q.win_b).abs() < 1e-15);
        assert!(p.win_a > 0.7 && p.win_a < 0.8);
    }
}
