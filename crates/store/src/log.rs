//! Reading the log: the actions and which of them count, the blocks of rows, the events in
//! replay order, one event, the latest events, the whole log for export, and the stamp of
//! the log as it is. Everything read is checked: actions numbered 1, 2, 3, …, blocks covering
//! sequence numbers 1, 2, 3, … in action order, every row well formed.

use super::codec::{self, Rows};
use super::digest::Stamp;
use super::events::{Builder, Events, Problem};
use super::export::{ActionKind, Log, LogAction, LogItem, UndoFold};
use super::{Result, Store, StoreError};
use rungs_ladder::event::{Entry, LogRow};
use rungs_ladder::log::Effective;
use rusqlite::Connection;

/// `row 9` or `rows 9 to 12`.
fn rows_text(first: u64, last: u64) -> String {
    if first == last {
        format!("row {first}")
    } else {
        format!("rows {first} to {last}")
    }
}

/// One block of rows as read.
pub(crate) struct Block<'a> {
    pub first_seq: u64,
    pub action: i64,
    pub rows: u64,
    pub data: &'a [u8],
}

impl Block<'_> {
    pub fn rows(&self) -> Rows<'_> {
        Rows::new(self.first_seq, self.rows, self.data)
    }
}

/// Which actions count, by their ids (1-based, as the actions table numbers them).
pub(crate) struct InForce(UndoFold);

impl InForce {
    pub fn counts(&self, action: i64) -> bool {
        usize::try_from(action - 1).is_ok_and(|i| self.0.in_force(i))
    }
}

pub(crate) fn kind_code(kind: ActionKind) -> u8 {
    match kind {
        ActionKind::Do => 0,
        ActionKind::Undo => 1,
        ActionKind::Redo => 2,
    }
}

/// The undo and redo stacks (action ids, 1-based, tops last) after `kinds` in order.
pub(crate) fn stacks(kinds: &[ActionKind]) -> (Vec<i64>, Vec<i64>) {
    let fold = fold(kinds);
    let ids = |s: &[usize]| s.iter().map(|&i| i as i64 + 1).collect();
    let (done, undone) = fold.stacks();
    (ids(done), ids(undone))
}

fn fold(kinds: &[ActionKind]) -> UndoFold {
    let mut fold = UndoFold::default();
    for kind in kinds {
        fold.push(*kind);
    }
    fold
}

impl Store {
    /// The kind of every action; action `i + 1` is `kinds[i]` (actions are numbered 1, 2, 3, …
    /// in the order rungs wrote them, which is the order undo and redo follow).
    pub(crate) fn action_kinds(&self, conn: &Connection) -> Result<Vec<ActionKind>> {
        let mut stmt = conn
            .prepare_cached("SELECT id, kind FROM actions ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        let mut kinds = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let id: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let text = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            let expected = kinds.len() as i64 + 1;
            if id != expected {
                return Err(self.damaged(format!(
                    "its actions are numbered {id} where rungs numbers them 1, 2, 3, … (expected {expected})"
                )));
            }
            let kind = ActionKind::parse(text)
                .ok_or_else(|| self.damaged(format!("action {id} is of unknown kind `{text}`")))?;
            kinds.push(kind);
        }
        Ok(kinds)
    }

    /// Which actions count now.
    pub(crate) fn in_force(&self, kinds: &[ActionKind]) -> InForce {
        InForce(fold(kinds))
    }

