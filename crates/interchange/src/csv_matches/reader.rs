//! [`MatchReader`]: reads a match CSV row by row, and keeps the table of the sides its rows
//! name.
use super::lines::LineTracker;
use super::mapping::{Columns, Mapping};
use super::record::{CsvError, CsvMatch, Side};
use super::words::{date_example, date_example_of, quote, read_error_message};
use chrono::NaiveDate;
use chrono::format::{Item, StrftimeItems};
use foldhash::{HashMap, HashMapExt};
use rungs_ladder::event::{EventClass, Home, MatchResult};
use rungs_ladder::values::PlayerName;
use std::io::Read;

/// Streams [`CsvMatch`]es from any reader. `file` is the name used in error messages.
///
/// A bad row yields an `Err` and reading goes on with the next row; an error reading the
/// underlying stream (I/O, corrupt gzip) yields one `Err` and ends the iteration.
pub struct MatchReader<R: Read> {
    csv: csv::Reader<LineTracker<R>>,
    pub(super) record: csv::ByteRecord,
    file: String,
    pub(super) cols: Columns,
    pub(super) date_format: String,
    /// `date_format`, parsed once.
    pub(super) date_items: Vec<Item<'static>>,
    /// Whether `date_format` is `%Y-%m-%d`, which has a fast path.
    pub(super) iso_dates: bool,
    /// The mapping's date format applied to 2024-03-01, if it can print a date alone.
    pub(super) date_example: Option<String>,
    /// Player cells already read, as written and trimmed: their place in `cells`.
    pub(super) cell_index: CellIndex,
    /// Each distinct player cell read: its side, and each name's comparison key by number
    /// (`keys`), so that a row's players are told apart without comparing text.
    pub(super) cells: Vec<(Side, Box<[u32]>)>,
    /// How many of `cells` `cell_index` finds (the first ones).
    pub(super) remembered: usize,
    /// The names' comparison keys met so far, numbered in the order met.
    pub(super) keys: HashMap<String, u32>,
    /// The last date cell read (at most 15 bytes, as [`CellIndex::short_key`]) and its date:
    /// a file in date order gives the same date to rows in a run.
    pub(super) last_date: Option<([u64; 2], NaiveDate)>,
    done: bool,
}

/// A data row as read, its sides numbered in the reader's table ([`MatchReader::side`]):
/// what [`CsvMatch`] holds, without a side's names.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub line: u64,
    pub date: NaiveDate,
    /// Side A and side B: indices into [`MatchReader::side`].
    pub a: u32,
    pub b: u32,
    pub result: MatchResult,
    pub medals: Option<rungs_ladder::values::Medals>,
    pub scenario: Option<String>,
    pub side_a: Option<String>,
    pub home: Option<Home>,
    pub goals: Option<[u32; 2]>,
    pub class: Option<EventClass>,
}

/// Cells by their bytes. A short cell (most names) is its own key, held in the table: looking
/// it up compares two numbers, not two strings one of which is elsewhere in memory.
#[derive(Default)]
pub(super) struct CellIndex {
    short: HashMap<[u64; 2], Found>,
    long: HashMap<Box<[u8]>, Found>,
}

/// A player cell read: its place in the table of sides, and its name's comparison key if it
/// names one player (else [`TEAM`]), so that most rows tell their two players apart here.
#[derive(Clone, Copy)]
pub(super) struct Found {
    pub(super) index: u32,
    pub(super) key: u32,
}

/// [`Found::key`] of a team.
pub(super) const TEAM: u32 = u32::MAX;

impl CellIndex {
    /// Up to 15 bytes and their length, as two numbers (little-endian, the length in the
    /// last byte). Read as two overlapping words, not copied byte by byte: a call to memcpy
    /// for six bytes was a fifth of the lookup.
    pub(super) fn short_key(b: &[u8]) -> Option<[u64; 2]> {
        let n = b.len();
        let word = |at: usize| -> u64 {
            let mut w = [0u8; 8];
            w.copy_from_slice(&b[at..at + 8]);
            u64::from_le_bytes(w)
        };
        let half = |at: usize| -> u64 {
            let mut w = [0u8; 4];
            w.copy_from_slice(&b[at..at + 4]);
            u64::from(u32::from_le_bytes(w))
        };
        // The bytes past the first word or half: the top ones of the last, overlapping.
        let (lo, hi) = match n {
            16.. => return None,
            8.. => (
                word(0),
                word(n - 8).checked_shr(8 * (16 - n) as u32).unwrap_or(0),
            ),
            4.. => (half(0) | (half(n - 4) >> (8 * (8 - n)) << 32), 0),
            _ => (b.iter().rev().fold(0, |k, &x| k << 8 | u64::from(x)), 0),
        };
        Some([lo, hi | (n as u64) << 56])
    }

