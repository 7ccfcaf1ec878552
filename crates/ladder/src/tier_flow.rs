//! Where a Skyweaver ladder's players stand when its seasons end: each season's flow matrix
//! (tier at the season's start → tier at its end, with counts) and the share of each tier at
//! season end, read from the season archive.
//!
//! Who counts: the players who played at least one match in the season. A player who did not
//! play sits on their hard reset value all season and would pile up on the reset values; a
//! designer cutting tiers means the players who took part. A player's tier at a season's start
//! is the tier of the RP the hard reset before it gave them (Table 1's reset value of the
//! highest tier they reached the season before); a player who was not in the ladder at the
//! season's start has none ("joined"). The tier at a season's end is the tier of their last
//! end-of-week RP, Grandweaver for a holder of a slot that week.

use crate::skyweaver::Tier;
use crate::state::{SeasonEntry, SeasonRecord};
use crate::tiers::TierTable;
use chrono::NaiveDate;
use std::collections::HashMap;

/// How many tiers there are, Grandweaver included.
pub const TIERS: usize = 12;

/// One finished season's movement between tiers.
#[derive(Debug, Clone, PartialEq)]
pub struct SeasonFlow {
    pub season: u32,
    pub ended: NaiveDate,
    /// `flow[from][to]`: players who started the season in tier `from` (row 0: joined during
    /// the season; row 1 + t: tier t) and ended it in tier `to`.
    pub flow: [[u32; TIERS]; TIERS + 1],
    /// Players per tier at the season's end (the column sums).
    pub at_end: [u32; TIERS],
}

/// A counted player's end of season: RP and tier.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SeasonEnd {
    pub rp: f64,
    pub tier: Tier,
}

/// The tier and RP a player ended the season with, under `table`; `None` for a player who
/// did not play in it, under another system, or in a record without end-of-week RP.
pub fn season_end(entry: &SeasonEntry, table: &TierTable) -> Option<SeasonEnd> {
    entry.peak_tier?;
    if entry.matches == 0 {
        return None;
    }
    let rp = entry.weekly_rp.iter().last()?;
    let tier = match entry.weekly_rp.tiers_in(table).last() {
        Some(Tier::Grandweaver) => Tier::Grandweaver,
        _ => table.of_rp(rp),
    };
    Some(SeasonEnd { rp, tier })
}

/// Each finished season's flow matrix under `table`, oldest first (runs of seasons with
/// nothing entered have no player counted and are left out).
pub fn flows(archive: &[SeasonRecord], table: &TierTable) -> Vec<SeasonFlow> {
    let mut started: HashMap<u32, Tier> = HashMap::new();
    let mut out = Vec::new();
    for record in archive {
        let mut flow = SeasonFlow {
            season: record.number,
            ended: record.ended,
            flow: [[0; TIERS]; TIERS + 1],
            at_end: [0; TIERS],
        };
        for e in &record.entries {
            if let Some(end) = season_end(e, table) {
                let from = started.get(&e.player).map_or(0, |t| *t as usize + 1);
                flow.flow[from][end.tier as usize] += 1;
                flow.at_end[end.tier as usize] += 1;
            }
        }
        // The next season starts from each player's hard reset value.
        started = record
            .entries
            .iter()
            .filter_map(|e| {
                let peak = e.peak_tier?;
                Some((e.player, table.of_rp(peak.hard_reset_value())))
            })
            .collect();
        if record.folded == 0 && flow.at_end.iter().any(|n| *n > 0) {
            out.push(flow);
        }
    }
    out
}

/// Players per tier at season end, pooled over every finished season.
pub fn pooled_at_end(flows: &[SeasonFlow]) -> [u32; TIERS] {
    let mut total = [0u32; TIERS];
    for f in flows {
        for (t, n) in f.at_end.iter().enumerate() {
            total[t] += n;
        }
    }
    total
}

/// Each tier's share in percent of `counts` (all 0 when nobody is counted).
pub fn shares(counts: &[u32; TIERS]) -> [f64; TIERS] {
    let total: u32 = counts.iter().sum();
    let mut out = [0.0; TIERS];
    if total > 0 {
        for (s, n) in out.iter_mut().zip(counts) {
            *s = 100.0 * f64::from(*n) / f64::from(total);
        }
    }
    out
}

/// Every season's flow matrix summed, cell by cell (row 0: joined during a season).
pub fn summed(flows: &[SeasonFlow]) -> [[u32; TIERS]; TIERS + 1] {
    let mut sum = [[0u32; TIERS]; TIERS + 1];
    for f in flows {
        for (r, row) in f.flow.iter().enumerate() {
            for (c, n) in row.iter().enumerate() {
                sum[r][c] += n;
            }
        }
    }
    sum
}

/// The share shown on tier `i`'s row beside its target: Master's target counts the
/// Grandweavers (their own share is whatever their number gives), so Master's row does too.
pub fn share_beside_target(shares: &[f64; TIERS], i: usize) -> f64 {
    if Tier::ALL.get(i) == Some(&Tier::Master) {
        shares[i] + shares[i + 1]
    } else {
        shares[i]
    }
}

