//! Glicko-2, by the steps of Glickman's "Example of the Glicko-2 system", with the optional
//! bounds and per-match rating periods of INVERSUS (seed 004).
//!
//! Ratings live on Glicko-2's native scale (μ, φ, σ). Conversion to Glicko units uses
//! 173.7178 = 400/ln 10; seed 004 prints 172.7178, a typo.

use super::{Outcome, Prediction};
use serde::{Deserialize, Serialize};

/// Glicko units per native unit, 400/ln(10).
pub const SCALE: f64 = 173.7178;
const INV_PI2: f64 = 1.0 / (std::f64::consts::PI * std::f64::consts::PI);

/// System constants and bounds. The default is Glickman's plain Glicko-2 (a new player at
/// 1500 ± 350 with σ = 0.06, τ = 0.5, no bounds); [`Config::inversus`] is seed 004's.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    /// A new player's μ (0, i.e. 1500).
    pub initial_mu: f64,
    /// A new player's φ (350/173.7178).
    pub initial_phi: f64,
    /// A new player's σ (0.06).
    pub initial_sigma: f64,
    /// τ, how fast volatility may change (0.5; Glickman suggests 0.3–1.2).
    pub tau: f64,
    /// Bounds on μ, applied after every update.
    pub min_mu: f64,
    pub max_mu: f64,
    /// Bounds on φ, applied after every update and after inactivity.
    pub min_phi: f64,
    pub max_phi: f64,
    /// Bounds on σ, applied after every update.
    pub min_sigma: f64,
    pub max_sigma: f64,
    /// Convergence tolerance of the Illinois iteration for σ (1e-6).
    pub tolerance: f64,
    /// Iteration cap, so the volatility search always ends (100; it converges in about 10).
    pub max_iterations: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            initial_mu: 0.0,
            initial_phi: 350.0 / SCALE,
            initial_sigma: 0.06,
            tau: 0.5,
            min_mu: -f64::MAX,
            max_mu: f64::MAX,
            min_phi: 0.0,
            max_phi: f64::MAX,
            min_sigma: 0.0,
            max_sigma: f64::MAX,
            tolerance: 1e-6,
            max_iterations: 100,
        }
    }
}

impl Config {
    /// INVERSUS Deluxe: a new player at μ = 0, φ = 2.015, σ = 0.06; μ ∈ [−6.045, 6.045],
    /// φ ∈ [0.175, 2.015], σ ∈ [0.04, 0.08]; τ = 0.5.
    pub fn inversus() -> Config {
        Config {
            initial_mu: 0.0,
            initial_phi: 2.015,
            initial_sigma: 0.06,
            tau: 0.5,
            min_mu: -6.045,
            max_mu: 6.045,
            min_phi: 0.175,
            max_phi: 2.015,
            min_sigma: 0.04,
            max_sigma: 0.08,
            ..Config::default()
        }
    }

    fn bound(&self, p: Rating) -> Rating {
        Rating {
            mu: p.mu.clamp(self.min_mu, self.max_mu),
            phi: p.phi.clamp(self.min_phi, self.max_phi),
            sigma: p.sigma.clamp(self.min_sigma, self.max_sigma),
        }
    }
}

/// A player on the native scale: rating μ, deviation φ, volatility σ.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    pub mu: f64,
    pub phi: f64,
    pub sigma: f64,
}

impl Rating {
    /// A new player.
    pub fn new(config: &Config) -> Rating {
        Rating {
            mu: config.initial_mu,
            phi: config.initial_phi,
            sigma: config.initial_sigma,
        }
    }

    /// From Glicko units (r, RD) and a volatility.
    pub fn from_glicko(rating: f64, deviation: f64, sigma: f64) -> Rating {
        Rating {
            mu: (rating - 1500.0) / SCALE,
            phi: deviation / SCALE,
            sigma,
        }
    }

