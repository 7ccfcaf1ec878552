//! The ladder file's schema, its version, and the checks made before a file is trusted.

use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::time::Duration;

/// `PRAGMA application_id` of a rungs ladder: "RUNG".
pub const APPLICATION_ID: i32 = 0x5255_4E47;
/// The schema version this build writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i32 = 1;
/// How long to wait for another process's lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_millis(2000);

/// Forward migrations: entry `i` takes a file from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[r#"
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;

-- Every user action is one row here; its log rows point at it. Undo and redo are actions
-- too, so nothing is ever erased.
CREATE TABLE actions (
    id    INTEGER PRIMARY KEY,
    kind  TEXT NOT NULL CHECK (kind IN ('do', 'undo', 'redo')),
    label TEXT NOT NULL,
    at    TEXT NOT NULL
) STRICT;

-- The append-only log. A plain 1v1 match keeps its players and result in columns (fast to
-- read back); every other row keeps its event as JSON in `body`.
CREATE TABLE entries (
    seq    INTEGER PRIMARY KEY,
    action INTEGER NOT NULL REFERENCES actions(id),
    date   TEXT NOT NULL,
    op     TEXT NOT NULL CHECK (op IN ('add', 'edit', 'delete')),
    target INTEGER,
    a      INTEGER,
    b      INTEGER,
    result TEXT,
    body   TEXT
) STRICT;
CREATE INDEX entries_action ON entries(action);

-- Caches: derived from the log, dropped and rebuilt at will.
CREATE TABLE cache_ladder (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    last_action INTEGER NOT NULL,
    last_date   TEXT,
    last_seq    INTEGER,
    state       TEXT NOT NULL
) STRICT;
CREATE TABLE cache_players (
    id    INTEGER PRIMARY KEY,
    key   TEXT NOT NULL,
    state TEXT NOT NULL
) STRICT;
CREATE INDEX cache_players_key ON cache_players(key);
-- One blob per player (see history_blob.rs), with the replay key of its last row.
CREATE TABLE cache_history (
    player   INTEGER PRIMARY KEY,
    last_day INTEGER NOT NULL,
    last_seq INTEGER NOT NULL,
    rows     BLOB NOT NULL
) STRICT;
"#];

/// Why a file cannot be used as a ladder.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{0}: no such ladder file")]
    Missing(String),
    #[error("{0}: already exists; choose another name or delete it first")]
    Exists(String),
    #[error("{0}: not a rungs ladder (not an SQLite database)")]
    NotSqlite(String),
    #[error("{0}: not a rungs ladder (an SQLite database of some other program)")]
    Foreign(String),
    #[error(
        "{path}: written by a newer rungs (ladder format {found}; this rungs reads up to {supported}); update rungs to open it"
    )]
    Newer {
        path: String,
        found: i32,
        supported: i32,
    },
    #[error("{0}: locked by another program (waited {1} s); try again when it has finished")]
    Locked(String, u64),
    #[error("{0}: damaged ladder file: {1}")]
    Corrupt(String, String),
    #[error("{0}: {1}")]
    Sqlite(String, rusqlite::Error),
}

impl OpenError {
    /// Classifies an SQLite error met while using `path`.
    pub fn from_sqlite(path: &str, e: rusqlite::Error) -> OpenError {
        use rusqlite::ErrorCode;
        match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => OpenError::NotSqlite(path.to_string()),
            Some(ErrorCode::DatabaseBusy) | Some(ErrorCode::DatabaseLocked) => {
                OpenError::Locked(path.to_string(), BUSY_TIMEOUT.as_secs())
            }
            Some(ErrorCode::DatabaseCorrupt) => OpenError::Corrupt(path.to_string(), e.to_string()),
            _ => OpenError::Sqlite(path.to_string(), e),
        }
    }
}

