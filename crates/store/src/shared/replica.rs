//! This machine's replica of a shared ladder: an ordinary ladder file in the user's cache
//! directory (`~/.cache/rungs/shared/<ladder>-<hash>.rungs`), and beside it `…rungs.sync`,
//! what the replica holds of the server's log: `base`, the last server action it holds (its
//! actions 1..=base are the server's), and the changes made here that wait for the server, in
//! full and each under its change id. Those changes are also the replica's actions after
//! `base`, so that everything local reads them; the `.sync` file is what survives a replica
//! made again from the server.
//!
//! One process at a time works on a replica: `…rungs.lock` is held (an advisory lock the
//! system drops with the process, killed or not) from opening the ladder to the last
//! exchange with the server.

use super::error::SharedError;
use super::server::NewAction;
use super::url::LadderUrl;
use crate::codec::Rows;
use crate::export::ActionKind;
use crate::log::stacks;
use crate::{Result, Store};
use rungs_ladder::event::LogRow;
use std::fs::File;
use std::path::{Path, PathBuf};

/// What the replica holds of the server's log (the `.sync` file).
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SyncState {
    /// The server's last action the replica holds.
    pub base: i64,
    /// Changes made here, waiting for the server, in the order they were made.
    pub pending: Vec<NewAction>,
    /// Whether the role may write, as the server said last (offline, it decides).
    #[serde(default)]
    pub writer: Option<bool>,
}

/// A change made on the replica, read back from it.
pub type LocalAction = NewAction;

/// A replica, locked for this process.
pub struct Replica {
    pub path: PathBuf,
    _lock: File,
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut os = path.as_os_str().to_owned();
    os.push(suffix);
    PathBuf::from(os)
}

/// The folder replicas live in: `RUNGS_CACHE_DIR` if set (tests give each "machine" its
/// own), else the user's cache directory's `rungs/shared`.
pub fn replicas_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("RUNGS_CACHE_DIR") {
        return PathBuf::from(dir).join("shared");
    }
    directories::ProjectDirs::from("", "", "rungs")
        .map(|d| d.cache_dir().join("shared"))
        .unwrap_or_else(|| std::env::temp_dir().join("rungs-shared"))
}

impl Replica {
    /// The replica of `url`'s ladder, locked (waiting for another rungs on it to finish).
    pub fn lock(url: &LadderUrl) -> std::result::Result<Replica, SharedError> {
        let dir = replicas_dir();
        let io = |what: &str, e: std::io::Error| SharedError::Server {
            place: url.shown.clone(),
            message: format!("the replica's folder {}: {what}: {e}", dir.display()),
        };
        std::fs::create_dir_all(&dir).map_err(|e| io("cannot be made", e))?;
        let path = dir.join(format!("{}.rungs", url.replica_name()));
        let lock = File::options()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(with_suffix(&path, ".lock"))
            .map_err(|e| io("cannot be locked", e))?;
        lock.lock().map_err(|e| io("cannot be locked", e))?;
        Ok(Replica { path, _lock: lock })
    }

    /// Whether the replica file exists (it was pulled once).
    pub fn exists(&self) -> bool {
        self.path.exists()
    }

    fn state_path(&self) -> PathBuf {
        with_suffix(&self.path, ".sync")
    }

    /// What the replica holds of the server's log; the default for a replica never pulled.
    pub fn state(&self) -> std::result::Result<SyncState, SharedError> {
        match std::fs::read_to_string(self.state_path()) {
            Ok(text) => serde_json::from_str(&text).map_err(|e| SharedError::Server {
                place: self.path.display().to_string(),
                message: format!(
                    "its .sync file does not read ({e}); delete the replica to pull it again"
                ),
            }),
            Err(_) => Ok(SyncState::default()),
        }
    }

