//! The season calendar in the app: a form that sets it (File → New and Settings), with the
//! next resets it would bring, and Seasons' account of it — the next resets, what each will
//! do, and the resets due, with a button to apply them now. The gate reads the form
//! ([`rungs_gate::seasons::calendar_from`], as the command line's `--calendar`,
//! `--soft-every`, `--hard-every` and `--anchor`); the calendar's own arithmetic says when.

use super::command::{Command, Screen};
use super::state::{AppState, today};
use super::words;
use chrono::NaiveDate;
use eframe::egui::{self, RichText};
use rungs_gate::Place;
use rungs_gate::seasons::{CalendarInput, calendar_from};
use rungs_ladder::calendar::{Calendar, HardResets};
use rungs_ladder::seasons::calendar_status;

/// The calendar as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct CalendarForm {
    pub scheduled: bool,
    /// Days between two soft resets.
    pub soft_every: String,
    /// `month`, or a number of soft resets.
    pub hard_every: String,
    /// A day a soft reset falls on.
    pub anchor: String,
}

impl CalendarForm {
    pub fn of(calendar: &Calendar) -> CalendarForm {
        let s = calendar.schedule().copied().unwrap_or_default();
        CalendarForm {
            scheduled: !calendar.is_manual(),
            soft_every: s.soft_days.to_string(),
            hard_every: match s.hard {
                HardResets::Monthly => "month".into(),
                HardResets::Every(m) => m.to_string(),
            },
            anchor: s.anchor.to_string(),
        }
    }

    /// The calendar the form says, or what is wrong with it, in the app's words.
    pub fn calendar(&self, screen: Screen) -> Result<Calendar, String> {
        let input = if self.scheduled {
            CalendarInput {
                calendar: None,
                soft_every: Some(&self.soft_every),
                hard_every: Some(&self.hard_every),
                anchor: Some(&self.anchor),
            }
        } else {
            CalendarInput {
                calendar: Some("manual"),
                ..CalendarInput::default()
            }
        };
        calendar_from(&Place::default(), &input, Calendar::Manual)
            .map_err(|e| words::action(&e, screen))
    }
}

/// The next `n` resets of `calendar` after `from`: date, and whether the season ends.
pub fn next_resets(calendar: &Calendar, from: NaiveDate, n: usize) -> Vec<(NaiveDate, bool)> {
    let Some(s) = calendar.schedule() else {
        return Vec::new();
    };
    let mut out = Vec::with_capacity(n);
    let mut day = from;
    while out.len() < n {
        let Some(next) = s.next_after(day) else { break };
        out.push((next, s.is_hard(next)));
        day = next;
    }
    out
}

/// "Mon 2026-11-30 soft · Mon 2026-12-07 soft + season ends · …".
fn reset_line(resets: &[(NaiveDate, bool)]) -> String {
    resets
        .iter()
        .map(|(d, hard)| {
            let what = if *hard { "soft + season ends" } else { "soft" };
            format!("{} {d} {what}", d.format("%a"))
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

/// The form's fields, and the next resets the calendar would bring (or what is wrong).
pub fn form(ui: &mut egui::Ui, id: &str, form: &mut CalendarForm, screen: Screen) {
    ui.horizontal_wrapped(|ui| {
        let name = ui.label("Season calendar:");
        egui::ComboBox::from_id_salt((id, "kind"))
            .selected_text(if form.scheduled {
                "scheduled"
            } else {
                "manual (buttons only)"
            })
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut form.scheduled, false, "manual (buttons only)");
                ui.selectable_value(&mut form.scheduled, true, "scheduled");
            })
            .response
            .labelled_by(name.id);
    });
    if form.scheduled {
        ui.horizontal_wrapped(|ui| {
            for (label, text, width, unit) in [
                ("Soft reset every", &mut form.soft_every, 40.0, "days,"),
                (
                    "Season ends every",
                    &mut form.hard_every,
                    64.0,
                    "soft resets (or month),",
                ),
                ("Counted from", &mut form.anchor, 100.0, ""),
            ] {
                let name = ui.label(label);
                ui.add(egui::TextEdit::singleline(text).desired_width(width))
                    .labelled_by(name.id);
                if !unit.is_empty() {
                    ui.label(unit);
                }
            }
        });
    }
    match form.calendar(screen) {
        Ok(c) if c.is_manual() => {
            ui.weak("Resets happen only when you press Soft reset or Hard reset (Seasons).");
        }
        Ok(c) => {
            ui.weak(format!(
                "{}. Next: {}",
                c.describe(),
                reset_line(&next_resets(&c, today(), 4))
            ));
        }
        Err(why) => {
            ui.colored_label(ui.visuals().error_fg_color, why);
        }
    }
}

/// Seasons' account of the calendar: what it is, the resets due (with Apply now), the next
/// resets and what each will do.
pub fn show(ui: &mut egui::Ui, app: &AppState, out: &mut Vec<Command>) {
    let ladder = app.now();
    let calendar = ladder.rules.calendar;
    let status = calendar_status(ladder, today());
    ui.horizontal_wrapped(|ui| {
        ui.strong("Calendar:");
        ui.label(calendar.describe());
        ui.weak("(change it in Settings)");
    });
    if calendar.is_manual() {
        return;
    }
    if status.pending > 0 {
        ui.horizontal_wrapped(|ui| {
            let n = status.pending;
            let last = ladder
                .last_date
                .map_or(String::new(), |d| format!(" since the last event ({d})"));
            ui.label(
                RichText::new(format!(
                    "{n} scheduled reset{} due{last}: {} with the next match, or now.",
                    if n == 1 { " is" } else { "s are" },
                    if n == 1 { "it applies" } else { "they apply" },
                ))
                .color(ui.visuals().warn_fg_color),
            );
            let apply = ui
                .add_enabled(
                    app.tools.position.is_none() && app.pending.is_none(),
                    egui::Button::new("Apply due resets now…"),
                )
                .on_hover_text("Previewed first: every player's before → after");
            if apply.clicked() {
                out.push(Command::PreviewDueResets);
            }
        });
    }
    let skyweaver = ladder.rules.system() == rungs_ladder::rules::System::Skyweaver;
    let soft = if skyweaver {
        "RP and tiers recorded, the top RP capped, uncertainty grows"
    } else {
        "uncertainty grows a rating period"
    };
    let hard = if skyweaver {
        "archived, RP set from the highest tier reached, ratings rescaled"
    } else {
        "archived"
    };
    // Folded in a small window, so the preview and the archive keep their room.
    egui::CollapsingHeader::new("Next resets")
        .default_open(ui.available_height() > 500.0)
        .show(ui, |ui| {
            let (mut season, mut week) = (status.season, status.week);
            for (date, is_hard) in next_resets(&calendar, today(), 4) {
                let mut text = format!(
                    "{} {date}: week {week} of season {season} ends — {soft}",
                    date.format("%a")
                );
                week += 1;
                if is_hard {
                    text += &format!("; then season {season} ends — {hard}");
                    season += 1;
                    week = 1;
                }
                ui.label(text);
            }
        });
}
