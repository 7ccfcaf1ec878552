//! The one error of the gate: every refused change, from any front end or importer, says
//! where (file, line), which field, and which players by name.

use crate::interchange::csv_matches::CsvError;
use crate::interchange::elo_list::EloListError;
use crate::interchange::jsonl::JsonlError;
use crate::ladder::simulate::SimError;
use crate::ladder::values;
use crate::store::StoreError;
use chrono::NaiveDate;
use std::fmt;

/// Where a value came from: the ladder file for a command or a form, or an input file and
/// its line for an importer.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Place {
    pub file: String,
    pub line: Option<u64>,
}

impl Place {
    pub fn file(file: impl Into<String>) -> Place {
        Place {
            file: file.into(),
            line: None,
        }
    }

    pub fn line(file: impl Into<String>, line: u64) -> Place {
        Place {
            file: file.into(),
            line: Some(line),
        }
    }
}

impl fmt::Display for Place {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.file.is_empty(), self.line) {
            (true, None) => Ok(()),
            (true, Some(n)) => write!(f, "line {n}, "),
            // A file's name is text from outside: shown without its control characters.
            (false, None) => write!(f, "{}: ", values::shown(&self.file)),
            (false, Some(n)) => write!(f, "{}: line {n}, ", values::shown(&self.file)),
        }
    }
}

/// Text quoted for a message: escaped (an ESC or a zero-width space shows as `\u{…}`, never
/// reaches the terminal raw) and cut at 60 characters.
pub fn quoted(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(60).collect();
    let more = if chars.next().is_some() { "…" } else { "" };
    format!("`{}{more}`", head.escape_debug())
}

/// Why a change was refused. Nothing was written when one is returned.
#[derive(Debug, thiserror::Error)]
pub enum ActionError {
    /// A value that is not valid for its field.
    #[error("{at}field `{field}`: {} {reason}", quoted(text))]
    Invalid {
        at: Place,
        field: String,
        text: String,
        reason: String,
    },
    #[error("{at}field `{field}`: unknown player {}{hint}", quoted(name))]
    UnknownPlayer {
        at: Place,
        field: String,
        name: String,
        /// What to do about it, with its leading separator ("; add them first …").
        hint: String,
    },
    #[error(
        "{at}field `{field}`: {} is already taken by {}; names are compared without regard to \
         case or Unicode form",
        quoted(name),
        quoted(existing)
    )]
    NameTaken {
        at: Place,
        field: String,
        name: String,
        existing: String,
    },
    #[error("{at}{name} is {where_} of the match")]
    PlayerTwice {
        at: Place,
        name: String,
        /// "on both sides", or "twice on side B".
        where_: &'static str,
    },
    #[error(
        "{at}field `date`: {name} joined the ladder on {joined}, after this match's date {date}; \
         enter the match on or after {joined}, or move the join (`rungs edit-match FILE N \
         --date D`, N from `rungs events`)"
    )]
    NotYetJoined {
        at: Place,
        name: String,
        joined: NaiveDate,
        date: NaiveDate,
    },
    #[error(
        "{at}field `date`: {date} is in the future (today is {today} on this computer's \
         calendar); {why}"
    )]
    Future {
        at: Place,
        date: NaiveDate,
        today: NaiveDate,
        /// Why that is refused, for this kind of change.
        why: &'static str,
    },
    #[error("{at}no event {seq} (see `rungs events`)")]
    NoEvent { at: Place, seq: u64 },
    /// A change the ladder's rules do not allow, in words.
    #[error("{at}{reason}")]
    Refused { at: Place, reason: String },
    /// The log does not replay with the change; players are named.
    #[error("{at}{message}")]
    Replay { at: Place, message: String },
    /// A match file whose every match the ladder holds already: most likely imported before.
    /// Each door says its own way to import it a second time.
    #[error(
        "{at}the ladder holds every one of its {matches} matches already (the same date, players \
         and result): was it imported before? Nothing was imported"
    )]
    AlreadyImported { at: Place, matches: usize },
    #[error(transparent)]
    Csv(#[from] CsvError),
    #[error(transparent)]
    Jsonl(#[from] JsonlError),
    #[error(transparent)]
    EloList(#[from] EloListError),
    #[error(transparent)]
    Simulation(#[from] SimError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl ActionError {
    pub fn invalid(at: &Place, field: &str, text: &str, reason: impl fmt::Display) -> ActionError {
        ActionError::Invalid {
            at: at.clone(),
            field: field.to_string(),
            text: text.to_string(),
            reason: reason.to_string(),
        }
    }

    pub fn refused(at: &Place, reason: impl Into<String>) -> ActionError {
        ActionError::Refused {
            at: at.clone(),
            reason: reason.into(),
        }
    }

    /// Whether the user stopped the work (nothing changed, nothing to report as a fault).
    pub fn is_cancelled(&self) -> bool {
        matches!(self, ActionError::Store(StoreError::Cancelled))
    }

    /// Whether the store refused the change because the ladder changed after it was read.
    pub fn is_changed_meanwhile(&self) -> bool {
        matches!(self, ActionError::Store(s) if s.is_changed_meanwhile())
    }
}
