//! The reader's tests, each file beside the part it tests; here what they share.
mod cells;
mod lines;
mod mapping;
mod reader;

use super::{CsvError, CsvMatch, Mapping, MatchReader, Side};
use chrono::NaiveDate;
use rungs_ladder::event::MatchResult;
use rungs_ladder::values::PlayerName;
use rungs_rating::Outcome;

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

const INTERNATIONAL: &str =
    "date,home_team,away_team,home_score,away_score,tournament,city,country,neutral\n";
