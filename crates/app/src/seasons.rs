//! Seasons: the weekly and season buttons, each through a preview of every player's
//! before → after (`preview.rs`), and the season archive, ranked.

use super::command::Command;
use super::preview::preview;
use super::state::AppState;
use super::widgets;
use eframe::egui::{self, RichText};
use egui_extras::{Column, TableBuilder};
use rungs_ladder::seasons::{SeasonEntry, SeasonRanking, SeasonRecord};

pub fn show(
    ui: &mut egui::Ui,
    tier_cut: &mut super::tier_cut::TierCutPanel,
    app: &AppState,
    out: &mut Vec<Command>,
) {
    if app.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    // Where the calendar stands today, as the status bar says it: the ladder's own season
    // and week are those of its last event, before the resets due since then.
    let l = rungs_ladder::seasons::calendar_status(&app.ladder, crate::state::today());
    ui.horizontal_wrapped(|ui| {
        ui.heading(format!("Season {} · week {}", l.season, l.week));
        if ui
            .button(format!("Soft reset (end week {})…", l.week))
            .on_hover_text("Ends the week: records every player's RP and tier, caps the top RP, and lets uncertainty grow a rating period. Previewed first.")
            .clicked()
        {
            out.push(Command::PreviewSoftReset);
        }
        if ui
            .button(format!("Hard reset (end season {})…", l.season))
            .on_hover_text("Ends the season: archives it, sets RP from the highest tier reached, rescales ratings. Previewed first.")
            .clicked()
        {
            out.push(Command::PreviewHardReset);
        }
    });
    // A preview comes first: in a small window it keeps its room.
    if let Some(p) = &app.pending {
        preview(ui, p, &app.now().rules, out);
    }
    super::calendar::show(ui, app, out);
    super::tier_cut::show(ui, tier_cut, app, out);
    ui.separator();
    archive(ui, app);
}

/// How a season ranks its players: Master and above by their mean weekly RP (best first),
/// then everyone else by the tier they ended in, then by score for systems without tiers.
fn ranked(season: &SeasonRecord) -> Vec<&SeasonEntry> {
    let key = |e: &SeasonEntry| match e.ranking {
        SeasonRanking::AverageRp(rp) => (0u8, -rp, 0),
        SeasonRanking::Tier(t) => (1, 0.0, -(t as i32)),
        SeasonRanking::Score(s) => (2, -s, 0),
    };
    let mut entries: Vec<&SeasonEntry> = season.entries.iter().collect();
    entries.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then(ka.2.cmp(&kb.2))
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    entries
}

fn archive(ui: &mut egui::Ui, app: &AppState) {
    if app.ladder.archive.is_empty() {
        ui.weak("No finished season yet: the hard reset ends one.");
        return;
    }
    egui::ScrollArea::vertical()
        .id_salt("archive")
        .show(ui, |ui| {
            let archive = &app.ladder.archive;
            for (i, season) in archive.iter().enumerate().rev() {
                let began = i.checked_sub(1).map(|j| archive[j].ended);
                egui::CollapsingHeader::new(format!(
                    "{} — {} ({})",
                    season.title(),
                    rungs_ladder::words::season_span(season, began),
                    plural(season.entries.len(), "player")
                ))
                .id_salt(("season", season.number))
                .show(ui, |ui| season_table(ui, season));
            }
        });
}

fn plural(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn season_table(ui: &mut egui::Ui, season: &SeasonRecord) {
    let entries = ranked(season);
    let has_mean = entries
        .iter()
        .any(|e| matches!(e.ranking, SeasonRanking::AverageRp(_)));
    let ranking_title = if has_mean {
        "season ranking (tier, or mean weekly RP)"
    } else {
        "season ranking"
    };
    let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::horizontal()
        .id_salt(("season-sideways", season.number))
        .show(ui, |ui| {
            TableBuilder::new(ui)
                .id_salt(("season-table", season.number))
                .striped(true)
                .resizable(true)
                .max_scroll_height(360.0)
                .column(Column::exact(44.0))
                .column(Column::initial(180.0).at_least(100.0).clip(true))
                .column(Column::initial(240.0).at_least(120.0))
                .column(Column::initial(110.0).at_least(80.0))
                .column(Column::initial(70.0).at_least(60.0))
                .column(Column::initial(220.0).at_least(120.0).clip(true))
                .header(22.0, |mut h| {
                    for title in [
                        "#",
                        "player",
                        ranking_title,
                        "peak tier",
                        "matches",
                        "RP at each week's end",
                    ] {
                        h.col(|ui| {
                            ui.strong(title);
                        });
                    }
                })
                .body(|body| {
                    body.rows(row, entries.len(), |mut r| {
                        let place = r.index();
                        let e = entries[place];
                        r.col(|ui| {
                            ui.label((place + 1).to_string());
                        });
                        r.col(|ui| {
                            ui.label(&e.name);
                        });
                        r.col(|ui| {
                            match e.ranking {
                                SeasonRanking::Tier(t) => {
                                    ui.label(RichText::new(t.name()).color(widgets::tier_colour(t)))
                                }
                                SeasonRanking::AverageRp(rp) => ui.label(format!("{rp:.1}")),
                                SeasonRanking::Score(s) => ui.label(format!("{s:.1}")),
                            };
                        });
                        r.col(|ui| {
                            if let Some(t) = e.peak_tier {
                                ui.label(RichText::new(t.name()).color(widgets::tier_colour(t)));
                            }
                        });
                        r.col(|ui| {
                            ui.label(e.matches.to_string());
                        });
                        r.col(|ui| {
                            let weeks = e
                                .weekly_rp
                                .iter()
                                .map(|r| format!("{r:.0}"))
                                .collect::<Vec<_>>()
                                .join(", ");
                            // Cut, it shows its whole text on hover by itself.
                            ui.add(egui::Label::new(weeks).truncate());
                        });
                    });
                });
        });
}
