//! A text field that offers player names. Tab completes to the best offer — the exact name,
//! else the best name starting with what is typed, else the offer highlighted with ↑ ↓ —
//! and hands the keyboard on; the caller decides where (the next field of its form), so the
//! keyboard never lands on a button by accident.

use eframe::egui::{self, EventFilter, Key, RichText};
use rungs_ladder::replay::Ladder;

/// Names of `ladder`'s joined players to offer for `prefix`, best first: the exact name, then
/// names starting with `prefix`, then names containing it. Among those that start alike, the
/// player with more matches comes first (the regular, not the one-off: "Germ" offers Germany
/// before German DR), then the shorter name.
pub fn suggestions(ladder: &Ladder, prefix: &str, limit: usize) -> Vec<String> {
    let key = prefix.trim().to_lowercase();
    if key.is_empty() {
        return Vec::new();
    }
    let mut found: Vec<(u8, std::cmp::Reverse<u32>, usize, String)> = Vec::new();
    for p in ladder.players.iter().filter(|p| p.joined) {
        let name = p.name.to_lowercase();
        let rank = if name == key {
            0
        } else if name.starts_with(&key) {
            1
        } else if name.contains(&key) {
            2
        } else {
            continue;
        };
        found.push((
            rank,
            std::cmp::Reverse(p.matches),
            name.len(),
            p.name.clone(),
        ));
    }
    found.sort();
    found.into_iter().take(limit).map(|f| f.3).collect()
}

/// What happened in a picker this frame.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Picked {
    /// Tab (false) or Shift+Tab (true) was pressed in the field, after completing it.
    pub tab: Option<bool>,
    pub focused: bool,
}

/// The field labelled `label` with id `id`; `offers` best first (see [`suggestions`]);
/// `highlight` the offer ↑ ↓ picked.
pub fn name_picker(
    ui: &mut egui::Ui,
    label: &str,
    id: egui::Id,
    text: &mut String,
    highlight: &mut usize,
    offers: &[String],
    width: f32,
) -> Picked {
    let mut out = Picked::default();
    let exact = offers
        .first()
        .is_some_and(|o| o.to_lowercase() == text.trim().to_lowercase());
    ui.vertical(|ui| {
        let name = ui.label(label);
        let focused = ui.memory(|m| m.has_focus(id));
        if focused {
            let (down, up, tab, shift) = ui.input(|i| {
                (
                    i.key_pressed(Key::ArrowDown),
                    i.key_pressed(Key::ArrowUp),
                    i.key_pressed(Key::Tab),
                    i.modifiers.shift,
                )
            });
            if down && !offers.is_empty() {
                *highlight = (*highlight + 1).min(offers.len() - 1);
            }
            if up {
                *highlight = highlight.saturating_sub(1);
            }
            if tab {
                if !shift && !text.trim().is_empty() && !offers.is_empty() {
                    *text = offers[(*highlight).min(offers.len() - 1)].clone();
                }
                out.tab = Some(shift);
                carry_after_tab(ui);
            } else {
                type_carried(ui);
            }
        }
        let response = ui
            .add(
                egui::TextEdit::singleline(text)
                    .id(id)
                    .hint_text("type a name, Tab completes")
                    .desired_width(width),
            )
            .labelled_by(name.id);
        if response.changed() {
            *highlight = 0;
        }
        out.focused = response.has_focus();
        if out.focused {
            // Tab and the arrows stay with the field: the form moves the keyboard itself.
            ui.memory_mut(|m| {
                m.set_focus_lock_filter(
                    id,
                    EventFilter {
                        tab: true,
                        horizontal_arrows: true,
                        vertical_arrows: true,
                        escape: false,
                    },
                )
            });
        }
        let typed = !text.trim().is_empty();
        if out.focused && typed && !exact && !offers.is_empty() {
            ui.horizontal_wrapped(|ui| {
                ui.set_max_width(width.max(160.0));
                for (i, offer) in offers.iter().enumerate().take(6) {
                    let shown = if i == *highlight {
                        RichText::new(offer).strong().underline()
                    } else {
                        RichText::new(offer)
                    };
                    // Offers take clicks, not the keyboard: Tab goes to the next field.
                    let r = ui.add(egui::Label::new(shown).sense(egui::Sense::CLICK));
                    if r.clicked() {
                        *text = offer.clone();
                    }
                }
            });
        } else if typed && !exact && !out.focused {
            ui.colored_label(ui.visuals().warn_fg_color, "no such player");
        }
    });
    out
}

/// Text typed after Tab in the same frame belongs to the next field: a quick "Spai⇥Portu"
/// arrives at once, and the completed "Spain" would take the P ("SpaiPn"). It waits for the
/// next frame (`type_carried`), when the next field has the keyboard.
fn carry_after_tab(ui: &egui::Ui) {
    let carried = ui.ctx().input_mut(|i| {
        let tab = |e: &egui::Event| {
            matches!(
                e,
                egui::Event::Key {
                    key: Key::Tab,
                    pressed: true,
                    ..
                }
            )
        };
        let Some(at) = i.events.iter().position(tab) else {
            return String::new();
        };
        let mut carried = String::new();
        let events = std::mem::take(&mut i.events);
        for (n, e) in events.into_iter().enumerate() {
            match e {
                egui::Event::Text(t) if n > at => carried.push_str(&t),
                e => i.events.push(e),
            }
        }
        carried
    });
    if !carried.is_empty() {
        let pass = ui.ctx().cumulative_pass_nr();
        ui.data_mut(|d| d.insert_temp(egui::Id::unique(CARRY), (pass, carried)));
    }
}

/// Types what [`carry_after_tab`] held into the field that now has the keyboard; held longer
/// than a frame or two (the keyboard went elsewhere), it is dropped.
fn type_carried(ui: &egui::Ui) {
    let Some((pass, text)) =
        ui.data_mut(|d| d.remove_temp::<(u64, String)>(egui::Id::unique(CARRY)))
    else {
        return;
    };
    if pass + 3 >= ui.ctx().cumulative_pass_nr() && !text.is_empty() {
        ui.ctx()
            .input_mut(|i| i.events.insert(0, egui::Event::Text(text)));
    }
}

const CARRY: &str = "picker-carried-text";
