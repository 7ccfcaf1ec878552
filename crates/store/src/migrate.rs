//! Older ladder formats brought up to date, in one transaction when the file is opened.
//!
//! Format 1 kept each log row in typed text columns and numbered actions and rows as SQLite
//! handed them out (an imported log's numbers included). Format 2 packs rows into blocks
//! (`codec.rs`), numbers actions and rows 1, 2, 3, … in the order they were written, and
//! stamps its caches with the log they come from. The upgrade reads every row of format 1,
//! renumbers in the same order (corrections follow their rows), writes the current tables and
//! rebuilds the caches from the log. Format 3 keeps the season archive in a table of its own
//! rather than in the ladder's cache row; a format 2 file's archive moves there.

use super::actions::NewAction;
use super::caches::CacheHead;
use super::codec::Encoder;
use super::digest::{self, Stamp};
use super::export::ActionKind;
use super::schema::{self, VERSION_1_REPLACED};
use super::{Result, Store, StoreError};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, Match, MatchResult};
use rungs_ladder::replay::Ladder;
use rusqlite::OptionalExtension;

/// One row of format 1's `entries`, decoded.
struct OldRow {
    seq: i64,
    action: i64,
    date: NaiveDate,
    entry: Entry,
}

/// Format 1's `YYYY-MM-DD` text dates.
fn parse_date(text: &str) -> Option<NaiveDate> {
    rungs_ladder::values::Day::parse(text)
        .ok()
        .map(rungs_ladder::values::Day::date)
}

/// What is wrong with a format 1 log row. Each names the row.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum OldRowError {
    #[error("row {seq}: bad date `{date}`")]
    Date { seq: i64, date: String },
    #[error("row {seq}: {message}")]
    Event { seq: i64, message: String },
    #[error("row {seq}: incomplete match")]
    IncompleteMatch { seq: i64 },
    #[error("row {seq}: correction without a target")]
    NoTarget { seq: i64 },
    #[error("row {seq}: unknown operation `{op}`")]
    UnknownOperation { seq: i64, op: String },
}

/// A format 1 row from its columns (seq, date, op, target, a, b, result, body).
#[allow(clippy::too_many_arguments)]
fn old_row(
    seq: i64,
    date: &str,
    op: &str,
    target: Option<i64>,
    a: Option<i64>,
    b: Option<i64>,
    result: Option<&str>,
    body: Option<&str>,
) -> std::result::Result<(NaiveDate, Entry), OldRowError> {
    let date = parse_date(date).ok_or_else(|| OldRowError::Date {
        seq,
        date: date.to_string(),
    })?;
    let event = || -> std::result::Result<Event, OldRowError> {
        if let Some(body) = body {
            return serde_json::from_str(body).map_err(|e| OldRowError::Event {
                seq,
                message: e.to_string(),
            });
        }
        let id = |x: Option<i64>| x.and_then(|v| u32::try_from(v).ok());
        match (id(a), id(b), result.and_then(MatchResult::parse)) {
            (Some(a), Some(b), Some(result)) => Ok(Event::Match(Match::new(a, b, result))),
            _ => Err(OldRowError::IncompleteMatch { seq }),
        }
    };
    let target = || {
        target
            .and_then(|t| u64::try_from(t).ok())
            .ok_or(OldRowError::NoTarget { seq })
    };
    let entry = match op {
        "add" => Entry::Add { event: event()? },
        "edit" => Entry::Edit {
            target: target()?,
            event: event()?,
        },
        "delete" => Entry::Delete { target: target()? },
        other => {
            return Err(OldRowError::UnknownOperation {
                seq,
                op: other.to_string(),
            });
        }
    };
    Ok((date, entry))
}

