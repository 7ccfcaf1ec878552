//! What a ladder holds, read and never changed: its events, standings (now or at a point in
//! the past), a player's history, the season archive, the scenarios.

use super::common::{open, shown};
use super::output;
use anyhow::Result;
use chrono::NaiveDate;
use rungs_gate::{ActionError, Place, parse_day};
use rungs_ladder::replay::Ladder;
use rungs_ladder::{seasons, standings};
use rungs_store::Store;
use std::path::Path;

/// The log in replay order; the text shows the season calendar's resets where they apply.
pub fn events(file: &Path, json: bool) -> Result<()> {
    let (store, ladder) = open(file)?;
    let mut out = output::EventsOut::new(&ladder, store.initial_rules()?.calendar, json);
    // A failed write ends the listing; the command's end says whether it was an error.
    match store.for_each_event(|date, seq, event| out.event(date, seq, event))? {
        Ok(()) => super::stdout::check(out.finish()),
        Err(e) => super::stdout::keep(e),
    }
    Ok(())
}

/// The standings, now or at a point in the past; the text opens with where the ladder stands
/// on its season calendar that day (season, week, the next reset).
pub fn standings(file: &Path, json: bool, all: bool, at: Option<&str>) -> Result<()> {
    let (store, now) = open(file)?;
    let (ladder, day) = match at {
        None => (now, rungs_gate::today()),
        Some(at) => ladder_at(&store, file, at)?,
    };
    if !json {
        output::calendar_status(&seasons::calendar_status(&ladder, day));
    }
    output::standings_filtered(&ladder, &standings::standings(&ladder), json, all);
    Ok(())
}

/// The ladder as it stood at the end of a date, or right after the event with that sequence
/// number, with that date (the event's).
fn ladder_at(store: &Store, file: &Path, at: &str) -> Result<(Ladder, NaiveDate)> {
    let (events, cut, day) = cut_at(store, file, at)?;
    let (ladder, _) = rungs_ladder::replay::replay(
        &store.initial_rules()?,
        events[..cut].iter().map(|e| (e.date, e.seq, &e.event)),
    )?;
    Ok((ladder, day))
}

/// The log, how many of its events stand at the end of a date or up to the event with that
/// sequence number, and that date (the event's).
pub fn cut_at(
    store: &Store,
    file: &Path,
    at: &str,
) -> Result<(Vec<rungs_ladder::log::Effective>, usize, NaiveDate)> {
    let events = store.effective()?;
    let (cut, day) = point_in(&events, file, "at", at)?;
    Ok((events, cut, day))
}

/// How many of `events` stand at the end of a date, or up to the event with that sequence
/// number, and that date; `field` names the option in a message.
pub fn point_in(
    events: &[rungs_ladder::log::Effective],
    file: &Path,
    field: &'static str,
    at: &str,
) -> Result<(usize, NaiveDate)> {
    let place = Place::file(shown(file));
    if let Ok(seq) = at.trim().parse::<u64>() {
        let i = events
            .iter()
            .position(|e| e.seq == seq)
            .ok_or(ActionError::NoEvent { at: place, seq })?;
        Ok((i + 1, events[i].date))
    } else {
        let date = parse_day(&place, field, at)?;
        Ok((events.partition_point(|e| e.date <= date), date))
    }
}

pub fn history(file: &Path, player: &str, json: bool) -> Result<()> {
    let (store, ladder) = open(file)?;
    let roster = rungs_gate::Roster::new(&ladder);
    let id = roster.player(&Place::file(shown(file)), "player", player)?;
    output::history(&ladder, &store.history(id)?, json);
    Ok(())
}

pub fn seasons(file: &Path, json: bool) -> Result<()> {
    let ladder = Store::open(file)?.ladder()?;
    output::seasons(&ladder, json);
    Ok(())
}

pub fn scenarios(file: &Path, json: bool) -> Result<()> {
    let ladder = Store::open(file)?.ladder()?;
    if json {
        say!("{}", ladder.scenarios.to_json());
        return Ok(());
    }
    for (name, s) in &ladder.scenarios.scenarios {
        say!(
            "{}: {}",
            output::shown(ladder.scenarios.shown_name(name)),
            output::shown(&s.summary())
        );
    }
    for o in ladder.scenarios.overrides.values() {
        say!(
            "{} (set): {} wins {:.0} %, averages {} {:.1}, {} {:.1}",
            o.scenario,
            o.sides[0],
            o.ratio * 100.0,
            o.sides[0],
            o.averages[0],
            o.sides[1],
            o.averages[1]
        );
    }
    Ok(())
}
