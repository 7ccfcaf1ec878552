//! The ladder's matches written back in the standard CSV layout (SPEC §4), so that an export
//! imports again: cancelled and forfeited matches by their result words, teams as `P1+P2`.

use crate::ladder::event::{Event, PlayerId};
use crate::ladder::log::Effective;
use crate::ladder::replay::Ladder;
use std::io::Write;

pub fn write_matches(ladder: &Ladder, events: &[Effective], out: impl Write) -> csv::Result<()> {
    let name = |ids: &[PlayerId]| {
        ids.iter()
            .map(|&i| ladder.player(i).map_or("?", |p| p.name.as_str()))
            .collect::<Vec<_>>()
            .join("+")
    };
    let mut w = csv::Writer::from_writer(out);
    w.write_record([
        "date", "player_a", "player_b", "score", "medals_a", "medals_b", "scenario", "side_a",
    ])?;
    for e in events {
        if let Event::Match(m) = &e.event {
            let (ma, mb) = m.medals.map_or((String::new(), String::new()), |[a, b]| {
                (a.to_string(), b.to_string())
            });
            w.write_record([
                e.date.to_string(),
                name(&m.a),
                name(&m.b),
                m.result.as_text().to_string(),
                ma,
                mb,
                m.scenario.clone().unwrap_or_default(),
                m.side_a.clone().unwrap_or_default(),
            ])?;
        }
    }
    w.flush()?;
    Ok(())
}
