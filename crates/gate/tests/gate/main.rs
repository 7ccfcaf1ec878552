//! The integration tests of `rungs-gate`, gathered into one binary: each file is a module.

mod analysis;
mod box_seasons;
mod formats;
mod import_beside;
mod tiers;
