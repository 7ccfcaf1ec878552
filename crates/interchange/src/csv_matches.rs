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

use chrono::NaiveDate;
use chrono::format::{Item, Parsed, StrftimeItems};
use foldhash::{HashMap, HashMapExt};
use rungs_ladder::event::{EventClass, Home, MatchResult};
use rungs_ladder::score;
use rungs_ladder::values::{self, Day, PlayerName};
use rungs_rating::Outcome;
use std::collections::VecDeque;
use std::io::{self, Read};
use std::path::Path;
use std::sync::Arc;

/// The longest row a match CSV may have (a row with a team of a hundred long names is a few
/// kilobytes).
pub const MAX_ROW_BYTES: u64 = 1 << 20;

/// How many distinct player cells the reader remembers (each is parsed once).
const MAX_CACHED_CELLS: usize = 1 << 20;

/// A side as read: one player, or a team (shared by every row with the same cell).
pub type Side = Arc<[PlayerName]>;

/// Which columns hold what. Columns are named by header text (case-insensitive, trimmed).
#[derive(Debug, Clone, PartialEq)]
pub struct Mapping {
    /// The match date; default `date`.
    pub date: String,
    /// Side A; default `player_a`.
    pub player_a: String,
    /// Side B; default `player_b`.
    pub player_b: String,
    /// How the result is read.
    pub result: ResultColumns,
    /// Side A's medals (Memoir '44). Used only if the header has the column; if the header has
    /// one of the two medal columns it must have both.
    pub medals_a: Option<String>,
    /// Side B's medals.
    pub medals_b: Option<String>,
    /// The scenario played. Used only if the header has the column.
    pub scenario: Option<String>,
    /// The scenario side A played. Used only if the header has the column.
    pub side_a: Option<String>,
    /// Where the side-advantage flag is read (SPEC §2.6). Used only if the header has the
    /// column; without it every match is unflagged (no advantage).
    pub home: Option<HomeColumn>,
    /// The event's class (issue 26): `friendly`, `league`, `cup`, `championship`, a weight,
    /// or a tournament's name, mapped by [`class_of_tournament`]. Used only if the header has
    /// the column; without it no match has a class.
    pub class: Option<String>,
    /// With a score column: two columns holding each side's points (`goals_a,goals_b`, what
    /// `rungs export` writes for a ladder with scores). Used only if the header has both.
    pub score_goals: Option<[String; 2]>,
    /// Date format for chrono, default `%Y-%m-%d`.
    pub date_format: String,
    /// The columns a person named for this file (an import's column options): each must be
    /// in the header and be read as one thing only — an optional column named and missing is
    /// refused, not passed over as a default's absence is.
    pub named: Vec<String>,
}

/// Where a match's side-advantage flag is read from.
#[derive(Debug, Clone, PartialEq)]
pub enum HomeColumn {
    /// Which side is at home or moves first: `a`, `b` or `neutral`; an empty cell is no flag.
    Side(String),
    /// Whether the ground is neutral, as `international_results.csv` says it: `TRUE` is
    /// neutral ground, `FALSE` puts side A at home (also yes/no, 1/0); an empty cell is no
    /// flag.
    Neutral(String),
}

/// Where the result of a match is read from.
#[derive(Debug, Clone, PartialEq)]
pub enum ResultColumns {
    /// One column with a score from A's view, parsed by [`MatchResult::parse`].
    Score(String),
    /// Two numeric columns (goals, points): the higher wins, equal is a draw.
    Goals { a: String, b: String },
}

impl Mapping {
    /// SPEC §4 columns: `date,player_a,player_b,score` with optional
    /// `medals_a,medals_b,scenario,side_a`.
    pub fn standard() -> Mapping {
        Mapping {
            date: "date".into(),
            player_a: "player_a".into(),
            player_b: "player_b".into(),
            result: ResultColumns::Score("score".into()),
            medals_a: Some("medals_a".into()),
            medals_b: Some("medals_b".into()),
            scenario: Some("scenario".into()),
            side_a: Some("side_a".into()),
            home: Some(HomeColumn::Side("home".into())),
            class: Some("class".into()),
            score_goals: Some(["goals_a".into(), "goals_b".into()]),
            date_format: "%Y-%m-%d".into(),
            named: Vec::new(),
        }
    }

    /// The preset for `international_results.csv`: `date`, `home_team`, `away_team`,
    /// `home_score`, `away_score`, and `neutral`: the home team, side A, is at home unless
    /// `neutral` is TRUE (the other columns are ignored).
    pub fn international() -> Mapping {
        Mapping {
            date: "date".into(),
            player_a: "home_team".into(),
            player_b: "away_team".into(),
            result: ResultColumns::Goals {
                a: "home_score".into(),
                b: "away_score".into(),
            },
            medals_a: None,
            medals_b: None,
            scenario: None,
            side_a: None,
            home: Some(HomeColumn::Neutral("neutral".into())),
            class: Some("tournament".into()),
            score_goals: None,
            date_format: "%Y-%m-%d".into(),
            named: Vec::new(),
        }
    }
}

/// The class of a tournament by its name, as `international_results.csv` writes them:
/// `Friendly` is friendly; every qualification is league (a long round of group games);
/// the finals of the World Cup, the continental championships and the Confederations Cup are
/// championship; every other tournament (Nations Leagues, regional cups, games) is cup.
pub fn class_of_tournament(name: &str) -> EventClass {
    const CHAMPIONSHIPS: [&str; 9] = [
        "FIFA World Cup",
        "UEFA Euro",
        "Copa América",
        "African Cup of Nations",
        "AFC Asian Cup",
        "Gold Cup",
        "CONCACAF Championship",
        "Oceania Nations Cup",
        "Confederations Cup",
    ];
    let name = name.trim();
    if name.eq_ignore_ascii_case("friendly") {
        EventClass::Friendly
    } else if name.to_ascii_lowercase().contains("qualification") {
        EventClass::League
    } else if CHAMPIONSHIPS.iter().any(|c| c.eq_ignore_ascii_case(name)) {
        EventClass::Championship
    } else {
        EventClass::Cup
    }
}

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
    pub medals: Option<[f64; 2]>,
    /// A valid label (see [`values::label`]); an empty cell is `None`.
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

/// The forms [`MatchResult::parse`] accepts, for error messages.
const ACCEPTED_SCORES: &str = "1, 0.5 or 0 (A won, draw, A lost), A, B, draw \
    (also D, 1-0, 0-1, ½, win, loss), forfeit-a, forfeit-b, cancelled";

/// How many header columns a "missing column" message lists.
const MAX_LISTED_COLUMNS: usize = 30;
/// How many characters of a cell an error message quotes.
const MAX_QUOTED_CHARS: usize = 60;

/// Streams [`CsvMatch`]es from any reader. `file` is the name used in error messages.
///
/// A bad row yields an `Err` and reading goes on with the next row; an error reading the
/// underlying stream (I/O, corrupt gzip) yields one `Err` and ends the iteration.
pub struct MatchReader<R: Read> {
    csv: csv::Reader<LineTracker<R>>,
    record: csv::ByteRecord,
    file: String,
    cols: Columns,
    date_format: String,
    /// `date_format`, parsed once.
    date_items: Vec<Item<'static>>,
    /// Whether `date_format` is `%Y-%m-%d`, which has a fast path.
    iso_dates: bool,
    /// The mapping's date format applied to 2024-03-01, if it can print a date alone.
    date_example: Option<String>,
    /// Player cells already read, as written and trimmed: their place in `cells`.
    cell_index: CellIndex,
    /// Each distinct player cell read: its side, and each name's comparison key by number
    /// (`keys`), so that a row's players are told apart without comparing text.
    cells: Vec<(Side, Box<[u32]>)>,
    /// How many of `cells` `cell_index` finds (the first ones).
    remembered: usize,
    /// The names' comparison keys met so far, numbered in the order met.
    keys: HashMap<String, u32>,
    /// The last date cell read (at most 15 bytes, as [`CellIndex::short_key`]) and its date:
    /// a file in date order gives the same date to rows in a run.
    last_date: Option<([u64; 2], NaiveDate)>,
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
    pub medals: Option<[f64; 2]>,
    pub scenario: Option<String>,
    pub side_a: Option<String>,
    pub home: Option<Home>,
    pub goals: Option<[u32; 2]>,
    pub class: Option<EventClass>,
}

