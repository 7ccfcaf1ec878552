//! Replay and preview: the log replayed from the start (read-only, for `rungs replay`, what-if
//! comparisons and checks), the caches rebuilt from such a replay, and previews of rows not
//! yet committed, all by the same engine (`ladder::replay`).

use super::caches::CacheHead;
use super::codec;
use super::digest::Stamp;
use super::events::Events;
use super::histories::{HistoryWrite, RowCounter};
use super::{Result, Store, StoreError};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, LogRow};
use rungs_ladder::log;
use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::Rules;
use rungs_ladder::state::HistoryRow;
use rusqlite::Connection;

/// How often (in events) a long replay looks at its cancel flag.
const CANCEL_EVERY: u64 = 1 << 16;

impl Store {
    /// Replays `events` from an empty ladder under `rules`, handing each event's history rows
    /// to `rows`. With `skip_rules` the log's `rules` events are passed over (the rules hold
    /// from the start). A `guard`ing replay (a change, an import, a check) holds the log to
    /// the rule that names are unique on every date; one that only reads takes it as it is.
    pub(crate) fn run(
        &self,
        rules: &Rules,
        events: &Events,
        skip_rules: bool,
        guard: bool,
        mut rows: impl FnMut(&[HistoryRow]),
    ) -> Result<Ladder> {
        self.run_keeping(rules, events, skip_rules, guard, true, &mut rows)
    }

    /// [`run`](Self::run), keeping the season archive only if `seasons`: a replay that shows
    /// standings drops each season as it ends and holds players, not players × seasons.
    pub(super) fn run_keeping(
        &self,
        rules: &Rules,
        events: &Events,
        skip_rules: bool,
        guard: bool,
        seasons: bool,
        rows: &mut dyn FnMut(&[HistoryRow]),
    ) -> Result<Ladder> {
        let ladder = if guard {
            self.empty_ladder(&self.conn, rules)?
        } else {
            Ladder::new(rules.clone())
        };
        let mut steps = Steps::new(ladder, skip_rules, seasons);
        events
            .for_each(|date, seq, event| {
                steps
                    .apply(date, seq, event, || self.cancelled(), &mut *rows)
                    .map_err(|halt| match halt {
                        Halt::Cancelled => StoreError::Cancelled,
                        Halt::Replay(e) => self.replay_error(e),
                    })
            })
            .map(|()| steps.ladder)
    }

    /// A replay of the log from scratch under `rules` (the ladder's own when `None`): the
    /// final ladder and its full history. The file is not touched.
    pub fn replay(&self, rules: Option<&Rules>) -> Result<(Ladder, Vec<HistoryRow>)> {
        let events = self.events(&self.conn)?;
        let rules = match rules {
            Some(r) => r.clone(),
            None => self.initial_rules()?,
        };
        let mut history = Vec::new();
        let ladder = self.run(&rules, &events, false, false, |rows| {
            history.extend_from_slice(rows)
        })?;
        Ok((ladder, history))
    }

    /// Hands `f` every event that counts, in replay order, decoded one at a time (the log is
    /// never held as a list of events).
    pub fn each_event(&self, mut f: impl FnMut(NaiveDate, &Event)) -> Result<()> {
        let events = self.events(&self.conn)?;
        let _ = events.for_each(|date, _, event| -> std::result::Result<(), ()> {
            f(date, event);
            Ok(())
        });
        Ok(())
    }

