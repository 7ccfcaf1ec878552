//! Players: add (Enter adds and keeps the keyboard for the next name), search, rename,
//! retire and bring back; a player's page with record, plots (hover reads the values),
//! head-to-head and recent matches.

use super::charts::{colour, tier_labels, wheel_zoom};
use super::command::{Command, Screen, ToolCommand};
use super::state::AppState;
use super::tools::LogView;
use super::widgets;
use eframe::egui::{self, Key, RichText};
use rungs_ladder::event::PlayerId;
use rungs_ladder::record::Record;
use rungs_ladder::replay::Ladder;
use std::sync::Arc;

/// The Players screen's own state.
#[derive(Debug, Clone, Default)]
pub struct PlayersScreen {
    pub new_player: String,
    /// Several players at once: the list as typed or pasted, one name per line.
    pub several: Option<String>,
    /// Give the New player field the keyboard next frame (after an add).
    focus_new: bool,
    pub search: String,
    /// The player whose page is open.
    pub player: Option<PlayerId>,
    pub rename_to: String,
    /// The page's record: (player, log, position shown) and the record.
    record: Option<((PlayerId, usize, usize), Arc<Record>)>,
}

impl PlayersScreen {
    /// Opens `id`'s page.
    pub fn show(&mut self, id: Option<PlayerId>, ladder: &Ladder) {
        self.player = id;
        self.rename_to = id
            .and_then(|i| ladder.player(i))
            .map(|p| p.name.clone())
            .unwrap_or_default();
    }

    /// The screen was switched to, showing the list: the keyboard goes to New player, where a
    /// person adding players starts typing.
    pub fn arrived(&mut self) {
        self.focus_new = true;
    }

    /// A player was added: the field clears and keeps the keyboard.
    pub fn added(&mut self) {
        self.new_player.clear();
        if let Some(list) = &mut self.several {
            list.clear();
        }
        self.focus_new = true;
    }

    /// A player's record (head-to-head, matches) up to the point `shown` (`None`: now),
    /// computed once per player, log and timeline position.
    fn record_of(
        &mut self,
        id: PlayerId,
        view: &Arc<LogView>,
        shown: Option<usize>,
    ) -> Arc<Record> {
        let shown = shown.unwrap_or(view.events.len());
        let key = (id, Arc::as_ptr(view) as usize, shown);
        if let Some((k, r)) = &self.record
            && *k == key
        {
            return r.clone();
        }
        let events = &view.events[..shown.min(view.events.len())];
        let r = Arc::new(rungs_ladder::record::record(events, id));
        self.record = Some((key, r.clone()));
        r
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut PlayersScreen, app: &mut AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("New player:");
        let id = ui.scope_id().with("new-player");
        if std::mem::take(&mut me.focus_new) {
            ui.memory_mut(|m| m.request_focus(id));
        }
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut me.new_player)
                    .id(id)
                    .hint_text("name, then Enter")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(Key::Enter));
        if ui.button("Add player").clicked() || enter {
            out.push(Command::AddPlayer(me.new_player.clone()));
        }
        // Enter takes the keyboard out of a one-line field: it stays here whether the name
        // is added or refused (then the name stays, to be corrected).
        if enter {
            me.focus_new = true;
        }
        if ui
            .selectable_label(me.several.is_some(), "Several at once…")
            .on_hover_text("Paste or type a list, one name per line")
            .clicked()
        {
            me.several = match me.several {
                Some(_) => None,
                None => Some(String::new()),
            };
        }
        ui.weak("A new player can play on any date: they join at their first match.");
    });
    if let Some(list) = &mut me.several {
        several(ui, list, out);
    }
    ui.separator();
    let narrow = ui.available_width() < 900.0;
    if narrow && me.player.is_some() {
        // One column: the page, with a way back to the list.
        if ui.button("← All players").clicked() {
            me.player = None;
        }
        egui::ScrollArea::vertical()
            .id_salt("player-page")
            .show(ui, |ui| page(ui, me, app, out));
        return;
    }
    if narrow {
        list(ui, me, app, out);
        return;
    }
    // The list at the left (resizable), the page in the rest.
    egui::Panel::left("player-list")
        .resizable(true)
        .default_size(260.0)
        .min_size(160.0)
        .show(ui, |ui| list(ui, me, app, out));
    // The page runs longer than the window for a player with many opponents.
    egui::ScrollArea::vertical()
        .id_salt("player-page")
        .show(ui, |ui| page(ui, me, app, out));
}

/// Several players at once: one name per line ("Alice, Ben" on one line is one name, and
/// refused: a comma joins a team), added as one change (one Undo takes them all back).
fn several(ui: &mut egui::Ui, list: &mut String, out: &mut Vec<Command>) {
    let names: Vec<String> = list
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(str::to_string)
        .collect();
    ui.horizontal(|ui| {
        let label = ui.label("New players, one per line:");
        ui.add(
            egui::TextEdit::multiline(list)
                .desired_rows(4)
                .desired_width(260.0),
        )
        .labelled_by(label.id);
        let text = match names.len() {
            0 => "Add players".to_string(),
            1 => "Add 1 player".to_string(),
            n => format!("Add {n} players"),
        };
        if ui
            .add_enabled(!names.is_empty(), egui::Button::new(text))
            .clicked()
        {
            out.push(Command::AddPlayers(names.clone()));
        }
    });
}

