//! Boxes: the box league's period under way, each box's table with every tie-break in a
//! column of its own, who still has to play whom (each pair a button that opens its result
//! form), and "Close the period…", which previews the next period's boxes (who goes up, who
//! down, who leaves) before Apply makes them one undoable change. Each change is a
//! [`Command`], applied after the frame; the tables are the gate's reading of the log
//! ([`AppState::formats`]).

use super::command::{Command, FormatCommand, Screen};
use super::state::AppState;
use super::widgets::{self, ResultRow};
use eframe::egui::{self, RichText};
use rungs_gate::formats::{Formats, rating};
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::formats::boxes::{BoxTable, Period};
use rungs_ladder::formats::settings::{BoxPeriodRecord, BoxSettings, TieBreak};
use std::sync::Arc;

/// The result form of one box match.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ResultForm {
    pub a: PlayerId,
    pub b: PlayerId,
    /// The keyboard goes to the score when the form opens.
    pub focus: bool,
    /// The games from A's side ("3-1").
    pub games: String,
}

/// The formats as read (none without a ladder), or why they could not be read.
type Read = Result<Option<Arc<Formats>>, String>;

/// The Boxes screen's own state.
#[derive(Default)]
pub struct BoxesScreen {
    pub result: Option<ResultForm>,
    /// Whether the league to start takes the ladder's seasons as its periods.
    pub by_seasons: bool,
    /// The formats read at this generation of the ladder (or why they could not be).
    read: Option<(u64, Read)>,
}

impl BoxesScreen {
    /// Shared, not copied: the screen draws every frame.
    fn formats(&mut self, app: &AppState) -> Read {
        if self.read.as_ref().is_none_or(|r| r.0 != app.generation) {
            if self.read.is_some() {
                // A change landed: the form is done with (a refused one stays as typed).
                self.result = None;
            }
            let read = app
                .formats()
                .map(|f| f.map(Arc::new))
                .map_err(|e| crate::words::app(&e, Screen::Boxes));
            self.read = Some((app.generation, read));
        }
        self.read.as_ref().map(|r| r.1.clone()).unwrap_or(Ok(None))
    }
}

/// How a box match scores, in words.
pub fn points_line(s: &BoxSettings) -> String {
    let scheme = rungs_ladder::formats::box_points::scheme_words(&s.points);
    let min = s
        .min_matches
        .map_or(String::new(), |m| format!(" · {m} matches to stay in"));
    format!(
        "boxes of {} · top {} up, bottom {} down · {scheme} · walkover {}–{}{min}",
        s.box_size, s.up, s.down, s.walkover[0], s.walkover[1]
    )
}

/// A tie-break's column heading in the app's words.
fn tie_break_heading(b: TieBreak) -> &'static str {
    match b {
        TieBreak::Points => "Points",
        TieBreak::HeadToHead => "Head to head",
        TieBreak::MatchesWon => "Matches won",
        TieBreak::GamesLost => "Games lost",
        TieBreak::GameDifference => "Game difference",
        TieBreak::Rating => "Rating",
    }
}

/// A table's columns: place, player, played, won, drawn, lost, games, then each tie-break.
pub fn table_rows(t: &BoxTable, name: &dyn Fn(PlayerId) -> String) -> Vec<Vec<String>> {
    t.rows
        .iter()
        .map(|r| {
            let mut row = vec![
                r.place.to_string(),
                name(r.player),
                r.tally.played.to_string(),
                r.tally.won.to_string(),
                r.tally.drawn.to_string(),
                r.tally.lost.to_string(),
                format!("{}–{}", r.tally.games_won, r.tally.games_lost),
            ];
            row.extend(
                r.tie_values
                    .iter()
                    .map(|v| v.map_or("·".to_string(), |v| v.as_text())),
            );
            row
        })
        .collect()
}

/// The next period's record, if the preview showing is a period closing.
fn previewed(app: &AppState) -> Option<&BoxPeriodRecord> {
    let p = app.pending.as_ref()?;
    p.action.rows().iter().find_map(|(_, e)| match e {
        Entry::Add {
            event: Event::BoxPeriod { period },
        } => Some(&**period),
        _ => None,
    })
}

