//! Small pieces the screens share: tier colours and badges, number formats, file dialogs.

use crate::interchange::csv_matches::Mapping;
use crate::ladder::skyweaver::Tier;
use eframe::egui::{self, Color32, RichText};
use std::path::{Path, PathBuf};

/// Each tier's colour: greys and greens low, blues and purples high, gold at the top.
pub fn tier_colour(tier: Tier) -> Color32 {
    match tier {
        Tier::Wanderer => Color32::from_rgb(140, 140, 140),
        Tier::TraineeI | Tier::TraineeII | Tier::TraineeIII => Color32::from_rgb(120, 170, 110),
        Tier::ApprenticeI | Tier::ApprenticeII | Tier::ApprenticeIII => {
            Color32::from_rgb(80, 160, 200)
        }
        Tier::ExpertI | Tier::ExpertII | Tier::ExpertIII => Color32::from_rgb(120, 110, 220),
        Tier::Master => Color32::from_rgb(200, 90, 200),
        Tier::Grandweaver => Color32::from_rgb(230, 180, 40),
    }
}

/// A tier's badge glyph: hollow low, filled higher, a diamond at the top.
pub fn tier_badge(tier: Tier) -> RichText {
    let glyph = match tier {
        Tier::Wanderer => "○",
        Tier::TraineeI | Tier::TraineeII | Tier::TraineeIII => "◔",
        Tier::ApprenticeI | Tier::ApprenticeII | Tier::ApprenticeIII => "◑",
        Tier::ExpertI | Tier::ExpertII | Tier::ExpertIII => "◕",
        Tier::Master => "●",
        Tier::Grandweaver => "◆",
    };
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
    crate::chart::hover::signed(d)
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

pub fn open_dialog(title: &str, extensions: &[&str]) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title(title)
        .add_filter("files", extensions)
        .pick_file()
}

pub fn save_dialog(title: &str, name: &str) -> Option<PathBuf> {
    rfd::FileDialog::new()
        .set_title(title)
        .set_file_name(name)
        .save_file()
}

/// The column mapping for a CSV: the international-results layout when its header names
/// `home_team`, else the standard one.
pub fn mapping_for_file(path: &Path) -> Mapping {
    use std::io::{BufRead, BufReader, Read};
    let Ok(file) = std::fs::File::open(path) else {
        return Mapping::standard();
    };
    let gz = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("gz"));
    let reader: Box<dyn Read> = if gz {
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    let mut first = String::new();
    let _ = BufReader::new(reader.take(64 * 1024)).read_line(&mut first);
    if first.to_lowercase().contains("home_team") {
        Mapping::international()
    } else {
        Mapping::standard()
    }
}

/// One event in words: "Ann beat Bo", "soft reset", "rules: elo".
pub fn event_line(
    ladder: &crate::ladder::replay::Ladder,
    event: &crate::ladder::event::Event,
) -> String {
    use crate::ladder::event::Event;
    let name = |id: u32| {
        ladder
            .player(id)
            .map_or("?".to_string(), |p| p.name.clone())
    };
    let side = |ids: &[u32]| ids.iter().map(|&i| name(i)).collect::<Vec<_>>().join(" + ");
    match event {
        Event::Match(m) => format!("{} {} {}", side(&m.a), m.result.verb(), side(&m.b)),
        Event::Player { name, .. } => format!("{name} joined"),
        Event::Rename { id, name: to } => format!("{} renamed {to}", name(*id)),
        Event::Retire { id, retired: true } => format!("{} retired", name(*id)),
        Event::Retire { id, retired: false } => format!("{} came back", name(*id)),
        Event::SoftReset => "soft reset".into(),
        Event::HardReset => "hard reset".into(),
        Event::Rules { rules } => format!("rules: {}", crate::ladder::evaluate::label(rules)),
        Event::Migration { migration } => {
            format!("migration from Elo ({} players)", migration.entries.len())
        }
        Event::Scenario { .. } => "scenario figures".into(),
    }
}
