//! The server's actions read and brought into a replica. A row a person or a program wrote
//! on the server by hand is data, never trusted: each action's kind, rows (JSON of the log's
//! row form, every name and number checked as a change made here is) and numbering are
//! checked before anything lands, and an action that fails is refused by its number and change
//! id with the replica left as it was.

use super::error::SharedError;
use super::schema;
use super::server::{RawAction, Server, ServerAction};
use crate::export::ActionKind;
use crate::import::{ImportFailure, LogPiece};
use crate::log::stacks;
use crate::newfile::NewLadder;
use crate::{Change, Store, StoreError};
use rungs_ladder::event::{Entry, LogRow};
use rungs_ladder::rules::Rules;
use std::path::Path;

/// How many actions one read from the server brings at most.
const PAGE: i64 = 2000;

fn hostile(place: &str, raw: &RawAction, what: impl Into<String>) -> SharedError {
    SharedError::Hostile {
        place: place.into(),
        seq: raw.seq,
        change_id: rungs_ladder::values::shown(&raw.change_id).into_owned(),
        what: what.into(),
    }
}

/// One action as read, checked as far as it can be without the ladder; `expected` is the
/// number it must carry and `first_row` the number its first row must carry.
fn checked(
    place: &str,
    raw: RawAction,
    expected: i64,
    first_row: i64,
) -> Result<ServerAction, SharedError> {
    if raw.seq != expected {
        return Err(hostile(
            place,
            &raw,
            format!("it is numbered {} where {expected} comes next", raw.seq),
        ));
    }
    let kind = ActionKind::parse(&raw.kind).ok_or_else(|| {
        hostile(
            place,
            &raw,
            format!(
                "its kind `{}` is none rungs writes",
                rungs_ladder::values::shown(&raw.kind)
            ),
        )
    })?;
    let rows: Vec<LogRow> = serde_json::from_str(&raw.rows).map_err(|e| {
        hostile(
            place,
            &raw,
            format!("its rows do not read as a rungs log's rows ({e})"),
        )
    })?;
    if kind != ActionKind::Do && (!rows.is_empty() || raw.target.is_none()) {
        return Err(hostile(
            place,
            &raw,
            "an undo or a redo carries no rows and names the action it toggles",
        ));
    }
    for (i, row) in rows.iter().enumerate() {
        if row.seq != (first_row + i as i64) as u64 {
            return Err(hostile(
                place,
                &raw,
                format!(
                    "its row {} is numbered {} where {} comes next",
                    i + 1,
                    row.seq,
                    first_row + i as i64
                ),
            ));
        }
        if let Entry::Add { event } | Entry::Edit { event, .. } = &row.entry {
            crate::checked::check(i + 1, event).map_err(|e| hostile(place, &raw, e.to_string()))?;
        }
        if let Entry::Edit { target, .. } | Entry::Delete { target } = &row.entry
            && *target >= row.seq
        {
            return Err(hostile(
                place,
                &raw,
                format!(
                    "its row {} corrects row {target}, which is not an earlier row",
                    row.seq
                ),
            ));
        }
    }
    Ok(ServerAction {
        seq: raw.seq,
        change_id: raw.change_id,
        kind,
        target: raw.target,
        label: raw.label,
        rows,
        author: raw.author,
        at: local_time(&raw.at),
    })
}

/// `YYYY-MM-DDTHH:MM:SS` in UTC, as this machine's clock reads it: `YYYY-MM-DD HH:MM`.
fn local_time(utc: &str) -> String {
    chrono::NaiveDateTime::parse_from_str(utc, "%Y-%m-%dT%H:%M:%S")
        .map(|t| {
            t.and_utc()
                .with_timezone(&chrono::Local)
                .format("%Y-%m-%d %H:%M")
                .to_string()
        })
        .unwrap_or_else(|_| utc.to_string())
}

impl Server {
    /// The server's actions after `after` (whose last row is `last_row`), read and checked.
    pub fn actions_after(
        &mut self,
        after: i64,
        mut last_row: i64,
    ) -> Result<Vec<ServerAction>, SharedError> {
        let place = self.url.shown.clone();
        let mut out = Vec::new();
        let mut next = after + 1;
        loop {
            let page = self.fetch(next - 1, PAGE)?;
            let full = page.len() as i64 == PAGE;
            for raw in page {
                let action = checked(&place, raw, next, last_row + 1)?;
                last_row += action.rows.len() as i64;
                next += 1;
                out.push(action);
            }
            if !full {
                return Ok(out);
            }
        }
    }