    /// Writes the state whole under a temporary name and renames it into place: a kill
    /// leaves the old state or the new one.
    pub fn save(&self, state: &SyncState) -> std::result::Result<(), SharedError> {
        let io = |e: std::io::Error| SharedError::Server {
            place: self.path.display().to_string(),
            message: format!("its .sync file cannot be written: {e}"),
        };
        let text = serde_json::to_string(state).map_err(|e| io(std::io::Error::other(e)))?;
        let temp = with_suffix(&self.path, ".sync.new");
        {
            use std::io::Write;
            let mut f = File::create(&temp).map_err(io)?;
            f.write_all(text.as_bytes()).map_err(io)?;
            f.sync_all().map_err(io)?;
        }
        std::fs::rename(&temp, self.state_path()).map_err(io)
    }

    /// Takes the replica file away (with SQLite's own side files), to be pulled again.
    pub fn remove_file(&self) {
        let _ = std::fs::remove_file(&self.path);
        for s in crate::newfile::SIDECARS {
            let _ = std::fs::remove_file(with_suffix(&self.path, s));
        }
    }
}

impl Store {
    /// Opens a replica for what a sync reads (its last action and row, the actions after
    /// one): its schema checked, its caches not compared with its log, which costs a pass
    /// over the whole log. What reads or changes the ladder opens it with [`Store::open`].
    pub fn open_for_sync(path: &Path) -> Result<Store> {
        Store::open_unchecked(path)
    }

    /// The actions after action `after`, with their rows and, for an undo or a redo, the
    /// action it toggled: the changes made on a replica since it last met the server.
    pub fn actions_since(&self, after: i64) -> Result<Vec<LocalAction>> {
        let kinds = self.action_kinds(&self.conn)?;
        let listed = self.actions_after(after)?;
        let mut found: Vec<LocalAction> = Vec::with_capacity(listed.len());
        for (id, kind, label) in listed {
            let kind = ActionKind::parse(&kind)
                .ok_or_else(|| self.damaged(format!("action {id} is of unknown kind `{kind}`")))?;
            let before = kinds.get(..(id - 1).max(0) as usize).unwrap_or(&[]);
            let (done, undone) = stacks(before);
            let target = match kind {
                ActionKind::Do => None,
                ActionKind::Undo => done.last().copied(),
                ActionKind::Redo => undone.last().copied(),
            };
            found.push(NewAction {
                change_id: String::new(),
                kind,
                target,
                label,
                rows: Vec::new(),
            });
        }
        if found.is_empty() {
            return Ok(found);
        }
        // Newest blocks first, back to the first action asked for.
        let mut blocks: Vec<(i64, Vec<LogRow>)> = Vec::new();
        self.blocks(&self.conn, true, |block| {
            if block.action <= after {
                return Ok(false);
            }
            let mut rows: Rows<'_> = block.rows();
            let mut these = Vec::new();
            for row in rows.by_ref() {
                these.push(
                    row.and_then(|r| r.to_log_row())
                        .map_err(|e| self.damaged(format!("its log: {e}")))?,
                );
            }
            rows.finish()
                .map_err(|e| self.damaged(format!("its log: {e}")))?;
            blocks.push((block.action, these));
            Ok(true)
        })?;
        for (action, rows) in blocks.into_iter().rev() {
            if let Some(a) = usize::try_from(action - after - 1)
                .ok()
                .and_then(|i| found.get_mut(i))
            {
                a.rows.extend(rows);
            }
        }
        Ok(found)
    }

    /// The action an undo (or a redo) would take back (or do again) now.
    pub fn toggle_target(&self, kind: ActionKind) -> Result<Option<i64>> {
        let (done, undone) = stacks(&self.action_kinds(&self.conn)?);
        Ok(match kind {
            ActionKind::Undo => done.last().copied(),
            _ => undone.last().copied(),
        })
    }

    /// The number of the last action (one indexed look-up, not the whole actions table).
    pub fn last_action(&self) -> Result<i64> {
        self.conn
            .query_row("SELECT COALESCE(MAX(id), 0) FROM actions", [], |r| r.get(0))
            .map_err(|e| self.sql(e))
    }

    /// The number of the last log row (the last block's end, not a pass over the log).
    pub fn last_row(&self) -> Result<i64> {
        use rusqlite::OptionalExtension;
        self.conn
            .query_row(
                "SELECT first_seq + rows - 1 FROM log ORDER BY first_seq DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()
            .map(|last| last.unwrap_or(0))
            .map_err(|e| self.sql(e))
    }
}
