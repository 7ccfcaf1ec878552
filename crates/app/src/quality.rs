//! Prediction quality: each system predicts every match of the log before it updates on it,
//! scored by log-loss, Brier score and accuracy, so rules can be chosen by evidence.

use super::charts::calibration_plot;
use super::command::{Command, ToolCommand};
use super::state::AppState;
use super::widgets;
use super::words;
use eframe::egui::{self, RichText};
use egui_extras::{Column, TableBuilder};
use rungs_analysis::evaluate;
use rungs_ladder::rules::{Rules, System};

pub fn show(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    ui.label(
        "Each system replays the log and predicts every played match before it learns the \
         result. Lower log-loss and Brier are better. Draws count as a score of ½ against the \
         expected score; accuracy counts decisive matches only (the favourite won).",
    );
    let busy = state.job.is_some();
    if ui
        .add_enabled(
            !busy,
            egui::Button::new("Score every system on this ladder"),
        )
        .clicked()
    {
        out.push(Command::Tool(ToolCommand::Evaluate));
    }
    let scores = &state.tools.scores;
    if scores.is_empty() {
        return;
    }
    let elo_defaults = Rules::defaults(System::Elo);
    let elo = scores
        .iter()
        .find(|s| s.rules == elo_defaults)
        .map(|s| s.log_loss);
    ui.add_space(6.0);
    egui::ScrollArea::horizontal()
        .id_salt("quality-sideways")
        .show(ui, |ui| table(ui, scores, elo));
    if let Some(best) = scores.first() {
        ui.add_space(6.0);
        ui.label(format!(
            "Calibration of {}: predicted expected score against the observed score, in tenths",
            name(best)
        ));
        calibration_plot(ui, "quality-calibration", &best.calibration, 320.0);
    }
}

/// A row's rules in the app's words; the ladder's own rules as its log changes them are
/// named so, apart from the same system's defaults held through the whole history (two rows
/// read "Skyweaver (defaults)" where the ladder's rules were the defaults but its log
/// changed them).
fn name(s: &evaluate::Score) -> String {
    match s.as_logged {
        None => words::rules(&s.rules),
        Some(0) => format!("This ladder's rules: {}", words::rules(&s.rules)),
        Some(1) => format!(
            "This ladder's rules: {} + 1 rules change",
            words::rules(&s.rules)
        ),
        Some(n) => format!(
            "This ladder's rules: {} + {n} rules changes",
            words::rules(&s.rules)
        ),
    }
}

fn table(ui: &mut egui::Ui, scores: &[evaluate::Score], elo: Option<f64>) {
    TableBuilder::new(ui)
        .id_salt("quality")
        .striped(true)
        .resizable(true)
        .column(Column::initial(260.0).at_least(160.0).clip(true))
        .columns(Column::initial(90.0).at_least(70.0), 6)
        .column(Column::initial(160.0).at_least(120.0))
        .header(22.0, |mut h| {
            for title in [
                "rules",
                "matches",
                "draws",
                "log-loss",
                "Brier",
                "accuracy",
                "decisive",
                "log-loss vs Elo, K factor 32",
            ] {
                h.col(|ui| {
                    ui.strong(title);
                });
            }
        })
        .body(|mut body| {
            for (i, s) in scores.iter().enumerate() {
                body.row(20.0, |mut row| {
                    row.col(|ui| {
                        // The rules in the app's words, as Settings and Tune name them
                        // ("Elo, K factor 32", not the command line's "elo K=32").
                        let text = RichText::new(name(s));
                        ui.label(if i == 0 { text.strong() } else { text });
                    });
                    row.col(|ui| {
                        ui.label(widgets::thousands(s.matches));
                    });
                    row.col(|ui| {
                        ui.label(widgets::thousands(s.draws));
                    });
                    row.col(|ui| {
                        ui.label(format!("{:.4}", s.log_loss));
                    });
                    row.col(|ui| {
                        ui.label(format!("{:.4}", s.brier));
                    });
                    row.col(|ui| {
                        ui.label(
                            s.accuracy
                                .map_or_else(|| "—".into(), |a| format!("{:.1}%", 100.0 * a)),
                        );
                    });
                    row.col(|ui| {
                        ui.label(widgets::thousands(s.decisive));
                    });
                    row.col(|ui| {
                        if let Some(e) = elo {
                            let d = s.log_loss - e;
                            ui.label(
                                RichText::new(format!("{d:+.4}"))
                                    // Scaled: log-loss differences are small numbers.
                                    .color(widgets::delta_colour(ui, -d * 1e4)),
                            );
                        }
                    });
                });
            }
        });
}
