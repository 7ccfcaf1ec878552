//! Actions and undo: a user action's rows land with the caches that follow from them, or
//! nothing does; undo and redo are actions too. Action ids and sequence numbers are always
//! rungs' own — 1, 2, 3, … in the order it wrote them — whatever a file or an imported log
//! said, so undo and redo follow what rungs wrote and nothing a log chose.

use super::caches::CacheHead;
use super::change::{BESIDE, joined, replay};
use super::codec;
use super::export::ActionKind;
use super::histories::{Histories, HistoryWrite, RowCounter};
use super::journal;
use super::log::{kind_code, stacks};
use super::replay::{first_affected, targets};
use super::{Change, Result, Store, StoreError, Toggled, Tx, today_stamp};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, PlayerId};
use rusqlite::{Connection, params};

/// The players a batch of new events reads, or `None` when an event reads every player
/// (resets and rules changes).
fn players_needed(rows: &[(NaiveDate, Entry)]) -> Option<Vec<PlayerId>> {
    let mut ids = Vec::new();
    for (_, entry) in rows {
        // A large batch (an import) reads everything anyway: no list of its millions of
        // players is made first.
        if ids.len() > 4096 {
            return None;
        }
        match entry {
            Entry::Add {
                event: Event::Match(m),
            } => ids.extend(m.a.iter().chain(m.b.iter())),
            Entry::Add {
                event:
                    Event::Player { id, .. } | Event::Rename { id, .. } | Event::Retire { id, .. },
            } => ids.push(*id),
            _ => return None,
        }
    }
    if ids.len() > 4096 {
        return None;
    }
    ids.sort_unstable();
    ids.dedup();
    Some(ids)
}

/// An action about to be written.
pub(super) struct NewAction<'a> {
    pub id: i64,
    pub kind: ActionKind,
    pub label: &'a str,
    pub at: &'a str,
}

impl Store {
    /// Inserts an action and its rows from `first_seq` on, and adds them to `head`'s stamp.
    pub(super) fn write_action(
        &self,
        tx: &Connection,
        head: &mut CacheHead,
        action: &NewAction<'_>,
        first_seq: i64,
        blocks: &[codec::Packed],
    ) -> Result<()> {
        let id = action.id;
        tx.prepare_cached("INSERT INTO actions(id, kind, label, at) VALUES (?1, ?2, ?3, ?4)")
            .and_then(|mut s| s.execute(params![id, action.kind.as_str(), action.label, action.at]))
            .map_err(|e| self.sql(e))?;
        head.stamp.add_action(id, kind_code(action.kind));
        self.write_blocks(tx, head, id, first_seq, blocks)?;
        Ok(())
    }

    /// Inserts blocks of action `id`'s rows from `first_seq` on; returns the sequence number
    /// after them.
    pub(super) fn write_blocks(
        &self,
        tx: &Connection,
        head: &mut CacheHead,
        id: i64,
        first_seq: i64,
        blocks: &[codec::Packed],
    ) -> Result<i64> {
        let mut seq = first_seq;
        let mut insert = tx
            .prepare_cached(
                "INSERT INTO log(first_seq, action, rows, data) VALUES (?1, ?2, ?3, ?4)",
            )
            .map_err(|e| self.sql(e))?;
        for (n, data) in blocks {
            let n = *n as i64;
            insert
                .execute(params![seq, id, n, data])
                .map_err(|e| self.sql(e))?;
            head.stamp.add_block(seq, id, n, data);
            seq += n;
        }
        Ok(seq)
    }

