//! Plots the screens share: the ladder-wide charts (players per tier, a bar chart in tier
//! colours, and the distribution of ratings, a histogram — both draw whatever ladder they
//! are given, so on the Replay screen they follow the timeline), the plotted players'
//! colours, the tier lines' names, and a calibration plot.

use super::widgets;
use eframe::egui::{self, Color32};
use egui_plot::{Bar, BarChart, Line, Plot, PlotPoints, PlotUi, Points};
use rungs_analysis::evaluate::Bin;
use rungs_chart::distribution;
use rungs_chart::series::rating_axis;
use rungs_chart::tier_lines;
use rungs_ladder::replay::Ladder;
use rungs_ladder::standings::Standing;

/// The charts for `ladder`, whose standings (tiers included) are `rows`.
pub fn ladder_wide(ui: &mut egui::Ui, ladder: &Ladder, rows: &[Standing]) {
    let tiers = distribution::count_tiers(&ladder.rules, rows);
    let hist = distribution::rating_histogram(ladder, None);
    let height = (ui.available_height() - 30.0).clamp(160.0, 420.0);
    ui.columns(if tiers.is_empty() { 1 } else { 2 }, |cols| {
        if !tiers.is_empty() {
            let ui = &mut cols[0];
            ui.strong("Players per tier");
            // Horizontal bars, highest tier on top: every tier's name fits beside its bar.
            let bars: Vec<Bar> = tiers
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    Bar::new(i as f64, t.count as f64)
                        .width(0.8)
                        .name(t.tier.name())
                        .fill(widgets::tier_colour(t.tier))
                })
                .collect();
            let names: Vec<&'static str> = tiers.iter().map(|t| t.tier.name()).collect();
            let count = names.len();
            // Players are counted whole: ticks at whole numbers from 0 to a labelled count at
            // or above the largest bar (egui's own ticks could leave a lone "0").
            let most = tiers.iter().map(|t| t.count).max().unwrap_or(0) as f64;
            let room = ((ui.available_width() - 90.0) / 60.0).clamp(2.0, 8.0) as usize;
            let marks = rungs_chart::ticks::count_marks(most, room);
            // The last mark, and a little room past it: a full tier (100 Grandweavers, the
            // last mark 100) does not run into the plot's edge.
            let top = marks.last().map_or(1.0, |m| m[0] + m[1] * 0.1);
            Plot::new("tiers-chart")
                .height(height)
                .allow_scroll(false)
                .x_axis_label("players")
                .default_x_bounds(0.0, top)
                .default_y_bounds(-0.6, count as f64 - 0.4)
                .x_grid_spacer(move |_| {
                    marks
                        .iter()
                        .map(|&[value, step_size]| egui_plot::GridMark { value, step_size })
                        .collect()
                })
                .x_axis_formatter(|mark, _| widgets::thousands(mark.value.round() as u64))
                .y_grid_spacer(move |_| {
                    // Every other tier, from the highest, marked as a coarser step: where the
                    // plot is too short to name all twelve (a 420-px window), egui names those.
                    (0..count)
                        .map(|i| egui_plot::GridMark {
                            value: i as f64,
                            step_size: if (count - 1 - i).is_multiple_of(2) {
                                2.0
                            } else {
                                1.0
                            },
                        })
                        .collect()
                })
                .y_axis_formatter(move |mark, _| {
                    let i = mark.value.round();
                    match names.get(i as usize) {
                        Some(n) if (mark.value - i).abs() < 1e-9 && i >= 0.0 => n.to_string(),
                        _ => String::new(),
                    }
                })
                .y_axis_min_width(90.0)
                .show(ui, |p| {
                    p.bar_chart(BarChart::new("players per tier", bars).horizontal())
                });
        }
        let ui = cols.last_mut().map(|c| &mut *c);
        let Some(ui) = ui else { return };
        ui.strong(format!(
            "Rating distribution ({} players, bins of {})",
            widgets::thousands(hist.total() as u64),
            hist.width
        ));
        let bars: Vec<Bar> = hist
            .bins()
            .map(|(x, n)| {
                Bar::new(x, n as f64)
                    .width(hist.width * 0.95)
                    .fill(egui::Color32::from_rgb(70, 140, 230).gamma_multiply(0.6))
            })
            .collect();
        // Round marks across the ratings shown, about one per 80 points of width (egui's own
        // labelled only its coarsest step: "1000" alone under a 400 to 1,900 histogram).
        let room = (ui.available_width() / 80.0).clamp(2.0, 12.0) as usize;
        Plot::new("rating-histogram")
            .height(height)
            .allow_scroll(false)
            .x_grid_spacer(move |input| {
                rungs_chart::ticks::nice_marks(input.bounds.0, input.bounds.1, room)
                    .into_iter()
                    .map(|[value, step_size]| egui_plot::GridMark { value, step_size })
                    .collect()
            })
            .x_axis_label(rating_axis(ladder.rules.system()))
            .y_axis_label("players")
            .show(ui, |p| p.bar_chart(BarChart::new("players", bars)));
    });
}

