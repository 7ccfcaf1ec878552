//! The window's chrome around the screen: the menu bar, the tabs (folding into "More ▾" when
//! the window is narrow), the message strip, the "viewing the past" banner and the status bar.

use super::command::{Command, Screen, ToolCommand};
use super::files::Purpose;
use super::messages::{Level, Offer};
use super::state::{AppState, today};
use super::widgets;
use eframe::egui;
use rungs_ladder::seasons::calendar_status;

/// The menu bar; `dark` is the theme, which the View menu switches.
pub fn menu(ui: &mut egui::Ui, state: &AppState, dark: &mut bool, out: &mut Vec<Command>) {
    egui::MenuBar::new().ui(ui, |ui| {
        ui.menu_button("File", |ui| {
            let items = [
                ("New ladder…", Command::AskNewLadder),
                ("Open…", Command::Pick(Purpose::Open)),
                ("Open shared ladder…", Command::AskShared),
                ("Open the demo ladder", Command::OpenDemo),
                ("Save a copy…", Command::Pick(Purpose::SaveCopy)),
            ];
            for (label, cmd) in items {
                if ui.button(label).clicked() {
                    out.push(cmd);
                    ui.close();
                }
            }
            ui.separator();
            let items = [
                ("Import CSV…", Command::Pick(Purpose::ImportCsv)),
                ("Export CSV…", Command::Pick(Purpose::ExportCsv)),
                ("Export log (JSONL)…", Command::Pick(Purpose::ExportJsonl)),
            ];
            for (label, cmd) in items {
                if ui.button(label).clicked() {
                    out.push(cmd);
                    ui.close();
                }
            }
            ui.separator();
            if ui
                .button("Publish…")
                .on_hover_text(
                    "The standings as a web site in a folder: print it, copy it to the club's site",
                )
                .clicked()
            {
                out.push(Command::AskPublish);
                ui.close();
            }
            if ui
                .button("Copy standings")
                .on_hover_text("The leaderboard, tab-separated: pastes into a spreadsheet")
                .clicked()
            {
                let text = rungs_publish::standings_tsv(&state.ladder);
                let rows = text.lines().count().saturating_sub(1);
                ui.ctx().copy_text(text);
                out.push(Command::CopiedStandings(rows));
                ui.close();
            }
            if ui.button("Save standings as image…").clicked() {
                out.push(Command::Pick(Purpose::StandingsPng));
                ui.close();
            }
            if !state.recent.is_empty() {
                ui.separator();
                ui.label("Recent");
                for p in state.recent.clone() {
                    let name = p.file_name().map_or_else(
                        || p.display().to_string(),
                        |n| n.to_string_lossy().into_owned(),
                    );
                    if ui
                        .button(name)
                        .on_hover_text(p.display().to_string())
                        .clicked()
                    {
                        out.push(Command::Open(p));
                        ui.close();
                    }
                }
            }
        });
        ui.menu_button("Edit", |ui| {
            if ui.button("Undo  (Ctrl+Z)").clicked() {
                out.push(Command::Undo);
                ui.close();
            }
            if ui.button("Redo  (Ctrl+Shift+Z)").clicked() {
                out.push(Command::Redo);
                ui.close();
            }
        });
        ui.menu_button("Ladder", |ui| {
            if ui.button("Soft reset…").clicked() {
                out.push(Command::Show(Screen::Seasons));
                out.push(Command::PreviewSoftReset);
                ui.close();
            }
            if ui.button("Hard reset…").clicked() {
                out.push(Command::Show(Screen::Seasons));
                out.push(Command::PreviewHardReset);
                ui.close();
            }
            ui.separator();
            if ui.button("Challenge ladder").clicked() {
                out.push(Command::Show(Screen::Challenges));
                ui.close();
            }
            if ui.button("Box league").clicked() {
                out.push(Command::Show(Screen::Boxes));
                ui.close();
            }
        });
        ui.menu_button("View", |ui| {
            if ui
                .button(if *dark { "Light theme" } else { "Dark theme" })
                .clicked()
            {
                *dark = !*dark;
                ui.ctx().set_visuals(if *dark {
                    egui::Visuals::dark()
                } else {
                    egui::Visuals::light()
                });
                ui.close();
            }
        });
    });
}

