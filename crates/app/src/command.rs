//! What the screens may ask for ([`Command`] and the designer's [`ToolCommand`], each carrying
//! its data) and which screens there are ([`Screen`]). Plain data: it imports no app module
//! but the file purposes.

use super::files::{Purpose, mapping_for_file};
use rungs_analysis::simulate::SimConfig;
use rungs_chart::simulated::SimPlot;
use rungs_gate::matches::{MatchEdit, MatchInput};
use rungs_interchange::csv_matches::Mapping;
use rungs_ladder::event::PlayerId;
use rungs_ladder::rules::{Rules, System};
use std::path::PathBuf;

/// The screens of the app, in tab order.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Serialize, serde::Deserialize,
)]
pub enum Screen {
    #[default]
    Standings,
    EnterMatch,
    Matches,
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
    Tonight,
    Challenges,
    Boxes,
}

impl Screen {
    /// The organiser's screens, then the designer's.
    pub const ALL: [Screen; 16] = [
        Screen::Standings,
        Screen::EnterMatch,
        Screen::Tonight,
        Screen::Matches,
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
        Screen::Challenges,
        Screen::Boxes,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Screen::Standings => "Standings",
            Screen::EnterMatch => "Enter match",
            Screen::Matches => "Matches",
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
            Screen::Tonight => "Tonight",
            Screen::Challenges => "Challenges",
            Screen::Boxes => "Boxes",
        }
    }
}

/// Everything a screen may ask for; each command carries what it needs.
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Show(Screen),
    Open(PathBuf),
    /// Rebuild a ladder's caches from its log (offered when they do not match it), then open it.
    Repair(PathBuf),
    New(PathBuf, System),
    /// Create a ladder under these rules (File → New: a system and a season calendar).
    Create(PathBuf, Rules),
    /// Show the File → New form (name, folder, system).
    AskNewLadder,
    OpenDemo,
    SaveCopy(PathBuf),
    ImportCsv(PathBuf, Mapping),
    /// Import a match file a second time, though the ladder holds its every match already
    /// (offered beside that refusal).
    ImportCsvAgain(PathBuf, Mapping),
    ExportJsonl(PathBuf),
    ExportCsv(PathBuf),
    /// Show the File → Publish… options (title, hide retired, initials) before the folder.
    AskPublish,
    /// Publish the standings as a static site into this folder with these options; the
    /// message says where, and offers to open the folder.
    Publish(PathBuf, Box<rungs_publish::Options>),
    SaveStandingsPng(PathBuf),
    /// The leaderboard onto the clipboard was done by the window; say so.
    CopiedStandings(usize),
    /// Choose a file for this purpose (the system's dialog, or the app's own).
    Pick(Purpose),
    /// Choose a file for that purpose in rungs' own picker, whatever the system offers.
    PickOwn(Purpose),
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
    /// Several players at once, in one change.
    AddPlayers(Vec<String>),
    Rename(PlayerId, String),
    /// Retire (`true`) or bring back a player.
    Retire(PlayerId, bool),
    ShowPlayer(Option<PlayerId>),
    PreviewSoftReset,
    PreviewHardReset,
    /// Preview applying the season calendar's resets that are due, now.
    PreviewDueResets,
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
    /// The desktop's file manager on a folder (a published site's).
    OpenFolder(std::path::PathBuf),
    /// A field of a screen's form that does not read (shown as an error).
    Problem {
        field: &'static str,
        message: String,
    },
    /// The designer's and tester's tools.
    Tool(ToolCommand),
    /// Save a round as paired tonight.
    SaveRound(Box<rungs_gate::rounds::RoundInput>),
    /// The result of board `board` of saved round `round`, from its side A view (`1`, `0.5`,
    /// `0`, `forfeit-a`, `forfeit-b`); `said` is how it reads.
    BoardResult {
        round: u32,
        board: u32,
        result: String,
        said: String,
    },
    /// Why event `seq` moved `player`'s figures (every player it changed without one): the
    /// explanation panel opens with its derivation.
    Explain {
        seq: u64,
        player: Option<PlayerId>,
    },
    /// Write one of Simulate's plots of the last simulation: SVG, or PNG where the name ends
    /// in `.png`.
    SaveSimulatePlot(SimPlot, PathBuf),
    /// A change to the challenge ladder or the box league.
    Format(FormatCommand),
    /// Show File → Open shared ladder…'s form.
    AskShared,
    /// Open the shared ladder at this URL, with the password the server asked for if any.
    OpenShared {
        url: String,
        password: Option<crate::shared_ladder::Secret>,
    },
}

