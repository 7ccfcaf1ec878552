//! The count axis's whole-number ticks and the view of a parameter's log-loss curve.

use rungs_chart::ticks::{count_marks, curve_view, nice_marks, spaced_marks};

/// A count axis ticks at whole numbers only: three players in the top tier get 0, 1, 2, 3
/// (max 3 over at most 5 steps: 3 / 5 = 0.6, rounded up to the least step of 1), never a
/// lone "0" or a 0.5.
#[test]
fn a_count_axis_ticks_whole_numbers() {
    let values = |m: Vec<[f64; 2]>| m.into_iter().map(|[v, _]| v).collect::<Vec<f64>>();
    assert_eq!(values(count_marks(3.0, 5)), [0.0, 1.0, 2.0, 3.0]);
    // 1,234 players over at most 5 steps: 246.8 → a step of 500, 0 to 1,500.
    assert_eq!(values(count_marks(1234.0, 5)), [0.0, 500.0, 1000.0, 1500.0]);
    assert!(
        count_marks(1234.0, 5)
            .iter()
            .all(|[_, step]| *step == 500.0)
    );
    // Nobody counted, or a count that is not one: still an axis from 0 to 1.
    assert_eq!(values(count_marks(0.0, 5)), [0.0, 1.0]);
    assert_eq!(values(count_marks(f64::NAN, 5)), [0.0, 1.0]);
    assert_eq!(values(count_marks(7.0, 0)), [0.0, 10.0]);
    // Huge counts: a handful of marks, not millions.
    assert!(count_marks(1e300, 5).len() <= 6);
}

/// Tune's "log-loss vs Lowest RD": a parameter that changes nothing gives a flat curve, shown
/// around its value (0.5912 ± 0.005912) on an x axis from the curve's first RD to its last,
/// not a y axis as tall as the x axis is wide running below 0.
#[test]
fn a_flat_curve_is_shown_around_its_value_within_the_parameters_range() {
    let curve: Vec<[f64; 2]> = [1.0, 1.78, 3.16, 5.62, 10.0]
        .iter()
        .map(|&x| [x, 0.5912])
        .collect();
    let v = curve_view(&curve, 1.0).expect("a view");
    assert!(v.flat);
    assert_eq!(v.x, [1.0, 10.0]);
    assert!((v.y[0] - 0.585288).abs() < 1e-12 && (v.y[1] - 0.597112).abs() < 1e-12);
    // A curve that moves: a tenth of its spread either side (0.60 to 0.62: 0.598 to 0.622).
    let moving = [[20.0, 0.62], [30.0, 0.60], [40.0, 0.61]];
    let v = curve_view(&moving, 1.0).expect("a view");
    assert!(!v.flat);
    assert_eq!(v.x, [20.0, 40.0]);
    assert!((v.y[0] - 0.598).abs() < 1e-12 && (v.y[1] - 0.622).abs() < 1e-12);
    // One point at the floor: the range goes up from it, not below it (1 ± 1, held at 1).
    let v = curve_view(&[[1.0, 0.7]], 1.0).expect("a view");
    assert_eq!(v.x, [1.0, 2.0]);
    // Nothing finite: nothing to show.
    assert_eq!(
        curve_view(&[[f64::NAN, 0.5], [1.0, f64::INFINITY]], 0.0),
        None
    );
}

/// A rating histogram from 370 to 1,930 over at most 6 marks: (1,930 − 370) / 6 = 260, up to
/// a step of 500: 500, 1,000, 1,500 — not "1000" alone.
#[test]
fn a_value_axis_gets_round_marks_across_its_range() {
    let values: Vec<f64> = nice_marks(370.0, 1930.0, 6).iter().map(|m| m[0]).collect();
    assert_eq!(values, [500.0, 1000.0, 1500.0]);
    let values: Vec<f64> = nice_marks(-0.3, 0.3, 4).iter().map(|m| m[0]).collect();
    assert_eq!(values, [-0.2, 0.0, 0.2]);
    assert!(nice_marks(1.0, 1.0, 5).is_empty());
    assert!(nice_marks(f64::NAN, 1.0, 5).is_empty());
}

/// Marks with room for their labels: the smallest 1-2-5 step at least the room asked for,
/// and two marks at the least. Calibration's 0 to 1 (with egui's margin, −0.05 to 1.05) in
/// a 250-point plot, 48 points a label: 48 × 1.1 / 250 = 0.21, up to 0.5; in 500 points,
/// 0.105, up to 0.2. Ratings from 1,420 to 1,580 wanting 120 a mark: a step of 200 leaves
/// 1,500 alone, so half the range (80) down to 50.
#[test]
fn marks_get_room_for_their_labels_and_are_never_one() {
    let values =
        |lo, hi, least| -> Vec<f64> { spaced_marks(lo, hi, least).iter().map(|m| m[0]).collect() };
    assert_eq!(values(-0.05, 1.05, 0.2112), [0.0, 0.5, 1.0]);
    let fifths = values(-0.05, 1.05, 0.1056);
    assert_eq!(fifths.len(), 6);
    for (got, want) in fifths.iter().zip([0.0, 0.2, 0.4, 0.6, 0.8, 1.0]) {
        assert!((got - want).abs() < 1e-12, "{fifths:?}");
    }
    assert_eq!(values(1420.0, 1580.0, 120.0), [1450.0, 1500.0, 1550.0]);
    assert_eq!(values(400.0, 1900.0, 300.0), [500.0, 1000.0, 1500.0]);
    // A range narrower than the step asked for still gets two marks or more: 20 to 90 asking
    // for 500 gets the largest step at most half of 70 (35), 20.
    assert_eq!(values(20.0, 90.0, 500.0), [20.0, 40.0, 60.0, 80.0]);
    assert!(spaced_marks(1.0, 1.0, 5.0).is_empty());
    assert!(spaced_marks(f64::NAN, 1.0, 5.0).is_empty());
    // A step too fine to count out falls back to half the range: 0, 5e299, 1e300.
    assert_eq!(spaced_marks(0.0, 1e300, f64::MIN_POSITIVE).len(), 3);
}