/// The screens as tabs; those that do not fit the window's width fold into "More ▾",
/// and undo and redo stay at the right end whatever the width.
pub fn tabs(ui: &mut egui::Ui, current: Screen, out: &mut Vec<Command>) {
    let spacing = ui.spacing().item_spacing.x + 2.0 * ui.spacing().button_padding.x;
    let width_of = |ui: &egui::Ui, text: &str| {
        let font = egui::TextStyle::Button.resolve(ui.style());
        ui.fonts_mut(|f| f.layout_no_wrap(text.to_string(), font, egui::Color32::WHITE))
            .size()
            .x
            + spacing
    };
    // The fold's button carries the folded screen's name when that one is shown.
    let widest = Screen::ALL
        .iter()
        .map(|s| width_of(ui, &format!("{} ▾", s.title())))
        .fold(width_of(ui, "More ▾"), f32::max);
    let reserve = width_of(ui, "↶ Undo") + width_of(ui, "Redo ↷") + widest + 16.0;
    let available = ui.available_width() - reserve;
    let mut used = 0.0;
    let mut shown = Vec::new();
    let mut folded = Vec::new();
    for screen in Screen::ALL {
        used += width_of(ui, screen.title());
        if used <= available && folded.is_empty() {
            shown.push(screen);
        } else {
            folded.push(screen);
        }
    }
    ui.horizontal(|ui| {
        for screen in shown {
            if ui
                .selectable_label(current == screen, screen.title())
                .clicked()
            {
                out.push(Command::Show(screen));
            }
        }
        if !folded.is_empty() {
            let label = match folded.iter().find(|s| **s == current) {
                Some(s) => format!("{} ▾", s.title()),
                None => "More ▾".to_string(),
            };
            ui.menu_button(label, |ui| {
                for screen in folded {
                    if ui
                        .selectable_label(current == screen, screen.title())
                        .clicked()
                    {
                        out.push(Command::Show(screen));
                        ui.close();
                    }
                }
            });
        }
        ui.with_layout(egui::Layout::right_to_left(egui::Align::Center), |ui| {
            if ui
                .button("Redo ↷")
                .on_hover_text("Redo (Ctrl+Shift+Z)")
                .clicked()
            {
                out.push(Command::Redo);
            }
            if ui
                .button("↶ Undo")
                .on_hover_text("Undo the last change (Ctrl+Z outside a text field)")
                .clicked()
            {
                out.push(Command::Undo);
            }
        });
    });
}

