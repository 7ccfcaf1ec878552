//! Driving the app in tests as a person would: the harness on a ladder file, typing into a
//! field found by its label, clicking. (Used by the app tests only.)

use eframe::egui::{self, Key, Modifiers, accesskit::Role};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use rungs_app::RungsApp;
use rungs_app::files::Native;
use rungs_app::state::AppState;
use std::path::Path;

/// The app on the ladder at `path`, its own data directory beside it.
pub fn open(path: &Path, size: egui::Vec2) -> Harness<'static, RungsApp> {
    open_with(path, size, true)
}

/// [`open`], with kittest's check that every widget has an accessible name on or off.
pub fn open_with(path: &Path, size: egui::Vec2, accessibility: bool) -> Harness<'static, RungsApp> {
    open_in(&path.with_file_name("data"), path, size, accessibility)
}

/// The app on the ladder at `path` with `data` as its own directory (where new ladders and
/// the demo go).
pub fn open_in(
    data: &Path,
    path: &Path,
    size: egui::Vec2,
    accessibility: bool,
) -> Harness<'static, RungsApp> {
    let mut state = AppState::open_or_create(data.to_path_buf(), path);
    assert!(state.error().is_none(), "{:?}", state.error());
    // Tests never open the system's file dialog: the app's own picker stands in.
    state.picker.native = Native::Unavailable("tests use the app's own picker".into());
    Harness::builder()
        .with_size(size)
        .with_max_steps(30)
        .with_accessibility_check(accessibility)
        .build_ui_state(
            |ui, app: &mut RungsApp| app.frame(ui),
            RungsApp::with_state(state),
        )
}

/// Replaces the text of the field labelled `label` with `text`.
pub fn type_into(h: &mut Harness<'_, RungsApp>, label: &str, text: &str) {
    h.get_by_role_and_label(Role::TextInput, label).focus();
    h.run();
    h.key_press_modifiers(Modifiers::COMMAND, Key::A);
    h.get_by_role_and_label(Role::TextInput, label)
        .type_text(text);
    h.run();
}

/// Clicks and draws; a job the click starts keeps the window repainting until it lands,
/// so running out of steps then is expected.
pub fn click(h: &mut Harness<'_, RungsApp>, label: &str) {
    h.get_by_label(label).click();
    let _ = h.try_run();
}
