//! The Standings screen as drawn: the filter line and the table. The table is one scroll area
//! both ways whose header row and place-and-Player columns stay put — drawn last, over the
//! scrolled cells, at the viewport's edges — so in a narrow window a player's name stays beside
//! the figures scrolled into view, with the scroll area's own bars, wheel and drag everywhere.
//! (egui_extras' Table has no frozen column; two scroll areas kept in step lag by a frame.)
//! Only the rows in view are drawn, so 10,000 players scroll as smoothly as ten.

use super::command::{Command, Screen, ToolCommand};
use super::files::Purpose;
use super::standings::{Line, SortKey, StandingsScreen, explain, score_name, trend};
use super::state::AppState;
use super::widgets;
use eframe::egui::{
    self, Align, Color32, Layout, Rect, RichText, Sense, Ui, UiBuilder, pos2, vec2,
};
use rungs_ladder::standings::Standing;
use rungs_ladder::state::{Figures, PlayerState, Skill};

const HEADER: f32 = 24.0;
const PLACE: f32 = 44.0;
const BADGE: f32 = 22.0;

pub fn show(ui: &mut Ui, me: &mut StandingsScreen, app: &AppState, out: &mut Vec<Command>) {
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

/// What the user asked of the table this frame.
#[derive(Default)]
struct Asked {
    sort: Option<SortKey>,
    open: Option<u32>,
    plot: Option<u32>,
}

fn table(ui: &mut Ui, me: &mut StandingsScreen, app: &AppState, out: &mut Vec<Command>) {
    let row_h = ui.text_style_height(&egui::TextStyle::Body) + 6.0;
    let score = app.ladder.players.first().map_or("RP", score_name);
    // Where the score is the rating (Elo, goals) one column says it, with its ± where the
    // system has one: not "rating" and "Rating", the same number twice.
    let facts = app.ladder.rules.facts();
    let rating_column = !facts.score_is_rating;
    let score_width = if facts.score_is_rating && facts.band.is_some() {
        110.0
    } else {
        80.0
    };
    let mut scrolled = vec![
        (SortKey::Score, score, score_width),
        (SortKey::Trend, "Last match", 90.0),
    ];
    if rating_column {
        scrolled.push((SortKey::Rating, "Rating", 130.0));
    }
    scrolled.extend([
        (SortKey::Matches, "W-D-L", 90.0),
        (SortKey::LastPlayed, "Last played", 100.0),
        (SortKey::Status, "Status", 130.0),
    ]);
    let name_w = (ui.available_width() * 0.3).clamp(110.0, 200.0);
    let frozen_w = PLACE + BADGE + name_w;
    let total_w = frozen_w + scrolled.iter().map(|c| c.2).sum::<f32>();
    let lines = &me.lines;
    let outer = ui.available_rect_before_wrap();
    let bars = Rect::from_min_max(pos2(outer.left(), outer.top() + HEADER), outer.max);
    // Labels that take clicks for text selection would swallow the row's click.
    ui.style_mut().interaction.selectable_labels = false;
    let mut asked = Asked::default();
    egui::ScrollArea::both()
        .id_salt("standings")
        .auto_shrink(false)
        .scroll_bar_rect(bars)
        .show_viewport(ui, |ui, viewport| {
            let origin = ui.max_rect().min;
            ui.set_width(total_w);
            ui.set_height(HEADER + lines.len() as f32 * row_h);
            // The viewport on screen; the body is below the header, the scrolled cells right
            // of the frozen ones.
            let view = viewport
                .translate(origin.to_vec2())
                .intersect(ui.clip_rect());
            let body = Rect::from_min_max(pos2(view.left(), view.top() + HEADER), view.max);
            let figures = Rect::from_min_max(pos2(body.left() + frozen_w, body.top()), body.max);
            let first = (viewport.min.y.max(0.0) / row_h).floor() as usize;
            let last =
                (((viewport.max.y - HEADER).max(0.0) / row_h).ceil() as usize + 1).min(lines.len());
            let visuals = ui.visuals().clone();
            let mut fills = Vec::new();
            let centre = app.ladder.centre();
            let mut rows = ui.new_child(UiBuilder::new().id_salt("rows").max_rect(body));
            rows.set_clip_rect(body);
            for (n, line) in lines.iter().enumerate().take(last).skip(first) {
                let top = origin.y + HEADER + n as f32 * row_h;
                let rect = Rect::from_x_y_ranges(body.x_range(), top..=top + row_h);
                let mut fill = if n % 2 == 1 {
                    visuals.faint_bg_color
                } else {
                    Color32::TRANSPARENT
                };
                if let Line::Player(i) = *line {
                    let s = &app.standings[i];
                    let p = &app.ladder.players[s.id as usize];
                    let response =
                        rows.interact(rect, rows.make_persistent_id(("row", s.id)), Sense::click());
                    if response.hovered() {
                        fill = visuals.widgets.hovered.weak_bg_fill;
                    }
                    if response.clicked() {
                        asked.open = Some(s.id);
                    }
                    response.context_menu(|ui| {
                        if ui.button("Plot history").clicked() {
                            asked.plot = Some(s.id);
                            ui.close();
                        }
                    });
                    rows.painter().rect_filled(rect, 0.0, fill);
                    let mut x = origin.x + frozen_w;
                    for &(key, _, w) in &scrolled {
                        let cell_rect = Rect::from_x_y_ranges(x..=x + w, top..=top + row_h);
                        cell(&mut rows, cell_rect, figures, (n, key as u8), |ui| {
                            figure(ui, key, s, &p.figures_at(centre), p)
                        });
                        x += w;
                    }
                } else {
                    rows.painter().rect_filled(rect, 0.0, fill);
                }
                fills.push((n, top, fill));
            }
            // The frozen columns, over whatever scrolled beneath them.
            let left = Rect::from_min_max(body.min, pos2(body.left() + frozen_w, body.bottom()));
            let mut frozen = ui.new_child(UiBuilder::new().id_salt("frozen").max_rect(left));
            frozen.set_clip_rect(left);
            for (n, top, fill) in fills {
                let rect = Rect::from_x_y_ranges(left.x_range(), top..=top + row_h);
                frozen.painter().rect_filled(rect, 0.0, visuals.panel_fill);
                frozen.painter().rect_filled(rect, 0.0, fill);
                let at = |x: f32, w: f32| Rect::from_x_y_ranges(x..=x + w, top..=top + row_h);
                let x = left.left();
                match lines[n] {
                    Line::Heading(tier) => {
                        cell(&mut frozen, at(x + PLACE, BADGE), left, (n, "b"), |ui| {
                            ui.label(widgets::tier_badge(tier));
                        });
                        cell(
                            &mut frozen,
                            at(x + PLACE + BADGE, name_w),
                            left,
                            (n, "n"),
                            |ui| {
                                let name = RichText::new(tier.name()).strong();
                                ui.label(name.color(widgets::tier_colour(tier)));
                            },
                        );
                    }
                    Line::Player(i) => {
                        let s = &app.standings[i];
                        let p = &app.ladder.players[s.id as usize];
                        cell(&mut frozen, at(x, PLACE), left, (n, "p"), |ui| place(ui, s));
                        if let Some(t) = s.tier {
                            cell(&mut frozen, at(x + PLACE, BADGE), left, (n, "b"), |ui| {
                                ui.label(widgets::tier_badge(t)).on_hover_text(t.name());
                            });
                        }
                        cell(
                            &mut frozen,
                            at(x + PLACE + BADGE, name_w),
                            left,
                            (n, "n"),
                            |ui| {
                                ui.add(egui::Label::new(&p.name).truncate());
                            },
                        );
                    }
                }
            }
            // Where the figures pass under the names.
            frozen.painter().vline(
                left.right() - 0.5,
                left.y_range(),
                visuals.widgets.noninteractive.bg_stroke,
            );
            // The header row, over the rows scrolled beneath it; its figures' headings move
            // sideways with the figures.
            let head = Rect::from_min_max(view.min, pos2(view.right(), view.top() + HEADER));
            let mut header = ui.new_child(UiBuilder::new().id_salt("header").max_rect(head));
            header.set_clip_rect(head);
            header.painter().rect_filled(head, 0.0, visuals.panel_fill);
            let line_y = head.bottom() - 0.5;
            header.painter().hline(
                head.x_range(),
                line_y,
                visuals.widgets.noninteractive.bg_stroke,
            );
            let at = |x: f32, w: f32| Rect::from_x_y_ranges(x..=x + w, head.y_range());
            let heads = Rect::from_min_max(pos2(head.left() + frozen_w, head.top()), head.max);
            let mut x = origin.x + frozen_w;
            for &(key, label, w) in &scrolled {
                cell(&mut header, at(x, w), heads, ("h", key as u8), |ui| {
                    heading(ui, me, app, score, label, key, &mut asked.sort)
                });
                x += w;
            }
            let x = head.left();
            cell(&mut header, at(x, PLACE), head, "h#", |ui| {
                heading(ui, me, app, score, "#", SortKey::Position, &mut asked.sort)
            });
            cell(
                &mut header,
                at(x + PLACE + BADGE, name_w),
                head,
                "hp",
                |ui| heading(ui, me, app, score, "Player", SortKey::Name, &mut asked.sort),
            );
        });
    if let Some(key) = asked.sort {
        if me.sort == key {
            me.descending = !me.descending;
        } else {
            me.sort = key;
            me.descending = false;
        }
    }
    if let Some(id) = asked.open {
        out.push(Command::ShowPlayer(Some(id)));
    }
    if let Some(id) = asked.plot {
        out.push(Command::Tool(ToolCommand::Plot(id)));
        out.push(Command::Show(Screen::History));
    }
}

/// A cell of the table: `add` draws into `rect`, seen only where `clip` lets it; a cell out of
/// sight is not drawn at all (nor found by a screen reader).
fn cell(ui: &mut Ui, rect: Rect, clip: Rect, salt: impl egui::AsIdSalt, add: impl FnOnce(&mut Ui)) {
    let seen = rect.intersect(clip);
    if !seen.is_positive() {
        return;
    }
    let inner = rect.shrink2(vec2(4.0, 0.0));
    let mut child = ui.new_child(
        UiBuilder::new()
            .id_salt(salt)
            .max_rect(inner)
            .layout(Layout::left_to_right(Align::Center)),
    );
    child.set_clip_rect(seen);
    add(&mut child);
}

/// A column's heading: sorts by it when clicked, explains it on hover.
fn heading(
    ui: &mut Ui,
    me: &StandingsScreen,
    app: &AppState,
    score: &str,
    label: &str,
    key: SortKey,
    clicked: &mut Option<SortKey>,
) {
    let arrow = match (me.sort == key, me.descending) {
        (true, false) => " ▾",
        (true, true) => " ▴",
        _ => "",
    };
    let b = egui::Button::new(RichText::new(format!("{label}{arrow}")).strong()).frame(false);
    if ui.add(b).on_hover_text(explain(key, score, app)).clicked() {
        *clicked = Some(key);
    }
}

/// The place on the leaderboard: 1, 2, 3 among the players it lists, whatever else the filter
/// shows; a player left off it has none.
fn place(ui: &mut Ui, s: &Standing) {
    match s.place {
        Some(n) => ui.label(n.to_string()),
        None => ui.label("—").on_hover_text("not on the leaderboard"),
    };
}

/// A player's figure in the column sorted by `key`.
fn figure(ui: &mut Ui, key: SortKey, s: &Standing, f: &Figures, p: &PlayerState) {
    match key {
        SortKey::Score => {
            ui.label(rungs_ladder::shown::score_column(&p.skill, f));
        }
        SortKey::Trend => match trend(p) {
            Some(d) if d.abs() > 0.5 => {
                let arrow = if d > 0.0 { "▲" } else { "▼" };
                let text = RichText::new(format!("{arrow}{:.0}", d.abs()));
                ui.label(text.color(widgets::delta_colour(ui, d)));
            }
            Some(_) => {
                ui.weak("±0");
            }
            None => {
                ui.weak("·");
            }
        },
        SortKey::Rating => {
            ui.label(match p.skill {
                Skill::Elo(_) => format!("{:.0}", f.rating),
                Skill::TrueSkill(_) => format!("μ {:.1} ± {:.1}", f.rating, f.deviation),
                _ => format!("{:.0} ± {:.0}", f.rating, f.deviation),
            });
        }
        SortKey::Matches => {
            ui.label(format!("{}-{}-{}", p.wins, p.draws, p.losses));
        }
        SortKey::LastPlayed => {
            ui.label(p.last_played.map_or_else(|| "—".into(), |d| d.to_string()));
        }
        SortKey::Status => {
            ui.weak(s.status());
        }
        SortKey::Position | SortKey::Name => {}
    }
}

/// A new or empty ladder says what to do first.
fn empty_state(ui: &mut Ui, app: &AppState, out: &mut Vec<Command>) {
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
