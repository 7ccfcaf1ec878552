//! The whole log as the store keeps it, undone actions included: what `export` writes and
//! `import-log` reads (the JSON Lines format itself lives in `interchange::jsonl`).

use rungs_ladder::event::LogRow;
use rungs_ladder::rules::Rules;

/// Whether an action did something, or undid or redid an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
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

/// The undo/redo fold over actions in the order rungs wrote them: a `do` pushes onto the undo
/// stack and clears the redo stack, `undo` moves the top of the undo stack to the redo stack,
/// `redo` moves it back. The store folds its actions table so, and a log's reader folds its
/// lines so as they come. Actions are counted from 0.
#[derive(Debug, Clone, Default)]
pub struct UndoFold {
    done: Vec<usize>,
    undone: Vec<usize>,
    in_force: Vec<bool>,
}

impl UndoFold {
    /// The next action, of `kind`; false for an undo with nothing to undo, or a redo with
    /// nothing to redo (which change nothing; rungs never writes one).
    pub fn push(&mut self, kind: ActionKind) -> bool {
        let index = self.in_force.len();
        self.in_force.push(false);
        match kind {
            ActionKind::Do => {
                for a in self.undone.drain(..) {
                    self.in_force[a] = false;
                }
                self.done.push(index);
                self.in_force[index] = true;
                true
            }
            ActionKind::Undo => {
                Self::shift(&mut self.done, &mut self.undone, &mut self.in_force, false)
            }
            ActionKind::Redo => {
                Self::shift(&mut self.undone, &mut self.done, &mut self.in_force, true)
            }
        }
    }

    /// Moves the top of `from` onto `to`, `in_force` or not; false if `from` is empty.
    fn shift(from: &mut Vec<usize>, to: &mut Vec<usize>, in_force: &mut [bool], now: bool) -> bool {
        let Some(a) = from.pop() else {
            return false;
        };
        in_force[a] = now;
        to.push(a);
        true
    }

    /// How many actions were folded.
    pub fn len(&self) -> usize {
        self.in_force.len()
    }

    pub fn is_empty(&self) -> bool {
        self.in_force.is_empty()
    }

    /// Whether action `index` counts now (an undo and redo never do; an undone `do` neither).
    pub fn in_force(&self, index: usize) -> bool {
        self.in_force.get(index).copied().unwrap_or(false)
    }

    /// The undo stack and the redo stack, tops last.
    pub fn stacks(&self) -> (&[usize], &[usize]) {
        (&self.done, &self.undone)
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

#[cfg(test)]
mod fold_tests {
    use super::{ActionKind::*, UndoFold};

    /// do 0, do 1, undo (1 out), redo (1 back), undo (1 out), do 5: the redo stack is cleared,
    /// so 1 stays out for good; undo and redo actions never count themselves.
    #[test]
    fn the_fold_follows_undo_redo_and_a_new_do() {
        let mut f = UndoFold::default();
        for kind in [Do, Do, Undo, Redo, Undo, Do] {
            f.push(kind);
        }
        let counts: Vec<bool> = (0..f.len()).map(|i| f.in_force(i)).collect();
        assert_eq!(counts, [true, false, false, false, false, true]);
        assert_eq!(f.stacks(), (&[0, 5][..], &[][..]));
        assert!(!f.in_force(99));
    }
}
