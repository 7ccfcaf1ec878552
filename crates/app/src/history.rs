//! History: players' rating histories overlaid. Above, the rating with its uncertainty band;
//! below, the player-facing score with tier lines (named at the right edge, where they fit);
//! both with reset, migration and rules markers where the event happened, sharing the x-axis:
//! the date, or the ladder's match number (the k-th match of the ladder at k, the same for
//! every player). Hover reads out the event under the cursor; the wheel zooms, dragging pans,
//! "Reset view" fits. A ladder whose matches all fall on one day is shown by match number.
//! Long histories are thinned to the plot's pixels. With a what-if comparison open, each
//! player's history under the other rules overlays dashed.

use super::charts::{
    colour, labelled_y_axis, labelled_y_marks, marks_with_room, tier_labels, wheel_zoom,
};
use super::command::{Command, ToolCommand};
use super::files::Purpose;
use super::picker::name_picker;
use super::state::AppState;
use super::tools::LogView;
use super::widgets;
use eframe::egui::{self, Color32, RichText};
use egui_plot::{HLine, Line, LineStyle, Plot, PlotPoint, PlotPoints, PlotUi, VLine};
use rungs_chart::series::{band_label, rating_axis, score_axis};
use rungs_chart::{BandMesh, PlayerSeries, XMode, format_x, tier_lines};
use rungs_ladder::calendar::SCHEDULED_SEQ;
use rungs_ladder::event::PlayerId;
use std::sync::Arc;

/// The History screen's own state: the player field as typed, the axis, the overlay, the
/// series as built, and where the plots were drawn (what Save PNG cuts out).
#[derive(Default)]
pub struct HistoryScreen {
    /// The player field as typed.
    pub plot_name: String,
    /// The offer ↑ ↓ picked in the player field.
    highlight: usize,
    pub x_by_date: bool,
    /// Overlay each plotted player's history under the what-if rules.
    pub overlay_b: bool,
    /// Set for one frame to reset the plots' zoom and pan.
    pub reset_view: bool,
    cache: Option<Cache>,
    /// Where the plots were drawn last frame.
    pub plot_rect: Option<egui::Rect>,
    /// The part of each plot in view last frame (rating, then score).
    pub plots_in_view: Vec<egui::Rect>,
    /// Each plot's y range last frame (rating, then score).
    pub y_in_view: Vec<(f64, f64)>,
}

impl HistoryScreen {
    pub fn new() -> HistoryScreen {
        HistoryScreen {
            overlay_b: true,
            ..HistoryScreen::default()
        }
    }
}

