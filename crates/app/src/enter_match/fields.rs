//! The fields the form and the edit window both draw: the result buttons' words, home,
//! score and class, Memoir '44's medals and sides.
use super::form::MatchForm;
use crate::state::AppState;
use eframe::egui;
use rungs_ladder::event::{EventClass, MatchResult};
use rungs_rating::Outcome;

/// The result buttons' words for sides `a` and `b`: "Portugal wins (2)", never "B wins".
pub(super) fn result_choices(a: &str, b: &str, keys: bool) -> Vec<(String, MatchResult)> {
    let k = |s: &str| {
        if keys {
            format!(" ({s})")
        } else {
            String::new()
        }
    };
    vec![
        (
            format!("{a} wins{}", k("1")),
            MatchResult::Played(Outcome::Win),
        ),
        (
            format!("Draw{}", k("D")),
            MatchResult::Played(Outcome::Draw),
        ),
        (
            format!("{b} wins{}", k("2")),
            MatchResult::Played(Outcome::Loss),
        ),
        (format!("{b} forfeits"), MatchResult::ForfeitB),
        (format!("{a} forfeits"), MatchResult::ForfeitA),
    ]
}

pub(super) fn shown_name(text: &str, fallback: &str) -> String {
    match text.trim() {
        "" => fallback.to_string(),
        t => t.to_string(),
    }
}

/// Which side is at home or moves first: a side advantage applies to it when the
/// rules have one.
pub(super) fn home_field(ui: &mut egui::Ui, id: &str, home: &mut String, a: &str, b: &str) {
    let choices = [
        ("", "no one (no advantage)".to_string()),
        ("a", format!("{a} (at home or first)")),
        ("b", format!("{b} (at home or first)")),
        ("neutral", "neutral ground".to_string()),
    ];
    ui.horizontal(|ui| {
        let name = ui.label("Home:");
        let shown = choices
            .iter()
            .find(|(v, _)| v == home)
            .map_or(home.clone(), |(_, l)| l.clone());
        egui::ComboBox::from_id_salt(id)
            .selected_text(shown)
            .show_ui(ui, |ui| {
                for (value, label) in &choices {
                    ui.selectable_value(home, value.to_string(), label);
                }
            })
            .response
            .labelled_by(name.id);
    });
}

/// The optional score ("3-1", which sets the result it decides) and the event's class.
pub(super) fn score_fields(ui: &mut egui::Ui, id: &str, form: &mut MatchForm) {
    ui.horizontal_wrapped(|ui| {
        let name = ui.label("Score (optional):");
        let typed = ui
            .add(
                egui::TextEdit::singleline(&mut form.score)
                    .id_salt((id, "score"))
                    .hint_text("3-1")
                    .desired_width(60.0),
            )
            .labelled_by(name.id);
        if typed.changed()
            && let Ok(goals) = rungs_ladder::score::parse_score(&form.score)
        {
            form.result = Some(MatchResult::Played(rungs_ladder::score::outcome_of(goals)));
        }
        let name = ui.label("Class:");
        let shown = if form.class.is_empty() {
            "none".to_string()
        } else {
            form.class.clone()
        };
        egui::ComboBox::from_id_salt((id, "class"))
            .selected_text(shown)
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.class, String::new(), "none");
                for c in EventClass::NAMED {
                    let text = c.as_text();
                    ui.selectable_value(&mut form.class, text.clone(), text);
                }
            })
            .response
            .labelled_by(name.id);
    });
}

pub(super) fn memoir_fields(ui: &mut egui::Ui, form: &mut MatchForm, app: &AppState) {
    ui.horizontal_wrapped(|ui| {
        for (label, text, width) in [
            ("Medals A", &mut form.medals_a, 40.0),
            ("Medals B", &mut form.medals_b, 40.0),
            ("Scenario", &mut form.scenario, 160.0),
            ("A's side", &mut form.side_a, 100.0),
        ] {
            let name = ui.label(label);
            ui.add(egui::TextEdit::singleline(text).desired_width(width))
                .labelled_by(name.id);
        }
    });
    // The scenario's record so far (the Memoir '44 ranking's Appendix I), what the battle will
    // be weighed by.
    if let Some(stats) = app.ladder.scenarios.stats(&form.scenario) {
        let line = format!("{}: {}", form.scenario.trim(), stats.summary());
        ui.label(rungs_ladder::values::shown(&line).into_owned());
    }
}