    pub(super) fn get(&self, bytes: &[u8]) -> Option<&Found> {
        match Self::short_key(bytes) {
            Some(key) => self.short.get(&key),
            None => self.long.get(bytes),
        }
    }

    pub(super) fn insert(&mut self, bytes: &[u8], i: Found) {
        match Self::short_key(bytes) {
            Some(key) => self.short.insert(key, i),
            None => self.long.insert(bytes.into(), i),
        };
    }

    pub(super) fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }
}

impl<R: Read> MatchReader<R> {
    /// Reads and checks the header: every required column of `mapping` must be there (else a
    /// [`CsvError`] at the header's line naming the column and listing the header's columns).
    pub fn new(reader: R, file: &str, mapping: &Mapping) -> Result<Self, CsvError> {
        let file = &rungs_ladder::values::shown(file);
        let mut csv = csv::ReaderBuilder::new()
            .has_headers(false)
            .flexible(true)
            .buffer_capacity(64 * 1024)
            .from_reader(LineTracker::new(reader));
        let mut record = csv::ByteRecord::new();
        let err = |line: u64, field: &str, message: String| CsvError {
            file: file.to_string(),
            line,
            field: field.to_string(),
            message,
            problem: None,
        };

        let Ok(date_items) = StrftimeItems::new(&mapping.date_format).parse_to_owned() else {
            return Err(err(
                1,
                &mapping.date,
                format!(
                    "the mapping's date format {} is not a valid chrono format",
                    quote(&mapping.date_format)
                ),
            ));
        };
        let date_example = date_example(&date_items);
        // A format must name a whole day: `%Y` alone read every row as "not a valid date".
        let whole_day = NaiveDate::from_ymd_opt(2024, 3, 17).is_some_and(|d| {
            date_example_of(&date_items, d).is_some_and(|text| {
                NaiveDate::parse_and_remainder(&text, &mapping.date_format)
                    .is_ok_and(|(back, rest)| back == d && rest.is_empty())
            })
        });
        if !whole_day {
            return Err(err(
                1,
                &mapping.date,
                format!(
                    "the date format {} does not name a whole day: it needs a year, a month \
                     and a day, e.g. %d/%m/%Y",
                    quote(&mapping.date_format)
                ),
            ));
        }

        let start = csv.position().byte();
        match csv.read_byte_record(&mut record) {
            Ok(true) => {}
            Ok(false) => {
                return Err(err(
                    1,
                    "row",
                    "the file is empty: expected a header row naming the columns".into(),
                ));
            }
            Err(e) => {
                let tracker = csv.get_ref();
                let line = tracker.line_at(csv.position().byte());
                return Err(err(line, "row", read_error_message(&e, tracker.overlong)));
            }
        }
        let end = csv.position().byte();
        let header_line = csv.get_mut().record_line(start, end);

        let cols = Columns::from_header(&record, header_line, mapping, file)?;

        Ok(MatchReader {
            csv,
            record,
            file: file.to_string(),
            cols,
            date_format: mapping.date_format.clone(),
            date_items,
            iso_dates: mapping.date_format == "%Y-%m-%d",
            date_example,
            cell_index: CellIndex::default(),
            cells: Vec::new(),
            remembered: 0,
            keys: HashMap::new(),
            last_date: None,
            done: false,
        })
    }

    /// Bytes consumed so far (for progress bars), from the csv reader's position. For a
    /// gzipped file these are uncompressed bytes.
    pub fn bytes_read(&self) -> u64 {
        self.csv.position().byte()
    }

    pub(super) fn error(&self, line: u64, field: &str, message: String) -> CsvError {
        CsvError {
            file: self.file.clone(),
            line,
            field: field.to_string(),
            message,
            problem: None,
        }
    }

    /// The text of cell `idx` of the current record: `""` if the row is too short for it.
    pub(super) fn cell(&self, idx: usize, line: u64) -> Result<&str, CsvError> {
        let bytes = self.record.get(idx).unwrap_or_default();
        std::str::from_utf8(bytes).map(str::trim).map_err(|e| {
            self.error(
                line,
                self.cols.name(idx),
                format!(
                    "the cell is not valid UTF-8 (bad byte at offset {} of the cell); \
                     save the file as UTF-8",
                    e.valid_up_to()
                ),
            )
        })
    }

    /// Side `i` of the table of sides read ([`Row::a`], [`Row::b`]).
    pub fn side(&self, i: u32) -> &Side {
        &self.cells[i as usize].0
    }

    /// The sides read from the `from`th on (all of them: 0), for [`Row::a`] and [`Row::b`]
    /// while reading goes on.
    pub fn sides_from(&self, from: usize) -> Vec<Side> {
        let from = from.min(self.cells.len());
        self.cells[from..]
            .iter()
            .map(|(side, _)| side.clone())
            .collect()
    }

    /// The table of sides read, for [`Row::a`] and [`Row::b`] once reading is over.
    pub fn into_sides(self) -> Vec<Side> {
        self.cells.into_iter().map(|(side, _)| side).collect()
    }