/// One plotted player: their series under the file's rules and, with a comparison open,
/// under the other rules.
struct Plotted {
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
struct Cache {
    key: CacheKey,
    plotted: Arc<Vec<Plotted>>,
    /// The axis the series are on: by date unless every row falls on one day.
    mode: XMode,
    single_day: Option<chrono::NaiveDate>,
    /// The curves as last thinned, rating plot then score plot.
    thinned: [Thinned; 2],
}

/// Each plotted player's series under the file's rules, and under the what-if rules.
/// On a date axis a ladder whose plotted rows all fall on one day would be one vertical
/// sliver: those go by match number, and the day is returned to say so.
fn series(
    state: &mut AppState,
    view: &LogView,
    mode: XMode,
    overlay: bool,
) -> (Vec<Plotted>, XMode, Option<chrono::NaiveDate>) {
    let histories: Vec<_> = state
        .tools
        .plotted
        .clone()
        .into_iter()
        .map(|id| (id, state.shown_history(id)))
        .collect();
    // The matches' days (a player's first row is their join, which may come days earlier).
    let mut dates = histories.iter().flat_map(|(_, rows)| {
        let first = rows.iter().map(|r| (r.date, r.seq)).min();
        rows.iter()
            .filter(move |r| Some((r.date, r.seq)) != first)
            .map(|r| r.date)
    });
    let single_day = dates
        .next()
        .filter(|first| dates.all(|d| d == *first))
        .filter(|_| mode == XMode::Date);
    let mode = if single_day.is_some() {
        XMode::Match
    } else {
        mode
    };
    let plotted = histories
        .into_iter()
        .enumerate()
        .map(|(i, (id, rows))| {
            let other = state
                .tools
                .comparison
                .as_ref()
                .filter(|_| overlay)
                .and_then(|c| {
                    let rows = state.tools.compared_history(id)?;
                    Some(on_axis(
                        PlayerSeries::new(&rows, &c.index, mode),
                        view,
                        mode,
                    ))
                });
            Plotted {
                name: name_of(state, id),
                colour: colour(i),
                own: on_axis(PlayerSeries::new(&rows, &view.index, mode), view, mode),
                other,
            }
        })
        .collect();
    (plotted, mode, single_day)
}

/// By match number, the ladder's: every player's rows and every marker on one axis.
fn on_axis(series: PlayerSeries, view: &LogView, mode: XMode) -> PlayerSeries {
    match mode {
        XMode::Date => series,
        XMode::Match => series.with_x(|p| view.ladder_x((p.row.date, p.row.seq))),
    }
}

pub fn show(
    ui: &mut egui::Ui,
    me: &mut HistoryScreen,
    state: &mut AppState,
    out: &mut Vec<Command>,
) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    controls(ui, me, state, out);
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
    let asked = if me.x_by_date {
        XMode::Date
    } else {
        XMode::Match
    };
    let key = CacheKey {
        generation: state.generation,
        plotted: state.tools.plotted.clone(),
        mode: asked,
        overlay: me.overlay_b && state.tools.comparison.is_some(),
        log: Arc::as_ptr(&view) as usize,
    };
    let cache = match me.cache.take() {
        Some(c) if c.key == key => c,
        _ => {
            let (plotted, mode, single_day) = series(state, &view, asked, key.overlay);
            Cache {
                key,
                plotted: Arc::new(plotted),
                mode,
                single_day,
                thinned: Default::default(),
            }
        }
    };
    let (plotted, mode, single_day) = (cache.plotted.clone(), cache.mode, cache.single_day);
    let mut cache = cache;
    let mut thinned = std::mem::take(&mut cache.thinned);
    me.cache = Some(cache);
    let system = state.ladder.rules.system();
    // Labels sit inside the data's own extent: placed at the plot's edges they would widen
    // the bounds the plot fits to, frame after frame.
    let extent = |f: &dyn Fn(&rungs_chart::RowPoint) -> f64| {
        plotted
            .iter()
            .flat_map(|pl| pl.own.points.iter().map(f))
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
                (lo.min(v), hi.max(v))
            })
    };
    let (x_left, x_right) = extent(&|r| r.x);
    // Every curve holds its last value a little past the latest plotted event, so that a
    // last move reads as a step to where the player stands, not as a vertical stub.
    let end = x_right + (x_right - x_left).max(1.0) * 0.02;
    // Markers where the event happened, on either axis; by match number only those within
    // the plotted players' span (earlier ones would pile up at the start).
    let marker_xs: Vec<(f64, String)> = view
        .index
        .markers()
        .iter()
        .map(|m| {
            let x = match mode {
                XMode::Date => m.x_date,
                XMode::Match => view.ladder_x(m.key()),
            };
            (x, m.label.clone())
        })
        .filter(|(x, _)| mode == XMode::Date || (x_left <= *x && *x <= x_right))
        .collect();
    let reset = std::mem::take(&mut me.reset_view);
    let link = egui::Id::unique("history-x");
    // Where the shown score is the rating itself (Elo, Memoir '44) one plot says it all.
    let two_plots = !rungs_chart::series::score_is_rating(system);
    let plots_count = if two_plots { 2.0 } else { 1.0 };
    // Room below for each player's read-out (and the note), so nothing runs into the message
    // strip in a small window. A read-out is up to about 100 characters, so in a narrow window
    // each one wraps onto two or three lines.
    let body = ui.text_style_height(&egui::TextStyle::Body);
    let line = body + ui.spacing().item_spacing.y;
    let per_line = (ui.available_width() / (body * 0.5)).max(1.0);
    let wraps = (100.0 / per_line).ceil().clamp(1.0, 3.0);
    let reserve = line * (plotted.len() as f32 * wraps + 1.5);
    let room = (ui.available_height() - reserve).max(60.0);
    // A plot is never squeezed below readable: in a small window the plots scroll instead.
    const MIN_PLOT: f32 = 120.0;
    // Two plots that do not fit one above the other stand side by side where the window is
    // wide enough for both: stacked in a small window's scroll area the lower one showed
    // about 30 px.
    let stacked_fits = room / plots_count - 4.0 >= MIN_PLOT;
    let gap = ui.spacing().item_spacing.x;
    let side = two_plots && !stacked_fits && room - 4.0 >= 80.0 && ui.available_width() >= 400.0;
    let width = side.then(|| (ui.available_width() - gap) / 2.0);
    let height = if side {
        room - 4.0
    } else {
        (room / plots_count - 4.0).max(MIN_PLOT)
    };
    let small = !side && !stacked_fits;
    me.plots_in_view.clear();
    let mut in_view = Vec::new();
    let mut y_seen = Vec::new();
    if let Some(day) = single_day {
        ui.weak(format!(
            "Every plotted match is on {day}: shown by the ladder's match number instead of the date."
        ));
    }
    let mut hover_x = None;
    // A click on a plot explains the plotted event under it.
    let mut clicked_x = None;
    let formatter = move |mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>| {
        format_x(mark.value, mode)
    };
    let plot = |id: &str, y_label: &str| {
        let mut p = Plot::new(id.to_string())
            .height(height)
            // The wheel zooms (see `wheel_zoom`); dragging pans.
            .allow_scroll(false)
            .link_axis(link, [true, false])
            .link_cursor(link, [true, false])
            // Round marks with room for their labels: egui's own named a rating axis from
            // 800 to 2,300 at 1000 and 2000 alone.
            .custom_y_axes(vec![labelled_y_axis(y_label.to_string())])
            .y_grid_spacer(labelled_y_marks);
        if let Some(w) = width {
            p = p.width(w);
        }
        p = match mode {
            // Round match numbers with room for "match 1,000": at 560 points egui named
            // "match 0" alone.
            XMode::Match => p
                .custom_x_axes(vec![
                    egui_plot::AxisHints::new_x()
                        .label_spacing(30.0..=31.0)
                        .formatter(formatter),
                ])
                .x_grid_spacer(|g| {
                    // Whole matches only: zoomed in to steps under one, the halves go.
                    marks_with_room(g, 84.0)
                        .into_iter()
                        .filter(|m| (m.value - m.value.round()).abs() < 1e-9)
                        .map(|m| egui_plot::GridMark {
                            value: m.value.round(),
                            step_size: m.step_size.max(1.0),
                        })
                        .collect()
                }),
            // Ticks at calendar boundaries (days, months, years), labelled to match.
            XMode::Date => p
                .x_grid_spacer(|g| {
                    rungs_chart::axis::date_grid(g.bounds.0, g.bounds.1, 8)
                        .into_iter()
                        .map(|[value, step_size]| egui_plot::GridMark { value, step_size })
                        .collect()
                })
                .x_axis_formatter(|m, _| rungs_chart::axis::format_date_tick(m.value, m.step_size)),
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
    let layout = if side {
        egui::Layout::left_to_right(egui::Align::Min)
    } else {
        egui::Layout::top_down(egui::Align::Min)
    };
    let mut draw = |ui: &mut egui::Ui| {
        ui.scope(|ui| {
            ui.with_layout(layout, |ui| {
                let shown = plot("history-rating", &rating_label).show(ui, |p| {
                    wheel_zoom(p);
                    draw_curves(p, &plotted, Curve::Rating, end, &mut thinned[0]);
                    draw_markers(p, &marker_xs);
                    if let Some(c) = p.pointer_coordinate().filter(|_| p.response().hovered()) {
                        hover_x = Some(c.x);
                    }
                    if let Some(c) = p.pointer_coordinate().filter(|_| p.response().clicked()) {
                        clicked_x = Some(c.x);
                    }
                });
                in_view.push(shown.response.rect.intersect(ui.clip_rect()));
                y_seen.push((
                    shown.transform.bounds().min()[1],
                    shown.transform.bounds().max()[1],
                ));
                marker_labels(ui, &shown.transform, &marker_xs);
                if two_plots {
                    let shown = plot("history-score", score_axis(system)).show(ui, |p| {
                        wheel_zoom(p);
                        // One legend entry for the tier lines; each is named at the right edge.
                        for line in tier_lines(&ladder_rules) {
                            let colour = widgets::tier_colour(line.tier);
                            p.hline(
                                HLine::new("tier boundaries", line.value)
                                    .color(colour.gamma_multiply(0.6))
                                    .style(LineStyle::dashed_loose()),
                            );
                        }
                        draw_curves(p, &plotted, Curve::Score, end, &mut thinned[1]);
                        draw_markers(p, &marker_xs);
                        if let Some(c) = p.pointer_coordinate().filter(|_| p.response().hovered()) {
                            hover_x = Some(c.x);
                        }
                        if let Some(c) = p.pointer_coordinate().filter(|_| p.response().clicked()) {
                            clicked_x = Some(c.x);
                        }
                    });
                    in_view.push(shown.response.rect.intersect(ui.clip_rect()));
                    y_seen.push((
                        shown.transform.bounds().min()[1],
                        shown.transform.bounds().max()[1],
                    ));
                    tier_labels(ui, &shown.transform, &ladder_rules);
                }
            });
        })
    };
    let plots = if small {
        egui::ScrollArea::vertical()
            .id_salt("history-plots")
            .max_height(room)
            .show(ui, draw)
            .inner
    } else {
        draw(ui)
    };
    if let Some(cache) = &mut me.cache {
        cache.thinned = thinned;
    }
    me.plot_rect = Some(plots.response.rect);
    me.plots_in_view = in_view;
    me.y_in_view = y_seen;
    // The first plotted player's event nearest the click (a calendar's reset is no event of
    // the log: nothing to explain there).
    let explained = clicked_x.and_then(|x| {
        plotted.iter().find_map(|pl| {
            let row = pl.own.points.get(pl.own.nearest(x)?)?.row;
            (row.seq != SCHEDULED_SEQ).then_some((row.seq, pl.own.player))
        })
    });
    if let Some((seq, player)) = explained {
        out.push(Command::Explain { seq, player });
    }
    let Some(x) = hover_x else {
        ui.label(RichText::new("Hover over a plot to read out the event under the cursor.").weak());
        return;
    };
    let events = &view.events;
    for pl in plotted.iter() {
        let who = pl.own.player;
        let describe = |row: &rungs_ladder::state::HistoryRow| {
            let event = rungs_chart::hover::event_at(events, (row.date, row.seq))?;
            let name = |id: PlayerId| name_of(state, id);
            rungs_chart::hover::describe_event(event, who.unwrap_or(row.player), &name)
        };
        // The axis's own number first ("match 37900"), so axis and read-out agree; the
        // log's event number follows, as `rungs events` and the edit window number it.
        let Some(i) = pl.own.nearest(x) else { continue };
        let at = pl.own.points.get(i).map(|p| format_x(p.x, mode));
        if let Some(line) = pl.own.readout(i, Some(&describe)) {
            let at = at.map_or(String::new(), |a| format!("{a} · "));
            let seq = pl.own.points.get(i).map(|p| p.row.seq);
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(format!("{}: {at}{line}", pl.name)).color(pl.colour));
                if let Some(seq) = seq.filter(|s| *s != SCHEDULED_SEQ) {
                    let why = ui.small_button("Why?").on_hover_text(
                        "How this event moved the player's figures (or click the plot)",
                    );
                    if why.clicked() {
                        out.push(Command::Explain {
                            seq,
                            player: pl.own.player,
                        });
                    }
                }
            });
        }
    }
}

