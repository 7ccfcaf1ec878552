//! Ladder-wide charts: players per tier, and the distribution of ratings or scores.

use rungs_ladder::replay::Ladder;
use rungs_ladder::rules::Rules;
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::standings::{Standing, standings};
use rungs_ladder::state::Figures;

/// No automatic histogram has more bins than this: past it bars are thinner than a pixel.
const MAX_AUTO_BINS: usize = 200;
/// A width the caller gives is widened if it would make more bins than this.
const MAX_BINS: usize = 2_000;

/// How many players stand in one tier.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TierCount {
    pub tier: Tier,
    pub count: usize,
}

/// Players per tier, every tier of Table 1 lowest first (empty ones with 0), Grandweaver as
/// the standings decide it. Only Skyweaver has tiers: for other systems the list is empty
/// and the rating histogram says what a tier chart would.
pub fn tier_counts(ladder: &Ladder) -> Vec<TierCount> {
    count_tiers(&ladder.rules, &standings(ladder))
}

/// [`tier_counts`] from standings already computed for the ladder running `rules`.
pub fn count_tiers(rules: &Rules, rows: &[Standing]) -> Vec<TierCount> {
    if !rules.facts().tiers {
        return Vec::new();
    }
    let mut counts: Vec<TierCount> = Tier::ALL
        .iter()
        .map(|&tier| TierCount { tier, count: 0 })
        .collect();
    for tier in rows.iter().filter_map(|s| s.tier) {
        counts[tier as usize].count += 1;
    }
    counts
}

/// Equal-width bins: bin `i` holds values in `[start + i·width, start + (i+1)·width)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Histogram {
    pub start: f64,
    /// Always finite and positive.
    pub width: f64,
    pub counts: Vec<usize>,
}

impl Histogram {
    /// Each bin's centre and count.
    pub fn bins(&self) -> impl Iterator<Item = (f64, usize)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .map(|(i, &c)| (self.start + (i as f64 + 0.5) * self.width, c))
    }

    /// Values counted.
    pub fn total(&self) -> usize {
        self.counts.iter().sum()
    }
}

/// A histogram of `values` (non-finite ones are left out). `width`: the bin width, or
/// `None` (or an unusable one) for Freedman–Diaconis, 2·IQR/∛n, at most the range over
/// Sturges's ⌈log2 n⌉ + 1 bins, rounded up to 1, 2 or 5 times a power of ten; where the spread says nothing (fewer than four values, or a zero
/// IQR) about √n bins over the range, or for one distinct value a width of a thirtieth of
/// its size (50 around 1500, 1 around 25). Bins start at a multiple of the width.
pub fn histogram(values: &[f64], width: Option<f64>) -> Histogram {
    let mut v: Vec<f64> = values.iter().copied().filter(|x| x.is_finite()).collect();
    v.sort_by(f64::total_cmp);
    let (Some(&min), Some(&max)) = (v.first(), v.last()) else {
        return Histogram {
            start: 0.0,
            width: width.filter(|w| w.is_finite() && *w > 0.0).unwrap_or(1.0),
            counts: Vec::new(),
        };
    };
    let range = max - min;
    let (width, cap) = match width.filter(|w| w.is_finite() && *w > 0.0) {
        Some(w) => (w, MAX_BINS),
        None => (auto_width(&v, range), MAX_AUTO_BINS),
    };
    let width = if range / width > cap as f64 {
        nice_up(range / cap as f64)
    } else {
        width
    };
    let start = (min / width).floor() * width;
    let span = ((max - start) / width).floor();
    let bins = if span.is_finite() && span < cap as f64 {
        span as usize + 1
    } else {
        cap + 1
    };
    let mut counts = vec![0usize; bins];
    for x in v {
        let i = (((x - start) / width).floor().max(0.0) as usize).min(bins - 1);
        counts[i] += 1;
    }
    Histogram {
        start,
        width,
        counts,
    }
}