    /// Calls `f` with every block in sequence order (newest first if `newest_first`) until it
    /// returns `Ok(false)`. Blocks must cover sequence numbers 1, 2, 3, … without gaps, and
    /// come in the order of their actions.
    pub(crate) fn blocks(
        &self,
        conn: &Connection,
        newest_first: bool,
        mut f: impl FnMut(&Block<'_>) -> Result<bool>,
    ) -> Result<()> {
        let sql = if newest_first {
            "SELECT first_seq, action, rows, data FROM log ORDER BY first_seq DESC"
        } else {
            "SELECT first_seq, action, rows, data FROM log ORDER BY first_seq"
        };
        let mut stmt = conn.prepare_cached(sql).map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        // The neighbour already seen: (first_seq, rows, action).
        let mut seen: Option<(u64, u64, i64)> = None;
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let first: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let action: i64 = r.get(1).map_err(|e| self.sql(e))?;
            let count: i64 = r.get(2).map_err(|e| self.sql(e))?;
            let data = r
                .get_ref(3)
                .and_then(|v| Ok(v.as_blob()?))
                .map_err(|e| self.sql(e))?;
            let (Ok(first), Ok(count)) = (u64::try_from(first), u64::try_from(count)) else {
                return Err(self.damaged(format!("log block {first} has a negative number")));
            };
            let block = Block {
                first_seq: first,
                action,
                rows: count,
                data,
            };
            let end = first.checked_add(count).ok_or_else(|| {
                self.damaged(format!(
                    "log block {first} runs past the largest row number"
                ))
            })?;
            match seen {
                None if !newest_first && first != 1 => {
                    return Err(self.damaged(format!("the log starts at row {first}, not row 1")));
                }
                Some((next_first, _, next_action))
                    if newest_first && (end != next_first || action > next_action) =>
                {
                    return Err(self.damaged(format!(
                        "log {} is out of place before row {next_first}",
                        rows_text(first, end - 1)
                    )));
                }
                Some((prev_first, prev_count, prev_action))
                    if !newest_first
                        && (prev_first + prev_count != first || action < prev_action) =>
                {
                    return Err(self.damaged(format!(
                        "log {} does not follow {} (of action {prev_action})",
                        rows_text(first, end - 1),
                        rows_text(prev_first, prev_first + prev_count - 1)
                    )));
                }
                _ => {}
            }
            seen = Some((first, count, action));
            if !f(&block)? {
                break;
            }
        }
        Ok(())
    }

    fn problem(&self, p: Problem) -> StoreError {
        match p {
            Problem::Row(what) => self.damaged(format!("its log: {what}")),
            Problem::Dangling(cause) => StoreError::Log {
                path: self.name(),
                cause,
            },
        }
    }

    /// The events that count now, in replay order.
    pub(crate) fn events(&self, conn: &Connection) -> Result<Events> {
        let kinds = self.action_kinds(conn)?;
        self.events_with(conn, &self.in_force(&kinds), None)
    }

    /// The events of the actions `force` counts, in replay order, and `extra` blocks of rows
    /// not written yet (from a first sequence number on) as if they were.
    pub(crate) fn events_with(
        &self,
        conn: &Connection,
        force: &InForce,
        extra: Option<(u64, &[codec::Packed])>,
    ) -> Result<Events> {
        self.events_watched(conn, force, extra, &mut |_| Ok(()))
    }

