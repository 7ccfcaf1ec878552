//! The one error of the gate: every refused change, from any front end or importer, says
//! where (file, line), which field, and which players by name.

use chrono::NaiveDate;
use rungs_analysis::simulate::SimError;
use rungs_interchange::csv_matches::CsvError;
use rungs_interchange::elo_list::EloListError;
use rungs_interchange::jsonl::JsonlError;
use rungs_ladder::values;
use rungs_store::StoreError;
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

/// Why no player answers to a name, which says what to do about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unknown {
    /// Nobody is called so: add them first.
    Nobody,
    /// Nobody is called so in a file being imported that may not add players.
    NotAllowedNew,
    /// Several players' names compare equal to it (from an older rungs): these, as written.
    Alike(Vec<String>),
}

impl Unknown {
    /// The command line's words, with their leading separator.
    fn cli(&self) -> String {
        match self {
            Unknown::Nobody => "; add them first (Players, or `rungs add-player`)".into(),
            Unknown::NotAllowedNew => "; add the player first, or allow new players".into(),
            Unknown::Alike(names) => {
                let quoted: Vec<String> = names.iter().map(|n| quoted(n)).collect();
                format!(
                    "; {} players have names that compare equal ({}, from an older rungs): \
                     type one exactly as written, and rename it",
                    names.len(),
                    quoted.join(", ")
                )
            }
        }
    }
}

/// A change that would make a refused one go through, where there is one a front end can
/// offer as a single step (the app shows it as a button beside the message).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fix {
    /// Add a player by this name.
    AddPlayer(String),
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
    #[error("{at}field `{field}`: unknown player {}{}", quoted(name), why.cli())]
    UnknownPlayer {
        at: Place,
        field: String,
        name: String,
        /// Why nobody answers to it, which says what to do.
        why: Unknown,
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
    /// A rename that a later rename of the same player undoes at once.
    #[error(
        "{at}{name} is renamed again after {date}, so the ladder would still call them {later}; \
         date this rename after that one, or change that rename (see `rungs events`)"
    )]
    RenamedAgain {
        at: Place,
        name: String,
        date: NaiveDate,
        later: String,
    },
    /// An edit of a player's joining that changes more than its date.
    #[error("{at}event {seq} is a player joining; only its date is edited (--date)")]
    JoinDateOnly { at: Place, seq: u64 },
    /// A change the ladder's rules do not allow, in words.
    #[error("{at}{reason}")]
    Refused { at: Place, reason: String },
    /// A rating parameter that could not be set, kept as data so that each door says it
    /// in its own words (the app by the parameter's label). (Boxed: the error stays small.)
    #[error("{at}{error}")]
    Param {
        at: Place,
        error: Box<rungs_ladder::rules::ParamError>,
    },
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
    /// Rows the store's own checks refuse (the gate's constructors check more, so this is
    /// a constructor's oversight, said rather than written).
    #[error(transparent)]
    Change(#[from] rungs_store::ChangeError),
    /// A shared ladder's server or replica (see `shared.rs`).
    #[error(transparent)]
    Shared(#[from] rungs_store::shared::SharedError),
    /// A match's score and its result disagree ("2-1" with a draw): the score, the result it
    /// says and the result given, each in words with the sides' names, so that each door
    /// says what its user can do about it.
    #[error(
        "{at}field `goals`: {} says {says}, but the result says {given}; a score decides the \
         result: give `--goals` without a result, or remove the score with `--goals ''`",
        quoted(score)
    )]
    ScoreAgainstResult {
        at: Place,
        score: String,
        says: String,
        given: String,
    },
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

    /// The field the problem is in, by its code name (`player_a`, `date`), if it is in one.
    pub fn field(&self) -> Option<&str> {
        match self {
            ActionError::Invalid { field, .. }
            | ActionError::UnknownPlayer { field, .. }
            | ActionError::NameTaken { field, .. } => Some(field),
            ActionError::NotYetJoined { .. } | ActionError::Future { .. } => Some("date"),
            ActionError::ScoreAgainstResult { .. } => Some("goals"),
            _ => None,
        }
    }

    /// Where it came from (the ladder file, or an input file and its line).
    pub fn place(&self) -> Option<&Place> {
        match self {
            ActionError::Invalid { at, .. }
            | ActionError::UnknownPlayer { at, .. }
            | ActionError::NameTaken { at, .. }
            | ActionError::PlayerTwice { at, .. }
            | ActionError::NotYetJoined { at, .. }
            | ActionError::Future { at, .. }
            | ActionError::NoEvent { at, .. }
            | ActionError::RenamedAgain { at, .. }
            | ActionError::JoinDateOnly { at, .. }
            | ActionError::Refused { at, .. }
            | ActionError::Param { at, .. }
            | ActionError::Replay { at, .. }
            | ActionError::AlreadyImported { at, .. }
            | ActionError::ScoreAgainstResult { at, .. } => Some(at),
            _ => None,
        }
    }

    /// The players it is about, by name.
    pub fn players(&self) -> Vec<&str> {
        match self {
            ActionError::UnknownPlayer { name, .. }
            | ActionError::PlayerTwice { name, .. }
            | ActionError::NotYetJoined { name, .. }
            | ActionError::RenamedAgain { name, .. } => vec![name.as_str()],
            ActionError::NameTaken { name, existing, .. } => vec![name.as_str(), existing.as_str()],
            _ => Vec::new(),
        }
    }

    /// The one step that would let the change through, where there is one.
    pub fn fix(&self) -> Option<Fix> {
        match self {
            ActionError::UnknownPlayer {
                name,
                why: Unknown::Nobody,
                ..
            } if !name.trim().is_empty() => Some(Fix::AddPlayer(name.clone())),
            _ => None,
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
