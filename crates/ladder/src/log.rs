//! From the append-only log to the events that count, in replay order: the rules of edits,
//! deletions and undated joins, over plain rows. The store resolves its packed log by the same
//! rules in one pass (`store/events.rs`); the replay properties check the two agree.

use crate::event::{Entry, Event, LogRow, PlayerId};
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
        place_undated_joins(&mut out);
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
    place_undated_joins(&mut out);
    out.sort_by_key(|e| (e.date, e.seq));
    Ok(out)
}

/// An undated join takes place at the player's first event if that comes before the date it
/// was entered on (see [`Event::Player`]). One pass over the events, and only when the log
/// has an undated join.
fn place_undated_joins(events: &mut [Effective]) {
    let undated: HashMap<PlayerId, usize> = events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match e.event {
            Event::Player {
                id, undated: true, ..
            } => Some((id, i)),
            _ => None,
        })
        .collect();
    if undated.is_empty() {
        return;
    }
    let mut first: HashMap<PlayerId, NaiveDate> = HashMap::with_capacity(undated.len());
    for e in events.iter() {
        if matches!(e.event, Event::Player { .. }) {
            continue;
        }
        for id in e.event.players() {
            if undated.contains_key(&id) {
                first
                    .entry(id)
                    .and_modify(|d| *d = (*d).min(e.date))
                    .or_insert(e.date);
            }
        }
    }
    for (id, i) in undated {
        if let Some(&date) = first.get(&id) {
            events[i].date = events[i].date.min(date);
        }
    }
}

/// The replay-order key of the earliest event that `row` changes: the start of the date of
/// an addition, of the earlier of a correction's old and new dates. From the start of the
/// date, because an undated join the event names moves with it, ahead of the events already
/// on that date.
pub fn first_affected(row: &LogRow, current: &HashMap<u64, NaiveDate>) -> (NaiveDate, u64) {
    let date = match &row.entry {
        Entry::Add { .. } => row.date,
        Entry::Edit { target, .. } => current
            .get(target)
            .copied()
            .unwrap_or(row.date)
            .min(row.date),
        Entry::Delete { target } => current.get(target).copied().unwrap_or(row.date),
    };
    (date, 0)
}
