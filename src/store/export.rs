//! The whole log as the store keeps it, undone actions included: what `export` writes and
//! `import-log` reads (the JSON Lines format itself lives in `interchange::jsonl`).

use crate::ladder::event::LogRow;
use crate::ladder::rules::Rules;

/// Whether an action did something, or undid or redid an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActionKind {
    Do,
    Undo,
    Redo,
}

impl ActionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionKind::Do => "do",
            ActionKind::Undo => "undo",
            ActionKind::Redo => "redo",
        }
    }

    pub fn parse(s: &str) -> Option<ActionKind> {
        match s {
            "do" => Some(ActionKind::Do),
            "undo" => Some(ActionKind::Undo),
            "redo" => Some(ActionKind::Redo),
            _ => None,
        }
    }
}

/// One action of the log, with the rows it wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct LogAction {
    pub id: i64,
    pub kind: ActionKind,
    pub label: String,
    pub rows: Vec<LogRow>,
}

/// A whole log: the rules the ladder was created with, and every action.
#[derive(Debug, Clone, PartialEq)]
pub struct Log {
    pub rules: Rules,
    pub actions: Vec<LogAction>,
}

/// One piece of the log as [`Store::stream_log`](super::Store::stream_log) hands it out, in
/// order: the rules, then each action followed by its rows.
#[derive(Debug, Clone, Copy)]
pub enum LogItem<'a> {
    /// The rules the ladder was created with (first, once).
    Rules(&'a Rules),
    /// An action; `has_rows` says whether [`LogItem::Row`]s of it follow.
    Action {
        id: i64,
        kind: ActionKind,
        label: &'a str,
        has_rows: bool,
    },
    /// A row of the action before it.
    Row(&'a LogRow),
}
