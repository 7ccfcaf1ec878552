//! `rungs publish` (the standings as a static site) and `rungs standings --csv` (the
//! standings for a spreadsheet): thin doors onto [`rungs_publish`].

use super::common::shown;
use super::views::{cut_at, point_in};
use anyhow::Result;
use chrono::NaiveDate;
use rungs_publish::table::{self, Line};
use rungs_publish::{self as site, Options};
use rungs_store::Store;
use std::path::Path;

/// The log up to `at` (all of it when `None`) and the day the ladder is shown at.
fn point(
    store: &Store,
    file: &Path,
    at: Option<&str>,
) -> Result<(Vec<rungs_ladder::log::Effective>, usize, NaiveDate)> {
    match at {
        Some(at) => cut_at(store, file, at),
        None => {
            let events = store.effective()?;
            let n = events.len();
            Ok((events, n, rungs_gate::today()))
        }
    }
}

pub fn publish(
    file: &Path,
    dir: &Path,
    at: Option<&str>,
    since: Option<&str>,
    options: &Options,
) -> Result<()> {
    let store = Store::open(file)?;
    let (events, cut, day) = point(&store, file, at)?;
    let since = match since {
        Some(s) => Some(point_in(&events, file, "since", s)?.0),
        None => None,
    };
    let request = site::Request {
        initial: &store.initial_rules()?,
        events: &events,
        cut,
        day,
        ladder: file,
        since,
    };
    let (target, pages) = site::publish_site(&request, options, dir)?;
    let name = shown(&target);
    say!(
        "wrote {name}: index.html, {} player page{}, the season archive; open {}",
        pages,
        if pages == 1 { "" } else { "s" },
        target.join("index.html").display()
    );
    Ok(())
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
            let ladder = rungs_ladder::replay::replay_state(
                &store.initial_rules()?,
                events[..cut].iter().map(|e| (e.date, e.seq, &e.event)),
            )?;
            let lines = lines_of(&ladder, all);
            (ladder, lines)
        }
    };
    let score = rungs_chart::series::score_axis(ladder.rules.system());
    let bytes = table::write_csv(Vec::new(), score, &lines)?;
    let text = String::from_utf8_lossy(&bytes);
    say!("{}", text.trim_end_matches('\n'));
    Ok(())
}

/// The lines `rungs standings` lists: the leaderboard, or with `all` every player.
fn lines_of(ladder: &rungs_ladder::replay::Ladder, all: bool) -> Vec<Line> {
    rungs_ladder::standings::standings(ladder)
        .iter()
        .filter(|s| all || s.listed())
        .map(|s| Line::of(ladder, s))
        .collect()
}
