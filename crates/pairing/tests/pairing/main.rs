//! The integration tests of `rungs-pairing`, gathered into one binary: each file is a module.

mod dutch;
mod dutch_checker;
mod dutch_colours;
mod pairing;
mod pairing_matching;
mod tiebreaks;