    /// The rating in Glicko units, 173.7178·μ + 1500.
    pub fn rating(&self) -> f64 {
        SCALE * self.mu + 1500.0
    }

    /// The deviation in Glicko units, 173.7178·φ.
    pub fn deviation(&self) -> f64 {
        SCALE * self.phi
    }
}

/// g(φ) = 1/√(1 + 3φ²/π²).
pub fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi * INV_PI2).sqrt()
}

/// E and 1 − E for μ against an opponent whose g is `g_opp`, each without cancellation.
fn expected(mu: f64, mu_opp: f64, g_opp: f64) -> (f64, f64) {
    let z = (-g_opp * (mu - mu_opp)).exp();
    let e = 1.0 / (1.0 + z);
    (e, z * e)
}

/// Inactivity of `periods` rating periods (fractions allowed): φ = √(φ² + t·σ²), bounded.
pub fn apply_inactivity(player: &Rating, periods: f64, config: &Config) -> Rating {
    let t = if periods.is_finite() {
        periods.max(0.0)
    } else {
        0.0
    };
    config.bound(Rating {
        phi: (player.phi * player.phi + t * player.sigma * player.sigma).sqrt(),
        ..*player
    })
}

/// Step 5: the new volatility, by the Illinois variant of regula falsi on f(x).
fn new_volatility(sigma: f64, delta2: f64, phi2: f64, v: f64, config: &Config) -> f64 {
    let a = (sigma * sigma).ln();
    let tau = config.tau;
    let inv_tau2 = 1.0 / (tau * tau);
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - d) / (2.0 * d * d) - (x - a) * inv_tau2
    };
    let mut lo = a;
    let mut hi = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < config.max_iterations as f64 {
            k += 1.0;
        }
        a - k * tau
    };
    let mut f_lo = f(lo);
    let mut f_hi = f(hi);
    let mut iterations = 0;
    while (hi - lo).abs() > config.tolerance && iterations < config.max_iterations {
        let denominator = f_hi - f_lo;
        if denominator == 0.0 || !denominator.is_finite() {
            break;
        }
        let c = lo + (lo - hi) * f_lo / denominator;
        let f_c = f(c);
        if f_c * f_hi <= 0.0 {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo *= 0.5;
        }
        hi = c;
        f_hi = f_c;
        iterations += 1;
    }
    let sigma_new = (0.5 * lo).exp();
    if sigma_new.is_finite() {
        sigma_new
    } else {
        sigma
    }
}

/// Steps 3–8 for one player, given Σg²E(1−E) and Σg(s−E) over the period's games.
fn finish_period(player: &Rating, info: f64, surprise: f64, config: &Config) -> Rating {
    if !(info > 0.0) || !info.is_finite() {
        // The games carry no information (odds so lopsided that E(1−E) underflows).
        return apply_inactivity(player, 1.0, config);
    }
    let v = 1.0 / info;
    let delta = v * surprise;
    let phi2 = player.phi * player.phi;
    let sigma = new_volatility(player.sigma, delta * delta, phi2, v, config);
    let phi_star2 = phi2 + sigma * sigma;
    let phi_new2 = 1.0 / (1.0 / phi_star2 + info);
    config.bound(Rating {
        mu: player.mu + phi_new2 * surprise,
        phi: phi_new2.sqrt(),
        sigma,
    })
}

/// One rating period with `results` (opponent, score). With no games, φ grows by one period.
pub fn rate_period(player: &Rating, results: &[(Rating, f64)], config: &Config) -> Rating {
    if results.is_empty() {
        return apply_inactivity(player, 1.0, config);
    }
    let mut info = 0.0;
    let mut surprise = 0.0;
    for (opponent, score) in results {
        let g_opp = g(opponent.phi);
        let (e, one_minus_e) = expected(player.mu, opponent.mu, g_opp);
        info += g_opp * g_opp * e * one_minus_e;
        surprise += g_opp * (score - e);
    }
    finish_period(player, info, surprise, config)
}

