//! `rungs publish` (the standings as a static site) and `rungs standings --csv` (the
//! standings for a spreadsheet): thin doors onto [`crate::publish`].

use super::common::shown;
use super::views::cut_at;
use crate::publish::folder::Staged;
use crate::publish::table::{self, Line};
use crate::publish::{self as site, Model, Options, Site};
use crate::store::Store;
use anyhow::{Result, anyhow};
use chrono::{Days, NaiveDate};
use std::path::Path;

/// The log up to `at` (all of it when `None`) and the day the ladder is shown at.
fn point(
    store: &Store,
    file: &Path,
    at: Option<&str>,
) -> Result<(Vec<crate::ladder::log::Effective>, usize, NaiveDate)> {
    match at {
        Some(at) => cut_at(store, file, at),
        None => {
            let events = store.effective()?;
            let n = events.len();
            Ok((events, n, crate::action::today()))
        }
    }
}

pub fn publish(file: &Path, dir: &Path, at: Option<&str>, options: &Options) -> Result<()> {
    let store = Store::open(file)?;
    let (events, cut, day) = point(&store, file, at)?;
    let events = &events[..cut];
    let model = Model::gather(&store.initial_rules()?, events, baseline(events))?;
    let site = Site::new(&model, options, day);
    // The folder is checked before any page is made: a refused target costs nothing.
    let mut staged = Staged::new(dir)?;
    let name = shown(staged.target());
    site::render(&site, &mut staged).map_err(|e| anyhow!("{name}: cannot write: {e}"))?;
    staged.commit()?;
    let pages = site.lines().count();
    say!(
        "wrote {name}: index.html, {} player page{}, the season archive; open {}",
        pages,
        if pages == 1 { "" } else { "s" },
        Path::new(&name).join("index.html").display()
    );
    Ok(())
}

/// Movement is measured over the last week of play: from the ladder as it stood a week
/// before the published point's last event (the events dated up to seven days before it).
pub fn baseline(events: &[crate::ladder::log::Effective]) -> usize {
    let Some(last) = events.last() else {
        return 0;
    };
    let before = last
        .date
        .checked_sub_days(Days::new(7))
        .unwrap_or(NaiveDate::MIN);
    events.partition_point(|e| e.date <= before)
}

pub fn standings_csv(file: &Path, all: bool, at: Option<&str>) -> Result<()> {
    let store = Store::open(file)?;
    let (ladder, lines) = match at {
        None => {
            let ladder = store.ladder()?;
            let lines = lines_of(&ladder, all);
            (ladder, lines)
        }
        Some(_) => {
            let (events, cut, _) = point(&store, file, at)?;
            let ladder = crate::ladder::replay::replay_state(
                &store.initial_rules()?,
                events[..cut].iter().map(|e| (e.date, e.seq, &e.event)),
            )?;
            let lines = lines_of(&ladder, all);
            (ladder, lines)
        }
    };
    let score = crate::chart::series::score_axis(ladder.rules.system());
    let bytes = table::write_csv(Vec::new(), score, &lines)?;
    let text = String::from_utf8_lossy(&bytes);
    say!("{}", text.trim_end_matches('\n'));
    Ok(())
}

/// The lines `rungs standings` lists: the leaderboard, or with `all` every player.
fn lines_of(ladder: &crate::ladder::replay::Ladder, all: bool) -> Vec<Line> {
    crate::ladder::standings::standings(ladder)
        .iter()
        .filter(|s| all || s.listed())
        .map(|s| Line::of(ladder, s))
        .collect()
}
