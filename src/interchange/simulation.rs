//! A simulated ladder written to a new file: the simulation's rows committed as one action.

use crate::ladder::evaluate::label;
use crate::ladder::simulate::{SimConfig, SimError, SimReport, simulate};
use crate::store::{Store, StoreError};
use std::path::Path;

/// Why a simulated ladder was not written. Nothing is left behind when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum SimulationError {
    #[error("{0}: already exists; a simulation writes a new file, so choose another name")]
    Exists(String),
    #[error(transparent)]
    Simulation(#[from] SimError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Simulates `cfg` and writes the ladder to `path`, which must not exist yet: the ladder is
/// created with `cfg.rules` and every row lands in one action labelled `simulate …` (one
/// undo takes it all back). `progress` counts simulated events up to [`SimConfig::events`];
/// returning false cancels before anything is written. Writing itself is not cancellable.
pub fn write(
    path: &Path,
    cfg: &SimConfig,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<SimReport, SimulationError> {
    let exists = || SimulationError::Exists(path.display().to_string());
    // Checked first so a long simulation is not run for nothing; Store::create checks again.
    if path.exists() {
        return Err(exists());
    }
    let sim = simulate(cfg, progress)?;
    if path.exists() {
        return Err(exists());
    }
    let action = format!(
        "simulate {} players, {} weeks, {} matches a week ({}, seed {})",
        cfg.players,
        cfg.weeks,
        cfg.matches_per_week,
        label(&cfg.rules),
        cfg.seed
    );
    // Store::create refuses a file that appeared meanwhile; only one it made is removed below.
    let mut store = Store::create(path, &cfg.rules)?;
    if let Err(e) = store.commit(&action, &sim.rows) {
        drop(store);
        // The empty ladder this call created goes too, so a retry finds the name free.
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
        }
        return Err(e.into());
    }
    Ok(sim.report)
}
