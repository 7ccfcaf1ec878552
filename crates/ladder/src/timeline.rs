//! The replay timeline: the ladder as it stood after any event, from checkpoints.
//!
//! One replay pass keeps a copy of the ladder every `interval` events; the ladder after `n`
//! events is the nearest checkpoint at or before `n` plus at most `interval − 1` applies. The
//! interval is chosen so that the copies stay within a memory budget (about 64 MB for a
//! 10,000-player ladder) while a jump never replays more than a few tens of thousands of
//! events (milliseconds).
//!
//! Rating periods, for stepping ◀ ▶ (each ends where the next begins; a `rules` event always
//! ends one, since the period's meaning may change with it):
//! - Skyweaver: the interval between two resets (the white paper: a soft reset rolls the rating
//!   period; a hard reset ends the week too), pressed or by the season calendar. A step lands
//!   just after the reset, so the reset's caps and RD growth are in view (a scheduled reset
//!   applies with the first event after it: the step lands after that event).
//! - INVERSUS: blocks of `days_per_period` days counted from the log's first date (the
//!   period its inactivity rule measures in).
//! - AllegSkill, Memoir '44, Elo: the calendar week, Monday to Sunday (they have no rating
//!   period; a week is how a club meets).

use crate::event::Event;
use crate::log::Effective;
use crate::replay::{Ladder, ReplayError};
use crate::rules::{Params, Rules};
use crate::seasons::SeasonEntry;
use crate::state::{HistoryRow, PlayerState};
use chrono::{Datelike, NaiveDate};

/// How many events pass between two progress reports during the build.
const PROGRESS_EVERY: usize = 16_384;
/// Checkpoints never come closer than this: below it the copies cost more than the replay.
const MIN_INTERVAL: usize = 1_024;
/// Roughly what all checkpoints together may take.
const MEMORY_BUDGET: usize = 64 << 20;
/// Bounds on the number of checkpoints, whatever the budget says: few enough to copy
/// cheaply, many enough that a jump replays at most 1/8 of the log.
const MIN_CHECKPOINTS: usize = 8;
const MAX_CHECKPOINTS: usize = 64;

/// Why a timeline could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TimelineError {
    #[error("cancelled")]
    Cancelled,
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// A log with checkpoints: random access to the ladder after any prefix of its events.
#[derive(Debug, Clone)]
pub struct Timeline {
    rules: Rules,
    events: Vec<Effective>,
    interval: usize,
    /// `checkpoints[i]` is the ladder after `i * interval` events.
    checkpoints: Vec<Ladder>,
    /// Ascending `n` such that event `n` (1-based) is the last of its rating period.
    period_ends: Vec<usize>,
}

/// Which rating period an event falls in; a change between two events is a boundary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PeriodId {
    /// Rules events seen so far.
    epoch: u64,
    /// Resets seen (Skyweaver), or the period/week number (date-based systems).
    within: i64,
}

