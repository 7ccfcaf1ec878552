//! A change's rows looked at once before they are written (their ids, corrections, order and
//! each player's history rows, in one pass), and the replay of a large change, which runs
//! beside other work: a million rows are 168 MB to read, and a second core is idle otherwise.

use super::histories::{Histories, RowCounter};
use super::{Result, Store, StoreError};
use chrono::NaiveDate;
use rungs_ladder::event::{Entry, Event, PlayerId};
use rungs_ladder::replay::ReplayError;
use rungs_ladder::state::Ladder;
use rusqlite::Connection;

/// A change of more rows than this encodes its log, and replays, beside the log's writing
/// and the checks (and packs its histories beside the replay): work for the second core.
pub(super) const BESIDE: usize = 1 << 14;

/// What a scoped thread returned; its panic goes on.
pub(super) fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Replays `rows` (numbered `seqs`) on `ladder`, packing the history rows they give into
/// `histories`; the players each event touched go to `touched` when asked for.
pub(super) fn replay(
    ladder: &mut Ladder,
    rows: &[(NaiveDate, Entry)],
    seqs: &[u64],
    histories: Histories,
    mut touched: Option<&mut Vec<PlayerId>>,
) -> (Histories, std::result::Result<(), ReplayError>) {
    let mut scratch = Vec::new();
    histories.packed_beside(rows.len() > BESIDE, |add| {
        for ((date, entry), seq) in rows.iter().zip(seqs) {
            let Entry::Add { event } = entry else {
                continue;
            };
            ladder.apply(*date, *seq, event, &mut scratch)?;
            if let Some(touched) = touched.as_deref_mut() {
                touched.extend(scratch.iter().map(|h| h.player));
                if let Event::Rename { id, .. } | Event::Retire { id, .. } = event {
                    touched.push(*id);
                }
            }
            add(&scratch);
            scratch.clear();
        }
        Ok(())
    })
}

/// What one pass over a change's rows finds besides their ids' soundness.
pub(super) struct Survey {
    /// The rows the change's corrections target.
    pub corrected: Vec<u64>,
    /// Whether the rows add events after everything cached, in order (the fast path).
    pub after_all: bool,
    /// The history rows each player named gets.
    pub counter: RowCounter,
}

impl Store {
    /// Refuses rows naming a player id beyond the players the ladder holds and those the rows
    /// bring in: no commit makes the caches allocate for players that do not exist. The same
    /// pass finds what [`Survey`] holds (a million rows are 168 MB to read: one pass, not
    /// four); `first_seq` is the first row's number, `last` the replay key of the last event
    /// cached.
    pub(super) fn survey(
        &self,
        tx: &Connection,
        rows: &[(NaiveDate, Entry)],
        first_seq: u64,
        last: Option<(NaiveDate, u64)>,
    ) -> Result<Survey> {
        let mut players = self.cached_players(tx)?;
        let mut corrected = Vec::new();
        let mut counter = RowCounter::default();
        let (mut in_order, mut before) = (true, NaiveDate::MIN);
        for (i, (date, entry)) in rows.iter().enumerate() {
            in_order &= before <= *date;
            before = *date;
            let event = match entry {
                Entry::Add { event } => event,
                Entry::Edit { target, event } => {
                    corrected.push(*target);
                    event
                }
                Entry::Delete { target } => {
                    corrected.push(*target);
                    continue;
                }
            };
            match event {
                Event::Player { id, .. } => {
                    if u64::from(*id) > players {
                        return Err(StoreError::Invalid(format!(
                            "{}: row {} of the change gives a new player id {id}, skipping ids \
                             (the next new player is #{players})",
                            self.name(),
                            i + 1
                        )));
                    }
                    players = players.max(u64::from(*id) + 1);
                }
                other => {
                    let beyond = |id: &PlayerId| u64::from(*id) >= players;
                    let found = match other {
                        Event::Match(m) => m.a.iter().chain(m.b.iter()).copied().find(beyond),
                        _ => other.players().into_iter().find(beyond),
                    };
                    if let Some(id) = found {
                        return Err(StoreError::Invalid(format!(
                            "{}: row {} of the change names player #{id}, who is not on the \
                             ladder ({players} players)",
                            self.name(),
                            i + 1
                        )));
                    }
                }
            }
            if let Entry::Add { event } = entry {
                counter.add(event);
            }
        }
        // Rows in date order, numbered on: all come after the last cached if the first does.
        let after_all = corrected.is_empty()
            && in_order
            && rows
                .first()
                .is_none_or(|(d, _)| last.is_none_or(|k| (*d, first_seq) > k));
        Ok(Survey {
            corrected,
            after_all,
            counter,
        })
    }
}
