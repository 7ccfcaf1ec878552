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

/// The Score field's id in the form `id` ("enter" or "edit"), so that an offer to change
/// the score can put the keyboard there.
fn score_id(id: &str) -> egui::Id {
    egui::Id::unique((id, "score"))
}

/// The optional score ("3-1", which sets the result it decides) and the event's class.
pub(super) fn score_fields(ui: &mut egui::Ui, id: &str, form: &mut MatchForm) {
    ui.horizontal_wrapped(|ui| {
        let name = ui.label("Score (optional):");
        let typed = ui
            .add(
                egui::TextEdit::singleline(&mut form.score)
                    .id(score_id(id))
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

/// A score decides the result, so a result chosen after it that says otherwise (a draw for a
/// saved 2-1) cannot be saved as it stands: says so, naming the Score field, and offers to
/// clear the score or to change it. True while they disagree.
pub(super) fn score_conflict(
    ui: &mut egui::Ui,
    id: &str,
    form: &mut MatchForm,
    (a, b): (&str, &str),
) -> bool {
    let Ok(goals) = rungs_ladder::score::parse_score(&form.score) else {
        return false;
    };
    let decided = MatchResult::Played(rungs_ladder::score::outcome_of(goals));
    let Some(chosen) = form.result.filter(|r| *r != decided) else {
        return false;
    };
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(
            ui.visuals().warn_fg_color,
            format!(
                "Score {}-{} says {}, but the result says {}:",
                goals[0],
                goals[1],
                decided.sentence(a, b),
                chosen.sentence(a, b)
            ),
        );
        if ui
            .button("Clear the score")
            .on_hover_text("Keep the result you chose, with no score")
            .clicked()
        {
            form.score.clear();
        }
        if ui
            .button("Change the score")
            .on_hover_text("Type the score that goes with the result you chose")
            .clicked()
        {
            ui.memory_mut(|m| m.request_focus(score_id(id)));
        }
    });
    true
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
