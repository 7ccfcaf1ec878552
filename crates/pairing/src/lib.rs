//! Pairings: who plays whom tonight, from the ladder's own forecast (the use the Skyweaver
//! white paper gives its matchmaking rating). Pure: the players present, a forecast and the
//! constraints in; boards and at most one bye out.
//!
//! - `balanced`: the closest games — one minimum-cost perfect matching (`blossom`);
//! - `round_robin`: the Berger tables, single or double;
//! - `dutch`: a round of a Swiss event under the FIDE (Dutch) System, as FIDE's Handbook
//!   states it (C.04.3), for events an arbiter must accept;
//! - `tiebreaks`: a Swiss event's standings with FIDE's tie-breaks (C.07);
//! - `crosstable`: those standings with every round's opponent, colour and result;
//! - `swiss_event`: a ladder's Swiss event read from its log for `dutch`, and its next round.
//!
//! `model` holds what they share; `ladder` feeds them from a replayed ladder and its log.
pub mod balanced;
pub mod blossom;
pub mod crosstable;
pub mod dutch;
pub mod ladder;
pub mod model;
pub mod night;
pub mod round_robin;
pub mod simulated;
pub mod swiss_event;
pub mod tiebreaks;
