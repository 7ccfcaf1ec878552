//! Matches: every match of the log, newest first, searchable by player, date range, result
//! and scenario, with the resets, rules changes and migrations between them as separator
//! rows. Each match opens the edit window (any match, not only the latest), and its Why? the
//! explanation of what it moved (the explanation panel). The log is the
//! one the plots read (`LogView`, read once per change of the ladder, off the window's thread
//! on a large one); the search's rows are indices into it, worked out when the search or the
//! ladder changes ([`rungs_ladder::listing`]); only the rows in view are drawn.

use super::command::{Command, ToolCommand};
use super::enter_match::EnterMatchScreen;
use super::state::AppState;
use super::tools::LogView;
use super::widgets;
use chrono::NaiveDate;
use eframe::egui;
use egui_extras::{Column, TableBuilder};
use rungs_ladder::event::Event;
use rungs_ladder::listing::{self, ResultFilter, Row, Search};
use std::sync::Arc;

/// The Matches screen's own state: the search as typed, and its rows.
#[derive(Default)]
pub struct MatchesScreen {
    pub player: String,
    pub from: String,
    pub to: String,
    pub result: ResultFilter,
    pub scenario: String,
    rows: Option<Rows>,
}

/// The rows of one search of one log.
struct Rows {
    search: Search,
    log: usize,
    rows: Arc<Vec<Row>>,
    matches: usize,
}

/// A date field as typed: empty is none; anything else must read as YYYY-MM-DD.
fn day(text: &str) -> Result<Option<NaiveDate>, ()> {
    match text.trim() {
        "" => Ok(None),
        t => NaiveDate::parse_from_str(t, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| ()),
    }
}

impl MatchesScreen {
    /// The search as typed (a date that does not read searches no date: the screen says so).
    fn search(&self, app: &AppState) -> Search {
        let text = self.player.trim().to_lowercase();
        let players = (!text.is_empty()).then(|| {
            app.now()
                .players
                .iter()
                .enumerate()
                .filter(|(_, p)| p.joined && p.name.to_lowercase().contains(&text))
                .map(|(id, _)| id as rungs_ladder::event::PlayerId)
                .collect()
        });
        Search {
            players,
            from: day(&self.from).ok().flatten(),
            to: day(&self.to).ok().flatten(),
            result: self.result,
            scenario: self.scenario.trim().to_string(),
        }
    }

    /// The rows of the search on `view`, worked out again only when either changed.
    fn rows(&mut self, app: &AppState, view: &Arc<LogView>) -> (Arc<Vec<Row>>, usize) {
        let search = self.search(app);
        let log = Arc::as_ptr(view) as usize;
        let fresh = self
            .rows
            .as_ref()
            .is_some_and(|r| r.log == log && r.search == search);
        if !fresh {
            self.rows = None;
        }
        let r = self.rows.get_or_insert_with(|| {
            let rows = listing::list(&view.events, &marks(view), &search);
            let matches = rows.iter().filter(|r| matches!(r, Row::Match(_))).count();
            Rows {
                search,
                log,
                rows: Arc::new(rows),
                matches,
            }
        });
        (r.rows.clone(), r.matches)
    }
}

/// Each mark of the log with the index of the event it comes before.
fn marks(view: &LogView) -> Vec<(usize, u32)> {
    view.index
        .markers()
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let key = m.key();
            let before = view.events.partition_point(|e| (e.date, e.seq) < key);
            (before, i as u32)
        })
        .collect()
}

