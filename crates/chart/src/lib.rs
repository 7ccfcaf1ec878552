//! Plot data for the history and ladder-wide charts, as plain numbers (no drawing).
//!
//! The x-axis is either the date or the match number:
//! - by date, x is whole days since 1970-01-01 ([`date_x`]); every row of a day sits on that
//!   day, so several matches in one evening draw as a vertical run (the match-number axis is
//!   there for reading those apart). [`x_date`] and [`format_x`] turn an x back into a date.
//! - by match number, a player's k-th rated match is at x = k (cancelled matches make no row
//!   and so no number), the join at 0, and every other row (a reset, a migration, a change of
//!   system) at the previous match's number + 0.5 — the same place as its [`Marker`]
//!   in that mode, so the jump a reset causes sits on its marker line.

pub mod axis;
pub mod band;
pub mod decimate;
pub mod distribution;
pub mod hover;
pub mod markers;
pub mod series;
pub mod simulated;
pub mod ticks;
pub mod x;

pub use band::{BandMesh, band_mesh};
pub use decimate::{decimate, decimate_indices};
pub use markers::{LogIndex, Marker, MarkerKind, TierLine, tier_lines};
pub use series::{Band, PlayerSeries, RowKind, RowPoint, Segment};
pub use x::{Key, XMode, date_x, format_x, x_date};
