//! Small pieces the screens share: tier colours and badges, number formats, events in words.

use eframe::egui::{self, Color32, RichText};
use rungs_ladder::event::PlayerId;
use rungs_ladder::skyweaver::Tier;

/// Each tier's colour: greys and greens low, blues and purples high, gold at the top.
pub fn tier_colour(tier: Tier) -> Color32 {
    let [r, g, b] = rungs_chart::markers::tier_rgb(tier);
    Color32::from_rgb(r, g, b)
}

/// A tier's badge glyph: hollow low, filled higher, a diamond at the top.
pub fn tier_badge(tier: Tier) -> RichText {
    let glyph = rungs_chart::markers::tier_glyph(tier);
    RichText::new(glyph).color(tier_colour(tier)).strong()
}

/// 1234567 → "1,234,567".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

pub fn bytes(n: u64) -> String {
    if n >= 1 << 20 {
        format!("{:.1} MiB", n as f64 / (1u64 << 20) as f64)
    } else {
        format!("{:.0} KiB", n as f64 / 1024.0)
    }
}

/// A signed change, "+7", "−14", "±0" ("—" for no number).
pub fn delta(d: f64) -> String {
    rungs_chart::hover::signed(d)
}

pub fn delta_colour(ui: &egui::Ui, d: f64) -> Color32 {
    if d > 0.5 {
        Color32::from_rgb(80, 180, 90)
    } else if d < -0.5 {
        ui.visuals().error_fg_color
    } else {
        ui.visuals().weak_text_color()
    }
}

/// One event in words, its players named as `ladder` names them: "Ann beat Bo", "soft
/// reset", "rules: elo".
pub fn event_line(
    ladder: &rungs_ladder::replay::Ladder,
    event: &rungs_ladder::event::Event,
) -> String {
    let name = |id: PlayerId| {
        ladder
            .player(id)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    rungs_ladder::words::event(event, &name)
}

/// A small table of text: aligned, resizable columns (egui_extras), striped, scrolling
/// sideways when the window is narrower than it. `widths` are the columns' first widths.
pub fn text_table(
    ui: &mut egui::Ui,
    id: &str,
    headers: &[&str],
    widths: &[f32],
    rows: &[Vec<String>],
) {
    use egui_extras::{Column, TableBuilder};
    let row = ui.text_style_height(&egui::TextStyle::Body) + 4.0;
    egui::ScrollArea::horizontal()
        .id_salt((id, "sideways"))
        .show(ui, |ui| {
            let mut table = TableBuilder::new(ui)
                .id_salt(id)
                .striped(true)
                .resizable(true)
                .vscroll(false);
            for w in widths {
                table = table.column(Column::initial(*w).at_least(40.0).clip(true));
            }
            table
                .header(row + 2.0, |mut h| {
                    for title in headers {
                        h.col(|ui| {
                            ui.strong(*title);
                        });
                    }
                })
                .body(|body| {
                    body.rows(row, rows.len(), |mut r| {
                        for cell in &rows[r.index()] {
                            r.col(|ui| {
                                ui.label(cell);
                            });
                        }
                    });
                });
        });
}

/// A number as a person reads it: whole numbers without ".0", others in full.
pub fn number(v: f64) -> String {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{v:.0}")
    } else {
        format!("{v}")
    }
}

/// What a match's result row was told: a result (`"1"`, `"0.5"`, `"0"` from the first side's
/// view, or `""` where Enter in the score field lets the score decide), or Cancel.
pub enum ResultRow {
    Said(&'static str),
    Cancel,
}

/// A score field and the result buttons of a match between `first` and `second`, on one
/// line: the challenge ladder's and the box league's result forms. `focus` puts the keyboard
/// in the field once.
pub fn result_row(
    ui: &mut egui::Ui,
    label: &str,
    hint: &str,
    games: &mut String,
    focus: &mut bool,
    first: &str,
    second: &str,
) -> Option<ResultRow> {
    let label = ui.label(label);
    let field = ui
        .add(
            egui::TextEdit::singleline(games)
                .hint_text(hint)
                .desired_width(170.0),
        )
        .labelled_by(label.id);
    if std::mem::take(focus) {
        field.request_focus();
    }
    let mut said = None;
    if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        said = Some(ResultRow::Said(""));
    }
    if ui.button(format!("{first} wins")).clicked() {
        said = Some(ResultRow::Said("1"));
    }
    if ui.button("Draw").clicked() {
        said = Some(ResultRow::Said("0.5"));
    }
    if ui.button(format!("{second} wins")).clicked() {
        said = Some(ResultRow::Said("0"));
    }
    if ui.button("Cancel").clicked() {
        said = Some(ResultRow::Cancel);
    }
    said
}
