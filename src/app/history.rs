//! History: players' rating histories overlaid. Above, the rating with its uncertainty band;
//! below, the player-facing score with tier lines; both with reset, migration and rules
//! markers, sharing the x-axis (date or match number). Hover reads out the event under the
//! cursor; zoom and pan with the mouse, "Reset view" to fit. Long histories are thinned to
//! the plot's pixels. With a what-if comparison open, each player's history under the other
//! rules overlays dashed.

use super::state::{AppState, Command};
use super::tools::LogView;
use super::tools::ToolCommand;
use super::widgets;
use crate::chart::series::{band_label, rating_axis, score_axis};
use crate::chart::{PlayerSeries, XMode, format_x, tier_lines};
use crate::ladder::event::PlayerId;
use eframe::egui::{self, Color32, RichText};
use egui_plot::{HLine, Legend, Line, LineStyle, Plot, PlotPoints, PlotUi, VLine};
use std::sync::Arc;

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

/// One plotted player: their series under the file's rules and, with a comparison open,
/// under the other rules.
pub(super) struct Plotted {
    name: String,
    colour: Color32,
    own: PlayerSeries,
    other: Option<PlayerSeries>,
}

/// What the plotted series were built from.
#[derive(Debug, Clone, PartialEq)]
struct CacheKey {
    generation: u64,
    plotted: Vec<PlayerId>,
    mode: XMode,
    overlay: bool,
    log: usize,
}

/// The plotted series, built once per change of players, ladder, axis or log.
pub(super) struct Cache {
    key: CacheKey,
    plotted: Arc<Vec<Plotted>>,
}

