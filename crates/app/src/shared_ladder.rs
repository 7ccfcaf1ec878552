//! File → Open shared ladder…: a ladder on a PostgreSQL server, worked on through its replica
//! (an ordinary ladder file the app opens as any other) while a thread of its own keeps the
//! replica and the server in step: after each change and every [`SYNC_SECONDS`], a
//! [`Session::sync`] sends what waits and brings in what other organisers did, which the app's
//! following of its file then shows ("1 change from another program: …").
//!
//! A password is asked for only when the server says one is needed, in a password field; it
//! lives in this process's memory for the session's reconnections and nowhere else: never in
//! a message, the title, the recent list or a file ([`Secret`] prints as "(hidden)").

use crate::error::{AppError, AppResult};
use rungs_gate::ActionError;
use rungs_gate::shared::Session;
use rungs_store::shared::SharedError;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the sync thread asks the server, when nothing was changed here.
pub const SYNC_SECONDS: f64 = 1.0;

/// A password typed into the app: cloned and compared as text, never printed.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("(hidden)")
    }
}

/// What the sync thread last found, read by the window each frame.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SyncStatus {
    /// Changes made here that the server has not taken.
    pub waiting: usize,
    /// Why the server cannot be reached, when it cannot.
    pub offline: Option<String>,
    /// Changes another organiser's made impossible, in words, not yet said.
    pub refused: Vec<String>,
    /// Bumped each time the replica was made again (a new file: the app opens it again).
    pub remade: u64,
    /// Other organisers' actions brought in so far (the app reads the replica again when
    /// this moves, not at its next look at the file: within two seconds in all).
    pub pulled: u64,
    /// Syncs finished (tests wait on this).
    pub rounds: u64,
}

/// An open shared ladder: the replica's path and the thread that syncs it.
pub struct SharedLadder {
    /// The URL as shown (no password).
    pub shown: String,
    /// Which of the database's ladders (the window's title).
    pub ladder: String,
    pub path: PathBuf,
    status: Arc<Mutex<SyncStatus>>,
    /// Held by a sync and by the app's own change: a sync may make the replica again (a new
    /// file), and a change written meanwhile into the old one would be lost.
    guard: Arc<Mutex<()>>,
    wake: Option<Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

/// Whether the server asked for a password that was not given (or refused the one given).
pub fn needs_password(e: &AppError) -> bool {
    matches!(
        e,
        AppError::Action(ActionError::Shared(
            SharedError::NoPassword { .. } | SharedError::WrongPassword { .. }
        ))
    )
}

fn open_session(url: &str, password: Option<&Secret>) -> Result<Session, ActionError> {
    Session::open_with_password(url, password.map(|p| p.0.as_str()))
}

fn inode(path: &Path) -> Option<u64> {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(path).ok().map(|m| m.ino())
}

impl SharedLadder {
    /// Opens the shared ladder at `url`, brings its replica up to the server (or keeps the
    /// one pulled before, offline), and starts its sync thread.
    pub fn open(url: &str, password: Option<Secret>) -> AppResult<SharedLadder> {
        let mut session = open_session(url, password.as_ref())?;
        let mut status = SyncStatus::default();
        match session.sync() {
            Ok(synced) => status.refused = synced.refused,
            Err(ActionError::Shared(e)) if e.is_unreachable() => {
                status.offline = Some(e.to_string())
            }
            Err(e) => return Err(e.into()),
        }
        if let Some(e) = &session.offline {
            status.offline = Some(e.to_string());
        }
        status.waiting = session.waiting();
        let shown = session.url.shown.clone();
        let ladder = session.url.ladder.clone();
        let path = session.path().to_path_buf();
        let status = Arc::new(Mutex::new(status));
        let (wake, woken) = channel();
        let guard = Arc::new(Mutex::new(()));
        let thread = {
            let status = status.clone();
            let guard = guard.clone();
            let url = url.to_string();
            std::thread::spawn(move || sync_loop(session, &url, password, &status, &guard, &woken))
        };
        Ok(SharedLadder {
            shown,
            ladder,
            path,
            status,
            guard,
            wake: Some(wake),
            thread: Some(thread),
        })
    }

    /// What the app holds while it changes the replica (no sync runs meanwhile).
    pub fn guard(&self) -> Arc<Mutex<()>> {
        self.guard.clone()
    }

    /// Asks for a sync now (a change was made).
    pub fn poke(&self) {
        if let Some(w) = &self.wake {
            let _ = w.send(());
        }
    }

    pub fn status(&self) -> SyncStatus {
        self.status.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// Takes the refusals not yet said.
    pub fn take_refused(&self) -> Vec<String> {
        self.status
            .lock()
            .map(|mut s| std::mem::take(&mut s.refused))
            .unwrap_or_default()
    }

    /// The status bar's words: "3 changes waiting for the server", "offline", or none.
    pub fn words(&self) -> Option<String> {
        let s = self.status();
        let waiting = match s.waiting {
            0 => None,
            1 => Some("1 change waiting for the server".to_string()),
            n => Some(format!("{n} changes waiting for the server")),
        };
        match (s.offline.is_some(), waiting) {
            (true, Some(w)) => Some(format!("offline · {w}")),
            (true, None) => Some("offline".to_string()),
            (false, w) => w,
        }
    }
}

impl Drop for SharedLadder {
    /// A last sync, then the replica's lock is let go.
    fn drop(&mut self) {
        self.wake = None;
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The sync thread: a sync after each poke and every [`SYNC_SECONDS`]; a last one when the
/// app lets the ladder go. Offline, the session is opened again each round, so the server
/// is found again once it is back.
fn sync_loop(
    session: Session,
    url: &str,
    password: Option<Secret>,
    status: &Mutex<SyncStatus>,
    guard: &Mutex<()>,
    woken: &Receiver<()>,
) {
    let mut session = Some(session);
    let mut last = false;
    while !last {
        match woken.recv_timeout(Duration::from_secs_f64(SYNC_SECONDS)) {
            Ok(()) | Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => last = true,
        }
        if session.as_ref().is_none_or(|s| s.offline.is_some()) {
            // The lock is let go for a moment so that a new session can take it.
            session = None;
            match open_session(url, password.as_ref()) {
                Ok(s) => session = Some(s),
                Err(e) => {
                    if let Ok(mut s) = status.lock() {
                        s.offline = Some(e.to_string());
                        s.rounds += 1;
                    }
                    continue;
                }
            }
        }
        let Some(session) = session.as_mut() else {
            continue;
        };
        let held = guard.lock();
        let before = inode(session.path());
        let result = session.sync();
        let after = inode(session.path());
        if let Ok(mut s) = status.lock() {
            match result {
                Ok(synced) => {
                    s.offline = session.offline.as_ref().map(ToString::to_string);
                    s.refused.extend(synced.refused);
                    s.pulled += synced.pulled as u64;
                }
                Err(ActionError::Shared(e)) if e.is_unreachable() => {
                    s.offline = Some(e.to_string());
                    session.offline = Some(e);
                }
                Err(e) => s.refused.push(e.to_string()),
            }
            s.waiting = session.waiting();
            if before != after {
                s.remade += 1;
            }
            s.rounds += 1;
        }
        // Let go only once a replica made again is said (the app opens the new file before
        // its next change).
        drop(held);
    }
}

/// What File → Open shared ladder… shows: the URL, and a password once the server asked.
#[derive(Debug, Default, Clone)]
pub struct SharedForm {
    pub url: String,
    pub password: Secret,
    pub asks_password: bool,
}
