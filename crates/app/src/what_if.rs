//! What-if: the same log under another system or other parameters, replayed in the
//! background; the two standings side by side with rank changes highlighted. A player's row
//! adds them to the History plot, where their history under both rules overlays.

use super::command::{Command, Screen, ToolCommand};
use super::state::AppState;
use super::tools::{self, Comparison};
use super::widgets;
use eframe::egui::{self, RichText};
use egui_extras::{Column, TableBuilder};
use rungs_ladder::rules::System;

/// The What-if screen's own state: rules B as a system and each parameter's value as typed
/// (by code name; empty is the default).
#[derive(Debug, Clone, PartialEq)]
pub struct WhatIfScreen {
    pub system: System,
    pub params: super::param_fields::Typed,
    pub only_moved: bool,
}

impl Default for WhatIfScreen {
    fn default() -> Self {
        WhatIfScreen {
            system: System::Elo,
            params: super::param_fields::Typed::new(),
            only_moved: false,
        }
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut WhatIfScreen, state: &AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    ui.label(format!(
        "A: the file's own rules ({}). B: pick a system and parameters; the log replays under \
         B without changing the file.",
        super::words::rules(&state.ladder.rules)
    ));
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("B:");
        egui::ComboBox::from_id_salt("what-if-system")
            .selected_text(me.system.label())
            .show_ui(ui, |ui| {
                for s in System::ALL {
                    ui.selectable_value(&mut me.system, s, s.label());
                }
            })
            .response
            .labelled_by(label.id);
        let busy = state.job.is_some();
        if ui
            .add_enabled(!busy, egui::Button::new("Replay under B"))
            .clicked()
        {
            let assignments = super::param_fields::assignments(me.system, &me.params);
            match tools::rules_from(Some(&state.now().rules), me.system, &assignments) {
                Ok(rules) => out.push(Command::Tool(ToolCommand::Compare(rules))),
                Err(e) => out.push(Command::Problem {
                    field: "Parameters",
                    message: crate::words::param(&e),
                }),
            }
        }
    });
    // B's parameters by their labels (the code name and range on hover); empty: the default.
    let defaults = state.now().rules.defaults_for(me.system);
    super::param_fields::show(ui, me.system, &mut me.params, &defaults);
    let Some(cmp) = &state.tools.comparison else {
        return;
    };
    let moved = cmp.rows.iter().filter(|r| r.rank_change != 0).count();
    ui.horizontal(|ui| {
        ui.label(
            RichText::new(format!(
                "B = {}: {} of {} players change place",
                super::words::rules(&cmp.rules),
                widgets::thousands(moved as u64),
                widgets::thousands(cmp.rows.len() as u64)
            ))
            .strong(),
        );
        ui.checkbox(&mut me.only_moved, "only players who move");
        if ui.button("Close").clicked() {
            out.push(Command::Tool(ToolCommand::CloseCompare));
        }
    });
    let rows: Vec<usize> = (0..cmp.rows.len())
        .filter(|&i| !me.only_moved || cmp.rows[i].rank_change != 0)
        .collect();
    let row_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    egui::ScrollArea::horizontal()
        .id_salt("what-if-sideways")
        .show(ui, |ui| table(ui, cmp, &rows, row_height, out));
}

fn table(
    ui: &mut egui::Ui,
    cmp: &Comparison,
    rows: &[usize],
    row_height: f32,
    out: &mut Vec<Command>,
) {
    TableBuilder::new(ui)
        .id_salt("what-if")
        .striped(true)
        .resizable(true)
        .column(Column::exact(60.0))
        .column(Column::exact(60.0))
        .column(Column::exact(70.0))
        .column(Column::initial(200.0).at_least(120.0).clip(true))
        .column(Column::initial(140.0).at_least(100.0))
        .column(Column::initial(140.0).at_least(100.0))
        .column(Column::initial(220.0).at_least(120.0))
        .header(22.0, |mut h| {
            for title in [
                "rank A",
                "rank B",
                "change",
                "player",
                "score A → B",
                "rating A → B",
            ] {
                h.col(|ui| {
                    ui.strong(title);
                });
            }
            h.col(|ui| {
                ui.strong("tier A → B");
            });
        })
        .body(|body| {
            body.rows(row_height, rows.len(), |mut row| {
                let r = &cmp.rows[rows[row.index()]];
                row.col(|ui| {
                    ui.label(r.rank_a.to_string());
                });
                row.col(|ui| {
                    ui.label(r.rank_b.to_string());
                });
                row.col(|ui| {
                    let d = r.rank_change as f64;
                    let text = match r.rank_change {
                        0 => "=".to_string(),
                        c if c > 0 => format!("▲ {c}"),
                        c => format!("▼ {}", -c),
                    };
                    ui.label(RichText::new(text).color(widgets::delta_colour(ui, d)));
                });
                row.col(|ui| {
                    if ui
                        .link(&r.name)
                        .on_hover_text("Plot under A and B")
                        .clicked()
                    {
                        out.push(Command::Tool(ToolCommand::Plot(r.player)));
                        out.push(Command::Show(Screen::History));
                    }
                });
                row.col(|ui| {
                    ui.label(format!("{:.0} → {:.0}", r.score_a, r.score_b));
                });
                row.col(|ui| {
                    ui.label(format!("{:.0} → {:.0}", r.rating_a, r.rating_b));
                });
                row.col(|ui| {
                    let name =
                        |t: Option<rungs_ladder::skyweaver::Tier>| t.map_or("—", |t| t.name());
                    ui.label(format!("{} → {}", name(r.tier_a), name(r.tier_b)));
                });
            });
        });
}
