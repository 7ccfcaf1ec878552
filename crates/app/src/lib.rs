//! The desktop app: eframe over the ladder file, in layers that import only downwards.
//! - Plain data at the bottom: [`command`] (the [`command::Command`]s screens send and the
//!   [`command::Screen`]s), [`error`], [`messages`], [`jobs`] (a running job, what it hands
//!   back, the screens' [`jobs::FollowUp`]s), [`tools`] (the designer's shared data), the
//!   file [`files`] picker, and widgets that draw but know no state.
//! - [`state`]: [`state::AppState`], the open ladder and everything shared, which applies
//!   commands (the jobs' work in `work.rs`); it never sees a screen.
//! - One file per screen: its own state struct and its view, reading the app state and
//!   sending commands; [`screens`] holds them side by side and routes them.
//! - `chrome.rs` (menu, tabs, message strip, banner, status bar) and this module's
//!   [`RungsApp`], which owns the app state and the screens' states, draws the frame,
//!   applies the commands and hands the follow-ups the state queued to the screens.
//!
//! What fails is an [`error::AppError`] (the gate's `ActionError` among them) and shows in
//! the message strip.

mod boxes;
mod calendar;
mod challenge_ladder;
mod charts;
mod chrome;
pub mod command;
pub mod enter_match;
pub mod error;
pub mod explain;
pub mod files;
mod history;
mod history_curves;
pub mod jobs;
pub mod matches;
pub mod messages;
pub mod migration;
mod new_ladder;
mod param_fields;
mod picker;
pub mod players;
mod plot_band;
pub mod png;
mod preview;
mod publish_form;
mod quality;
mod replay;
pub mod screens;
mod seasons;
pub mod settings;
pub mod shared_form;
pub mod shared_ladder;
pub mod simulate;
pub mod standings;
mod standings_table;
pub mod state;
pub mod tier_cut;
pub mod tonight;
mod tonight_swiss;
pub mod tools;
pub mod tune;
mod what_if;
mod widgets;
pub mod words;
mod work;

use command::{Command, Screen};
use eframe::egui;
use files::Purpose;
use screens::Screens;
use state::AppState;
use std::path::{Path, PathBuf};

/// What survives a restart besides the window: the last ladder, recent files, the theme.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct Memory {
    pub last: Option<PathBuf>,
    pub recent: Vec<PathBuf>,
    pub dark: Option<bool>,
    pub screen: Screen,
}

const MEMORY_KEY: &str = "rungs";

/// How often the window asks whether another program changed its file.
const FILE_CHECK_SECONDS: f64 = 1.0;

