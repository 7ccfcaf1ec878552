//! Skyweaver's player-facing layer (the Skyweaver white paper, sections 3–4): Rank Points,
//! tiers, hard floors.

use crate::rules::SkyweaverParams;
use rungs_rating::trace::Trace;

pub use crate::tiers::Tier;

/// The hard reset value of each tier — Table 1 (its minimums and floors are the ladder's
/// [`TierTable`](crate::tiers::TierTable)).
const HARD_RESET_VALUE: [f64; 12] = [
    200.0, 300.0, 350.0, 400.0, 450.0, 500.0, 550.0, 600.0, 700.0, 800.0, 900.0, 1000.0,
];

impl Tier {
    /// The RP a hard reset sets for a player whose highest tier this season was this one.
    pub fn hard_reset_value(self) -> f64 {
        HARD_RESET_VALUE[self as usize]
    }
}

/// F of equation 4: the range transform 1000/(3000 − 1250) times the rank dependence, held
/// within [0, 1]. The white paper's F slides up from f_min at 200 RP (where players start) to
/// 1 at 1200; below 200 RP, reachable only when `initial_rp` is set under 200, its line runs
/// on down and past 0, and a negative F turns the Glicko change around: a loser's negative Δr
/// would add RP ("by winning a match you always go up", so by losing never). Held at 0 there,
/// RP moves only by B·s.
pub fn f_factor(rp: f64, p: &SkyweaverParams) -> f64 {
    let rank_dependence = (p.f_min + (1.0 - p.f_min) * (rp - 200.0) / 1000.0).clamp(0.0, 1.0);
    1000.0 / (3000.0 - 1250.0) * rank_dependence
}

/// B of equation 4: the win bias, b_max at 200 RP sliding to b_min at 1200 and above.
pub fn b_factor(rp: f64, p: &SkyweaverParams) -> f64 {
    (p.b_max - (rp - 200.0) / 1000.0 * (p.b_max - p.b_min)).max(p.b_min)
}

/// Equation 4: RP' = round(RP + Δr·F + B·s + A), then held at the season's hard floor.
/// `streak_bonus` is whether this is a win after two straight wins.
pub fn next_rp(
    rp: f64,
    delta_r: f64,
    s: f64,
    streak_bonus: bool,
    floor: f64,
    p: &SkyweaverParams,
) -> f64 {
    next_rp_explained(rp, delta_r, s, streak_bonus, floor, p, &mut ())
}

/// [`next_rp`], handing `trace` each term of equation 4: RP, Δr, the range transform and
/// rank dependence that make F, B, s, A, the sum, its rounding, the loss rule and the floor
/// (the plain function is this one with no trace).
pub fn next_rp_explained<T: Trace + ?Sized>(
    rp: f64,
    delta_r: f64,
    s: f64,
    streak_bonus: bool,
    floor: f64,
    p: &SkyweaverParams,
    trace: &mut T,
) -> f64 {
    trace.step("RP", "Rank Points going in", "RP", rp);
    trace.step("Δr", "the match's MMR change", "Δr = r' − r", delta_r);
    let rank_dependence = (p.f_min + (1.0 - p.f_min) * (rp - 200.0) / 1000.0).clamp(0.0, 1.0);
    trace.step(
        "1000/(3000 − 1250)",
        "range transform",
        "1000/(3000 − 1250)",
        1000.0 / (3000.0 - 1250.0),
    );
    trace.step(
        "f(RP)",
        "rank dependence",
        "f = f_min + (1 − f_min)·(RP − 200)/1000, within [0, 1]",
        rank_dependence,
    );
    let f = f_factor(rp, p);
    trace.step(
        "F",
        "weight of the MMR change",
        "F = 1000/(3000 − 1250)·f(RP)",
        f,
    );
    let b = b_factor(rp, p);
    trace.step(
        "B",
        "win bias",
        "B = max(b_max − (RP − 200)/1000·(b_max − b_min), b_min)",
        b,
    );
    trace.step("s", "score", "win 1, draw ½, loss 0", s);
    let a = if streak_bonus { p.a } else { 0.0 };
    trace.step(
        "A",
        "streak bonus (a win after two straight wins)",
        "A = a on a third straight win, else 0",
        a,
    );
    let raw = rp + delta_r * f_factor(rp, p) + b_factor(rp, p) * s + a;
    trace.step(
        "RP + Δr·F + B·s + A",
        "Rank Points before rounding",
        "RP + Δr·F + B·s + A",
        raw,
    );
    let rounded = raw.round();
    let next = if rounded.is_finite() { rounded } else { rp };
    trace.step(
        "round(…)",
        "rounded to a whole point",
        "round(RP + Δr·F + B·s + A)",
        next,
    );
    // A loss never raises RP: s = 0 leaves Δr·F ≤ 0 and no bias or bonus.
    let next = if s == 0.0 { next.min(rp) } else { next };
    if s == 0.0 {
        trace.step(
            "min(…, RP)",
            "a loss never raises RP",
            "min(round(…), RP)",
            next,
        );
    }
    trace.step(
        "floor",
        "the season's hard floor",
        "highest hard floor reached this season",
        floor,
    );
    let next = next.max(floor);
    trace.step("RP'", "new Rank Points", "RP' = max(…, floor)", next);
    next
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hard_reset_values_of_table_one() {
        assert_eq!(Tier::Wanderer.hard_reset_value(), 200.0);
        assert_eq!(Tier::ExpertI.hard_reset_value(), 600.0);
        assert_eq!(Tier::Grandweaver.hard_reset_value(), 1000.0);
    }

    /// At 200 RP: F = (1000/1750)·0.25 = 0.142857, B = 25. A win with Δr = +20 gives
    /// 200 + 2.857 + 25 = 227.857 → 228; a loss with Δr = −20 gives 197.14 → 197, held at 200.
    #[test]
    fn equation_four_at_200() {
        let p = SkyweaverParams::default();
        assert!((f_factor(200.0, &p) - 0.25 / 1.75).abs() < 1e-12);
        assert_eq!(b_factor(200.0, &p), 25.0);
        assert_eq!(next_rp(200.0, 20.0, 1.0, false, 200.0, &p), 228.0);
        assert_eq!(next_rp(200.0, -20.0, 0.0, false, 200.0, &p), 200.0);
        assert_eq!(next_rp(200.0, -20.0, 0.0, false, 0.0, &p), 197.0);
    }

    /// Below 200 RP with f_min = 0 the paper's rank dependence is 0 + (0 − 200)/1000 = −0.2
    /// at 0 RP: F = −0.114, and a loss with Δr = −162 gave 0 + 18.5 → 19. F is held at 0
    /// there: the loser stays at 0; the winner makes B(0) = 25 + 0.2·20 = 29.
    #[test]
    fn a_loser_below_200_never_gains() {
        let p = SkyweaverParams {
            f_min: 0.0,
            ..SkyweaverParams::default()
        };
        assert_eq!(f_factor(0.0, &p), 0.0);
        assert_eq!(next_rp(0.0, -162.0, 0.0, false, 0.0, &p), 0.0);
        assert_eq!(next_rp(0.0, 162.0, 1.0, false, 0.0, &p), 29.0);
    }
}
