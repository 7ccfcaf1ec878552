//! The events a ladder's log is made of (SPEC §1).

use crate::ladder::rules::Rules;
use crate::ladder::scenarios::ScenarioOverride;
use crate::ladder::seasons::Migration;
use crate::rating::Outcome;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// A player's id: the order in which players joined the ladder, from 0. Stable across renames.
pub type PlayerId = u32;

/// A match result from side A's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchResult {
    /// 1 for a win of A, 0.5 for a draw, 0 for a loss, as an [`Outcome`].
    Played(Outcome),
    /// Side A forfeited: it loses (as INVERSUS counts an abandoned match).
    ForfeitA,
    /// Side B forfeited: A wins.
    ForfeitB,
    /// Kept in the log; changes no rating.
    Cancelled,
}

impl MatchResult {
    /// The outcome the ratings see, or `None` for a cancelled match.
    pub fn rated_outcome(self) -> Option<Outcome> {
        match self {
            MatchResult::Played(o) => Some(o),
            MatchResult::ForfeitA => Some(Outcome::Loss),
            MatchResult::ForfeitB => Some(Outcome::Win),
            MatchResult::Cancelled => None,
        }
    }

    /// Parses a score as written in a CSV file or on the command line: `1`, `0.5`, `0`, `A`,
    /// `B`, `draw` (also `D`, `1-0`, `0-1`, `½`), `forfeit-a`, `forfeit-b`, `cancelled`.
    pub fn parse(text: &str) -> Option<MatchResult> {
        let t = text.trim().to_ascii_lowercase();
        Some(match t.as_str() {
            "1" | "1.0" | "a" | "1-0" | "win" => MatchResult::Played(Outcome::Win),
            "0.5" | ".5" | "½" | "d" | "draw" | "0.5-0.5" | "=" => {
                MatchResult::Played(Outcome::Draw)
            }
            "0" | "0.0" | "b" | "0-1" | "loss" => MatchResult::Played(Outcome::Loss),
            "forfeit-a" | "forfeit_a" | "fa" => MatchResult::ForfeitA,
            "forfeit-b" | "forfeit_b" | "fb" => MatchResult::ForfeitB,
            "cancelled" | "canceled" | "c" => MatchResult::Cancelled,
            _ => return None,
        })
    }

    /// The same result seen from side B.
    pub fn flipped(self) -> MatchResult {
        match self {
            MatchResult::Played(o) => MatchResult::Played(o.flipped()),
            MatchResult::ForfeitA => MatchResult::ForfeitB,
            MatchResult::ForfeitB => MatchResult::ForfeitA,
            MatchResult::Cancelled => MatchResult::Cancelled,
        }
    }

    /// What side A did, as a verb before side B: "A beat B", "A won by forfeit against B".
    pub fn verb(self) -> &'static str {
        match self {
            MatchResult::Played(Outcome::Win) => "beat",
            MatchResult::Played(Outcome::Draw) => "drew with",
            MatchResult::Played(Outcome::Loss) => "lost to",
            MatchResult::ForfeitA => "forfeited to",
            MatchResult::ForfeitB => "won by forfeit against",
            MatchResult::Cancelled => "(cancelled) vs",
        }
    }

    /// The canonical text [`MatchResult::parse`] reads back.
    pub fn as_text(self) -> &'static str {
        match self {
            MatchResult::Played(Outcome::Win) => "1",
            MatchResult::Played(Outcome::Draw) => "0.5",
            MatchResult::Played(Outcome::Loss) => "0",
            MatchResult::ForfeitA => "forfeit-a",
            MatchResult::ForfeitB => "forfeit-b",
            MatchResult::Cancelled => "cancelled",
        }
    }
}

/// One side of a match: a player, or a team. A single player needs no allocation, which
/// matters with a million matches in memory. Serialised as a list of ids.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Side {
    One(PlayerId),
    Team(Box<[PlayerId]>),
}

impl Side {
    pub fn ids(&self) -> &[PlayerId] {
        match self {
            Side::One(id) => std::slice::from_ref(id),
            Side::Team(ids) => ids,
        }
    }
}

impl std::ops::Deref for Side {
    type Target = [PlayerId];
    fn deref(&self) -> &[PlayerId] {
        self.ids()
    }
}

impl From<PlayerId> for Side {
    fn from(id: PlayerId) -> Side {
        Side::One(id)
    }
}

impl From<Vec<PlayerId>> for Side {
    fn from(ids: Vec<PlayerId>) -> Side {
        match ids.as_slice() {
            [one] => Side::One(*one),
            _ => Side::Team(ids.into_boxed_slice()),
        }
    }
}

impl Serialize for Side {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.ids().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Side {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Side, D::Error> {
        Vec::<PlayerId>::deserialize(d).map(Side::from)
    }
}

/// A match between two sides, each one player or a team.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Match {
    pub a: Side,
    pub b: Side,
    pub result: MatchResult,
    /// Medal scores (Memoir '44), A then B.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub medals: Option<[f64; 2]>,
    /// The scenario played (Memoir '44).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The scenario side A played, e.g. "Allies".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_a: Option<String>,
}

impl Match {
    /// A 1v1 (or team) match with no Memoir '44 extras.
    pub fn new(a: impl Into<Side>, b: impl Into<Side>, result: MatchResult) -> Match {
        Match {
            a: a.into(),
            b: b.into(),
            result,
            medals: None,
            scenario: None,
            side_a: None,
        }
    }
}

/// Something that happened on the ladder.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A player joins.
    Player { id: PlayerId, name: String },
    /// A player is renamed.
    Rename { id: PlayerId, name: String },
    /// A match.
    Match(Match),
    /// The weekly button: archive, cap, roll the rating period.
    SoftReset,
    /// The season button.
    HardReset,
    /// The rating system or its parameters change from here on.
    Rules { rules: Box<Rules> },
    /// An Elo list brought into the ladder.
    Migration { migration: Box<Migration> },
    /// The organiser's figures for a Memoir '44 scenario, replacing its history from here on.
    Scenario { figures: Box<ScenarioOverride> },
}

/// One row of the append-only log: an event, or a correction of an earlier row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Entry {
    /// A new event.
    Add { event: Event },
    /// Row `target` now reads `event` on `date` (its sequence number, and so its place
    /// among events of the same date, is kept).
    Edit { target: u64, event: Event },
    /// Row `target` no longer counts.
    Delete { target: u64 },
}

/// A row of the log as stored: entry order `seq`, calendar `date`, and what it says.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LogRow {
    pub seq: u64,
    pub date: NaiveDate,
    #[serde(flatten)]
    pub entry: Entry,
}
