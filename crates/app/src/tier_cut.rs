//! Seasons → "Cut tiers to a target…": a share per tier, Propose (the search replays the log
//! in the background, with Cancel), the shares before and after and the flow matrix as a
//! grid; Apply previews the minimums as a rules change from the log's first day, which
//! Apply in the preview records (undoable, as any rules change).

use super::command::{Command, ToolCommand};
use super::state::AppState;
use eframe::egui::{self, RichText};
use rungs_analysis::tiers::{Proposal, Targets};
use rungs_ladder::skyweaver::Tier;
use rungs_ladder::tier_flow::{SeasonFlow, share_beside_target, shares, short_name, summed};
use rungs_ladder::tiers::CUT_TIERS;

/// The panel's form: one share per tier as typed, Wanderer to Master.
pub struct TierCutPanel {
    pub shares: [String; CUT_TIERS],
    /// Whether the flow matrix shown is the one under the minimums now (else the proposed).
    pub flow_before: bool,
}

impl Default for TierCutPanel {
    /// A pyramid wide at the bottom, summing to 100, to start from.
    fn default() -> Self {
        let start = [10, 16, 13, 11, 10, 9, 8, 8, 7, 5, 3];
        TierCutPanel {
            shares: start.map(|s| s.to_string()),
            flow_before: false,
        }
    }
}

impl TierCutPanel {
    /// The shares as typed, read; a field that does not read says which.
    fn targets(&self) -> Result<Targets, String> {
        let mut shares = [0.0; CUT_TIERS];
        for (i, text) in self.shares.iter().enumerate() {
            let t = text.trim().trim_end_matches('%').trim();
            shares[i] = match t {
                "" => 0.0,
                _ => t.parse::<f64>().map_err(|_| {
                    format!(
                        "{}'s share \"{}\" is not a number",
                        Tier::ALL[i].name(),
                        rungs_ladder::values::shown(text)
                    )
                })?,
            };
        }
        Targets::new(shares).map_err(|e| e.to_string())
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut TierCutPanel, app: &AppState, out: &mut Vec<Command>) {
    if !app.now().rules.facts().tiers {
        return;
    }
    egui::CollapsingHeader::new("Cut tiers to a target…")
        .id_salt("tier-cut")
        .show(ui, |ui| {
            // The proposal is taller than a small window: it scrolls, leaving the seasons'
            // list below a few lines.
            let room = (ui.available_height() - 90.0).max(140.0);
            egui::ScrollArea::vertical()
                .id_salt("tier-cut-scroll")
                .max_height(room)
                .show(ui, |ui| panel(ui, me, app, out));
        });
}

fn panel(ui: &mut egui::Ui, me: &mut TierCutPanel, app: &AppState, out: &mut Vec<Command>) {
    ui.label(
        "The share of players each tier should hold at season end, in percent \
         (players who played in a season, every finished season together). \
         Master's share counts the Grandweavers, whose own share is whatever their \
         number gives.",
    );
    egui::Grid::new("tier-cut-shares")
        .num_columns(4)
        .show(ui, |ui| {
            for (i, share) in me.shares.iter_mut().enumerate() {
                let name = Tier::ALL[i].name();
                let label = ui.label(format!("{name} %"));
                ui.add(egui::TextEdit::singleline(share).desired_width(50.0))
                    .labelled_by(label.id);
                if i % 2 == 1 {
                    ui.end_row();
                }
            }
        });
    let busy = app.job.is_some();
    ui.horizontal(|ui| {
        if ui
            .add_enabled(!busy, egui::Button::new("Propose"))
            .clicked()
        {
            out.push(match me.targets() {
                Ok(t) => Command::Tool(ToolCommand::ProposeTiers(t)),
                Err(message) => Command::Problem {
                    field: "Target shares",
                    message,
                },
            });
        }
        if let Some(p) = &app.tools.tiers
            && ui
                .add_enabled(!busy, egui::Button::new("Apply proposed minimums…"))
                .on_hover_text(
                    "Previews the minimums as a rules change from the ladder's first day; \
                     Apply there records it (Undo takes it back).",
                )
                .clicked()
        {
            out.push(Command::PreviewRules(p.rules.clone(), p.from.to_string()));
        }
    });
    if let Some(p) = &app.tools.tiers {
        proposal(ui, p, &mut me.flow_before);
    }
}

fn proposal(ui: &mut egui::Ui, p: &Proposal, flow_before: &mut bool) {
    let (before, after) = (shares(&p.counts_before), shares(&p.counts_after));
    ui.add_space(4.0);
    ui.label(format!(
        "{} seasons, {} replays of the log.",
        p.flows_after.len(),
        p.rounds
    ));
    egui::Grid::new("tier-cut-result")
        .striped(true)
        .show(ui, |ui| {
            for title in ["tier", "minimum", "proposed", "target", "before", "after"] {
                ui.label(RichText::new(title).strong());
            }
            ui.end_row();
            let master = CUT_TIERS - 1;
            for (i, t) in Tier::ALL.iter().enumerate() {
                if i == master {
                    ui.label("Master and up");
                } else {
                    ui.label(t.name());
                }
                if i < CUT_TIERS {
                    ui.label(format!("{:.0}", p.before.minimums()[i]));
                    ui.label(format!("{:.0}", p.after.minimums()[i]));
                    ui.label(format!("{:.1} %", p.targets.0[i]));
                } else {
                    ui.label("top N");
                    ui.label("top N");
                    ui.label("in Master and up");
                }
                ui.label(format!("{:.1} %", share_beside_target(&before, i)));
                ui.label(format!("{:.1} %", share_beside_target(&after, i)));
                ui.end_row();
            }
        });
    for u in &p.unreachable {
        ui.label(format!("{} missed its target: {}", u.tier.name(), u.why));
    }
    ui.add_space(4.0);
    ui.horizontal_wrapped(|ui| {
        ui.label("Tier at a season's start (rows) → at its end, every season summed:");
        ui.radio_value(flow_before, true, "under the minimums now");
        ui.radio_value(flow_before, false, "under the proposed minimums");
    });
    flow_grid(
        ui,
        if *flow_before {
            &p.flows_before
        } else {
            &p.flows_after
        },
    );
}

/// The flow matrices of every season summed, as a grid of counts.
fn flow_grid(ui: &mut egui::Ui, flows: &[SeasonFlow]) {
    let sum = summed(flows);
    egui::ScrollArea::horizontal()
        .id_salt("tier-flow")
        .show(ui, |ui| {
            egui::Grid::new("tier-flow-grid")
                .striped(true)
                .show(ui, |ui| {
                    ui.label("");
                    // Short heads keep twelve columns within a small window; the whole
                    // name is under the pointer.
                    for t in Tier::ALL {
                        ui.label(RichText::new(short_name(t)).strong())
                            .on_hover_text(t.name());
                    }
                    ui.end_row();
                    for (r, row) in sum.iter().enumerate() {
                        if row.iter().all(|n| *n == 0) {
                            continue;
                        }
                        ui.label(r.checked_sub(1).map_or("joined", |t| Tier::ALL[t].name()));
                        for n in row {
                            ui.label(if *n == 0 {
                                String::new()
                            } else {
                                n.to_string()
                            });
                        }
                        ui.end_row();
                    }
                });
        });
}
