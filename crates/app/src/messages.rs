//! The app's one message: what the last thing done said ("Saved: Portugal beat Spain"), or
//! what went wrong. It shows in a strip of fixed height at the bottom, so it never moves the
//! page. Rules (UI.md, Messages):
//! - an error stays until it is dismissed, its screen is left or another ladder is opened;
//! - a message never replaces one caused by something done later (a slow job finishing after
//!   a newer error does not hide that error): each carries the stamp of the command that
//!   caused it;
//! - "Deleted: … · Undo" offers undo right there, and a ladder whose caches do not match its
//!   log offers the repair.

use super::command::Screen;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Notice,
    Error,
}

/// What the strip offers beside the text.
#[derive(Debug, Clone, PartialEq)]
pub enum Offer {
    Nothing,
    /// An Undo button (after a delete or an edit).
    Undo,
    /// A Repair button: the ladder's caches are not those of its log (another program
    /// changed it); rebuild them from the log and open it.
    Repair(std::path::PathBuf),
    /// A button for rungs' own file picker, after the system's dialog gave no file: a
    /// dialog that fails slowly (a portal with no working backend) looks like a cancel.
    OwnPicker(super::files::Purpose),
    /// An "Import again" button: the ladder holds every match of this file already (most
    /// likely imported before), so it was refused; the user may mean it.
    ImportAgain(
        std::path::PathBuf,
        Box<rungs_interchange::csv_matches::Mapping>,
    ),
    /// The one step that lets a refused change through ("Add Portu as a player").
    Fix(rungs_gate::Fix),
    /// An "Open the folder" button: a site was published there. Nothing is opened unasked,
    /// so the message never claims a browser that did not start.
    OpenFolder(std::path::PathBuf),
}

#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub level: Level,
    pub text: String,
    pub offer: Offer,
    /// The screen it belongs to: leaving that screen clears it.
    pub screen: Screen,
    /// The command that caused it (later commands have larger stamps).
    pub stamp: u64,
}

#[derive(Debug, Clone, Default)]
pub struct Messages {
    current: Option<Message>,
    /// The stamp of the command being applied now.
    stamp: u64,
}

impl Messages {
    /// A new stamp for the next command (what it says carries this stamp).
    pub fn next_stamp(&mut self) -> u64 {
        self.stamp += 1;
        self.stamp
    }

    /// The stamp of the command being applied.
    pub fn stamp(&self) -> u64 {
        self.stamp
    }

    pub fn current(&self) -> Option<&Message> {
        self.current.as_ref()
    }

    /// Shows `message` unless an error from a later command is showing.
    pub fn show(&mut self, message: Message) {
        let newer_error = self
            .current
            .as_ref()
            .is_some_and(|c| c.level == Level::Error && c.stamp > message.stamp);
        if !newer_error {
            self.current = Some(message);
        }
    }

    pub fn error(&self) -> Option<&str> {
        self.current
            .as_ref()
            .filter(|m| m.level == Level::Error)
            .map(|m| m.text.as_str())
    }

    pub fn notice(&self) -> Option<&str> {
        self.current
            .as_ref()
            .filter(|m| m.level == Level::Notice)
            .map(|m| m.text.as_str())
    }

    pub fn dismiss(&mut self) {
        self.current = None;
    }

    /// Another screen is shown: its messages go.
    pub fn left_screen(&mut self, to: Screen) {
        if self.current.as_ref().is_some_and(|m| m.screen != to) {
            self.current = None;
        }
    }

    /// Another ladder is open: every message goes.
    pub fn ladder_changed(&mut self) {
        self.current = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(level: Level, stamp: u64) -> Message {
        Message {
            level,
            text: format!("{level:?} {stamp}"),
            offer: Offer::Nothing,
            screen: Screen::EnterMatch,
            stamp,
        }
    }

    #[test]
    fn an_error_is_never_replaced_by_an_older_message() {
        let mut m = Messages::default();
        m.show(msg(Level::Error, 5));
        m.show(msg(Level::Notice, 4));
        assert_eq!(
            m.error(),
            Some("Error 5"),
            "a notice from command 4 came too late"
        );
        m.show(msg(Level::Error, 3));
        assert_eq!(m.error(), Some("Error 5"));
        m.show(msg(Level::Notice, 6));
        assert_eq!(m.notice(), Some("Notice 6"), "a newer notice replaces it");
        m.left_screen(Screen::EnterMatch);
        assert!(m.current().is_some(), "same screen: kept");
        m.left_screen(Screen::Players);
        assert!(m.current().is_none(), "another screen: cleared");
    }
}