/// A 1v1 match as one rating period for each player (as INVERSUS rates). Returns (A', B').
pub fn rate(a: &Rating, b: &Rating, outcome: Outcome, config: &Config) -> (Rating, Rating) {
    let s = outcome.score();
    let g_a = g(a.phi);
    let g_b = g(b.phi);
    let (e_a, not_e_a) = expected(a.mu, b.mu, g_b);
    let (e_b, not_e_b) = expected(b.mu, a.mu, g_a);
    (
        finish_period(a, g_b * g_b * e_a * not_e_a, g_b * (s - e_a), config),
        finish_period(
            b,
            g_a * g_a * e_b * not_e_b,
            g_a * ((1.0 - s) - e_b),
            config,
        ),
    )
}

/// The probability that A beats B, from both deviations: E with g(√(φ_A² + φ_B²)).
pub fn predict(a: &Rating, b: &Rating) -> Prediction {
    let combined = (a.phi * a.phi + b.phi * b.phi).sqrt();
    Prediction::decisive(expected(a.mu, b.mu, g(combined)).0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Glickman's Glicko-2 example: 1500/200/0.06 beats 1400/30, loses to 1550/100 and
    /// 1700/300, τ = 0.5 → 1464.06, 151.52, σ' = 0.05999.
    #[test]
    fn glickman_worked_example() {
        let cfg = Config::default();
        let player = Rating::from_glicko(1500.0, 200.0, 0.06);
        let results = [
            (Rating::from_glicko(1400.0, 30.0, 0.06), 1.0),
            (Rating::from_glicko(1550.0, 100.0, 0.06), 0.0),
            (Rating::from_glicko(1700.0, 300.0, 0.06), 0.0),
        ];
        let new = rate_period(&player, &results, &cfg);
        assert!(
            (new.rating() - 1464.05).abs() <= 0.01,
            "r' = {}",
            new.rating()
        );
        assert!(
            (new.deviation() - 151.52).abs() <= 0.01,
            "RD' = {}",
            new.deviation()
        );
        assert!((new.sigma - 0.059996).abs() <= 1e-6, "σ' = {}", new.sigma);
        // Glickman's intermediate values: μ' = −0.2069, φ' = 0.8722.
        assert!((new.mu + 0.2069).abs() < 5e-5);
        assert!((new.phi - 0.8722).abs() < 5e-5);
    }

    #[test]
    fn inactivity_is_a_partial_period() {
        let cfg = Config::inversus();
        let p = Rating {
            mu: 1.0,
            phi: 0.5,
            sigma: 0.06,
        };
        let half = apply_inactivity(&p, 0.5, &cfg);
        assert!((half.phi - (0.25f64 + 0.5 * 0.0036).sqrt()).abs() < 1e-15);
        // A very long absence stops at the unrated deviation.
        assert_eq!(apply_inactivity(&p, 1e9, &cfg).phi, 2.015);
        assert_eq!(half.mu, 1.0);
    }

    #[test]
    fn inversus_bounds_hold_after_updates() {
        let cfg = Config::inversus();
        let mut a = Rating::new(&cfg);
        let b = Rating {
            mu: -6.0,
            phi: 0.2,
            sigma: 0.04,
        };
        for _ in 0..200 {
            a = rate(&a, &b, Outcome::Win, &cfg).0;
        }
        assert!(a.mu <= 6.045 && a.phi >= 0.175 && a.sigma >= 0.04 && a.sigma <= 0.08);
    }

    #[test]
    fn glicko_units_use_400_over_ln_10() {
        assert!((SCALE - 400.0 / std::f64::consts::LN_10).abs() < 1e-4);
        let r = Rating::from_glicko(1700.0, 100.0, 0.06);
        assert!((r.rating() - 1700.0).abs() < 1e-12 && (r.deviation() - 100.0).abs() < 1e-12);
    }
}
