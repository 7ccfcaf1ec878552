//! What the ladder knows after some prefix of the log: each player's state, the ladder as a
//! whole, and its finished seasons. Plain data; replay and the season rules change it.

mod archive;
mod ladder;
mod names;
mod player;
mod slots;

pub use archive::{SeasonEntry, SeasonRanking, SeasonRecord, TiersKept};
pub use ladder::{GoalsPool, Ladder, Partial, Results, Watch};
pub use names::NameBook;
pub use player::{Centre, Figures, HistoryRow, PlayerState, RatingPeriod, Skill, pools_goals};
pub use slots::{Bound, Holders, SlotPlace, Slots};
