//! Log rows to and from their SQL columns.

use crate::ladder::event::{Entry, Event, LogRow, Match, MatchResult};
use chrono::NaiveDate;

/// The columns of one `entries` row (without its action).
pub struct Columns {
    pub date: String,
    pub op: &'static str,
    pub target: Option<i64>,
    pub a: Option<i64>,
    pub b: Option<i64>,
    pub result: Option<&'static str>,
    pub body: Option<String>,
}

/// Whether a match fits the columns alone: 1v1 and nothing but a result (a side-advantage
/// flag goes to the JSON body with the other extras).
fn plain(m: &Match) -> bool {
    m.a.len() == 1
        && m.b.len() == 1
        && m.medals.is_none()
        && m.scenario.is_none()
        && m.side_a.is_none()
        && m.home.is_none()
}

pub fn to_columns(date: NaiveDate, entry: &Entry) -> Result<Columns, serde_json::Error> {
    let date = date.format("%Y-%m-%d").to_string();
    let mut c = Columns {
        date,
        op: "add",
        target: None,
        a: None,
        b: None,
        result: None,
        body: None,
    };
    let event = match entry {
        Entry::Add { event } => Some(event),
        Entry::Edit { target, event } => {
            c.op = "edit";
            c.target = Some(*target as i64);
            Some(event)
        }
        Entry::Delete { target } => {
            c.op = "delete";
            c.target = Some(*target as i64);
            None
        }
    };
    match event {
        Some(Event::Match(m)) if plain(m) => {
            c.a = Some(m.a[0] as i64);
            c.b = Some(m.b[0] as i64);
            c.result = Some(m.result.as_text());
        }
        Some(e) => c.body = Some(serde_json::to_string(e)?),
        None => {}
    }
    Ok(c)
}

/// `YYYY-MM-DD` exactly, by hand: chrono's general parser dominates reading a large log.
pub fn parse_iso_date(text: &str) -> Option<NaiveDate> {
    let b = text.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<u32> {
        b[r].iter().try_fold(0u32, |n, &c| {
            c.is_ascii_digit().then(|| n * 10 + (c - b'0') as u32)
        })
    };
    NaiveDate::from_ymd_opt(num(0..4)? as i32, num(5..7)?, num(8..10)?)
}

/// A row read back; `Err` carries a description of what is wrong with it.
#[allow(clippy::too_many_arguments)]
pub fn from_columns(
    seq: i64,
    date: &str,
    op: &str,
    target: Option<i64>,
    a: Option<i64>,
    b: Option<i64>,
    result: Option<&str>,
    body: Option<&str>,
) -> Result<LogRow, String> {
    let date = parse_iso_date(date).ok_or_else(|| format!("row {seq}: bad date `{date}`"))?;
    let event = || -> Result<Event, String> {
        if let Some(body) = body {
            return serde_json::from_str(body).map_err(|e| format!("row {seq}: {e}"));
        }
        let id = |x: Option<i64>| x.and_then(|v| u32::try_from(v).ok());
        match (id(a), id(b), result.and_then(MatchResult::parse)) {
            (Some(a), Some(b), Some(result)) => Ok(Event::Match(Match::new(a, b, result))),
            _ => Err(format!("row {seq}: incomplete match")),
        }
    };
    let target = || {
        target
            .and_then(|t| u64::try_from(t).ok())
            .ok_or_else(|| format!("row {seq}: correction without a target"))
    };
    let entry = match op {
        "add" => Entry::Add { event: event()? },
        "edit" => Entry::Edit {
            target: target()?,
            event: event()?,
        },
        "delete" => Entry::Delete { target: target()? },
        other => return Err(format!("row {seq}: unknown operation `{other}`")),
    };
    Ok(LogRow {
        seq: seq as u64,
        date,
        entry,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_dates_parse_exactly() {
        assert_eq!(
            parse_iso_date("2026-11-22"),
            NaiveDate::from_ymd_opt(2026, 11, 22)
        );
        assert_eq!(
            parse_iso_date("0001-01-01"),
            NaiveDate::from_ymd_opt(1, 1, 1)
        );
        for bad in [
            "2026-02-30",
            "2026-1-22",
            "2026/11/22",
            "20261122xx",
            "",
            "2026-11-2a",
            "２０２６-11-2",
        ] {
            assert_eq!(parse_iso_date(bad), None, "{bad}");
        }
    }
}
