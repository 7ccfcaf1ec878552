//! TrueSkill for one-on-one matches, with the formulas of AllegSkill's ranking page.
//!
//! The dynamics term γ is added inside the square root *after* the update (as AllegSkill
//! does, and unlike Microsoft's TrueSkill, which adds it before), and the draw margin ε is
//! an absolute margin divided by c, the combined uncertainty of the match.
//!
//! ```
//! use rungs_rating::{Outcome, trueskill};
//!
//! // Between equals a win moves both means by the same amount, in opposite directions,
//! // and leaves both less uncertain.
//! let config = trueskill::Config::default();
//! let new = trueskill::Rating::new(&config);
//! let (a, b) = trueskill::rate(&new, &new, Outcome::Win, &config);
//! assert!(a.mu > 25.0 && b.mu < 25.0);
//! assert!(((a.mu - 25.0) - (25.0 - b.mu)).abs() < 1e-12);
//! assert!(a.sigma < new.sigma && b.sigma < new.sigma);
//! ```

use super::normal::{ASYMPTOTIC_FROM, cdf, mills_gap_scaled, mills_ratio, pdf};
use super::trace::Trace;
use super::{Outcome, Prediction};
use serde::{Deserialize, Serialize};

/// Rating points on the 1500 scale per unit of μ: the mapping under which AllegSkill's
/// 25 ± 25/3 reads 1500 ± 350 (350/(25/3) = 42). Rules changes and the side advantage
/// convert with it.
pub const POINTS_PER_MU: f64 = 42.0;

/// System constants. The defaults are AllegSkill's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// Mean of a new player's skill (25).
    pub initial_mu: f64,
    /// Uncertainty of a new player's skill (25/3).
    pub initial_sigma: f64,
    /// Performance variance around skill, β (25/6).
    pub beta: f64,
    /// Dynamics, γ (25/300): keeps σ from reaching zero so ratings can still move.
    pub gamma: f64,
    /// Draw margin ε on the skill scale (0.08, from AllegSkill's ~1 % draw rate).
    pub epsilon: f64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            initial_mu: 25.0,
            initial_sigma: 25.0 / 3.0,
            beta: 25.0 / 6.0,
            gamma: 25.0 / 300.0,
            epsilon: 0.08,
        }
    }
}

impl Config {
    /// The draw margin ε of the standard TrueSkill relation ε = √2·β·Φ⁻¹((p + 1)/2): the
    /// margin within which two equally skilled players, whose performances each vary by β,
    /// draw with probability p (their performance difference has deviation √2·β). AllegSkill's
    /// ranking page's 1.01 % gives 0.0746, its "ε ≃ 0.08". The rate is held to [0, 0.999999] so
    /// that ε stays finite; 0 gives 0.
    pub fn epsilon_for_draw_rate(&self, draw_rate: f64) -> f64 {
        let rate = if draw_rate.is_nan() {
            0.0
        } else {
            draw_rate.clamp(0.0, 0.999_999)
        };
        std::f64::consts::SQRT_2 * self.beta * super::normal::quantile(0.5 * (rate + 1.0))
    }
}

/// A player's skill belief: mean μ and standard deviation σ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The mean μ of the skill belief (25 for a new player by default).
    pub mu: f64,
    /// The standard deviation σ of the skill belief (25/3 by default).
    pub sigma: f64,
}

impl Rating {
    /// A new player.
    pub fn new(config: &Config) -> Rating {
        Rating {
            mu: config.initial_mu,
            sigma: config.initial_sigma,
        }
    }

    /// The conservative skill μ − 3σ, unrounded (for plots).
    pub fn conservative(&self) -> f64 {
        self.mu - 3.0 * self.sigma
    }

    /// The rank shown to players: round(μ − 3σ) from μ and σ as AllegSkill displays them,
    /// to one decimal. The ranking page's table is made this way: B at (29.29, 4.62) after
    /// losing is shown as (29.3, 4.6) and ranked 16 = round(29.3 − 13.8), where the unrounded
    /// 15.42 would give 15. Tenths are rounded as integers so that x.5 always rounds up.
    pub fn rank(&self) -> i64 {
        if !self.mu.is_finite() || !self.sigma.is_finite() {
            return 0;
        }
        let tenths = (self.mu * 10.0).round() - 3.0 * (self.sigma * 10.0).round();
        ((tenths + 5.0) / 10.0).floor() as i64
    }
}

