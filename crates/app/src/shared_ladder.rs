//! File → Open shared ladder…: a ladder on a PostgreSQL server, worked on through its replica
//! (an ordinary ladder file the app opens as any other) while a thread of its own keeps the
//! replica and the server in step: after each change and every [`SYNC_SECONDS`], a
//! [`Session::sync`] sends what waits and brings in what other organisers did, which the app's
//! following of its file then shows ("1 change from another program: …").
//!
//! A password is asked for only when the server says one is needed, in a password field; it
//! lives in this process's memory for the session's reconnections and nowhere else: never in
//! a message, the title, the recent list or a file ([`Secret`] prints as "(hidden)").

use crate::command::Command;
use crate::error::{AppError, AppResult};
use crate::messages::Offer;
use crate::state::AppState;
use rungs_gate::ActionError;
use rungs_gate::shared::Session;
use rungs_store::Store;
use rungs_store::shared::SharedError;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// How often the sync thread asks the server, when nothing was changed here.
pub const SYNC_SECONDS: f64 = 1.5;

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
    /// Syncs finished (tests wait on this).
    pub rounds: u64,
}

/// An open shared ladder: the replica's path and the thread that syncs it.
pub struct SharedLadder {
    /// The URL as shown (no password).
    pub shown: String,
    pub path: PathBuf,
    status: Arc<Mutex<SyncStatus>>,
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
        let path = session.path().to_path_buf();
        let status = Arc::new(Mutex::new(status));
        let (wake, woken) = channel();
        let thread = {
            let status = status.clone();
            let url = url.to_string();
            std::thread::spawn(move || sync_loop(session, &url, password, &status, &woken))
        };
        Ok(SharedLadder {
            shown,
            path,
            status,
            wake: Some(wake),
            thread: Some(thread),
        })
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
    fn take_refused(&self) -> Vec<String> {
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
        let before = inode(session.path());
        let result = session.sync();
        let after = inode(session.path());
        if let Ok(mut s) = status.lock() {
            match result {
                Ok(synced) => {
                    s.offline = session.offline.as_ref().map(ToString::to_string);
                    s.refused.extend(synced.refused);
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
    }
}

/// What File → Open shared ladder… shows: the URL, and a password once the server asked.
#[derive(Debug, Default, Clone)]
pub struct SharedForm {
    pub url: String,
    pub password: Secret,
    pub asks_password: bool,
}

/// The form's window; Open sends [`Command::OpenShared`].
pub fn form(ctx: &egui::Context, form: &mut Option<SharedForm>, out: &mut Vec<Command>) {
    let Some(f) = form else {
        return;
    };
    let mut close = false;
    egui::Window::new("Open shared ladder")
        .collapsible(false)
        .resizable(false)
        .show(ctx, |ui| {
            let label = ui.label("Address");
            ui.add(
                egui::TextEdit::singleline(&mut f.url)
                    .hint_text("postgres://ann@db.example.org/federation?ladder=club")
                    .desired_width(380.0),
            )
            .labelled_by(label.id);
            if f.asks_password {
                let label = ui.label("Password (the server asks for one)");
                ui.add(egui::TextEdit::singleline(&mut f.password.0).password(true))
                    .labelled_by(label.id);
            }
            ui.horizontal(|ui| {
                if ui.button("Open").clicked() {
                    let password = (f.asks_password && !f.password.0.is_empty())
                        .then(|| std::mem::take(&mut f.password));
                    out.push(Command::OpenShared {
                        url: f.url.trim().to_string(),
                        password,
                    });
                }
                if ui.button("Cancel").clicked() {
                    close = true;
                }
            });
        });
    if close {
        *form = None;
    }
}

impl AppState {
    /// The app on the shared ladder at `url` (`rungs URL`): opened, or its form showing
    /// why not (and a password field when the server asks for one).
    pub fn open_shared_named(data_dir: PathBuf, url: String) -> AppState {
        let mut state = AppState::empty(data_dir);
        state.shared_form = Some(SharedForm {
            url: url.clone(),
            ..SharedForm::default()
        });
        state.apply(Command::OpenShared {
            url,
            password: None,
        });
        state
    }

    /// Opens the shared ladder at `url`; a server that asks a password opens the field.
    pub(crate) fn open_shared(&mut self, url: String, password: Option<Secret>) -> AppResult<()> {
        // The old session lets its replica go (a last sync) before another opens.
        self.shared = None;
        let shared = match SharedLadder::open(&url, password) {
            Ok(s) => s,
            Err(e) => {
                if needs_password(&e) {
                    let form = self.shared_form.get_or_insert_with(SharedForm::default);
                    form.url = url;
                    form.asks_password = true;
                }
                return Err(e);
            }
        };
        let store = Store::open(&shared.path)?;
        self.shared_form = None;
        let offline = shared.status().offline.is_some();
        let shown = shared.shown.clone();
        self.set_store(store);
        self.shared_remade = 0;
        self.shared = Some(shared);
        if offline {
            let origin = self.origin();
            self.say(
                format!("{shown}: the server cannot be reached; changes wait on this machine"),
                Offer::Nothing,
                origin,
            );
        }
        Ok(())
    }

    /// Each frame: a replica made again is opened again, and what it brought is said as
    /// another program's change; a refusal from a re-check is said in the app's words.
    pub fn follow_shared(&mut self) {
        let Some(shared) = &self.shared else {
            return;
        };
        let status = shared.status();
        let refused = shared.take_refused();
        let path = shared.path.clone();
        if status.remade != self.shared_remade {
            self.shared_remade = status.remade;
            let before = self
                .store
                .as_ref()
                .and_then(|s| s.seen_action())
                .unwrap_or(0);
            match Store::open(&path) {
                Ok(store) => {
                    self.store = Some(store);
                    self.reload();
                    self.say_arrived(before);
                }
                Err(e) => {
                    let origin = self.origin();
                    self.say_error(&AppError::Store(e), origin);
                }
            }
        }
        for words in refused {
            let origin = self.origin();
            self.say_error(
                &AppError::Task {
                    task: "sending a change to the server",
                    message: words,
                },
                origin,
            );
        }
    }

    /// Waits until the sync thread has run `rounds` whole syncs begun after this call (tests):
    /// one more than that finishes, as one may have been under way already.
    pub fn wait_for_syncs(&mut self, rounds: u64) {
        let Some(shared) = &self.shared else {
            return;
        };
        let goal = shared.status().rounds + rounds + 1;
        while shared.status().rounds < goal {
            shared.poke();
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// What quitting now would leave behind, in words: the changes still waiting.
    pub fn quit_warning(&self) -> Option<String> {
        let waiting = self.shared.as_ref()?.status().waiting;
        let what = match waiting {
            0 => return None,
            1 => "1 change is".to_string(),
            n => format!("{n} changes are"),
        };
        Some(format!(
            "{what} waiting for the server: they stay on this machine and are sent the next \
             time this ladder is opened with the server in reach. Close again to quit."
        ))
    }
}
