//! Ladder-wide charts: players per tier (a bar chart in tier colours) and the distribution of
//! ratings (a histogram). Both draw whatever ladder they are given, so on the Replay screen
//! they follow the timeline.

use super::widgets;
use crate::chart::distribution;
use crate::chart::series::rating_axis;
use crate::ladder::replay::Ladder;
use crate::ladder::standings::Standing;
use eframe::egui;
use egui_plot::{Bar, BarChart, Plot};

/// The charts for `ladder`, whose standings (tiers included) are `rows`.
pub fn ladder_wide(ui: &mut egui::Ui, ladder: &Ladder, rows: &[Standing]) {
    let tiers = distribution::count_tiers(&ladder.rules, rows);
    let hist = distribution::rating_histogram(ladder, None);
    let height = (ui.available_height() - 30.0).clamp(160.0, 420.0);
    ui.columns(if tiers.is_empty() { 1 } else { 2 }, |cols| {
        if !tiers.is_empty() {
            let ui = &mut cols[0];
            ui.strong("Players per tier");
            // Horizontal bars, highest tier on top: every tier's name fits beside its bar.
            let bars: Vec<Bar> = tiers
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    Bar::new(i as f64, t.count as f64)
                        .width(0.8)
                        .name(t.tier.name())
                        .fill(widgets::tier_colour(t.tier))
                })
                .collect();
            let names: Vec<&'static str> = tiers.iter().map(|t| t.tier.name()).collect();
            let count = names.len();
            Plot::new("tiers-chart")
                .height(height)
                .allow_scroll(false)
                .x_axis_label("players")
                .y_grid_spacer(move |_| {
                    (0..count)
                        .map(|i| egui_plot::GridMark {
                            value: i as f64,
                            step_size: 1.0,
                        })
                        .collect()
                })
                .y_axis_formatter(move |mark, _| {
                    let i = mark.value.round();
                    match names.get(i as usize) {
                        Some(n) if (mark.value - i).abs() < 1e-9 && i >= 0.0 => n.to_string(),
                        _ => String::new(),
                    }
                })
                .y_axis_min_width(90.0)
                .show(ui, |p| {
                    p.bar_chart(BarChart::new("players per tier", bars).horizontal())
                });
        }
        let ui = cols.last_mut().map(|c| &mut *c);
        let Some(ui) = ui else { return };
        ui.strong(format!(
            "Rating distribution ({} players, bins of {})",
            widgets::thousands(hist.total() as u64),
            hist.width
        ));
        let bars: Vec<Bar> = hist
            .bins()
            .map(|(x, n)| {
                Bar::new(x, n as f64)
                    .width(hist.width * 0.95)
                    .fill(egui::Color32::from_rgb(70, 140, 230).gamma_multiply(0.6))
            })
            .collect();
        Plot::new("rating-histogram")
            .height(height)
            .allow_scroll(false)
            .x_axis_label(rating_axis(ladder.rules.system()))
            .y_axis_label("players")
            .show(ui, |p| p.bar_chart(BarChart::new("players", bars)));
    });
}
