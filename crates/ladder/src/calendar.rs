//! The season calendar (the Skyweaver white paper's weekly and monthly resets, by the date):
//! on which days a ladder's soft and hard resets fall by themselves. Plain data and date
//! arithmetic; `seasons::run_calendar` applies what it says during replay, and `chart::markers`
//! draws it.
//!
//! - Manual (the default, and what every file from before the calendar reads as): resets
//!   happen only when the organiser presses a button.
//! - Scheduled: a soft reset every N days counted from an anchor date, before and after it
//!   (the anchor fixes the phase: 2001-01-01 is a Monday, so the default calendar resets on
//!   Mondays). A reset on day b closes the week that ran up to the day before and applies
//!   before every event dated b. Hard resets fall on soft-reset days: every M-th one counted
//!   from the anchor, or the first one of each calendar month (so a monthly season is the
//!   weeks that begin in that month). On a hard-reset day the soft reset applies first, as if
//!   both buttons were pressed, soft then hard.
//!
//! Replay applies the resets between two events when it reaches the second: a reset waits for
//! the log to pass it. Every season's resets apply, also in seasons in which nothing was
//! entered (a Grandweaver reset to 1000 who sits out four monthly seasons comes
//! back at 1000 → 700 → 500 → 400 → 350), but a long gap costs a handful of seasons of work,
//! not one per season: the first season end closes the season that was running, the next
//! [`EMPTY_SEASONS_APPLIED`] whole seasons with nothing entered apply one by one, and the
//! whole seasons after them up to the last season end of the gap are *folded* ([`Fold`]): by
//! then every player is at the fixed point of an empty season (Table 1's reset values fall
//! to Trainee I's 300 or stay at Wanderer's 200 within six seasons; the MMR rescale of an empty
//! season maps 1500 … 1500 + span onto itself and settles within a step or two), so each
//! folded season would archive the same entries and change nobody, and replay archives the
//! run as one row. A log with one match in 0001 and one in 9999 stays a few seasons of work.

use crate::values::Day;
use chrono::{Datelike, Days, NaiveDate};
use serde::{Deserialize, Serialize};

/// The sequence number of a scheduled reset's history rows and markers: below every event's
/// (the log numbers rows from 1), so on its day it comes first, as it applies.
pub const SCHEDULED_SEQ: u64 = 0;

/// The days between two soft resets that a calendar may have.
pub const SOFT_DAYS: std::ops::RangeInclusive<u32> = 1..=366;
/// The soft resets per season that a calendar may count.
pub const HARD_EVERY: std::ops::RangeInclusive<u32> = 1..=52;

/// When a ladder's resets happen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Calendar {
    /// Only by the buttons.
    #[default]
    Manual,
    /// By the date.
    Scheduled(Schedule),
}

/// Which soft resets are also hard resets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HardResets {
    /// The first soft reset of each calendar month (the Skyweaver white paper's monthly
    /// seasons).
    Monthly,
    /// Every M-th soft reset, counted from the anchor (the anchor's own is one of them).
    Every(u32),
}

/// A calendar's resets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    /// N: days from one soft reset to the next (7).
    pub soft_days: u32,
    /// A day a soft reset falls on; the others are every N days before and after it.
    pub anchor: NaiveDate,
    pub hard: HardResets,
}

/// The anchor of the default calendar: a Monday.
pub fn default_anchor() -> NaiveDate {
    NaiveDate::from_ymd_opt(2001, 1, 1).unwrap_or_default()
}

impl Default for Schedule {
    /// The Skyweaver white paper's weekly and monthly resets: a soft reset every Monday, a hard
    /// reset at the first of each month.
    fn default() -> Self {
        Schedule {
            soft_days: 7,
            anchor: default_anchor(),
            hard: HardResets::Monthly,
        }
    }
}

/// One scheduled reset: a soft reset on `date`, followed by a hard reset if `hard`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Reset {
    pub date: NaiveDate,
    pub hard: bool,
}

