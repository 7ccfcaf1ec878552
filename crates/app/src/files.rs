//! Choosing files so that it always works. The system's dialog (rfd: the desktop portal, or
//! zenity without one) runs on its own thread; where neither exists it returns at once with
//! nothing, which no person could do by cancelling, so a quick empty answer means "it could
//! not open": the app says so and offers its own picker (egui_file), which has a path field
//! to type into. Where it is known up front that no system dialog can open (no session bus
//! and no zenity), the app's picker opens straight away.

use eframe::egui;
use rungs_chart::simulated::SimPlot;
use rungs_interchange::csv_matches::Mapping;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

/// What a file is being chosen for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Open,
    SaveCopy,
    ImportCsv,
    ExportCsv,
    ExportJsonl,
    SavePng,
    /// The migration wizard's Elo list (fills its field).
    EloList,
    /// The folder of a new ladder (fills the New ladder form).
    NewLadderFolder,
    /// The folder to publish the standings into (File → Publish…).
    PublishFolder,
    /// The standings as a PNG image.
    StandingsPng,
    /// One of Simulate's plots, as SVG or PNG by the name's ending.
    SimulatePlot(SimPlot),
}

impl Purpose {
    pub fn title(self) -> &'static str {
        match self {
            Purpose::Open => "Open a ladder",
            Purpose::SaveCopy => "Save a copy of the ladder",
            Purpose::ImportCsv => "Import matches from a CSV",
            Purpose::ExportCsv => "Export the matches as CSV",
            Purpose::ExportJsonl => "Export the log as JSON Lines",
            Purpose::SavePng => "Save the plots as PNG",
            Purpose::EloList => "Choose the Elo list",
            Purpose::NewLadderFolder => "Choose the folder for the new ladder",
            Purpose::PublishFolder => "Publish the standings into a folder",
            Purpose::StandingsPng => "Save the standings as an image",
            Purpose::SimulatePlot(_) => "Save the plot (.svg or .png)",
        }
    }

    fn kind(self) -> Kind {
        match self {
            Purpose::Open | Purpose::ImportCsv | Purpose::EloList => Kind::Open,
            Purpose::NewLadderFolder | Purpose::PublishFolder => Kind::Folder,
            _ => Kind::Save,
        }
    }

    /// File name endings offered (an open dialog shows only these).
    fn extensions(self) -> &'static [&'static str] {
        match self {
            Purpose::Open | Purpose::SaveCopy => &["rungs"],
            Purpose::ImportCsv => &["csv", "gz"],
            Purpose::EloList | Purpose::ExportCsv => &["csv"],
            Purpose::ExportJsonl => &["jsonl"],
            Purpose::SavePng | Purpose::StandingsPng => &["png"],
            Purpose::SimulatePlot(_) => &["svg", "png"],
            Purpose::NewLadderFolder | Purpose::PublishFolder => &[],
        }
    }

    fn default_name(self) -> &'static str {
        match self {
            Purpose::SaveCopy => "copy.rungs",
            Purpose::ExportCsv => "matches.csv",
            Purpose::ExportJsonl => "ladder.jsonl",
            Purpose::SavePng => "history.png",
            Purpose::StandingsPng => "standings.png",
            Purpose::SimulatePlot(SimPlot::Climb) => "climb.svg",
            Purpose::SimulatePlot(SimPlot::Inflation) => "inflation.svg",
            Purpose::SimulatePlot(SimPlot::Tiers) => "tiers.svg",
            _ => "",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Open,
    Save,
    Folder,
}

/// Whether the system's dialog is worth trying.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Native {
    Try,
    /// It cannot open here; why, in words.
    Unavailable(String),
}

/// A system dialog answering on its thread.
struct Waiting {
    purpose: Purpose,
    answer: Receiver<Option<PathBuf>>,
    started: Instant,
}

/// An answer faster than this came from a dialog that never opened.
const NO_PERSON_CANCELS_THIS_FAST: Duration = Duration::from_millis(400);

/// The file choosing state: a system dialog waited on, or the app's own picker open.
pub struct Picker {
    pub native: Native,
    waiting: Option<Waiting>,
    in_app: Option<(Purpose, egui_file::FileDialog)>,
    /// A file chosen in the app's own picker to be written over, waiting for a yes: the
    /// system's dialogs ask "replace?" themselves, the app's picker does not.
    confirm: Option<(Purpose, PathBuf)>,
    /// Where the app's picker starts (the open ladder's folder).
    pub start: PathBuf,
    /// `Some(zenity was on PATH)` when rungs itself found the system's dialog missing: once
    /// zenity is installed it is tried again, without a restart. (`None` when something else
    /// chose rungs' own picker, such as `RUNGS_FILE_DIALOG` or a test.)
    missing: Option<bool>,
}

