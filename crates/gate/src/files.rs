//! New ladder files: an empty ladder, a JSON Lines log brought back, a simulation. Each is
//! checked before the file is made, and made under a temporary name that becomes the file's
//! only once it is complete (`store::NewLadder`): a failure or a kill leaves nothing under
//! the name, so a retry finds it free.

use super::{ActionError, Place};
use rungs_analysis::simulate::{SimConfig, SimReport, simulate};
use rungs_interchange::jsonl::LogReader;
use rungs_ladder::event::{Entry, Event, LogRow};
use rungs_ladder::rules::Rules;
use rungs_store::export::Log;
use rungs_store::import::{ImportFailure, LogPiece};
use rungs_store::newfile::NewLadder;
use rungs_store::{OpenError, Store, StoreError};
use std::collections::HashMap;
use std::io::BufRead;
use std::path::Path;

fn check_rules(path: &Path, rules: &Rules) -> Result<(), ActionError> {
    rules
        .check()
        .map_err(|e| ActionError::refused(&Place::file(path.display().to_string()), e.to_string()))
}

/// A new, empty ladder running `rules` (every parameter in its declared range).
pub fn create(path: &Path, rules: &Rules) -> Result<Store, ActionError> {
    check_rules(path, rules)?;
    Ok(Store::create(path, rules)?)
}

/// A new ladder at `path` holding `log` (read and checked line by line by
/// `interchange::jsonl::read`): it replays to the standings the log was exported from.
pub fn import_log(path: &Path, log: &Log) -> Result<Store, ActionError> {
    let here = |_| Place::file(path.display().to_string());
    bring_in(path, log, &here, &here)
}

/// A new ladder at `path` holding the log `reader` reads, line by line as it is written in
/// (never held whole): a problem is shown at the line it came from, and leaves no file.
/// Returns the ladder and how many actions it holds.
pub fn import_log_reader<R: BufRead>(
    path: &Path,
    reader: &mut LogReader<R>,
) -> Result<(Store, u64), ActionError> {
    let rules = reader.rules().clone();
    check_rules(path, &rules)?;
    let today = super::today();
    let mut names: HashMap<u32, String> = HashMap::new();
    let mut actions = 0u64;
    let mut made = NewLadder::begin(path, &rules)?;
    let mut next = || -> Result<Option<LogPiece>, ActionError> {
        let piece = reader.next_piece()?;
        match &piece {
            Some(LogPiece::Row(row)) => {
                let place = Place::line(reader.places().file.clone(), reader.line());
                check_date(row, today, &place)?;
                if let Entry::Add {
                    event: Event::Player { id, name, .. } | Event::Rename { id, name },
                } = &row.entry
                {
                    names.insert(*id, name.to_string());
                }
            }
            Some(LogPiece::Action { .. }) => actions += 1,
            None => {}
        }
        Ok(piece)
    };
    let imported = made.store()?.import_pieces(&rules, &mut next);
    match imported {
        Ok(()) => Ok((made.finish()?, actions)),
        Err(ImportFailure::Source(e)) => Err(e),
        Err(ImportFailure::Store(StoreError::Replay { cause, .. })) => {
            let places = reader.places();
            let at = match places.line_of(cause.seq()) {
                Some(line) => Place::line(places.file.clone(), line),
                None => Place::file(places.file.clone()),
            };
            Err(ActionError::Replay {
                at,
                message: cause.describe(&|id| names.get(&id).cloned()),
            })
        }
        Err(ImportFailure::Store(other)) => Err(ActionError::Store(other)),
    }
}

/// The ladder made from `log`; `event_at` places a problem with event `seq` as replay
/// finds it, `row_at` one with the log's row `seq`.
fn bring_in(
    path: &Path,
    log: &Log,
    event_at: &dyn Fn(u64) -> Place,
    row_at: &dyn Fn(u64) -> Place,
) -> Result<Store, ActionError> {
    check_rules(path, &log.rules)?;
    check_dates(log, super::today(), row_at)?;
    let mut made = NewLadder::begin(path, &log.rules)?;
    if let Err(e) = made.store()?.import_log(log) {
        return Err(match e {
            StoreError::Replay { cause, .. } => {
                let names = log_names(log);
                ActionError::Replay {
                    at: event_at(cause.seq()),
                    message: cause.describe(&|id| names.get(&id).cloned()),
                }
            }
            other => ActionError::Store(other),
        });
    }
    Ok(made.finish()?)
}

/// A log's rows are dated when they happened, as the gate dates them: none after `today`
/// but a rules change, which is scheduled ahead.
fn check_dates(
    log: &Log,
    today: chrono::NaiveDate,
    at: &dyn Fn(u64) -> Place,
) -> Result<(), ActionError> {
    for row in log.actions.iter().flat_map(|a| &a.rows) {
        check_date(row, today, &at(row.seq))?;
    }
    Ok(())
}

fn check_date(row: &LogRow, today: chrono::NaiveDate, at: &Place) -> Result<(), ActionError> {
    let scheduled = matches!(
        &row.entry,
        Entry::Add {
            event: Event::Rules { .. }
        } | Entry::Edit {
            event: Event::Rules { .. },
            ..
        }
    );
    if row.date > today && !scheduled {
        return Err(ActionError::invalid(
            at,
            "date",
            &row.date.to_string(),
            format!(
                "is after today ({today}); a log's rows are dated when they happened \
                 (only a rules change is scheduled ahead)"
            ),
        ));
    }
    Ok(())
}

/// The latest name of each player in a log, for messages.
fn log_names(log: &Log) -> HashMap<u32, String> {
    let mut names = HashMap::new();
    for row in log.actions.iter().flat_map(|a| &a.rows) {
        if let Entry::Add {
            event: Event::Player { id, name, .. } | Event::Rename { id, name },
        } = &row.entry
        {
            names.insert(*id, name.to_string());
        }
    }
    names
}

/// Simulates `cfg` into a new ladder at `path`, which must not exist: the ladder is created
/// with `cfg.rules` and every row lands in one action (one undo takes it all back).
/// `progress` counts simulated events up to [`SimConfig::events`]; returning false cancels
/// before anything is written.
pub fn simulate_into(
    path: &Path,
    cfg: &SimConfig,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<SimReport, ActionError> {
    cfg.validate()?;
    let today = super::today();
    if let Some(last) = cfg.last_day().filter(|&last| last > today) {
        let weeks = u64::from(cfg.weeks);
        return Err(ActionError::invalid(
            &Place::file(path.display().to_string()),
            "start",
            &cfg.start.to_string(),
            format!(
                "with {weeks} weeks runs to {last}, after today ({today}); a simulation \
                 records its matches as played: start on or before {}",
                today - chrono::Days::new((7 * weeks).saturating_sub(1))
            ),
        ));
    }
    // Checked first so a long simulation is not run for nothing; the new file checks again.
    if std::fs::symlink_metadata(path).is_ok() {
        return Err(StoreError::from(OpenError::Exists(path.display().to_string())).into());
    }
    let sim = simulate(cfg, progress)?;
    let label = format!(
        "simulate {} players, {} weeks, {} matches a week ({}, seed {})",
        cfg.players,
        cfg.weeks,
        cfg.matches_per_week,
        rungs_analysis::evaluate::label(&cfg.rules),
        cfg.seed
    );
    check_rules(path, &cfg.rules)?;
    let mut made = NewLadder::begin(path, &cfg.rules)?;
    let change = rungs_store::Change::new(label, sim.rows)?;
    made.store()?.commit(&change)?;
    drop(change);
    made.finish()?;
    Ok(sim.report)
}
