//! Thinning a long series to what a plot of a given width can show, keeping its shape.
//!
//! The visible x range is cut into equal buckets; each bucket keeps its first and last point
//! and the points holding each column's minimum and maximum, in x order. So peaks and troughs
//! survive at any zoom, a flat run stays a straight line, and the thinned line passes through
//! the same extremes as the full one. The nearest point outside the range on either side is
//! kept too, so the line runs on to the plot's edges.

/// The indices to keep of a series with x values `x` (non-decreasing) and value columns
/// `columns` (each as long as `x`; a bucket a shorter one does not cover ignores it), for the visible
/// range `x_min..=x_max` cut into `buckets` buckets (at least 1). At most
/// `(2 + 2·columns)·buckets + 2` indices, ascending. A range that is not finite or is
/// reversed is taken from the data.
pub fn decimate_indices(
    x: &[f64],
    columns: &[&[f64]],
    x_min: f64,
    x_max: f64,
    buckets: usize,
) -> Vec<usize> {
    let n = x.len();
    let buckets = buckets.max(1);
    let (x_min, x_max) = range(x, x_min, x_max);
    let lo = x.partition_point(|&v| v < x_min);
    let hi = x.partition_point(|&v| v <= x_max);
    let mut keep = Vec::new();
    if lo > 0 {
        keep.push(lo - 1);
    }
    let per_bucket = 2 + 2 * columns.len();
    if hi.saturating_sub(lo) <= per_bucket * buckets {
        keep.extend(lo..hi);
    } else {
        let width = x_max - x_min;
        let bucket_of = |v: f64| {
            let b = if width > 0.0 {
                ((v - x_min) / width * buckets as f64).floor()
            } else {
                0.0
            };
            (b.max(0.0) as usize).min(buckets - 1)
        };
        let mut start = lo;
        while start < hi {
            let b = bucket_of(x[start]);
            let mut end = start + 1;
            while end < hi && bucket_of(x[end]) == b {
                end += 1;
            }
            bucket(start..end, columns, &mut keep);
            start = end;
        }
    }
    if hi < n && hi >= lo {
        keep.push(hi);
    }
    keep
}

/// One bucket's first, last, and per-column extremes, ascending and without repeats.
fn bucket(range: std::ops::Range<usize>, columns: &[&[f64]], keep: &mut Vec<usize>) {
    let mut chosen = vec![range.start, range.end - 1];
    for col in columns {
        let values = col.get(range.clone()).unwrap_or_default();
        let finite = values.iter().enumerate().filter(|(_, v)| v.is_finite());
        let min = finite.clone().min_by(|a, b| a.1.total_cmp(b.1));
        let max = finite.max_by(|a, b| a.1.total_cmp(b.1));
        chosen.extend(min.map(|(i, _)| range.start + i));
        chosen.extend(max.map(|(i, _)| range.start + i));
    }
    chosen.sort_unstable();
    chosen.dedup();
    keep.extend(chosen);
}

/// The visible range, or the data's own where the given one is unusable.
fn range(x: &[f64], x_min: f64, x_max: f64) -> (f64, f64) {
    if x_min.is_finite() && x_max.is_finite() && x_min <= x_max {
        return (x_min, x_max);
    }
    let first = x.first().copied().unwrap_or(0.0);
    let last = x.last().copied().unwrap_or(0.0);
    (first.min(last), first.max(last))
}

/// [`decimate_indices`] for one `[x, y]` series: at most `4·buckets + 2` points.
pub fn decimate(points: &[[f64; 2]], x_min: f64, x_max: f64, buckets: usize) -> Vec<[f64; 2]> {
    let xs: Vec<f64> = points.iter().map(|p| p[0]).collect();
    let ys: Vec<f64> = points.iter().map(|p| p[1]).collect();
    decimate_indices(&xs, &[&ys], x_min, x_max, buckets)
        .into_iter()
        .map(|i| points[i])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_series_are_kept_whole() {
        let pts: Vec<[f64; 2]> = (0..10).map(|i| [i as f64, (i * i) as f64]).collect();
        assert_eq!(decimate(&pts, 0.0, 9.0, 5), pts);
    }

    #[test]
    fn points_just_outside_are_kept() {
        let pts: Vec<[f64; 2]> = (0..1000).map(|i| [i as f64, (i % 7) as f64]).collect();
        let out = decimate(&pts, 100.5, 200.5, 4);
        assert_eq!(out.first(), Some(&[100.0, 2.0]));
        assert_eq!(out.last(), Some(&[201.0, 5.0]));
        assert!(out.len() <= 4 * 4 + 2);
    }

    #[test]
    fn a_range_beside_the_data_keeps_the_nearest_point() {
        let pts: Vec<[f64; 2]> = (0..100).map(|i| [i as f64, 0.0]).collect();
        assert_eq!(decimate(&pts, 500.0, 600.0, 4), vec![[99.0, 0.0]]);
        assert_eq!(decimate(&pts, -60.0, -50.0, 4), vec![[0.0, 0.0]]);
        assert!(decimate(&[], 0.0, 1.0, 4).is_empty());
    }

    #[test]
    fn unusable_ranges_use_the_data() {
        let pts: Vec<[f64; 2]> = (0..10_000).map(|i| [i as f64, (i % 13) as f64]).collect();
        let out = decimate(&pts, f64::NAN, 5.0, 10);
        assert!(out.len() <= 42 && out.len() > 10);
        assert_eq!(out.first(), pts.first());
        assert_eq!(out.last(), pts.last());
        let out = decimate(&pts, 9.0, 1.0, 0);
        assert!(out.len() <= 6);
    }
}
