//! Ranges and tick marks for the plots whose axes are not dates: an axis of whole counts
//! (players per tier), and the range to show a curve over a parameter's values in (Tune's
//! log-loss against each fitted parameter).

use super::distribution::nice_up;

/// The marks of an axis of whole counts from 0 to `max`, as `[value, step]`: the step is 1,
/// 2 or 5 × 10^k and never below 1 (a count has no half), the smallest that gives at most
/// `max_marks` steps (at least 1). The last mark is at or above `max`, so the axis ends on a
/// labelled count; with nothing counted the axis still runs 0 to 1.
pub fn count_marks(max: f64, max_marks: usize) -> Vec<[f64; 2]> {
    let max = if max.is_finite() && max > 0.0 {
        max
    } else {
        1.0
    };
    let step = nice_up(max / max_marks.max(1) as f64).max(1.0);
    let steps = (max / step).ceil().clamp(1.0, 1e6) as u32;
    (0..=steps).map(|k| [f64::from(k) * step, step]).collect()
}

/// The part of the plane to show a curve in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CurveView {
    /// From the curve's first x to its last, never below the axis's floor.
    pub x: [f64; 2],
    /// The curve's values with a margin; around the value when they are all the same.
    pub y: [f64; 2],
    /// Whether the curve is flat: every y the same to a part in 10^9 (the parameter changes
    /// nothing over the range shown).
    pub flat: bool,
}

/// The view of a curve of finite points `points` over an axis that cannot go below `floor`
/// (a deviation's floor of 1, a count's 0): x spans the points exactly, y has a tenth of its
/// spread either side. A flat curve gets ±1 % of its value (at least ±0.001) rather than a
/// range as tall as the x axis is wide. `None` without a finite point.
pub fn curve_view(points: &[[f64; 2]], floor: f64) -> Option<CurveView> {
    let finite: Vec<[f64; 2]> = points
        .iter()
        .copied()
        .filter(|p| p[0].is_finite() && p[1].is_finite())
        .collect();
    let fold = |i: usize| {
        finite
            .iter()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), p| {
                (lo.min(p[i]), hi.max(p[i]))
            })
    };
    if finite.is_empty() {
        return None;
    }
    let floor = if floor.is_finite() {
        floor
    } else {
        f64::NEG_INFINITY
    };
    let (x_lo, x_hi) = fold(0);
    let x = if x_hi > x_lo {
        [
            if x_lo.max(floor) < x_hi {
                x_lo.max(floor)
            } else {
                x_lo
            },
            x_hi,
        ]
    } else {
        // One value: a range around it, held above the floor.
        let pad = (x_lo.abs() * 0.1).max(1.0);
        let lo = (x_lo - pad).max(floor.min(x_lo));
        [lo, x_lo + pad]
    };
    let (y_lo, y_hi) = fold(1);
    let spread = y_hi - y_lo;
    let flat = spread <= 1e-9 * y_lo.abs().max(y_hi.abs()).max(1.0);
    let y = if flat {
        let mid = (y_lo + y_hi) / 2.0;
        let pad = (mid.abs() * 0.01).max(1e-3);
        [mid - pad, mid + pad]
    } else {
        [y_lo - spread * 0.1, y_hi + spread * 0.1]
    };
    let usable = |r: [f64; 2]| r[0].is_finite() && r[1].is_finite() && r[0] < r[1];
    (usable(x) && usable(y)).then_some(CurveView { x, y, flat })
}

/// Marks at the multiples of a step of 1, 2 or 5 × 10^k between `lo` and `hi`, as
/// `[value, step]`: the smallest step giving at most `max_marks` marks (at least 1). For an
/// axis egui would label only at its coarsest step (a rating histogram from 400 to 1,900
/// labelled "1000" alone). Empty for an unusable range.
pub fn nice_marks(lo: f64, hi: f64, max_marks: usize) -> Vec<[f64; 2]> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    multiples(lo, hi, nice_up((hi - lo) / max_marks.max(1) as f64))
}

/// Marks at the multiples of the smallest step of 1, 2 or 5 × 10^k that is at least
/// `least_step`, between `lo` and `hi`, as `[value, step]`; where that step leaves fewer than
/// two marks in the range, the largest such step that gives two (an axis marked once can
/// not be read: ratings from 1,420 to 1,580 with at least 120 between marks would be marked
/// "1500" alone, and get 1,450, 1,500 and 1,550). For an axis whose marks need room for their
/// labels: `least_step` is that room in the axis's own units. Empty for an unusable range.
pub fn spaced_marks(lo: f64, hi: f64, least_step: f64) -> Vec<[f64; 2]> {
    if !(lo.is_finite() && hi.is_finite() && hi > lo) {
        return Vec::new();
    }
    let marks = multiples(lo, hi, nice_up(least_step));
    if marks.len() >= 2 {
        return marks;
    }
    // The largest 1-2-5 step at most half the range has two multiples in it.
    multiples(lo, hi, nice_down((hi - lo) / 2.0))
}

/// The largest step of 1, 2 or 5 × 10^k at or below `x` (1 for an unusable `x`).
fn nice_down(x: f64) -> f64 {
    let up = nice_up(x);
    if up <= x * (1.0 + 1e-12) {
        return up;
    }
    // One 1-2-5 step below `up`: 10 → 5, 5 → 2, 2 → 1.
    let p = 10f64.powf(up.log10().floor());
    let lead = (up / p).round();
    let down = if lead >= 5.0 {
        2.0 * p
    } else if lead >= 2.0 {
        p
    } else {
        0.5 * p
    };
    if down.is_finite() && down > 0.0 {
        down
    } else {
        1.0
    }
}

/// The multiples of `step` from `lo` to `hi`, as `[value, step]`; none where they would be
/// more than 10,000.
fn multiples(lo: f64, hi: f64, step: f64) -> Vec<[f64; 2]> {
    let first = (lo / step).ceil();
    let last = (hi / step).floor();
    if !(last - first).is_finite() || last - first > 1e4 {
        return Vec::new();
    }
    (first as i64..=last as i64)
        .map(|k| [k as f64 * step, step])
        .collect()
}
