//! End-of-week Rank Points (recorded at each soft reset for the season archive) kept as runs
//! of equal values, so that a season of weeks in which a player's RP did not move costs one
//! run, not one number a week, and a soft reset need not visit a player it cannot change.
//!
//! A player's list for the season in progress may end in an *open* run: "this RP at every
//! soft reset from week `from` on", left open when the soft resets stopped visiting the
//! player (nothing a soft reset does can change them: RP below Master and RD at its ceiling)
//! and closed, with the weeks it covered, when something next changes them or the season
//! ends. The weeks a list holds are then known only beside the ladder's week counter
//! ([`WeeklyRp::closed_at`]). The season archive keeps closed lists only.
//!
//! Stored as a JSON list whose items are a number (one week), `[rp, n]` (n weeks of one
//! value) or `{"rp": rp, "from": week}` (the open run); a list written before runs, one
//! number a week or `[rp, "tier"]` pairs, reads as the same weeks.

use crate::skyweaver::Tier;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// End-of-week RP, oldest first, as runs of (value, weeks).
#[derive(Debug, Clone, Default)]
pub struct WeeklyRp {
    runs: Vec<(f64, u32)>,
    /// The open run: the RP at every soft reset of the season from week `.1` on.
    open: Option<(f64, u32)>,
    /// The weeks (from 0, in the closed list) that ended with the player a Grandweaver. Every
    /// other week's tier is its RP's (Table 1): only Grandweaver, the top N Masters, depends
    /// on the others, so only it is kept.
    grandweaver: Vec<u32>,
}

impl WeeklyRp {
    /// One more week, closed.
    pub fn push(&mut self, rp: f64) {
        self.push_run(rp, 1);
    }

    /// One more week, closed, ending in tier `tier` (Grandweaver, or the tier of `rp`).
    pub fn push_tier(&mut self, rp: f64, tier: Tier) {
        if tier == Tier::Grandweaver {
            let week = u32::try_from(self.len()).unwrap_or(u32::MAX);
            self.grandweaver.push(week);
        }
        self.push(rp);
    }

    /// Each week's tier at its end under Table 1, oldest first (closed runs only).
    pub fn tiers(&self) -> Vec<Tier> {
        self.tiers_in(&crate::tiers::TierTable::TABLE_1)
    }

    /// Each week's tier at its end under `table`, oldest first (closed runs only).
    pub fn tiers_in(&self, table: &crate::tiers::TierTable) -> Vec<Tier> {
        self.iter()
            .enumerate()
            .map(|(i, rp)| {
                if self.grandweaver.binary_search(&(i as u32)).is_ok() {
                    Tier::Grandweaver
                } else {
                    table.of_rp(rp)
                }
            })
            .collect()
    }

    fn push_run(&mut self, rp: f64, weeks: u32) {
        if weeks == 0 {
            return;
        }
        match self.runs.last_mut() {
            Some((v, n)) if v.to_bits() == rp.to_bits() => *n = n.saturating_add(weeks),
            _ => self.runs.push((rp, weeks)),
        }
    }

    /// From week `from` on, every soft reset records `rp` until [`close`](Self::close). A
    /// closed run of the same value just before it joins it, so a list has one form however
    /// its weeks were recorded.
    pub fn open(&mut self, rp: f64, from: u32) {
        let mut from = from;
        if let Some(&(v, n)) = self.runs.last()
            && v.to_bits() == rp.to_bits()
            && n < from
        {
            self.runs.pop();
            from -= n;
        }
        self.open = Some((rp, from));
    }

    /// `weeks` weeks of `rp`.
    pub fn repeat(rp: f64, weeks: u32) -> WeeklyRp {
        let mut out = WeeklyRp::default();
        out.push_run(rp, weeks);
        out
    }

    pub fn is_open(&self) -> bool {
        self.open.is_some()
    }

    /// Closes the open run, if any, as of a ladder in week `week` (the soft resets of weeks
    /// `from` … `week − 1` have passed).
    pub fn close(&mut self, week: u32) {
        if let Some((rp, from)) = self.open.take() {
            self.push_run(rp, week.saturating_sub(from));
        }
    }

    /// The list as it stands in week `week`, closed.
    pub fn closed_at(&self, week: u32) -> WeeklyRp {
        let mut out = WeeklyRp {
            runs: self.runs.clone(),
            open: None,
            grandweaver: self.grandweaver.clone(),
        };
        if let Some((rp, from)) = self.open {
            out.push_run(rp, week.saturating_sub(from));
        }
        out
    }

    pub fn clear(&mut self) {
        self.runs.clear();
        self.open = None;
        self.grandweaver.clear();
    }

    /// Weeks recorded (closed runs only).
    pub fn len(&self) -> usize {
        self.runs.iter().map(|&(_, n)| n as usize).sum()
    }

    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Every week's value (closed runs only).
    pub fn iter(&self) -> impl Iterator<Item = f64> + '_ {
        self.runs
            .iter()
            .flat_map(|&(v, n)| std::iter::repeat_n(v, n as usize))
    }

    pub fn to_vec(&self) -> Vec<f64> {
        self.iter().collect()
    }

    /// The mean of the weeks' values, summed week by week in order as a list would be (the
    /// same bits), or `None` for no weeks.
    pub fn mean(&self) -> Option<f64> {
        let n = self.len();
        (n > 0).then(|| self.iter().sum::<f64>() / n as f64)
    }
}

