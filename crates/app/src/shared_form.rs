//! File → Open shared ladder…'s window: the ladder's address, and a password field once
//! the server asked for one (see `shared_ladder`).

use crate::command::Command;
use crate::shared_ladder::SharedForm;

/// The form's window; Open sends [`Command::OpenShared`].
pub fn form(ctx: &egui::Context, form: &mut Option<SharedForm>, out: &mut Vec<Command>) {
    let Some(f) = form else {
        return;
    };
    let mut close = false;
    egui::Window::new("Open shared ladder")
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let label = ui.label("Address");
            ui.add(
                egui::TextEdit::singleline(&mut f.url)
                    .hint_text("postgres://ann@db.example.org/federation?ladder=club")
                    .desired_width(380.0),
            )
            .labelled_by(label.id);
            if f.asks_password {
                let label = ui.label("Password (the server asks for one)");
                ui.add(egui::TextEdit::singleline(&mut f.password.0).password(true))
                    .labelled_by(label.id);
            }
            ui.horizontal(|ui| {
                if ui.button("Open").clicked() {
                    let password = (f.asks_password && !f.password.0.is_empty())
                        .then(|| std::mem::take(&mut f.password));
                    out.push(Command::OpenShared {
                        url: f.url.trim().to_string(),
                        password,
                    });
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if close {
        *form = None;
    }
}
