//! The club formats a ladder can run beside its rating system: a challenge ladder (players
//! hold positions and take them by challenging up to a few places above) and box leagues
//! (groups of four to six who play each other over a period, then the top of each box goes up
//! and the bottom goes down). Every result still rates under the ladder's system; a format
//! keeps only its own table, read purely from the log in replay order.
//!
//! - `settings`: the organiser's choices and the period records the log carries (plain data,
//!   which `event` imports).
//! - `challenge`: the challenge ladder — positions, open challenges with their deadlines,
//!   each player's places, and the checks a new challenge must pass.
//! - `boxes`: the box league — each period's boxes, their tables, who still has to play whom,
//!   and the next period's boxes when a period closes.
//! - `box_points`: a match's points under a scheme, and the tie-break order of a box.
//! - `refusal`: what a format refuses, as data naming the players.
//!
//! Where a screen starts: [`challenge::ChallengeLadder::from_log`] then
//! [`challenge::ChallengeLadder::positions`] and [`challenge::ChallengeLadder::open_challenges`];
//! [`boxes::BoxLeague::from_log`] then [`boxes::BoxLeague::tables`],
//! [`boxes::BoxLeague::still_to_play`] and [`boxes::BoxLeague::next_period`].
pub mod box_points;
pub mod boxes;
pub mod challenge;
pub mod refusal;
pub mod settings;
