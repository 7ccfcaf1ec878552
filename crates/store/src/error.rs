//! What goes wrong with a ladder file, in one place: the errors of opening and creating one
//! ([`OpenError`]) and of every action on it ([`StoreError`]).

use rungs_ladder::log::DanglingCorrection;
use rungs_ladder::replay::ReplayError;
use std::time::Duration;

/// How long to wait for another process's lock before giving up.
pub const BUSY_TIMEOUT: Duration = Duration::from_millis(2000);

/// Why a file cannot be used as a ladder, found when opening or creating it.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error("{0}: no such ladder file")]
    Missing(String),
    #[error("{0}: already exists; choose another name or delete it first")]
    Exists(String),
    #[error("{0}: not a rungs ladder (not an SQLite database)")]
    NotSqlite(String),
    #[error("{0}: not a rungs ladder (an empty file)")]
    Empty(String),
    #[error("{0}: not a rungs ladder (a folder or a device, not a file)")]
    NotAFile(String),
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
    #[error("{path}: not a rungs ladder (its format number {found} is none that rungs writes)")]
    NoSuchFormat { path: String, found: i32 },
    #[error(
        "{0}: an unfinished ladder (rungs was stopped while creating it, before it held anything); delete it and create it again"
    )]
    Unfinished(String),
    #[error(
        "{path}: ladder format {found} is upgraded to format {to} when opened, and the file or its folder is read-only; make it writable, or copy it somewhere writable, and open it again"
    )]
    NeedsUpgrade { path: String, found: i32, to: i32 },
    #[error(
        "{path}: not a ladder as rungs writes it (ladder format {version}): {found}; a ladder file carries data, never behaviour, so rungs does not open it"
    )]
    Schema {
        path: String,
        version: i32,
        found: String,
    },
    #[error("{path}: cannot create the ladder: {cause}")]
    Create { path: String, cause: std::io::Error },
}

/// Anything that stops a ladder action. Nothing is changed when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error(transparent)]
    Open(#[from] OpenError),
    /// SQLite failed in a way none of the variants below names.
    #[error("{path}: SQLite failed: {cause}")]
    Sqlite {
        path: String,
        cause: rusqlite::Error,
    },
    #[error(
        "{path}: locked by another program (waited {waited} s); try again when it has finished"
    )]
    Locked { path: String, waited: u64 },
    #[error("{0}: read-only (the file or its folder cannot be written); nothing was changed")]
    ReadOnly(String),
    #[error("{0}: the disk is full; nothing was changed")]
    DiskFull(String),
    /// The file is damaged: SQLite found it corrupt, or the log or a cache does not read.
    #[error("{path}: damaged ladder file: {what}")]
    Damaged { path: String, what: String },
    /// The caches are not those of the log as it is now: another program changed the log (or
    /// the caches). [`Store::repair`](crate::Store::repair) rebuilds them from the log.
    #[error(
        "{path}: its caches are not those of its log ({why}); rungs does not show what it cannot trust: run `rungs repair {path}` to rebuild them from the log"
    )]
    Stale { path: String, why: String },
    /// Another program (or another window) changed the ladder between this one's reading it
    /// and its change: the change was built from what is no longer so.
    #[error(
        "{path}: another program changed the ladder after rungs read it (its log now ends at \
         action {now}, not {read}); nothing was changed — look at it again and redo the change"
    )]
    ChangedMeanwhile { path: String, read: i64, now: i64 },
    /// This process may not write the ladder, so it reads it without SQLite's locks, and
    /// another program wrote it meanwhile: what was read may be torn. The file is sound.
    #[error(
        "{path}: another program was writing the ladder while rungs read it, and rungs, which \
         may not write this file, cannot hold the writer back; nothing is wrong with the file — \
         try again in a moment"
    )]
    ChangedWhileRead { path: String },
    /// A program writing the ladder through its rollback journal (an import) stopped part
    /// way, and this process, which may not write the file, cannot put it back: the next
    /// program to open it with write access does.
    #[error(
        "{path}: a program writing the ladder stopped part way through (an import killed while \
         it wrote, most likely); its journal beside the file holds what puts the ladder back as \
         it was before that change, and rungs, which may not write this file, cannot apply it — \
         open the ladder once with write access (its owner running any rungs command on it) and \
         it is restored, without the unfinished change"
    )]
    LeftMidChange { path: String },
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

impl StoreError {
    /// Classifies an SQLite error met while using `path`.
    pub fn from_sqlite(path: &str, e: rusqlite::Error) -> StoreError {
        use rusqlite::ErrorCode;
        let path = path.to_string();
        match e.sqlite_error_code() {
            Some(ErrorCode::NotADatabase) => OpenError::NotSqlite(path).into(),
            Some(ErrorCode::DatabaseBusy) | Some(ErrorCode::DatabaseLocked) => StoreError::Locked {
                path,
                waited: BUSY_TIMEOUT.as_secs(),
            },
            Some(ErrorCode::DatabaseCorrupt) => StoreError::Damaged {
                path,
                what: e.to_string(),
            },
            Some(ErrorCode::ReadOnly) => StoreError::ReadOnly(path),
            Some(ErrorCode::DiskFull) => StoreError::DiskFull(path),
            _ => StoreError::Sqlite { path, cause: e },
        }
    }

    /// Whether this is [`StoreError::Stale`]: the file is sound but its caches must be rebuilt
    /// from its log ([`Store::repair`](crate::Store::repair)) before it is shown.
    pub fn is_stale(&self) -> bool {
        matches!(self, StoreError::Stale { .. })
    }

    /// Whether this is [`StoreError::ChangedMeanwhile`]: nothing was written, and the same
    /// change built again from the ladder as it is now may land.
    pub fn is_changed_meanwhile(&self) -> bool {
        matches!(
            self,
            StoreError::ChangedMeanwhile { .. } | StoreError::ChangedWhileRead { .. }
        )
    }
}

pub type Result<T> = std::result::Result<T, StoreError>;