    /// Appends one user action: its rows land, and the caches follow, or nothing changes.
    /// Returns the sequence numbers given to the rows. The rows were checked when `change`
    /// was made; what depends on the ladder is checked here, against the ladder as it stands
    /// under this transaction (the ids by `Store::survey`, the rest by the replay).
    pub fn commit(&mut self, change: &Change) -> Result<Vec<u64>> {
        let (label, rows) = (change.label(), change.rows());
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let encode = || codec::encode(rows).map_err(|e| StoreError::Invalid(e.to_string()));
        if rows.len() <= BESIDE {
            let mut blocks = Some(encode()?);
            return self.commit_encoded(label, rows, &mut || Ok(blocks.take().unwrap_or_default()));
        }
        // A large change's log is encoded on a second thread while this one checks the rows
        // and reads the caches (and the replay begins).
        std::thread::scope(|s| {
            let mut encoder = Some(s.spawn(encode));
            let done = self.commit_encoded(label, rows, &mut || match encoder.take() {
                Some(e) => joined(e),
                None => Ok(Vec::new()),
            });
            // An encoding that failed fails the change first, as when it came before the
            // transaction began.
            if let Some(e) = encoder.take() {
                joined(e)?;
            }
            done
        })
    }

    /// [`Store::commit`] of rows whose log blocks `blocks` gives (asked once).
    fn commit_encoded(
        &self,
        label: &str,
        rows: &[(NaiveDate, Entry)],
        blocks: &mut dyn FnMut() -> Result<Vec<codec::Packed>>,
    ) -> Result<Vec<u64>> {
        // Dropped after the transaction ends, committed or not.
        let _bulk = (rows.len() >= journal::BULK_ROWS && !self.read_only)
            .then(|| journal::Bulk::begin(&self.conn));
        let tx = self.begin()?;
        let mut head = self.current_head(&tx)?;
        let first_seq = head.stamp.last_seq + 1;
        let survey = self.survey(&tx, rows, first_seq as u64, head.last)?;
        let action = head
            .stamp
            .last_action
            .checked_add(1)
            .ok_or_else(|| self.damaged("it holds the largest action number already"))?;
        let seqs: Vec<u64> = (0..rows.len() as u64)
            .map(|i| first_seq as u64 + i)
            .collect();
        // Where corrected rows stand before this action: what a correction affects begins at
        // the earlier of the old and the new place.
        let corrected = &survey.corrected;
        let dates_before = if corrected.is_empty() {
            Default::default()
        } else {
            let dates = self.events(&tx)?.dates_of(corrected);
            self.check_cancel()?;
            self.reached(250);
            dates
        };
        let appends_at_end = survey.after_all;
        let at = today_stamp();
        let row = NewAction {
            id: action,
            kind: ActionKind::Do,
            label,
            at: &at,
        };
        // The action and its rows are written once: before the replay, or while it runs.
        let mut logged = false;
        let mut write_log = |head: &mut CacheHead| -> Result<()> {
            if !std::mem::replace(&mut logged, true) {
                self.write_action(&tx, head, &row, first_seq, &blocks()?)?;
            }
            Ok(())
        };
        if !(appends_at_end
            && self.apply_incrementally(
                &tx,
                rows,
                &seqs,
                survey.counter,
                &mut head,
                &mut write_log,
            )?)
        {
            write_log(&mut head)?;
            // Caches an older rungs wrote lack what this one keeps: the whole log replays.
            let from = match appends_at_end {
                true => None,
                false => first_affected(rows.iter().map(|(d, e)| (*d, e)), &dates_before),
            };
            let events = self.events(&tx)?;
            self.rebuild(&tx, &events, from, head.stamp)?;
        }
        let written = (head.stamp.last_action, head.stamp.last_seq);
        self.check_cancel()?;
        tx.commit().map_err(|e| self.sql(e))?;
        self.seen.set(Some(written));
        Ok(seqs)
    }

