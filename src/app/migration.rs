//! Migration wizard: pick an Elo list, set the old-rank cut-offs, preview every player's new
//! r, RD, RP and tier, apply as one undoable event.

use super::state::{AppState, Command};
use super::widgets;
use eframe::egui;

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    ui.heading("Migrate from an Elo ladder");
    ui.label(
        "1. An Elo list: a CSV whose header names `player`, `elo` and, if you have them, `rank` \
         (Grandmaster, Master, Prophet, Scholar, Apprentice or none). Players not on this ladder join.",
    );
    ui.horizontal(|ui| {
        let label = ui.label("Elo list:");
        ui.add(egui::TextEdit::singleline(&mut state.migration.path).desired_width(380.0))
            .labelled_by(label.id);
        if ui.button("Browse…").clicked()
            && let Some(p) = widgets::open_dialog("Elo list", &["csv"])
        {
            state.migration.path = p.display().to_string();
        }
    });
    ui.label("2. Old ranks from Elo where the list gives none (the lowest Elo of each rank):");
    ui.horizontal(|ui| {
        let label = ui.label("Cut-offs:");
        ui.add(egui::TextEdit::singleline(&mut state.migration.cutoffs).desired_width(520.0))
            .labelled_by(label.id);
    });
    ui.label("3. Preview: every player's new rating (r = Elo), RD (350) and RP by old rank (seed 003, Table 2).");
    if ui.button("Preview migration").clicked() {
        out.push(Command::PreviewMigration);
    }
    if let Some(p) = &state.pending {
        super::seasons::preview(ui, p, out);
    }
}