/// Opens a connection with the settings every ladder gets, running nothing the file carries.
fn connect(path: &Path, flags: OpenFlags) -> Result<Connection, OpenError> {
    let name = path.display().to_string();
    let conn =
        Connection::open_with_flags(path, flags).map_err(|e| OpenError::from_sqlite(&name, e))?;
    let sql = |e| OpenError::from_sqlite(&name, e);
    // Defensive mode and an untrusted schema: a file from elsewhere cannot make us run its
    // triggers, views or functions with side effects.
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)
        .map_err(sql)?;
    conn.set_db_config(
        rusqlite::config::DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA,
        false,
    )
    .map_err(sql)?;
    conn.busy_timeout(BUSY_TIMEOUT).map_err(sql)?;
    Ok(conn)
}

fn pragma_i32(conn: &Connection, name: &str) -> rusqlite::Result<i32> {
    conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
}

/// Creates a new, empty ladder file at `path` (which must not exist).
pub fn create(path: &Path) -> Result<Connection, OpenError> {
    let name = path.display().to_string();
    if path.exists() {
        return Err(OpenError::Exists(name));
    }
    let conn = connect(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_CREATE,
    )?;
    let sql = |e| OpenError::from_sqlite(&name, e);
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(sql)?;
    conn.pragma_update(None, "application_id", APPLICATION_ID)
        .map_err(sql)?;
    migrate(&conn, 0).map_err(sql)?;
    finish_setup(&conn).map_err(sql)?;
    Ok(conn)
}

/// Opens an existing ladder, checking it is one and upgrading an older format.
pub fn open(path: &Path) -> Result<Connection, OpenError> {
    let name = path.display().to_string();
    if !path.is_file() {
        return Err(OpenError::Missing(name));
    }
    // One connection per thread (rusqlite's Connection is not Sync): SQLite's own mutexes
    // would only cost time.
    let conn = connect(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    let sql = |e| OpenError::from_sqlite(&name, e);
    let app = pragma_i32(&conn, "application_id").map_err(sql)?;
    if app != APPLICATION_ID {
        return Err(OpenError::Foreign(name));
    }
    let version = pragma_i32(&conn, "user_version").map_err(sql)?;
    if version > SCHEMA_VERSION {
        return Err(OpenError::Newer {
            path: name,
            found: version,
            supported: SCHEMA_VERSION,
        });
    }
    if version < SCHEMA_VERSION {
        migrate(&conn, version).map_err(sql)?;
    }
    check_tables(&conn)
        .map_err(sql)?
        .then_some(())
        .ok_or_else(|| {
            OpenError::Corrupt(
                name.clone(),
                "its tables are not those of a rungs ladder".into(),
            )
        })?;
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(sql)?;
    finish_setup(&conn).map_err(sql)?;
    Ok(conn)
}

fn finish_setup(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // 64 MiB of page cache: imports and rebuilds write a lot at once.
    conn.pragma_update(None, "cache_size", -65536)?;
    Ok(())
}

/// Runs the migrations from `from` up to the current version, in one transaction.
fn migrate(conn: &Connection, from: i32) -> rusqlite::Result<()> {
    conn.execute_batch("BEGIN IMMEDIATE")?;
    let run = || -> rusqlite::Result<()> {
        for step in MIGRATIONS.iter().skip(from.max(0) as usize) {
            conn.execute_batch(step)?;
        }
        conn.pragma_update(None, "user_version", SCHEMA_VERSION)
    };
    match run() {
        Ok(()) => conn.execute_batch("COMMIT"),
        Err(e) => {
            let _ = conn.execute_batch("ROLLBACK");
            Err(e)
        }
    }
}

/// Whether every table a ladder needs is there.
fn check_tables(conn: &Connection) -> rusqlite::Result<bool> {
    let mut found = 0;
    let mut stmt = conn.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'")?;
    let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
    for name in names {
        if matches!(
            name?.as_str(),
            "meta" | "actions" | "entries" | "cache_ladder" | "cache_players" | "cache_history"
        ) {
            found += 1;
        }
    }
    Ok(found == 6)
}
