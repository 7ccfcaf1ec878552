//! The integration tests of `rungs-analysis`, gathered into one binary: each file is a module.

mod explain;
mod goals;
mod quick_replay;
mod simulate_pairing;
mod tiers;
