//! The ladder file's schema, its versions, and the checks made before a file is trusted.
//!
//! A file is opened only if its whole schema — every table, index, trigger and view — is
//! exactly what this rungs creates for the file's format version. A file from elsewhere may
//! carry data, never behaviour: one with a trigger, a view or a table rungs did not create is
//! refused, saying what was found. The connection itself runs with triggers and views
//! switched off and the schema untrusted, so nothing a file carries can run in rungs'
//! transactions even for a moment.

use super::error::{OpenError, StoreError};
use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags};
use std::path::Path;
use std::sync::OnceLock;

/// `PRAGMA application_id` of a rungs ladder: "RUNG".
pub const APPLICATION_ID: i32 = 0x5255_4E47;
/// The format this build writes (`PRAGMA user_version`).
pub const SCHEMA_VERSION: i32 = 3;
/// How long to wait for another process's lock before giving up.
pub use super::error::BUSY_TIMEOUT;

/// Ladder format 1, as rungs wrote it before the log moved into blocks. Kept to recognise
/// such files exactly and upgrade them (see `migrate.rs`).
pub const VERSION_1_SQL: &str = r#"
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
"#;

/// The tables of format 1 that format 2 replaces (`meta` stays as it is).
pub const VERSION_1_REPLACED: &[&str] = &[
    "entries",
    "actions",
    "cache_ladder",
    "cache_players",
    "cache_history",
];

/// Ladder format 2: the tables `meta` keeps from format 1, and these.
const VERSION_2_TABLES: &str = r#"
-- Every user action, numbered 1, 2, 3, … in the order rungs wrote them: undo and redo fold
-- over the actions in this order. Undo and redo are actions too, so nothing is erased.
CREATE TABLE actions (
    id    INTEGER PRIMARY KEY CHECK (id > 0),
    kind  TEXT NOT NULL CHECK (kind IN ('do', 'undo', 'redo')),
    label TEXT NOT NULL,
    at    TEXT NOT NULL
) STRICT;

-- The append-only log, in blocks: rows first_seq .. first_seq + rows - 1, all written by one
-- action, packed as codec.rs describes.
CREATE TABLE log (
    first_seq INTEGER PRIMARY KEY CHECK (first_seq > 0),
    action    INTEGER NOT NULL REFERENCES actions(id),
    rows      INTEGER NOT NULL CHECK (rows > 0),
    data      BLOB NOT NULL
) STRICT;
CREATE INDEX log_action ON log(action);

-- Caches: derived from the log, rebuilt at will (`rungs repair`). The log they were derived
-- from: its last action and row, and digests of its actions and rows; a digest of the cached
-- states as rungs wrote them (digest.rs); and the replay key of the last event applied.
CREATE TABLE cache_ladder (
    id             INTEGER PRIMARY KEY CHECK (id = 1),
    log_action     INTEGER NOT NULL,
    log_seq        INTEGER NOT NULL,
    actions_digest INTEGER NOT NULL,
    rows_digest    INTEGER NOT NULL,
    caches_digest  INTEGER NOT NULL,
    last_day       INTEGER,
    last_seq       INTEGER,
    state          TEXT NOT NULL
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
"#;

/// What format 3 adds to format 2: the season archive in a table of its own. In format 2 it
/// lay in the ladder's cache row, so every change, even one that ended no season, read and
/// rewrote all of it (18 MB for 10,000 players over 13 seasons).
const VERSION_3_ADDED: &str = r#"
-- The season archive: each finished season, in the order the seasons ended (0, 1, 2, …).
CREATE TABLE cache_seasons (
    position INTEGER PRIMARY KEY CHECK (position >= 0),
    state    TEXT NOT NULL
) STRICT;
"#;

const META_SQL: &str = r#"
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
) STRICT;
"#;

/// Everything format 2 created on an empty file.
fn version_2_sql() -> String {
    format!("{META_SQL}{VERSION_2_TABLES}")
}

/// Everything the current format creates on an empty file.
pub fn current_sql() -> String {
    format!("{META_SQL}{}", current_tables())
}

/// What format 1 becomes in the current format: its `meta` stays; everything else is made
/// anew.
pub fn current_tables() -> String {
    format!("{VERSION_2_TABLES}{VERSION_3_ADDED}")
}

