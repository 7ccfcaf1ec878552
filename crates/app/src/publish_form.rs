//! File → Publish…'s options window: the choices of `rungs publish` asked before the folder.

use super::command::Command;
use super::files::Purpose;
use eframe::egui;

/// File → Publish…'s options, asked before the folder as `rungs publish --title
/// --hide-retired --initials` takes them. Returns whether the window stays: "Choose
/// folder…" keeps it (hidden while the picker is open, back if the choice is cancelled;
/// the folder chosen publishes with these options), Cancel or the window's × closes it.
pub fn show(
    ctx: &egui::Context,
    options: &mut rungs_publish::Options,
    out: &mut Vec<Command>,
) -> bool {
    let mut open = true;
    let mut close = false;
    egui::Window::new("Publish the standings")
        .id(egui::Id::unique("publish-options"))
        .open(&mut open)
        .collapsible(false)
        .resizable(false)
        .anchor(egui::Align2::CENTER_TOP, [0.0, 60.0])
        .show(ctx, |ui| {
            ui.horizontal(|ui| {
                let label = ui.label("Title");
                ui.add(egui::TextEdit::singleline(&mut options.title).desired_width(260.0))
                    .labelled_by(label.id);
            });
            ui.checkbox(&mut options.hide_retired, "Hide retired players")
                .on_hover_text("Retired players get no line, no page and no link on the site");
            ui.checkbox(&mut options.initials, "Names as initials")
                .on_hover_text("“Ann Lee” shows as “Ann L.”");
            ui.horizontal(|ui| {
                if ui.button("Choose folder…").clicked() {
                    out.push(Command::Pick(Purpose::PublishFolder));
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    open && !close
}
