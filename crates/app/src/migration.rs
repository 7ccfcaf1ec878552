//! The migration wizard (the Skyweaver white paper, section 5), as three steps in plain words:
//! choose the Elo list, say which Elo counts as which old rank, look at every player's new
//! standing and apply it as one change (undoable like any other).

use super::command::Command;
use super::files::Purpose;
use super::preview::preview;
use super::state::AppState;
use eframe::egui::{self, RichText};

/// The old ranks, highest first, with the lowest Elo of each by default.
pub const RANKS: [(&str, &str); 5] = [
    ("Grandmaster", "2200"),
    ("Master", "2000"),
    ("Prophet", "1800"),
    ("Scholar", "1600"),
    ("Apprentice", "1400"),
];

/// The wizard's own state: the list's path and the lowest Elo of each old rank, as typed.
#[derive(Debug, Clone)]
pub struct MigrationScreen {
    pub path: String,
    pub cutoffs: [String; 5],
}

impl Default for MigrationScreen {
    fn default() -> Self {
        MigrationScreen {
            path: String::new(),
            cutoffs: RANKS.map(|(_, elo)| elo.to_string()),
        }
    }
}

impl MigrationScreen {
    /// The cut-offs as the gate reads them: `Grandmaster=2200,Master=2000,…`.
    pub fn cutoffs_text(&self) -> String {
        RANKS
            .iter()
            .zip(&self.cutoffs)
            .map(|((rank, _), elo)| format!("{rank}={}", elo.trim()))
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn step(ui: &mut egui::Ui, n: u32, title: &str) {
    ui.add_space(6.0);
    ui.label(
        RichText::new(format!("Step {n} · {title}"))
            .strong()
            .size(16.0),
    );
}

pub fn show(ui: &mut egui::Ui, me: &mut MigrationScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    egui::ScrollArea::vertical().id_salt("migration").show(ui, |ui| {
        ui.heading("Bring players over from an Elo ladder");
        ui.label(
            "Players keep their Elo as their new rating and start with Rank Points that match \
             the rank they held before, so the best do not start again from the bottom.",
        );
        step(ui, 1, "Choose the Elo list");
        ui.label(
            "A CSV file with a header row naming the columns `player` and `elo`, and if you have \
             them `rank` (Grandmaster, Master, Prophet, Scholar or Apprentice). Players who are not \
             on this ladder yet join it.",
        );
        ui.horizontal_wrapped(|ui| {
            let label = ui.label("Elo list:");
            ui.add(
                egui::TextEdit::singleline(&mut me.path)
                    .hint_text("path to the CSV file")
                    .desired_width(360.0),
            )
            .labelled_by(label.id);
            if ui.button("Browse…").clicked() {
                out.push(Command::Pick(Purpose::EloList));
            }
        });
        step(ui, 2, "Say which Elo counts as which rank");
        ui.label(
            "For players whose row gives no rank, the rank comes from their Elo: the lowest Elo \
             that still counts as each rank.",
        );
        egui::Grid::new("cutoffs").num_columns(2).show(ui, |ui| {
            for ((rank, _), text) in RANKS.iter().zip(me.cutoffs.iter_mut()) {
                let label = ui.label(format!("{rank} from Elo"));
                ui.add(egui::TextEdit::singleline(text).desired_width(80.0))
                    .labelled_by(label.id);
                ui.end_row();
            }
        });
        ui.weak("Below the Apprentice line a player starts as a Wanderer (200 RP).");
        step(ui, 3, "Look before you apply");
        ui.label(
            "The preview shows every player's new rating (their Elo), uncertainty (350, fresh), \
             Rank Points by old rank (Grandmaster 1200, Master 1100, Prophet 1000, Scholar 700, \
             Apprentice 400) and tier. Nothing changes until you press Apply, and Undo takes it \
             back.",
        );
        if ui.button("Preview migration").clicked() {
            out.push(Command::PreviewMigration {
                path: me.path.clone(),
                cutoffs: me.cutoffs_text(),
            });
        }
        if let Some(p) = &app.pending {
            preview(ui, p, &app.now().rules, out);
        }
    });
}
