//! Standings: players grouped by tier, sortable by every column (each header explains itself
//! on hover), filtered by name, "5 of 337 players"; provisional, idle and retired players
//! shown on request. Rows are virtualised, so 10,000 players scroll as smoothly as ten; the
//! table scrolls sideways in a narrow window.

use super::command::{Command, Screen, ToolCommand};
use super::files::Purpose;
use super::state::AppState;
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
    Score,
    Trend,
    Rating,
    Matches,
    LastPlayed,
    Status,
}

/// One line of the table: a tier's heading, or a player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Line {
    Heading(Tier),
    Player(usize),
}

/// The Standings screen's own state: the view as set, and the lines it gives.
#[derive(Debug, Clone, Default)]
pub struct StandingsScreen {
    pub filter: String,
    /// Show provisional, idle and retired players too.
    pub show_all: bool,
    pub sort: SortKey,
    pub descending: bool,
    key: Option<(String, SortKey, bool, bool, usize, u64)>,
    pub lines: Vec<Line>,
    /// Players the lines show.
    pub shown: usize,
}

/// The trend shown for a player: how their score moved in their latest match this season,
/// `None` when they have not played since the season began (right after a hard reset, say).
pub fn trend(p: &PlayerState) -> Option<f64> {
    (p.season_matches > 0 && p.last_change.is_finite()).then_some(p.last_change)
}

impl StandingsScreen {
    /// Recomputes the lines if anything they depend on changed.
    pub fn refresh(&mut self, app: &AppState) {
        let key = (
            self.filter.trim().to_lowercase(),
            self.sort,
            self.descending,
            self.show_all,
            app.standings.len(),
            app.generation,
        );
        if self.key.as_ref() == Some(&key) {
            return;
        }
        let filter = key.0.clone();
        let player = |i: usize| &app.ladder.players[app.standings[i].id as usize];
        let mut rows: Vec<usize> = (0..app.standings.len())
            .filter(|&i| {
                (self.show_all || app.standings[i].listed())
                    && (filter.is_empty() || player(i).name.to_lowercase().contains(&filter))
            })
            .collect();
        let desc = |a: f64, b: f64| b.total_cmp(&a);
        match self.sort {
            SortKey::Position => {}
            SortKey::Name => rows.sort_by_key(|&i| player(i).name.to_lowercase()),
            SortKey::Score => {
                rows.sort_by(|&x, &y| desc(player(x).figures().score, player(y).figures().score))
            }
            SortKey::Trend => rows.sort_by(|&x, &y| {
                desc(
                    trend(player(x)).unwrap_or(f64::NEG_INFINITY),
                    trend(player(y)).unwrap_or(f64::NEG_INFINITY),
                )
            }),
            SortKey::Rating => {
                rows.sort_by(|&x, &y| desc(player(x).figures().rating, player(y).figures().rating))
            }
            SortKey::Matches => rows.sort_by_key(|&i| std::cmp::Reverse(player(i).matches)),
            SortKey::LastPlayed => rows.sort_by_key(|&i| std::cmp::Reverse(player(i).last_played)),
            SortKey::Status => rows.sort_by_key(|&i| app.standings[i].status()),
        }
        if self.descending {
            rows.reverse();
        }
        let grouped = self.sort == SortKey::Position && !self.descending;
        let mut lines = Vec::with_capacity(rows.len() + 12);
        let mut current = None;
        self.shown = rows.len();
        for i in rows {
            if grouped
                && let Some(t) = app.standings[i].tier
                && current != Some(t)
            {
                current = Some(t);
                lines.push(Line::Heading(t));
            }
            lines.push(Line::Player(i));
        }
        self.lines = lines;
        self.key = Some(key);
    }
}

fn score_name(p: &PlayerState) -> &'static str {
    match p.skill {
        Skill::Glicko(_) | Skill::Glicko2(_) => "RP",
        Skill::TrueSkill(_) => "rank",
        Skill::Elo(_) | Skill::Goals(_) => "rating",
    }
}

