//! Players: add, rename; a player's page with record, head-to-head and recent matches.

use super::state::{AppState, Command};
use super::tools::ToolCommand;
use super::widgets;
use crate::ladder::event::PlayerId;
use eframe::egui::{self, RichText};

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label("New player:");
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut state.new_player)
                    .hint_text("name")
                    .desired_width(200.0),
            )
            .labelled_by(label.id);
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Add player").clicked() || enter {
            out.push(Command::AddPlayer(state.new_player.clone()));
        }
    });
    ui.separator();
    ui.columns(2, |cols| {
        egui::ScrollArea::vertical()
            .id_salt("player-list")
            .show(&mut cols[0], |ui| {
                let names: Vec<(PlayerId, String)> = state
                    .ladder
                    .players
                    .iter()
                    .enumerate()
                    .filter(|(_, p)| p.joined)
                    .map(|(i, p)| (i as PlayerId, p.name.clone()))
                    .collect();
                let mut sorted = names;
                sorted.sort_by_key(|(_, n)| n.to_lowercase());
                ui.label(format!(
                    "{} players",
                    widgets::thousands(sorted.len() as u64)
                ));
                let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
                egui::ScrollArea::vertical().id_salt("names").show_rows(
                    ui,
                    row,
                    sorted.len(),
                    |ui, range| {
                        for (id, name) in &sorted[range] {
                            if ui
                                .selectable_label(state.player == Some(*id), name)
                                .clicked()
                            {
                                out.push(Command::ShowPlayer(Some(*id)));
                            }
                        }
                    },
                );
            });
        // The page runs longer than the window for a player with many opponents.
        egui::ScrollArea::vertical()
            .id_salt("player-page")
            .show(&mut cols[1], |ui| page(ui, state, out));
    });
}

/// One player's page.
fn page(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    let Some(id) = state.player else {
        ui.weak("Pick a player to see their record.");
        return;
    };
    let Some(p) = state.ladder.player(id).cloned() else {
        return;
    };
    ui.heading(&p.name);
    let f = p.figures();
    ui.label(format!(
        "{} matches: {} won, {} drawn, {} lost · score {:.0} · rating {:.1} ± {:.1}",
        p.matches, p.wins, p.draws, p.losses, f.score, f.rating, f.deviation
    ));
    ui.horizontal(|ui| {
        let label = ui.label("Rename to:");
        ui.add(egui::TextEdit::singleline(&mut state.rename_to).desired_width(180.0))
            .labelled_by(label.id);
        if ui.button("Rename").clicked() {
            out.push(Command::Rename(id, state.rename_to.clone()));
        }
    });
    if ui
        .button("Open in History (band, markers, several players)")
        .clicked()
    {
        out.push(Command::Tool(ToolCommand::Plot(id)));
        out.push(Command::Show(super::state::Screen::History));
    }
    history_plot(ui, state, id);
    // Head-to-head and recent matches, from the log as read for the plots (a large ladder
    // reads it as a job, not every frame), up to the point the timeline shows.
    let Some(view) = state.tools.log_view.clone() else {
        if state.job.is_none() {
            out.push(Command::Tool(ToolCommand::LoadLog));
        }
        ui.weak("Reading the log for head-to-head records…");
        return;
    };
    let record = state.record_of(id, &view);
    let name = |i: PlayerId| {
        state
            .ladder
            .player(i)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    ui.separator();
    ui.strong("Head-to-head");
    egui::Grid::new("h2h").striped(true).show(ui, |ui| {
        ui.label("opponent");
        ui.label("W-D-L");
        ui.end_row();
        for (opp, [w, d, l]) in record.head_to_head.iter().take(20) {
            ui.label(name(*opp));
            ui.label(format!("{w}-{d}-{l}"));
            ui.end_row();
        }
    });
    ui.separator();
    ui.strong("Recent matches");
    for m in record.matches.iter().take(12) {
        let who = m
            .opponents
            .iter()
            .map(|&i| name(i))
            .collect::<Vec<_>>()
            .join(" + ");
        ui.label(RichText::new(format!(
            "{}  {} {who}",
            m.date,
            m.result.verb()
        )));
    }
}

/// The player's rating (with its uncertainty as dashed bounds) and shown score, by match.
fn history_plot(ui: &mut egui::Ui, state: &mut AppState, id: PlayerId) {
    use egui_plot::{HLine, Legend, Line, LineStyle, Plot, PlotPoints};
    let rows = state.history_of(id);
    if rows.len() < 2 {
        ui.weak("The history plot appears after the first match.");
        return;
    }
    let band = state.ladder.rules.facts().band.map_or(0.0, |b| b.factor);
    let points = |f: &dyn Fn(&crate::ladder::state::Figures) -> f64| -> PlotPoints<'static> {
        rows.iter()
            .enumerate()
            .map(|(i, r)| [i as f64, f(&r.figures)])
            .collect::<Vec<_>>()
            .into()
    };
    ui.horizontal(|ui| {
        let width = (ui.available_width() / 2.0 - 8.0).max(200.0);
        Plot::new(("rating-plot", id))
            .legend(Legend::default())
            .height(200.0)
            .width(width)
            .show(ui, |p| {
                p.line(Line::new("rating", points(&|f| f.rating)));
                p.line(
                    Line::new(
                        format!("rating + {band}·dev"),
                        points(&|f| f.rating + band * f.deviation),
                    )
                    .style(LineStyle::dashed_loose()),
                );
                p.line(
                    Line::new(
                        format!("rating − {band}·dev"),
                        points(&|f| f.rating - band * f.deviation),
                    )
                    .style(LineStyle::dashed_loose()),
                );
            });
        // Tier lines are named on hover, not in a legend that would cover the curve.
        Plot::new(("score-plot", id))
            .height(200.0)
            .width(width)
            .show(ui, |p| {
                p.line(Line::new("score", points(&|f| f.score)));
                if state.ladder.rules.facts().tiers {
                    let top = rows.iter().map(|r| r.figures.score).fold(0.0, f64::max);
                    for tier in crate::ladder::skyweaver::Tier::ALL.iter().take(11) {
                        if tier.minimum() <= top + 100.0 {
                            p.hline(
                                HLine::new(tier.name(), tier.minimum())
                                    .color(widgets::tier_colour(*tier)),
                            );
                        }
                    }
                }
            });
    });
    ui.weak("x: match number");
}
