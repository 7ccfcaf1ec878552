//! A large change (an import) written through a rollback journal instead of the write-ahead
//! log, when nobody else has the ladder open.
//!
//! Through the write-ahead log every page of a change is written twice: into the `-wal` file
//! at commit, then into the ladder by the checkpoint (an import of a million matches writes
//! 70 MB each way). A rollback journal keeps only the pages the change overwrites, as they
//! were (a new ladder has a few; pages the ladder grows by are not kept: the rollback cuts
//! the file back to its old length), and the change is written into the ladder once.
//!
//! Either way the change is all or nothing: with `synchronous = FULL` SQLite syncs the journal
//! before it writes a page of the ladder, and syncs the ladder before it deletes the journal,
//! which is the moment of commit. A process killed before that leaves the journal beside the
//! ladder; the next program that opens the ladder puts the old pages back (SQLite's hot
//! journal) and finds the ladder as it was before the change.
//!
//! SQLite leaves the write-ahead log only when this is the ladder's one connection (it says
//! "locked" at once otherwise): then the change goes through the log as any other. After it
//! the ladder goes back to the log; should another program have opened it meanwhile, the next
//! program to open it for writing does that (`schema::open`, through [`back_to_wal`], which
//! waits for the change as for any lock).

use super::error::BUSY_TIMEOUT;
use rusqlite::{Connection, ErrorCode};
use std::time::{Duration, Instant};

/// Changes of at least this many rows go through a rollback journal (an import; a match a
/// day for 180 years).
pub(super) const BULK_ROWS: usize = 1 << 16;

/// While alive, the connection writes through a rollback journal; dropped, it is back on the
/// write-ahead log (or stays on it, when it could not leave it).
pub(super) struct Bulk<'a> {
    conn: Option<&'a Connection>,
}

impl<'a> Bulk<'a> {
    /// Leaves the write-ahead log for a rollback journal if no other connection has the
    /// ladder open; no transaction may be open on `conn`.
    pub(super) fn begin(conn: &'a Connection) -> Bulk<'a> {
        let mode = conn.query_row("PRAGMA journal_mode = DELETE", [], |r| {
            r.get::<_, String>(0)
        });
        let left = mode.is_ok_and(|m| m.eq_ignore_ascii_case("delete"));
        Bulk {
            conn: left.then_some(conn),
        }
    }
}

impl Drop for Bulk<'_> {
    fn drop(&mut self) {
        if let Some(conn) = self.conn {
            let _ = conn.query_row("PRAGMA journal_mode = WAL", [], |_| Ok(()));
        }
    }
}

/// Puts the ladder on the write-ahead log. While another program writes it through a rollback
/// journal SQLite cannot, and says "locked" at once, without the busy timeout's wait: wait
/// here instead, as long (a program opening the ladder during an import reads it once the
/// import is done, as it would have waited for any other lock).
pub(super) fn back_to_wal(conn: &Connection) -> rusqlite::Result<()> {
    let start = Instant::now();
    loop {
        let mode = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get::<_, String>(0));
        let locked = match &mode {
            Ok(m) => !m.eq_ignore_ascii_case("wal"),
            Err(e) => matches!(
                e.sqlite_error_code(),
                Some(ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked)
            ),
        };
        if !locked || start.elapsed() >= BUSY_TIMEOUT {
            return mode.map(|_| ());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}
