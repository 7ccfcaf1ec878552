//! The season archive: each finished season's record.
use crate::event::PlayerId;
use crate::skyweaver::Tier;
use crate::weekly::WeeklyRp;
use chrono::NaiveDate;
use serde::{Deserialize, Serialize};

/// How a player's season is ranked (the Skyweaver white paper, section 4, "End of Season").
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeasonRanking {
    /// Below Master: the tier at season end.
    Tier(Tier),
    /// Master and above: the mean of the season's end-of-week RP.
    AverageRp(f64),
    /// Systems without tiers: the shown score at season end.
    Score(f64),
}

/// One player's finished season.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeasonEntry {
    pub player: PlayerId,
    pub name: String,
    pub ranking: SeasonRanking,
    pub peak_tier: Option<Tier>,
    pub matches: u32,
    /// End-of-week RP, one per soft reset of the season (kept as runs of equal values).
    pub weekly_rp: WeeklyRp,
}

/// A finished season, or a run of seasons in which nothing was entered, folded into one
/// record (`ladder::calendar`'s [`Fold`](crate::calendar::Fold)).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeasonRecord {
    pub number: u32,
    pub ended: NaiveDate,
    /// Soft resets during the season (during the whole run, when folded).
    pub weeks: u32,
    pub entries: Vec<SeasonEntry>,
    /// Seasons after `number` folded into this record: it stands for seasons `number` …
    /// `number + folded`, each of which gave every player this entry (their weekly RP the
    /// same value every week of the run).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub folded: u32,
    /// Whether the entries' weekly lists carry each week's Grandweaver holders (recorded so
    /// since rungs kept them): then each week's tier can be shown. An archive from before
    /// has the RP alone, and says no tier it cannot know.
    #[serde(default, skip_serializing_if = "TiersKept::is_no")]
    pub tiers_kept: TiersKept,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// [`SeasonRecord::tiers_kept`]: what the archive can show, not what ranks anyone, so an
/// archive an older rungs wrote still equals a replay's.
#[derive(Debug, Clone, Copy, Default, Serialize, Deserialize)]
pub struct TiersKept(pub bool);

impl TiersKept {
    fn is_no(&self) -> bool {
        !self.0
    }
}

impl PartialEq for TiersKept {
    fn eq(&self, _: &TiersKept) -> bool {
        true
    }
}

impl SeasonRecord {
    /// The last season the record stands for.
    pub fn through(&self) -> u32 {
        self.number.saturating_add(self.folded)
    }

    /// "Season 3", or for a folded run "Seasons 12–40 (nothing entered)".
    pub fn title(&self) -> String {
        match self.folded {
            0 => format!("Season {}", self.number),
            _ => format!(
                "Seasons {}–{} (nothing entered)",
                self.number,
                self.through()
            ),
        }
    }
}