fn auto_width(sorted: &[f64], range: f64) -> f64 {
    let n = sorted.len();
    let quantile = |q: f64| {
        let pos = q * (n - 1) as f64;
        let (i, f) = (pos.floor() as usize, pos.fract());
        let next = sorted.get(i + 1).copied().unwrap_or(sorted[i]);
        sorted[i] + f * (next - sorted[i])
    };
    let iqr = quantile(0.75) - quantile(0.25);
    let raw = if n >= 4 && iqr > 0.0 {
        // Freedman–Diaconis, but never wider than Sturges's ⌈log2 n⌉ + 1 bins across the
        // range: for a club FD's width, rounded up, left two bins (12 players from 1,225 to
        // 1,673: 2·266/∛12 = 232, up to 500, bins 1,000–1,500 and 1,500–2,000).
        let fd = 2.0 * iqr / (n as f64).cbrt();
        let sturges = (n as f64).log2().ceil() + 1.0;
        if range > 0.0 {
            fd.min(range / sturges)
        } else {
            fd
        }
    } else if range > 0.0 {
        range / (n as f64).sqrt().ceil()
    } else {
        sorted[0].abs().max(1.0) / 30.0
    };
    nice_up(raw)
}

/// The smallest of 1, 2, 5 × 10^k at or above `x` (1 for anything unusable).
pub fn nice_up(x: f64) -> f64 {
    if !x.is_finite() || x <= 0.0 {
        return 1.0;
    }
    let p = 10f64.powf(x.log10().floor());
    let nice = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * p)
        .find(|v| *v >= x * (1.0 - 1e-12))
        .unwrap_or(10.0 * p);
    if nice.is_finite() && nice > 0.0 {
        nice
    } else {
        1.0
    }
}

/// The joined players' figure picked by `of` (e.g. `|f| f.rating`).
pub fn player_values(ladder: &Ladder, of: impl Fn(&Figures) -> f64) -> Vec<f64> {
    let centre = ladder.centre();
    ladder
        .players
        .iter()
        .filter(|p| p.joined)
        .map(|p| of(&p.figures_at(centre)))
        .collect()
}

/// The distribution of the joined players' ratings as the standings show them (r, rating in
/// Glicko units, μ, Elo).
pub fn rating_histogram(ladder: &Ladder, width: Option<f64>) -> Histogram {
    histogram(&player_values(ladder, |f| f.rating), width)
}

/// The distribution of the joined players' shown scores (RP, rank, rating).
pub fn score_histogram(ladder: &Ladder, width: Option<f64>) -> Histogram {
    histogram(&player_values(ladder, |f| f.score), width)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_widths() {
        assert_eq!(nice_up(37.0), 50.0);
        assert_eq!(nice_up(50.0), 50.0);
        assert_eq!(nice_up(0.83), 1.0);
        assert_eq!(nice_up(120.0), 200.0);
        assert_eq!(nice_up(f64::NAN), 1.0);
        assert_eq!(nice_up(0.0), 1.0);
    }

    #[test]
    fn empty_and_single_values() {
        let h = histogram(&[], None);
        assert_eq!((h.total(), h.width), (0, 1.0));
        let h = histogram(&[1500.0], None);
        assert_eq!(h.counts, vec![1]);
        assert_eq!(h.width, 50.0);
        assert_eq!(h.start, 1500.0);
        let h = histogram(&[25.0, 25.0, f64::NAN], None);
        assert_eq!((h.counts.clone(), h.width), (vec![2], 1.0));
    }

    /// A club's 12 ratings from 1,225 to 1,673, quartiles 1,357.5 and 1,623.5 (interpolated):
    /// Freedman–Diaconis gives 2 × 266 / ∛12 = 232, up to 500: two bins, 1,000–1,500 and
    /// 1,500–2,000, six players each. Sturges's ⌈log2 12⌉ + 1 = 5 bins over the 448 of
    /// range: 89.6, up to 100; bins from 1,200 to 1,700.
    #[test]
    fn a_clubs_ratings_get_more_than_two_bins() {
        let ratings = [
            1638.0, 1634.0, 1673.0, 1522.0, 1587.0, 1620.0, 1433.0, 1490.0, 1368.0, 1326.0, 1288.0,
            1225.0,
        ];
        let h = histogram(&ratings, None);
        assert_eq!((h.width, h.start), (100.0, 1200.0));
        assert_eq!(h.counts, vec![2, 2, 2, 2, 4]);
    }

    #[test]
    fn a_huge_range_is_capped() {
        let h = histogram(&[0.0, 1.0, 2.0, 1e9], Some(1.0));
        assert!(h.counts.len() <= MAX_BINS + 1);
        assert_eq!(h.total(), 4);
        let h = histogram(&[0.0, 1e-9, 2e-9, 3e-9, 1e9], None);
        assert!(h.counts.len() <= MAX_AUTO_BINS + 1);
    }
}
