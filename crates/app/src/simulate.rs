//! Simulate: a synthetic population with known true skills played through the rules, to see
//! how many matches it takes to climb, how much RP inflates a week, and how well the ladder
//! orders true skill. It writes an ordinary ladder file, which the app can then open.

use super::charts::{labelled_y_axis, labelled_y_marks};
use super::command::{Command, ToolCommand};
use super::files::Purpose;
use super::state::AppState;
use super::tools::{self, Simulated};
use super::widgets;
use eframe::egui::{self, RichText};
use egui_plot::{Legend, Line, Plot, PlotPoints};
use rungs_analysis::simulate::{SimConfig, SimReport};
use rungs_chart::simulated::SimPlot;
use rungs_ladder::rules::{Rules, System};
use std::path::{Path, PathBuf};

/// The Simulate screen's own state: its fields as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct SimForm {
    pub players: String,
    pub weeks: String,
    pub matches_per_week: String,
    pub seed: String,
    /// Each parameter's value as typed, by code name; empty keeps the system's default.
    pub params: super::param_fields::Typed,
    pub system: System,
    pub out: String,
}

impl SimForm {
    /// The form as it first shows, writing into `data_dir`.
    pub fn new(data_dir: &Path) -> SimForm {
        SimForm {
            players: "200".into(),
            weeks: "12".into(),
            matches_per_week: "2000".into(),
            seed: "1".into(),
            params: super::param_fields::Typed::new(),
            system: System::Skyweaver,
            out: data_dir.join("simulated.rungs").display().to_string(),
        }
    }

    /// A simulation was written to `path`: the next run gets a free name, so Run simulation
    /// again just works.
    pub fn written(&mut self, path: &Path) {
        self.out = free_path(path).display().to_string();
    }
}

/// `path` if nothing is there, else the first of `stem-2.ext`, `stem-3.ext`, … that is free.
pub fn free_path(path: &Path) -> PathBuf {
    if !path.exists() {
        return path.to_path_buf();
    }
    let stem = path.file_stem().map_or_else(
        || "simulated".to_string(),
        |s| s.to_string_lossy().into_owned(),
    );
    let stem = match stem.rsplit_once('-') {
        Some((base, n)) if n.parse::<u32>().is_ok() => base.to_string(),
        _ => stem,
    };
    let ext = path
        .extension()
        .map_or_else(|| "rungs".to_string(), |e| e.to_string_lossy().into_owned());
    (2u32..)
        .map(|i| path.with_file_name(format!("{stem}-{i}.{ext}")))
        .find(|p| !p.exists())
        .unwrap_or_else(|| path.to_path_buf())
}

