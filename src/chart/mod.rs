//! Plot data for the history and ladder-wide charts, as plain numbers (no drawing).
//!
//! The x-axis is either the date or the match number:
//! - by date, x is whole days since 1970-01-01 ([`date_x`]); every row of a day sits on that
//!   day, so several matches in one evening draw as a vertical run (the match-number axis is
//!   there for reading those apart). [`x_date`] and [`format_x`] turn an x back into a date.
//! - by match number, a player's k-th rated match is at x = k (cancelled matches make no row
//!   and so no number), the join at 0, and every other row (a reset, a migration, a change of
//!   system) at the previous match's number + 0.5 — the same place as its [`markers::Marker`]
//!   in that mode, so the jump a reset causes sits on its marker line.

pub mod axis;
pub mod band;
pub mod decimate;
pub mod distribution;
pub mod hover;
pub mod markers;
pub mod series;

pub use band::{BandMesh, band_mesh};
pub use decimate::{decimate, decimate_indices};
pub use markers::{LogIndex, Marker, MarkerKind, TierLine, tier_lines};
pub use series::{Band, PlayerSeries, RowKind, RowPoint, Segment};

use chrono::NaiveDate;

/// A place in replay order: (date, sequence number).
pub type Key = (NaiveDate, u64);

/// What the x-axis counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum XMode {
    #[default]
    Date,
    Match,
}

/// x of a date: days since 1970-01-01.
pub fn date_x(date: NaiveDate) -> f64 {
    f64::from(date.to_epoch_days())
}

/// The date an x falls on (rounded down to its day); `None` for an x no date has.
pub fn x_date(x: f64) -> Option<NaiveDate> {
    if !x.is_finite() || x.abs() > 1e8 {
        return None;
    }
    NaiveDate::from_epoch_days(x.floor() as i32)
}

/// An x as text: the date (`2026-11-20`) or the match number (`match 12`; between two
/// matches, `after match 12`).
pub fn format_x(x: f64, mode: XMode) -> String {
    match mode {
        XMode::Date => x_date(x).map_or_else(|| "—".to_string(), |d| d.to_string()),
        XMode::Match if !x.is_finite() => "—".to_string(),
        XMode::Match if x.fract() == 0.0 => format!("match {x:.0}"),
        XMode::Match => format!("after match {:.0}", x.floor().max(0.0)),
    }
}