    /// The fast path: new events after everything cached apply to the cached state. `false`
    /// (nothing written) when the caches are an older rungs' that lack what this one keeps
    /// (the match counts of `Ladder::results`): the caller replays the log instead.
    /// `write_log` writes the action's rows, which the replay does not read: a large change
    /// that reads every player replays on a second thread meanwhile.
    fn apply_incrementally(
        &self,
        tx: &Connection,
        rows: &[(NaiveDate, Entry)],
        seqs: &[u64],
        counter: RowCounter,
        head: &mut CacheHead,
        write_log: &mut dyn FnMut(&mut CacheHead) -> Result<()>,
    ) -> Result<bool> {
        let mut needed = players_needed(rows);
        let mut ladder = match &needed {
            Some(ids) => self.ladder_with(tx, ids)?,
            None => self.cached_ladder(tx)?,
        };
        if ladder.results.is_none() || ladder.week_open.is_none() {
            return Ok(false);
        }
        // A scheduled reset the new events pass changes every player (the season calendar).
        let last_date = rows.last().map(|(d, _)| *d);
        if needed.is_some()
            && last_date.is_some_and(|d| rungs_ladder::seasons::resets_due(&ladder, d))
        {
            needed = None;
            ladder = self.cached_ladder(tx)?;
        }
        // Who had reached Grandweaver this season when the whole ladder was read for a slot
        // (see below): the players marked since are written with those the events touched.
        let mut marked: Option<Vec<bool>> = None;
        let (histories, mut touched) = if needed.is_none() && rows.len() > BESIDE {
            // The whole ladder is read already: one pass, beside the log's writing.
            let histories = counter.histories(ladder.players.len());
            let (logged, (replayed, histories, done)) = std::thread::scope(|s| {
                let replay = s.spawn(move || {
                    let (histories, done) = replay(&mut ladder, rows, seqs, histories, None);
                    (ladder, histories, done)
                });
                let logged = write_log(head);
                (logged, joined(replay))
            });
            ladder = replayed;
            logged?;
            done.map_err(|e| self.replay_error(e))?;
            (histories, Vec::new())
        } else {
            write_log(head)?;
            loop {
                let histories = counter.clone().histories(ladder.players.len());
                let mut touched: Vec<PlayerId> = Vec::new();
                let asked = needed.is_some().then_some(&mut touched);
                let (histories, done) = replay(&mut ladder, rows, seqs, histories, asked);
                done.map_err(|e| self.replay_error(e))?;
                // An event that moved a player the loaded ones do not include (a Grandweaver
                // who fell makes room for one) asks for the whole ladder: start again with
                // it. Only the players the events touched, and those it marks, change.
                if !ladder.partial.needs_all {
                    break (histories, touched);
                }
                ladder = self.cached_ladder(tx)?;
                marked = Some(
                    ladder
                        .players
                        .iter()
                        .map(|p| p.season_grandweaver)
                        .collect(),
                );
            }
        };
        if let Some(marked) = marked {
            touched.extend(
                (0..ladder.players.len())
                    .filter(|&i| marked.get(i) != Some(&ladder.players[i].season_grandweaver))
                    .map(|i| i as PlayerId),
            );
        }
        touched.sort_unstable();
        touched.dedup();
        head.last = rows.last().map(|(d, _)| *d).zip(seqs.last().copied());
        self.write_cache(
            tx,
            &ladder,
            // An event that reads every player may change any of them, with or without a
            // history row (a hard reset clears season counters under every system).
            needed.is_some().then_some(touched.as_slice()),
            HistoryWrite::Append(&histories),
            head,
        )?;
        Ok(true)
    }

    /// Undoes the latest action that is not undone.
    pub fn undo(&mut self) -> Result<Toggled> {
        self.toggle(ActionKind::Undo)
    }

    /// Redoes the latest undone action, if nothing was done since.
    pub fn redo(&mut self) -> Result<Toggled> {
        self.toggle(ActionKind::Redo)
    }