    /// Whether the log as it stands keeps names apart on every date (a log an older rungs
    /// wrote may not: it checked names against the ladder at its end only).
    pub fn names_apart(&self) -> Result<bool> {
        let events = self.events(&self.conn)?;
        match self.run(&self.initial_rules()?, &events, false, true, |_| {}) {
            Ok(_) => Ok(true),
            Err(StoreError::Replay {
                cause: rungs_ladder::replay::ReplayError::NameTaken { .. },
                ..
            }) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// The rules in force after every event dated on or before `date`: what a rules change
    /// entered now with that date starts from (it replays after that day's events).
    pub fn rules_on(&self, date: NaiveDate) -> Result<Rules> {
        let events = self.events(&self.conn)?;
        Ok(rules_in(self.initial_rules()?, &events, date))
    }

    /// Every event that counts, as [`Store::effective`], and the rules in force on `date`, as
    /// [`Store::rules_on`], from one reading of the log.
    pub fn effective_and_rules_on(
        &self,
        date: NaiveDate,
    ) -> Result<(Vec<rungs_ladder::log::Effective>, Rules)> {
        let events = self.events(&self.conn)?;
        let rules = rules_in(self.initial_rules()?, &events, date);
        Ok((events.to_effective(), rules))
    }

    /// The final standings of the log under `rules` (with its rules changes), without history
    /// or season archive: what `rungs replay` prints, in the least memory.
    pub fn replay_state(&self, rules: &Rules) -> Result<Ladder> {
        self.replay_reading(rules, false)
    }

    /// The final standings of the log with `rules` held from the start: the log's own rules
    /// changes are passed over. Without history or season archive, as [`Store::replay_state`].
    pub fn replay_fixed(&self, rules: &Rules) -> Result<Ladder> {
        self.replay_reading(rules, true)
    }

    /// Replays `events` (the log as it now stands in `tx`) and rewrites the caches: every
    /// player, and history from `from` (the first affected event; everything when `None`).
    pub(crate) fn rebuild(
        &self,
        tx: &Connection,
        events: &Events,
        from: Option<(NaiveDate, u64)>,
        stamp: Stamp,
    ) -> Result<()> {
        self.check_cancel()?;
        self.reached(500);
        let rules = self.initial_rules()?;
        let mut counter = RowCounter::default();
        let _ = events.for_each(|_, _, event| -> std::result::Result<(), ()> {
            counter.add(event);
            Ok(())
        });
        let (histories, ladder) = counter
            .histories(0)
            .packed_beside(events.len() > 1 << 14, |add| {
                self.run(&rules, events, false, true, add)
            });
        let ladder = ladder?;
        self.check_cancel()?;
        self.reached(750);
        let from = from.map_or((NaiveDate::MIN, 0), |f| history_changes_from(f, events));
        let head = CacheHead {
            stamp,
            last: events.last_key(),
            caches: 0,
        };
        self.write_cache(
            tx,
            &ladder,
            None,
            HistoryWrite::Replace(&histories, from),
            &head,
        )
    }

    /// The ladder now and as it would be after `rows` were committed, by the same replay
    /// code; nothing is written. New events after everything cached apply to a copy of the
    /// cached state; anything else replays the log with the rows in place.
    pub fn preview(&self, rows: &[(NaiveDate, Entry)]) -> Result<(Ladder, Ladder)> {
        // Read without moving what this store saw: a change built from an older read must
        // still be refused if another program changed the ladder before the preview.
        let before = self.read_ladder()?.1;
        let head = self
            .cache_head(&self.conn)?
            .ok_or_else(|| StoreError::Stale {
                path: self.name(),
                why: "its caches are missing".into(),
            })?;
        let next_seq = head.stamp.last_seq as u64 + 1;
        let seq_of = |i: usize| next_seq + i as u64;
        // The caches hold the key of the last event in replay order, so an append is known
        // without reading the log (a forecast on a million-match ladder stays instant).
        let appends = rows.iter().enumerate().all(|(i, (date, entry))| {
            matches!(entry, Entry::Add { .. }) && head.last.is_none_or(|k| (*date, seq_of(i)) > k)
        }) && rows.windows(2).all(|w| w[0].0 <= w[1].0);
        if appends {
            let mut after = before.clone();
            let mut scratch = Vec::new();
            for (i, (date, entry)) in rows.iter().enumerate() {
                if let Entry::Add { event } = entry {
                    after
                        .apply(*date, seq_of(i), event, &mut scratch)
                        .map_err(|e| self.replay_error(e))?;
                    scratch.clear();
                }
            }
            return Ok((before, after));
        }
        let blocks = codec::encode(rows).map_err(|e| StoreError::Invalid(e.to_string()))?;
        let kinds = self.action_kinds(&self.conn)?;
        let force = self.in_force(&kinds);
        self.check_cancel()?;
        let events = self.events_with(&self.conn, &force, Some((next_seq, &blocks)))?;
        self.check_cancel()?;
        self.reached(700);
        let after = self.run(&self.initial_rules()?, &events, false, true, |_| {})?;
        Ok((before, after))
    }
}

/// The replay-order key of the earliest event a batch of rows changes, given where the
/// events they correct stand: [`log::first_affected`] row by row (an addition needs no copy).
pub(crate) fn first_affected<'a>(
    rows: impl IntoIterator<Item = (NaiveDate, &'a Entry)>,
    current: &std::collections::HashMap<u64, NaiveDate>,
) -> Option<(NaiveDate, u64)> {
    rows.into_iter()
        .map(|(date, entry)| match entry {
            Entry::Add { .. } => (date, 0),
            _ => log::first_affected(
                &LogRow {
                    seq: 0,
                    date,
                    entry: entry.clone(),
                },
                current,
            ),
        })
        .min()
}

/// Where the cached history may first differ after a change whose first affected event is
/// `from`: just after the last event before it, since a season calendar's reset that waited
/// for a later event is dated before that event and appears or disappears with it
/// (the first affected event comes from [`log::first_affected`]).
fn history_changes_from(from: (NaiveDate, u64), events: &Events) -> (NaiveDate, u64) {
    let mut before = None;
    let _ = events.for_each(|date, seq, _| {
        if (date, seq) < from {
            before = Some((date, seq));
            Ok(())
        } else {
            Err(())
        }
    });
    before.map_or(from, |(date, seq)| (date, seq.saturating_add(1)))
}

/// The sequence numbers some rows correct.
pub(crate) fn targets<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> Vec<u64> {
    entries
        .into_iter()
        .filter_map(|e| match e {
            Entry::Edit { target, .. } | Entry::Delete { target } => Some(*target),
            Entry::Add { .. } => None,
        })
        .collect()
}

/// A replay as the store runs one, event by event: the rules changes passed over if
/// `skip_rules`, each season's archive dropped as it ends unless `seasons`, the cancel flag
/// looked at every [`CANCEL_EVERY`] events. The whole log's replay and the one beside the
/// reading (`ahead`) step through here.
pub(super) struct Steps {
    pub ladder: Ladder,
    scratch: Vec<HistoryRow>,
    done: u64,
    skip_rules: bool,
    seasons: bool,
}

/// Why a replay stopped.
pub(super) enum Halt {
    Cancelled,
    Replay(ReplayError),
}

impl Steps {
    pub fn new(ladder: Ladder, skip_rules: bool, seasons: bool) -> Steps {
        Steps {
            ladder,
            scratch: Vec::new(),
            done: 0,
            skip_rules,
            seasons,
        }
    }

    /// Applies one event, handing its history rows to `rows`.
    #[inline]
    pub fn apply(
        &mut self,
        date: NaiveDate,
        seq: u64,
        event: &Event,
        cancelled: impl Fn() -> bool,
        mut rows: impl FnMut(&[HistoryRow]),
    ) -> std::result::Result<(), Halt> {
        self.done += 1;
        if self.done.is_multiple_of(CANCEL_EVERY) && cancelled() {
            return Err(Halt::Cancelled);
        }
        if self.skip_rules && matches!(event, Event::Rules { .. }) {
            return Ok(());
        }
        self.ladder
            .apply(date, seq, event, &mut self.scratch)
            .map_err(Halt::Replay)?;
        rows(&self.scratch);
        self.scratch.clear();
        if !self.seasons {
            self.ladder.archive.clear();
        }
        Ok(())
    }
}

/// The rules in force on `date`: `initial` as the last rules change dated on or before it
/// left them (one dated later is not yet in force).
fn rules_in(initial: Rules, events: &Events, date: NaiveDate) -> Rules {
    let mut rules = initial;
    let _ = events.for_each(|day, _, event| -> std::result::Result<(), ()> {
        if day > date {
            return Err(());
        }
        if let Event::Rules { rules: r } = event {
            rules = (**r).clone();
        }
        Ok(())
    });
    rules
}
