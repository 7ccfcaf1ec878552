//! Settings: the ladder's system and parameters — friendly names (the code name on hover),
//! full values, the default, what each does — and the date the change takes effect. A change
//! is a `rules` event, previewed as every player's standing before → after.

use super::calendar::{self, CalendarForm};
use super::command::{Command, Screen};
use super::preview::preview;
use super::state::AppState;
use eframe::egui;
use egui_extras::{Column, TableBuilder};
use rungs_ladder::rules::{Rules, System};
use std::collections::BTreeMap;

/// The Settings screen's own state: the rules being drafted and the fields as typed.
#[derive(Debug, Clone, Default)]
pub struct SettingsScreen {
    pub draft: Option<Rules>,
    /// Parameter fields as typed, by code name.
    pub text: BTreeMap<String, String>,
    /// The change's date as typed (empty: today, or after the latest event).
    pub date: String,
    /// The season calendar as typed (the ladder's until changed).
    pub calendar: Option<CalendarForm>,
}

impl SettingsScreen {
    /// Back to the ladder's own rules.
    pub fn reset(&mut self) {
        self.draft = None;
        self.text.clear();
        self.date.clear();
        self.calendar = None;
    }
}

pub use super::widgets::number;

pub fn show(ui: &mut egui::Ui, me: &mut SettingsScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let current = app.ladder.rules.clone();
    let draft = me.draft.get_or_insert_with(|| current.clone()).clone();
    let mut system = draft.system();
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("System:");
        egui::ComboBox::from_id_salt("system")
            .selected_text(system.label())
            .show_ui(ui, |ui| {
                for s in System::ALL {
                    ui.selectable_value(&mut system, s, s.label())
                        .on_hover_text(s.facts().about);
                }
            })
            .response
            .labelled_by(label.id);
        ui.weak(system.facts().about);
    });
    if system != draft.system() {
        // Another system starts from its defaults; the ladder's calendar and side advantage
        // stay (they are the ladder's, not the system's).
        me.draft = Some(if system == current.system() {
            current.clone()
        } else {
            current.defaults_for(system)
        });
        me.text.clear();
    }
    let draft = me.draft.clone().unwrap_or(current.clone());
    let defaults = Rules::defaults(draft.system());
    let params = draft.param_values();
    let row = ui.text_style_height(&egui::TextStyle::Body) + 10.0;
    // With a preview open the table leaves it room.
    let height = if app.pending.is_some() {
        (ui.available_height() * 0.3).max(100.0)
    } else {
        (ui.available_height() - 150.0).max(120.0)
    };
    egui::ScrollArea::horizontal()
        .id_salt("params-sideways")
        .show(ui, |ui| {
            TableBuilder::new(ui)
                .id_salt(("params", draft.system()))
                .striped(true)
                .resizable(true)
                .max_scroll_height(height)
                .column(Column::initial(190.0).at_least(120.0))
                .column(Column::initial(130.0).at_least(110.0))
                .column(Column::initial(80.0).at_least(60.0))
                // The description takes the rest of the width, so it is cut ("…", whole on
                // hover) only where the window has no more room.
                .column(Column::remainder().at_least(160.0).clip(true))
                .header(22.0, |mut h| {
                    for title in ["parameter", "value", "default", "what it does"] {
                        h.col(|ui| {
                            ui.strong(title);
                        });
                    }
                })
                .body(|body| {
                    body.rows(row, params.len(), |mut r| {
                        let (spec, value) = params[r.index()];
                        let mut label_id = None;
                        r.col(|ui| {
                            let l = ui.label(spec.label).on_hover_text(format!(
                                "{} — {}",
                                spec.name,
                                spec.range_text()
                            ));
                            label_id = Some(l.id);
                        });
                        r.col(|ui| {
                            let text =
                                me.text
                                    .entry(spec.name.to_string())
                                    .or_insert_with(|| match spec.value_text(value) {
                                        word if word.parse::<f64>().is_err() => word,
                                        _ => number(value),
                                    });
                            let field = ui.add(
                                egui::TextEdit::singleline(text)
                                    .desired_width(ui.available_width() - 8.0),
                            );
                            if let Some(id) = label_id {
                                field.labelled_by(id);
                            }
                        });
                        r.col(|ui| {
                            ui.weak(defaults.param(spec.name).map(number).unwrap_or_default());
                        });
                        r.col(|ui| {
                            // A cut label shows its whole text on hover by itself.
                            ui.add(egui::Label::new(spec.meaning).truncate());
                        });
                    });
                });
        });
    // Skyweaver's tier minimums, a list rather than one number: typed as 11 numbers.
    if let rungs_ladder::rules::Params::Skyweaver(p) = &draft.params {
        ui.horizontal_wrapped(|ui| {
            let label = ui
                .label("Tier minimums, Wanderer … Master:")
                .on_hover_text("tier_minimums — 11 numbers, each above the one before, Master's at most 1300 (Table 1: 200,300,…,1200)");
            let text = me
                .text
                .entry(rungs_ladder::rules::TIER_MINIMUMS.to_string())
                .or_insert_with(|| p.tier_minimums.text());
            ui.add(egui::TextEdit::singleline(text).desired_width(420.0))
                .labelled_by(label.id);
        });
    }
    // The draft with every edited field applied, or the first field that does not parse.
    let mut edited = draft.clone();
    let mut problem = None;
    for (name, text) in &me.text {
        let same = draft
            .param(name)
            .is_some_and(|v| text.trim().parse::<f64>() == Ok(v));
        if !same && let Err(e) = edited.assign(&format!("{name}={text}")) {
            problem.get_or_insert(crate::words::param(&e));
        }
    }
    let cal = me
        .calendar
        .get_or_insert_with(|| CalendarForm::of(&current.calendar));
    calendar::form(ui, "settings-calendar", cal, Screen::Settings);
    match cal.calendar(Screen::Settings) {
        Ok(c) => edited.calendar = c,
        Err(e) => {
            problem.get_or_insert(e);
        }
    }
    let changed = edited != current;
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("From:");
        ui.add(
            egui::TextEdit::singleline(&mut me.date)
                .hint_text(app.action_date().to_string())
                .desired_width(100.0),
        )
        .labelled_by(label.id)
        .on_hover_text("The date the new rules take effect (YYYY-MM-DD); matches from then on are rated under them. Empty: today.");
        if ui
            .add_enabled(changed && problem.is_none(), egui::Button::new("Preview change"))
            .clicked()
        {
            out.push(Command::PreviewRules(edited.clone(), me.date.clone()));
        }
        if ui.button("Back to the ladder's rules").clicked() {
            me.reset();
        }
        if let Some(p) = &problem {
            ui.colored_label(ui.visuals().error_fg_color, p);
        }
    });
    if let Some(p) = &app.pending {
        preview(ui, p, &app.now().rules, out);
    }
}
