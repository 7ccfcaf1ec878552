//! The ladder file: one SQLite database holding the rules, the append-only log, undo and
//! redo, and caches derived from the log. Every user action is exactly one transaction.

pub mod codec;
pub mod export;
pub mod forecast;
pub mod history_blob;
pub mod schema;

use crate::ladder::event::{Entry, Event, LogRow, PlayerId};
use crate::ladder::log::{self, DanglingCorrection, Effective};
use crate::ladder::replay::{Ladder, ReplayError};
use crate::ladder::rules::Rules;
use crate::ladder::seasons;
use crate::ladder::state::{HistoryRow, PlayerState};
use chrono::NaiveDate;
use rusqlite::{Connection, OptionalExtension, params};
use schema::OpenError;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Anything that stops a ladder action. Nothing is changed when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Open(#[from] OpenError),
    // The inner error is a plain field, not a `source`: its text is already in the message,
    // and a chained cause would print it twice.
    #[error("{path}: {cause}")]
    Replay { path: String, cause: ReplayError },
    #[error("{path}: {cause}")]
    Log {
        path: String,
        cause: DanglingCorrection,
    },
    #[error("{0}")]
    Invalid(String),
    /// The action was cancelled before it landed; the file is as it was.
    #[error("cancelled; the ladder is unchanged")]
    Cancelled,
}

pub type Result<T> = std::result::Result<T, StoreError>;

/// What `undo`/`redo` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Toggled {
    pub label: String,
}

/// An open ladder file.
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// Set from another thread to stop a long recomputation before it lands.
    cancel: Option<Arc<AtomicBool>>,
    /// How far a long recomputation has got, in thousandths, for another thread to show.
    permille: Option<Arc<AtomicU64>>,
}

fn today_stamp() -> String {
    chrono::Local::now().format("%Y-%m-%dT%H:%M:%S").to_string()
}

fn key_of(name: &str) -> String {
    crate::ladder::values::name_key(name)
}

