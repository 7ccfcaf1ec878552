//! The ladder file: one SQLite database holding the rules, the append-only log, undo and
//! redo, and caches derived from the log. Every user action is exactly one transaction.
//!
//! What is where: `schema.rs` the tables and the checks made before a file is trusted;
//! `newfile.rs` a new file made under a temporary name and renamed into place when complete;
//! `migrate.rs` older formats brought up to date; `codec.rs` how log rows lie on disk;
//! `digest.rs` which log the caches were made from; `log.rs` reading the log; `events.rs`
//! the log's events in replay order, compactly; `actions.rs` actions, undo and redo;
//! `caches.rs` the caches, read and written (`histories.rs` and `history_blob.rs` the
//! players' histories); `replay.rs` replay, rebuild and preview;
//! `check.rs` `rungs check` and `rungs repair`.

mod actions;
mod ahead;
mod caches;
mod change;
pub mod check;
mod checked;
pub mod codec;
pub mod digest;
mod error;
mod events;
pub mod export;
pub mod forecast;
mod guard;
mod histories;
pub mod history_blob;
pub mod import;
mod journal;
mod log;
mod migrate;
pub mod newfile;
mod replay;
pub mod runs;
pub mod schema;
pub mod shared;
mod torn;
mod varint;

pub use checked::{Change, ChangeError};
pub use error::{BUSY_TIMEOUT, OpenError, Result, StoreError};
pub use events::Events;

use rungs_ladder::replay::{Ladder, ReplayError};
use rungs_ladder::rules::Rules;
use rusqlite::Connection;
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// What `undo`/`redo` did.
#[derive(Debug, Clone, PartialEq)]
pub struct Toggled {
    pub label: String,
    /// The action undone or redone.
    pub target: i64,
}

/// An open ladder file.
pub struct Store {
    conn: Connection,
    /// The file's path as the user named it (a new file is filled under a temporary name).
    path: PathBuf,
    /// The file or its folder cannot be written: reading works, changes are refused.
    read_only: bool,
    /// `PRAGMA schema_version` when the schema was last checked.
    cookie: Cell<i32>,
    /// The season archive lies in `cache_seasons` (format 3 on), not in the ladder's cache
    /// row (a format 2 file opened read-only, which cannot be upgraded).
    archive_table: bool,
    /// Where the log ended (last action, last row) when this store last read the ladder or
    /// wrote it: a change is made against what was read, so one committed after another
    /// program moved the log on is refused ([`StoreError::ChangedMeanwhile`]).
    seen: Cell<Option<(i64, i64)>>,
    /// `PRAGMA data_version` when this store last read the ladder: another connection's
    /// commit moves it, this one's never does.
    data_version: Cell<Option<i64>>,
    /// The cache head whose history blobs were last found to be the ones rungs wrote.
    histories_verified: Cell<Option<(i64, i64)>>,
    /// For a file this process may not write: how it lay when opened (see `torn.rs`).
    unlocked_reads: Cell<Option<torn::Fingerprint>>,
    /// Set from another thread to stop a long recomputation before it lands.
    cancel: Option<Arc<AtomicBool>>,
    /// How far a long recomputation has got, in thousandths, for another thread to show.
    permille: Option<Arc<AtomicU64>>,
}

fn today_stamp() -> String {
    chrono::Local::now().format("%Y-%m-%dT%H:%M:%S").to_string()
}

impl Store {
    /// Opens an existing ladder file: its schema exactly this rungs' own, an older format
    /// upgraded, and its caches made from its log as it is now (else [`StoreError::Stale`]).
    /// A file that cannot be written, or lies in a folder that cannot, opens read-only.
    pub fn open(path: &Path) -> Result<Store> {
        let before = torn::Fingerprint::of(path);
        let store = Store::open_unchecked(path)
            .and_then(|store| store.verify_stamp().map(|()| store))
            .map_err(|e| torn::judged(path, &before, e))?;
        store.guard_older_file()?;
        Ok(store)
    }

    /// A file from before the guard (`guard.rs`) was written by an older rungs: when it can be
    /// written, its caches are rebuilt once from the log, in this rungs' form (a reset's
    /// history row only for a player it changes, weekly RP as runs), and guarded — never a
    /// guard over caches as they lie. Read-only, it is read as it lies.
    fn guard_older_file(&self) -> Result<()> {
        if self.read_only || self.guard(&self.conn)?.is_some() {
            return Ok(());
        }
        self.rebuild_all().map(|_| ())
    }

