//! History's curves: each plotted player's rating (with its band) and score thinned to the
//! plot's pixels and kept while the view stays, y following what is in view, and the reset,
//! migration and rules markers, thinned to the pixels too, with their labels where they fit.
//! The screen around them (the players, the axis, the cache of series) is `history.rs`.

use eframe::egui::{self, Color32};
use egui_plot::{Line, LineStyle, PlotPoint, PlotPoints, PlotUi, VLine};
use rungs_chart::series::band_label;
use rungs_chart::{BandMesh, PlayerSeries};
use std::sync::Arc;

/// One plotted player: their series under the file's rules and, with a comparison open,
/// under the other rules.
pub(crate) struct Plotted {
    pub(crate) name: String,
    pub(crate) colour: Color32,
    pub(crate) own: PlayerSeries,
    pub(crate) other: Option<PlayerSeries>,
}

/// Which of a player's curves a plot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Curve {
    /// The rating, with its band.
    Rating,
    /// The player-facing score.
    Score,
}

/// One plot's curves thinned to its view, kept while the view, the plot's width and the
/// series stay: a frame that changes none of them (a hover, a repaint) draws them as they
/// were instead of thinning every row of every player again.
#[derive(Default)]
pub(crate) struct Thinned {
    /// What they were thinned for: the visible x range (as bits: the NaN of a plot still
    /// fitting itself must equal itself) and the buckets.
    view: Option<(u64, u64, usize)>,
    curves: Vec<ThinnedCurve>,
    /// The lowest and highest value in view, for y to follow.
    seen: (f64, f64),
}

/// One segment's curve as drawn: its band (rating plot, file's rules) and its stepped line.
struct ThinnedCurve {
    name: String,
    colour: Color32,
    dashed: bool,
    band: Option<(String, Arc<BandMesh>)>,
    line: Vec<PlotPoint>,
}

/// Every plotted player's curve, thinned to the plot's pixels: under the file's rules solid
/// (the rating with its band), under the what-if rules dashed. `kept` holds the last view's.
pub(crate) fn draw_curves(
    p: &mut PlotUi,
    plotted: &[Plotted],
    curve: Curve,
    end: f64,
    kept: &mut Thinned,
) {
    let buckets = p.response().rect.width().max(50.0) as usize;
    let (x0, x1) = visible_x(p);
    let view = Some((x0.to_bits(), x1.to_bits(), buckets));
    if kept.view != view {
        *kept = thin(plotted, curve, end, x0, x1, buckets);
        kept.view = view;
    }
    for c in &kept.curves {
        if let Some((label, mesh)) = &c.band {
            p.add(
                super::plot_band::BandItem::from_mesh(label.clone(), mesh.clone())
                    .color(c.colour)
                    .fill_alpha(0.15)
                    .edges(egui::Stroke::new(0.5, c.colour.gamma_multiply(0.5))),
            );
        }
        // Already thinned to the pixels; egui_plot's own thinning would fill each
        // step into the next pixel column's as a trapezoid — a wedge across every gap.
        let line = Line::new(c.name.as_str(), PlotPoints::Owned(c.line.clone()))
            .color(c.colour)
            .width(1.5)
            .allow_band(false);
        p.line(if c.dashed {
            line.style(LineStyle::dashed_dense())
        } else {
            line
        });
    }
    let (lo, hi) = kept.seen;
    if lo.is_finite() && hi.is_finite() {
        let pad = ((hi - lo) * 0.08).max(5.0);
        let (lo, hi) = (lo - pad, hi + pad);
        let b = p.plot_bounds();
        let (was_lo, was_hi) = (b.min()[1], b.max()[1]);
        if (was_lo - lo).abs() > 0.5 || (was_hi - hi).abs() > 0.5 {
            p.set_plot_bounds_y(lo..=hi);
            // The bounds land after this frame: draw the next with them.
            p.ctx().request_repaint();
        }
    }
}

