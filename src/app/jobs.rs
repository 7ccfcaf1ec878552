//! Work that runs off the UI thread: CSV imports, recomputations of a large ladder, copies
//! and exports. One job at a time; each frame the app polls it, shows its progress and offers
//! Cancel. A job that changes the file opens its own connection, so the UI keeps reading the
//! ladder as it stood until the job lands.

use super::error::{AppError, AppResult};
use super::messages::Offer;
use super::state::{Pending, Screen};
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

/// What a finished job hands back to the UI thread.
pub enum Done {
    /// The file changed: reload it, say `said` if any (with what it offers), then tidy the
    /// screen that asked.
    Changed {
        said: Option<(String, Offer)>,
        then: FollowUp,
    },
    /// Nothing in the file changed; say this.
    Said(String),
    /// A preview is ready to show.
    Preview(Box<Pending>),
    /// The replay timeline is built.
    Timeline(Box<crate::ladder::timeline::Timeline>),
    /// The what-if replay is done.
    Compared(Box<super::tools::Comparison>),
    /// Prediction quality, best first.
    Scored(Vec<crate::ladder::evaluate::Score>),
    /// The log is read for the plots.
    LogView(Box<super::tools::LogView>),
    /// A simulated ladder was written.
    Simulated(Box<super::tools::Simulated>),
}

/// What a screen clears once its change has landed (not before: a failed change keeps the
/// form as typed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FollowUp {
    Nothing,
    /// The match form clears for the next match, the keyboard back in Player A.
    MatchSaved,
    /// The match being edited (or deleted) is done.
    EditDone,
    /// The New player field clears, keeping the keyboard.
    PlayerAdded,
    /// A previewed change landed: the Settings draft starts again from the ladder's rules.
    RulesApplied,
    /// Open this ladder (a new one the job made).
    Open(std::path::PathBuf),
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

    /// Waits for the result (tests and shutdown; the UI polls instead).
    pub fn wait(&self) -> AppResult<Done> {
        self.result
            .recv()
            .unwrap_or_else(|_| Err(AppError::Stopped(self.label.clone())))
    }
}