/// V for a win: φ(x)/Φ(x) with x = t − e.
pub fn v_win(x: f64) -> f64 {
    if x >= 0.0 {
        pdf(x) / cdf(x)
    } else {
        // φ(x)/Φ(x) = 1/R(−x): both factors underflow past x ≈ −38, their ratio does not.
        1.0 / mills_ratio(-x)
    }
}

/// W for a win: V·(V + x), in (0, 1).
pub fn w_win(x: f64) -> f64 {
    let u = -x;
    if u < ASYMPTOTIC_FROM {
        let v = v_win(x);
        v * (v + x)
    } else {
        // With S = u²(1 − uR(u)) and D = S/u²: V = u/(1 − D) and V + x = uD/(1 − D), so
        // W = S/(1 − D)² and no difference of nearly equal numbers is ever formed.
        let s = mills_gap_scaled(u);
        let one_minus_d = 1.0 - s / (u * u);
        s / (one_minus_d * one_minus_d)
    }
}

/// V and W for a draw, at t = (μ_A − μ_B)/c and e = ε/c.
pub fn vw_draw(t: f64, e: f64) -> (f64, f64) {
    // V is odd in t and W even: work with |t| and restore the sign.
    let sign = if t < 0.0 { -1.0 } else { 1.0 };
    let t = t.abs();
    let (a, b) = (-e - t, e - t);
    let (v, w) = if b > -5.0 {
        // Near the middle the direct form is accurate: Φ(b) − Φ(a) is not a tiny difference.
        let z = cdf(b) - cdf(a);
        let (pa, pb) = (pdf(a), pdf(b));
        let v = (pa - pb) / z;
        (v, v * v + (b * pb - a * pa) / z)
    } else {
        // Deep in the tail factor out φ(b): φ(a)/φ(b) = e^{−2et} and Φ(x) = φ(x)·R(−x).
        let k = (-2.0 * e * t).exp();
        let den = mills_ratio(-b) - k * mills_ratio(-a);
        let v = (-2.0 * e * t).exp_m1() / den;
        (v, v * v + (b - a * k) / den)
    };
    (sign * v, w.clamp(0.0, 1.0))
}

/// The update of a 1v1 match. Returns (A', B').
pub fn rate(a: &Rating, b: &Rating, outcome: Outcome, config: &Config) -> (Rating, Rating) {
    rate_with_advantage(a, b, outcome, 0.0, config)
}

/// [`rate`] with side A's performance raised by `advantage` (native units: rating points
/// ÷ [`POINTS_PER_MU`]; the side advantage of the design notes): t = (μ_A + h − μ_B)/c when A
/// wins or draws, (μ_B − μ_A − h)/c when B wins. The updates move μ itself.
pub fn rate_with_advantage(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
) -> (Rating, Rating) {
    rate_explained(a, b, outcome, advantage, config, &mut ())
}

