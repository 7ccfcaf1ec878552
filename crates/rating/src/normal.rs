//! The standard normal distribution, accurate in the far tails.
//!
//! The TrueSkill update divides a density by a tail probability. Done naively both underflow
//! to zero once the argument passes about 38 and the ratio becomes NaN; these functions work
//! through the Mills ratio instead, which stays finite and accurate for any argument.
//!
//! ```
//! use rungs_rating::normal;
//!
//! assert!((normal::cdf(0.0) - 0.5).abs() < 1e-15);
//! assert!((normal::cdf(1.96) - 0.975).abs() < 1e-4);
//! // Far in the tail the Mills ratio Φ(−u)/φ(u) stays finite: about 1/u.
//! let u = 50.0;
//! assert!((normal::mills_ratio(u) * u - 1.0).abs() < 1e-3);
//! ```

use std::f64::consts::FRAC_1_SQRT_2;

const FRAC_1_SQRT_2PI: f64 = 0.398_942_280_401_432_7;
const SQRT_FRAC_PI_2: f64 = 1.253_314_137_315_500_3;

/// Above this argument the Mills ratio is taken from its asymptotic series (see [`mills_gap_scaled`]).
pub const ASYMPTOTIC_FROM: f64 = 14.0;

/// Density φ(x).
pub fn pdf(x: f64) -> f64 {
    FRAC_1_SQRT_2PI * (-0.5 * x * x).exp()
}

/// Cumulative distribution Φ(x), with full relative accuracy in the lower tail.
pub fn cdf(x: f64) -> f64 {
    0.5 * libm::erfc(-x * FRAC_1_SQRT_2)
}

/// The Mills ratio R(u) = (1 − Φ(u)) / φ(u), finite for every finite u.
pub fn mills_ratio(u: f64) -> f64 {
    if u >= ASYMPTOTIC_FROM {
        (1.0 - mills_gap_scaled(u) / (u * u)) / u
    } else if u >= 0.0 {
        // erfc(z)·exp(z²) is well inside f64 range for z = u/√2 < 10.
        let z = u * FRAC_1_SQRT_2;
        SQRT_FRAC_PI_2 * libm::erfc(z) * (z * z).exp()
    } else {
        (1.0 - cdf(u)) / pdf(u)
    }
}

/// u²·(1 − u·R(u)) for u ≥ 14, from its asymptotic series 1 − 3/u² + 15/u⁴ − …; it tends to
/// 1, and forming it from R(u) would lose about 2·log10(u) digits to cancellation.
pub fn mills_gap_scaled(u: f64) -> f64 {
    debug_assert!(u >= ASYMPTOTIC_FROM);
    // The series is asymptotic: for u ≥ 14 its terms fall below 1e-18 within 20 terms, long
    // before they would start to grow again (near n ≈ u²/2).
    let inv_u2 = 1.0 / (u * u);
    let mut term = 1.0;
    let mut sum = 0.0;
    let mut n = 1.0;
    for _ in 0..40 {
        sum += term;
        n += 1.0;
        term *= -(2.0 * n - 1.0) * inv_u2;
        if term.abs() < 1e-19 {
            break;
        }
    }
    sum
}

/// The normal quantile Φ⁻¹(p): Newton's method on [`cdf`] from Abramowitz and Stegun's
/// 26.2.23 (good to 4.5e-4), kept inside a bracket that starts at [−40, 40] and falls back to
/// bisection whenever a Newton step would leave it (in the far tails, where φ underflows).
/// It stops when a step moves less than 1e-15·(1 + |x|): as accurate as `cdf` itself, in a
/// few steps. Used for configuration (a draw margin from a draw rate), not per match. −∞ for
/// p ≤ 0 (and NaN), +∞ for p ≥ 1.
pub fn quantile(p: f64) -> f64 {
    if p.is_nan() || p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    if p == 0.5 {
        return 0.0; // exactly, not the 1e-17 the iteration stops at
    }
    let (mut lo, mut hi) = (-40.0_f64, 40.0_f64);
    let mut x = {
        // A&S 26.2.23 for the tail probability q = min(p, 1 − p).
        let q = p.min(1.0 - p);
        let t = (-2.0 * q.ln()).sqrt();
        let z = t
            - (2.515_517 + 0.802_853 * t + 0.010_328 * t * t)
                / (1.0 + 1.432_788 * t + 0.189_269 * t * t + 0.001_308 * t * t * t);
        if p < 0.5 { -z } else { z }
    };
    for _ in 0..400 {
        let f = cdf(x) - p;
        if f < 0.0 {
            lo = x;
        } else if f > 0.0 {
            hi = x;
        } else {
            return x;
        }
        let newton = x - f / pdf(x);
        let next = if newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        let done = (next - x).abs() <= 1e-15 * (1.0 + next.abs()) || hi - lo <= 1e-15;
        x = next;
        if done {
            break;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cdf_and_pdf_known_values() {
        assert!((cdf(0.0) - 0.5).abs() < 1e-16);
        assert!((cdf(1.959_963_984_540_054) - 0.975).abs() < 1e-15);
        assert!((pdf(0.0) - FRAC_1_SQRT_2PI).abs() < 1e-16);
        // Φ(−40) = 3.655893540915e-350 underflows; Φ(−37) = 5.725571222525e-300 does not.
        assert!((cdf(-37.0) / 5.725_571_222_524_577e-300 - 1.0).abs() < 1e-12);
    }

    #[test]
    fn mills_ratio_is_continuous_across_the_switch() {
        let below = mills_ratio(ASYMPTOTIC_FROM - 1e-12);
        let above = mills_ratio(ASYMPTOTIC_FROM);
        assert!((below / above - 1.0).abs() < 1e-12, "{below} vs {above}");
        // 14²·(1 − 14·R(14)) = 0.98507100138981814340 (mpmath, 40 digits); formed directly
        // from R it comes out 1.4e-11 off.
        assert!((mills_gap_scaled(14.0) - 0.985_071_001_389_818_1).abs() < 1e-15);
        assert!((mills_ratio(14.0) - 0.071_069_580_538_852_11).abs() < 1e-17);
    }

    /// Reference values from Python's `statistics.NormalDist().inv_cdf` (Wichura's AS 241,
    /// about 16 digits).
    #[test]
    fn quantile_known_values() {
        assert_eq!(quantile(0.5), 0.0);
        assert!((quantile(0.975) - 1.959_963_984_540_053_6).abs() < 1e-14);
        assert!((quantile(0.995) - 2.575_829_303_548_9).abs() < 1e-13);
        assert!((quantile(0.025) + 1.959_963_984_540_053_6).abs() < 1e-14);
        // The draw rate of AllegSkill's ranking page: (1 + 0.0101)/2.
        assert!((quantile(0.505_05) - 0.012_658_810_864_990_476).abs() < 1e-15);
        assert_eq!(quantile(0.0), f64::NEG_INFINITY);
        assert_eq!(quantile(1.0), f64::INFINITY);
    }

    #[test]
    fn quantile_inverts_cdf() {
        for p in [
            1e-300,
            1e-100,
            1e-10,
            0.01,
            0.3,
            0.5,
            0.9,
            0.999,
            1.0 - 1e-12,
        ] {
            assert!((cdf(quantile(p)) / p - 1.0).abs() < 1e-9, "p = {p}");
        }
    }
}
