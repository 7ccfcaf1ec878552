//! A player's history as plot series: rating with its uncertainty band, and the shown score.

use super::decimate::decimate_indices;
use super::markers::{LogIndex, Marker, MarkerKind};
use super::x::{Key, XMode, date_x};
use rungs_ladder::event::PlayerId;
use rungs_ladder::rules::System;
use rungs_ladder::state::HistoryRow;
use std::ops::Range;

// The per-system facts below are read from `ladder::systems`, their one home.

/// How many deviations either side of the rating the band spans (r ± 1.96·RD, μ ± 3σ), or
/// `None` for a system without uncertainty.
pub fn band_factor(system: System) -> Option<f64> {
    system.facts().band.map(|b| b.factor)
}

/// The band's legend name.
pub fn band_label(system: System) -> Option<&'static str> {
    system.facts().band.map(|b| b.label)
}

/// The rating axis's name.
pub fn rating_axis(system: System) -> &'static str {
    system.facts().rating
}

/// The shown score's axis name: Rank Points, AllegSkill's shown rank, else the rating.
pub fn score_axis(system: System) -> &'static str {
    system.facts().score
}

/// Whether the score is the rating itself (a second plot would repeat the first).
pub fn score_is_rating(system: System) -> bool {
    system.facts().score_is_rating
}

/// Which event made a history row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    Join,
    Match,
    /// A reset, migration or change of system: the marker of that event.
    Marked(MarkerKind),
}

/// One history row placed on the x-axis.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowPoint {
    pub row: HistoryRow,
    pub x: f64,
    pub kind: RowKind,
    /// The system the row's figures are in.
    pub system: System,
}

/// The band around the rating: lower and upper edges at the same x as the rating.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Band {
    pub lower: Vec<[f64; 2]>,
    pub upper: Vec<[f64; 2]>,
}

/// A run of rows under one system (a change of system changes units, so the curves break).
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    pub system: System,
    /// The rows of [`PlayerSeries::points`] it covers.
    pub rows: Range<usize>,
    pub rating: Vec<[f64; 2]>,
    /// `None` where the system has no uncertainty.
    pub band: Option<Band>,
    pub score: Vec<[f64; 2]>,
}

impl Segment {
    /// A copy thinned to `buckets` buckets of the visible x range `x_min..=x_max` (see
    /// [`super::decimate()`]). The rating and both band edges keep one shared set of rows —
    /// each bucket's first, last, and extremes of all three — so the band still encloses the
    /// line at every vertex; the score, on its own plot, keeps its own extremes.
    pub fn decimated(&self, x_min: f64, x_max: f64, buckets: usize) -> Segment {
        let xs: Vec<f64> = self.rating.iter().map(|p| p[0]).collect();
        let col = |v: &[[f64; 2]]| v.iter().map(|p| p[1]).collect::<Vec<f64>>();
        let rating = col(&self.rating);
        let keep = match &self.band {
            Some(b) => {
                let (lo, hi) = (col(&b.lower), col(&b.upper));
                decimate_indices(&xs, &[&rating, &lo, &hi], x_min, x_max, buckets)
            }
            None => decimate_indices(&xs, &[&rating], x_min, x_max, buckets),
        };
        let pick = |v: &[[f64; 2]], idx: &[usize]| idx.iter().map(|&i| v[i]).collect();
        let score_keep = decimate_indices(&xs, &[&col(&self.score)], x_min, x_max, buckets);
        Segment {
            system: self.system,
            rows: self.rows.clone(),
            rating: pick(&self.rating, &keep),
            band: self.band.as_ref().map(|b| Band {
                lower: pick(&b.lower, &keep),
                upper: pick(&b.upper, &keep),
            }),
            score: pick(&self.score, &score_keep),
        }
    }
}

/// One player's history, ready to plot.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerSeries {
    pub player: Option<PlayerId>,
    pub mode: XMode,
    /// Every row with finite figures, in replay order; x never decreases.
    pub points: Vec<RowPoint>,
    pub segments: Vec<Segment>,
    /// Keys of the rated matches, ascending (to place markers by match number).
    match_keys: Vec<Key>,
}

