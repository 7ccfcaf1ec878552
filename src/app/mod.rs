//! The desktop app: eframe over the ladder file. `RungsApp` routes the screens (one file
//! each); screens read the [`state::AppState`] and push [`state::Command`]s, which the app
//! applies after the frame.

mod charts;
pub mod enter_match;
pub mod error;
pub mod files;
mod history;
pub mod jobs;
pub mod messages;
pub mod migration;
mod new_ladder;
mod picker;
pub mod players;
mod plot_band;
pub mod png;
mod quality;
mod replay;
mod seasons;
pub mod settings;
pub mod simulate;
pub mod standings;
pub mod state;
pub mod tools;
mod what_if;
mod widgets;

use eframe::egui;
use files::Purpose;
use messages::{Level, Offer};
use state::{AppState, Command, Screen};
use std::path::PathBuf;

/// What survives a restart besides the window: the last ladder, recent files, the theme.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Memory {
    pub last: Option<PathBuf>,
    pub recent: Vec<PathBuf>,
    pub dark: Option<bool>,
    pub screen: Screen,
}

const MEMORY_KEY: &str = "rungs";

pub struct RungsApp {
    pub state: AppState,
    commands: Vec<Command>,
    dark: bool,
    fonts_ready: bool,
    /// A PNG of the plots being written by the screenshot callback.
    png_saved: Option<std::sync::mpsc::Receiver<Result<String, error::AppError>>>,
}

/// egui's default proportional font has no arrows, badges or geometric shapes; Hack (bundled
/// for monospace) has them, so it backs the proportional family up.
fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    if let Some(family) = fonts.families.get_mut(&egui::FontFamily::Proportional)
        && !family.iter().any(|f| f == "Hack")
    {
        let at = family
            .iter()
            .position(|f| f == "Ubuntu-Light")
            .map_or(0, |i| i + 1);
        family.insert(at, "Hack".to_owned());
    }
    ctx.set_fonts(fonts);
}

/// Where rungs keeps its own ladders (the default ladder, the demo).
pub fn data_dir() -> PathBuf {
    directories::ProjectDirs::from("", "", "rungs")
        .map(|d| d.data_dir().to_path_buf())
        .unwrap_or_else(|| std::env::temp_dir().join("rungs"))
}

impl RungsApp {
    /// The app on `state` (tests build it this way, with a ladder of their own).
    pub fn with_state(state: AppState) -> RungsApp {
        RungsApp {
            state,
            commands: Vec::new(),
            dark: true,
            fonts_ready: false,
            png_saved: None,
        }
    }

    /// The app on `file` if given (a double-click in a file manager), else on the last
    /// ladder used, else on a new ladder in the data directory.
    pub fn new(cc: &eframe::CreationContext<'_>, file: Option<std::path::PathBuf>) -> RungsApp {
        let memory: Memory = cc
            .storage
            .and_then(|s| eframe::get_value(s, MEMORY_KEY))
            .unwrap_or_default();
        let dir = data_dir();
        let path = file.unwrap_or_else(|| {
            memory
                .last
                .clone()
                .filter(|p| p.exists())
                .unwrap_or_else(|| dir.join("ladder.rungs"))
        });
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let mut state = AppState::open_or_create(dir, &path);
        state.recent.extend(
            memory
                .recent
                .into_iter()
                .filter(|p| p.exists() && *p != path),
        );
        state.screen = memory.screen;
        let mut app = RungsApp::with_state(state);
        install_fonts(&cc.egui_ctx);
        app.fonts_ready = true;
        app.dark = memory.dark.unwrap_or(true);
        cc.egui_ctx.set_visuals(if app.dark {
            egui::Visuals::dark()
        } else {
            egui::Visuals::light()
        });
        app
    }

    fn send(&mut self, cmd: Command) {
        self.commands.push(cmd);
    }

