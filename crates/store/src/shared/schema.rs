//! The server's tables, version 1: plain SQL (no extension, no stored procedure, no trigger),
//! so that any PostgreSQL-compatible database can hold them. Written out in
//! `docs/shared-schema.md` for a federation's database administrator.
//!
//! - `rungs_schema`: one row, the schema's version. A database of a newer version is refused.
//! - `rungs_ladders`: one row a ladder: its name, the rules it was created with (JSON), and its
//!   head, the number of its last action (every append moves it under a row lock, which is what
//!   makes two organisers' appends take turns).
//! - `rungs_actions`: the append-only log: per ladder actions 1, 2, 3, … (`seq`), each with a
//!   change id the whole table keeps unique (a change sent twice lands once), its kind (`do`,
//!   `undo`, `redo`), for an undo or a redo the action it takes back or does again, its label,
//!   its rows as a JSON array of log rows (the JSON Lines export's row form), who appended it
//!   and when.

use super::error::SharedError;

/// The schema version this rungs writes and reads.
pub const VERSION: i32 = 1;

/// The tables, made if missing.
pub const TABLES: &str = "
CREATE TABLE IF NOT EXISTS rungs_schema (
    version integer NOT NULL
);
CREATE TABLE IF NOT EXISTS rungs_ladders (
    name text PRIMARY KEY,
    rules text NOT NULL,
    head bigint NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS rungs_actions (
    ladder text NOT NULL REFERENCES rungs_ladders(name),
    seq bigint NOT NULL,
    change_id text NOT NULL UNIQUE,
    kind text NOT NULL CHECK (kind IN ('do', 'undo', 'redo')),
    target bigint,
    label text NOT NULL,
    rows text NOT NULL,
    author text NOT NULL DEFAULT current_user,
    at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (ladder, seq)
);
";

/// Makes the tables where they are missing and records the version; refuses a database whose
/// tables are of another version.
pub fn install(client: &mut postgres::Client, place: &str) -> Result<(), SharedError> {
    let mut tx = client
        .transaction()
        .map_err(|e| SharedError::from_pg(place, e))?;
    // Two first organisers at once make the tables once.
    tx.execute("SELECT pg_advisory_xact_lock(7272001)", &[])
        .map_err(|e| SharedError::from_pg(place, e))?;
    tx.batch_execute(TABLES)
        .map_err(|e| SharedError::from_pg(place, e))?;
    let rows = tx
        .query("SELECT version FROM rungs_schema", &[])
        .map_err(|e| SharedError::from_pg(place, e))?;
    if rows.is_empty() {
        tx.execute("INSERT INTO rungs_schema(version) VALUES ($1)", &[&VERSION])
            .map_err(|e| SharedError::from_pg(place, e))?;
    }
    tx.commit().map_err(|e| SharedError::from_pg(place, e))?;
    check(client, place)
}

/// Refuses a database without rungs' tables, or with tables of another version.
pub fn check(client: &mut postgres::Client, place: &str) -> Result<(), SharedError> {
    let exists: Option<String> = client
        .query_one("SELECT to_regclass('rungs_schema')::text", &[])
        .map_err(|e| SharedError::from_pg(place, e))?
        .get(0);
    if exists.is_none() {
        return Err(SharedError::NoLadder {
            place: place.into(),
        });
    }
    let versions: Vec<i32> = client
        .query("SELECT version FROM rungs_schema", &[])
        .map_err(|e| SharedError::from_pg(place, e))?
        .iter()
        .map(|r| r.get(0))
        .collect();
    match versions.as_slice() {
        [v] if *v == VERSION => Ok(()),
        [v] => Err(SharedError::SchemaVersion {
            place: place.into(),
            found: v.to_string(),
            supported: VERSION,
        }),
        more => Err(SharedError::SchemaVersion {
            place: place.into(),
            found: format!("{} rows where one belongs", more.len()),
            supported: VERSION,
        }),
    }
}