/// "club.rungs · Skyweaver · season 12, week 3 · next reset Monday 2026-11-30 (soft) · …
/// · 1,284 events · 337 players · saved": the file, its system, where the season calendar
/// stands today ([`calendar_status`]'s line, the same the command line's `standings` prints)
/// and the log's size, in at most two lines (all of it on hover).
pub fn status(ui: &mut egui::Ui, s: &AppState) {
    let shared = s.shared.as_ref().map(|l| l.shown.clone());
    let file = shared
        .or_else(|| {
            s.path()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "no ladder".to_string());
    let now = s.now();
    let calendar = calendar_status(now, today());
    // The season and week only, where the whole calendar line does not fit: the counts and
    // "saved" must stay in view.
    let short_calendar = match calendar.pending {
        0 => format!("season {}, week {}", calendar.season, calendar.week),
        n => format!(
            "season {}, week {} ({n} reset{} due)",
            calendar.season,
            calendar.week,
            if n == 1 { "" } else { "s" }
        ),
    };
    let mut parts = [
        file,
        now.rules.system().label().to_string(),
        calendar.line(),
        format!("{} events", widgets::thousands(now.events)),
        format!(
            "{} players",
            widgets::thousands(now.players.iter().filter(|p| p.joined).count() as u64)
        ),
        s.shared
            .as_ref()
            .and_then(crate::shared_ladder::SharedLadder::words)
            .unwrap_or_else(|| "saved".to_string()),
    ];
    ui.horizontal_wrapped(|ui| {
        if let Some(job) = &s.job {
            ui.spinner();
            ui.label(job.status());
            ui.separator();
        }
        // At most two lines, the rest on hover: wrapped whole it took four of a 420-px
        // window's lines, and History's plots the room. Cut at the end, it hid the counts
        // and "saved"; the calendar's detail goes first.
        let full = parts.join(" · ");
        let font = egui::TextStyle::Body.resolve(ui.style());
        let width = ui.available_width();
        let rows = |text: &str| {
            ui.painter()
                .layout(text.to_string(), font.clone(), egui::Color32::WHITE, width)
                .rows
                .len()
        };
        if rows(&full) > 2 {
            parts[2] = short_calendar;
        }
        let text = parts.join(" · ");
        let mut job = egui::text::LayoutJob::simple(
            text.clone(),
            font.clone(),
            ui.visuals().text_color(),
            width,
        );
        job.wrap.max_rows = 2;
        job.wrap.overflow_character = Some('…');
        let path = s.path().map_or(String::new(), |p| p.display().to_string());
        ui.add(egui::Label::new(job))
            .on_hover_text(format!("{path}\n{full}"));
    });
}

/// The message strip: one line of fixed height, always there, so a message coming or
/// going never moves the page.
pub fn message_strip(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<Command>) {
    let height = ui.spacing().interact_size.y;
    ui.allocate_ui_with_layout(
        egui::vec2(ui.available_width(), height),
        egui::Layout::left_to_right(egui::Align::Center),
        |ui| {
            ui.set_min_height(height);
            let Some(m) = state.messages.current() else {
                return;
            };
            if ui.small_button("×").on_hover_text("Dismiss").clicked() {
                out.push(Command::DismissMessage);
            }
            // Undo's own "Undone: …" then takes the strip's place.
            match &m.offer {
                Offer::Undo if ui.small_button("Undo").clicked() => out.push(Command::Undo),
                Offer::Repair(path)
                    if ui
                        .small_button("Repair")
                        .on_hover_text("Rebuild the caches from the log; the log is not changed")
                        .clicked() =>
                {
                    out.push(Command::Repair(path.clone()))
                }
                Offer::ImportAgain(path, mapping)
                    if ui
                        .small_button("Import again")
                        .on_hover_text("Import every match of the file a second time")
                        .clicked() =>
                {
                    out.push(Command::ImportCsvAgain(path.clone(), (**mapping).clone()))
                }
                Offer::Fix(fix) if ui.small_button(super::words::fix_button(fix)).clicked() => {
                    out.push(super::words::fix_command(fix))
                }
                Offer::OpenFolder(dir)
                    if ui
                        .small_button("Open the folder")
                        .on_hover_text(dir.display().to_string())
                        .clicked() =>
                {
                    out.push(Command::OpenFolder(dir.clone()))
                }
                Offer::OwnPicker(purpose)
                    if ui
                        .small_button("Use rungs' own picker")
                        .on_hover_text("A file picker inside rungs, with a path you can type")
                        .clicked() =>
                {
                    out.push(Command::PickOwn(*purpose))
                }
                _ => {}
            }
            let text = match m.level {
                Level::Error => egui::RichText::new(format!("Error: {}", m.text))
                    .color(ui.visuals().error_fg_color),
                Level::Notice => egui::RichText::new(&m.text),
            };
            // A cut label shows its whole text on hover by itself: a second tooltip would stack.
            ui.add(egui::Label::new(text).truncate());
        },
    );
}

/// "Viewing the past — event 812 of 1,284 · [Return to now]", on every screen.
pub fn past_banner(ui: &mut egui::Ui, state: &AppState, out: &mut Vec<Command>) {
    let tools = &state.tools;
    // The Replay and Enter match screens say it in their own words.
    if matches!(state.screen, Screen::Replay | Screen::EnterMatch) {
        return;
    }
    let (Some(n), Some(t)) = (tools.position, &tools.timeline) else {
        return;
    };
    let when = t
        .event(n)
        .map_or("the start".to_string(), |e| e.date.to_string());
    let text = format!(
        "Viewing the past — event {} of {} ({when}); the file is unchanged",
        widgets::thousands(n as u64),
        widgets::thousands(t.len() as u64)
    );
    ui.horizontal_wrapped(|ui| {
        ui.label(
            egui::RichText::new(text)
                .strong()
                .color(ui.visuals().warn_fg_color),
        );
        if ui.button("Return to now").clicked() {
            out.push(Command::Tool(ToolCommand::ReturnToNow));
        }
    });
}
