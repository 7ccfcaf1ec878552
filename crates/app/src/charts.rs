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
        // Round marks across the ratings shown, as many as have room for their labels and
        // never one alone (egui's own labelled only its coarsest step: "1000" alone under a
        // 400 to 1,900 histogram, and under a 12-player club's in a 560-point window).
        // Half a bin either side of the bars: the marks at their ends keep their labels whole
        // (at 560 points "2,000" ran off the window's edge).
        let ends = hist
            .bins()
            .map(|(x, _)| x)
            .fold(None, |e: Option<(f64, f64)>, x| {
                Some(e.map_or((x, x), |(lo, hi)| (lo.min(x), hi.max(x))))
            });
        let mut plot = Plot::new("rating-histogram");
        if let Some((first, last)) = ends {
            plot = plot.default_x_bounds(first - hist.width, last + hist.width);
        }
        plot.height(height)
            .allow_scroll(false)
            .custom_x_axes(vec![labelled_x_axis(rating_axis(ladder.rules.system()))])
            .x_grid_spacer(labelled_x_marks)
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
        // 0, 0.2, … 1 where the labels have room, else 0, 0.5, 1: egui's own marks labelled
        // "0" alone, and fifths across a 300-point plot were too close for egui to name.
        .custom_x_axes(vec![labelled_x_axis("predicted")])
        .x_grid_spacer(labelled_x_marks)
        .y_grid_spacer(|_| fifths())
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

/// egui_plot's least spacing of grid lines, in points, which every plot here keeps: a grid
/// spacer's `base_step_size` is that many points' worth of its axis.
const GRID_MIN_POINTS: f64 = 8.0;

/// The room an x mark's label takes, in points: "1,500" or "0.25" in the body font, with a
/// gap either side.
const X_LABEL_POINTS: f64 = 48.0;

/// The room a y mark's label takes, in points: a line of the body font and a gap.
const Y_LABEL_POINTS: f64 = 24.0;

/// Round x marks (1, 2 or 5 × 10^k apart) with room for their labels, two at the least.
pub fn labelled_x_marks(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    marks_with_room(input, X_LABEL_POINTS)
}

/// Round y marks with room for their labels, two at the least.
pub fn labelled_y_marks(input: egui_plot::GridInput) -> Vec<egui_plot::GridMark> {
    marks_with_room(input, Y_LABEL_POINTS)
}

/// Round marks whose labels take `room` points each (with a gap), two at the least.
pub fn marks_with_room(input: egui_plot::GridInput, room: f64) -> Vec<egui_plot::GridMark> {
    let least_step = room * input.base_step_size / GRID_MIN_POINTS;
    rungs_chart::ticks::spaced_marks(input.bounds.0, input.bounds.1, least_step)
        .into_iter()
        .map(|[value, step_size]| egui_plot::GridMark { value, step_size })
        .collect()
}

/// The y axis [`labelled_y_marks`] go with: every mark's label drawn in full (egui_plot
/// fades y labels closer than 30 points) and written to its step's places (egui's own wrote
/// 0.705, 0.710 and 0.715, a step of 0.005, as "0.70", "0.71", "0.71").
pub fn labelled_y_axis<'a>(label: impl Into<egui::WidgetText>) -> egui_plot::AxisHints<'a> {
    egui_plot::AxisHints::new_y()
        .label(label)
        .label_spacing(18.0..=20.0)
        .formatter(|mark, _| mark_text(mark.value, mark.step_size))
}

/// The x axis [`labelled_x_marks`] go with, named `label`: every mark's label drawn where it
/// fits (egui_plot names no x mark within 60 points of the next and fades those within 80,
/// so 0, 0.2, … 1 across 300 points went unnamed) and written to its step's places ("0.5",
/// not egui's "0" and "1" for a step of a half; "1,500").
pub fn labelled_x_axis<'a>(label: impl Into<egui::WidgetText>) -> egui_plot::AxisHints<'a> {
    egui_plot::AxisHints::new_x()
        .label(label)
        .label_spacing(30.0..=31.0)
        .formatter(|mark, _| mark_text(mark.value, mark.step_size))
}