/// Each plotted player's series under the file's rules, and under the what-if rules.
fn series(state: &mut AppState, view: &LogView, mode: XMode, overlay: bool) -> Vec<Plotted> {
    state
        .tools
        .plotted
        .clone()
        .into_iter()
        .enumerate()
        .map(|(i, id)| {
            let rows = state.shown_history(id);
            let other = state
                .tools
                .comparison
                .as_ref()
                .filter(|_| overlay)
                .and_then(|c| {
                    let rows = state.compared_history(id)?;
                    Some(PlayerSeries::new(&rows, &c.index, mode))
                });
            Plotted {
                name: name_of(state, id),
                colour: colour(i),
                own: PlayerSeries::new(&rows, &view.index, mode),
                other,
            }
        })
        .collect()
}

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    controls(ui, state, out);
    if state.tools.plotted.is_empty() {
        ui.add_space(12.0);
        ui.label(
            "Type a player's name above to plot their history, or click a name in the What-if \
             table. Several players overlay, each in their own colour.",
        );
        return;
    }
    let Some(view) = state.tools.log_view.clone() else {
        if state.job.is_none() {
            out.push(Command::Tool(ToolCommand::LoadLog));
        }
        ui.label("Reading the log for the plots…");
        return;
    };
    let mode = if state.tools.x_by_date {
        XMode::Date
    } else {
        XMode::Match
    };
    let key = CacheKey {
        generation: state.generation,
        plotted: state.tools.plotted.clone(),
        mode,
        overlay: state.tools.overlay_b && state.tools.comparison.is_some(),
        log: Arc::as_ptr(&view) as usize,
    };
    let plotted = match state.tools.history_cache.take() {
        Some(c) if c.key == key => c.plotted,
        _ => Arc::new(series(state, &view, mode, key.overlay)),
    };
    state.tools.history_cache = Some(Cache {
        key,
        plotted: plotted.clone(),
    });
    let system = state.ladder.rules.system();
    // Labels sit inside the data's own extent: placed at the plot's edges they would widen
    // the bounds the plot fits to, frame after frame.
    let extent = |f: &dyn Fn(&crate::chart::RowPoint) -> f64| {
        plotted
            .iter()
            .flat_map(|pl| pl.own.points.iter().map(f))
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    let factor = crate::chart::series::band_factor(system).unwrap_or(0.0);
    let (x_left, _) = extent(&|r| r.x);
    let (_, rating_top) = extent(&|r| r.row.figures.rating + factor * r.row.figures.deviation);
    let (_, score_top) = extent(&|r| r.row.figures.score);
    let markers = view.index.markers();
    let reset = std::mem::take(&mut state.tools.reset_view);
    let link = egui::Id::unique("history-x");
    // Where the shown score is the rating itself (Elo, Memoir '44) one plot says it all.
    let two_plots = !crate::chart::series::score_is_rating(system);
    let plots_count = if two_plots { 2.0 } else { 1.0 };
    let height = ((ui.available_height() - 60.0) / plots_count).max(140.0);
    let mut hover_x = None;
    let formatter = move |mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| {
        format_x(mark.value, mode)
    };
    let plot = |id: &str, y_label: &str| {
        let mut p = Plot::new(id.to_string())
            .height(height)
            .link_axis(link, [true, false])
            .link_cursor(link, [true, false])
            .legend(Legend::default().position(egui_plot::Corner::LeftTop))
            .y_axis_label(y_label.to_string());
        p = match mode {
            XMode::Match => p.x_axis_formatter(formatter),
            // Ticks at calendar boundaries (days, months, years), labelled to match.
            XMode::Date => {
                p.x_grid_spacer(|g| {
                    crate::chart::axis::date_grid(g.bounds.0, g.bounds.1, 8)
                        .into_iter()
                        .map(|[value, step_size]| egui_plot::GridMark { value, step_size })
                        .collect()
                })
                .x_axis_formatter(|m, _| crate::chart::axis::format_date_tick(m.value, m.step_size))
            }
        };
        if reset {
            p = p.reset();
        }
        p
    };
    let rating_label = match band_label(system) {
        Some(band) => format!("{} ({band})", rating_axis(system)),
        None => rating_axis(system).to_string(),
    };
    // One scope around both plots: its rectangle takes in their axes, for Save PNG.
    let ladder_rules = state.ladder.rules.clone();
    let plots = ui.scope(|ui| {
        plot("history-rating", &rating_label).show(ui, |p| {
            draw_curves(p, &plotted, Curve::Rating);
            draw_markers(p, plotted.first().map(|pl| &pl.own), markers, rating_top);
            if let Some(c) = p.pointer_coordinate() {
                hover_x = Some(c.x);
            }
        });
        if two_plots {
            plot("history-score", score_axis(system)).show(ui, |p| {
                // One legend entry for the tier lines; each is named at the plot's left edge.
                let left = if x_left.is_finite() { x_left } else { 0.0 };
                for line in tier_lines(&ladder_rules) {
                    let colour = widgets::tier_colour(line.tier);
                    p.hline(
                        HLine::new("tier boundaries", line.value)
                            .color(colour.gamma_multiply(0.6))
                            .style(LineStyle::dashed_loose()),
                    );
                    p.text(
                        egui_plot::Text::new(
                            "",
                            egui_plot::PlotPoint::new(left, line.value),
                            RichText::new(line.label).small().color(colour),
                        )
                        .anchor(egui::Align2::LEFT_BOTTOM),
                    );
                }
                draw_curves(p, &plotted, Curve::Score);
                draw_markers(p, plotted.first().map(|pl| &pl.own), markers, score_top);
                if let Some(c) = p.pointer_coordinate() {
                    hover_x = Some(c.x);
                }
            });
        }
    });
    state.tools.plot_rect = Some(plots.response.rect);
    let Some(x) = hover_x else {
        ui.label(RichText::new("Hover over a plot to read out the event under the cursor.").weak());
        return;
    };
    let events = &view.events;
    for pl in plotted.iter() {
        let who = pl.own.player;
        let describe = |row: &crate::ladder::state::HistoryRow| {
            let event = crate::chart::hover::event_at(events, (row.date, row.seq))?;
            let name = |id: PlayerId| name_of(state, id);
            crate::chart::hover::describe_event(event, who.unwrap_or(row.player), &name)
        };
        if let Some(line) = pl.own.readout_at(x, Some(&describe)) {
            ui.label(RichText::new(format!("{}: {line}", pl.name)).color(pl.colour));
        }
    }
}

fn name_of(state: &AppState, id: PlayerId) -> String {
    state
        .ladder
        .player(id)
        .map_or_else(|| format!("player {id}"), |p| p.name.clone())
}

