//! Settings: the ladder's system and parameters, with their defaults and what each does. A
//! change is a `rules` event, previewed as every player's standing before → after.

use super::state::{AppState, Command};
use crate::ladder::rules::{Rules, System};
use eframe::egui;

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let current = state.ladder.rules.clone();
    let draft = state
        .settings_rules
        .get_or_insert_with(|| current.clone())
        .clone();
    let mut system = draft.system();
    ui.horizontal(|ui| {
        let label = ui.label("System:");
        egui::ComboBox::from_id_salt("system")
            .selected_text(system.name())
            .show_ui(ui, |ui| {
                for s in System::ALL {
                    ui.selectable_value(&mut system, s, s.name());
                }
            })
            .response
            .labelled_by(label.id);
    });
    if system != draft.system() {
        state.settings_rules = Some(if system == current.system() {
            current.clone()
        } else {
            Rules::defaults(system)
        });
        state.param_text.clear();
    }
    let draft = state.settings_rules.clone().unwrap_or(current.clone());
    let defaults = Rules::defaults(draft.system());
    egui::Grid::new("params")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            for h in ["parameter", "value", "default", "what it does"] {
                ui.strong(h);
            }
            ui.end_row();
            for (spec, value) in draft.param_values() {
                let label = ui.label(spec.label).on_hover_text(format!(
                    "{} ({})",
                    spec.name,
                    spec.range_text()
                ));
                let text = state
                    .param_text
                    .entry(spec.name.to_string())
                    .or_insert_with(|| value.to_string());
                ui.add(egui::TextEdit::singleline(text).desired_width(120.0))
                    .labelled_by(label.id);
                ui.weak(
                    defaults
                        .param(spec.name)
                        .map(|v| v.to_string())
                        .unwrap_or_default(),
                );
                ui.label(spec.meaning);
                ui.end_row();
            }
        });
    // The draft with every edited field applied, or the first field that does not parse.
    let mut edited = draft.clone();
    let mut problem = None;
    for (name, text) in &state.param_text {
        let same = draft
            .param(name)
            .is_some_and(|v| text.trim().parse::<f64>() == Ok(v));
        if !same && let Err(e) = edited.assign(&format!("{name}={text}")) {
            problem.get_or_insert(e.to_string());
        }
    }
    let changed = edited != current;
    ui.horizontal(|ui| {
        if ui
            .add_enabled(
                changed && problem.is_none(),
                egui::Button::new("Preview change"),
            )
            .clicked()
        {
            out.push(Command::PreviewRules(edited.clone()));
        }
        if ui.button("Back to the ladder's rules").clicked() {
            state.settings_rules = None;
            state.param_text.clear();
        }
        if let Some(p) = &problem {
            ui.colored_label(ui.visuals().error_fg_color, p);
        }
    });
    if let Some(p) = &state.pending {
        super::seasons::preview(ui, p, out);
    }
}
