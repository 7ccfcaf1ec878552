//! Correcting a saved match: the match as the form shows it, what an edit changes, and the
//! edit window.
use super::fields::{
    home_field, memoir_fields, result_choices, score_conflict, score_fields, shown_name,
};
use super::form::{EditForm, MatchForm};
use crate::command::Command;
use crate::picker::name_picker;
use crate::state::AppState;
use crate::widgets;
use chrono::NaiveDate;
use eframe::egui::{self, Key};
use rungs_gate::matches::MatchEdit;
use rungs_ladder::event::{Event, EventClass, Match, MatchResult};
use rungs_ladder::log::Effective;
use rungs_ladder::rules::System;

/// A saved match as the form shows it.
pub(super) fn form_of(app: &AppState, date: NaiveDate, m: &Match) -> MatchForm {
    let side = |ids: &[u32]| {
        ids.iter()
            .map(|&i| {
                app.ladder
                    .player(i)
                    .map_or("?".to_string(), |p| p.name.clone())
            })
            .collect::<Vec<_>>()
            .join(",")
    };
    let medal = |i: usize| {
        m.medals
            .map(|md| format!("{}", md.get()[i]))
            .unwrap_or_default()
    };
    MatchForm {
        date: date.to_string(),
        a: side(&m.a),
        b: side(&m.b),
        result: Some(m.result),
        medals_a: medal(0),
        medals_b: medal(1),
        scenario: m.scenario.clone().unwrap_or_default(),
        side_a: m.side_a.clone().unwrap_or_default(),
        home: m.home.map(|h| h.as_text().to_string()).unwrap_or_default(),
        score: m.goals.map(|[x, y]| format!("{x}-{y}")).unwrap_or_default(),
        class: m.class.map(EventClass::as_text).unwrap_or_default(),
    }
}

/// What an edit changes: every field that differs from the match as saved.
fn edit_of(was: &MatchForm, now: &MatchForm) -> MatchEdit {
    let changed = |a: &str, b: &str| (a.trim() != b.trim()).then(|| b.trim().to_string());
    let medals = (was.medals_a.trim() != now.medals_a.trim()
        || was.medals_b.trim() != now.medals_b.trim())
    .then(|| match (now.medals_a.trim(), now.medals_b.trim()) {
        ("", "") => String::new(),
        (a, b) => format!("{a},{b}"),
    });
    MatchEdit {
        date: changed(&was.date, &now.date),
        a: changed(&was.a, &now.a),
        b: changed(&was.b, &now.b),
        result: (was.result != now.result)
            .then(|| now.result.map(|r| r.as_text().to_string()))
            .flatten(),
        medals,
        scenario: changed(&was.scenario, &now.scenario),
        side_a: changed(&was.side_a, &now.side_a),
        home: changed(&was.home, &now.home),
        score: changed(&was.score, &now.score),
        class: changed(&was.class, &now.class),
    }
}

/// The edit window: every field of the match, the result named after the players, Save
/// changes (Enter), Delete and Cancel (Escape).
pub(super) fn edit_window(
    ui: &mut egui::Ui,
    open_edit: &mut Option<EditForm>,
    app: &AppState,
    out: &mut Vec<Command>,
    enter: bool,
) {
    let Some(edit) = open_edit.as_mut() else {
        return;
    };
    let was = form_of_effective(app, &edit.original);
    let mut open = true;
    let mut close = false;
    let title = format!(
        "Edit match: {}",
        widgets::event_line(&app.ladder, &edit.original.event)
    );
    let offers_a = app.suggestions(&edit.form.a, 6);
    let offers_b = app.suggestions(&edit.form.b, 6);
    // Room for the date and both sides on one line where the window allows.
    let width = 600.0_f32.min(ui.ctx().content_rect().width() - 40.0);
    egui::Window::new(title)
        .id(egui::Id::unique("edit-match"))
        .min_width(width)
        .default_width(width)
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 80.0])
        .show(ui.ctx(), |ui| {
            let base = egui::Id::unique("edit-form");
            ui.horizontal_wrapped(|ui| {
                ui.vertical(|ui| {
                    let name = ui.label("Match date");
                    ui.add(egui::TextEdit::singleline(&mut edit.form.date).desired_width(100.0))
                        .labelled_by(name.id);
                });
                let a = name_picker(
                    ui,
                    "Side A",
                    base.with("a"),
                    &mut edit.form.a,
                    &mut edit.highlight[0],
                    &offers_a,
                    160.0,
                );
                let b = name_picker(
                    ui,
                    "Side B",
                    base.with("b"),
                    &mut edit.form.b,
                    &mut edit.highlight[1],
                    &offers_b,
                    160.0,
                );
                if a.tab == Some(false) {
                    ui.memory_mut(|m| m.request_focus(base.with("b")));
                }
                if b.tab == Some(true) {
                    ui.memory_mut(|m| m.request_focus(base.with("a")));
                }
            });
            let (na, nb) = (shown_name(&edit.form.a, "A"), shown_name(&edit.form.b, "B"));
            ui.horizontal_wrapped(|ui| {
                ui.label("Result:");
                let mut choices = result_choices(&na, &nb, false);
                choices.push(("Cancelled".into(), MatchResult::Cancelled));
                for (label, r) in choices {
                    if ui
                        .selectable_label(edit.form.result == Some(r), label)
                        .clicked()
                    {
                        edit.form.result = Some(r);
                    }
                }
            });
            let memoir = app.ladder.rules.system() == System::Memoir44
                || !was.medals_a.is_empty()
                || !was.scenario.is_empty()
                || !was.side_a.is_empty();
            if memoir {
                memoir_fields(ui, &mut edit.form, app);
            }
            home_field(ui, "edit-home", &mut edit.form.home, &na, &nb);
            score_fields(ui, "edit", &mut edit.form);
            let conflict = score_conflict(ui, "edit", &mut edit.form, (&na, &nb));
            let changes = edit_of(&was, &edit.form);
            let nothing = changes == MatchEdit::default();
            let can = !nothing && !conflict;
            ui.horizontal(|ui| {
                let save = ui.add_enabled(can, egui::Button::new("Save changes (Enter)"));
                if save.clicked() || (enter && can) {
                    out.push(Command::EditMatch {
                        seq: edit.original.seq,
                        edit: changes.clone(),
                    });
                }
                if ui
                    .button("Delete match")
                    .on_hover_text("Removes it from the ladder; Undo brings it back")
                    .clicked()
                {
                    out.push(Command::DeleteEvent {
                        seq: edit.original.seq,
                        said: widgets::event_line(&app.ladder, &edit.original.event),
                    });
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
            if nothing {
                ui.weak("Change a field to save; Escape closes.");
            }
        });
    let escape = ui.input(|i| i.key_pressed(Key::Escape));
    if !open || close || escape {
        *open_edit = None;
    }
}

fn form_of_effective(app: &AppState, e: &Effective) -> MatchForm {
    match &e.event {
        Event::Match(m) => form_of(app, e.date, m),
        _ => MatchForm::default(),
    }
}
