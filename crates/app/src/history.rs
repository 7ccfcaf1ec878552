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
use super::history_curves::{Curve, Plotted, Thinned, draw_curves, draw_markers, marker_labels};
use super::picker::name_picker;
use super::state::AppState;
use super::tools::LogView;
use super::widgets;
use eframe::egui::{self, RichText};
use egui_plot::{HLine, LineStyle, Plot};
use rungs_chart::series::{band_label, rating_axis, score_axis};
use rungs_chart::{PlayerSeries, XMode, format_x, tier_lines};
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
                .x_grid_spacer(|mut g| {
                    // No mark within half a label of the right edge: "match 50000" ran past
                    // it (at 560 points into the window's edge). Whole matches only: zoomed
                    // in to steps under one, the halves go.
                    g.bounds.1 -= 42.0 * g.base_step_size / 8.0;
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
