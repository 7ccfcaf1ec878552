//! An action shown before it happens: every player who moves, before → after, in aligned,
//! resizable columns that scroll sideways (each preview starts at its top), with Apply and
//! Cancel. Seasons, Settings and Migration all show their change this way.

use super::command::Command;
use super::jobs::Pending;
use super::widgets;
use eframe::egui::{self, RichText};
use egui_extras::{Column, TableBuilder};
use rungs_ladder::event::{Entry, Event};
use rungs_ladder::preview::Change;
use rungs_ladder::rules::Rules;
use rungs_ladder::state::Figures;

/// Figures as the system shows them: "1500 ± 350", or "1500" where there is no deviation.
fn rating(f: &Figures) -> String {
    if f.deviation > 0.0 {
        format!("{:.0} ± {:.0}", f.rating, f.deviation)
    } else {
        format!("{:.0}", f.rating)
    }
}

/// Whether a change shows: its figures differ as printed (a change below the last shown
/// digit, an RD growing by a thousandth, is no change on screen), or its tier does.
fn shown_moved(c: &Change) -> bool {
    let b = c.before.unwrap_or(c.after);
    let r = |x: f64| x.round() as i64;
    c.before.is_none()
        || c.tier_before != c.tier_after
        || r(b.score) != r(c.after.score)
        || r(b.rating) != r(c.after.rating)
        || r(b.deviation) != r(c.after.deviation)
}

/// Why a preview changes no player, said in its place of "0 players change".
fn nobody_moves(p: &Pending, unchanged: usize) -> String {
    let joined = p.after.players.iter().filter(|pl| pl.joined).count();
    if joined == 0 {
        return "No player changes: the ladder has no players yet.".to_string();
    }
    let later = |date: chrono::NaiveDate| p.after.last_date.is_some_and(|last| last > date);
    match p.action.rows().first() {
        Some((
            date,
            Entry::Add {
                event: Event::Rules { .. },
            },
        )) if !later(*date) => format!(
            "No player changes yet: the new rules rate the matches from {date} on, and none \
             is entered after it."
        ),
        Some((
            _,
            Entry::Add {
                event: Event::SoftReset | Event::HardReset | Event::DueResets,
            },
        )) => {
            format!(
                "No player changes: for all {} players the reset leaves the figures shown \
                 (RP, rating and RD, to the whole number) as they are.",
                widgets::thousands(unchanged.max(joined) as u64)
            )
        }
        _ => format!(
            "No player changes: for all {} players the figures shown (to the whole number) \
             come out the same.",
            widgets::thousands(unchanged.max(joined) as u64)
        ),
    }
}

/// Any pending action's before → after table, with Apply and Cancel; `before` is the rules
/// the ladder has now.
pub fn preview(ui: &mut egui::Ui, p: &Pending, before: &Rules, out: &mut Vec<Command>) {
    let facts = p.after.rules.system().facts();
    let had_tiers = before.system().facts().tiers;
    let score_is_rating = facts.score_is_rating && before.system().facts().score_is_rating;
    ui.group(|ui| {
        ui.horizontal_wrapped(|ui| {
            ui.heading(format!(
                "Preview — {}",
                super::words::change(&p.action, before)
            ));
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
        let moved: Vec<_> = p.changes.iter().filter(|c| shown_moved(c)).collect();
        let unchanged = p.changes.len() - moved.len();
        if moved.is_empty() {
            ui.weak(nobody_moves(p, unchanged));
        } else {
            ui.weak(format!(
                "{} players change{}",
                widgets::thousands(moved.len() as u64),
                if unchanged > 0 {
                    format!("; {} more unchanged", widgets::thousands(unchanged as u64))
                } else {
                    String::new()
                }
            ));
        }
        let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
        let height = (ui.available_height() * 0.6).clamp(120.0, 360.0);
        // With room to spare names and tiers get the width they need ("Apprentice III →
        // Apprentice II" is about 200 px, not "Grandweaver → Ex…"); a small window keeps all
        // four columns in view.
        let roomy = ui.available_width() >= 700.0;
        let (name_w, tier_w) = if roomy {
            (160.0, 215.0)
        } else {
            (120.0, 120.0)
        };
        egui::ScrollArea::horizontal()
            .id_salt(("preview-sideways", p.id))
            .show(ui, |ui| {
                TableBuilder::new(ui)
                    // A fresh id per preview: each opens at its top, not where the last was.
                    .id_salt(("preview", p.id))
                    .striped(true)
                    .resizable(true)
                    .max_scroll_height(height)
                    // Together about 560 px (685 with room): a small window shows every column.
                    .column(Column::initial(name_w).at_least(80.0).clip(true))
                    .column(Column::initial(tier_w).at_least(70.0).clip(true))
                    .column(Column::initial(130.0).at_least(110.0))
                    .column(Column::initial(180.0).at_least(150.0))
                    .header(22.0, |mut h| {
                        // Where the score is the rating (Elo), one column says it.
                        let score = format!("{} before → after", facts.score);
                        let titles = [
                            "player",
                            "tier",
                            score.as_str(),
                            if score_is_rating {
                                ""
                            } else {
                                "rating before → after"
                            },
                        ];
                        for title in titles {
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
                                // The new system has no tiers: say so, not an empty cell.
                                (Some(b), None) => {
                                    ui.label(format!("{} → none", b.name()));
                                }
                                (None, None) if had_tiers || facts.tiers => {
                                    ui.weak("—");
                                }
                                _ => {}
                            });
                            let b = c.before.unwrap_or(c.after);
                            let d = c.after.score - b.score;
                            // A player joining has no before: said so, not after → after.
                            if c.before.is_none() {
                                r.col(|ui| {
                                    ui.label(format!("joins at {:.0}", c.after.score));
                                });
                                r.col(|ui| {
                                    if !score_is_rating {
                                        ui.label(format!("joins at {}", rating(&c.after)));
                                    }
                                });
                                return;
                            }
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
                                if !score_is_rating {
                                    ui.label(format!("{} → {}", rating(&b), rating(&c.after)));
                                }
                            });
                        });
                    });
            });
    });
}
