//! The integration tests of `rungs-chart`, gathered into one binary: each file is a module.

mod chart;
mod ticks;
