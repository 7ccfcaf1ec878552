//! From the append-only log to the events that count, in replay order.

use crate::ladder::event::{Entry, Event, LogRow};
use chrono::NaiveDate;
use std::collections::HashMap;

/// An event as it stands after every edit and deletion, at its place in replay order.
#[derive(Debug, Clone, PartialEq)]
pub struct Effective {
    pub date: NaiveDate,
    pub seq: u64,
    pub event: Event,
}

/// A correction that points at nothing.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("log row {seq} corrects row {target}, which does not exist or was deleted")]
pub struct DanglingCorrection {
    pub seq: u64,
    pub target: u64,
}

/// Applies edits and deletions (in entry order) and sorts what remains by (date, seq).
pub fn resolve(rows: &[LogRow]) -> Result<Vec<Effective>, DanglingCorrection> {
    resolve_owned(rows.to_vec())
}

/// [`resolve`], taking the rows so that no event is copied (a million-match log stays one
/// copy in memory).
pub fn resolve_owned(rows: Vec<LogRow>) -> Result<Vec<Effective>, DanglingCorrection> {
    let corrections = rows.iter().any(|r| !matches!(r.entry, Entry::Add { .. }));
    if !corrections {
        let mut out: Vec<Effective> = rows
            .into_iter()
            .filter_map(|r| match r.entry {
                Entry::Add { event } => Some(Effective {
                    date: r.date,
                    seq: r.seq,
                    event,
                }),
                _ => None,
            })
            .collect();
        out.sort_by_key(|e| (e.date, e.seq));
        return Ok(out);
    }
    resolve_with_corrections(&rows)
}

fn resolve_with_corrections(rows: &[LogRow]) -> Result<Vec<Effective>, DanglingCorrection> {
    let mut live: HashMap<u64, (NaiveDate, &Event)> = HashMap::with_capacity(rows.len());
    let mut order: Vec<u64> = Vec::with_capacity(rows.len());
    for row in rows {
        match &row.entry {
            Entry::Add { event } => {
                live.insert(row.seq, (row.date, event));
                order.push(row.seq);
            }
            Entry::Edit { target, event } => match live.get_mut(target) {
                Some(slot) => *slot = (row.date, event),
                None => {
                    return Err(DanglingCorrection {
                        seq: row.seq,
                        target: *target,
                    });
                }
            },
            Entry::Delete { target } => {
                if live.remove(target).is_none() {
                    return Err(DanglingCorrection {
                        seq: row.seq,
                        target: *target,
                    });
                }
            }
        }
    }
    let mut out: Vec<Effective> = order
        .into_iter()
        .filter_map(|seq| {
            live.get(&seq).map(|(date, event)| Effective {
                date: *date,
                seq,
                event: (*event).clone(),
            })
        })
        .collect();
    out.sort_by_key(|e| (e.date, e.seq));
    Ok(out)
}

/// The replay-order key of the earliest event that `row` changes: for an addition its own
/// place, for a correction the earlier of the target's old place and its new one.
pub fn first_affected(row: &LogRow, current: &HashMap<u64, NaiveDate>) -> (NaiveDate, u64) {
    match &row.entry {
        Entry::Add { .. } => (row.date, row.seq),
        Entry::Edit { target, .. } => {
            let old = current.get(target).copied().unwrap_or(row.date);
            (old.min(row.date), *target)
        }
        Entry::Delete { target } => (current.get(target).copied().unwrap_or(row.date), *target),
    }
}