/// What format 2 lacks of the current format.
pub fn added_since_2() -> &'static str {
    VERSION_3_ADDED
}

/// One entry of `sqlite_schema`.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Item {
    kind: String,
    name: String,
    table: String,
    sql: Option<String>,
}

fn items(conn: &Connection) -> rusqlite::Result<Vec<Item>> {
    let mut stmt = conn.prepare("SELECT type, name, tbl_name, sql FROM sqlite_schema")?;
    let mut out: Vec<Item> = stmt
        .query_map([], |r| {
            Ok(Item {
                kind: r.get(0)?,
                name: r.get(1)?,
                table: r.get(2)?,
                sql: r.get(3)?,
            })
        })?
        .collect::<rusqlite::Result<_>>()?;
    out.sort();
    Ok(out)
}

/// Why this rungs has no schema to compare a file with: a format it does not know, or its own
/// schema's SQL failed to run in memory (a fault of this build, not of the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum ExpectedError {
    #[error("no schema for format {0}")]
    UnknownFormat(i32),
    #[error("{0}")]
    Sql(String),
}

/// The schema this rungs creates for format `version` (0: an empty file).
fn expected(version: i32) -> Result<&'static [Item], ExpectedError> {
    type Made = Result<Vec<Item>, ExpectedError>;
    static V1: OnceLock<Made> = OnceLock::new();
    static V2: OnceLock<Made> = OnceLock::new();
    static V3: OnceLock<Made> = OnceLock::new();
    let make = |sql: &str| -> Made {
        let sql_error = |e: rusqlite::Error| ExpectedError::Sql(e.to_string());
        let conn = Connection::open_in_memory().map_err(sql_error)?;
        conn.execute_batch(sql).map_err(sql_error)?;
        items(&conn).map_err(sql_error)
    };
    let cell = match version {
        0 => return Ok(&[]),
        1 => V1.get_or_init(|| make(VERSION_1_SQL)),
        2 => V2.get_or_init(|| make(&version_2_sql())),
        3 => V3.get_or_init(|| make(&current_sql())),
        _ => return Err(ExpectedError::UnknownFormat(version)),
    };
    cell.as_deref().map_err(Clone::clone)
}

fn describe(item: &Item) -> String {
    match item.kind.as_str() {
        "trigger" => format!("a trigger `{}` on `{}`", item.name, item.table),
        "view" => format!("a view `{}`", item.name),
        "index" => format!("an index `{}` on `{}`", item.name, item.table),
        "table" => format!("a table `{}`", item.name),
        other => format!("{other} `{}`", item.name),
    }
}

/// How the file's schema differs from format `version`'s, in words; `None` if it does not.
pub(crate) fn differences(
    conn: &Connection,
    version: i32,
) -> Result<Option<String>, StoreErrorKind> {
    let want = expected(version).map_err(StoreErrorKind::Internal)?;
    let found = items(conn).map_err(StoreErrorKind::Sqlite)?;
    let key = |i: &Item| (i.kind.clone(), i.name.clone());
    let mut what: Vec<String> = Vec::new();
    for f in &found {
        match want.iter().find(|w| key(w) == key(f)) {
            None => what.push(format!(
                "it holds {} that rungs did not create",
                describe(f)
            )),
            Some(w) if w != f => what.push(format!(
                "{} is not defined as rungs defines it",
                describe(f)
            )),
            Some(_) => {}
        }
    }
    for w in want {
        if !found.iter().any(|f| key(f) == key(w)) {
            what.push(format!("{} is missing", describe(w)));
        }
    }
    if what.is_empty() {
        return Ok(None);
    }
    let more = what.len().saturating_sub(4);
    what.truncate(4);
    if more > 0 {
        what.push(format!("and {more} more differences"));
    }
    Ok(Some(what.join("; ")))
}

/// What went wrong comparing schemas, before a path is put to it.
pub(crate) enum StoreErrorKind {
    Sqlite(rusqlite::Error),
    Internal(ExpectedError),
}