/// What a calendar setting is wrong about: the field and the range it must lie in.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("calendar `{field}`: {value} {problem}")]
pub struct CalendarError {
    pub field: &'static str,
    pub value: String,
    pub problem: &'static str,
}

impl Calendar {
    pub fn is_manual(&self) -> bool {
        matches!(self, Calendar::Manual)
    }

    pub fn schedule(&self) -> Option<&Schedule> {
        match self {
            Calendar::Manual => None,
            Calendar::Scheduled(s) => Some(s),
        }
    }

    /// Whether every setting lies in its range (a calendar read from a file or a log).
    pub fn check(&self) -> Result<(), CalendarError> {
        let Calendar::Scheduled(s) = self else {
            return Ok(());
        };
        if !SOFT_DAYS.contains(&s.soft_days) {
            return Err(CalendarError {
                field: "soft_every",
                value: s.soft_days.to_string(),
                problem: "days is outside 1 to 366",
            });
        }
        if let HardResets::Every(m) = s.hard
            && !HARD_EVERY.contains(&m)
        {
            return Err(CalendarError {
                field: "hard_every",
                value: m.to_string(),
                problem: "soft resets is outside 1 to 52",
            });
        }
        if Day::new(s.anchor).is_err() {
            return Err(CalendarError {
                field: "anchor",
                value: s.anchor.to_string(),
                problem: "is outside 0001-01-01..9999-12-31",
            });
        }
        Ok(())
    }

    /// In a few words, for labels: `manual`, `soft 7d, hard monthly`, `soft 28d, hard every 13`.
    pub fn brief(&self) -> String {
        match self {
            Calendar::Manual => "manual".into(),
            Calendar::Scheduled(s) => s.brief(),
        }
    }

    /// In a sentence, for the standings and the status bar.
    pub fn describe(&self) -> String {
        match self {
            Calendar::Manual => "manual: resets happen by the buttons only".into(),
            Calendar::Scheduled(s) => s.describe(),
        }
    }
}

impl Schedule {
    /// N, held in its range even if a file says otherwise (no division by zero, no endless
    /// loop, whatever was read).
    fn n(&self) -> i64 {
        i64::from(self.soft_days.clamp(*SOFT_DAYS.start(), *SOFT_DAYS.end()))
    }

    /// Days from the anchor to `date`, as far as the calendar can count.
    fn days(&self, date: NaiveDate) -> i64 {
        (date - self.anchor).num_days()
    }

    /// The number of the soft-reset period `date` falls in: 0 from the anchor (inclusive) to
    /// the next reset (exclusive), negative before the anchor.
    pub fn period(&self, date: NaiveDate) -> i64 {
        self.days(date).div_euclid(self.n())
    }

    /// Rating periods of eq. 1 that one scheduled soft reset rolls: a rating period is a
    /// calendar week (the design notes), so N/7 (one for the default weekly calendar).
    pub fn periods_per_reset(&self) -> f64 {
        self.n() as f64 / 7.0
    }

    /// Whether a soft reset falls on `date`.
    pub fn is_reset_day(&self, date: NaiveDate) -> bool {
        self.days(date).rem_euclid(self.n()) == 0
    }

    /// The first reset day after `date`.
    pub fn next_after(&self, date: NaiveDate) -> Option<NaiveDate> {
        let ahead = self.n() - self.days(date).rem_euclid(self.n());
        date.checked_add_days(Days::new(ahead as u64))
    }

    /// The last reset day on or before `date`.
    pub fn last_on_or_before(&self, date: NaiveDate) -> Option<NaiveDate> {
        let back = self.days(date).rem_euclid(self.n());
        date.checked_sub_days(Days::new(back as u64))
    }