    /// Opens without comparing the caches with the log: for `check` and `repair`.
    fn open_unchecked(path: &Path) -> Result<Store> {
        let before = torn::Fingerprint::of(path);
        let checked = schema::open(path).map_err(|e| torn::judged(path, &before, e))?;
        let mut store = Store {
            conn: checked.conn,
            path: path.to_path_buf(),
            read_only: checked.read_only,
            cookie: Cell::new(checked.cookie),
            archive_table: checked.version >= 3,
            seen: Cell::new(None),
            data_version: Cell::new(None),
            histories_verified: Cell::new(None),
            unlocked_reads: Cell::new(checked.read_only.then_some(before)),
            cancel: None,
            permille: None,
        };
        if checked.version < schema::SCHEMA_VERSION && !store.read_only {
            // Each upgrade writes the current format's caches, the archive in its table.
            store.archive_table = true;
            match checked.version {
                1 => store.upgrade_from_1()?,
                _ => store.upgrade_from_2()?,
            }
            schema::check(&store.conn, &store.name(), schema::SCHEMA_VERSION)?;
            store
                .cookie
                .set(schema::cookie(&store.conn).map_err(|e| store.sql(e))?);
        }
        store.initial_rules()?;
        Ok(store)
    }

    /// A store on a connection to a file being made (see [`NewLadder`]).
    fn fresh(conn: Connection, path: &Path) -> Result<Store> {
        let cookie = schema::cookie(&conn)
            .map_err(|e| StoreError::from_sqlite(&path.display().to_string(), e))?;
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            read_only: false,
            cookie: Cell::new(cookie),
            archive_table: true,
            seen: Cell::new(None),
            data_version: Cell::new(None),
            histories_verified: Cell::new(None),
            unlocked_reads: Cell::new(None),
            cancel: None,
            permille: None,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether the file opened read-only (reading works; every change is refused).
    pub fn is_read_only(&self) -> bool {
        self.read_only
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

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|flag| flag.load(Ordering::Relaxed))
    }

    fn check_cancel(&self) -> Result<()> {
        if self.cancelled() {
            Err(StoreError::Cancelled)
        } else {
            Ok(())
        }
    }

    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn sql(&self, e: rusqlite::Error) -> StoreError {
        self.judged(StoreError::from_sqlite(&self.name(), e))
    }

    fn damaged(&self, what: impl Into<String>) -> StoreError {
        self.judged(StoreError::Damaged {
            path: self.name(),
            what: what.into(),
        })
    }

    /// `e`, unless this store reads without locks and the file changed under it.
    fn judged(&self, e: StoreError) -> StoreError {
        match self.unlocked_reads.get() {
            Some(before) => torn::judged(&self.path, &before, e),
            None => e,
        }
    }

    fn replay_error(&self, cause: ReplayError) -> StoreError {
        StoreError::Replay {
            path: self.name(),
            cause,
        }
    }

