//! The organiser's choices for a challenge ladder and for box leagues, and a box period as the
//! log records it: plain data (the log's events carry them), with the defaults clubs use.

use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// A player's id, as in the log's events (kept here so that the events can import this module
/// and not the other way round).
pub type PlayerId = u32;

/// The largest count of days any setting takes: about 27 years, far past any club's season,
/// and small enough that a date plus it never leaves the calendar.
pub const DAYS_MAX: u32 = 10_000;

/// The largest `reach`, `idle_drop`, `box_size`, `up`, `down`, minimum or points figure.
pub const COUNT_MAX: u32 = 1_000;

/// Where a player joining a running challenge ladder is put.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Newcomers {
    /// At the bottom.
    #[default]
    Bottom,
    /// At the bottom, but the first challenge may go to anyone (beyond `reach`): the common
    /// club rule "a newcomer may challenge anyone once, joining at the bottom if they lose".
    FreeChallenge,
    /// Placed by rating: the gate records where (a placement event), since the rating comes
    /// from the ladder's system, not from the format.
    ByRating,
}

/// What a challenge unplayed by its deadline becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unplayed {
    /// It lapses: nobody moves.
    #[default]
    Lapse,
    /// The challenger wins by forfeit and moves as if they had won.
    Forfeit,
}

/// How a challenger who wins moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Movement {
    /// The challenger takes the defender's place and everyone between moves down one.
    #[default]
    Leapfrog,
    /// The challenger and the defender swap places.
    Swap,
}

/// A challenge ladder's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChallengeSettings {
    /// How many places above their own a player may challenge.
    pub reach: u32,
    /// A defender accepts at most one challenge per this many days.
    pub defend_days: u32,
    /// The same pair not again within this many days of their last challenge's close.
    pub rematch_days: u32,
    /// Days a challenge has to be played in, from the day it is made (the last day counts).
    pub respond_days: u32,
    pub unplayed: Unplayed,
    pub movement: Movement,
    pub newcomers: Newcomers,
    /// A player with no match for this many days drops `idle_drop` places (once until their
    /// next match); none: never.
    pub idle_days: Option<u32>,
    pub idle_drop: u32,
}

impl Default for ChallengeSettings {
    fn default() -> ChallengeSettings {
        ChallengeSettings {
            reach: 3,
            defend_days: 7,
            rematch_days: 14,
            respond_days: 7,
            unplayed: Unplayed::Lapse,
            movement: Movement::Leapfrog,
            newcomers: Newcomers::Bottom,
            idle_days: None,
            idle_drop: 1,
        }
    }
}

/// Points for one winning game score: the winner's games and the loser's, and each one's
/// points (a 3-1 win worth 6 to the winner and 2 to the loser).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ScorePoints {
    pub games: [u32; 2],
    pub points: [u32; 2],
}

/// How a box match scores.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "snake_case")]
pub enum PointsScheme {
    /// By the winner's and loser's games, from a table (Highfield Squash Club: 3-0 7–1,
    /// 3-1 6–2, 3-2 5–3). A result without games, or with a score the table lacks, counts
    /// as the table's narrowest win.
    GameScore { table: Vec<ScorePoints> },
    /// By parts (Blackheath, Monmouth and Wesleyan's leagues): points for playing, points
    /// per game won, and a bonus for winning the match.
    Parts {
        play: u32,
        per_game: u32,
        win_bonus: u32,
    },
    /// Plain win, draw and loss (3/1/0), for games without game scores.
    WinDrawLoss { win: u32, draw: u32, loss: u32 },
}

impl PointsScheme {
    /// Highfield's table: 3-0 7–1, 3-1 6–2, 3-2 5–3.
    pub fn highfield() -> PointsScheme {
        let row = |w, l, pw, pl| ScorePoints {
            games: [w, l],
            points: [pw, pl],
        };
        PointsScheme::GameScore {
            table: vec![row(3, 0, 7, 1), row(3, 1, 6, 2), row(3, 2, 5, 3)],
        }
    }

    /// 1 for playing, 1 per game won, 1 for the match.
    pub fn parts() -> PointsScheme {
        PointsScheme::Parts {
            play: 1,
            per_game: 1,
            win_bonus: 1,
        }
    }

    /// 3 for a win, 1 for a draw, 0 for a loss.
    pub fn win_draw_loss() -> PointsScheme {
        PointsScheme::WinDrawLoss {
            win: 3,
            draw: 1,
            loss: 0,
        }
    }

    /// Whether the scheme reads game scores (and so a box result should carry one).
    pub fn needs_games(&self) -> bool {
        !matches!(self, PointsScheme::WinDrawLoss { .. })
    }
}

/// One rule of a box table's order, applied in the organiser's order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// More points.
    Points,
    /// More points in the matches among the players still tied.
    HeadToHead,
    /// More matches won.
    MatchesWon,
    /// Fewer games lost.
    GamesLost,
    /// More games won than lost.
    GameDifference,
    /// The higher rating under the ladder's system.
    Rating,
}

impl TieBreak {
    pub const ALL: [TieBreak; 6] = [
        TieBreak::Points,
        TieBreak::HeadToHead,
        TieBreak::MatchesWon,
        TieBreak::GamesLost,
        TieBreak::GameDifference,
        TieBreak::Rating,
    ];

    /// The column heading, also what `--tie-breaks` reads.
    pub fn as_text(self) -> &'static str {
        match self {
            TieBreak::Points => "points",
            TieBreak::HeadToHead => "head-to-head",
            TieBreak::MatchesWon => "matches-won",
            TieBreak::GamesLost => "games-lost",
            TieBreak::GameDifference => "game-difference",
            TieBreak::Rating => "rating",
        }
    }

    pub fn parse(text: &str) -> Option<TieBreak> {
        let t = text.trim().to_ascii_lowercase().replace('_', "-");
        TieBreak::ALL.into_iter().find(|b| b.as_text() == t)
    }
}