    /// Whether the reset on reset day `date` is also a hard reset.
    pub fn is_hard(&self, date: NaiveDate) -> bool {
        match self.hard {
            HardResets::Every(m) => {
                let m = i64::from(m.clamp(*HARD_EVERY.start(), *HARD_EVERY.end()));
                self.period(date).rem_euclid(m) == 0
            }
            HardResets::Monthly => match date.checked_sub_days(Days::new(self.n() as u64)) {
                Some(before) => (before.year(), before.month()) != (date.year(), date.month()),
                None => true,
            },
        }
    }

    /// Reset days scanned at most to find a hard one: a season is at most 52 soft resets, or
    /// the resets of one calendar month (at most 31, and a hard one within the next 31).
    const SEASON_SCAN: usize = 64;

    /// The first hard reset after `date`.
    pub fn next_hard_after(&self, date: NaiveDate) -> Option<NaiveDate> {
        let mut day = self.next_after(date)?;
        for _ in 0..Self::SEASON_SCAN {
            if self.is_hard(day) {
                return Some(day);
            }
            day = self.next_after(day)?;
        }
        None
    }

    /// The last hard reset on or before `date`.
    pub fn last_hard_on_or_before(&self, date: NaiveDate) -> Option<NaiveDate> {
        let mut day = self.last_on_or_before(date)?;
        for _ in 0..Self::SEASON_SCAN {
            if self.is_hard(day) {
                return Some(day);
            }
            day = day.checked_sub_days(Days::new(self.n() as u64))?;
        }
        None
    }

    /// The season `date` falls in: from the last hard reset on or before it to the day before
    /// the next (both days count); none past the calendar's reach.
    pub fn season_of(&self, date: NaiveDate) -> Option<(NaiveDate, NaiveDate)> {
        let first = self.last_hard_on_or_before(date)?;
        let last = self.next_hard_after(date)?.checked_sub_days(Days::new(1))?;
        Some((first, last))
    }

    /// The resets replay applies between an event dated `after` and the next one, dated
    /// `upto`: every reset day in (after, upto], in order, but those of a [`Fold`] (see the
    /// module documentation), which [`Plan::folded`] describes.
    pub fn plan(&self, after: NaiveDate, upto: NaiveDate) -> Plan {
        let fold = (|| {
            // The end of the season running at `after`, then of the empty seasons applied.
            let mut applied = self.next_hard_after(after)?;
            for _ in 0..EMPTY_SEASONS_APPLIED {
                applied = self.next_hard_after(applied)?;
            }
            let last = self.last_hard_on_or_before(upto)?;
            (last > applied).then(|| Fold {
                after: applied,
                last,
                seasons: self.hard_between(applied, last),
                weeks: (self.period(last) - self.period(applied)).max(0) as u64,
            })
        })();
        Plan {
            schedule: *self,
            next: self.next_after(after).filter(|d| *d <= upto),
            upto,
            fold,
        }
    }

    /// How many hard resets fall in (after, upto], both of them hard-reset days.
    fn hard_between(&self, after: NaiveDate, upto: NaiveDate) -> u64 {
        let months = |d: NaiveDate| i64::from(d.year()) * 12 + i64::from(d.month0());
        let n = match self.hard {
            HardResets::Every(m) => {
                let m = i64::from(m.clamp(*HARD_EVERY.start(), *HARD_EVERY.end()));
                self.period(upto).div_euclid(m) - self.period(after).div_euclid(m)
            }
            // Every month holds a reset day, so each month's first is its one hard reset.
            HardResets::Monthly if self.n() <= 28 => months(upto) - months(after),
            // Resets far apart: count them (at most one a month).
            HardResets::Monthly => {
                let mut count = 0;
                let mut day = self.next_after(after);
                while let Some(d) = day.filter(|d| *d <= upto) {
                    count += i64::from(self.is_hard(d));
                    day = self.next_after(d);
                }
                count
            }
        };
        n.max(0) as u64
    }

