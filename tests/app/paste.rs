//! Text pasted from another program (egui's paste event, what Ctrl+V gives a field when the
//! system clipboard holds text) reaches the field it is pasted into.

use eframe::egui::{self, Key, accesskit::Role};
use egui_kittest::kittest::Queryable;
use rungs_ladder::rules::Rules;
use rungs_store::Store;

use crate::support;
use crate::support::app as app_support;
use app_support::click;
use support::TempDir as Temp;

/// A 3-name list pasted into Players → Several at once… adds the three (blank lines and
/// spaces dropped); a name pasted into New player, with the line end a spreadsheet's cell
/// carries, is added by Enter under that name (a one-line field takes the line end as a
/// space, which the name's trimming drops).
#[test]
fn a_list_and_a_name_pasted_from_outside_are_added() {
    let dir = Temp::new("paste");
    let path = dir.0.join("club.rungs");
    Store::create(&path, &Rules::default()).unwrap();
    let mut h = app_support::open(&path, egui::vec2(1400.0, 900.0));
    click(&mut h, "Add players");
    click(&mut h, "Several at once…");
    let list = "New players, one per line:";
    h.get_by_role_and_label(Role::MultilineTextInput, list)
        .focus();
    h.run();
    h.event(egui::Event::Paste(
        "Ann Lee\nBo Chen\n\n  Cy Diaz \n".into(),
    ));
    h.run();
    click(&mut h, "Add 3 players");
    let names = |h: &egui_kittest::Harness<'_, rungs_app::RungsApp>| -> Vec<String> {
        let s = &h.state().state;
        s.ladder
            .players
            .iter()
            .filter(|p| p.joined)
            .map(|p| p.name.clone())
            .collect()
    };
    assert_eq!(h.state().state.error(), None);
    assert_eq!(names(&h), ["Ann Lee", "Bo Chen", "Cy Diaz"]);
    h.get_by_role_and_label(Role::TextInput, "New player:")
        .focus();
    h.run();
    h.event(egui::Event::Paste("Dee Eve\n".into()));
    h.run();
    h.key_press(Key::Enter);
    h.run();
    assert_eq!(h.state().state.error(), None);
    assert_eq!(names(&h), ["Ann Lee", "Bo Chen", "Cy Diaz", "Dee Eve"]);
}