/// A mark at `value` on an axis marked every `step`: as many places as the step has
/// (0.2 → "0.4", 0.05 → "0.15"), whole values with thousands separated ("1,500", "-200").
fn mark_text(value: f64, step: f64) -> String {
    let places = if step.is_finite() && step > 0.0 {
        (-step.log10() - 1e-9).ceil().clamp(0.0, 12.0) as usize
    } else {
        0
    };
    if places == 0 && value.abs() < 1e15 {
        let whole = widgets::thousands(value.round().abs() as u64);
        if value.round() < 0.0 {
            format!("-{whole}")
        } else {
            whole
        }
    } else {
        format!("{value:.places$}")
    }
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

    /// Ten bins on the diagonal, 10 matches each.
    fn calibrated_bins() -> Vec<Bin> {
        (0..10)
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
            .collect()
    }

    /// A 320 × 160 calibration plot shows 0 to 1 across its whole width, not a square in
    /// its middle third.
    #[test]
    fn a_calibration_plot_uses_its_whole_width() {
        let shown = Rc::new(Cell::new(None));
        let seen = shown.clone();
        let bins = calibrated_bins();
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

    /// The lowest row of figures drawn in the last frame: an x axis's mark labels (the y
    /// axis's lowest label sits higher, centred on the plot's bottom edge).
    fn lowest_figures(output: &egui::FullOutput) -> Vec<String> {
        fn walk(s: &egui::Shape, out: &mut Vec<(f32, String)>) {
            match s {
                egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
                egui::Shape::Text(t) if t.galley.text().parse::<f64>().is_ok() => {
                    out.push((t.pos.y, t.galley.text().to_string()))
                }
                _ => {}
            }
        }
        let mut all = Vec::new();
        for c in &output.shapes {
            walk(&c.shape, &mut all);
        }
        let lowest = all.iter().map(|t| t.0).fold(f32::NEG_INFINITY, f32::max);
        all.into_iter()
            .filter(|t| (t.0 - lowest).abs() < 0.5)
            .map(|t| t.1)
            .collect()
    }

    /// Seen in a real window: Tune's and Prediction quality's calibration plots (320 points
    /// wide) named no mark under their x axis. Fifths were 0.2 × ~290 = 58 points apart, and
    /// egui_plot names no x mark within 60 points of the next. Marks now need 48 points
    /// each: at 320 points (290 of plot for 1.1 of axis, 0 to 1 and egui's margins) a step
    /// of 48 × 1.1 / 290 = 0.18, up to 0.2, reads 0.0, 0.2, … 1.0; at 160 (about 130 of
    /// plot) 0.41, up to 0.5: 0.0, 0.5 and 1.0. To one place, as the y axis.
    #[test]
    fn a_calibration_plots_x_axis_is_named_at_round_marks() {
        for (width, want) in [
            (160.0, &["0.0", "0.5", "1.0"][..]),
            (320.0, &["0.0", "0.2", "0.4", "0.6", "0.8", "1.0"][..]),
        ] {
            let bins = calibrated_bins();
            let mut h = egui_kittest::Harness::builder()
                .with_size(egui::vec2(width + 40.0, 300.0))
                .build_ui(move |ui| {
                    calibration_plot(ui, "calibration", &bins, width);
                });
            h.run();
            assert_eq!(
                lowest_figures(h.output()),
                want,
                "at {width} points the x axis is named at round marks"
            );
        }
    }

    /// Seen on Tune: a log-loss curve from 0.7033 to 0.7147 in a 160-point plot, its y axis
    /// named by egui at 0.71 alone (a step of 0.005 written to two places: "0.70", "0.71",
    /// "0.71"). With room for 24 points a label (130 of plot for 0.0114 of axis and egui's
    /// margins, about 0.0125): a step of 24 × 0.0125 / 130 = 0.0023, up to 0.005 — 0.705,
    /// 0.710 and 0.715 or so, each written to three places and none twice.
    #[test]
    fn a_flat_curves_y_axis_is_named_at_distinct_round_marks() {
        let mut h = egui_kittest::Harness::builder()
            .with_size(egui::vec2(400.0, 240.0))
            .build_ui(|ui| {
                Plot::new("curve")
                    .width(330.0)
                    .height(160.0)
                    .custom_y_axes(vec![labelled_y_axis("")])
                    .y_grid_spacer(labelled_y_marks)
                    .show(ui, |p| {
                        p.line(Line::new(
                            "log-loss",
                            PlotPoints::from(vec![[0.0, 0.7033], [50.0, 0.7147]]),
                        ))
                    });
            });
        h.run();
        let mut labels: Vec<(f32, String)> = Vec::new();
        fn walk(s: &egui::Shape, out: &mut Vec<(f32, String)>) {
            match s {
                egui::Shape::Vec(v) => v.iter().for_each(|s| walk(s, out)),
                egui::Shape::Text(t) if t.galley.text().starts_with("0.7") => {
                    out.push((t.pos.y, t.galley.text().to_string()))
                }
                _ => {}
            }
        }
        for c in &h.output().shapes {
            walk(&c.shape, &mut labels);
        }
        let texts: Vec<&str> = labels.iter().map(|l| l.1.as_str()).collect();
        assert!(texts.len() >= 2, "{texts:?}");
        assert!(
            texts.contains(&"0.705") && texts.contains(&"0.710"),
            "{texts:?}"
        );
        let mut distinct = texts.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), texts.len(), "no label twice: {texts:?}");
    }
}