    /// Approximately how many seasons end between `after` and `upto` (for memory estimates).
    pub fn seasons_spanned(&self, after: NaiveDate, upto: NaiveDate) -> u64 {
        let spanned = match self.hard {
            HardResets::Every(m) => {
                let m = i64::from(m.clamp(*HARD_EVERY.start(), *HARD_EVERY.end()));
                self.period(upto).div_euclid(m) - self.period(after).div_euclid(m)
            }
            HardResets::Monthly => {
                let month = |d: NaiveDate| i64::from(d.year()) * 12 + i64::from(d.month0());
                (month(upto) - month(after)).max(self.period(upto) - self.period(after))
            }
        };
        spanned.max(0) as u64
    }

    fn brief(&self) -> String {
        match self.hard {
            HardResets::Monthly => format!("soft {}d, hard monthly", self.n()),
            HardResets::Every(m) => format!("soft {}d, hard every {m}", self.n()),
        }
    }

    fn describe(&self) -> String {
        let soft = match self.n() {
            7 => format!("a soft reset every {}", self.anchor.format("%A")),
            1 => "a soft reset every day".to_string(),
            n => format!("a soft reset every {n} days from {}", self.anchor),
        };
        let hard = match self.hard {
            HardResets::Monthly => "a hard reset at the first soft reset of each month".into(),
            HardResets::Every(1) => "each also a hard reset".into(),
            HardResets::Every(m) => format!("a hard reset every {m} soft resets"),
        };
        format!("{soft}, {hard}")
    }
}

/// Whole seasons with nothing entered that a gap between two events applies one by one
/// after the season it closes; those after them are folded (see the module documentation).
pub const EMPTY_SEASONS_APPLIED: u32 = 8;

/// A run of whole seasons with nothing entered that replay applies as one step: the seasons
/// that end in (after, last], after the [`EMPTY_SEASONS_APPLIED`] applied one by one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fold {
    /// The hard reset just before the run (the plan yields it, then resumes after `last`).
    pub after: NaiveDate,
    /// The run's last hard reset.
    pub last: NaiveDate,
    /// Seasons in the run (hard resets in (after, last]).
    pub seasons: u64,
    /// Soft resets in the run.
    pub weeks: u64,
}

/// The resets between two events, in the order replay applies them.
#[derive(Debug, Clone)]
pub struct Plan {
    schedule: Schedule,
    next: Option<NaiveDate>,
    upto: NaiveDate,
    fold: Option<Fold>,
}

impl Plan {
    /// The seasons the plan folds: their resets are not among those it yields.
    pub fn folded(&self) -> Option<Fold> {
        self.fold
    }
}

impl Iterator for Plan {
    type Item = Reset;

    fn next(&mut self) -> Option<Reset> {
        let date = self.next?;
        let resume = match self.fold {
            Some(f) if date == f.after => f.last,
            _ => date,
        };
        self.next = self.schedule.next_after(resume).filter(|d| *d <= self.upto);
        Some(Reset {
            date,
            hard: self.schedule.is_hard(date),
        })
    }
}

/// Where the ladder stands on the calendar on a given day.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Status {
    pub season: u32,
    /// The week within the season, from 1.
    pub week: u32,
    /// The next scheduled reset after the day asked about; `None` for a manual calendar.
    pub next: Option<Reset>,
    /// The next scheduled hard reset (the season's end); `None` for a manual calendar.
    pub season_ends: Option<NaiveDate>,
    /// Scheduled resets that have fallen since the last event and wait for the next one.
    pub pending: u32,
    /// The calendar in a sentence.
    pub calendar: String,
}

