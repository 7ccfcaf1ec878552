//! rungs: a ladder manager. The rating math lives in [`rating`], the ladder's rules and replay
//! in [`ladder`], file formats in [`interchange`].
pub mod action;
pub mod app;
pub mod chart;
pub mod cli;
pub mod interchange;
pub mod ladder;
pub mod pairing;
pub mod publish;
pub mod rating;
pub mod store;
