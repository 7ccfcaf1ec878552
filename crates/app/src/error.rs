//! What can go wrong in the app, as one type. A refused change is the gate's own
//! [`ActionError`] (it names file, line, field and players); the rest are the app's: no ladder
//! open, a task already running, the past on screen, a file that cannot be written, a field
//! of a form that does not read.

use rungs_gate::ActionError;
use rungs_interchange::csv_matches::Mapping;
use rungs_store::StoreError;
use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// The gate refused a change (nothing was written).
    #[error(transparent)]
    Action(#[from] ActionError),
    /// The ladder file could not be read or written.
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("no ladder is open; open or create one (File menu)")]
    NoLadder,
    #[error("still busy {0}; wait for it or cancel it")]
    Busy(String),
    #[error(
        "the ladder is shown as it stood after event {0}; return to now (Replay) before changing it"
    )]
    InThePast(usize),
    /// A file the app reads or writes itself (exports, pictures, lists).
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    /// A field of a form that does not read: which field, and what is wrong with it.
    #[error("{field}: {message}")]
    Field {
        field: &'static str,
        message: String,
    },
    /// Work the app runs over the log (replay, timeline, scoring, simulation) failed.
    #[error("{task}: {message}")]
    Task { task: &'static str, message: String },
    #[error("{0} stopped unexpectedly; the ladder is unchanged")]
    Stopped(String),
    /// A match file whose every match the ladder holds already; importing it a second time
    /// is offered beside the message.
    #[error("{error}")]
    AlreadyImported {
        error: Box<ActionError>,
        path: PathBuf,
        mapping: Box<Mapping>,
    },
    /// Asked for something there is nothing for ("nothing to apply").
    #[error("{0}")]
    Nothing(&'static str),
}

impl AppError {
    pub fn file(path: &std::path::Path, message: impl std::fmt::Display) -> AppError {
        AppError::File {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    pub fn field(field: &'static str, message: impl Into<String>) -> AppError {
        AppError::Field {
            field,
            message: message.into(),
        }
    }

    pub fn task(task: &'static str, message: impl std::fmt::Display) -> AppError {
        AppError::Task {
            task,
            message: message.to_string(),
        }
    }

    /// Whether the change was refused because another program changed the ladder after the
    /// app read it.
    pub fn is_changed_meanwhile(&self) -> bool {
        match self {
            AppError::Store(e) => e.is_changed_meanwhile(),
            AppError::Action(e) => e.is_changed_meanwhile(),
            _ => false,
        }
    }

    /// Whether the user stopped the work (nothing changed; said as a notice, not an error).
    pub fn is_cancelled(&self) -> bool {
        match self {
            AppError::Action(e) => e.is_cancelled(),
            AppError::Store(StoreError::Cancelled) => true,
            _ => false,
        }
    }
}

pub type AppResult<T> = Result<T, AppError>;
