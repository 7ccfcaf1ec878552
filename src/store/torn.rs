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
/// that changes under it, or a log and caches that do not agree.
fn may_be_torn(e: &StoreError) -> bool {
    matches!(
        e,
        StoreError::Damaged { .. }
            | StoreError::Stale { .. }
            | StoreError::Sqlite { .. }
            | StoreError::Locked { .. }
            | StoreError::Log { .. }
            | StoreError::Open(OpenError::NotSqlite(_))
    )
}

/// `e`, or [`StoreError::ChangedWhileRead`] where the ladder at `path` changed since `before`
/// was noted and `e` may come of that.
pub(crate) fn judged(path: &Path, before: &Fingerprint, e: StoreError) -> StoreError {
    if may_be_torn(&e) && Fingerprint::of(path) != *before {
        StoreError::ChangedWhileRead {
            path: path.display().to_string(),
        }
    } else {
        e
    }
}