/// Every player, searchable, alphabetical.
fn list(ui: &mut egui::Ui, me: &mut PlayersScreen, app: &AppState, out: &mut Vec<Command>) {
    ui.horizontal(|ui| {
        let label = ui.label("Search:");
        ui.add(
            egui::TextEdit::singleline(&mut me.search)
                .hint_text("name")
                .desired_width(160.0),
        )
        .labelled_by(label.id);
    });
    let key = me.search.trim().to_lowercase();
    let mut names: Vec<(PlayerId, &str, bool)> = app
        .ladder
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.joined && (key.is_empty() || p.name.to_lowercase().contains(&key)))
        .map(|(i, p)| (i as PlayerId, p.name.as_str(), p.retired))
        .collect();
    names.sort_by_key(|(_, n, _)| n.to_lowercase());
    let total = app.ladder.players.iter().filter(|p| p.joined).count();
    ui.label(if names.len() == total {
        format!("{} players", widgets::thousands(total as u64))
    } else {
        format!(
            "{} of {} players",
            widgets::thousands(names.len() as u64),
            widgets::thousands(total as u64)
        )
    });
    let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::vertical()
        .id_salt("names")
        .auto_shrink([false, false])
        .show_rows(ui, row, names.len(), |ui, range| {
            for (id, name, retired) in &names[range] {
                let text = if *retired {
                    RichText::new(format!("{name} (retired)")).weak()
                } else {
                    RichText::new(*name)
                };
                if ui.selectable_label(me.player == Some(*id), text).clicked() {
                    out.push(Command::ShowPlayer(Some(*id)));
                }
            }
        });
}

/// One player's page.
fn page(ui: &mut egui::Ui, me: &mut PlayersScreen, app: &mut AppState, out: &mut Vec<Command>) {
    let Some(id) = me.player else {
        ui.weak("Pick a player to see their record.");
        return;
    };
    let Some(p) = app.ladder.player(id).cloned() else {
        return;
    };
    ui.heading(&p.name);
    let f = app.ladder.figures(&p);
    let facts = app.ladder.rules.facts();
    ui.label(format!(
        "{} match{}: {} won, {} drawn, {} lost · {} {:.0} · rating {:.1} ± {:.1}",
        p.matches,
        if p.matches == 1 { "" } else { "es" },
        p.wins,
        p.draws,
        p.losses,
        facts.score,
        f.score,
        f.rating,
        f.deviation
    ));
    if p.retired {
        ui.label(
            RichText::new("Retired: off the standings; history kept. A match brings them back.")
                .weak(),
        );
    }
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Rename to:");
        ui.add(egui::TextEdit::singleline(&mut me.rename_to).desired_width(180.0))
            .labelled_by(label.id);
        if ui.button("Rename").clicked() {
            out.push(Command::Rename(id, me.rename_to.clone()));
        }
        ui.separator();
        let (label, hint) = if p.retired {
            (format!("Bring back {}", p.name), "Lists the player on the standings again")
        } else {
            (
                format!("Retire {}", p.name),
                "Takes the player off the standings from today; their history stays, and Undo or a match brings them back",
            )
        };
        if ui.button(label).on_hover_text(hint).clicked() {
            out.push(Command::Retire(id, !p.retired));
        }
    });
    if ui
        .button("Open in History (band, markers, several players)")
        .clicked()
    {
        out.push(Command::Tool(ToolCommand::Plot(id)));
        out.push(Command::Show(Screen::History));
    }
    history_plot(ui, app, id);
    // Head-to-head and recent matches, from the log as read for the plots (a large ladder
    // reads it as a job, not every frame), up to the point the timeline shows.
    let Some(view) = app.tools.log_view.clone() else {
        if app.job.is_none() {
            out.push(Command::Tool(ToolCommand::LoadLog));
        }
        ui.weak("Reading the log for head-to-head records…");
        return;
    };
    let record = me.record_of(id, &view, app.tools.position);
    let name = |i: PlayerId| {
        app.ladder
            .player(i)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    ui.separator();
    ui.strong("Head-to-head");
    let rows: Vec<Vec<String>> = record
        .head_to_head
        .iter()
        .take(20)
        .map(|(opp, [w, d, l])| vec![name(*opp), format!("{w}-{d}-{l}")])
        .collect();
    widgets::text_table(ui, "h2h", &["opponent", "W-D-L"], &[200.0, 90.0], &rows);
    ui.separator();
    ui.strong("Recent matches");
    for m in record.matches.iter().take(12) {
        let who = m
            .opponents
            .iter()
            .map(|&i| name(i))
            .collect::<Vec<_>>()
            .join(" + ");
        ui.label(format!("{}  {} {who}", m.date, m.result.verb()));
    }
}

