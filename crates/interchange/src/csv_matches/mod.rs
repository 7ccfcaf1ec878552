//! Match CSV import: a streaming parser that turns rows of a match file into
//! [`CsvMatch`]es, or into [`CsvError`]s that name the file, the physical line and the field.
//!
//! Columns are found by header text through a [`Mapping`]: [`Mapping::standard`] reads the
//! standard layout (`date,player_a,player_b,score` with optional
//! `medals_a,medals_b,scenario,side_a`, and the side-advantage flag `home`: `a`, `b` or
//! `neutral`), [`Mapping::international`] reads `international_results.csv` (bundled under
//! `assets/`; the home team is side A, at home unless `neutral` is TRUE).
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
mod record;
#[cfg(test)]
mod tests;
mod words;

pub use mapping::{HomeColumn, Mapping, ResultColumns, class_of_tournament};
pub use reader::{MatchReader, Row};
pub use record::{CsvError, CsvMatch, CsvProblem, MAX_ROW_BYTES, Side};

use std::io::Read;
use std::path::Path;

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
        problem: None,
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