    /// [`events_with`](Self::events_with), showing `watch` the builder after each block of
    /// the log (a replay may start on the events read so far while the rest is read).
    pub(crate) fn events_watched(
        &self,
        conn: &Connection,
        force: &InForce,
        extra: Option<(u64, &[codec::Packed])>,
        watch: &mut dyn FnMut(&Builder) -> Result<()>,
    ) -> Result<Events> {
        let mut builder = Builder::with_capacity(self.log_rows_bound(conn)?);
        let push = |builder: &mut Builder, rows: &mut Rows<'_>, counts: bool| -> Result<()> {
            for row in rows.by_ref() {
                let row = row.map_err(|e| self.damaged(format!("its log: {e}")))?;
                builder.push(&row, counts).map_err(|p| self.problem(p))?;
            }
            rows.finish()
                .map_err(|e| self.damaged(format!("its log: {e}")))
        };
        self.blocks(conn, false, |block| {
            push(&mut builder, &mut block.rows(), force.counts(block.action))?;
            watch(&builder)?;
            Ok(true)
        })?;
        if let Some((mut seq, blocks)) = extra {
            for (n, data) in blocks {
                push(&mut builder, &mut Rows::new(seq, *n, data), true)?;
                seq += n;
            }
        }
        Ok(builder.finish())
    }

    /// How many rows the log may hold at most: no more than the rows said, nor than the
    /// bytes could hold (a row takes at least 3), whatever a damaged file says.
    pub(crate) fn log_rows_bound(&self, conn: &Connection) -> Result<usize> {
        let hint: i64 = conn
            .query_row(
                "SELECT MIN(COALESCE(SUM(rows), 0), COALESCE(SUM(length(data)), 0) / 3) FROM log",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.sql(e))?;
        Ok(hint.clamp(0, 1 << 30) as usize)
    }

    /// The stamp of the log as it is (see `digest.rs`): read, hashed, not decoded.
    pub(crate) fn log_stamp(&self, conn: &Connection) -> Result<Stamp> {
        let mut stamp = Stamp::empty(&self.rules_text(conn)?);
        for (i, kind) in self.action_kinds(conn)?.into_iter().enumerate() {
            stamp.add_action(i as i64 + 1, kind_code(kind));
        }
        let actions = stamp.last_action;
        self.blocks(conn, false, |b| {
            if b.action < 1 || b.action > actions {
                return Err(self.damaged(format!(
                    "log rows from {} belong to action {}, which does not exist",
                    b.first_seq, b.action
                )));
            }
            stamp.add_block(b.first_seq as i64, b.action, b.rows as i64, b.data);
            Ok(true)
        })?;
        Ok(stamp)
    }

    /// The actions after action `id`, in order, with their kinds: (id, kind, label), kind
    /// "do", "undo" or "redo". An undo's label is that of the action it took back, so what
    /// another program did is said from both.
    pub fn actions_after(&self, id: i64) -> Result<Vec<(i64, String, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, kind, label FROM actions WHERE id > ?1 ORDER BY id")
            .map_err(|e| self.sql(e))?;
        stmt.query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.sql(e))
    }

    /// Actions in id order: (id, kind, label).
    pub fn actions(&self) -> Result<Vec<(i64, String, String)>> {
        self.actions_after(i64::MIN)
    }

    /// What undoing or redoing `action` may change: the earliest date of the events it
    /// added, and its corrections (few) as whole rows.
    pub(crate) fn action_effect(
        &self,
        conn: &Connection,
        action: i64,
    ) -> Result<(Option<chrono::NaiveDate>, Vec<LogRow>)> {
        let mut stmt = conn
            .prepare_cached(
                "SELECT first_seq, rows, data FROM log WHERE action = ?1 ORDER BY first_seq",
            )
            .map_err(|e| self.sql(e))?;
        let mut found = stmt.query([action]).map_err(|e| self.sql(e))?;
        let mut earliest = None;
        let mut corrections = Vec::new();
        while let Some(r) = found.next().map_err(|e| self.sql(e))? {
            let first: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let count: i64 = r.get(1).map_err(|e| self.sql(e))?;
            let data = r
                .get_ref(2)
                .and_then(|v| Ok(v.as_blob()?))
                .map_err(|e| self.sql(e))?;
            let mut rows = Rows::new(first.max(0) as u64, count.max(0) as u64, data);
            for row in rows.by_ref() {
                let row = row.map_err(|e| self.damaged(format!("its log: {e}")))?;
                if row.op == codec::Op::Add {
                    let date = row.date();
                    earliest = Some(earliest.map_or(date, |e: chrono::NaiveDate| e.min(date)));
                } else {
                    corrections.push(
                        row.to_log_row()
                            .map_err(|e| self.damaged(format!("its log: {e}")))?,
                    );
                }
            }
            rows.finish()
                .map_err(|e| self.damaged(format!("its log: {e}")))?;
        }
        Ok((earliest, corrections))
    }

    /// The latest `n` events in replay order, newest first, without reading the whole log:
    /// the newest rows by entry order are resolved among themselves (a correction of an
    /// older row shows as that row's new version).
    pub fn latest_events(&self, n: usize) -> Result<Vec<Effective>> {
        let kinds = self.action_kinds(&self.conn)?;
        let force = self.in_force(&kinds);
        let window = (n.saturating_mul(20)).max(500) as u64;
        let mut recent: Vec<LogRow> = Vec::new();
        let mut read = 0u64;
        self.blocks(&self.conn, true, |block| {
            read += block.rows;
            if force.counts(block.action) {
                let mut rows = block.rows();
                let mut these = Vec::new();
                for row in rows.by_ref() {
                    let row = row.and_then(|r| r.to_log_row());
                    these.push(row.map_err(|e| self.damaged(format!("its log: {e}")))?);
                }
                rows.finish()
                    .map_err(|e| self.damaged(format!("its log: {e}")))?;
                these.reverse();
                recent.extend(these);
            }
            Ok(read < window)
        })?;
        recent.reverse();
        // Resolve within the window; corrections of rows outside it stand for those rows.
        let mut live: Vec<Effective> = Vec::new();
        for row in recent {
            match row.entry {
                Entry::Add { event } => live.push(Effective {
                    date: row.date,
                    seq: row.seq,
                    event,
                }),
                Entry::Edit { target, event } => {
                    live.retain(|e| e.seq != target);
                    live.push(Effective {
                        date: row.date,
                        seq: target,
                        event,
                    });
                }
                Entry::Delete { target } => live.retain(|e| e.seq != target),
            }
        }
        live.sort_by_key(|e| std::cmp::Reverse((e.date, e.seq)));
        live.truncate(n);
        Ok(live)
    }

    /// Event `seq` as it stands now (after its edits), or `None` if there is no such event or
    /// it was deleted.
    pub fn event(&self, seq: u64) -> Result<Option<Effective>> {
        Ok(self.events(&self.conn)?.get(seq))
    }

    /// Hands the whole log, undone actions included, to `f` piece by piece: the rules, then
    /// each action and its rows. One block of rows is held at a time, so a log of any size
    /// streams in constant memory. The outer error is the store's; the inner one `f`'s.
    pub fn stream_log<E>(
        &self,
        f: &mut dyn FnMut(LogItem<'_>) -> std::result::Result<(), E>,
    ) -> Result<std::result::Result<(), E>> {
        let rules = self.initial_rules()?;
        if let Err(e) = f(LogItem::Rules(&rules)) {
            return Ok(Err(e));
        }
        // Actions and blocks both come in order; blocks of an action follow it.
        let mut actions = self
            .conn
            .prepare("SELECT id, kind, label FROM actions ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let mut actions = actions.query([]).map_err(|e| self.sql(e))?;
        let mut blocks = self
            .conn
            .prepare("SELECT first_seq, action, rows, data FROM log ORDER BY first_seq")
            .map_err(|e| self.sql(e))?;
        let mut blocks = blocks.query([]).map_err(|e| self.sql(e))?;
        let mut next_block = blocks.next().map_err(|e| self.sql(e))?;
        let mut expected_seq = 1u64;
        let mut expected_action = 1i64;
        while let Some(a) = actions.next().map_err(|e| self.sql(e))? {
            let id: i64 = a.get(0).map_err(|e| self.sql(e))?;
            let text: String = a.get(1).map_err(|e| self.sql(e))?;
            let label: String = a.get(2).map_err(|e| self.sql(e))?;
            if id != expected_action {
                return Err(self.damaged(format!(
                    "its actions are numbered {id} where rungs numbers them 1, 2, 3, … (expected {expected_action})"
                )));
            }
            expected_action += 1;
            let kind = ActionKind::parse(&text)
                .ok_or_else(|| self.damaged(format!("action {id} is of unknown kind `{text}`")))?;
            let block_action = |b: &rusqlite::Row<'_>| b.get::<_, i64>(1);
            let has_rows = match &next_block {
                Some(b) => block_action(b).map_err(|e| self.sql(e))? == id,
                None => false,
            };
            let item = LogItem::Action {
                id,
                kind,
                label: &label,
                has_rows,
            };
            if let Err(e) = f(item) {
                return Ok(Err(e));
            }
            while let Some(b) = &next_block {
                if block_action(b).map_err(|e| self.sql(e))? != id {
                    break;
                }
                let first: i64 = b.get(0).map_err(|e| self.sql(e))?;
                let count: i64 = b.get(2).map_err(|e| self.sql(e))?;
                let data = b
                    .get_ref(3)
                    .and_then(|v| Ok(v.as_blob()?))
                    .map_err(|e| self.sql(e))?;
                if first != expected_seq as i64 || count < 1 {
                    return Err(self.damaged(format!(
                        "log rows from {first} do not follow row {}",
                        expected_seq - 1
                    )));
                }
                let mut rows = Rows::new(first as u64, count as u64, data);
                for row in rows.by_ref() {
                    let row = row
                        .and_then(|r| r.to_log_row())
                        .map_err(|e| self.damaged(format!("its log: {e}")))?;
                    if let Err(e) = f(LogItem::Row(&row)) {
                        return Ok(Err(e));
                    }
                }
                rows.finish()
                    .map_err(|e| self.damaged(format!("its log: {e}")))?;
                expected_seq += count as u64;
                next_block = blocks.next().map_err(|e| self.sql(e))?;
            }
        }
        if let Some(b) = &next_block {
            let action: i64 = b.get(1).map_err(|e| self.sql(e))?;
            return Err(self.damaged(format!(
                "log rows from {expected_seq} belong to action {action}, out of order or missing"
            )));
        }
        Ok(Ok(()))
    }

    /// The whole log, undone actions included, for export.
    pub fn export_log(&self) -> Result<Log> {
        let mut actions: Vec<LogAction> = Vec::new();
        let mut rules = None;
        let streamed = self.stream_log(&mut |item| -> std::result::Result<(), ()> {
            match item {
                LogItem::Rules(r) => rules = Some(r.clone()),
                LogItem::Action {
                    id, kind, label, ..
                } => actions.push(LogAction {
                    id,
                    kind,
                    label: label.to_string(),
                    rows: Vec::new(),
                }),
                LogItem::Row(row) => {
                    if let Some(a) = actions.last_mut() {
                        a.rows.push(row.clone());
                    }
                }
            }
            Ok(())
        })?;
        let _ = streamed;
        Ok(Log {
            rules: match rules {
                Some(r) => r,
                None => self.initial_rules()?,
            },
            actions,
        })
    }
}