/// Cells by their bytes. A short cell (most names) is its own key, held in the table: looking
/// it up compares two numbers, not two strings one of which is elsewhere in memory.
#[derive(Default)]
struct CellIndex {
    short: HashMap<[u64; 2], Found>,
    long: HashMap<Box<[u8]>, Found>,
}

/// A player cell read: its place in the table of sides, and its name's comparison key if it
/// names one player (else [`TEAM`]), so that most rows tell their two players apart here.
#[derive(Clone, Copy)]
struct Found {
    index: u32,
    key: u32,
}

/// [`Found::key`] of a team.
const TEAM: u32 = u32::MAX;

impl CellIndex {
    /// Up to 15 bytes and their length, as two numbers (little-endian, the length in the
    /// last byte). Read as two overlapping words, not copied byte by byte: a call to memcpy
    /// for six bytes was a fifth of the lookup.
    fn short_key(b: &[u8]) -> Option<[u64; 2]> {
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

    fn get(&self, bytes: &[u8]) -> Option<&Found> {
        match Self::short_key(bytes) {
            Some(key) => self.short.get(&key),
            None => self.long.get(bytes),
        }
    }

    fn insert(&mut self, bytes: &[u8], i: Found) {
        match Self::short_key(bytes) {
            Some(key) => self.short.insert(key, i),
            None => self.long.insert(bytes.into(), i),
        };
    }

    fn len(&self) -> usize {
        self.short.len() + self.long.len()
    }
}

/// Column indices and header names resolved from a [`Mapping`].
struct Columns {
    /// The header's cells, trimmed; used as field names in messages.
    names: Vec<String>,
    date: usize,
    player_a: usize,
    player_b: usize,
    result: ResultIdx,
    medals: Option<[usize; 2]>,
    scenario: Option<usize>,
    side_a: Option<usize>,
    home: Option<HomeIdx>,
    class: Option<usize>,
    score_goals: Option<[usize; 2]>,
}

enum HomeIdx {
    Side(usize),
    Neutral(usize),
}

enum ResultIdx {
    Score(usize),
    Goals([usize; 2]),
}

impl Columns {
    fn name(&self, idx: usize) -> &str {
        self.names.get(idx).map_or("row", String::as_str)
    }

    /// The required columns, in no particular order.
    fn required(&self) -> impl Iterator<Item = usize> + '_ {
        let result: &[usize] = match &self.result {
            ResultIdx::Score(i) => std::slice::from_ref(i),
            ResultIdx::Goals(ab) => ab,
        };
        [self.date, self.player_a, self.player_b]
            .into_iter()
            .chain(result.iter().copied())
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

        let names: Vec<String> = record
            .iter()
            .map(|cell| {
                String::from_utf8_lossy(cell)
                    .trim()
                    .trim_start_matches('\u{feff}')
                    .trim()
                    .to_string()
            })
            .collect();
        let lowered: Vec<String> = names.iter().map(|n| n.to_lowercase()).collect();

        // Finds a column by name; Ok(None) if the header does not have it.
        let find = |wanted: &str| -> Result<Option<usize>, CsvError> {
            let wanted_lc = wanted.trim().to_lowercase();
            let mut hits = lowered
                .iter()
                .enumerate()
                .filter(|(_, n)| **n == wanted_lc)
                .map(|(i, _)| i);
            let first = hits.next();
            if let (Some(i), Some(j)) = (first, hits.next()) {
                return Err(err(
                    header_line,
                    wanted,
                    format!(
                        "column `{wanted}` appears more than once in the header \
                         (columns {} and {})",
                        i + 1,
                        j + 1
                    ),
                ));
            }
            Ok(first)
        };
        let require = |wanted: &str| -> Result<usize, CsvError> {
            find(wanted)?.ok_or_else(|| {
                err(
                    header_line,
                    wanted,
                    format!(
                        "the header has no column `{wanted}`; its columns are: {}",
                        list_columns(&names)
                    ),
                )
            })
        };
        let optional = |wanted: &Option<String>| -> Result<Option<usize>, CsvError> {
            match wanted {
                Some(name) => find(name),
                None => Ok(None),
            }
        };

        let date = require(&mapping.date)?;
        let player_a = require(&mapping.player_a)?;
        let player_b = require(&mapping.player_b)?;
        let result = match &mapping.result {
            ResultColumns::Score(s) => ResultIdx::Score(require(s)?),
            ResultColumns::Goals { a, b } => ResultIdx::Goals([require(a)?, require(b)?]),
        };
        let medals = match (optional(&mapping.medals_a)?, optional(&mapping.medals_b)?) {
            (Some(a), Some(b)) => Some([a, b]),
            (None, None) => None,
            (found_a, _) => {
                let name = |n: &Option<String>| n.clone().unwrap_or_default();
                let (present, absent) = if found_a.is_some() {
                    (name(&mapping.medals_a), name(&mapping.medals_b))
                } else {
                    (name(&mapping.medals_b), name(&mapping.medals_a))
                };
                return Err(err(
                    header_line,
                    &absent,
                    format!(
                        "the header has `{present}` but no `{absent}`: medals need both columns"
                    ),
                ));
            }
        };
        let scenario = optional(&mapping.scenario)?;
        let side_a = optional(&mapping.side_a)?;
        let class = optional(&mapping.class)?;
        let score_goals = match (&mapping.result, &mapping.score_goals) {
            (ResultColumns::Score(_), Some([a, b])) => match (find(a)?, find(b)?) {
                (Some(a), Some(b)) => Some([a, b]),
                _ => None,
            },
            _ => None,
        };
        // A flag column that is also a player, date or result column (a foreign file mapped
        // with `--a-col home`) holds names, not flags: it is read as what it was mapped to.
        let taken = |i: &usize| {
            let result: &[usize] = match &result {
                ResultIdx::Score(r) => std::slice::from_ref(r),
                ResultIdx::Goals(ab) => ab,
            };
            [date, player_a, player_b].contains(i) || result.contains(i)
        };
        let home = match &mapping.home {
            None => None,
            Some(HomeColumn::Side(name)) => find(name)?.map(|i| (i, name, HomeIdx::Side(i))),
            Some(HomeColumn::Neutral(name)) => find(name)?.map(|i| (i, name, HomeIdx::Neutral(i))),
        };
        // What each column is read as, for the columns a person named.
        let mut roles: Vec<(usize, &str)> = vec![
            (date, "the date"),
            (player_a, "side A"),
            (player_b, "side B"),
        ];
        match &result {
            ResultIdx::Score(r) => roles.push((*r, "the score")),
            ResultIdx::Goals([a, b]) => {
                roles.extend([(*a, "side A's goals"), (*b, "side B's goals")])
            }
        }
        if let Some((i, name, flag)) = &home
            && mapping
                .named
                .iter()
                .any(|n| n.trim().eq_ignore_ascii_case(name.trim()))
        {
            let what = match flag {
                HomeIdx::Side(_) => "the home side",
                HomeIdx::Neutral(_) => "the neutral-ground flag",
            };
            roles.push((*i, what));
        }
        for name in &mapping.named {
            let i = require(name)?;
            let read_as: Vec<&str> = roles.iter().filter(|(j, _)| *j == i).map(|r| r.1).collect();
            if let [first, second, ..] = read_as[..] {
                return Err(err(
                    header_line,
                    name,
                    format!(
                        "column `{name}` is mapped twice, as {first} and as {second}; a column \
                         is read as one thing"
                    ),
                ));
            }
        }
        let home = home.filter(|(i, _, _)| !taken(i)).map(|(_, _, flag)| flag);