    /// Begins an immediate transaction for a change. The schema is checked again if it
    /// changed since it was (another program altered the file meanwhile).
    fn begin(&self) -> Result<Tx<'_>> {
        if self.read_only {
            return Err(StoreError::ReadOnly(self.name()));
        }
        let tx = Tx::begin(&self.conn).map_err(|e| self.sql(e))?;
        let cookie = schema::cookie(&tx).map_err(|e| self.sql(e))?;
        if cookie != self.cookie.get() {
            schema::check(&tx, &self.name(), schema::SCHEMA_VERSION)?;
            self.cookie.set(cookie);
        }
        Ok(tx)
    }

    /// The rules the ladder was created with (later `rules` events change them in the log).
    pub fn initial_rules(&self) -> Result<Rules> {
        let text = self.rules_text(&self.conn)?;
        serde_json::from_str(&text).map_err(|e| self.damaged(format!("its rules do not read: {e}")))
    }

    /// The last event that may share a name with another player's (see `NameBook`): set when
    /// a format 1 file, which compared names by case only, is upgraded; 0 otherwise.
    pub(crate) fn names_shared_through(&self, conn: &Connection) -> Result<u64> {
        use rusqlite::OptionalExtension;
        let seq: Option<i64> = conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'names_shared_through'",
                [],
                |r| r.get::<_, String>(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?
            .and_then(|text| text.parse().ok());
        Ok(seq.map_or(0, |s| s.max(0) as u64))
    }

    /// An empty ladder under `rules` for a replay of this file's log.
    pub(crate) fn empty_ladder(&self, conn: &Connection, rules: &Rules) -> Result<Ladder> {
        let mut ladder = Ladder::new(rules.clone());
        ladder.names.tolerated_through = self.names_shared_through(conn)?;
        Ok(ladder)
    }

    fn rules_text(&self, conn: &Connection) -> Result<String> {
        use rusqlite::OptionalExtension;
        conn.query_row("SELECT value FROM meta WHERE key = 'rules'", [], |r| {
            r.get(0)
        })
        .optional()
        .map_err(|e| self.sql(e))?
        .ok_or_else(|| self.damaged("its rules are missing (table meta has no `rules` row)"))
    }

    /// The ladder's events that count, in replay order, held compactly (24 bytes a plain
    /// match): for a reader that wants fewer than all of them made (`Events::quick_log`).
    pub fn compact_events(&self) -> Result<events::Events> {
        self.events(&self.conn)
    }

    /// The ladder's events that count, in replay order (after edits and deletions).
    pub fn effective(&self) -> Result<Vec<rungs_ladder::log::Effective>> {
        Ok(self.events(&self.conn)?.to_effective())
    }

    /// Number of events that count now.
    pub fn event_count(&self) -> Result<usize> {
        Ok(self.events(&self.conn)?.len())
    }

    /// Calls `f` with every event that counts, in replay order, without holding the events
    /// themselves (24 bytes an event for the order, then each event made as it is passed).
    pub fn for_each_event<E>(
        &self,
        f: impl FnMut(chrono::NaiveDate, u64, &rungs_ladder::event::Event) -> std::result::Result<(), E>,
    ) -> Result<std::result::Result<(), E>> {
        Ok(self.events(&self.conn)?.for_each(f))
    }

    /// How many `rules` events count now.
    pub fn rules_changes(&self) -> Result<usize> {
        Ok(self.events(&self.conn)?.rules_changes())
    }

    /// The ladder as the caches hold it, checked to be the ladder's own (equal to a replay of
    /// the log, which `check` verifies).
    pub fn ladder(&self) -> Result<Ladder> {
        let version = self.data_version()?;
        let (head, ladder) = self.read_ladder()?;
        self.seen.set(head);
        self.data_version.set(Some(version));
        Ok(ladder)
    }

    fn data_version(&self) -> Result<i64> {
        self.conn
            .query_row("PRAGMA data_version", [], |r| r.get(0))
            .map_err(|e| self.sql(e))
    }

    /// Whether another program committed a change to the ladder since this store last read
    /// it ([`Store::ladder`]). Cheap: what a window asks every second to follow its file.
    pub fn changed_elsewhere(&self) -> Result<bool> {
        let Some(seen) = self.data_version.get() else {
            return Ok(false);
        };
        Ok(self.data_version()? != seen)
    }

    /// The last action of the log as this store last read or wrote it.
    pub fn seen_action(&self) -> Option<i64> {
        self.seen.get().map(|(action, _)| action)
    }

    /// The cached ladder and where the log it belongs to ends (last action, last row).
    fn read_ladder(&self) -> Result<(Option<(i64, i64)>, Ladder)> {
        if self.unlocked_reads.get().is_some() {
            self.unlocked_reads
                .set(Some(torn::Fingerprint::of(&self.path)));
        }
        // One read transaction: the ladder and the end of the log it belongs to, not a
        // summary from before another program's commit and players from after it.
        let outer = !self.conn.is_autocommit();
        if !outer {
            self.conn
                .execute_batch("BEGIN DEFERRED")
                .map_err(|e| self.sql(e))?;
        }
        let read = self
            .cache_head(&self.conn)
            .and_then(|head| Ok((head, self.cached_ladder(&self.conn)?)));
        if !outer {
            let _ = self.conn.execute_batch("COMMIT");
        }
        let (head, ladder) = read?;
        Ok((
            head.map(|h| (h.stamp.last_action, h.stamp.last_seq)),
            ladder,
        ))
    }
}

/// An immediate transaction on a shared connection: rolled back unless committed.
struct Tx<'a> {
    conn: &'a Connection,
    open: bool,
}

impl<'a> Tx<'a> {
    fn begin(conn: &'a Connection) -> rusqlite::Result<Tx<'a>> {
        conn.execute_batch("BEGIN IMMEDIATE")?;
        Ok(Tx { conn, open: true })
    }

    fn commit(mut self) -> rusqlite::Result<()> {
        self.open = false;
        self.conn.execute_batch("COMMIT")?;
        // Into the file itself at once, where no reader holds it back: a copy of the `.rungs`
        // file alone (a backup, a sync) then holds every change reported saved, though the
        // app keeps the ladder open. A checkpoint that cannot finish now costs nothing.
        let _ = self
            .conn
            .query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(()));
        Ok(())
    }
}

impl std::ops::Deref for Tx<'_> {
    type Target = Connection;
    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open {
            let _ = self.conn.execute_batch("ROLLBACK");
        }
    }
}
