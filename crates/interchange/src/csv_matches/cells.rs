//! The checks of the cells of a row (a player, a number, a score, a class, a flag, a date),
//! and the wording of what is wrong with one.
use super::mapping::{HomeIdx, ResultIdx, class_of_tournament};
use super::reader::{CellIndex, Found, MatchReader, TEAM};
use super::record::{CsvError, MAX_CACHED_CELLS};
use super::words::quote;
use chrono::NaiveDate;
use chrono::format::Parsed;
use foldhash::HashMap;
use rungs_ladder::event::{EventClass, Home, MatchResult};
use rungs_ladder::score;
use rungs_ladder::values::{self, Day, PlayerName};
use rungs_rating::Outcome;
use std::io::Read;

/// The forms [`MatchResult::parse`] accepts, for error messages.
const ACCEPTED_SCORES: &str = "1, 0.5 or 0 (A won, draw, A lost), A, B, draw \
    (also D, 1-0, 0-1, ½, win, loss), forfeit-a, forfeit-b, cancelled";

impl<R: Read> MatchReader<R> {
    /// The side in cell `idx`: its index in the table of sides read.
    pub(super) fn player(&mut self, idx: usize, line: u64) -> Result<Found, CsvError> {
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
                     without it); a team is written with commas alone, as \"Ann,Bo\"",
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

    pub(super) fn number(
        &self,
        idx: usize,
        line: u64,
        what: &str,
    ) -> Result<Option<f64>, CsvError> {
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

    pub(super) fn optional_text(
        &self,
        idx: Option<usize>,
        line: u64,
    ) -> Result<Option<String>, CsvError> {
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
    pub(super) fn score_cells(
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
    pub(super) fn class(&self, line: u64) -> Result<Option<EventClass>, CsvError> {
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
    pub(super) fn home(&self, line: u64) -> Result<Option<Home>, CsvError> {
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
    pub(super) fn parse_date(&self, text: &str) -> Option<NaiveDate> {
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

    /// The date of the current record. A run of rows with the same date cell (a file in date
    /// order) reads it once.
    pub(super) fn date(&mut self, line: u64) -> Result<NaiveDate, CsvError> {
        let cols = &self.cols;
        let date_key = CellIndex::short_key(self.record.get(cols.date).unwrap_or_default());
        if let Some((key, date)) = self.last_date
            && Some(key) == date_key
        {
            return Ok(date);
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
            let mut e = self.error(
                line,
                cols.name(cols.date),
                format!("{what}; expected format {}{example}", self.date_format),
            );
            e.problem = Some(Box::new(super::record::CsvProblem::Date {
                text: date_text.to_string(),
                example: self.date_example.clone(),
            }));
            e
        })?;

        let date = Day::new(date).map(Day::date).map_err(|e| {
            self.error(
                line,
                cols.name(cols.date),
                format!("the date {} {e}", quote(date_text)),
            )
        })?;
        self.last_date = date_key.map(|key| (key, date));
        Ok(date)
    }

    /// The result of the current record, and each side's points if it is read from two
    /// columns of whole numbers.
    pub(super) fn result(&self, line: u64) -> Result<(MatchResult, Option<[u32; 2]>), CsvError> {
        let cols = &self.cols;
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
                // Whole numbers within the bound are kept as the score.
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
        Ok((result, kept))
    }

    /// Both medal counts of the current record, if the header has their columns.
    pub(super) fn medals(&self, line: u64) -> Result<Option<values::Medals>, CsvError> {
        let cols = &self.cols;
        let medals = match cols.medals {
            None => None,
            Some([ia, ib]) => match (
                self.number(ia, line, "the medal count")?,
                self.number(ib, line, "the medal count")?,
            ) {
                // Each count is checked already: the pair cannot be refused here.
                (Some(a), Some(b)) => Some(
                    values::Medals::new([a, b])
                        .map_err(|e| self.error(line, cols.name(ia), e.to_string()))?,
                ),
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
                            "only one of the two medal counts is given ({} holds {}, {} is \
                             empty): give both or neither",
                            quote(cols.name(given)),
                            quote(self.cell(given, line)?),
                            quote(cols.name(missing))
                        ),
                    ));
                }
            },
        };
        Ok(medals)
    }
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
