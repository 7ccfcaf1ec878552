//! The words of the reader's messages: a cell quoted, the columns a header has, an example of
//! the expected date, what the csv reader's own errors mean.

use super::record::MAX_ROW_BYTES;
use chrono::NaiveDate;
use chrono::format::Item;

/// How many header columns a "missing column" message lists.
const MAX_LISTED_COLUMNS: usize = 30;
/// How many characters of a cell an error message quotes.
const MAX_QUOTED_CHARS: usize = 60;

/// A cell's text in double quotes for a message: escaped, and cut if long.
pub(super) fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("\"{}{more}\"", head.escape_debug())
}

/// The header's columns a "missing column" message lists: the first 30, each escaped and
/// cut, and how many more there are (none listed when every name is empty).
pub(super) fn listed_columns(names: &[String]) -> (Vec<String>, usize) {
    if names.iter().all(String::is_empty) {
        return (Vec::new(), 0);
    }
    let list = names
        .iter()
        .take(MAX_LISTED_COLUMNS)
        .map(|n| {
            let mut chars = n.chars();
            let head: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
            let more = if chars.next().is_some() { "…" } else { "" };
            format!("{}{more}", head.escape_debug())
        })
        .collect();
    (list, names.len().saturating_sub(MAX_LISTED_COLUMNS))
}

/// The header's columns for a "missing column" message, as the command line lists them.
pub(super) fn list_columns(names: &[String]) -> String {
    let (listed, more) = listed_columns(names);
    if listed.is_empty() {
        return "(none)".into();
    }
    let mut list: Vec<String> = listed.iter().map(|n| format!("`{n}`")).collect();
    if more > 0 {
        list.push(format!("… ({more} more)"));
    }
    list.join(", ")
}

/// 2024-03-01 written in a date format, if the format can write a date alone.
pub(super) fn date_example(items: &[Item<'static>]) -> Option<String> {
    date_example_of(items, NaiveDate::from_ymd_opt(2024, 3, 1)?)
}

/// `day` written in the format `items`.
pub(super) fn date_example_of(items: &[Item<'static>], day: NaiveDate) -> Option<String> {
    use std::fmt::Write;
    let mut text = String::new();
    // `write!` (unlike `to_string`) reports a format needing a time as an error, not a panic.
    write!(text, "{}", day.format_with_items(items.iter())).ok()?;
    Some(text)
}

/// The message for an error from the csv reader: with `flexible` and byte records, an I/O
/// error (including a corrupt gzip stream), or a row past [`MAX_ROW_BYTES`] (`overlong`).
pub(super) fn read_error_message(e: &csv::Error, overlong: bool) -> String {
    if overlong {
        return format!(
            "the row runs on for more than {} MiB without ending; a match CSV has short rows \
             (is this the right file?)",
            MAX_ROW_BYTES >> 20
        );
    }
    match e.kind() {
        csv::ErrorKind::Io(io) => format!("cannot read the file: {io}"),
        _ => format!("cannot read the row: {e}"),
    }
}