impl Timeline {
    /// Replays `events` (in replay order) under `rules` once, keeping checkpoints at the
    /// default interval. `progress` hears the number of events applied now and then and at
    /// the end; returning false cancels.
    pub fn build(
        rules: &Rules,
        events: Vec<Effective>,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Timeline, TimelineError> {
        let interval = interval_for(Some(rules), &events);
        Timeline::with_interval(rules, events, interval, progress)
    }

    /// [`Timeline::build`] with checkpoints every `interval` events (at least 1).
    pub fn with_interval(
        rules: &Rules,
        events: Vec<Effective>,
        interval: usize,
        progress: &mut dyn FnMut(u64) -> bool,
    ) -> Result<Timeline, TimelineError> {
        let interval = interval.max(1);
        let mut ladder = Ladder::new(rules.clone());
        let mut checkpoints = vec![ladder.clone()];
        let mut period_ends = Vec::new();
        let mut scratch: Vec<HistoryRow> = Vec::new();
        let origin = events.first().map(|e| e.date);
        let (mut epoch, mut resets) = (0u64, 0i64);
        let mut previous: Option<PeriodId> = None;
        for (i, e) in events.iter().enumerate() {
            let id = PeriodId {
                epoch,
                within: period_within(&ladder.rules, e.date, origin, resets),
            };
            if previous.is_some_and(|p| p != id) {
                period_ends.push(i);
            }
            previous = Some(id);
            ladder.apply(e.date, e.seq, &e.event, &mut scratch)?;
            scratch.clear();
            match e.event {
                Event::Rules { .. } => epoch += 1,
                Event::SoftReset | Event::HardReset => resets += 1,
                _ => {}
            }
            let done = i + 1;
            if done.is_multiple_of(interval) {
                checkpoints.push(ladder.clone());
            }
            if done.is_multiple_of(PROGRESS_EVERY) && !progress(done as u64) {
                return Err(TimelineError::Cancelled);
            }
        }
        if !progress(events.len() as u64) {
            return Err(TimelineError::Cancelled);
        }
        Ok(Timeline {
            rules: rules.clone(),
            events,
            interval,
            checkpoints,
            period_ends,
        })
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.events.len()
    }

    pub fn is_empty(&self) -> bool {
        self.events.is_empty()
    }

    /// The rules the ladder started with.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The events, in replay order.
    pub fn events(&self) -> &[Effective] {
        &self.events
    }

    /// Events between two checkpoints.
    pub fn interval(&self) -> usize {
        self.interval
    }

    /// Checkpoints kept, the initial ladder included.
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// The ladder after the first `n` events (0: the empty ladder; past the end: the end).
    pub fn at(&self, n: usize) -> Result<Ladder, ReplayError> {
        let n = n.min(self.len());
        let c = (n / self.interval).min(self.checkpoints.len().saturating_sub(1));
        let (mut ladder, from) = match self.checkpoints.get(c) {
            Some(l) => (l.clone(), c * self.interval),
            None => (Ladder::new(self.rules.clone()), 0),
        };
        self.apply_range(&mut ladder, from, n)?;
        Ok(ladder)
    }

    /// Moves `ladder` (one this timeline produced) to the state after `n` events: forward by
    /// applying the events in between when that is shorter than starting from a checkpoint,
    /// which makes ▶ one apply instead of a copy.
    pub fn seek(&self, ladder: &mut Ladder, n: usize) -> Result<(), ReplayError> {
        let n = n.min(self.len());
        let current = usize::try_from(ladder.events).unwrap_or(usize::MAX);
        let base = (n / self.interval) * self.interval;
        if current <= n && current >= base {
            self.apply_range(ladder, current, n)
        } else {
            *ladder = self.at(n)?;
            Ok(())
        }
    }

    fn apply_range(&self, ladder: &mut Ladder, from: usize, to: usize) -> Result<(), ReplayError> {
        let mut scratch = Vec::new();
        for e in self.events.get(from..to).unwrap_or_default() {
            ladder.apply(e.date, e.seq, &e.event, &mut scratch)?;
            scratch.clear();
        }
        Ok(())
    }

    /// Event `n`, 1-based: the last one applied in [`Timeline::at`]`(n)`.
    pub fn event(&self, n: usize) -> Option<&Effective> {
        n.checked_sub(1).and_then(|i| self.events.get(i))
    }

    /// The replay key (date, seq) of event `n`, 1-based; history rows at or before it are
    /// those of [`Timeline::at`]`(n)`. `None` for 0.
    pub fn key(&self, n: usize) -> Option<(NaiveDate, u64)> {
        self.event(n).map(|e| (e.date, e.seq))
    }

    /// The leading part of `rows` (one player's history, in replay order) that
    /// [`Timeline::at`]`(n)` has produced.
    pub fn rows_until<'r>(&self, rows: &'r [HistoryRow], n: usize) -> &'r [HistoryRow] {
        let end = match self.key(n) {
            None => 0,
            Some(key) => rows.partition_point(|r| (r.date, r.seq) <= key),
        };
        &rows[..end]
    }

    /// How many events fall on or before `date` (so [`Timeline::at`] of it shows that day's
    /// end).
    pub fn index_at_date(&self, date: NaiveDate) -> usize {
        self.events.partition_point(|e| e.date <= date)
    }

    /// The index just after the event with sequence number `seq`, if it is in the log.
    pub fn index_of_seq(&self, seq: u64) -> Option<usize> {
        self.events.iter().position(|e| e.seq == seq).map(|i| i + 1)
    }

    /// The end of the rating period after the one `n` is in: the smallest period end above
    /// `n`, or the end of the log.
    pub fn next_period(&self, n: usize) -> usize {
        let i = self.period_ends.partition_point(|&b| b <= n);
        self.period_ends.get(i).copied().unwrap_or(self.len())
    }

    /// The largest period end below `n`, or 0.
    pub fn prev_period(&self, n: usize) -> usize {
        let n = n.min(self.len());
        let i = self.period_ends.partition_point(|&b| b < n);
        i.checked_sub(1)
            .and_then(|i| self.period_ends.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// Every period end (excluding the log's own end), ascending.
    pub fn period_ends(&self) -> &[usize] {
        &self.period_ends
    }
}

/// The part of an event's period id that the system decides (see the module docs).
fn period_within(rules: &Rules, date: NaiveDate, origin: Option<NaiveDate>, resets: i64) -> i64 {
    match &rules.params {
        // The calendar's period number grows by one at each scheduled reset, and `resets` at
        // each pressed one: both only grow, so their sum changes whenever either does.
        Params::Skyweaver(_) => match rules.calendar.schedule() {
            Some(s) => resets + s.period(date),
            None => resets,
        },
        Params::Inversus(p) => {
            let days = origin.map_or(0, |o| (date - o).num_days()) as f64;
            let width = if p.days_per_period.is_finite() && p.days_per_period >= 1.0 {
                p.days_per_period
            } else {
                1.0
            };
            (days / width).floor() as i64
        }
        Params::Allegskill(_) | Params::Memoir44(_) | Params::Elo(_) | Params::Goals(_) => {
            let week = date.iso_week();
            i64::from(week.year()) * 100 + i64::from(week.week())
        }
    }
}

/// The most archive rows the gaps between `events` can give: per gap, the season it closes,
/// the empty seasons applied one by one and one row for the seasons folded.
fn rows_per_gap(events: &[Effective]) -> usize {
    let per_gap = crate::calendar::EMPTY_SEASONS_APPLIED as usize + 2;
    events.len().saturating_mul(per_gap)
}

/// The default checkpoint interval for `events`: the memory budget over an estimate of one
/// ladder copy at the log's end (players, and the season archive that hard resets grow),
/// bounded so a jump replays at most an eighth of the log.
pub fn default_interval(events: &[Effective]) -> usize {
    interval_for(None, events)
}

/// [`default_interval`] for a log that starts under `initial` (whose season calendar, if
/// any, grows the archive as hard resets do).
fn interval_for(initial: Option<&Rules>, events: &[Effective]) -> usize {
    let (mut players, mut seasons) = (0usize, 0usize);
    for e in events {
        match &e.event {
            Event::Player { .. } => players += 1,
            Event::HardReset => seasons += 1,
            // The calendar from here on: at most a few archived rows per event (the season
            // it closes, the empty seasons applied one by one, one row for the rest), at
            // most the seasons its dates span.
            Event::Rules { rules } => {
                if let (Some(s), Some(last)) = (rules.calendar.schedule(), events.last()) {
                    seasons +=
                        (s.seasons_spanned(e.date, last.date) as usize).min(rows_per_gap(events));
                }
            }
            _ => {}
        }
    }
    if let (Some(rules), Some(first), Some(last)) = (initial, events.first(), events.last())
        && let Some(s) = rules.calendar.schedule()
    {
        seasons += (s.seasons_spanned(first.date, last.date) as usize).min(rows_per_gap(events));
    }
    let player_bytes = std::mem::size_of::<PlayerState>() + 32;
    let entry_bytes = std::mem::size_of::<SeasonEntry>() + 32;
    let copy = 4096 + players * player_bytes + seasons * players * entry_bytes;
    let count = (MEMORY_BUDGET / copy).clamp(MIN_CHECKPOINTS, MAX_CHECKPOINTS);
    events.len().div_ceil(count).max(MIN_INTERVAL)
}
