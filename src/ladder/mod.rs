//! The ladder: events, rules, and the pure replay of (rules, log) into state and history.
pub mod compare;
pub mod evaluate;
pub mod event;
pub mod inversus;
pub mod log;
pub mod predict;
pub mod preview;
pub mod record;
pub mod replay;
pub mod rules;
pub mod scenarios;
pub mod seasons;
pub mod simulate;
pub mod skyweaver;
pub mod standings;
pub mod state;
pub mod timeline;
