//! What a row of a match CSV becomes: a [`CsvMatch`], or a [`CsvError`] naming the file, the
//! line and the field; and the limits that keep a hostile file from costing without bound.

use chrono::NaiveDate;
use rungs_ladder::event::{EventClass, Home, MatchResult};
use rungs_ladder::values::PlayerName;
use std::sync::Arc;

/// The longest row a match CSV may have (a row with a team of a hundred long names is a few
/// kilobytes).
pub const MAX_ROW_BYTES: u64 = 1 << 20;

/// How many distinct player cells the reader remembers (each is parsed once).
pub(super) const MAX_CACHED_CELLS: usize = 1 << 20;

/// A side as read: one player, or a team (shared by every row with the same cell).
pub type Side = Arc<[PlayerName]>;

/// One parsed data row.
#[derive(Debug, Clone, PartialEq)]
pub struct CsvMatch {
    /// 1-based physical line number in the file where the row starts (the header is line 1).
    pub line: u64,
    pub date: NaiveDate,
    /// Side A: one name, or a team written `Ann,Bo` (names never hold a comma).
    pub player_a: Side,
    /// Side B, with no player of side A.
    pub player_b: Side,
    pub result: MatchResult,
    /// Both medal cells present, from 0 to 1000; `None` when both are absent or empty.
    pub medals: Option<rungs_ladder::values::Medals>,
    /// A valid label (see [`values::label`]); an empty cell is `None`.
    ///
    /// [`values::label`]: rungs_ladder::values::label
    pub scenario: Option<String>,
    /// A valid label; an empty cell is `None`.
    pub side_a: Option<String>,
    /// The side-advantage flag; no column or an empty cell is `None`.
    pub home: Option<Home>,
    /// Each side's points, when the result is read from two whole-number columns (a
    /// fractional score decides the result only).
    pub goals: Option<[u32; 2]>,
    /// The event's class; no column or an empty cell is `None`.
    pub class: Option<EventClass>,
}

/// A bad line: names file, line and field. For errors that are not about one cell (a missing
/// header column) `field` is the column name; for an unreadable file or row it is `row`.
/// Line 0 is the file as a whole (it cannot be opened): no line or field is named then.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{file}: {}{message}", if *line == 0 { String::new() } else { format!("line {line}, field `{field}`: ") })]
pub struct CsvError {
    pub file: String,
    pub line: u64,
    pub field: String,
    pub message: String,
    /// What is wrong as data, where a door says it in its own words; `None` where the
    /// message is all there is.
    /// (Boxed: an error is rare, and a row's `Result` stays small.)
    pub problem: Option<Box<CsvProblem>>,
}

/// The problems a door may word itself.
#[derive(Debug, Clone, PartialEq)]
pub enum CsvProblem {
    /// The file is not text (a picture, a spreadsheet's own format): its header is not UTF-8
    /// or holds control characters.
    NotText,
    /// A date cell that does not read in the mapping's format: the cell, and the format's
    /// example date ("2026-01-31").
    Date {
        text: String,
        example: Option<String>,
    },
    /// The header has no column of this name: the columns it has (the first 30, escaped
    /// and cut as a message quotes them) and how many more.
    MissingColumn {
        column: String,
        columns: Vec<String>,
        more: usize,
    },
    /// The header names a column twice, at these 1-based places.
    RepeatedColumn { column: String, places: [usize; 2] },
    /// One medal column without the other.
    HalfMedals { present: String, absent: String },
    /// A row with fewer cells than the header, none for this column.
    ShortRow {
        column: String,
        cells: usize,
        header: usize,
    },
}