impl Status {
    /// The position on `today` of a ladder at `season`, `week` whose latest event is dated
    /// `last`: the resets `calendar` has due since then counted in (replay applies them with
    /// the next event), with the next reset after `today`.
    pub fn at(
        calendar: &Calendar,
        season: u32,
        week: u32,
        last: Option<NaiveDate>,
        today: NaiveDate,
    ) -> Status {
        let mut status = Status {
            season,
            week,
            next: None,
            season_ends: None,
            pending: 0,
            calendar: calendar.describe(),
        };
        let Calendar::Scheduled(s) = calendar else {
            return status;
        };
        let today = last.map_or(today, |l| l.max(today));
        if let Some(last) = last {
            let plan = s.plan(last, today);
            if let Some(f) = plan.folded() {
                let clamp = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
                status.pending = status.pending.saturating_add(clamp(f.weeks));
                status.season = status.season.saturating_add(clamp(f.seasons));
            }
            for reset in plan {
                status.pending = status.pending.saturating_add(1);
                status.week += 1;
                if reset.hard {
                    status.season = status.season.saturating_add(1);
                    status.week = 1;
                }
            }
        }
        status.next = s.next_after(today).map(|date| Reset {
            date,
            hard: s.is_hard(date),
        });
        status.season_ends = s.next_hard_after(today);
        status
    }

