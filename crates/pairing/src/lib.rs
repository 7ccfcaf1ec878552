//! Pairings: who plays whom tonight, from the ladder's own forecast (the use the Skyweaver
//! white paper gives its matchmaking rating). Pure: the players present, a forecast and the
//! constraints in; boards and at most one bye out.
//!
//! - `balanced`: the closest games — one minimum-cost perfect matching (`blossom`);
//! - `swiss`: a round of an event, Dutch-style, with no rematch while one can be avoided;
//! - `round_robin`: the Berger tables, single or double.
//!
//! `model` holds what they share; `ladder` feeds them from a replayed ladder and its log.
pub mod balanced;
pub mod blossom;
pub mod ladder;
pub mod model;
pub mod night;
pub mod round_robin;
pub mod simulated;
pub mod swiss;