pub fn show(ui: &mut egui::Ui, f: &mut SimForm, state: &AppState, out: &mut Vec<Command>) {
    ui.label(
        "True skills are drawn from a normal distribution (1500 ± 200); players are paired by \
         their ladder rating with some noise; results follow the true skills; a soft reset \
         ends every week and a hard reset every fourth.",
    );
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
            let label = ui.label("Write to");
            ui.add(egui::TextEdit::singleline(&mut f.out).desired_width(420.0))
                .labelled_by(label.id);
            ui.end_row();
        });
    // The system's parameters by their labels, folded: most runs keep the defaults.
    egui::CollapsingHeader::new(format!(
        "{}'s parameters (empty: its defaults)",
        f.system.label()
    ))
    .id_salt("sim-params")
    .show(ui, |ui| {
        super::param_fields::show(ui, f.system, &mut f.params, &Rules::defaults(f.system));
    });
    let busy = state.job.is_some();
    if ui
        .add_enabled(!busy, egui::Button::new("Run simulation"))
        .clicked()
    {
        match config(f) {
            Ok(cfg) => out.push(Command::Tool(ToolCommand::Simulate(
                Box::new(cfg),
                f.out.trim().into(),
            ))),
            Err((field, message)) => out.push(Command::Problem { field, message }),
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

fn report(ui: &mut egui::Ui, sim: &Simulated, out: &mut Vec<Command>) {
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
        let rows: Vec<Vec<String>> = r
            .matches_to_tier
            .iter()
            .map(|t| {
                vec![
                    t.tier.clone(),
                    t.reached.to_string(),
                    t.median_matches
                        .map_or("—".to_string(), |m| format!("{m:.0}")),
                ]
            })
            .collect();
        widgets::text_table(
            ui,
            "sim-tiers",
            &[
                "tier",
                "players who reached it",
                "median matches to reach it",
            ],
            &[140.0, 170.0, 200.0],
            &rows,
        );
    }
    if ui.button("Open the simulated ladder").clicked() {
        out.push(Command::Open(sim.path.clone()));
    }
    plots(ui, r, out);
}

/// The climb curves, the inflation per week and the tier distribution over the weeks, each
/// with its Save… (SVG or PNG, the same drawing as the screen's: `rungs_publish::plot`).
fn plots(ui: &mut egui::Ui, r: &SimReport, out: &mut Vec<Command>) {
    for plot in SimPlot::ALL {
        if !plot.drawn_for(r) {
            continue;
        }
        ui.add_space(8.0);
        ui.horizontal(|ui| {
            ui.strong(plot.title());
            if ui
                .button("Save…")
                .on_hover_text("as SVG, or as PNG where the name ends in .png")
                .clicked()
            {
                out.push(Command::Pick(Purpose::SimulatePlot(plot)));
            }
        });
        let curves = plot.curves(r);
        Plot::new(("sim-plot", plot.file_stem()))
            .height(220.0)
            .allow_scroll(false)
            // The tiers in their own order, not egui's alphabetical one (Grandweaver
            // between Expert III and Trainee I).
            .legend(Legend::default().follow_insertion_order(true))
            .x_axis_label(plot.x_label())
            .custom_y_axes(vec![labelled_y_axis(plot.y_label())])
            .y_grid_spacer(labelled_y_marks)
            .show(ui, |p| {
                for c in &curves {
                    let [red, green, blue] = c.rgb;
                    let points = if plot.steps() {
                        steps(&c.points)
                    } else {
                        c.points.clone()
                    };
                    p.line(
                        Line::new(c.name.clone(), PlotPoints::from(points))
                            .color(egui::Color32::from_rgb(red, green, blue)),
                    );
                }
            });
    }
}

/// A count's points drawn as steps: each value held until the next point's x.
fn steps(points: &[[f64; 2]]) -> Vec<[f64; 2]> {
    let mut out = Vec::with_capacity(points.len() * 2);
    for (i, p) in points.iter().enumerate() {
        if i > 0 {
            out.push([p[0], points[i - 1][1]]);
        }
        out.push(*p);
    }
    out
}

/// The form as a simulation, or which field is wrong (by its label) and why.
pub fn config(f: &SimForm) -> Result<SimConfig, (&'static str, String)> {
    fn number<T: std::str::FromStr>(
        name: &'static str,
        text: &str,
    ) -> Result<T, (&'static str, String)> {
        text.trim().replace(',', "").parse().map_err(|_| {
            (
                name,
                format!("“{}” is not a whole number", text.trim().escape_debug()),
            )
        })
    }
    let weeks = number("Weeks", &f.weeks)?;
    let cfg = SimConfig {
        players: number("Players", &f.players)?,
        weeks,
        start: SimConfig::default_start(weeks, rungs_gate::today()),
        matches_per_week: number("Matches per week", &f.matches_per_week)?,
        seed: number("Seed", &f.seed)?,
        rules: tools::rules_from(
            None,
            f.system,
            &super::param_fields::assignments(f.system, &f.params),
        )
        .map_err(|e| ("Parameters", crate::words::param(&e)))?,
        ..SimConfig::default()
    };
    if f.out.trim().is_empty() {
        return Err(("Write to", "give a path for the new ladder file".into()));
    }
    cfg.validate().map_err(|e| ("Simulation", e.to_string()))?;
    Ok(cfg)
}