/// [`rate_with_advantage`], handing `trace` A's figures: c, t, the draw margin ε/c, v, w,
/// and A's new μ and σ (the plain function is this one with no trace).
pub fn rate_explained<T: Trace + ?Sized>(
    a: &Rating,
    b: &Rating,
    outcome: Outcome,
    advantage: f64,
    config: &Config,
    trace: &mut T,
) -> (Rating, Rating) {
    let (winner, loser, lead) = match outcome {
        Outcome::Win | Outcome::Draw => (a, b, advantage),
        Outcome::Loss => (b, a, -advantage),
    };
    trace.step("μ", "skill going in", "μ", a.mu);
    trace.step("σ", "uncertainty going in", "σ", a.sigma);
    trace.step("μ_opp", "opponent's skill", "μ_opp", b.mu);
    trace.step("σ_opp", "opponent's uncertainty", "σ_opp", b.sigma);
    trace.step("β", "performance spread", "β", config.beta);
    if advantage != 0.0 {
        trace.step("h", "side advantage (native)", "h", advantage);
    }
    let beta2 = config.beta * config.beta;
    let ws2 = winner.sigma * winner.sigma;
    let ls2 = loser.sigma * loser.sigma;
    let c2 = 2.0 * beta2 + ws2 + ls2;
    let c = c2.sqrt();
    trace.step(
        "c",
        "spread of the performance difference",
        "c = √(2β² + σ_w² + σ_l²)",
        c,
    );
    let t = (winner.mu - loser.mu + lead) / c;
    trace.step(
        "t",
        "winner's lead over c (a draw: A's)",
        "t = (μ_w − μ_l ± h)/c",
        t,
    );
    trace.step("ε", "draw margin", "ε", config.epsilon);
    let e = config.epsilon / c;
    trace.step("ε/c", "draw margin over c", "ε/c", e);
    let (v, w) = match outcome {
        Outcome::Draw => vw_draw(t, e),
        _ => {
            let x = t - e;
            (v_win(x), w_win(x))
        }
    };
    let (v_name, w_name) = match outcome {
        Outcome::Draw => (
            "v = (φ(−ε/c − t) − φ(ε/c − t))/(Φ(ε/c − t) − Φ(−ε/c − t))",
            "w = v² + ((ε/c − t)φ(ε/c − t) + (ε/c + t)φ(−ε/c − t))/(Φ(ε/c − t) − Φ(−ε/c − t))",
        ),
        _ => ("v = φ(t − ε/c)/Φ(t − ε/c)", "w = v·(v + t − ε/c)"),
    };
    trace.step("v", "mean shift factor", v_name, v);
    trace.step("w", "variance shrink factor", w_name, w);
    let gamma2 = config.gamma * config.gamma;
    trace.step("γ", "dynamics added to σ", "γ", config.gamma);
    let winner_step = ws2 / c * v;
    let loser_step = ls2 / c * v;
    let winner_new = Rating {
        mu: winner.mu + winner_step,
        sigma: (ws2 * (1.0 - ws2 / c2 * w) + gamma2).sqrt(),
    };
    let loser_new = Rating {
        mu: loser.mu - loser_step,
        sigma: (ls2 * (1.0 - ls2 / c2 * w) + gamma2).sqrt(),
    };
    let (step, new) = match outcome {
        Outcome::Loss => (-loser_step, loser_new),
        _ => (winner_step, winner_new),
    };
    trace.step("Δμ", "change of μ", "Δμ = ±σ²/c·v (+ for the winner)", step);
    trace.step("μ'", "new skill", "μ' = μ + Δμ", new.mu);
    trace.step(
        "σ'",
        "new uncertainty",
        "σ' = √(σ²(1 − σ²/c²·w) + γ²)",
        new.sigma,
    );
    match outcome {
        Outcome::Loss => (loser_new, winner_new),
        _ => (winner_new, loser_new),
    }
}

/// Win, draw and loss probabilities of a pairing under the same draw model as the update:
/// A wins when its performance exceeds B's by more than ε, draws within ±ε.
pub fn predict(a: &Rating, b: &Rating, config: &Config) -> Prediction {
    predict_with_advantage(a, b, 0.0, config)
}