    /// Ctrl+Z / Ctrl+Shift+Z undo and redo the ladder — unless a text field has the
    /// keyboard: there they edit the text, and the ladder is left alone. Files dropped on
    /// the window open or import.
    fn shortcuts(&mut self, ui: &egui::Ui) {
        use egui::{Key, KeyboardShortcut, Modifiers};
        const REDO: KeyboardShortcut =
            KeyboardShortcut::new(Modifiers::COMMAND.plus(Modifiers::SHIFT), Key::Z);
        const UNDO: KeyboardShortcut = KeyboardShortcut::new(Modifiers::COMMAND, Key::Z);
        if !ui.ctx().text_edit_focused() {
            // Redo first: a plain Ctrl+Z pattern also matches Ctrl+Shift+Z.
            let (redo, undo) = ui
                .ctx()
                .input_mut(|i| (i.consume_shortcut(&REDO), i.consume_shortcut(&UNDO)));
            if redo {
                self.send(Command::Redo);
            } else if undo {
                self.send(Command::Undo);
            }
        }
        // A file dropped on the window: a ladder opens, a match CSV imports.
        let dropped: Vec<std::path::PathBuf> = ui.ctx().input(|i| {
            i.raw
                .dropped_files
                .iter()
                .map(|f| f.path().to_path_buf())
                .filter(|p| !p.as_os_str().is_empty())
                .collect()
        });
        for path in dropped {
            self.send(dropped_file_command(path));
        }
    }

    fn menu(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                let items = [
                    ("New ladder…", Command::AskNewLadder),
                    ("Open…", Command::Pick(Purpose::Open)),
                    ("Open the demo ladder", Command::OpenDemo),
                    ("Save a copy…", Command::Pick(Purpose::SaveCopy)),
                ];
                for (label, cmd) in items {
                    if ui.button(label).clicked() {
                        self.send(cmd);
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
                        self.send(cmd);
                        ui.close();
                    }
                }
                if !self.state.recent.is_empty() {
                    ui.separator();
                    ui.label("Recent");
                    for p in self.state.recent.clone() {
                        let name = p.file_name().map_or_else(
                            || p.display().to_string(),
                            |n| n.to_string_lossy().into_owned(),
                        );
                        if ui
                            .button(name)
                            .on_hover_text(p.display().to_string())
                            .clicked()
                        {
                            self.send(Command::Open(p));
                            ui.close();
                        }
                    }
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui.button("Undo  (Ctrl+Z)").clicked() {
                    self.send(Command::Undo);
                    ui.close();
                }
                if ui.button("Redo  (Ctrl+Shift+Z)").clicked() {
                    self.send(Command::Redo);
                    ui.close();
                }
            });
            ui.menu_button("Ladder", |ui| {
                if ui.button("Soft reset…").clicked() {
                    self.send(Command::Show(Screen::Seasons));
                    self.send(Command::PreviewSoftReset);
                    ui.close();
                }
                if ui.button("Hard reset…").clicked() {
                    self.send(Command::Show(Screen::Seasons));
                    self.send(Command::PreviewHardReset);
                    ui.close();
                }
            });
            ui.menu_button("View", |ui| {
                if ui
                    .button(if self.dark {
                        "Light theme"
                    } else {
                        "Dark theme"
                    })
                    .clicked()
                {
                    self.dark = !self.dark;
                    ui.ctx().set_visuals(if self.dark {
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
    fn tabs(&mut self, ui: &mut egui::Ui) {
        let current = self.state.screen;
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
                    self.send(Command::Show(screen));
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
                            self.send(Command::Show(screen));
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
                    self.send(Command::Redo);
                }
                if ui
                    .button("↶ Undo")
                    .on_hover_text("Undo the last change (Ctrl+Z outside a text field)")
                    .clicked()
                {
                    self.send(Command::Undo);
                }
            });
        });
    }

