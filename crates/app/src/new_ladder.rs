//! File → New: a name, a folder and a system, each system explained in one plain sentence
//! (its `about`), before any file is made.

use super::calendar::{self, CalendarForm};
use super::command::{Command, Screen};
use super::files::Purpose;
use eframe::egui::{self, RichText};
use rungs_ladder::calendar::Calendar;
use rungs_ladder::rules::{Rules, System};
use std::path::PathBuf;

/// The New ladder form as typed.
#[derive(Debug, Clone, PartialEq)]
pub struct NewLadderForm {
    pub name: String,
    pub folder: String,
    pub system: System,
    /// The season calendar (weekly, as the Skyweaver white paper's seasons run, unless
    /// changed).
    pub calendar: CalendarForm,
}

impl NewLadderForm {
    pub fn new(folder: PathBuf) -> NewLadderForm {
        NewLadderForm {
            name: "club".into(),
            folder: folder.display().to_string(),
            system: System::Skyweaver,
            calendar: CalendarForm::of(&Rules::defaults(System::Skyweaver).calendar),
        }
    }

    /// The file the form names, or what is wrong with it.
    pub fn path(&self) -> Result<PathBuf, String> {
        let name = self.name.trim();
        if name.is_empty() {
            return Err("give the ladder a name".into());
        }
        if name.contains(['/', '\\']) || name.chars().any(char::is_control) {
            return Err("the name is a file name: no slashes or control characters".into());
        }
        let folder = PathBuf::from(self.folder.trim());
        if !folder.is_dir() {
            return Err(format!("the folder {} does not exist", folder.display()));
        }
        let file = if name.ends_with(".rungs") {
            name.to_string()
        } else {
            format!("{name}.rungs")
        };
        let path = folder.join(file);
        if path.exists() {
            return Err(format!(
                "{} already exists: choose another name, or open it (File → Open)",
                path.display()
            ));
        }
        Ok(path)
    }
}

/// The form as a window; `None` once it is closed.
pub fn show(ctx: &egui::Context, form: &mut NewLadderForm, out: &mut Vec<Command>) -> bool {
    let mut open = true;
    let mut close = false;
    egui::Window::new("New ladder")
        .id(egui::Id::unique("new-ladder"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .show(ctx, |ui| {
            ui.set_max_width(520.0);
            egui::Grid::new("new-ladder-grid")
                .num_columns(2)
                .show(ui, |ui| {
                    let label = ui.label("Name");
                    ui.add(egui::TextEdit::singleline(&mut form.name).desired_width(220.0))
                        .labelled_by(label.id);
                    ui.end_row();
                    let label = ui.label("Folder");
                    ui.horizontal(|ui| {
                        ui.add(egui::TextEdit::singleline(&mut form.folder).desired_width(300.0))
                            .labelled_by(label.id);
                        if ui.button("Browse…").clicked() {
                            out.push(Command::Pick(Purpose::NewLadderFolder));
                        }
                    });
                    ui.end_row();
                });
            ui.add_space(6.0);
            ui.strong("Rating system");
            for s in System::ALL {
                let f = s.facts();
                ui.radio_value(&mut form.system, s, RichText::new(f.label).strong());
                ui.indent(("about", s), |ui| {
                    ui.label(RichText::new(f.about).weak());
                });
            }
            ui.add_space(6.0);
            calendar::form(
                ui,
                "new-ladder-calendar",
                &mut form.calendar,
                Screen::Standings,
            );
            ui.add_space(6.0);
            let path = form.path();
            let cal: Result<Calendar, String> = form.calendar.calendar(Screen::Standings);
            ui.horizontal(|ui| {
                if ui
                    .add_enabled(
                        path.is_ok() && cal.is_ok(),
                        egui::Button::new("Create ladder"),
                    )
                    .clicked()
                    && let (Ok(p), Ok(c)) = (&path, &cal)
                {
                    let mut rules = Rules::defaults(form.system);
                    rules.calendar = *c;
                    out.push(Command::Create(p.clone(), rules));
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
            match &path {
                Ok(p) => ui.weak(format!("Creates {}", p.display())),
                Err(why) => ui.colored_label(ui.visuals().warn_fg_color, why),
            };
        });
    open && !close
}
