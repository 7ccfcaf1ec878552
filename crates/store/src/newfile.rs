//! A new ladder file appears only once it is complete. It is made under a hidden temporary
//! name in the same folder (`.NAME.PID-N.rungs-new`), filled (an empty ladder, an imported
//! log, a simulation), switched to its resting journal mode, closed, synced, and only then
//! linked into place under its name — which fails, leaving nothing, if the name was taken
//! meanwhile. A failure removes the temporary file; a process killed part way leaves only the
//! hidden file, which the next new ladder made in that folder under the same name removes
//! (the maker holds a lock on it while it works, so a live one is never taken for dead).
//! Either way the name stays free: no half-made or 0-byte file blocks a retry.

use super::Store;
use super::error::{OpenError, Result, StoreError};
use super::schema;
use rungs_ladder::rules::Rules;
use std::ffi::OsString;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

const SUFFIX: &str = ".rungs-new";
/// SQLite's files beside a database: the write-ahead log, its index, the rollback journal.
pub const SIDECARS: [&str; 3] = ["-wal", "-shm", "-journal"];

/// A ladder being made; [`NewLadder::finish`] puts it in place, dropping it removes it.
pub struct NewLadder {
    store: Option<Store>,
    target: PathBuf,
    temp: PathBuf,
    /// The temporary file, locked while this process works on it.
    lock: Option<File>,
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p: OsString = path.as_os_str().to_owned();
    p.push(suffix);
    p.into()
}

fn remove_with_sidecars(path: &Path) {
    let _ = std::fs::remove_file(path);
    for s in SIDECARS {
        let _ = std::fs::remove_file(with_suffix(path, s));
    }
}

/// Removes what killed writers of `name` left in `dir`: the temporary files `.{name}.…{suffix}`
/// nobody holds a lock on (each writer holds one on its own until it is done), each taken away
/// by `remove`. New ladders and exports are both written this way.
pub fn sweep_unlocked(dir: &Path, name: &str, suffix: &str, remove: impl Fn(&Path)) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let prefix = format!(".{name}.");
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some(file) = file.to_str() else {
            continue;
        };
        if !(file.starts_with(&prefix) && file.ends_with(suffix)) {
            continue;
        }
        let path = entry.path();
        let Ok(f) = OpenOptions::new().read(true).write(true).open(&path) else {
            continue;
        };
        if f.try_lock().is_ok() {
            drop(f);
            remove(&path);
        }
    }
}

impl NewLadder {
    /// Starts a new ladder at `target` (which must not exist) running `rules`.
    pub fn begin(target: &Path, rules: &Rules) -> Result<NewLadder> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let name = target.display().to_string();
        if std::fs::symlink_metadata(target).is_ok() {
            return Err(OpenError::Exists(name).into());
        }
        let file_name = target
            .file_name()
            .and_then(|f| f.to_str())
            .ok_or_else(|| OpenError::Create {
                path: name.clone(),
                cause: std::io::Error::other("not a file name"),
            })?
            .to_string();
        let dir = match target.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        sweep_unlocked(&dir, &file_name, SUFFIX, remove_with_sidecars);
        let temp = dir.join(format!(
            ".{file_name}.{}-{}{SUFFIX}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let create = |cause| OpenError::Create {
            path: name.clone(),
            cause,
        };
        let lock = OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&temp)
            .map_err(create)?;
        // Where locks are not supported the file is simply not swept while in use.
        let _ = lock.try_lock();
        let mut made = NewLadder {
            store: None,
            target: target.to_path_buf(),
            temp,
            lock: Some(lock),
        };
        let conn = schema::create_in(&made.temp, &name)?;
        let mut store = Store::fresh(conn, target)?;
        store.init(rules)?;
        made.store = Some(store);
        Ok(made)
    }

    /// The ladder being made, to fill.
    pub fn store(&mut self) -> Result<&mut Store> {
        let name = self.target.display().to_string();
        self.store
            .as_mut()
            .ok_or_else(|| StoreError::Invalid(format!("{name}: the new ladder is closed already")))
    }

    /// Puts the complete ladder in place under its name and opens it there.
    pub fn finish(mut self) -> Result<Store> {
        let name = self.target.display().to_string();
        let io = |cause| {
            StoreError::from(OpenError::Create {
                path: name.clone(),
                cause,
            })
        };
        if let Some(store) = self.store.take() {
            schema::settle(&store.conn, &name)?;
            store
                .conn
                .close()
                .map_err(|(_, e)| StoreError::from_sqlite(&name, e))?;
        }
        // Everything is checkpointed into the file on close; nothing may be left beside it.
        if SIDECARS
            .iter()
            .any(|s| std::fs::metadata(with_suffix(&self.temp, s)).is_ok_and(|m| m.len() > 0))
        {
            return Err(io(std::io::Error::other(
                "the new ladder's journal was not emptied",
            )));
        }
        if let Some(lock) = &self.lock {
            lock.sync_all().map_err(io)?;
        }
        // A -wal or -shm of a file that does not exist belongs to no ladder; left there, it
        // would be taken for this one's.
        if std::fs::symlink_metadata(&self.target).is_err() {
            for s in SIDECARS {
                let _ = std::fs::remove_file(with_suffix(&self.target, s));
            }
        }
        // A hard link never replaces a file that appeared meanwhile; where links are not
        // supported, a rename after looking.
        match std::fs::hard_link(&self.temp, &self.target) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                return Err(OpenError::Exists(name).into());
            }
            Err(_) if std::fs::symlink_metadata(&self.target).is_ok() => {
                return Err(OpenError::Exists(name).into());
            }
            Err(_) => std::fs::rename(&self.temp, &self.target).map_err(io)?,
        }
        remove_with_sidecars(&self.temp);
        if let Some(dir) = self.target.parent().filter(|p| !p.as_os_str().is_empty())
            && let Ok(d) = File::open(dir)
        {
            let _ = d.sync_all();
        }
        self.lock = None;
        // The file under its name is the one just linked there. If it cannot be opened (a
        // full disk has no room for its journal), it goes again: the error is the whole
        // outcome, and a retry finds the name free.
        Store::open(&self.target).inspect_err(|_| remove_with_sidecars(&self.target))
    }
}

impl Drop for NewLadder {
    fn drop(&mut self) {
        // Closed first: the connection's file goes with it.
        self.store = None;
        self.lock = None;
        remove_with_sidecars(&self.temp);
    }
}

impl Store {
    /// Creates a new ladder file running `rules`. The file appears only once it is complete
    /// (see [`NewLadder`]).
    pub fn create(path: &Path, rules: &rungs_ladder::rules::Rules) -> Result<Store> {
        NewLadder::begin(path, rules)?.finish()
    }
}
