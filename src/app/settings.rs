//! Settings: the ladder's system and parameters, with their defaults and what each does. A
//! change is a `rules` event, previewed as every player's standing before → after.

use super::state::{AppState, Command};
use crate::ladder::rules::{Rules, System};
use eframe::egui;

/// One line on what a parameter does.
fn explain(name: &str) -> &'static str {
    match name {
        "initial_rating" => "a new player's rating",
        "initial_deviation" => "a new player's rating deviation; also the most RD grows back to",
        "min_deviation" => "the floor under the rating deviation",
        "c" => "how much RD grows per rating period (per soft reset)",
        "f_min" => "how much the rating change counts toward RP at 200 RP (rising to 1 at 1200)",
        "b_min" => "the RP bias for a win at and above 1200 RP",
        "b_max" => "the RP bias for a win at 200 RP",
        "a" => "bonus RP for a third straight win (0 = off)",
        "initial_rp" => "a new player's Rank Points",
        "grandweaver_count" => "how many Masters are Grandweavers (the top N by RP)",
        "hard_reset_span" => "the hard reset spreads ratings over 1500 … 1500 + span",
        "initial_mu" => "a new player's mean skill",
        "initial_phi" => "a new player's deviation (Glicko-2 scale)",
        "initial_sigma" => "a new player's volatility or skill uncertainty",
        "tau" => "how fast volatility may change (0.3 – 1.2)",
        "min_mu" | "max_mu" => "bounds on the rating (Glicko-2 scale)",
        "min_phi" | "max_phi" => "bounds on the deviation",
        "min_sigma" | "max_sigma" => "bounds on the volatility",
        "tolerance" => "convergence tolerance of the volatility search",
        "max_iterations" => "iteration cap of the volatility search",
        "days_per_period" => "days of inactivity that make one rating period",
        "approach" => "share of the way to the target RP one match moves",
        "max_step" => "the largest RP change of one match",
        "upset_bonus" => "RP for beating the strongest possible opponent",
        "beta" => "performance spread around skill",
        "gamma" => "dynamics: keeps σ from reaching zero",
        "epsilon" => "draw margin",
        "provisional_games" => "games before a player enters the leaderboard",
        "idle_days" => "days without a game before a player leaves the leaderboard",
        "points" => "stake when both outcomes are equally likely, doubled (64)",
        "bonus_per_medal" => "bonus per medal the loser is short of their side's average",
        "k" => "K-factor: the most one game can move a rating",
        _ => "",
    }
}

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
    let defaults = Rules::defaults(draft.system()).params();
    egui::Grid::new("params")
        .striped(true)
        .num_columns(4)
        .show(ui, |ui| {
            for h in ["parameter", "value", "default", "what it does"] {
                ui.strong(h);
            }
            ui.end_row();
            for (name, value) in draft.params() {
                let label = ui.label(&name);
                let text = state
                    .param_text
                    .entry(name.clone())
                    .or_insert_with(|| value.to_string());
                ui.add(egui::TextEdit::singleline(text).desired_width(120.0))
                    .labelled_by(label.id);
                ui.weak(
                    defaults
                        .get(&name)
                        .map(|v| v.to_string())
                        .unwrap_or_default(),
                );
                ui.label(explain(&name));
                ui.end_row();
            }
        });
    // The draft with every edited field applied, or the first field that does not parse.
    let mut edited = draft.clone();
    let mut problem = None;
    let params = draft.params();
    for (name, text) in &state.param_text {
        let same = params
            .get(name)
            .and_then(|v| v.as_f64())
            .is_some_and(|v| text.trim().parse::<f64>() == Ok(v));
        if !same && let Err(e) = edited.set_param(&format!("{name}={text}")) {
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
