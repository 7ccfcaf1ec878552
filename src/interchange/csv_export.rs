//! The ladder's matches written back in the standard CSV layout (SPEC §4), so that an export
//! imports again: cancelled and forfeited matches by their result words, teams as `Ann,Bo`,
//! the side-advantage flag as `a`, `b` or `neutral` in a last `home` column (empty: no flag).
//! No cell is ever a live spreadsheet formula: text starting with `=`, `+`, `-` or `@` gets a
//! leading `'` (names cannot start so; older files and other fields might), which the
//! importer takes off again.

use crate::ladder::event::{Event, PlayerId};
use crate::ladder::log::Effective;
use crate::ladder::replay::Ladder;
use std::borrow::Cow;
use std::io::Write;

/// `text` as a cell a spreadsheet shows as text.
pub fn inert(text: &str) -> Cow<'_, str> {
    if text.starts_with(['=', '+', '-', '@']) {
        Cow::Owned(format!("'{text}"))
    } else {
        Cow::Borrowed(text)
    }
}

pub fn write_matches(ladder: &Ladder, events: &[Effective], out: impl Write) -> csv::Result<()> {
    let name = |ids: &[PlayerId]| {
        ids.iter()
            .map(|&i| ladder.player(i).map_or("?", |p| p.name.as_str()))
            .collect::<Vec<_>>()
            .join(",")
    };
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "date", "player_a", "player_b", "score", "medals_a", "medals_b", "scenario", "side_a",
        "home",
    ])?;
    for e in events {
        if let Event::Match(m) = &e.event {
            let (ma, mb) = m.medals.map_or((String::new(), String::new()), |[a, b]| {
                (a.to_string(), b.to_string())
            });
            let (a, b) = (name(&m.a), name(&m.b));
            w.write_record([
                e.date.format("%Y-%m-%d").to_string().as_str(),
                &inert(&a),
                &inert(&b),
                m.result.as_text(),
                &ma,
                &mb,
                &inert(m.scenario.as_deref().unwrap_or_default()),
                &inert(m.side_a.as_deref().unwrap_or_default()),
                m.home.map_or("", |h| h.as_text()),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}
