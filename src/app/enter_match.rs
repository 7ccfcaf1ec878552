//! Enter match: keyboard first. Type-ahead pickers complete on Tab; 1, D and 2 pick the
//! result when no field has the keyboard; Enter saves. Before saving, each side's chances
//! and the exact change each result would make, from the ladder itself.

use super::state::{AppState, Command};
use super::widgets;
use crate::ladder::event::{Event, MatchResult};
use crate::ladder::rules::System;
use crate::rating::Outcome;
use eframe::egui::{self, RichText};

/// A text field that offers player names; Tab takes the first offer (and moves on).
fn picker(ui: &mut egui::Ui, label: &str, text: &mut String, offers: &[String]) {
    ui.vertical(|ui| {
        let name = ui.label(label);
        let id = ui.make_persistent_id(("picker", label));
        let exact = offers.iter().any(|o| o.eq_ignore_ascii_case(text.trim()));
        // Read Tab before the field sees it: the field will move the focus on.
        let focused = ui.memory(|m| m.has_focus(id));
        if focused && !exact && !offers.is_empty() && ui.input(|i| i.key_pressed(egui::Key::Tab)) {
            *text = offers[0].clone();
        }
        let response = ui
            .add(
                egui::TextEdit::singleline(text)
                    .id(id)
                    .hint_text("type a name")
                    .desired_width(200.0),
            )
            .labelled_by(name.id);
        let exact = offers.iter().any(|o| o.eq_ignore_ascii_case(text.trim()));
        if response.has_focus() && !exact && !offers.is_empty() {
            for offer in offers.iter().take(6) {
                if ui.small_button(offer).clicked() {
                    *text = offer.clone();
                }
            }
        } else if !text.trim().is_empty() && !exact && !response.has_focus() {
            ui.colored_label(ui.visuals().warn_fg_color, "no such player");
        }
    });
}

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let offers_a = state.suggestions(&state.form.a, 6);
    let offers_b = state.suggestions(&state.form.b, 6);
    ui.horizontal(|ui| {
        ui.vertical(|ui| {
            let name = ui.label("Date");
            ui.add(egui::TextEdit::singleline(&mut state.form.date).desired_width(100.0))
                .labelled_by(name.id);
        });
        picker(ui, "Player A", &mut state.form.a, &offers_a);
        ui.label("vs");
        picker(ui, "Player B", &mut state.form.b, &offers_b);
    });
    if state.ladder.rules.system() == System::Memoir44 {
        ui.horizontal(|ui| {
            ui.label("Medals A");
            ui.add(egui::TextEdit::singleline(&mut state.form.medals_a).desired_width(40.0));
            ui.label("B");
            ui.add(egui::TextEdit::singleline(&mut state.form.medals_b).desired_width(40.0));
            ui.label("Scenario");
            ui.add(egui::TextEdit::singleline(&mut state.form.scenario).desired_width(160.0));
            ui.label("A's side");
            ui.add(egui::TextEdit::singleline(&mut state.form.side_a).desired_width(100.0));
        });
    }
    let (name_a, name_b) = (
        state.form.a.trim().to_string(),
        state.form.b.trim().to_string(),
    );
    let what_if = state.what_if().cloned();
    if let Some(w) = &what_if
        && let Some(p) = w.prediction
    {
        let mut line = format!("{name_a} {:.0}%", 100.0 * p.win_a);
        if p.draw > 0.0 {
            line.push_str(&format!("  ·  draw {:.1}%", 100.0 * p.draw));
        }
        line.push_str(&format!("  ·  {name_b} {:.0}%", 100.0 * p.win_b));
        ui.label(RichText::new(line).strong());
    }
    // Result buttons; 1 / D / 2 when no text field has the keyboard.
    let keys_free = !ui.ctx().egui_wants_keyboard_input();
    let pressed = |k| keys_free && ui.input(|i| i.key_pressed(k));
    let played = |o| Some(MatchResult::Played(o));
    let mut choice = state.form.result;
    if pressed(egui::Key::Num1) {
        choice = played(Outcome::Win);
    }
    if pressed(egui::Key::D) {
        choice = played(Outcome::Draw);
    }
    if pressed(egui::Key::Num2) {
        choice = played(Outcome::Loss);
    }
    ui.horizontal(|ui| {
        ui.label("Result:");
        let a = if name_a.is_empty() {
            "A".into()
        } else {
            name_a.clone()
        };
        let b = if name_b.is_empty() {
            "B".into()
        } else {
            name_b.clone()
        };
        for (label, r) in [
            (format!("{a} wins (1)"), MatchResult::Played(Outcome::Win)),
            ("Draw (D)".to_string(), MatchResult::Played(Outcome::Draw)),
            (format!("{b} wins (2)"), MatchResult::Played(Outcome::Loss)),
            (format!("{a} forfeits"), MatchResult::ForfeitA),
            (format!("{b} forfeits"), MatchResult::ForfeitB),
        ] {
            if ui.selectable_label(choice == Some(r), label).clicked() {
                choice = Some(r);
            }
        }
    });
    state.form.result = choice;
    if what_if.as_ref().is_some_and(|w| w.deferred) {
        ui.label(format!(
            "This match is dated before the latest event: saving it recomputes the ladder from {} (in the background), so its exact changes show after saving.",
            state.form.date.trim()
        ));
    }
    if let Some(w) = &what_if {
        for (r, changes) in &w.outcomes {
            let title = match r {
                MatchResult::Played(Outcome::Win) => format!("If {name_a} wins:"),
                MatchResult::Played(Outcome::Draw) => "If drawn:".to_string(),
                _ => format!("If {name_b} wins:"),
            };
            ui.horizontal(|ui| {
                ui.label(RichText::new(title).strong());
                for c in changes {
                    let before = c.before.map_or(c.after.score, |b| b.score);
                    let d = c.after.score - before;
                    ui.label(format!("{} {:.0} → {:.0}", c.name, before, c.after.score));
                    ui.label(
                        RichText::new(format!("({})", widgets::delta(d)))
                            .color(widgets::delta_colour(ui, d)),
                    );
                    if c.tier_before != c.tier_after
                        && let Some(t) = c.tier_after
                    {
                        let up = c.tier_before.is_none_or(|b| t > b);
                        ui.label(
                            RichText::new(format!("{} {}", if up { "▲" } else { "▼" }, t.name()))
                                .color(widgets::tier_colour(t)),
                        );
                    }
                }
            });
        }
    }
    let ready = state.match_from_form().is_ok();
    ui.horizontal(|ui| {
        let save = ui.add_enabled(ready, egui::Button::new("Save match (Enter)"));
        let enter = ready && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if save.clicked() || enter {
            out.push(Command::EnterMatch);
        }
        if !ready && let Err(why) = state.match_from_form() {
            ui.weak(why);
        }
    });
    ui.separator();
    ui.heading("Latest");
    latest(ui, state, out);
}

fn latest(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<Command>) {
    egui::ScrollArea::vertical()
        .id_salt("latest")
        .show(ui, |ui| {
            for e in &state.latest {
                let Event::Match(m) = &e.event else {
                    continue;
                };
                let line = widgets::event_line(&state.ladder, &e.event);
                ui.push_id(e.seq, |ui| {
                    ui.horizontal(|ui| {
                        ui.label(format!("{}  #{}  {line}", e.date, e.seq));
                        ui.menu_button("edit", |ui| {
                            for (label, r) in [
                                ("A wins", MatchResult::Played(Outcome::Win)),
                                ("Draw", MatchResult::Played(Outcome::Draw)),
                                ("B wins", MatchResult::Played(Outcome::Loss)),
                                ("Cancelled", MatchResult::Cancelled),
                            ] {
                                if ui
                                    .add_enabled(m.result != r, egui::Button::new(label))
                                    .clicked()
                                {
                                    out.push(Command::EditResult(e.seq, r));
                                    ui.close();
                                }
                            }
                        });
                        if ui.small_button("delete").clicked() {
                            out.push(Command::DeleteEvent(e.seq));
                        }
                    });
                });
            }
        });
}
