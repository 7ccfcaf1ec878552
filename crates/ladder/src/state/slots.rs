//! Skyweaver's Grandweaver slots as the replay keeps them: who holds them, and who is next.
use crate::event::PlayerId;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// Who holds the Grandweaver slots now, best first, and the ladder's latest match (what
/// idleness is measured against), kept as the replay goes so that a slot held at any moment
/// counts and a ladder holding only some players knows them (`leaderboard::track`). The
/// holders are stored with the caches and are part of the ladder's value
/// ([`Slots::same_stored`]); the lists a replay keeps beside them are not. `None` when not
/// known: another system, or caches an older rungs wrote (then the players are looked at
/// all at once before they are used).
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Slots(pub Option<Holders>);

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Holders {
    pub holders: Vec<PlayerId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latest: Option<NaiveDate>,
    /// The contenders ranked after the holders, best first, down to `bound`: when a holder
    /// goes idle or falls, the next is here, and the players need not all be looked at again.
    /// Not kept in files (a replay finds them at its first rescan).
    #[serde(skip)]
    pub reserve: Vec<PlayerId>,
    /// Which contenders `holders` and `reserve` hold; `None`: not known (the reserve is then
    /// empty and unused).
    #[serde(skip)]
    pub bound: Option<Bound>,
    /// No player in `holders` and `reserve` played last before this day (it may be earlier
    /// than the earliest): until the idle cut-off passes it, none of them has gone idle.
    #[serde(skip)]
    pub idle_from: Option<NaiveDate>,
    /// By player id, whether `holders` (2) or `reserve` (1) holds them, else 0 (shorter
    /// than the players: the rest are not held). Kept with the lists by
    /// `leaderboard::settle`; an event's two players are looked up here, not searched for
    /// among some 200 ids, and a holder who stays one is not marked again.
    #[serde(skip)]
    pub listed: Vec<u8>,
}

/// Where a player stands for a Grandweaver slot: RP, rating, join date, entry order (the
/// order is `leaderboard.rs`'s).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SlotPlace {
    pub rp: f64,
    pub rating: f64,
    pub joined_on: Option<NaiveDate>,
    pub id: usize,
}

/// Which contenders a Grandweaver list holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Bound {
    /// Every one.
    All,
    /// Every one at or above this place, and no other: a contender the list leaves out
    /// stands below it (and stays there until an event names them).
    Down(SlotPlace),
}

impl Slots {
    pub(super) fn is_unknown(&self) -> bool {
        self.0.is_none()
    }
}

impl Slots {
    /// Whether the slots hold what the caches store alike: the same holders, in order, and
    /// the same latest match. What a replay keeps beside them to find the next holder
    /// quickly (the reserve, its bound, the idle day, the marks) depends on how far the
    /// replay has looked, not on the ladder, and is passed over; so are slots one side does
    /// not know.
    pub fn same_stored(&self, other: &Slots) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => {
                let Holders {
                    holders,
                    latest,
                    reserve: _,
                    bound: _,
                    idle_from: _,
                    listed: _,
                } = a;
                *holders == b.holders && *latest == b.latest
            }
            _ => true,
        }
    }
}
