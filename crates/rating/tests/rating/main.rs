//! The integration tests of `rungs-rating`, gathered into one binary: each file is a module.

mod differential;
mod rating_properties;
