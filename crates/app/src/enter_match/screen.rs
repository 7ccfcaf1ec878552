//! The Enter match screen as drawn: the form, its result buttons and Save, and the latest
//! matches.
use super::edit::edit_window;
use super::edit::form_of;
use super::fields::{
    home_field, memoir_fields, result_choices, score_conflict, score_fields, shown_name,
};
use super::forecast::forecast_lines;
use super::forecast::{Forecast, compute_forecast};
use super::form::{EditForm, MatchForm, check, result_key, said};
use crate::command::{Command, ToolCommand};
use crate::picker::name_picker;
use crate::state::{self, AppState};
use crate::widgets;
use eframe::egui::{self, Key, RichText};
use rungs_ladder::event::Event;
use rungs_ladder::log::Effective;
use rungs_ladder::rules::System;

/// The Enter match screen's own state.
pub struct EnterMatchScreen {
    pub form: MatchForm,
    pub(super) highlight: [usize; 2],
    /// Give Player A the keyboard on the next frame (after a save, on arriving).
    pub(super) focus_a: bool,
    /// Enter, taken for the form before the menu and tabs were drawn (see [`EnterMatchScreen::take_enter`]).
    pub(super) enter: bool,
    pub(super) forecast: Option<Forecast>,
    pub edit: Option<EditForm>,
}

impl Default for EnterMatchScreen {
    fn default() -> Self {
        EnterMatchScreen {
            form: MatchForm {
                date: state::today().to_string(),
                ..MatchForm::default()
            },
            highlight: [0; 2],
            focus_a: true,
            enter: false,
            forecast: None,
            edit: None,
        }
    }
}

impl EnterMatchScreen {
    /// A match was saved: the form clears for the next one (the date stays), the keyboard
    /// goes back to Player A.
    pub fn saved(&mut self) {
        self.form = MatchForm {
            date: std::mem::take(&mut self.form.date),
            ..MatchForm::default()
        };
        self.highlight = [0; 2];
        self.focus_a = true;
    }

    /// The screen was switched to: the keyboard goes to Player A, where a person starts
    /// typing (on every arrival, not only the first, or Tab walks into the menu bar).
    pub fn arrived(&mut self) {
        if self.edit.is_none() {
            self.focus_a = true;
        }
    }

