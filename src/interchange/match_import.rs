//! Turning parsed CSV matches into log entries: names to player ids, new players joining on
//! the date of their first match.

use crate::interchange::csv_matches::{CsvError, CsvMatch};
use crate::ladder::event::{Entry, Event, Match, PlayerId};
use chrono::NaiveDate;
use std::collections::HashMap;

/// The entries an import will commit.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// In replay order: by date (a file's own order within a date), each new player just
    /// before their first match.
    pub entries: Vec<(NaiveDate, Entry)>,
    pub new_players: usize,
    pub matches: usize,
}

/// Plans an import. `existing` maps lower-cased current names to ids; `next_id` is the first
/// free id. With `allow_new` false an unknown name is an error naming its line and column.
pub fn plan(
    rows: impl IntoIterator<Item = Result<CsvMatch, CsvError>>,
    file: &str,
    existing: &HashMap<String, PlayerId>,
    next_id: PlayerId,
    allow_new: bool,
) -> Result<Plan, CsvError> {
    let mut matches: Vec<CsvMatch> = Vec::new();
    for row in rows {
        matches.push(row?);
    }
    // A stable sort keeps the file's order within a date, which replay would keep anyway.
    matches.sort_by_key(|m| m.date);
    let mut ids: HashMap<String, (PlayerId, bool)> = existing
        .iter()
        .map(|(k, v)| (k.clone(), (*v, true)))
        .collect();
    let mut next = next_id;
    let mut entries = Vec::with_capacity(matches.len() + 64);
    let mut new_players = 0;
    for m in &matches {
        let mut side = |name: &str, column: &str, entries: &mut Vec<(NaiveDate, Entry)>| {
            let key = name.trim().to_lowercase();
            if let Some((id, _)) = ids.get(&key) {
                return Ok(*id);
            }
            if !allow_new {
                return Err(CsvError {
                    file: file.to_string(),
                    line: m.line,
                    field: column.to_string(),
                    message: format!(
                        "unknown player `{name}` (add the player first, or allow new players)"
                    ),
                });
            }
            let id = next;
            next += 1;
            new_players += 1;
            ids.insert(key, (id, false));
            entries.push((
                m.date,
                Entry::Add {
                    event: Event::Player {
                        id,
                        name: name.trim().to_string(),
                    },
                },
            ));
            Ok(id)
        };
        let a = side(&m.player_a, "player_a", &mut entries)?;
        let b = side(&m.player_b, "player_b", &mut entries)?;
        entries.push((
            m.date,
            Entry::Add {
                event: Event::Match(Match {
                    a: a.into(),
                    b: b.into(),
                    result: m.result,
                    medals: m.medals,
                    scenario: m.scenario.clone(),
                    side_a: m.side_a.clone(),
                }),
            },
        ));
    }
    Ok(Plan {
        entries,
        new_players,
        matches: matches.len(),
    })
}

/// What stopped an import. The ladder is unchanged.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    #[error(transparent)]
    Csv(#[from] CsvError),
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    #[error("import cancelled; the ladder is unchanged")]
    Cancelled,
}

/// What an import did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Summary {
    pub matches: usize,
    pub new_players: usize,
}

/// Imports a match CSV (gzipped if its name ends in `.gz`) into `store` as one action: all of
/// it or, on the first bad line, none. `progress` hears the bytes read so far and returns
/// false to cancel.
pub fn import_file(
    store: &mut crate::store::Store,
    path: &std::path::Path,
    mapping: &crate::interchange::csv_matches::Mapping,
    allow_new: bool,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Summary, ImportError> {
    let reader = crate::interchange::csv_matches::open(path, mapping)?;
    import_reader(
        store,
        reader,
        &path.display().to_string(),
        allow_new,
        progress,
    )
}

/// [`import_file`] from any match reader; `name` labels the action.
pub fn import_reader<R: std::io::Read>(
    store: &mut crate::store::Store,
    mut reader: crate::interchange::csv_matches::MatchReader<R>,
    name: &str,
    allow_new: bool,
    progress: &mut dyn FnMut(u64) -> bool,
) -> Result<Summary, ImportError> {
    let existing = store.player_ids()?;
    let next = store.ladder()?.players.len() as PlayerId;
    let mut rows = Vec::new();
    while let Some(row) = reader.next() {
        rows.push(Ok(row?));
        if rows.len() % 4096 == 0 && !progress(reader.bytes_read()) {
            return Err(ImportError::Cancelled);
        }
    }
    if !progress(reader.bytes_read()) {
        return Err(ImportError::Cancelled);
    }
    let plan = plan(rows, name, &existing, next, allow_new)?;
    let label = format!("import {name} ({} matches)", plan.matches);
    store.commit(&label, &plan.entries)?;
    Ok(Summary {
        matches: plan.matches,
        new_players: plan.new_players,
    })
}
