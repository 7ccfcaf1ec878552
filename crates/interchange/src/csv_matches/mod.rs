//! Match CSV import (SPEC §4): a streaming parser that turns rows of a match file into
//! [`CsvMatch`]es, or into [`CsvError`]s that name the file, the physical line and the field.
//!
//! Columns are found by header text through a [`Mapping`]: [`Mapping::standard`] reads the
//! SPEC §4 format (`date,player_a,player_b,score` with optional `medals_a,medals_b,scenario,side_a`,
//! and `home`: `a`, `b` or `neutral`, SPEC §2.6), [`Mapping::international`] reads
//! `international_results.csv` (bundled under `assets/`; the home team is side A, at home
//! unless `neutral` is TRUE).
//!
//! Reading never collects the file and never panics on its content: every problem is a
//! [`CsvError`], and a bad row does not stop the rows after it. A row longer than
//! [`MAX_ROW_BYTES`] is refused before it is held (`/dev/zero` is not a match file). A player
//! cell is read once per distinct text: a million rows among ten thousand players parse ten
//! thousand names, and every row with the same cell shares them.

mod cells;
mod lines;
mod mapping;
mod reader;
#[cfg(test)]
mod tests;

pub use mapping::{HomeColumn, Mapping, ResultColumns, class_of_tournament};
pub use reader::{MatchReader, Row};

use chrono::NaiveDate;
use rungs_ladder::event::{EventClass, Home, MatchResult};
use rungs_ladder::values::PlayerName;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

/// The longest row a match CSV may have (a row with a team of a hundred long names is a few
/// kilobytes).
pub const MAX_ROW_BYTES: u64 = 1 << 20;

/// How many distinct player cells the reader remembers (each is parsed once).
const MAX_CACHED_CELLS: usize = 1 << 20;

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
}

/// Opens a path, transparently gunzipping if the name ends in `.gz`. The path as displayed is
/// the file name in error messages; a file that cannot be opened is an error of the whole
/// file (line 0).
pub fn open(path: &Path, mapping: &Mapping) -> Result<MatchReader<Box<dyn Read>>, CsvError> {
    let name = rungs_ladder::values::shown(&path.display().to_string()).into_owned();
    let file = std::fs::File::open(path).map_err(|e| CsvError {
        file: name.clone(),
        line: 0,
        field: "file".into(),
        message: format!("cannot be opened: {e}"),
    })?;
    let gzipped = path
        .extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("gz"));
    let reader: Box<dyn Read> = if gzipped {
        // MultiGzDecoder also reads files made by concatenating .gz files.
        Box::new(flate2::read::MultiGzDecoder::new(file))
    } else {
        Box::new(file)
    };
    MatchReader::new(reader, &name, mapping)
}