impl StoreErrorKind {
    pub(crate) fn at(self, path: &str) -> StoreError {
        match self {
            StoreErrorKind::Sqlite(e) => StoreError::from_sqlite(path, e),
            StoreErrorKind::Internal(m) => StoreError::Invalid(format!("{path}: {m}")),
        }
    }
}

/// Sets what every connection to a ladder gets: nothing a file carries may run.
fn configure(conn: &Connection) -> rusqlite::Result<()> {
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_DEFENSIVE, true)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_TRUSTED_SCHEMA, false)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_TRIGGER, false)?;
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_VIEW, false)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(())
}

/// Another connection to a ladder this process has open and may write, configured as the
/// first (for a second reader beside it: `rungs check`).
pub(crate) fn second_connection(path: &Path) -> rusqlite::Result<Connection> {
    connect(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
}

fn connect(path: &Path, flags: OpenFlags) -> rusqlite::Result<Connection> {
    let conn = Connection::open_with_flags(path, flags)?;
    configure(&conn)?;
    Ok(conn)
}

/// Whether this process may write `path`, by its effective ids. Asked of the kernel, not by
/// opening the file: closing any handle to a file releases every POSIX lock this process holds
/// on it, SQLite's included, and another process could then take a live WAL for abandoned.
#[cfg(unix)]
pub(crate) fn can_write(path: &Path) -> bool {
    use rustix::fs::{Access, AtFlags, CWD, accessat};
    accessat(CWD, path, Access::WRITE_OK, AtFlags::EACCESS).is_ok()
}

#[cfg(not(unix))]
pub(crate) fn can_write(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.permissions().readonly())
}

/// A `file:` URI for `path` that opens it immutable and read-only: what a ladder in a
/// read-only folder needs (no -shm can be made there, and nobody can write beside it). Every
/// byte outside plain ASCII is percent-encoded (a `Café.rungs` was mangled byte by byte).
fn immutable_uri(path: &Path) -> String {
    let mut uri = String::from("file:");
    #[cfg(unix)]
    let bytes = {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    };
    #[cfg(not(unix))]
    let bytes = path.display().to_string().into_bytes();
    for b in bytes {
        match b {
            b'?' | b'#' | b'%' | 0x80.. | ..=0x20 => uri.push_str(&format!("%{b:02X}")),
            _ => uri.push(b as char),
        }
    }
    uri.push_str("?immutable=1");
    uri
}

fn pragma_i32(conn: &Connection, name: &str) -> rusqlite::Result<i32> {
    conn.query_row(&format!("PRAGMA {name}"), [], |r| r.get(0))
}

fn sidecar(path: &Path, suffix: &str) -> std::path::PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    p.into()
}

/// What a reader that may not write the ladder makes of a rollback journal beside it (an
/// import writes through one): `None` without one, or when SQLite finds it no obstacle;
/// [`StoreError::LeftMidChange`] when it is hot — its writer stopped part way and only a
/// program that may write can put the ladder back (the immutable read the reader otherwise
/// makes would see the half-written file); [`StoreError::ChangedWhileRead`] while its
/// writer still runs (a moment later the change is done).
fn journal_left(path: &Path, name: &str) -> Option<StoreError> {
    let journal = sidecar(path, "-journal");
    if std::fs::metadata(&journal).map_or(true, |m| m.len() == 0) {
        return None;
    }
    let ro = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let read = Connection::open_with_flags(path, ro).and_then(|c| {
        c.query_row("SELECT count(*) FROM sqlite_master", [], |r| {
            r.get::<_, i64>(0)
        })
    });
    let e = read.err()?;
    let code = e.sqlite_error().map(|s| (s.code, s.extended_code));
    match code {
        Some((_, rusqlite::ffi::SQLITE_READONLY_ROLLBACK)) => Some(StoreError::LeftMidChange {
            path: name.to_string(),
        }),
        Some((rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked, _)) => {
            Some(StoreError::ChangedWhileRead {
                path: name.to_string(),
            })
        }
        _ => None,
    }
}

/// An open ladder file, checked.
pub(crate) struct Checked {
    pub conn: Connection,
    pub read_only: bool,
    /// `PRAGMA schema_version` when the schema was checked.
    pub cookie: i32,
    /// The file's format: [`SCHEMA_VERSION`], or an older one the store upgrades.
    pub version: i32,
}