/// What each column means, for its header's tooltip.
fn explain(key: SortKey, score: &str, app: &AppState) -> String {
    let rules = &app.ladder.rules;
    let leaderboard = format!(
        "Provisional: fewer than {} matches. Idle: no match for more than {} days before the \
         ladder's latest match{}. Retired: taken off by the organiser (Players); a match brings \
         them back.",
        rules.param("provisional_games").unwrap_or(0.0),
        rules.param("idle_days").unwrap_or(0.0),
        if rules.param("idle_days") == Some(0.0) {
            " (0: never idle)"
        } else {
            ""
        }
    );
    match key {
        SortKey::Position => "Place on the leaderboard (by the system's own order). Click to group by tier again.".into(),
        SortKey::Name => "The player's name.".into(),
        SortKey::Score => match score {
            "RP" => "Rank Points: what the ladder is ranked by. Wins earn them, losses cost them; resets cap and reset them.".into(),
            "rank" => "The shown rank, μ − 3σ rounded: rises as a player proves themselves.".into(),
            _ => "The rating the ladder ranks by.".into(),
        },
        SortKey::Trend => format!(
            "How the player's {score} moved in their latest match this season (▲ gained, ▼ lost). Resets are not matches: a soft reset's cap is not counted, and after a hard reset this stays blank until the player plays again."
        ),
        SortKey::Rating => "The hidden skill rating behind the score, ± its uncertainty (one deviation).".into(),
        SortKey::Matches => "Wins, draws and losses; sorts by matches played.".into(),
        SortKey::LastPlayed => "The date of the player's latest match.".into(),
        SortKey::Status => leaderboard,
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut StandingsScreen, app: &AppState, out: &mut Vec<Command>) {
    if app.store.is_none() || app.standings.is_empty() {
        empty_state(ui, app, out);
        return;
    }
    me.refresh(app);
    ui.horizontal_wrapped(|ui| {
        let label = ui.label("Filter:");
        ui.add(
            egui::TextEdit::singleline(&mut me.filter)
                .hint_text("name")
                .desired_width(160.0),
        )
        .labelled_by(label.id);
        ui.checkbox(&mut me.show_all, "show provisional, idle and retired")
            .on_hover_text(explain(SortKey::Status, "", app));
        let total = widgets::thousands(app.standings.len() as u64);
        let listed = app.standings.iter().filter(|s| s.listed()).count();
        let of = if me.shown == app.standings.len() {
            format!("{total} players")
        } else {
            format!("{} of {total} players", widgets::thousands(me.shown as u64))
        };
        ui.label(of).on_hover_text(format!(
            "{} on the leaderboard; {} provisional, idle or retired",
            widgets::thousands(listed as u64),
            widgets::thousands((app.standings.len() - listed) as u64)
        ));
    });
    me.refresh(app);
    table(ui, me, app, out);
}

fn table(ui: &mut egui::Ui, me: &mut StandingsScreen, app: &AppState, out: &mut Vec<Command>) {
    let mut clicked_sort = None;
    let mut open_player = None;
    let mut plot_player = None;
    let body_height = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let score = app.ladder.players.first().map_or("RP", score_name);
    let header = |ui: &mut egui::Ui, label: &str, key: SortKey, clicked: &mut Option<SortKey>| {
        let arrow = match (me.sort == key, me.descending) {
            (true, false) => " ▾",
            (true, true) => " ▴",
            _ => "",
        };
        let b = egui::Button::new(RichText::new(format!("{label}{arrow}")).strong()).frame(false);
        if ui.add(b).on_hover_text(explain(key, score, app)).clicked() {
            *clicked = Some(key);
        }
    };
    // Where the score is the rating (Elo) one column says it: not "rating" and "Rating".
    let rating_column = !app
        .ladder
        .players
        .iter()
        .any(|p| matches!(p.skill, Skill::Elo(_)));
    // Labels that take clicks for text selection would swallow the row's click.
    ui.style_mut().interaction.selectable_labels = false;
    egui::ScrollArea::horizontal()
        .id_salt("standings-sideways")
        .show(ui, |ui| {
            let mut table = TableBuilder::new(ui)
                .id_salt(("standings", rating_column))
                .striped(true)
                .resizable(true)
                .sense(egui::Sense::click())
                .column(Column::exact(44.0))
                .column(Column::exact(22.0))
                .column(Column::initial(200.0).at_least(100.0).clip(true))
                .column(Column::initial(80.0).at_least(60.0))
                .column(Column::initial(90.0).at_least(60.0));
            if rating_column {
                table = table.column(Column::initial(130.0).at_least(90.0));
            }
            table
                .column(Column::initial(90.0).at_least(70.0))
                .column(Column::initial(100.0).at_least(90.0))
                .column(Column::initial(130.0).at_least(90.0))
                .header(24.0, |mut h| {
                    h.col(|ui| header(ui, "#", SortKey::Position, &mut clicked_sort));
                    h.col(|_| {});
                    h.col(|ui| header(ui, "Player", SortKey::Name, &mut clicked_sort));
                    h.col(|ui| header(ui, score, SortKey::Score, &mut clicked_sort));
                    h.col(|ui| header(ui, "Last match", SortKey::Trend, &mut clicked_sort));
                    if rating_column {
                        h.col(|ui| header(ui, "Rating", SortKey::Rating, &mut clicked_sort));
                    }
                    h.col(|ui| header(ui, "W-D-L", SortKey::Matches, &mut clicked_sort));
                    h.col(|ui| header(ui, "Last played", SortKey::LastPlayed, &mut clicked_sort));
                    h.col(|ui| header(ui, "Status", SortKey::Status, &mut clicked_sort));
                })
                .body(|body| {
                    body.rows(body_height, me.lines.len(), |mut row| {
                        match me.lines[row.index()] {
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
                                for _ in 0..(5 + usize::from(rating_column)) {
                                    row.col(|_| {});
                                }
                            }
                            Line::Player(i) => {
                                let s = &app.standings[i];
                                let p = &app.ladder.players[s.id as usize];
                                player_row(&mut row, s, p, rating_column);
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
                        }
                    });
                });
        });
    if let Some(key) = clicked_sort {
        if me.sort == key {
            me.descending = !me.descending;
        } else {
            me.sort = key;
            me.descending = false;
        }
    }
    if let Some(id) = open_player {
        out.push(Command::ShowPlayer(Some(id)));
    }
    if let Some(id) = plot_player {
        out.push(Command::Tool(ToolCommand::Plot(id)));
        out.push(Command::Show(Screen::History));
    }
}

fn player_row(
    row: &mut egui_extras::TableRow<'_, '_>,
    s: &Standing,
    p: &PlayerState,
    rating_column: bool,
) {
    let f = p.figures();
    row.col(|ui| {
        // The place on the leaderboard: 1, 2, 3 among the players it lists, whatever else the
        // filter shows; a player left off it has none.
        match s.place {
            Some(n) => ui.label(n.to_string()),
            None => ui.label("—").on_hover_text("not on the leaderboard"),
        };
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
    row.col(|ui| match trend(p) {
        Some(d) if d.abs() > 0.5 => {
            let arrow = if d > 0.0 { "▲" } else { "▼" };
            ui.label(
                RichText::new(format!("{arrow}{:.0}", d.abs())).color(widgets::delta_colour(ui, d)),
            );
        }
        Some(_) => {
            ui.weak("±0");
        }
        None => {
            ui.weak("·");
        }
    });
    if rating_column {
        row.col(|ui| {
            ui.label(match p.skill {
                Skill::Elo(_) => format!("{:.0}", f.rating),
                Skill::TrueSkill(_) => format!("μ {:.1} ± {:.1}", f.rating, f.deviation),
                _ => format!("{:.0} ± {:.0}", f.rating, f.deviation),
            });
        });
    }
    row.col(|ui| {
        ui.label(format!("{}-{}-{}", p.wins, p.draws, p.losses));
    });
    row.col(|ui| {
        ui.label(p.last_played.map_or_else(|| "—".into(), |d| d.to_string()));
    });
    row.col(|ui| {
        ui.weak(s.status());
    });
}

/// A new or empty ladder says what to do first.
fn empty_state(ui: &mut egui::Ui, app: &AppState, out: &mut Vec<Command>) {
    ui.add_space(24.0);
    ui.vertical_centered(|ui| {
        ui.heading("This ladder has no players yet");
        ui.add_space(8.0);
        let facts = app.ladder.rules.facts();
        ui.label(format!(
            "{} runs {}: {}",
            app.path()
                .and_then(|p| p.file_name())
                .map_or("The ladder".into(), |n| n.to_string_lossy().into_owned()),
            facts.label,
            facts.about
        ));
        ui.label(
            "Start by adding players, importing matches from a CSV, or looking around the demo.",
        );
        ui.add_space(12.0);
        if ui.button("Add players").clicked() {
            out.push(Command::Show(Screen::Players));
        }
        if ui.button("Import a CSV…").clicked() {
            out.push(Command::Pick(Purpose::ImportCsv));
        }
        if ui
            .button("Open the demo ladder (international football 1872–2026)")
            .clicked()
        {
            out.push(Command::OpenDemo);
        }
    });
}
