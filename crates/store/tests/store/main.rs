//! The integration tests of `rungs-store`, gathered into one binary: each file is a module.

mod goals_centre;
mod replay_reading;
mod seasons;
mod shared_server;
mod store;