/// What the Challenges and Boxes screens ask for; names as typed, results from the first
/// player's view (`1`, `D`, `0`, or empty with the games given).
#[derive(Debug, Clone, PartialEq)]
pub enum FormatCommand {
    Challenge {
        challenger: String,
        defender: String,
    },
    ChallengeResult {
        number: u32,
        result: String,
        games: String,
    },
    BoxResult {
        a: String,
        b: String,
        result: String,
        games: String,
    },
    /// Preview the next period's boxes (applied by [`Command::Confirm`]).
    PreviewClosePeriod,
    /// Start the challenge ladder at its defaults, every active player placed by rating.
    StartChallengeLadder,
    /// Start the box league at its defaults, boxes filled by rating: for this calendar month,
    /// or, with `seasons`, for the ladder's season under way, each period then one season.
    StartBoxes { seasons: bool },
}

/// What the tool screens ask for.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolCommand {
    /// Replay the log once, keeping checkpoints, so any point can be shown.
    BuildTimeline,
    /// Show the ladder after the first `n` events (the end of the log returns to now).
    Seek(usize),
    /// Advance through the log at this many events a second; `None` pauses.
    Play(Option<f64>),
    ReturnToNow,
    /// Replay the log under other rules and compare.
    Compare(Rules),
    CloseCompare,
    /// Score every system at its defaults, and the ladder's own rules, on the log.
    Evaluate,
    /// Simulate into a new ladder file.
    Simulate(Box<SimConfig>, PathBuf),
    Plot(PlayerId),
    Unplot(PlayerId),
    /// Read the log for the plots' markers and hover read-outs.
    LoadLog,
    /// Propose Skyweaver tier minimums that put each tier's share at season end on target.
    ProposeTiers(rungs_analysis::tiers::Targets),
}

impl Command {
    /// The command a path chosen for `purpose` becomes; `None` where the path fills a form
    /// (the Elo list, the new ladder's folder) or the window itself answers (a PNG of the
    /// plots, the publish folder with the options asked before it).
    pub fn picked(purpose: Purpose, path: PathBuf) -> Option<Command> {
        Some(match purpose {
            Purpose::Open => Command::Open(path),
            Purpose::SaveCopy => Command::SaveCopy(path),
            Purpose::ImportCsv => {
                let mapping = mapping_for_file(&path);
                Command::ImportCsv(path, mapping)
            }
            Purpose::ExportCsv => Command::ExportCsv(path),
            Purpose::ExportJsonl => Command::ExportJsonl(path),
            Purpose::StandingsPng => Command::SaveStandingsPng(path),
            Purpose::SimulatePlot(plot) => Command::SaveSimulatePlot(plot, path),
            Purpose::SavePng
            | Purpose::EloList
            | Purpose::NewLadderFolder
            | Purpose::PublishFolder => return None,
        })
    }

    /// What a file dropped on the window asks for: `.rungs` opens, anything else imports as
    /// matches with the mapping its name suggests.
    pub fn dropped(path: PathBuf) -> Command {
        if path.extension().is_some_and(|e| e == "rungs") {
            Command::Open(path)
        } else {
            let mapping = mapping_for_file(&path);
            Command::ImportCsv(path, mapping)
        }
    }

    /// Whether the command would change the ladder file (refused while the past is shown).
    pub fn changes_ladder(&self) -> bool {
        matches!(
            self,
            Command::ImportCsv(..)
                | Command::ImportCsvAgain(..)
                | Command::Undo
                | Command::Redo
                | Command::AddMatch { .. }
                | Command::DeleteEvent { .. }
                | Command::EditMatch { .. }
                | Command::AddPlayer(_)
                | Command::AddPlayers(_)
                | Command::Rename(..)
                | Command::Retire(..)
                | Command::PreviewSoftReset
                | Command::PreviewHardReset
                | Command::PreviewDueResets
                | Command::PreviewRules(..)
                | Command::PreviewMigration { .. }
                | Command::Confirm
                | Command::SaveRound(_)
                | Command::BoardResult { .. }
                | Command::Format(_)
        )
    }
}
