//! The ladder's matches written back in the standard CSV layout, so that an export
//! imports again: cancelled and forfeited matches by their result words, teams as `Ann,Bo`,
//! the side-advantage flag as `a`, `b` or `neutral` in a last `home` column (empty: no flag).
//! No cell is ever a live spreadsheet formula: text starting with `=`, `+`, `-` or `@` gets a
//! leading `'` (names cannot start so; older files and other fields might), which the
//! importer takes off again; so does text that starts with `'` and then one of those.

use chrono::NaiveDate;
use rungs_ladder::event::{Event, PlayerId};
use rungs_ladder::log::Effective;
use rungs_ladder::replay::Ladder;
use rungs_ladder::values::Medals;
use std::borrow::Cow;
use std::io::Write;

/// `text` as a cell a spreadsheet shows as text. Text that already starts with `'` before a
/// formula character gets one more, so that the importer, which takes one off, reads it back
/// as it was (`'=x` is written `''=x`).
pub fn inert(text: &str) -> Cow<'_, str> {
    if text
        .trim_start_matches('\'')
        .starts_with(['=', '+', '-', '@'])
    {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

/// Writes matches one at a time in the standard layout: what `rungs export OUT.csv` streams.
pub struct MatchWriter<W: Write> {
    w: csv::Writer<W>,
    /// Whether the rows carry `goals_a,goals_b,class` (a ladder with scores or classes).
    scores: bool,
}

impl<W: Write> MatchWriter<W> {
    /// Starts the file with its header.
    pub fn new(out: W) -> csv::Result<MatchWriter<W>> {
        MatchWriter::with_scores(out, false)
    }

    /// Starts the file; with `scores`, three more columns: each side's points and the class
    /// of its event, which the importer reads back.
    pub fn with_scores(out: W, scores: bool) -> csv::Result<MatchWriter<W>> {
        let mut w = csv::Writer::from_writer(out);
        let mut header = vec![
            "date", "player_a", "player_b", "score", "medals_a", "medals_b", "scenario", "side_a",
            "home",
        ];
        if scores {
            header.extend(["goals_a", "goals_b", "class"]);
        }
        w.write_record(header)?;
        Ok(MatchWriter { w, scores })
    }

    /// Writes `event` if it is a match, its players named as `ladder` knows them now.
    pub fn event(&mut self, ladder: &Ladder, date: NaiveDate, event: &Event) -> csv::Result<()> {
        let Event::Match(m) = event else {
            return Ok(());
        };
        let name = |ids: &[PlayerId]| {
            ids.iter()
                .map(|&i| ladder.player(i).map_or("?", |p| p.name.as_str()))
                .collect::<Vec<_>>()
                .join(",")
        };
        let (ma, mb) = m
            .medals
            .map(Medals::get)
            .map_or((String::new(), String::new()), |[a, b]| {
                (a.to_string(), b.to_string())
            });
        let (a, b) = (name(&m.a), name(&m.b));
        if self.scores {
            let (ga, gb) = m.goals.map_or((String::new(), String::new()), |[x, y]| {
                (x.to_string(), y.to_string())
            });
            let class = m.class.map(|c| c.as_text()).unwrap_or_default();
            return self.w.write_record([
                date.format("%Y-%m-%d").to_string().as_str(),
                &inert(&a),
                &inert(&b),
                m.result.as_text(),
                &ma,
                &mb,
                &inert(m.scenario.as_deref().unwrap_or_default()),
                &inert(m.side_a.as_deref().unwrap_or_default()),
                m.home.map_or("", |h| h.as_text()),
                &ga,
                &gb,
                &class,
            ]);
        }
        self.w.write_record([
            date.format("%Y-%m-%d").to_string().as_str(),
            &inert(&a),
            &inert(&b),
            m.result.as_text(),
            &ma,
            &mb,
            &inert(m.scenario.as_deref().unwrap_or_default()),
            &inert(m.side_a.as_deref().unwrap_or_default()),
            m.home.map_or("", |h| h.as_text()),
        ])
    }

    /// Flushes the rows and hands back where they went.
    pub fn finish(self) -> csv::Result<W> {
        self.w
            .into_inner()
            .map_err(|e| csv::Error::from(e.into_error()))
    }
}

/// Whether any match of `events` has a score or a class (then the export carries them).
pub fn has_scores<'a>(events: impl IntoIterator<Item = &'a Event>) -> bool {
    events
        .into_iter()
        .any(|e| matches!(e, Event::Match(m) if m.goals.is_some() || m.class.is_some()))
}

pub fn write_matches<W: Write>(ladder: &Ladder, events: &[Effective], out: W) -> csv::Result<W> {
    let mut w = MatchWriter::with_scores(out, has_scores(events.iter().map(|e| &e.event)))?;
    for e in events {
        w.event(ladder, e.date, &e.event)?;
    }
    w.finish()
}