/// [`predict`] with side A's performance raised by `advantage` (native units).
pub fn predict_with_advantage(
    a: &Rating,
    b: &Rating,
    advantage: f64,
    config: &Config,
) -> Prediction {
    let c = (2.0 * config.beta * config.beta + a.sigma * a.sigma + b.sigma * b.sigma).sqrt();
    let t = (a.mu + advantage - b.mu) / c;
    let e = config.epsilon / c;
    let win_a = cdf(t - e);
    let win_b = cdf(-t - e);
    Prediction {
        win_a,
        draw: (1.0 - win_a - win_b).max(0.0),
        win_b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tol: f64) {
        assert!(
            (actual - expected).abs() <= tol,
            "{actual} is not within {tol} of {expected}"
        );
    }

    /// The worked example of AllegSkill's ranking page: A (25, 8.333) against B (32, 5).
    #[test]
    fn allegskill_worked_example_b_wins() {
        let cfg = Config::default();
        let a = Rating::new(&cfg);
        let b = Rating {
            mu: 32.0,
            sigma: 5.0,
        };
        assert_eq!((a.rank(), b.rank()), (0, 17));
        let (a2, b2) = rate(&a, &b, Outcome::Loss, &cfg);
        close(b2.mu, 33.0, 0.05);
        close(b2.sigma, 4.8, 0.05);
        close(a2.mu, 22.2, 0.05);
        close(a2.sigma, 7.2, 0.05);
        assert_eq!((a2.rank(), b2.rank()), (1, 19));
    }

    #[test]
    fn allegskill_worked_example_a_wins() {
        let cfg = Config::default();
        let a = Rating::new(&cfg);
        let b = Rating {
            mu: 32.0,
            sigma: 5.0,
        };
        let (a2, b2) = rate(&a, &b, Outcome::Win, &cfg);
        close(a2.mu, 32.5, 0.05);
        close(a2.sigma, 6.4, 0.05);
        close(b2.mu, 29.3, 0.05);
        close(b2.sigma, 4.6, 0.05);
        assert_eq!((a2.rank(), b2.rank()), (13, 16));
    }

    /// The ranking page's closed forms, e.g. μ'_B = 32 + 0.09195636321·√186·√2/√π when B wins. Its
    /// printed coefficients are rounded: they agree with the exact update to about 4e-4.
    #[test]
    fn allegskill_closed_forms() {
        let cfg = Config::default();
        let a = Rating::new(&cfg);
        let b = Rating {
            mu: 32.0,
            sigma: 5.0,
        };
        let k = 186f64.sqrt() * 2f64.sqrt() / std::f64::consts::PI.sqrt();
        let (a2, b2) = rate(&a, &b, Outcome::Loss, &cfg);
        close(b2.mu, 32.0 + 0.091_956_363_21 * k, 1e-3);
        close(a2.mu, 25.0 - 0.255_434_342_3 * k, 1e-3);
        let (a3, b3) = rate(&a, &b, Outcome::Win, &cfg);
        close(a3.mu, 25.0 + 0.691_967_262_6 * k, 1e-3);
        close(b3.mu, 32.0 - 0.249_108_214_5 * k, 1e-3);
    }

    /// Exact values from 50-digit arithmetic (mpmath): the naive ratio is inf at −38.5, NaN at −40.
    #[test]
    fn v_and_w_for_a_win_in_the_far_tail() {
        close(v_win(-40.0), 40.024_968_847_207_26, 1e-10);
        close(w_win(-40.0), 0.999_377_331_621_408_6, 1e-12);
        close(v_win(-38.5), 38.525_939_096_854_49, 1e-10);
        close(w_win(-38.5), 0.999_328_065_643_638_7, 1e-12);
        close(v_win(-1000.0), 1_000.000_999_998, 1e-9);
        close(w_win(-1000.0), 0.999_999_000_006, 1e-12);
        close(v_win(-5.0), 5.186_503_967_125_842, 1e-12);
        close(w_win(-5.0), 0.967_303_565_382_887_8, 1e-12);
        close(v_win(0.0), 0.797_884_560_802_865_4, 1e-15);
        close(w_win(0.0), 0.636_619_772_367_581_3, 1e-15);
        close(v_win(3.0), 0.004_437_839_042_125_664, 1e-15);
        close(w_win(3.0), 0.013_333_211_541_740_81, 1e-14);
        assert!(v_win(1e6).is_finite() && w_win(1e6).is_finite());
        assert!(v_win(-1e300).is_finite() && w_win(-1e300).is_finite());
        assert!((w_win(-1e300) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn v_and_w_for_a_draw_against_exact_values() {
        let cases = [
            (
                0.5,
                0.007,
                -0.499_991_833_393_358_1,
                0.999_983_666_813_393_4,
            ),
            (40.0, 0.007, -39.999_350_060_329_14, 0.999_983_919_722_879_6),
            (
                1000.0,
                0.007,
                -999.993_999_993_358_8,
                0.999_999_000_154_977_2,
            ),
            (0.0, 0.1, 0.0, 0.996_671_108_993_300_2),
            (10.0, 0.5, -9.603_009_323_393_747, 0.989_635_488_689_599_6),
            (3.0, 0.2, -2.961_127_359_879_94, 0.987_632_105_024_276_6),
            (7.0, 0.00704, -6.999_884_375_749_043, 0.999_983_487_596_678),
        ];
        for (t, e, v, w) in cases {
            let (v1, w1) = vw_draw(t, e);
            close(v1, v, 1e-9 * v.abs().max(1.0));
            close(w1, w, 1e-8);
            let (v2, w2) = vw_draw(-t, e);
            close(v2, -v, 1e-9 * v.abs().max(1.0));
            close(w2, w, 1e-8);
        }
    }

    /// Side advantage by hand: A (25, 25/3) moving first with h = 1 (42 rating points)
    /// against B (26, 25/3) — even once the advantage counts.
    ///   c = √(2β² + σ_A² + σ_B²) = √(2·17.36111 + 2·69.44444) = 13.176157;
    ///   t = (25 + 1 − 26)/c = 0; e = 0.08/c = 0.0060716; A wins: x = t − e = −0.0060716,
    ///   V = φ(x)/Φ(x) = 0.3989349/0.4975778 = 0.8017539, W = V(V + x) = 0.6379413;
    ///   μ'_A = 25 + σ²/c·V = 25 + 69.44444/13.176157·0.8017539 = 29.225614,
    ///   μ'_B = 26 − 4.225614 = 21.774386, σ'_A = √(σ²(1 − σ²/c²·W) + γ²) = 7.192412.
    /// And the two sides are equally likely to win.
    #[test]
    fn side_advantage_by_hand() {
        let cfg = Config::default();
        let a = Rating::new(&cfg);
        let b = Rating {
            mu: 26.0,
            sigma: 25.0 / 3.0,
        };
        let (a2, b2) = rate_with_advantage(&a, &b, Outcome::Win, 1.0, &cfg);
        close(a2.mu, 29.225_614, 1e-6);
        close(b2.mu, 21.774_386, 1e-6);
        close(a2.sigma, 7.192_412, 1e-6);
        close(b2.sigma, 7.192_412, 1e-6);
        let p = predict_with_advantage(&a, &b, 1.0, &cfg);
        close(p.win_a, p.win_b, 1e-15);
        // B winning against the advantage: the loser's lead enters negated.
        let (a3, b3) = rate_with_advantage(&a, &b, Outcome::Loss, 1.0, &cfg);
        let (b4, a4) = rate(&b, &Rating { mu: 26.0, ..a }, Outcome::Win, &cfg);
        close(a3.mu, a4.mu - 1.0, 1e-12);
        close(b3.mu, b4.mu, 1e-12);
    }

    #[test]
    fn prediction_sums_to_one_and_favours_the_stronger() {
        let cfg = Config::default();
        let a = Rating {
            mu: 30.0,
            sigma: 2.0,
        };
        let b = Rating {
            mu: 25.0,
            sigma: 2.0,
        };
        let p = predict(&a, &b, &cfg);
        close(p.win_a + p.draw + p.win_b, 1.0, 1e-12);
        assert!(p.win_a > 0.5 && p.draw > 0.0);
    }

    /// AllegSkill's ranking page: "ε ≃ 0.08 is derived empirically from the percentage of
    /// games which result in a draw, currently ~1.01%". The standard relation
    /// ε = √2·β·Φ⁻¹((p + 1)/2) by hand:
    ///   (p + 1)/2 = 0.50505; Φ⁻¹(½ + δ) = √(2π)·δ + (2π)^{3/2}·δ³/6 + … with δ = 0.00505:
    ///   2.506628·0.00505 = 0.0126585, plus 15.7496·1.2879e-7/6 = 3.4e-7: 0.0126588;
    ///   √2·β = 1.414214·4.166667 = 5.892557; ε = 5.892557·0.0126588 = 0.07459 ≈ 0.075.
    /// (The earlier helper used two new players' c = √(2β² + 2σ0²) = 13.18 and gave 0.167.)
    #[test]
    fn epsilon_from_the_seeds_draw_rate() {
        let cfg = Config::default();
        let eps = cfg.epsilon_for_draw_rate(0.0101);
        close(eps, 0.075, 0.0005);
        close(eps, 0.074_592_758_37, 1e-9);
        // Two equal players known exactly (σ = 0) then draw 1.01 % of the time: the
        // performance difference ~ N(0, 2β²) falls within ±ε.
        let exact = Rating {
            mu: 25.0,
            sigma: 0.0,
        };
        let p = predict(
            &exact,
            &exact,
            &Config {
                epsilon: eps,
                ..cfg
            },
        );
        close(p.draw, 0.0101, 1e-12);
        // No draws, no margin; rates out of range are held, never NaN or infinite.
        assert_eq!(cfg.epsilon_for_draw_rate(0.0), 0.0);
        assert_eq!(cfg.epsilon_for_draw_rate(-1.0), 0.0);
        assert_eq!(cfg.epsilon_for_draw_rate(f64::NAN), 0.0);
        assert!(cfg.epsilon_for_draw_rate(1.0).is_finite());
        assert!(cfg.epsilon_for_draw_rate(f64::INFINITY).is_finite());
    }
}
