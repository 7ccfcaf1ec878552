//! New ladder files: an empty ladder, a JSON Lines log brought back, a simulation. Each is
//! checked before the file is made, and a file this module made is removed again if filling
//! it fails, so a retry finds the name free.

use super::{ActionError, Place};
use crate::ladder::rules::Rules;
use crate::ladder::simulate::{SimConfig, SimReport, simulate};
use crate::store::export::Log;
use crate::store::{Store, StoreError};
use std::path::Path;

/// A new, empty ladder running `rules` (every parameter in its declared range).
pub fn create(path: &Path, rules: &Rules) -> Result<Store, ActionError> {
    rules.check().map_err(|e| {
        ActionError::refused(&Place::file(path.display().to_string()), e.to_string())
    })?;
    Ok(Store::create(path, rules)?)
}

/// Removes a ladder file this module created and could not fill.
fn remove(path: &Path) {
    for suffix in ["", "-wal", "-shm", "-journal"] {
        let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
    }
}

/// A new ladder at `path` holding `log` (read and checked line by line by
/// `interchange::jsonl::read`): it replays to the standings the log was exported from.
pub fn import_log(path: &Path, log: &Log) -> Result<Store, ActionError> {
    let mut store = create(path, &log.rules)?;
    if let Err(e) = store.import_log(log) {
        drop(store);
        remove(path);
        return Err(match e {
            StoreError::Replay { path, cause } => {
                let names = log_names(log);
                ActionError::Replay {
                    at: Place::file(path),
                    message: cause.describe(&|id| names.get(&id).cloned()),
                }
            }
            other => ActionError::Store(other),
        });
    }
    Ok(store)
}

/// The latest name of each player in a log, for messages.
fn log_names(log: &Log) -> std::collections::HashMap<u32, String> {
    use crate::ladder::event::{Entry, Event};
    let mut names = std::collections::HashMap::new();
    for row in log.actions.iter().flat_map(|a| &a.rows) {
        if let Entry::Add {
            event: Event::Player { id, name, .. } | Event::Rename { id, name },
        } = &row.entry
        {
            names.insert(*id, name.clone());
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
    let exists = || {
        StoreError::from(crate::store::schema::OpenError::Exists(
            path.display().to_string(),
        ))
    };
    // Checked first so a long simulation is not run for nothing; Store::create checks again.
    if path.exists() {
        return Err(exists().into());
    }
    let sim = simulate(cfg, progress)?;
    let label = format!(
        "simulate {} players, {} weeks, {} matches a week ({}, seed {})",
        cfg.players,
        cfg.weeks,
        cfg.matches_per_week,
        crate::ladder::evaluate::label(&cfg.rules),
        cfg.seed
    );
    let mut store = create(path, &cfg.rules)?;
    if let Err(e) = store.commit(&label, &sim.rows) {
        drop(store);
        remove(path);
        return Err(e.into());
    }
    Ok(sim.report)
}