    /// "club.rungs · Skyweaver · season 3, week 2 · 1,284 events · saved" (room is left for
    /// the season calendar's next reset).
    fn status(&self, ui: &mut egui::Ui) {
        let s = &self.state;
        let file = s.path().and_then(|p| p.file_name()).map_or_else(
            || "no ladder".to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let now = s.now();
        let parts = [
            file,
            now.rules.system().label().to_string(),
            format!("season {}, week {}", now.season, now.week),
            format!("{} events", widgets::thousands(now.events)),
            format!(
                "{} players",
                widgets::thousands(now.players.iter().filter(|p| p.joined).count() as u64)
            ),
            "saved".to_string(),
        ];
        ui.horizontal(|ui| {
            if let Some(job) = &s.job {
                ui.spinner();
                ui.label(job_status(job));
                ui.separator();
            }
            ui.add(egui::Label::new(parts.join(" · ")).truncate())
                .on_hover_text(s.path().map_or(String::new(), |p| p.display().to_string()));
        });
    }

    /// The message strip: one line of fixed height, always there, so a message coming or
    /// going never moves the page.
    fn messages(&mut self, ui: &mut egui::Ui) {
        let height = ui.spacing().interact_size.y;
        ui.allocate_ui_with_layout(
            egui::vec2(ui.available_width(), height),
            egui::Layout::left_to_right(egui::Align::Center),
            |ui| {
                ui.set_min_height(height);
                let Some(m) = self.state.messages.current().cloned() else {
                    return;
                };
                if ui.small_button("×").on_hover_text("Dismiss").clicked() {
                    self.send(Command::DismissMessage);
                }
                // Undo's own "undid: …" then takes the strip's place.
                if m.offer == Offer::Undo && ui.small_button("Undo").clicked() {
                    self.send(Command::Undo);
                }
                let text = match m.level {
                    Level::Error => egui::RichText::new(format!("Error: {}", m.text))
                        .color(ui.visuals().error_fg_color),
                    Level::Notice => egui::RichText::new(&m.text),
                };
                ui.add(egui::Label::new(text).truncate())
                    .on_hover_text(&m.text);
            },
        );
    }

    /// "Viewing the past — event 812 of 1,284 · [Return to now]", on every screen.
    fn past_banner(&mut self, ui: &mut egui::Ui) {
        let tools = &self.state.tools;
        // The Replay and Enter match screens say it in their own words.
        if matches!(self.state.screen, Screen::Replay | Screen::EnterMatch) {
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
                self.send(Command::Tool(tools::ToolCommand::ReturnToNow));
            }
        });
    }

    /// Asks for a window screenshot when a PNG of the plots is wanted; the callback cuts the
    /// plots out and writes the file, and the result shows as a message.
    fn screenshots(&mut self, ctx: &egui::Context) {
        if let Some(rx) = &self.png_saved {
            match rx.try_recv() {
                Ok(result) => {
                    self.png_saved = None;
                    let origin = jobs::Origin {
                        stamp: self.state.messages.stamp(),
                        screen: self.state.screen,
                    };
                    match result {
                        Ok(notice) => self.state.say(notice, Offer::Nothing, origin),
                        Err(e) => self.state.say_error(&e, origin),
                    }
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => ctx.request_repaint(),
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.png_saved = None,
            }
        }
        let Some((path, rect)) = self.state.tools.png_pending.take() else {
            return;
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let ppp = ctx.pixels_per_point();
        let repaint = ctx.clone();
        ctx.send_viewport_cmd(egui::ViewportCommand::Screenshot(
            egui::ScreenshotCallback::new(move |image| {
                let result = png::save_region(&image, rect, ppp, &path)
                    .map(|()| format!("saved the plots as {}", path.display()))
                    .map_err(|e| error::AppError::file(&path, e));
                let _ = tx.send(result);
                repaint.request_repaint();
            }),
        ));
        self.png_saved = Some(rx);
        ctx.request_repaint();
    }

    /// The file pickers and the New ladder form: drawn over the screen, answered as commands.
    fn dialogs(&mut self, ctx: &egui::Context) {
        let mut said = Vec::new();
        let picked = self.state.picker.poll(ctx, &mut |s| said.push(s));
        for text in said {
            let origin = jobs::Origin {
                stamp: self.state.messages.stamp(),
                screen: self.state.screen,
            };
            self.state.say(text, Offer::Nothing, origin);
        }
        if let Some((purpose, path)) = picked {
            match purpose {
                Purpose::EloList => {
                    self.state.screens.migration.path = path.display().to_string();
                }
                Purpose::NewLadderFolder => {
                    if let Some(form) = &mut self.state.screens.new_ladder {
                        form.folder = path.display().to_string();
                    }
                }
                _ => {
                    if let Some(cmd) = purpose.command(path) {
                        self.send(cmd);
                    }
                }
            }
        }
        if let Some(mut form) = self.state.screens.new_ladder.take() {
            let keep = new_ladder::show(ctx, &mut form, &mut self.commands);
            if keep {
                self.state.screens.new_ladder = Some(form);
            }
        }
    }

    /// Draws one frame into `ui` (the eframe entry point and the tests both call this).
    pub fn frame(&mut self, ui: &mut egui::Ui) {
        if !self.fonts_ready {
            // Fonts change from the next frame on: draw nothing until then.
            install_fonts(ui.ctx());
            self.fonts_ready = true;
            ui.ctx().request_repaint();
            return;
        }
        self.state.poll_job();
        self.screenshots(ui.ctx());
        if self.state.tools.playing.is_some() {
            let dt = ui.input(|i| i.stable_dt) as f64;
            self.state.advance_play(dt);
            ui.ctx().request_repaint();
        }
        if self.state.job.is_some() {
            ui.ctx()
                .request_repaint_after(std::time::Duration::from_millis(100));
        }
        self.shortcuts(ui);
        egui::Panel::top("menu").show(ui, |ui| {
            self.menu(ui);
            self.tabs(ui);
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            self.messages(ui);
            ui.separator();
            self.status(ui);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            self.past_banner(ui);
            if let Some(job) = &self.state.job {
                ui.horizontal_wrapped(|ui| {
                    let bar = match job.fraction() {
                        Some(f) => egui::ProgressBar::new(f).show_percentage(),
                        // Unknown total: a bar that moves, so the window visibly lives.
                        None => egui::ProgressBar::new(0.0).animate(true),
                    };
                    ui.add(bar.desired_width(240.0));
                    ui.label(job_status(job));
                    let cancel =
                        ui.add_enabled(!job.cancelling(), egui::Button::new("Cancel task"));
                    if cancel
                        .on_hover_text("Stop it; the ladder stays as it was")
                        .clicked()
                    {
                        self.commands.push(Command::CancelJob);
                    }
                });
            }
            let out = &mut self.commands;
            let state = &mut self.state;
            // Each screen gets its own state to change and the rest of the app to read.
            let mut screens = std::mem::take(&mut state.screens);
            // The screen's widget ids hang off its own id, not off how many rows sit above
            // it: a banner appearing must not move the keyboard focus.
            ui.push_id(state.screen, |ui| match state.screen {
                Screen::Standings => standings::show(ui, &mut screens.standings, state, out),
                Screen::EnterMatch => enter_match::show(ui, &mut screens.enter, state, out),
                Screen::Players => players::show(ui, &mut screens.players, state, out),
                Screen::Seasons => seasons::show(ui, state, out),
                Screen::Migration => migration::show(ui, &mut screens.migration, state, out),
                Screen::Settings => settings::show(ui, &mut screens.settings, state, out),
                Screen::History => history::show(ui, state, out),
                Screen::Replay => replay::show(ui, state, out),
                Screen::WhatIf => what_if::show(ui, state, out),
                Screen::Quality => quality::show(ui, state, out),
                Screen::Simulate => simulate::show(ui, state, out),
            });
            state.screens = screens;
        });
        self.dialogs(ui.ctx());
        for cmd in std::mem::take(&mut self.commands) {
            self.state.apply(cmd);
        }
    }
}

/// What a file dropped on the window asks for: `.rungs` opens, anything else imports as
/// matches with the mapping its name suggests.
pub fn dropped_file_command(path: std::path::PathBuf) -> Command {
    if path.extension().is_some_and(|e| e == "rungs") {
        Command::Open(path)
    } else {
        let mapping = files::mapping_for_file(&path);
        Command::ImportCsv(path, mapping)
    }
}

/// "importing club.csv — 2.1 MB read · 3 s".
fn job_status(job: &jobs::Job) -> String {
    let done = match job.unit {
        jobs::Unit::Bytes => format!(" — {} read", widgets::bytes(job.done())),
        jobs::Unit::Events => format!(" — {} events", widgets::thousands(job.done())),
        jobs::Unit::Permille => String::new(),
    };
    let cancelling = if job.cancelling() {
        " · cancelling"
    } else {
        ""
    };
    format!(
        "{}{done} · {} s{cancelling}",
        job.label,
        job.started.elapsed().as_secs()
    )
}

impl eframe::App for RungsApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        let memory = Memory {
            last: self.state.path().map(|p| p.to_path_buf()),
            recent: self.state.recent.clone(),
            dark: Some(self.dark),
            screen: self.state.screen,
        };
        eframe::set_value(storage, MEMORY_KEY, &memory);
    }
}

/// Opens the app's window on `file`, or on the last ladder used.
pub fn run(file: Option<std::path::PathBuf>) -> Result<(), String> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("rungs")
            .with_inner_size([1200.0, 800.0])
            .with_min_inner_size([480.0, 360.0]),
        ..Default::default()
    };
    eframe::run_native(
        "rungs",
        options,
        Box::new(|cc| Ok(Box::new(RungsApp::new(cc, file)))),
    )
    .map_err(|e| e.to_string())
}