pub fn show(
    ui: &mut egui::Ui,
    me: &mut MatchesScreen,
    enter: &mut EnterMatchScreen,
    app: &AppState,
    out: &mut Vec<Command>,
) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let Some(view) = app.tools.log_view.clone() else {
        if app.job.is_none() {
            out.push(Command::Tool(ToolCommand::LoadLog));
        }
        ui.label("Reading the log…");
        return;
    };
    search_fields(ui, me, app);
    let (rows, found) = me.rows(app, &view);
    let total = view.match_counts.last().copied().unwrap_or(0);
    let mut said = format!(
        "{} of {} matches",
        widgets::thousands(found as u64),
        widgets::thousands(u64::from(total))
    );
    if day(&me.from).is_err() || day(&me.to).is_err() {
        said.push_str(" · a date reads YYYY-MM-DD (that one is not searched)");
    }
    let past = app.tools.position.is_some();
    if past {
        said.push_str(" · viewing the past: return to now to edit");
    } else {
        said.push_str(
            " · click a match to change or delete it, Why? to see how it moved each player",
        );
    }
    ui.weak(said);
    ui.separator();
    let row_height = ui.spacing().interact_size.y;
    let now = app.now();
    let memoir = view
        .events
        .iter()
        .rev()
        .take(2000)
        .any(|e| matches!(&e.event, Event::Match(m) if m.scenario.is_some()));
    let mut table = TableBuilder::new(ui)
        .id_salt("matches")
        .striped(true)
        .auto_shrink([false, false])
        .column(Column::exact(90.0))
        .column(Column::remainder().at_least(160.0).clip(true));
    if memoir {
        table = table.column(Column::exact(140.0).clip(true));
    }
    table
        .column(Column::exact(70.0))
        .column(Column::exact(50.0))
        .header(row_height, |mut h| {
            h.col(|ui| {
                ui.strong("Date");
            });
            h.col(|ui| {
                ui.strong("Match");
            });
            if memoir {
                h.col(|ui| {
                    ui.strong("Scenario");
                });
            }
            h.col(|ui| {
                ui.strong("Event");
            });
            h.col(|_| {});
        })
        .body(|body| {
            body.rows(row_height, rows.len(), |mut row| match rows[row.index()] {
                Row::Mark(i) => {
                    let Some(m) = view.index.markers().get(i as usize) else {
                        return;
                    };
                    row.col(|ui| {
                        ui.weak(m.date.to_string());
                    });
                    row.col(|ui| {
                        ui.label(
                            egui::RichText::new(format!("── {} ──", m.label))
                                .italics()
                                .color(ui.visuals().warn_fg_color),
                        );
                    });
                    if memoir {
                        row.col(|_| {});
                    }
                    row.col(|_| {});
                    row.col(|_| {});
                }
                Row::Match(i) => {
                    let Some(e) = view.events.get(i as usize) else {
                        return;
                    };
                    let Event::Match(m) = &e.event else { return };
                    row.col(|ui| {
                        ui.label(e.date.to_string());
                    });
                    row.col(|ui| {
                        let line = widgets::event_line(now, &e.event);
                        let b = ui
                            .add_enabled(!past, egui::Button::new(line).frame(false))
                            .on_hover_text("Change the date, players, result, or delete");
                        if b.clicked() {
                            enter.open_edit(app, e);
                        }
                    });
                    if memoir {
                        row.col(|ui| {
                            ui.label(m.scenario.as_deref().unwrap_or(""));
                        });
                    }
                    row.col(|ui| {
                        ui.weak(widgets::thousands(e.seq));
                    });
                    row.col(|ui| {
                        // Read-only: it explains the past too.
                        let why = ui.small_button("Why?").on_hover_text(
                            "How this match moved each player's figures, step by step",
                        );
                        if why.clicked() {
                            out.push(Command::Explain {
                                seq: e.seq,
                                player: None,
                            });
                        }
                    });
                }
            });
        });
}

fn search_fields(ui: &mut egui::Ui, me: &mut MatchesScreen, app: &AppState) {
    ui.horizontal_wrapped(|ui| {
        let fields: [(&str, &mut String, f32); 3] = [
            ("Player:", &mut me.player, 140.0),
            ("From:", &mut me.from, 100.0),
            ("To:", &mut me.to, 100.0),
        ];
        for (label, text, width) in fields {
            let name = ui.label(label);
            ui.add(
                egui::TextEdit::singleline(text)
                    .desired_width(width)
                    .hint_text(if width < 120.0 { "YYYY-MM-DD" } else { "" }),
            )
            .labelled_by(name.id);
        }
        let name = ui.label("Result:");
        egui::ComboBox::from_id_salt("matches-result")
            .selected_text(me.result.label())
            .show_ui(ui, |ui| {
                for r in ResultFilter::ALL {
                    ui.selectable_value(&mut me.result, r, r.label());
                }
            })
            .response
            .labelled_by(name.id);
        if app.ladder.rules.system() == rungs_ladder::rules::System::Memoir44
            || !me.scenario.is_empty()
        {
            let name = ui.label("Scenario:");
            ui.add(egui::TextEdit::singleline(&mut me.scenario).desired_width(140.0))
                .labelled_by(name.id);
        }
        let any = !(me.player.is_empty()
            && me.from.is_empty()
            && me.to.is_empty()
            && me.scenario.is_empty()
            && me.result == ResultFilter::Any);
        if ui.add_enabled(any, egui::Button::new("Clear")).clicked() {
            *me = MatchesScreen {
                rows: me.rows.take(),
                ..MatchesScreen::default()
            };
        }
    });
}
