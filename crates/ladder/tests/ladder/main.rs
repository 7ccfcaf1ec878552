//! The integration tests of `rungs-ladder`, gathered into one binary: each file is a module.

mod advantage;
mod box_league;
mod calendar_gaps;
mod challenge_ladder;
mod chances;
mod gate_properties;
mod glicko_entry;
mod goals_pool;
mod ranking_rules;
mod rating_periods;
mod timeline;
