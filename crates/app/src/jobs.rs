//! Work that runs off the UI thread: CSV imports, recomputations of a large ladder, copies
//! and exports. One job at a time; each frame the app polls it, shows its progress and offers
//! Cancel. A job that changes the file opens its own connection, so the UI keeps reading the
//! ladder as it stood until the job lands.

use super::command::Screen;
use super::error::{AppError, AppResult};
use super::messages::Offer;
use super::tools::{Comparison, LogView, Simulated};
use super::widgets::{bytes, thousands};
use rungs_gate::Action;
use rungs_ladder::event::PlayerId;
use rungs_ladder::preview::Change;
use rungs_ladder::replay::Ladder;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::Instant;

/// What the progress counter of a job counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Bytes of an input file read so far (of `total`).
    Bytes,
    /// Thousandths of the work done (of 1000).
    Permille,
    /// Events replayed so far (of `total`).
    Events,
}

/// An action shown before it happens.
#[derive(Debug, Clone)]
pub struct Pending {
    pub action: Action,
    pub changes: Vec<Change>,
    /// What the preview says beside its table (a hard reset's MMR range).
    pub note: Option<String>,
    pub after: Ladder,
    /// Which preview this is (its table scrolls from the top, not where the last one was).
    pub id: u64,
}

/// What a finished job hands back to the UI thread.
pub enum Done {
    /// The file changed: reload it, say `said` if any (with what it offers), then tidy the
    /// screen that asked.
    Changed {
        said: Option<(String, Offer)>,
        then: Option<FollowUp>,
    },
    /// A ladder file was built at `built` (the demo): it takes the place of `path`, which
    /// opens, and this is said.
    Made {
        built: PathBuf,
        path: PathBuf,
        said: String,
    },
    /// Nothing in the file changed; say this.
    Said(String),
    /// Nothing in the file changed; say this, with what it offers.
    SaidOffering(String, Offer),
    /// A preview is ready to show.
    Preview(Box<Pending>),
    /// The replay timeline is built.
    Timeline(Box<rungs_ladder::timeline::Timeline>),
    /// The what-if replay is done.
    Compared(Box<Comparison>),
    /// Prediction quality, best first.
    Scored(Vec<rungs_analysis::evaluate::Score>),
    /// The log is read for the plots.
    LogView(Box<LogView>),
    /// A simulated ladder was written.
    Simulated(Box<Simulated>),
    /// An event's explanation is worked out: the panel opens on it.
    Explained(Box<rungs_analysis::explain::Explanation>),
    /// Tier minimums are proposed for the target shares.
    TiersProposed(Box<rungs_analysis::tiers::Proposal>),
}

/// What the screens' own state does once something the app did has landed (not before: a
/// failed change keeps the form as typed). The app state queues these; the window hands
/// them to the screens, which the state never sees.
#[derive(Debug, Clone, PartialEq)]
pub enum FollowUp {
    /// The match form clears for the next match, the keyboard back in Player A.
    MatchSaved,
    /// The match being edited (or deleted) is done.
    EditDone,
    /// The New player field clears, keeping the keyboard.
    PlayerAdded,
    /// A previewed change landed: the Settings draft starts again from the ladder's rules.
    RulesApplied,
    /// Another ladder is open: the organiser's screens start afresh.
    LadderOpened,
    /// File → New: show the form, offering this folder.
    AskNewLadder(PathBuf),
    /// File → Publish…: show the options, the title offered.
    AskPublish(String),
    /// Open this player's page (or the list).
    ShowPlayer(Option<PlayerId>),
    /// A simulation wrote this file; the next run needs another name.
    Simulated(PathBuf),
    /// Another program changed the ladder and it was read again: what a screen holds of an
    /// event may be gone or out of date.
    ChangedElsewhere,
    /// The explanation panel opens with this derivation.
    Explained(Box<rungs_analysis::explain::Explanation>),
}

/// Where what a job says belongs: the command that started it and the screen it came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Origin {
    pub stamp: u64,
    pub screen: Screen,
}

/// The handle a job's thread reports through.
#[derive(Clone)]
pub struct Reporter {
    pub done: Arc<AtomicU64>,
    pub cancel: Arc<AtomicBool>,
}

impl Reporter {
    /// Records progress; false once the user has cancelled.
    pub fn keep_going(&self, done: u64) -> bool {
        self.done.store(done, Ordering::Relaxed);
        !self.cancelled()
    }

    pub fn cancelled(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
    }
}

/// A running job.
pub struct Job {
    pub label: String,
    pub unit: Unit,
    pub total: u64,
    pub started: Instant,
    pub origin: Origin,
    reporter: Reporter,
    result: Receiver<AppResult<Done>>,
}

impl Job {
    /// Runs `work` on a new thread.
    pub fn spawn(
        label: impl Into<String>,
        unit: Unit,
        total: u64,
        origin: Origin,
        work: impl FnOnce(&Reporter) -> AppResult<Done> + Send + 'static,
    ) -> Job {
        let reporter = Reporter {
            done: Arc::new(AtomicU64::new(0)),
            cancel: Arc::new(AtomicBool::new(false)),
        };
        let (tx, rx) = std::sync::mpsc::channel();
        let r = reporter.clone();
        std::thread::spawn(move || {
            let _ = tx.send(work(&r));
        });
        Job {
            label: label.into(),
            unit,
            total: if unit == Unit::Permille { 1000 } else { total },
            started: Instant::now(),
            origin,
            reporter,
            result: rx,
        }
    }

    pub fn cancel(&self) {
        self.reporter.cancel.store(true, Ordering::Relaxed);
    }

    pub fn cancelling(&self) -> bool {
        self.reporter.cancelled()
    }

    pub fn done(&self) -> u64 {
        self.reporter.done.load(Ordering::Relaxed)
    }

    /// The share done, when the total is known.
    pub fn fraction(&self) -> Option<f32> {
        let done = self.done();
        // Work that reports no stages shows a busy bar rather than a stuck 0 %.
        let known = self.total > 0 && !(self.unit == Unit::Permille && done == 0);
        known.then(|| (done as f32 / self.total as f32).clamp(0.0, 1.0))
    }

    /// The result, once the job has finished.
    pub fn poll(&self) -> Option<AppResult<Done>> {
        match self.result.try_recv() {
            Ok(r) => Some(r),
            Err(TryRecvError::Empty) => None,
            Err(TryRecvError::Disconnected) => Some(Err(AppError::Stopped(self.label.clone()))),
        }
    }

    /// "importing club.csv — 2.1 MB read · 3 s".
    pub fn status(&self) -> String {
        let done = match self.unit {
            Unit::Bytes => format!(" — {} read", bytes(self.done())),
            Unit::Events => format!(" — {} events", thousands(self.done())),
            Unit::Permille => String::new(),
        };
        let cancelling = if self.cancelling() {
            " · cancelling"
        } else {
            ""
        };
        format!(
            "{}{done} · {} s{cancelling}",
            self.label,
            self.started.elapsed().as_secs()
        )
    }

    /// Waits for the result (tests and shutdown; the UI polls instead).
    pub fn wait(&self) -> AppResult<Done> {
        self.result
            .recv()
            .unwrap_or_else(|_| Err(AppError::Stopped(self.label.clone())))
    }
}