impl Picker {
    pub fn new(start: PathBuf) -> Picker {
        let native = detect_native();
        let builtin = std::env::var("RUNGS_FILE_DIALOG").is_ok_and(|v| v == "builtin");
        let missing = (native != Native::Try && !builtin).then(zenity_on_path);
        Picker {
            native,
            waiting: None,
            in_app: None,
            confirm: None,
            start,
            missing,
        }
    }

    /// Whether a dialog (either kind) is open.
    pub fn busy(&self) -> bool {
        self.waiting.is_some() || self.in_app.is_some() || self.confirm.is_some()
    }

    /// The purpose of the app's own picker, if it is open.
    pub fn in_app(&self) -> Option<Purpose> {
        self.in_app.as_ref().map(|(p, _)| *p)
    }

    /// Starts choosing a file for `purpose`. Returns a sentence to say when the app's own
    /// picker opens because the system's cannot.
    pub fn start(&mut self, purpose: Purpose) -> Option<String> {
        if self.busy() {
            return None;
        }
        // zenity installed since rungs found no dialog: try the system's again.
        if self.missing.is_some_and(|had| !had) && zenity_on_path() {
            self.native = Native::Try;
            self.missing = None;
        }
        match &self.native {
            Native::Try => {
                self.waiting = Some(spawn_native(purpose, &self.start));
                None
            }
            Native::Unavailable(why) => {
                let why = why.clone();
                self.open_in_app(purpose);
                Some(format!(
                    "{why}: choose the file in rungs' own picker (you can type a path in it)"
                ))
            }
        }
    }

    /// Waits on a system dialog's `answer` for `purpose`, opened at `started` (what
    /// [`Picker::start`] does with the dialog it spawns; tests stand in for the dialog).
    pub fn wait_on(
        &mut self,
        purpose: Purpose,
        answer: Receiver<Option<PathBuf>>,
        started: Instant,
    ) {
        self.waiting = Some(Waiting {
            purpose,
            answer,
            started,
        });
    }

    /// Opens rungs' own picker for `purpose` (unless a dialog is open already).
    pub fn open_own(&mut self, purpose: Purpose) {
        if !self.busy() {
            self.open_in_app(purpose);
        }
    }

    fn open_in_app(&mut self, purpose: Purpose) {
        let start = self.start.clone();
        let mut dialog = match purpose.kind() {
            Kind::Open => egui_file::FileDialog::open_file().initial_path(start),
            Kind::Save => egui_file::FileDialog::save_file()
                .initial_path(start)
                .default_filename(purpose.default_name()),
            Kind::Folder => egui_file::FileDialog::select_folder().initial_path(start),
        };
        let extensions = purpose.extensions();
        if purpose.kind() == Kind::Open && !extensions.is_empty() {
            dialog = dialog.show_files_filter(Box::new(move |p: &Path| {
                p.extension()
                    .and_then(|e| e.to_str())
                    .is_some_and(|e| extensions.iter().any(|x| x.eq_ignore_ascii_case(e)))
            }));
        }
        let mut dialog = dialog
            .title(purpose.title())
            .default_size([640.0, 420.0])
            .show_new_folder(purpose.kind() != Kind::Open)
            .show_rename(false);
        dialog.open();
        self.in_app = Some((purpose, dialog));
    }

    /// Draws the app's picker if open and collects an answer from either kind. `said` hears
    /// a sentence when the system dialog turned out not to open, or gave no file (with the
    /// purpose, for an offer of rungs' own picker).
    pub fn poll(
        &mut self,
        ctx: &egui::Context,
        said: &mut dyn FnMut(String, Option<Purpose>),
    ) -> Option<(Purpose, PathBuf)> {
        if let Some(w) = &self.waiting {
            match w.answer.try_recv() {
                Err(TryRecvError::Empty) => {
                    ctx.request_repaint_after(Duration::from_millis(100));
                    return None;
                }
                Ok(Some(path)) => {
                    let purpose = w.purpose;
                    self.waiting = None;
                    return Some((purpose, path));
                }
                Ok(None) | Err(TryRecvError::Disconnected) => {
                    let (purpose, quick) =
                        (w.purpose, w.started.elapsed() < NO_PERSON_CANCELS_THIS_FAST);
                    self.waiting = None;
                    if quick {
                        // Nothing opened: no portal and no zenity, most likely.
                        let why = "The system file dialog did not open (no desktop portal or \
                                   zenity found)"
                            .to_string();
                        self.native = Native::Unavailable(why.clone());
                        self.missing = Some(zenity_on_path());
                        said(
                            format!(
                                "{why}: choose the file in rungs' own picker (you can type a \
                                 path in it)"
                            ),
                            None,
                        );
                        self.open_in_app(purpose);
                    } else {
                        // A person's cancel, or a dialog that failed after a while: either
                        // way the way on is offered.
                        said("No file chosen.".to_string(), Some(purpose));
                    }
                    return None;
                }
            }
        }
        if self.confirm.is_some() {
            return self.ask_to_replace(ctx);
        }
        let (purpose, dialog) = self.in_app.as_mut()?;
        let purpose = *purpose;
        let state = dialog.show(ctx).state();
        match state {
            egui_file::State::Selected => {
                let path = dialog.path().map(Path::to_path_buf);
                self.in_app = None;
                let chosen = path.map(|p| with_extension(p, purpose))?;
                // Save a copy refuses an existing name itself; anything else written there
                // replaces a file, which is asked first.
                if purpose.kind() == Kind::Save && purpose != Purpose::SaveCopy && chosen.exists() {
                    self.confirm = Some((purpose, chosen));
                    ctx.request_repaint();
                    return None;
                }
                Some((purpose, chosen))
            }
            egui_file::State::Cancelled | egui_file::State::Closed => {
                self.in_app = None;
                None
            }
            egui_file::State::Open => None,
        }
    }
}

