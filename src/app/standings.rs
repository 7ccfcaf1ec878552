//! Standings: players grouped by tier, sortable by any column, filtered by name; rows are
//! virtualised, so 10,000 players scroll as smoothly as ten.

use super::state::{AppState, Command};
use super::widgets;
use crate::ladder::skyweaver::Tier;
use crate::ladder::standings::Standing;
use crate::ladder::state::{PlayerState, Skill};
use eframe::egui::{self, RichText};
use egui_extras::{Column, TableBuilder};

/// The column the standings are sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortKey {
    #[default]
    Position,
    Name,
    Rating,
    Matches,
    LastPlayed,
}

/// One line of the table: a tier's heading, or a player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Line {
    Heading(Tier),
    Player(usize),
}

/// The lines to show, cached until the filter, the sort or the ladder changes.
#[derive(Debug, Clone, Default)]
pub struct TableCache {
    key: Option<(String, SortKey, bool, bool, usize, u64)>,
    pub lines: Vec<Line>,
}

fn score_name(p: &PlayerState) -> &'static str {
    match p.skill {
        Skill::Glicko(_) | Skill::Glicko2(_) => "RP",
        Skill::TrueSkill(_) => "rank",
        Skill::Elo(_) => "rating",
    }
}

/// Recomputes the cached lines if anything they depend on changed.
pub fn refresh(state: &mut AppState) {
    let v = &state.view;
    let key = (
        v.filter.to_lowercase(),
        v.sort,
        v.descending,
        v.show_all,
        state.standings.len(),
        state.generation,
    );
    if state.table.key.as_ref() == Some(&key) {
        return;
    }
    let filter = key.0.clone();
    let mut rows: Vec<usize> = (0..state.standings.len())
        .filter(|&i| {
            let s: &Standing = &state.standings[i];
            let p = &state.ladder.players[s.id as usize];
            (v.show_all || !(s.provisional || s.idle))
                && (filter.is_empty() || p.name.to_lowercase().contains(&filter))
        })
        .collect();
    let player = |i: usize| &state.ladder.players[state.standings[i].id as usize];
    match v.sort {
        SortKey::Position => {}
        SortKey::Name => rows.sort_by_key(|&i| player(i).name.to_lowercase()),
        SortKey::Rating => rows.sort_by(|&x, &y| {
            player(y)
                .figures()
                .rating
                .total_cmp(&player(x).figures().rating)
        }),
        SortKey::Matches => rows.sort_by_key(|&i| std::cmp::Reverse(player(i).matches)),
        SortKey::LastPlayed => rows.sort_by_key(|&i| std::cmp::Reverse(player(i).last_played)),
    }
    if v.descending {
        rows.reverse();
    }
    let mut lines = Vec::with_capacity(rows.len() + 12);
    let grouped = v.sort == SortKey::Position && !v.descending;
    let mut current = None;
    for i in rows {
        if grouped
            && let Some(t) = state.standings[i].tier
            && current != Some(t)
        {
            current = Some(t);
            lines.push(Line::Heading(t));
        }
        lines.push(Line::Player(i));
    }
    state.table = TableCache {
        key: Some(key),
        lines,
    };
}