pub fn show(ui: &mut egui::Ui, me: &mut BoxesScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let f = match me.formats(app) {
        Ok(Some(f)) => f,
        Ok(None) => return,
        Err(e) => {
            ui.colored_label(ui.visuals().error_fg_color, e);
            return;
        }
    };
    let ladder = &app.ladder;
    let name = |id: PlayerId| {
        ladder.player(id).map_or("?".to_string(), |p| {
            rungs_ladder::values::shown(&p.name).into_owned()
        })
    };
    let Some(period) = f.boxes.current() else {
        ui.heading("Box league");
        // Seasons can set the periods only where the calendar schedules them.
        let scheduled = ladder.rules.calendar.schedule().is_some();
        let period = if scheduled && me.by_seasons {
            "the season under way, each later period a season of its own"
        } else {
            "this calendar month"
        };
        ui.label(format!(
            "This ladder runs no box league yet. Starting one fills boxes of five by rating, \
             best first, for {period}; results still rate as before."
        ));
        if scheduled {
            ui.checkbox(
                &mut me.by_seasons,
                "Each period is one of the ladder's seasons (the next opens when one closes)",
            );
        }
        if ui.button("Start the box league").clicked() {
            out.push(Command::Format(FormatCommand::StartBoxes {
                seasons: scheduled && me.by_seasons,
            }));
        }
        return;
    };
    let record = &period.record;
    let today = crate::state::today();
    let left = (record.end - today).num_days();
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!(
            "Box league · period {} ({} to {})",
            record.number, record.start, record.end
        ));
        ui.label(match left {
            n if n < 0 => "ended".to_string(),
            0 => "last day".to_string(),
            1 => "1 day left".to_string(),
            n => format!("{n} days left"),
        });
        if ui
            .button("Close the period…")
            .on_hover_text(
                "Shows the next period's boxes (who goes up, who down, who leaves) before \
                 anything changes",
            )
            .clicked()
        {
            out.push(Command::Format(FormatCommand::PreviewClosePeriod));
        }
    });
    ui.label(RichText::new(points_line(&record.settings)).weak());
    if let Some(next) = previewed(app) {
        preview(ui, period, next, &name, out);
    }
    if let Some(form) = &mut me.result
        && result_form(ui, form, app, out)
    {
        me.result = None;
    }
    ui.separator();
    let tables = period.tables(&|id| rating(ladder, id));
    let still = period.still_to_play();
    let mut pick = None;
    egui::ScrollArea::vertical()
        .id_salt("boxes")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            for t in &tables {
                box_table(ui, t, record, &name);
                let pairs = still
                    .iter()
                    .find(|s| s.number == t.number)
                    .map_or(&[][..], |s| &s.pairs[..]);
                ui.horizontal_wrapped(|ui| {
                    if pairs.is_empty() {
                        ui.weak("Every match of this box is played.");
                        return;
                    }
                    ui.label("Still to play:");
                    for (a, b) in pairs {
                        if ui
                            .button(format!("{} – {}", name(*a), name(*b)))
                            .on_hover_text("Enter this match's result")
                            .clicked()
                        {
                            pick = Some((*a, *b));
                        }
                    }
                });
                ui.add_space(8.0);
            }
        });
    if let Some((a, b)) = pick {
        me.result = Some(ResultForm {
            a,
            b,
            games: String::new(),
            focus: true,
        });
    }
}