/// Selects the whole text of the field `id`.
fn select_all(ctx: &egui::Context, id: egui::Id, text: &str) {
    let mut st = egui::TextEdit::load_state(ctx, id).unwrap_or_default();
    let end = egui::text::CCursor::new(text.chars().count());
    st.cursor.set_char_range(Some(egui::text::CCursorRange::two(
        egui::text::CCursor::new(0),
        end,
    )));
    st.store(ctx, id);
}

fn name_of(state: &AppState, id: PlayerId) -> String {
    state
        .ladder
        .player(id)
        .map_or_else(|| format!("player {id}"), |p| p.name.clone())
}

/// The player field, the plotted players' chips, the x-axis switch and the view buttons.
fn controls(ui: &mut egui::Ui, me: &mut HistoryScreen, state: &AppState, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        // As Enter match's player fields: Tab or Enter completes to the best offer, and plots.
        let id = egui::Id::unique("history-plot-player");
        let had_focus = ui.memory(|m| m.has_focus(id));
        let offers = state.suggestions(&me.plot_name, 6);
        let picked = name_picker(
            ui,
            "Plot player:",
            id,
            &mut me.plot_name,
            &mut me.highlight,
            &offers,
            180.0,
        );
        let enter = had_focus && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if enter && !offers.is_empty() && !me.plot_name.trim().is_empty() {
            me.plot_name = offers[me.highlight.min(offers.len() - 1)].clone();
        }
        let add = ui.button("Add").clicked();
        if picked.tab == Some(false) || enter || add {
            // The keyboard stays for the next name.
            ui.memory_mut(|m| m.request_focus(id));
            match state.player_id(&me.plot_name) {
                Some(pid) => {
                    out.push(Command::Tool(ToolCommand::Plot(pid)));
                    me.plot_name.clear();
                    me.highlight = 0;
                }
                None if me.plot_name.trim().is_empty() => {}
                None => {
                    out.push(Command::Problem {
                        field: "Plot player",
                        message: format!("no player is called “{}”", me.plot_name.trim()),
                    });
                    // The failed text is selected: the next name typed replaces it.
                    select_all(ui.ctx(), id, &me.plot_name);
                }
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
        ui.radio_value(&mut me.x_by_date, false, "match # (ladder)")
            .on_hover_text("The ladder's matches in order: the same axis for every player, so resets sit where they happened");
        ui.radio_value(&mut me.x_by_date, true, "date");
        if let Some(c) = &state.tools.comparison {
            let label = format!("overlay B ({})", super::words::rules(&c.rules));
            ui.checkbox(&mut me.overlay_b, label);
        }
        if ui.button("Reset view").clicked() {
            me.reset_view = true;
        }
        let can_save = me.plot_rect.is_some() && !state.tools.plotted.is_empty();
        if ui
            .add_enabled(can_save, egui::Button::new("Save PNG…"))
            .clicked()
        {
            out.push(Command::Pick(Purpose::SavePng));
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

/// One plot's curves thinned to its view, kept while the view, the plot's width and the
/// series stay: a frame that changes none of them (a hover, a repaint) draws them as they
/// were instead of thinning every row of every player again.
#[derive(Default)]
struct Thinned {
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
fn draw_curves(p: &mut PlotUi, plotted: &[Plotted], curve: Curve, end: f64, kept: &mut Thinned) {
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
                            Arc::new(super::plot_band::band_mesh(band)),
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
fn draw_markers(p: &mut PlotUi, markers: &[(f64, String)]) {
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
fn marker_labels(ui: &egui::Ui, transform: &egui_plot::PlotTransform, markers: &[(f64, String)]) {
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