/// Opens an existing ladder, checking it is one and its schema exactly this rungs' own for its
/// format (an older format is upgraded by the store, which needs to write). A file that cannot be written (or lies in a folder that cannot)
/// opens read-only.
pub(crate) fn open(path: &Path) -> Result<Checked, StoreError> {
    let name = path.display().to_string();
    let size = match std::fs::metadata(path) {
        Ok(m) if m.is_file() => m.len(),
        Ok(_) => return Err(OpenError::NotAFile(name).into()),
        Err(_) => return Err(OpenError::Missing(name).into()),
    };
    if size == 0 {
        return Err(OpenError::Empty(name).into());
    }
    let sql = |e| StoreError::from_sqlite(&name, e);
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    // A file this process cannot write is opened as the read-only folder's is: SQLite would
    // otherwise make a -shm and a -wal beside it with the file's read-only mode, and they kept
    // the ladder unwritable after its mode was restored. A -wal holding changes must be read.
    let writable = can_write(path);
    if !writable && let Some(e) = journal_left(path, &name) {
        return Err(e);
    }
    let first = if writable || sidecar(path, "-wal").exists() {
        connect(path, flags)
    } else {
        let ro = OpenFlags::SQLITE_OPEN_READ_ONLY
            | OpenFlags::SQLITE_OPEN_URI
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        connect(Path::new(&immutable_uri(path)), ro)
    }
    .and_then(|c| pragma_i32(&c, "application_id").map(|a| (c, a)));
    let (conn, app) = match first {
        Ok(found) => found,
        Err(e) => {
            let code = e.sqlite_error_code();
            let retry = !matches!(
                code,
                Some(rusqlite::ErrorCode::NotADatabase)
                    | Some(rusqlite::ErrorCode::DatabaseCorrupt)
                    | Some(rusqlite::ErrorCode::DatabaseBusy)
                    | Some(rusqlite::ErrorCode::DatabaseLocked)
            ) && !sidecar(path, "-wal").exists();
            if !retry {
                return Err(sql(e));
            }
            // A read-only folder: no -shm can be made for a WAL file. Nobody can write there
            // either, so the file can be read as it is.
            let ro = OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX;
            match connect(Path::new(&immutable_uri(path)), ro)
                .and_then(|c| pragma_i32(&c, "application_id").map(|a| (c, a)))
            {
                Ok(found) => found,
                Err(_) => return Err(sql(e)),
            }
        }
    };
    let read_only = conn.is_readonly(rusqlite::MAIN_DB).map_err(sql)?;
    if app != APPLICATION_ID {
        return Err(OpenError::Foreign(name).into());
    }
    let version = pragma_i32(&conn, "user_version").map_err(sql)?;
    if version > SCHEMA_VERSION {
        return Err(OpenError::Newer {
            path: name,
            found: version,
            supported: SCHEMA_VERSION,
        }
        .into());
    }
    if version < 0 {
        return Err(OpenError::NoSuchFormat {
            path: name,
            found: version,
        }
        .into());
    }
    if version == 0 {
        // Format 0 is a file rungs began and never finished: empty. Tables under it mean the
        // format number was changed or lost.
        return match differences(&conn, 0).map_err(|e| e.at(&name))? {
            None => Err(OpenError::Unfinished(name).into()),
            Some(_) => Err(StoreError::Damaged {
                path: name,
                what: "its format number is 0 (none), yet it holds tables: the number was \
                       changed or lost"
                    .into(),
            }),
        };
    }
    check(&conn, &name, version)?;
    // Format 2 differs in where its caches keep the season archive, which the store reads
    // either way; format 1's log must be rewritten to be read.
    if version < 2 && read_only {
        return Err(OpenError::NeedsUpgrade {
            path: name,
            found: version,
            to: SCHEMA_VERSION,
        }
        .into());
    }
    if !read_only {
        let mode: String = conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .map_err(sql)?;
        if !mode.eq_ignore_ascii_case("wal") {
            super::journal::back_to_wal(&conn).map_err(sql)?;
        }
    }
    finish_setup(&conn).map_err(sql)?;
    let cookie = pragma_i32(&conn, "schema_version").map_err(sql)?;
    Ok(Checked {
        conn,
        read_only,
        cookie,
        version,
    })
}

