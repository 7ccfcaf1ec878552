//! Which columns of a match CSV hold what: the [`Mapping`] given (its presets among them),
//! and the columns it finds in a file's header.
use super::record::{CsvError, CsvProblem};
use super::words::{list_columns, listed_columns};
use rungs_ladder::event::EventClass;

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
    /// Where the side-advantage flag is read. Used only if the header has the
    /// column; without it every match is unflagged (no advantage).
    pub home: Option<HomeColumn>,
    /// The event's class: `friendly`, `league`, `cup`, `championship`, a weight,
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
    ///
    /// [`MatchResult::parse`]: rungs_ladder::event::MatchResult::parse
    Score(String),
    /// Two numeric columns (goals, points): the higher wins, equal is a draw.
    Goals { a: String, b: String },
}

impl Mapping {
    /// The standard columns: `date,player_a,player_b,score` with optional
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

/// Column indices and header names resolved from a [`Mapping`].
pub(super) struct Columns {
    /// The header's cells, trimmed; used as field names in messages.
    pub(super) names: Vec<String>,
    pub(super) date: usize,
    pub(super) player_a: usize,
    pub(super) player_b: usize,
    pub(super) result: ResultIdx,
    pub(super) medals: Option<[usize; 2]>,
    pub(super) scenario: Option<usize>,
    pub(super) side_a: Option<usize>,
    pub(super) home: Option<HomeIdx>,
    pub(super) class: Option<usize>,
    pub(super) score_goals: Option<[usize; 2]>,
}

pub(super) enum HomeIdx {
    Side(usize),
    Neutral(usize),
}

pub(super) enum ResultIdx {
    Score(usize),
    Goals([usize; 2]),
}

impl Columns {
    pub(super) fn name(&self, idx: usize) -> &str {
        self.names.get(idx).map_or("row", String::as_str)
    }

    /// The required columns, in no particular order.
    pub(super) fn required(&self) -> impl Iterator<Item = usize> + '_ {
        let result: &[usize] = match &self.result {
            ResultIdx::Score(i) => std::slice::from_ref(i),
            ResultIdx::Goals(ab) => ab,
        };
        [self.date, self.player_a, self.player_b]
            .into_iter()
            .chain(result.iter().copied())
    }
}

impl Columns {
    /// Finds `mapping`'s columns in the header `record`, read from line `header_line` of
    /// `file`: each required column once, and each column a person named read as one thing.
    pub(super) fn from_header(
        record: &csv::ByteRecord,
        header_line: u64,
        mapping: &Mapping,
        file: &str,
    ) -> Result<Columns, CsvError> {
        let err = |line: u64, field: &str, message: String| CsvError {
            file: file.to_string(),
            line,
            field: field.to_string(),
            message,
            problem: None,
        };

        // A picture or a spreadsheet's own format read as CSV: its "columns" are binary
        // bytes, and listing them when a column is missing helps nobody. (A header in
        // another encoding whose columns are found still reads.)
        let text = |cell: &[u8]| {
            std::str::from_utf8(cell).is_ok_and(|t| !t.chars().any(|c| c.is_control() && c != '\t'))
        };
        let is_text = record.iter().all(text);
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
                let mut e = err(
                    header_line,
                    wanted,
                    format!(
                        "column `{wanted}` appears more than once in the header \
                         (columns {} and {})",
                        i + 1,
                        j + 1
                    ),
                );
                e.problem = Some(Box::new(CsvProblem::RepeatedColumn {
                    column: wanted.to_string(),
                    places: [i + 1, j + 1],
                }));
                return Err(e);
            }
            Ok(first)
        };
        let require = |wanted: &str| -> Result<usize, CsvError> {
            find(wanted)?.ok_or_else(|| {
                if !is_text {
                    let mut e = err(
                        header_line,
                        "row",
                        "is not text (a match CSV is a text file); nothing was imported"
                            .to_string(),
                    );
                    e.problem = Some(Box::new(CsvProblem::NotText));
                    return e;
                }
                let mut e = err(
                    header_line,
                    wanted,
                    format!(
                        "the header has no column `{wanted}`; its columns are: {}",
                        list_columns(&names)
                    ),
                );
                let (columns, more) = listed_columns(&names);
                e.problem = Some(Box::new(CsvProblem::MissingColumn {
                    column: wanted.to_string(),
                    columns,
                    more,
                }));
                e
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
                let mut e = err(
                    header_line,
                    &absent,
                    format!(
                        "the header has `{present}` but no `{absent}`: medals need both columns"
                    ),
                );
                e.problem = Some(Box::new(CsvProblem::HalfMedals { present, absent }));
                return Err(e);
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

        Ok(Columns {
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
        })
    }
}