    /// Takes Enter for the form before anything else is drawn this frame, so that a menu,
    /// tab or Undo button with the keyboard is never pressed by it. Escape closes an open
    /// edit window, else clears the form (its date kept); it is left to the text field too,
    /// which gives the keyboard up, so that Ctrl+Z then acts on the ladder.
    pub fn take_enter(&mut self, ui: &egui::Ui) {
        self.enter |= ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Enter));
        if ui.input(|i| i.key_pressed(Key::Escape)) {
            if self.edit.is_some() {
                self.edit = None;
            } else {
                self.form = MatchForm {
                    date: std::mem::take(&mut self.form.date),
                    ..MatchForm::default()
                };
                self.highlight = [0; 2];
            }
        }
    }

    /// Opens the edit window on match `e` (from the latest, or from the Matches screen).
    pub fn open_edit(&mut self, app: &AppState, e: &Effective) {
        if let Event::Match(m) = &e.event {
            self.edit = Some(EditForm {
                original: e.clone(),
                form: form_of(app, e.date, m),
                highlight: [0; 2],
            });
        }
    }

    /// Draws the edit window, if one is open, for a screen other than this one (Matches):
    /// Enter saves it, as here.
    pub fn show_edit(&mut self, ui: &mut egui::Ui, app: &AppState, out: &mut Vec<Command>) {
        let enter = std::mem::take(&mut self.enter);
        if self.edit.is_some() {
            edit_window(ui, &mut self.edit, app, out, enter);
        }
    }

    /// The forecast for the form (computed when the form or the ladder changed).
    pub fn forecast(&mut self, app: &AppState) -> &Forecast {
        let mut key_form = self.form.clone();
        key_form.result = None;
        let key = (key_form, app.generation);
        if self.forecast.as_ref().is_some_and(|f| f.key != key) {
            self.forecast = None;
        }
        self.forecast
            .get_or_insert_with(|| compute_forecast(app, key))
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut EnterMatchScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    // Enter belongs to the form (or the edit window): it saves, and never presses whatever
    // button happens to have the keyboard.
    let enter = std::mem::take(&mut me.enter)
        | ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, Key::Enter));
    if me.edit.is_some() {
        edit_window(ui, &mut me.edit, app, out, enter);
    }
    let past = app.tools.position;
    if let Some(n) = past {
        ui.horizontal_wrapped(|ui| {
            ui.label(
                RichText::new(format!(
                    "Viewing the past (after event {}): the forecast is as of then, and saving is \
                     off until you return to now.",
                    widgets::thousands(n as u64)
                ))
                .color(ui.visuals().warn_fg_color),
            );
            if ui.button("Return to now").clicked() {
                out.push(Command::Tool(ToolCommand::ReturnToNow));
            }
        });
    }
    let base = ui.scope_id().with("enter-form");
    let ids = [base.with("date"), base.with("a"), base.with("b")];
    let offers_a = app.suggestions(&me.form.a, 6);
    let offers_b = app.suggestions(&me.form.b, 6);
    let mut focus_result = false;
    if std::mem::take(&mut me.focus_a) {
        ui.memory_mut(|m| m.request_focus(ids[1]));
    }
    ui.horizontal_wrapped(|ui| {
        ui.vertical(|ui| {
            let name = ui.label("Date");
            ui.add(
                egui::TextEdit::singleline(&mut me.form.date)
                    .id(ids[0])
                    .desired_width(100.0),
            )
            .labelled_by(name.id);
        });
        let width = 200.0_f32.min(ui.available_width() - 20.0).max(120.0);
        let a = name_picker(
            ui,
            "Player A",
            ids[1],
            &mut me.form.a,
            &mut me.highlight[0],
            &offers_a,
            width,
        );
        ui.label("vs");
        let b = name_picker(
            ui,
            "Player B",
            ids[2],
            &mut me.form.b,
            &mut me.highlight[1],
            &offers_b,
            width,
        );
        match (a.tab, b.tab) {
            (Some(false), _) => ui.memory_mut(|m| m.request_focus(ids[2])),
            (Some(true), _) => ui.memory_mut(|m| m.request_focus(ids[0])),
            (_, Some(false)) => focus_result = true,
            (_, Some(true)) => ui.memory_mut(|m| m.request_focus(ids[1])),
            _ => {}
        }
    });
    if app.ladder.rules.system() == System::Memoir44 {
        memoir_fields(ui, &mut me.form, app);
    }
    let (name_a, name_b) = (shown_name(&me.form.a, "A"), shown_name(&me.form.b, "B"));
    home_field(ui, "enter-home", &mut me.form.home, &name_a, &name_b);
    score_fields(ui, "enter", &mut me.form);
    let forecast = me.forecast(app).clone();
    forecast_lines(ui, &forecast, &me.form, app, (&name_a, &name_b), out);
    // Result: buttons named after the players; 1 / D / 2 / F whenever the keyboard is not in
    // a text field.
    if !ui.ctx().text_edit_focused()
        && let Some(r) = result_key(ui, me.form.result)
    {
        me.form.result = Some(r);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label("Result:");
        for (i, (label, r)) in result_choices(&name_a, &name_b, true)
            .into_iter()
            .enumerate()
        {
            let response = ui.selectable_label(me.form.result == Some(r), label);
            if i == 0 && focus_result {
                response.request_focus();
            }
            if response.clicked() {
                me.form.result = Some(r);
            }
        }
    });
    let conflict = score_conflict(ui, "enter", &mut me.form, (&name_a, &name_b));
    let ready = check(app, &me.form);
    ui.horizontal_wrapped(|ui| {
        let can = ready.is_ok() && past.is_none() && !conflict;
        let save = ui.add_enabled(can, egui::Button::new("Save match (Enter)"));
        if save.clicked() || (enter && can && me.edit.is_none()) {
            out.push(Command::AddMatch {
                input: me.form.input(),
                said: said(&me.form),
            });
        }
        match &ready {
            // The line above says it, with its buttons.
            Err(_) if conflict => {}
            Err(why) => {
                ui.weak(why);
            }
            Ok(()) => {
                ui.weak("Keys: 1, D, 2 pick the result; F makes it a win by forfeit; Enter saves.");
            }
        }
    });
    ui.separator();
    ui.heading("Latest");
    latest(ui, me, app);
}

/// The latest matches, newest first; each opens in the edit window (delete lives there, so no
/// delete button slides under the pointer when a row goes).
fn latest(ui: &mut egui::Ui, me: &mut EnterMatchScreen, app: &AppState) {
    egui::ScrollArea::vertical()
        .id_salt("latest")
        .auto_shrink([false, true])
        .show(ui, |ui| {
            let mut any = false;
            for e in &app.latest {
                if !matches!(e.event, Event::Match(_)) {
                    continue;
                }
                any = true;
                // The file's newest events, named as the file names them now (the ladder on
                // screen may be the past's, where some of these players have not joined).
                let line = widgets::event_line(app.now(), &e.event);
                ui.push_id(e.seq, |ui| {
                    ui.horizontal(|ui| {
                        let edit = ui
                            .add_enabled(
                                app.tools.position.is_none(),
                                egui::Button::new("edit…").small(),
                            )
                            .on_hover_text(
                                "Change the date, players, result, medals or sides, or delete",
                            );
                        if edit.clicked() {
                            me.open_edit(app, e);
                        }
                        ui.label(format!("{}  {line}", e.date));
                    });
                });
            }
            if !any {
                ui.weak("No matches yet: the first one you save shows here.");
            }
        });
}