/// A tick of the player page's x axis: their n-th event, counted from 1 (whole ticks only).
fn event_tick(mark: egui_plot::GridMark, _: &std::ops::RangeInclusive<f64>) -> String {
    let x = mark.value;
    if x >= 0.0 && x.fract() == 0.0 && mark.step_size >= 1.0 {
        format!("#{:.0}", x + 1.0)
    } else {
        String::new()
    }
}

/// The player's rating (with its band as dashed bounds) and shown score by match; hovering
/// either reads out the match and the value, and the score plot names the tiers.
fn history_plot(ui: &mut egui::Ui, app: &mut AppState, id: PlayerId) {
    use egui_plot::{HLine, Line, LineStyle, Plot, PlotPoints};
    let rows = app.history_of(id);
    if rows.len() < 2 {
        ui.weak("The history plot appears after the first match.");
        return;
    }
    let facts = app.ladder.rules.facts();
    let band = facts.band.map_or(0.0, |b| b.factor);
    let points = |f: &dyn Fn(&rungs_ladder::state::Figures) -> f64| -> PlotPoints<'static> {
        rows.iter()
            .enumerate()
            .map(|(i, r)| [i as f64, f(&r.figures)])
            .collect::<Vec<_>>()
            .into()
    };
    let mut hovered: Option<f64> = None;
    let colour = colour(0);
    let faint = colour.gamma_multiply(0.6);
    ui.horizontal_wrapped(|ui| {
        let width = ((ui.available_width() - 24.0) / 2.0).clamp(200.0, 600.0);
        // The wheel zooms both plots' time axis together (`wheel_zoom`); dragging pans.
        let linked = egui::Id::unique(("player-plots", id));
        Plot::new(("rating-plot", id))
            .height(180.0)
            .width(width)
            .x_axis_formatter(event_tick)
            .allow_scroll(false)
            .link_axis(linked, [true, false])
            .show(ui, |p| {
                wheel_zoom(p);
                p.line(Line::new("rating", points(&|f| f.rating)).color(colour));
                if band > 0.0 {
                    for (name, sign) in [("upper bound", 1.0), ("lower bound", -1.0)] {
                        p.line(
                            Line::new(name, points(&|f| f.rating + sign * band * f.deviation))
                                .color(faint)
                                .style(LineStyle::dashed_loose()),
                        );
                    }
                }
                if let Some(c) = p.pointer_coordinate().filter(|_| p.response().hovered()) {
                    hovered = Some(c.x);
                }
            });
        let tiers = facts.tiers;
        let top = rows.iter().map(|r| r.figures.score).fold(0.0, f64::max);
        let shown = Plot::new(("score-plot", id))
            .height(180.0)
            .width(width)
            .x_axis_formatter(event_tick)
            .allow_scroll(false)
            .link_axis(linked, [true, false])
            .show(ui, |p| {
                wheel_zoom(p);
                p.line(Line::new(facts.score, points(&|f| f.score)).color(colour));
                if tiers {
                    for line in rungs_chart::tier_lines(&app.ladder.rules) {
                        if line.value <= top + 100.0 {
                            p.hline(
                                HLine::new(line.label, line.value)
                                    .color(widgets::tier_colour(line.tier).gamma_multiply(0.7)),
                            );
                        }
                    }
                }
                if let Some(c) = p.pointer_coordinate().filter(|_| p.response().hovered()) {
                    hovered = Some(c.x);
                }
            });
        if tiers {
            tier_labels(ui, &shown.transform, &app.ladder.rules);
        }
    });
    // The hovered event's values, read out below the plots.
    let at = hovered
        .filter(|x| x.is_finite())
        .map(|x| x.round().clamp(0.0, (rows.len() - 1) as f64) as usize);
    match at.and_then(|i| Some((i, rows.get(i)?))) {
        Some((i, r)) => {
            let f = r.figures;
            let tier = facts
                .tiers
                .then(|| app.ladder.rules.tier_table().of_rp(f.score).name())
                .map_or(String::new(), |t| format!(" ({t})"));
            // The log's event number, as History and the edit window number events (x counts
            // the player's own events); a reset by the calendar is no event of the log.
            let event = match r.seq {
                rungs_ladder::calendar::SCHEDULED_SEQ => "reset by the calendar".to_string(),
                seq => format!("event {seq}"),
            };
            ui.label(format!(
                "their #{} · {event} · {} · rating {:.0}{} · {} {:.0}{tier}",
                i + 1,
                r.date,
                f.rating,
                if band > 0.0 {
                    format!(" ± {:.0}", f.deviation)
                } else {
                    String::new()
                },
                facts.score,
                f.score
            ));
        }
        None => {
            ui.weak("Hover over a plot to read the values.");
        }
    }
    ui.weak(format!(
        "x: the player's events in order (join, matches, resets) · left: rating{} · right: {}{}",
        if band > 0.0 { " with its band" } else { "" },
        facts.score,
        if facts.tiers { " with tier lines" } else { "" }
    ));
}
