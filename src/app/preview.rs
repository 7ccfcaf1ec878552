//! An action shown before it happens: every player who moves, before → after, in aligned,
//! resizable columns that scroll sideways (each preview starts at its top), with Apply and
//! Cancel. Seasons, Settings and Migration all show their change this way.

use super::command::Command;
use super::jobs::Pending;
use super::widgets;
use eframe::egui::{self, RichText};
use egui_extras::{Column, TableBuilder};

/// Any pending action's before → after table, with Apply and Cancel.
pub fn preview(ui: &mut egui::Ui, p: &Pending, out: &mut Vec<Command>) {
    ui.group(|ui| {
        ui.horizontal_wrapped(|ui| {
            ui.heading(format!("Preview — {}", p.action.label()));
            if ui.button("Apply").clicked() {
                out.push(Command::Confirm);
            }
            if ui.button("Cancel").clicked() {
                out.push(Command::Cancel);
            }
        });
        if let Some(note) = &p.note {
            ui.label(note);
        }
        let moved: Vec<_> = p.changes.iter().filter(|c| c.moved()).collect();
        let unchanged = p.changes.len() - moved.len();
        ui.weak(format!(
            "{} players change{}",
            widgets::thousands(moved.len() as u64),
            if unchanged > 0 {
                format!("; {} more unchanged", widgets::thousands(unchanged as u64))
            } else {
                String::new()
            }
        ));
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        let height = (ui.available_height() * 0.6).clamp(120.0, 360.0);
        egui::ScrollArea::horizontal()
            .id_salt(("preview-sideways", p.id))
            .show(ui, |ui| {
                TableBuilder::new(ui)
                    // A fresh id per preview: each opens at its top, not where the last was.
                    .id_salt(("preview", p.id))
                    .striped(true)
                    .resizable(true)
                    .max_scroll_height(height)
                    .column(Column::initial(180.0).at_least(100.0).clip(true))
                    .column(Column::initial(200.0).at_least(100.0))
                    .column(Column::initial(170.0).at_least(120.0))
                    .column(Column::initial(200.0).at_least(150.0))
                    .header(22.0, |mut h| {
                        for title in [
                            "player",
                            "tier",
                            "score before → after",
                            "rating ± dev before → after",
                        ] {
                            h.col(|ui| {
                                ui.strong(title);
                            });
                        }
                    })
                    .body(|body| {
                        body.rows(row, moved.len(), |mut r| {
                            let c = moved[r.index()];
                            r.col(|ui| {
                                ui.label(&c.name);
                            });
                            r.col(|ui| match (c.tier_before, c.tier_after) {
                                (Some(b), Some(a)) if b != a => {
                                    ui.label(
                                        RichText::new(format!("{} → {}", b.name(), a.name()))
                                            .color(widgets::tier_colour(a)),
                                    );
                                }
                                (_, Some(a)) => {
                                    ui.label(
                                        RichText::new(a.name()).color(widgets::tier_colour(a)),
                                    );
                                }
                                _ => {}
                            });
                            let b = c.before.unwrap_or(c.after);
                            let d = c.after.score - b.score;
                            r.col(|ui| {
                                ui.label(
                                    RichText::new(format!(
                                        "{:.0} → {:.0} ({})",
                                        b.score,
                                        c.after.score,
                                        widgets::delta(d)
                                    ))
                                    .color(widgets::delta_colour(ui, d)),
                                );
                            });
                            r.col(|ui| {
                                ui.label(format!(
                                    "{:.0} ± {:.0} → {:.0} ± {:.0}",
                                    b.rating, b.deviation, c.after.rating, c.after.deviation
                                ));
                            });
                        });
                    });
            });
    });
}
