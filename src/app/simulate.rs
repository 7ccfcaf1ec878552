//! Simulate: a synthetic population with known true skills played through the rules, to see
//! how many matches it takes to climb, how much RP inflates a week, and how well the ladder
//! orders true skill. It writes an ordinary ladder file, which the app can then open.

use super::state::{AppState, Command};
use super::tools::{self, ToolCommand};
use super::widgets;
use crate::ladder::rules::System;
use crate::ladder::simulate::SimConfig;
use eframe::egui::{self, RichText};

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    ui.label(
        "True skills are drawn from a normal distribution (1500 ± 200); players are paired by \
         their ladder rating with some noise; results follow the true skills; a soft reset \
         ends every week and a hard reset every fourth.",
    );
    let f = &mut state.tools.sim_form;
    egui::Grid::new("simulate-form")
        .num_columns(2)
        .spacing([12.0, 6.0])
        .show(ui, |ui| {
            for (name, value, hint) in [
                ("Players", &mut f.players, "2 to 100,000"),
                ("Weeks", &mut f.weeks, "1 to 520"),
                (
                    "Matches per week",
                    &mut f.matches_per_week,
                    "across the ladder",
                ),
                ("Seed", &mut f.seed, "same seed, same ladder"),
            ] {
                let label = ui.label(name);
                ui.add(
                    egui::TextEdit::singleline(value)
                        .hint_text(hint)
                        .desired_width(160.0),
                )
                .labelled_by(label.id);
                ui.end_row();
            }
            let label = ui.label("System");
            egui::ComboBox::from_id_salt("sim-system")
                .selected_text(f.system.label())
                .show_ui(ui, |ui| {
                    for s in System::ALL {
                        ui.selectable_value(&mut f.system, s, s.label());
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Parameters");
            ui.add(
                egui::TextEdit::singleline(&mut f.params)
                    .hint_text("NAME=VALUE, … (empty: defaults)")
                    .desired_width(320.0),
            )
            .labelled_by(label.id);
            ui.end_row();
            let label = ui.label("Write to");
            ui.add(egui::TextEdit::singleline(&mut f.out).desired_width(420.0))
                .labelled_by(label.id);
            ui.end_row();
        });
    let busy = state.job.is_some();
    if ui
        .add_enabled(!busy, egui::Button::new("Run simulation"))
        .clicked()
    {
        match config(&state.tools.sim_form) {
            Ok(cfg) => out.push(Command::Tool(ToolCommand::Simulate(
                Box::new(cfg),
                state.tools.sim_form.out.trim().into(),
            ))),
            Err(message) => out.push(Command::Problem {
                field: "simulation",
                message,
            }),
        }
    }
    let Some(sim) = &state.tools.simulated else {
        return;
    };
    ui.separator();
    egui::ScrollArea::vertical()
        .id_salt("sim-report")
        .show(ui, |ui| report(ui, sim, out));
}

fn report(ui: &mut egui::Ui, sim: &super::tools::Simulated, out: &mut Vec<Command>) {
    let r = &sim.report;
    ui.label(
        RichText::new(format!(
            "{} — {} matches",
            sim.path.display(),
            widgets::thousands(r.matches)
        ))
        .strong(),
    );
    let corr = |c: Option<f64>| c.map_or("—".to_string(), |c| format!("{c:.3}"));
    ui.label(format!(
        "Spearman correlation with true skill: score {} · rating {}",
        corr(r.spearman_score),
        corr(r.spearman_rating)
    ));
    ui.label(format!(
        "Score inflation: {:+.1} a week on average (what each week's matches add, resets aside)",
        r.rp_inflation_mean
    ));
    let weeks: Vec<String> = r
        .rp_inflation_per_week
        .iter()
        .enumerate()
        .map(|(i, d)| format!("w{} {d:+.0}", i + 1))
        .collect();
    ui.add(egui::Label::new(RichText::new(weeks.join("  ·  ")).weak()).wrap());
    if !r.matches_to_tier.is_empty() {
        egui::Grid::new("sim-tiers").striped(true).show(ui, |ui| {
            ui.strong("tier");
            ui.strong("players who reached it");
            ui.strong("median matches to reach it");
            ui.end_row();
            for t in &r.matches_to_tier {
                ui.label(&t.tier);
                ui.label(t.reached.to_string());
                ui.label(
                    t.median_matches
                        .map_or("—".to_string(), |m| format!("{m:.0}")),
                );
                ui.end_row();
            }
        });
    }
    if ui.button("Open the simulated ladder").clicked() {
        out.push(Command::Open(sim.path.clone()));
    }
}

/// The form as a simulation, or which field is wrong.
pub fn config(f: &tools::SimForm) -> Result<SimConfig, String> {
    fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
        text.trim()
            .replace(',', "")
            .parse()
            .map_err(|_| format!("{name}: `{}` is not a whole number", text.trim()))
    }
    let cfg = SimConfig {
        players: number("players", &f.players)?,
        weeks: number("weeks", &f.weeks)?,
        matches_per_week: number("matches per week", &f.matches_per_week)?,
        seed: number("seed", &f.seed)?,
        rules: tools::rules_from(f.system, &f.params).map_err(|e| format!("parameters: {e}"))?,
        ..SimConfig::default()
    };
    if f.out.trim().is_empty() {
        return Err("write to: give a path for the new ladder file".into());
    }
    cfg.validate().map_err(|e| e.to_string())?;
    Ok(cfg)
}
