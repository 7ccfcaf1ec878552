//! Tonight for a Swiss event: a tick per player for a half-point bye and for withdrawing,
//! the next round as one button (paired by FIDE's Dutch System and saved), and the event's
//! standings with FIDE's tie-breaks and its crosstable. Part of the Tonight screen (its
//! state is [`TonightScreen`]); the pairing and the tie-breaks are the pairing crate's.

use super::state::AppState;
use eframe::egui::{self, RichText};
use rungs_ladder::event::PlayerId;
use rungs_pairing::crosstable::crosstable;
use rungs_pairing::night;
use rungs_pairing::tiebreaks::TieBreak;
use std::collections::BTreeSet;

/// The ticks beside a player in the present list: "½ bye" (asked for a half-point bye: not
/// paired, half a point) and "withdraws" (leaves the event before this round). Either
/// takes the player off the present list.
pub struct Ticks<'a> {
    pub present: &'a mut BTreeSet<PlayerId>,
    pub half_byes: &'a mut BTreeSet<PlayerId>,
    pub withdrawing: &'a mut BTreeSet<PlayerId>,
}

pub fn ticks(ui: &mut egui::Ui, me: Ticks<'_>, id: PlayerId) {
    let mut half = me.half_byes.contains(&id);
    if ui
        .checkbox(&mut half, "½ bye")
        .on_hover_text("Asked for a half-point bye: not paired this round, half a point")
        .changed()
    {
        if half {
            me.half_byes.insert(id);
            me.withdrawing.remove(&id);
            me.present.remove(&id);
        } else {
            me.half_byes.remove(&id);
        }
    }
    let mut out = me.withdrawing.contains(&id);
    if ui
        .checkbox(&mut out, "withdraws")
        .on_hover_text("Withdraws from the event before this round: paired no more")
        .changed()
    {
        if out {
            me.withdrawing.insert(id);
            me.half_byes.remove(&id);
            me.present.remove(&id);
        } else {
            me.withdrawing.remove(&id);
        }
    }
}

/// "Next round": whether it was clicked (the screen then pairs the latest Swiss event's next
/// round, or its first, for the players present, and saves it).
pub fn next_round(ui: &mut egui::Ui) -> bool {
    ui.button("Next round")
        .on_hover_text(
            "Pairs the Swiss event's next round by FIDE's rules (the Dutch System) for the \
             players present and saves it",
        )
        .clicked()
}

/// The latest Swiss event: standings by points with FIDE's default tie-breaks, and each
/// round's opponent (by place), colour and result.
pub fn event_table(ui: &mut egui::Ui, app: &AppState, book: &rungs_ladder::rounds::Book) {
    let Some((number, _)) = book.latest_swiss() else {
        return;
    };
    let event = night::read_event(&app.ladder, book, number);
    let order = TieBreak::SWISS_DEFAULT;
    let table = crosstable(&event.complete().players, &order);
    let rounds = event.complete_rounds().len();
    ui.separator();
    ui.label(
        RichText::new(format!(
            "{} · after {rounds} round{}",
            event
                .name
                .clone()
                .unwrap_or_else(|| format!("Swiss event of round {number}")),
            if rounds == 1 { "" } else { "s" }
        ))
        .strong(),
    );
    egui::ScrollArea::horizontal()
        .id_salt("tonight-crosstable")
        .show(ui, |ui| {
            egui::Grid::new("tonight-crosstable-grid")
                .striped(true)
                .show(ui, |ui| {
                    ui.label("#");
                    ui.label("Player");
                    for k in 0..rounds {
                        ui.label(format!("R{}", k + 1));
                    }
                    ui.label("Pts");
                    for t in &table.tiebreaks {
                        ui.label(t.abbreviation()).on_hover_text(t.name());
                    }
                    ui.end_row();
                    for row in &table.rows {
                        ui.label(row.place.to_string());
                        ui.label(row.name.as_str());
                        for c in &row.cells {
                            ui.label(c.text());
                        }
                        ui.label(RichText::new(points(row.points)).strong());
                        for (t, v) in table.tiebreaks.iter().zip(&row.tiebreaks) {
                            ui.label(t.format(*v));
                        }
                        ui.end_row();
                    }
                });
        });
    if let Some(&(r, b, _, _)) = event.missing.first() {
        ui.label(format!(
            "Round {r} shows here once every result is in (board {b} has none yet)."
        ));
    }
}

fn points(p: f64) -> String {
    if p.fract() == 0.0 {
        format!("{p:.0}")
    } else {
        format!("{p:.1}")
    }
}
