//! The integration tests of `rungs-interchange`, gathered into one binary: each file is a module.

mod replay_properties;
mod trf;