impl Store {
    /// Upgrades a format 1 file to the current format (its schema already checked to be
    /// format 1's).
    pub(super) fn upgrade_from_1(&mut self) -> Result<()> {
        let tx = self.begin()?;
        if self.upgraded_meanwhile(&tx)? {
            return Ok(());
        }
        let old = |e: String| self.damaged(format!("its log (ladder format 1): {e}"));
        // Actions in the order format 1 folded them (by id), renumbered 1, 2, 3, …
        let actions: Vec<(i64, String, String, String)> = {
            let mut stmt = tx
                .prepare("SELECT id, kind, label, at FROM actions ORDER BY id")
                .map_err(|e| self.sql(e))?;
            stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
                .and_then(|rows| rows.collect())
                .map_err(|e| self.sql(e))?
        };
        let new_action = |old_id: i64| -> Option<i64> {
            actions
                .binary_search_by_key(&old_id, |a| a.0)
                .ok()
                .map(|i| i as i64 + 1)
        };
        let mut rows: Vec<OldRow> = Vec::new();
        {
            let mut stmt = tx
                .prepare(
                    "SELECT seq, action, date, op, target, a, b, result, body FROM entries ORDER BY seq",
                )
                .map_err(|e| self.sql(e))?;
            let mut found = stmt.query([]).map_err(|e| self.sql(e))?;
            while let Some(r) = found.next().map_err(|e| self.sql(e))? {
                let get = |e| self.sql(e);
                let seq: i64 = r.get(0).map_err(get)?;
                let action: i64 = r.get(1).map_err(get)?;
                let (date, entry) = old_row(
                    seq,
                    r.get_ref(2).and_then(|v| Ok(v.as_str()?)).map_err(get)?,
                    r.get_ref(3).and_then(|v| Ok(v.as_str()?)).map_err(get)?,
                    r.get(4).map_err(get)?,
                    r.get(5).map_err(get)?,
                    r.get(6).map_err(get)?,
                    r.get_ref(7)
                        .and_then(|v| Ok(v.as_str_or_null()?))
                        .map_err(get)?,
                    r.get_ref(8)
                        .and_then(|v| Ok(v.as_str_or_null()?))
                        .map_err(get)?,
                )
                .map_err(|e| old(e.to_string()))?;
                let action = new_action(action)
                    .ok_or_else(|| old(format!("row {seq} belongs to no action")))?;
                rows.push(OldRow {
                    seq,
                    action,
                    date,
                    entry,
                });
            }
        }
        // Rows renumbered in entry order; an action's rows must lie together, in action order.
        let renumber = |seq: i64, target: u64| -> Result<u64> {
            let t = i64::try_from(target).map_err(|_| old(format!("row {seq}: bad target")))?;
            match rows.binary_search_by_key(&t, |r| r.seq) {
                Ok(i) if t < seq => Ok(i as u64 + 1),
                _ => Err(old(format!(
                    "row {seq} corrects row {target}, which is not an earlier row"
                ))),
            }
        };
        // Each action's blocks, with its first row number.
        let mut blocks: Vec<(i64, i64, Vec<super::codec::Packed>)> = Vec::new();
        let mut i = 0;
        while i < rows.len() {
            let action = rows[i].action;
            if blocks.last().is_some_and(|(a, _, _)| *a >= action) {
                return Err(old(format!(
                    "rows of action {action} are not together in the log (row {})",
                    rows[i].seq
                )));
            }
            let first = i as i64 + 1;
            let mut enc = Encoder::default();
            while i < rows.len() && rows[i].action == action {
                let r = &rows[i];
                let entry = match &r.entry {
                    Entry::Add { event } => Entry::Add {
                        event: event.clone(),
                    },
                    Entry::Edit { target, event } => Entry::Edit {
                        target: renumber(r.seq, *target)?,
                        event: event.clone(),
                    },
                    Entry::Delete { target } => Entry::Delete {
                        target: renumber(r.seq, *target)?,
                    },
                };
                enc.push(r.date, &entry)
                    .map_err(|e| StoreError::Invalid(e.to_string()))?;
                i += 1;
            }
            blocks.push((action, first, enc.finish()));
        }
        // Every name the rows give (an undone join's too), for a message about its log.
        let mut names: std::collections::HashMap<rungs_ladder::event::PlayerId, String> =
            std::collections::HashMap::new();
        for r in &rows {
            if let Entry::Add { event } | Entry::Edit { event, .. } = &r.entry
                && let rungs_ladder::event::Event::Player { id, name, .. }
                | rungs_ladder::event::Event::Rename { id, name } = event
            {
                names.entry(*id).or_insert_with(|| name.to_string());
            }
        }
        drop(rows);
        for table in VERSION_1_REPLACED {
            tx.execute_batch(&format!("DROP TABLE {table}"))
                .map_err(|e| self.sql(e))?;
        }
        tx.execute_batch(&schema::current_tables())
            .map_err(|e| self.sql(e))?;
        let mut head = CacheHead::new(Stamp::empty(&self.rules_text(&tx)?));
        let mut blocks = blocks.into_iter().peekable();
        for (i, (_, kind, label, at)) in actions.iter().enumerate() {
            let id = i as i64 + 1;
            let kind = ActionKind::parse(kind)
                .ok_or_else(|| old(format!("action {id} is of unknown kind `{kind}`")))?;
            let (first, these) = match blocks.peek() {
                Some((a, _, _)) if *a == id => blocks
                    .next()
                    .map(|(_, f, b)| (f, b))
                    .unwrap_or((0, Vec::new())),
                _ => (0, Vec::new()),
            };
            let row = NewAction {
                id,
                kind,
                label,
                at,
            };
            self.write_action(&tx, &mut head, &row, first, &these)?;
        }
        tx.pragma_update(None, "user_version", schema::SCHEMA_VERSION)
            .map_err(|e| self.sql(e))?;
        // Format 1 compared names by case only: two of its players may hold names that compare
        // equal now. Its events keep them; every later event is held to today's rule.
        tx.execute(
            "INSERT OR REPLACE INTO meta(key, value) VALUES ('names_shared_through', ?1)",
            [head.stamp.last_seq.to_string()],
        )
        .map_err(|e| self.sql(e))?;
        let events = self.events(&tx)?;
        // A format 1 log that does not replay (a player against themself, a match of a
        // player whose join was undone) is a damaged file: said so, with the players named.
        self.rebuild(&tx, &events, None, head.stamp)
            .map_err(|e| match e {
                StoreError::Replay { cause, .. } => {
                    old(cause.describe(&|id| names.get(&id).cloned()))
                }
                other => other,
            })?;
        tx.commit().map_err(|e| self.sql(e))
    }

