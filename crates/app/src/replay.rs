//! Replay: a timeline over the log. Scrub, step by event or rating period, jump to a date or
//! play; every screen then shows the ladder as it stood (the file is not touched). Below the
//! controls, the ladder-wide charts at that point: players per tier and the rating spread.

use super::command::{Command, ToolCommand};
use super::state::AppState;
use super::{charts, widgets};
use eframe::egui::{self, RichText};

/// Playing speeds offered, in events a second.
const SPEEDS: [f64; 5] = [2.0, 20.0, 200.0, 2_000.0, 20_000.0];

/// The Replay screen's own state.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayScreen {
    /// The speed the Play button starts at, in events a second.
    pub play_speed: f64,
    /// The date field as typed.
    pub jump_date: String,
}

impl Default for ReplayScreen {
    fn default() -> Self {
        ReplayScreen {
            play_speed: 200.0,
            jump_date: String::new(),
        }
    }
}

pub fn show(ui: &mut egui::Ui, me: &mut ReplayScreen, state: &AppState, out: &mut Vec<Command>) {
    let tool = |t| Command::Tool(t);
    if state.store.is_none() {
        ui.label("Open or create a ladder first (File menu).");
        return;
    }
    let Some(t) = state.tools.timeline.clone() else {
        ui.label(
            "The timeline replays the log once and keeps checkpoints, so any moment of the \
             ladder's past can be shown: standings, tiers and plots as they stood.",
        );
        let busy = state.job.is_some();
        if ui
            .add_enabled(!busy, egui::Button::new("Build the timeline"))
            .clicked()
        {
            out.push(tool(ToolCommand::BuildTimeline));
        }
        return;
    };
    let len = t.len();
    let at = state.tools.position.unwrap_or(len);
    ui.horizontal_wrapped(|ui| {
        let step = |ui: &mut egui::Ui, label: &str, hover: &str, to: usize, out: &mut Vec<_>| {
            if ui.button(label).on_hover_text(hover).clicked() {
                out.push(tool(ToolCommand::Seek(to)));
            }
        };
        step(ui, "|<", "The start of the log", 0, out);
        step(ui, "<<", "Back a rating period", t.prev_period(at), out);
        step(ui, "<", "Back one event", at.saturating_sub(1), out);
        step(ui, ">", "Forward one event", (at + 1).min(len), out);
        step(ui, ">>", "Forward a rating period", t.next_period(at), out);
        if ui.button(">|").on_hover_text("Now").clicked() {
            out.push(tool(ToolCommand::ReturnToNow));
        }
        ui.separator();
        let playing = state.tools.playing.is_some();
        if ui.button(if playing { "Pause" } else { "Play" }).clicked() {
            let speed = (!playing).then_some(me.play_speed);
            out.push(tool(ToolCommand::Play(speed)));
        }
        let label = ui.label("Speed:");
        egui::ComboBox::from_id_salt("speed")
            .selected_text(format!("{} events/s", me.play_speed))
            .show_ui(ui, |ui| {
                for s in SPEEDS {
                    ui.selectable_value(&mut me.play_speed, s, format!("{s} events/s"));
                }
            })
            .response
            .labelled_by(label.id);
        if let Some(speed) = state.tools.playing
            && speed != me.play_speed
        {
            out.push(tool(ToolCommand::Play(Some(me.play_speed))));
        }
        ui.separator();
        let label = ui.label("Date:");
        let field = ui
            .add(
                egui::TextEdit::singleline(&mut me.jump_date)
                    .hint_text("YYYY-MM-DD")
                    .desired_width(100.0),
            )
            .labelled_by(label.id);
        let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if ui.button("Go").clicked() || enter {
            match chrono::NaiveDate::parse_from_str(me.jump_date.trim(), "%Y-%m-%d") {
                Ok(d) => out.push(tool(ToolCommand::Seek(t.index_at_date(d)))),
                Err(_) => out.push(Command::Problem {
                    field: "Date",
                    message: format!(
                        "`{}` does not parse; write it as YYYY-MM-DD",
                        me.jump_date.trim()
                    ),
                }),
            }
        }
    });
    let mut pos = at;
    let width = ui.available_width() - 120.0;
    ui.spacing_mut().slider_width = width.max(200.0);
    let slider = ui.add(egui::Slider::new(&mut pos, 0..=len).text("event"));
    if slider.changed() && pos != at {
        out.push(tool(ToolCommand::Seek(pos)));
    }
    let what = match t.event(at) {
        Some(e) => format!(
            "after event {} of {} · {} · {}",
            widgets::thousands(at as u64),
            widgets::thousands(len as u64),
            e.date,
            widgets::event_line(&state.ladder, &e.event)
        ),
        None => format!(
            "before the first of {} events",
            widgets::thousands(len as u64)
        ),
    };
    ui.horizontal(|ui| {
        if state.tools.position.is_some() {
            let past = format!("Viewing the past — {what}; the file is unchanged");
            ui.label(
                RichText::new(past)
                    .strong()
                    .color(ui.visuals().warn_fg_color),
            );
            if ui.button("Return to now").clicked() {
                out.push(tool(ToolCommand::ReturnToNow));
            }
        } else {
            ui.label(format!("Now — {what}"));
        }
    });
    ui.separator();
    charts::ladder_wide(ui, &state.ladder, &state.standings);
}
