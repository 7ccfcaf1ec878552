//! What the screens may ask for ([`Command`], each carrying its data) and which screens there
//! are ([`Screen`]).

use super::files::Purpose;
use crate::action::matches::{MatchEdit, MatchInput};
use crate::interchange::csv_matches::Mapping;
use crate::ladder::event::PlayerId;
use crate::ladder::rules::{Rules, System};
use std::path::PathBuf;

/// The screens of the app, in tab order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Screen {
    #[default]
    Standings,
    EnterMatch,
    Players,
    Seasons,
    Migration,
    Settings,
    History,
    Replay,
    WhatIf,
    Quality,
    Tune,
    Simulate,
}

impl Screen {
    /// The organiser's screens, then the designer's.
    pub const ALL: [Screen; 12] = [
        Screen::Standings,
        Screen::EnterMatch,
        Screen::Players,
        Screen::Seasons,
        Screen::History,
        Screen::Replay,
        Screen::Settings,
        Screen::Migration,
        Screen::WhatIf,
        Screen::Quality,
        Screen::Tune,
        Screen::Simulate,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Standings => "Standings",
            Screen::EnterMatch => "Enter match",
            Screen::Players => "Players",
            Screen::Seasons => "Seasons",
            Screen::Migration => "Migration",
            Screen::Settings => "Settings",
            Screen::History => "History",
            Screen::Replay => "Replay",
            Screen::WhatIf => "What-if",
            Screen::Quality => "Prediction quality",
            Screen::Tune => "Tune",
            Screen::Simulate => "Simulate",
        }
    }
}

/// Everything a screen may ask for; each command carries what it needs.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Show(Screen),
    Open(PathBuf),
    New(PathBuf, System),
    /// Show the File → New form (name, folder, system).
    AskNewLadder,
    OpenDemo,
    SaveCopy(PathBuf),
    ImportCsv(PathBuf, Mapping),
    ExportJsonl(PathBuf),
    ExportCsv(PathBuf),
    /// Choose a file for this purpose (the system's dialog, or the app's own).
    Pick(Purpose),
    CancelJob,
    Undo,
    Redo,
    /// Save a match as typed; `said` is how it reads ("Portugal beat Spain").
    AddMatch {
        input: MatchInput,
        said: String,
    },
    EditMatch {
        seq: u64,
        edit: MatchEdit,
    },
    /// Delete event `seq`; `said` is how it reads, for "Deleted: … · Undo".
    DeleteEvent {
        seq: u64,
        said: String,
    },
    AddPlayer(String),
    Rename(PlayerId, String),
    /// Retire (`true`) or bring back a player.
    Retire(PlayerId, bool),
    ShowPlayer(Option<PlayerId>),
    PreviewSoftReset,
    PreviewHardReset,
    /// Preview the ladder under these rules from this date (empty: today).
    PreviewRules(Rules, String),
    PreviewMigration {
        path: String,
        cutoffs: String,
    },
    /// Apply the action being previewed.
    Confirm,
    /// Drop the action being previewed.
    Cancel,
    DismissMessage,
    /// A field of a screen's form that does not read (shown as an error).
    Problem {
        field: &'static str,
        message: String,
    },
    /// The designer's and tester's tools.
    Tool(super::tools::ToolCommand),
}