/// The player field, the plotted players' chips, the x-axis switch and the view buttons.
fn controls(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let label = ui.label("Plot player:");
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut state.tools.plot_name)
                    .hint_text("name")
                    .desired_width(180.0),
            )
            .labelled_by(label.id);
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Add").clicked() || enter {
            match state.player_id(&state.tools.plot_name) {
                Some(id) => {
                    out.push(Command::Tool(ToolCommand::Plot(id)));
                    state.tools.plot_name.clear();
                }
                None => out.push(Command::Problem {
                    field: "Plot player",
                    message: format!("no player called `{}`", state.tools.plot_name.trim()),
                }),
            }
        }
        for name in state.suggestions(&state.tools.plot_name, 5) {
            if name.to_lowercase() != state.tools.plot_name.trim().to_lowercase()
                && ui.small_button(&name).clicked()
                && let Some(id) = state.player_id(&name)
            {
                out.push(Command::Tool(ToolCommand::Plot(id)));
                state.tools.plot_name.clear();
            }
        }
    });
    ui.horizontal_wrapped(|ui| {
        for (i, &id) in state.tools.plotted.iter().enumerate() {
            ui.label(RichText::new(format!("■ {}", name_of(state, id))).color(colour(i)));
            if ui
                .small_button("x")
                .on_hover_text("Remove from the plot")
                .clicked()
            {
                out.push(Command::Tool(ToolCommand::Unplot(id)));
            }
        }
        ui.separator();
        ui.label("x-axis:");
        ui.radio_value(&mut state.tools.x_by_date, false, "match #");
        ui.radio_value(&mut state.tools.x_by_date, true, "date");
        if let Some(c) = &state.tools.comparison {
            let label = format!("overlay B ({})", crate::ladder::evaluate::label(&c.rules));
            ui.checkbox(&mut state.tools.overlay_b, label);
        }
        if ui.button("Reset view").clicked() {
            state.tools.reset_view = true;
        }
        let can_save = state.tools.plot_rect.is_some() && !state.tools.plotted.is_empty();
        if ui
            .add_enabled(can_save, egui::Button::new("Save PNG…"))
            .clicked()
        {
            out.push(Command::Pick(super::files::Purpose::SavePng));
        }
    });
}

/// Which of a player's curves a plot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Curve {
    /// The rating, with its band.
    Rating,
    /// The player-facing score.
    Score,
}

/// Every plotted player's curve, thinned to the plot's pixels: under the file's rules solid
/// (the rating with its band), under the what-if rules dashed.
fn draw_curves(p: &mut PlotUi, plotted: &[Plotted], curve: Curve) {
    let buckets = p.response().rect.width().max(50.0) as usize;
    let (x0, x1) = visible_x(p);
    for pl in plotted {
        let other_name = format!("{} (B)", pl.name);
        let runs = [
            (Some(&pl.own), pl.name.as_str(), false),
            (pl.other.as_ref(), other_name.as_str(), true),
        ];
        for (series, name, dashed) in runs {
            let Some(series) = series else { continue };
            for seg in &series.segments {
                let seg = seg.decimated(x0, x1, buckets);
                if curve == Curve::Rating
                    && !dashed
                    && let Some(band) = &seg.band
                {
                    // egui_plot names identify items: each player's band gets its own.
                    let label = band_label(seg.system).unwrap_or("band");
                    p.add(
                        super::plot_band::BandItem::from_band(format!("{name} {label}"), band)
                            .color(pl.colour)
                            .fill_alpha(0.15)
                            .edges(egui::Stroke::new(0.5, pl.colour.gamma_multiply(0.5))),
                    );
                }
                let points = match curve {
                    Curve::Rating => seg.rating,
                    Curve::Score => seg.score,
                };
                let line = Line::new(name, PlotPoints::from(points))
                    .color(pl.colour)
                    .width(1.5);
                p.line(if dashed {
                    line.style(LineStyle::dashed_dense())
                } else {
                    line
                });
            }
        }
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

/// Resets, migrations and rules changes as labelled vertical lines, placed on the first
/// plotted player's axis (by match number each player's axis differs; by date all agree).
fn draw_markers(
    p: &mut PlotUi,
    first: Option<&PlayerSeries>,
    markers: &[crate::chart::Marker],
    top: f64,
) {
    let Some(s) = first else { return };
    let bounds = p.plot_bounds();
    let (x0, x1) = if p.auto_bounds().x {
        (f64::NEG_INFINITY, f64::INFINITY)
    } else {
        (bounds.min()[0], bounds.max()[0])
    };
    let placed = s.placed_markers(markers);
    let visible: Vec<_> = placed
        .iter()
        .filter(|(x, _)| (x0..=x1).contains(x))
        .collect();
    for (x, _) in &visible {
        // One legend entry for all of them; the labels are written at the top when few.
        p.vline(
            VLine::new("resets, migrations, rules", *x)
                .color(Color32::GRAY.gamma_multiply(0.6))
                .style(LineStyle::dashed_loose()),
        );
    }
    if visible.len() <= 12 && top.is_finite() {
        // Markers on the same x (a soft and a hard reset on one day) stack their labels.
        let line = (bounds.max()[1] - bounds.min()[1]).abs() * 0.05;
        let mut previous: Option<(f64, f64)> = None;
        for (x, m) in visible {
            let y = match previous {
                Some((px, py)) if (px - x).abs() < 1e-9 => py - line,
                _ => top,
            };
            previous = Some((*x, y));
            p.text(
                egui_plot::Text::new(
                    "",
                    egui_plot::PlotPoint::new(*x, y),
                    RichText::new(&m.label).small().color(Color32::GRAY),
                )
                .anchor(egui::Align2::LEFT_TOP),
            );
        }
    }
}