    fn toggle(&mut self, kind: ActionKind) -> Result<Toggled> {
        let tx = self.begin()?;
        let mut head = self.current_head(&tx)?;
        let mut kinds = self.action_kinds(&tx)?;
        let (done, undone) = stacks(&kinds);
        let target = if kind == ActionKind::Undo {
            done.last()
        } else {
            undone.last()
        };
        let Some(&target) = target else {
            return Err(StoreError::Invalid(format!(
                "{}: nothing to {}",
                self.name(),
                kind.as_str()
            )));
        };
        let label: String = tx
            .query_row("SELECT label FROM actions WHERE id = ?1", [target], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))?;
        // Where every event the toggled action corrects stands before and after the toggle:
        // a correction's target moves between the two, and the replay must start at the
        // earlier of its places.
        let (earliest, corrections) = self.action_effect(&tx, target)?;
        let corrected = targets(corrections.iter().map(|r| &r.entry));
        let before = if corrected.is_empty() {
            Default::default()
        } else {
            self.events(&tx)?.dates_of(&corrected)
        };
        self.check_cancel()?;
        self.reached(150);
        let id = kinds.len() as i64 + 1;
        let at = today_stamp();
        let row = NewAction {
            id,
            kind,
            label: &label,
            at: &at,
        };
        self.write_action(&tx, &mut head, &row, 0, &[])?;
        let written = (head.stamp.last_action, head.stamp.last_seq);
        kinds.push(kind);
        let events = self.events_with(&tx, &self.in_force(&kinds), None)?;
        let after = events.dates_of(&corrected);
        self.check_cancel()?;
        self.reached(300);
        let moved =
            |current| first_affected(corrections.iter().map(|r| (r.date, &r.entry)), current);
        let from = [earliest.map(|d| (d, 0)), moved(&before), moved(&after)]
            .into_iter()
            .flatten()
            .min();
        self.rebuild(&tx, &events, from, head.stamp)?;
        self.check_cancel()?;
        tx.commit().map_err(|e| self.sql(e))?;
        self.seen.set(Some(written));
        Ok(Toggled { label, target })
    }

    /// Writes the first rows of a new ladder: its rules, who made it, and empty caches.
    pub(crate) fn init(&mut self, rules: &rungs_ladder::rules::Rules) -> Result<()> {
        let rules_json =
            serde_json::to_string(rules).map_err(|e| StoreError::Invalid(e.to_string()))?;
        let tx = self.begin()?;
        tx.execute(
            "INSERT INTO meta(key, value) VALUES ('rules', ?1)",
            [&rules_json],
        )
        .map_err(|e| self.sql(e))?;
        tx.execute(
            "INSERT INTO meta(key, value) VALUES ('created_by', ?1)",
            [concat!("rungs ", env!("CARGO_PKG_VERSION"))],
        )
        .map_err(|e| self.sql(e))?;
        let head = CacheHead::new(super::digest::Stamp::empty(&rules_json));
        let ladder = rungs_ladder::replay::Ladder::new(rules.clone());
        self.write_cache(
            &tx,
            &ladder,
            None,
            HistoryWrite::Append(&Histories::default()),
            &head,
        )?;
        tx.commit().map_err(|e| self.sql(e))
    }

    /// Rebuilds every cache from the log in one transaction, never touching the log.
    pub(crate) fn rebuild_all(&self) -> Result<super::events::Events> {
        let tx: Tx<'_> = self.begin()?;
        let stamp = self.log_stamp(&tx)?;
        let events = self.events(&tx)?;
        tx.execute("DELETE FROM cache_history", [])
            .map_err(|e| self.sql(e))?;
        match self.rebuild(&tx, &events, None, stamp) {
            // A log an older rungs wrote may give two players names that compare equal on
            // some date (it checked names against the ladder as it stood at the end): the
            // log is kept as written, and only events after it are held to the rule.
            Err(StoreError::Replay {
                cause: rungs_ladder::replay::ReplayError::NameTaken { .. },
                ..
            }) => {
                tx.execute(
                    "INSERT OR REPLACE INTO meta(key, value) VALUES ('names_shared_through', ?1)",
                    [stamp.last_seq.to_string()],
                )
                .map_err(|e| self.sql(e))?;
                self.rebuild(&tx, &events, None, stamp)?;
            }
            done => done?,
        }
        self.check_cancel()?;
        tx.commit().map_err(|e| self.sql(e))?;
        Ok(events)
    }
}