/// The curves of [`draw_curves`] thinned to `buckets` buckets of `x0..=x1`.
fn thin(plotted: &[Plotted], curve: Curve, end: f64, x0: f64, x1: f64, buckets: usize) -> Thinned {
    let mut curves = Vec::new();
    // What is in view, low and high: zoomed or panned along x, y follows it (the wheel zooms
    // x only, and a few weeks' curves flattened into a band at the whole history's scale).
    let mut seen = (f64::INFINITY, f64::NEG_INFINITY);
    let mut see = |pts: &[[f64; 2]]| {
        // The value held when the view opens counts: a step holds until the next event.
        let first = pts.iter().rposition(|[x, _]| *x <= x0).unwrap_or(0);
        for [x, y] in &pts[first..] {
            if *x > x1 {
                break;
            }
            seen = (seen.0.min(*y), seen.1.max(*y));
        }
    };
    for pl in plotted {
        let other_name = format!("{} (B)", pl.name);
        let runs = [
            (Some(&pl.own), pl.name.as_str(), false),
            (pl.other.as_ref(), other_name.as_str(), true),
        ];
        for (series, name, dashed) in runs {
            let Some(series) = series else { continue };
            for (k, full) in series.segments.iter().enumerate() {
                // Only the series' true last point holds on to `end` (a zoomed view's last
                // point may have later events after it).
                let full_end = match curve {
                    Curve::Rating => full.rating.last(),
                    Curve::Score => full.score.last(),
                }
                .map(|p| p[0]);
                let last_segment = k + 1 == series.segments.len();
                let seg = full.decimated(x0, x1, buckets);
                let band = seg
                    .band
                    .as_ref()
                    .filter(|_| curve == Curve::Rating && !dashed);
                let points = match curve {
                    Curve::Rating => &seg.rating,
                    Curve::Score => &seg.score,
                };
                if x0.is_finite() {
                    see(points);
                    if let Some(band) = band {
                        see(&band.lower);
                        see(&band.upper);
                    }
                }
                // Figures hold between a player's events, as the band does.
                let hold = if last_segment && points.last().map(|p| p[0]) == full_end {
                    end
                } else {
                    f64::NEG_INFINITY
                };
                curves.push(ThinnedCurve {
                    name: name.to_string(),
                    colour: pl.colour,
                    dashed,
                    // egui_plot names identify items: each player's band gets its own.
                    band: band.map(|band| {
                        let label = band_label(seg.system).unwrap_or("band");
                        (
                            format!("{name} {label}"),
                            Arc::new(super::plot_band::band_mesh(band, hold)),
                        )
                    }),
                    line: super::plot_band::stepped_to(points, hold)
                        .into_iter()
                        .map(PlotPoint::from)
                        .collect(),
                });
            }
        }
    }
    Thinned {
        view: None,
        curves,
        seen,
    }
}

/// The x range to thin the curves to. While the plot fits itself to its data (at first, and
/// after Reset view), the whole range: the bounds it is about to fit to are the data's own.
fn visible_x(p: &PlotUi) -> (f64, f64) {
    if p.auto_bounds().x {
        return (f64::NAN, f64::NAN);
    }
    let b = p.plot_bounds();
    (b.min()[0], b.max()[0])
}

/// Resets, migrations and rules changes as dashed vertical lines at `markers`' x (named by
/// [`marker_labels`] in screen space, so the names never widen the plot's bounds).
pub(crate) fn draw_markers(p: &mut PlotUi, markers: &[(f64, String)]) {
    let b = p.plot_bounds();
    let width = p.response().rect.width();
    for x in thinned(markers, b.min()[0], b.max()[0], width) {
        // One legend entry for all of them.
        p.vline(
            VLine::new("resets, migrations, rules", x)
                .color(Color32::GRAY.gamma_multiply(0.6))
                .style(LineStyle::dashed_loose()),
        );
    }
}

/// Pixels a marker line keeps clear on each side: closer ones are left out, so 150 years of
/// weekly resets are not a fence over the data; zooming in brings them back.
const MARKER_GAP_PX: f64 = 16.0;