    /// The header's names of the two player columns, for messages about players.
    pub fn player_fields(&self) -> [String; 2] {
        [
            self.cols.name(self.cols.player_a).to_string(),
            self.cols.name(self.cols.player_b).to_string(),
        ]
    }

    /// Turns the current record, which starts on `line`, into a row.
    fn parse_row(&mut self, line: u64) -> Result<Row, CsvError> {
        let cols = &self.cols;
        let len = self.record.len();
        let header_len = cols.names.len();

        if len < header_len {
            if let Some(missing) = cols.required().filter(|&i| i >= len).min() {
                let mut e = self.error(
                    line,
                    cols.name(missing),
                    format!(
                        "the row has {len} column{} but the header has {header_len}: \
                         no cell for `{}`",
                        if len == 1 { "" } else { "s" },
                        cols.name(missing)
                    ),
                );
                e.problem = Some(Box::new(super::record::CsvProblem::ShortRow {
                    column: cols.name(missing).to_string(),
                    cells: len,
                    header: header_len,
                }));
                return Err(e);
            }
        } else if len > header_len
            && self
                .record
                .iter()
                .skip(header_len)
                .any(|c| !c.trim_ascii().is_empty())
        {
            return Err(self.error(
                line,
                "row",
                format!(
                    "the row has {len} columns but the header has {header_len} \
                     (a cell with an unquoted comma?)"
                ),
            ));
        }

        let date = self.date(line)?;
        self.rest_of_row(line, date)
    }

    /// The current record after its date, `date`.
    fn rest_of_row(&mut self, line: u64, date: NaiveDate) -> Result<Row, CsvError> {
        let found_a = self.player(self.cols.player_a, line)?;
        let found_b = self.player(self.cols.player_b, line)?;
        let cols = &self.cols;
        let (a, b) = (found_a.index, found_b.index);
        if found_a.key == TEAM || found_b.key == TEAM || found_a.key == found_b.key {
            let (side_a, keys_a) = &self.cells[a as usize];
            let (side_b, keys_b) = &self.cells[b as usize];
            let everyone: Vec<(&PlayerName, u32)> = side_a
                .iter()
                .zip(keys_a.iter().copied())
                .chain(side_b.iter().zip(keys_b.iter().copied()))
                .collect();
            for (i, (p, key)) in everyone.iter().enumerate() {
                if let Some((q, _)) = everyone[i + 1..].iter().find(|(_, k)| k == key) {
                    return Err(self.error(
                        line,
                        cols.name(cols.player_b),
                        format!(
                            "the same player is in the match twice ({} and {})",
                            quote(p.as_str()),
                            quote(q.as_str())
                        ),
                    ));
                }
            }
        }

        let (result, kept) = self.result(line)?;
        let medals = self.medals(line)?;

        Ok(Row {
            line,
            date,
            a,
            b,
            result,
            medals,
            scenario: self.optional_text(cols.scenario, line)?,
            side_a: self.optional_text(cols.side_a, line)?,
            home: self.home(line)?,
            goals: match cols.score_goals {
                Some(ab) => self.score_cells(ab, line, result)?,
                None => kept,
            },
            class: self.class(line)?,
        })
    }
}

impl<R: Read> MatchReader<R> {
    /// The next row, its sides numbered in the table of sides read ([`MatchReader::side`]):
    /// what the iterator yields, without sharing out each row's sides.
    pub fn next_row(&mut self) -> Option<Result<Row, CsvError>> {
        if self.done {
            return None;
        }
        let start = self.csv.position().byte();
        match self.csv.read_byte_record(&mut self.record) {
            Ok(true) => {}
            Ok(false) => {
                self.done = true;
                return None;
            }
            Err(e) => {
                // After a read error the stream's state is unknown: report once and stop.
                self.done = true;
                let tracker = self.csv.get_ref();
                let line = tracker.line_at(self.csv.position().byte());
                let message = read_error_message(&e, tracker.overlong);
                return Some(Err(self.error(line, "row", message)));
            }
        }
        let end = self.csv.position().byte();
        let line = self.csv.get_mut().record_line(start, end);
        Some(self.parse_row(line))
    }
}

impl<R: Read> Iterator for MatchReader<R> {
    type Item = Result<CsvMatch, CsvError>;

    fn next(&mut self) -> Option<Self::Item> {
        let row = self.next_row()?;
        let m = row.map(|r| CsvMatch {
            line: r.line,
            date: r.date,
            player_a: self.side(r.a).clone(),
            player_b: self.side(r.b).clone(),
            result: r.result,
            medals: r.medals,
            scenario: r.scenario,
            side_a: r.side_a,
            home: r.home,
            goals: r.goals,
            class: r.class,
        });
        // Sides not remembered by their cell are not kept once handed out.
        self.cells.truncate(self.remembered);
        Some(m)
    }
}
