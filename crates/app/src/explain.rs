//! "Why did this move?": the explanation panel, over whichever screen asked (a match on
//! Matches, a read-out or a point on History's plots). It shows an event's derivation for
//! each player it changed, in the rating system's own terms, as `rungs explain` prints it:
//! every figure in full, so that the figures add up to the history's. The app state works the
//! explanation out (`Command::Explain`); this panel only keeps and draws it.

use eframe::egui::{self, RichText};
use rungs_analysis::explain::Explanation;

/// The panel's own state: the explanation it shows, while it is open.
#[derive(Default)]
pub struct ExplainPanel {
    pub shown: Option<Explanation>,
}

impl ExplainPanel {
    /// Opens on `explanation`, in place of any other.
    pub fn open(&mut self, explanation: Explanation) {
        self.shown = Some(explanation);
    }
}

/// A figure as the panel and `rungs explain` write it: in full (the shortest text that reads
/// back to the same number).
pub fn figure(value: f64) -> String {
    value.to_string()
}

/// Draws the panel while it is open; its close button closes it.
pub fn show(ctx: &egui::Context, me: &mut ExplainPanel) {
    let Some(x) = &me.shown else { return };
    let mut open = true;
    egui::Window::new("Why did this move?")
        .open(&mut open)
        .default_width(620.0)
        .default_height(480.0)
        .resizable(true)
        .vscroll(true)
        .show(ctx, |ui| body(ui, x));
    if !open {
        me.shown = None;
    }
}

fn body(ui: &mut egui::Ui, x: &Explanation) {
    ui.label(
        RichText::new(format!(
            "Event {} on {}: {} ({})",
            x.seq, x.date, x.event, x.system
        ))
        .strong(),
    );
    ui.weak("Each figure in full, in the order the update works it out.");
    for (k, p) in x.players.iter().enumerate() {
        ui.separator();
        ui.heading(rungs_ladder::values::shown(&p.name));
        for (j, section) in p.sections.iter().enumerate() {
            ui.add_space(4.0);
            ui.label(RichText::new(section.title.as_ref()).strong());
            egui::Grid::new(("explain-section", k, j))
                .num_columns(4)
                .striped(true)
                .spacing([12.0, 2.0])
                .show(ui, |ui| {
                    for s in &section.steps {
                        ui.monospace(s.symbol.as_ref());
                        ui.monospace(figure(s.value));
                        ui.label(s.name.as_ref());
                        if s.formula != s.symbol {
                            ui.weak(s.formula.as_ref());
                        } else {
                            ui.label("");
                        }
                        ui.end_row();
                    }
                });
        }
    }
}
