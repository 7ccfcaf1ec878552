//! A whole exported log brought into a new ladder as it is read, piece by piece: each
//! action's rows are packed and written as they come, so a log of ten million rows is never
//! held whole — what stays in memory is a map of the log's row numbers, as runs.

use super::actions::NewAction;
use super::caches::CacheHead;
use super::codec::Encoder;
use super::export::{ActionKind, Log};
use super::runs::Runs;
use super::{Result, Store, StoreError, today_stamp};
use rungs_ladder::event::{Entry, LogRow};
use rungs_ladder::rules::Rules;

/// One piece of a log in the order a log file gives them: an action, then its rows.
#[derive(Debug, Clone, PartialEq)]
pub enum LogPiece {
    Action { kind: ActionKind, label: String },
    Row(LogRow),
}

/// Why an import stopped: the log's source (a bad line) or the ladder.
#[derive(Debug)]
pub enum ImportFailure<E> {
    Source(E),
    Store(StoreError),
}

impl<E> From<StoreError> for ImportFailure<E> {
    fn from(e: StoreError) -> Self {
        ImportFailure::Store(e)
    }
}

impl Store {
    /// Loads a whole log held in memory into this ladder, which must be new: see
    /// [`Store::import_pieces`].
    pub fn import_log(&mut self, log: &Log) -> Result<()> {
        let mut pieces = log.actions.iter().flat_map(|a| {
            std::iter::once(LogPiece::Action {
                kind: a.kind,
                label: a.label.clone(),
            })
            .chain(a.rows.iter().cloned().map(LogPiece::Row))
        });
        let mut next = || Ok::<_, std::convert::Infallible>(pieces.next());
        self.import_pieces(&log.rules, &mut next)
            .map_err(|e| match e {
                ImportFailure::Store(e) => e,
                ImportFailure::Source(never) => match never {},
            })
    }

    /// Loads a log into this ladder, which must be new (no actions yet), taking its pieces
    /// from `next` until it gives `None`. One transaction: a log that fails to read or to
    /// replay leaves the ladder as it was. Actions are numbered 1, 2, 3, … and rows likewise,
    /// in the log's order, whatever numbers the log gave them (its corrections follow their
    /// rows): an id a log chose never steers undo.
    pub fn import_pieces<E>(
        &mut self,
        rules: &Rules,
        next: &mut dyn FnMut() -> std::result::Result<Option<LogPiece>, E>,
    ) -> std::result::Result<(), ImportFailure<E>> {
        let tx = self.begin()?;
        let existing: i64 = tx
            .query_row("SELECT COUNT(*) FROM actions", [], |r| r.get(0))
            .map_err(|e| self.sql(e))?;
        if existing > 0 {
            return Err(StoreError::Invalid(format!(
                "{}: already holds {existing} actions; import a log into a new ladder",
                self.name()
            ))
            .into());
        }
        let rules_json =
            serde_json::to_string(rules).map_err(|e| StoreError::Invalid(e.to_string()))?;
        tx.execute(
            "UPDATE meta SET value = ?1 WHERE key = 'rules'",
            [&rules_json],
        )
        .map_err(|e| self.sql(e))?;
        let mut head = CacheHead::new(super::digest::Stamp::empty(&rules_json));
        // The log's own numbers for its rows, in order: a correction names its row by them.
        let mut old_seqs = Runs::default();
        let stamp = today_stamp();
        let mut action = 0i64;
        let mut encoder: Option<Encoder> = None;
        let mut next_block = 1i64;
        let invalid = |message: String| StoreError::Invalid(format!("{}: {message}", self.name()));
        loop {
            let piece = next().map_err(ImportFailure::Source)?;
            if !matches!(piece, Some(LogPiece::Row(_)))
                && let Some(done) = encoder.take()
            {
                next_block =
                    self.write_blocks(&tx, &mut head, action, next_block, &done.finish())?;
            }
            match piece {
                None => break,
                Some(LogPiece::Action { kind, label }) => {
                    action += 1;
                    let row = NewAction {
                        id: action,
                        kind,
                        label: &label,
                        at: &stamp,
                    };
                    self.write_action(&tx, &mut head, &row, next_block, &[])?;
                    encoder = Some(Encoder::default());
                }
                Some(LogPiece::Row(row)) => {
                    let Some(enc) = encoder.as_mut() else {
                        return Err(invalid(format!(
                            "the log's row {} comes before any action",
                            row.seq
                        ))
                        .into());
                    };
                    if !old_seqs.push(row.seq) {
                        return Err(
                            invalid("the log's rows are not in increasing order".into()).into()
                        );
                    }
                    let renumber = |target: u64| -> Result<u64> {
                        match old_seqs.place_of(target) {
                            Some(place) if target < row.seq => Ok(place + 1),
                            _ => Err(invalid(format!(
                                "log row {} corrects row {target}, which is not an earlier \
                                 row of the log",
                                row.seq
                            ))),
                        }
                    };
                    let entry = match row.entry {
                        Entry::Add { event } => Entry::Add { event },
                        Entry::Edit { target, event } => Entry::Edit {
                            target: renumber(target)?,
                            event,
                        },
                        Entry::Delete { target } => Entry::Delete {
                            target: renumber(target)?,
                        },
                    };
                    if let Entry::Add { event } | Entry::Edit { event, .. } = &entry {
                        let seq = usize::try_from(row.seq).unwrap_or(usize::MAX);
                        super::checked::check(seq, event)
                            .map_err(|e| invalid(format!("the log's {e}")))?;
                    }
                    enc.push(row.date, &entry)
                        .map_err(|e| StoreError::Invalid(e.to_string()))?;
                    let closed = enc.take_done();
                    if !closed.is_empty() {
                        next_block =
                            self.write_blocks(&tx, &mut head, action, next_block, &closed)?;
                    }
                }
            }
        }
        tx.execute("DELETE FROM cache_history", [])
            .map_err(|e| self.sql(e))?;
        let events = self.events(&tx)?;
        self.rebuild(&tx, &events, None, head.stamp)?;
        self.check_cancel()?;
        tx.commit().map_err(|e| self.sql(e))?;
        Ok(())
    }
}
