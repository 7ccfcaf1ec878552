//! Reading a ladder this process may not write while another program writes it. Such a
//! reader cannot take part in SQLite's locking (it can make no `-shm`, so it reads the file as
//! it lies), and a commit's checkpoint may rewrite pages under it: what it read may be torn,
//! and SQLite then calls a sound file "malformed". So the file's identity, size and times, and
//! its `-wal`'s, are noted before the read; an error met while they moved is no verdict on the
//! file but [`StoreError::ChangedWhileRead`], and reading again gives the whole of it.

use super::error::{OpenError, StoreError};
use std::path::Path;

/// What a write to the ladder changes: the file's and its `-wal`'s size and times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Fingerprint {
    file: Option<Marks>,
    wal: Option<Marks>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Marks {
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

fn marks(path: &Path) -> Option<Marks> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(path).ok()?;
    Some(Marks {
        ino: m.ino(),
        size: m.size(),
        mtime: (m.mtime(), m.mtime_nsec()),
        ctime: (m.ctime(), m.ctime_nsec()),
    })
}

impl Fingerprint {
    pub(crate) fn of(path: &Path) -> Fingerprint {
        let mut wal = path.as_os_str().to_owned();
        wal.push("-wal");
        Fingerprint {
            file: marks(path),
            wal: marks(Path::new(&wal)),
        }
    }
}

/// Whether `e` may come of a read torn by another program's write: what SQLite says of a file
/// that changes under it (a `-wal` it cannot recover without writing says "read-only"), or a
/// log and caches that do not agree.
fn may_be_torn(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Damaged { .. }
            | StoreError::Stale { .. }
            | StoreError::Sqlite { .. }
            | StoreError::Locked { .. }
            | StoreError::ReadOnly(_)
            | StoreError::Log { .. }
            | StoreError::Open(OpenError::NotSqlite(_))
    )
}

/// Whether `e` is what a reader that may not write meets while a writer holds the ladder's
/// `-wal` in a state only the writer can use (SQLite cannot open its `-shm` for the reader, or
/// says it would have to write): a moment later it reads.
fn writer_holds_the_wal(path: &Path, e: &StoreError) -> bool {
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let transient = match e {
        StoreError::Sqlite { cause, .. } => {
            cause.sqlite_error_code() == Some(rusqlite::ErrorCode::CannotOpen)
        }
        StoreError::ReadOnly(_) => true,
        _ => false,
    };
    transient && Path::new(&wal).exists() && !super::schema::can_write(path)
}

/// `e`, or [`StoreError::ChangedWhileRead`] where the ladder at `path` changed since `before`
/// was noted and `e` may come of that, or a writer holds its `-wal`.
pub(crate) fn judged(path: &Path, before: &Fingerprint, e: StoreError) -> StoreError {
    if may_be_torn(&e) && (Fingerprint::of(path) != *before || writer_holds_the_wal(path, &e)) {
        StoreError::ChangedWhileRead {
            path: path.display().to_string(),
        }
    } else {
        e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A malformed read is no verdict while the file moved under it; with the file as it was,
    /// it is what SQLite said.
    #[test]
    fn an_error_met_while_the_file_moved_is_a_torn_read() {
        let tmp = rungs_testkit::TempDir::new("torn");
        let dir = tmp.path();
        let path = dir.join("club.rungs");
        std::fs::write(&path, b"SQLite format 3\0").unwrap();
        let damaged = || StoreError::Damaged {
            path: "club.rungs".into(),
            what: "database disk image is malformed".into(),
        };
        let before = Fingerprint::of(&path);
        assert!(matches!(
            judged(&path, &before, damaged()),
            StoreError::Damaged { .. }
        ));
        // Another program's checkpoint: the file grows (its times move too, but a size is
        // enough here); then its -wal appears.
        std::fs::write(&path, b"SQLite format 3\0 and a page more").unwrap();
        assert!(matches!(
            judged(&path, &before, damaged()),
            StoreError::ChangedWhileRead { .. }
        ));
        let now = Fingerprint::of(&path);
        std::fs::write(dir.join("club.rungs-wal"), b"frames").unwrap();
        assert!(matches!(
            judged(&path, &now, damaged()),
            StoreError::ChangedWhileRead { .. }
        ));
        // An error that is no read's (the disk is full) is never recast.
        let full = judged(&path, &before, StoreError::DiskFull("club.rungs".into()));
        assert!(matches!(full, StoreError::DiskFull(_)));
    }
}