    /// Upgrades a format 2 file (its schema already checked): the season archive moves out of
    /// the ladder's cache row into `cache_seasons`, and the caches' digest follows it, so
    /// caches that were the log's stay so and caches changed outside rungs are still found.
    /// A cache row that does not read is left as it is, for `rungs repair`.
    pub(super) fn upgrade_from_2(&mut self) -> Result<()> {
        let tx = self.begin()?;
        if self.upgraded_meanwhile(&tx)? {
            return Ok(());
        }
        tx.execute_batch(schema::added_since_2())
            .map_err(|e| self.sql(e))?;
        let row: Option<(String, i64)> = tx
            .query_row(
                "SELECT state, caches_digest FROM cache_ladder WHERE id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        if let Some((state, caches)) = row
            && let Ok(ladder) = serde_json::from_str::<Ladder>(&state)
        {
            let shell = serde_json::to_string(&ladder.shell())
                .map_err(|e| StoreError::Invalid(format!("{}: {e}", self.name())))?;
            let caches = (caches as u64)
                .wrapping_sub(digest::cached_ladder(&state))
                .wrapping_add(digest::cached_ladder(&shell))
                .wrapping_add(self.write_archive(&tx, &ladder.archive, true)?);
            tx.execute(
                "UPDATE cache_ladder SET state = ?1, caches_digest = ?2 WHERE id = 1",
                rusqlite::params![shell, caches as i64],
            )
            .map_err(|e| self.sql(e))?;
        }
        tx.pragma_update(None, "user_version", schema::SCHEMA_VERSION)
            .map_err(|e| self.sql(e))?;
        tx.commit().map_err(|e| self.sql(e))
    }

    /// Whether another process upgraded the file between this one's reading its format and
    /// taking the write lock (two commands opening an older ladder at once): then there is
    /// nothing left to do.
    fn upgraded_meanwhile(&self, tx: &rusqlite::Connection) -> Result<bool> {
        let version: i32 = tx
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .map_err(|e| self.sql(e))?;
        Ok(version == schema::SCHEMA_VERSION)
    }
}
