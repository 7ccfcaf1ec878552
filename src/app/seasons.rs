//! Seasons: the weekly and season buttons, each through a preview of every player's
//! old → new, and the season archive.

use super::state::{AppState, Command};
use super::widgets;
use crate::ladder::seasons::SeasonRanking;
use eframe::egui::{self, RichText};

pub fn show(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<Command>) {
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let l = &state.ladder;
    ui.horizontal(|ui| {
        ui.heading(format!("Season {} · week {}", l.season, l.week));
        if ui
            .button(format!("Soft reset (end week {})…", l.week))
            .clicked()
        {
            out.push(Command::PreviewSoftReset);
        }
        if ui
            .button(format!("Hard reset (end season {})…", l.season))
            .clicked()
        {
            out.push(Command::PreviewHardReset);
        }
    });
    if let Some(p) = &state.pending {
        preview(ui, p, out);
    }
    ui.separator();
    archive(ui, state);
}

/// Any pending action's before → after table, with Apply and Cancel.
pub fn preview(ui: &mut egui::Ui, p: &super::state::Pending, out: &mut Vec<Command>) {
    ui.group(|ui| {
        ui.heading(format!("Preview — {}", p.action.label()));
        let moved: Vec<_> = p.changes.iter().filter(|c| c.moved()).collect();
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        egui::Grid::new("preview-head")
            .num_columns(4)
            .min_col_width(150.0)
            .show(ui, |ui| {
                for h in [
                    "player",
                    "tier",
                    "score before → after",
                    "rating ± dev before → after",
                ] {
                    ui.strong(h);
                }
                ui.end_row();
            });
        egui::ScrollArea::vertical()
            .id_salt("preview")
            .max_height(320.0)
            .show_rows(ui, row, moved.len(), |ui, range| {
                egui::Grid::new("preview-rows")
                    .num_columns(4)
                    .min_col_width(150.0)
                    .show(ui, |ui| {
                        for c in &moved[range] {
                            ui.label(&c.name);
                            match (c.tier_before, c.tier_after) {
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
                                _ => {
                                    ui.label("");
                                }
                            }
                            let b = c.before.unwrap_or(c.after);
                            let d = c.after.score - b.score;
                            ui.label(
                                RichText::new(format!(
                                    "{:.0} → {:.0} ({})",
                                    b.score,
                                    c.after.score,
                                    widgets::delta(d)
                                ))
                                .color(widgets::delta_colour(ui, d)),
                            );
                            ui.label(format!(
                                "{:.0} ± {:.0} → {:.0} ± {:.0}",
                                b.rating, b.deviation, c.after.rating, c.after.deviation
                            ));
                            ui.end_row();
                        }
                    });
            });
        let unchanged = p.changes.len() - moved.len();
        if unchanged > 0 {
            ui.weak(format!("… {unchanged} more unchanged"));
        }
        ui.horizontal(|ui| {
            if ui.button("Apply").clicked() {
                out.push(Command::Confirm);
            }
            if ui.button("Cancel").clicked() {
                out.push(Command::Cancel);
            }
        });
    });
}

fn archive(ui: &mut egui::Ui, state: &AppState) {
    if state.ladder.archive.is_empty() {
        ui.weak("No finished season yet: the hard reset ends one.");
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("archive")
        .show(ui, |ui| {
            for season in state.ladder.archive.iter().rev() {
                egui::CollapsingHeader::new(format!(
                    "Season {} — ended {} ({} weeks)",
                    season.number, season.ended, season.weeks
                ))
                .id_salt(("season", season.number))
                .show(ui, |ui| {
                    egui::Grid::new(("season-grid", season.number))
                        .striped(true)
                        .show(ui, |ui| {
                            for h in [
                                "player",
                                "season ranking",
                                "peak tier",
                                "matches",
                                "weekly RP",
                            ] {
                                ui.strong(h);
                            }
                            ui.end_row();
                            for e in &season.entries {
                                ui.label(&e.name);
                                ui.label(match e.ranking {
                                    SeasonRanking::Tier(t) => t.name().to_string(),
                                    SeasonRanking::AverageRp(rp) => {
                                        format!("{rp:.1} RP (weekly mean)")
                                    }
                                    SeasonRanking::Score(s) => format!("{s:.1}"),
                                });
                                match e.peak_tier {
                                    Some(t) => ui.label(
                                        RichText::new(t.name()).color(widgets::tier_colour(t)),
                                    ),
                                    None => ui.label(""),
                                };
                                ui.label(e.matches.to_string());
                                ui.label(
                                    e.weekly_rp
                                        .iter()
                                        .map(|r| format!("{r:.0}"))
                                        .collect::<Vec<_>>()
                                        .join(", "),
                                );
                                ui.end_row();
                            }
                        });
                });
            }
        });
}