pub struct RungsApp {
    pub state: AppState,
    /// Each screen's own state.
    pub screens: Screens,
    commands: Vec<Command>,
    dark: bool,
    fonts_ready: bool,
    /// A PNG of the plots asked for: where to write it and the plots' rectangle, waiting for
    /// the window's screenshot.
    png_pending: Option<(PathBuf, egui::Rect)>,
    /// A PNG of the plots being written by the screenshot callback.
    png_saved: Option<std::sync::mpsc::Receiver<Result<String, error::AppError>>>,
    /// When the file was last asked whether another program changed it (egui's clock), and
    /// whether the window had the focus then.
    file_checked: (f64, bool),
    /// The window's title as last set.
    title: String,
    /// Whether closing was refused once to say that changes wait for the server.
    quit_warned: bool,
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
        let screens = Screens::new(&state.data_dir);
        let mut app = RungsApp {
            state,
            screens,
            commands: Vec::new(),
            dark: true,
            fonts_ready: false,
            png_pending: None,
            png_saved: None,
            file_checked: (0.0, false),
            title: String::new(),
            quit_warned: false,
        };
        app.follow_up();
        app
    }

    /// The app follows its file: every second, and whenever the window gets the focus back,
    /// it asks whether another program changed the ladder, and if so reloads and says what
    /// arrived (see [`AppState::follow_file`]).
    fn follow_file(&mut self, ui: &egui::Ui) {
        let (now, focused) = ui.input(|i| (i.time, i.focused));
        let (checked, was_focused) = self.file_checked;
        if now - checked >= FILE_CHECK_SECONDS || (focused && !was_focused) {
            self.file_checked = (now, focused);
            self.state.follow_file();
            self.follow_up();
        } else {
            self.file_checked.1 = focused;
        }
        ui.ctx()
            .request_repaint_after(std::time::Duration::from_secs_f64(FILE_CHECK_SECONDS));
    }

    /// Closing the window with changes waiting for a shared ladder's server says so once;
    /// closing again quits.
    fn quit_check(&mut self, ctx: &egui::Context) {
        if !ctx.input(|i| i.viewport().close_requested()) {
            return;
        }
        if let Some(words) = self.state.quit_warning()
            && !self.quit_warned
        {
            self.quit_warned = true;
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.state.say_now(Ok(words));
        }
    }

    /// The window's title as last set.
    pub fn title(&self) -> &str {
        &self.title
    }

    /// Applies `cmd` as a click would, and hands on what the screens must do.
    pub fn apply(&mut self, cmd: Command) {
        self.state.apply(cmd);
        self.follow_up();
    }

    /// Waits for the running job, lands it, and hands on what the screens must do (tests;
    /// the window polls instead).
    pub fn wait_for_job(&mut self) {
        self.state.wait_for_job();
        self.follow_up();
    }

    /// Hands the screens what the app state queued for them.
    fn follow_up(&mut self) {
        for f in self.state.take_follow_ups() {
            self.screens.follow_up(f, &self.state);
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
        let mut state = match file {
            // A name from a terminal is relative to where it was typed: made whole once here, so
            // the pickers start in its folder and the recent list finds it from anywhere.
            // `rungs postgres://…`: the shared ladder there (its form asks a password if the
            // server wants one).
            Some(named) if named.to_str().is_some_and(rungs_store::shared::is_url) => {
                AppState::open_shared_named(dir, named.to_string_lossy().into_owned())
            }
            Some(named) => {
                let named = std::path::absolute(&named).unwrap_or(named);
                AppState::open_named(dir, &named)
            }
            // The last ladder a shared one: opened again through its server, not as its
            // replica's bare file (whose changes would wait unsent).
            None if memory
                .last
                .as_ref()
                .and_then(|p| p.to_str())
                .is_some_and(rungs_store::shared::is_url) =>
            {
                let url = memory.last.clone().unwrap_or_default();
                AppState::open_shared_named(dir, url.to_string_lossy().into_owned())
            }
            None => {
                let path = memory
                    .last
                    .clone()
                    .filter(|p| p.exists())
                    .unwrap_or_else(|| dir.join("ladder.rungs"));
                if let Some(parent) = path.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                AppState::open_or_create(dir, &path)
            }
        };
        let path = state.path().map(Path::to_path_buf);
        state.recent.extend(
            memory
                .recent
                .into_iter()
                .filter(|p| p.exists() && Some(p) != path.as_ref()),
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
            self.send(Command::dropped(path));
        }
    }

    /// Asks for a window screenshot when a PNG of the plots is wanted; the callback cuts the
    /// plots out and writes the file, and the result shows as a message.
    fn screenshots(&mut self, ctx: &egui::Context) {
        if let Some(rx) = &self.png_saved {
            match rx.try_recv() {
                Ok(result) => {
                    self.png_saved = None;
                    self.state.say_now(result);
                }
                Err(std::sync::mpsc::TryRecvError::Empty) => ctx.request_repaint(),
                Err(std::sync::mpsc::TryRecvError::Disconnected) => self.png_saved = None,
            }
        }
        let Some((path, rect)) = self.png_pending.take() else {
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
        let picked = self
            .state
            .picker
            .poll(ctx, &mut |s, own| said.push((s, own)));
        if !said.is_empty() || picked.is_some() {
            // Said at the end of a frame: draw it now, not at the next mouse move.
            ctx.request_repaint();
        }
        for (text, own) in said {
            match own {
                Some(purpose) => self
                    .state
                    .say_offering(text, messages::Offer::OwnPicker(purpose)),
                None => self.state.say_now(Ok(text)),
            }
        }
        if let Some((purpose, path)) = picked {
            match purpose {
                Purpose::EloList => self.screens.migration.path = path.display().to_string(),
                Purpose::NewLadderFolder => {
                    if let Some(form) = &mut self.screens.new_ladder {
                        form.folder = path.display().to_string();
                    }
                }
                Purpose::SavePng => match self.screens.history.plot_rect {
                    Some(rect) => self.png_pending = Some((path, rect)),
                    None => self.state.say_now(Err(error::AppError::Nothing(
                        "no plot is on screen to save",
                    ))),
                },
                Purpose::PublishFolder => {
                    if let Some(options) = self.screens.publish.take() {
                        self.commands
                            .push(Command::Publish(path, Box::new(options)));
                    }
                }
                _ => self.commands.extend(Command::picked(purpose, path)),
            }
        }
        // Hidden while its folder is being chosen; a cancelled choice brings it back.
        if !self.state.picker.busy()
            && let Some(mut options) = self.screens.publish.take()
            && publish_form::show(ctx, &mut options, &mut self.commands)
        {
            self.screens.publish = Some(options);
        }
        if let Some(mut form) = self.screens.new_ladder.take() {
            let keep = new_ladder::show(ctx, &mut form, &mut self.commands);
            if keep {
                self.screens.new_ladder = Some(form);
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
        self.follow_up();
        self.follow_file(ui);
        self.state.follow_shared();
        self.quit_check(ui.ctx());
        shared_form::form(ui.ctx(), &mut self.state.shared_form, &mut self.commands);
        let title = match &self.state.shared {
            // The ladder's name, not its replica's file name (nor ever its URL's password).
            Some(shared) => format!("{} (shared) — rungs", shared.ladder),
            None => window_title(self.state.path()),
        };
        if title != self.title {
            ui.ctx()
                .send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.title = title;
        }
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
        let editing = self.state.screen == Screen::Matches && self.screens.enter.edit.is_some();
        if (self.state.screen == Screen::EnterMatch || editing)
            && self.screens.new_ladder.is_none()
            && !self.state.picker.busy()
        {
            self.screens.enter.take_enter(ui);
        }
        egui::Panel::top("menu").show(ui, |ui| {
            chrome::menu(ui, &self.state, &mut self.dark, &mut self.commands);
            chrome::tabs(ui, self.state.screen, &mut self.commands);
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            chrome::message_strip(ui, &self.state, &mut self.commands);
            ui.separator();
            chrome::status(ui, &self.state);
        });
        egui::CentralPanel::default().show(ui, |ui| {
            chrome::past_banner(ui, &self.state, &mut self.commands);
            if let Some(job) = &self.state.job {
                ui.horizontal_wrapped(|ui| {
                    let bar = match job.fraction() {
                        Some(f) => egui::ProgressBar::new(f).show_percentage(),
                        // Unknown total: a bar that moves, so the window visibly lives.
                        None => egui::ProgressBar::new(0.0).animate(true),
                    };
                    ui.add(bar.desired_width(240.0));
                    ui.label(job.status());
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
            // The screen's widget ids hang off its own id, not off how many rows sit above
            // it: a banner appearing must not move the keyboard focus.
            let (screens, state, out) = (&mut self.screens, &mut self.state, &mut self.commands);
            ui.push_id(state.screen, |ui| screens.show(ui, state, out));
        });
        self.dialogs(ui.ctx());
        for cmd in std::mem::take(&mut self.commands) {
            self.apply(cmd);
        }
    }
}

/// What a file dropped on the window asks for (see [`Command::dropped`]).
pub fn dropped_file_command(path: PathBuf) -> Command {
    Command::dropped(path)
}

impl eframe::App for RungsApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        self.frame(ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        let memory = Memory {
            // A shared ladder is remembered by its URL as shown (never its password).
            last: match &self.state.shared {
                Some(shared) => Some(PathBuf::from(&shared.shown)),
                None => self.state.path().map(|p| p.to_path_buf()),
            },
            recent: self.state.recent.clone(),
            dark: Some(self.dark),
            screen: self.state.screen,
        };
        eframe::set_value(storage, MEMORY_KEY, &memory);
    }
}

/// Opens the app's window on `file`, or on the last ladder used.
pub fn run(file: Option<std::path::PathBuf>) -> Result<(), String> {
    let mut viewport = egui::ViewportBuilder::default()
        .with_title("rungs")
        .with_app_id("rungs")
        .with_inner_size([1200.0, 800.0])
        .with_min_inner_size([480.0, 360.0]);
    if let Some(icon) = window_icon() {
        viewport = viewport.with_icon(std::sync::Arc::new(icon));
    }
    let options = eframe::NativeOptions {
        viewport,
        ..Default::default()
    };
    eframe::run_native(
        "rungs",
        options,
        Box::new(|cc| Ok(Box::new(RungsApp::new(cc, file)))),
    )
    .map_err(|e| {
        format!(
            "cannot open a window ({}); every command works without one \
             (`rungs --help`), and the README's \"When no window opens\" says what the app needs",
            without_source_paths(&e.to_string())
        )
    })
}

/// The window's title: the open file's name first, as desktop apps name their document
/// ("club.rungs — rungs"), or the app's alone.
pub fn window_title(file: Option<&std::path::Path>) -> String {
    match file.and_then(|f| f.file_name()) {
        Some(name) => format!(
            "{} — rungs",
            rungs_ladder::values::shown(&name.to_string_lossy())
        ),
        None => "rungs".to_string(),
    }
}

/// `text` without the source locations a library puts in its errors (winit's "os error at
/// /…/.cargo/registry/…/x11/mod.rs:123: …"): a path on the machine rungs was built on says
/// nothing to the person reading it.
fn without_source_paths(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(" at ") {
        let after = &rest[at + 4..];
        let location = after
            .find(".rs:")
            .map(|i| i + 4)
            .map(|i| i + after[i..].bytes().take_while(u8::is_ascii_digit).count())
            .filter(|&end| !after[..end].contains(' '));
        match location {
            Some(end) => {
                out.push_str(&rest[..at]);
                rest = &after[end..];
            }
            None => {
                out.push_str(&rest[..at + 4]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The application icon (the one `rungs install-desktop` installs) for the window.
fn window_icon() -> Option<egui::IconData> {
    let bytes: &[u8] = include_bytes!("../../../assets/desktop/rungs-256.png");
    let mut reader = ::png::Decoder::new(std::io::Cursor::new(bytes))
        .read_info()
        .ok()?;
    let mut rgba = vec![0; reader.output_buffer_size()?];
    let info = reader.next_frame(&mut rgba).ok()?;
    (info.color_type == ::png::ColorType::Rgba && info.bit_depth == ::png::BitDepth::Eight).then(
        || egui::IconData {
            rgba: rgba[..info.buffer_size()].to_vec(),
            width: info.width,
            height: info.height,
        },
    )
}

#[cfg(test)]
mod tests {
    /// The window's title names the open file (it was "rungs" whatever file was open).
    #[test]
    fn the_window_names_its_file() {
        use std::path::Path;
        assert_eq!(
            super::window_title(Some(Path::new("/home/ann/club.rungs"))),
            "club.rungs — rungs"
        );
        assert_eq!(
            super::window_title(Some(Path::new("/x/a\u{202e}b.rungs"))),
            "aU+202Eb.rungs — rungs"
        );
        assert_eq!(super::window_title(None), "rungs");
    }

    /// The no-display message carried a path of the build machine; it names none.
    #[test]
    fn a_window_error_loses_the_build_machines_paths() {
        let winit = "os error at /root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/\
                     winit-0.30.13/src/platform_impl/linux/x11/mod.rs:792: failed to open display";
        assert_eq!(
            super::without_source_paths(winit),
            "os error: failed to open display"
        );
        assert_eq!(
            super::without_source_paths("waiting at the door: no"),
            "waiting at the door: no"
        );
    }

    #[test]
    fn the_window_icon_is_the_installed_one_decoded() {
        let icon = super::window_icon().expect("the bundled PNG decodes");
        assert_eq!((icon.width, icon.height), (256, 256));
        assert_eq!(icon.rgba.len(), 256 * 256 * 4);
        // The corner is transparent (a rounded square), the centre is not.
        assert_eq!(icon.rgba[3], 0);
        let centre = (128 * 256 + 128) * 4;
        assert_eq!(icon.rgba[centre + 3], 255);
    }
}
