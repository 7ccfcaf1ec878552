//! The app state's side of a shared ladder: opening it (its replica as the store), following
//! its sync thread, and the words for quitting with changes waiting (see `shared_ladder`).

use super::AppState;
use crate::command::Command;
use crate::error::{AppError, AppResult};
use crate::messages::Offer;
use crate::shared_ladder::{Secret, SharedForm, SharedLadder, needs_password};
use rungs_store::Store;
use std::path::PathBuf;
use std::time::Duration;

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
        // The replica is no file to open from the recent list: its changes would wait unsent.
        self.recent.retain(|p| p != &shared.path);
        self.shared_remade = 0;
        self.shared_pulled = 0;
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
        if status.pulled != self.shared_pulled {
            self.shared_pulled = status.pulled;
            self.follow_file();
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