pub fn show(ui: &mut egui::Ui, state: &mut AppState, out: &mut Vec<Command>) {
    if state.store.is_none() || state.standings.is_empty() {
        empty_state(ui, state, out);
        return;
    }
    ui.horizontal(|ui| {
        let label = ui.label("Filter:");
        ui.add(
            egui::TextEdit::singleline(&mut state.view.filter)
                .hint_text("name")
                .desired_width(180.0),
        )
        .labelled_by(label.id);
        ui.checkbox(&mut state.view.show_all, "show provisional and idle");
        ui.label(format!(
            "{} players",
            widgets::thousands(state.standings.len() as u64)
        ));
    });
    refresh(state);
    let mut clicked_sort = None;
    let mut open_player = None;
    let mut plot_player = None;
    let body_height = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    let state_ref: &AppState = state;
    let sort_button =
        |ui: &mut egui::Ui, label: &str, key: SortKey, clicked: &mut Option<SortKey>| {
            let arrow = if state_ref.view.sort == key {
                if state_ref.view.descending {
                    " ▴"
                } else {
                    " ▾"
                }
            } else {
                ""
            };
            if ui.button(format!("{label}{arrow}")).clicked() {
                *clicked = Some(key);
            }
        };
    let score_label = state_ref.ladder.players.first().map_or("RP", score_name);
    // Labels that take clicks for text selection would swallow the row's click.
    ui.style_mut().interaction.selectable_labels = false;
    TableBuilder::new(ui)
        .id_salt("standings")
        .striped(true)
        .sense(egui::Sense::click())
        .column(Column::exact(48.0))
        .column(Column::exact(24.0))
        .column(Column::initial(220.0).at_least(120.0).clip(true))
        .column(Column::exact(90.0))
        .column(Column::exact(56.0))
        .column(Column::exact(140.0))
        .column(Column::exact(100.0))
        .column(Column::exact(100.0))
        .column(Column::remainder())
        .header(24.0, |mut h| {
            h.col(|ui| sort_button(ui, "#", SortKey::Position, &mut clicked_sort));
            h.col(|_| {});
            h.col(|ui| sort_button(ui, "Player", SortKey::Name, &mut clicked_sort));
            h.col(|ui| {
                ui.strong(score_label);
            });
            h.col(|ui| {
                ui.strong("trend");
            });
            h.col(|ui| sort_button(ui, "Rating", SortKey::Rating, &mut clicked_sort));
            h.col(|ui| sort_button(ui, "W-D-L", SortKey::Matches, &mut clicked_sort));
            h.col(|ui| sort_button(ui, "Last played", SortKey::LastPlayed, &mut clicked_sort));
            h.col(|_| {});
        })
        .body(|body| {
            body.rows(
                body_height,
                state_ref.table.lines.len(),
                |mut row| match state_ref.table.lines[row.index()] {
                    Line::Heading(tier) => {
                        row.col(|_| {});
                        row.col(|ui| {
                            ui.label(widgets::tier_badge(tier));
                        });
                        row.col(|ui| {
                            ui.label(
                                RichText::new(tier.name())
                                    .color(widgets::tier_colour(tier))
                                    .strong(),
                            );
                        });
                        for _ in 0..6 {
                            row.col(|_| {});
                        }
                    }
                    Line::Player(i) => {
                        let s = &state_ref.standings[i];
                        let p = &state_ref.ladder.players[s.id as usize];
                        let f = p.figures();
                        row.col(|ui| {
                            ui.label(s.position.to_string());
                        });
                        row.col(|ui| {
                            if let Some(t) = s.tier {
                                ui.label(widgets::tier_badge(t)).on_hover_text(t.name());
                            }
                        });
                        row.col(|ui| {
                            ui.label(&p.name);
                        });
                        row.col(|ui| {
                            ui.label(format!("{:.0}", f.score));
                        });
                        row.col(|ui| {
                            let d = p.last_change;
                            let arrow = if d > 0.5 {
                                "▲"
                            } else if d < -0.5 {
                                "▼"
                            } else {
                                "·"
                            };
                            let text = if d.abs() > 0.5 {
                                format!("{arrow}{:.0}", d.abs())
                            } else {
                                arrow.to_string()
                            };
                            ui.label(RichText::new(text).color(widgets::delta_colour(ui, d)));
                        });
                        row.col(|ui| {
                            ui.label(match p.skill {
                                Skill::Elo(_) => format!("{:.0}", f.rating),
                                Skill::TrueSkill(_) => {
                                    format!("μ {:.1} ± {:.1}", f.rating, 3.0 * f.deviation)
                                }
                                _ => format!("{:.0} ± {:.0}", f.rating, f.deviation),
                            });
                        });
                        row.col(|ui| {
                            ui.label(format!("{}-{}-{}", p.wins, p.draws, p.losses));
                        });
                        row.col(|ui| {
                            ui.label(p.last_played.map_or_else(|| "—".into(), |d| d.to_string()));
                        });
                        row.col(|ui| {
                            let mut flags = Vec::new();
                            if s.provisional {
                                flags.push("provisional");
                            }
                            if s.idle {
                                flags.push("idle");
                            }
                            ui.weak(flags.join(", "));
                        });
                        let response = row.response();
                        if response.clicked() {
                            open_player = Some(s.id);
                        }
                        response.context_menu(|ui| {
                            if ui.button("Plot history").clicked() {
                                plot_player = Some(s.id);
                                ui.close();
                            }
                        });
                    }
                },
            );
        });
    if let Some(key) = clicked_sort {
        if state.view.sort == key {
            state.view.descending = !state.view.descending;
        } else {
            state.view.sort = key;
            state.view.descending = false;
        }
    }
    if let Some(id) = open_player {
        out.push(Command::ShowPlayer(Some(id)));
    }
    if let Some(id) = plot_player {
        out.push(Command::Tool(super::tools::ToolCommand::Plot(id)));
        out.push(Command::Show(super::state::Screen::History));
    }
}

/// A new or empty ladder says what to do first.
fn empty_state(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<Command>) {
    ui.add_space(24.0);
    ui.vertical_centered(|ui| {
        ui.heading("This ladder has no players yet");
        ui.add_space(8.0);
        ui.label(format!(
            "{} runs {}. Start by adding players, importing matches from a CSV, or looking around the demo.",
            state.path().map_or("The ladder".into(), |p| p.display().to_string()),
            state.ladder.rules.system()
        ));
        ui.add_space(12.0);
        if ui.button("Add players").clicked() {
            out.push(Command::Show(super::state::Screen::Players));
        }
        if ui.button("Import a CSV…").clicked()
            && let Some(p) = widgets::open_dialog("Import matches", &["csv", "gz"]) {
                let mapping = widgets::mapping_for_file(&p);
                out.push(Command::ImportCsv(p, mapping));
            }
        if ui.button("Open the demo ladder (international football 1872–2026)").clicked() {
            out.push(Command::OpenDemo);
        }
    });
}
