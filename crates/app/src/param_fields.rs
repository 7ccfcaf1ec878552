//! A system's parameters as a person types them: each by its label with a field of its own
//! (the code name and range under the pointer, the default as the field's hint; empty keeps
//! the default). What-if's rules B and Simulate's rules both take them this way, so nobody
//! has to know that "Starting RD" is `initial_deviation`.

use super::widgets;
use eframe::egui;
use rungs_ladder::rules::{Rules, System};
use std::collections::BTreeMap;

/// Each parameter's value as typed, by code name; a missing or empty entry is the default.
pub type Typed = BTreeMap<&'static str, String>;

/// The fields of `system`'s parameters, wrapped to the width, each label kept beside its
/// field; `defaults` gives the hints.
pub fn show(ui: &mut egui::Ui, system: System, typed: &mut Typed, defaults: &Rules) {
    ui.horizontal_wrapped(|ui| {
        for p in system.facts().params {
            // Each label with its field, to a new line together where the pair does not fit:
            // the line broke between them ("League weight" ending a line, its field starting
            // the next).
            let galley = egui::WidgetText::from(p.label).into_galley(
                ui,
                Some(egui::TextWrapMode::Extend),
                f32::INFINITY,
                egui::TextStyle::Body,
            );
            let pair = galley.size().x + 60.0 + 3.0 * ui.spacing().item_spacing.x;
            if ui.available_size_before_wrap().x < pair {
                ui.end_row();
            }
            let label = ui
                .label(galley)
                .on_hover_text(format!("{} — {}", p.name, p.range_text()));
            let hint = defaults
                .param(p.name)
                .map(widgets::number)
                .unwrap_or_default();
            let text = typed.entry(p.name).or_default();
            ui.add(
                egui::TextEdit::singleline(text)
                    .hint_text(hint)
                    .desired_width(60.0),
            )
            .labelled_by(label.id);
        }
    });
}

/// The values typed for `system`'s parameters as the gate's rules read them
/// (`name=value …`), empty fields left out.
pub fn assignments(system: System, typed: &Typed) -> String {
    system
        .facts()
        .params
        .iter()
        .filter_map(|p| {
            let v = typed.get(p.name)?.trim();
            (!v.is_empty()).then(|| format!("{}={v}", p.name))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Only the current system's typed fields count, empty ones not at all: an Elo K of 24
    /// typed, a Skyweaver value left from before the system changed, a blank.
    #[test]
    fn only_the_systems_typed_values_are_read() {
        let mut typed = Typed::new();
        typed.insert("k", " 24 ".into());
        typed.insert("initial_deviation", "300".into());
        typed.insert("initial_rating", "".into());
        assert_eq!(assignments(System::Elo, &typed), "k=24");
        assert_eq!(
            assignments(System::Skyweaver, &typed),
            "initial_deviation=300"
        );
    }
}