/// A tier's name cut to three letters a word ("App II"), to head a grid's narrow columns.
pub fn short_name(t: Tier) -> String {
    t.name()
        .split(' ')
        .map(|w| w.get(..3).unwrap_or(w))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::{SeasonRanking, TiersKept};
    use crate::weekly::WeeklyRp;

    fn entry(player: u32, peak: Tier, matches: u32, end_rp: f64) -> SeasonEntry {
        SeasonEntry {
            player,
            name: format!("P{player}"),
            ranking: SeasonRanking::Tier(peak),
            peak_tier: Some(peak),
            matches,
            weekly_rp: WeeklyRp::repeat(end_rp, 4),
        }
    }

    fn season(number: u32, entries: Vec<SeasonEntry>) -> SeasonRecord {
        SeasonRecord {
            number,
            ended: NaiveDate::from_ymd_opt(2026, number, 28).unwrap(),
            weeks: 4,
            entries,
            folded: 0,
            tiers_kept: TiersKept(true),
        }
    }

    /// Two seasons under Table 1. Season 1: Ann (0) and Bo (1) joined during it; Ann ends on
    /// 950 (Expert I, her peak), Bo on 310 (Trainee I); Cy (2) played no match and is not
    /// counted. Season 2 starts from the hard reset values: Ann's Expert I resets to 600
    /// (Apprentice I), Bo's Trainee I to 300 (Trainee I), Cy's Wanderer to 200; Ann ends on
    /// 720 (Apprentice II), Bo on 250 (Wanderer), Dee (3) joined and ends on 200 (Wanderer),
    /// Cy still played none. So season 1: joined → Expert I 1, joined → Trainee I 1; season
    /// 2: Apprentice I → Apprentice II 1, Trainee I → Wanderer 1, joined → Wanderer 1; at
    /// season 2's end Wanderer 2 of 3 (66.7 %), Apprentice II 1 (33.3 %).
    #[test]
    fn a_hand_computed_flow() {
        let archive = vec![
            season(
                1,
                vec![
                    entry(0, Tier::ExpertI, 9, 950.0),
                    entry(1, Tier::TraineeI, 5, 310.0),
                    entry(2, Tier::Wanderer, 0, 200.0),
                ],
            ),
            season(
                2,
                vec![
                    entry(0, Tier::ApprenticeII, 7, 720.0),
                    entry(1, Tier::TraineeI, 3, 250.0),
                    entry(2, Tier::Wanderer, 0, 200.0),
                    entry(3, Tier::Wanderer, 2, 200.0),
                ],
            ),
        ];
        let f = flows(&archive, &TierTable::TABLE_1);
        assert_eq!(f.len(), 2);
        let cell = |s: &SeasonFlow, from: Option<Tier>, to: Tier| {
            s.flow[from.map_or(0, |t| t as usize + 1)][to as usize]
        };
        assert_eq!(cell(&f[0], None, Tier::ExpertI), 1);
        assert_eq!(cell(&f[0], None, Tier::TraineeI), 1);
        assert_eq!(f[0].flow.iter().flatten().sum::<u32>(), 2);
        assert_eq!(cell(&f[1], Some(Tier::ApprenticeI), Tier::ApprenticeII), 1);
        assert_eq!(cell(&f[1], Some(Tier::TraineeI), Tier::Wanderer), 1);
        assert_eq!(cell(&f[1], None, Tier::Wanderer), 1);
        assert_eq!(f[1].flow.iter().flatten().sum::<u32>(), 3);
        assert_eq!(f[1].at_end[Tier::Wanderer as usize], 2);
        let s = shares(&f[1].at_end);
        assert!((s[Tier::Wanderer as usize] - 200.0 / 3.0).abs() < 1e-12);
        assert_eq!(pooled_at_end(&f)[Tier::Wanderer as usize], 2);
        // Under other minimums the same RP fall elsewhere: with Apprentice II at 750, Ann's
        // 720 is Apprentice I.
        let cut = TierTable::parse("200,300,400,500,600,750,800,900,1000,1100,1200").unwrap();
        let f = flows(&archive, &cut);
        assert_eq!(cell(&f[1], Some(Tier::ApprenticeI), Tier::ApprenticeI), 1);
    }

    /// Master's row beside its target holds the Grandweavers too: 1.1 % + 2.0 % = 3.1 %;
    /// other rows their own. Names cut to three letters a word; two seasons summed cell by
    /// cell (a joined player ending in Wanderer: 1 + 2 = 3).
    #[test]
    fn rows_beside_targets_short_names_and_summed_seasons() {
        let mut shares = [0.0; TIERS];
        shares[Tier::Master as usize] = 1.1;
        shares[Tier::Grandweaver as usize] = 2.0;
        shares[Tier::Wanderer as usize] = 9.1;
        let master = share_beside_target(&shares, Tier::Master as usize);
        assert!((master - 3.1).abs() < 1e-12, "{master}");
        assert_eq!(share_beside_target(&shares, Tier::Wanderer as usize), 9.1);
        assert_eq!(short_name(Tier::ApprenticeIII), "App III");
        assert_eq!(short_name(Tier::Grandweaver), "Gra");
        let season = |n: u32| {
            let mut flow = [[0; TIERS]; TIERS + 1];
            flow[0][Tier::Wanderer as usize] = n;
            SeasonFlow {
                season: n,
                ended: NaiveDate::from_ymd_opt(2026, 1, n).unwrap(),
                flow,
                at_end: [0; TIERS],
            }
        };
        assert_eq!(summed(&[season(1), season(2)])[0][0], 3);
    }
}