    /// Makes `path` (which must not exist) a replica of the whole ladder: every action read,
    /// checked and imported in one transaction, so a refused action leaves no file. Returns
    /// the ladder and the head it holds.
    pub fn pull_whole(&mut self, path: &Path) -> Result<(Store, i64), SharedError> {
        let place = self.url.shown.clone();
        let (rules_text, _) = self.ladder()?;
        let rules: Rules = serde_json::from_str(&rules_text).map_err(|e| SharedError::Hostile {
            place: place.clone(),
            seq: 0,
            change_id: "the ladder's rules".into(),
            what: format!("its rules do not read ({e})"),
        })?;
        rules.check().map_err(|e| SharedError::Hostile {
            place: place.clone(),
            seq: 0,
            change_id: "the ladder's rules".into(),
            what: e.to_string(),
        })?;
        let mut made = NewLadder::begin(path, &rules)?;
        let mut queue: std::collections::VecDeque<LogPiece> = Default::default();
        let (mut seq, mut last_row, mut done) = (0i64, 0i64, false);
        let mut next = || -> Result<Option<LogPiece>, SharedError> {
            loop {
                if let Some(piece) = queue.pop_front() {
                    return Ok(Some(piece));
                }
                if done {
                    return Ok(None);
                }
                let page = self.fetch(seq, PAGE)?;
                done = (page.len() as i64) < PAGE;
                for raw in page {
                    let action = checked(&place, raw, seq + 1, last_row + 1)?;
                    seq += 1;
                    last_row += action.rows.len() as i64;
                    queue.push_back(LogPiece::Action {
                        kind: action.kind,
                        label: action.label,
                    });
                    queue.extend(action.rows.into_iter().map(LogPiece::Row));
                }
            }
        };
        match made.store()?.import_pieces(&rules, &mut next) {
            Ok(()) => {}
            Err(ImportFailure::Source(e)) => return Err(e),
            Err(ImportFailure::Store(e)) => {
                return Err(SharedError::Hostile {
                    place,
                    seq,
                    change_id: "(the whole log)".into(),
                    what: e.to_string(),
                });
            }
        }
        Ok((made.finish()?, seq))
    }
}

impl Store {
    /// Brings the server's `actions` (checked by [`Server::actions_after`]) into this
    /// replica, which holds the server's log up to the action before the first of them and
    /// nothing after. Each is one transaction, checked against the ladder as it stands (its
    /// ids, its replay, an undo's or a redo's target): a refused one is named by its number
    /// and change id, and it and those after it do not land.
    pub fn replay_server(
        &mut self,
        place: &str,
        actions: &[ServerAction],
    ) -> Result<(), SharedError> {
        for action in actions {
            let refuse = |what: String| SharedError::Hostile {
                place: place.into(),
                seq: action.seq,
                change_id: rungs_ladder::values::shown(&action.change_id).into_owned(),
                what,
            };
            if self.last_action()? != action.seq - 1 {
                return Err(refuse(format!(
                    "the replica does not end at action {}",
                    action.seq - 1
                )));
            }
            match action.kind {
                ActionKind::Do => {
                    let first = self.last_row()? + 1;
                    if action.rows.first().is_some_and(|r| r.seq as i64 != first) {
                        return Err(refuse(format!(
                            "its rows begin at {} where {first} comes next",
                            action.rows[0].seq
                        )));
                    }
                    let rows = action
                        .rows
                        .iter()
                        .map(|r| (r.date, r.entry.clone()))
                        .collect();
                    let change = Change::new(action.label.clone(), rows)
                        .map_err(|e| refuse(e.to_string()))?;
                    if change.rows().is_empty() {
                        return Err(refuse("it holds no rows".into()));
                    }
                    self.commit(&change).map_err(|e| refuse(store_words(e)))?;
                }
                kind => {
                    let kinds = self.action_kinds(&self.conn)?;
                    let (done, undone) = stacks(&kinds);
                    let top = if kind == ActionKind::Undo {
                        done.last()
                    } else {
                        undone.last()
                    };
                    if top.copied() != action.target {
                        let (verb, what) = match kind {
                            ActionKind::Undo => ("undoes", "the latest change"),
                            _ => ("redoes", "the latest undone change"),
                        };
                        return Err(refuse(format!(
                            "it {verb} action {} where {what} is {}",
                            action.target.unwrap_or(0),
                            top.map_or("none".to_string(), |t| format!("action {t}"))
                        )));
                    }
                    let toggled = if kind == ActionKind::Undo {
                        self.undo()
                    } else {
                        self.redo()
                    };
                    toggled.map_err(|e| refuse(store_words(e)))?;
                }
            }
        }
        Ok(())
    }
}

fn store_words(e: StoreError) -> String {
    e.to_string()
}

/// The server's schema is this rungs' (re-exported for the doors' messages).
pub const SCHEMA_VERSION: i32 = schema::VERSION;