        Ok(MatchReader {
            csv,
            record,
            file: file.to_string(),
            cols: Columns {
                names,
                date,
                player_a,
                player_b,
                result,
                medals,
                scenario,
                side_a,
                home,
                class,
                score_goals,
            },
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

    fn error(&self, line: u64, field: &str, message: String) -> CsvError {
        CsvError {
            file: self.file.clone(),
            line,
            field: field.to_string(),
            message,
        }
    }

    /// The text of cell `idx` of the current record: `""` if the row is too short for it.
    fn cell(&self, idx: usize, line: u64) -> Result<&str, CsvError> {
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

    /// The side in cell `idx`: its index in the table of sides read.
    fn player(&mut self, idx: usize, line: u64) -> Result<Found, CsvError> {
        let raw = self.record.get(idx).unwrap_or_default();
        // A cell read before was valid UTF-8 and a side: no need to look at it again.
        if let Some(&i) = self.cell_index.get(raw) {
            return Ok(i);
        }
        let cell = self.cell(idx, line)?;
        if let Some(&i) = self.cell_index.get(cell.as_bytes()) {
            if self.cell_index.len() < MAX_CACHED_CELLS {
                self.cell_index.insert(raw, i);
            }
            return Ok(i);
        }
        if cell.is_empty() {
            return Err(self.error(
                line,
                self.cols.name(idx),
                "the player is missing (empty cell)".into(),
            ));
        }
        // "Smith, J" is a name written surname first far more often than a team of Smith
        // and J, who would join on this match: a team is written without a space after its
        // commas, as export writes it (`Ann,Bo`).
        if cell.contains(", ") {
            return Err(self.error(
                line,
                self.cols.name(idx),
                format!(
                    "{} holds a comma and a space: a name cannot hold a comma (write {} \
                     without it); a team is written with commas alone, as `Ann,Bo`",
                    quote(cell),
                    quote(&cell.replacen(',', "", 1)),
                ),
            ));
        }
        let names = cell
            .split(',')
            .map(|name| {
                // A cell a spreadsheet-safe export wrote as `'=…` reads back as it was.
                let name = unescape_formula(name.trim());
                PlayerName::parse(name).map_err(|e| {
                    self.error(
                        line,
                        self.cols.name(idx),
                        format!("{} is not a name: it {e}", quote(name)),
                    )
                })
            })
            .collect::<Result<Vec<PlayerName>, CsvError>>()?;
        let trimmed: Box<[u8]> = cell.as_bytes().into();
        let raw: Option<Box<[u8]>> = (raw.len() != trimmed.len()).then(|| raw.into());
        let next_key = |keys: &mut HashMap<String, u32>, key: String| {
            let n = keys.len() as u32;
            *keys.entry(key).or_insert(n)
        };
        let keys: Box<[u32]> = names
            .iter()
            .map(|n| next_key(&mut self.keys, n.key()))
            .collect();
        let index = u32::try_from(self.cells.len())
            .ok()
            .filter(|&i| i != TEAM && self.keys.len() < TEAM as usize)
            .ok_or_else(|| {
                self.error(line, self.cols.name(idx), "too many distinct sides".into())
            })?;
        let i = Found {
            index,
            key: match *keys {
                [key] => key,
                _ => TEAM,
            },
        };
        self.cells.push((names.into(), keys));
        if self.cell_index.len() < MAX_CACHED_CELLS {
            self.remembered = self.cells.len();
            self.cell_index.insert(&trimmed, i);
            if let Some(raw) = raw {
                self.cell_index.insert(&raw, i);
            }
        }
        Ok(i)
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

    fn number(&self, idx: usize, line: u64, what: &str) -> Result<Option<f64>, CsvError> {
        let text = self.cell(idx, line)?;
        if text.is_empty() {
            return Ok(None);
        }
        match text.parse::<f64>().ok().map(values::medal_count) {
            Some(Ok(x)) => Ok(Some(x)),
            _ => Err(self.error(
                line,
                self.cols.name(idx),
                format!(
                    "{what} {} is not a number from 0 to {}",
                    quote(text),
                    values::MEDALS_MAX
                ),
            )),
        }
    }

    fn optional_text(&self, idx: Option<usize>, line: u64) -> Result<Option<String>, CsvError> {
        let Some(i) = idx else {
            return Ok(None);
        };
        let text = unescape_formula(self.cell(i, line)?);
        if text.is_empty() {
            return Ok(None);
        }
        values::label(text).map(Some).map_err(|e| {
            self.error(
                line,
                self.cols.name(i),
                format!("{} is not usable: it {e}", quote(text)),
            )
        })
    }

    /// Each side's points from the two score columns of the standard layout: both empty is
    /// no score; else whole numbers from 0 to the bound that agree with the row's result.
    fn score_cells(
        &self,
        [ia, ib]: [usize; 2],
        line: u64,
        result: MatchResult,
    ) -> Result<Option<[u32; 2]>, CsvError> {
        let (a, b) = (self.cell(ia, line)?, self.cell(ib, line)?);
        if a.is_empty() && b.is_empty() {
            return Ok(None);
        }
        let points = |i: usize, text: &str| {
            score::points(text).map_err(|e| {
                self.error(
                    line,
                    self.cols.name(i),
                    format!("the points {} are not a score: {e}", quote(text)),
                )
            })
        };
        let goals = [points(ia, a)?, points(ib, b)?];
        if result != MatchResult::Played(score::outcome_of(goals)) {
            return Err(self.error(
                line,
                self.cols.name(ia),
                format!(
                    "the score {}-{} does not agree with the result {}",
                    goals[0],
                    goals[1],
                    result.as_text()
                ),
            ));
        }
        Ok(Some(goals))
    }

    /// The event class of the current record, if the header has its column: a class word or
    /// weight, or a tournament's name. A cell that starts as a number must be a weight in
    /// range (`-1`, `1e308`, `NaN`-like numbers are refused, not read as a tournament).
    fn class(&self, line: u64) -> Result<Option<EventClass>, CsvError> {
        let Some(i) = self.cols.class else {
            return Ok(None);
        };
        let text = self.cell(i, line)?;
        if text.is_empty() {
            return Ok(None);
        }
        if let Some(c) = EventClass::parse(text) {
            return Ok(Some(c));
        }
        let numeric = text.starts_with(|c: char| c.is_ascii_digit() || "+-.".contains(c))
            || text.eq_ignore_ascii_case("nan")
            || text.to_ascii_lowercase().starts_with("inf");
        if numeric {
            return Err(self.error(
                line,
                self.cols.name(i),
                format!(
                    "the class {} is not a weight above {} and at most {}, nor friendly, \
                     league, cup or championship",
                    quote(text),
                    score::WEIGHT_MIN,
                    score::WEIGHT_MAX
                ),
            ));
        }
        Ok(Some(class_of_tournament(text)))
    }

    /// The side-advantage flag of the current record, if the header has its column.
    fn home(&self, line: u64) -> Result<Option<Home>, CsvError> {
        let (i, neutral) = match self.cols.home {
            None => return Ok(None),
            Some(HomeIdx::Side(i)) => (i, false),
            Some(HomeIdx::Neutral(i)) => (i, true),
        };
        let text = self.cell(i, line)?;
        if text.is_empty() {
            return Ok(None);
        }
        let read = if neutral {
            match text.to_ascii_lowercase().as_str() {
                "true" | "yes" | "1" => Some(Home::Neutral),
                "false" | "no" | "0" => Some(Home::A),
                _ => None,
            }
        } else {
            Home::parse(text)
        };
        read.map(Some).ok_or_else(|| {
            let expected = if neutral {
                "TRUE (neutral ground) or FALSE (side A at home)"
            } else {
                "a (side A at home or moving first), b, or neutral"
            };
            self.error(
                line,
                self.cols.name(i),
                format!("{} is not understood; expected {expected}", quote(text)),
            )
        })
    }

    /// Reads a date in the mapping's format (as `NaiveDate::parse_from_str` would).
    fn parse_date(&self, text: &str) -> Option<NaiveDate> {
        if self.iso_dates
            && let &[y0, y1, y2, y3, b'-', m0, m1, b'-', d0, d1] = text.as_bytes()
        {
            let digits = [y0, y1, y2, y3, m0, m1, d0, d1];
            if digits.iter().all(u8::is_ascii_digit) {
                let n = |ds: &[u8]| ds.iter().fold(0u32, |n, d| n * 10 + u32::from(d - b'0'));
                let year = i32::try_from(n(&[y0, y1, y2, y3])).ok()?;
                return NaiveDate::from_ymd_opt(year, n(&[m0, m1]), n(&[d0, d1]));
            }
        }
        let mut parsed = Parsed::new();
        chrono::format::parse(&mut parsed, text, self.date_items.iter()).ok()?;
        parsed.to_naive_date().ok()
    }

    /// Turns the current record, which starts on `line`, into a row.
    fn parse_row(&mut self, line: u64) -> Result<Row, CsvError> {
        let cols = &self.cols;
        let len = self.record.len();
        let header_len = cols.names.len();

        if len < header_len {
            if let Some(missing) = cols.required().filter(|&i| i >= len).min() {
                return Err(self.error(
                    line,
                    cols.name(missing),
                    format!(
                        "the row has {len} column{} but the header has {header_len}: \
                         no cell for `{}`",
                        if len == 1 { "" } else { "s" },
                        cols.name(missing)
                    ),
                ));
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

        let date_key = CellIndex::short_key(self.record.get(cols.date).unwrap_or_default());
        if let Some((key, date)) = self.last_date
            && Some(key) == date_key
        {
            return self.rest_of_row(line, date);
        }
        let date_text = self.cell(cols.date, line)?;
        let date = self.parse_date(date_text).ok_or_else(|| {
            let example = match &self.date_example {
                Some(e) => format!(", e.g. {e}"),
                None => String::new(),
            };
            let what = if date_text.is_empty() {
                "the date is missing (empty cell)".to_string()
            } else {
                format!("the date {} is not a valid date", quote(date_text))
            };
            self.error(
                line,
                cols.name(cols.date),
                format!("{what}; expected format {}{example}", self.date_format),
            )
        })?;

        let date = Day::new(date).map(Day::date).map_err(|e| {
            self.error(
                line,
                cols.name(cols.date),
                format!("the date {} {e}", quote(date_text)),
            )
        })?;
        self.last_date = date_key.map(|key| (key, date));
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

        let mut kept = None;
        let result = match cols.result {
            ResultIdx::Score(i) => {
                let text = self.cell(i, line)?;
                MatchResult::parse(text).ok_or_else(|| {
                    let what = if text.is_empty() {
                        "the score is missing (empty cell)".to_string()
                    } else {
                        format!("the score {} is not understood", quote(text))
                    };
                    self.error(
                        line,
                        cols.name(i),
                        format!("{what}; accepted: {ACCEPTED_SCORES}"),
                    )
                })?
            }
            ResultIdx::Goals([ia, ib]) => {
                let goals = |i: usize| -> Result<f64, CsvError> {
                    self.number(i, line, "the score")?.ok_or_else(|| {
                        self.error(
                            line,
                            cols.name(i),
                            "the score is missing (empty cell); expected a non-negative number"
                                .into(),
                        )
                    })
                };
                let (a, b) = (goals(ia)?, goals(ib)?);
                // Whole numbers within the bound are kept as the score (issue 26).
                let whole = |x: f64| x.fract() == 0.0 && x <= f64::from(score::POINTS_MAX);
                if whole(a) && whole(b) {
                    kept = Some([a as u32, b as u32]);
                }
                MatchResult::Played(if a > b {
                    Outcome::Win
                } else if a < b {
                    Outcome::Loss
                } else {
                    Outcome::Draw
                })
            }
        };

        let medals = match cols.medals {
            None => None,
            Some([ia, ib]) => match (
                self.number(ia, line, "the medal count")?,
                self.number(ib, line, "the medal count")?,
            ) {
                (Some(a), Some(b)) => Some([a, b]),
                (None, None) => None,
                (Some(_), None) | (None, Some(_)) => {
                    let (given, missing) = if self.cell(ia, line)?.is_empty() {
                        (ib, ia)
                    } else {
                        (ia, ib)
                    };
                    return Err(self.error(
                        line,
                        cols.name(missing),
                        format!(
                            "only one of the two medal counts is given (`{}` is {}, `{}` is \
                             empty): give both or neither",
                            cols.name(given),
                            quote(self.cell(given, line)?),
                            cols.name(missing)
                        ),
                    ));
                }
            },
        };

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

/// A cell as written by a spreadsheet-safe export (`csv_export::inert`): the `'` it put before
/// text a spreadsheet would take for a formula (`=x`, or `'=x` itself) is taken off again.
fn unescape_formula(cell: &str) -> &str {
    match cell.strip_prefix('\'') {
        Some(rest)
            if rest
                .trim_start_matches('\'')
                .starts_with(['=', '+', '-', '@']) =>
        {
            rest
        }
        _ => cell,
    }
}

/// A cell's text in double quotes for a message: escaped, and cut if long.
fn quote(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("\"{}{more}\"", head.escape_debug())
}

/// The header's columns for a "missing column" message.
fn list_columns(names: &[String]) -> String {
    if names.iter().all(String::is_empty) {
        return "(none)".into();
    }
    let mut list: Vec<String> = names
        .iter()
        .take(MAX_LISTED_COLUMNS)
        .map(|n| {
            let mut chars = n.chars();
            let head: String = chars.by_ref().take(MAX_QUOTED_CHARS).collect();
            let more = if chars.next().is_some() { "…" } else { "" };
            format!("`{}{more}`", head.escape_debug())
        })
        .collect();
    if names.len() > MAX_LISTED_COLUMNS {
        list.push(format!("… ({} more)", names.len() - MAX_LISTED_COLUMNS));
    }
    list.join(", ")
}

/// 2024-03-01 written in a date format, if the format can write a date alone.
fn date_example(items: &[Item<'static>]) -> Option<String> {
    date_example_of(items, NaiveDate::from_ymd_opt(2024, 3, 1)?)
}

/// `day` written in the format `items`.
fn date_example_of(items: &[Item<'static>], day: NaiveDate) -> Option<String> {
    use std::fmt::Write;
    let mut text = String::new();
    // `write!` (unlike `to_string`) reports a format needing a time as an error, not a panic.
    write!(text, "{}", day.format_with_items(items.iter())).ok()?;
    Some(text)
}

/// The message for an error from the csv reader: with `flexible` and byte records, an I/O
/// error (including a corrupt gzip stream), or a row past [`MAX_ROW_BYTES`] (`overlong`).
fn read_error_message(e: &csv::Error, overlong: bool) -> String {
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

/// A reader that notes where the line breaks are, so rows get physical line numbers.
///
/// The csv reader's own line count is off for CRLF files (a row's `\n` is counted when the
/// next row is read), for blank lines (counted into the next row) and for lone `\r` endings
/// (not counted), so this counts them itself: `\r`, `\r\n` and `\n` each end one line.
struct LineTracker<R> {
    inner: R,
    /// Offset of the next byte `inner` will give.
    offset: u64,
    /// Whether the last byte read was `\r`.
    prev_cr: bool,
    /// The `\r` and `\n` bytes the csv parser may not have passed yet: offset, and whether the
    /// byte ends a line (every `\r`; a `\n` unless it follows a `\r`).
    terminators: VecDeque<(u64, bool)>,
    /// Line ends among terminators already dropped from the front.
    breaks_dropped: u64,
    /// Where the record being read began (the end of the last one).
    record_start: u64,
    /// Whether reading stopped at a row longer than [`MAX_ROW_BYTES`].
    overlong: bool,
}

impl<R> LineTracker<R> {
    fn new(inner: R) -> Self {
        LineTracker {
            inner,
            offset: 0,
            prev_cr: false,
            terminators: VecDeque::new(),
            breaks_dropped: 0,
            record_start: 0,
            overlong: false,
        }
    }

    /// The line of the byte at `offset`.
    fn line_at(&self, offset: u64) -> u64 {
        let before = self
            .terminators
            .iter()
            .take_while(|(off, _)| *off < offset)
            .filter(|(_, brk)| *brk)
            .count() as u64;
        1 + self.breaks_dropped + before
    }

    /// The line on which the record the parser read from `start` to `end` begins: the csv
    /// parser skips line ends (blank lines, the `\n` of a `\r\n`) before a record, so the
    /// record's first byte is the first byte from `start` on that is not a line end. Then
    /// forgets the line ends before `end`.
    fn record_line(&mut self, start: u64, end: u64) -> u64 {
        let mut first = start;
        let mut breaks = self.breaks_dropped;
        for &(off, brk) in &self.terminators {
            if off > first {
                break;
            }
            if off == first {
                first += 1;
            }
            if brk {
                breaks += 1;
            }
        }
        while let Some(&(off, brk)) = self.terminators.front() {
            if off >= end {
                break;
            }
            if brk {
                self.breaks_dropped += 1;
            }
            self.terminators.pop_front();
        }
        self.record_start = end;
        1 + breaks
    }
}

impl<R> LineTracker<R> {
    /// Notes the line ends in `bytes`, which start at offset `at`.
    fn scan(&mut self, bytes: &[u8], at: u64, prev_cr: &mut bool) {
        for (i, &byte) in bytes.iter().enumerate() {
            match byte {
                b'\r' => {
                    self.terminators.push_back((at + i as u64, true));
                    *prev_cr = true;
                }
                b'\n' => {
                    self.terminators.push_back((at + i as u64, !*prev_cr));
                    *prev_cr = false;
                }
                _ => *prev_cr = false,
            }
        }
    }
}

/// Whether any byte of `word` is `\r` or `\n`: the exact has-zero-byte test applied to `word`
/// xor each.
fn has_line_end(word: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let has_zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS != 0;
    has_zero(word ^ (ONES * u64::from(b'\n'))) || has_zero(word ^ (ONES * u64::from(b'\r')))
}

impl<R: Read> Read for LineTracker<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        // A row that has not ended after this many bytes is not a match row: stop before the
        // parser holds more of it.
        if self.offset.saturating_sub(self.record_start) > MAX_ROW_BYTES {
            self.overlong = true;
            return Err(io::Error::other("a row longer than the limit"));
        }
        let n = self.inner.read(buf)?;
        let data = buf.get(..n).unwrap_or_default();
        let mut prev_cr = self.prev_cr;
        let mut at = self.offset;
        // Eight bytes at a time: most words hold no line end.
        let words = data.chunks_exact(8);
        let tail = words.remainder();
        for word in words {
            let mut bytes = [0u8; 8];
            bytes.copy_from_slice(word);
            if has_line_end(u64::from_ne_bytes(bytes)) {
                self.scan(word, at, &mut prev_cr);
            } else {
                prev_cr = false;
            }
            at += 8;
        }
        self.scan(tail, at, &mut prev_cr);
        self.prev_cr = prev_cr;
        self.offset += data.len() as u64;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side of one player, as the reader yields it.
    fn side(name: &str) -> Side {
        vec![PlayerName::parse(name).unwrap()].into()
    }

    /// The name of a side of one player.
    fn one(side: &[PlayerName]) -> &str {
        match side {
            [p] => p.as_str(),
            _ => panic!("a team: {side:?}"),
        }
    }
    use proptest::prelude::*;
    use std::collections::HashSet;

    const WIN: MatchResult = MatchResult::Played(Outcome::Win);
    const DRAW: MatchResult = MatchResult::Played(Outcome::Draw);
    const LOSS: MatchResult = MatchResult::Played(Outcome::Loss);

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn read_all(csv: &[u8], mapping: &Mapping) -> Vec<Result<CsvMatch, CsvError>> {
        MatchReader::new(csv, "games.csv", mapping)
            .unwrap()
            .collect()
    }

    /// The Display text of the only error in `csv` (which must also parse no Ok row).
    fn only_error(csv: &str, mapping: &Mapping) -> String {
        let rows = read_all(csv.as_bytes(), mapping);
        assert_eq!(rows.len(), 1, "{rows:?}");
        rows[0].clone().unwrap_err().to_string()
    }

    fn assert_names(message: &str, line: u64, field: &str) {
        assert!(message.starts_with("games.csv: "), "{message}");
        assert!(message.contains(&format!("line {line},")), "{message}");
        assert!(message.contains(&format!("field `{field}`")), "{message}");
    }

    const STANDARD: &str = "date,player_a,player_b,score,medals_a,medals_b,scenario,side_a\n";

    #[test]
    fn standard_format_reads_every_field() {
        let csv = format!(
            "{STANDARD}\
             2024-03-01,Alice,Bob,1,6,3,Pegasus Bridge,Allies\n\
             2024-03-02, Bob , Carol ,0.5,,,,\n\
             2024-03-03,Carol,Alice,0,2,6,Sainte-Mère-Église,Axis\n\
             2024-03-04,Dave,Alice,A,,,Omaha Beach,\n\
             2024-03-05,Alice,Dave,draw,4,4,,Allies\n\
             2024-03-06,Bob,Dave,B,0,5.5,,\n\
             2024-03-07,Bob,Eve,forfeit-a,,,,\n\
             2024-03-08,Eve,Bob,cancelled,,,,\n"
        );
        let rows: Vec<CsvMatch> = read_all(csv.as_bytes(), &Mapping::standard())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let m = |line,
                 day,
                 a: &str,
                 b: &str,
                 result,
                 medals,
                 scenario: Option<&str>,
                 side_a: Option<&str>| CsvMatch {
            line,
            date: date(2024, 3, day),
            player_a: side(a),
            player_b: side(b),
            result,
            medals,
            scenario: scenario.map(Into::into),
            side_a: side_a.map(Into::into),
            home: None,
            goals: None,
            class: None,
        };
        let expected = vec![
            m(
                2,
                1,
                "Alice",
                "Bob",
                WIN,
                Some([6.0, 3.0]),
                Some("Pegasus Bridge"),
                Some("Allies"),
            ),
            m(3, 2, "Bob", "Carol", DRAW, None, None, None),
            m(
                4,
                3,
                "Carol",
                "Alice",
                LOSS,
                Some([2.0, 6.0]),
                Some("Sainte-Mère-Église"),
                Some("Axis"),
            ),
            m(5, 4, "Dave", "Alice", WIN, None, Some("Omaha Beach"), None),
            m(
                6,
                5,
                "Alice",
                "Dave",
                DRAW,
                Some([4.0, 4.0]),
                None,
                Some("Allies"),
            ),
            m(7, 6, "Bob", "Dave", LOSS, Some([0.0, 5.5]), None, None),
            m(8, 7, "Bob", "Eve", MatchResult::ForfeitA, None, None, None),
            m(9, 8, "Eve", "Bob", MatchResult::Cancelled, None, None, None),
        ];
        assert_eq!(rows, expected);
    }

    #[test]
    fn standard_format_without_optional_columns_any_order_and_case() {
        let csv = "\u{feff} Score ,DATE,Player_B,player_a\r\nA,2024-01-02,Bob,Alice\r\n";
        let rows = read_all(csv.as_bytes(), &Mapping::standard());
        assert_eq!(
            rows,
            vec![Ok(CsvMatch {
                line: 2,
                date: date(2024, 1, 2),
                player_a: side("Alice"),
                player_b: side("Bob"),
                result: WIN,
                medals: None,
                scenario: None,
                side_a: None,
                home: None,
                goals: None,
                class: None,
            })]
        );
    }

    #[test]
    fn home_column_reads_a_b_neutral_and_empty() {
        let csv = "date,player_a,player_b,score,home\n\
                   2024-01-01,Ann,Bo,1,a\n\
                   2024-01-02,Ann,Bo,0, B \n\
                   2024-01-03,Ann,Bo,draw,Neutral\n\
                   2024-01-04,Ann,Bo,1,\n\
                   2024-01-05,Ann,Bo,1,home\n";
        let rows = read_all(csv.as_bytes(), &Mapping::standard());
        let homes: Vec<Option<Home>> = rows[..4].iter().map(|r| r.as_ref().unwrap().home).collect();
        assert_eq!(
            homes,
            [Some(Home::A), Some(Home::B), Some(Home::Neutral), None]
        );
        let e = rows[4].as_ref().unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (6, "home"));
        assert!(
            e.message.contains("\"home\"") && e.message.contains("neutral"),
            "{e}"
        );
        // A foreign file whose `home` column is mapped as side A keeps its names there.
        let mapping = Mapping {
            player_a: "home".into(),
            player_b: "away".into(),
            ..Mapping::standard()
        };
        let rows = read_all(b"date,home,away,score\n2024-01-01,Ann,Bo,1\n", &mapping);
        let row = rows[0].as_ref().unwrap();
        assert_eq!((one(&row.player_a), row.home), ("Ann", None));
    }

    #[test]
    fn custom_date_format() {
        let mapping = Mapping {
            date_format: "%d/%m/%Y".into(),
            ..Mapping::standard()
        };
        let rows = read_all(
            b"date,player_a,player_b,score\n31/12/2023,A,B,1\n",
            &mapping,
        );
        assert_eq!(rows[0].as_ref().unwrap().date, date(2023, 12, 31));
        let bad = Mapping {
            date_format: "%Y-%Q".into(),
            ..Mapping::standard()
        };
        let e = MatchReader::new(&b"date,player_a,player_b,score\n"[..], "games.csv", &bad)
            .err()
            .unwrap();
        assert_eq!(e.field, "date");
    }

    const INTERNATIONAL: &str =
        "date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n";

    #[test]
    fn international_preset_higher_goals_win() {
        let csv = format!(
            "{INTERNATIONAL}\
             1872-11-30,Scotland,England,0,0,Friendly,Glasgow,Scotland,FALSE\n\
             1873-03-08,England,Scotland,4,2,Friendly,London,England,FALSE\n\
             1876-03-25,Scotland,Wales,4,0,Friendly,Glasgow,Scotland,FALSE\n\
             1877-03-05,Wales,Scotland,0,2,Friendly,Wrexham,Wales,FALSE\n\
             1994-07-17,Brazil,Italy,0,0,FIFA World Cup,Pasadena,United States,TRUE\n\
             2010-07-11,Netherlands,Spain,0,1,FIFA World Cup,Johannesburg,South Africa,TRUE\n\
             2021-06-11,Turkey,Italy,0,3,UEFA Euro,\"Rome, Lazio\",Italy,TRUE\n"
        );
        let rows: Vec<CsvMatch> = read_all(csv.as_bytes(), &Mapping::international())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let got: Vec<(u64, NaiveDate, &str, &str, MatchResult)> = rows
            .iter()
            .map(|r| (r.line, r.date, one(&r.player_a), one(&r.player_b), r.result))
            .collect();
        assert_eq!(
            got,
            vec![
                (2, date(1872, 11, 30), "Scotland", "England", DRAW),
                (3, date(1873, 3, 8), "England", "Scotland", WIN),
                (4, date(1876, 3, 25), "Scotland", "Wales", WIN),
                (5, date(1877, 3, 5), "Wales", "Scotland", LOSS),
                (6, date(1994, 7, 17), "Brazil", "Italy", DRAW),
                (7, date(2010, 7, 11), "Netherlands", "Spain", LOSS),
                (8, date(2021, 6, 11), "Turkey", "Italy", LOSS),
            ]
        );
        assert!(
            rows.iter()
                .all(|r| r.medals.is_none() && r.scenario.is_none() && r.side_a.is_none())
        );
        // The home team is side A, at home unless the ground is neutral.
        let homes: Vec<Option<Home>> = rows.iter().map(|r| r.home).collect();
        let (home, neutral) = (Some(Home::A), Some(Home::Neutral));
        assert_eq!(homes, [home, home, home, home, neutral, neutral, neutral]);
        let bad = format!("{INTERNATIONAL}1872-11-30,Scotland,England,0,0,Friendly,G,S,maybe\n");
        let e = only_error(&bad, &Mapping::international());
        assert!(
            e.contains("line 2") && e.contains("`neutral`") && e.contains("TRUE"),
            "{e}"
        );
    }

    #[test]
    fn line_numbers_are_physical_lines() {
        // A quoted two-line cell, blank lines, CRLF and lone-CR line ends.
        let csv = "date,player_a,player_b,score,scenario\r\n\
                   2024-01-01,A,B,1,\"two\r\nlines\"\r\n\
                   \r\n\
                   2024-01-02,A,A,1,\r\n\
                   2024-01-03,A,B,x,\r\r\
                   2024-01-04,,B,1,\"three\nmore\nlines\"\n\
                   2024-01-05,A,B,0,\n\
                   2024-01-06,A,B,zz,";
        let rows = read_all(csv.as_bytes(), &Mapping::standard());
        let lines: Vec<u64> = rows
            .iter()
            .map(|r| match r {
                Ok(m) => m.line,
                Err(e) => e.line,
            })
            .collect();
        assert_eq!(lines, vec![2, 5, 6, 8, 11, 12]);
        // A scenario across lines holds line breaks, which no label may (they are control
        // characters): the row is refused at the line it starts on.
        let e = rows[0].as_ref().unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "scenario"));
        assert!(e.message.contains("U+000D"), "{}", e.message);
        assert!(
            rows[1]
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("line 5,")
        );
        assert!(
            rows[5]
                .as_ref()
                .unwrap_err()
                .to_string()
                .contains("line 12,")
        );
    }

    #[test]
    fn a_bad_row_does_not_stop_the_next() {
        let csv = format!("{STANDARD}2024-01-01,A,B,9,,,,\n2024-01-02,A,B,1,,,,\n");
        let rows = read_all(csv.as_bytes(), &Mapping::standard());
        assert!(rows[0].is_err());
        assert_eq!(rows[1].as_ref().unwrap().line, 3);
    }

    #[test]
    fn error_missing_header_column() {
        let e = MatchReader::new(
            &b"date,player_a,score\n"[..],
            "games.csv",
            &Mapping::standard(),
        )
        .err()
        .unwrap()
        .to_string();
        assert_names(&e, 1, "player_b");
        assert!(e.contains("`date`, `player_a`, `score`"), "{e}");
        let e = MatchReader::new(
            &INTERNATIONAL.as_bytes()[..40],
            "games.csv",
            &Mapping::international(),
        )
        .err()
        .unwrap()
        .to_string();
        assert_names(&e, 1, "away_score");
    }

    #[test]
    fn error_only_one_medal_column_in_header() {
        let csv = "date,player_a,player_b,score,medals_b\n";
        let e = MatchReader::new(csv.as_bytes(), "games.csv", &Mapping::standard())
            .err()
            .unwrap()
            .to_string();
        assert_names(&e, 1, "medals_a");
    }

    #[test]
    fn error_empty_file() {
        let e = MatchReader::new(&b""[..], "games.csv", &Mapping::standard())
            .err()
            .unwrap()
            .to_string();
        assert_names(&e, 1, "row");
        assert!(e.contains("empty"), "{e}");
    }

    #[test]
    fn error_missing_player() {
        let e = only_error(
            &format!("{STANDARD}2024-01-01,  ,Bob,1,,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "player_a");
        assert!(e.contains("player is missing"), "{e}");
        let e = only_error(
            &format!("{STANDARD}2024-01-01,Bob,,1,,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "player_b");
    }

    /// `"Smith, J"` was read as a team of two new players, Smith and J. A name cannot hold a
    /// comma, and a team is written as export writes it, `Ann,Bo`: a comma and a space is
    /// refused, naming the cell; `Ann,Bo` stays a team.
    #[test]
    fn error_a_comma_and_space_is_neither_a_name_nor_a_team() {
        let e = only_error(
            &format!("{STANDARD}2025-01-01,\"Smith, J\",Lee,1,,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "player_a");
        assert!(e.contains("\"Smith, J\" holds a comma and a space"), "{e}");
        assert!(e.contains("write \"Smith J\" without it"), "{e}");
        let rows = read_all(
            format!("{STANDARD}2025-01-01,\"Ann,Bo\",Lee,1,,,,\n").as_bytes(),
            &Mapping::standard(),
        );
        let team = rows[0].as_ref().unwrap();
        assert_eq!(team.player_a.len(), 2, "{team:?}");
    }

    #[test]
    fn error_same_player_on_both_sides() {
        let e = only_error(
            &format!("{STANDARD}2024-01-01,Élodie,ÉLODIE ,1,,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "player_b");
        assert!(e.contains("same player"), "{e}");
    }

    /// `--date-format %Y` read every row as "not a valid date; expected format %Y, e.g.
    /// 2024": a format that cannot name a day is refused at the header.
    #[test]
    fn error_a_date_format_without_a_whole_day() {
        for format in ["%Y", "%Y-%m", "%m/%d", "%H:%M"] {
            let mapping = Mapping {
                date_format: format.into(),
                ..Mapping::standard()
            };
            let e = MatchReader::new(STANDARD.as_bytes(), "games.csv", &mapping)
                .err()
                .unwrap();
            assert_eq!((e.line, e.field.as_str()), (1, "date"), "{format}: {e}");
            assert!(
                e.message.contains("does not name a whole day"),
                "{format}: {e}"
            );
        }
        for format in ["%d/%m/%Y", "%e %b %Y", "%Y-%j", "%d.%m.%y"] {
            let mapping = Mapping {
                date_format: format.into(),
                ..Mapping::standard()
            };
            assert!(
                MatchReader::new(STANDARD.as_bytes(), "games.csv", &mapping).is_ok(),
                "{format}"
            );
        }
    }

    #[test]
    fn error_bad_date() {
        let e = only_error(
            &format!("{STANDARD}\n2024-02-30,A,B,1,,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 3, "date");
        assert!(e.contains("\"2024-02-30\""), "{e}");
        assert!(e.contains("%Y-%m-%d") && e.contains("2024-03-01"), "{e}");
    }

    #[test]
    fn error_score_not_understood() {
        let e = only_error(
            &format!("{STANDARD}2024-01-01,A,B,3-1,,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "score");
        assert!(e.contains("\"3-1\""), "{e}");
        assert!(e.contains("forfeit-a") && e.contains("draw"), "{e}");
    }

    #[test]
    fn error_goals_not_a_non_negative_number() {
        for bad in ["-1", "two", "NaN", "inf", ""] {
            let e = only_error(
                &format!(
                    "{INTERNATIONAL}1872-11-30,Scotland,England,0,{bad},Friendly,Glasgow,Scotland,FALSE\n"
                ),
                &Mapping::international(),
            );
            assert_names(&e, 2, "away_score");
            if !bad.is_empty() {
                assert!(e.contains(&format!("\"{bad}\"")), "{e}");
            }
        }
    }

    #[test]
    fn error_medals_not_a_non_negative_finite_number() {
        for bad in ["-2", "lots", "inf", "NaN"] {
            let e = only_error(
                &format!("{STANDARD}2024-01-01,A,B,1,{bad},3,,\n"),
                &Mapping::standard(),
            );
            assert_names(&e, 2, "medals_a");
            assert!(e.contains(&format!("\"{bad}\"")), "{e}");
        }
    }

    #[test]
    fn error_only_one_medal_given() {
        let e = only_error(
            &format!("{STANDARD}2024-01-01,A,B,1,4,,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "medals_b");
        assert!(e.contains("only one"), "{e}");
        let e = only_error(
            &format!("{STANDARD}2024-01-01,A,B,1,,4,,\n"),
            &Mapping::standard(),
        );
        assert_names(&e, 2, "medals_a");
    }

    #[test]
    fn error_too_few_columns() {
        let e = only_error(&format!("{STANDARD}2024-01-01,A,B\n"), &Mapping::standard());
        assert_names(&e, 2, "score");
        assert!(e.contains("has 3 columns but the header has 8"), "{e}");
        // Missing trailing optional cells are just empty.
        let rows = read_all(
            format!("{STANDARD}2024-01-01,A,B,1\n").as_bytes(),
            &Mapping::standard(),
        );
        assert!(rows[0].is_ok());
    }

    #[test]
    fn error_too_many_columns() {
        let e = only_error(
            "date,player_a,player_b,score\n2024-01-01,Smith, John,B,1\n",
            &Mapping::standard(),
        );
        assert_names(&e, 2, "row");
        // Trailing empty cells are fine.
        let rows = read_all(
            b"date,player_a,player_b,score\n2024-01-01,A,B,1,,\n",
            &Mapping::standard(),
        );
        assert!(rows[0].is_ok());
    }

    #[test]
    fn error_invalid_utf8() {
        let mut csv = STANDARD.as_bytes().to_vec();
        csv.extend_from_slice(b"2024-01-01,A,Bj\xf6rn,1,,,,\n");
        let rows = read_all(&csv, &Mapping::standard());
        let e = rows[0].as_ref().unwrap_err().to_string();
        assert_names(&e, 2, "player_b");
        assert!(e.contains("UTF-8"), "{e}");
    }

    #[test]
    fn error_unreadable_stream() {
        struct Failing;
        impl Read for Failing {
            fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                Err(io::Error::other("disk on fire"))
            }
        }
        let e = MatchReader::new(Failing, "games.csv", &Mapping::standard())
            .err()
            .unwrap()
            .to_string();
        assert_names(&e, 1, "row");
        assert!(e.contains("disk on fire"), "{e}");
        // A corrupt gzip after a good header: one error, then the iteration ends.
        let dir = std::env::temp_dir().join(format!("rungs-csv-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bad.csv.gz");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        io::Write::write_all(
            &mut gz,
            format!("{STANDARD}2024-01-01,A,B,1,,,,\n").as_bytes(),
        )
        .unwrap();
        let mut bytes = gz.finish().unwrap();
        let n = bytes.len();
        bytes[n - 6] ^= 0xff; // corrupt the CRC
        std::fs::write(&path, &bytes).unwrap();
        let rows: Vec<_> = open(&path, &Mapping::standard()).unwrap().collect();
        std::fs::remove_dir_all(&dir).unwrap();
        let last = rows.last().unwrap().as_ref().unwrap_err();
        assert_eq!(last.field, "row");
        let e = open(Path::new("/nonexistent/games.csv"), &Mapping::standard())
            .err()
            .unwrap();
        // The whole file: no line or field named.
        assert_eq!((e.line, e.field.as_str()), (0, "file"));
        assert_eq!(
            e.to_string(),
            "/nonexistent/games.csv: cannot be opened: No such file or directory (os error 2)"
        );
    }

    /// An endless row (`/dev/zero`, a binary file) is refused once it passes the limit, and
    /// the reader holds no more than about that much of it: the bytes read before refusing
    /// are the limit plus one buffer.
    #[test]
    fn an_endless_row_is_refused_within_the_limit() {
        struct Endless {
            byte: u8,
            given: u64,
        }
        impl Read for Endless {
            fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                buf.fill(self.byte);
                self.given += buf.len() as u64;
                Ok(buf.len())
            }
        }
        for (header, byte) in [(false, 0u8), (true, b'x'), (true, b'\n')] {
            let mut source = Endless { byte, given: 0 };
            let prefix: &[u8] = if header {
                b"date,player_a,player_b,score\n"
            } else {
                b""
            };
            let input = prefix.chain(&mut source);
            let outcome = match MatchReader::new(input, "zero.csv", &Mapping::standard()) {
                Err(e) => Some(e),
                Ok(mut reader) => reader.next().and_then(Result::err),
            };
            if byte == b'\n' {
                // Blank lines hold no row but count towards the limit too: reading stops.
                assert!(outcome.is_some());
                assert!(source.given <= MAX_ROW_BYTES + 256 * 1024);
                continue;
            }
            let e = outcome.expect("an error");
            assert_eq!(e.field, "row");
            assert_eq!(e.line, if header { 2 } else { 1 });
            assert!(e.message.contains("more than 1 MiB"), "{}", e.message);
            assert!(
                source.given <= MAX_ROW_BYTES + 256 * 1024,
                "read {} bytes",
                source.given
            );
        }
    }

    /// A short cell's key is its bytes, little-endian, and its length in the last byte (here
    /// against that layout written out byte by byte); 16 bytes and over have none.
    #[test]
    fn short_cell_keys_are_their_bytes_and_length() {
        let text = b"P00001,Ann-Marie!";
        for n in 0..=17 {
            for start in 0..=(text.len() - n) {
                let b = &text[start..start + n];
                let got = CellIndex::short_key(b);
                if n >= 16 {
                    assert_eq!(got, None);
                    continue;
                }
                let mut bytes = [0u8; 16];
                bytes[..n].copy_from_slice(b);
                bytes[15] = n as u8;
                let lo = u64::from_le_bytes(bytes[..8].try_into().unwrap());
                let hi = u64::from_le_bytes(bytes[8..].try_into().unwrap());
                assert_eq!(got, Some([lo, hi]), "{n} bytes: {:?}", b);
            }
        }
    }

    /// A cell read once is shared by every row that repeats it.
    #[test]
    fn repeated_cells_share_their_names() {
        let csv = "date,player_a,player_b,score\n2024-01-01,Ann,Bo,1\n2024-01-02,Bo,Ann,0\n2024-01-03,Ann,Bo,1\n";
        let rows: Vec<CsvMatch> = read_all(csv.as_bytes(), &Mapping::standard())
            .into_iter()
            .map(Result::unwrap)
            .collect();
        assert!(Arc::ptr_eq(&rows[0].player_a, &rows[2].player_a));
        assert!(Arc::ptr_eq(&rows[0].player_a, &rows[1].player_b));
        // A bad cell is reported on every line it appears, not remembered.
        let csv = "date,player_a,player_b,score\n2024-01-01,=Ann,Bo,1\n2024-01-02,=Ann,Bo,1\n";
        let lines: Vec<u64> = read_all(csv.as_bytes(), &Mapping::standard())
            .into_iter()
            .map(|r| r.unwrap_err().line)
            .collect();
        assert_eq!(lines, vec![2, 3]);
    }

    fn drain(bytes: &[u8]) {
        for mapping in [Mapping::standard(), Mapping::international()] {
            if let Ok(reader) = MatchReader::new(bytes, "fuzz.csv", &mapping) {
                for m in reader.flatten() {
                    assert!(!m.player_a.is_empty() && !m.player_b.is_empty());
                }
            }
        }
    }

    /// Gives its bytes `step` at a time, to split line ends across reads.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.data.len());
            let (head, rest) = self.data.split_at(n);
            buf[..n].copy_from_slice(head);
            self.data = rest;
            Ok(n)
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        #[test]
        fn line_numbers_do_not_depend_on_read_sizes(
            text in "[,\"\n\r0-9a-zA-Z -]{0,300}",
            step in 1..20usize,
        ) {
            let text = format!("date,player_a,player_b,score\n{text}");
            let key = |r: Result<CsvMatch, CsvError>| match r {
                Ok(m) => (m.line, String::new()),
                Err(e) => (e.line, e.to_string()),
            };
            let whole: Vec<_> = read_all(text.as_bytes(), &Mapping::standard())
                .into_iter().map(key).collect();
            let trickled: Vec<_> =
                MatchReader::new(Trickle { data: text.as_bytes(), step }, "games.csv", &Mapping::standard())
                    .unwrap().map(key).collect();
            prop_assert_eq!(whole, trickled);
        }

        #[test]
        fn line_end_test_is_exact(word in any::<u64>(), at in 0..8usize, end in 0..3u8) {
            let mut bytes = word.to_ne_bytes();
            if end > 0 {
                bytes[at] = if end == 1 { b'\n' } else { b'\r' };
            }
            let naive = bytes.iter().any(|&b| b == b'\n' || b == b'\r');
            prop_assert_eq!(has_line_end(u64::from_ne_bytes(bytes)), naive);
        }

        #[test]
        fn iso_fast_path_agrees_with_chrono(
            text in "[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9+-]{1,12}|[0-9]{4}-[0-9]-[0-9]{1,2}",
        ) {
            let reader =
                MatchReader::new(&b"date,player_a,player_b,score\n"[..], "games.csv", &Mapping::standard())
                    .unwrap();
            prop_assert_eq!(
                reader.parse_date(&text),
                NaiveDate::parse_from_str(&text, "%Y-%m-%d").ok()
            );
        }

        #[test]
        fn fuzz_arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            drain(&bytes);
        }

        #[test]
        fn fuzz_csvish_text_never_panics(
            text in "[,\"\n\r0-9a-zA-Z .½-]{0,400}",
            header in 0..3usize,
        ) {
            let header = [
                "",
                "date,player_a,player_b,score,medals_a,medals_b,scenario,side_a\n",
                INTERNATIONAL,
            ][header];
            drain(format!("{header}{text}").as_bytes());
        }

        #[test]
        fn fuzz_rowish_text_never_panics(
            rows in proptest::collection::vec(
                ("(19|20)[0-9]{2}-[01][0-9]-[0-3][0-9]|[0-9a-z\" -]{0,12}",
                 "[A-Za-z\" ,]{0,6}", "[A-Za-z\" ,]{0,6}",
                 "[0-9.AB,\"-]{0,4}", "[0-9.\"-]{0,3}", "[0-9.\r\n\"-]{0,3}"),
                0..20),
        ) {
            for header in ["date,player_a,player_b,score,medals_a,medals_b\n", "date,home_team,away_team,home_score,away_score\n"] {
                let mut text = header.to_string();
                for (d, a, b, s, m1, m2) in &rows {
                    text.push_str(&format!("{d},{a},{b},{s},{m1},{m2}\n"));
                }
                drain(text.as_bytes());
            }
        }
    }

    const ASSET: &str = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/international_results.csv.gz"
    );

    #[test]
    fn bundled_international_results() {
        let reader = open(Path::new(ASSET), &Mapping::international()).unwrap();
        let (mut rows, mut draws) = (0u64, 0u64);
        let mut teams = HashSet::new();
        let mut first = None;
        for row in reader {
            let m = row.unwrap();
            rows += 1;
            if m.result == DRAW {
                draws += 1;
            }
            assert_eq!(m.line, rows + 1);
            teams.insert(m.player_a.clone());
            teams.insert(m.player_b.clone());
            first.get_or_insert(m);
        }
        assert_eq!(rows, 49_520);
        assert_eq!(teams.len(), 337);
        assert_eq!(draws, 11_258);
        let first = first.unwrap();
        assert_eq!(
            (
                first.line,
                first.date,
                one(&first.player_a),
                one(&first.player_b),
                first.result
            ),
            (2, date(1872, 11, 30), "Scotland", "England", DRAW)
        );
    }
}
