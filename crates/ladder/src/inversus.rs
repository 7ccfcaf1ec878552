//! INVERSUS's player-facing Rank Points, as the INVERSUS ranking notes set them.

use crate::rules::InversusParams;
use rungs_rating::trace::Trace;
use rungs_rating::{Outcome, glicko2};

/// The most Rank Points there are.
pub const MAX_RP: f64 = 10_000.0;

/// μ mapped linearly from the rating bounds onto [0, 10000].
pub fn map_to_rp(mu: f64, params: &InversusParams) -> f64 {
    let (lo, hi) = (params.glicko2.min_mu, params.glicko2.max_mu);
    let width = (hi - lo).max(f64::MIN_POSITIVE);
    (mu - lo) / width * MAX_RP
}

/// The RP a player is heading for: their conservative rating μ − 3φ, mapped, in [0, 10000].
pub fn target_rp(r: &glicko2::Rating, params: &InversusParams) -> f64 {
    map_to_rp(r.mu - 3.0 * r.phi, params).clamp(0.0, MAX_RP)
}

/// RP after a match. `mu_before` and `opponent_mu` are the μ values going into the match,
/// `after` the player's rating coming out.
///
/// Half-way (`approach`) to the target; a win never lowers RP and a loss never raises it;
/// a decided match moves at least 1 unless a win would pass the player's upper bound
/// (μ + 3φ mapped) or 10000; a win over a higher-μ opponent adds
/// `upset_bonus`·(μ_opp − μ)/(bound width); no move exceeds `max_step`, the upset bonus
/// included (the design notes). A draw moves half-way with no direction rule, no minimum and no
/// bonus. RP is whole and stays in [0, 10000].
pub fn next_rp(
    rp: f64,
    mu_before: f64,
    after: &glicko2::Rating,
    opponent_mu: f64,
    outcome: Outcome,
    params: &InversusParams,
) -> f64 {
    next_rp_explained(rp, mu_before, after, opponent_mu, outcome, params, &mut ())
}