impl Store {
    /// Creates a new ladder file running `rules`.
    pub fn create(path: &Path, rules: &Rules) -> Result<Store> {
        let conn = schema::create(path)?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            cancel: None,
            permille: None,
        };
        let rules_json =
            serde_json::to_string(rules).map_err(|e| StoreError::Invalid(e.to_string()))?;
        let state = serde_json::to_string(&Ladder::new(rules.clone()))
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        store.write(|tx| {
            tx.execute("INSERT INTO meta(key, value) VALUES ('rules', ?1)", [&rules_json])?;
            tx.execute(
                "INSERT INTO meta(key, value) VALUES ('created_by', ?1)",
                [concat!("rungs ", env!("CARGO_PKG_VERSION"))],
            )?;
            tx.execute(
                "INSERT INTO cache_ladder(id, last_action, last_date, last_seq, state) VALUES (1, 0, NULL, NULL, ?1)",
                [&state],
            )?;
            Ok(())
        })?;
        Ok(store)
    }

    /// Opens an existing ladder file.
    pub fn open(path: &Path) -> Result<Store> {
        let conn = schema::open(path)?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
            cancel: None,
            permille: None,
        };
        store.initial_rules()?;
        Ok(store)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Lets another thread follow and stop this store's long actions (a rebuild, a replaying
    /// preview): `permille` rises as stages finish; once `cancel` is set they return
    /// [`StoreError::Cancelled`] and nothing is written.
    pub fn watch(&mut self, cancel: Arc<AtomicBool>, permille: Arc<AtomicU64>) {
        self.cancel = Some(cancel);
        self.permille = Some(permille);
    }

    fn reached(&self, permille: u64) {
        if let Some(p) = &self.permille {
            p.fetch_max(permille, Ordering::Relaxed);
        }
    }

    fn check_cancel(&self) -> Result<()> {
        match &self.cancel {
            Some(flag) if flag.load(Ordering::Relaxed) => Err(StoreError::Cancelled),
            _ => Ok(()),
        }
    }

    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn sql(&self, e: rusqlite::Error) -> StoreError {
        StoreError::Open(OpenError::from_sqlite(&self.name(), e))
    }

    fn corrupt(&self, what: impl Into<String>) -> StoreError {
        StoreError::Open(OpenError::Corrupt(self.name(), what.into()))
    }

    /// Runs `f` in one immediate transaction: all of it lands or none.
    fn write<T>(&mut self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        let name = self.name();
        let tx = Immediate::begin(&self.conn).map_err(|e| OpenError::from_sqlite(&name, e))?;
        let out = f(&tx).map_err(|e| OpenError::from_sqlite(&name, e))?;
        tx.commit().map_err(|e| OpenError::from_sqlite(&name, e))?;
        Ok(out)
    }

    /// The rules the ladder was created with (later `rules` events change them in the log).
    pub fn initial_rules(&self) -> Result<Rules> {
        let text: String = self
            .conn
            .query_row("SELECT value FROM meta WHERE key = 'rules'", [], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))?;
        serde_json::from_str(&text)
            .map_err(|e| self.corrupt(format!("its rules do not parse: {e}")))
    }

    /// Actions in order with their kinds; the ones whose rows count, by the undo/redo fold:
    /// a `do` pushes onto the undo stack and clears the redo stack, `undo` moves the top of
    /// the undo stack to the redo stack, `redo` moves it back.
    fn action_stacks(conn: &Connection) -> rusqlite::Result<(Vec<i64>, Vec<i64>)> {
        let mut stmt = conn.prepare_cached("SELECT id, kind FROM actions ORDER BY id")?;
        let mut rows = stmt.query([])?;
        let (mut done, mut undone) = (Vec::new(), Vec::new());
        while let Some(row) = rows.next()? {
            let id: i64 = row.get(0)?;
            let kind: String = row.get(1)?;
            match kind.as_str() {
                "do" => {
                    done.push(id);
                    undone.clear();
                }
                "undo" => {
                    if let Some(a) = done.pop() {
                        undone.push(a);
                    }
                }
                _ => {
                    if let Some(a) = undone.pop() {
                        done.push(a);
                    }
                }
            }
        }
        Ok((done, undone))
    }

    fn read_rows(
        conn: &Connection,
        active: Option<&HashSet<i64>>,
    ) -> rusqlite::Result<Vec<std::result::Result<LogRow, String>>> {
        let mut stmt = conn.prepare_cached(
            "SELECT seq, action, date, op, target, a, b, result, body FROM entries ORDER BY seq",
        )?;
        let mut rows = stmt.query([])?;
        let mut out = Vec::new();
        while let Some(r) = rows.next()? {
            let action: i64 = r.get(1)?;
            if active.is_some_and(|set| !set.contains(&action)) {
                continue;
            }
            out.push(decode_row(r)?);
        }
        Ok(out)
    }

    /// The log rows that count now (those of actions not undone), in entry order.
    pub fn active_rows(&self) -> Result<Vec<LogRow>> {
        let (done, _) = Self::action_stacks(&self.conn).map_err(|e| self.sql(e))?;
        let active: HashSet<i64> = done.into_iter().collect();
        let rows = Self::read_rows(&self.conn, Some(&active)).map_err(|e| self.sql(e))?;
        rows.into_iter()
            .map(|r| r.map_err(|e| self.corrupt(e)))
            .collect()
    }

    /// Every row ever written, undone ones included, with their action ids (for export).
    pub fn all_rows(&self) -> Result<Vec<(i64, String, LogRow)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT e.seq, e.action, a.kind FROM entries e JOIN actions a ON a.id = e.action ORDER BY e.seq")
            .map_err(|e| self.sql(e))?;
        let meta: Vec<(i64, i64, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.sql(e))?;
        let rows = Self::read_rows(&self.conn, None).map_err(|e| self.sql(e))?;
        let mut out = Vec::with_capacity(rows.len());
        for ((_, action, kind), row) in meta.into_iter().zip(rows) {
            out.push((action, kind, row.map_err(|e| self.corrupt(e))?));
        }
        Ok(out)
    }

    /// Actions in id order: (id, kind, label).
    pub fn actions(&self) -> Result<Vec<(i64, String, String)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, kind, label FROM actions ORDER BY id")
            .map_err(|e| self.sql(e))?;
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.sql(e))
    }

    /// The events that count, after edits and deletions, in replay order.
    pub fn effective(&self) -> Result<Vec<Effective>> {
        let rows = self.active_rows()?;
        log::resolve_owned(rows).map_err(|source| StoreError::Log {
            path: self.name(),
            cause: source,
        })
    }

    /// The latest `n` events in replay order, newest first, without reading the whole log:
    /// the newest rows by entry order are resolved among themselves (a correction of an
    /// older row shows as that row's new version).
    pub fn latest_events(&self, n: usize) -> Result<Vec<Effective>> {
        let (done, _) = Self::action_stacks(&self.conn).map_err(|e| self.sql(e))?;
        let active: HashSet<i64> = done.into_iter().collect();
        let window = (n * 20).max(500) as i64;
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT seq, action, date, op, target, a, b, result, body FROM entries
                 ORDER BY seq DESC LIMIT ?1",
            )
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([window]).map_err(|e| self.sql(e))?;
        let mut recent = Vec::new();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let action: i64 = r.get(1).map_err(|e| self.sql(e))?;
            if !active.contains(&action) {
                continue;
            }
            let row = decode_row(r)
                .map_err(|e| self.sql(e))?
                .map_err(|e| self.corrupt(e))?;
            recent.push(row);
        }
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
    /// it was deleted. Reads only that event's rows, not the log.
    pub fn event(&self, seq: u64) -> Result<Option<Effective>> {
        let (done, _) = Self::action_stacks(&self.conn).map_err(|e| self.sql(e))?;
        let active: HashSet<i64> = done.into_iter().collect();
        let Ok(key) = i64::try_from(seq) else {
            return Ok(None);
        };
        let mut stmt = self
            .conn
            .prepare_cached(
                "SELECT seq, action, date, op, target, a, b, result, body FROM entries
                 WHERE seq = ?1 OR target = ?1 ORDER BY seq",
            )
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([key]).map_err(|e| self.sql(e))?;
        let mut current: Option<Effective> = None;
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let action: i64 = r.get(1).map_err(|e| self.sql(e))?;
            if !active.contains(&action) {
                continue;
            }
            let row = decode_row(r)
                .map_err(|e| self.sql(e))?
                .map_err(|e| self.corrupt(e))?;
            current = match row.entry {
                Entry::Add { event } if row.seq == seq => Some(Effective {
                    date: row.date,
                    seq,
                    event,
                }),
                Entry::Edit { target, event } if target == seq => current.map(|_| Effective {
                    date: row.date,
                    seq,
                    event,
                }),
                Entry::Delete { target } if target == seq => None,
                _ => current,
            };
        }
        Ok(current)
    }

    /// The cached ladder without its players (rules, seasons, scenarios, counters).
    fn ladder_shell(&self) -> Result<Ladder> {
        let state: String = self
            .conn
            .query_row("SELECT state FROM cache_ladder WHERE id = 1", [], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))?;
        serde_json::from_str(&state).map_err(|e| self.corrupt(format!("cache: {e}")))
    }

    /// The ladder as the caches hold it (equal to a replay of the log).
    pub fn ladder(&self) -> Result<Ladder> {
        let mut ladder = self.ladder_shell()?;
        let mut stmt = self
            .conn
            .prepare_cached("SELECT id, state FROM cache_players ORDER BY id")
            .map_err(|e| self.sql(e))?;
        let mut rows = stmt.query([]).map_err(|e| self.sql(e))?;
        ladder.players.clear();
        while let Some(r) = rows.next().map_err(|e| self.sql(e))? {
            let id: i64 = r.get(0).map_err(|e| self.sql(e))?;
            let text = r
                .get_ref(1)
                .and_then(|v| Ok(v.as_str()?))
                .map_err(|e| self.sql(e))?;
            let Ok(id) = usize::try_from(id) else {
                return Err(self.corrupt("cache: a negative player id"));
            };
            // Ids follow entry order and joins follow dates: a gap is a player who joins
            // later in replay order, held by a placeholder as the engine does.
            while ladder.players.len() < id {
                let mut placeholder = PlayerState::new(String::new(), &ladder.rules);
                placeholder.joined = false;
                ladder.players.push(placeholder);
            }
            let p: PlayerState =
                serde_json::from_str(text).map_err(|e| self.corrupt(format!("cache: {e}")))?;
            ladder.players.push(p);
        }
        Ok(ladder)
    }

    /// The cached ladder with only players `ids` loaded; every other id below the largest is
    /// a placeholder that has not joined. Enough to apply matches, joins and renames among
    /// those players, and cheap whatever the ladder's size: appending a match must not read
    /// ten thousand players.
    fn ladder_with(&self, ids: &[PlayerId]) -> Result<Ladder> {
        let mut ladder = self.ladder_shell()?;
        let size = ids.iter().map(|&i| i as usize + 1).max().unwrap_or(0);
        let mut placeholder = PlayerState::new(String::new(), &ladder.rules);
        placeholder.joined = false;
        ladder.players = vec![placeholder; size];
        let mut stmt = self
            .conn
            .prepare_cached("SELECT state FROM cache_players WHERE id = ?1")
            .map_err(|e| self.sql(e))?;
        for &id in ids {
            let text: Option<String> = stmt
                .query_row([id as i64], |r| r.get(0))
                .optional()
                .map_err(|e| self.sql(e))?;
            if let Some(text) = text {
                ladder.players[id as usize] =
                    serde_json::from_str(&text).map_err(|e| self.corrupt(format!("cache: {e}")))?;
            }
        }
        Ok(ladder)
    }

    /// The player now called `name` (case-insensitively), if any.
    pub fn find_player(&self, name: &str) -> Result<Option<PlayerId>> {
        self.conn
            .query_row(
                "SELECT id FROM cache_players WHERE key = ?1",
                [key_of(name)],
                |r| r.get::<_, i64>(0),
            )
            .optional()
            .map(|id| id.map(|i| i as PlayerId))
            .map_err(|e| self.sql(e))
    }

    /// Current names → ids, keyed case-insensitively.
    pub fn player_ids(&self) -> Result<HashMap<String, PlayerId>> {
        let mut stmt = self
            .conn
            .prepare("SELECT key, id FROM cache_players")
            .map_err(|e| self.sql(e))?;
        stmt.query_map([], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)? as PlayerId))
        })
        .and_then(|rows| rows.collect())
        .map_err(|e| self.sql(e))
    }

    /// A player's history: their figures after every event that touched them.
    pub fn history(&self, player: PlayerId) -> Result<Vec<HistoryRow>> {
        let blob: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT rows FROM cache_history WHERE player = ?1",
                [player as i64],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        match blob {
            None => Ok(Vec::new()),
            Some(b) => history_blob::decode(player, &b)
                .ok_or_else(|| self.corrupt(format!("cache: history of player {player}"))),
        }
    }

    /// Appends one user action: its rows land, and the caches follow, or nothing changes.
    /// Returns the sequence numbers given to the rows.
    pub fn commit(&mut self, label: &str, rows: &[(NaiveDate, Entry)]) -> Result<Vec<u64>> {
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let path = self.name();
        let encoded = rows
            .iter()
            .map(|(d, e)| codec::to_columns(*d, e))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|e| StoreError::Invalid(e.to_string()))?;
        let name = self.name();
        let tx = Immediate::begin(&self.conn).map_err(|e| OpenError::from_sqlite(&name, e))?;
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let cached_action: i64 = tx
            .query_row(
                "SELECT last_action FROM cache_ladder WHERE id = 1",
                [],
                |r| r.get(0),
            )
            .map_err(sql)?;
        // Read inside the transaction: the store has one connection.
        let cache_key = self.cached_last_key()?;
        let last_action: i64 = tx
            .query_row("SELECT COALESCE(MAX(id), 0) FROM actions", [], |r| r.get(0))
            .map_err(sql)?;
        // Where corrected rows stand before this action: what a correction affects begins at
        // the earlier of the old and the new place.
        let corrects = rows.iter().any(|(_, e)| !matches!(e, Entry::Add { .. }));
        let dates_before = if corrects {
            let dates = Self::current_dates(&tx).map_err(sql)?;
            self.check_cancel()?;
            self.reached(250);
            dates
        } else {
            HashMap::new()
        };
        tx.execute(
            "INSERT INTO actions(kind, label, at) VALUES ('do', ?1, ?2)",
            params![label, today_stamp()],
        )
        .map_err(sql)?;
        let action = tx.last_insert_rowid();
        let mut seqs = Vec::with_capacity(rows.len());
        {
            let mut insert = tx
                .prepare_cached(
                    "INSERT INTO entries(action, date, op, target, a, b, result, body)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )
                .map_err(sql)?;
            for c in &encoded {
                insert
                    .execute(params![
                        action, c.date, c.op, c.target, c.a, c.b, c.result, c.body
                    ])
                    .map_err(sql)?;
                seqs.push(tx.last_insert_rowid() as u64);
            }
        }
        let appends_at_end = cached_action == last_action
            && rows.iter().zip(&seqs).all(|((date, entry), seq)| {
                matches!(entry, Entry::Add { .. }) && cache_key.is_none_or(|k| (*date, *seq) > k)
            })
            && rows.windows(2).all(|w| w[0].0 <= w[1].0);
        if appends_at_end {
            self.apply_incrementally(&tx, rows, &seqs, action)?;
        } else {
            let new_rows: Vec<LogRow> = rows
                .iter()
                .zip(&seqs)
                .map(|((date, entry), seq)| LogRow {
                    seq: *seq,
                    date: *date,
                    entry: entry.clone(),
                })
                .collect();
            let from = new_rows
                .iter()
                .map(|r| log::first_affected(r, &dates_before))
                .min();
            self.rebuild(&tx, from, action)?;
        }
        self.check_cancel()?;
        tx.commit().map_err(sql)?;
        Ok(seqs)
    }

    /// The replay date of every row that counts now (for finding what a correction affects).
    fn current_dates(conn: &Connection) -> rusqlite::Result<HashMap<u64, NaiveDate>> {
        let (done, _) = Self::action_stacks(conn)?;
        let active: HashSet<i64> = done.into_iter().collect();
        let rows = Self::read_rows(conn, Some(&active))?;
        let rows: Vec<LogRow> = rows.into_iter().filter_map(|r| r.ok()).collect();
        Ok(log::resolve(&rows)
            .map(|events| events.into_iter().map(|e| (e.seq, e.date)).collect())
            .unwrap_or_default())
    }

    /// The fast path: new events after everything cached apply to the cached state.
    fn apply_incrementally(
        &self,
        tx: &Connection,
        rows: &[(NaiveDate, Entry)],
        seqs: &[u64],
        action: i64,
    ) -> Result<()> {
        let mut needed = players_needed(rows);
        let mut ladder = match &needed {
            Some(ids) => self.ladder_with(ids)?,
            None => self.ladder()?,
        };
        // A scheduled reset the new events pass changes every player (the season calendar).
        let last_date = rows.last().map(|(d, _)| *d);
        if needed.is_some() && last_date.is_some_and(|d| seasons::resets_due(&ladder, d)) {
            needed = None;
            ladder = self.ladder()?;
        }
        let mut history = Vec::new();
        let mut touched: Vec<PlayerId> = Vec::new();
        for ((date, entry), seq) in rows.iter().zip(seqs) {
            let Entry::Add { event } = entry else {
                continue;
            };
            let before = history.len();
            ladder
                .apply(*date, *seq, event, &mut history)
                .map_err(|source| StoreError::Replay {
                    path: self.name(),
                    cause: source,
                })?;
            touched.extend(history[before..].iter().map(|h| h.player));
            if let Event::Rename { id, .. } | Event::Retire { id, .. } = event {
                touched.push(*id);
            }
        }
        touched.sort_unstable();
        touched.dedup();
        let last = rows.last().map(|(d, _)| *d).zip(seqs.last().copied());
        self.write_cache(
            tx,
            &ladder,
            // An event that reads every player may change any of them, with or without a
            // history row (a hard reset clears season counters under every system).
            needed.is_some().then_some(touched.as_slice()),
            HistoryWrite::Append(&history),
            last,
            action,
        )
    }

    /// Replays the whole log and rewrites the caches: every player, and history from `from`
    /// (the first affected event) on.
    fn rebuild(&self, tx: &Connection, from: Option<(NaiveDate, u64)>, action: i64) -> Result<()> {
        let path = self.name();
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let (done, _) = Self::action_stacks(tx).map_err(sql)?;
        let active: HashSet<i64> = done.into_iter().collect();
        let rows: Vec<LogRow> = Self::read_rows(tx, Some(&active))
            .map_err(sql)?
            .into_iter()
            .collect::<std::result::Result<_, _>>()
            .map_err(|e| self.corrupt(e))?;
        self.check_cancel()?;
        self.reached(500);
        let events = log::resolve_owned(rows).map_err(|source| StoreError::Log {
            path: self.name(),
            cause: source,
        })?;
        let rules = self.initial_rules()?;
        let (ladder, history) =
            crate::ladder::replay::replay(&rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
                .map_err(|source| StoreError::Replay {
                    path: self.name(),
                    cause: source,
                })?;
        self.check_cancel()?;
        self.reached(750);
        let from = log::history_changes_from(from.unwrap_or((NaiveDate::MIN, 0)), &events);
        tx.execute("DELETE FROM cache_players", []).map_err(sql)?;
        let last = events.last().map(|e| (e.date, e.seq));
        self.write_cache(
            tx,
            &ladder,
            None,
            HistoryWrite::Replace {
                full: &history,
                from,
            },
            last,
            action,
        )
    }

    /// Writes the ladder state (all players, or only `touched`) and appends history rows.
    fn write_cache(
        &self,
        tx: &Connection,
        ladder: &Ladder,
        touched: Option<&[PlayerId]>,
        history: HistoryWrite,
        last: Option<(NaiveDate, u64)>,
        action: i64,
    ) -> Result<()> {
        let path = self.name();
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let json =
            |v: &dyn erased::Json| v.to_json().map_err(|e| StoreError::Invalid(e.to_string()));
        let mut shell = ladder.clone_without_players();
        shell.players.clear();
        let state = json(&shell)?;
        let (last_date, last_seq) = match last {
            Some((d, s)) => (Some(d.format("%Y-%m-%d").to_string()), Some(s as i64)),
            None => (None, None),
        };
        if last.is_some() {
            tx.execute(
                "UPDATE cache_ladder SET last_action = ?1, last_date = ?2, last_seq = ?3, state = ?4 WHERE id = 1",
                params![action, last_date, last_seq, state],
            )
            .map_err(sql)?;
        } else {
            tx.execute(
                "UPDATE cache_ladder SET last_action = ?1, last_date = NULL, last_seq = NULL, state = ?2 WHERE id = 1",
                params![action, state],
            )
            .map_err(sql)?;
        }
        {
            let mut put = tx
                .prepare_cached(
                    "INSERT OR REPLACE INTO cache_players(id, key, state) VALUES (?1, ?2, ?3)",
                )
                .map_err(sql)?;
            let ids: Box<dyn Iterator<Item = PlayerId>> = match touched {
                Some(t) => Box::new(t.iter().copied()),
                None => Box::new(0..ladder.players.len() as PlayerId),
            };
            for id in ids {
                if let Some(p) = ladder.players.get(id as usize) {
                    put.execute(params![id as i64, key_of(&p.name), json(p)?])
                        .map_err(sql)?;
                }
            }
        }
        match history {
            HistoryWrite::Append(rows) => self.append_history(tx, rows),
            HistoryWrite::Replace { full, from } => self.replace_history(tx, full, from),
        }
    }

    fn put_history(
        tx: &Connection,
        player: PlayerId,
        rows: &[HistoryRow],
        blob: &[u8],
    ) -> rusqlite::Result<()> {
        match rows.last() {
            Some(last) => tx
                .prepare_cached("INSERT OR REPLACE INTO cache_history(player, last_day, last_seq, rows) VALUES (?1, ?2, ?3, ?4)")?
                .execute(params![player as i64, history_blob::day_of(last.date), last.seq as i64, blob])
                .map(|_| ()),
            None => tx
                .prepare_cached("DELETE FROM cache_history WHERE player = ?1")?
                .execute([player as i64])
                .map(|_| ()),
        }
    }

    /// New rows after everything cached: each touched player's blob grows at its end.
    fn append_history(&self, tx: &Connection, rows: &[HistoryRow]) -> Result<()> {
        let path = self.name();
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let mut by_player: Vec<(PlayerId, Vec<HistoryRow>)> = Vec::new();
        for r in rows {
            match by_player.iter_mut().find(|(p, _)| *p == r.player) {
                Some((_, v)) => v.push(*r),
                None => by_player.push((r.player, vec![*r])),
            }
        }
        for (player, new) in by_player {
            let mut blob: Vec<u8> = tx
                .query_row(
                    "SELECT rows FROM cache_history WHERE player = ?1",
                    [player as i64],
                    |r| r.get(0),
                )
                .optional()
                .map_err(sql)?
                .unwrap_or_default();
            history_blob::encode_into(new.iter().copied(), &mut blob);
            Self::put_history(tx, player, &new, &blob).map_err(sql)?;
        }
        Ok(())
    }

    /// After a replay: every player with a row at or after `from`, in the cache or in the
    /// new history, gets their blob rewritten from the new history; the rest keep theirs.
    fn replace_history(
        &self,
        tx: &Connection,
        full: &[HistoryRow],
        from: (NaiveDate, u64),
    ) -> Result<()> {
        let path = self.name();
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let players = full
            .iter()
            .map(|h| h.player as usize + 1)
            .max()
            .unwrap_or(0);
        let mut rows_of: Vec<Vec<HistoryRow>> = vec![Vec::new(); players];
        let mut affected: Vec<bool> = vec![false; players];
        for h in full {
            rows_of[h.player as usize].push(*h);
            if (h.date, h.seq) >= from {
                affected[h.player as usize] = true;
            }
        }
        let mut stale: Vec<PlayerId> = {
            let mut stmt = tx
                .prepare("SELECT player FROM cache_history WHERE (last_day, last_seq) >= (?1, ?2)")
                .map_err(sql)?;
            stmt.query_map(params![history_blob::day_of(from.0), from.1 as i64], |r| {
                r.get::<_, i64>(0)
            })
            .and_then(|rows| {
                rows.map(|r| r.map(|p| p as PlayerId))
                    .collect::<rusqlite::Result<Vec<_>>>()
            })
            .map_err(sql)?
        };
        stale.extend((0..players as PlayerId).filter(|&p| affected[p as usize]));
        stale.sort_unstable();
        stale.dedup();
        let mut blob = Vec::new();
        for player in stale {
            let rows = rows_of
                .get(player as usize)
                .map(Vec::as_slice)
                .unwrap_or(&[]);
            blob.clear();
            history_blob::encode_into(rows.iter().copied(), &mut blob);
            Self::put_history(tx, player, rows, &blob).map_err(sql)?;
        }
        Ok(())
    }

    /// Drops every cache and rebuilds it from the log.
    pub fn rebuild_caches(&mut self) -> Result<()> {
        let path = self.name();
        let tx = Immediate::begin(&self.conn).map_err(|e| OpenError::from_sqlite(&path, e))?;
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let action: i64 = tx
            .query_row("SELECT COALESCE(MAX(id), 0) FROM actions", [], |r| r.get(0))
            .map_err(sql)?;
        self.rebuild(&tx, None, action)?;
        self.check_cancel()?;
        tx.commit().map_err(sql)?;
        Ok(())
    }

    /// Undoes the latest action that is not undone.
    pub fn undo(&mut self) -> Result<Toggled> {
        self.toggle("undo")
    }

    /// Redoes the latest undone action, if nothing was done since.
    pub fn redo(&mut self) -> Result<Toggled> {
        self.toggle("redo")
    }

    fn toggle(&mut self, kind: &'static str) -> Result<Toggled> {
        let path = self.name();
        let tx = Immediate::begin(&self.conn).map_err(|e| OpenError::from_sqlite(&path, e))?;
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let (done, undone) = Self::action_stacks(&tx).map_err(sql)?;
        let target = if kind == "undo" {
            done.last()
        } else {
            undone.last()
        };
        let Some(&target) = target else {
            return Err(StoreError::Invalid(format!("{path}: nothing to {kind}")));
        };
        let label: String = tx
            .query_row("SELECT label FROM actions WHERE id = ?1", [target], |r| {
                r.get(0)
            })
            .map_err(sql)?;
        // What the toggled action touches, as the log stands with it in force.
        // Where every event stands before and after the toggle: a correction's target moves
        // between the two, and the replay must start at the earlier of its places.
        let before = Self::current_dates(&tx).map_err(sql)?;
        self.check_cancel()?;
        self.reached(150);
        let target_rows: Vec<LogRow> = Self::read_rows(&tx, Some(&HashSet::from([target])))
            .map_err(sql)?
            .into_iter()
            .filter_map(|r| r.ok())
            .collect();
        tx.execute(
            "INSERT INTO actions(kind, label, at) VALUES (?1, ?2, ?3)",
            params![kind, label, today_stamp()],
        )
        .map_err(sql)?;
        let action = tx.last_insert_rowid();
        let after = Self::current_dates(&tx).map_err(sql)?;
        self.check_cancel()?;
        self.reached(300);
        let from = target_rows
            .iter()
            .flat_map(|r| {
                [
                    log::first_affected(r, &before),
                    log::first_affected(r, &after),
                ]
            })
            .min();
        self.rebuild(&tx, from, action)?;
        self.check_cancel()?;
        tx.commit().map_err(sql)?;
        Ok(Toggled { label })
    }

    /// A replay of the log from scratch under `rules` (the ladder's own when `None`): the
    /// final ladder and its full history. The file is not touched.
    pub fn replay(&self, rules: Option<&Rules>) -> Result<(Ladder, Vec<HistoryRow>)> {
        let events = self.effective()?;
        let rules = match rules {
            Some(r) => r.clone(),
            None => self.initial_rules()?,
        };
        crate::ladder::replay::replay(&rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
            .map_err(|source| StoreError::Replay {
                path: self.name(),
                cause: source,
            })
    }

    /// The final standings of the log under `rules`, without history (least memory).
    pub fn replay_state(&self, rules: &Rules) -> Result<Ladder> {
        let events = self.effective()?;
        crate::ladder::replay::replay_state(rules, events.iter().map(|e| (e.date, e.seq, &e.event)))
            .map_err(|source| StoreError::Replay {
                path: self.name(),
                cause: source,
            })
    }

    /// The history of every player as the cache holds it, in (date, seq, player) order.
    pub fn cached_history(&self) -> Result<Vec<HistoryRow>> {
        let mut stmt = self
            .conn
            .prepare("SELECT player, rows FROM cache_history ORDER BY player")
            .map_err(|e| self.sql(e))?;
        let blobs: Vec<(i64, Vec<u8>)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .and_then(|rows| rows.collect())
            .map_err(|e| self.sql(e))?;
        let mut all = Vec::new();
        for (player, blob) in blobs {
            let rows = history_blob::decode(player as PlayerId, &blob)
                .ok_or_else(|| self.corrupt(format!("cache: history of player {player}")))?;
            all.extend(rows);
        }
        all.sort_by_key(|r| (r.date, r.seq, r.player));
        Ok(all)
    }

    /// The (date, seq) of the last event the caches have applied, if any.
    fn cached_last_key(&self) -> Result<Option<(NaiveDate, u64)>> {
        let (date, seq): (Option<String>, Option<i64>) = self
            .conn
            .query_row(
                "SELECT last_date, last_seq FROM cache_ladder WHERE id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .map_err(|e| self.sql(e))?;
        match (date, seq) {
            (Some(d), Some(s)) => NaiveDate::parse_from_str(&d, "%Y-%m-%d")
                .map(|d| Some((d, s as u64)))
                .map_err(|_| self.corrupt(format!("cache: last date `{d}`"))),
            _ => Ok(None),
        }
    }

    /// The ladder now and as it would be after `rows` were committed, by the same replay
    /// code; nothing is written. New events after everything cached apply to a copy of the
    /// cached state; anything else replays the log with the rows in place.
    pub fn preview(&self, rows: &[(NaiveDate, Entry)]) -> Result<(Ladder, Ladder)> {
        let before = self.ladder()?;
        let next_seq: i64 = self
            .conn
            .query_row("SELECT COALESCE(MAX(seq), 0) + 1 FROM entries", [], |r| {
                r.get(0)
            })
            .map_err(|e| self.sql(e))?;
        let new_rows: Vec<LogRow> = rows
            .iter()
            .enumerate()
            .map(|(i, (date, entry))| LogRow {
                seq: next_seq as u64 + i as u64,
                date: *date,
                entry: entry.clone(),
            })
            .collect();
        // The caches hold the key of the last event in replay order, so an append is known
        // without reading the log (a forecast on a million-match ladder stays instant).
        let last = self.cached_last_key()?;
        let appends = new_rows.iter().all(|r| {
            matches!(r.entry, Entry::Add { .. }) && last.is_none_or(|k| (r.date, r.seq) > k)
        }) && new_rows.windows(2).all(|w| w[0].date <= w[1].date);
        let after = if appends {
            let mut after = before.clone();
            let mut scratch = Vec::new();
            for r in &new_rows {
                if let Entry::Add { event } = &r.entry {
                    after
                        .apply(r.date, r.seq, event, &mut scratch)
                        .map_err(|source| StoreError::Replay {
                            path: self.name(),
                            cause: source,
                        })?;
                }
            }
            after
        } else {
            let mut all = self.active_rows()?;
            self.check_cancel()?;
            self.reached(700);
            all.extend(new_rows);
            let events = log::resolve_owned(all).map_err(|source| StoreError::Log {
                path: self.name(),
                cause: source,
            })?;
            crate::ladder::replay::replay_state(
                &self.initial_rules()?,
                events.iter().map(|e| (e.date, e.seq, &e.event)),
            )
            .map_err(|source| StoreError::Replay {
                path: self.name(),
                cause: source,
            })?
        };
        Ok((before, after))
    }

    /// The whole log, undone actions included, for export.
    pub fn export_log(&self) -> Result<self::export::Log> {
        let mut actions: Vec<self::export::LogAction> = self
            .actions()?
            .into_iter()
            .map(|(id, kind, label)| self::export::LogAction {
                id,
                kind: self::export::ActionKind::parse(&kind)
                    .unwrap_or(self::export::ActionKind::Do),
                label,
                rows: Vec::new(),
            })
            .collect();
        let index: HashMap<i64, usize> =
            actions.iter().enumerate().map(|(i, a)| (a.id, i)).collect();
        for (action, _, row) in self.all_rows()? {
            let i = index
                .get(&action)
                .copied()
                .ok_or_else(|| self.corrupt(format!("row {} belongs to no action", row.seq)))?;
            actions[i].rows.push(row);
        }
        Ok(self::export::Log {
            rules: self.initial_rules()?,
            actions,
        })
    }

    /// Loads a whole exported log into this ladder, which must be new (no actions yet). One
    /// transaction: a log that does not replay leaves the ladder as it was.
    pub fn import_log(&mut self, log: &self::export::Log) -> Result<()> {
        let path = self.name();
        let tx = Immediate::begin(&self.conn).map_err(|e| OpenError::from_sqlite(&path, e))?;
        let sql = |e| StoreError::Open(OpenError::from_sqlite(&path, e));
        let existing: i64 = tx
            .query_row("SELECT COUNT(*) FROM actions", [], |r| r.get(0))
            .map_err(sql)?;
        if existing > 0 {
            return Err(StoreError::Invalid(format!(
                "{path}: already holds {existing} actions; import a log into a new ladder"
            )));
        }
        let rules =
            serde_json::to_string(&log.rules).map_err(|e| StoreError::Invalid(e.to_string()))?;
        tx.execute("UPDATE meta SET value = ?1 WHERE key = 'rules'", [&rules])
            .map_err(sql)?;
        let mut last_action = 0;
        {
            let mut add_action = tx
                .prepare("INSERT INTO actions(id, kind, label, at) VALUES (?1, ?2, ?3, ?4)")
                .map_err(sql)?;
            let mut add_row = tx
                .prepare(
                    "INSERT INTO entries(seq, action, date, op, target, a, b, result, body)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                )
                .map_err(sql)?;
            let stamp = today_stamp();
            for action in &log.actions {
                add_action
                    .execute(params![
                        action.id,
                        action.kind.as_str(),
                        action.label,
                        stamp
                    ])
                    .map_err(sql)?;
                for row in &action.rows {
                    let c = codec::to_columns(row.date, &row.entry)
                        .map_err(|e| StoreError::Invalid(e.to_string()))?;
                    add_row
                        .execute(params![
                            row.seq as i64,
                            action.id,
                            c.date,
                            c.op,
                            c.target,
                            c.a,
                            c.b,
                            c.result,
                            c.body
                        ])
                        .map_err(sql)?;
                }
                last_action = action.id;
            }
        }
        tx.execute("DELETE FROM cache_history", []).map_err(sql)?;
        self.rebuild(&tx, None, last_action)?;
        self.check_cancel()?;
        tx.commit().map_err(sql)?;
        Ok(())
    }

    /// Number of log rows that count now.
    pub fn event_count(&self) -> Result<usize> {
        Ok(self.effective()?.len())
    }
}

/// An immediate transaction on a shared connection: rolled back unless committed.
struct Immediate<'a> {
    conn: &'a Connection,
    open: bool,
}

impl<'a> Immediate<'a> {
    fn begin(conn: &'a Connection) -> rusqlite::Result<Immediate<'a>> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(Immediate { conn, open: true })
    }

    fn commit(mut self) -> rusqlite::Result<()> {
        self.open = false;
        self.conn.execute_batch("COMMIT")
    }
}

impl std::ops::Deref for Immediate<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Immediate<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}

/// One `entries` row (selected as seq, action, date, op, target, a, b, result, body) as a log
/// row, or what is wrong with it.
fn decode_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<std::result::Result<LogRow, String>> {
    Ok(codec::from_columns(
        r.get(0)?,
        r.get_ref(2)?.as_str()?,
        r.get_ref(3)?.as_str()?,
        r.get(4)?,
        r.get(5)?,
        r.get(6)?,
        r.get_ref(7)?.as_str_or_null()?,
        r.get_ref(8)?.as_str_or_null()?,
    ))
}

/// The players a batch of new events reads, or `None` when an event reads every player
/// (resets and rules changes).
fn players_needed(rows: &[(NaiveDate, Entry)]) -> Option<Vec<PlayerId>> {
    let mut ids = Vec::new();
    for (_, entry) in rows {
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
    // A large batch (an import) reads everything anyway.
    if ids.len() > 4096 {
        return None;
    }
    ids.sort_unstable();
    ids.dedup();
    Some(ids)
}

/// How a cache write changes the history.
enum HistoryWrite<'a> {
    /// Rows that come after everything cached.
    Append(&'a [HistoryRow]),
    /// The full history of a replay; rows from `from` on may differ from the cache's.
    Replace {
        full: &'a [HistoryRow],
        from: (NaiveDate, u64),
    },
}

/// Serialising a value to JSON through a trait object (the cache writes mixed types).
mod erased {
    pub trait Json {
        fn to_json(&self) -> serde_json::Result<String>;
    }
    impl<T: serde::Serialize> Json for T {
        fn to_json(&self) -> serde_json::Result<String> {
            serde_json::to_string(self)
        }
    }
}