/// The x of the markers in `x0..=x1` to draw on a plot `width` pixels wide: season ends,
/// migrations and rules changes first, then soft resets where there is room.
fn thinned(markers: &[(f64, String)], x0: f64, x1: f64, width: f32) -> Vec<f64> {
    let span = x1 - x0;
    // Bounds not known yet (the first frame): the whole range, thinned over the markers' own.
    let (x0, x1) = if span.is_finite() && span > 0.0 {
        (x0, x1)
    } else {
        let xs = markers.iter().map(|(x, _)| *x);
        let lo = xs.clone().fold(f64::INFINITY, f64::min);
        let hi = xs.fold(f64::NEG_INFINITY, f64::max);
        if !(lo.is_finite() && hi > lo) {
            return markers.iter().map(|(x, _)| *x).collect();
        }
        (lo, hi)
    };
    let span = x1 - x0;
    let gap = MARKER_GAP_PX * span / f64::from(width.max(1.0));
    let in_view = |x: &f64| (x0..=x1).contains(x);
    let mut kept: Vec<f64> = Vec::new();
    for soft_pass in [false, true] {
        for (x, label) in markers.iter().filter(|(x, _)| in_view(x)) {
            if label.starts_with("soft reset") != soft_pass {
                continue;
            }
            let at = kept.partition_point(|k| k < x);
            let clear = kept.get(at).is_none_or(|k| k - x >= gap)
                && at.checked_sub(1).is_none_or(|j| x - kept[j] >= gap);
            if clear {
                kept.insert(at, *x);
            }
        }
    }
    kept
}

/// The markers' names along the top of the plot, when few enough are in view to read: left
/// of the line near the right edge, right of it elsewhere; a name that would overlap the
/// one before is left out (its line stays, and the hover read-out names it).
pub(crate) fn marker_labels(
    ui: &egui::Ui,
    transform: &egui_plot::PlotTransform,
    markers: &[(f64, String)],
) {
    let rect = transform.frame();
    let visible: Vec<_> = markers
        .iter()
        .map(|(x, label)| (transform.position_from_point_x(*x), label))
        .filter(|(x, _)| rect.x_range().contains(*x))
        .collect();
    if visible.is_empty() || visible.len() > 12 {
        return;
    }
    let painter = ui.painter_at(*rect);
    let font = egui::TextStyle::Small.resolve(ui.style());
    let colour = ui.visuals().weak_text_color();
    let mut taken: Vec<egui::Rect> = Vec::new();
    for (x, label) in visible {
        let near_right = x > rect.right() - rect.width() * 0.3;
        let (pos, anchor) = if near_right {
            (
                egui::pos2(x - 3.0, rect.top() + 3.0),
                egui::Align2::RIGHT_TOP,
            )
        } else {
            (
                egui::pos2(x + 3.0, rect.top() + 3.0),
                egui::Align2::LEFT_TOP,
            )
        };
        let galley = painter.layout_no_wrap(label.clone(), font.clone(), colour);
        let mut at = anchor.anchor_size(pos, galley.size());
        // Markers close together stack their names downwards.
        while taken.iter().any(|t| t.intersects(at)) && at.bottom() < rect.bottom() - 20.0 {
            at = at.translate(egui::vec2(0.0, galley.size().y + 1.0));
        }
        if taken.iter().any(|t| t.intersects(at)) {
            continue;
        }
        painter.galley(at.min, galley, colour);
        taken.push(at);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_thin_to_the_plots_pixels_season_ends_first() {
        // 1000 weekly resets at x = 0, 1, …, 999 and a season end at 500.5, on a plot 600 px
        // wide showing 0..1000: one line per 16 px is one per 26.7 units.
        let mut markers: Vec<(f64, String)> = (0..1000)
            .map(|i| {
                (
                    f64::from(i),
                    "soft reset (season 1, week 2 ends)".to_string(),
                )
            })
            .collect();
        markers.push((500.5, "hard reset (season 1 ends)".to_string()));
        let kept = thinned(&markers, 0.0, 1000.0, 600.0);
        assert!(kept.contains(&500.5), "the season end is kept");
        let gap = MARKER_GAP_PX * 1000.0 / 600.0;
        assert!(kept.windows(2).all(|w| w[1] - w[0] >= gap), "{kept:?}");
        // 0, 27, …, 459, then 500.5, then 528, …, 988: 18 + 1 + 18.
        assert_eq!(kept.len(), 37, "{kept:?}");
        // Zoomed in to 0..30 on 600 px (a line per 0.8 unit) every one shows again.
        assert_eq!(thinned(&markers, 0.0, 30.0, 600.0).len(), 31);
    }
}