impl Picker {
    /// "Replace it?" for the file chosen in the app's own picker: Replace gives it on,
    /// Cancel goes back to the picker.
    fn ask_to_replace(&mut self, ctx: &egui::Context) -> Option<(Purpose, PathBuf)> {
        let (purpose, path) = self.confirm.clone()?;
        let mut answer = None;
        egui::Window::new("Replace the file?")
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, [0.0, 0.0])
            .show(ctx, |ui| {
                ui.label(format!(
                    "{} exists already. Replace it? What it holds now will be lost.",
                    path.display()
                ));
                ui.horizontal(|ui| {
                    if ui.button("Replace").clicked() {
                        answer = Some(true);
                    }
                    if ui.button("Cancel").clicked()
                        || ui.input(|i| i.key_pressed(egui::Key::Escape))
                    {
                        answer = Some(false);
                    }
                });
            });
        match answer {
            Some(true) => self.confirm.take(),
            Some(false) => {
                self.confirm = None;
                self.open_in_app(purpose);
                None
            }
            None => None,
        }
    }
}

/// A saved file gets the purpose's ending if it was typed without one.
fn with_extension(path: PathBuf, purpose: Purpose) -> PathBuf {
    match (purpose.kind(), purpose.extensions().first()) {
        (Kind::Save, Some(ext)) if path.extension().is_none() => path.with_extension(ext),
        _ => path,
    }
}

/// Whether a system dialog can open at all here: the portal needs a session bus, the
/// fallback needs zenity. `RUNGS_FILE_DIALOG=builtin` always uses the app's own.
/// Whether zenity (the system dialog's fallback) is on PATH.
fn zenity_on_path() -> bool {
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("zenity").is_file()))
}

fn detect_native() -> Native {
    if std::env::var("RUNGS_FILE_DIALOG").is_ok_and(|v| v == "builtin") {
        return Native::Unavailable("rungs' own file picker is chosen (RUNGS_FILE_DIALOG)".into());
    }
    let bus = std::env::var_os("DBUS_SESSION_BUS_ADDRESS").is_some_and(|v| !v.is_empty());
    if bus || zenity_on_path() {
        Native::Try
    } else {
        Native::Unavailable(
            "No system file dialog here (no desktop portal and no zenity)".to_string(),
        )
    }
}

fn spawn_native(purpose: Purpose, start: &Path) -> Waiting {
    let (tx, rx) = std::sync::mpsc::channel();
    let start = start.to_path_buf();
    std::thread::spawn(move || {
        let mut dialog = rfd::FileDialog::new()
            .set_title(purpose.title())
            .set_directory(&start);
        let extensions = purpose.extensions();
        if !extensions.is_empty() && purpose.kind() == Kind::Open {
            dialog = dialog.add_filter("files", extensions);
        }
        let answer = match purpose.kind() {
            Kind::Open => dialog.pick_file(),
            Kind::Save => dialog.set_file_name(purpose.default_name()).save_file(),
            Kind::Folder => dialog.pick_folder(),
        };
        let _ = tx.send(answer);
    });
    Waiting {
        purpose,
        answer: rx,
        started: Instant::now(),
    }
}

/// The column mapping for a CSV: the international-results layout when its header names
/// `home_team`, else the standard one.
pub fn mapping_for_file(path: &Path) -> Mapping {
    use std::io::{BufRead, BufReader, Read};
    let Ok(file) = std::fs::File::open(path) else {
        return Mapping::standard();
    };
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let reader: Box<dyn Read> = if gz {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut first = String::new();
    let _ = BufReader::new(reader.take(64 * 1024)).read_line(&mut first);
    if first.to_lowercase().contains("home_team") {
        Mapping::international()
    } else {
        Mapping::standard()
    }
}