/// [`next_rp`], handing `trace` the target, the half-way step, the direction rule, the upset
/// bonus, the cap and the rounding (the plain function is this one with no trace).
pub fn next_rp_explained<T: Trace + ?Sized>(
    rp: f64,
    mu_before: f64,
    after: &glicko2::Rating,
    opponent_mu: f64,
    outcome: Outcome,
    params: &InversusParams,
    trace: &mut T,
) -> f64 {
    trace.step("RP", "Rank Points going in", "RP", rp);
    let target = target_rp(after, params);
    trace.step(
        "target",
        "the RP the player heads for",
        "target = (μ' − 3φ' − μ_min)/(μ_max − μ_min)·10000",
        target,
    );
    trace.step(
        "approach",
        "share of the way one match moves",
        "approach",
        params.approach,
    );
    let raw = params.approach * (target - rp);
    trace.step("step", "half-way step", "approach·(target − RP)", raw);
    let cap = params.max_step;
    trace.step("cap", "the largest change of one match", "max_step", cap);
    let step = match outcome {
        Outcome::Draw => raw.clamp(-cap, cap),
        Outcome::Win => {
            let upper = map_to_rp(after.mu + 3.0 * after.phi, params).min(MAX_RP);
            let mut step = raw.max(0.0);
            if step < 1.0 {
                // The minimum of 1, unless that passes the upper bound: then no step at all
                // (RP is whole, so any fraction would round past the bound).
                trace.step(
                    "upper",
                    "the player's upper bound in RP",
                    "(μ' + 3φ' − μ_min)/(μ_max − μ_min)·10000",
                    upper,
                );
                step = if rp + 1.0 <= upper { 1.0 } else { 0.0 };
            }
            trace.step(
                "win step",
                "a win moves up, at least 1 below the upper bound",
                "max(step, 0), at least 1",
                step,
            );
            let width = params.glicko2.max_mu - params.glicko2.min_mu;
            let bonus = if opponent_mu > mu_before && width > 0.0 {
                params.upset_bonus * (opponent_mu - mu_before) / width
            } else {
                0.0
            };
            trace.step(
                "bonus",
                "upset bonus",
                "upset_bonus·(μ_opp − μ)/(μ_max − μ_min) over a higher μ",
                bonus,
            );
            // The cap holds for the whole move: the INVERSUS notes limit "changes in RP to 500
            // points", and the bonus is part of the change.
            (step + bonus).min(cap)
        }
        Outcome::Loss => raw.min(-1.0).max(-cap),
    };
    trace.step(
        "ΔRP",
        "the move, within the cap",
        match outcome {
            Outcome::Draw => "within ±cap",
            Outcome::Win => "min(win step + bonus, cap)",
            Outcome::Loss => "max(min(step, −1), −cap)",
        },
        step,
    );
    let next = (rp + step).round().clamp(0.0, MAX_RP);
    let next = if next.is_finite() { next } else { rp };
    trace.step(
        "RP'",
        "new Rank Points",
        "RP' = round(RP + ΔRP), within [0, 10000]",
        next,
    );
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> InversusParams {
        InversusParams::default()
    }

    #[test]
    fn a_new_player_targets_zero() {
        let p = params();
        let new = glicko2::Rating::new(&p.glicko2);
        assert_eq!(target_rp(&new, &p), 0.0);
    }

    /// μ = 2, φ = 0.5: target = (2 − 1.5 + 6.045)/12.09·10000 = 5413.56; from 5000 a win moves
    /// half-way, 206.78 → 5207.
    #[test]
    fn half_way_to_the_target() {
        let p = params();
        let r = glicko2::Rating {
            mu: 2.0,
            phi: 0.5,
            sigma: 0.06,
        };
        assert_eq!(next_rp(5000.0, 2.0, &r, 1.0, Outcome::Win, &p), 5207.0);
        // A loss with the target above: never up, at least 1 down.
        assert_eq!(next_rp(5000.0, 2.0, &r, 1.0, Outcome::Loss, &p), 4999.0);
        // A draw moves half-way either way.
        assert_eq!(next_rp(5000.0, 2.0, &r, 1.0, Outcome::Draw, &p), 5207.0);
    }

    #[test]
    fn steps_are_capped_at_500_and_rp_at_zero() {
        let p = params();
        let strong = glicko2::Rating {
            mu: 6.0,
            phi: 0.2,
            sigma: 0.06,
        };
        assert_eq!(next_rp(0.0, 6.0, &strong, 0.0, Outcome::Win, &p), 500.0);
        let weak = glicko2::Rating {
            mu: -6.0,
            phi: 2.0,
            sigma: 0.06,
        };
        assert_eq!(next_rp(0.0, -6.0, &weak, 0.0, Outcome::Loss, &p), 0.0);
    }

    /// The audit's 519: from 0 a strong first win's half-way step is capped at 500, and the
    /// bonus for beating an opponent 0.91884 above (250·0.91884/12.09 = 19.0) used to come on
    /// top. The whole move is capped: 500.
    #[test]
    fn the_upset_bonus_does_not_pass_the_cap() {
        let p = params();
        let strong = glicko2::Rating {
            mu: 2.0,
            phi: 0.3,
            sigma: 0.06,
        };
        let gap: f64 = 19.0 * 12.09 / 250.0;
        assert!((250.0 * gap / 12.09 - 19.0).abs() < 1e-12);
        assert_eq!(next_rp(0.0, 0.0, &strong, gap, Outcome::Win, &p), 500.0);
        // Below the cap the bonus still counts in full: 4000 → 4417.287 + 19 = 4436.
        let r = glicko2::Rating {
            mu: 1.0,
            phi: 0.4,
            sigma: 0.06,
        };
        assert_eq!(next_rp(4000.0, 0.0, &r, gap, Outcome::Win, &p), 4436.0);
        // A step of 490 with a bonus of 19: 509 → 500.
        let target_980 = glicko2::Rating {
            mu: 980.0 / 10_000.0 * 12.09 - 6.045 + 3.0 * 0.3,
            phi: 0.3,
            sigma: 0.06,
        };
        assert_eq!(next_rp(0.0, 0.0, &target_980, gap, Outcome::Win, &p), 500.0);
    }

    /// A win over an opponent 6.045 higher adds 250·6.045/12.09 = 125.
    #[test]
    fn upset_bonus() {
        let p = params();
        let r = glicko2::Rating {
            mu: 0.0,
            phi: 2.015,
            sigma: 0.06,
        };
        assert_eq!(next_rp(0.0, 0.0, &r, 6.045, Outcome::Win, &p), 1.0 + 125.0);
    }
}