/// A box league's rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct BoxSettings {
    /// Players per box; the last box may hold one more or one fewer.
    pub box_size: u32,
    /// How many of each box go up one box at the period's end.
    pub up: u32,
    /// How many of each box go down one box.
    pub down: u32,
    /// Fewer matches played than this: not promoted, and out of the next period's boxes.
    pub min_matches: Option<u32>,
    pub points: PointsScheme,
    /// A walkover's points, winner then loser.
    pub walkover: [u32; 2],
    /// The table's order, first rule first; a tie past them all goes by join order.
    pub tie_breaks: Vec<TieBreak>,
    /// Each period is a season of the ladder's calendar (from a hard reset to the day before
    /// the next), and closing one makes the next season the next period. Left out of the
    /// stored form when off, so logs from before it read, and are written, as they were.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub seasons: bool,
}

impl Default for BoxSettings {
    fn default() -> BoxSettings {
        BoxSettings {
            box_size: 5,
            up: 2,
            down: 2,
            min_matches: None,
            points: PointsScheme::highfield(),
            walkover: [6, 0],
            tie_breaks: vec![
                TieBreak::Points,
                TieBreak::HeadToHead,
                TieBreak::MatchesWon,
                TieBreak::GamesLost,
                TieBreak::Rating,
            ],
            seasons: false,
        }
    }
}

/// A box period as the log records it: its dates (both days count), its rules, and its boxes,
/// top box first, each in the order it was filled.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoxPeriodRecord {
    pub number: u32,
    pub start: NaiveDate,
    pub end: NaiveDate,
    pub settings: BoxSettings,
    pub boxes: Vec<Vec<PlayerId>>,
}

impl BoxPeriodRecord {
    /// Everyone the period's boxes hold.
    pub fn players(&self) -> impl Iterator<Item = PlayerId> + '_ {
        self.boxes.iter().flatten().copied()
    }
}

/// A figure out of its range, in words: "reach 0 is outside 1 to 1000".
fn within(what: &str, value: u32, low: u32, high: u32) -> Result<(), String> {
    if (low..=high).contains(&value) {
        Ok(())
    } else {
        Err(format!("{what} {value} is outside {low} to {high}"))
    }
}

impl ChallengeSettings {
    /// Every figure in its range (what a log written by another program may not hold).
    pub fn check(&self) -> Result<(), String> {
        within("reach", self.reach, 1, COUNT_MAX)?;
        within("defend_days", self.defend_days, 0, DAYS_MAX)?;
        within("rematch_days", self.rematch_days, 0, DAYS_MAX)?;
        within("respond_days", self.respond_days, 0, DAYS_MAX)?;
        if let Some(days) = self.idle_days {
            within("idle_days", days, 1, DAYS_MAX)?;
        }
        within("idle_drop", self.idle_drop, 0, COUNT_MAX)
    }
}

impl BoxSettings {
    /// Every figure in its range, a points table that scores wins, tie-breaks each once.
    pub fn check(&self) -> Result<(), String> {
        within("box_size", self.box_size, 2, 100)?;
        within("up", self.up, 0, self.box_size)?;
        within("down", self.down, 0, self.box_size)?;
        if let Some(m) = self.min_matches {
            within("min_matches", m, 0, self.box_size)?;
        }
        for p in self.walkover {
            within("walkover points", p, 0, COUNT_MAX)?;
        }
        match &self.points {
            PointsScheme::GameScore { table } => {
                if table.is_empty() || table.len() > 50 {
                    return Err(format!(
                        "a game-score table holds 1 to 50 scores, not {}",
                        table.len()
                    ));
                }
                for row in table {
                    within("games", row.games[0], 1, 99)?;
                    within("games", row.games[1], 0, row.games[0] - 1)?;
                    within("points", row.points[0], 0, COUNT_MAX)?;
                    within("points", row.points[1], 0, COUNT_MAX)?;
                }
            }
            PointsScheme::Parts {
                play,
                per_game,
                win_bonus,
            } => {
                for p in [play, per_game, win_bonus] {
                    within("points", *p, 0, COUNT_MAX)?;
                }
            }
            PointsScheme::WinDrawLoss { win, draw, loss } => {
                for p in [win, draw, loss] {
                    within("points", *p, 0, COUNT_MAX)?;
                }
            }
        }
        if self.tie_breaks.is_empty() {
            return Err("the tie-breaks name at least one rule".into());
        }
        for (i, rule) in self.tie_breaks.iter().enumerate() {
            if self.tie_breaks[..i].contains(rule) {
                return Err(format!("the tie-break {} comes twice", rule.as_text()));
            }
        }
        Ok(())
    }
}

impl BoxPeriodRecord {
    /// Dates in order and at most `DAYS_MAX` apart, boxes not empty, the rules in range.
    pub fn check(&self) -> Result<(), String> {
        if self.end < self.start {
            return Err(format!(
                "the period ends ({}) before it starts ({})",
                self.end, self.start
            ));
        }
        if (self.end - self.start).num_days() > i64::from(DAYS_MAX) {
            return Err(format!("a period lasts at most {DAYS_MAX} days"));
        }
        if self.boxes.iter().any(Vec::is_empty) {
            return Err("a box holds at least one player".into());
        }
        let most = self.settings.box_size.saturating_add(1) as usize;
        if let Some(b) = self.boxes.iter().position(|b| b.len() > most) {
            return Err(format!(
                "box {} holds {} players; boxes of {} hold at most {most}",
                b + 1,
                self.boxes[b].len(),
                self.settings.box_size
            ));
        }
        self.settings.check()
    }
}