fn box_table(
    ui: &mut egui::Ui,
    t: &BoxTable,
    record: &BoxPeriodRecord,
    name: &dyn Fn(PlayerId) -> String,
) {
    let s = &record.settings;
    let last = record.boxes.len() as u32;
    ui.strong(format!("Box {}", t.number));
    // Who goes up or down right after the name: at the table's end it scrolled out of an
    // 800-point window. The tie-breaks headed in words, not as `--tie-breaks` reads them.
    let mut headers: Vec<String> = ["#", "Player", "", "P", "W", "D", "L", "Games"]
        .iter()
        .map(|h| h.to_string())
        .collect();
    headers.extend(
        t.tie_breaks
            .iter()
            .map(|b| tie_break_heading(*b).to_string()),
    );
    let n = t.rows.len() as u32;
    let mut rows = table_rows(t, name);
    for (row, r) in rows.iter_mut().zip(&t.rows) {
        let mark = if t.number > 1 && r.place <= s.up {
            "▲ up"
        } else if t.number < last && r.place + s.down > n {
            "▼ down"
        } else {
            ""
        };
        row.insert(2, mark.to_string());
    }
    let headers: Vec<&str> = headers.iter().map(String::as_str).collect();
    let mut widths = vec![28.0, 150.0, 60.0, 30.0, 30.0, 30.0, 30.0, 56.0];
    widths.extend(
        t.tie_breaks
            .iter()
            .map(|b| match tie_break_heading(*b).len() {
                n if n > 10 => 104.0,
                _ => 72.0,
            }),
    );
    super::widgets::text_table(ui, &format!("box-{}", t.number), &headers, &widths, &rows);
    if !t.withdrawn.is_empty() {
        let names: Vec<String> = t.withdrawn.iter().map(|p| name(*p)).collect();
        ui.weak(format!("Withdrawn this period: {}", names.join(", ")));
    }
}

fn preview(
    ui: &mut egui::Ui,
    period: &Period,
    next: &BoxPeriodRecord,
    name: &dyn Fn(PlayerId) -> String,
    out: &mut Vec<Command>,
) {
    ui.group(|ui| {
        ui.strong(format!(
            "Preview — period {} ({} to {}), {} boxes",
            next.number,
            next.start,
            next.end,
            next.boxes.len()
        ));
        egui::ScrollArea::horizontal()
            .id_salt("next-period")
            .show(ui, |ui| {
                ui.horizontal_top(|ui| {
                    for (i, players) in next.boxes.iter().enumerate() {
                        ui.vertical(|ui| {
                            ui.strong(format!("Box {}", i + 1));
                            for p in players {
                                let was = period.box_index(*p);
                                let moved = match was {
                                    Some(w) if w > i => format!(" ▲ from box {}", w + 1),
                                    Some(w) if w < i => format!(" ▼ from box {}", w + 1),
                                    Some(_) => String::new(),
                                    None => " (new)".to_string(),
                                };
                                ui.label(format!("{}{moved}", name(*p)));
                            }
                        });
                        ui.add_space(12.0);
                    }
                });
            });
        let gone: Vec<String> = period
            .record
            .players()
            .filter(|p| !next.players().any(|q| q == *p))
            .map(name)
            .collect();
        if !gone.is_empty() {
            ui.label(format!("Leaving the boxes: {}", gone.join(", ")));
        }
        ui.horizontal(|ui| {
            if ui.button("Apply").clicked() {
                out.push(Command::Confirm);
            }
            if ui.button("Cancel").clicked() {
                out.push(Command::Cancel);
            }
        });
    });
}

/// The form of one match; true when Cancel was pressed. The command names the players as
/// the ladder holds them (what is shown escapes control characters).
fn result_form(
    ui: &mut egui::Ui,
    form: &mut ResultForm,
    app: &AppState,
    out: &mut Vec<Command>,
) -> bool {
    let held = |id: PlayerId| {
        app.ladder
            .player(id)
            .map_or(String::new(), |p| p.name.clone())
    };
    let shown = |id| rungs_ladder::values::shown(&held(id)).into_owned();
    let (a, b) = (shown(form.a), shown(form.b));
    let mut close = false;
    ui.group(|ui| {
        ui.strong(format!("Result: {a} v {b}"));
        ui.horizontal_wrapped(|ui| {
            let mut said = None;
            match widgets::result_row(
                ui,
                "Score:",
                &format!("3-1, {a}'s first"),
                &mut form.games,
                &mut form.focus,
                &a,
                &b,
            ) {
                Some(ResultRow::Said(result)) => said = Some(result),
                Some(ResultRow::Cancel) => close = true,
                None => {}
            }
            if let Some(result) = said {
                out.push(Command::Format(FormatCommand::BoxResult {
                    a: held(form.a),
                    b: held(form.b),
                    result: result.to_string(),
                    games: form.games.trim().to_string(),
                }));
            }
        });
    });
    close
}