    /// One line: "season 3, week 2 · next reset Monday 2026-11-23 (soft); season ends
    /// 2026-12-07 · a soft reset every Monday, …".
    pub fn line(&self) -> String {
        let mut out = format!("season {}, week {}", self.season, self.week);
        if let Some(next) = self.next {
            let kind = if next.hard { "soft and hard" } else { "soft" };
            out += &format!(
                " · next reset {} {} ({kind})",
                next.date.format("%A"),
                next.date
            );
            if let Some(end) = self.season_ends.filter(|e| *e != next.date) {
                out += &format!("; the season ends {end}");
            }
        }
        if self.pending > 0 {
            out += &format!(
                " · {} scheduled reset{} since the last event, applied with the next one",
                self.pending,
                if self.pending == 1 { "" } else { "s" }
            );
        }
        out + " · calendar: " + &self.calendar
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    fn every(n: u32, m: u32, anchor: NaiveDate) -> Schedule {
        Schedule {
            soft_days: n,
            anchor,
            hard: HardResets::Every(m),
        }
    }

    #[test]
    fn reset_days_count_from_the_anchor_both_ways() {
        let s = Schedule::default(); // Mondays from 2001-01-01
        assert_eq!(d(2001, 1, 1).weekday(), chrono::Weekday::Mon);
        // 2026-11-20 is a Friday; the Mondays around it are the 16th and the 23rd.
        assert_eq!(s.next_after(d(2026, 11, 20)), Some(d(2026, 11, 23)));
        assert_eq!(s.last_on_or_before(d(2026, 11, 20)), Some(d(2026, 11, 16)));
        // A reset day's next one is a week later; it is its own last one.
        assert_eq!(s.next_after(d(2026, 11, 23)), Some(d(2026, 11, 30)));
        assert_eq!(s.last_on_or_before(d(2026, 11, 23)), Some(d(2026, 11, 23)));
        // Before the anchor too: 1872-11-30 was a Saturday, the Monday after is 12-02.
        assert_eq!(s.next_after(d(1872, 11, 30)), Some(d(1872, 12, 2)));
        assert!(s.is_reset_day(d(1872, 12, 2)));
        assert_eq!(s.periods_per_reset(), 1.0);
    }

    #[test]
    fn monthly_hard_resets_are_each_months_first_soft_reset() {
        let s = Schedule::default();
        // December 2026's Mondays: 7, 14, 21, 28; November's last is the 30th.
        assert!(s.is_hard(d(2026, 12, 7)));
        assert!(!s.is_hard(d(2026, 11, 30)) && !s.is_hard(d(2026, 12, 14)));
        assert_eq!(s.next_hard_after(d(2026, 11, 20)), Some(d(2026, 12, 7)));
        assert_eq!(
            s.last_hard_on_or_before(d(2026, 11, 20)),
            Some(d(2026, 11, 2))
        );
        // Every reset of a 40-day calendar starts a new month.
        let s40 = Schedule {
            soft_days: 40,
            ..Schedule::default()
        };
        let day = s40.next_after(d(2026, 1, 1)).unwrap();
        assert!(s40.is_hard(day) && s40.is_hard(s40.next_after(day).unwrap()));
    }

    #[test]
    fn every_m_counts_from_the_anchor() {
        let s = every(7, 4, d(2026, 1, 5));
        let hard: Vec<bool> = (1..=9)
            .map(|k| s.is_hard(d(2026, 1, 5) + Days::new(7 * k)))
            .collect();
        assert_eq!(
            hard,
            [false, false, false, true, false, false, false, true, false]
        );
        assert!(s.is_hard(d(2026, 1, 5)) && s.is_hard(d(2025, 12, 8)));
    }

    #[test]
    fn a_plan_lists_each_reset_day_of_the_gap() {
        let s = every(7, 4, d(2026, 1, 5));
        // From Friday 01-09 to Monday 02-02: the Mondays 12, 19, 26 and 02-02 (hard, k = 4).
        let got: Vec<Reset> = s.plan(d(2026, 1, 9), d(2026, 2, 2)).collect();
        let want = [(12, false), (19, false), (26, false)]
            .map(|(day, hard)| Reset {
                date: d(2026, 1, day),
                hard,
            })
            .to_vec();
        assert_eq!(got[..3], want[..]);
        assert_eq!(
            got[3],
            Reset {
                date: d(2026, 2, 2),
                hard: true
            }
        );
        assert_eq!(got.len(), 4);
        // Nothing between two days of one week, nor backwards.
        assert_eq!(s.plan(d(2026, 1, 5), d(2026, 1, 11)).count(), 0);
        assert_eq!(s.plan(d(2026, 2, 2), d(2026, 1, 1)).count(), 0);
    }

    #[test]
    fn a_gap_applies_a_few_empty_seasons_and_folds_the_rest() {
        // Four-week seasons from 2026-01-05. From 01-09 to 04-01: resets on 01-12, 19, 26,
        // 02-02 (hard: the season with the matches ends), then 02-09 … 03-02 (hard) and
        // 03-09 … 03-30 (hard), two empty seasons, all applied: fewer than eight.
        let s = every(7, 4, d(2026, 1, 5));
        let plan = s.plan(d(2026, 1, 9), d(2026, 4, 1));
        assert_eq!(plan.folded(), None);
        let got: Vec<Reset> = plan.collect();
        assert_eq!(got.len(), 12);
        assert_eq!(
            got.iter()
                .filter(|r| r.hard)
                .map(|r| r.date)
                .collect::<Vec<_>>(),
            [d(2026, 2, 2), d(2026, 3, 2), d(2026, 3, 30)]
        );
        // Two years on, to Wednesday 2028-01-05 (day 730, in period 104 = 730 div 7): the
        // season ending in period 4 (02-02), eight empty ones ending in periods 8 … 36
        // (2026-09-14, day 252) applied one by one, then a fold to the last season end before
        // the event, period 104 (2028-01-03, day 728): 104 − 36 = 68 soft resets,
        // 104/4 − 36/4 = 17 seasons.
        let plan = s.plan(d(2026, 1, 9), d(2028, 1, 5));
        let fold = plan.folded().unwrap();
        assert_eq!((fold.after, fold.last), (d(2026, 9, 14), d(2028, 1, 3)));
        assert_eq!((fold.seasons, fold.weeks), (17, 68));
        // The plan yields periods 1 … 36, then resumes after period 104: nothing before 01-05.
        let got: Vec<Reset> = plan.collect();
        assert_eq!(got.len(), 36);
        assert_eq!(
            got.last().map(|r| (r.date, r.hard)),
            Some((d(2026, 9, 14), true))
        );
        // A daily calendar over ten thousand years stays a few hundred resets: the days to
        // 0001-10-01 (the first season and eight empty months: 273 days) and 9999-12-02 … 31.
        let daily = Schedule {
            soft_days: 1,
            ..Schedule::default()
        };
        let plan = daily.plan(d(1, 1, 1), d(9999, 12, 31));
        let fold = plan.folded().unwrap();
        // Season ends: 0001-02-01 closes the first; eight empty to 0001-10-01; the fold runs
        // to 9999-12-01: (9999·12 + 11) − (1·12 + 9) = 119,978 months.
        assert_eq!((fold.after, fold.last), (d(1, 10, 1), d(9999, 12, 1)));
        assert_eq!(fold.seasons, 119_978);
        assert_eq!(plan.count(), 273 + 30);
        // Monthly resets far apart (every 30 days) are counted one by one: both ways agree.
        let s30 = Schedule {
            soft_days: 30,
            ..Schedule::default()
        };
        let fold = s30.plan(d(2026, 1, 9), d(2030, 1, 1)).folded().unwrap();
        let mut count = 0;
        let mut day = s30.next_after(fold.after).unwrap();
        while day <= fold.last {
            count += u64::from(s30.is_hard(day));
            day = s30.next_after(day).unwrap();
        }
        assert_eq!(fold.seasons, count);
    }

    #[test]
    fn the_status_counts_pending_resets_and_names_the_next() {
        let cal = Calendar::Scheduled(Schedule::default());
        // The last event on Friday 2026-11-20 in season 3, week 2; today is Tuesday 12-08:
        // resets on 11-23 (week 3), 11-30 (week 4), 12-07 (hard: season 4, week 1) are due.
        let s = Status::at(&cal, 3, 2, Some(d(2026, 11, 20)), d(2026, 12, 8));
        assert_eq!((s.season, s.week, s.pending), (4, 1, 3));
        assert_eq!(
            s.next,
            Some(Reset {
                date: d(2026, 12, 14),
                hard: false
            })
        );
        assert_eq!(s.season_ends, Some(d(2027, 1, 4)));
        let line = s.line();
        assert!(line.starts_with("season 4, week 1 · next reset Monday 2026-12-14 (soft)"));
        assert!(line.contains("the season ends 2027-01-04"), "{line}");
        assert!(
            line.contains("3 scheduled resets since the last event"),
            "{line}"
        );
        // Manual: the ladder's own counters, no next reset.
        let m = Status::at(
            &Calendar::Manual,
            3,
            2,
            Some(d(2026, 11, 20)),
            d(2026, 12, 8),
        );
        assert_eq!((m.season, m.week, m.pending, m.next), (3, 2, 0, None));
        assert!(m.line().contains("buttons only"));
    }

    #[test]
    fn settings_out_of_range_are_refused_and_never_divide_by_zero() {
        let bad = Schedule {
            soft_days: 0,
            ..Schedule::default()
        };
        let e = Calendar::Scheduled(bad).check().unwrap_err().to_string();
        assert!(e.contains("soft_every") && e.contains("1 to 366"), "{e}");
        // Read from a file unchecked, it still counts (as 1 day) instead of panicking.
        assert_eq!(bad.next_after(d(2026, 1, 1)), Some(d(2026, 1, 2)));
        let zero = every(7, 0, d(2026, 1, 5));
        assert!(Calendar::Scheduled(zero).check().is_err());
        assert!(zero.is_hard(d(2026, 1, 12)));
        let far = Schedule {
            anchor: NaiveDate::from_ymd_opt(10000, 1, 1).unwrap(),
            ..Schedule::default()
        };
        assert!(Calendar::Scheduled(far).check().is_err());
        assert_eq!(Calendar::Scheduled(Schedule::default()).check(), Ok(()));
        assert_eq!(Calendar::Manual.check(), Ok(()));
        // The last days a date can hold: no overflow, just no next reset.
        let s = every(366, 1, d(2001, 1, 1));
        assert_eq!(s.next_after(NaiveDate::MAX), None);
        assert_eq!(s.plan(NaiveDate::MAX, NaiveDate::MAX).count(), 0);
    }
}