impl PlayerSeries {
    /// `rows` are one player's history rows (any order; replay order is restored);
    /// `index` the ladder's [`LogIndex`].
    pub fn new(rows: &[HistoryRow], index: &LogIndex, mode: XMode) -> PlayerSeries {
        let mut rows: Vec<HistoryRow> = rows
            .iter()
            .filter(|r| {
                let f = r.figures;
                [f.rating, f.deviation, f.score]
                    .iter()
                    .all(|v| v.is_finite())
            })
            .copied()
            .collect();
        rows.sort_by_key(|r| (r.date, r.seq));
        let mut points = Vec::with_capacity(rows.len());
        let mut match_keys = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let key = (row.date, row.seq);
            // The k-th row at a key is the k-th marked change there (a scheduled soft reset's
            // row, then the hard reset's on a season's last day).
            let earlier = rows[..i]
                .iter()
                .rev()
                .take_while(|r| (r.date, r.seq) == key)
                .count();
            let at = index.markers_at(key);
            let kind = match at.get(earlier).or(at.last()) {
                Some(m) => RowKind::Marked(m.kind),
                None if i == 0 => RowKind::Join,
                None => RowKind::Match,
            };
            if kind == RowKind::Match {
                match_keys.push(key);
            }
            let matches = match_keys.len() as f64;
            let x = match (mode, kind) {
                (XMode::Date, _) => date_x(row.date),
                (XMode::Match, RowKind::Join | RowKind::Match) => matches,
                (XMode::Match, RowKind::Marked(_)) => matches + 0.5,
            };
            let system = index.rules_at(key).system();
            points.push(RowPoint {
                row: *row,
                x,
                kind,
                system,
            });
        }
        let segments = segments(&points);
        PlayerSeries {
            player: rows.first().map(|r| r.player),
            mode,
            points,
            segments,
            match_keys,
        }
    }

    /// The same series on another x-axis (a ladder-wide one, say): every row's x from `x_of`,
    /// which must not decrease along the rows; the curves are rebuilt to match.
    pub fn with_x(mut self, x_of: impl Fn(&RowPoint) -> f64) -> PlayerSeries {
        for p in &mut self.points {
            p.x = x_of(p);
        }
        self.segments = segments(&self.points);
        self
    }

    /// Rated matches in the history.
    pub fn matches(&self) -> usize {
        self.match_keys.len()
    }

    /// Where `marker` goes on this player's x-axis: its date, or by match number just after
    /// the player's last match before it (the matches before it + 0.5).
    pub fn marker_x(&self, marker: &Marker) -> f64 {
        match self.mode {
            XMode::Date => marker.x_date,
            XMode::Match => {
                let key = marker.key();
                self.match_keys.partition_point(|k| *k < key) as f64 + 0.5
            }
        }
    }

    /// The markers to draw with their x: by date all of them; by match number only those
    /// from the player's join on (earlier ones would all pile up before the first match).
    pub fn placed_markers<'m>(&self, markers: &'m [Marker]) -> Vec<(f64, &'m Marker)> {
        let joined = self.points.first().map(|p| (p.row.date, p.row.seq));
        markers
            .iter()
            .filter(|m| self.mode == XMode::Date || joined.is_some_and(|j| m.key() >= j))
            .map(|m| (self.marker_x(m), m))
            .collect()
    }

    /// The row nearest to `x` (of several at the same x, the last: the day's end, or the
    /// state after a reset).
    pub fn nearest(&self, x: f64) -> Option<usize> {
        if self.points.is_empty() || x.is_nan() {
            return None;
        }
        let i = self.points.partition_point(|p| p.x <= x);
        let right = self.points.get(i).map(|p| p.x - x);
        let left = i.checked_sub(1).map(|j| x - self.points[j].x);
        match (left, right) {
            (Some(l), Some(r)) if r < l => Some(self.last_at(i)),
            (Some(_), _) => Some(i - 1),
            (None, Some(_)) => Some(self.last_at(i)),
            (None, None) => None,
        }
    }

    /// The last row sharing row `i`'s x.
    fn last_at(&self, i: usize) -> usize {
        let x = self.points[i].x;
        i + self.points[i..].iter().take_while(|p| p.x == x).count() - 1
    }
}

/// Splits the points into runs of one system and builds each run's curves.
fn segments(points: &[RowPoint]) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut start = 0;
    for i in 1..=points.len() {
        if i == points.len() || points[i].system != points[start].system {
            out.push(segment(points, start..i));
            start = i;
        }
    }
    out
}

fn segment(points: &[RowPoint], rows: Range<usize>) -> Segment {
    let system = points[rows.start].system;
    let run = &points[rows.clone()];
    let at = |f: &dyn Fn(&RowPoint) -> f64| run.iter().map(|p| [p.x, f(p)]).collect();
    let band = band_factor(system).map(|k| {
        // A negative deviation cannot come from the rating math; clamping it keeps the
        // edges ordered (lower ≤ rating ≤ upper) for the fill.
        let spread = |p: &RowPoint| k * p.row.figures.deviation.max(0.0);
        Band {
            lower: at(&|p| p.row.figures.rating - spread(p)),
            upper: at(&|p| p.row.figures.rating + spread(p)),
        }
    });
    Segment {
        system,
        rating: at(&|p| p.row.figures.rating),
        band,
        score: at(&|p| p.row.figures.score),
        rows,
    }
}