/// Refuses a schema that is not exactly format `version`'s.
pub(crate) fn check(conn: &Connection, name: &str, version: i32) -> Result<(), StoreError> {
    match differences(conn, version).map_err(|e| e.at(name))? {
        None => Ok(()),
        Some(found) => Err(OpenError::Schema {
            path: name.to_string(),
            version,
            found,
        }
        .into()),
    }
}

/// Makes an empty ladder of the current format in `path`, an empty file this process just
/// created (see `newfile.rs`). Written without a journal on disk and without syncing: until
/// it is renamed into place nobody else knows of it, and a failure removes it.
pub(crate) fn create_in(path: &Path, name: &str) -> Result<Connection, StoreError> {
    let sql = |e| StoreError::from_sqlite(name, e);
    let conn = connect(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(sql)?;
    conn.pragma_update(None, "journal_mode", "MEMORY")
        .map_err(sql)?;
    conn.pragma_update(None, "synchronous", "OFF")
        .map_err(sql)?;
    conn.pragma_update(None, "application_id", APPLICATION_ID)
        .map_err(sql)?;
    conn.execute_batch("BEGIN IMMEDIATE").map_err(sql)?;
    let made = conn
        .execute_batch(&current_sql())
        .and_then(|()| conn.pragma_update(None, "user_version", SCHEMA_VERSION))
        .and_then(|()| conn.execute_batch("COMMIT"));
    if let Err(e) = made {
        let _ = conn.execute_batch("ROLLBACK");
        return Err(sql(e));
    }
    conn.pragma_update(None, "foreign_keys", "ON")
        .map_err(sql)?;
    conn.pragma_update(None, "cache_size", -32768)
        .map_err(sql)?;
    Ok(conn)
}

/// Turns a newly made ladder into one at rest: write-ahead logging, synced writes.
pub(crate) fn settle(conn: &Connection, name: &str) -> Result<(), StoreError> {
    let sql = |e| StoreError::from_sqlite(name, e);
    conn.pragma_update(None, "journal_mode", "WAL")
        .map_err(sql)?;
    conn.pragma_update(None, "synchronous", "FULL").map_err(sql)
}

fn finish_setup(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // FULL: a change reported saved survives a power cut too (NORMAL may lose the last
    // commits then, though never the file).
    conn.pragma_update(None, "synchronous", "FULL")?;
    // 32 MiB of page cache: imports and rebuilds write a lot at once.
    conn.pragma_update(None, "cache_size", -32768)?;
    Ok(())
}

/// The schema cookie now.
pub(crate) fn cookie(conn: &Connection) -> rusqlite::Result<i32> {
    pragma_i32(conn, "schema_version")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_2_keeps_format_1_meta_table_and_replaces_the_rest() {
        let v1 = expected(1).unwrap();
        let v2 = expected(2).unwrap();
        let meta = |items: &[Item]| -> Vec<Item> {
            items
                .iter()
                .filter(|i| i.table == "meta")
                .cloned()
                .collect()
        };
        assert_eq!(meta(v1), meta(v2));
        assert_eq!(meta(v1).len(), 2, "the table and its primary key index");
        for table in VERSION_1_REPLACED {
            assert!(v1.iter().any(|i| i.name == *table), "{table}");
        }
        let tables_1: Vec<&str> = v1
            .iter()
            .filter(|i| i.kind == "table" && i.name != "meta")
            .map(|i| i.name.as_str())
            .collect();
        assert_eq!(tables_1.len(), VERSION_1_REPLACED.len());
    }

    #[test]
    fn immutable_uris_escape_what_a_uri_reads() {
        assert_eq!(
            immutable_uri(Path::new("/a b/c?d#e%f.rungs")),
            "file:/a%20b/c%3Fd%23e%25f.rungs?immutable=1"
        );
        // UTF-8 byte by byte: é is C3 A9 (it was sent as two characters, Ã and ©).
        assert_eq!(
            immutable_uri(Path::new("/Café.rungs")),
            "file:/Caf%C3%A9.rungs?immutable=1"
        );
    }
}
