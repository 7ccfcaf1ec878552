//! Margin of victory for the Elo/Glicko family: how much more a match moves the
//! ratings when it was won by more. Each option is a multiplier on the update; 1 for a
//! one-goal win, so that a ladder without scores moves exactly as before.

/// The margin options, as stored (the `margin` parameter's words).
pub const NONE: f64 = 0.0;
/// World Football Elo's goal-difference index: 1 for a win by one goal (and a draw), 1.5 by
/// two, 1.75 by three, then 1.75 + (N − 3)/8.
pub const WORLD_FOOTBALL: f64 = 1.0;
/// ln(1 + N)/ln 2 (1 at N = 1), times the autocorrelation correction 2.2/(0.001·Δ + 2.2) with
/// Δ the winner's rating lead (side advantage included), as FiveThirtyEight's NFL Elo: a
/// favourite's big win is expected, and moves less.
pub const LOG: f64 = 2.0;
/// √N (1 at N = 1).
pub const SQRT: f64 = 3.0;

/// The multiplier for a match won by `difference` goals (0: a draw), where the winner led by
/// `winner_lead` rating points going in. Without a score (`None`) it is 1.
pub fn multiplier(option: f64, difference: Option<u32>, winner_lead: f64) -> f64 {
    let Some(n) = difference else {
        return 1.0;
    };
    let n = f64::from(n.max(1));
    let m = if option == WORLD_FOOTBALL {
        match n as u32 {
            0 | 1 => 1.0,
            2 => 1.5,
            _ => 1.75 + (n - 3.0) / 8.0,
        }
    } else if option == LOG {
        let lead = if winner_lead.is_finite() {
            winner_lead
        } else {
            0.0
        };
        // The correction's denominator stays positive for any lead above −2200 points; leads
        // below that are held there (a rating scale this wide is past any real ladder).
        let correction = 2.2 / (0.001 * lead.max(-1100.0) + 2.2);
        (1.0 + n).ln() / std::f64::consts::LN_2 * correction
    } else if option == SQRT {
        n.sqrt()
    } else {
        1.0
    };
    if m.is_finite() { m } else { 1.0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each option by hand.
    ///   World Football Elo: N = 1 → 1, 2 → 1.5, 3 → 1.75, 4 → 1.875, 6 → 2.125.
    ///   log: N = 3, lead 0 → ln 4/ln 2 = 2; lead 200 → 2·2.2/(0.2 + 2.2) = 1.8333333;
    ///        lead −200 (an upset) → 2·2.2/2.0 = 2.2.
    ///   √N: N = 4 → 2; a draw counts as N = 1 → 1.
    #[test]
    fn multipliers_by_hand() {
        let wfe = |n| multiplier(WORLD_FOOTBALL, Some(n), 0.0);
        assert_eq!(
            [wfe(0), wfe(1), wfe(2), wfe(3), wfe(4), wfe(6)],
            [1.0, 1.0, 1.5, 1.75, 1.875, 2.125]
        );
        assert!((multiplier(LOG, Some(3), 0.0) - 2.0).abs() < 1e-12);
        assert!((multiplier(LOG, Some(3), 200.0) - 1.833_333_3).abs() < 1e-7);
        assert!((multiplier(LOG, Some(3), -200.0) - 2.2).abs() < 1e-12);
        assert!((multiplier(LOG, Some(1), 0.0) - 1.0).abs() < 1e-12);
        assert_eq!(multiplier(SQRT, Some(4), 0.0), 2.0);
        assert_eq!(multiplier(SQRT, Some(0), 0.0), 1.0);
        for option in [NONE, WORLD_FOOTBALL, LOG, SQRT] {
            assert_eq!(multiplier(option, None, 123.0), 1.0);
        }
        assert_eq!(multiplier(NONE, Some(9), 0.0), 1.0);
        assert!(multiplier(LOG, Some(1000), -1e308).is_finite());
    }
}