/// The weeks' RP: the Grandweaver weeks are what the archive shows beside them, not what
/// ranks anyone, so lists written before they were kept still equal a replay's.
impl PartialEq for WeeklyRp {
    fn eq(&self, other: &WeeklyRp) -> bool {
        self.runs == other.runs && self.open == other.open
    }
}

impl PartialEq<Vec<f64>> for WeeklyRp {
    fn eq(&self, other: &Vec<f64>) -> bool {
        self.open.is_none() && self.len() == other.len() && self.iter().eq(other.iter().copied())
    }
}

impl FromIterator<f64> for WeeklyRp {
    fn from_iter<I: IntoIterator<Item = f64>>(iter: I) -> WeeklyRp {
        let mut out = WeeklyRp::default();
        for v in iter {
            out.push(v);
        }
        out
    }
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Item {
    One(f64),
    Run(f64, u32),
    /// As lists were written before runs: the week's RP and tier (the tier was never read).
    Old(f64, #[allow(dead_code)] Tier),
    Open {
        rp: f64,
        from: u32,
    },
    /// The weeks ended as a Grandweaver (the list's last item, when there are any).
    Grandweaver {
        grandweaver: Vec<u32>,
    },
}

impl Serialize for WeeklyRp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let runs = self.runs.iter().map(|&(v, n)| match n {
            1 => Item::One(v),
            _ => Item::Run(v, n),
        });
        let open = self.open.map(|(rp, from)| Item::Open { rp, from });
        let grandweaver = (!self.grandweaver.is_empty()).then(|| Item::Grandweaver {
            grandweaver: self.grandweaver.clone(),
        });
        s.collect_seq(runs.chain(open).chain(grandweaver))
    }
}

impl<'de> Deserialize<'de> for WeeklyRp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<WeeklyRp, D::Error> {
        let items = Vec::<Item>::deserialize(d)?;
        let mut out = WeeklyRp::default();
        for item in items {
            if !out.grandweaver.is_empty()
                || (out.open.is_some() && !matches!(item, Item::Grandweaver { .. }))
            {
                return Err(serde::de::Error::custom(
                    "an open run or the Grandweaver weeks of weekly RP come before another item",
                ));
            }
            match item {
                Item::One(v) | Item::Old(v, _) => out.push(v),
                Item::Run(v, n) => out.push_run(v, n),
                Item::Open { rp, from } => out.open(rp, from),
                Item::Grandweaver { mut grandweaver } => {
                    grandweaver.sort_unstable();
                    grandweaver.dedup();
                    out.grandweaver = grandweaver;
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_hold_the_same_weeks_as_a_list() {
        let mut w = WeeklyRp::default();
        for v in [700.0, 700.0, 812.0, 812.0, 812.0, 700.0] {
            w.push(v);
        }
        assert_eq!(w, vec![700.0, 700.0, 812.0, 812.0, 812.0, 700.0]);
        assert_eq!(w.runs, [(700.0, 2), (812.0, 3), (700.0, 1)]);
        // (700·3 + 812·3)/6 = 756.
        assert_eq!(w.mean(), Some(756.0));
        let text = serde_json::to_string(&w).unwrap();
        assert_eq!(text, "[[700.0,2],[812.0,3],700.0]");
        assert_eq!(serde_json::from_str::<WeeklyRp>(&text).unwrap(), w);
        // Written before runs, one number a week or with tiers: the same weeks.
        let old: WeeklyRp = serde_json::from_str("[700, 700, 812, 812, 812, 700]").unwrap();
        assert_eq!(old, w);
        let tiers: WeeklyRp =
            serde_json::from_str(r#"[[700.0,"ApprenticeII"],[700.0,"ApprenticeII"]]"#).unwrap();
        assert_eq!(tiers, vec![700.0, 700.0]);
    }

    #[test]
    fn an_open_run_counts_the_weeks_that_passed() {
        // Week 1 recorded by hand, then open from week 2: in week 5, weeks 2, 3, 4 passed.
        let mut w = WeeklyRp::default();
        w.push(450.0);
        w.open(300.0, 2);
        assert_eq!(w.closed_at(5), vec![450.0, 300.0, 300.0, 300.0]);
        // Opened on the same value as the last closed run: one form, whatever the path.
        let mut by_hand = WeeklyRp::default();
        by_hand.push(300.0);
        by_hand.push(300.0);
        by_hand.open(300.0, 3);
        let mut opened = WeeklyRp::default();
        opened.open(300.0, 1);
        assert_eq!(by_hand, opened);
        let text = serde_json::to_string(&opened).unwrap();
        assert_eq!(text, r#"[{"rp":300.0,"from":1}]"#);
        assert_eq!(serde_json::from_str::<WeeklyRp>(&text).unwrap(), opened);
        opened.close(4);
        assert_eq!(opened, vec![300.0, 300.0, 300.0]);
        assert!(serde_json::from_str::<WeeklyRp>(r#"[{"rp":1.0,"from":1},2.0]"#).is_err());
    }
}