/// Player colours, in the order players are added.
const PALETTE: [Color32; 8] = [
    Color32::from_rgb(70, 140, 230),
    Color32::from_rgb(230, 120, 50),
    Color32::from_rgb(80, 180, 90),
    Color32::from_rgb(200, 70, 160),
    Color32::from_rgb(220, 190, 60),
    Color32::from_rgb(60, 190, 190),
    Color32::from_rgb(160, 110, 220),
    Color32::from_rgb(200, 80, 80),
];

pub fn colour(i: usize) -> Color32 {
    PALETTE[i % PALETTE.len()]
}

/// The tier lines' names, right-aligned at the plot's right edge, only those in view and
/// with room between them (at a wide zoom the low tiers crowd together; the lines stay).
pub fn tier_labels(
    ui: &egui::Ui,
    transform: &egui_plot::PlotTransform,
    rules: &rungs_ladder::rules::Rules,
) {
    let rect = transform.frame();
    let painter = ui.painter_at(*rect);
    let font = egui::TextStyle::Small.resolve(ui.style());
    let height = ui.fonts_mut(|f| f.row_height(&font));
    let mut last_y = f32::NEG_INFINITY;
    // Highest first, from the top down: each name sits just above its line, and is left out
    // if it would overlap the name above.
    for line in tier_lines(rules).iter().rev() {
        let y = transform.position_from_point_y(line.value);
        if y < rect.top() + height || y > rect.bottom() || y - last_y < height + 2.0 {
            continue;
        }
        painter.text(
            egui::pos2(rect.right() - 4.0, y - 1.0),
            egui::Align2::RIGHT_BOTTOM,
            line.label,
            font.clone(),
            widgets::tier_colour(line.tier),
        );
        last_y = y;
    }
}

/// Predicted against observed by tenths of A's expected score, with the diagonal a perfectly
/// calibrated system would lie on. Both axes run 0 to 1 over the whole plot (held to equal
/// scales, the square took the middle third of a wide plot). Returns the bounds shown.
pub fn calibration_plot(
    ui: &mut egui::Ui,
    id: &str,
    bins: &[Bin],
    width: f32,
) -> egui_plot::PlotBounds {
    let points: Vec<[f64; 2]> = bins.iter().map(|b| [b.predicted, b.observed]).collect();
    Plot::new(id)
        .width(width)
        .height(160.0)
        .allow_scroll(false)
        .default_x_bounds(0.0, 1.0)
        .default_y_bounds(0.0, 1.0)
        // Tenths labelled every fifth (0, 0.2, … 1): egui's own marks labelled "0" alone.
        .x_grid_spacer(|_| fifths())
        .y_grid_spacer(|_| fifths())
        .x_axis_label("predicted")
        .y_axis_label("observed")
        .show(ui, |p| {
            p.line(Line::new(
                "calibrated",
                PlotPoints::from(vec![[0.0, 0.0], [1.0, 1.0]]),
            ));
            p.line(Line::new("observed", PlotPoints::from(points.clone())));
            p.points(Points::new("bins", points).radius(3.0));
        })
        .transform
        .bounds()
        .to_owned()
}

/// 0, 0.2, 0.4, … 1: the marks of an axis of shares.
fn fifths() -> Vec<egui_plot::GridMark> {
    rungs_chart::ticks::nice_marks(0.0, 1.0, 5)
        .into_iter()
        .map(|[value, step_size]| egui_plot::GridMark { value, step_size })
        .collect()
}

/// The wheel zooms the x-axis around the pointer (Ctrl+wheel still zooms both axes); the
/// wheel then moves nothing else (the page the plot is on stays where it is).
pub fn wheel_zoom(p: &mut PlotUi) {
    if !p.response().hovered() {
        return;
    }
    let (scroll, ctrl) = p
        .ctx()
        .input(|i| (i.smooth_scroll_delta.y, i.modifiers.command));
    if scroll != 0.0 && !ctrl {
        let factor = (scroll / 200.0).exp().clamp(0.5, 2.0);
        p.zoom_bounds_around_hovered(egui::vec2(factor, 1.0));
        p.ctx()
            .input_mut(|i| i.smooth_scroll_delta = egui::Vec2::ZERO);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::rc::Rc;

    /// A 320 × 160 calibration plot shows 0 to 1 across its whole width, not a square in
    /// its middle third.
    #[test]
    fn a_calibration_plot_uses_its_whole_width() {
        let shown = Rc::new(Cell::new(None));
        let seen = shown.clone();
        let bins: Vec<Bin> = (0..10)
            .map(|i| {
                let p = (f64::from(i) + 0.5) / 10.0;
                Bin {
                    from: f64::from(i) / 10.0,
                    to: f64::from(i + 1) / 10.0,
                    matches: 10,
                    predicted: p,
                    observed: p,
                }
            })
            .collect();
        let mut h = egui_kittest::Harness::new_ui(move |ui| {
            let b = calibration_plot(ui, "calibration", &bins, 320.0);
            seen.set(Some((b.min()[0], b.max()[0])));
        });
        h.run();
        let (lo, hi) = shown.get().expect("drawn");
        assert!(
            lo >= -0.15 && hi <= 1.15,
            "x shown from {lo:.2} to {hi:.2}: the plot's width is the 0 to 1 of predictions"
        );
    }
}
