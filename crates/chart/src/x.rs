//! The x-axis as numbers: what it counts ([`XMode`]), a place in replay order ([`Key`]),
//! and dates to x and back. A leaf: every other chart module reads it, it reads none.

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
